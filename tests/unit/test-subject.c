/* winnow — unit tests of the one subject parser (mail/subject.c): every
 * caller -- the index's links and threads, the bots, series memory, the
 * queue's series order -- reads "[PATCH v2 3/5]" and "Re:" through it. */
#include "autoconfig.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "winnow/subject.h"

static void test_subjects(void **state)
{
	wn_subject s;

	(void) state;
	assert_int_equal(wn_subject_parse("Re: [PATCH bpf-next v2 3/5] bpf: Clamp  the count", &s), WN_OK);
	assert_string_equal(s.prefix, "patch bpf-next");
	assert_int_equal(s.version, 2);
	assert_int_equal(s.part, 3);
	assert_int_equal(s.total, 5);
	assert_string_equal(s.title, "bpf: clamp the count");
	assert_int_equal(s.title_at, strlen("Re: [PATCH bpf-next v2 3/5] "));
	assert_true(s.reply);
	wn_subject_clear(&s);
	/* A list's tag before "Re:" hides neither the version nor the part
	 * (the queue's own parser read only the first group), and the title
	 * as written keeps its case and blanks for the queue's headings. */
	{
		const char *subj = "[sashiko-reviews] Re: [PATCH v4 2/3] gpio: aggregator:  Pass";

		assert_int_equal(wn_subject_parse(subj, &s), WN_OK);
		assert_int_equal(s.version, 4);
		assert_int_equal(s.part, 2);
		assert_int_equal(s.total, 3);
		assert_true(s.reply);
		assert_string_equal(subj + s.title_at, "gpio: aggregator:  Pass");
		assert_string_equal(s.title, "gpio: aggregator: pass");
		wn_subject_clear(&s);
	}
	assert_int_equal(wn_subject_parse(" \tFwd: AW: [PATCH] x", &s), WN_OK);
	assert_int_equal(s.title_at, strlen(" \tFwd: AW: [PATCH] "));
	assert_true(s.reply);
	wn_subject_clear(&s);
	/* A bracket never closed is the title's. */
	assert_int_equal(wn_subject_parse("Re: [PATCH v2 x", &s), WN_OK);
	assert_int_equal(s.title_at, strlen("Re: "));
	assert_int_equal(s.version, 1);
	wn_subject_clear(&s);
	assert_int_equal(wn_subject_parse("[Intel-wired-lan] [RFC PATCHv3 0/7] ice: x", &s), WN_OK);
	assert_string_equal(s.prefix, "rfc patch");
	assert_int_equal(s.version, 3);
	assert_int_equal(s.part, 0);
	assert_int_equal(s.total, 7);
	assert_string_equal(s.title, "ice: x");
	assert_false(s.reply);
	wn_subject_clear(&s);
	assert_int_equal(wn_subject_parse("frobnic: a plain title", &s), WN_OK);
	assert_string_equal(s.prefix, "");
	assert_int_equal(s.version, 1);
	assert_int_equal(s.total, 0);
	assert_string_equal(s.title, "frobnic: a plain title");
	wn_subject_clear(&s);
	assert_int_equal(wn_subject_parse(NULL, &s), WN_OK);
	assert_string_equal(s.title, "");
	assert_int_equal(s.title_at, 0);
	wn_subject_clear(&s);
}

/* One form of the patch tag each: version, part, total and prefix as a
 * maintainer reads them.  The queue's old reader and the index's took
 * "[PATCHv3 1/7]" for version 1, and "k/n" only from the first group. */
static void check_form(const char *subj, bool patch, bool reply, int version, int part, int total,
		       const char *prefix, const char *title)
{
	wn_subject s;

	assert_int_equal(wn_subject_parse(subj, &s), WN_OK);
	if (s.patch != patch || s.reply != reply || s.version != version || s.part != part ||
	    s.total != total || strcmp(s.prefix, prefix) || strcmp(s.title, title))
		fail_msg("%s: patch %d reply %d v%d %d/%d prefix \"%s\" title \"%s\"", subj, s.patch,
			 s.reply, s.version, s.part, s.total, s.prefix, s.title);
	wn_subject_clear(&s);
	assert_int_equal(wn_subject_is_patch(subj), patch && !reply);
	assert_int_equal(wn_subject_part(subj), patch && !reply ? part : 0);
}

