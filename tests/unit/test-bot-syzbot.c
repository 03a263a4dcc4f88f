/* winnow — unit tests of the syzbot and syzbot ci parser.
 *
 * syzbot crash reports (the title syzbot gives a crash, its place) and
 * syzbot ci series reports with one section per issue.  Whole mails
 * are read from tests/corpus/syzbot-unit/. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review-test.h"

static void test_syzbot_report(void **state)
{
	wn_review *r = corpus_review(WN_BOT_SYZBOT,
				      "syzbot-unit/01-syzbot-kasan.eml");

	(void) state;
	assert_int_equal(r->nfindings, 1);
	assert_int_equal(F(r, 0)->severity, WN_SEV_NONE);
	/* syzbot's own title: the sanitizer first, the access from the
	 * next line */
	assert_string_equal(F(r, 0)->summary, "KASAN: slab-use-after-free Read in set_powered_sync");
	assert_string_equal(F(r, 0)->function, "set_powered_sync");
	assert_string_equal(F(r, 0)->file, "net/bluetooth/mgmt.c");
	assert_int_equal(F(r, 0)->line, 1353);
	assert_contains(F(r, 0)->quote, "Read of size 8");
	wn_review_free(&r);
}

static void test_syzbot_warning_new_format(void **state)
{
	static const char body[] =
		"------------[ cut here ]------------\n"
		"URB ffff888114e55c00 submitted while active\n"
		"WARNING: drivers/usb/core/urb.c:380 at 0x0, CPU#0: kworker/0:1/10\n"
		"Modules linked in:\n"
		"RIP: 0010:usb_submit_urb+0x15a3/0x1970 drivers/usb/core/urb.c:380\n";
	wn_review *r = parse(WN_BOT_SYZBOT, body);

	(void) state;
	assert_int_equal(r->nfindings, 1);
	assert_string_equal(F(r, 0)->summary, "WARNING in usb_submit_urb");
	assert_string_equal(F(r, 0)->file, "drivers/usb/core/urb.c");
	assert_int_equal(F(r, 0)->line, 380);
	wn_review_free(&r);
}

static void test_syzbot_ci(void **state)
{
	wn_review *r = corpus_review(WN_BOT_SYZBOT,
				      "syzbot-unit/03-syzbot-ci.eml");

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_string_equal(F(r, 0)->summary, "general protection fault in tun_net_xmit");
	assert_string_equal(F(r, 0)->function, "tun_net_xmit");
	assert_string_equal(F(r, 0)->file, "drivers/net/tun.c");
	assert_contains(F(r, 0)->quote, "Oops: general protection fault");
	assert_string_equal(F(r, 1)->summary, "kernel build error");
	assert_contains(F(r, 1)->quote, "undeclared identifier");
	assert_int_equal(F(r, 0)->severity, WN_SEV_NONE);
	wn_review_free(&r);
}

static void test_syzbot_status_mail(void **state)
{
	wn_review *r = parse(WN_BOT_SYZBOT,
			     "Hello,\n\nsyzbot has tested the proposed patch and the reproducer did not trigger any issue:\n\n"
			     "Reported-by: syzbot+x@syzkaller.appspotmail.com\nTested-by: syzbot+x@syzkaller.appspotmail.com\n");

	(void) state;
	assert_int_equal(r->nfindings, 0);
	assert_int_equal(r->kind, WN_KIND_FOLLOWUP);
	assert_int_equal(r->followup, WN_FOLLOWUP_TEST_OK);
	assert_contains(r->explain, "follow-up (test-ok)");
	wn_review_free(&r);
}

/* A syzbot ci build error section is located at its first compiler
 * diagnostic ("path:line:col: error: ..."). */
static void test_syzbot_ci_build_error_location(void **state)
{
	static const char body[] =
		"syzbot ci has tested the following series\n"
		"\n"
		"***\n"
		"\n"
		"kernel build error\n"
		"\n"
		"tree:      net-next\n"
		"arch:      arm64\n"
		"\n"
		"drivers/net/vx/vx_tx.c:91:2: error: use of undeclared identifier 'txq'\n"
		"drivers/net/vx/vx_tx.c:92:21: error: use of undeclared identifier 'txq'\n"
		"\n"
		"***\n";
	wn_review *r = parse(WN_BOT_SYZBOT, body);

	(void) state;
	assert_int_equal(r->nfindings, 1);
	assert_string_equal(F(r, 0)->summary, "kernel build error");
	assert_string_equal(F(r, 0)->file, "drivers/net/vx/vx_tx.c");
	assert_int_equal(F(r, 0)->line, 91);
	wn_review_free(&r);
}

/* Reports open threads; syzbot's replies in them are follow-ups and say
 * what happened; the monthly report is a summary; a patch test that
 * still triggers the bug is one finding on the tested patch. */
