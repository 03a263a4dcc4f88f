/* winnow — statistics over verdicts (stats.h).
 *
 * Groups live in an array found through a map of their values (map.h),
 * so adding a review costs a few lookups however many groups there are
 * (one per author can be thousands). */
#include "autoconfig.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/map.h"
#include "../core/str.h"
#include "winnow/buf.h"
#include "winnow/stats.h"
#include "winnow/text.h"
#include "winnow/trailer.h"

static const struct {
	const char *name, *help;
} keys_tab[WN_STATS_KEY_COUNT] = {
#define WN_X_(e, name, help) [WN_STATS_BY_##e] = { name, help },
	WN_STATS_KEY_LIST(WN_X_)
#undef WN_X_
};

const char *wn_stats_key_name(wn_stats_key k)
{
	return (unsigned) k < WN_STATS_KEY_COUNT ? keys_tab[k].name : "?";
}

const char *wn_stats_key_help(wn_stats_key k)
{
	return (unsigned) k < WN_STATS_KEY_COUNT ? keys_tab[k].help : "";
}

static bool key_from_name(const char *s, size_t n, wn_stats_key *out)
{
	for (unsigned k = 0; k < WN_STATS_KEY_COUNT; k++)
		if (wn_str_eq(s, n, keys_tab[k].name)) {
			*out = (wn_stats_key) k;
			return true;
		}
	return false;
}

wn_status wn_stats_keys_parse(const char *spec, wn_stats_key keys[WN_STATS_MAX_KEYS],
			      size_t *n, wn_error *err)
{
	const char *p = spec;

	*n = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		wn_stats_key k;

		if (!key_from_name(p, len, &k))
			return wn_error_set(err, WN_USAGE, "unknown key '%.*s' (bot, severity, list, "
					    "author, attribution, model, month, maintainer-severity "
					    "or reason)",
					    (int) len, p);
		for (size_t i = 0; i < *n; i++)
			if (keys[i] == k)
				return wn_error_set(err, WN_USAGE, "key '%s' given twice", keys_tab[k].name);
		if (*n == WN_STATS_MAX_KEYS)
			return wn_error_set(err, WN_USAGE, "at most %d keys", WN_STATS_MAX_KEYS);
		keys[(*n)++] = k;
		if (!p[len])
			return WN_OK;
		p += len + 1;
	}
}

/* --- rates ----------------------------------------------------------- */

bool wn_wilson(unsigned long k, unsigned long n, double *lo, double *hi)
{
	/* z for a two-sided 95% interval. */
	const double z = 1.959963984540054;
	double p, denom, centre, half;

	*lo = *hi = 0;
	if (n == 0)
		return false;
	p = (double) k / (double) n;
	denom = 1 + z * z / (double) n;
	centre = (p + z * z / (2.0 * (double) n)) / denom;
	half = z * sqrt(p * (1 - p) / (double) n + z * z / (4.0 * (double) n * (double) n)) / denom;
	*lo = centre - half < 0 ? 0 : centre - half;
	*hi = centre + half > 1 ? 1 : centre + half;
	return true;
}

void wn_stats_rates_of(const wn_stats_counts *c, wn_stats_rates *out)
{
	unsigned long fp = c->verdicts[WN_VERDICT_FALSE_POSITIVE];

	memset(out, 0, sizeof(*out));
	out->triaged = c->verdicts[WN_VERDICT_VALID] + fp + c->verdicts[WN_VERDICT_PREEXISTING];
	out->has_rate = wn_wilson(fp, out->triaged, &out->fp_low, &out->fp_high);
	if (out->has_rate) {
		out->fp_rate = (double) fp / (double) out->triaged;
		out->pre_share = (double) c->verdicts[WN_VERDICT_PREEXISTING] / (double) out->triaged;
	}
}

/* --- groups ---------------------------------------------------------- */

