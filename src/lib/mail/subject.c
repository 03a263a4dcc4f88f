/* winnow — a mail's subject taken apart (subject.h): reply or not, patch
 * or not, which series, which version, which part, and the title every
 * version shares.
 *
 *	Re: [PATCH bpf-next v2 3/5] bpf: clamp the count
 *	[Intel-wired-lan] [RFC PATCH 1/2] ice: ...
 *	[PATCHv3 0/7] ...
 *	Aw: [PATCH net-next,v2 03/10] ...
 *	[PATCH/RFC] ...   [PATCH-next] ...   [PATCH 6.6.y v2 RESEND] ...
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "../core/str.h"
#include "winnow/buf.h"
#include "winnow/subject.h"
#include "winnow/text.h"

static bool word_is(const char *w, size_t n, const char *what)
{
	return n == strlen(what) && wn_str_prefix_ci(w, n, what);
}

/* "k/n" with both numbers. */
static bool part_of(const char *w, size_t n, int *k, int *total)
{
	size_t i = 0;
	long a, b;

	if (!wn_str_num(w, n, &i, &a) || i >= n || w[i] != '/')
		return false;
	i++;
	if (!wn_str_num(w, n, &i, &b) || i != n)
		return false;
	*k = (int) a;
	*total = (int) b;
	return true;
}

/* "v2", or the "v2" of "PATCHv2": the version. */
static bool version_of(const char *w, size_t n, int *v)
{
	size_t i = 1;
	long x;

	if (n > 5 && wn_str_prefix_ci(w, n, "patchv"))
		return version_of(w + 5, n - 5, v);
	if (n < 2 || (w[0] != 'v' && w[0] != 'V') || !wn_str_num(w, n, &i, &x) || i != n)
		return false;
	*v = (int) x;
	return true;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Words inside a group are split at blanks and commas ("[PATCH
 * net-next,v2 1/3]"), and at a slash that is not k/n's ("[PATCH/RFC]",
 * "[RFC/PATCH]"; "2/7" stays one word). */
static bool is_sep(const char *g, size_t n, size_t i)
{
	char c = g[i];

	if (c == '/')
		return !(i > 0 && is_digit(g[i - 1]) && i + 1 < n && is_digit(g[i + 1]));
	return c == ' ' || c == '\t' || c == ',';
}

/* The next word of g[0..n) from *i: *w, *len; false at the end. */
static bool next_word(const char *g, size_t n, size_t *i, const char **w, size_t *len)
{
	while (*i < n && is_sep(g, n, *i))
		(*i)++;
	*w = g + *i;
	for (*len = 0; *i < n && !is_sep(g, n, *i); (*i)++)
		(*len)++;
	return *len > 0;
}

/* "PATCH-next", "PATCH-stable": the word PATCH glued to a tree's name;
 * the length of the name after the dash, 0 when w is no such word. */
static size_t patch_dash(const char *w, size_t n)
{
	return n > 6 && wn_str_prefix_ci(w, n, "patch-") ? n - 6 : 0;
}

/* Does the group (between the brackets) name a patch? */
static bool patch_group(const char *g, size_t n)
{
	const char *w;
	size_t i = 0, len;
	int v;

	while (next_word(g, n, &i, &w, &len))
		if (word_is(w, len, "patch") || word_is(w, len, "rfc") ||
		    word_is(w, len, "patchset") || word_is(w, len, "patches") ||
		    patch_dash(w, len) ||
		    (wn_str_prefix_ci(w, len, "patchv") && version_of(w, len, &v)))
			return true;
	return false;
}

static void put_word(wn_buf *b, const char *w, size_t n, bool lower)
{
	if (!b)
		return;
	if (b->len)
		wn_buf_putc(b, ' ');
	for (size_t k = 0; k < n; k++)
		wn_buf_putc(b, lower ? (char) str_lower((unsigned char) w[k]) : w[k]);
}

/* A patch group's words into out: version, k/n, RFC and RESEND; the
 * other words, lower case, onto prefix, and those that are neither
 * PATCH nor a flag (the tree: "net-next", "6.6.y", the "next" of
 * "PATCH-next") onto tree, as written, when each is given (out of
 * memory stays in the buffer, wn_buf's sticky flag). */
