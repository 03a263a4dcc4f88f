/* winnow — series awareness: which patch of which version of which
 * series a review is about, what the later patches of that series and
 * the later versions of that patch change, and what that says about a
 * finding:
 *
 *   - a later patch of the same series (same thread, or same author,
 *     prefix, version and count within days) changes the finding's
 *     function too: "patch 4/5 changes this function too", the finding
 *     may be one the series handles itself;
 *   - a finding judged valid on vN that the same bot no longer reports
 *     on a later version of the patch, whose diff still changes that
 *     function: "likely fixed in vM".
 *
 * Everything here reads the index and the mails; nothing is stored.  A
 * wn_series caches what it read (patches, their diffs, later versions),
 * so a pass over many reviews reads each patch once. */
#ifndef WINNOW_SERIES_H
#define WINNOW_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "winnow/diff.h"
#include "winnow/index.h"
#include "winnow/status.h"
#include "winnow/subject.h"

/* --- the series of a review -------------------------------------------------- */

typedef struct wn_series wn_series;

/* A cache over idx, which must outlive it. */
wn_status wn_series_new(wn_index *idx, wn_series **out, wn_error *err);
void wn_series_free(wn_series **s);

/* A later patch of the same series that changes a finding's function. */
typedef struct wn_later {
	char *patch;		/* its Message-ID */
	char *subject;
	int part, total;	/* "4/5" */
	int mail_line;		/* the hunk's "@@" line in its decoded body */
	int new_line;
} wn_later;

void wn_later_clear(wn_later *l);

/* For finding i (0-based) of a loaded review: the first later patch of
 * its patch's series that changes the same file and function.
 * WN_NOT_FOUND when none does (or the review has no patch, the patch
 * is no k/n of a series, the finding has no file). */
wn_status wn_series_later(wn_series *s, const wn_item *it, size_t i, wn_later *out,
			  wn_error *err);

/* A later version of the patch on which the bot no longer reports a
 * finding judged valid. */
typedef struct wn_fixed {
	int version;		/* of the later patch: "likely fixed in v2" */
	char *patch;		/* its Message-ID */
	char *subject;
	char *review;		/* the bot's review of it */
} wn_fixed;

void wn_fixed_clear(wn_fixed *f);

/* For finding i (0-based) of a loaded review, judged valid: the first
 * later version of its patch that the same bot reviewed without a
 * similar finding (similar.h) while its diff still changes the
 * finding's function.  WN_NOT_FOUND when there is none, when the
 * finding is not valid, or no later version was reviewed yet. */
wn_status wn_series_fixed(wn_series *s, const wn_item *it, size_t i, wn_fixed *out,
			  wn_error *err);

/* The newest later version of the patch a loaded review answers
 * ("[PATCH v3]" after the v2 reviewed): version, patch and subject of
 * out (review ""), as wn_series_fixed finds versions.  WN_NOT_FOUND
 * when the index holds none (or the review has no patch): forwarding
 * findings of a version the author has moved on from is left to them
 * to ask for (forward --superseded). */
wn_status wn_series_superseded(wn_series *s, const wn_item *it, wn_fixed *out, wn_error *err);

/* What a review's later patches and fixes (wn_series_later,
 * wn_series_fixed: versions true when the latter was asked) and whether
 * its author answered are read from in the index, for the stats' facts
 * (facts.h) to tell which new or changed mail could change them: fn on
 * each thread whose messages were read (WN_DEP_THREAD), each message
 * looked up by id (WN_DEP_ID: one absent may arrive), the title whose
 * versions were searched (WN_DEP_TITLE) and the sender searched within
 * a window of dates (WN_DEP_FROM: key the address, lo..hi).  A thread
 * followed at once by an id says that message was in that thread then.
 * False when that cannot be told (out of memory). */
typedef enum { WN_DEP_THREAD = 1, WN_DEP_ID, WN_DEP_TITLE, WN_DEP_FROM } wn_dep_kind;
typedef bool (*wn_series_dep_fn)(void *arg, wn_dep_kind kind, const char *key, time_t lo,
				 time_t hi);
bool wn_series_deps(wn_series *s, const wn_item *it, bool versions, wn_series_dep_fn fn,
		    void *arg);

/* The decoded patch mail with Message-ID id as a reader sees it: the
 * From, Date, Subject and Message-ID lines, a blank line, the body;
 * sanitised for a terminal ('\n' and '\t' kept).  *header_lines is how
 * many lines come before the body, so that a hunk's mail_line is line
 * header_lines + mail_line of the text.  malloc'd. */
wn_status wn_series_patch_text(wn_series *s, const char *id, char **out, int *header_lines,
			       wn_error *err);

/* Show text in $PAGER (default less) starting at line (from 1), on the
 * caller's terminal, and wait for it.  The text goes to a private
 * temporary file (removed afterwards), given to the pager after
 * "+LINE", which less, more, most and vi understand; no shell.  A
 * pager that cannot be run, fails or is killed gives an error, as the
 * editor does (wn_proc_run_terminal).  (The TUI leaves curses mode
 * around it.) */
wn_status wn_run_pager(const char *text, int line, wn_error *err);

#endif
