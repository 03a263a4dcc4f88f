/* winnow — unit tests of the BPF CI parser.
 *
 * Both layouts of the BPF CI mail (in code fences with a commit header,
 * and bare quoted diff) and the quoted-diff walker it consists of:
 * function-defining macros in hunk headers, fixes suggested as
 * unquoted diffs.  Whole mails are read from tests/corpus/bpf-ci-unit/. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "review-test.h"

/* Hunk headers naming a function-defining macro: the function is its
 * first argument. */
static void test_inline_definer_macro(void **state)
{
	static const char body[] =
		"> diff --git a/kernel/bpf/ringbuf.c b/kernel/bpf/ringbuf.c\n"
		"> @@ -474,6 +474,9 @@ BPF_CALL_3(bpf_ringbuf_reserve, struct bpf_map *, map, u64, size, u64, flags)\n"
		"> +\tif (!size)\n"
		"\n"
		"First.\n"
		"\n"
		"> diff --git a/fs/open.c b/fs/open.c\n"
		"> @@ -1400,3 +1400,4 @@ SYSCALL_DEFINE4(openat, int, dfd, const char __user *, filename, int, flags,\n"
		"> +\tflags &= ~O_X;\n"
		"\n"
		"Second.\n"
		"\n"
		"> @@ -1500,3 +1501,4 @@ static int MY_MACRO_3(int a)\n"
		"> +\ta++;\n"
		"\n"
		"Third.\n";
	wn_review *r = parse(WN_BOT_BPF_CI, body);

	(void) state;
	assert_int_equal(r->nfindings, 3);
	assert_string_equal(F(r, 0)->function, "bpf_ringbuf_reserve");
	assert_string_equal(F(r, 1)->function, "openat");
	assert_string_equal(F(r, 2)->function, "MY_MACRO_3");
	wn_review_free(&r);
}

static void test_bpf_ci_old(void **state)
{
	wn_review *r = corpus_review(WN_BOT_BPF_CI,
				      "bpf-ci-unit/02-bpf-ci-lru.eml");
	wn_finding *f;

	(void) state;
	assert_int_equal(r->nfindings, 1);
	assert_string_equal(r->patch_subject, "bpf: use rqspinlock for lru map");
	assert_int_equal(r->declared, -1);
	f = F(r, 0);
	assert_int_equal(f->severity, WN_SEV_NONE);
	assert_false(f->preexisting);
	assert_string_equal(f->file, "kernel/bpf/bpf_lru_list.c");
	assert_string_equal(f->function, "bpf_common_lru_pop_free");
	assert_int_equal(f->line, 473);
	assert_string_equal(f->summary, "Can this leak the node?");
	assert_null(strstr(f->comment, "```"));
	assert_null(strstr(f->comment, "AI reviewed"));
	wn_review_free(&r);
}

static void test_bpf_ci_new(void **state)
{
	wn_review *r = corpus_review(WN_BOT_BPF_CI,
				      "bpf-ci-unit/04-bpf-ci-jit-disasm.eml");

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_null(r->patch_subject);
	assert_string_equal(F(r, 0)->file, "tools/testing/selftests/bpf/jit_disasm_helpers.c");
	assert_string_equal(F(r, 0)->function, "get_jited_program_text");
	assert_int_equal(F(r, 0)->line, 221);
	assert_contains(F(r, 0)->comment, "        LLVMDisposeMessage(triple);");
	assert_int_equal(F(r, 1)->line, 223);
	assert_string_equal(F(r, 1)->summary,
			    "Can func_lens[i] - trunc_len underflow when a function is shorter than 8 bytes?");
	assert_null(strstr(F(r, 1)->comment, "CI run"));
	wn_review_free(&r);
}

/* A fix suggested as an unquoted diff stays part of its comment. */
static void test_inline_suggested_diff(void **state)
{
	static const char body[] =
		"> diff --git a/a.c b/a.c\n"
		"> @@ -1,2 +1,3 @@ void f(void)\n"
		"> +\tg();\n"
		"\n"
		"Should g() be called under the lock? Something like:\n"
		"\n"
		"diff --git a/a.c b/a.c\n"
		"--- a/a.c\n"
		"+++ b/a.c\n"
		"@@ -1,2 +1,3 @@\n"
		"-\tg();\n"
		"+\tlocked_g();\n"
		"\n"
		"> +\th();\n"
		"\n"
		"Is h() called twice now?\n";
	wn_review *r = parse(WN_BOT_BPF_CI, body);

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_contains(F(r, 0)->comment, "+\tlocked_g();");
	assert_contains(F(r, 0)->comment, "diff --git a/a.c b/a.c");
	assert_int_equal(F(r, 1)->line, 2);
	assert_string_equal(F(r, 1)->file, "a.c");
	wn_review_free(&r);
}

/* The "^^^^" and "~~~~" lines under a quoted expression mark it: they
 * stay in the quote, under their line. */
static void test_bpf_ci_carets(void **state)
{
	wn_review *r = corpus_review(WN_BOT_BPF_CI, "whole-quotes/02-bpf-ci-review.eml");
	const char *q;

	(void) state;
	assert_int_equal(r->nfindings, 1);
	q = F(r, 0)->quote;
	assert_non_null(q);
	assert_contains(q, "+\tvoid *dst = &qs->elements[qs->head * qs->map.value_size];\n"
			"                                ^^^^^^^^\n"
			"                                ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~");
	assert_null(strstr(F(r, 0)->comment, "^^^"));
	wn_review_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bpf_ci_carets),
		cmocka_unit_test(test_inline_definer_macro),
		cmocka_unit_test(test_bpf_ci_old),
		cmocka_unit_test(test_bpf_ci_new),
		cmocka_unit_test(test_inline_suggested_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
