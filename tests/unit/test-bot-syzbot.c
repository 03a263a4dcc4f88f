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

/* The tags syzbot asks for, verbatim: a report's Reported-by, syzbot
 * ci's Tested-by (indented under its request). */
static void test_syzbot_tags(void **state)
{
	wn_review *r = corpus_review(WN_BOT_SYZBOT, "syzbot-unit/01-syzbot-kasan.eml");

	(void) state;
	assert_int_equal(r->ntags, 1);
	assert_string_equal(r->tags[0], "Reported-by: syzbot+03d6270b6425df1605bf@syzkaller.appspotmail.com");
	wn_review_free(&r);
	r = corpus_review(WN_BOT_SYZBOT, "syzbot-unit/03-syzbot-ci.eml");
	assert_int_equal(r->ntags, 1);
	assert_string_equal(r->tags[0], "Tested-by: syzbot@syzkaller.appspotmail.com");
	wn_review_free(&r);
}

/* The request wrapped before "commit:"; a tag with a control character
 * is left out, not mended; a quoted request is someone else's. */
static void test_syzbot_tags_hostile(void **state)
{
	static const char body[] =
		"> IMPORTANT: if you fix the issue, please add the following tag to the commit:\n"
		"> Reported-by: syzbot+1111111111111111aaaa@syzkaller.appspotmail.com\n"
		"\n"
		"IMPORTANT: if you fix the issue, please add the following tag to the\n"
		"commit:\n"
		"Reported-by: syzbot+2222222222222222bbbb@syzkaller.appspotmail.com\n"
		"Tested-by: syzbot+2222\x1b[31m@syzkaller.appspotmail.com\n"
		"Closes: https://example.org/x\rBcc: evil@example.org\n"
		"Reported-by: syzbot+2222222222222222bbbb@syzkaller.appspotmail.com\n"
		"\n"
		"Reported-by: someone@example.org\n"
		"BUG: KASAN: slab-use-after-free in foo+0x1/0x2 fs/foo.c:1\n";
	wn_review *r = parse(WN_BOT_SYZBOT, body);

	(void) state;
	assert_int_equal(r->ntags, 1);
	assert_string_equal(r->tags[0], "Reported-by: syzbot+2222222222222222bbbb@syzkaller.appspotmail.com");
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
		/* an error reply to a malformed "#syz test" that quotes a
		 * still-triggered report is no test result */
		{ "Re: [syzbot] [foo?] KASAN: use-after-free Read in foo_release",
		  "> #syz test git://git.example.org/foo.git/ master\n\n"
		  "\"git://git.example.org/foo.git/\" does not look like a valid git repo address.\n\n"
		  "> syzbot has tested the proposed patch but the reproducer is still triggering an issue:\n"
		  "> KASAN: use-after-free Read in foo_release\n",
		  WN_KIND_FOLLOWUP, WN_FOLLOWUP_COMMAND_REPLY,
		  "\"git://git.example.org/foo.git/\" does not look like a valid git repo address." },
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

/* Every report is one finding, whatever its shape, titled by the
 * subject without its tags and placed at the first frame or compiler
 * message that names a source file ("kworker/1:2" names none). */
static void test_syzbot_report_shapes(void **state)
{
	static const char head[] =
		"Hello,\n\nsyzbot found the following issue on:\n\n"
		"HEAD commit:    5b6c7d8e9f0a Add linux-next specific files\n\n"
		"IMPORTANT: if you fix the issue, please add the following tag to the commit:\n"
		"Reported-by: syzbot+a1b2@syzkaller.appspotmail.com\n\n";
	static const struct {
		const char *subject, *report, *title, *file, *function;
		int line;
	} cases[] = {
		{ "[syzbot] [foo?] linux-next build error (4)",
		  "drivers/foo/bar.c:212:9: error: call to undeclared function 'baz'\n"
		  "1 error generated.\n",
		  "linux-next build error (4)", "drivers/foo/bar.c", NULL, 212 },
		{ "[syzbot] [foo?] [usb?] INFO: rcu detected stall in foo_tick (2)",
		  "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n"
		  "CPU: 1 UID: 0 PID: 23 Comm: kworker/1:2 Not tainted syzkaller #0\n"
		  "RIP: 0010:foo_tick_slow+0x1d4/0x2c0\n"
		  "Call Trace:\n"
		  " foo_tick_slow drivers/foo/tick.c:301 [inline]\n"
		  " foo_tick+0x8a/0x4a0 drivers/foo/tick.c:322\n",
		  "INFO: rcu detected stall in foo_tick (2)", "drivers/foo/tick.c", "foo_tick_slow", 301 },
		{ "[syzbot] INFO: task hung in foo_remove",
		  "INFO: task syz.1.57:6655 blocked for more than 143 seconds.\n"
		  "Call Trace:\n"
		  " <TASK>\n"
		  " __mutex_lock+0x7e6/0x1350 kernel/locking/mutex.c:760\n"
		  " foo_remove+0x52/0x1e0 drivers/foo/core.c:455\n",
		  /* the lock's frame is generic: the first frame of its own */
		  "INFO: task hung in foo_remove", "drivers/foo/core.c", "foo_remove", 455 },
		{ "[syzbot] [foo?] WARNING in foo_stop",
		  "no source file named anywhere\n",
		  "WARNING in foo_stop", NULL, NULL, 0 },
		{ NULL,
		  "==================================================================\n"
		  "BUG: KASAN: use-after-free in foo_release+0x5c/0x1a0 drivers/foo/core.c:214\n"
		  "Read of size 4 at addr ffff888023a41c08 by task syz/6120\n",
		  "KASAN: use-after-free Read in foo_release", "drivers/foo/core.c", "foo_release", 214 },
	};

	(void) state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char body[2048];
		wn_review *r;

		snprintf(body, sizeof(body), "%s%s\n---\nThis report is generated by a bot.\n", head,
			 cases[k].report);
		r = cases[k].subject ? parse_subject(WN_BOT_SYZBOT, cases[k].subject, body)
				     : parse(WN_BOT_SYZBOT, body);
		assert_int_equal(r->kind, WN_KIND_REPORT);
		assert_int_equal(r->nfindings, 1);
		assert_string_equal(F(r, 0)->summary, cases[k].title);
		if (cases[k].file)
			assert_string_equal(F(r, 0)->file, cases[k].file);
		else
			assert_null(F(r, 0)->file);
		if (cases[k].function)
			assert_string_equal(F(r, 0)->function, cases[k].function);
		else
			assert_null(F(r, 0)->function);
		assert_int_equal(F(r, 0)->line, cases[k].line);
		assert_null(strstr(F(r, 0)->quote, "generated by a bot"));
		assert_null(strstr(F(r, 0)->quote, "Reported-by"));
		wn_review_free(&r);
	}
}

