/* winnow — Sashiko's free-form reviews: see free-form.h.
 *
 *   Thank you ...! Sashiko AI review found N potential issue(s) ...
 *   - [Severity] entries
 *   --
 *   (Note: The format of this report is altered to a free-form summary
 *   due to recitation restrictions. No direct code quoting is used.)
 *   commit <sha> / Author: / subject / "This commit ..." description
 *   [Severity: X]                    (some mails; others have none)
 *   In fs/x.c:func(), ... one or more paragraphs per issue
 *   --
 *   Sashiko AI review · https://sashiko.dev/...
 *
 * Without quoted code the walk of inline.c finds nothing to hang a
 * comment on: the paragraphs are the comments, and they name their
 * place in words ("In fs/x.c:func()", "func() within fs/x.c"). */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "free-form.h"

bool wn_rv_free_form(const struct rv_lines *L, size_t from, size_t to)
{
	return wn_rv_phrase_lines(L, from, to, "recitation restrictions") ||
	       wn_rv_phrase_lines(L, from, to, "free form summary");
}

/* ---- the place a paragraph names ---- */

static bool path_char(int ch)
{
	return str_ident_char(ch) || ch == '/' || ch == '.' || ch == '-' || ch == '+';
}

/* A source path at s[*i..]: "fs/btrfs/ioctl.c" (a '/' in it, a source
 * file's suffix, no URL).  *i moves past the token either way. */
static bool path_at(const char *s, size_t n, size_t *i, size_t *start, size_t *len)
{
	static const char *const suffix[] = { ".c", ".h", ".rs", ".S" };
	size_t b = *i, e, k;

	while (*i < n && path_char((unsigned char) s[*i]))
		(*i)++;
	e = *i;
	while (e > b && s[e - 1] == '.')
		e--;
	if (e - b < 4 || !memchr(s + b, '/', e - b) || wn_str_find(s + b, e - b, "//"))
		return false;
	for (k = 0; k < sizeof(suffix) / sizeof(suffix[0]); k++) {
		size_t sn = strlen(suffix[k]);

		if (e - b > sn && memcmp(s + e - sn, suffix[k], sn) == 0) {
			*start = b;
			*len = e - b;
			return true;
		}
	}
	return false;
}

/* The identifier that ends just before s[p] (an opening "()"). */
static size_t ident_before(const char *s, size_t p, size_t *start)
{
	size_t b = p;

	while (b > 0 && str_ident_char((unsigned char) s[b - 1]))
		b--;
	if (b == p || (s[b] >= '0' && s[b] <= '9'))
		return 0;
	*start = b;
	return p - b;
}

/* A function as prose names it, "name()", at or after s[from]; the
 * first, or with last the last one before s[to]. */
static size_t call_in(const char *s, size_t from, size_t to, bool last, size_t *start)
{
	size_t i, b, len, got = 0;

	for (i = from; i + 1 < to; i++) {
		if (s[i] != '(' || s[i + 1] != ')' || !(len = ident_before(s, i, &b)) || b < from)
			continue;
		*start = b;
		got = len;
		if (!last)
			break;
	}
	return got;
}

/* Nearer than this (bytes) a function named before the path is the
 * one the path holds ("func() in fs/x.c"). */
#define NEAR 80

void wn_rv_prose_place(struct rv_ctx *c, struct rv_block *k)
{
	const char *s = k->comment;
	size_t n = s ? strlen(s) : 0, i = 0, pb = 0, pn = 0, fb = 0, fn = 0;
	bool path = false;

	if (!n || k->quote || k->file)
		return;
	while (i < n && !path) {
		while (i < n && !path_char((unsigned char) s[i]))
			i++;
		path = path_at(s, n, &i, &pb, &pn);
	}
	if (path && pb + pn + 1 < n && s[pb + pn] == ':')
		/* "fs/x.c:func()" */
		fn = call_in(s, pb + pn + 1, n, false, &fb);
	if (path && fn && fb != pb + pn + 1)
		fn = 0;
	if (path && !fn)
		fn = call_in(s, pb > NEAR ? pb - NEAR : 0, pb, true, &fb);
	if (!fn)
		fn = call_in(s, 0, n, false, &fb);
	if (!path && !fn)
		return;
	k->about_commit_msg = false;
	if (path)
		k->file = wn_rv_dup(c, s + pb, pn);
	/* A quoted hunk header ("@@ ... @@ foo_probe(") named the function
	 * already: what the code says wins over a call the prose names
	 * (and the header's copy is not dropped on the floor). */
	if (fn && !k->function)
		k->function = wn_rv_dup(c, s + fb, fn);
}