struct wn_stats {
	wn_stats_key keys[WN_STATS_MAX_KEYS];
	size_t nkeys;
	unsigned flags;
	wn_stats_group *groups;
	size_t ngroups, cap;
	wn_map index;		/* encoded values -> group index + 1 */
	wn_buf key;		/* the encoding being looked up */
	wn_stats_counts total;
	unsigned long unreadable;
	/* Groups the review being added touched (its reviews count once). */
	size_t *touched;
	size_t ntouched, touched_cap;
	/* The review being added: did its patch's author answer it? */
	bool replied;
	size_t missed;		/* of the review being added */
};

wn_status wn_stats_new(const wn_stats_key *keys, size_t nkeys, unsigned flags,
		       wn_stats **out, wn_error *err)
{
	wn_stats *s;

	*out = NULL;
	if (nkeys > WN_STATS_MAX_KEYS)
		return wn_error_set(err, WN_USAGE, "at most %d keys", WN_STATS_MAX_KEYS);
	s = calloc(1, sizeof(*s));
	if (!s)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	memcpy(s->keys, keys, nkeys * sizeof(*keys));
	s->nkeys = nkeys;
	s->flags = flags;
	*out = s;
	return WN_OK;
}

void wn_stats_free(wn_stats **ps)
{
	wn_stats *s = ps ? *ps : NULL;

	if (!s)
		return;
	for (size_t i = 0; i < s->ngroups; i++) {
		for (size_t k = 0; k < s->nkeys; k++)
			free(s->groups[i].value[k]);
		for (size_t k = 0; k < s->groups[i].nspellings; k++)
			free(s->groups[i].spellings[k]);
		free(s->groups[i].members);
	}
	free(s->groups);
	wn_map_free(&s->index, NULL);
	wn_buf_free(&s->key);
	free(s->touched);
	free(s);
	*ps = NULL;
}

/* The values as one map key into s->key: each value tagged (n: none,
 * s: a string) and ended by a NUL, so that no two lists of values
 * share an encoding.  false when out of memory. */
static bool encode(wn_stats *s, const char *const *v)
{
	wn_buf_reset(&s->key);
	for (size_t k = 0; k < s->nkeys; k++)
		if (wn_buf_putc(&s->key, v[k] ? 's' : 'n') != WN_OK ||
		    (v[k] && wn_buf_puts(&s->key, v[k]) != WN_OK) ||
		    wn_buf_append(&s->key, "", 1) != WN_OK)
			return false;
	return true;
}

static bool index_group(wn_stats *s, size_t gi)
{
	return encode(s, (const char *const *) s->groups[gi].value) &&
	       wn_map_put(&s->index, s->key.data, s->key.len, (void *) (uintptr_t) (gi + 1)) == WN_OK;
}

static wn_stats_group *new_group(wn_stats *s, const char *const *v)
{
	wn_stats_group *g;

	if (s->ngroups == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 16;
		wn_stats_group *ng = realloc(s->groups, nc * sizeof(*ng));

		if (!ng)
			return NULL;
		s->groups = ng;
		s->cap = nc;
	}
	g = &s->groups[s->ngroups];
	memset(g, 0, sizeof(*g));
	for (size_t k = 0; k < s->nkeys; k++)
		if (v[k] && !(g->value[k] = strdup(v[k]))) {
			while (k--)
				free(g->value[k]);
			return NULL;
		}
	s->ngroups++;
	return index_group(s, s->ngroups - 1) ? g : NULL;
}

/* The index of the group with values v, made when new; -1 when out of
 * memory. */
static long find_group(wn_stats *s, const char *const *v)
{
	uintptr_t gi;

	if (!encode(s, v))
		return -1;
	gi = (uintptr_t) wn_map_get(&s->index, s->key.data, s->key.len);
	if (gi)
		return (long) (gi - 1);
	return new_group(s, v) ? (long) (s->ngroups - 1) : -1;
}

/* Note that the review being added falls in group gi; false when out of
 * memory. */
