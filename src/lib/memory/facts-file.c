/* winnow — the facts file's format (facts-private.h; when a record
 * holds: facts.c).
 *
 * $XDG_CACHE_HOME/winnow/facts-<hash of the database path>:
 *
 *     "WNFACTS6" key revision count length checksum excluded  (8 bytes each)
 *     payload                                                  (length bytes)
 *
 * The payload, its numbers LEB128 (n) but for the hashes (8 bytes):
 *
 *     files: n, then each: n shared, n rest, rest, hash
 *     keys:  n, then each: n kind, n length, bytes, and a thread's n count
 *     records, each: n id length, id, digest, replied (1 byte),
 *            n flags, flags, n dependencies, then each: n key*2 + window,
 *            and with a window (an author's dates) its n lo, n hi (zigzag)
 *
 * files: those the passes that derived the facts read, each path
 * written as the bytes it shares with the one before and the rest, and
 * the hash of its identity (0 for one that was not there: core/fileid.h).
 * keys: every thread id, Message-ID, title and address a record depends
 * on (series.h: wn_series_deps), once, a thread with its count of
 * messages then; a record names them by their number.  The
 * dependencies were four fifths of a file that wrote each key out in
 * full (19 MB at 100,000 messages: 207,004 of them, 60,000 keys).
 *
 * The file is read whole and checked (magic, length, checksum, size
 * limits, every number within what it counts) at open; any fault is an
 * empty cache.  Another version's magic is another format: never read,
 * and written over by the first run that derives anything.  A run that
 * derived anything writes every record it holds to a new file beside
 * the old and renames it over: a reader never sees half a file, and of
 * two winnows the last to finish wins (both wrote facts of their own
 * revision).  A full disk or an unwritable folder leaves the old file
 * or none. */
#include "autoconfig.h"

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
	"WNFACTS6" /* 6: the keys in a table, numbers LEB128;
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

bool wn_facts_rec_at(const unsigned char *p, size_t len, size_t off, size_t nkeys, struct rec *x)
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

const unsigned char *wn_facts_rec_of(const wn_facts *f, uint32_t slot, struct rec *x, size_t *len)
{
	size_t off = (slot & ~ADDED) - 1;
	const unsigned char *base = slot & ADDED ? (const unsigned char *) f->add.data : f->old;

	*len = slot & ADDED ? f->add.len : f->oldlen;
	/* It was checked when it went in. */
	wn_facts_rec_at(base, *len, off, f->ntab, x);
	return base;
}

uint32_t *wn_facts_slot_of(const wn_facts *f, const char *id, size_t idn)
{
	size_t i = (size_t) wn_fnv1a(WN_FNV_BASIS, id, idn) & (f->cap - 1);

	for (;; i = (i + 1) & (f->cap - 1)) {
		struct rec x;
		size_t len;

		if (!f->slots[i])
			return &f->slots[i];
		wn_facts_rec_of(f, f->slots[i], &x, &len);
		if (x.idn == idn && memcmp(x.id, id, idn) == 0)
			return &f->slots[i];
	}
}

/* The table at most half full. */
bool wn_facts_room(wn_facts *f)
{
	size_t cap = f->cap ? f->cap * 2 : 1024;
	wn_facts bigger = *f;

	if (2 * (f->n + 1) <= f->cap)
		return true;
	if (!(bigger.slots = calloc(cap, sizeof(*bigger.slots))))
		return false;
	bigger.cap = cap;
	for (size_t i = 0; i < f->cap; i++) {
		struct rec x;
		size_t len;

		if (!f->slots[i])
			continue;
		wn_facts_rec_of(f, f->slots[i], &x, &len);
		*wn_facts_slot_of(&bigger, x.id, x.idn) = f->slots[i];
	}
	free(f->slots);
	f->slots = bigger.slots;
	f->cap = cap;
	return true;
}

/* --- the keys ------------------------------------------------------------------- */