/* A person's patch whose From: line also names syzbot (a Reported-by
 * pasted into it) is matched by syzbot's query, but it is a patch, not
 * a review: syzbot claims it and gives it a kind the queue leaves out. */
static void test_syzbot_patch_naming_syzbot(void **state)
{
	static const char body[] =
		"foo_release() frees the buffer before the last reader drops it.\n\n"
		"Reported-by: syzbot+0123456789abcdef0123@syzkaller.appspotmail.com\n"
		"Signed-off-by: Alice Dev <alice@example.org>\n---\n"
		" drivers/foo/core.c | 2 +-\n\n"
		"diff --git a/drivers/foo/core.c b/drivers/foo/core.c\n"
		"--- a/drivers/foo/core.c\n+++ b/drivers/foo/core.c\n"
		"@@ -210,7 +210,7 @@ static void foo_release(struct foo *f)\n"
		"-\tkfree(f->buf);\n+\tfoo_put_buf(f);\n";
	wn_mail m;
	wn_bot b = WN_BOT_COUNT;
	wn_review *r;

	(void) state;
	memset(&m, 0, sizeof(m));
	m.from = (char *) "Alice Dev <alice@example.org>, Reported-by: "
			  "syzbot+0123456789abcdef0123@syzkaller.appspotmail.com";
	m.from_addr = (char *) "alice@example.org";
	m.subject = (char *) "[PATCH] foo: drop the buffer after the last reader";
	m.body = (char *) body;
	m.body_len = strlen(body);
	assert_true(wn_bot_detect(&m, NULL, &b));
	assert_int_equal(b, WN_BOT_SYZBOT);
	r = parse_subject(WN_BOT_SYZBOT, m.subject, body);
	assert_int_equal(r->kind, WN_KIND_FIXUP);
	assert_false(wn_kind_queued(r->kind));
	assert_int_equal(r->nfindings, 0);
	wn_review_free(&r);
	/* the same person replying to a report is no one's bot */
	m.from = (char *) "Alice Dev <alice@example.org>";
	assert_false(wn_bot_detect(&m, NULL, &b));
}

