/* winnow — the similarity of two findings (similar.h). */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/str.h"
#include "winnow/buf.h"
#include "winnow/series.h"
#include "winnow/similar.h"
#include "winnow/text.h"

/* Words every sentence has; they say nothing of the problem.  Sorted,
 * for bsearch.  "not" and "never" are here too: bots word the same
 * problem both ways ("is not checked", "is never checked"). */
static const char *const stop[] = {
	"a", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
	"before", "being", "but", "by", "can", "could", "do", "does", "for", "from", "has",
	"have", "here", "if", "in", "into", "is", "it", "its", "line", "lines", "may",
	"might", "never", "no", "not", "now", "of", "on", "or", "patch", "series", "so",
	"still", "than", "that", "the", "their", "them", "then", "there", "these", "this",
	"those", "to", "was", "were", "when", "where", "which", "while", "will", "with",
	"would",
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

static bool is_stop(const char *w)
{
	return bsearch(&w, stop, sizeof(stop) / sizeof(stop[0]), sizeof(stop[0]), cmp_str) != NULL;
}

static bool all_digits(const char *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (w[i] < '0' || w[i] > '9')
			return false;
	return true;
}

/* 0x1f, deadbeef0, a commit id: 7 or more hex digits with a digit. */
static bool is_hex(const char *w, size_t n)
{
	bool digit = false, prefixed = n > 2 && w[0] == '0' && w[1] == 'x';

	if (prefixed) {
		w += 2;
		n -= 2;
	} else if (n < 7) {
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		if (str_hex((unsigned char) w[i]) < 0)
			return false;
		digit |= w[i] >= '0' && w[i] <= '9';
	}
	return prefixed || digit;
}

/* v2, v13: a series version, which changes while the finding does not. */
static bool is_version(const char *w, size_t n)
{
	return n >= 2 && w[0] == 'v' && all_digits(w + 1, n - 1);
}

static bool ends(const char *w, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n > k && memcmp(w + n - k, suffix, k) == 0;
}

/* A plural, past or -ing ending off a plain word, then a doubled last
 * consonant and a final 'e', so that "writes", "write" and "writing"
 * meet ("writ"), as do "dropped" and "drop", "races" and "racing":
 * entries -> entry, "ing", "ed", "es" after s/x/z/ch/sh, a lone "s".
 * Names (with '_' or digits) stay exactly as they are.  Returns the new
 * length. */
static size_t stem(char *w, size_t n)
{
	size_t m = n;

	if (memchr(w, '_', n))
		return n;
	for (size_t i = 0; i < n; i++)
		if (w[i] >= '0' && w[i] <= '9')
			return n;
	if (n > 4 && ends(w, n, "ies")) {
		w[n - 3] = 'y';
		return n - 2;
	}
	if (n > 5 && ends(w, n, "ing"))
		m = n - 3;
	else if (n > 4 && ends(w, n, "ed"))
		m = n - 2;
	else if (n > 4 && (ends(w, n, "ses") || ends(w, n, "xes") || ends(w, n, "zes") ||
			   ends(w, n, "ches") || ends(w, n, "shes")))
		m = n - 2;
	else if (n > 3 && w[n - 1] == 's' && w[n - 2] != 's')
		m = n - 1;
	if (m < n && m > 2 && w[m - 1] == w[m - 2] && !strchr("aeiouylsz", w[m - 1]))
		m--;
	if (m > 3 && w[m - 1] == 'e')
		m--;
	return m;
}

static wn_status add_word(wn_words *out, size_t *cap, const char *w, size_t n)
{
	if (out->n == *cap) {
		size_t nc = *cap ? 2 * *cap : 16;
		char **nw = realloc(out->w, nc * sizeof(*nw));

		if (!nw)
			return WN_NOMEM;
		out->w = nw;
		*cap = nc;
	}
	if (!(out->w[out->n] = wn_strndup(w, n)))
		return WN_NOMEM;
	out->n++;
	return WN_OK;
}

/* Sort and drop repeats. */
static void make_set(wn_words *ws)
{
	size_t o = 0;

	if (ws->n > 1)
		qsort(ws->w, ws->n, sizeof(*ws->w), cmp_str);
	for (size_t i = 0; i < ws->n; i++) {
		if (o && strcmp(ws->w[o - 1], ws->w[i]) == 0)
			free(ws->w[i]);
		else
			ws->w[o++] = ws->w[i];
	}
	ws->n = o;
}

wn_status wn_words_of(const char *text, wn_words *out)
{
	size_t cap = 0;
	char word[64];

	memset(out, 0, sizeof(*out));
	for (const char *p = text ? text : ""; *p;) {
		size_t n = 0;

		if (!str_ident_char((unsigned char) *p)) {
			p++;
			continue;
		}
		/* A word longer than any name is cut, not split in two. */
		for (; str_ident_char((unsigned char) *p); p++)
			if (n < sizeof(word) - 1)
				word[n++] = (char) str_lower((unsigned char) *p);
		word[n] = '\0';
		if (all_digits(word, n) || is_hex(word, n) || is_version(word, n) || is_stop(word))
			continue;
		n = stem(word, n);
		word[n] = '\0';
		if (is_stop(word))
			continue;
		if (add_word(out, &cap, word, n) != WN_OK) {
			wn_words_free(out);
			return WN_NOMEM;
		}
	}
	make_set(out);
	return WN_OK;
}

void wn_words_free(wn_words *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->w[i]);
	free(w->w);
	memset(w, 0, sizeof(*w));
}

