/* Verdict memory's threshold at its edge: two findings at
 * one place whose words overlap by exactly WN_SIM_THRESHOLD are alike
 * ("at least", as similar.h says), a hair below is not.  A threshold
 * moved from >= to > passed every other test. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "winnow/similar.h"

static double match(const char *x, const char *y, bool *alike)
{
	wn_words a = { 0 }, b = { 0 };
	double score = -1;

	assert_int_equal(wn_words_of(x, &a), WN_OK);
	assert_int_equal(wn_words_of(y, &b), WN_OK);
	*alike = wn_sim_match("drivers/x.c:x_fn", &a, "drivers/x.c:x_fn", &b, &score);
	wn_words_free(&a);
	wn_words_free(&b);
	return score;
}

static void test_threshold_edge(void **state)
{
	bool alike;

	(void) state;
	/* Two of four words shared: exactly the threshold. */
	assert_true(match("refcount leaked xyzzy", "refcount leaked plugh", &alike) ==
		    WN_SIM_THRESHOLD);
	assert_true(alike);
	/* Two of five: below it. */
	assert_true(match("refcount leaked xyzzy", "refcount leaked plugh frotz", &alike) <
		    WN_SIM_THRESHOLD);
	assert_false(alike);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threshold_edge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
