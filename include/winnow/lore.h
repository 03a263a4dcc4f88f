/* winnow — mail from lore and the code it is about (src/lib/lore/):
 * winnow fetch through lei's saved searches, and the kernel tree
 * (winnow.tree) a finding is read in, with the series applied by b4.
 * lei, b4, git and notmuch run through the one process runner
 * (proc.h): argv, never a shell. */
#ifndef WINNOW_LORE_H
#define WINNOW_LORE_H

#include <stdbool.h>
#include <stddef.h>

#include "winnow/buf.h"
#include "winnow/index.h"
#include "winnow/review.h"
#include "winnow/status.h"

/* --- fetch ---------------------------------------------------------------- */

/* What winnow fetch runs, made from the configuration. */
typedef struct wn_fetch {
	char *query;		/* lei's query: the files' dfn: and b: terms, rt: */
	char *folder;		/* the maildir lei writes, inside the database */
	char **init_argv;	/* lei q ... -o maildir:FOLDER QUERY (saves the search) */
	char **up_argv;		/* lei up FOLDER */
	int timeout;		/* seconds lei may take (winnow.tool_timeout; 0: no limit) */
} wn_fetch;

/* Plan the fetch from winnow.files, winnow.sections (read from
 * winnow.tree's MAINTAINERS), winnow.fetch_since and
 * winnow.fetch_folder.  WN_CONFIG, naming the key, for a value that
 * cannot make a safe query or folder, or when there are no files. */
wn_status wn_fetch_plan(wn_index *idx, wn_fetch *f, wn_error *err);
void wn_fetch_clear(wn_fetch *f);

/* The lei query for these patterns: each file pattern as a dfn: and
 * a b: term (a glob cut at its folder), excluded ones left out, then
 * "rt:SINCE..".  Malloc'd into *out.  WN_CONFIG when a pattern holds
 * something a path does not (it would change the query), or since is
 * not one of lei's dates ("4.weeks.ago", "2026-01-01", "yesterday"). */
wn_status wn_fetch_query(char *const *files, char *const *excluded, const char *since,
			 char **out, wn_error *err);

/* winnow.fetch_folder: one folder's name inside the database (so that
 * lei writes, and clobbers, nothing outside it), not a maildir's own
 * cur, new or tmp nor notmuch's .notmuch, not starting with '-', no
 * control character.  WN_CONFIG saying which. */
wn_status wn_fetch_check_folder(const char *folder, wn_error *err);

/* The F: and X: patterns of the MAINTAINERS sections named (case
 * ignored) in the file text (len bytes), appended to *files and
 * *excluded (NULL-terminated, wn_strv_free).  WN_NOT_FOUND naming the
 * first section that is not there. */
wn_status wn_maintainers_patterns(const char *text, size_t len, char *const *sections,
				  char ***files, char ***excluded, wn_error *err);

/* Run lei (argv, one of f's) and wait, at most f->timeout seconds or
 * until Ctrl-C.  When it fails, err is lei's own last line of
 * complaint ("lei: ..." if it said nothing), or that it was stopped;
 * its "# ..." progress lines go to *progress when not NULL. */
wn_status wn_fetch_lei(const wn_fetch *f, char *const *argv, wn_buf *progress, wn_error *err);

/* notmuch new on the database idx reads (the notmuch program, with
 * the same config file), then idx refreshed to see what it added. */
wn_status wn_fetch_notmuch_new(wn_index *idx, wn_error *err);

/* How many messages the database holds, and how many reviews
 * (winnow.query) among them. */
wn_status wn_fetch_count(wn_index *idx, size_t *messages, size_t *reviews, wn_error *err);

/* --- the tree ------------------------------------------------------------ */

/* Where a review's findings are read: the kernel tree winnow.tree with
 * the patch's series applied by b4 (b4 shazam in a git worktree under
 * $XDG_CACHE_HOME/winnow/trees, made once per series and tree and reused; a
 * patch's review sees it checked out at that patch), or the tree as it
 * is when that cannot be. */
typedef struct wn_tree {
	char *root;		/* the folder files are read in */
	bool applied;		/* b4 applied the series there */
	int upto, patches;	/* applied: at patch upto of the patches b4 applied */
	char *why;		/* not applied: why, in b4's or git's words; NULL */
} wn_tree;

/* Prepare it's tree.  b4 gets the patch's thread from the database as
 * an mbox and runs offline: no network is needed.  Failing to apply
 * is no error (t->why says it), nor is b4 or git taking longer than
 * winnow.tool_timeout (stopped); WN_CONFIG when winnow.tree is unset
 * or no folder, WN_IO when Ctrl-C stopped it. */
wn_status wn_tree_prepare(wn_index *idx, const wn_item *it, wn_tree *t, wn_error *err);
void wn_tree_clear(wn_tree *t);

/* The finding's file in the tree (malloc'd into *path), refusing a
 * name that leaves it (absolute, "..": the name comes from mail) and
 * a file that is no regular file or is reached through a symbolic
 * link (a patch can add one): WN_PARSE, saying so.  WN_NOT_FOUND when
 * the finding names no file or the tree lacks it. */
wn_status wn_tree_file(const wn_tree *t, const wn_finding *f, char **path, wn_error *err);
/* The text of that file, as wn_tree_file finds it (malloc'd into
 * *text, NUL-terminated, *len bytes), read through the descriptor the
 * check opened; a file of more than max bytes is refused. */
wn_status wn_tree_read(const wn_tree *t, const wn_finding *f, size_t max, char **text, size_t *len,
		       wn_error *err);

/* $VISUAL/$EDITOR on the finding's file at its line ("+LINE FILE", as
 * vi, emacs and nano take it), on the caller's terminal. */
wn_status wn_tree_edit(const wn_tree *t, const wn_finding *f, wn_error *err);

/* The C function around line (from 1) of text: its first line (the
 * signature) and its closing brace, into *start and *end (from 1).
 * False when line is in no function ("{" and "}" in the first column,
 * as the kernel writes them). */
bool wn_tree_function(const char *text, size_t len, int line, int *start, int *end);

#endif