/* ---- the paragraphs ---- */

/* The commit's header lines and the patch line. */
static bool header_line(const char *t, size_t tn)
{
	return wn_rv_commit_line(t, tn) || wn_str_prefix(t, tn, "--- Patch [") ||
	       wn_str_prefix(t, tn, "Author:") || wn_str_prefix(t, tn, "Subject:") ||
	       wn_str_prefix(t, tn, "Date:");
}

/* How the commit's own description opens. */
static bool describes_commit(const char *t, size_t tn)
{
	static const char *const open[] = {
		"This commit", "This patch", "This change", "The commit", "The patch",
	};
	size_t k;

	for (k = 0; k < sizeof(open) / sizeof(open[0]); k++)
		if (wn_str_prefix_ci(t, tn, open[k]))
			return true;
	return false;
}

/* Paragraph [a, b) of L as one issue's text, or not. kept: paragraphs
 * kept before it. */
static bool issue_paragraph(const struct rv_lines *L, size_t a, size_t b, size_t kept)
{
	const char *t = L->v[a].s, *e = L->v[b - 1].s;
	size_t tn = L->v[a].n, en = L->v[b - 1].n;

	wn_str_trim(&t, &tn);
	wn_str_trim(&e, &en);
	if (header_line(t, tn) || wn_rv_free_form(L, a, b))
		return false;
	if (kept)
		return true;
	/* Before the first issue: the commit's subject (one line, no
	 * sentence) and its description. */
	if (describes_commit(t, tn))
		return false;
	return !(b == a + 1 && en && !strchr(".?!:", e[en - 1]));
}

static void paragraph(struct rv_ctx *c, const struct rv_lines *L, size_t a, size_t b,
		      struct rv_blocks *out)
{
	struct rv_block k;
	wn_buf text = WN_BUF_INIT;
	size_t i;

	memset(&k, 0, sizeof(k));
	for (i = a; i < b; i++) {
		const char *s = L->v[i].s;
		size_t n = L->v[i].n;

		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (i > a)
			wn_rv_put(c, &text, "\n", 1);
		wn_rv_put(c, &text, s, n);
	}
	k.order = a;
	k.comment = wn_rv_take(c, &text);
	wn_rv_prose_place(c, &k);
	wn_rv_blocks_push(c, out, &k);
}

void wn_rv_prose_blocks(struct rv_ctx *c, const struct rv_lines *L, size_t from, size_t to,
			struct rv_blocks *out)
{
	size_t i, a = SIZE_MAX, kept = 0;

	if (to > L->n)
		to = L->n;
	for (i = from; i <= to && !c->oom; i++) {
		const struct rv_line *l = i < to ? &L->v[i] : NULL;
		bool end = !l || wn_str_eq(l->s, l->n, "-- ") || wn_str_eq(l->s, l->n, "--") ||
			   wn_str_find_ci(l->s, l->n, "sashiko.dev");

		if (!end && !wn_str_blank(l->s, l->n)) {
			if (a == SIZE_MAX)
				a = i;
			continue;
		}
		if (a != SIZE_MAX && issue_paragraph(L, a, i, kept)) {
			paragraph(c, L, a, i, out);
			kept++;
		}
		a = SIZE_MAX;
		if (end)
			break;
	}
}
