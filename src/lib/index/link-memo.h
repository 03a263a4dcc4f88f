/* winnow — the patches linking read this run (link-memo.c), for link.c.
 *
 * Several bots answer one patch, and a pass over every review read that
 * patch's mail once per review (its term list for the file name, the
 * file, its trailers).  The memo keeps what reading it gave: whether the
 * index held it, its file's identity (what the cache's record of each
 * review depends on), and the patch, or that it is none.  Bounded: the
 * newest few thousand patches, which is where a list sorted by date
 * finds the other reviews of one. */
#ifndef WINNOW_INDEX_LINK_MEMO_H
#define WINNOW_INDEX_LINK_MEMO_H

#include <stdbool.h>
#include <stddef.h>

#include "winnow/diff.h"
#include "winnow/index.h"

typedef struct wn_link_memo wn_link_memo;

/* What the memo says of one message id. */
typedef struct wn_memo_entry {
	bool held;		/* the index held it */
	bool ident_known;	/* ident was taken (the cache is on) */
	char *ident;		/* its file's identity (wn_cache_ident()); NULL: none */
	size_t ident_len;
	char *rec;		/* the patch, wn_cache_encode_patch(); NULL: no patch */
	size_t rec_len;
	/* The files the patch's own diff touches, in diff order (NULL:
	 * none): what a review of its series' cover letter asks of it. */
	char **files;
	/* Its diff's hunks as keys (wn_diff_keys_of()), what a series'
	 * pass asks of a later patch, when hunks_known. */
	bool hunks_known;
	wn_diff_keys hunks;
} wn_memo_entry;

/* A memo valid for the index's revision generation: emptied when that
 * changed since.  NULL when out of memory. */
wn_link_memo *wn_link_memo_sync(wn_link_memo **m, unsigned long generation);
void wn_link_memo_free(wn_link_memo **m);
/* The files of the messages read this run (message.h), emptied with
 * the memo; NULL when m is. */
struct wn_path_memo *wn_link_memo_paths(wn_link_memo *m);
/* Whether reading a patch keeps its hunks (wn_memo_entry.hunks): only
 * while a series' pass may ask (wn_index_keep_hunks()); a listing
 * does not pay for them. */
void wn_link_memo_want_hunks(wn_link_memo *m, bool on);
bool wn_link_memo_wants_hunks(const wn_link_memo *m);
/* The entry of id; NULL when the memo has none. */
const wn_memo_entry *wn_link_memo_get(const wn_link_memo *m, const char *id);
/* Keep what reading id gave: p the patch (NULL: none) and files, the
 * files of its diff (NULL-terminated, NULL: none), hunks its diff's
 * keys (NULL: not known; the memo takes over files and *hunks, which is
 * left empty), ident as taken (ident_known false: not taken).  Out of
 * memory keeps nothing. */
void wn_link_memo_put(wn_link_memo *m, const char *id, bool held, bool ident_known,
		      const char *ident, size_t ident_len, const wn_patch *p, char **files,
		      wn_diff_keys *hunks);

#endif
