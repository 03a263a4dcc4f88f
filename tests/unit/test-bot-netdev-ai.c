/* winnow — unit tests of the netdev AI reviews.
 *
 * A maintainer's mail that forwards an AI review: found by its opening
 * sentence, split below the "---" like a BPF CI mail, unless it carries
 * a Sashiko summary.  The whole mail is read from
 * tests/corpus/netdev-ai-unit/. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review-test.h"

static void test_detect_netdev(void **state)
{
	wn_bot b = WN_BOT_COUNT;

	(void) state;
	assert_true(detect("kuba@kernel.org", "Re: [PATCH net] x",
			   "\nThis is an AI-generated review of your patch. The human sending this\n"
			   "email has considered the AI review valid, or at least plausible.\n---\n",
			   NULL, &b));
	assert_int_equal(b, WN_BOT_NETDEV_AI);
	b = WN_BOT_COUNT;
	assert_true(detect("horms@kernel.org", "Re: [PATCH net] x",
			   "this is an ai-generated review of your patch.\n", NULL, &b));
	assert_int_equal(b, WN_BOT_NETDEV_AI);
	/* A human answering such a review quotes the intro: not a review. */
	assert_false(detect("dev@example.org", "Re: [PATCH net] x",
			    "On Mon, X wrote:\n> This is an AI-generated review of your patch.\n",
			    NULL, &b));
	/* Deep in the body does not count either. */
	assert_false(detect("dev@example.org", "Re: [PATCH] x",
			    "Hi,\n\nthanks.\n\nabout the AI-generated review you mentioned\n", NULL, &b));
}

static void test_netdev(void **state)
{
	wn_review *r = corpus_review(WN_BOT_NETDEV_AI,
				      "netdev-ai-unit/02-netdev-ai-review.eml");

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_true(F(r, 0)->about_commit_msg);
	assert_int_equal(F(r, 0)->severity, WN_SEV_NONE);
	assert_false(F(r, 0)->preexisting);
	assert_string_equal(F(r, 0)->summary, "Does this Fixes tag point to the correct commit?");
	assert_int_equal(F(r, 1)->severity, WN_SEV_HIGH);
	assert_true(F(r, 1)->preexisting);
	assert_string_equal(F(r, 1)->function, "mana_remove");
	assert_int_equal(F(r, 1)->line, 3101);
	assert_null(strstr(F(r, 1)->comment, "pw-bot"));
	wn_review_free(&r);
}

/* netdev mail carrying a Sashiko summary: the summary rules. */
static void test_netdev_with_summary(void **state)
{
	static const char body[] =
		"This is an AI-generated review of your patch.\n"
		"---\n"
		"Sashiko AI review found 1 potential issue(s) to consider:\n"
		"- [Medium] Trust revoke misses MAC filters added while trusted.\n"
		"--\n"
		"> diff --git a/i40e.c b/i40e.c\n"
		"> @@ -4987,19 +5004,20 @@ int i40e_ndo_set_vf_trust(struct net_device *netdev)\n"
		"> +\tif (!setting)\n"
		"\n"
		"[Medium]\n"
		"Does this revoke-trust heuristic miss MAC filters? This pre-existing issue ...\n";
	wn_review *r = parse(WN_BOT_NETDEV_AI, body);

	(void) state;
	assert_int_equal(r->declared, 1);
	assert_int_equal(r->nfindings, 1);
	assert_int_equal(F(r, 0)->severity, WN_SEV_MEDIUM);
	/* the summary is authoritative: no "Pre-existing issues:" heading */
	assert_false(F(r, 0)->preexisting);
	assert_string_equal(F(r, 0)->function, "i40e_ndo_set_vf_trust");
	assert_int_equal(F(r, 0)->line, 5004);
	wn_review_free(&r);
}

/* One problem walked through several hunks: a comment ending on a colon
 * leads into the code quoted after it, and the words below that code
 * finish its thought; so does a comment opening "Eventually, ...".  A
 * comment below code that does not follow a colon is its own. */