static bool touch(wn_stats *s, size_t gi, size_t tag)
{
	wn_stats_group *g = &s->groups[gi];

	for (size_t i = 0; i < s->ntouched; i++)
		if (s->touched[i] == gi)
			return true;
	if (s->ntouched == s->touched_cap) {
		size_t nc = s->touched_cap ? s->touched_cap * 2 : 8;
		size_t *nt = realloc(s->touched, nc * sizeof(*nt));

		if (!nt)
			return false;
		s->touched = nt;
		s->touched_cap = nc;
	}
	s->touched[s->ntouched++] = gi;
	g->c.reviews++;
	g->c.author_replied += s->replied;
	g->c.missed += s->missed;
	if (!(s->flags & WN_STATS_MEMBERS))
		return true;
	if ((g->nmembers & (g->nmembers - 1)) == 0) {
		/* Capacity doubles at each power of two. */
		size_t *nm = realloc(g->members, (g->nmembers ? 2 * g->nmembers : 1) * sizeof(*nm));

		if (!nm)
			return false;
		g->members = nm;
	}
	g->members[g->nmembers++] = tag;
	return true;
}

/* --- a review's values ------------------------------------------------ */

/* What a review gives each key but severity.  Strings point into the
 * item, or into the buffers here. */
struct review_values {
	const char *v[WN_STATS_KEY_COUNT];
	const char *model;	/* as the patch spells it */
	char model_key[WN_MODEL_KEY_MAX];
	char author[256];
	char month[16];
};

