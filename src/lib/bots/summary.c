/* winnow — the "found N potential issue(s)" summary of Sashiko (and of
 * netdev reviews made with it), and how inline blocks attach to it.
 *
 * The summary entries are the findings.  Inline comment blocks are not
 * one to one with them (one finding may be discussed at several hunks),
 * so each block is matched to an entry by severity and by the overlap of
 * their words, and lends the entry its location. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/hash.h"
#include "summary.h"

static struct rv_entry *new_entry(struct rv_ctx *c, struct rv_summary *s)
{
	struct rv_entry *e;

	if (c->oom)
		return NULL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		struct rv_entry *v = realloc(s->v, cap * sizeof(*v));

		if (!v) {
			c->oom = true;
			return NULL;
		}
		s->v = v;
		s->cap = cap;
	}
	e = &s->v[s->n++];
	memset(e, 0, sizeof(*e));
	return e;
}

/* Words that name what a review counts. */
static bool issue_word(const char *s, size_t n)
{
	return wn_str_prefix_ci(s, n, "issue") || wn_str_prefix_ci(s, n, "problem") ||
	       wn_str_prefix_ci(s, n, "finding") || wn_str_prefix_ci(s, n, "regression") ||
	       wn_str_prefix_ci(s, n, "bug");
}

/* "found N potential issue(s)", "found no issues" in l: *n gets N.
 * The summary line changed wording over the generations ("Sashiko AI
 * review found 2 potential issue(s):", "Thank you ...! Sashiko AI
 * review found 2 potential issue(s) to consider:"); the core is "found
 * N potential|possible issue".  A bare "found N issues" counts only in
 * a line that says it is a review, so prose ("I found 3 issues with
 * the locking") elsewhere cannot pass for a summary. */
static bool found_line(const struct rv_line *l, int *n)
{
	const char *p = wn_str_find_ci(l->s, l->n, "found ");
	bool review = wn_str_find_ci(l->s, l->n, "review") != NULL;
	size_t i, len;
	long v;

	while (p) {
		i = (size_t) (p - l->s) + 6;
		len = l->n;
		while (i < len && l->s[i] == ' ')
			i++;
		if (wn_str_num(l->s, len, &i, &v)) {
			while (i < len && l->s[i] == ' ')
				i++;
			if (wn_str_prefix_ci(l->s + i, len - i, "potential") ||
			    wn_str_prefix_ci(l->s + i, len - i, "possible") ||
			    (review && issue_word(l->s + i, len - i))) {
				*n = (int) v;
				return true;
			}
		} else if (wn_str_prefix_ci(l->s + i, len - i, "no ") && review) {
			i += 3;
			while (i < len && l->s[i] == ' ')
				i++;
			if (wn_str_prefix_ci(l->s + i, len - i, "potential ") ||
			    wn_str_prefix_ci(l->s + i, len - i, "possible ") ||
			    wn_str_prefix_ci(l->s + i, len - i, "new "))
				i = (size_t) ((const char *) memchr(l->s + i, ' ', len - i) - l->s) + 1;
			if (issue_word(l->s + i, len - i)) {
				*n = 0;
				return true;
			}
		}
		i = (size_t) (p - l->s) + 1;
		p = wn_str_find_ci(l->s + i, l->n - i, "found ");
	}
	return false;
}

/* Markdown a rewrapping client or a newer template may add around a
 * heading or a bullet: "**New issues:**", "## Pre-existing issues". */
static void strip_markup(const char **s, size_t *n)
{
	while (*n && ((*s)[0] == '#' || (*s)[0] == '*' || (*s)[0] == '_'))
		(*s)++, (*n)--;
	while (*n && ((*s)[*n - 1] == '*' || (*s)[*n - 1] == '_'))
		(*n)--;
	wn_str_trim(s, n);
}

/* "New issues:", "Pre-existing issues:", "Issues not introduced by this
 * patch:": a short line of its own that ends in ':' and names issues. */
