/* winnow — the stats' facts of each review kept between runs (facts.h).
 *
 * $XDG_CACHE_HOME/winnow/facts-<hash of the database path>:
 *
 *     "WNFACTS1" key revision length checksum     (8 bytes each)
 *     payload                                     (length bytes)
 *
 * The payload is one record per review: its id, the digest of its
 * parse, whether the author answered, its findings' flags.
 *
 * Why the key is enough.  A review's facts are read from the index
 * (threads, senders and dates, the series' patches and versions, the
 * bots' reviews of those, each through the parse cache or a parse) and
 * from the later patches' mail files.  Everything notmuch holds changes
 * its revision: new or removed mail, a file renamed, a tag, a property.
 * So the file holds at one revision of one database (key: the parse
 * cache's, which hashes the database's uuid with winnow's binary, the
 * bots and the [winnow] configuration; revision: the handle's), and a
 * handle reopened during the run (another revision) keeps it from being
 * written.  The review's own parse, which the parse cache can redo at
 * the same revision (a mail file rewritten in place), is in each
 * record's digest.  Whether a finding is valid is no part of a fact:
 * the journal can change it without a revision, so "fixed" is kept for
 * the findings it was asked for (valid then) and asked again for a
 * finding valid now that was not.
 *
 * The file is read whole and checked (length, checksum, size limits)
 * at open; any fault is an empty cache.  A run that derived anything
 * writes every record it holds to a new file beside the old and renames
 * it over: a reader never sees half a file, and of two winnows the
 * last to finish wins (both wrote facts of their own revision).  A
 * full disk or an unwritable folder leaves the old file or none. */
#include "autoconfig.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/hash.h"
#include "../core/map.h"
#include "../index/cache.h"
#include "../index/index-nm.h"
#include "winnow/facts.h"

#define MAGIC "WNFACTS1"
#define HEAD 40
/* Far larger than the facts of any index (about 60 bytes a review):
 * a larger file is a damaged one, not a reason to allocate. */
#define FILE_MAX (256u << 20)

/* A review's record: its n flags, then its id (for writing: the map
 * gives values only). */
struct fact {
	uint64_t digest;
	bool replied;
	size_t n, idn;
	unsigned char flags[];
};

static struct fact *fact_new(const char *id, size_t idn, uint64_t digest, bool replied,
			     const void *flags, size_t n)
{
	struct fact *x = malloc(sizeof(*x) + n + idn);

	if (!x)
		return NULL;
	x->digest = digest;
	x->replied = replied;
	x->n = n;
	x->idn = idn;
	memcpy(x->flags, flags, n);
	memcpy(x->flags + n, id, idn);
	return x;
}

struct wn_facts {
	wn_index *idx;
	char *path;
	uint64_t key;
	unsigned long rev, gen;	/* the handle's when opened */
	wn_map map;		/* review id -> struct fact */
	bool dirty;		/* something derived: write at close */
	bool moved;		/* the handle was reopened: no hits, no writing */
	unsigned long hits, misses;
};

/* --- the digest of a review's parse ------------------------------------------ */

static uint64_t mix(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		h = wn_fnv1a_byte(h, (unsigned char) (v >> (8 * i)));
	return h;
}

/* Everything of the item the facts are derived from (stats-pass.c:
 * wn_index_author_replied, wn_series_later, wn_series_fixed). */
static uint64_t digest_of(const wn_item *it)
{
	uint64_t h = wn_fnv1a_field(WN_FNV_BASIS, it->id);
	const wn_review *r = it->review;

	h = wn_fnv1a_field(h, it->thread_id);
	h = wn_fnv1a_field(h, it->from);
	h = mix(h, (uint64_t) it->date);
	h = mix(h, (uint64_t) it->bot);
	h = mix(h, it->patch != NULL);
	if (it->patch) {
		h = wn_fnv1a_field(h, it->patch->id);
		h = wn_fnv1a_field(h, it->patch->subject);
		h = wn_fnv1a_field(h, it->patch->author);
		h = mix(h, (uint64_t) it->patch->date);
	}
	h = mix(h, r ? r->nfindings : 0);
	for (size_t i = 0; r && i < r->nfindings; i++) {
		const wn_finding *f = &r->findings[i];

		h = wn_fnv1a_field(h, f->fingerprint);
		h = wn_fnv1a_field(h, f->file);
		h = wn_fnv1a_field(h, f->function);
		h = wn_fnv1a_field(h, f->summary);
		h = mix(h, f->about_commit_msg);
	}
	return h;
}

/* --- reading ------------------------------------------------------------------ */

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t) p[i] << (8 * i);
	return v;
}

/* The file, whole, when it is one of this key and revision; NULL. */
static unsigned char *read_file(const wn_facts *f, size_t *len)
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
	if (!buf || got != (size_t) sb.st_size || memcmp(buf, MAGIC, 8) != 0 ||
	    le64(buf + 8) != f->key || le64(buf + 16) != f->rev || le64(buf + 24) != got - HEAD ||
	    le64(buf + 32) != wn_fnv1a(WN_FNV_BASIS, buf + HEAD, got - HEAD)) {
		free(buf);
		return NULL;
	}
	*len = got;
	return buf;
}

/* The records of the payload into f->map; false (the map emptied) on
 * a record that does not hold. */
