/* winnow — unit tests of the generic parser.
 *
 * A bot the user names in winnow.bots, quoting the patch the way a
 * person does.  The whole mail is read from tests/corpus/generic-unit/. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "review-test.h"

static void test_generic(void **state)
{
	wn_review *r = corpus_review(WN_BOT_GENERIC,
				      "generic-unit/02-lintbot-review.eml");

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_int_equal(F(r, 0)->severity, WN_SEV_NONE);
	assert_string_equal(F(r, 0)->file, "x.c");
	assert_int_equal(F(r, 0)->line, 5);
	assert_string_equal(F(r, 0)->function, "main");
	assert_string_equal(F(r, 1)->summary, "Second comment, right below.");
	assert_int_equal(F(r, 1)->line, 7);
	wn_review_free(&r);

	r = parse(WN_BOT_GENERIC, "just some text\nwithout quotes\n");
	assert_int_equal(r->nfindings, 0);
	assert_non_null(r->explain);
	wn_review_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
