/* Unit tests: did the patch's author answer the review, as
 * wn_index_author_replied reads it from the mails' own headers
 * (src/lib/index/tree.c), against notmuch's own tree as
 * wn_index_load_who walks it, review by review, on
 * tests/corpus/who-parent; and the walk after the headers' reading in
 * the same thread, which takes the listing over (the sanitizers watch
 * what the reading kept). */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/winnow.h"

static void test_headers_then_walk(void **state)
{
	const char *src = getenv("WN_TOP_SRCDIR");
	char dir[] = "/tmp/winnow-tree.XXXXXX", *cmd = NULL, *cfg = NULL;
	wn_error err = WN_ERROR_INIT;
	wn_index *idx = NULL;
	wn_list list = { 0 };
	size_t answered = 0;

	(void) state;
	assert_non_null(mkdtemp(dir));
	assert_true(asprintf(&cmd, "bash '%s/tests/lib/mkdb.sh' '%s/tests/corpus/who-parent' '%s/db' >/dev/null",
			     src ? src : ".", src ? src : ".", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_true(asprintf(&cfg, "%s/db/notmuch-config", dir) > 0);
	assert_int_equal(wn_index_open(cfg, &idx, &err), WN_OK);
	assert_int_equal(wn_index_query(idx, NULL, &list, &err), WN_OK);
	assert_int_equal(list.n, 8);
	for (size_t i = 0; i < list.n; i++) {
		wn_item *it = wn_list_get(idx, &list, i);
		bool replied = false;

		assert_non_null(it);
		assert_int_equal(wn_index_author_replied(idx, it, &replied, &err), WN_OK);
		/* The walk of notmuch's tree says the same. */
		assert_int_equal(wn_index_load_who(idx, it, &err), WN_OK);
		if (replied != (wn_item_author_reply(it) != NULL))
			fail_msg("%s: the headers say %d, notmuch's tree not", it->id, replied);
		answered += replied;
	}
	assert_int_equal(answered, 4);
	wn_list_free(&list);
	wn_index_close(&idx);
	wn_error_clear(&err);
	assert_true(asprintf(&cmd, "rm -rf '%s'", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headers_then_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