static bool heading(const char *s, size_t n, bool *pre)
{
	strip_markup(&s, &n);
	if (n < 3 || n > 100 || s[n - 1] != ':' || wn_str_prefix(s, n, "- ") ||
	    !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z')))
		return false;
	if (!wn_str_find_ci(s, n, "issue") && !wn_str_find_ci(s, n, "finding") &&
	    !wn_str_find_ci(s, n, "problem") && !wn_str_find_ci(s, n, "bug"))
		return false;
	*pre = wn_str_find_ci(s, n, "pre-existing") || wn_str_find_ci(s, n, "preexisting") ||
	       wn_str_find_ci(s, n, "pre existing") || wn_str_find_ci(s, n, "existing issue") ||
	       wn_str_find_ci(s, n, "old issue") || wn_str_find_ci(s, n, "not introduced") ||
	       wn_str_find_ci(s, n, "predat");
	return true;
}

/* A summary entry: "- [High] text".  Bullets seen or plausible: '-',
 * '*', U+2022, "1." / "1)"; the bracket holds one severity word, maybe
 * labelled ("[Severity: High]") or in bold ("**[High]**").  w and wn
 * get the word, rest and rn the text after the bracket. */
static bool entry_start(const char *t, size_t tn, const char **w, size_t *wn,
			const char **rest, size_t *rn)
{
	const char *close;
	size_t i = 0, k;

	if (wn_str_prefix(t, tn, "\xe2\x80\xa2"))
		i = 3;
	else if (tn && (t[0] == '-' || t[0] == '*'))
		i = 1;
	else {
		while (i < tn && i < 3 && t[i] >= '0' && t[i] <= '9')
			i++;
		if (!i || i >= tn || (t[i] != '.' && t[i] != ')'))
			return false;
		i++;
	}
	while (i < tn && (t[i] == ' ' || t[i] == '\t' || t[i] == '*'))
		i++;
	if (i >= tn || t[i] != '[')
		return false;
	close = memchr(t + i, ']', tn - i);
	if (!close)
		return false;
	*w = t + i + 1;
	*wn = (size_t) (close - *w);
	wn_str_trim(w, wn);
	if (wn_str_prefix_ci(*w, *wn, "severity:")) {
		*w += 9;
		*wn -= 9;
		wn_str_trim(w, wn);
	}
	/* One word: "[ ... ]" or "[PATCH 2/3]" in a wrapped line is not
	 * an entry. */
	if (!*wn || *wn > 16)
		return false;
	for (k = 0; k < *wn; k++)
		if (!(((*w)[k] >= 'a' && (*w)[k] <= 'z') || ((*w)[k] >= 'A' && (*w)[k] <= 'Z')))
			return false;
	*rest = close + 1;
	*rn = tn - (size_t) (*rest - t);
	while (*rn && **rest == '*') {
		(*rest)++;
		(*rn)--;
	}
	wn_str_trim(rest, rn);
	return true;
}

/* Where a summary without its "--" certainly ends: the quoted diff, the
 * commit header, the patch line, an unquoted diff header, the footer. */
static bool hard_stop(const struct rv_line *l, const char *t, size_t tn)
{
	return (l->n && l->s[0] == '>') || wn_str_prefix(t, tn, "--- Patch [") ||
	       wn_rv_commit_line(t, tn) || wn_str_prefix(l->s, l->n, "diff --git ") ||
	       wn_str_eq(l->s, l->n, "-- ");
}

/* After a blank line, text that is neither an entry nor a heading
 * either continues an entry (a stray blank line inside it) or is what
 * follows a summary whose "--" went missing.  It continues the summary
 * when more entries are still to come: fewer entries than announced,
 * and an entry or heading before the summary certainly ends. */
static bool more_entries(const struct rv_lines *L, size_t i, size_t to, const struct rv_summary *out)
{
	size_t lim = i + 64;

	if (out->declared >= 0 && out->n >= (size_t) out->declared)
		return false;
	for (; i < to && i < lim; i++) {
		const struct rv_line *l = &L->v[i];
		const char *t = l->s, *w, *rest;
		size_t tn = l->n, wn, rn;
		bool p;

		wn_str_trim(&t, &tn);
		if (wn_str_eq(t, tn, "--") || hard_stop(l, t, tn))
			return false;
		if (entry_start(t, tn, &w, &wn, &rest, &rn) || heading(t, tn, &p))
			return true;
	}
	return false;
}

void wn_rv_summary_parse(struct rv_ctx *c, const struct rv_lines *L, size_t from, size_t to,
			 struct rv_summary *out)
{
	struct rv_entry *cur = NULL;
	bool pre = false, blank = false;
	size_t i;
	int declared;

	memset(out, 0, sizeof(*out));
	out->declared = -1;
	if (to > L->n)
		to = L->n;
	for (i = from; i < to; i++) {
		if (L->v[i].n && L->v[i].s[0] == '>')
			return;	/* the quoted diff: no summary before it */
		if (found_line(&L->v[i], &declared))
			break;
	}
	if (i >= to)
		return;
	out->found = true;
	out->declared = declared;
	out->line = i;
	for (i++; i < to && !c->oom; i++) {
		const struct rv_line *l = &L->v[i];
		const char *t = l->s, *w, *rest;
		size_t tn = l->n, wn, rn;
		bool p;

		wn_str_trim(&t, &tn);
		if (wn_str_eq(t, tn, "--")) {
			i++;
			break;
		}
		if (hard_stop(l, t, tn))
			break;
		if (!tn) {
			blank = true;
			continue;
		}
		/* A heading stands after a blank line or before any entry; a
		 * wrapped entry line that happens to end in "issues:" does
		 * not switch sections. */
		if ((blank || !cur) && heading(t, tn, &p)) {
			pre = p;
			cur = NULL;
			blank = false;
			continue;
		}
		if (entry_start(t, tn, &w, &wn, &rest, &rn)) {
			cur = new_entry(c, out);
			if (!cur)
				break;
			cur->sev = wn_rv_sev_word(w, wn);
			cur->preexisting = pre;
			wn_rv_put(c, &cur->text, rest, rn);
			blank = false;
			continue;
		}
		/* Entries are contiguous: text after a blank line that is
		 * neither an entry nor a heading means the "--" went
		 * missing -- unless more entries follow it. */
		if (blank && out->n && !more_entries(L, i, to, out))
			break;
		blank = false;
		if (!cur)
			continue;
		/* A rewrapped copy may glue the "--" to the last entry. */
		if (tn > 3 && wn_str_eq(t + tn - 2, 2, "--") &&
		    (t[tn - 3] == ' ' || t[tn - 3] == '\t')) {
			tn -= 2;
			wn_str_trim(&t, &tn);
			wn_rv_put(c, &cur->text, " ", 1);
			wn_rv_put(c, &cur->text, t, tn);
			i++;
			break;
		}
		wn_rv_put(c, &cur->text, " ", 1);
		wn_rv_put(c, &cur->text, t, tn);
	}
	out->end = i;
}

void wn_rv_summary_free(struct rv_summary *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		wn_buf_free(&s->v[i].text);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* ---- matching ---- */

/* Words carry the match: identifiers and long words, lower case, minus
 * the words every comment has.  Each word is kept as its 32-bit FNV-1a
 * (core/hash), sorted: only equality within this run is asked of it and
 * nothing is stored, but the width stays, so that two words that
 * collide and count as one still do and every match is as before. */
#define MAX_WORDS 256

struct words {
	uint32_t *h;
	size_t n;
};

static bool stopword(const char *s, size_t n)
{
	/* The words by first letter, each after its length: this runs
	 * for every word of every summary and block, and one letter's
	 * few words, most passed over by their length, are all a word
	 * need be compared with. */
	static const char *const sw[26] = {
		['a' - 'a'] = "\3and\3are\4also\3any\3all\5after",
		['b' - 'a'] = "\4been\5being\3but\6before\7because",
		['c' - 'a'] = "\3can\5could\6commit\4code",
		['d' - 'a'] = "\4does",
		['f' - 'a'] = "\4from\3for",
		['h' - 'a'] = "\3has\4have\4here",
		['i' - 'a'] = "\4into\3its\5issue",
		['l' - 'a'] = "\4less",
		['m' - 'a'] = "\3may\5might\4more",
		['n' - 'a'] = "\3not",
		['o' - 'a'] = "\4only\5other",
		['p' - 'a'] = "\5patch",
		['s' - 'a'] = "\6should\4such\4some",
		['t' - 'a'] = "\3the\4this\4that\5there\4then\4than\5these\5those",
		['w' - 'a'] = "\4with\4when\5which\4will\5would\3was\4were\4what\5where\5while",
	};
	char low[8];
	const char *p;
	size_t k;

	if (n > 7 || !n)
		return false;
	for (k = 0; k < n; k++)
		low[k] = (char) str_lower((unsigned char) s[k]);
	if (low[0] < 'a' || low[0] > 'z' || !(p = sw[low[0] - 'a']))
		return false;
	for (; *p; p += 1 + (unsigned char) *p)
		if ((unsigned char) *p == n && memcmp(p + 1, low, n) == 0)
			return true;
	return false;
}

/* A merge sort with the comparison inline, where qsort()'s call per
 * comparison was a fifth of a summary's matching. */
void wn_rv_sort_u32(uint32_t *v, uint32_t *t, size_t n)
{
	size_t h = n / 2, i, j, k;

	if (n <= 16) {
		for (i = 1; i < n; i++) {
			uint32_t x = v[i];

			for (j = i; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	wn_rv_sort_u32(v, t, h);
	wn_rv_sort_u32(v + h, t, n - h);
	if (v[h - 1] <= v[h])
		return;
	memcpy(t, v, h * sizeof(*t));
	/* The output never overtakes the right half still to be read. */
	for (i = 0, j = h, k = 0; i < h;)
		v[k++] = j < n && v[j] < t[i] ? v[j++] : t[i++];
}

static void words_of(struct rv_ctx *c, const char *s, size_t n, struct words *w)
{
	uint32_t scratch[MAX_WORDS / 2];
	size_t i = 0, k, u;

	w->n = 0;
	w->h = malloc(MAX_WORDS * sizeof(*w->h));
	if (!w->h) {
		c->oom = true;
		return;
	}
	while (i < n && w->n < MAX_WORDS) {
		size_t b;
		uint32_t h = WN_FNV32_BASIS;

		while (i < n && !str_ident_char((unsigned char) s[i]))
			i++;
		b = i;
		while (i < n && str_ident_char((unsigned char) s[i]))
			i++;
		if (i - b < 3 || stopword(s + b, i - b))
			continue;
		for (k = b; k < i; k++)
			h = wn_fnv1a32_byte(h, (unsigned char) str_lower((unsigned char) s[k]));
		w->h[w->n++] = h;
	}
	wn_rv_sort_u32(w->h, scratch, w->n);
	for (k = u = 0; k < w->n; k++)
		if (!u || w->h[u - 1] != w->h[k])
			w->h[u++] = w->h[k];
	w->n = u;
}

static size_t overlap(const struct words *a, const struct words *b)
{
	size_t i = 0, j = 0, n = 0;

	while (i < a->n && j < b->n) {
		if (a->h[i] == b->h[j]) {
			n++;
			i++;
			j++;
		} else if (a->h[i] < b->h[j]) {
			i++;
		} else {
			j++;
		}
	}
	return n;
}

struct pair {
	long score;
	size_t b, e;
};

static int cmp_pair(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;

	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	if (a->b != b->b)
		return a->b < b->b ? -1 : 1;
	return a->e < b->e ? -1 : a->e > b->e;
}

/* Beyond this many block/entry pairs (never seen in a real mail), only
 * the order-based fallback runs: hostile mail must not go quadratic. */
#define MAX_PAIRS ((size_t) 1 << 16)
/* Swapping two entries' blocks is tried for at most this many entries,
 * and for at most this many rounds (each swap raises the total, so the
 * rounds end anyway; the cap keeps hostile mail cheap). */
#define MAX_SWAP_ENTRIES 64
#define MAX_SWAP_ROUNDS 16
/* Two pairings whose totals differ by less than this (per mille, as
 * score()) are a guess between them: a tenth of the words. */
#define UNSURE_MARGIN 100

static bool compatible(const struct rv_block *b, const struct rv_entry *e)
{
	return !b->has_sev || e->sev == WN_SEV_UNKNOWN || b->sev == WN_SEV_UNKNOWN ||
	       b->sev == e->sev;
}

/* Per mille of the entry's words found in the block, plus a bonus for
 * an equal severity tag; 0 means no evidence at all. */
static long score(const struct rv_block *b, const struct words *bw, const struct rv_entry *e,
		  const struct words *ew)
{
	long s = 0;

	if (ew->n)
		s = (long) (overlap(bw, ew) * 1000 / ew->n);
	if (b->has_sev && b->sev == e->sev)
		s += 300;
	return s;
}

/* The scores of entries j and k with their first blocks, and with the
 * two blocks exchanged; false when an exchange is not possible. */
static bool swap_totals(const long *sc, size_t ne, const size_t *first, size_t j, size_t k,
			long *now, long *swapped)
{
	size_t bj = first[j], bk = first[k];

	if (bj == SIZE_MAX || bk == SIZE_MAX || sc[bj * ne + k] < 0 || sc[bk * ne + j] < 0)
		return false;
	*now = sc[bj * ne + j] + sc[bk * ne + k];
	*swapped = sc[bj * ne + k] + sc[bk * ne + j];
	return true;
}

/* Best evidence first can cross two entries: an entry whose few words
 * all stand in another entry's block takes that block, and leaves its
 * own to the other (five problems at one function share most of their
 * words).  An exchange of first blocks that raises the two entries'
 * total score is made; one that would do about as well leaves both
 * entries unsure. */
static void repair(const long *sc, size_t ne, size_t *first, bool *unsure)
{
	size_t j, k, t, round;
	long now, swapped;
	bool changed = true;

	if (ne > MAX_SWAP_ENTRIES)
		return;
	for (round = 0; changed && round < MAX_SWAP_ROUNDS; round++) {
		changed = false;
		for (j = 0; j < ne; j++)
			for (k = j + 1; k < ne; k++) {
				if (!swap_totals(sc, ne, first, j, k, &now, &swapped) ||
				    swapped <= now)
					continue;
				t = first[j];
				first[j] = first[k];
				first[k] = t;
				changed = true;
			}
	}
	for (j = 0; j < ne; j++)
		for (k = j + 1; k < ne; k++)
			if (swap_totals(sc, ne, first, j, k, &now, &swapped) &&
			    now - swapped < UNSURE_MARGIN)
				unsure[j] = unsure[k] = true;
}

/* An entry no block's tag allows (the bot tagged its block with
 * another severity than its summary line, or one block raises two
 * entries) must not come out without code and words: it takes the
 * block that shares the most of its words whatever its tag -- one
 * that only joined another entry as a further block moves to it, one
 * that is another entry's first is shared (share[j]). */
static void orphans(const struct words *ew, const struct words *bw, struct rv_summary *s,
		    struct rv_blocks *b, const size_t *first, size_t *owner, size_t *share)
{
	size_t i, j, k, ne = s->n;

	for (j = 0; j < ne; j++) {
		size_t best = SIZE_MAX, most = 0;
		bool taken = false;

		for (i = 0; i < b->n; i++)
			if (owner[i] == j)
				taken = true;
		if (taken || !ew[j].n)
			continue;
		for (i = 0; i < b->n; i++) {
			size_t o = overlap(&bw[i], &ew[j]);

			if (o > most) {
				most = o;
				best = i;
			}
		}
		if (best == SIZE_MAX)
			continue;
		for (k = 0; k < ne && first[k] != best; k++)
			;
		if (k < ne)
			share[j] = best;
		else
			owner[best] = j;
	}
}

/* owner[i]: the entry block i attaches to.  firsts_only: only each
 * entry's best block, the others left SIZE_MAX.  share[j]: a block
 * entry j shares with the entry it belongs to (orphans()). */
static void match(struct rv_ctx *c, struct rv_summary *s, struct rv_blocks *b, size_t *owner,
		  bool *unsure, size_t *share, bool firsts_only)
{
	struct words *ew = NULL, *bw = NULL;
	struct pair *pairs = NULL;
	size_t *first = NULL;
	long *sc = NULL;
	size_t i, j, np = 0, ne = s->n;

	if (!b->n || !s->n || b->n * s->n > MAX_PAIRS)
		return;
	ew = calloc(s->n, sizeof(*ew));
	bw = calloc(b->n, sizeof(*bw));
	pairs = malloc(b->n * s->n * sizeof(*pairs));
	sc = malloc(b->n * s->n * sizeof(*sc));
	first = malloc(s->n * sizeof(*first));
	if (!ew || !bw || !pairs || !sc || !first) {
		c->oom = true;
		goto out;
	}
	for (j = 0; j < s->n; j++)
		words_of(c, wn_buf_str(&s->v[j].text), s->v[j].text.len, &ew[j]);
	for (i = 0; i < b->n; i++)
		words_of(c, b->v[i].comment, strlen(b->v[i].comment), &bw[i]);
	if (c->oom)
		goto out;
	for (i = 0; i < b->n; i++)
		for (j = 0; j < s->n; j++) {
			sc[i * ne + j] = -1;
			if (!compatible(&b->v[i], &s->v[j]))
				continue;
			sc[i * ne + j] = score(&b->v[i], &bw[i], &s->v[j], &ew[j]);
			pairs[np++] = (struct pair) { sc[i * ne + j], i, j };
		}
	qsort(pairs, np, sizeof(*pairs), cmp_pair);
	/* First one block per entry, best evidence first ... */
	for (j = 0; j < ne; j++)
		first[j] = SIZE_MAX;
	for (i = 0; i < np; i++) {
		struct pair *p = &pairs[i];

		if (p->score > 0 && owner[p->b] == SIZE_MAX && first[p->e] == SIZE_MAX) {
			owner[p->b] = p->e;
			first[p->e] = p->b;
		}
	}
	/* ... checked against the other entries' ... */
	repair(sc, ne, first, unsure);
	for (j = 0; j < ne; j++)
		if (first[j] != SIZE_MAX)
			owner[first[j]] = j;
	/* ... then further blocks join the entry they match best. */
	for (i = 0; i < np && !firsts_only; i++) {
		struct pair *p = &pairs[i];

		if (p->score > 0 && owner[p->b] == SIZE_MAX)
			owner[p->b] = p->e;
	}
	if (!firsts_only)
		orphans(ew, bw, s, b, first, owner, share);
out:
	for (j = 0; ew && j < s->n; j++)
		free(ew[j].h);
	for (i = 0; bw && i < b->n; i++)
		free(bw[i].h);
	free(ew);
	free(bw);
	free(pairs);
	free(sc);
	free(first);
}

/* Prose paragraphs in order: each entry's best paragraph opens its
 * explanation, and the paragraphs after it, up to the next one that
 * opens another, go on with it; those before the first opening lead up
 * to it. */
static void segment(size_t *owner, size_t n)
{
	size_t i, cur = SIZE_MAX;

	for (i = 0; i < n && cur == SIZE_MAX; i++)
		cur = owner[i];
	for (i = 0; i < n; i++) {
		if (owner[i] != SIZE_MAX)
			cur = owner[i];
		else
			owner[i] = cur;
	}
}

static char *dup0(struct rv_ctx *c, const char *s)
{
	return s ? wn_rv_dup(c, s, strlen(s)) : NULL;
}

/* Where block k stands (file, function, line, quote) into f, copied:
 * a block may be shared by two entries. */
static void block_place(struct rv_ctx *c, wn_finding *f, const struct rv_block *k)
{
	f->file = dup0(c, k->file);
	f->function = dup0(c, k->function);
	f->line = k->line;
	f->line_approx = k->line_approx;
	f->about_commit_msg = k->about_commit_msg;
	f->quote = dup0(c, k->quote);
}

static void attach(struct rv_ctx *c, struct rv_summary *s, struct rv_blocks *b, bool prose)
{
	size_t *owner = NULL, *head = NULL, *next_of = NULL, *share = NULL, i, j, next = 0, free_e = 0,
	       free_b = 0;
	bool *has = NULL, *unsure = NULL;

	if (b->n) {
		owner = malloc(b->n * sizeof(*owner));
		next_of = malloc(b->n * sizeof(*next_of));
		head = malloc((s->n ? s->n : 1) * sizeof(*head));
		share = malloc((s->n ? s->n : 1) * sizeof(*share));
		has = calloc(s->n ? s->n : 1, sizeof(*has));
		unsure = calloc(s->n ? s->n : 1, sizeof(*unsure));
		if (!owner || !next_of || !head || !share || !has || !unsure) {
			c->oom = true;
			goto out;
		}
		for (i = 0; i < b->n; i++)
			owner[i] = SIZE_MAX;
		for (j = 0; j < s->n; j++)
			share[j] = SIZE_MAX;
		match(c, s, b, owner, unsure, share, prose);
		if (prose)
			segment(owner, b->n);
		for (i = 0; i < b->n; i++)
			if (owner[i] != SIZE_MAX)
				has[owner[i]] = true;
			else
				free_b++;
		for (j = 0; j < s->n; j++) {
			has[j] = has[j] || share[j] != SIZE_MAX;
			free_e += !has[j];
		}
		/* No evidence either way (untagged blocks sharing no words):
		 * give leftover blocks to entries still without one, in
		 * order, rather than lose their text -- a guess whenever
		 * two blocks and two entries were left. */
		for (i = 0; i < b->n; i++) {
			if (owner[i] != SIZE_MAX)
				continue;
			while (next < s->n && (has[next] || !compatible(&b->v[i], &s->v[next])))
				next++;
			if (next >= s->n)
				break;
			owner[i] = next;
			unsure[next] = free_e > 1 && free_b > 1;
			has[next++] = true;
		}
		/* Each entry's blocks as a list in mail order: linear, however
		 * many entries and blocks a hostile mail holds. */
		for (j = 0; j < s->n; j++)
			head[j] = SIZE_MAX;
		for (i = b->n; i-- > 0;) {
			if (owner[i] == SIZE_MAX)
				continue;
			next_of[i] = head[owner[i]];
			head[owner[i]] = i;
		}
	}
	for (j = 0; j < s->n && !c->oom; j++) {
		struct rv_entry *e = &s->v[j];
		wn_finding *f = wn_rv_add(c, false);
		wn_buf comment = WN_BUF_INIT;
		bool first = true;

		if (!f)
			break;
		f->severity = e->sev;
		f->preexisting = e->preexisting;
		f->summary = wn_rv_oneline(c, wn_buf_str(&e->text), e->text.len, RV_NO_CUT);
		for (i = head ? head[j] : SIZE_MAX; i != SIZE_MAX; i = next_of[i]) {
			struct rv_block *k = &b->v[i];

			/* Paragraphs of prose have no code: a site each
			 * would only cut the text up. */
			if (!prose)
				wn_rv_add_site(c, f, k->file, k->function, k->line, k->line_approx,
					       k->about_commit_msg, k->quote, k->comment,
					       strlen(k->comment));
			if (first)
				block_place(c, f, k);	/* the first in mail order */
			else
				wn_rv_put(c, &comment, "\n\n", 2);
			wn_rv_put(c, &comment, k->comment, strlen(k->comment));
			first = false;
		}
		/* A block another entry's too (orphans()). */
		if (first && share && share[j] != SIZE_MAX) {
			block_place(c, f, &b->v[share[j]]);
			f->comment = wn_rv_dup(c, b->v[share[j]].comment,
					       strlen(b->v[share[j]].comment));
		} else {
			f->comment = wn_rv_take(c, &comment);
		}
		wn_rv_sites_settle(f);
		f->pairing_unsure = unsure && unsure[j] && f->comment;
	}
out:
	free(share);
	free(unsure);
	free(owner);
	free(next_of);
	free(head);
	free(has);
}

void wn_rv_summary_attach(struct rv_ctx *c, struct rv_summary *s, struct rv_blocks *b)
{
	attach(c, s, b, false);
}

void wn_rv_summary_attach_prose(struct rv_ctx *c, struct rv_summary *s, struct rv_blocks *b)
{
	attach(c, s, b, true);
}
