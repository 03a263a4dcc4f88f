/* winnow — a finding's summary out of a bot's prose (see build.h): its
 * first sentence, past the lead-ins that say nothing, and phrases found
 * word by word. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "build.h"

static bool word_char(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch >= 0x80;
}

/* phrase matched at s[i]?  *end gets where the match stops. */
static bool phrase_at(const char *s, size_t n, size_t i, const char *phrase)
{
	const char *p = phrase;

	while (*p) {
		if (*p == ' ') {
			if (i >= n || word_char((unsigned char) s[i]))
				return false;
			while (i < n && !word_char((unsigned char) s[i]))
				i++;
			p++;
			continue;
		}
		if (i >= n || str_lower((unsigned char) s[i]) != *p)
			return false;
		i++;
		p++;
	}
	return i >= n || !word_char((unsigned char) s[i]);
}

/* The phrase where its first byte, a lower-case letter, starts it in
 * either case: memchr() finds the candidates many bytes at a time. */
static bool phrase_by_letter(const char *s, size_t n, const char *phrase)
{
	char lo = phrase[0], up = (char) (lo - 'a' + 'A');
	const char *l = memchr(s, lo, n), *u = memchr(s, up, n);

	while (l || u) {
		const char *p = !u || (l && l < u) ? l : u;
		size_t i = (size_t) (p - s);

		if ((i == 0 || !word_char((unsigned char) s[i - 1])) && phrase_at(s, n, i, phrase))
			return true;
		if (p == l)
			l = memchr(p + 1, lo, n - i - 1);
		else
			u = memchr(p + 1, up, n - i - 1);
	}
	return false;
}

