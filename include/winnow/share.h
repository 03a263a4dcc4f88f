/* winnow — sharing verdicts between maintainers through git, the way
 * notmuch-git shares tags.
 *
 * winnow keeps a git repository of its own beside the journal
 * ($XDG_STATE_HOME/winnow/git-<database>), one file per review and
 * finding:
 *
 *	reviews/<2 hex digits>/<encoded Message-ID>/<fingerprint>
 *
 *	review: <Message-ID>
 *	state: false-positive
 *	severity: high			(the maintainer's, when set)
 *	reason: wrong-rule		(why, when given)
 *	author: Ann Maintainer <ann@example.org>
 *	time: 2026-11-10T10:15:00Z
 *	note: first line of the note
 *	note: second line
 *
 * Two maintainers judging different findings change different files,
 * so git merges their work without a conflict.  The same finding judged
 * differently by both since their last sync is a real conflict: the
 * merge keeps both values, the merger's in the file and the other in
 * <fingerprint>.conflict beside it, imports neither, and lists it until
 * one of them decides again (or `push --resolve` keeps the local one).
 * Nothing is ever overwritten silently.  The same decision reached by
 * both (author and time aside) is no conflict.
 *
 * The git program does the work (run without a shell, with -C); the
 * remote is any URL or path git accepts, branch "winnow". */
#ifndef WINNOW_SHARE_H
#define WINNOW_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "winnow/index.h"
#include "winnow/status.h"
#include "winnow/store.h"

/* One maintainer's decision on a finding. */
typedef struct wn_share_value {
	wn_verdict verdict;
	wn_severity severity;	/* the maintainer's own; WN_SEV_NONE */
	char *note;		/* NULL: none */
	char *author;		/* who wrote it into the repository */
	time_t when;
	/* Why the verdict; WN_REASON_NONE when not given (and in files of
	 * a winnow that kept no reasons). */
	wn_reason reason;
} wn_share_value;

void wn_share_value_clear(wn_share_value *v);

/* A finding judged differently on both sides since the last sync. */
typedef struct wn_share_conflict {
	char *review;
	char fingerprint[WN_FP_LEN + 1];
	wn_share_value ours;	/* the one this database holds */
	wn_share_value theirs;	/* the other */
} wn_share_conflict;

/* A file of the repository that was not taken: a link, a device, too
 * large, not of the layout, or holding what notmuch would refuse.  It
 * changes nothing and blocks nothing else. */
typedef struct wn_share_refused {
	char *path;		/* in the repository, as git names it */
	char *reason;
} wn_share_refused;

typedef struct wn_share_result {
	char *repo;		/* the local repository */
	size_t exported;	/* decisions written into it */
	size_t imported;	/* findings changed in notmuch from it */
	size_t skipped;		/* its decisions on reviews or findings this index lacks */
	size_t changed;		/* status: local decisions not in it yet */
	size_t ahead, behind;	/* status: its commits the remote lacks, and back */
	bool remote_empty;	/* the remote has no winnow branch yet */
	bool pushed;
	wn_share_conflict *conflicts;	/* open ones */
	size_t nconflicts;
	wn_share_refused *refused;	/* set aside, each listed once */
	size_t nrefused;
} wn_share_result;

void wn_share_result_clear(wn_share_result *r);

/* The verdicts journaled but not yet in notmuch must be flushed first
 * (the repository is made from notmuch): WN_LOCKED otherwise. */

/* Write the local decisions into the repository and commit them, fetch
 * the remote, merge it (conflicts as above) and bring what it decided
 * into notmuch through store (journaled; flush afterwards). */
wn_status wn_share_pull(wn_index *idx, wn_store *store, const char *remote, wn_share_result *out,
			wn_error *err);

/* Write and commit the local decisions and push them.  WN_USAGE (with a
 * message saying to pull) when the remote has commits not merged yet.
 * resolve: settle every open conflict with the decision this database
 * holds now. */
wn_status wn_share_push(wn_index *idx, wn_store *store, const char *remote, bool resolve,
			wn_share_result *out, wn_error *err);

/* What a pull or push would do, changing nothing but the repository's
 * knowledge of the remote: local decisions not written yet, commits
 * ahead and behind, the open conflicts. */
wn_status wn_share_status(wn_index *idx, wn_store *store, const char *remote,
			  wn_share_result *out, wn_error *err);

#endif
