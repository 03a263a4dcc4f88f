/* winnow — the function around a line of C, kernel style:
 *
 *	static void frob_remove(struct platform_device *pdev)
 *	{
 *		...
 *	}
 *
 * the opening and closing braces in the first column, the signature on
 * the lines just above the brace.  No parser: a finding only needs its
 * function shown, and a line outside any function shows nothing. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "../core/str.h"
#include "winnow/lore.h"

struct lines {
	const char **at;
	size_t *len;
	size_t n;
};

static bool split(const char *text, size_t len, struct lines *v)
{
	size_t pos = 0, n, cap = 0;
	const char *l;

	memset(v, 0, sizeof(*v));
	while (wn_str_next_line(text, len, &pos, &l, &n)) {
		if (v->n == cap) {
			size_t nc = cap ? 2 * cap : 256;
			const char **na = realloc(v->at, nc * sizeof(*na));
			size_t *nl = na ? realloc(v->len, nc * sizeof(*nl)) : NULL;

			if (na)
				v->at = na;
			if (!nl)
				return false;
			v->len = nl;
			cap = nc;
		}
		v->at[v->n] = l;
		v->len[v->n++] = n;
	}
	return true;
}

static bool starts(const struct lines *v, size_t i, char c)
{
	return v->len[i] > 0 && v->at[i][0] == c;
}

/* Part of a signature: not blank, not indented code's end, not a
 * statement, comment end or preprocessor line. */
static bool signature(const struct lines *v, size_t i)
{
	const char *l = v->at[i];
	size_t n = v->len[i];

	if (wn_str_blank(l, n) || l[0] == '#' || l[0] == '}')
		return false;
	wn_str_trim(&l, &n);
	return !(n && l[n - 1] == ';') && !(n >= 2 && !memcmp(l + n - 2, "*/", 2));
}

bool wn_tree_function(const char *text, size_t len, int line, int *start, int *end)
{
	struct lines v = { 0 };
	size_t at = (size_t) (line - 1), brace, first, last;
	bool found = false;

	if (line < 1 || !split(text, len, &v) || at >= v.n)
		goto out;
	/* The last "{" at or above the line, with no "}" between. */
	for (brace = at + 1; brace-- > 0 && !starts(&v, brace, '{');)
		if (starts(&v, brace, '}') && brace != at)
			goto out;
	if (brace == (size_t) -1 || brace == 0)
		goto out;
	for (last = at > brace ? at : brace + 1; last < v.n && !starts(&v, last, '}'); last++)
		;
	if (last >= v.n)
		goto out;
	for (first = brace; first > 0 && signature(&v, first - 1); first--)
		;
	if (first == brace)
		goto out;
	*start = (int) first + 1;
	*end = (int) last + 1;
	found = true;
out:
	free(v.at);
	free(v.len);
	return found;
}
