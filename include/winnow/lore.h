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
#include "winnow/status.h"

/* --- fetch ---------------------------------------------------------------- */

/* What winnow fetch runs, made from the configuration. */
typedef struct wn_fetch {
	char *query;		/* lei's query: the files' dfn: and b: terms, rt: */
	char *folder;		/* the maildir lei writes, inside the database */
	char **init_argv;	/* lei q ... -o maildir:FOLDER QUERY (saves the search) */
	char **up_argv;		/* lei up FOLDER */
} wn_fetch;

/* Plan the fetch from winnow.files, winnow.sections (read from
 * winnow.tree's MAINTAINERS), winnow.fetch_since and
 * winnow.fetch_folder.  WN_CONFIG, naming the key, for a value that
 * cannot make a safe query or folder, or when there are no files. */
wn_status wn_fetch_plan(wn_index *idx, wn_fetch *f, wn_error *err);
void wn_fetch_clear(wn_fetch *f);

/* The lei query for these patterns: each file pattern as a dfn: and
 * a b: term (a glob cut at its folder), excluded ones left out, then
 * "rt:SINCE..".  Malloc'd into *out.  WN_CONFIG when a pattern or since
 * holds something a path or a date does not (it would change the
 * query). */
wn_status wn_fetch_query(char *const *files, char *const *excluded, const char *since,
			 char **out, wn_error *err);

/* The F: and X: patterns of the MAINTAINERS sections named (case
 * ignored) in the file text (len bytes), appended to *files and
 * *excluded (NULL-terminated, wn_strv_free).  WN_NOT_FOUND naming the
 * first section that is not there. */
wn_status wn_maintainers_patterns(const char *text, size_t len, char *const *sections,
				  char ***files, char ***excluded, wn_error *err);

/* Run lei (argv) and wait.  When it fails, err is lei's own last line
 * of complaint ("lei: ..." if it said nothing); its "# ..." progress
 * lines go to *progress when not NULL. */
wn_status wn_fetch_lei(char *const *argv, wn_buf *progress, wn_error *err);

/* notmuch new on the database idx reads (the notmuch program, with
 * the same config file), then idx refreshed to see what it added. */
wn_status wn_fetch_notmuch_new(wn_index *idx, wn_error *err);

/* How many messages the database holds, and how many reviews
 * (winnow.query) among them. */
wn_status wn_fetch_count(wn_index *idx, size_t *messages, size_t *reviews, wn_error *err);

#endif
