/* winnow — verdicts and notes in notmuch properties; see props.h. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/map.h"
#include "props.h"
#include "winnow/buf.h"

static char *key_of(const char *prefix, const char *fp, unsigned part)
{
	char *key = NULL;
	int r = part > 1 ? asprintf(&key, "%s%s.%u", prefix, fp, part)
			 : asprintf(&key, "%s%s", prefix, fp);

	return r < 0 ? NULL : key;
}

notmuch_status_t wn_props_set_verdict(notmuch_message_t *msg, const char *fp, wn_verdict v)
{
	char *key = key_of(WN_PROP_VERDICT, fp, 1);
	notmuch_status_t nst;

	if (!key)
		return NOTMUCH_STATUS_OUT_OF_MEMORY;
	nst = notmuch_message_remove_all_properties(msg, key);
	if (nst == NOTMUCH_STATUS_SUCCESS && v != WN_VERDICT_UNTRIAGED)
		nst = notmuch_message_add_property(msg, key, wn_verdict_name(v));
	free(key);
	return nst;
}

notmuch_status_t wn_props_set_one(notmuch_message_t *msg, const char *prefix, const char *fp,
				  const char *value)
{
	char *key = key_of(prefix, fp, 1);
	notmuch_status_t nst;

	if (!key)
		return NOTMUCH_STATUS_OUT_OF_MEMORY;
	nst = notmuch_message_remove_all_properties(msg, key);
	if (nst == NOTMUCH_STATUS_SUCCESS && value && *value)
		nst = notmuch_message_add_property(msg, key, value);
	free(key);
	return nst;
}

/* Bytes of s (at most max) that end on a character boundary. */
static size_t piece_len(const char *s, size_t left, size_t max)
{
	size_t n = left < max ? left : max;

	/* Back off continuation bytes (10xxxxxx) so no character is split. */
	while (n < left && n > 0 && ((unsigned char) s[n] & 0xC0) == 0x80)
		n--;
	return n ? n : (left < max ? left : max);
}

notmuch_status_t wn_props_set_note(notmuch_message_t *msg, const char *fp, const char *note)
{
	char *key = key_of(WN_PROP_NOTE, fp, 1);
	size_t left = note ? strlen(note) : 0;
	notmuch_status_t nst;

	if (!key)
		return NOTMUCH_STATUS_OUT_OF_MEMORY;
	/* The plain key and its ".N" pieces: fingerprints have a fixed
	 * length, so no other finding's key starts with this one. */
	nst = notmuch_message_remove_all_properties_with_prefix(msg, key);
	free(key);
	for (unsigned part = 1; left && nst == NOTMUCH_STATUS_SUCCESS; part++) {
		size_t n = piece_len(note, left, WN_NOTE_PIECE);
		char *val = strndup(note, n);

		key = key_of(WN_PROP_NOTE, fp, part);
		nst = key && val ? notmuch_message_add_property(msg, key, val)
				 : NOTMUCH_STATUS_OUT_OF_MEMORY;
		free(key);
		free(val);
		note += n;
		left -= n;
	}
	return nst;
}

/* --- reading --------------------------------------------------------- */

/* A stored severity; WN_SEV_NONE for anything not a severity's name. */
static wn_severity parse_severity(const char *val)
{
	wn_severity s = wn_severity_parse(val);

	return s == WN_SEV_UNKNOWN && strcasecmp(val ? val : "", "unknown") != 0 ? WN_SEV_NONE : s;
}


struct piece {
	unsigned part;
	char *text;
};

struct pieces {
	struct piece *v;
	size_t n, cap;
};

static int by_part(const void *a, const void *b)
{
	unsigned x = ((const struct piece *) a)->part, y = ((const struct piece *) b)->part;

	return (x > y) - (x < y);
}

static bool pieces_add(struct pieces *p, unsigned part, const char *text)
{
	if (p->n == p->cap) {
		size_t ncap = p->cap ? 2 * p->cap : 4;
		struct piece *nv = realloc(p->v, ncap * sizeof(*nv));
		if (!nv)
			return false;
		p->v = nv;
		p->cap = ncap;
	}
	if (!(p->v[p->n].text = strdup(text)))
		return false;
	p->v[p->n++].part = part;
	return true;
}