bool wn_rv_phrase(const char *s, size_t n, const char *phrase)
{
	/* phrase_at() fails at once where the first letter differs: look
	 * no further there (this runs over every line of a review). */
	int first = (unsigned char) phrase[0];
	bool letter = first && first != ' ';
	size_t i;

	if (first >= 'a' && first <= 'z')
		return phrase_by_letter(s, n, phrase);
	for (i = 0; i < n; i++) {
		int c = (unsigned char) s[i];

		/* str_lower(), here where the compiler can inline it */
		if (letter && (c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != first)
			continue;
		if ((i == 0 || !word_char((unsigned char) s[i - 1])) && phrase_at(s, n, i, phrase))
			return true;
	}
	return false;
}

/* Does s[0..n) hold w (lower-case letters) in any case, as any part
 * of a word?  Sought at w's rarest letter: memchr() passes over most
 * of a mail at once where w's first letter would stop it often. */
static bool has_ci(const char *s, size_t n, const char *w, size_t wl)
{
	/* Letters from the rarest in English prose to the commonest. */
	static const char rank[] = "zqxjkvbpygfwmucldrhsnioate";
	size_t j = 0, k, best = sizeof(rank);
	const char *l, *u;
	char lo, up;

	for (k = 0; k < wl; k++) {
		const char *r = strchr(rank, w[k]);

		if ((size_t) (r - rank) < best) {
			best = (size_t) (r - rank);
			j = k;
		}
	}
	lo = w[j];
	up = (char) (lo - 'a' + 'A');
	if (n < wl)
		return false;
	/* The anchor stands j bytes into a match that fits in s. */
	s += j;
	n -= wl - 1;
	l = memchr(s, lo, n);
	u = memchr(s, up, n);
	while (l || u) {
		const char *p = !u || (l && l < u) ? l : u;

		for (k = 0; k < wl && str_lower((unsigned char) (p - j)[k]) == w[k]; k++)
			;
		if (k == wl)
			return true;
		if (p == l)
			l = memchr(p + 1, lo, n - (size_t) (p + 1 - s));
		else
			u = memchr(p + 1, up, n - (size_t) (p + 1 - s));
	}
	return false;
}

/* Can lines from..to, with the start of the line after, hold phrase?
 * Not when one of its words is missing from them: each word of a
 * match lies whole in one line (letters never match the space that
 * joins two), and the lines lie in order in the one text
 * wn_rv_lines_read() cut them from.  The words must be lower-case
 * letters; a phrase of anything else is not ruled out here. */
static bool phrase_may(const struct rv_lines *L, size_t from, size_t to, const char *phrase)
{
	size_t e = to < L->n ? to : L->n - 1, i, k;
	const char *s = L->v[from].s;
	size_t n = (size_t) (L->v[e].s + L->v[e].n - s);

	for (i = 0; phrase[i]; i = k) {
		for (k = i; phrase[k] >= 'a' && phrase[k] <= 'z'; k++)
			;
		if (phrase[k] && phrase[k] != ' ')
			return true;
		if (k > i && !has_ci(s, n, phrase + i, k - i))
			return false;
		k += phrase[k] == ' ';
	}
	return true;
}

bool wn_rv_phrase_lines(const struct rv_lines *L, size_t from, size_t to, const char *phrase)
{
	wn_buf b = WN_BUF_INIT;
	const char *last = strrchr(phrase, ' ');
	size_t i;
	bool hit = false;

	if (from >= to || from >= L->n || !phrase_may(L, from, to, phrase))
		return false;

	/* The phrase's last word: letters never match the joining space,
	 * so a match that is not inside the line alone holds its last
	 * word whole, as a word, in the part of the next line joined. */
	last = last ? last + 1 : phrase;
	/* A phrase wrapped over two lines: each line is tried with the
	 * start of the next one (even the line after to). */
	for (i = from; i < to && i < L->n && !hit; i++) {
		size_t k = i + 1 < L->n ? L->v[i + 1].n : 0;

		if (k > 64)
			k = 64;
		/* The line alone first, and the joined copy only when the
		 * next line's start can end a match: copying every line
		 * was most of the cost (this runs over every review). */
		if (wn_rv_phrase(L->v[i].s, L->v[i].n, phrase)) {
			hit = true;
			break;
		}
		if (*last && (!k || !wn_rv_phrase(L->v[i + 1].s, k, last)))
			continue;
		wn_buf_reset(&b);
		if (wn_buf_append(&b, L->v[i].s, L->v[i].n) != WN_OK || wn_buf_putc(&b, ' ') != WN_OK ||
		    (k && wn_buf_append(&b, L->v[i + 1].s, k) != WN_OK))
			break;
		hit = wn_rv_phrase(b.data, b.len, phrase);
	}
	wn_buf_free(&b);
	return hit;
}

/* Does a period at s[i] end a sentence?  Not after "e.g", "i.e", "etc"
 * or inside "foo.bar" / "1.5". */
static bool sentence_end(const char *s, size_t n, size_t i)
{
	static const char *const abbrev[] = { "e.g", "i.e", "etc", "vs", "cf" };
	size_t k;

	if (i + 1 < n && !str_space((unsigned char) s[i + 1]))
		return false;
	if (s[i] != '.')
		return true;
	for (k = 0; k < sizeof(abbrev) / sizeof(abbrev[0]); k++) {
		size_t al = strlen(abbrev[k]);

		if (i >= al && wn_str_prefix_ci(s + i - al, al, abbrev[k]) &&
		    (i == al || !str_ident_char((unsigned char) s[i - al - 1])))
			return false;
	}
	return true;
}

/* Does a blank line (or the end) start at s[i]? */
static bool blank_from(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
		i++;
	return i >= n || s[i] == '\n';
}

/* A line of code or quotation rather than prose: indented or '>'. */
static bool code_line_at(const char *s, size_t n, size_t i)
{
	return i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '>');
}

/* The '\n' ending the line that holds s[i], or n. */
static size_t line_end(const char *s, size_t n, size_t i)
{
	while (i < n && s[i] != '\n')
		i++;
	return i;
}

/* A ':' at s[i] that ends its line. */
static bool colon_at_eol(const char *s, size_t n, size_t i)
{
	return s[i] == ':' && (i + 1 >= n || s[i + 1] == '\n' || s[i + 1] == '\r');
}

/* The next sentence of prose from *pos, code lines and blank lines
 * skipped, into [*a, *b); *pos moved past it.  A sentence ends at '.',
 * '?' or '!' before a blank, at a ':' ending its line (it introduces
 * what follows), at a blank line or before a line of code.  False at
 * the end of s. */
