/* winnow — one record of the cache of parsed reviews: an item's parsed
 * part as bytes and back (cache.h).
 *
 * Numbers are 8 bytes little-endian, strings a length then the bytes
 * (the length UINT64_MAX for NULL).  The cache file is this machine's
 * alone, but reading trusts nothing: a length past the end or a value
 * out of its enum makes the record bad, and a bad record is a miss. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "message.h"
#include "props.h"
#include "winnow/text.h"

/* A field added to one of these structs must be added to the record
 * too, or a cached answer would differ from a parsed one: the sizes
 * make the build say so (on the platform winnow is developed on). */
#if defined(__x86_64__) && defined(__LP64__)
_Static_assert(sizeof(wn_finding) == 136, "wn_finding changed: update cache-record.c");
_Static_assert(sizeof(wn_place) == 24, "wn_place changed: update cache-record.c");
_Static_assert(sizeof(wn_site) == 40, "wn_site changed: update cache-record.c");
_Static_assert(sizeof(wn_review) == 144, "wn_review changed: update cache-record.c");
_Static_assert(sizeof(wn_patch) == 56, "wn_patch changed: update cache-record.c");
_Static_assert(sizeof(wn_patch_trailers) == 80, "wn_patch_trailers changed: update cache-record.c");
_Static_assert(sizeof(wn_attribution) == 48, "wn_attribution changed: update cache-record.c");
/* Not kept, as they depend on other mails than the review and its
 * links, and are read after a hit: who answered and the newcomer's
 * count (who.c, on demand).  copies and copy_of (copy.c) are kept,
 * with the thread they were looked for in among the record's searches
 * and the mails compared among its lookups. */
_Static_assert(sizeof(wn_item) == 240, "wn_item changed: update cache-record.c");
#endif

#define NONE UINT64_MAX

/* Written out byte by byte, not in a loop: the compiler makes the
 * eight stores (and get's eight loads) one on a little-endian machine.
 * The loop was a third of encoding a record, each a dozen numbers and
 * as many lengths. */
void wn_cache_put_u64(wn_buf *b, uint64_t v)
{
	char le[8];

	le[0] = (char) v;
	le[1] = (char) (v >> 8);
	le[2] = (char) (v >> 16);
	le[3] = (char) (v >> 24);
	le[4] = (char) (v >> 32);
	le[5] = (char) (v >> 40);
	le[6] = (char) (v >> 48);
	le[7] = (char) (v >> 56);
	wn_buf_append(b, le, 8);
}

void wn_cache_put_bytes(wn_buf *b, const char *s, size_t n)
{
	wn_cache_put_u64(b, s ? (uint64_t) n : NONE);
	if (s && n)
		wn_buf_append(b, s, n);
}

static void put_str(wn_buf *b, const char *s)
{
	wn_cache_put_bytes(b, s, s ? strlen(s) : 0);
}

uint64_t wn_cache_get_u64(wn_cache_rd *r)
{
	const unsigned char *q;
	uint64_t v;

	if (r->bad || r->n - r->pos < 8) {
		r->bad = true;
		return 0;
	}
	q = r->p + r->pos;
	v = (uint64_t) q[0] | (uint64_t) q[1] << 8 | (uint64_t) q[2] << 16 | (uint64_t) q[3] << 24 |
	    (uint64_t) q[4] << 32 | (uint64_t) q[5] << 40 | (uint64_t) q[6] << 48 |
	    (uint64_t) q[7] << 56;
	r->pos += 8;
	return v;
}

const char *wn_cache_get_bytes(wn_cache_rd *r, size_t *n)
{
	uint64_t len = wn_cache_get_u64(r);
	const char *s;

	*n = 0;
	if (r->bad || len == NONE)
		return NULL;
	if (len > r->n - r->pos) {
		r->bad = true;
		return NULL;
	}
	s = (const char *) r->p + r->pos;
	r->pos += (size_t) len;
	*n = (size_t) len;
	return s;
}

/* A malloc'd string, NULL for NULL; a string holding NUL is bad (none
 * was written: parsed text is C strings). */
static char *get_str(wn_cache_rd *r)
{
	size_t n;
	const char *s = wn_cache_get_bytes(r, &n);
	char *out;

	if (!s)
		return NULL;
	if (memchr(s, '\0', n) || !(out = malloc(n + 1))) {
		r->bad = true;
		return NULL;
	}
	memcpy(out, s, n);
	out[n] = '\0';
	return out;
}