const char *wn_facts_key(const wn_facts *f, uint32_t i, size_t *len)
{
	const struct fkey *k = &f->tab[i];

	*len = k->len;
	return (k->state & KEY_ADDED ? f->keys.data : (const char *) f->old) + k->off;
}

static uint64_t key_hash(unsigned kind, const char *k, size_t kn)
{
	return wn_fnv1a(wn_fnv1a_byte(WN_FNV_BASIS, (unsigned char) kind), k, kn);
}

/* The key slot of (kind, k): its key's number + 1, or the empty one. */
static uint32_t *kslot_of(const wn_facts *f, uint32_t *slots, size_t cap, unsigned kind,
			  const char *k, size_t kn)
{
	size_t i = (size_t) key_hash(kind, k, kn) & (cap - 1);

	for (;; i = (i + 1) & (cap - 1)) {
		const char *b;
		size_t bn;

		if (!slots[i])
			return &slots[i];
		b = wn_facts_key(f, slots[i] - 1, &bn);
		if (f->tab[slots[i] - 1].kind == kind && bn == kn && memcmp(b, k, kn) == 0)
			return &slots[i];
	}
}

/* Room for one more key in the table and its slots; false when out of
 * memory.  The slots are made when the first key is put: a run that
 * only reads never needs them. */
static bool key_room(wn_facts *f)
{
	if (f->ntab == f->tabcap) {
		size_t cap = f->tabcap ? 2 * f->tabcap : 256;
		struct fkey *t = cap < UINT32_MAX / 2 ? realloc(f->tab, cap * sizeof(*t)) : NULL;

		if (!t)
			return false;
		f->tab = t;
		f->tabcap = cap;
	}
	if (2 * (f->ntab + 1) > f->kcap) {
		size_t cap = f->kcap ? 2 * f->kcap : 1024;
		uint32_t *s;

		while (2 * (f->ntab + 1) > cap)
			cap *= 2;
		if (!(s = calloc(cap, sizeof(*s))))
			return false;
		for (size_t i = 0; i < f->ntab; i++) {
			size_t kn;
			const char *k = wn_facts_key(f, (uint32_t) i, &kn);

			*kslot_of(f, s, cap, f->tab[i].kind, k, kn) = (uint32_t) i + 1;
		}
		free(f->kslots);
		f->kslots = s;
		f->kcap = cap;
	}
	return true;
}

bool wn_facts_key_put(wn_facts *f, unsigned kind, const char *k, size_t kn, uint32_t *i)
{
	uint32_t *slot;
	size_t off = f->keys.len;

	if (!key_room(f))
		return false;
	if (*(slot = kslot_of(f, f->kslots, f->kcap, kind, k, kn))) {
		*i = *slot - 1;
		return true;
	}
	wn_buf_append(&f->keys, k, kn);
	if (wn_buf_failed(&f->keys) || f->keys.len >= UINT32_MAX)
		return false;
	f->tab[f->ntab] =
		(struct fkey){ (uint32_t) off, (uint32_t) kn, 0, (uint8_t) kind, KEY_ADDED };
	*i = (uint32_t) f->ntab;
	*slot = (uint32_t) ++f->ntab;
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

/* The file, whole, when it is one of this version, key and a revision
 * the handle reads; NULL. */
static unsigned char *read_whole(const wn_facts *f, size_t *len)
{
	/* Not blocking: a FIFO put there would wait for a writer. */
	int fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	unsigned char *buf = NULL;
	struct stat sb;
	size_t got = 0;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= HEAD &&
	    (uint64_t) sb.st_size <= FILE_MAX && (buf = malloc((size_t) sb.st_size))) {
		while (got < (size_t) sb.st_size) {
			ssize_t r = read(fd, buf + got, (size_t) sb.st_size - got);

			if (r <= 0)
				break;
			got += (size_t) r;
		}
	}
	close(fd);
	/* Records of a revision the handle does not read yet (a newer
	 * winnow wrote them) are no cache for it. */
	if (!buf || got != (size_t) sb.st_size || memcmp(buf, MAGIC, 8) != 0 ||
	    le64(buf + 8) != f->key || le64(buf + 16) > f->rev || le64(buf + 32) != got - HEAD ||
	    le64(buf + 40) != wn_fnv1a(WN_FNV_BASIS, buf + HEAD, got - HEAD)) {
		free(buf);
		return NULL;
	}
	*len = got;
	return buf;
}