double wn_words_jaccard(const wn_words *a, const wn_words *b)
{
	size_t i = 0, j = 0, both = 0;

	if (!a->n && !b->n)
		return 0;
	/* Both sorted: one merge. */
	while (i < a->n && j < b->n) {
		int c = strcmp(a->w[i], b->w[j]);

		both += c == 0;
		i += c <= 0;
		j += c >= 0;
	}
	return (double) both / (double) (a->n + b->n - both);
}

/* --- places ---------------------------------------------------------------- */

char *wn_sim_path(const char *file)
{
	wn_buf b = WN_BUF_INIT;
	const char *p = file;

	if (!p)
		return NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	if ((p[0] == 'a' || p[0] == 'b') && p[1] == '/')
		p += 2;
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	for (; *p && *p != ' ' && *p != '\t'; p++) {
		if (*p == '/' && b.len && b.data[b.len - 1] == '/')
			continue;
		if (wn_buf_putc(&b, *p) != WN_OK) {
			wn_buf_free(&b);
			return NULL;
		}
	}
	return b.len ? wn_buf_steal(&b) : NULL;
}

char *wn_sim_function(const char *function)
{
	static const char *const words[] = { "static ", "inline ", "__always_inline ", NULL };
	const char *p = function;
	size_t n;

	if (!p)
		return NULL;
	for (bool again = true; again;) {
		again = false;
		while (*p == ' ' || *p == '\t')
			p++;
		for (const char *const *w = words; *w; w++)
			if (strncmp(p, *w, strlen(*w)) == 0) {
				p += strlen(*w);
				again = true;
			}
	}
	n = strcspn(p, "( \t");
	return n ? wn_strndup(p, n) : NULL;
}

char *wn_sim_location(const wn_finding *f, const char *patch_subject)
{
	char *file = f->about_commit_msg ? NULL : wn_sim_path(f->file);
	char *fn = file ? wn_sim_function(f->function) : NULL;
	char *loc = NULL;
	wn_subject s;

	if (file) {
		if (asprintf(&loc, "%s\x1f%s", file, fn ? fn : "") < 0)
			loc = NULL;
	} else if (patch_subject && wn_subject_parse(patch_subject, &s) == WN_OK) {
		if (*s.title && asprintf(&loc, "\x1f\x1f%s", s.title) < 0)
			loc = NULL;
		wn_subject_clear(&s);
	}
	free(file);
	free(fn);
	return loc;
}

bool wn_sim_match(const char *loc_a, const wn_words *a, const char *loc_b, const wn_words *b,
		  double *score)
{
	double j = 0;

	if (loc_a && loc_b && strcmp(loc_a, loc_b) == 0)
		j = wn_words_jaccard(a, b);
	if (score)
		*score = j;
	return j >= WN_SIM_THRESHOLD;
}

static const char *skip_space(const char *s)
{
	while (*s && str_space((unsigned char) *s))
		s++;
	return s;
}

/* The same text, a run of white space (a folded Subject line) being
 * one space and none at the ends counting. */
static bool same_words(const char *a, const char *b)
{
	a = skip_space(a);
	b = skip_space(b);
	while (*a && *b) {
		if (str_space((unsigned char) *a) && str_space((unsigned char) *b)) {
			a = skip_space(a);
			b = skip_space(b);
			continue;
		}
		if (*a != *b)
			return false;
		a++;
		b++;
	}
	return !*skip_space(a) && !*skip_space(b);
}

bool wn_sim_same_bug(wn_bot bot_a, const char *summary_a, wn_bot bot_b, const char *summary_b)
{
	if (!wn_bot_title_names_bug(bot_a) && !wn_bot_title_names_bug(bot_b))
		return true;
	return bot_a == bot_b && summary_a && summary_b && same_words(summary_a, summary_b);
}