/* The note in order of its pieces (malloc'd); frees the pieces. */
static char *pieces_join(struct pieces *p)
{
	wn_buf b = WN_BUF_INIT;
	bool ok = true;

	if (p->n > 1)
		qsort(p->v, p->n, sizeof(*p->v), by_part);
	for (size_t i = 0; i < p->n; i++) {
		ok = ok && wn_buf_puts(&b, p->v[i].text) == WN_OK;
		free(p->v[i].text);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
	if (!ok) {
		wn_buf_free(&b);
		return NULL;
	}
	return b.len ? wn_buf_steal(&b) : NULL;
}

/* "<fp>" or "<fp>.<N>" after the prefix: the fingerprint's length and
 * the piece number (1 for the plain key); false for anything else. */
static bool split_key(const char *rest, size_t *fplen, unsigned *part)
{
	const char *dot = strchr(rest, '.');
	char *end;
	unsigned long n;

	*fplen = dot ? (size_t) (dot - rest) : strlen(rest);
	*part = 1;
	if (!dot)
		return *fplen > 0;
	n = strtoul(dot + 1, &end, 10);
	if (*end || end == dot + 1 || n < 2 || n > 100000)
		return false;
	*part = (unsigned) n;
	return *fplen > 0;
}

bool wn_props_read_finding(notmuch_message_t *msg, const char *fp, wn_verdict *v, char **note)
{
	struct pieces p = { NULL, 0, 0 };
	notmuch_message_properties_t *props;
	char *key = key_of(WN_PROP_VERDICT, fp, 1);
	const char *val = NULL;
	size_t plen = strlen(WN_PROP_NOTE), fplen = strlen(fp);
	bool ok = true;

	*v = WN_VERDICT_UNTRIAGED;
	*note = NULL;
	if (!key)
		return false;
	if (notmuch_message_get_property(msg, key, &val) == NOTMUCH_STATUS_SUCCESS && val &&
	    wn_verdict_from_name(val, v) != WN_OK)
		*v = WN_VERDICT_UNTRIAGED;
	free(key);
	if (!(key = key_of(WN_PROP_NOTE, fp, 1)))
		return false;
	props = notmuch_message_get_properties(msg, key, FALSE);
	free(key);
	for (; ok && props && notmuch_message_properties_valid(props);
	     notmuch_message_properties_move_to_next(props)) {
		const char *k = notmuch_message_properties_key(props);
		size_t n;
		unsigned part;

		if (split_key(k + plen, &n, &part) && n == fplen)
			ok = pieces_add(&p, part, notmuch_message_properties_value(props));
	}
	if (props)
		notmuch_message_properties_destroy(props);
	*note = pieces_join(&p);
	return ok;
}

wn_severity wn_props_read_severity(notmuch_message_t *msg, const char *fp)
{
	char *key = key_of(WN_PROP_SEVERITY, fp, 1);
	const char *val = NULL;
	wn_severity sev = WN_SEV_NONE;

	if (key && notmuch_message_get_property(msg, key, &val) == NOTMUCH_STATUS_SUCCESS && val)
		sev = parse_severity(val);
	free(key);
	return sev;
}

wn_reason wn_props_read_reason(notmuch_message_t *msg, const char *fp)
{
	char *key = key_of(WN_PROP_REASON, fp, 1);
	const char *val = NULL;
	wn_reason r = WN_REASON_NONE;

	/* An unknown name (a newer winnow) reads as unsaid, never a guess. */
	if (key && notmuch_message_get_property(msg, key, &val) == NOTMUCH_STATUS_SUCCESS && val &&
	    wn_reason_from_name(val, &r) != WN_OK)
		r = WN_REASON_NONE;
	free(key);
	return r;
}

char *wn_props_read_closed(notmuch_message_t *msg, const char *fp)
{
	char *key = key_of(WN_PROP_CLOSED, fp, 1);
	const char *val = NULL;
	char *out = NULL;

	if (key && notmuch_message_get_property(msg, key, &val) == NOTMUCH_STATUS_SUCCESS && val &&
	    wn_closed_ok(val))
		out = strdup(val);
	free(key);
	return out;
}

/* Finding index by fingerprint: a map once a review has more than a
 * handful of findings, so reading 10,000 verdicts stays linear. */
struct fp_index {
	const wn_item *it;
	wn_map map;
	size_t *slots;
};

static void fp_index_init(struct fp_index *x, const wn_item *it)
{
	size_t n = it->review->nfindings;

	memset(x, 0, sizeof(*x));
	x->it = it;
	if (n <= 8 || !(x->slots = malloc(n * sizeof(*x->slots))))
		return;
	for (size_t i = 0; i < n; i++) {
		const char *fp = it->review->findings[i].fingerprint;
		x->slots[i] = i;
		/* The first of equal fingerprints wins, as the linear scan did. */
		if (!wn_map_get(&x->map, fp, strlen(fp)) &&
		    wn_map_put(&x->map, fp, strlen(fp), &x->slots[i]) != WN_OK) {
			wn_map_free(&x->map, NULL);
			free(x->slots);
			x->slots = NULL;
			return;
		}
	}
}

static long fp_index_get(const struct fp_index *x, const char *fp, size_t len)
{
	if (x->slots) {
		size_t *i = wn_map_get(&x->map, fp, len);
		return i ? (long) *i : -1;
	}
	for (size_t i = 0; i < x->it->review->nfindings; i++) {
		const char *f = x->it->review->findings[i].fingerprint;
		if (strlen(f) == len && memcmp(f, fp, len) == 0)
			return (long) i;
	}
	return -1;
}

static void fp_index_free(struct fp_index *x)
{
	wn_map_free(&x->map, NULL);
	free(x->slots);
}

static void set_warning(wn_item *it, long i, const char *val)
{
	if (!it->warning &&
	    asprintf(&it->warning, "finding %ld has an unknown verdict '%s' in notmuch; "
		     "shown as untriaged", i + 1, val) < 0)
		it->warning = NULL;
}

/* The pieces gathered so far belong to finding i (or to none, i < 0). */
static void note_done(wn_item *it, long i, struct pieces *p)
{
	char *s = pieces_join(p);

	if (i >= 0 && !it->notes[i])
		it->notes[i] = s;
	else
		free(s);
}

/* The counts are a summary of the verdicts this file reads, so they are
 * counted here; index.c calls down into this file, never the other way
 * (tests/unit/file-graph.sh). */
void wn_item_count(wn_item *it)
{
	memset(it->counts, 0, sizeof(it->counts));
	if (!it->review)
		return;
	for (size_t i = 0; i < it->review->nfindings; i++) {
		wn_verdict v = it->verdicts ? it->verdicts[i] : WN_VERDICT_UNTRIAGED;
		it->counts[(unsigned) v < WN_VERDICT_COUNT ? v : WN_VERDICT_UNTRIAGED]++;
	}
}

void wn_props_add_miss(wn_item *it, const char *val)
{
	char **nv, *copy;

	val = val ? val : "";
	/* The journal's overlay may bring the same record again. */
	for (size_t i = 0; i < it->nmisses; i++)
		if (strcmp(it->misses[i], val) == 0)
			return;
	if (!(copy = strdup(val)))
		return;
	if (!(nv = realloc(it->misses, (it->nmisses + 1) * sizeof(*nv)))) {
		free(copy);
		return;
	}
	it->misses = nv;
	it->misses[it->nmisses++] = copy;
}

bool wn_props_alloc_item(wn_item *it, size_t n)
{
	size_t k = n ? n : 1;

	it->verdicts = calloc(k, sizeof(*it->verdicts));
	it->notes = calloc(k, sizeof(*it->notes));
	it->forwarded = calloc(k, sizeof(*it->forwarded));
	it->severity = calloc(k, sizeof(*it->severity));
	it->reported = calloc(k, sizeof(*it->reported));
	it->reasons = calloc(k, sizeof(*it->reasons));
	it->closed = calloc(k, sizeof(*it->closed));
	return it->verdicts && it->notes && it->forwarded && it->severity && it->reported && it->reasons &&
	       it->closed;
}

void wn_props_free_item(wn_item *it, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (it->notes)
			free(it->notes[i]);
		if (it->forwarded)
			free(it->forwarded[i]);
		if (it->reported)
			free(it->reported[i]);
		if (it->closed)
			free(it->closed[i]);
	}
	free(it->verdicts);
	free(it->notes);
	free(it->forwarded);
	free(it->severity);
	free(it->reported);
	free(it->warning);
	free(it->reasons);
	free(it->closed);
	it->closed = NULL;
	for (size_t i = 0; i < it->nmisses; i++)
		free(it->misses[i]);
	free(it->misses);
	it->misses = NULL;
	it->nmisses = 0;
	it->reasons = NULL;
	it->verdicts = NULL;
	it->severity = NULL;
	it->notes = it->forwarded = it->reported = NULL;
	it->warning = NULL;
}