/* The files the payload's facts were read from into the log; false
 * when that does not hold. */
static bool load_files(wn_facts *f, wn_cache_rd *r)
{
	wn_buf path = WN_BUF_INIT;
	uint64_t n = wn_facts_get_num(r);
	bool ok = true;

	for (uint64_t i = 0; i < n && ok; i++) {
		uint64_t shared = wn_facts_get_num(r);
		size_t rn;
		const char *rest = get_str(r, &rn);
		uint64_t hash = wn_cache_get_u64(r);

		ok = rest && !r->bad && shared <= path.len;
		if (ok) {
			path.len = (size_t) shared;
			wn_buf_append(&path, rest, rn);
			ok = !wn_buf_failed(&path) &&
			     wn_readlog_add(&f->log, path.data ? path.data : "", path.len, hash);
		}
	}
	wn_buf_free(&path);
	return ok && !r->bad;
}

/* The keys into the table, in the file's order; false when they do not
 * hold. */
static bool load_keys(wn_facts *f, wn_cache_rd *r)
{
	uint64_t n = wn_facts_get_num(r);

	/* Each takes two bytes at least: more is a damaged file. */
	if (r->bad || n > (r->n - r->pos) / 2)
		return false;
	if (n && !(f->tab = malloc((size_t) n * sizeof(*f->tab))))
		return false;
	f->tabcap = (size_t) n;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t kind = wn_facts_get_num(r), count = 0;
		size_t kn;
		const char *k = get_str(r, &kn);

		if (kind == WN_DEP_THREAD)
			count = wn_facts_get_num(r);
		if (!k || r->bad || kind < WN_DEP_THREAD || kind > WN_DEP_FROM ||
		    count >= UINT32_MAX - 1)
			return false;
		f->tab[i] = (struct fkey){ (uint32_t) (k - (const char *) r->p), (uint32_t) kn,
					   kind == WN_DEP_THREAD ? (uint32_t) count + 1 : 0,
					   (uint8_t) kind, 0 };
	}
	f->ntab = f->nold = (size_t) n;
	return true;
}

/* Every record of the payload into the slots; false on one that does
 * not hold or an id twice. */
static bool load_records(wn_facts *f)
{
	size_t off = f->recs;

	while (off < f->oldlen) {
		struct rec x;
		uint32_t *slot;

		if (!wn_facts_rec_at(f->old, f->oldlen, off, f->ntab, &x) || !wn_facts_room(f) ||
		    *(slot = wn_facts_slot_of(f, x.id, x.idn)))
			return false;
		*slot = (uint32_t) (off + 1);
		f->n++;
		off = x.end;
	}
	return true;
}

