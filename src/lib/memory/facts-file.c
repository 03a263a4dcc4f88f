/* winnow — the facts file's format (facts-private.h; when a record
 * holds: facts.c).
 *
 * $XDG_CACHE_HOME/winnow/facts-<hash of the database path>:
 *
 *     "WNFACTS8" key revision count length checksum excluded  (8 bytes each)
 *     payload                                                  (length bytes)
 *
 * The payload, its numbers LEB128 (n) but for the hashes (8 bytes):
 *
 *     files: n, seed, then each: n shared, n rest, rest, hash
 *     keys:  n, then each: n kind, n length, bytes, and a thread's n count
 *     records, each: n id length, id, digest, replied (1 byte),
 *            n flags, flags, n dependencies, then each: n key*2 + window,
 *            and with a window (an author's dates) its n lo, n hi (zigzag)
 *
 * files: those the passes that derived the facts read, each path
 * written as the bytes it shares with the one before and the rest, and
 * the hash of its identity (0 for one that was not there: core/fileid.h)
 * or, for a file read before it had one, of its bytes (hashed with
 * seed, 8 bytes).
 * keys: every thread id, Message-ID, title and address a record depends
 * on (series.h: wn_series_deps), once (twice when a run put it again
 * after its cache of recent keys forgot it: facts-private.h, KCACHE),
 * a thread with its count of messages then; a record names them by
 * their number.  The dependencies were four fifths of a file that wrote
 * each key out in full (19 MB at 100,000 messages: 207,004 of them,
 * 60,000 keys).  The records come in the order put (the walk's, which
 * looks them up again in that order), this run's first.
 *
 * The file is checked (magic, length, checksum, size limits, every
 * number within what it counts) at open, read through once; any fault
 * is an empty cache.  It is not kept in memory: its records and keys are
 * read again as looked up, through a window (struct win), and only each
 * record's id hash and place, each key's place and state, are kept (at
 * 600,000 messages the whole file read, the records put and the keys'
 * bytes held came to 120 MiB).  A record is found by the seeded hash of
 * its id (a mail cannot aim a collision at it) and its id read back.
 * What this run puts goes to unlinked temporary files beside it as put
 * (its records, its keys: facts-private.h, struct spill; the files read:
 * core/fileid.h), copied into the new file at close.  Another
 * version's magic is another format: never read, and written over by
 * the first run that derives anything.  A run that
 * derived anything writes every record it holds to a new file beside
 * the old and renames it over: a reader never sees half a file, and of
 * two winnows the last to finish wins (both wrote facts of their own
 * revision).  A full disk or an unwritable folder leaves the old file
 * or none. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/hash.h"
#include "facts-private.h"
#include "winnow/series.h"

#define MAGIC \
	"WNFACTS8" /* 8: files with no identity noted by their bytes,
				 * the seed of those hashes; 7: written in the order put (the walk's),
				 * a key maybe twice; 6: the keys in a table, numbers LEB128;
				 * 5: the dependency threads' counts; 4: the
				 * count of excluded messages; 3: each
				 * record's dependencies, the count of
				 * messages; 2: the files read */
/* Far larger than the facts of any index (about 30 bytes a review):
 * a larger file is a damaged one, not a reason to allocate.  Also
 * what a slot's offset can hold. */
#define FILE_MAX (256u << 20)

/* --- numbers ------------------------------------------------------------------ */

void wn_facts_put_num(wn_buf *b, uint64_t v)
{
	char c[10];
	size_t n = 0;

	do {
		c[n] = (char) (v & 0x7f);
		v >>= 7;
		c[n++] |= (char) (v ? 0x80 : 0);
	} while (v);
	wn_buf_append(b, c, n);
}