/* A number below limit (an enum's count, a bool's 2). */
static uint64_t get_small(wn_cache_rd *r, uint64_t limit)
{
	uint64_t v = wn_cache_get_u64(r);

	if (v >= limit)
		r->bad = true;
	return r->bad ? 0 : v;
}

/* A count of entries each at least min_bytes long: never more than the
 * record still holds, so a flipped byte cannot ask for gigabytes. */
static size_t get_count(wn_cache_rd *r, size_t min_bytes)
{
	uint64_t v = wn_cache_get_u64(r);

	if (!r->bad && v > (r->n - r->pos) / min_bytes)
		r->bad = true;
	return r->bad ? 0 : (size_t) v;
}

static int64_t get_int(wn_cache_rd *r)
{
	return (int64_t) wn_cache_get_u64(r);
}

/* --- writing ------------------------------------------------------------- */

static void put_place(wn_buf *b, const wn_place *p)
{
	put_str(b, p->file);
	put_str(b, p->function);
	wn_cache_put_u64(b, (uint64_t) (int64_t) p->line);
	wn_cache_put_u64(b, p->line_approx);
}

static void put_site(wn_buf *b, const wn_site *s)
{
	put_str(b, s->file);
	put_str(b, s->function);
	wn_cache_put_u64(b, (uint64_t) (int64_t) s->line);
	wn_cache_put_u64(b, s->line_approx);
	wn_cache_put_u64(b, s->about_commit_msg);
	put_str(b, s->code);
	put_str(b, s->comment);
}

static void put_finding(wn_buf *b, const wn_finding *f)
{
	wn_cache_put_u64(b, (uint64_t) (int64_t) f->index);
	put_str(b, f->fingerprint);
	wn_cache_put_u64(b, (uint64_t) f->severity);
	wn_cache_put_u64(b, f->preexisting);
	put_str(b, f->summary);
	put_str(b, f->file);
	put_str(b, f->function);
	wn_cache_put_u64(b, (uint64_t) (int64_t) f->line);
	wn_cache_put_u64(b, f->line_approx);
	wn_cache_put_u64(b, f->about_commit_msg);
	put_str(b, f->quote);
	put_str(b, f->comment);
	put_str(b, f->path);
	put_str(b, f->detail);
	wn_cache_put_u64(b, f->nalso);
	for (size_t i = 0; i < f->nalso; i++)
		put_place(b, &f->also[i]);
	wn_cache_put_u64(b, f->pairing_unsure);
	wn_cache_put_u64(b, f->nsites);
	for (size_t i = 0; i < f->nsites; i++)
		put_site(b, &f->sites[i]);
	put_str(b, f->notes);
}

static void put_review(wn_buf *b, const wn_review *r)
{
	wn_cache_put_u64(b, (uint64_t) r->bot);
	wn_cache_put_u64(b, (uint64_t) (int64_t) r->declared);
	put_str(b, r->cover_id);
	wn_cache_put_u64(b, (uint64_t) (int64_t) r->part);
	put_str(b, r->patch_subject);
	put_str(b, r->explain);
	wn_cache_put_u64(b, (uint64_t) r->kind);
	wn_cache_put_u64(b, (uint64_t) r->followup);
	put_str(b, r->followup_says);
	put_str(b, r->note);
	put_str(b, r->patch_id);
	wn_cache_put_u64(b, (uint64_t) (int64_t) r->posted_before);
	wn_cache_put_u64(b, r->wants_patch_files);
	wn_cache_put_u64(b, r->ntags);
	for (size_t i = 0; i < r->ntags; i++)
		put_str(b, r->tags[i]);
	wn_cache_put_u64(b, r->nfacts);
	for (size_t i = 0; i < r->nfacts; i++)
		put_str(b, r->facts[i]);
	wn_cache_put_u64(b, r->nfindings);
	for (size_t i = 0; i < r->nfindings; i++)
		put_finding(b, &r->findings[i]);
}

