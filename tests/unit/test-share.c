/* Unit tests: a shared finding's file (share-file.c): where a review's
 * files go, whatever its Message-ID, and a decision's text there and
 * back. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "share-private.h"

static void test_paths(void **state)
{
	char *p, long_id[400];

	(void) state;
	p = sh_review_dir("20261110101500.B1A2C3D4E5F@smtp.kernel.org");
	assert_true(strncmp(p, "reviews/", 8) == 0 && p[10] == '/');
	assert_string_equal(p + 11, "20261110101500.B1A2C3D4E5F@smtp.kernel.org");
	free(p);
	/* Hostile ids: no '/', no "..", no control character, no leading dot. */
	p = sh_review_dir("../../etc/passwd\n\x1b]0;x\x07");
	assert_string_equal(p + 11, "_2E._2F.._2Fetc_2Fpasswd_0A_1B_5D0_3Bx_07");
	free(p);
	p = sh_review_dir("a_b c%d");
	assert_string_equal(p + 11, "a_5Fb_20c_25d");
	free(p);
	/* Too long for a file name: its hash. */
	memset(long_id, 'x', sizeof(long_id) - 1);
	long_id[sizeof(long_id) - 1] = '\0';
	p = sh_review_dir(long_id);
	assert_int_equal(strlen(p), 11 + 17);
	assert_int_equal(p[11], '~');
	free(p);
}

static void test_text(void **state)
{
	wn_share_value v = { WN_VERDICT_FALSE_POSITIVE, WN_SEV_HIGH, (char *) "line one\nline two",
			     (char *) "Ann <ann@example.org>", 1796000000 }, back;
	wn_buf b = WN_BUF_INIT;
	char *id = NULL;

	(void) state;
	assert_int_equal(sh_format(&v, "x\x01y@example.org", &b), WN_OK);
	assert_string_equal(wn_buf_str(&b), "review: x\\x01y@example.org\n"
			    "state: false-positive\n"
			    "severity: high\n"
			    "author: Ann <ann@example.org>\n"
			    "time: 2026-11-30T00:53:20Z\n"
			    "note: line one\n"
			    "note: line two\n");
	assert_int_equal(sh_parse(wn_buf_str(&b), &back, &id, NULL), WN_OK);
	assert_string_equal(id, "x\x01y@example.org");
	assert_int_equal(back.verdict, WN_VERDICT_FALSE_POSITIVE);
	assert_int_equal(back.severity, WN_SEV_HIGH);
	assert_string_equal(back.note, "line one\nline two");
	assert_string_equal(back.author, "Ann <ann@example.org>");
	assert_int_equal(back.when, 1796000000);
	assert_true(sh_same(&v, &back));
	/* Author and time do not make a decision another. */
	free(back.author);
	back.author = strdup("Bob <bob@example.org>");
	back.when = 1;
	assert_true(sh_same(&v, &back));
	back.severity = WN_SEV_NONE;
	assert_false(sh_same(&v, &back));
	wn_share_value_clear(&back);
	free(id);
	/* Not one of ours: no state, or no review. */
	assert_int_equal(sh_parse("review: a@b\n", &back, &id, NULL), WN_PARSE);
	assert_int_equal(sh_parse("state: valid\n", &back, &id, NULL), WN_PARSE);
	assert_int_equal(sh_parse("review: a@b\nstate: maybe\n", &back, &id, NULL), WN_PARSE);
	assert_null(id);
	wn_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
