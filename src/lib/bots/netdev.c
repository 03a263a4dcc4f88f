/* winnow — netdev AI reviews: reviews made with an AI tool and sent by
 * a netdev maintainer from their own address.
 *
 *   This is an AI-generated review of your patch. ...
 *   header lines, human notes
 *   ---
 *   the review in the quoted-diff style (inline.c), maybe with a
 *   Sashiko "found N" summary (summary.c), maybe "pw-bot: <state>"
 *
 * No sender names them: the opening sentence does. */
#include "autoconfig.h"

#include "bots.h"
#include "summary.h"

static bool ai_review_in(const char *s, size_t n)
{
	return str_find_ci(s, n, "AI-generated review") || str_find_ci(s, n, "AI generated review");
}

/* Does the body open with the intro sentence ("This is an AI-generated
 * review of your patch.")?  Only the first non-empty line counts (its
 * end may wrap onto the second), and only unquoted: a human reply
 * quoting such a review is not one. */
static bool looks_like(const struct rv_mail *rm)
{
	const wn_mail *m = rm->m;
	struct rv_line first = { NULL, 0 }, l;
	size_t pos = 0;

	while (m->body && str_next_line(m->body, m->body_len, &pos, &l.s, &l.n)) {
		if (str_blank(l.s, l.n))
			continue;
		if (l.s[0] == '>')
			return false;
		if (!first.s) {
			first = l;
			if (ai_review_in(l.s, l.n))
				return true;
			continue;
		}
		/* "... an AI-generated\nreview of your patch" */
		str_trim(&l.s, &l.n);
		{
			const char *t = first.s;
			size_t tn = first.n, cut;

			str_trim(&t, &tn);
			cut = tn > 20 ? tn - 20 : 0;
			return (str_find_ci(t + cut, tn - cut, "AI-generated") ||
				str_find_ci(t + cut, tn - cut, "AI generated")) &&
			       str_prefix_ci(l.s, l.n, "review");
		}
	}
	return false;
}

static void parse(struct rv_ctx *c, const struct rv_lines *L)
{
	struct rv_summary sum;
	struct rv_blocks blocks = { 0 };
	size_t i, start = 0;

	for (i = 0; i < L->n && i < 80; i++) {
		const char *t = L->v[i].s;
		size_t tn = L->v[i].n;

		if (tn && t[0] == '>')
			break;
		str_trim(&t, &tn);
		if (str_eq(t, tn, "---")) {
			start = i + 1;
			break;
		}
	}
	rv_summary_parse(c, L, start, L->n, &sum);
	c->r->declared = sum.declared;
	rv_inline_walk(c, L, sum.found ? sum.end : start, L->n, NULL, &blocks, NULL);
	if (sum.found && sum.n)
		rv_summary_attach(c, &sum, &blocks);
	else
		rv_blocks_to_findings(c, &blocks, WN_SEV_NONE, true);
	if (!c->r->nfindings)
		rv_explain(c, "netdev AI review without comments after quoted code");
	rv_summary_free(&sum);
	rv_blocks_free(&blocks);
}

const struct rv_bot rv_bot_NETDEV_AI = {
	.looks_like = looks_like,
	.parse = parse,
	.query = "\"AI-generated review\"",
};
