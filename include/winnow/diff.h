/* winnow — the hunks of a patch mail's diff (src/lib/mail/diff.c):
 * which files and functions a patch changes, and where in the mail each
 * hunk starts.  Below the index, so that linking, which reads every
 * patch, can keep what a series' pass asks of a patch's diff. */
#ifndef WINNOW_DIFF_H
#define WINNOW_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "winnow/status.h"

/* A file path as bots and diffs write it, normalised: without a leading
 * "a/", "b/" or "./", doubled '/' made one, up to the first blank.
 * malloc'd; NULL for NULL or empty (or out of memory). */
char *wn_diff_path(const char *file);

/* One hunk of a patch mail's diff. */
typedef struct wn_hunk {
	char *file;		/* wn_diff_path() of the new name */
	char **functions;	/* what it changes: the function the "@@" line
				 * names and every function defined in it; NULL-terminated */
	int new_line;		/* first line in the new file */
	int mail_line;		/* its "@@" line in the decoded body, from 1 */
} wn_hunk;

typedef struct wn_diff {
	wn_hunk *h;
	size_t n;
} wn_diff;

/* The hunks of a patch mail's body (decoded text). */
wn_status wn_diff_parse(const char *body, size_t len, wn_diff *out);
void wn_diff_clear(wn_diff *d);
/* The first hunk changing function (wn_sim_function form) in file
 * (wn_diff_path form); function NULL: any hunk of the file.  NULL when
 * none. */
const wn_hunk *wn_diff_find(const wn_diff *d, const char *file, const char *function);

/* What wn_diff_find() can answer of a diff, as a few bytes a hunk: a
 * key for each hunk's file and for each (file, function) pair it
 * changes, sorted, each once.  Linking keeps them for every patch it
 * reads, so that a series' pass asks a patch's mail only about a place
 * its diff may change. */
typedef struct wn_diff_keys {
	uint64_t *v;
	size_t n;
} wn_diff_keys;

wn_status wn_diff_keys_of(const wn_diff *d, wn_diff_keys *out);
/* The same keys straight from a body, no hunk built: what
 * wn_diff_keys_of(wn_diff_parse(body)) gives. */
wn_status wn_diff_keys_parse(const char *body, size_t len, wn_diff_keys *out);
/* False only when wn_diff_find(d, file, function) is NULL for the d
 * the keys came from; true may still be no (two places, one key). */
bool wn_diff_keys_may_find(const wn_diff_keys *keys, const char *file, const char *function);
void wn_diff_keys_clear(wn_diff_keys *keys);

#endif
