/* winnow — unit tests of winnow fetch's lei query and of reading
 * MAINTAINERS sections (src/lib/lore). */
#include "autoconfig.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "winnow/conf.h"
#include "winnow/lore.h"
#include "winnow/text.h"

/* A list of literals as the library takes conf's lists. */
#define V(...) ((char *const *) (const char *const[]) { __VA_ARGS__, NULL })

static char *query(char *const *files, char *const *excluded, const char *since, wn_status want)
{
	wn_error err = WN_ERROR_INIT;
	char *q = NULL;

	assert_int_equal(wn_fetch_query(files, excluded, since, &q, &err), want);
	if (want != WN_OK) {
		assert_null(q);
		q = strdup(wn_error_msg(&err));
	}
	wn_error_clear(&err);
	return q;
}

static void test_query(void **state)
{
	char *const *files = V("drivers/frob/", "include/linux/frob*.h", "drivers/net/*.c");
	char *q;

	(void) state;
	q = query(files, NULL, "4.weeks.ago", WN_OK);
	/* Globs are cut to their folder: Xapian phrases have no wildcard. */
	assert_string_equal(q, "(dfn:drivers/frob/ OR b:drivers/frob/ OR dfn:include/linux/ OR "
			    "b:include/linux/ OR dfn:drivers/net/ OR b:drivers/net/) AND rt:4.weeks.ago..");
	free(q);
}

static void test_excluded(void **state)
{
	char *const *files = V("drivers/frob/", "drivers/frob/legacy/", "drivers/frob/legacy/old.c");
	char *const *x = V("drivers/frob/legacy/");
	char *const *only = V("drivers/frob/legacy/");
	char *q;

	(void) state;
	/* X: drops the patterns it covers, never the wider one. */
	q = query(files, x, "2026-01-01", WN_OK);
	assert_string_equal(q, "(dfn:drivers/frob/ OR b:drivers/frob/) AND rt:2026-01-01..");
	free(q);
	q = query(only, x, "2026-01-01", WN_CONFIG);
	assert_non_null(strstr(q, "no files to fetch"));
	free(q);
}

static void test_refused(void **state)
{
	char *const *quote = V("drivers/frob\") OR (x");
	char *const *space = V("drivers/frob OR x");
	char *const *every = V("*");
	char *const *ok = V("drivers/frob/");
	char *q;

	(void) state;
	q = query(quote, NULL, "4.weeks.ago", WN_CONFIG);
	assert_non_null(strstr(q, "holds '\"'"));
	free(q);
	q = query(space, NULL, "4.weeks.ago", WN_CONFIG);
	assert_non_null(strstr(q, "holds ' '"));
	free(q);
	q = query(every, NULL, "4.weeks.ago", WN_CONFIG);
	assert_non_null(strstr(q, "matches every file"));
	free(q);
	q = query(ok, NULL, "4 weeks ago", WN_CONFIG);
	assert_non_null(strstr(q, "winnow.fetch_since"));
	free(q);
	q = query(ok, NULL, "1.week.ago) OR (x", WN_CONFIG);
	assert_non_null(strstr(q, "winnow.fetch_since"));
	free(q);
	q = query(NULL, NULL, "4.weeks.ago", WN_CONFIG);
	free(q);
}

/* winnow.fetch_since is one of lei's dates, never a range or an
 * option; winnow.fetch_folder one folder's name. */
