/* winnow — netdev AI reviews: reviews made with an AI tool and passed on
 * by a netdev maintainer from their own address.
 *
 *   [a line of the maintainer's own: "In case you need to respin..."]
 *   [From: the patch author, for git send-email]
 *   This is an AI-generated review of your patch. The human sending this
 *   email has considered the AI review valid, or at least plausible.
 *   header lines (a link to the full review, "For local reproduction
 *   steps see ..."), the maintainer's notes
 *   ---
 *   the review in the quoted-diff style (inline.c), maybe with a
 *   Sashiko "found N" summary (summary.c), maybe "pw-bot: <state>"
 *
 * No sender names them: the opening sentence does, wherever it stands in
 * the first lines, typos and other second sentences ('email says
 * "FYI"') included.  The maintainer's own lines are the review's note. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "bots.h"
#include "group.h"
#include "summary.h"

/* How far into the mail the opening may stand (unquoted, non-blank
 * lines). */
#define INTRO_LINES 16

/* Is a within two edits of b (both lower case)?  Short words only. */
static bool near(const char *a, size_t an, const char *b)
{
	size_t bn = strlen(b), i, j;
	unsigned d[24], prev, tmp;

	if (an > 20 || bn > 20 || (an > bn ? an - bn : bn - an) > 2)
		return false;
	for (j = 0; j <= bn; j++)
		d[j] = (unsigned) j;
	for (i = 1; i <= an; i++) {
		prev = d[0];
		d[0] = (unsigned) i;
		for (j = 1; j <= bn; j++) {
			unsigned best = prev + (a[i - 1] != b[j - 1]);

			if (d[j] + 1 < best)
				best = d[j] + 1;
			if (d[j - 1] + 1 < best)
				best = d[j - 1] + 1;
			tmp = d[j];
			d[j] = best;
			prev = tmp;
		}
	}
	return d[bn] <= 2;
}

/* The next word of s at *i: letters only, lower-cased into w. */
static size_t word(const char *s, size_t n, size_t *i, char *w, size_t cap)
{
	size_t k = 0;

	while (*i < n && !((s[*i] | 0x20) >= 'a' && (s[*i] | 0x20) <= 'z'))
		(*i)++;
	while (*i < n && (s[*i] | 0x20) >= 'a' && (s[*i] | 0x20) <= 'z') {
		if (k + 1 < cap)
			w[k++] = (char) (s[*i] | 0x20);
		(*i)++;
	}
	w[k] = '\0';
	return k;
}

#define WORDS 4

/* "AI-generated review of", typos forgiven ("AI-genereted reivew of"),
 * or the second sentence's "human sending this email".  A mention of
 * "the AI-generated review you sent" is no opening. */
static bool intro_in(const char *s, size_t n)
{
	char w[WORDS][24];
	size_t i = 0, len[WORDS] = { 0 };

	if (wn_str_find_ci(s, n, "human sending this email"))
		return true;
	for (;;) {
		memmove(w[0], w[1], sizeof(w[0]) * (WORDS - 1));
		memmove(len, len + 1, sizeof(len[0]) * (WORDS - 1));
		len[WORDS - 1] = word(s, n, &i, w[WORDS - 1], sizeof(w[0]));
		if (!len[WORDS - 1])
			return false;
		if (len[0] == 2 && strcmp(w[0], "ai") == 0 && near(w[1], len[1], "generated") &&
		    near(w[2], len[2], "review") && strcmp(w[3], "of") == 0)
			return true;
	}
}

/* The opening in line l, or begun in l and wrapped onto next (an
 * unquoted line): one found wholly in next is next's. */
static bool intro_at(const struct rv_line *l, const struct rv_line *next)
{
	char buf[512];
	size_t n = l->n < 300 ? l->n : 300, k;

	if (intro_in(l->s, l->n))
		return true;
	if (!next || !next->n || next->s[0] == '>' || intro_in(next->s, next->n))
		return false;
	k = next->n < sizeof(buf) - n - 1 ? next->n : sizeof(buf) - n - 1;
	memcpy(buf, l->s, n);
	buf[n++] = ' ';
	memcpy(buf + n, next->s, k);
	return intro_in(buf, n + k);
}

/* The opening among the first lines of the body, before any quoted
 * line (a human reply quoting such a review is not one) or the "---"
 * that starts the review.  Its index, or SIZE_MAX. */
static size_t intro_line(const struct rv_lines *L)
{
	size_t i, seen = 0;

	for (i = 0; i < L->n && seen < INTRO_LINES; i++) {
		const struct rv_line *l = &L->v[i];

		if (wn_str_blank(l->s, l->n))
			continue;
		if (l->s[0] == '>' || wn_str_eq(l->s, l->n, "---"))
			break;
		seen++;
		if (intro_at(l, i + 1 < L->n ? &L->v[i + 1] : NULL))
			return i;
	}
	return SIZE_MAX;
}

static bool looks_like(const struct rv_mail *rm)
{
	struct rv_lines L;
	bool yes;

	if (wn_rv_lines_read(rm->m->body, rm->m->body_len, &L) != WN_OK)
		return false;
	yes = intro_line(&L) != SIZE_MAX;
	wn_rv_lines_free(&L);
	return yes;
}