static void test_syzbot_kinds(void **state)
{
	static const char crash[] =
		"\n==================================================================\n"
		"BUG: KASAN: use-after-free in foo_release+0x5c/0x1a0 drivers/foo/core.c:214\n"
		"Read of size 4 at addr ffff888023a41c08 by task syz/6120\n"
		"==================================================================\n";
	static const struct {
		const char *subject, *opening;
		wn_kind kind;
		wn_followup what;
		const char *says;
	} cases[] = {
		{ "[syzbot] [foo?] KASAN: use-after-free Read in foo_release",
		  "Hello,\n\nsyzbot found the following issue on:\n", WN_KIND_REPORT, WN_FOLLOWUP_NONE, NULL },
		{ "Re: [syzbot] [foo?] KASAN: use-after-free Read in foo_release",
		  "syzbot has found a reproducer for the following issue on:\n\n"
		  "C reproducer:   https://syz.example.org/x/repro.c?x=1\n",
		  WN_KIND_FOLLOWUP, WN_FOLLOWUP_REPRODUCER, "reproducer: https://syz.example.org/x/repro.c?x=1" },
		{ "Re: KASAN: use-after-free Read in foo_release",
		  "syzbot has bisected this bug to:\n\ncommit 0123456789abcdef0123456789abcdef01234567\n"
		  "Author: A <a@example.org>\nDate:   Mon Nov 2 10:00:00 2026 +0000\n\n    foo: free early\n",
		  WN_KIND_FOLLOWUP, WN_FOLLOWUP_BISECTED, "commit 0123456789ab (\"foo: free early\")" },
		{ "RE: [syzbot] [foo?] KASAN: use-after-free Read in foo_release",
		  "syzbot suspects this issue was fixed by commit:\n\ncommit 0123456789abcdef0123456789abcdef01234567\n"
		  "Author: A <a@example.org>\nDate:   Mon Nov 2 10:00:00 2026 +0000\n\n    foo: free late\n",
		  WN_KIND_FOLLOWUP, WN_FOLLOWUP_FIXED_BY, "commit 0123456789ab (\"foo: free late\")" },
		{ "Re: [syzbot] x", "Hello,\n\nsyzbot has tested the proposed patch and the reproducer did not\n"
		  "trigger any issue:\n\nTested on:\n\ncommit:         4c7e9a1b Merge tag 'x'\n",
		  WN_KIND_FOLLOWUP, WN_FOLLOWUP_TEST_OK, "tested on 4c7e9a1b Merge tag 'x'" },
		{ "Re: [syzbot] x", "Hello,\n\nsyzbot tried to test the proposed patch but the build/boot failed:\n\n"
		  "drivers/foo/core.c:1:2: error: nope\n",
		  WN_KIND_FOLLOWUP, WN_FOLLOWUP_TEST_FAILED, "drivers/foo/core.c:1:2: error: nope" },
		{ "Re: [syzbot] x", "> #syz tset\n\nunknown command \"tset\"\n",
		  WN_KIND_FOLLOWUP, WN_FOLLOWUP_COMMAND_REPLY, "unknown command \"tset\"" },
		{ "[syzbot] Monthly foo report (Nov 2026)",
		  "Hello foo maintainers/developers,\n\nThis is a 31-day syzbot report for the foo subsystem.\n",
		  WN_KIND_SUMMARY, WN_FOLLOWUP_NONE, NULL },
		{ "Re: [syzbot] [foo?] KASAN: use-after-free Read in foo_release",
		  "Hello,\n\nsyzbot has tested the proposed patch but the reproducer still triggered\ncrash:\n"
		  "KASAN: use-after-free Read in foo_release\n",
		  WN_KIND_REVIEW, WN_FOLLOWUP_STILL_TRIGGERS, "KASAN: use-after-free Read in foo_release" },
	};

	(void) state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char body[2048];
		wn_review *r;

		snprintf(body, sizeof(body), "%s%s", cases[k].opening,
			 cases[k].kind == WN_KIND_SUMMARY ? "" : crash);
		r = parse_subject(WN_BOT_SYZBOT, cases[k].subject, body);
		assert_int_equal(r->kind, cases[k].kind);
		assert_int_equal(r->followup, cases[k].what);
		if (cases[k].says)
			assert_string_equal(r->followup_says, cases[k].says);
		else
			assert_null(r->followup_says);
		assert_int_equal(r->nfindings, wn_kind_queued(r->kind) ? 1 : 0);
		if (r->nfindings) {
			assert_string_equal(F(r, 0)->summary, "KASAN: use-after-free Read in foo_release");
			assert_string_equal(F(r, 0)->file, "drivers/foo/core.c");
		}
		wn_review_free(&r);
	}
}

/* The whole report is kept, however long: the "Freed by task" stack of
 * a use-after-free comes far below the report's first line.  It ends at
 * syzbot's footer. */
static void test_syzbot_whole_report(void **state)
{
	wn_review *r = corpus_review(WN_BOT_SYZBOT, "whole-quotes/03-syzbot-long-report.eml");
	const char *q;

	(void) state;
	assert_int_equal(r->nfindings, 1);
	q = F(r, 0)->quote;
	assert_true(strncmp(q, "BUG: KASAN: slab-use-after-free in chain_tick", 45) == 0);
	assert_contains(q, "Freed by task 6207:");
	assert_contains(q, "chain_detach+0x5e/0x120 drivers/sprocket/chain.c:247");
	assert_contains(q, "freed 128-byte region");
	assert_null(strstr(q, "This report is generated"));
	assert_null(strstr(q, "more lines not kept"));
	wn_review_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syzbot_whole_report),
		cmocka_unit_test(test_syzbot_report),
		cmocka_unit_test(test_syzbot_warning_new_format),
		cmocka_unit_test(test_syzbot_ci),
		cmocka_unit_test(test_syzbot_status_mail),
		cmocka_unit_test(test_syzbot_ci_build_error_location),
		cmocka_unit_test(test_syzbot_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
