/* winnow — the cache of parsed reviews: the file, its key, and whether
 * a record still holds (cache.h).
 *
 * $XDG_CACHE_HOME/winnow/parse-<hash of the database path>:
 *
 *     "WNCACHE7" key                          (8 bytes, 8 bytes)
 *     length checksum payload                 (8, 8, length bytes) ...
 *
 * key hashes everything that would change a parse (winnow's version and
 * binary, the bot table, the [winnow] configuration, the database's
 * path and uuid); a file with another key is no cache at all.  The
 * checksum is FNV-1a over the payload: a record whose length, checksum
 * or content does not hold is a miss, never an error.  The payload:
 * the review's id, the revision of the index it holds at, the review's
 * file identity, what linking searched for, the messages linking
 * looked up with their identities, then the item (cache-record.c).
 *
 * A record holds while none of its messages changed in notmuch since
 * its revision (one lastmod: query per run finds what changed: tags,
 * files added or gone, new mail) and their files still have the same
 * identity (stat of the path kept in the record: a file rewritten in
 * place, which notmuch does not see), and no message changed since its
 * revision is one its linking's searches would find (a new posting of
 * the subject searched, a new mail in the thread searched: the
 * messages changed are read once for their threads and subjects).
 *
 * Only the index of the file (id -> offset) is held in memory, 16 bytes
 * a slot keyed by the id's hash (idtab.h): the record read names its
 * id, so two ids of one hash are a miss, never the other's record.  A
 * record is read when asked for.  What a run parses goes to a new file beside
 * the old, the old records still valid are copied after it, and it is
 * renamed over the old at close: a reader never sees half a file, and
 * of two winnows the last to finish wins.  A full disk or a read-only
 * folder leaves the old file or none. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "idtab.h"
#include "message.h"
#include "../core/fileid.h"
#include "../core/hash.h"
#include "winnow/subject.h"
#include "winnow/text.h"

/* 8: copies; 7: a syzbot report's closed state; 6: sites, notes,
 * facts; 5: ctime in identities; 4: a patch's git author and
 * submitter; 3: what linking searched for; 2: wn_sum64() */
#define MAGIC "WNCACHE8"
#define HEAD 16		/* magic and key; a record's length and checksum */
/* Larger than any record of a real review: a length beyond it is a
 * damaged file, not a reason to allocate. */
#define RECORD_MAX (64u << 20)
/* wn_cache.ids's values, one table for both (a second one was 4 MiB
 * at 600,000 messages, the maps they replace 46 MiB): what this run
 * did with the id (DONE: written to out or dropped as stale), whether
 * it found the id's record in fd to hold, and that record's offset + 1
 * (0: none). */
#define DROPPED UINT64_C(1)
#define WRITTEN UINT64_C(2)
#define DONE UINT64_C(3)
#define AT_HIT UINT64_C(4)
#define AT(off) (((uint64_t) (off) + 1) << 3)
#define AT_OFF(v) ((off_t) (((v) >> 3) - 1))
#define HAS_AT(v) (((v) >> 3) != 0)

struct wn_cache {
	char *path;		/* the cache file */
	uint64_t key;
	int fd;			/* the file as it was at open; -1: none */
	off_t size;
	ino_t ino;		/* its identity */
	dev_t dev;
	wn_idtab ids;		/* id's hash -> its record in fd, and what
				 * this run did with it (AT(), DONE ...) */
	uint64_t key_mask;	/* of the hash kept (tests: fewer bits) */
	uint64_t min_rev;	/* the oldest revision a record holds at */
	/* The messages changed since then, by their ids' keys (id_key():
	 * an id of another's key counts as changed, a miss at worst). */
	wn_idtab changed;
	unsigned long changed_at;	/* ... up to this revision */
	bool changed_ok;	/* changed is known (else every get misses) */
	/* What searches those messages could answer (found_ok), read only
	 * once a record that searched is asked: their threads, and, of
	 * those that could be a patch's posting, their subject's keys and
	 * titles (wn_subject_posting_keys()), by their keys: the same
	 * key as a record's search makes it miss. */
	wn_idtab found_threads, found_keys, found_titles;
	bool found_read, found_ok;
	bool moved;		/* the handle was reopened at a newer revision
				 * since a hit: hits are not brought forward */
	char *tmp;		/* out's name until renamed */
	FILE *out;
	char *outbuf;		/* its buffer (big_buffer()) */
	bool out_failed;	/* no writing this run */
	size_t written, dropped;
	unsigned long hits, misses;
	wn_buf rec;		/* scratch: a record made */
	char *rd;		/* scratch: a record read (rdcap bytes) */
	size_t rdcap, rdlen;
	/* The file read through one window of big reads (scan(), and
	 * record_at() for records read in the file's order): win_have
	 * bytes of fd from win_base; next, where the record after the last
	 * one read starts. */
	char *win;
	off_t win_base, next;
	size_t win_have;
	unsigned long alone; /* records read alone, not through it */
};