/* "Name <Addr>" → "addr"; the whole value when it has no <...>. */
static void author_address(const char *from, char *out, size_t size)
{
	const char *lt = strrchr(from, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	const char *s = lt && gt ? lt + 1 : from;
	size_t n = lt && gt ? (size_t) (gt - lt - 1) : strlen(from);

	wn_str_trim(&s, &n);
	if (n >= size)
		n = size - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = (char) str_lower((unsigned char) s[i]);
	out[n] = '\0';
}

static void review_values(const wn_item *it, struct review_values *rv)
{
	const wn_patch *p = it->patch;
	const wn_attribution *a = p && p->trailers ? &p->trailers->attr : NULL;
	struct tm tm;

	memset(rv, 0, sizeof(*rv));
	rv->v[WN_STATS_BY_BOT] = wn_bot_name(it->bot);
	if (p) {
		rv->v[WN_STATS_BY_LIST] = p->list;
		author_address(p->author ? p->author : "", rv->author, sizeof(rv->author));
		rv->v[WN_STATS_BY_AUTHOR] = *rv->author ? rv->author : NULL;
	}
	if (a) {
		rv->v[WN_STATS_BY_ATTRIBUTION] = wn_attr_name(a->status);
		if (a->status == WN_ATTR_MODEL)
			rv->model = a->model ? a->model : a->agent;
		/* Spellings of one model are one group. */
		if (rv->model && wn_model_key(rv->model, rv->model_key, sizeof(rv->model_key)))
			rv->v[WN_STATS_BY_MODEL] = rv->model_key;
	}
	if (it->date > 0 && gmtime_r(&it->date, &tm) &&
	    strftime(rv->month, sizeof(rv->month), "%Y-%m", &tm))
		rv->v[WN_STATS_BY_MONTH] = rv->month;
}

static bool keyed_by(const wn_stats *s, wn_stats_key key)
{
	for (size_t k = 0; k < s->nkeys; k++)
		if (s->keys[k] == key)
			return true;
	return false;
}

/* The maintainer's severity of finding i; WN_SEV_NONE when unset. */
static wn_severity own_severity(const wn_item *it, size_t i)
{
	return it->severity ? it->severity[i] : WN_SEV_NONE;
}

/* Why finding i was given its verdict; WN_REASON_NONE when not said. */
static wn_reason reason_of(const wn_item *it, size_t i)
{
	return it->reasons && (unsigned) it->reasons[i] < WN_REASON_COUNT ? it->reasons[i]
									   : WN_REASON_NONE;
}

/* The group of finding i (none: a review without findings). */
static long group_of(wn_stats *s, const struct review_values *rv, const wn_item *it, size_t i,
		     bool none)
{
	const char *v[WN_STATS_MAX_KEYS];

	for (size_t k = 0; k < s->nkeys; k++)
		if (s->keys[k] == WN_STATS_BY_SEVERITY)
			v[k] = none ? NULL : wn_severity_name(it->review->findings[i].severity);
		else if (s->keys[k] == WN_STATS_BY_MAINTAINER_SEVERITY)
			v[k] = none ? NULL : wn_severity_name(own_severity(it, i));
		else if (s->keys[k] == WN_STATS_BY_REASON)
			v[k] = none ? NULL : wn_reason_name(reason_of(it, i));
		else
			v[k] = rv->v[s->keys[k]];
	return find_group(s, v);
}

/* Keep the model's spelling rv->model among group gi's; false when out
 * of memory. */
static bool note_spelling(wn_stats *s, size_t gi, const struct review_values *rv)
{
	wn_stats_group *g = &s->groups[gi];
	size_t n;

	if (!rv->v[WN_STATS_BY_MODEL] || !keyed_by(s, WN_STATS_BY_MODEL))
		return true;
	n = strnlen(rv->model, WN_STATS_SPELLING_MAX);
	for (size_t i = 0; i < g->nspellings; i++)
		if (strlen(g->spellings[i]) == n && memcmp(g->spellings[i], rv->model, n) == 0)
			return true;
	if (g->nspellings == WN_STATS_MAX_SPELLINGS) {
		g->spellings_cut = true;
		return true;
	}
	g->spellings[g->nspellings] = wn_strndup(rv->model, n);
	if (!g->spellings[g->nspellings])
		return false;
	g->nspellings++;
	return true;
}

static void count_finding(wn_stats_counts *c, const wn_item *it, size_t i, unsigned facts)
{
	wn_verdict v = it->verdicts ? it->verdicts[i] : WN_VERDICT_UNTRIAGED;
	wn_severity own = own_severity(it, i);

	if ((unsigned) v >= WN_VERDICT_COUNT)
		v = WN_VERDICT_UNTRIAGED;
	c->findings++;
	c->verdicts[v]++;
	if (it->forwarded && it->forwarded[i])
		c->forwarded++;
	if (v == WN_VERDICT_FALSE_POSITIVE)
		c->fp_reason[reason_of(it, i)]++;
	if (v != WN_VERDICT_UNTRIAGED)
		c->agree[it->review->findings[i].preexisting][v == WN_VERDICT_PREEXISTING]++;
	c->regraded += own != WN_SEV_NONE && own != it->review->findings[i].severity;
	c->later_patch += !!(facts & WN_STATS_LATER);
	c->fixed_later += !!(facts & WN_STATS_FIXED);
}

wn_status wn_stats_add(wn_stats *s, const wn_item *it, size_t tag)
{
	return wn_stats_add_facts(s, it, tag, NULL);
}

wn_status wn_stats_add_facts(wn_stats *s, const wn_item *it, size_t tag, const unsigned *facts)
{
	struct review_values rv;
	size_t n = it->review ? it->review->nfindings : 0;
	long gi;

	if (!it->loaded || it->load_error || !it->review) {
		s->unreadable++;
		return WN_OK;
	}
	/* A copy of a review is counted once, as the review it copies. */
	if (it->copy_of)
		return WN_OK;
	review_values(it, &rv);
	s->ntouched = 0;
	s->replied = wn_item_replied(it) == WN_REPLIED_AUTHOR;
	s->missed = it->nmisses;
	s->total.reviews++;
	s->total.author_replied += s->replied;
	s->total.missed += it->nmisses;
	for (size_t i = 0; i < n; i++) {
		count_finding(&s->total, it, i, facts ? facts[i] : 0);
		gi = group_of(s, &rv, it, i, false);
		if (gi < 0 || !touch(s, (size_t) gi, tag) || !note_spelling(s, (size_t) gi, &rv))
			return WN_NOMEM;
		count_finding(&s->groups[gi].c, it, i, facts ? facts[i] : 0);
	}
	/* A review without findings still counts in its review's groups:
	 * Sashiko's "no issues found" is part of its record. */
	if (n == 0 && !keyed_by(s, WN_STATS_BY_SEVERITY) && !keyed_by(s, WN_STATS_BY_MAINTAINER_SEVERITY) &&
	    !keyed_by(s, WN_STATS_BY_REASON)) {
		gi = group_of(s, &rv, it, 0, true);
		if (gi < 0 || !touch(s, (size_t) gi, tag) || !note_spelling(s, (size_t) gi, &rv))
			return WN_NOMEM;
	}
	return WN_OK;
}

/* --- order ----------------------------------------------------------- */

/* Position of a value in its key's natural order; -1: no natural order
 * (compare the strings). */
static int rank(wn_stats_key key, const char *v)
{
	wn_bot b;

	switch (key) {
	case WN_STATS_BY_BOT:
		return wn_bot_from_name(v, &b) == WN_OK ? (int) b : WN_BOT_COUNT;
	case WN_STATS_BY_SEVERITY:
	case WN_STATS_BY_MAINTAINER_SEVERITY:
		return (int) wn_severity_parse(v);
	case WN_STATS_BY_REASON: {
		wn_reason r = WN_REASON_NONE;
		wn_reason_from_name(v, &r);
		return (int) r;
	}
	case WN_STATS_BY_ATTRIBUTION:
		for (int a = 0; a < WN_ATTR_COUNT; a++)
			if (strcmp(v, wn_attr_name((wn_attr_status) a)) == 0)
				return a;
		return WN_ATTR_COUNT;
	default:
		return -1;
	}
}

/* qsort has no context argument in C11: the keys ride along with each
 * group through this. */
struct sort_item {
	const wn_stats *s;
	wn_stats_group g;
};

static int cmp_values(const wn_stats *s, const wn_stats_group *a, const wn_stats_group *b)
{
	for (size_t k = 0; k < s->nkeys; k++) {
		const char *x = a->value[k], *y = b->value[k];
		int rx, ry, c;

		if (!x || !y) {
			if (x != y)
				return x ? -1 : 1;
			continue;
		}
		rx = rank(s->keys[k], x);
		ry = rank(s->keys[k], y);
		c = rx != ry ? (rx < ry ? -1 : 1) : strcmp(x, y);
		if (c)
			return c;
	}
	return 0;
}

static int cmp_items(const void *pa, const void *pb)
{
	const struct sort_item *a = pa, *b = pb;

	return cmp_values(a->s, &a->g, &b->g);
}

static int cmp_str(const void *pa, const void *pb)
{
	return strcmp(*(char *const *) pa, *(char *const *) pb);
}

void wn_stats_sort(wn_stats *s)
{
	struct sort_item *tmp = s->ngroups ? malloc(s->ngroups * sizeof(*tmp)) : NULL;

	for (size_t i = 0; i < s->ngroups; i++)
		qsort(s->groups[i].spellings, s->groups[i].nspellings, sizeof(char *), cmp_str);
	/* Out of memory: the groups stay in the order they came. */
	if (!tmp)
		return;
	for (size_t i = 0; i < s->ngroups; i++)
		tmp[i] = (struct sort_item) { s, s->groups[i] };
	qsort(tmp, s->ngroups, sizeof(*tmp), cmp_items);
	for (size_t i = 0; i < s->ngroups; i++)
		s->groups[i] = tmp[i].g;
	free(tmp);
	/* The groups moved: index them again (out of memory leaves groups
	 * unfound, so a later add makes a second one of the same values:
	 * counted apart, never lost). */
	wn_map_free(&s->index, NULL);
	for (size_t gi = 0; gi < s->ngroups; gi++)
		if (!index_group(s, gi))
			break;
}

size_t wn_stats_nkeys(const wn_stats *s)
{
	return s->nkeys;
}

wn_stats_key wn_stats_key_at(const wn_stats *s, size_t i)
{
	return s->keys[i];
}

size_t wn_stats_ngroups(const wn_stats *s)
{
	return s->ngroups;
}

const wn_stats_group *wn_stats_group_at(const wn_stats *s, size_t i)
{
	return i < s->ngroups ? &s->groups[i] : NULL;
}

const wn_stats_counts *wn_stats_total(const wn_stats *s)
{
	return &s->total;
}

unsigned long wn_stats_unreadable(const wn_stats *s)
{
	return s->unreadable;
}

/* --- bars ------------------------------------------------------------ */

const wn_verdict wn_stats_bar_order[WN_VERDICT_COUNT] = {
	WN_VERDICT_VALID, WN_VERDICT_FALSE_POSITIVE, WN_VERDICT_PREEXISTING, WN_VERDICT_UNTRIAGED,
};

void wn_stats_bar(const wn_stats_counts *c, unsigned long max, int width,
		  int out[WN_VERDICT_COUNT])
{
	double share[WN_VERDICT_COUNT];
	int len, used = 0;

	memset(out, 0, WN_VERDICT_COUNT * sizeof(*out));
	if (!c->findings || !max || width <= 0)
		return;
	len = (int) lround((double) width * (double) c->findings / (double) max);
	if (len < 1)
		len = 1;	/* a group with findings is never drawn empty */
	if (len > width)
		len = width;
	for (int v = 0; v < WN_VERDICT_COUNT; v++) {
		share[v] = (double) len * (double) c->verdicts[v] / (double) c->findings;
		out[v] = (int) share[v];
		share[v] -= out[v];
		used += out[v];
	}
	/* The columns rounding left over go to the largest remainders,
	 * ties in bar order. */
	for (; used < len; used++) {
		int best = -1;

		for (int k = 0; k < WN_VERDICT_COUNT; k++) {
			wn_verdict v = wn_stats_bar_order[k];

			if (best < 0 || share[v] > share[best])
				best = (int) v;
		}
		out[best]++;
		share[best] = -1;
	}
}

const char *wn_stats_glyph(wn_verdict v, bool utf8)
{
	static const char *const ascii[WN_VERDICT_COUNT] = {
		[WN_VERDICT_VALID] = "#", [WN_VERDICT_FALSE_POSITIVE] = "x",
		[WN_VERDICT_PREEXISTING] = "+", [WN_VERDICT_UNTRIAGED] = ".",
	};
	static const char *const blocks[WN_VERDICT_COUNT] = {
		[WN_VERDICT_VALID] = "\u2588", [WN_VERDICT_FALSE_POSITIVE] = "\u2591",
		[WN_VERDICT_PREEXISTING] = "\u2592", [WN_VERDICT_UNTRIAGED] = "\u00b7",
	};

	if ((unsigned) v >= WN_VERDICT_COUNT)
		v = WN_VERDICT_UNTRIAGED;
	return utf8 ? blocks[v] : ascii[v];
}

char *wn_stats_spellings(const wn_stats_group *g, const char *sep, const char *more)
{
	wn_buf b = WN_BUF_INIT;

	for (size_t i = 0; i < g->nspellings; i++) {
		if (i)
			wn_buf_puts(&b, sep);
		wn_buf_puts(&b, g->spellings[i]);
	}
	if (g->spellings_cut)
		wn_buf_puts(&b, more);
	return wn_buf_steal(&b);
}

char *wn_stats_model_label(const wn_stats_group *g, const char *v, const char *more)
{
	char *sp, *label;

	if (!g->nspellings || (g->nspellings == 1 && !g->spellings_cut && strcmp(g->spellings[0], v) == 0))
		return strdup(v);
	if (!(sp = wn_stats_spellings(g, ", ", more)))
		return NULL;
	label = wn_strdupf("%s (%s)", v, sp);
	free(sp);
	return label;
}