static void put_patch(wn_buf *b, const wn_patch *p)
{
	const wn_patch_trailers *t = p->trailers;

	put_str(b, p->id);
	put_str(b, p->subject);
	put_str(b, p->author);
	put_str(b, p->submitter);
	wn_cache_put_u64(b, (uint64_t) (int64_t) p->date);
	put_str(b, p->list);
	wn_cache_put_u64(b, t->ntrailers);
	for (size_t i = 0; i < t->ntrailers; i++) {
		put_str(b, t->trailers[i].key);
		put_str(b, t->trailers[i].value);
	}
	wn_cache_put_u64(b, (uint64_t) t->attr.status);
	put_str(b, t->attr.agent);
	put_str(b, t->attr.model);
	wn_cache_put_u64(b, t->attr.ntools);
	for (size_t i = 0; i < t->attr.ntools; i++)
		put_str(b, t->attr.tools[i]);
	put_str(b, t->attr.raw);
	put_str(b, t->submitter);
	wn_cache_put_u64(b, t->codev_unsigned);
}

/* What the review's properties said (props.c), finding by finding. */
static void put_props(wn_buf *b, const wn_item *it)
{
	for (size_t i = 0; i < it->review->nfindings; i++) {
		wn_cache_put_u64(b, (uint64_t) it->verdicts[i]);
		put_str(b, it->notes[i]);
		put_str(b, it->forwarded[i]);
		wn_cache_put_u64(b, (uint64_t) it->severity[i]);
		put_str(b, it->reported[i]);
		wn_cache_put_u64(b, (uint64_t) it->reasons[i]);
		put_str(b, it->closed[i]);
	}
	put_str(b, it->warning);
	wn_cache_put_u64(b, it->nmisses);
	for (size_t i = 0; i < it->nmisses; i++)
		put_str(b, it->misses[i]);
	put_str(b, it->thread_id);
	/* The row (document values, as the list read them): a pass that
	 * loads every row reads its id alone (wn_list.lazy_rows). */
	wn_cache_put_u64(b, (uint64_t) (int64_t) it->date);
	put_str(b, it->subject);
	put_str(b, it->from);
}

/* The other mails of the thread that are this review passed on again
 * (copy.c), and the first of them all when that is another. */
static void put_copies(wn_buf *b, const wn_item *it)
{
	size_t n = 0;

	while (it->copies && it->copies[n])
		n++;
	wn_cache_put_u64(b, n);
	for (size_t i = 0; i < n; i++)
		put_str(b, it->copies[i]);
	put_str(b, it->copy_of);
}

void wn_cache_encode_item(wn_buf *b, const wn_item *it)
{
	wn_cache_put_u64(b, (uint64_t) it->bot);
	wn_cache_put_u64(b, (uint64_t) it->link);
	put_str(b, it->report_id);
	put_review(b, it->review);
	wn_cache_put_u64(b, it->patch != NULL && it->patch->trailers != NULL);
	if (it->patch && it->patch->trailers)
		put_patch(b, it->patch);
	put_props(b, it);
	put_copies(b, it);
}

/* --- reading ------------------------------------------------------------- */

static void get_place(wn_cache_rd *r, wn_place *p)
{
	p->file = get_str(r);
	p->function = get_str(r);
	p->line = (int) get_int(r);
	p->line_approx = get_small(r, 2);
}

static void get_site(wn_cache_rd *r, wn_site *s)
{
	s->file = get_str(r);
	s->function = get_str(r);
	s->line = (int) get_int(r);
	s->line_approx = get_small(r, 2);
	s->about_commit_msg = get_small(r, 2);
	s->code = get_str(r);
	s->comment = get_str(r);
}

