/* winnow — Sashiko reviews: summary, inline comments, footer link.
 *
 *   Thank you ...! Sashiko AI review found N potential issue(s) to consider:
 *   [New issues: | Pre-existing issues:]
 *   - [Severity] text, maybe wrapped
 *   --
 *   --- Patch [N]: subject ---        (newer mails)
 *   commit ... / quoted diff with comments below the code
 *   --
 *   Sashiko AI review · https://sashiko.dev/#/patchset/<cover-id>?part=N
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "bots.h"
#include "free-form.h"
#include "group.h"
#include "summary.h"

/* sashiko-bot@kernel.org and its relatives: "sashiko" in the local
 * part, at kernel.org or a host of it. */
static enum rv_claim sent_by(const struct rv_mail *m)
{
	return m->domain && wn_str_host_in(m->domain, "kernel.org") &&
			       wn_str_find(m->local, m->local_n, "sashiko") ?
		       RV_MINE :
		       RV_NOT_MINE;
}

static bool has_at(const wn_buf *b)
{
	return b->len && (memchr(b->data, '@', b->len) || wn_str_find_ci(b->data, b->len, "%40"));
}

/* A footer URL broken over lines continues on the next line when that
 * line is one unbroken word and the Message-ID is still incomplete. */
static bool url_continues(const struct rv_line *next, const wn_buf *sofar)
{
	if (!next->n || next->s[0] == ' ' || next->s[0] == '\t' || memchr(next->s, ' ', next->n))
		return false;
	return !has_at(sofar) || wn_str_find(next->s, next->n, "part=");
}

static void footer(struct rv_ctx *c, const struct rv_lines *L, size_t from)
{
	wn_buf id = WN_BUF_INIT, q = WN_BUF_INIT;
	size_t li, k = 0, i;
	const char *p = NULL;
	bool query = false;
	long part;

	/* The footer is at the end: search backwards. */
	for (li = L->n; li > from; li--) {
		const struct rv_line *l = &L->v[li - 1];
		const char *d = wn_str_find_ci(l->s, l->n, "sashiko.dev");

		if (d && (p = wn_str_find(d, l->n - (size_t) (d - l->s), "/patchset/")) &&
		    p - d < 24)
			break;
		p = NULL;
	}
	if (!p)
		return;
	li--;
	k = (size_t) (p - L->v[li].s) + 10;
	for (;;) {
		const struct rv_line *l = &L->v[li];
		size_t run = k; /* bytes from here on go where the last did */
		bool stop = false;

		/* Each run of bytes bound for one buffer is put at once: a
		 * put per byte was a tenth of a Sashiko review's parse. */
		for (; k < l->n; k++) {
			char ch = l->s[k];

			if (ch == ' ' || ch == '\t') {
				stop = true;
				break;
			}
			if (!query && (ch == '?' || ch == '#' || ch == '&')) {
				wn_rv_put(c, &id, l->s + run, k - run);
				run = k;
				query = true;
			}
		}
		wn_rv_put(c, query ? &q : &id, l->s + run, k - run);
		if (stop || li + 1 >= L->n || !url_continues(&L->v[li + 1], &id))
			break;
		li++;
		k = 0;
	}
	if (!c->oom && id.len)
		c->r->cover_id = wn_rv_msgid(c, id.data, id.len);
	p = q.len ? wn_str_find(q.data, q.len, "part=") : NULL;
	if (p) {
		i = (size_t) (p - q.data) + 5;
		if (wn_str_num(q.data, q.len, &i, &part))
			c->r->part = (int) part;
	}
	wn_buf_free(&id);
	wn_buf_free(&q);
}

/* "--- Patch [N]: SUBJECT ---" */
static void patch_subject(struct rv_ctx *c, const struct rv_line *l)
{
	const char *s = l->s, *p;
	size_t n = l->n;

	wn_str_trim(&s, &n);
	p = wn_str_find(s, n, "]:");
	if (!p)
		return;
	n -= (size_t) (p + 2 - s);
	s = p + 2;
	wn_str_trim(&s, &n);
	if (n >= 3 && wn_str_eq(s + n - 3, 3, "---"))
		n -= 3;
	wn_str_trim(&s, &n);
	if (n)
		c->r->patch_subject = wn_rv_oneline(c, s, n, RV_NO_CUT);
}

static bool no_issues_prose(const struct rv_lines *L)
{
	static const char *const pats[] = {
		"no issues", "found no ", "no potential issue", "did not find any",
		"didn't find any", "no regressions", "no problems found",
	};
	size_t i, k;

	for (i = 0; i < L->n; i++)
		for (k = 0; k < sizeof(pats) / sizeof(pats[0]); k++)
			if (wn_str_find_ci(L->v[i].s, L->v[i].n, pats[k]))
				return true;
	return false;
}

static void parse(struct rv_ctx *c, const struct rv_lines *L)
{
	struct rv_summary sum;
	struct rv_blocks blocks = { 0 };
	struct rv_inline_meta meta = { 0 };
	size_t clean = 0, i;
	bool prose = false;

	wn_rv_summary_parse(c, L, 0, L->n, &sum);
	c->r->declared = sum.declared;
	wn_rv_inline_walk(c, L, sum.found ? sum.end : 0, L->n, NULL, &blocks, &meta);
	/* A free-form review quotes no code: its tagged blocks name their
	 * place in words, and without tags its paragraphs are the text. */
	if (wn_rv_free_form(L, sum.found ? sum.end : 0, L->n)) {
		for (i = 0; i < blocks.n; i++)
			wn_rv_prose_place(c, &blocks.v[i]);
		if (!blocks.n) {
			wn_rv_prose_blocks(c, L, sum.found ? sum.end : 0, L->n, &blocks);
			prose = true;
		}
	}
	if (meta.patch_line)
		patch_subject(c, meta.patch_line);
	footer(c, L, sum.found ? sum.end : 0);
	if (!sum.found || !sum.n)
		clean = wn_rv_blocks_drop_clean(&blocks);
	if (sum.found && sum.n && prose)
		wn_rv_summary_attach_prose(c, &sum, &blocks);
	else if (sum.found && sum.n)
		wn_rv_summary_attach(c, &sum, &blocks);
	else if (!sum.found || sum.declared != 0)
		/* Older mails without a summary: every comment is a finding,
		 * and Sashiko prints a missing severity as "Unknown".  A
		 * summary whose entries could not be read leaves the same:
		 * the comments, rather than nothing. */
		wn_rv_blocks_group(c, &blocks, WN_SEV_UNKNOWN, true);
	wn_rv_place_unquoted(c);
	if (!c->r->nfindings) {
		if (sum.found && sum.declared > 0)
			wn_rv_explain(
				c, "Sashiko summary announces %d issue%s but no entries were found",
				sum.declared, sum.declared == 1 ? "" : "s");
		else if ((sum.found && sum.declared == 0) || clean || no_issues_prose(L))
			wn_rv_explain(c, "Sashiko found no issues");
		else if (!L->n)
			wn_rv_explain(c, "empty Sashiko mail");
		else
			wn_rv_explain(
				c, "Sashiko mail without a \"found N potential issue(s)\" summary "
				   "and without comments after quoted code");
	}
	wn_rv_summary_free(&sum);
	wn_rv_blocks_free(&blocks);
}

const struct rv_bot wn_rv_bot_SASHIKO = {
	.sender = "sashiko-bot@kernel.org",
	.sent_by = sent_by,
	.parse = parse,
	.query = "from:sashiko-bot@kernel.org",
	.link_marker = "AI review", /* "Sashiko AI review · https://..." */
};