/* A syzbot ci reply to a patch whose crash is in a generic helper
 * (kernel/irq_work.c): without the patch's files it is placed at the
 * first frame outside the generic machinery, with that frame's
 * function rather than the title's; with them, at the first frame in a
 * file the patch touches (the third), the place it had as detail, the
 * whole stack in the quote, and the fingerprint unchanged. */
static void test_syzbot_ci_patch_frame(void **state)
{
	static const char *const files[] = { "drivers/sprocket/gear.c", NULL };
	const char *subject = "[syzbot ci] Re: sprocket: gear: stop the hub before releasing the gear";
	wn_review_input in = { .subject = subject };
	char *body = corpus_body("syzbot-ci-patch/02-syzbot-ci.eml", WN_BOT_SYZBOT, NULL);
	wn_review *alone, *placed;

	(void) state;
	alone = parse_in(WN_BOT_SYZBOT, body, &in);
	assert_int_equal(alone->nfindings, 1);
	assert_true(alone->wants_patch_files);
	assert_string_equal(F(alone, 0)->file, "drivers/sprocket/hub.c");
	assert_string_equal(F(alone, 0)->function, "sprocket_hub_stop");
	assert_int_equal(F(alone, 0)->line, 211);
	in.patch_files = files;
	placed = parse_in(WN_BOT_SYZBOT, body, &in);
	assert_int_equal(placed->nfindings, 1);
	assert_string_equal(F(placed, 0)->summary, "WARNING in irq_work_sync");
	assert_string_equal(F(placed, 0)->file, "drivers/sprocket/gear.c");
	assert_string_equal(F(placed, 0)->function, "sprocket_gear_release");
	assert_int_equal(F(placed, 0)->line, 402);
	assert_string_equal(F(placed, 0)->detail, "crashed in sprocket_hub_stop() at drivers/sprocket/hub.c:211");
	assert_contains(F(placed, 0)->quote, "sprocket_hub_stop+0x5a/0x120 drivers/sprocket/hub.c:211");
	assert_contains(F(placed, 0)->quote, "entry_SYSCALL_64_after_hwframe");
	assert_string_equal(F(placed, 0)->fingerprint, F(alone, 0)->fingerprint);
	wn_review_free(&alone);
	wn_review_free(&placed);
	free(body);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syzbot_report_shapes),
		cmocka_unit_test(test_syzbot_whole_report),
		cmocka_unit_test(test_syzbot_report),
		cmocka_unit_test(test_syzbot_warning_new_format),
		cmocka_unit_test(test_syzbot_ci),
		cmocka_unit_test(test_syzbot_tags),
		cmocka_unit_test(test_syzbot_tags_hostile),
		cmocka_unit_test(test_syzbot_status_mail),
		cmocka_unit_test(test_syzbot_ci_build_error_location),
		cmocka_unit_test(test_syzbot_kinds),
		cmocka_unit_test(test_syzbot_patch_naming_syzbot),
		cmocka_unit_test(test_syzbot_ci_patch_frame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
