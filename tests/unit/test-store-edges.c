/* The write path's negative cases, each caught by a change
 * that once passed every other test: the journal truncated in place
 * under a running reader, an append whose fsync is skipped or fails,
 * and finding N+1 of N (or 0 of a 1-based list) handed to the library directly (winnow mark
 * checks first, the interface and the other callers do not). */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "index/props.h"
#include "store/journal.h"
#include "winnow/memory.h"
#include "winnow/series.h"
#include "scratch-test.h"
#include "winnow/winnow.h"

/* --- fsync, counted and made to fail on demand ------------------------------ */

/* Defined in the program, this fsync is the one journal.c calls
 * (libnotmuch's calls come here too and go on to the kernel). */
static int fsync_calls;
static int fsync_fail;

int fsync(int fd)
{
	fsync_calls++;
	if (fsync_fail) {
		errno = EIO;
		return -1;
	}
	return (int) syscall(SYS_fsync, fd);
}

/* --- the journal alone ------------------------------------------------------ */

struct seen {
	int resets;
	int n;
	char line[8][32];
};

static void on_reset(void *arg)
{
	struct seen *s = arg;

	s->resets++;
	s->n = 0;
}

static wn_status on_line(const char *line, size_t len, void *arg)
{
	struct seen *s = arg;

	if (s->n < 8 && len < 32) {
		memcpy(s->line[s->n], line, len);
		s->line[s->n][len] = '\0';
	}
	s->n++;
	return WN_OK;
}

/* Another program empties the journal in place (same file, shorter)
 * and a line is appended: the running reader starts over and sees
 * that line, not nothing from past the old end. */
static void test_journal_truncated_in_place(void **state)
{
	char *dir = tmpdir();
	wn_journal *reader = NULL, *other = NULL;
	wn_error err = WN_ERROR_INIT;
	struct seen s = { 0 };
	int resets;
	static const char three[] = "first line\nsecond line\nthird line\n";

	(void) state;
	assert_int_equal(wn_journal_open(dir, "/db", &reader, &err), WN_OK);
	assert_int_equal(wn_journal_open(dir, "/db", &other, &err), WN_OK);
	assert_int_equal(wn_journal_append(other, three, strlen(three), &err), WN_OK);
	assert_int_equal(wn_journal_update(reader, on_reset, on_line, &s, &err), WN_OK);
	assert_int_equal(s.n, 3);
	resets = s.resets;
	assert_int_equal(truncate(wn_journal_path(reader), 0), 0);
	assert_int_equal(wn_journal_append(other, "new\n", 4, &err), WN_OK);
	assert_int_equal(wn_journal_update(reader, on_reset, on_line, &s, &err), WN_OK);
	assert_int_equal(s.resets, resets + 1);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.line[0], "new");
	wn_journal_close(&reader);
	wn_journal_close(&other);
	rmtree(dir);
	free(dir);
	wn_error_clear(&err);
}

/* A crash cut the last line short: the next append starts on a line
 * of its own, so the torn line stays one unreadable line and the new
 * one is read whole. */