static void get_finding(wn_cache_rd *r, wn_finding *f)
{
	size_t n;
	const char *fp;

	f->index = (int) get_int(r);
	fp = wn_cache_get_bytes(r, &n);
	if (!fp || n > WN_FP_LEN || memchr(fp, '\0', n))
		r->bad = true;
	else
		memcpy(f->fingerprint, fp, n);
	f->severity = (wn_severity) get_small(r, WN_SEV_COUNT);
	f->preexisting = get_small(r, 2);
	f->summary = get_str(r);
	f->file = get_str(r);
	f->function = get_str(r);
	f->line = (int) get_int(r);
	f->line_approx = get_small(r, 2);
	f->about_commit_msg = get_small(r, 2);
	f->quote = get_str(r);
	f->comment = get_str(r);
	f->path = get_str(r);
	f->detail = get_str(r);
	/* A place is at least two NULL strings and two numbers. */
	n = get_count(r, 32);
	if (n && !(f->also = calloc(n, sizeof(*f->also))))
		r->bad = true;
	for (size_t i = 0; i < n && !r->bad; i++, f->nalso++)
		get_place(r, &f->also[i]);
	f->pairing_unsure = get_small(r, 2);
	/* A site is at least four NULL strings and three numbers. */
	n = get_count(r, 56);
	if (n && !(f->sites = calloc(n, sizeof(*f->sites))))
		r->bad = true;
	for (size_t i = 0; i < n && !r->bad; i++, f->nsites++)
		get_site(r, &f->sites[i]);
	f->notes = get_str(r);
}

static wn_review *get_review(wn_cache_rd *r)
{
	wn_review *rv = calloc(1, sizeof(*rv));
	size_t n;

	if (!rv) {
		r->bad = true;
		return NULL;
	}
	rv->bot = (wn_bot) get_small(r, WN_BOT_COUNT);
	rv->declared = (int) get_int(r);
	rv->cover_id = get_str(r);
	rv->part = (int) get_int(r);
	rv->patch_subject = get_str(r);
	rv->explain = get_str(r);
	rv->kind = (wn_kind) get_small(r, WN_KIND_COUNT);
	rv->followup = (wn_followup) get_small(r, WN_FOLLOWUP_COUNT);
	rv->followup_says = get_str(r);
	rv->note = get_str(r);
	rv->patch_id = get_str(r);
	rv->posted_before = (time_t) get_int(r);
	rv->wants_patch_files = get_small(r, 2);
	n = get_count(r, 8);
	if (n && !(rv->tags = calloc(n, sizeof(*rv->tags))))
		r->bad = true;
	for (size_t i = 0; i < n && !r->bad; i++, rv->ntags++)
		if (!(rv->tags[i] = get_str(r)))
			r->bad = true;
	n = get_count(r, 8);
	if (n && !(rv->facts = calloc(n, sizeof(*rv->facts))))
		r->bad = true;
	for (size_t i = 0; i < n && !r->bad; i++, rv->nfacts++)
		if (!(rv->facts[i] = get_str(r)))
			r->bad = true;
	/* A finding is at least 17 fields of 8 bytes and its fingerprint. */
	n = get_count(r, 17 * 8 + WN_FP_LEN);
	if (n && !(rv->findings = calloc(n, sizeof(*rv->findings))))
		r->bad = true;
	for (size_t i = 0; i < n && !r->bad; i++, rv->nfindings++)
		get_finding(r, &rv->findings[i]);
	return rv;
}

static wn_patch *get_patch(wn_cache_rd *r)
{
	wn_patch *p = calloc(1, sizeof(*p));
	wn_patch_trailers *t = calloc(1, sizeof(*t));
	size_t n;

	if (!p || !t) {
		free(p);
		free(t);
		r->bad = true;
		return NULL;
	}
	p->trailers = t;
	p->id = get_str(r);
	p->subject = get_str(r);
	p->author = get_str(r);
	p->submitter = get_str(r);
	p->date = (time_t) get_int(r);
	p->list = get_str(r);
	n = get_count(r, 16);
	if (n && !(t->trailers = calloc(n, sizeof(*t->trailers))))
		r->bad = true;
	for (size_t i = 0; i < n && !r->bad; i++, t->ntrailers++) {
		t->trailers[i].key = get_str(r);
		t->trailers[i].value = get_str(r);
	}
	t->attr.status = (wn_attr_status) get_small(r, WN_ATTR_COUNT);
	t->attr.agent = get_str(r);
	t->attr.model = get_str(r);
	n = get_count(r, 8);
	if (n && !(t->attr.tools = calloc(n, sizeof(*t->attr.tools))))
		r->bad = true;
	for (size_t i = 0; i < n && !r->bad; i++, t->attr.ntools++)
		t->attr.tools[i] = get_str(r);
	t->attr.raw = get_str(r);
	t->submitter = get_str(r);
	t->codev_unsigned = get_small(r, 2);
	if (!p->id || !p->subject || !p->author || !p->submitter)
		r->bad = true;
	return p;
}

