/* winnow test build — the fake bot of -DWN_TEST_FAKE_ENTRIES
 * (WN_BOT_LIST in include/winnow/review.h).  It claims no mail (no
 * sent_by, no looks_like): it exists so that tests/tui/fake-entries.sh
 * can check every list of bots names a bot added by HACKING's recipe. */
#include "autoconfig.h"

#include "bots.h"
#include "build.h"

static void parse(struct rv_ctx *c, const struct rv_lines *L)
{
	(void) L;
	wn_rv_explain(c, "the fake bot of the test build reads nothing");
}

const struct rv_bot wn_rv_bot_FAKEBOT = {
	.sender = "nobody (the test build's fake bot)",
	.parse = parse,
};
