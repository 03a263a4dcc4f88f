/* Unit tests: out of memory is an error, never a string cut short.
 *
 * Linked with -Wl,--wrap=realloc, so every realloc() libwinnow makes
 * comes here first; fail_at makes the Nth one fail.  A builder run once
 * for every N must either succeed with exactly the result it gives with
 * all the memory it wants, or return WN_NOMEM: wn_buf's sticky failure
 * is what makes that hold for builders that append without checking. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "winnow/buf.h"
#include "winnow/proc.h"
#include "winnow/review.h"
#include "winnow/text.h"

void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);

/* 0: never fail; N: the Nth realloc from now fails (and only it). */
static unsigned long fail_at, calls;

void *__wrap_realloc(void *p, size_t n)
{
	if (fail_at && ++calls == fail_at)
		return NULL;
	return __real_realloc(p, n);
}

static void fail_nth(unsigned long n)
{
	fail_at = n;
	calls = 0;
}

static void test_buf_sticky(void **state)
{
	wn_buf b = WN_BUF_INIT;
	char *s;

	(void) state;
	assert_int_equal(wn_buf_puts(&b, "kept"), WN_OK);
	fail_nth(1);
	/* 200 bytes outgrow the first 64: the realloc that fails. */
	assert_int_equal(wn_buf_printf(&b, "%200s", "x"), WN_NOMEM);
	fail_nth(0);
	assert_true(wn_buf_failed(&b));
	/* Sticky: memory is back, yet nothing more goes in. */
	assert_int_equal(wn_buf_puts(&b, "more"), WN_NOMEM);
	assert_int_equal(wn_buf_putc(&b, 'x'), WN_NOMEM);
	assert_int_equal(wn_buf_append(&b, "y", 1), WN_NOMEM);
	assert_int_equal(wn_buf_status(&b), WN_NOMEM);
	assert_string_equal(wn_buf_str(&b), "kept");
	wn_buf_reset(&b);
	assert_true(wn_buf_failed(&b));
	/* Never handed over cut short; b is fresh afterwards. */
	assert_null(wn_buf_steal(&b));
	assert_false(wn_buf_failed(&b));
	assert_int_equal(wn_buf_puts(&b, "again"), WN_OK);
	s = wn_buf_steal(&b);
	assert_string_equal(s, "again");
	free(s);
	assert_int_equal(wn_buf_status(&b), WN_OK);
}

/* wn_argv_split builds each word in a wn_buf. */
static void test_argv_split(void **state)
{
	char cmd[600], **v;
	unsigned long n;
	wn_status st;

	(void) state;
	memset(cmd, 'a', 300);
	memcpy(cmd + 300, " 'b c' ", 7);
	memset(cmd + 307, 'd', 200);
	cmd[507] = '\0';
	for (n = 1;; n++) {
		fail_nth(n);
		st = wn_argv_split(cmd, &v, NULL);
		fail_nth(0);
		if (st == WN_NOMEM)
			continue;
		assert_int_equal(st, WN_OK);
		assert_int_equal(strlen(v[0]), 300);
		assert_string_equal(v[1], "b c");
		assert_int_equal(strlen(v[2]), 200);
		assert_null(v[3]);
		wn_strv_free(v);
		if (calls < n)
			break;		/* no realloc was left to fail */
	}
	assert_true(n > 3);
}

static const char review_text[] =
	"Sashiko AI review found 2 potential issue(s):\n"
	"- [High] The summary of the first finding is long enough that it has to be wrapped at seventy-two columns.\n"
	"- [Low] A second finding.\n"
	"--\n"
	"\n"
	"> diff --git a/f.c b/f.c\n"
	"> --- a/f.c\n"
	"> +++ b/f.c\n"
	"> @@ -1,20 +1,20 @@ int f(void)\n"
	">  l1\n>  l2\n>  l3\n>  l4\n>  l5\n>  l6\n>  l7\n>  l8\n>  l9\n>  l10\n"
	">  l11\n>  l12\n>  l13\n>  l14\n> +l15\n"
	"\n"
	"[Severity: High]\n"
	"The comment on the first finding, which is long enough to need a few reallocations of the "
	"buffer it is collected in: it goes on and on about the code above and what is wrong with it, "
	"more than sixty-four bytes, more than a hundred and twenty-eight, more than two hundred and "
	"fifty-six bytes of text in one paragraph.\n"
	"\n"
	"[Severity: Low]\n"
	"The comment on the second finding.\n"
	"\n"
	"-- \n"
	"Sashiko AI review · https://sashiko.dev/#/patchset/x@example.org?part=1\n";

/* A kernel test robot report whose diagnostics fold into a family
 * (lkp-family.c): its places, quote and comment are builders too. */
static const char lkp_text[] =
	"All warnings (new ones prefixed by >>):\n"
	"\n"
	">> drivers/x.c:10:1: warning: symbol 'dev_attr_cog_0' was not declared. Should it be static?\n"
	">> drivers/x.c:11:1: warning: symbol 'dev_attr_cog_1' was not declared. Should it be static?\n"
	">> drivers/x.c:12:1: warning: symbol 'dev_attr_cog_2' was not declared. Should it be static?\n"
	">> drivers/x.c:13:1: warning: symbol 'dev_attr_cog_3' was not declared. Should it be static?\n"
	">> drivers/x.c:14:1: warning: symbol 'dev_attr_cog_4' was not declared. Should it be static?\n"
	">> drivers/x.c:15:5: warning: unused variable 'ret' [-Wunused-variable]\n";

static bool same_review(const wn_review *a, const wn_review *b)
{
	if (a->nfindings != b->nfindings)
		return false;
	for (size_t i = 0; i < a->nfindings; i++) {
		const wn_finding *x = &a->findings[i], *y = &b->findings[i];

		if (strcmp(x->fingerprint, y->fingerprint) || x->severity != y->severity ||
		    strcmp(x->summary ? x->summary : "", y->summary ? y->summary : "") ||
		    strcmp(x->comment ? x->comment : "", y->comment ? y->comment : "") ||
		    strcmp(x->quote ? x->quote : "", y->quote ? y->quote : "") || x->nalso != y->nalso)
			return false;
	}
	return true;
}

/* A review parser: many builders, one result. */
static void check_review_parse(wn_bot bot, const char *text)
{
	wn_review *want = NULL, *got;
	unsigned long n;
	wn_status st;

	assert_int_equal(wn_review_parse(bot, text, strlen(text), &want, NULL), WN_OK);
	for (n = 1;; n++) {
		got = NULL;
		fail_nth(n);
		st = wn_review_parse(bot, text, strlen(text), &got, NULL);
		fail_nth(0);
		if (st == WN_NOMEM) {
			assert_null(got);
			continue;
		}
		assert_int_equal(st, WN_OK);
		assert_true(same_review(want, got));
		wn_review_free(&got);
		if (calls < n)
			break;
	}
	assert_true(n > 3);
	wn_review_free(&want);
}

static void test_review_parse(void **state)
{
	(void) state;
	check_review_parse(WN_BOT_SASHIKO, review_text);
	check_review_parse(WN_BOT_LKP, lkp_text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buf_sticky),
		cmocka_unit_test(test_argv_split),
		cmocka_unit_test(test_review_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
