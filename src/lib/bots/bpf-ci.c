/* winnow — the inline-style reviews that are not Sashiko's own: the BPF
 * CI reviewer, netdev AI reviews sent by maintainers, and unknown bots.
 * All of them are the quoted-diff walker with a different frame. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "bots.h"

void rv_blocks_free(struct rv_blocks *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		free(b->v[i].file);
		free(b->v[i].function);
		free(b->v[i].quote);
		free(b->v[i].comment);
	}
	free(b->v);
	memset(b, 0, sizeof(*b));
}

void rv_blocks_to_findings(struct rv_ctx *c, struct rv_blocks *b, wn_severity missing_sev,
			   bool prose_pre)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		struct rv_block *k = &b->v[i];
		wn_finding *f = rv_add(c, true);

		if (!f)
			return;
		f->severity = k->has_sev ? k->sev : missing_sev;
		f->preexisting = prose_pre && k->prose_preexisting;
		f->summary = rv_first_sentence(c, k->comment, strlen(k->comment));
		f->file = k->file;
		f->function = k->function;
		f->line = k->line;
		f->line_approx = k->line_approx;
		f->about_commit_msg = k->about_commit_msg;
		f->quote = k->quote;
		f->comment = k->comment;
		k->file = k->function = k->quote = k->comment = NULL;
	}
}

/* BPF CI: the body starts at "> diff --git" (older mails: a code fence
 * and the commit header first); the footer after "---" asks the author
 * to fix or reply and links the CI run.  No severities, no summary. */
void rv_parse_bpf_ci(struct rv_ctx *c, const struct rv_lines *L)
{
	struct rv_blocks blocks = { 0 };
	struct rv_inline_meta meta = { 0 };
	struct rv_inline_opts o = { .bpf_footer = true };
	size_t i;

	rv_inline_walk(c, L, 0, L->n, &o, &blocks, &meta);
	/* The footer's "In-Reply-To-Subject:" may come after the point
	 * where the walk stopped. */
	for (i = 0; !meta.irt_subject && i < L->n; i++)
		if (str_prefix_ci(L->v[i].s, L->v[i].n, "In-Reply-To-Subject:"))
			meta.irt_subject = &L->v[i];
	if (meta.irt_subject) {
		const char *s = meta.irt_subject->s + 20;
		size_t n = meta.irt_subject->n - 20;

		str_trim(&s, &n);
		/* `subject` in backticks, sometimes quotes */
		while (n && (s[0] == '`' || s[0] == '"' || s[0] == '\'')) {
			s++;
			n--;
		}
		while (n && (s[n - 1] == '`' || s[n - 1] == '"' || s[n - 1] == '\''))
			n--;
		str_trim(&s, &n);
		if (n)
			c->r->patch_subject = rv_oneline(c, s, n, RV_NO_CUT);
	}
	rv_blocks_to_findings(c, &blocks, WN_SEV_NONE, false);
	if (!c->r->nfindings)
		rv_explain(c, L->n ? "BPF CI review without comments after quoted code"
				   : "empty BPF CI mail");
	rv_blocks_free(&blocks);
}

/* netdev: "This is an AI-generated review of your patch. ...", header
 * lines, human notes, then "---" and the review in the inline style,
 * maybe with a Sashiko summary, maybe "pw-bot: <state>" at the end. */
void rv_parse_netdev(struct rv_ctx *c, const struct rv_lines *L)
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

/* Unknown bots (configured senders): each unquoted block after quoted
 * text is a finding. */
void rv_parse_generic(struct rv_ctx *c, const struct rv_lines *L)
{
	struct rv_blocks blocks = { 0 };

	rv_inline_walk(c, L, 0, L->n, NULL, &blocks, NULL);
	rv_blocks_to_findings(c, &blocks, WN_SEV_NONE, false);
	if (!c->r->nfindings)
		rv_explain(c, "read with the generic rule (a sender from winnow.bots, or no known bot): "
			   "no unquoted comment follows quoted text");
	rv_blocks_free(&blocks);
}