uint64_t wn_facts_get_num(wn_cache_rd *r)
{
	uint64_t v = 0;

	for (int shift = 0; !r->bad; shift += 7) {
		unsigned char c;

		if (r->pos >= r->n || shift > 63) {
			r->bad = true;
			break;
		}
		c = r->p[r->pos++];
		v |= (uint64_t) (c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	return 0;
}

uint64_t wn_facts_zigzag(int64_t v)
{
	return ((uint64_t) v << 1) ^ (uint64_t) (v < 0 ? -1 : 0);
}

static int64_t unzigzag(uint64_t v)
{
	return (int64_t) (v >> 1) ^ -(int64_t) (v & 1);
}

/* n bytes at r, in place; NULL when they are not there. */
static const char *get_run(wn_cache_rd *r, size_t n)
{
	const char *s = (const char *) r->p + r->pos;

	if (r->bad || r->n - r->pos < n) {
		r->bad = true;
		return NULL;
	}
	r->pos += n;
	return s;
}

/* A length and its bytes. */
static const char *get_str(wn_cache_rd *r, size_t *n)
{
	uint64_t len = wn_facts_get_num(r);

	*n = (size_t) len;
	return len <= FILE_MAX ? get_run(r, (size_t) len) : (r->bad = true, NULL);
}

static void put_str(wn_buf *b, const char *s, size_t n)
{
	wn_facts_put_num(b, n);
	wn_buf_append(b, s, n);
}

/* --- records ------------------------------------------------------------------ */

bool wn_facts_dep_next(wn_cache_rd *r, struct dep *d)
{
	uint64_t v = wn_facts_get_num(r);

	d->key = (uint32_t) (v >> 1);
	d->lo = d->hi = 0;
	d->window = v & 1;
	if (d->window) {
		d->lo = unzigzag(wn_facts_get_num(r));
		d->hi = unzigzag(wn_facts_get_num(r));
	}
	return !r->bad && (v >> 1) < UINT32_MAX;
}

/* The record at off in p[0..len), its keys below nkeys; false when it
 * does not hold. */
static bool rec_at(const unsigned char *p, size_t len, size_t off, size_t nkeys, struct rec *x)
{
	wn_cache_rd r = { p, len, off, false };
	const char *replied;

	x->start = off;
	x->id = get_str(&r, &x->idn);
	x->digest = wn_cache_get_u64(&r);
	replied = get_run(&r, 1);
	x->replied = replied ? (unsigned char) *replied : 2;
	x->flags = get_str(&r, &x->n);
	x->deps = r.pos;
	for (uint64_t k = 0, nd = wn_facts_get_num(&r); k < nd && !r.bad; k++) {
		struct dep d;

		if (!wn_facts_dep_next(&r, &d) || d.key >= nkeys)
			r.bad = true;
	}
	x->end = r.pos;
	return !r.bad && x->id && x->flags && x->replied <= 1;
}

/* --- windows and temporary files ----------------------------------------------- */

/* What a window reads at once: about one walk's worth of records
 * between two reads. */
#define WIN (1u << 16)

static bool read_at(int fd, unsigned char *p, size_t n, uint64_t at)
{
	while (n) {
		ssize_t r = pread(fd, p, n, (off_t) at);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p += r;
		n -= (size_t) r;
		at += (uint64_t) r;
	}
	return true;
}

/* The bytes of w from off, want of them at least (fewer at the end: *n
 * says how many there are); NULL when they cannot be read. */
static const unsigned char *win_at(struct win *w, uint64_t off, size_t want, size_t *n)
{
	size_t len;

	if (w->fd < 0 || off > w->size)
		return NULL;
	if (want > w->size - off)
		want = (size_t) (w->size - off);
	if (off >= w->base && off - w->base <= w->len && w->len - (off - w->base) >= want) {
		*n = w->len - (size_t) (off - w->base);
		return w->buf ? w->buf + (off - w->base) : (const unsigned char *) "";
	}
	len = want > WIN ? want : WIN;
	if (len > w->size - off)
		len = (size_t) (w->size - off);
	if (len > w->cap) {
		unsigned char *b = realloc(w->buf, len);

		if (!b)
			return NULL;
		w->buf = b;
		w->cap = len;
	}
	w->len = 0;
	if (len && !read_at(w->fd, w->buf, len, w->at + off))
		return NULL;
	w->base = off;
	w->len = len;
	*n = len;
	return w->buf ? w->buf : (const unsigned char *) "";
}

static void win_free(struct win *w)
{
	free(w->buf);
	w->buf = NULL;
	w->len = w->cap = 0;
}

/* An item at *off of w, read by parse (false: it does not hold, or
 * runs past the bytes it was given), the window grown until it fits;
 * *off past it.  False when it does not hold. */
static bool item(struct win *w, uint64_t *off, bool (*parse)(wn_cache_rd *r, void *arg), void *arg)
{
	for (size_t want = 1024;; want *= 2) {
		size_t n;
		const unsigned char *p = win_at(w, *off, want, &n);
		wn_cache_rd r = { p, n, 0, false };

		if (!p)
			return false;
		if (parse(&r, arg) && !r.bad) {
			*off += r.pos;
			return true;
		}
		if (n < want)
			return false; /* it had every byte there is */
	}
}

static bool spill_flush(struct spill *s)
{
	size_t done = 0;

	if (s->failed || wn_buf_failed(&s->out))
		return !(s->failed = true);
	while (done < s->out.len) {
		ssize_t w = write(s->w.fd, s->out.data + done, s->out.len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return !(s->failed = true);
		done += (size_t) w;
	}
	s->out.len = 0;
	return true;
}

/* An unlinked temporary file beside the facts file; -1 when none. */
int wn_facts_tmp_fd(const wn_facts *f)
{
	char *tmp = NULL;
	FILE *out = wn_cache_create(f->path, &tmp);
	int fd = -1;

	if (out) {
		fd = fcntl(fileno(out), F_DUPFD_CLOEXEC, 0);
		fclose(out);
		unlink(tmp);
	}
	free(tmp);
	return fd;
}

/* A temporary file beside the facts file for s; false when none. */
static bool spill_open(wn_facts *f, struct spill *s)
{
	if (s->w.fd < 0 && !s->failed && (s->w.fd = wn_facts_tmp_fd(f)) < 0)
		s->failed = true;
	return !s->failed;
}

void wn_facts_spill_free(struct spill *s)
{
	if (s->w.fd >= 0)
		close(s->w.fd);
	win_free(&s->w);
	wn_buf_free(&s->out);
	s->w.fd = -1;
}

static bool spill_put(wn_facts *f, struct spill *s, const void *p, size_t n)
{
	if (!spill_open(f, s))
		return false;
	wn_buf_append(&s->out, p, n);
	s->w.size += n;
	return s->out.len < WIN || spill_flush(s);
}

/* --- records ------------------------------------------------------------------- */

struct rec_parse {
	size_t nkeys;
	struct rec *x;
};

static bool parse_rec(wn_cache_rd *r, void *arg)
{
	struct rec_parse *a = arg;

	if (!rec_at(r->p, r->n, 0, a->nkeys, a->x))
		return false;
	r->pos = a->x->end;
	return true;
}

/* The record at off of w (its keys below nkeys), its bytes from *p. */
static bool rec_in(struct win *w, uint64_t off, size_t nkeys, struct rec *x,
		   const unsigned char **p)
{
	struct rec_parse a = { nkeys, x };
	uint64_t end = off;
	size_t n;

	if (!item(w, &end, parse_rec, &a))
		return false;
	*p = win_at(w, off, (size_t) (end - off), &n);
	return *p != NULL;
}

bool wn_facts_rec_of(wn_facts *f, uint32_t off, struct rec *x, const unsigned char **p)
{
	if (!(off & ~ADDED))
		return false;
	if (off & ADDED)
		return spill_flush(&f->add) && rec_in(&f->add.w, (off & ~ADDED) - 1, f->nnew, x, p);
	return rec_in(&f->old, off - 1, f->nold, x, p);
}

bool wn_facts_rec_put(wn_facts *f, const wn_buf *rec, uint32_t *off)
{
	uint64_t at = f->add.w.size;

	if (wn_buf_failed(rec) || at + rec->len >= ADDED - 1 ||
	    !spill_put(f, &f->add, rec->data, rec->len))
		return false;
	*off = (uint32_t) (at + 1) | ADDED;
	return true;
}

bool wn_facts_next_old(wn_facts *f, uint64_t *off, struct rec *x, const unsigned char **p)
{
	if (*off >= f->old.size || !rec_in(&f->old, *off, f->nold, x, p))
		return false;
	*off += x->end;
	return true;
}

uint64_t wn_facts_id_hash(const wn_facts *f, const char *id, size_t idn)
{
	return wn_hash_seeded(f->seed, id, idn);
}

size_t wn_facts_slot_of(wn_facts *f, uint64_t h, const char *id, size_t idn)
{
	for (size_t i = (size_t) h & (f->cap - 1);; i = (i + 1) & (f->cap - 1)) {
		const unsigned char *p;
		struct rec x;

		if (!f->sh[i])
			return i;
		if (f->sh[i] != h || !f->soff[i])
			continue;
		if (!wn_facts_rec_of(f, f->soff[i], &x, &p))
			return SIZE_MAX;
		if (x.idn == idn && memcmp(x.id, id, idn) == 0)
			return i;
	}
}

size_t wn_facts_slot_at(const wn_facts *f, uint64_t h, uint32_t off)
{
	for (size_t i = (size_t) h & (f->cap - 1); f->sh[i]; i = (i + 1) & (f->cap - 1))
		if (f->sh[i] == h && f->soff[i] == off)
			return i;
	return SIZE_MAX;
}

/* The table at most three quarters full (twelve bytes a slot: 20 to 40
 * a record): the hashes move, no record is read. */
bool wn_facts_room(wn_facts *f)
{
	size_t cap = f->cap ? f->cap * 2 : 1024;
	uint64_t *sh;
	uint32_t *so;

	if (4 * (f->n + 1) <= 3 * f->cap)
		return true;
	sh = calloc(cap, sizeof(*sh));
	so = calloc(cap, sizeof(*so));
	if (!sh || !so) {
		free(sh);
		free(so);
		return false;
	}
	for (size_t i = 0; i < f->cap; i++) {
		size_t k;

		if (!f->sh[i])
			continue;
		for (k = (size_t) f->sh[i] & (cap - 1); sh[k]; k = (k + 1) & (cap - 1))
			;
		sh[k] = f->sh[i];
		so[k] = f->soff[i];
	}
	free(f->sh);
	free(f->soff);
	f->sh = sh;
	f->soff = so;
	f->cap = cap;
	return true;
}

/* --- the keys ------------------------------------------------------------------- */

struct key_parse {
	uint64_t kind, count;
	const char *k;
	size_t kn;
};

static bool parse_key(wn_cache_rd *r, void *arg)
{
	struct key_parse *a = arg;

	a->kind = wn_facts_get_num(r);
	a->k = get_str(r, &a->kn);
	a->count = a->kind == WN_DEP_THREAD ? wn_facts_get_num(r) : 0;
	return a->k && !r->bad;
}

const char *wn_facts_key(wn_facts *f, uint32_t i, size_t *len, uint64_t *count)
{
	struct key_parse a;
	uint64_t off = f->koff[i];

	if (!item(&f->kwin, &off, parse_key, &a))
		return NULL;
	*len = a.kn;
	if (count)
		*count = a.count;
	return a.k;
}

bool wn_facts_key_put(wn_facts *f, unsigned kind, const char *k, size_t kn,
		      wn_facts_count_fn *count, uint32_t *i)
{
	unsigned char c = (unsigned char) kind;
	uint64_t h = wn_hash_seeded(wn_fnv1a(f->seed, &c, 1), k, kn), n = 0;
	size_t at = (size_t) h & (KCACHE - 1);
	wn_buf b = WN_BUF_INIT;
	bool ok;

	if (!f->kc_hash && (!(f->kc_hash = calloc(KCACHE, sizeof(*f->kc_hash))) ||
			    !(f->kc_num = calloc(KCACHE, sizeof(*f->kc_num)))))
		return false;
	if (f->kc_hash[at] == h) {
		*i = f->kc_num[at];
		return true;
	}
	if (f->nnew >= UINT32_MAX / 2 || (kind == WN_DEP_THREAD && !count(f, k, kn, &n)))
		return false;
	wn_facts_put_num(&b, kind);
	put_str(&b, k, kn);
	if (kind == WN_DEP_THREAD)
		wn_facts_put_num(&b, n);
	ok = !wn_buf_failed(&b) && spill_put(f, &f->nkeys, b.data, b.len);
	wn_buf_free(&b);
	if (!ok)
		return false;
	f->kc_hash[at] = h;
	*i = f->kc_num[at] = (uint32_t) f->nnew++;
	return true;
}

/* --- reading ------------------------------------------------------------------ */

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t) p[i] << (8 * i);
	return v;
}

/* The payload's checksum, read through. */
static bool sum_holds(struct win *w, uint64_t want)
{
	uint64_t sum = WN_FNV_BASIS;

	for (uint64_t off = 0; off < w->size;) {
		size_t n;
		const unsigned char *p = win_at(w, off, WIN, &n);

		if (!p || !n)
			return false;
		sum = wn_fnv1a(sum, p, n);
		off += n;
	}
	return sum == want;
}

static bool parse_num(wn_cache_rd *r, void *arg)
{
	*(uint64_t *) arg = wn_facts_get_num(r);
	return !r->bad;
}

static bool parse_u64(wn_cache_rd *r, void *arg)
{
	*(uint64_t *) arg = wn_cache_get_u64(r);
	return !r->bad;
}

struct file_parse {
	uint64_t shared, hash;
	const char *rest;
	size_t rn;
};

static bool parse_file(wn_cache_rd *r, void *arg)
{
	struct file_parse *a = arg;

	a->shared = wn_facts_get_num(r);
	a->rest = get_str(r, &a->rn);
	a->hash = wn_cache_get_u64(r);
	return a->rest && !r->bad;
}

/* Each of the file's paths in turn, into path (NUL-terminated), with
 * its identity's hash, for fn; false when one does not parse or fn
 * says stop.  The section starts at *off and ends there after. */
static bool each_file(wn_facts *f, uint64_t *off,
		      bool (*fn)(wn_facts *f, const wn_buf *path, uint64_t hash, void *arg),
		      void *arg)
{
	wn_buf path = WN_BUF_INIT;
	bool ok = true;

	for (uint64_t i = 0; i < f->nfiles && ok; i++) {
		struct file_parse a;

		ok = item(&f->old, off, parse_file, &a) && a.shared <= path.len;
		if (ok) {
			path.len = (size_t) a.shared;
			wn_buf_append(&path, a.rest, a.rn);
			wn_buf_putc(&path, '\0');
			ok = !wn_buf_failed(&path) && !memchr(path.data, '\0', path.len - 1) &&
			     fn(f, &path, a.hash, arg);
			path.len--;
		}
	}
	wn_buf_free(&path);
	return ok;
}

struct gone_fn {
	bool (*gone)(const char *path, void *arg);
};

static bool file_holds(wn_facts *f, const wn_buf *path, uint64_t hash, void *arg)
{
	uint64_t now;

	if (!wn_readlog_holds(&f->log, path->data, hash, f->log.content_seed, &now,
			      ((struct gone_fn *) arg)->gone, f))
		return false;
	if (hash & WN_READLOG_BYTES) {
		/* Grown at 0, 8, 16, 32...: to twice as many. */
		if (!f->nbytes || (f->nbytes >= 8 && !(f->nbytes & (f->nbytes - 1)))) {
			uint64_t *grown = realloc(f->bytes_now,
						  (f->nbytes ? 2 * f->nbytes : 8) * sizeof(*grown));

			if (!grown)
				return false;
			f->bytes_now = grown;
		}
		f->bytes_now[f->nbytes++] = now;
	}
	return true;
}

static bool file_know(wn_facts *f, const wn_buf *path, uint64_t hash, void *arg)
{
	(void) hash;
	(void) arg;
	return wn_readlog_know(&f->log, path->data, path->len - 1);
}

/* The log's fill (core/fileid.h): the file's paths into its set, read
 * again from the file when this run first reads one of its own. */
static bool know_files(void *arg)
{
	wn_facts *f = arg;
	uint64_t off = f->files;

	return each_file(f, &off, file_know, NULL);
}

/* The files the payload's facts were read from, each still as it was
 * (or gone as gone says); the log knows them once it is first put to.
 * False when that does not hold. */
static bool load_files(wn_facts *f, uint64_t *off, bool (*gone)(const char *, void *))
{
	struct gone_fn g = { gone };
	bool ok = item(&f->old, off, parse_num, &f->nfiles) &&
		  item(&f->old, off, parse_u64, &f->log.content_seed);

	f->files = *off;
	ok = ok && each_file(f, off, file_holds, &g);
	if (ok && f->nfiles) {
		f->log.fill = know_files;
		f->log.fill_arg = f;
	}
	f->keys = *off;
	return ok;
}

/* The keys' places and kinds, in the file's order; false when they do
 * not hold. */
static bool load_keys(wn_facts *f, uint64_t *off)
{
	uint64_t n;

	/* Each takes two bytes at least: more is a damaged file. */
	if (!item(&f->old, off, parse_num, &n) || n > (f->old.size - *off) / 2)
		return false;
	if (n && (!(f->koff = malloc((size_t) n * sizeof(*f->koff))) ||
		  !(f->kstate = malloc((size_t) n))))
		return false;
	for (uint64_t i = 0; i < n; i++) {
		struct key_parse a;

		f->koff[i] = (uint32_t) *off;
		if (!item(&f->old, off, parse_key, &a) || a.kind < WN_DEP_THREAD ||
		    a.kind > WN_DEP_FROM || a.count >= UINT32_MAX - 1)
			return false;
		f->kstate[i] = (uint8_t) a.kind;
	}
	f->nold = (size_t) n;
	return true;
}

/* Every record of the payload into the slots; false on one that does
 * not hold or an id twice. */
static bool load_records(wn_facts *f)
{
	wn_buf id = WN_BUF_INIT;
	uint64_t off = f->recs;
	bool ok = true;

	while (ok && off < f->old.size) {
		const unsigned char *p;
		struct rec x;
		uint64_t at = off, h;
		size_t i;

		ok = wn_facts_next_old(f, &off, &x, &p) && wn_facts_room(f);
		if (ok) {
			/* Out of the window, which a lookup may move. */
			id.len = 0;
			wn_buf_append(&id, x.id, x.idn);
			h = wn_facts_id_hash(f, x.id, x.idn);
			ok = !wn_buf_failed(&id) &&
			     (i = wn_facts_slot_of(f, h, id.data ? id.data : "", x.idn)) !=
				     SIZE_MAX &&
			     !f->sh[i];
		}
		if (ok) {
			f->sh[i] = h;
			f->soff[i] = (uint32_t) at + 1;
			f->n++;
		}
	}
	wn_buf_free(&id);
	return ok;
}

bool wn_facts_read(wn_facts *f, bool (*gone)(const char *path, void *arg))
{
	/* Not blocking: a FIFO put there would wait for a writer. */
	int fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	unsigned char head[HEAD];
	struct stat sb;
	uint64_t off = 0;

	if (fd < 0)
		return false;
	/* Records of a revision the handle does not read yet (a newer
	 * winnow wrote them) are no cache for it. */
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size < HEAD ||
	    (uint64_t) sb.st_size > FILE_MAX || !read_at(fd, head, HEAD, 0) ||
	    memcmp(head, MAGIC, 8) != 0 || le64(head + 8) != f->key || le64(head + 16) > f->rev ||
	    le64(head + 32) != (uint64_t) sb.st_size - HEAD) {
		close(fd);
		return false;
	}
	f->old = (struct win){ fd, HEAD, (uint64_t) sb.st_size - HEAD, 0, NULL, 0, 0 };
	f->kwin = (struct win){ fd, HEAD, (uint64_t) sb.st_size - HEAD, 0, NULL, 0, 0 };
	if (sum_holds(&f->old, le64(head + 40)) && load_files(f, &off, gone) &&
	    load_keys(f, &off) && (f->recs = off, load_records(f))) {
		f->filerev = le64(head + 16);
		f->count = le64(head + 24);
		f->excluded = le64(head + 48);
		return true;
	}
	close(fd);
	win_free(&f->old);
	win_free(&f->kwin);
	free(f->koff);
	free(f->kstate);
	free(f->bytes_now);
	f->bytes_now = NULL;
	f->nbytes = 0;
	free(f->sh);
	free(f->soff);
	f->old.fd = f->kwin.fd = -1;
	f->koff = NULL;
	f->kstate = NULL;
	f->sh = NULL;
	f->soff = NULL;
	f->old.size = f->kwin.size = 0;
	f->nfiles = f->files = f->keys = f->recs = f->nold = f->cap = f->n = 0;
	wn_readlog_free(&f->log);
	return false;
}

