/* winnow — the code signal of similarity (similar.h): the lines two
 * findings quote, and the names of the code they speak of. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "../core/str.h"
#include "similar-private.h"
#include "winnow/buf.h"
#include "winnow/similar.h"
#include "winnow/text.h"

/* The kernel test robot quotes code as git blame does: "<commit>
 * <author> <YYYY-MM-DD> [@]<line>  <code>".  The length of that
 * prefix, or 0. */
static size_t blame_prefix(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n && wn_str_hex((unsigned char) s[i]) >= 0)
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
		if (wn_sim_add_word(&ws, &cap, b.data, b.len) != WN_OK) {
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
	return wn_sim_add_word(out, cap, word, n);
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
	wn_sim_make_set(out);
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
const char *wn_sim_fn_of(const char *loc)
{
	const char *sep = loc ? strchr(loc, '\x1f') : NULL;

	return sep && sep != loc && sep[1] ? sep + 1 : NULL;
}

/* Findings in two functions: a name each summary gives but the function
 * it sits in (naming its own place says nothing).  *conflict: both name
 * code and none of it is the same; *shared: some name is in both. */
void wn_sim_names_across(const wn_sim_side *a, const wn_sim_side *b, bool *conflict, bool *shared)
{
	const char *fa = wn_sim_fn_of(a->loc), *fb = wn_sim_fn_of(b->loc);
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
