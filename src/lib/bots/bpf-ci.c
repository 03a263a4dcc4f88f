/* winnow — the BPF CI reviewer (bot+bpf-ci@kernel.org).
 *
 * The body starts at "> diff --git" (older mails: a code fence and the
 * commit header first) and is the quoted-diff style of inline.c; the
 * footer after "---" asks the author to fix or reply and links the CI
 * run, and names the patch ("In-Reply-To-Subject: `subject`").  No
 * severities, no summary. */
#include "autoconfig.h"

#include <strings.h>

#include "bots.h"
#include "group.h"

/* bot+bpf-ci@kernel.org, at kernel.org or a host of it. */
static enum rv_claim sent_by(const struct rv_mail *m)
{
	return m->domain && wn_str_host_in(m->domain, "kernel.org") && m->local_n >= 10 &&
			       strncasecmp(m->local, "bot+bpf-ci", 10) == 0 ?
		       RV_MINE :
		       RV_NOT_MINE;
}

/* The footer: "---", then the request to fix or reply, "See:" and "CI
 * run summary:" links. */
static bool footer(const struct rv_lines *L, size_t i, size_t to)
{
	const char *t = L->v[i].s;
	size_t tn = L->v[i].n, k;

	wn_str_trim(&t, &tn);
	if (!wn_str_eq(t, tn, "---"))
		return false;
	for (k = i + 1; k < to && k <= i + 4; k++) {
		const struct rv_line *l = &L->v[k];

		if (wn_str_find_ci(l->s, l->n, "AI reviewed") ||
		    wn_str_prefix(l->s, l->n, "See:") ||
		    wn_str_prefix(l->s, l->n, "CI run summary:"))
			return true;
	}
	return false;
}

static void parse(struct rv_ctx *c, const struct rv_lines *L)
{
	struct rv_blocks blocks = { 0 };
	struct rv_inline_meta meta = { 0 };
	struct rv_inline_opts o = { .footer = footer };
	size_t i;

	wn_rv_inline_walk(c, L, 0, L->n, &o, &blocks, &meta);
	/* The footer's "In-Reply-To-Subject:" may come after the point
	 * where the walk stopped. */
	for (i = 0; !meta.irt_subject && i < L->n; i++)
		if (wn_str_prefix_ci(L->v[i].s, L->v[i].n, "In-Reply-To-Subject:"))
			meta.irt_subject = &L->v[i];
	if (meta.irt_subject) {
		const char *s = meta.irt_subject->s + 20;
		size_t n = meta.irt_subject->n - 20;

		wn_str_trim(&s, &n);
		/* `subject` in backticks, sometimes quotes */
		while (n && (s[0] == '`' || s[0] == '"' || s[0] == '\'')) {
			s++;
			n--;
		}
		while (n && (s[n - 1] == '`' || s[n - 1] == '"' || s[n - 1] == '\''))
			n--;
		wn_str_trim(&s, &n);
		if (n)
			c->r->patch_subject = wn_rv_oneline(c, s, n, RV_NO_CUT);
	}
	wn_rv_blocks_group(c, &blocks, WN_SEV_NONE, false);
	wn_rv_place_unquoted(c);
	if (!c->r->nfindings)
		wn_rv_explain(c, L->n ? "BPF CI review without comments after quoted code" :
					"empty BPF CI mail");
	wn_rv_blocks_free(&blocks);
}

const struct rv_bot wn_rv_bot_BPF_CI = {
	.sender = "bot+bpf-ci@kernel.org",
	.sent_by = sent_by,
	.parse = parse,
	.query = "from:bot+bpf-ci@kernel.org",
	.link_marker = "CI run summary:",
};