/* Lines the maintainer did not write: an in-body "From:" for git
 * send-email, a link, "For local reproduction steps see ...". */
static bool boilerplate(const char *t, size_t tn)
{
	return wn_str_prefix(t, tn, "From:") || wn_str_prefix_ci(t, tn, "http") ||
	       wn_str_prefix_ci(t, tn, "For local reproduction") ||
	       wn_str_prefix_ci(t, tn, "Link:") || wn_str_find_ci(t, tn, "full review") ||
	       wn_str_find_ci(t, tn, "review at http");
}

/* The standard second sentence, typos aside: "The human sending this
 * email has considered the AI review valid, or at least plausible." */
static bool standard_second(const char *s, size_t n)
{
	return n < 120 && wn_str_find_ci(s, n, "considered") && wn_str_find_ci(s, n, "plausible");
}

static void put_note(struct rv_ctx *c, wn_buf *b, const char *s, size_t n, bool para)
{
	if (b->len)
		wn_rv_put(c, b, para ? "\n\n" : "\n", para ? 2 : 1);
	wn_rv_put(c, b, s, n);
}

/* The opening paragraph from line intro: its first sentence is the
 * tool's; a second sentence other than the standard one ('... says
 * "FYI"', a longer comment) is the maintainer's, and so the note's.
 * Returns the line after the paragraph. */
static size_t opening(struct rv_ctx *c, const struct rv_lines *L, size_t intro, size_t end,
		      wn_buf *out)
{
	wn_buf p = WN_BUF_INIT;
	size_t i;
	const char *rest = NULL, *dot;
	size_t rn = 0;

	for (i = intro; i < end; i++) {
		const char *t = L->v[i].s;
		size_t tn = L->v[i].n;

		wn_str_trim(&t, &tn);
		if (!tn || (i > intro && boilerplate(t, tn)))
			break;
		put_note(c, &p, t, tn, false);
	}
	if (p.len) {
		for (dot = p.data; (dot = memchr(dot, '.', p.len - (size_t) (dot - p.data))); dot++)
			if ((size_t) (dot - p.data) + 1 >= p.len || str_space((unsigned char) dot[1]))
				break;
		if (dot) {
			rest = dot + 1;
			rn = p.len - (size_t) (rest - p.data);
			wn_str_trim(&rest, &rn);
		}
		if (rn && !standard_second(rest, rn)) {
			char *one = wn_rv_oneline(c, rest, rn, RV_NO_CUT);

			if (one)
				put_note(c, out, one, strlen(one), out->len > 0);
			free(one);
		}
	}
	wn_buf_free(&p);
	return i;
}

/* The maintainer's own lines before "---" (or the quoted text): all but
 * the tool's opening and the boilerplate. */
static void note(struct rv_ctx *c, const struct rv_lines *L, size_t intro, size_t end)
{
	wn_buf b = WN_BUF_INIT;
	bool blank = false;
	size_t i;

	for (i = 0; i < end; i++) {
		const char *t = L->v[i].s;
		size_t tn = L->v[i].n;

		wn_str_trim(&t, &tn);
		if (i == intro) {
			i = opening(c, L, intro, end, &b) - 1;
			blank = true;
			continue;
		}
		if (!tn) {
			blank = b.len > 0;
			continue;
		}
		if (boilerplate(t, tn))
			continue;
		put_note(c, &b, t, tn, blank);
		blank = false;
	}
	c->r->note = wn_rv_take(c, &b);
}

static void parse(struct rv_ctx *c, const struct rv_lines *L)
{
	struct rv_summary sum;
	struct rv_blocks blocks = { 0 };
	size_t i, start = 0, end = 0, intro = intro_line(L);

	for (i = 0; i < L->n && i < 80; i++) {
		const char *t = L->v[i].s;
		size_t tn = L->v[i].n;

		if (tn && t[0] == '>')
			break;
		wn_str_trim(&t, &tn);
		if (wn_str_eq(t, tn, "---")) {
			start = i + 1;
			break;
		}
	}
	end = start ? start - 1 : (intro != SIZE_MAX ? i : 0);
	if (intro != SIZE_MAX)
		note(c, L, intro, end);
	wn_rv_summary_parse(c, L, start, L->n, &sum);
	c->r->declared = sum.declared;
	wn_rv_inline_walk(c, L, sum.found ? sum.end : start, L->n, NULL, &blocks, NULL);
	if (sum.found && sum.n)
		wn_rv_summary_attach(c, &sum, &blocks);
	else
		wn_rv_blocks_group(c, &blocks, WN_SEV_NONE, true);
	wn_rv_place_unquoted(c);
	if (!c->r->nfindings)
		wn_rv_explain(c, "netdev AI review without comments after quoted code");
	wn_rv_summary_free(&sum);
	wn_rv_blocks_free(&blocks);
}

const struct rv_bot wn_rv_bot_NETDEV_AI = {
	.sender = "netdev's \"AI-generated review\" mails",
	.looks_like = looks_like,
	.parse = parse,
	.query = "(\"AI-generated review\" or \"human sending this email\")",
	.link_marker = "full review",
	.passed_on = true,
};