/* The key of id (n bytes) in c->ids. */
static uint64_t id_key(const wn_cache *c, const char *id, size_t n)
{
	return wn_idtab_key(id, n) & c->key_mask;
}

/* --- identities ---------------------------------------------------------- */

/* (core/fileid.c: size, times, inode, device; none for a file changed
 * within the last two seconds, so nothing read from it is kept.) */
static bool wn_cache_ident_stat(const char *path, const struct stat *sb, char **out, size_t *len)
{
	return wn_file_ident(path, sb, out, len);
}

/* The reviews and patches read here use no address list but From's,
 * and a patch's list (wn_mail_parse_file_lean()). */
wn_status wn_cache_read_mail(notmuch_message_t *msg, wn_mail **mail, bool with_list, char **ident, size_t *len,
			     wn_error *err)
{
	struct stat sb;
	char *path = NULL;
	wn_status st;

	if (ident)
		*ident = NULL;
	st = wn_message_read_mail_stat(msg, mail, with_list ? WN_READ_PATCH : WN_READ_SENDER,
				       ident ? &path : NULL, &sb, err);
	if (path && !wn_cache_ident_stat(path, &sb, ident, len))
		*ident = NULL;
	free(path);
	return st;
}

static bool ident_of(const char *path, char **out, size_t *len)
{
	struct stat sb;

	return path && stat(path, &sb) == 0 && wn_cache_ident_stat(path, &sb, out, len);
}

bool wn_cache_ident(notmuch_message_t *msg, char **out, size_t *len)
{
	/* The first file: wn_message_read_mail() reads it when it can. */
	return ident_of(notmuch_message_get_filename(msg), out, len);
}

void wn_cache_dep_ident(wn_cache_deps *d, const char *id, const char *ident, size_t n)
{
	wn_cache_put_bytes(&d->ids, id, strlen(id));
	wn_cache_put_bytes(&d->ids, ident ? ident : "", ident ? n : 0);
	d->n++;
}

void wn_cache_dep(wn_cache_deps *d, const char *id, notmuch_message_t *msg)
{
	char *ident = NULL;
	size_t n = 0;

	if (msg && !wn_cache_ident(msg, &ident, &n)) {
		d->unknown = true;
		return;
	}
	wn_cache_dep_ident(d, id, ident, n);
	free(ident);
}

/* The identity of a message that counts by being there alone (a
 * posting linking weighed by its index values, its file not read): no
 * file's identity is one byte long. */
#define PRESENT "\1"

void wn_cache_dep_present(wn_cache_deps *d, const char *id)
{
	wn_cache_dep_ident(d, id, PRESENT, 1);
}

/* What a search linking ran was for (wn_cache_dep_thread(), ..._subject()). */
enum { FOR_THREAD = 1, FOR_KEY, FOR_KEY_OR_TITLE };

static void dep_search(wn_cache_deps *d, uint64_t kind, const char *s)
{
	wn_cache_put_u64(&d->searches, kind);
	wn_cache_put_bytes(&d->searches, s ? s : "", s ? strlen(s) : 0);
	d->nsearches++;
}

void wn_cache_dep_thread(wn_cache_deps *d, const char *tid)
{
	if (!tid)
		d->unknown = true;
	else
		dep_search(d, FOR_THREAD, tid);
}

void wn_cache_dep_subject(wn_cache_deps *d, const char *key, bool title_only)
{
	dep_search(d, title_only ? FOR_KEY_OR_TITLE : FOR_KEY, key);
}

void wn_cache_deps_free(wn_cache_deps *d)
{
	wn_buf_free(&d->ids);
	wn_buf_free(&d->searches);
	memset(d, 0, sizeof(*d));
}

/* --- the key ------------------------------------------------------------- */

