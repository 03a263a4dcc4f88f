/* winnow — the cache of parsed reviews (cache.c, cache-record.c).
 *
 * What loading a review computes from mail (its bot, findings, the
 * patch it answers with that patch's attribution, the report a
 * follow-up follows) is kept under $XDG_CACHE_HOME/winnow/, so that a
 * second `stats` or queue over an index that changed by a few mails
 * parses only those.  An optimisation only: every answer is the same
 * without it, and nothing about it is ever an error.
 *
 * Never stale: a record holds the index's revision it was made at, the
 * identity (path, size, mtime, ctime, inode) of the review's file and
 * of every message linking looked up by id (or that it was absent:
 * ctime sees a file rewritten in place with its size and mtime kept,
 * which notmuch does not see).  Any of
 * those messages changed in notmuch since (lastmod), any file's
 * identity different, or any message changed since that one of the
 * searches linking ran would find (what the answer weighed of their
 * results is among the messages looked up, so one gone shows): a
 * miss.  The whole file is keyed by winnow's version and binary, the
 * bot table, the [winnow] configuration and the database. */
#ifndef WINNOW_INDEX_CACHE_H
#define WINNOW_INDEX_CACHE_H

#include <notmuch.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>

#include "winnow/buf.h"
#include "winnow/index.h"

typedef struct wn_cache wn_cache;

/* What the linking of one review depended on (link.c fills it). */
typedef struct wn_cache_deps {
	wn_buf ids;		/* per message looked up: id NUL identity NUL */
	size_t n;
	wn_buf searches;	/* per search linking ran: kind, then key */
	size_t nsearches;
	bool unknown;		/* an identity could not be taken: keep nothing */
} wn_cache_deps;

#define WN_CACHE_DEPS_INIT { WN_BUF_INIT, 0, WN_BUF_INIT, 0, false }

/* The cache of the database db_path, opened on first use; NULL (no
 * cache) when disabled (WINNOW_NO_CACHE, winnow.cache false) or out of
 * memory.  An unreadable or foreign file is an empty cache. */
wn_cache *wn_cache_open(notmuch_database_t *db, const char *db_path, const wn_conf *conf);
/* For a cache of facts about the whole index beside this one (the
 * stats' facts, memory/facts.c): its file, $XDG_CACHE_HOME/winnow/
 * name-<hash of the database path> (malloc'd into *path), and the key
 * this cache's file has now (winnow's binary, the bots, the [winnow]
 * configuration, the database's path and uuid).  False when caching is
 * off (WINNOW_NO_CACHE, winnow.cache false) or out of memory. */
bool wn_cache_sibling(notmuch_database_t *db, const char *db_path, const wn_conf *conf,
		      const char *name, char **path, uint64_t *key);
/* A new file beside path, to be renamed over it (its name malloc'd
 * into *tmp), its folders made; NULL when it cannot be made. */
FILE *wn_cache_create(const char *path, char **tmp);
/* Write what this run parsed, if anything, beside the file and rename
 * it over (the last of two winnows wins); a failure leaves the old
 * file or none.  Frees c. */
void wn_cache_close(wn_cache **c);

/* A file's identity, "path NUL size mtime ctime inode device"
 * (core/fileid.h; malloc'd into *out, *len), for msg's first file;
 * false when it cannot be taken. */
bool wn_cache_ident(notmuch_message_t *msg, char **out, size_t *len);
/* wn_message_read_mail(), lean (wn_mail_parse_file_lean(): to, cc and
 * reply_to may be left out; with_list keeps what wn_mail_list() needs),
 * and *ident the identity of the file read, from the descriptor it was
 * read through (no stat() of its own) and unchanged while it was read;
 * NULL when it cannot be had. */
wn_status wn_cache_read_mail(notmuch_message_t *msg, wn_mail **mail, bool with_list, char **ident, size_t *len,
			     wn_error *err);
/* Record that linking looked id up and found msg (NULL: absent). */
void wn_cache_dep(wn_cache_deps *d, const char *id, notmuch_message_t *msg);
/* ... and id found, that the answer weighed by its index values alone
 * (not its file): it counts while the index holds it. */
void wn_cache_dep_present(wn_cache_deps *d, const char *id);
/* Record that linking searched the index, and what for: the mails of
 * thread tid; or the postings of a patch by subject, which
 * wn_subject_posting_keys() gives a key or (title_only) a title equal
 * to key.  The answer holds while no mail changed since is one of
 * those; whatever of the results it weighed is recorded as looked up
 * too. */
void wn_cache_dep_thread(wn_cache_deps *d, const char *tid);
void wn_cache_dep_subject(wn_cache_deps *d, const char *key, bool title_only);
void wn_cache_deps_free(wn_cache_deps *d);

/* Fill it's parsed part (bot, review, patch, link, report_id) and what
 * its properties said (verdicts, notes, ...: they change its lastmod
 * too) from a record that still holds; false on any miss. */
bool wn_cache_get(wn_cache *c, notmuch_database_t *db, wn_item *it);
/* Keep it's parsed part and properties; ident is the identity of the
 * review's file as read (wn_cache_read_mail(): the file was
 * unchanged while it was read; a change after shows next time). */
void wn_cache_put(wn_cache *c, notmuch_database_t *db, const char *ident, size_t ident_len,
		  const wn_item *it, const wn_cache_deps *d);

/* --- records (cache-record.c) --- */

/* Append it's parsed part and properties to b. */
void wn_cache_encode_item(wn_buf *b, const wn_item *it);

/* A patch (its trailers set) as bytes and back, for link-memo.c; NULL
 * when out of memory or not such bytes. */
void wn_cache_encode_patch(wn_buf *b, const wn_patch *p);
wn_patch *wn_cache_decode_patch(const char *s, size_t n);
/* The identity of a message linking looked up, taken already: ident
 * NULL for a message the index did not hold (wn_cache_dep()'s). */
void wn_cache_dep_ident(wn_cache_deps *d, const char *id, const char *ident, size_t n);

/* A reader over a record's bytes: any read past the end or any value
 * out of range sets bad, and the record is a miss. */
typedef struct wn_cache_rd {
	const unsigned char *p;
	size_t n, pos;
	bool bad;
} wn_cache_rd;

void wn_cache_put_u64(wn_buf *b, uint64_t v);
void wn_cache_put_bytes(wn_buf *b, const char *s, size_t n);
uint64_t wn_cache_get_u64(wn_cache_rd *r);
/* The next string in place (not NUL-terminated: *n bytes); NULL for a
 * NULL string or a bad record. */
const char *wn_cache_get_bytes(wn_cache_rd *r, size_t *n);
/* Fill it's parsed part and properties from r; false (it untouched)
 * on a bad record. */
bool wn_cache_decode_item(wn_cache_rd *r, wn_item *it);

#endif