/* --- writing ------------------------------------------------------------------ */

static void put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char) (v >> (8 * i));
}

/* The header, its length and checksum as given, to out's start. */
static bool put_head(const wn_facts *f, FILE *out, uint64_t count, uint64_t excluded, uint64_t len,
		     uint64_t sum)
{
	unsigned char head[HEAD];

	memcpy(head, MAGIC, 8);
	put_le64(head + 8, f->key);
	put_le64(head + 16, f->rev);
	put_le64(head + 24, count);
	put_le64(head + 32, len);
	put_le64(head + 40, sum);
	put_le64(head + 48, excluded);
	return fseek(out, 0, SEEK_SET) == 0 && fwrite(head, 1, HEAD, out) == HEAD;
}

/* The payload being written: b to out when large, into the length and
 * checksum. */
struct out {
	FILE *f;
	wn_buf b;
	uint64_t len, sum;
	bool ok;
};

static void flush(struct out *o, bool all)
{
	if (!all && o->b.len < WIN)
		return;
	o->ok = o->ok && !wn_buf_failed(&o->b) &&
		(!o->b.len || fwrite(o->b.data, 1, o->b.len, o->f) == o->b.len);
	o->sum = wn_fnv1a(o->sum, o->b.data ? o->b.data : "", o->b.len);
	o->len += o->b.len;
	o->b.len = 0;
}