static void test_journal_append_after_torn(void **state)
{
	char *dir = tmpdir();
	wn_journal *j = NULL;
	wn_error err = WN_ERROR_INIT;
	struct seen s = { 0 };
	FILE *f;
	int torn = 0;

	(void) state;
	assert_int_equal(wn_journal_open(dir, "/db", &j, &err), WN_OK);
	assert_int_equal(wn_journal_append(j, "whole\n", 6, &err), WN_OK);
	assert_non_null(f = fopen(wn_journal_path(j), "a"));
	fputs("torn-hal", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(wn_journal_append(j, "next\n", 5, &err), WN_OK);
	assert_int_equal(wn_journal_read(j, on_line, &s, &torn, &err), WN_OK);
	assert_int_equal(torn, 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.line[0], "whole");
	assert_string_equal(s.line[1], "torn-hal");
	assert_string_equal(s.line[2], "next");
	wn_journal_close(&j);
	rmtree(dir);
	free(dir);
	wn_error_clear(&err);
}

/* An append is synced before it counts; when the sync fails, the
 * append fails and leaves nothing behind to replay. */
static void test_journal_append_synced(void **state)
{
	char *dir = tmpdir();
	wn_journal *j = NULL;
	wn_error err = WN_ERROR_INIT;
	off_t before;
	int calls;

	(void) state;
	assert_int_equal(wn_journal_open(dir, "/db", &j, &err), WN_OK);
	calls = fsync_calls;
	assert_int_equal(wn_journal_append(j, "one\n", 4, &err), WN_OK);
	assert_true(fsync_calls > calls);
	before = size_of(wn_journal_path(j));
	fsync_fail = 1;
	assert_int_equal(wn_journal_append(j, "two\n", 4, &err), WN_IO);
	fsync_fail = 0;
	assert_non_null(strstr(wn_error_msg(&err), "cannot write journal"));
	assert_int_equal(size_of(wn_journal_path(j)), before);
	wn_journal_close(&j);
	rmtree(dir);
	free(dir);
	wn_error_clear(&err);
}

/* --- finding N+1 of N -------------------------------------------------------- */

#define REVIEW_A "20261102102845.9E02AC4CEF3@smtp.kernel.org"

static void test_finding_past_the_end(void **state)
{
	const char *src = getenv("WN_TOP_SRCDIR");
	char *dir = tmpdir(), *cmd = NULL, *cfg = NULL, *st = NULL, *note;
	wn_error err = WN_ERROR_INIT;
	wn_index *idx = NULL;
	wn_store *store = NULL;
	wn_memory *mem = NULL;
	wn_series *ser = NULL;
	wn_item *a = NULL;
	wn_mark_target t;
	wn_seen seen;
	wn_later later;
	wn_fixed fixed;
	size_t n, past[1];

	(void) state;
	assert_true(
		asprintf(&cmd,
			 "bash '%s/tests/lib/mkdb.sh' '%s/tests/corpus/demo' '%s/db' >/dev/null",
			 src ? src : ".", src ? src : ".", dir) > 0);
	assert_int_equal(system(cmd), 0);
	assert_true(asprintf(&cfg, "%s/db/notmuch-config", dir) > 0);
	assert_true(asprintf(&st, "%s/state", dir) > 0);
	assert_int_equal(wn_index_open(cfg, &idx, &err), WN_OK);
	assert_int_equal(wn_store_open(idx, st, &store, &err), WN_OK);
	assert_int_equal(wn_index_find(idx, REVIEW_A, &a, &err), WN_OK);
	wn_store_overlay(store, a);
	n = a->review->nfindings;
	assert_true(n > 0);

	/* 1-based: N+1 is refused, with nothing journaled; N is taken. */
	assert_int_equal(wn_store_mark(store, a, n + 1, WN_VERDICT_VALID, NULL, &err), WN_USAGE);
	assert_non_null(strstr(wn_error_msg(&err), "finding"));
	t = (wn_mark_target){ a, n + 1 };
	assert_int_equal(wn_store_mark_many(store, &t, 1, WN_VERDICT_VALID, NULL, &err), WN_USAGE);
	assert_int_equal(wn_store_mark_why(store, &t, 1, WN_VERDICT_VALID, NULL, 0, &err),
			 WN_USAGE);
	assert_int_equal(wn_store_set_severity(store, a, n + 1, WN_SEV_LOW, &err), WN_USAGE);
	past[0] = n + 1;
	assert_int_equal(wn_store_forwarded(store, a, past, 1, "x@example.org", 0, &err), WN_USAGE);
	assert_int_equal(wn_store_reported(store, a, past, 1, "x@example.org", 0, &err), WN_USAGE);
	past[0] = 0;
	assert_int_equal(wn_store_forwarded(store, a, past, 1, "x@example.org", 0, &err), WN_USAGE);
	assert_int_equal(wn_store_pending(store), 0);
	assert_int_equal(wn_store_mark(store, a, n, WN_VERDICT_VALID, NULL, &err), WN_OK);
	assert_int_equal(a->verdicts[n - 1], WN_VERDICT_VALID);
	past[0] = n;
	assert_int_equal(wn_store_forwarded(store, a, past, 1, "x@example.org", 0, &err), WN_OK);

	/* The note's bound and the verdict's, at the edge: WN_NOTE_MAX
	 * bytes are kept, one more refused; WN_VERDICT_COUNT is no verdict. */
	note = malloc(WN_NOTE_MAX + 2);
	assert_non_null(note);
	memset(note, 'n', WN_NOTE_MAX + 1);
	note[WN_NOTE_MAX + 1] = '\0';
	assert_int_equal(wn_store_mark(store, a, 1, WN_VERDICT_VALID, note, &err), WN_USAGE);
	note[WN_NOTE_MAX] = '\0';
	assert_int_equal(wn_store_mark(store, a, 1, WN_VERDICT_VALID, note, &err), WN_OK);
	free(note);
	assert_int_equal(wn_store_mark(store, a, 1, WN_VERDICT_COUNT, NULL, &err), WN_USAGE);
	t = (wn_mark_target){ a, 1 };
	assert_int_equal(wn_store_mark_why(store, &t, 1, WN_VERDICT_COUNT, NULL, 0, &err),
			 WN_USAGE);
	assert_int_equal(
		wn_store_mark_why(store, &t, 1, WN_VERDICT_VALID, NULL, WN_REASON_COUNT, &err),
		WN_USAGE);
	assert_int_equal(wn_store_set_severity(store, a, 1, WN_SEV_COUNT, &err), WN_USAGE);

	/* 0-based: i = N is no finding. */
	assert_int_equal(wn_memory_new(idx, store, &mem, &err), WN_OK);
	assert_int_equal(wn_memory_lookup(mem, a, n, &seen, &err), WN_NOT_FOUND);
	assert_int_equal(wn_series_new(idx, &ser, &err), WN_OK);
	assert_int_equal(wn_series_later(ser, a, n, &later, &err), WN_NOT_FOUND);
	a->verdicts[n - 1] = WN_VERDICT_VALID;
	assert_int_equal(wn_series_fixed(ser, a, n, &fixed, &err), WN_NOT_FOUND);

	wn_series_free(&ser);
	wn_memory_free(&mem);
	wn_item_free(&a);
	assert_int_equal(wn_store_flush(store, 10000, &err), WN_OK);
	wn_store_close(&store);
	wn_index_close(&idx);
	rmtree(dir);
	free(dir);
	free(cmd);
	free(cfg);
	free(st);
	wn_error_clear(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_journal_truncated_in_place),
		cmocka_unit_test(test_journal_append_synced),
		cmocka_unit_test(test_journal_append_after_torn),
		cmocka_unit_test(test_finding_past_the_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
