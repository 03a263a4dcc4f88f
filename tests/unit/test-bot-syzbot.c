/* winnow — unit tests of the syzbot and syzbot ci parser.
 *
 * syzbot crash reports (the title syzbot gives a crash, its place) and
 * syzbot ci series reports with one section per issue.  Whole mails
 * are read from tests/corpus/syzbot-unit/. */
#include "autoconfig.h"

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
	assert_contains(r->explain, "crash");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syzbot_report),
		cmocka_unit_test(test_syzbot_warning_new_format),
		cmocka_unit_test(test_syzbot_ci),
		cmocka_unit_test(test_syzbot_status_mail),
		cmocka_unit_test(test_syzbot_ci_build_error_location),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