/* Bytes [from, to) of w, as they are. */
static void put_range(struct out *o, struct win *w, uint64_t from, uint64_t to)
{
	while (o->ok && from < to) {
		size_t n;
		const unsigned char *p = win_at(w, from, 1, &n);

		if (!p || !n) {
			o->ok = false;
			return;
		}
		if (n > to - from)
			n = (size_t) (to - from);
		wn_buf_append(&o->b, (const char *) p, n);
		from += n;
		flush(o, false);
	}
}

/* One entry of the files: path as what it shares with the one before
 * (prev, then path) and the rest, and hash. */
static void put_file(struct out *o, wn_buf *prev, const char *path, size_t n, uint64_t hash)
{
	size_t shared = 0;

	while (shared < prev->len && shared < n && prev->data[shared] == path[shared])
		shared++;
	wn_facts_put_num(&o->b, shared);
	put_str(&o->b, path + shared, n - shared);
	wn_cache_put_u64(&o->b, hash);
	prev->len = 0;
	wn_buf_append(prev, path, n);
	o->ok = o->ok && !wn_buf_failed(prev);
	flush(o, false);
}

struct put_old {
	struct out *o;
	wn_buf prev;
	size_t bytes; /* the entries noted by their bytes so far */
};

/* An entry of the file's, its hash one noted by bytes brought to now. */
static bool put_old_file(wn_facts *f, const wn_buf *path, uint64_t hash, void *arg)
{
	struct put_old *p = arg;

	if ((hash & WN_READLOG_BYTES) && p->bytes < f->nbytes)
		hash = f->bytes_now[p->bytes++];
	put_file(p->o, &p->prev, path->data, path->len - 1, hash);
	return p->o->ok;
}

