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
 * library reports without a handle passed down to each of them.
 *
 * A file with no identity (a mail delivered a moment ago: notmuch new
 * and then winnow is the daily path) that was read whole is noted by
 * the hash of the bytes read instead: the next check reads it again and
 * hashes it (a few files, those that came since the last run), and
 * takes its identity from then on once it has one (wn_readlog_holds()'s
 * *now).  Before, one such file left the pass unsure, and the next run
 * worked out every fact again. */
#ifndef WINNOW_FILEID_H
#define WINNOW_FILEID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "winnow/buf.h"

struct stat;

#define WN_FILE_SETTLED 2

/* The largest file noted by its bytes (a mail's whole text is read up
 * to WN_MAIL_PLAIN_MAX, the same 2 MiB); a larger one with no identity
 * leaves the log unsure. */
#define WN_READLOG_CONTENT_MAX ((size_t) 2 << 20)
/* The top bit of a hash in the read log: the hash of a file's bytes,
 * not of its identity. */
#define WN_READLOG_BYTES (UINT64_C(1) << 63)

/* A regular, settled file's identity, malloc'd into *out (*len bytes);
 * false when it has none or out of memory. */
bool wn_file_ident(const char *path, const struct stat *sb, char **out, size_t *len);

/* The read log: each path once, with its identity's hash (0: absent),
 * written as noted to a file (fd: the facts' temporary file, which the
 * facts file copies at close) -- "path NUL hash(8)" each -- and known
 * again by a set of the paths' 64-bit hashes: eight bytes or so a path
 * in memory, where the paths themselves were 33 MiB at 600,000
 * messages.  The hash is seeded per log (a path no mail names could
 * still not aim at one): two paths of one hash, one in 2^40 at a
 * million paths, leave the second unlogged.  A path read twice with
 * two identities (changed while read) is logged with the first: the
 * next check sees the second and keeps nothing. */
typedef struct wn_readlog {
	int fd;	       /* where the entries go (-1: none: the log is unsure) */
	wn_buf out;    /* ... those not written there yet */
	uint64_t len;  /* the bytes of the entries put */
	uint64_t *set; /* the paths' hashes, open addressing (0: empty) */
	size_t cap, n; /* n: the paths known (the set's) */
	size_t added;  /* ... of them put as entries */
	uint64_t seed;
	/* The seed of the bytes' hashes: the facts file keeps it, for the
	 * entries it copies (0: not chosen yet). */
	uint64_t content_seed;
	bool unsure; /* a file read had no identity, or could not be logged */
	/* The paths an older log holds, not in the set yet: fill(fill_arg)
	 * puts them there (wn_readlog_know) when a path is first put, so
	 * that a run that reads no file (stats, warm) holds none of them:
	 * 7 MiB at a million messages.  False from it makes the log
	 * unsure. */
	bool (*fill)(void *arg);
	void *fill_arg;
	/* What its owner found of files before the pass (the facts file's
	 * check at open), as hashes of path and identity together: while
	 * the log is watched, a cache's check of one of them needs no
	 * second stat() (wn_file_ident_vouched()).  A file checked twice
	 * was half the system calls of a warm stats pass. */
	uint64_t *vouch;
	size_t vcap, vn;
} wn_readlog;

#define WN_READLOG_INIT                                                                \
	{                                                                              \
		-1, WN_BUF_INIT, 0, NULL, 0, 0, 0, 0, 0, false, NULL, NULL, NULL, 0, 0 \
	}

/* Reading the entries back (wn_readlog_next()). */
typedef struct wn_readlog_rd {
	wn_buf buf;
	size_t pos;
	uint64_t off;
	bool bad; /* a read failed */
} wn_readlog_rd;

#define WN_READLOG_RD_INIT               \
	{                                \
		WN_BUF_INIT, 0, 0, false \
	}

/* Note every file read from now on in log (NULL: stop).  False (and
 * nothing changed) when another log is being watched. */
bool wn_readlog_watch(wn_readlog *log);
/* Is any log watched? */
bool wn_readlog_on(void);
/* A file read at path with the identity *sb (steady while read); sb
 * NULL: path was not there (ENOENT).  Nothing when no log is watched. */
void wn_readlog_note(const char *path, const struct stat *sb);
/* A file read at path: all[0..n) the whole of what it held as read
 * (all NULL: not read whole, or larger than WN_READLOG_CONTENT_MAX),
 * sb its identity if it kept one while read (NULL: it changed).  Noted
 * by its identity when it has one, else by its bytes, else the log is
 * unsure.  Nothing when no log is watched. */
void wn_readlog_note_read(const char *path, const struct stat *sb, const void *all, size_t n);
/* A file read at path through fd, head[0..have) what was read from its
 * start, sb as wn_readlog_note_read() has it: when it has no identity
 * the rest is read, and noted with the head if the head is read again
 * the same.  Nothing when no log is watched. */
void wn_readlog_note_fd(const char *path, int fd, const struct stat *sb, const void *head,
			size_t have);
/* A file read whose identity cannot be had. */
void wn_readlog_unsure(void);
/* The hash noted for a path (0: absent), of a file at path as *sb says
 * it is now (sb NULL: not there).  Its top bit is clear: a set one
 * marks a hash of the bytes. */
uint64_t wn_readlog_hash(const struct stat *sb);
/* The content_seed of log, chosen now when not yet. */
uint64_t wn_readlog_content_seed(wn_readlog *log);
/* Know path (an entry kept elsewhere: the facts file's) without putting
 * it; false when out of memory. */
bool wn_readlog_know(wn_readlog *log, const char *path, size_t len);
/* Every entry put into log's fd; false when that failed. */
bool wn_readlog_flush(wn_readlog *log);
/* The next entry put (in the order put, after wn_readlog_flush()), its
 * hash in *hash; NULL at the end or on a read error (rd->bad).  Start
 * with WN_READLOG_RD_INIT, wn_buf_free(&rd->buf) after. */
const char *wn_readlog_next(const wn_readlog *log, wn_readlog_rd *rd, uint64_t *hash);
/* Has the file at path still the identity hash (0: still absent), or
 * the bytes it was noted by (hashed with seed, the log's content_seed
 * then)?  A file there then and gone now holds when gone (unless NULL)
 * says so.  *now: the hash to note it by from now on (its identity,
 * for one noted by its bytes that now has one; else hash).  A regular
 * file found as it was is vouched for in log (unless NULL). */
bool wn_readlog_holds(wn_readlog *log, const char *path, uint64_t hash, uint64_t seed,
		      uint64_t *now, bool (*gone)(const char *path, void *arg), void *arg);
/* Does the file a wn_file_ident() names (was, n bytes) still have that
 * identity, as the watched log was told this pass (by wn_readlog_holds())?
 * Then it is noted as wn_readlog_note() would, and true; false when the
 * log was told nothing of it (stat() it then: false is no "changed"),
 * or the identity is one no settled regular file has now.  The answer
 * is the one a stat() at the time of the vouching gave: a pass takes
 * the files as they were when it began, as it takes the index. */
bool wn_file_ident_vouched(const char *was, size_t n);
/* Its memory freed and its fd closed. */
void wn_readlog_free(wn_readlog *log);

#endif