static void test_netdev_problem_across_hunks(void **state)
{
	static const char body[] =
		"This is an AI-generated review of your patch.\n"
		"---\n"
		"> diff --git a/net/foo/core.c b/net/foo/core.c\n"
		"> --- a/net/foo/core.c\n"
		"> +++ b/net/foo/core.c\n"
		"> @@ -20,6 +20,6 @@ int foo_size(int n)\n"
		"> +\tn = n ? roundup_pow_of_two(n) : 1;\n"
		"\n"
		"Can a negative n reach roundup_pow_of_two() here?\n"
		"\n"
		"A negative n becomes a huge unsigned value, and the checks below:\n"
		"\n"
		">  \tn = min(n, limit);\n"
		"\n"
		"would then not constrain it.\n"
		"\n"
		"[ ... ]\n"
		"\n"
		">  \treturn clamp(n << 1, lo, hi);\n"
		"\n"
		"Eventually, the shift of a negative n is undefined.  Would it be safer\n"
		"to check n <= 0 instead?\n"
		"\n"
		">  \tfoo_put(f);\n"
		"\n"
		"Is f freed twice on this path?\n";
	wn_review *r = parse(WN_BOT_NETDEV_AI, body);

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_string_equal(F(r, 0)->summary, "Can a negative n reach roundup_pow_of_two() here?");
	assert_contains(F(r, 0)->comment, "would then not constrain it.");
	assert_contains(F(r, 0)->comment, "Would it be safer");
	assert_string_equal(F(r, 1)->summary, "Is f freed twice on this path?");
	wn_review_free(&r);
}

/* The review, then one comment below one quoted line of x.c. */
static wn_review *one_comment(const char *comment)
{
	char body[4096];

	snprintf(body, sizeof(body),
		 "This is an AI-generated review of your patch. The human sending this\n"
		 "email has considered the AI review valid, or at least plausible.\n---\n"
		 "> diff --git a/x.c b/x.c\n> --- a/x.c\n> +++ b/x.c\n"
		 "> @@ -10,2 +10,3 @@ static int x_open(struct x *x)\n> +\tx_start(x);\n\n%s",
		 comment);
	return parse(WN_BOT_NETDEV_AI, body);
}

/* A comment that lists problems, each told whole in its paragraph (what
 * is wrong, then a question that closes it: "Should ...?", "Is that
 * intended?", "Would it be clearer ...?"), holds that many findings; a
 * paragraph leading into code with a colon is told whole with the code
 * and the words after it. */
static void test_netdev_list_of_problems(void **state)
{
	wn_review *r = one_comment(
		"On the error path x_start() has already set x->running, and nothing\n"
		"clears it before the return. Should the flag be cleared there?\n"
		"\n"
		"The x->lock is now taken before the allocation rather than after it,\n"
		"so a GFP_KERNEL allocation runs under a spinlock. Is that intended?\n"
		"\n"
		"The comment above the call:\n"
		"\n"
		"   /* x_start() is only called from x_probe() */\n"
		"\n"
		"leaves out the resume path, which calls it too. Would it be clearer to\n"
		"name both callers?\n"
		"\n"
		"Can x->nqueues be 0 here? The ethtool path accepts 0. Should x_open()\n"
		"reject it?\n");

	(void) state;
	assert_int_equal(r->nfindings, 4);
	assert_contains(F(r, 0)->summary, "x_start() has already set");
	assert_contains(F(r, 1)->summary, "x->lock is now taken");
	assert_string_equal(F(r, 2)->summary, "Would it be clearer to name both callers?");
	assert_contains(F(r, 2)->comment, "The comment above the call:");
	assert_string_equal(F(r, 3)->summary, "Can x->nqueues be 0 here?");
	wn_review_free(&r);
}

/* Several questions about one problem stay one finding: a question,
 * then the paragraphs explaining it; a paragraph answering a question
 * that asked what the code does ("Does this match ...?"); a follow-up
 * hanging on the one before ("If so, ..."); a follow-up that only asks
 * ("Would it be better to ...?"). */
static void test_netdev_one_problem_many_questions(void **state)
{
	static const char *const comments[] = {
		"Should x_stop() clear x->running?\n"
		"\n"
		"The only writer is x_start(), and x_stop() does not touch it. Is that\n"
		"intended?\n",
		"The commit message says x_open() now waits for the firmware. Does that\n"
		"match what this code does?\n"
		"\n"
		"The call here passes wait=false, so x_start() returns at once. Should\n"
		"the commit message or the call be changed?\n",
		"The reset work can run after x_close() freed the rings. Should\n"
		"x_close() cancel it first?\n"
		"\n"
		"If so, the work item re-arms itself on error. Should it check\n"
		"x->running before it re-arms?\n",
		"The reset work can run after x_close() freed the rings. Should\n"
		"x_close() cancel it first?\n"
		"\n"
		"Would it be better to use cancel_work_sync() here?\n",
	};

	(void) state;
	for (size_t k = 0; k < sizeof(comments) / sizeof(comments[0]); k++) {
		wn_review *r = one_comment(comments[k]);

		if (r->nfindings != 1)
			fail_msg("comment %zu: %zu findings", k, r->nfindings);
		wn_review_free(&r);
	}
}