bool wn_facts_files_settled(const wn_facts *f)
{
	for (size_t i = 0; i < f->nbytes; i++)
		if (!(f->bytes_now[i] & WN_READLOG_BYTES))
			return true;
	return false;
}

/* The files read: the file's as they were (but those noted by their
 * bytes that now have an identity: then each written again), then this
 * run's, each path as what it shares with the one before and the rest
 * (the first of this run's shares nothing). */
static void put_files(wn_facts *f, struct out *o)
{
	wn_readlog_rd rd = WN_READLOG_RD_INIT;
	struct put_old old = { o, WN_BUF_INIT, 0 };
	bool again = wn_facts_files_settled(f);
	const char *path;
	uint64_t hash;

	wn_facts_put_num(&o->b, f->nfiles + f->log.added);
	wn_cache_put_u64(&o->b, wn_readlog_content_seed(&f->log));
	if (again) {
		uint64_t off = f->files;

		o->ok = o->ok && each_file(f, &off, put_old_file, &old);
	} else {
		put_range(o, &f->old, f->files, f->keys);
	}
	old.prev.len = 0;
	o->ok = o->ok && wn_readlog_flush(&f->log);
	while (o->ok && (path = wn_readlog_next(&f->log, &rd, &hash)))
		put_file(o, &old.prev, path, strlen(path), hash);
	o->ok = o->ok && !rd.bad;
	wn_buf_free(&rd.buf);
	wn_buf_free(&old.prev);
}