static void test_forms(void **state)
{
	(void) state;
	check_form("[PATCHv3 1/7] x: y", true, false, 3, 1, 7, "patch", "x: y");
	check_form("[PATCH v3 1/7] x: y", true, false, 3, 1, 7, "patch", "x: y");
	check_form("[patchV3 1/7] x: y", true, false, 3, 1, 7, "patch", "x: y");
	check_form("[PATCH net-next v2 03/10] x", true, false, 2, 3, 10, "patch net-next", "x");
	check_form("[PATCH net-next,v2 03/10] x", true, false, 2, 3, 10, "patch net-next", "x");
	check_form("[net-next PATCH v2 1/2] x", true, false, 2, 1, 2, "net-next patch", "x");
	check_form("[RFC PATCH v2] x", true, false, 2, 0, 0, "rfc patch", "x");
	check_form("[RFC] x", true, false, 1, 0, 0, "rfc", "x");
	check_form("[PATCHSET v2 0/4] x", true, false, 2, 0, 4, "patchset", "x");
	check_form("Re: Aw: [PATCH] x", true, true, 1, 0, 0, "patch", "x");
	check_form("Aw: [PATCHv3 1/7] x", true, true, 3, 1, 7, "patch", "x");
	check_form("[Intel-wired-lan] [PATCH v2 2/3] x", true, false, 2, 2, 3, "patch", "x");
	/* A bot's tag and a reply marker: a review of a patch, not one. */
	check_form("[syzbot ci] Re: [PATCH v2 1/2] x", true, true, 2, 1, 2, "patch", "x");
	check_form("[tip:x86/urgent] x86: y", false, false, 1, 0, 0, "", "x86: y");
	check_form("[GIT PULL] net 6.9", false, false, 1, 0, 0, "", "net 6.9");
	check_form("[linux-next:master 3/5] drivers/x.c: warning", false, false, 1, 0, 0, "",
		   "drivers/x.c: warning");
	check_form("PATCH v2 without brackets", false, false, 1, 0, 0, "", "patch v2 without brackets");
	check_form("[patchwork] x", false, false, 1, 0, 0, "", "x");
	assert_false(wn_subject_is_patch(NULL));
	assert_int_equal(wn_subject_part(NULL), 0);
}

/* The forms real kernel subjects take, each with every fact the parser
 * gives: a slash between words ("PATCH/RFC") made the group unreadable,
 * so a Sashiko review of such a patch was never linked to it. */
static const struct form {
	const char *subject;
	int version, part, total;
	bool rfc, resend;
	const char *tree, *prefix;
} forms[] = {
	{ "[PATCH/RFC] x", 1, 0, 0, true, false, "", "patch rfc" },
	{ "[RFC/PATCH] x", 1, 0, 0, true, false, "", "rfc patch" },
	{ "[PATCH RFC v2] x", 2, 0, 0, true, false, "", "patch rfc" },
	{ "[RFC PATCH net-next v3 2/7] x", 3, 2, 7, true, false, "net-next", "rfc patch net-next" },
	{ "[PATCH v2 RESEND] x", 2, 0, 0, false, true, "", "patch resend" },
	{ "[RESEND PATCH v2 1/3] x", 2, 1, 3, false, true, "", "resend patch" },
	{ "[PATCH-next] x", 1, 0, 0, false, false, "next", "patch-next" },
	{ "[PATCH 6.6.y] x", 1, 0, 0, false, false, "6.6.y", "patch 6.6.y" },
	{ "[PATCH bpf-next,v2] x", 2, 0, 0, false, false, "bpf-next", "patch bpf-next" },
	{ "[PATCHv3] x", 3, 0, 0, false, false, "", "patch" },
	{ "[PATCH V2] x", 2, 0, 0, false, false, "", "patch" },
	{ "[PATCH v2 00/12] x", 2, 0, 12, false, false, "", "patch" },
	{ "[Intel-wired-lan] [PATCH iwl-net] x", 1, 0, 0, false, false, "iwl-net", "patch iwl-net" },
	{ "[PATCH iwl-next v2 1/2] [Intel-wired-lan] x", 2, 1, 2, false, false, "iwl-next", "patch iwl-next" },
	{ "[PATCH net 2/2] x", 1, 2, 2, false, false, "net", "patch net" },
};

static void test_real_forms(void **state)
{
	(void) state;
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		const struct form *f = &forms[i];
		wn_subject s;

		assert_int_equal(wn_subject_parse(f->subject, &s), WN_OK);
		if (!s.patch || s.reply || s.version != f->version || s.part != f->part ||
		    s.total != f->total || s.rfc != f->rfc || s.resend != f->resend ||
		    strcmp(s.tree, f->tree) || strcmp(s.prefix, f->prefix) || strcmp(s.title, "x"))
			fail_msg("%s: patch %d v%d %d/%d rfc %d resend %d tree \"%s\" prefix \"%s\" "
				 "title \"%s\"", f->subject, s.patch, s.version, s.part, s.total, s.rfc,
				 s.resend, s.tree, s.prefix, s.title);
		wn_subject_clear(&s);
		assert_true(wn_subject_is_patch(f->subject));
		assert_int_equal(wn_subject_part(f->subject), f->part);
	}
	/* Not patches, slash or not: a tree's tag, a path in a group. */
	assert_false(wn_subject_is_patch("[tip: x86/urgent] x"));
	assert_false(wn_subject_is_patch("[linux-next:master 3/5] drivers/x.c: warning"));
	assert_false(wn_subject_is_patch("[PATCHED] x"));
	assert_false(wn_subject_is_patch("[patchwork-bot] x"));
	assert_false(wn_subject_is_patch("Re: [PATCH/RFC] x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subjects),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_real_forms),
	};

	return cmocka_run_group_tests_name("subject", tests, NULL, NULL);
}