static void test_strict_settings(void **state)
{
	static const char *const dates[] = { "4.weeks.ago", "1.day.ago", "12.hours.ago",
					     "2026-01-01", "yesterday" };
	static const char *const not_dates[] = { "2026-01-01..2026-02-01", "2026-01-01..", "..2.days.ago",
						 "--help", "-1.day.ago", "4.weeks", "4.fortnights.ago",
						 "2026-1-1", "20260101", "4.weeks.ago\n", "now" };
	static const char *const folders[] = { "lore", "lore-fetch", ".lore", "l\xc3\xb6re" };
	static const char *const not_folders[] = { "", "lore/fetch", "/abs", "../outside", ".", "..",
						   "cur", "new", "tmp", ".notmuch", "-o", "--help",
						   "lo\nre", "lo\x1bre", "lore\x7f" };
	char *const *ok = V("drivers/frob/");
	wn_error err = WN_ERROR_INIT;
	char *q;

	(void) state;
	for (size_t k = 0; k < sizeof(dates) / sizeof(dates[0]); k++)
		free(query(ok, NULL, dates[k], WN_OK));
	for (size_t k = 0; k < sizeof(not_dates) / sizeof(not_dates[0]); k++) {
		q = query(ok, NULL, not_dates[k], WN_CONFIG);
		assert_non_null(strstr(q, "winnow.fetch_since"));
		assert_null(strchr(q, '\n'));
		free(q);
	}
	for (size_t k = 0; k < sizeof(folders) / sizeof(folders[0]); k++)
		assert_int_equal(wn_fetch_check_folder(folders[k], &err), WN_OK);
	for (size_t k = 0; k < sizeof(not_folders) / sizeof(not_folders[0]); k++) {
		assert_int_equal(wn_fetch_check_folder(not_folders[k], &err), WN_CONFIG);
		assert_non_null(strstr(wn_error_msg(&err), "winnow.fetch_folder"));
		for (const char *c = wn_error_msg(&err); *c; c++)
			assert_true((unsigned char) *c >= ' ' && *c != 0x7f);
	}
	wn_error_clear(&err);
}

static const char maintainers[] =
	"List of maintainers\n"
	"F:	not/a/section\n"
	"\n"
	"FROB DRIVER\n"
	"M:	Frob Maintainer <maintainer@example.org>\n"
	"F:	drivers/frob/\n"
	"F:	include/linux/frob.h\n"
	"X:	drivers/frob/legacy/\n"
	"\n"
	"OTHER DRIVER\n"
	"F:	drivers/other/\n"
	"F:	drivers/frob/shared.c\n";

static void test_maintainers(void **state)
{
	char *const *want = V("frob driver", "Other Driver");
	char *const *missing = V("FROB DRIVER", "NO SUCH");
	char **files = NULL, **x = NULL;
	wn_error err = WN_ERROR_INIT;

	(void) state;
	assert_int_equal(wn_maintainers_patterns(maintainers, strlen(maintainers), want, &files, &x,
						 &err), WN_OK);
	assert_string_equal(files[0], "drivers/frob/");
	assert_string_equal(files[1], "include/linux/frob.h");
	assert_string_equal(files[2], "drivers/other/");
	assert_string_equal(files[3], "drivers/frob/shared.c");
	assert_null(files[4]);
	assert_string_equal(x[0], "drivers/frob/legacy/");
	assert_null(x[1]);
	wn_strv_free(files);
	wn_strv_free(x);
	files = x = NULL;
	assert_int_equal(wn_maintainers_patterns(maintainers, strlen(maintainers), missing, &files,
						 &x, &err), WN_NOT_FOUND);
	assert_string_equal(wn_error_msg(&err), "MAINTAINERS has no section 'NO SUCH'");
	wn_strv_free(files);
	wn_strv_free(x);
	wn_error_clear(&err);
}

static const char source[] =
	"// SPDX-License-Identifier: GPL-2.0\n"	/* 1 */
	"#include <linux/module.h>\n"
	"\n"
	"static int\n"				/* 4 */
	"frob_probe(struct platform_device *pdev,\n"
	"\t   int flags)\n"
	"{\n"					/* 7 */
	"\treturn 0;\n"
	"}\n"					/* 9 */
	"\n"
	"/* the remove path */\n"		/* 11 */
	"static void frob_remove(void)\n"	/* 12 */
	"{\n"
	"\tif (x) {\n"
	"\t\ty();\n"				/* 15 */
	"\t}\n"
	"}\n"					/* 17 */
	"MODULE_LICENSE(\"GPL\");\n";		/* 18 */

static void test_function(void **state)
{
	size_t n = strlen(source);
	int start = 0, end = 0;

	(void) state;
	/* A signature over three lines, from its first line. */
	assert_true(wn_tree_function(source, n, 8, &start, &end));
	assert_int_equal(start, 4);
	assert_int_equal(end, 9);
	/* The comment above is not the signature; an inner brace is not
	 * the end. */
	assert_true(wn_tree_function(source, n, 15, &start, &end));
	assert_int_equal(start, 12);
	assert_int_equal(end, 17);
	assert_true(wn_tree_function(source, n, 17, &start, &end));
	assert_int_equal(start, 12);
	/* Outside every function, or past the end: nothing. */
	assert_false(wn_tree_function(source, n, 10, &start, &end));
	assert_false(wn_tree_function(source, n, 18, &start, &end));
	assert_false(wn_tree_function(source, n, 2, &start, &end));
	assert_false(wn_tree_function(source, n, 0, &start, &end));
	assert_false(wn_tree_function(source, n, 99, &start, &end));
}