/* This run's keys, then the file's that the records name (KEY_USED),
 * numbered after them in koff[], each thread's count as count() says;
 * false when it says to give up. */
static bool put_keys(wn_facts *f, struct out *o, wn_facts_count_fn *count)
{
	size_t used = 0, next = f->nnew;

	for (size_t i = 0; i < f->nold; i++)
		used += (f->kstate[i] & KEY_USED) != 0;
	wn_facts_put_num(&o->b, f->nnew + used);
	o->ok = o->ok && spill_flush(&f->nkeys);
	put_range(o, &f->nkeys.w, 0, f->nkeys.w.size);
	for (size_t i = 0; o->ok && i < f->nold; i++) {
		unsigned kind = f->kstate[i] & KIND_MASK;
		uint64_t n;
		size_t kn;
		const char *k;

		if (!(f->kstate[i] & KEY_USED))
			continue;
		if (!(k = wn_facts_key(f, (uint32_t) i, &kn, &n)))
			return o->ok = false;
		wn_facts_put_num(&o->b, kind);
		put_str(&o->b, k, kn);
		if (kind == WN_DEP_THREAD) {
			if (!count(f, k, kn, &n))
				return false;
			wn_facts_put_num(&o->b, n);
		}
		f->koff[i] = (uint32_t) next++;
		flush(o, false);
	}
	return true;
}