/* An "Also, ..." paragraph that says what would go wrong raises a
 * problem of its own even when it names no defect and asks nothing;
 * one whose first words point back ("Also, this would ...") goes on
 * with the problem before, and so does one that only adds a fact. */
static void test_netdev_also_outcome(void **state)
{
	static const char first[] =
		"Is it safe to call x_stop() unconditionally here? The rings may not\n"
		"have been set up yet.\n\n";
	static const struct {
		const char *also;
		size_t findings;
	} cases[] = {
		{ "Also, since the \"if (n < 0)\" check was removed, x_get() returning\n"
		  "-EINVAL would be passed to x_set(), which takes an unsigned index.\n",
		  2 },
		{ "Also, this would leave x->users raised until the device goes away.\n", 1 },
		{ "Also, x_stop() is called from the resume path as well.\n", 1 },
	};
	char comment[1024];

	(void) state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		wn_review *r;

		snprintf(comment, sizeof(comment), "%s%s", first, cases[k].also);
		r = one_comment(comment);
		if (r->nfindings != cases[k].findings)
			fail_msg("case %zu: %zu findings", k, r->nfindings);
		if (cases[k].findings == 2)
			assert_contains(F(r, 1)->summary, "Also, since");
		wn_review_free(&r);
	}
}

/* The review passed on by any maintainer: the opening may follow a line
 * of their own or an in-body From:, have a typo, end in another second
 * sentence; the maintainer's words become the note, never a finding. */
static void test_netdev_variants(void **state)
{
	static const char *const openings[] = {
		"In case you need to respin, look at the NAPI part.\n\n"
		"This is an AI-generated review of your patch. The human sending this\n"
		"email has considered the AI review valid, or at least plausible.\n",
		"From: A Maintainer <a@example.org>\n\n"
		"This is an AI-genrated reveiw of your patch.\n",
		"This is an AI generated review of your\npatch. The human sending this email says \"FYI\".\n",
		"Some context first.\n\nthis is an ai-generated review of your patch, made with a tool.\n",
	};
	static const char *const notes[] = {
		"In case you need to respin, look at the NAPI part.",
		NULL,
		"The human sending this email says \"FYI\".",
		"Some context first.",
	};
	static const char review[] =
		"---\n"
		"> @@ -1,2 +1,3 @@ static int f(void)\n"
		"> +\tg();\n"
		"\n"
		"Is g() safe here?\n";
	char body[1024];

	(void) state;
	for (size_t k = 0; k < sizeof(openings) / sizeof(openings[0]); k++) {
		wn_bot b = WN_BOT_COUNT;
		wn_review *r;

		snprintf(body, sizeof(body), "%s%s", openings[k], review);
		if (!detect("someone@example.net", "Re: [PATCH net] x", body, NULL, &b) ||
		    b != WN_BOT_NETDEV_AI)
			fail_msg("opening %zu not recognised", k);
		r = parse(WN_BOT_NETDEV_AI, body);
		assert_int_equal(r->nfindings, 1);
		assert_string_equal(F(r, 0)->summary, "Is g() safe here?");
		if (notes[k])
			assert_string_equal(r->note, notes[k]);
		else
			assert_null(r->note);
		wn_review_free(&r);
	}
}

/* A comment that opens with context ending in ':' and quotes something
 * below it: the summary is the question asked after it, or else the
 * first sentence after the quoted block, not the lead-in. */
