/* The store out of memory (the store was under its coverage
 * floor, most of what was never run being what happens when an
 * allocation fails).  Linked with --wrap for malloc, calloc, realloc and
 * strdup, so that every one the library makes comes here first; the Nth
 * from a point on fails.  Each action is run once for every N: it must
 * succeed, or say "out of memory" with WN_NOMEM and leave the store as
 * it was or as the action makes it -- done again, it ends as it does
 * with all the memory it wants, and a store opened afresh from the
 * journal agrees. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scratch-test.h"
#include "winnow/winnow.h"

#define REVIEW_A "20261102102845.9E02AC4CEF3@smtp.kernel.org"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

/* 0: never fail; N: the Nth allocation from now fails (and only it). */
static unsigned long fail_at, calls;

static int failing(void)
{
	return fail_at && ++calls == fail_at;
}

void *__wrap_malloc(size_t n)
{
	return failing() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return failing() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return failing() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return failing() ? NULL : __real_strdup(s);
}

static void fail_nth(unsigned long n)
{
	fail_at = n;
	calls = 0;
}

/* Did the allocation made to fail come? */
static int failed(void)
{
	return fail_at && calls >= fail_at;
}

/* What the store says of review A's first two findings. */
struct seen {
	wn_verdict v[2];
	char note[2][32];
	int forwarded[2];
	size_t history;
};

static void look(wn_index *idx, wn_store *s, struct seen *out)
{
	wn_error err = WN_ERROR_INIT;
	wn_history_item *h = NULL;
	wn_item *a = NULL;

	memset(out, 0, sizeof(*out));
	assert_int_equal(wn_index_find(idx, REVIEW_A, &a, &err), WN_OK);
	wn_store_overlay(s, a);
	for (size_t k = 0; k < 2; k++) {
		out->v[k] = a->verdicts[k];
		snprintf(out->note[k], sizeof(out->note[k]), "%s", a->notes[k] ? a->notes[k] : "-");
		out->forwarded[k] = a->forwarded[k] != NULL;
	}
	assert_int_equal(wn_store_history(s, &h, &out->history, &err), WN_OK);
	wn_history_free(&h, out->history);
	wn_item_free(&a);
	wn_error_clear(&err);
}

static void same(const struct seen *a, const struct seen *b, unsigned long n)
{
	if (memcmp(a, b, sizeof(*a)) != 0)
		fail_msg("allocation %lu failing: verdicts %d %d / %d %d, notes %s %s / %s %s, "
			 "forwarded %d %d / %d %d, history %zu / %zu",
			 n, a->v[0], a->v[1], b->v[0], b->v[1], a->note[0], a->note[1], b->note[0],
			 b->note[1], a->forwarded[0], a->forwarded[1], b->forwarded[0],
			 b->forwarded[1], a->history, b->history);
}

/* The actions, each on review A (loaded in it) after setup; OPEN opens
 * the store again over the journal setup left. */
enum action { MARK, FORWARD, UNDO, REDO, OPEN };

static wn_status act(enum action what, wn_store *s, wn_item *it, wn_error *err)
{
	wn_mark_spec spec = { .verdict = true, .v = WN_VERDICT_VALID, .note = "kept" };
	size_t one = 1;
	wn_history_item what_undone;
	wn_status st = WN_OK;

	switch (what) {
	case MARK:
		st = wn_store_mark_picked(s, it, NULL, &spec, NULL, err);
		break;
	case FORWARD:
		st = wn_store_forwarded(s, it, &one, 1, "sent@example.org", 1, err);
		break;
	case UNDO:
		if ((st = wn_store_undo_last(s, &what_undone, err)) == WN_OK)
			wn_history_item_clear(&what_undone);
		break;
	case REDO:
		if ((st = wn_store_redo(s, &what_undone, err)) == WN_OK)
			wn_history_item_clear(&what_undone);
		break;
	case OPEN:
		break;
	}
	return st;
}

/* Before the action: a mark of the second finding, and for UNDO one
 * of the first, which it takes back (REDO: and that undo, which it
 * gives back). */