/* The file's record x (at p) as written, its keys renumbered. */
static void put_record(wn_buf *b, const unsigned char *p, const struct rec *x,
		       const uint32_t *renum)
{
	wn_cache_rd r = { p, x->end, x->deps, false };
	uint64_t nd = wn_facts_get_num(&r);

	wn_buf_append(b, (const char *) p + x->start, x->deps - x->start);
	wn_facts_put_num(b, nd);
	for (uint64_t k = 0; k < nd; k++) {
		struct dep d;

		wn_facts_dep_next(&r, &d);
		wn_facts_put_num(b, (uint64_t) renum[d.key] << 1 | d.window);
		if (d.window) {
			wn_facts_put_num(b, wn_facts_zigzag(d.lo));
			wn_facts_put_num(b, wn_facts_zigzag(d.hi));
		}
	}
}

/* The records the slots still name: this run's as put (one put again
 * only as last put), then the file's that hold, renumbered. */
static void put_records(wn_facts *f, struct out *o)
{
	uint64_t off = 0;

	o->ok = o->ok && spill_flush(&f->add);
	while (o->ok && off < f->add.w.size) {
		const unsigned char *p;
		struct rec x;
		uint32_t at = (uint32_t) (off + 1) | ADDED;

		if (!rec_in(&f->add.w, off, f->nnew, &x, &p))
			return (void) (o->ok = false);
		if (wn_facts_slot_at(f, wn_facts_id_hash(f, x.id, x.idn), at) != SIZE_MAX)
			wn_buf_append(&o->b, (const char *) p, x.end);
		off += x.end;
		flush(o, false);
	}
	for (off = f->recs; o->ok && off < f->old.size;) {
		const unsigned char *p;
		struct rec x;
		uint32_t at = (uint32_t) off + 1;

		if (!wn_facts_next_old(f, &off, &x, &p))
			return (void) (o->ok = false);
		if (wn_facts_slot_at(f, wn_facts_id_hash(f, x.id, x.idn), at) != SIZE_MAX)
			put_record(&o->b, p, &x, f->koff);
		flush(o, false);
	}
}

void wn_facts_write(wn_facts *f, uint64_t count, uint64_t excluded, wn_facts_count_fn *count_of)
{
	struct out o = { NULL, WN_BUF_INIT, 0, WN_FNV_BASIS, true };
	char *tmp = NULL;

	if (f->nkeys.failed || f->add.failed || !(o.f = wn_cache_create(f->path, &tmp)))
		return;
	o.ok = put_head(f, o.f, 0, 0, 0, 0);
	put_files(f, &o);
	if (put_keys(f, &o, count_of)) {
		put_records(f, &o);
		flush(&o, true);
		o.ok = o.ok && put_head(f, o.f, count, excluded, o.len, o.sum);
	} else {
		o.ok = false;
	}
	o.ok = fflush(o.f) == 0 && !ferror(o.f) && o.ok;
	o.ok = fclose(o.f) == 0 && o.ok;
	if (!o.ok || rename(tmp, f->path) != 0)
		unlink(tmp);
	free(tmp);
	wn_buf_free(&o.b);
}