/* A finding's file comes from mail: it must not leave the tree. */
static void test_tree_file(void **state)
{
	static const char *const hostile[] = { "../outside.c", "/etc/passwd", "drivers/../../x",
					       "./drivers/frob.c", "drivers/\x1b[2Jfrob.c", "" };
	char root[] = "/tmp/winnow-test-lore.XXXXXX", *path = NULL, *inner;
	wn_tree t = { .root = root };
	wn_finding f = { 0 };
	wn_error err = WN_ERROR_INIT;
	FILE *fp;

	(void) state;
	assert_non_null(mkdtemp(root));
	inner = wn_strdupf("%s/frob.c", root);
	assert_non_null(fp = fopen(inner, "w"));
	fclose(fp);
	for (size_t k = 0; k < sizeof(hostile) / sizeof(hostile[0]); k++) {
		f.file = (char *) hostile[k];
		assert_int_equal(wn_tree_file(&t, &f, &path, &err), WN_NOT_FOUND);
		assert_null(path);
	}
	f.file = NULL;
	assert_int_equal(wn_tree_file(&t, &f, &path, &err), WN_NOT_FOUND);
	assert_string_equal(wn_error_msg(&err), "the finding names no file");
	f.file = (char *) "frob.c";
	assert_int_equal(wn_tree_file(&t, &f, &path, &err), WN_OK);
	assert_string_equal(path, inner);
	free(path);
	f.file = (char *) "gone.c";
	assert_int_equal(wn_tree_file(&t, &f, &path, &err), WN_NOT_FOUND);
	assert_string_equal(wn_error_msg(&err), "gone.c is not in the tree");
	unlink(inner);
	rmdir(root);
	free(inner);
	wn_error_clear(&err);
}

/* The keys of fetch and the tree: paths and section names keep their
 * case, and empty values give the defaults back. */
static void test_conf(void **state)
{
	wn_conf c;

	(void) state;
	assert_int_equal(wn_conf_init(&c), WN_OK);
	assert_null(c.tree);
	assert_null(c.files[0]);
	assert_string_equal(c.fetch_since, WN_DEFAULT_FETCH_SINCE);
	assert_string_equal(c.fetch_folder, WN_DEFAULT_FETCH_FOLDER);
	assert_int_equal(wn_conf_set(&c, "winnow.files", "drivers/Frob/; include/linux/frob.h;"), WN_OK);
	assert_string_equal(c.files[0], "drivers/Frob/");
	assert_string_equal(c.files[1], "include/linux/frob.h");
	assert_null(c.files[2]);
	assert_int_equal(wn_conf_set(&c, "winnow.sections", "FROB Driver"), WN_OK);
	assert_string_equal(c.sections[0], "FROB Driver");
	assert_int_equal(wn_conf_set(&c, "winnow.tree", "/src/linux"), WN_OK);
	assert_string_equal(c.tree, "/src/linux");
	assert_int_equal(wn_conf_set(&c, "winnow.tree", ""), WN_OK);
	assert_null(c.tree);
	assert_int_equal(wn_conf_set(&c, "winnow.fetch_since", "2026-01-01"), WN_OK);
	assert_string_equal(c.fetch_since, "2026-01-01");
	assert_int_equal(wn_conf_set(&c, "winnow.fetch_since", ""), WN_OK);
	assert_string_equal(c.fetch_since, WN_DEFAULT_FETCH_SINCE);
	assert_int_equal(wn_conf_set(&c, "winnow.fetch_folder", ""), WN_OK);
	assert_string_equal(c.fetch_folder, WN_DEFAULT_FETCH_FOLDER);
	wn_conf_clear(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_query),
		cmocka_unit_test(test_excluded),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_strict_settings),
		cmocka_unit_test(test_maintainers),
		cmocka_unit_test(test_function),
		cmocka_unit_test(test_tree_file),
		cmocka_unit_test(test_conf),
	};

	return cmocka_run_group_tests_name("lore", tests, NULL, NULL);
}