void wn_cache_encode_patch(wn_buf *b, const wn_patch *p)
{
	put_patch(b, p);
}

wn_patch *wn_cache_decode_patch(const char *s, size_t n)
{
	wn_cache_rd r = { (const unsigned char *) s, n, 0, false };
	wn_patch *p = get_patch(&r);

	if (r.bad || r.pos != r.n) {
		wn_patch_free(p);
		return NULL;
	}
	return p;
}

/* What the properties said, n findings' worth. */
static bool get_props(wn_cache_rd *r, wn_item *it, size_t n)
{
	if (!wn_props_alloc_item(it, n))
		return false;
	for (size_t i = 0; i < n && !r->bad; i++) {
		it->verdicts[i] = (wn_verdict) get_small(r, WN_VERDICT_COUNT);
		it->notes[i] = get_str(r);
		it->forwarded[i] = get_str(r);
		it->severity[i] = (wn_severity) get_small(r, WN_SEV_COUNT);
		it->reported[i] = get_str(r);
		it->reasons[i] = (wn_reason) get_small(r, WN_REASON_COUNT);
		it->closed[i] = get_str(r);
	}
	it->warning = get_str(r);
	size_t nm = r->bad ? 0 : get_count(r, 8);

	if (nm && !(it->misses = calloc(nm, sizeof(*it->misses))))
		r->bad = true;
	for (size_t i = 0; i < nm && !r->bad; i++, it->nmisses++)
		if (!(it->misses[i] = get_str(r)))
			r->bad = true;
	it->thread_id = get_str(r);
	return !r->bad;
}

/* The row's date, subject and sender, set on a row read with its id
 * alone (else the same as the list read them). */
static bool get_row(wn_cache_rd *r, wn_item *it)
{
	time_t date = (time_t) (int64_t) wn_cache_get_u64(r);
	char *subject = get_str(r), *from = get_str(r);

	if (r->bad || !subject || !from || it->subject) {
		free(subject);
		free(from);
		return !r->bad && subject && from;
	}
	it->date = date;
	it->subject = subject;
	it->from = from;
	return true;
}

/* Into *copies (NULL-terminated, or NULL) and *copy_of; false on a bad
 * record, with *copies and *copy_of freed again. */
static bool get_copies(wn_cache_rd *r, char ***copies, char **copy_of)
{
	/* A copy's id is at least its length and one byte. */
	size_t n = get_count(r, 9);

	*copies = NULL;
	if (n && !(*copies = calloc(n + 1, sizeof(**copies))))
		r->bad = true;
	for (size_t i = 0; i < n && !r->bad; i++)
		if (!((*copies)[i] = get_str(r)))
			r->bad = true;
	*copy_of = get_str(r);
	if (!r->bad)
		return true;
	wn_strv_free(*copies);
	free(*copy_of);
	*copies = NULL;
	*copy_of = NULL;
	return false;
}

bool wn_cache_decode_item(wn_cache_rd *r, wn_item *it)
{
	wn_bot bot = (wn_bot) get_small(r, WN_BOT_COUNT);
	wn_link link = (wn_link) get_small(r, WN_LINK_COUNT);
	char *report_id = get_str(r);
	wn_review *review = get_review(r);
	wn_patch *patch = get_small(r, 2) ? get_patch(r) : NULL;
	bool props = review && !r->bad && get_props(r, it, review->nfindings);
	bool pending = !it->subject;
	char **copies = NULL, *copy_of = NULL;

	if (!props || r->bad || !get_row(r, it) || !get_copies(r, &copies, &copy_of) ||
	    r->pos != r->n) {
		/* A pending row stays pending: loading reads it. */
		if (pending && it->subject) {
			free(it->subject);
			free(it->from);
			it->subject = it->from = NULL;
			it->date = 0;
		}
		wn_props_free_item(it, review ? review->nfindings : 0);
		wn_strv_free(copies);
		free(copy_of);
		free(it->thread_id);
		it->thread_id = NULL;
		free(report_id);
		wn_review_free(&review);
		wn_patch_free(patch);
		return false;
	}
	it->bot = bot;
	it->link = link;
	it->report_id = report_id;
	it->review = review;
	it->patch = patch;
	it->copies = copies;
	it->copy_of = copy_of;
	return true;
}