static void take_group(const char *g, size_t n, wn_subject *out, wn_buf *prefix, wn_buf *tree)
{
	const char *w;
	size_t i = 0, wl, dash;

	while (next_word(g, n, &i, &w, &wl)) {
		bool glued = wn_str_prefix_ci(w, wl, "patchv") && version_of(w, wl, &out->version);

		/* "PATCHv2": the version, and the word PATCH. */
		if (glued)
			wl = 5;
		if (!glued && (version_of(w, wl, &out->version) || part_of(w, wl, &out->part, &out->total)))
			continue;
		put_word(prefix, w, wl, true);
		if (word_is(w, wl, "rfc"))
			out->rfc = true;
		else if (word_is(w, wl, "resend"))
			out->resend = true;
		else if ((dash = patch_dash(w, wl)))
			put_word(tree, w + wl - dash, dash, false);
		else if (!word_is(w, wl, "patch") && !word_is(w, wl, "patchset") && !word_is(w, wl, "patches"))
			put_word(tree, w, wl, false);
	}
}

/* The one walk over what comes before the title: reply markers, "Fwd:"
 * and bracket groups, in any order.  Sets out's reply, patch, version,
 * part, total, rfc and resend (out zeroed by the caller), the prefix
 * and tree words when those are given; returns where the title begins. */
static const char *walk(const char *s, wn_subject *out, wn_buf *prefix, wn_buf *tree)
{
	out->version = 1;
	for (;;) {
		const char *close;
		size_t m;

		while (*s == ' ' || *s == '\t')
			s++;
		if ((m = wn_text_reply_marker(s))) {
			out->reply = true;
			s += m;
		} else if (wn_text_prefix_ci(s, "fwd:")) {
			s += 4;
		} else if (*s == '[' && (close = strchr(s, ']'))) {
			size_t n = (size_t) (close - s - 1);

			if (patch_group(s + 1, n)) {
				out->patch = true;
				take_group(s + 1, n, out, prefix, tree);
			}
			s = close + 1;
		} else {
			return s;
		}
	}
}

wn_status wn_subject_parse(const char *subject, wn_subject *out)
{
	const char *s = subject ? subject : "";
	wn_buf prefix = WN_BUF_INIT, tree = WN_BUF_INIT;
	const char *title;
	wn_status st = WN_OK;

	memset(out, 0, sizeof(*out));
	title = walk(s, out, &prefix, &tree);
	if (wn_buf_status(&prefix) != WN_OK || wn_buf_status(&tree) != WN_OK)
		st = WN_NOMEM;
	else {
		out->prefix = prefix.len ? wn_buf_steal(&prefix) : strdup("");
		out->tree = tree.len ? wn_buf_steal(&tree) : strdup("");
		out->title = wn_text_normalize(title);
		out->title_at = (size_t) (title - s);
		if (!out->prefix || !out->tree || !out->title)
			st = WN_NOMEM;
	}
	wn_buf_free(&prefix);
	wn_buf_free(&tree);
	if (st != WN_OK)
		wn_subject_clear(out);
	return st;
}

void wn_subject_clear(wn_subject *s)
{
	free(s->prefix);
	free(s->tree);
	free(s->title);
	memset(s, 0, sizeof(*s));
}

wn_status wn_subject_posting_keys(const char *subject, char **key, char **title)
{
	wn_subject s;

	*key = *title = NULL;
	if (wn_subject_parse(subject, &s) != WN_OK)
		return WN_NOMEM;
	if (!s.reply) {
		*title = s.title;
		s.title = NULL;
		if (!(*key = wn_text_normalize(subject ? subject : ""))) {
			free(*title);
			*title = NULL;
			wn_subject_clear(&s);
			return WN_NOMEM;
		}
	}
	wn_subject_clear(&s);
	return WN_OK;
}

bool wn_subject_is_patch(const char *subject)
{
	wn_subject s = { 0 };

	walk(subject ? subject : "", &s, NULL, NULL);
	return s.patch && !s.reply;
}

int wn_subject_part(const char *subject)
{
	wn_subject s = { 0 };

	walk(subject ? subject : "", &s, NULL, NULL);
	return s.patch && !s.reply ? s.part : 0;
}
