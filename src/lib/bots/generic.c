/* winnow — unknown bots: the senders the user lists in winnow.bots, and
 * any mail the query matched that no bot claims.  Each unquoted block
 * after quoted text is a finding (the quoted-diff style of inline.c). */
#include "autoconfig.h"

#include <strings.h>

#include "bots.h"
#include "inline.h"

/* A sender listed in winnow.bots.  Asked last of all: the user's list
 * does not hide a known bot's format (a maintainer listed there who
 * passes on a netdev AI review is read as netdev). */
static bool looks_like(const struct rv_mail *m)
{
	const char *const *s;

	for (s = m->generic_senders; s && *s; s++)
		if (**s && strcasecmp(*s, m->from) == 0)
			return true;
	return false;
}

static void parse(struct rv_ctx *c, const struct rv_lines *L)
{
	struct rv_blocks blocks = { 0 };

	wn_rv_inline_walk(c, L, 0, L->n, NULL, &blocks, NULL);
	wn_rv_blocks_to_findings(c, &blocks, WN_SEV_NONE, false);
	if (!c->r->nfindings)
		wn_rv_explain(
			c,
			"read with the generic rule (a sender from winnow.bots, or no known bot): "
			"no unquoted comment follows quoted text");
	wn_rv_blocks_free(&blocks);
}

const struct rv_bot wn_rv_bot_GENERIC = {
	.sender = "the senders of winnow.bots",
	.looks_like = looks_like,
	.parse = parse,
};