static void test_netdev_lead_in_summary(void **state)
{
	static const struct {
		/* before: the summary the old rule gave, which the
		 * fingerprint keeps hashing so no verdict given then is lost */
		const char *comment, *summary, *before;
	} cases[] = {
		{ "The old FOO_BTF had its own depends on lines:\n\n"
		  "    depends on BAR\n    depends on !BAZ\n\n"
		  "Should FOO_BTF depend on BAR as well? Without it the option can be\n"
		  "selected on configs that cannot build it.\n",
		  "Should FOO_BTF depend on BAR as well?",
		  "The old FOO_BTF had its own depends on lines:" },
		{ "The commit message says:\n\n"
		  "    \"The lock is always held here.\"\n\n"
		  "The caller in x_reset() drops it before calling in. Is the commit\n"
		  "message accurate?\n",
		  "Is the commit\nmessage accurate?", "The commit message says:" },
		{ "x_detach() begins with ASSERT_RTNL(), and this path reaches it from\n"
		  "the work item:\n"
		  "    x_work() -> x_detach()\n\n"
		  "The work item runs without RTNL held, so the assertion fires.\n",
		  "The work item runs without RTNL held, so the assertion fires.",
		  "x_detach() begins with ASSERT_RTNL(), and this path reaches it from the work item: "
		  "x_work() -> x_detach()" },
		/* a lead-in with nothing after it stays the summary */
		{ "Consider this sequence:\n\n    a();\n    b();\n", "Consider this sequence:",
		  "Consider this sequence:" },
		/* a colon inside a sentence is no lead-in */
		{ "Note: this leaks the buffer. Should it be freed?\n", "Note: this leaks the buffer.",
		  "Note: this leaks the buffer." },
	};
	char body[2048], fp[WN_FP_LEN + 1];

	(void) state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		wn_review *r;
		char *want = strdup(cases[k].summary);

		assert_non_null(want);
		for (char *p = want; *p; p++)
			if (*p == '\n')
				*p = ' ';
		snprintf(body, sizeof(body),
			 "This is an AI-generated review of your patch. The human sending this\n"
			 "email has considered the AI review valid, or at least plausible.\n"
			 "---\n> @@ -1,2 +1,3 @@ static int f(void)\n> +\tg();\n\n%s", cases[k].comment);
		r = parse(WN_BOT_NETDEV_AI, body);
		assert_int_equal(r->nfindings, 1);
		assert_string_equal(F(r, 0)->summary, want);
		wn_fingerprint(WN_BOT_NETDEV_AI, F(r, 0)->file, F(r, 0)->function, cases[k].before, fp);
		assert_string_equal(F(r, 0)->fingerprint, fp);
		/* the comment keeps the context */
		if (strstr(cases[k].comment, "    "))
			assert_non_null(strstr(F(r, 0)->comment, "    "));
		free(want);
		wn_review_free(&r);
	}
}

/* "[ ... hunks unrelated to the comments below ... ]" and other
 * bracketed "..." notes stand for elided text: never part of a finding. */
static void test_netdev_elision_notes(void **state)
{
	static const char *const notes[] = {
		"[ ... hunks unrelated to the comments below ... ]",
		"[ ... skip 40 lines ... ]",
		"[...snip...]",
		"[ \xe2\x80\xa6 rest of the function unchanged ]",
	};
	char body[2048];

	(void) state;
	for (size_t k = 0; k < sizeof(notes) / sizeof(notes[0]); k++) {
		wn_review *r;

		snprintf(body, sizeof(body),
			 "This is an AI-generated review of your patch. The human sending this\n"
			 "email has considered the AI review valid, or at least plausible.\n---\n"
			 "%s\n\n"
			 "> diff --git a/x.c b/x.c\n> --- a/x.c\n> +++ b/x.c\n"
			 "> @@ -10,2 +10,3 @@ static int f(void)\n> +\tg();\n\n"
			 "Is g() safe here?\n\n%s\n\n"
			 "> @@ -40,2 +41,3 @@ static int h(void)\n> +\tk();\n\n"
			 "Does k() leak the buffer?\n", notes[k], notes[k]);
		r = parse(WN_BOT_NETDEV_AI, body);
		assert_int_equal(r->nfindings, 2);
		assert_string_equal(F(r, 0)->summary, "Is g() safe here?");
		assert_string_equal(F(r, 0)->comment, "Is g() safe here?");
		assert_string_equal(F(r, 1)->summary, "Does k() leak the buffer?");
		assert_string_equal(F(r, 1)->comment, "Does k() leak the buffer?");
		assert_string_equal(F(r, 1)->function, "h");
		wn_review_free(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_netdev_variants),
		cmocka_unit_test(test_netdev_elision_notes),
		cmocka_unit_test(test_netdev_lead_in_summary),
		cmocka_unit_test(test_detect_netdev),
		cmocka_unit_test(test_netdev),
		cmocka_unit_test(test_netdev_with_summary),
		cmocka_unit_test(test_netdev_problem_across_hunks),
		cmocka_unit_test(test_netdev_list_of_problems),
		cmocka_unit_test(test_netdev_one_problem_many_questions),
		cmocka_unit_test(test_netdev_also_outcome),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
