/* winnow — a file's identity, and the files a pass read (fileid.c).
 *
 * What the caches take for "this file is as it was": its size, inode,
 * device, modification time and change time.  The change time is there
 * for a mail rewritten in place with its size kept and its mtime put
 * back (cp -p, rsync --inplace -t, touch -r): nothing but the kernel
 * can set ctime, and any write, chmod, link or rename moves it.
 *
 * A file changed within the last WN_FILE_SETTLED seconds (by mtime or
 * ctime) has no identity: it could change again within the same tick of
 * the file system's clock and keep it (git's "racily clean" files).
 *
 * The read log: while one is watched, every mail file the library
 * reads (mail.c, parent.c) or a cache's record was checked against
 * (index/cache.c) is noted in it with its identity, or as absent when
 * it was not there.  The stats' facts (memory/facts.c) keep the log of
 * the pass that derived them and check it when read again.  One log at
 * a time per thread: it is where every reader of a mail file in the
 * library reports without a handle passed down to each of them. */
#ifndef WINNOW_FILEID_H
#define WINNOW_FILEID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "winnow/buf.h"

struct stat;

#define WN_FILE_SETTLED 2

/* A regular, settled file's identity, malloc'd into *out (*len bytes);
 * false when it has none or out of memory. */
bool wn_file_ident(const char *path, const struct stat *sb, char **out, size_t *len);

/* The read log: each path once, with its identity's hash (0: absent). */
typedef struct wn_readlog {
	wn_buf paths;		/* per path: the path, NUL, its 8-byte hash */
	uint32_t *slots;	/* open addressing over the paths: offset + 1 */
	size_t cap, n;
	bool unsure;		/* a file read had no identity, or two */
} wn_readlog;

#define WN_READLOG_INIT { WN_BUF_INIT, NULL, 0, 0, false }

/* Note every file read from now on in log (NULL: stop).  False (and
 * nothing changed) when another log is being watched. */
bool wn_readlog_watch(wn_readlog *log);
/* Is any log watched? */
bool wn_readlog_on(void);
/* A file read at path with the identity *sb (steady while read); sb
 * NULL: path was not there (ENOENT).  Nothing when no log is watched. */
void wn_readlog_note(const char *path, const struct stat *sb);
/* A file read whose identity cannot be had. */
void wn_readlog_unsure(void);
/* The hash noted for a path (0: absent), of a file at path as *sb says
 * it is now (sb NULL: not there). */
uint64_t wn_readlog_hash(const struct stat *sb);
/* Put path with hash into log (an entry already there with another
 * hash makes it unsure); false when out of memory. */
bool wn_readlog_add(wn_readlog *log, const char *path, size_t len, uint64_t hash);
/* The i-th path put (i < log->n, in the order put), its hash in *hash;
 * iterate with *at = 0 first, then as left. */
const char *wn_readlog_next(const wn_readlog *log, size_t *at, uint64_t *hash);
/* Does every file of the log still have the identity noted (an absent
 * one: still absent)?  A file there then and gone now holds when gone
 * (unless NULL) says so. */
bool wn_readlog_holds(const wn_readlog *log, bool (*gone)(const char *path, void *arg), void *arg);
void wn_readlog_free(wn_readlog *log);

#endif
