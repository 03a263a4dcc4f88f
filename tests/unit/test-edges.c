/* Edges a change once slipped past: the longest Message-ID
 * a shared verdict file is named by (longer ones by their hash), and a
 * preprocessor line is no part of the signature of the function below
 * it (the tree view's "the function around a line"). */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "share/share-test.h"
#include "winnow/lore.h"

static void test_review_dir_longest_name(void **state)
{
	char id[256], *dir;

	(void) state;
	/* 198 letters and "@x": 200 bytes, kept as they are. */
	memset(id, 'a', 198);
	strcpy(id + 198, "@x");
	dir = wn_sh_review_dir(id);
	assert_non_null(dir);
	assert_non_null(strstr(dir, id));
	free(dir);
	/* One more: named by its hash. */
	memset(id, 'a', 199);
	strcpy(id + 199, "@x");
	dir = wn_sh_review_dir(id);
	assert_non_null(dir);
	assert_null(strstr(dir, "aaaa"));
	assert_non_null(strchr(dir, '~'));
	free(dir);
}

static void test_function_after_preprocessor(void **state)
{
	static const char text[] = "#include <x.h>\n"
				   "static int f(void)\n"
				   "{\n"
				   "\treturn 0;\n"
				   "}\n";
	int start = 0, end = 0;

	(void) state;
	assert_true(wn_tree_function(text, strlen(text), 4, &start, &end));
	assert_int_equal(start, 2);
	assert_int_equal(end, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_review_dir_longest_name),
		cmocka_unit_test(test_function_after_preprocessor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