void wn_props_read_item(wn_item *it, notmuch_message_t *msg)
{
	size_t n = it->review->nfindings, vl = strlen(WN_PROP_VERDICT);
	size_t nl = strlen(WN_PROP_NOTE), fl = strlen(WN_PROP_FORWARDED);
	size_t sl = strlen(WN_PROP_SEVERITY), rl = strlen(WN_PROP_REPORTED);
	size_t wl = strlen(WN_PROP_REASON), ml = strlen(WN_PROP_MISSED), cl = strlen(WN_PROP_CLOSED);
	notmuch_message_properties_t *props;
	struct pieces note = { NULL, 0, 0 };
	long note_of = -1;
	struct fp_index x;

	free(it->warning);
	it->warning = NULL;
	for (size_t i = 0; i < n; i++) {
		it->verdicts[i] = WN_VERDICT_UNTRIAGED;
		free(it->notes[i]);
		free(it->forwarded[i]);
		free(it->reported[i]);
		it->notes[i] = it->forwarded[i] = it->reported[i] = NULL;
		it->severity[i] = WN_SEV_NONE;
		it->reasons[i] = WN_REASON_NONE;
		free(it->closed[i]);
		it->closed[i] = NULL;
	}
	for (size_t i = 0; i < it->nmisses; i++)
		free(it->misses[i]);
	it->nmisses = 0;
	fp_index_init(&x, it);
	props = notmuch_message_get_properties(msg, "winnow.", FALSE);
	/* Properties come sorted by key, so a note's pieces are adjacent. */
	for (; props && notmuch_message_properties_valid(props);
	     notmuch_message_properties_move_to_next(props)) {
		const char *key = notmuch_message_properties_key(props);
		const char *val = notmuch_message_properties_value(props);
		size_t len;
		unsigned part;
		long i;

		if (strncmp(key, WN_PROP_VERDICT, vl) == 0) {
			wn_verdict v;
			/* An unknown value (a newer winnow, a hand edit)
			 * counts as untriaged rather than guessing, and
			 * says so. */
			if ((i = fp_index_get(&x, key + vl, strlen(key + vl))) < 0)
				continue;
			if (wn_verdict_from_name(val, &v) == WN_OK)
				it->verdicts[i] = v;
			else
				set_warning(it, i, val);
		} else if (strncmp(key, WN_PROP_NOTE, nl) == 0 && split_key(key + nl, &len, &part)) {
			if ((i = fp_index_get(&x, key + nl, len)) < 0)
				continue;
			if (i != note_of)
				note_done(it, note_of, &note);
			note_of = i;
			pieces_add(&note, part, val);
		} else if (strncmp(key, WN_PROP_FORWARDED, fl) == 0) {
			if ((i = fp_index_get(&x, key + fl, strlen(key + fl))) >= 0 && !it->forwarded[i])
				it->forwarded[i] = strdup(val);
		} else if (strncmp(key, WN_PROP_REPORTED, rl) == 0) {
			if ((i = fp_index_get(&x, key + rl, strlen(key + rl))) >= 0 && !it->reported[i])
				it->reported[i] = strdup(val);
		} else if (strncmp(key, WN_PROP_SEVERITY, sl) == 0) {
			/* An unknown word counts as unset: never a guess. */
			if ((i = fp_index_get(&x, key + sl, strlen(key + sl))) >= 0)
				it->severity[i] = parse_severity(val);
		} else if (strncmp(key, WN_PROP_REASON, wl) == 0) {
			wn_reason r;
			if ((i = fp_index_get(&x, key + wl, strlen(key + wl))) >= 0 &&
			    wn_reason_from_name(val, &r) == WN_OK)
				it->reasons[i] = r;
		} else if (strncmp(key, WN_PROP_CLOSED, cl) == 0) {
			/* A value of another shape (a hand edit) reads as none. */
			if ((i = fp_index_get(&x, key + cl, strlen(key + cl))) >= 0 && !it->closed[i] &&
			    wn_closed_ok(val))
				it->closed[i] = strdup(val);
		} else if (strncmp(key, WN_PROP_MISSED, ml) == 0) {
			wn_props_add_miss(it, val);
		}
	}
	note_done(it, note_of, &note);
	if (props)
		notmuch_message_properties_destroy(props);
	fp_index_free(&x);
	wn_item_count(it);
}