static bool next_sentence(const char *s, size_t n, size_t *pos, size_t *a, size_t *b)
{
	size_t i = *pos;

	for (;;) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if (i >= n)
			return false;
		if (s[i] != '\n')
			break;
		i++;
		if (code_line_at(s, n, i))
			i = line_end(s, n, i);
	}
	*a = i;
	for (; i < n; i++) {
		if (s[i] == '\n' && (blank_from(s, n, i + 1) || code_line_at(s, n, i + 1)))
			break;
		if (((s[i] == '.' || s[i] == '?' || s[i] == '!') && sentence_end(s, n, i)) ||
		    colon_at_eol(s, n, i)) {
			i++;
			break;
		}
	}
	*b = *pos = i;
	return true;
}

static char last_char(const char *s, size_t a, size_t b)
{
	while (b > a && str_space((unsigned char) s[b - 1]))
		b--;
	return b > a ? s[b - 1] : '\0';
}

/* A first sentence that ends in ':' only leads in to what it quotes
 * ("The commit message says:", "The old FOO had its own depends on
 * lines:"); the problem is stated after it (from): the first question,
 * or else the first sentence after the quoted block that ends in '.' or
 * '?'.  False: neither. */
static bool after_lead_in(const char *s, size_t n, size_t from, size_t *a, size_t *b)
{
	size_t pos = from;

	while (next_sentence(s, n, &pos, a, b))
		if (last_char(s, *a, *b) == '?')
			return true;
	/* The quoted block: the lines after the lead-in's, blank ones
	 * first, up to the next blank line. */
	pos = line_end(s, n, from);
	while (pos < n && blank_from(s, n, pos + 1) && line_end(s, n, pos + 1) < n)
		pos = line_end(s, n, pos + 1);
	while (pos < n && !blank_from(s, n, pos + 1))
		pos = line_end(s, n, pos + 1);
	while (next_sentence(s, n, &pos, a, b)) {
		char e = last_char(s, *a, *b);

		if (e == '.' || e == '?')
			return true;
	}
	return false;
}

/* Where the first sentence of the first paragraph of s ends: at '.',
 * '?' or '!' before a blank, or (colon) at a ':' ending its line. */
static size_t first_end(const char *s, size_t n, bool colon)
{
	size_t i, end = n;

	/* First paragraph: up to the first blank line. */
	for (i = 0; i < n; i++) {
		if (s[i] == '\n') {
			size_t j = i + 1;

			while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r'))
				j++;
			if (j >= n || s[j] == '\n') {
				end = i;
				break;
			}
		}
	}
	for (i = 0; i < end; i++) {
		if ((s[i] == '.' || s[i] == '?' || s[i] == '!') && sentence_end(s, end, i))
			return i + 1;
		/* "... lines:" ending its line introduces what follows */
		if (colon && colon_at_eol(s, end, i))
			return i + 1;
	}
	return end;
}

/* The first sentence of the first paragraph of s, as wn_rv_oneline(). */
static char *rv_first_sentence(struct rv_ctx *c, const char *s, size_t n)
{
	size_t end = first_end(s, n, true), a, b;

	if (last_char(s, 0, end) == ':' && after_lead_in(s, n, end, &a, &b))
		return wn_rv_oneline(c, s + a, b - a, RV_SUMMARY_MAX);
	return wn_rv_oneline(c, s, end, RV_SUMMARY_MAX);
}

void wn_rv_summarise(struct rv_ctx *c, wn_finding *f, const char *s, size_t n)
{
	char *before;

	f->summary = rv_first_sentence(c, s, n);
	/* Verdicts are stored under the fingerprint, which hashes the
	 * summary: where telling lead-ins apart changed the summary, the
	 * fingerprint keeps hashing what the summary was before, so no
	 * verdict given then is lost. */
	before = wn_rv_oneline(c, s, first_end(s, n, false), RV_SUMMARY_MAX);
	if (f->summary && before && strcmp(f->summary, before) != 0)
		wn_rv_fp_text(c, (size_t) (f - c->r->findings), before, strlen(before));
	free(before);
}