static uint64_t file_key(notmuch_database_t *db, const char *db_path, const wn_conf *conf)
{
	uint64_t h = wn_fnv1a_field(WN_FNV_BASIS, MAGIC " " PACKAGE_VERSION);
	notmuch_config_pairs_t *pairs;
	const char *uuid = NULL;
	struct stat exe;

	/* The binary itself: a build that parses differently under the
	 * same version number (any change while developing) starts over.
	 * Its identity as it is, settled or not: a binary run in the two
	 * seconds after it was built would otherwise key the files
	 * differently from the same binary a moment later. */
	if (stat("/proc/self/exe", &exe) == 0)
		h = wn_fnv1a_field(h, "exe") ^ wn_readlog_hash(&exe);
	for (int b = 0; b < WN_BOT_COUNT; b++) {
		h = wn_fnv1a_field(h, wn_bot_name((wn_bot) b));
		h = wn_fnv1a_field(h, wn_bot_query((wn_bot) b));
	}
	/* Every [winnow] key, whether it changes parsing today or not. */
	pairs = notmuch_config_get_pairs(db, "winnow.");
	for (; pairs && notmuch_config_pairs_valid(pairs); notmuch_config_pairs_move_to_next(pairs)) {
		h = wn_fnv1a_field(h, notmuch_config_pairs_key(pairs));
		h = wn_fnv1a_field(h, notmuch_config_pairs_value(pairs));
	}
	if (pairs)
		notmuch_config_pairs_destroy(pairs);
	for (char **b = conf->bots; b && *b; b++)
		h = wn_fnv1a_field(h, *b);
	h = wn_fnv1a_field(h, db_path);
	notmuch_database_get_revision(db, &uuid);
	return wn_fnv1a_field(h, uuid);
}

static char *cache_path(const char *db_path, const char *name)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	unsigned long long h = wn_fnv1a_str(WN_FNV_BASIS, db_path);
	char *p = NULL;
	int r;

	if (xdg && *xdg == '/')
		r = asprintf(&p, "%s/winnow/%s-%016llx", xdg, name, h);
	else if (home && *home == '/')
		r = asprintf(&p, "%s/.cache/winnow/%s-%016llx", home, name, h);
	else
		return NULL;
	return r < 0 ? NULL : p;
}

/* --- reading ------------------------------------------------------------- */

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t) p[i] << (8 * i);
	return v;
}

