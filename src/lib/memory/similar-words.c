/* winnow — the words of a finding's text, as similarity compares them
 * (similar.h): stop words out, numbers and versions out, stems, and the
 * Jaccard index of two sets. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/str.h"
#include "similar-private.h"
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
		if (wn_str_hex((unsigned char) w[i]) < 0)
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

wn_status wn_sim_add_word(wn_words *out, size_t *cap, const char *w, size_t n)
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
void wn_sim_make_set(wn_words *ws)
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
		if (wn_sim_add_word(out, &cap, word, n) != WN_OK) {
			wn_words_free(out);
			return WN_NOMEM;
		}
	}
	wn_sim_make_set(out);
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