bool wn_facts_read(wn_facts *f, bool (*gone)(const char *path, void *arg))
{
	size_t len = 0;
	unsigned char *buf = read_whole(f, &len);
	wn_cache_rd r;

	if (!buf)
		return false;
	f->filerev = le64(buf + 16);
	f->count = le64(buf + 24);
	f->excluded = le64(buf + 48);
	/* The payload stays where it was read: the records' and keys'
	 * bytes. */
	memmove(buf, buf + HEAD, len - HEAD);
	f->old = buf;
	f->oldlen = len - HEAD;
	r = (wn_cache_rd){ f->old, f->oldlen, 0, false };
	if (load_files(f, &r) && load_keys(f, &r) && (f->recs = r.pos, load_records(f)) &&
	    !f->log.unsure && wn_readlog_holds(&f->log, gone, f))
		return true;
	free(f->old);
	free(f->tab);
	free(f->slots);
	f->old = NULL;
	f->tab = NULL;
	f->slots = NULL;
	f->oldlen = f->recs = f->ntab = f->nold = f->tabcap = f->cap = f->n = 0;
	f->filerev = f->count = f->excluded = 0;
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

/* b to out, into the length and checksum; emptied. */
static bool flush(wn_buf *b, FILE *out, uint64_t *len, uint64_t *sum)
{
	bool ok = !wn_buf_failed(b) && (!b->len || fwrite(b->data, 1, b->len, out) == b->len);

	*sum = wn_fnv1a(*sum, b->data ? b->data : "", b->len);
	*len += b->len;
	b->len = 0;
	return ok;
}

/* The files read, each path as what it shares with the one before and
 * the rest. */
static void put_files(const wn_facts *f, wn_buf *b)
{
	const char *path, *prev = "";
	uint64_t hash;
	size_t at = 0;

	wn_facts_put_num(b, f->log.n);
	while ((path = wn_readlog_next(&f->log, &at, &hash))) {
		size_t shared = 0;

		while (prev[shared] && prev[shared] == path[shared])
			shared++;
		wn_facts_put_num(b, shared);
		put_str(b, path + shared, strlen(path + shared));
		wn_cache_put_u64(b, hash);
		prev = path;
	}
}

/* The keys the records name (KEY_USED), numbered anew in new[]. */
static void put_keys(const wn_facts *f, wn_buf *b, uint32_t *renum)
{
	uint32_t n = 0;

	for (size_t i = 0; i < f->ntab; i++)
		n += (f->tab[i].state & KEY_USED) != 0;
	wn_facts_put_num(b, n);
	n = 0;
	for (size_t i = 0; i < f->ntab; i++) {
		size_t kn;
		const char *k = wn_facts_key(f, (uint32_t) i, &kn);

		if (!(f->tab[i].state & KEY_USED))
			continue;
		renum[i] = n++;
		wn_facts_put_num(b, f->tab[i].kind);
		put_str(b, k, kn);
		if (f->tab[i].kind == WN_DEP_THREAD)
			wn_facts_put_num(b, f->tab[i].count - 1);
	}
}

/* The record x (in base) as written, its keys renumbered. */
static void put_record(wn_buf *b, const unsigned char *base, size_t len, const struct rec *x,
		       const uint32_t *renum)
{
	wn_cache_rd r = { base, len, x->deps, false };
	uint64_t nd = wn_facts_get_num(&r);

	wn_buf_append(b, (const char *) base + x->start, x->deps - x->start);
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

void wn_facts_write(wn_facts *f, uint64_t count, uint64_t excluded)
{
	uint64_t len = 0, sum = WN_FNV_BASIS;
	uint32_t *renum = calloc(f->ntab ? f->ntab : 1, sizeof(*renum));
	wn_buf b = WN_BUF_INIT;
	char *tmp = NULL;
	FILE *out;
	bool ok;

	if (!renum || !(out = wn_cache_create(f->path, &tmp))) {
		free(renum);
		return;
	}
	ok = put_head(f, out, 0, 0, 0, 0);
	put_files(f, &b);
	put_keys(f, &b, renum);
	ok = ok && flush(&b, out, &len, &sum);
	for (size_t i = 0; ok && i < f->cap; i++) {
		const unsigned char *base;
		struct rec x;
		size_t blen;

		if (!f->slots[i])
			continue;
		base = wn_facts_rec_of(f, f->slots[i], &x, &blen);
		put_record(&b, base, blen, &x, renum);
		if (b.len >= 1 << 16)
			ok = flush(&b, out, &len, &sum);
	}
	ok = ok && flush(&b, out, &len, &sum);
	ok = ok && put_head(f, out, count, excluded, len, sum);
	ok = fflush(out) == 0 && !ferror(out) && ok;
	ok = fclose(out) == 0 && ok;
	if (!ok || rename(tmp, f->path) != 0)
		unlink(tmp);
	free(tmp);
	free(renum);
	wn_buf_free(&b);
}