static bool read_at(int fd, off_t off, void *buf, size_t n)
{
	char *p = buf;

	while (n) {
		ssize_t r = pread(fd, p, n, off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p += r;
		off += r;
		n -= (size_t) r;
	}
	return true;
}

/* f buffered in big reads or writes (a malloc'd buffer, freed by the
 * caller after fclose(); NULL: stdio's own).  glibc takes setvbuf()'s
 * size only with a buffer given: without one, it kept 4 KiB, a write()
 * per 4 KiB of records. */
#define BIG_BUFFER (1u << 18)

static char *big_buffer(FILE *f)
{
	char *buf = malloc(BIG_BUFFER);

	if (buf && setvbuf(f, buf, _IOFBF, BIG_BUFFER) != 0) {
		free(buf);
		buf = NULL;
	}
	return buf;
}

/* The bytes a window holds: BIG_BUFFER, or in a test build what
 * WINNOW_TEST_CACHE_WINDOW says (at most BIG_BUFFER), so that a test's
 * small cache file has records across a window's end. */
static size_t window_size(void)
{
#ifdef WN_TEST_HOOKS
	const char *v = getenv("WINNOW_TEST_CACHE_WINDOW");
	unsigned long n = v && *v ? strtoul(v, NULL, 10) : 0;

	if (n && n < BIG_BUFFER)
		return (size_t) n;
#endif
	return BIG_BUFFER;
}

/* n bytes at off of the file (size bytes) through the window buf
 * (window_size() bytes; *base the offset of its first byte, *have how
 * many it holds), read in from off when the window does not hold them;
 * NULL past the end, on a read error, or for more than a window. */
static const unsigned char *window_at(int fd, char *buf, off_t *base, size_t *have, off_t off,
				      size_t n, off_t size)
{
	size_t want = window_size();

	if (n > want || off > size || (off_t) n > size - off)
		return NULL;
	if (off < *base || off + (off_t) n > *base + (off_t) *have) {
		if ((off_t) want > size - off)
			want = (size_t) (size - off);
		if (!read_at(fd, off, buf, want))
			return NULL;
		*base = off;
		*have = want;
	}
	return (const unsigned char *) buf + (off - *base);
}

/* The record at off into c->rd, its length and checksum checked.  A
 * run that reads the records in the file's order (a warm list or stats:
 * the file was written in the order the run before read them; the copy
 * of the old records at close) reads them through one window of big
 * reads, where a record's head and its payload were two pread()s each:
 * 45,000 system calls of a warm stats pass at 100,000 messages.  A
 * record read out of that order (a query naming one review) is read
 * alone, not a window's worth. */
static bool record_at(wn_cache *c, off_t off, wn_cache_rd *r)
{
	unsigned char own[HEAD];
	const unsigned char *head = NULL, *body = NULL;
	bool in_order =
		off == c->next || (off >= c->win_base && off < c->win_base + (off_t) c->win_have);
	uint64_t len, sum;

	c->next = -1;
	if (in_order && c->win)
		head = window_at(c->fd, c->win, &c->win_base, &c->win_have, off, HEAD, c->size);
	if (!head) {
		in_order = false;
		c->alone++;
		if (!read_at(c->fd, off, own, HEAD))
			return false;
		head = own;
	}
	/* Both now: reading the payload can move the window. */
	len = le64(head);
	sum = le64(head + 8);
	if (len > RECORD_MAX || (off_t) len > c->size - off - HEAD)
		return false;
	if (len > c->rdcap) {
		char *p = realloc(c->rd, (size_t) len);

		if (!p)
			return false;
		c->rd = p;
		c->rdcap = (size_t) len;
	}
	c->rdlen = (size_t) len;
	if (len && in_order)
		body = window_at(c->fd, c->win, &c->win_base, &c->win_have, off + HEAD,
				 (size_t) len, c->size);
	if (body)
		memcpy(c->rd, body, (size_t) len);
	else if (len && !read_at(c->fd, off + HEAD, c->rd, (size_t) len))
		return false;
	if (wn_sum64(c->rd, (size_t) len) != sum)
		return false;
	c->next = off + HEAD + (off_t) len;
	*r = (wn_cache_rd) { (const unsigned char *) c->rd, (size_t) len, 0, false };
	return true;
}

/* Index the records of the file: the id each one starts with, read
 * front to back through one window of big reads (a read per field was
 * most of a warm run's system time), the rest of a record skipped in
 * the window or by reading from past it.  (Through stdio, fseeko() over
 * each record's rest asked the kernel where the file stood: 22,457
 * lseek() calls, 6% of a warm stats pass at 100,000 messages.)  A
 * record too long for the file ends the scan, as does an id longer than
 * a window (winnow writes none: notmuch keeps long ids hashed); a
 * damaged one read later fails its checksum. */
static void scan(wn_cache *c)
{
	off_t off = HEAD;

	while (c->win && off <= c->size - HEAD - 8) {
		const unsigned char *head, *id;
		uint64_t len, idlen;

		if (!(head = window_at(c->fd, c->win, &c->win_base, &c->win_have, off, HEAD + 8,
				       c->size)))
			break;
		len = le64(head);
		idlen = le64(head + HEAD);
		if (len > RECORD_MAX || (off_t) len > c->size - off - HEAD || len < 16 || idlen > len - 16)
			break;
		id = window_at(c->fd, c->win, &c->win_base, &c->win_have, off + HEAD + 8,
			       (size_t) idlen + 8, c->size);
		if (!id || wn_idtab_put(&c->ids, id_key(c, (const char *) id, (size_t) idlen),
					AT(off)) != WN_OK)
			break;
		if (le64(id + idlen) < c->min_rev)
			c->min_rev = le64(id + idlen);
		off += HEAD + (off_t) len;
	}
}

/* The cache file as it is now, if it is one of this key: its
 * descriptor (size and identity in *sb), else -1. */
static int open_valid(const wn_cache *c, struct stat *sb)
{
	unsigned char head[HEAD];
	/* Not blocking: a FIFO put there would wait for a writer. */
	int fd = open(c->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	if (fd >= 0 && (fstat(fd, sb) != 0 || !S_ISREG(sb->st_mode) || sb->st_size < HEAD ||
			!read_at(fd, 0, head, HEAD) || memcmp(head, MAGIC, 8) != 0 ||
			le64(head + 8) != c->key)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static bool cache_off(const wn_conf *conf)
{
	const char *no = getenv("WINNOW_NO_CACHE");

	return (no && *no && strcmp(no, "0") != 0) || conf->no_cache;
}

bool wn_cache_sibling(notmuch_database_t *db, const char *db_path, const wn_conf *conf,
		      const char *name, char **path, uint64_t *key)
{
	if (cache_off(conf) || !(*path = cache_path(db_path, name)))
		return false;
	*key = file_key(db, db_path, conf);
	return true;
}

wn_cache *wn_cache_open(notmuch_database_t *db, const char *db_path, const wn_conf *conf)
{
	struct stat sb;
	wn_cache *c;
#ifdef WN_TEST_HOOKS
	const char *bits;
#endif

	if (cache_off(conf) || !(c = calloc(1, sizeof(*c))))
		return NULL;
	c->fd = -1;
	c->min_rev = UINT64_MAX;
	c->key_mask = UINT64_MAX;
#ifdef WN_TEST_HOOKS
	/* For the tests: ids of one hash, as many as wanted. */
	if ((bits = getenv("WINNOW_TEST_CACHE_KEY_BITS")))
		c->key_mask = (UINT64_C(1) << (atoi(bits) & 63)) - 1;
#endif
	if (!(c->path = cache_path(db_path, "parse"))) {
		free(c);
		return NULL;
	}
	c->key = file_key(db, db_path, conf);
	/* A run reading from the first record on reads through the window
	 * from the start. */
	c->next = HEAD;
	if ((c->fd = open_valid(c, &sb)) >= 0) {
		c->size = sb.st_size;
		c->ino = sb.st_ino;
		c->dev = sb.st_dev;
		c->win = malloc(BIG_BUFFER);
		scan(c);
	}
	return c;
}

static bool same(wn_cache_rd *r, const char *s, size_t n)
{
	size_t m;
	const char *v = wn_cache_get_bytes(r, &m);

	return v && m == n && memcmp(v, s, n) == 0;
}

static void found_clear(wn_cache *c)
{
	wn_idtab_free(&c->found_threads);
	wn_idtab_free(&c->found_keys);
	wn_idtab_free(&c->found_titles);
	c->found_read = c->found_ok = false;
}

/* Call take(c, msg) on each message changed since the oldest record's
 * revision, up to changed_at: one lastmod: query.  False when that
 * cannot be known, or take() says so. */
static bool each_changed(wn_cache *c, notmuch_database_t *db,
			 bool (*take)(wn_cache *c, notmuch_message_t *msg))
{
	notmuch_messages_t *msgs;
	notmuch_query_t *q;
	char *qs = NULL;
	bool failed = false;

	if (asprintf(&qs, "lastmod:%llu..%lu", (unsigned long long) c->min_rev + 1, c->changed_at) < 0)
		return false;
	q = notmuch_query_create(db, qs);
	free(qs);
	if (!q || !(msgs = wn_message_search(q, &failed))) {
		if (q)
			notmuch_query_destroy(q);
		return false;
	}
	for (; notmuch_messages_valid(msgs) && !failed; notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *msg = notmuch_messages_get(msgs);

		failed = !take(c, msg);
		notmuch_message_destroy(msg);
	}
	notmuch_query_destroy(q);
	return !failed;
}

/* Note s (NULL: nothing) in t. */
static bool mark(const wn_cache *c, wn_idtab *t, const char *s)
{
	return !s || wn_idtab_put(t, id_key(c, s, strlen(s)), 1) == WN_OK;
}

static bool take_changed(wn_cache *c, notmuch_message_t *msg)
{
	const char *id = wn_message_id(msg);

	return id && mark(c, &c->changed, id);
}

/* The messages changed since the oldest record's revision, up to the
 * handle's (again after the handle was reopened).  False when that
 * cannot be known: then nothing holds. */
static bool changed_since(wn_cache *c, notmuch_database_t *db)
{
	unsigned long cur = notmuch_database_get_revision(db, NULL);

	if (c->changed_ok && c->changed_at == cur)
		return true;
	if (c->hits)
		c->moved = true;
	wn_idtab_free(&c->changed);
	found_clear(c);
	c->changed_ok = false;
	c->changed_at = cur;
	if (c->min_rev == UINT64_MAX || c->min_rev > cur)
		return false;	/* no record, or records from a future */
	if (c->min_rev == cur)
		return c->changed_ok = true;
	return c->changed_ok = each_changed(c, db, take_changed);
}

/* Does the file named in an identity still have it?  One that does is
 * as good as read: noted in the read log (fileid.h). */
static bool ident_holds(const char *was, size_t n)
{
	const char *nul;
	char *path, *now = NULL;
	size_t nown = 0;
	struct stat sb;
	bool ok;

	/* The stats' facts checked it at their open, this pass. */
	if (wn_file_ident_vouched(was, n))
		return true;
	nul = was ? memchr(was, '\0', n) : NULL;
	path = nul ? strndup(was, (size_t) (nul - was)) : NULL;
	ok = path && stat(path, &sb) == 0 && wn_file_ident(path, &sb, &now, &nown) && nown == n &&
	     memcmp(now, was, n) == 0;

	if (ok)
		wn_readlog_note(path, &sb);
	free(path);
	free(now);
	return ok;
}

static bool unchanged(const wn_cache *c, const char *id, size_t n)
{
	return id && !wn_idtab_get(&c->changed, id_key(c, id, n));
}

/* Does the index still hold the mail id (n bytes)?  (One gone that
 * other mail names stays as a ghost: not held.) */
static bool still_there(notmuch_database_t *db, const char *id, size_t n)
{
	char *s = strndup(id, n);
	notmuch_message_t *m = s ? wn_message_lookup(db, s, NULL) : NULL;
	bool ok = m != NULL;

	if (m)
		notmuch_message_destroy(m);
	free(s);
	return ok;
}

/* The messages linking looked up: unchanged in notmuch (one that was
 * absent and is there now is new: changed), their files too, or, for
 * one that counts by being there, still there once the index moved
 * since the record's revision rev (a message gone leaves no lastmod). */
static bool deps_hold(const wn_cache *c, notmuch_database_t *db, wn_cache_rd *r, uint64_t rev)
{
	uint64_t n = wn_cache_get_u64(r);

	for (uint64_t i = 0; i < n && !r->bad; i++) {
		size_t idn, wasn;
		const char *id = wn_cache_get_bytes(r, &idn);
		const char *was = wn_cache_get_bytes(r, &wasn);

		if (!id || !unchanged(c, id, idn) || !was)
			return false;
		if (wasn == 1 && was[0] == PRESENT[0]) {
			if (rev != c->changed_at && !still_there(db, id, idn))
				return false;
		} else if (wasn && !ident_holds(was, wasn)) {
			return false;
		}
	}
	return !r->bad;
}

static bool take_found(wn_cache *c, notmuch_message_t *msg)
{
	const char *tid = notmuch_message_get_thread_id(msg);
	char *key = NULL, *title = NULL;
	bool ok = tid && mark(c, &c->found_threads, tid) &&
		  wn_subject_posting_keys(notmuch_message_get_header(msg, "subject"), &key,
					  &title) == WN_OK &&
		  mark(c, &c->found_keys, key) && mark(c, &c->found_titles, title);

	free(key);
	free(title);
	return ok;
}

/* What the messages changed since could be found by: read once a
 * record that searched is asked (one more lastmod: query, and each
 * one's thread, read from its term list), for every such record of
 * the run.  False when that cannot be known. */
static bool found_since(wn_cache *c, notmuch_database_t *db)
{
	if (!c->found_read) {
		c->found_read = true;
		c->found_ok = each_changed(c, db, take_found);
	}
	return c->found_ok;
}

/* The searches linking ran: none would find a message changed since
 * the record's revision rev (one come since, or one whose tags, files
 * or thread changed: more than could change the answer, never less).
 * Asked only when the index moved since rev; read past else. */
static bool searches_hold(wn_cache *c, notmuch_database_t *db, wn_cache_rd *r, uint64_t rev)
{
	uint64_t n = wn_cache_get_u64(r);
	bool ok = true;

	for (uint64_t i = 0; i < n && !r->bad; i++) {
		uint64_t kind = wn_cache_get_u64(r);
		size_t kn;
		const char *k = wn_cache_get_bytes(r, &kn);

		if (!ok || rev == c->changed_at)
			continue;
		if (!k || !found_since(c, db))
			ok = false;
		else if (kind == FOR_THREAD)
			ok = !wn_idtab_get(&c->found_threads, id_key(c, k, kn));
		else if (kind == FOR_KEY || kind == FOR_KEY_OR_TITLE)
			ok = !wn_idtab_get(&c->found_keys, id_key(c, k, kn)) &&
			     (kind == FOR_KEY || !wn_idtab_get(&c->found_titles, id_key(c, k, kn)));
		else
			ok = false;
	}
	return ok && !r->bad;
}

static void drop(wn_cache *c, uint64_t key)
{
	uint64_t v = wn_idtab_get(&c->ids, key);

	if (!(v & DONE) && wn_idtab_put(&c->ids, key, v | DROPPED) == WN_OK)
		c->dropped++;
}

bool wn_cache_get(wn_cache *c, notmuch_database_t *db, wn_item *it)
{
	size_t idn = strlen(it->id), n;
	uint64_t key = c ? id_key(c, it->id, idn) : 0, at = c ? wn_idtab_get(&c->ids, key) : 0;
	const char *ident;
	uint64_t rev;
	wn_cache_rd r;
	bool ok;

	if (!HAS_AT(at) || (at & DONE)) {
		if (c)
			c->misses++;
		return false;
	}
	ok = changed_since(c, db) && unchanged(c, it->id, idn) &&
	     record_at(c, AT_OFF(at), &r) && same(&r, it->id, idn);
	rev = ok ? wn_cache_get_u64(&r) : 0;
	ident = ok ? wn_cache_get_bytes(&r, &n) : NULL;
	ok = ok && ident && ident_holds(ident, n);
	ok = ok && searches_hold(c, db, &r, rev) && deps_hold(c, db, &r, rev) && wn_cache_decode_item(&r, it);
	if (ok) {
		c->hits++;
		/* Checked against everything up to changed_at: a rewrite
		 * of the file records it at that revision. */
		if (wn_idtab_put(&c->ids, key, at | AT_HIT) != WN_OK)
			c->out_failed = true;
	} else {
		c->misses++;
		drop(c, key);
	}
	return ok;
}

/* --- writing ------------------------------------------------------------- */

FILE *wn_cache_create(const char *path, char **tmp)
{
	char *dir = strdup(path), *slash = dir ? strrchr(dir, '/') : NULL;
	FILE *out = NULL;
	int fd;

	*tmp = NULL;
	if (!slash) {
		free(dir);
		return NULL;
	}
	/* .../winnow/parse-X: make .../winnow (and the cache folder). */
	*slash = '\0';
	if (mkdir(dir, 0700) != 0 && errno == ENOENT && (slash = strrchr(dir, '/'))) {
		*slash = '\0';
		mkdir(dir, 0700);
		*slash = '/';
		mkdir(dir, 0700);
	}
	free(dir);
	if (asprintf(tmp, "%s.XXXXXX", path) < 0) {
		*tmp = NULL;
		return NULL;
	}
	if ((fd = mkstemp(*tmp)) < 0 || !(out = fdopen(fd, "w"))) {
		if (fd >= 0) {
			close(fd);
			unlink(*tmp);
		}
		free(*tmp);
		*tmp = NULL;
	}
	return out;
}

static bool out_open(wn_cache *c)
{
	unsigned char head[HEAD];

	if (c->out || c->out_failed)
		return c->out != NULL;
	c->out_failed = true;
	if (!(c->out = wn_cache_create(c->path, &c->tmp)))
		return false;
	/* A cold run writes tens of MiB of records: in big writes. */
	c->outbuf = big_buffer(c->out);
	memcpy(head, MAGIC, 8);
	for (int i = 0; i < 8; i++)
		head[8 + i] = (unsigned char) (c->key >> (8 * i));
	fwrite(head, 1, HEAD, c->out);
	c->out_failed = false;
	return true;
}

static void write_record(wn_cache *c, const char *p, size_t n)
{
	unsigned char head[HEAD];
	uint64_t sum = wn_sum64(p, n);

	for (int i = 0; i < 8; i++) {
		head[i] = (unsigned char) ((uint64_t) n >> (8 * i));
		head[8 + i] = (unsigned char) (sum >> (8 * i));
	}
	if (fwrite(head, 1, HEAD, c->out) != HEAD || fwrite(p, 1, n, c->out) != n)
		c->out_failed = true;
}

void wn_cache_put(wn_cache *c, notmuch_database_t *db, const char *ident, size_t ident_len,
		  const wn_item *it, const wn_cache_deps *d)
{
	size_t idn = strlen(it->id);
	uint64_t key, v;

	if (!c || d->unknown || !it->review || it->load_error || !out_open(c))
		return;
	/* (An id of the same hash written: this one is parsed again next
	 * time, never read as the other's.) */
	key = id_key(c, it->id, idn);
	if (((v = wn_idtab_get(&c->ids, key)) & DONE) == WRITTEN)
		return;
	wn_buf_reset(&c->rec);
	wn_cache_put_bytes(&c->rec, it->id, idn);
	wn_cache_put_u64(&c->rec, notmuch_database_get_revision(db, NULL));
	wn_cache_put_bytes(&c->rec, ident, ident_len);
	wn_cache_put_u64(&c->rec, d->nsearches);
	wn_buf_append(&c->rec, d->searches.data ? d->searches.data : "", d->searches.len);
	wn_cache_put_u64(&c->rec, d->n);
	wn_buf_append(&c->rec, d->ids.data ? d->ids.data : "", d->ids.len);
	wn_cache_encode_item(&c->rec, it);
	if (wn_buf_failed(&c->rec))
		return;
	write_record(c, c->rec.data, c->rec.len);
	if (wn_idtab_put(&c->ids, key, (v & ~DONE) | WRITTEN) != WN_OK)
		c->out_failed = true;
	c->written++;
}

/* The records of the file at c->fd that this run neither wrote, copied
 * nor found stale. */
static void copy_records(wn_cache *c, bool own)
{
	off_t off = HEAD;

	while (c->fd >= 0 && !c->out_failed && off <= c->size - HEAD) {
		wn_cache_rd r;
		size_t idn;
		const char *id;
		uint64_t key = 0, v = DROPPED;

		if (!record_at(c, off, &r))
			break;
		if ((id = wn_cache_get_bytes(&r, &idn)))
			v = wn_idtab_get(&c->ids, key = id_key(c, id, idn));
		if (!(v & DONE)) {
			/* (At off: this record's, not another id's of the
			 * same hash.) */
			if (own && (v & AT_HIT) && HAS_AT(v) && AT_OFF(v) == off && !c->moved) {
				/* Found to hold at changed_at: the revision
				 * after the id is brought forward. */
				for (int i = 0; i < 8; i++)
					c->rd[r.pos + (size_t) i] = (char) ((uint64_t) c->changed_at >> (8 * i));
			}
			write_record(c, c->rd, c->rdlen);
			if (wn_idtab_put(&c->ids, key, v | WRITTEN) != WN_OK)
				c->out_failed = true;
		}
		off += HEAD + (off_t) c->rdlen;
	}
}

/* The old records, from the file as it was at open and, when another
 * winnow replaced it since, from that one too: of two winnows the last
 * to finish keeps what both knew (every record is checked when read,
 * so none from the other can be stale). */
static void copy_old(wn_cache *c)
{
	struct stat sb;
	int mine = c->fd, theirs = open_valid(c, &sb);
	off_t size = c->size;

	copy_records(c, true);
	if (theirs >= 0 && (sb.st_ino != c->ino || sb.st_dev != c->dev)) {
		/* The window holds what was read of mine. */
		c->win_have = 0;
		c->fd = theirs;
		c->size = sb.st_size;
		copy_records(c, false);
		c->win_have = 0;
		c->fd = mine;
		c->size = size;
	}
	if (theirs >= 0)
		close(theirs);
}

#ifdef WN_TEST_HOOKS
/* For the tests: how many reviews came from the cache and how many were
 * parsed, appended to $WINNOW_TEST_CACHE_LOG. */
static void test_log(const wn_cache *c)
{
	const char *path = getenv("WINNOW_TEST_CACHE_LOG");
	FILE *f = path && *path ? fopen(path, "a") : NULL;

	if (f) {
		fprintf(f, "hits=%lu misses=%lu written=%zu", c->hits, c->misses, c->written);
		fprintf(f, " ids=%zu ids_bytes=%zu changed=%zu changed_bytes=%zu alone=%lu\n",
			c->ids.n, wn_idtab_bytes(&c->ids), c->changed.n,
			wn_idtab_bytes(&c->changed), c->alone);
		fclose(f);
	}
}
#endif

void wn_cache_close(wn_cache **pc)
{
	wn_cache *c = pc ? *pc : NULL;

	if (!c)
		return;
#ifdef WN_TEST_HOOKS
	test_log(c);
#endif
	if ((c->written || c->dropped) && out_open(c)) {
		copy_old(c);
		if (fflush(c->out) != 0 || ferror(c->out))
			c->out_failed = true;
		if (fclose(c->out) != 0)
			c->out_failed = true;
		if (c->out_failed || rename(c->tmp, c->path) != 0)
			unlink(c->tmp);
	} else if (c->out) {
		fclose(c->out);
		unlink(c->tmp);
	}
	free(c->outbuf);	/* out is closed */
	if (c->fd >= 0)
		close(c->fd);
	free(c->tmp);
	free(c->path);
	wn_idtab_free(&c->ids);
	wn_idtab_free(&c->changed);
	found_clear(c);
	wn_buf_free(&c->rec);
	free(c->rd);
	free(c->win);
	free(c);
	*pc = NULL;
}
