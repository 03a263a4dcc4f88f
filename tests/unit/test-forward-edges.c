/* Forwarding's negative cases, each a change that passed
 * every other test: a Message-ID with two '@' is no Message-ID, and one
 * mailbox in two cases is one recipient. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "forward/forward-test.h"

static void test_msgid_one_at(void **state)
{
	(void) state;
	assert_true(wn_fwd_msgid_ok("20261102.1@example.org"));
	assert_false(wn_fwd_msgid_ok("20261102.1@example.org@evil.example"));
	assert_false(wn_fwd_msgid_ok("@example.org"));
	assert_false(wn_fwd_msgid_ok("20261102.1@"));
	assert_false(wn_fwd_msgid_ok("no-at-sign"));
}

static void test_mailbox_in_two_cases(void **state)
{
	fwd_mboxes l = { 0 };

	(void) state;
	assert_int_equal(wn_fwd_mboxes_add(&l, "Ann Author", "Ann@Example.ORG"), WN_OK);
	assert_true(wn_fwd_mboxes_has(&l, "ann@example.org"));
	assert_true(wn_fwd_mboxes_has(&l, "ANN@EXAMPLE.ORG"));
	assert_false(wn_fwd_mboxes_has(&l, "ann@example.org.evil"));
	wn_fwd_mboxes_clear(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msgid_one_at),
		cmocka_unit_test(test_mailbox_in_two_cases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
