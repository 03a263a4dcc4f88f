/* winnow — the similarity of two findings (similar.h). */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

char *wn_sim_patch(const char *patch_subject)
{
	wn_subject s;
	char *title = NULL;

	if (!patch_subject || wn_subject_parse(patch_subject, &s) != WN_OK)
		return NULL;
	if (*s.title)
		title = s.title;
	else
		free(s.title);
	s.title = NULL;
	wn_subject_clear(&s);
	return title;
}

bool wn_sim_generic_path(const char *path)
{
	return path && wn_place_generic(path, strlen(path));
}

/* generic: a generic place says nothing (see similar.h). */
static char *location(const wn_finding *f, const char *patch_subject, bool generic)
{
	char *file = f->about_commit_msg ? NULL : wn_diff_path(f->file);
	char *fn = NULL;
	char *loc = NULL;
	wn_subject s;

	if (file && generic && wn_sim_generic_path(file)) {
		free(file);
		file = NULL;
	}
	if (file) {
		fn = wn_sim_function(f->function);
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

char *wn_sim_location(const wn_finding *f, const char *patch_subject)
{
	return location(f, patch_subject, true);
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

/* --- the code signal ------------------------------------------------------- */

/* The kernel test robot quotes code as git blame does: "<commit>
 * <author> <YYYY-MM-DD> [@]<line>  <code>".  The length of that
 * prefix, or 0. */
static size_t blame_prefix(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n && str_hex((unsigned char) s[i]) >= 0)
		i++;
	if (i < 7 || i >= n || s[i] != ' ')
		return 0;
	for (; i + 11 < n; i++) {
		const char *d = s + i;

		if (d[0] != ' ' || d[5] != '-' || d[8] != '-' || d[11] != ' ')
			continue;
		for (k = 1; k < 11 && (k == 5 || k == 8 || (d[k] >= '0' && d[k] <= '9')); k++)
			;
		if (k < 11)
			continue;
		for (k = i + 11; k < n && s[k] == ' '; k++)
			;
		if (k < n && s[k] == '@')
			k++;
		if (k >= n || s[k] < '0' || s[k] > '9')
			return 0;
		while (k < n && s[k] >= '0' && s[k] <= '9')
			k++;
		return k;
	}
	return 0;
}

/* One quoted line normalised into b (see wn_sim_quote). */
static void quote_line(wn_buf *b, const char *s, size_t n)
{
	size_t i = 0, k;

	if ((k = blame_prefix(s, n)) > 0) {
		s += k;
		n -= k;
		while (n && str_space((unsigned char) *s)) {
			s++;
			n--;
		}
	}

	if (n && (s[0] == '+' || s[0] == '-' || s[0] == ' '))
		i = 1;
	while (i < n && str_space((unsigned char) s[i]))
		i++;
	/* "123:" or "123 |": a line number some bots put in front. */
	for (k = i; k < n && s[k] >= '0' && s[k] <= '9'; k++)
		;
	if (k > i) {
		size_t m = k;

		while (m < n && s[m] == ' ')
			m++;
		if (m < n && (s[m] == ':' || s[m] == '|'))
			for (i = m + 1; i < n && str_space((unsigned char) s[i]);)
				i++;
	}
	for (; i < n; i++) {
		if (str_space((unsigned char) s[i])) {
			while (i + 1 < n && str_space((unsigned char) s[i + 1]))
				i++;
			if (i + 1 < n)
				wn_buf_putc(b, ' ');
			continue;
		}
		wn_buf_putc(b, s[i]);
	}
}

static bool snip(const char *l)
{
	return strncmp(l, "@@", 2) == 0 || strcmp(l, "...") == 0 || strcmp(l, "[ ... ]") == 0 ||
	       strcmp(l, "[...]") == 0;
}

/* The line a comment hangs on must say something: "}" or "break;" is
 * in every function. */
#define ANCHOR_MIN 8

wn_status wn_sim_quote_of(const char *quote, wn_sim_quote *out)
{
	wn_words ws = { 0 };
	size_t cap = 0;
	const char *p = quote ? quote : "";

	memset(out, 0, sizeof(*out));
	while (*p) {
		size_t n = strcspn(p, "\n");
		wn_buf b = WN_BUF_INIT;

		quote_line(&b, p, n);
		p += n + (p[n] == '\n');
		if (wn_buf_status(&b) != WN_OK) {
			wn_buf_free(&b);
			wn_words_free(&ws);
			return WN_NOMEM;
		}
		if (!b.len || snip(wn_buf_str(&b))) {
			wn_buf_free(&b);
			continue;
		}
		if (add_word(&ws, &cap, b.data, b.len) != WN_OK) {
			wn_buf_free(&b);
			wn_words_free(&ws);
			return WN_NOMEM;
		}
		wn_buf_free(&b);
	}
	out->line = ws.w;
	out->n = ws.n;
	for (size_t i = out->n; i-- > 0;)
		if (strlen(out->line[i]) >= ANCHOR_MIN) {
			out->anchor = out->line[i];
			break;
		}
	return WN_OK;
}

void wn_sim_quote_free(wn_sim_quote *q)
{
	for (size_t i = 0; i < q->n; i++)
		free(q->line[i]);
	free(q->line);
	memset(q, 0, sizeof(*q));
}

static bool has_line(const wn_sim_quote *q, const char *l)
{
	for (size_t i = 0; l && i < q->n; i++)
		if (strcmp(q->line[i], l) == 0)
			return true;
	return false;
}

bool wn_sim_anchored(const wn_sim_quote *a, const wn_sim_quote *b)
{
	size_t both = 0, all;

	if (!a || !b || !a->anchor || !b->anchor)
		return false;
	if (has_line(b, a->anchor) || has_line(a, b->anchor))
		return true;
	/* Lines as sets: a line quoted twice counts once. */
	all = a->n + b->n;
	for (size_t i = 0; i < a->n; i++) {
		bool dup = false;

		for (size_t k = 0; k < i && !dup; k++)
			dup = strcmp(a->line[k], a->line[i]) == 0;
		if (dup)
			all--;
		else if (has_line(b, a->line[i]))
			both++;
	}
	for (size_t i = 0; i < b->n; i++)
		for (size_t k = 0; k < i; k++)
			if (strcmp(b->line[k], b->line[i]) == 0) {
				all--;
				break;
			}
	return all > both && 2 * both >= all - both;
}

static wn_status add_name(wn_words *out, size_t *cap, const char *w, size_t n)
{
	char word[64];

	if (!n)
		return WN_OK;
	if (n > sizeof(word) - 1)
		n = sizeof(word) - 1;
	for (size_t i = 0; i < n; i++)
		word[i] = (char) str_lower((unsigned char) w[i]);
	return add_word(out, cap, word, n);
}

wn_status wn_names_of(const char *text, wn_words *out)
{
	const char *p = text ? text : "";
	bool tick = false;
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	while (*p) {
		const char *w = p;
		size_t n = 0;
		bool name;

		if (*p == '`') {
			tick = !tick;
			p++;
			continue;
		}
		if (!str_ident_char((unsigned char) *p) || (*p >= '0' && *p <= '9')) {
			/* A number or the rest of one is no name. */
			while (*p && str_ident_char((unsigned char) *p))
				p++;
			if (*p && *p != '`')
				p++;
			continue;
		}
		while (str_ident_char((unsigned char) w[n]))
			n++;
		p = w + n;
		name = tick || memchr(w, '_', n) || (p[0] == '(' && p[1] == ')');
		if (name && add_name(out, &cap, w, n) != WN_OK) {
			wn_words_free(out);
			return WN_NOMEM;
		}
	}
	make_set(out);
	return WN_OK;
}

/* The same name as bots spell it: underscores aside ("dev_t" and
 * "devt", a type and the field holding it), or one the last part of the
 * other after a '_' ("data" and "btrfs_uring_encoded_data": the kernel
 * names a variable by its type's last word, struct foo_data *data),
 * the shorter having 4 letters or more ("len", "ret" and "err" end too
 * many names). */
static bool same_name(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	const char *x = a, *y = b;

	if (na != nb && (na < nb ? na : nb) >= 4) {
		const char *s = na < nb ? a : b, *l = na < nb ? b : a;
		size_t ns = strlen(s), nl = strlen(l);

		if (l[nl - ns - 1] == '_' && strcmp(l + nl - ns, s) == 0)
			return true;
	}
	for (;; x++, y++) {
		while (*x == '_')
			x++;
		while (*y == '_')
			y++;
		if (*x != *y)
			return false;
		if (!*x)
			return true;
	}
}

/* Is some name of a, other than skip, in b? */
static bool shares_name(const wn_words *a, const wn_words *b, const char *skip, bool *named)
{
	for (size_t i = 0; i < a->n; i++) {
		if (skip && strcasecmp(a->w[i], skip) == 0)
			continue;
		*named = true;
		for (size_t k = 0; k < b->n; k++)
			if (same_name(a->w[i], b->w[k]))
				return true;
	}
	return false;
}

bool wn_names_conflict(const wn_words *a, const wn_words *b, const char *function)
{
	bool named_a = false, named_b = false;

	if (!a || !b || shares_name(a, b, function, &named_a))
		return false;
	shares_name(b, a, function, &named_b);
	return named_a && named_b;
}

/* The function of a place "FILE\x1fFUNCTION", or NULL. */
static const char *fn_of(const char *loc)
{
	const char *sep = loc ? strchr(loc, '\x1f') : NULL;

	return sep && sep != loc && sep[1] ? sep + 1 : NULL;
}

/* Findings in two functions: a name each summary gives but the function
 * it sits in (naming its own place says nothing).  *conflict: both name
 * code and none of it is the same; *shared: some name is in both. */
static void names_across(const wn_sim_side *a, const wn_sim_side *b, bool *conflict, bool *shared)
{
	const char *fa = fn_of(a->loc), *fb = fn_of(b->loc);
	bool named_a = false, named_b = false;

	*conflict = *shared = false;
	if (!a->names || !b->names)
		return;
	for (size_t i = 0; i < a->names->n; i++) {
		const char *n = a->names->w[i];

		if ((fa && strcasecmp(n, fa) == 0) || (fb && strcasecmp(n, fb) == 0))
			continue;
		named_a = true;
		for (size_t k = 0; k < b->names->n && !*shared; k++)
			*shared = same_name(n, b->names->w[k]);
	}
	for (size_t k = 0; k < b->names->n && !named_b; k++)
		named_b = !(fa && strcasecmp(b->names->w[k], fa) == 0) &&
			  !(fb && strcasecmp(b->names->w[k], fb) == 0);
	*conflict = named_a && named_b && !*shared;
}

/* --- what is wrong ---------------------------------------------------------- */

/* The problem kinds and the words that name them, as they begin in a
 * lower-cased summary at a word's start ("leak" is also "leaks",
 * "leaked").  Kinds overlap in one summary ("a race leads to a
 * use-after-free"): only summaries sharing none are different problems,
 * so a repeat reworded from "leaks memory" to "use-after-free and leak"
 * still meets.  Each list holds words, not phrases fitted to one
 * pair: what a reviewer would call the problem. */
enum { KIND_LEAK = 2, KIND_UNINIT = 3, KIND_INFOLEAK = 12 };
static const struct kind {
	const char *const words[8];
} kinds[] = {
	{ { "race", "racy", "racing", "concurrent", "toctou", "unsynchroni", "unprotected", "lockless" } },
	{ { "use-after-free", "use after free", "uaf", "dangling", "lifetime", "freed" } },
	/* KIND_LEAK: something allocated or taken is never given back (a
	 * leak of uninitialised data or to user space is KIND_INFOLEAK's:
	 * see wn_problem_kinds). */
	{ { "leak", "never freed", "not freed", "without freeing" } },
	{ { "uninitiali", "uninit" } },
	{ { "null" } },
	{ { "out-of-bounds", "out of bounds", "bounds", "overflow", "underflow", "overrun", "oob" } },
	{ { "align", "cacheline", "cache line", "cache-line" } },
	{ { "deadlock", "lock inversion", "lock order", "sleep in atomic", "sleeping in atomic" } },
	{ { "double free", "double-free", "freed twice" } },
	{ { "rate limit", "rate-limit", "ratelimit", "flood" } },
	/* An objection to an equality and one to a bit test at one line
	 * are opposite objections: the code went from one to the other. */
	{ { "equality", "equals" } },
	{ { "bit test", "bitwise", "bit-test" } },
	/* KIND_INFOLEAK: what user space must not see reaches it. */
	{ { "information leak", "info leak", "info-leak", "infoleak", "disclos" } },
};

_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == KIND_INFOLEAK + 1, "KIND_INFOLEAK is the last");

/* Does the lower-cased summary send something to user space? */
static bool to_user(const char *low)
{
	static const char *const words[] = { "to user space", "to userspace", "to user-space",
					     "to user memory", "copy_to_user", "copied out", NULL };

	for (const char *const *w = words; *w; w++)
		if (strstr(low, *w))
			return true;
	return false;
}

static bool word_start(const char *s, const char *p)
{
	return p == s || !(str_ident_char((unsigned char) p[-1]) || p[-1] == '-');
}

unsigned wn_problem_kinds(const char *summary)
{
	char low[512];
	size_t n = 0;
	unsigned out = 0;

	for (const char *p = summary ? summary : ""; *p && n < sizeof(low) - 1; p++)
		low[n++] = (char) str_lower((unsigned char) *p);
	low[n] = '\0';
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (size_t w = 0; w < 8 && kinds[k].words[w] && !(out & (1u << k)); w++)
			for (const char *p = strstr(low, kinds[k].words[w]); p;
			     p = strstr(p + 1, kinds[k].words[w]))
				if (word_start(low, p)) {
					out |= 1u << k;
					break;
				}
	/* A leak of uninitialised data or to user space discloses memory,
	 * an information leak; any other leak keeps what it took (memory,
	 * a reference), a resource leak: two problems, though both say
	 * "leak" (issue 37). */
	if ((out & 1u << KIND_LEAK) && ((out & 1u << KIND_UNINIT) || to_user(low)))
		out = (out & ~(1u << KIND_LEAK)) | 1u << KIND_INFOLEAK;
	return out;
}

bool wn_kinds_conflict(unsigned a, unsigned b)
{
	return a && b && !(a & b);
}

/* The same file: the part of two places before the function. */
static bool same_file(const char *a, const char *b)
{
	size_t n = a ? strcspn(a, "\x1f") : 0;

	return n && b && strncmp(a, b, n) == 0 && b[n] == '\x1f';
}

/* The patch route (see similar.h): the same patch in another version,
 * the same file, anchored in the code, the problem texts alike. */
static void judge_patch(const wn_sim_side *a, const wn_sim_side *b, wn_sim_result *r)
{
	bool conflict, shared, fn, code;
	double text, score;

	/* Two findings placed at the patch's title (about the commit
	 * message) are in one "file" when on one patch. */
	if (!a->patch || !b->patch || strcmp(a->patch, b->patch) != 0 ||
	    !(same_file(a->loc, b->loc) || (a->loc && b->loc && a->loc[0] == '\x1f' &&
					     strcmp(a->loc, b->loc) == 0)))
		return;
	names_across(a, b, &conflict, &shared);
	if (conflict)
		return;
	fn = fn_of(a->loc) && fn_of(b->loc) && strcmp(fn_of(a->loc), fn_of(b->loc)) == 0;
	code = wn_sim_anchored(a->quote, b->quote);
	text = a->text && b->text ? wn_words_jaccard(a->text, b->text) : 0;
	score = wn_words_jaccard(a->words, b->words) + text;
	if (fn || code || shared)
		score += WN_SIM_ANCHOR_WEIGHT;
	if (score > 1)
		score = 1;
	r->patch = score;
	if (score < WN_SIM_THRESHOLD || score <= r->score || r->score >= WN_SIM_THRESHOLD)
		return;
	r->score = score;
	r->signals |= WN_SIM_PATCH | (fn ? WN_SIM_PLACE : 0) | (code ? WN_SIM_QUOTE : 0) |
		      (shared ? WN_SIM_NAME : 0) | (text > r->words ? WN_SIM_TEXT : 0);
}

/* A place with a named function: a file's "FILE\x1fFUNCTION", not a
 * patch title's "\x1f\x1fTITLE" nor a file alone. */
static bool in_function(const char *loc)
{
	const char *sep = loc ? strchr(loc, '\x1f') : NULL;

	return sep && sep != loc && sep[1];
}

bool wn_sim_judge(const wn_sim_side *a, const wn_sim_side *b, wn_sim_result *r)
{
	bool code = false;

	memset(r, 0, sizeof(*r));
	if (wn_kinds_conflict(a->kinds, b->kinds))
		return false;
	if (a->loc && b->loc && strcmp(a->loc, b->loc) == 0) {
		r->signals = WN_SIM_PLACE;
		r->words = wn_words_jaccard(a->words, b->words);
		code = in_function(a->loc) && wn_sim_anchored(a->quote, b->quote) &&
		       !wn_names_conflict(a->names, b->names, strchr(a->loc, '\x1f') + 1);
	}
	r->score = r->words;
	if (r->words >= WN_SIM_THRESHOLD)
		r->signals |= WN_SIM_WORDS;
	if (code) {
		r->signals |= WN_SIM_QUOTE;
		/* A similarity stays at most 1; r->words tells such apart. */
		r->score = r->words + WN_SIM_QUOTE_WEIGHT > 1 ? 1 : r->words + WN_SIM_QUOTE_WEIGHT;
	}
	if (!r->words)
		r->words = wn_words_jaccard(a->words, b->words);
	/* Even when the place route matched: r->patch is what a sure
	 * carry is judged by. */
	judge_patch(a, b, r);
	return r->score >= WN_SIM_THRESHOLD;
}

/* The patch route's reasons, by anchor; [1] when the comments matched. */
static const char *const why_patch[][2] = {
	{ "same patch, quoted line and function; summary alike",
	  "same patch, quoted line and function; comment alike" },
	{ "same patch, file and quoted line, function renamed or moved; summary alike",
	  "same patch, file and quoted line, function renamed or moved; comment alike" },
	{ "same patch and function; summary alike", "same patch and function; comment alike" },
	{ "same patch, file and code named, function renamed or moved; summary alike",
	  "same patch, file and code named, function renamed or moved; comment alike" },
	{ "same patch and file, function renamed or moved; summary alike",
	  "same patch and file, function renamed or moved; summary and comment alike" },
};

const char *wn_sim_why(unsigned signals, const char *loc)
{
	bool fn = in_function(loc), title = loc && loc[0] == '\x1f';

	if (signals & WN_SIM_SAME)
		return "identical: same bot, summary and quoted code";
	if (signals & WN_SIM_PATCH) {
		int text = (signals & WN_SIM_TEXT) != 0, place = (signals & WN_SIM_PLACE) != 0;

		if (signals & WN_SIM_QUOTE)
			return why_patch[place ? 0 : 1][text];
		if (place)
			return why_patch[2][text];
		return why_patch[signals & WN_SIM_NAME ? 3 : 4][text];
	}
	if (signals & WN_SIM_QUOTE)
		return signals & WN_SIM_WORDS ? "same quoted line and function; summary alike"
					      : "same quoted line and function; summary reworded";
	if (title)
		return "same patch title; summary alike";
	return fn ? "same function; summary alike" : "same file; summary alike";
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

/* --- a finding to compare -------------------------------------------------- */

void wn_sim_finding_free(wn_sim_finding *s)
{
	free(s->summary);
	free(s->loc);
	free(s->patch);
	wn_words_free(&s->words);
	wn_words_free(&s->names);
	wn_words_free(&s->text);
	wn_sim_quote_free(&s->quote);
	memset(s, 0, sizeof(*s));
}

wn_status wn_sim_finding_of(wn_bot bot, const wn_finding *f, const char *patch_subject,
			    wn_sim_finding *out)
{
	wn_status st = WN_NOMEM;

	memset(out, 0, sizeof(*out));
	out->bot = bot;
	/* A generic place is one of a crash's frames: a bot reviewing the
	 * code places its finding in the file the patch changes, arch/
	 * as much as drivers/ (issue 37: every s390 finding was placed at
	 * its patch's title, and met no other version of its patch). */
	if (!(out->loc = location(f, patch_subject, wn_bot_title_names_bug(bot))))
		return WN_NOT_FOUND;
	out->patch = wn_sim_patch(patch_subject);
	if ((out->summary = wn_strdup0(f->summary)) || !f->summary)
		st = wn_words_of(f->summary, &out->words);
	if (st == WN_OK)
		st = wn_names_of(f->summary, &out->names);
	if (st == WN_OK)
		st = wn_sim_quote_of(f->quote, &out->quote);
	if (st == WN_OK)
		st = wn_words_of(f->comment, &out->text);
	out->kinds = wn_problem_kinds(f->summary);
	if (st != WN_OK) {
		wn_sim_finding_free(out);
		return st;
	}
	wn_sim_finding_moved(out);
	return WN_OK;
}

void wn_sim_finding_moved(wn_sim_finding *s)
{
	s->side = (wn_sim_side) { s->loc, &s->words, &s->names, &s->quote, s->patch, &s->text,
				  s->kinds };
}

bool wn_sim_identical(const wn_sim_finding *a, const wn_sim_finding *b)
{
	if (a->bot != b->bot || !a->summary || !b->summary || !same_words(a->summary, b->summary) ||
	    !a->quote.n || a->quote.n != b->quote.n)
		return false;
	for (size_t i = 0; i < a->quote.n; i++)
		if (strcmp(a->quote.line[i], b->quote.line[i]) != 0)
			return false;
	return true;
}

bool wn_sim_alike(const wn_sim_finding *a, const wn_sim_finding *b, wn_sim_result *r)
{
	memset(r, 0, sizeof(*r));
	return wn_sim_same_bug(a->bot, a->summary, b->bot, b->summary) &&
	       wn_sim_judge(&a->side, &b->side, r);
}