static bool load(wn_facts *f, const unsigned char *p, size_t n)
{
	wn_cache_rd r = { p, n, 0, false };

	while (r.pos < r.n && !r.bad) {
		size_t idn, nf;
		const char *id = wn_cache_get_bytes(&r, &idn);
		uint64_t digest = wn_cache_get_u64(&r), replied = wn_cache_get_u64(&r);
		const char *flags = wn_cache_get_bytes(&r, &nf);
		struct fact *x;

		if (r.bad || !id || !flags || replied > 1 || wn_map_get(&f->map, id, idn) ||
		    !(x = fact_new(id, idn, digest, replied, flags, nf)))
			break;
		if (wn_map_put(&f->map, id, idn, x) != WN_OK) {
			free(x);
			break;
		}
	}
	if (r.pos == r.n && !r.bad)
		return true;
	wn_map_free(&f->map, free);
	return false;
}

wn_facts *wn_facts_open(wn_index *idx)
{
	wn_facts *f = calloc(1, sizeof(*f));
	unsigned char *buf;
	size_t len = 0;

	if (!f)
		return NULL;
	if (!wn_index_facts_file(idx, "facts", &f->path, &f->key)) {
		free(f);
		return NULL;
	}
	f->idx = idx;
	f->rev = wn_index_stamp(idx, NULL, &f->gen);
	if ((buf = read_file(f, &len))) {
		load(f, buf + HEAD, len - HEAD);
		free(buf);
	}
	return f;
}

/* Still at the revision the facts were read for?  The handle's
 * revision moves only when it is reopened, which the generation counts:
 * that is asked per review, the revision itself once more at close. */
static bool holds(wn_facts *f, bool revision)
{
	unsigned long gen, rev = f->rev;

	if (!f->moved) {
		if (revision)
			rev = wn_index_stamp(f->idx, NULL, &gen);
		else
			gen = wn_index_generation(f->idx);
		f->moved = rev != f->rev || gen != f->gen;
	}
	return !f->moved;
}

bool wn_facts_get(wn_facts *f, const wn_item *it, bool *replied, unsigned char *flags, size_t n)
{
	const struct fact *x;

	if (!f)
		return false;
	x = holds(f, false) ? wn_map_get(&f->map, it->id, strlen(it->id)) : NULL;
	if (!x || x->n != n || x->digest != digest_of(it)) {
		f->misses++;
		return false;
	}
	*replied = x->replied;
	memcpy(flags, x->flags, n);
	f->hits++;
	return true;
}

void wn_facts_put(wn_facts *f, const wn_item *it, bool replied, const unsigned char *flags,
		  size_t n)
{
	size_t idn = strlen(it->id);
	struct fact *x, *old;

	if (!f || !holds(f, false) || !(x = fact_new(it->id, idn, digest_of(it), replied, flags, n)))
		return;
	old = wn_map_get(&f->map, it->id, idn);
	if (wn_map_put(&f->map, it->id, idn, x) != WN_OK) {
		free(x);
		return;
	}
	/* wn_map_put replaced the value only. */
	free(old);
	f->dirty = true;
}

/* --- writing ------------------------------------------------------------------ */

static void put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char) (v >> (8 * i));
}

static void put_record(void *val, void *arg)
{
	const struct fact *x = val;
	wn_buf *b = arg;

	wn_cache_put_bytes(b, (const char *) x->flags + x->n, x->idn);
	wn_cache_put_u64(b, x->digest);
	wn_cache_put_u64(b, x->replied);
	wn_cache_put_bytes(b, (const char *) x->flags, x->n);
}

/* The payload: every record, in the map's order (no order is needed). */
static bool payload(const wn_facts *f, wn_buf *b)
{
	wn_map_each(&f->map, put_record, b);
	return !wn_buf_failed(b);
}

static void write_file(const wn_facts *f)
{
	unsigned char head[HEAD];
	wn_buf b = WN_BUF_INIT;
	char *tmp = NULL;
	FILE *out;
	bool ok;

	if (!payload(f, &b) || !(out = wn_cache_create(f->path, &tmp))) {
		wn_buf_free(&b);
		return;
	}
	memcpy(head, MAGIC, 8);
	put_le64(head + 8, f->key);
	put_le64(head + 16, f->rev);
	put_le64(head + 24, b.len);
	put_le64(head + 32, wn_fnv1a(WN_FNV_BASIS, b.data ? b.data : "", b.len));
	ok = fwrite(head, 1, HEAD, out) == HEAD && fwrite(b.data ? b.data : "", 1, b.len, out) == b.len;
	ok = fflush(out) == 0 && !ferror(out) && ok;
	ok = fclose(out) == 0 && ok;
	if (!ok || rename(tmp, f->path) != 0)
		unlink(tmp);
	free(tmp);
	wn_buf_free(&b);
}

#ifdef WN_TEST_HOOKS
/* For the tests: how many reviews' facts were kept and how many were
 * derived, appended to $WINNOW_TEST_FACTS_LOG. */
static void test_log(const wn_facts *f)
{
	const char *path = getenv("WINNOW_TEST_FACTS_LOG");
	FILE *out = path && *path ? fopen(path, "a") : NULL;

	if (out) {
		fprintf(out, "hits=%lu misses=%lu\n", f->hits, f->misses);
		fclose(out);
	}
}
#endif

void wn_facts_close(wn_facts **pf)
{
	wn_facts *f = pf ? *pf : NULL;

	if (!f)
		return;
#ifdef WN_TEST_HOOKS
	test_log(f);
#endif
	if (f->dirty && holds(f, true))
		write_file(f);
	wn_map_free(&f->map, free);
	free(f->path);
	free(f);
	*pf = NULL;
}