static void setup(enum action what, wn_store *s, wn_item *it)
{
	wn_error err = WN_ERROR_INIT;

	assert_int_equal(wn_store_mark(s, it, 2, WN_VERDICT_FALSE_POSITIVE, "before", &err), WN_OK);
	if (what == UNDO || what == REDO || what == OPEN)
		assert_int_equal(wn_store_mark(s, it, 1, WN_VERDICT_PREEXISTING, NULL, &err),
				 WN_OK);
	if (what == REDO) {
		wn_history_item h;

		assert_int_equal(wn_store_undo_last(s, &h, &err), WN_OK);
		wn_history_item_clear(&h);
	}
	if (what == OPEN)
		assert_int_equal(act(FORWARD, s, it, &err), WN_OK);
	wn_error_clear(&err);
}

static char *new_state(struct scratch_world *w)
{
	char *st = NULL;

	assert_true(asprintf(&st, "%s/state%d", w->dir, w->state++) > 0);
	return st;
}

/* The action run once for every N, until one runs without failing. */
static void each_allocation(struct scratch_world *w, enum action what)
{
	struct seen want, got, fresh;
	wn_error err = WN_ERROR_INIT;
	wn_store *s = NULL, *again = NULL;
	wn_item *it = NULL;
	char *state = new_state(w);
	unsigned long n, nomem = 0;
	wn_status st;
	int hit;

	/* With all the memory it wants. */
	assert_int_equal(wn_store_open(w->idx, state, &s, &err), WN_OK);
	assert_int_equal(wn_index_find(w->idx, REVIEW_A, &it, &err), WN_OK);
	wn_store_overlay(s, it);
	setup(what, s, it);
	assert_int_equal(act(what, s, it, &err), WN_OK);
	look(w->idx, s, &want);
	wn_item_free(&it);
	wn_store_close(&s);
	free(state);

	for (n = 1;; n++) {
		state = new_state(w);
		assert_int_equal(wn_store_open(w->idx, state, &s, &err), WN_OK);
		assert_int_equal(wn_index_find(w->idx, REVIEW_A, &it, &err), WN_OK);
		wn_store_overlay(s, it);
		setup(what, s, it);
		if (what == OPEN) {
			wn_store_close(&s);
			fail_nth(n);
			st = wn_store_open(w->idx, state, &s, &err);
		} else {
			fail_nth(n);
			st = act(what, s, it, &err);
		}
		hit = failed();
		fail_nth(0);
		if (st != WN_OK) {
			assert_int_equal(st, WN_NOMEM);
			if (!strstr(wn_error_msg(&err), "out of memory"))
				fail_msg("allocation %lu failing: %s", n, wn_error_msg(&err));
			assert_true(hit);
			nomem++;
			/* Done again, with the memory back. */
			if (what == OPEN)
				assert_int_equal(wn_store_open(w->idx, state, &s, &err), WN_OK);
			else
				assert_int_equal(act(what, s, it, &err), WN_OK);
		}
		look(w->idx, s, &got);
		same(&got, &want, n);
		assert_int_equal(wn_store_open(w->idx, state, &again, &err), WN_OK);
		look(w->idx, again, &fresh);
		same(&fresh, &want, n);
		wn_store_close(&again);
		wn_store_close(&s);
		wn_item_free(&it);
		free(state);
		if (st == WN_OK && !hit)
			break;
	}
	/* The action allocates: some N made it fail. */
	assert_true(nomem > 0);
	wn_error_clear(&err);
}

static void test_mark(void **state)
{
	each_allocation(*state, MARK);
}

static void test_forward(void **state)
{
	each_allocation(*state, FORWARD);
}

static void test_undo(void **state)
{
	each_allocation(*state, UNDO);
}

static void test_redo(void **state)
{
	each_allocation(*state, REDO);
}

static void test_open(void **state)
{
	each_allocation(*state, OPEN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mark), cmocka_unit_test(test_forward),
		cmocka_unit_test(test_undo), cmocka_unit_test(test_redo),
		cmocka_unit_test(test_open),
	};

	return cmocka_run_group_tests(tests, scratch_world_up, scratch_world_down);
}
