/* The write path in-process, on a real notmuch database built from the
 * demo corpus: bulk marks undone as one action, undo of an older action,
 * the history, forward records, and a stale item refreshed before a
 * mark (so it never erases another program's write). */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "winnow/forward.h"
#include "winnow/winnow.h"

#define REVIEW_A "20261102102845.9E02AC4CEF3@smtp.kernel.org"
#define REVIEW_B "20261104023058.D3ADBC4CEC7@smtp.kernel.org"

struct world {
	char dir[64];
	wn_index *idx;
	wn_store *store;
};

static char *config_path(const struct world *w)
{
	char *p = NULL;

	assert_true(asprintf(&p, "%s/db/notmuch-config", w->dir) > 0);
	return p;
}

static int setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));
	const char *src = getenv("WN_TOP_SRCDIR");
	char *cmd = NULL, *cfg, *st = NULL;
	wn_error err = WN_ERROR_INIT;

	strcpy(w->dir, "/tmp/winnow-store.XXXXXX");
	assert_non_null(mkdtemp(w->dir));
	assert_true(asprintf(&cmd, "bash '%s/tests/lib/mkdb.sh' '%s/tests/corpus/demo' '%s/db' >/dev/null",
			     src ? src : ".", src ? src : ".", w->dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	cfg = config_path(w);
	assert_int_equal(wn_index_open(cfg, &w->idx, &err), WN_OK);
	assert_true(asprintf(&st, "%s/state", w->dir) > 0);
	assert_int_equal(wn_store_open(w->idx, st, &w->store, &err), WN_OK);
	wn_error_clear(&err);
	free(st);
	free(cfg);
	*state = w;
	return 0;
}

static int teardown(void **state)
{
	struct world *w = *state;
	char *cmd = NULL;

	wn_store_close(&w->store);
	wn_index_close(&w->idx);
	if (asprintf(&cmd, "rm -rf '%s'", w->dir) > 0 && system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", w->dir);
	free(cmd);
	free(w);
	return 0;
}

static wn_item *find(struct world *w, const char *id)
{
	wn_error err = WN_ERROR_INIT;
	wn_item *it = NULL;

	assert_int_equal(wn_index_find(w->idx, id, &it, &err), WN_OK);
	wn_store_overlay(w->store, it);
	wn_error_clear(&err);
	return it;
}

static void flush(struct world *w)
{
	wn_error err = WN_ERROR_INIT;

	assert_int_equal(wn_store_flush(w->store, 10000, &err), WN_OK);
	assert_int_equal(wn_store_pending(w->store), 0);
	wn_error_clear(&err);
}

/* What notmuch holds, read afresh. */
/* Undo the last change, as U does; *undone: 1 when it reverted any. */
static wn_status undo_last(struct world *w, size_t *undone)
{
	wn_history_item what;
	wn_error err = { 0 };
	wn_status st = wn_store_undo_last(w->store, &what, &err);

	*undone = st == WN_OK && what.reverted > 0;
	if (st == WN_OK)
		wn_history_item_clear(&what);
	return st;
}

static wn_verdict stored(struct world *w, const char *id, size_t finding)
{
	wn_item *it = find(w, id);
	wn_verdict v = it->verdicts[finding - 1];

	wn_item_free(&it);
	return v;
}

static void test_bulk_mark_is_one_action(void **state)
{
	struct world *w = *state;
	wn_item *a = find(w, REVIEW_A), *b = find(w, REVIEW_B);
	wn_mark_target t[] = { { a, 0 }, { b, 2 } };
	wn_error err = WN_ERROR_INIT;
	size_t undone = 0;

	assert_int_equal(wn_store_mark_many(w->store, t, 2, WN_VERDICT_FALSE_POSITIVE, "bulk", &err), WN_OK);
	{
		wn_history_item *h = NULL;
		size_t nh = 0;
		wn_mark_target same[] = { { a, 1 }, { a, 2 } };

		assert_int_equal(wn_store_history(w->store, &h, &nh, &err), WN_OK);
		assert_int_equal(h[0].reviews, 2);
		wn_history_free(&h, nh);
		/* Two findings of one review: one review.  (A mark that
		 * changes nothing journals nothing: another verdict.) */
		assert_int_equal(wn_store_mark_many(w->store, same, 2, WN_VERDICT_VALID,
						    NULL, &err), WN_OK);
		assert_int_equal(wn_store_history(w->store, &h, &nh, &err), WN_OK);
		assert_int_equal(h[0].reviews, 1);
		assert_int_equal(h[0].changes, 2);
		wn_history_free(&h, nh);
		assert_int_equal(undo_last(w, &undone), WN_OK);
		wn_store_overlay(w->store, a);
	}
	assert_int_equal(a->counts[WN_VERDICT_FALSE_POSITIVE], a->review->nfindings);
	assert_int_equal(b->verdicts[1], WN_VERDICT_FALSE_POSITIVE);
	flush(w);
	assert_int_equal(stored(w, REVIEW_A, 1), WN_VERDICT_FALSE_POSITIVE);
	assert_int_equal(stored(w, REVIEW_B, 2), WN_VERDICT_FALSE_POSITIVE);
	assert_int_equal(undo_last(w, &undone), WN_OK);
	assert_int_equal(undone, 1);
	flush(w);
	assert_int_equal(stored(w, REVIEW_A, 1), WN_VERDICT_UNTRIAGED);
	assert_int_equal(stored(w, REVIEW_B, 2), WN_VERDICT_UNTRIAGED);
	/* A target out of range refuses the whole action. */
	t[1].finding = 99;
	assert_int_equal(wn_store_mark_many(w->store, t, 2, WN_VERDICT_VALID, NULL, &err), WN_USAGE);
	assert_int_equal(wn_store_pending(w->store), 0);
	wn_item_free(&a);
	wn_item_free(&b);
	wn_error_clear(&err);
}

static void test_history_and_undo_of_an_older_action(void **state)
{
	struct world *w = *state;
	wn_item *a = find(w, REVIEW_A);
	wn_history_item *h = NULL, what = { 0 };
	wn_error err = WN_ERROR_INIT;
	size_t n = 0;
	char *older;

	assert_int_equal(wn_store_mark(w->store, a, 1, WN_VERDICT_VALID, NULL, &err), WN_OK);
	assert_int_equal(wn_store_mark(w->store, a, 2, WN_VERDICT_PREEXISTING, "old bug", &err), WN_OK);
	assert_int_equal(wn_store_history(w->store, &h, &n, &err), WN_OK);
	assert_true(n >= 2);
	assert_string_equal(h[0].review, REVIEW_A);
	assert_int_equal(h[0].to, WN_VERDICT_PREEXISTING);
	assert_true(h[0].note);
	assert_int_equal(h[1].from, WN_VERDICT_UNTRIAGED);
	assert_int_equal(h[1].to, WN_VERDICT_VALID);
	older = strdup(h[1].group);
	wn_history_free(&h, n);
	/* Undo the older one only: finding 2 keeps its verdict. */
	assert_int_equal(wn_store_undo_group(w->store, older, &what, &err), WN_OK);
	assert_string_equal(what.fp, a->review->findings[0].fingerprint);
	assert_int_equal(what.to, WN_VERDICT_VALID);
	wn_history_item_clear(&what);
	flush(w);
	assert_int_equal(stored(w, REVIEW_A, 1), WN_VERDICT_UNTRIAGED);
	assert_int_equal(stored(w, REVIEW_A, 2), WN_VERDICT_PREEXISTING);
	assert_int_equal(wn_store_undo_group(w->store, older, NULL, &err), WN_NOT_FOUND);
	free(older);
	wn_item_free(&a);
	wn_error_clear(&err);
}

/* An older winnow journaled an undo that changed nothing as
 * an entry without changes; the history must not assume a first change
 * (it read e->c[0] of an empty list). */
static void test_history_of_an_empty_undo(void **state)
{
	struct world *w = *state;
	wn_item *a = find(w, REVIEW_A);
	wn_history_item *h = NULL;
	wn_error err = WN_ERROR_INIT;
	size_t n = 0;
	char *line = NULL;
	FILE *f;

	assert_int_equal(wn_store_mark(w->store, a, 1, WN_VERDICT_VALID, NULL, &err), WN_OK);
	assert_int_equal(wn_store_history(w->store, &h, &n, &err), WN_OK);
	assert_int_equal(n, 1);
	assert_true(asprintf(&line, "{\"op\":\"mark\",\"eid\":\"1.2.3.4\",\"group\":\"1.2.3.4\","
			     "\"id\":\"%s\",\"t\":1,\"c\":[],\"undo_of\":\"%s\"}\n",
			     REVIEW_A, h[0].group) > 0);
	wn_history_free(&h, n);
	assert_non_null(f = fopen(wn_store_journal_path(w->store), "a"));
	assert_true(fputs(line, f) >= 0);
	assert_int_equal(fclose(f), 0);
	free(line);
	assert_int_equal(wn_store_history(w->store, &h, &n, &err), WN_OK);
	assert_int_equal(n, 2);
	assert_true(h[0].is_undo);
	assert_int_equal(h[0].changes, 0);
	assert_string_equal(h[0].fp, "");
	assert_true(h[1].undone);
	wn_history_free(&h, n);
	wn_item_free(&a);
	wn_error_clear(&err);
}

/* The undo of the last change stays within what this
 * store journaled or found at open; a finding another store changed since
 * keeps that decision, and an undo that changes nothing journals nothing
 * and is passed over by the next. */
static void test_undo_keeps_a_newer_decision(void **state)
{
	struct world *w = *state;
	wn_item *a = find(w, REVIEW_A), *a2;
	wn_history_item what = { 0 }, *h = NULL;
	wn_error err = WN_ERROR_INIT;
	wn_store *other = NULL;
	char *st = NULL;
	size_t n = 0, before;

	assert_int_equal(wn_store_mark(w->store, a, 2, WN_VERDICT_VALID, NULL, &err), WN_OK);
	assert_int_equal(wn_store_mark(w->store, a, 1, WN_VERDICT_VALID, NULL, &err), WN_OK);
	assert_true(asprintf(&st, "%s/state", w->dir) > 0);
	assert_int_equal(wn_store_open(w->idx, st, &other, &err), WN_OK);
	a2 = find(w, REVIEW_A);
	assert_int_equal(wn_store_mark(other, a2, 1, WN_VERDICT_FALSE_POSITIVE, NULL, &err), WN_OK);
	assert_int_equal(wn_store_history(w->store, &h, &n, &err), WN_OK);
	before = n;
	wn_history_free(&h, n);
	/* Ours is the mark of finding 1, which the other store changed. */
	assert_int_equal(wn_store_undo_last(w->store, &what, &err), WN_OK);
	assert_int_equal(what.reverted, 0);
	assert_int_equal(what.kept, 1);
	assert_string_equal(what.kept_fp, a->review->findings[0].fingerprint);
	assert_int_equal(what.kept_v, WN_VERDICT_FALSE_POSITIVE);
	wn_history_item_clear(&what);
	assert_int_equal(wn_store_history(w->store, &h, &n, &err), WN_OK);
	assert_int_equal(n, before);
	assert_false(h[0].undone);
	wn_history_free(&h, n);
	/* The next undo passes over it, to our mark of finding 2. */
	assert_int_equal(wn_store_undo_last(w->store, &what, &err), WN_OK);
	assert_int_equal(what.reverted, 1);
	assert_int_equal(what.kept, 0);
	assert_string_equal(what.fp, a->review->findings[1].fingerprint);
	wn_history_item_clear(&what);
	assert_int_equal(wn_store_undo_last(w->store, &what, &err), WN_NOT_FOUND);
	wn_history_item_clear(&what);
	flush(w);
	assert_int_equal(stored(w, REVIEW_A, 1), WN_VERDICT_FALSE_POSITIVE);
	assert_int_equal(stored(w, REVIEW_A, 2), WN_VERDICT_UNTRIAGED);
	wn_store_close(&other);
	wn_item_free(&a2);
	wn_item_free(&a);
	free(st);
	wn_error_clear(&err);
}

static void test_forwarded(void **state)
{
	struct world *w = *state;
	wn_item *a = find(w, REVIEW_A);
	wn_error err = WN_ERROR_INIT;
	size_t which[] = { 2 };
	char *cmd = NULL, *cfg = config_path(w);

	assert_int_equal(wn_store_forwarded(w->store, a, which, 1, "sent-1@example.org",
					    (time_t) 1796000000, &err), WN_OK);
	assert_string_equal(a->forwarded[1], "2026-11-30T00:53:20Z sent-1@example.org");
	assert_null(a->forwarded[0]);
	assert_int_equal(wn_store_pending(w->store), 1);
	flush(w);
	wn_item_free(&a);
	a = find(w, REVIEW_A);
	assert_string_equal(a->forwarded[1], "2026-11-30T00:53:20Z sent-1@example.org");
	assert_true(asprintf(&cmd, "test \"$(NOTMUCH_CONFIG='%s' notmuch search --output=messages "
			     "tag:winnow/forwarded)\" = 'id:%s'", cfg, REVIEW_A) > 0);
	assert_int_equal(system(cmd), 0);
	/* Refused: a finding that does not exist, a Message-ID with space. */
	which[0] = 9;
	assert_int_equal(wn_store_forwarded(w->store, a, which, 1, "x@y", 0, &err), WN_USAGE);
	which[0] = 1;
	assert_int_equal(wn_store_forwarded(w->store, a, which, 1, "x y@z", 0, &err), WN_USAGE);
	free(cmd);
	free(cfg);
	wn_item_free(&a);
	wn_error_clear(&err);
}

static void test_severity_and_reported(void **state)
{
	struct world *w = *state;
	wn_item *a = find(w, REVIEW_A);
	wn_error err = WN_ERROR_INIT;
	size_t which[] = { 1 }, undone = 0;

	assert_int_equal(a->severity[0], WN_SEV_NONE);
	assert_int_equal(wn_store_mark(w->store, a, 1, WN_VERDICT_VALID, NULL, &err), WN_OK);
	assert_int_equal(wn_store_set_severity(w->store, a, 1, WN_SEV_LOW, &err), WN_OK);
	assert_int_equal(a->severity[0], WN_SEV_LOW);
	assert_int_equal(wn_store_reported(w->store, a, which, 1, "digest-1@example.org",
					   (time_t) 1796000000, &err), WN_OK);
	flush(w);
	wn_item_free(&a);
	a = find(w, REVIEW_A);
	assert_int_equal(a->severity[0], WN_SEV_LOW);
	assert_int_equal(a->verdicts[0], WN_VERDICT_VALID);
	assert_string_equal(a->reported[0], "2026-11-30T00:53:20Z digest-1@example.org");
	assert_null(a->forwarded[0]);
	/* Undo takes back the severity, not the verdict before it. */
	assert_int_equal(undo_last(w, &undone), WN_OK);
	flush(w);
	wn_item_free(&a);
	a = find(w, REVIEW_A);
	assert_int_equal(a->severity[0], WN_SEV_NONE);
	assert_int_equal(a->verdicts[0], WN_VERDICT_VALID);
	assert_non_null(a->reported[0]);
	wn_item_free(&a);
	wn_error_clear(&err);
}

/* A reason and a missed bug, journaled and not yet in notmuch
 * when the process goes (as after kill -9), are there when the journal
 * is read again, reach notmuch at the next flush, and undo takes the
 * reason back with its verdict. */
static void test_reason_and_missed_replayed(void **state)
{
	struct world *w = *state;
	wn_item *a = find(w, REVIEW_A);
	wn_error err = WN_ERROR_INIT;
	wn_mark_target t = { a, 1 };
	size_t undone = 0;
	char *st = NULL;

	assert_int_equal(wn_store_mark_why(w->store, &t, 1, WN_VERDICT_FALSE_POSITIVE, NULL,
					   WN_REASON_HANDLED_ELSEWHERE, &err), WN_OK);
	assert_int_equal(wn_store_missed(w->store, a, "leaks on the error path", (time_t) 1796000000,
					 &err), WN_OK);
	assert_int_equal(a->reasons[0], WN_REASON_HANDLED_ELSEWHERE);
	assert_int_equal(a->nmisses, 1);
	assert_int_equal(wn_store_missed(w->store, a, "two\nlines", 0, &err), WN_USAGE);
	assert_int_equal(wn_store_missed(w->store, a, "", 0, &err), WN_USAGE);
	wn_item_free(&a);
	/* Gone without a flush; the journal is read anew. */
	wn_store_close(&w->store);
	assert_true(asprintf(&st, "%s/state", w->dir) > 0);
	assert_int_equal(wn_store_open(w->idx, st, &w->store, &err), WN_OK);
	free(st);
	assert_int_equal(wn_store_pending(w->store) > 0, true);
	a = find(w, REVIEW_A);
	assert_int_equal(a->verdicts[0], WN_VERDICT_FALSE_POSITIVE);
	assert_int_equal(a->reasons[0], WN_REASON_HANDLED_ELSEWHERE);
	assert_int_equal(a->nmisses, 1);
	assert_string_equal(a->misses[0], "2026-11-30T00:53:20Z leaks on the error path");
	wn_item_free(&a);
	flush(w);
	a = find(w, REVIEW_A);
	assert_int_equal(a->reasons[0], WN_REASON_HANDLED_ELSEWHERE);
	assert_int_equal(a->nmisses, 1);
	assert_int_equal(a->reasons[1], WN_REASON_NONE);
	wn_item_free(&a);
	assert_int_equal(undo_last(w, &undone), WN_OK);
	flush(w);
	a = find(w, REVIEW_A);
	assert_int_equal(a->verdicts[0], WN_VERDICT_UNTRIAGED);
	assert_int_equal(a->reasons[0], WN_REASON_NONE);
	assert_int_equal(a->nmisses, 1);	/* never undone */
	wn_item_free(&a);
	wn_error_clear(&err);
}

/* A view loaded before another program wrote must not undo that write:
 * the mark is decided from notmuch as it is now. */
static void test_stale_item_refreshed(void **state)
{
	struct world *w = *state;
	wn_item *stale = find(w, REVIEW_B), *other;
	wn_error err = WN_ERROR_INIT;
	size_t undone;

	other = find(w, REVIEW_B);
	assert_int_equal(wn_store_mark(w->store, other, 1, WN_VERDICT_VALID, "from elsewhere", &err), WN_OK);
	flush(w);
	wn_item_free(&other);
	assert_int_equal(stale->verdicts[0], WN_VERDICT_UNTRIAGED);
	assert_int_equal(wn_store_mark(w->store, stale, 1, WN_VERDICT_PREEXISTING, NULL, &err), WN_OK);
	assert_string_equal(stale->notes[0], "from elsewhere");
	assert_int_equal(undo_last(w, &undone), WN_OK);
	flush(w);
	other = find(w, REVIEW_B);
	assert_int_equal(other->verdicts[0], WN_VERDICT_VALID);
	assert_string_equal(other->notes[0], "from elsewhere");
	wn_item_free(&other);
	wn_item_free(&stale);
	wn_error_clear(&err);
}

/* A reader (winnow show) opened its index and read the journal while
 * another winnow's verdict was still pending; that winnow's writer then
 * committed it and journaled it as applied, and the reader's replay
 * read that line.  The verdict shows: the journal no longer overlays
 * it, so the reader's index must be the one after the commit.  Before
 * the index was reopened on such a line, the reader showed untriaged
 * right after the other winnow acknowledged the verdict. */
static void test_reader_after_another_writer(void **state)
{
	struct world *w = *state;
	wn_item *a = find(w, REVIEW_A), *seen = NULL;
	wn_error err = WN_ERROR_INIT;
	wn_index *ridx = NULL;
	wn_store *reader = NULL;
	char *cfg = config_path(w), *st = NULL;

	assert_int_equal(wn_store_mark_why(w->store, &(wn_mark_target){ a, 1 }, 1,
					   WN_VERDICT_FALSE_POSITIVE, NULL, WN_REASON_WRONG_RULE,
					   &err),
			 WN_OK);
	assert_true(asprintf(&st, "%s/state", w->dir) > 0);
	assert_int_equal(wn_index_open(cfg, &ridx, &err), WN_OK);
	assert_int_equal(wn_store_open(ridx, st, &reader, &err), WN_OK);
	assert_int_equal(wn_store_pending(reader), 1);
	flush(w);
	assert_int_equal(wn_store_replay(reader, 500, &err), WN_OK);
	assert_int_equal(wn_store_pending(reader), 0);
	assert_int_equal(wn_index_find(ridx, REVIEW_A, &seen, &err), WN_OK);
	wn_store_overlay(reader, seen);
	assert_int_equal(seen->verdicts[0], WN_VERDICT_FALSE_POSITIVE);
	assert_int_equal(seen->reasons[0], WN_REASON_WRONG_RULE);
	wn_item_free(&seen);
	wn_store_close(&reader);
	wn_index_close(&ridx);
	wn_item_free(&a);
	free(st);
	free(cfg);
	wn_error_clear(&err);
}

/* The group of the newest action but skip (0: the newest). */
static char *group_of(struct world *w, size_t skip)
{
	wn_history_item *h = NULL;
	wn_error err = WN_ERROR_INIT;
	size_t n = 0;
	char *g;

	assert_int_equal(wn_store_history(w->store, &h, &n, &err), WN_OK);
	assert_true(n > skip);
	g = strdup(h[skip].group);
	wn_history_free(&h, n);
	return g;
}

/* The undo of an older action keeps a note and a reason
 * written on its findings since.  One that set neither reverts the
 * verdict and leaves them; one that set them, overwritten since, keeps
 * the newer decision whole. */
static void test_undo_of_an_older_mark_keeps_a_newer_note(void **state)
{
	struct world *w = *state;
	wn_item *a = find(w, REVIEW_A);
	wn_mark_target t1 = { a, 1 }, t2 = { a, 2 };
	wn_history_item what = { 0 };
	wn_error err = WN_ERROR_INIT;
	char *older;

	/* Finding 1: a verdict alone, then a note and a reason beside it. */
	assert_int_equal(wn_store_mark(w->store, a, 1, WN_VERDICT_FALSE_POSITIVE, NULL, &err), WN_OK);
	assert_int_equal(wn_store_mark_why(w->store, &t1, 1, WN_VERDICT_FALSE_POSITIVE, "newer note",
					   WN_REASON_INTENDED, &err), WN_OK);
	older = group_of(w, 1);
	assert_int_equal(wn_store_undo_group(w->store, older, &what, &err), WN_OK);
	assert_int_equal(what.reverted, 1);
	wn_history_item_clear(&what);
	free(older);
	flush(w);
	wn_item_free(&a);
	a = find(w, REVIEW_A);
	assert_int_equal(a->verdicts[0], WN_VERDICT_UNTRIAGED);
	assert_non_null(a->notes[0]);
	assert_string_equal(a->notes[0], "newer note");
	assert_int_equal(a->reasons[0], WN_REASON_INTENDED);

	/* Finding 2: a note and a reason, then another note over them. */
	t2.it = a;
	assert_int_equal(wn_store_mark_why(w->store, &t2, 1, WN_VERDICT_FALSE_POSITIVE, "older note",
					   WN_REASON_WRONG_RULE, &err), WN_OK);
	assert_int_equal(wn_store_mark(w->store, a, 2, WN_VERDICT_FALSE_POSITIVE, "newest note", &err),
			 WN_OK);
	older = group_of(w, 1);
	assert_int_equal(wn_store_undo_group(w->store, older, &what, &err), WN_OK);
	assert_int_equal(what.reverted, 0);
	assert_int_equal(what.kept, 1);
	wn_history_item_clear(&what);
	free(older);
	flush(w);
	wn_item_free(&a);
	a = find(w, REVIEW_A);
	t2.it = a;
	assert_int_equal(a->verdicts[1], WN_VERDICT_FALSE_POSITIVE);
	assert_non_null(a->notes[1]);
	assert_string_equal(a->notes[1], "newest note");
	assert_int_equal(a->reasons[1], WN_REASON_WRONG_RULE);
	/* Only the reason changed since: that is a newer decision too. */
	assert_int_equal(wn_store_mark_why(w->store, &t2, 1, WN_VERDICT_PREEXISTING, "pre note",
					   WN_REASON_NONE, &err), WN_OK);
	assert_int_equal(wn_store_mark_why(w->store, &t2, 1, WN_VERDICT_PREEXISTING, NULL,
					   WN_REASON_DUPLICATE, &err), WN_OK);
	older = group_of(w, 1);
	assert_int_equal(wn_store_undo_group(w->store, older, &what, &err), WN_OK);
	assert_int_equal(what.reverted, 0);
	wn_history_item_clear(&what);
	free(older);
	flush(w);
	wn_item_free(&a);
	a = find(w, REVIEW_A);
	assert_int_equal(a->verdicts[1], WN_VERDICT_PREEXISTING);
	assert_non_null(a->notes[1]);
	assert_string_equal(a->notes[1], "pre note");
	assert_int_equal(a->reasons[1], WN_REASON_DUPLICATE);
	wn_item_free(&a);
	wn_error_clear(&err);
}

static size_t history_len(struct world *w)
{
	wn_history_item *h = NULL;
	wn_error err = WN_ERROR_INIT;
	size_t n = 0;

	assert_int_equal(wn_store_history(w->store, &h, &n, &err), WN_OK);
	wn_history_free(&h, n);
	return n;
}

/* Undo of several actions is one action, which one redo
 * gives back whole (a finding two of them changed step by step), as an
 * action undo reverts; a redo over a finding changed since the undo is
 * refused and writes nothing. */
static void test_undo_many_and_redo(void **state)
{
	struct world *w = *state;
	wn_item *a = find(w, REVIEW_A);
	wn_history_item *h = NULL, what = { 0 };
	wn_error err = WN_ERROR_INIT;
	size_t n = 0, count = 0, len;

	assert_int_equal(wn_store_mark(w->store, a, 1, WN_VERDICT_VALID, "first", &err), WN_OK);
	assert_int_equal(wn_store_mark(w->store, a, 2, WN_VERDICT_FALSE_POSITIVE, NULL, &err), WN_OK);
	assert_int_equal(wn_store_mark(w->store, a, 1, WN_VERDICT_PREEXISTING, "second", &err), WN_OK);
	assert_int_equal(wn_store_undo_count(w->store, 99, &count, &err), WN_OK);
	assert_int_equal(count, 3);
	assert_int_equal(wn_store_undo_count(w->store, 2, &count, &err), WN_OK);
	assert_int_equal(count, 2);
	assert_int_equal(wn_store_redo(w->store, &what, &err), WN_NOT_FOUND);
	wn_history_item_clear(&what);

	assert_int_equal(wn_store_undo_many(w->store, 99, &h, &n, &err), WN_OK);
	assert_int_equal(n, 3);
	for (size_t k = 0; k < n; k++)
		assert_int_equal(h[k].reverted, 1);
	assert_int_equal(h[0].to, WN_VERDICT_PREEXISTING);
	wn_history_free(&h, n);
	flush(w);
	assert_int_equal(stored(w, REVIEW_A, 1), WN_VERDICT_UNTRIAGED);
	assert_int_equal(stored(w, REVIEW_A, 2), WN_VERDICT_UNTRIAGED);
	assert_int_equal(wn_store_undo_count(w->store, 99, &count, &err), WN_OK);
	assert_int_equal(count, 0);
	assert_int_equal(wn_store_history(w->store, &h, &n, &err), WN_OK);
	assert_int_equal(n, 4);
	assert_true(h[0].is_undo);
	assert_int_equal(h[0].actions, 3);
	assert_false(h[0].redone);
	assert_true(h[1].undone && h[2].undone && h[3].undone);
	wn_history_free(&h, n);

	assert_int_equal(wn_store_redo(w->store, &what, &err), WN_OK);
	assert_true(what.is_redo);
	assert_int_equal(what.actions, 3);
	assert_int_equal(what.reverted, 3);
	wn_history_item_clear(&what);
	flush(w);
	wn_item_free(&a);
	a = find(w, REVIEW_A);
	assert_int_equal(a->verdicts[0], WN_VERDICT_PREEXISTING);
	assert_string_equal(a->notes[0], "second");
	assert_int_equal(a->verdicts[1], WN_VERDICT_FALSE_POSITIVE);
	assert_int_equal(wn_store_history(w->store, &h, &n, &err), WN_OK);
	assert_int_equal(n, 5);
	assert_true(h[0].is_redo);
	assert_false(h[0].undone);
	assert_true(h[1].is_undo && h[1].redone);
	wn_history_free(&h, n);
	assert_int_equal(wn_store_redo(w->store, &what, &err), WN_NOT_FOUND);
	wn_history_item_clear(&what);

	/* The redo is one action: one undo takes all of it back. */
	assert_int_equal(wn_store_undo_last(w->store, &what, &err), WN_OK);
	assert_true(what.is_redo);
	assert_int_equal(what.reverted, 3);
	wn_history_item_clear(&what);
	flush(w);
	wn_item_free(&a);
	a = find(w, REVIEW_A);
	assert_int_equal(a->verdicts[0], WN_VERDICT_UNTRIAGED);
	assert_null(a->notes[0]);
	assert_int_equal(a->verdicts[1], WN_VERDICT_UNTRIAGED);

	/* Changed since that undo: no redo, nothing written. */
	assert_int_equal(wn_store_mark(w->store, a, 2, WN_VERDICT_VALID, NULL, &err), WN_OK);
	len = history_len(w);
	assert_int_equal(wn_store_redo(w->store, &what, &err), WN_USAGE);
	assert_int_equal(what.kept, 1);
	assert_string_equal(what.kept_review, REVIEW_A);
	assert_string_equal(what.kept_fp, a->review->findings[1].fingerprint);
	assert_int_equal(what.kept_v, WN_VERDICT_VALID);
	wn_history_item_clear(&what);
	assert_int_equal(history_len(w), len);
	flush(w);
	assert_int_equal(stored(w, REVIEW_A, 1), WN_VERDICT_UNTRIAGED);
	assert_int_equal(stored(w, REVIEW_A, 2), WN_VERDICT_VALID);
	/* Once the finding is as the undo left it again, the redo goes
	 * through. */
	assert_int_equal(wn_store_mark(w->store, a, 2, WN_VERDICT_UNTRIAGED, NULL, &err), WN_OK);
	assert_int_equal(wn_store_redo(w->store, &what, &err), WN_OK);
	wn_history_item_clear(&what);
	flush(w);
	assert_int_equal(stored(w, REVIEW_A, 1), WN_VERDICT_PREEXISTING);
	assert_int_equal(stored(w, REVIEW_A, 2), WN_VERDICT_FALSE_POSITIVE);
	wn_item_free(&a);
	wn_error_clear(&err);
}

/* The queue's first screen: the newest reviews, a prefix of the whole
 * list in the same order, widened until it holds enough; the rows read
 * from it carried over to the whole list. */
static time_t utc(int y, int mo, int d)
{
	struct tm tm = { .tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d };

	return timegm(&tm);
}

static void expect_prefix(struct world *w, const char *query, time_t now, size_t min_rows,
			  size_t want_n, bool want_partial)
{
	wn_list all = { 0 }, part = { 0 };
	wn_error err = WN_ERROR_INIT;

	assert_int_equal(wn_index_query(w->idx, query, &all, &err), WN_OK);
	assert_int_equal(wn_index_query_recent(w->idx, query, now, min_rows, &part, &err), WN_OK);
	assert_int_equal(part.n, want_n);
	assert_int_equal(part.partial, want_partial);
	assert_false(all.partial);
	for (size_t i = 0; i < part.n; i++)
		assert_string_equal(wn_list_get(w->idx, &part, i)->id, wn_list_get(w->idx, &all, i)->id);
	wn_list_free(&part);
	wn_list_free(&all);
}

static void test_query_recent(void **state)
{
	struct world *w = *state;
	time_t nov10 = utc(2026, 11, 10);
	wn_list all = { 0 }, part = { 0 };
	wn_error err = WN_ERROR_INIT;
	wn_item *first;

	/* The date windows themselves: no ids kept from a run before. */
	setenv("WINNOW_NO_CACHE", "1", 1);
	/* Six reviews from Nov 3 on: the first week is enough for 5. */
	expect_prefix(w, NULL, nov10, 5, 6, true);
	/* All six on Nov 4: the day before Nov 5 is, and not the week's 9. */
	expect_prefix(w, NULL, utc(2026, 11, 5), 5, 6, true);
	/* Not for 7: four weeks, all nine. */
	expect_prefix(w, NULL, nov10, 7, 9, true);
	/* No window holds 10: the whole list. */
	expect_prefix(w, NULL, nov10, 10, 9, false);
	/* With the user's query; then every review dated after now. */
	expect_prefix(w, "bot:sashiko", nov10, 3, 4, true);
	expect_prefix(w, NULL, utc(2026, 10, 1), 1, 9, true);

	/* A loaded row goes over to the whole list, not read again. */
	assert_int_equal(wn_index_query_recent(w->idx, NULL, nov10, 5, &part, &err), WN_OK);
	first = wn_list_get(w->idx, &part, 0);
	assert_int_equal(wn_index_load(w->idx, first, &err), WN_OK);
	assert_int_equal(wn_index_query(w->idx, NULL, &all, &err), WN_OK);
	wn_list_adopt(&all, &part);
	assert_ptr_equal(wn_list_get(w->idx, &all, 0), first);
	assert_true(first->loaded);
	assert_null(part.items[0]);
	wn_list_free(&part);
	wn_list_free(&all);
	wn_error_clear(&err);
	unsetenv("WINNOW_NO_CACHE");
}

/* query's newest part as wn_index_query_recent() gives it on the index
 * as it is now, checked against the whole list: its rows are the
 * list's first, in order.  Returns how many it holds. */
static size_t recent_prefix(struct world *w, const char *query, time_t now, size_t min_rows)
{
	wn_list all = { 0 }, part = { 0 };
	wn_error err = WN_ERROR_INIT;
	size_t n;

	assert_int_equal(wn_index_refresh(w->idx, &err), WN_OK);
	assert_int_equal(wn_index_query(w->idx, query, &all, &err), WN_OK);
	assert_int_equal(wn_index_query_recent(w->idx, query, now, min_rows, &part, &err), WN_OK);
	assert_true(part.n >= min_rows || !part.partial);
	assert_true(part.n <= all.n);
	for (size_t i = 0; i < part.n; i++)
		assert_string_equal(wn_list_get(w->idx, &part, i)->id,
				    wn_list_get(w->idx, &all, i)->id);
	n = part.n;
	wn_list_free(&part);
	wn_list_free(&all);
	return n;
}

static void shell(struct world *w, const char *fmt, const char *arg)
{
	char *cfg = config_path(w), *cmd = NULL, *line = NULL;

	assert_true(asprintf(&line, fmt, arg) > 0);
	assert_true(asprintf(&cmd, "set -e; export NOTMUCH_CONFIG='%s'; %s", cfg, line) > 0);
	assert_int_equal(system(cmd), 0);
	free(line);
	free(cmd);
	free(cfg);
}

/* The first screen's ids kept between runs (recent.c) are served only
 * while nothing changed: after a tag, new mail or removed mail the
 * rows are the whole list's first again, never the kept ones. */
static void test_query_recent_kept(void **state)
{
	struct world *w = *state;
	/* Before every review: a search by date finds all nine in its
	 * first window, the kept ids only as many as were kept. */
	time_t oct1 = utc(2026, 10, 1), nov10 = utc(2026, 11, 10);
	const char *q = "not tag:hidden";
	char *cache = NULL, *newest;
	wn_list all = { 0 };
	wn_error err = WN_ERROR_INIT;

	assert_true(asprintf(&cache, "%s/cache", w->dir) > 0);
	setenv("XDG_CACHE_HOME", cache, 1);
	unsetenv("WINNOW_NO_CACHE");
	assert_int_equal(wn_index_query(w->idx, q, &all, &err), WN_OK);
	assert_int_equal(all.n, 9);
	newest = strdup(wn_list_get(w->idx, &all, 0)->id);
	wn_list_free(&all);

	/* The newest hidden: a week holds five others, kept. */
	shell(w, "notmuch tag +hidden -- 'id:%s'", newest);
	assert_int_equal(recent_prefix(w, q, nov10, 5), 5);
	/* Nothing changed: the five kept, not the window's eight. */
	assert_int_equal(recent_prefix(w, q, oct1, 5), 5);
	/* Another query's ids are not this one's: one file, taken over,
	 * and the search by date runs again (eight in its window). */
	assert_int_equal(recent_prefix(w, NULL, oct1, 5), 9);
	assert_int_equal(recent_prefix(w, q, oct1, 5), 8);
	assert_int_equal(recent_prefix(w, q, nov10, 5), 8);

	/* A tag taken off: the newest matches again, ahead of every
	 * kept id (which all still match). */
	shell(w, "notmuch tag -hidden -- 'id:%s'", newest);
	assert_int_equal(recent_prefix(w, q, oct1, 5), 9);
	assert_int_equal(recent_prefix(w, q, oct1, 5), 9);

	/* New mail: a review newer than all, under a new Message-ID. */
	shell(w,
	      "f=$(notmuch search --output=files 'id:%s' | head -n 1); "
	      "sed -e 's/^Message-I[Dd]:.*/Message-ID: <kept-new@example.org>/' "
	      "-e 's/^Date:.*/Date: Mon, 09 Nov 2026 12:00:00 +0000/' \"$f\" "
	      ">\"$(dirname \"$f\")/kept-new:2,S\"; notmuch new --quiet",
	      newest);
	assert_int_equal(recent_prefix(w, q, oct1, 5), 10);
	all = (wn_list){ 0 };
	assert_int_equal(wn_index_query_recent(w->idx, q, oct1, 5, &all, &err), WN_OK);
	assert_string_equal(wn_list_get(w->idx, &all, 0)->id, "kept-new@example.org");
	wn_list_free(&all);

	/* Removed mail: the new review's file gone. */
	assert_int_equal(recent_prefix(w, q, oct1, 5), 10);
	shell(w, "rm \"$(notmuch search --output=files 'id:%s')\"; notmuch new --quiet",
	      "kept-new@example.org");
	assert_int_equal(recent_prefix(w, q, oct1, 5), 9);

	/* The whole list kept (no window holds 20): given whole again,
	 * not as a part, even where a window would hold all. */
	assert_int_equal(recent_prefix(w, q, nov10, 20), 9);
	all = (wn_list){ 0 };
	assert_int_equal(wn_index_query_recent(w->idx, q, oct1, 1, &all, &err), WN_OK);
	assert_int_equal(all.n, 9);
	assert_false(all.partial);
	wn_list_free(&all);
	/* Ids that are not all there (a damaged file, a mail removed)
	 * are not served: the last one changed, their count kept. */
	shell(w,
	      "f=$(ls '%s'/winnow/first-*); head -n 14 \"$f\" >\"$f.cut\"; "
	      "echo 'nobody@example.org' >>\"$f.cut\"; mv \"$f.cut\" \"$f\"",
	      cache);
	all = (wn_list){ 0 };
	assert_int_equal(wn_index_query_recent(w->idx, q, oct1, 1, &all, &err), WN_OK);
	assert_int_equal(all.n, 9);
	assert_true(all.partial);
	wn_list_free(&all);

	unsetenv("XDG_CACHE_HOME");
	free(newest);
	free(cache);
	wn_error_clear(&err);
}

/* A long list: G on its last row keeps that row and the first page,
 * not every row passed (the TUI's memory after G); walking
 * back from there gives the rows a walk forward gives, in order. */
#define LONG_LIST 300

static void test_list_rows_on_demand(void **state)
{
	struct world *w = *state;
	const char *src = getenv("WN_TOP_SRCDIR");
	char *cmd = NULL, *cfg = NULL;
	wn_index *idx = NULL;
	wn_list fwd = { 0 }, back = { 0 };
	wn_error err = WN_ERROR_INIT;
	size_t kept = 0;

	/* One review, LONG_LIST times over, an hour apart. */
	assert_true(asprintf(&cmd,
			     "set -e; mkdir '%1$s/long'; for i in $(seq 1 %2$d); do "
			     "sed -e \"s/^Message-I[dD]: .*/Message-Id: <long-$i@example.org>/\" "
			     "-e \"s/^Date: .*/Date: $(date -u -R -d @$((1790000000 - i * 3600)))/\" "
			     "'%3$s/tests/corpus/demo/06-sashiko-a2-new-qp.eml' > \"%1$s/long/$i.eml\"; done; "
			     "bash '%3$s/tests/lib/mkdb.sh' '%1$s/long' '%1$s/longdb' >/dev/null",
			     w->dir, LONG_LIST, src ? src : ".") > 0);
	assert_int_equal(system(cmd), 0);
	assert_true(asprintf(&cfg, "%s/longdb/notmuch-config", w->dir) > 0);
	assert_int_equal(wn_index_open(cfg, &idx, &err), WN_OK);
	assert_int_equal(wn_index_query(idx, NULL, &back, &err), WN_OK);
	assert_int_equal(back.n, LONG_LIST);
	assert_string_equal(wn_list_get(idx, &back, LONG_LIST - 1)->id, "long-300@example.org");
	for (size_t i = 0; i < back.n; i++)
		kept += back.items[i] != NULL;
	/* The first page the count read on its way, and the row asked for. */
	assert_in_range(kept, 1, 129);
	assert_int_equal(wn_index_query(idx, NULL, &fwd, &err), WN_OK);
	for (size_t i = 0; i < fwd.n; i++)
		assert_non_null(wn_list_get(idx, &fwd, i));
	for (size_t i = back.n; i-- > 0;)
		assert_string_equal(wn_list_get(idx, &back, i)->id, fwd.items[i]->id);
	wn_list_free(&fwd);
	wn_list_free(&back);
	wn_index_close(&idx);
	wn_error_clear(&err);
	free(cfg);
	free(cmd);
}

/* A mail handed to sendmail stays in doubt until its outcome is
 * journaled, for every winnow that reads the journal; the newest line
 * of a mail counts (a crash must not send it twice). */
static void test_sendmail_records(void **state)
{
	struct world *w = *state;
	char id[] = "a@example.org";
	wn_forward f = { .message_id = id };
	wn_error err = WN_ERROR_INIT;
	wn_store *other = NULL;
	char *st = NULL, *doubt = NULL;
	wn_sent_state s;
	time_t when;

	setenv("TZ", "UTC", 1);
	tzset();
	assert_int_equal(wn_store_sent(w->store, "a@example.org", &s, &when, &err), WN_OK);
	assert_int_equal(s, WN_SENT_NONE);
	assert_int_equal(wn_forward_doubt(w->store, &f, &doubt, &err), WN_OK);
	assert_null(doubt);
	assert_int_equal(wn_store_sendmail(w->store, "a@example.org", WN_SENT_HANDED, 1794652800, &err), WN_OK);
	assert_int_equal(wn_store_sendmail(w->store, "b@example.org", WN_SENT_HANDED, 2000, &err), WN_OK);
	assert_int_equal(wn_store_sendmail(w->store, "b@example.org", WN_SENT_FAILED, 2001, &err), WN_OK);

	/* Another process reads them from the journal. */
	assert_true(asprintf(&st, "%s/state", w->dir) > 0);
	assert_int_equal(wn_store_open(w->idx, st, &other, &err), WN_OK);
	assert_null(wn_store_warning(other));
	assert_int_equal(wn_store_sent(other, "a@example.org", &s, &when, &err), WN_OK);
	assert_int_equal(s, WN_SENT_HANDED);
	assert_int_equal(when, 1794652800);
	assert_int_equal(wn_store_sent(other, "b@example.org", &s, NULL, &err), WN_OK);
	assert_int_equal(s, WN_SENT_FAILED);
	assert_int_equal(wn_forward_doubt(other, &f, &doubt, &err), WN_OK);
	assert_string_equal(doubt, "this mail may have been sent already at 2026-11-14 10:40 UTC");
	free(doubt);

	/* Its outcome, journaled by the other, reaches the first. */
	assert_int_equal(wn_store_sendmail(other, "a@example.org", WN_SENT_ACCEPTED, 1794652801, &err), WN_OK);
	assert_int_equal(wn_store_sent(w->store, "a@example.org", &s, &when, &err), WN_OK);
	assert_int_equal(s, WN_SENT_ACCEPTED);
	assert_int_equal(wn_forward_doubt(w->store, &f, &doubt, &err), WN_OK);
	assert_string_equal(doubt, "this mail was sent at 2026-11-14 10:40 UTC");
	free(doubt);
	assert_null(wn_store_warning(w->store));
	assert_int_equal(wn_store_sendmail(w->store, "", WN_SENT_HANDED, 1, &err), WN_USAGE);

	wn_store_close(&other);
	free(st);
	wn_error_clear(&err);
}

/* Compaction keeps the mails in doubt and those sendmail took (a draft
 * of one may still be resumed), and drops the failed ones. */
/* Marks enough to compact the journal (WINNOW_JOURNAL_KEEP set by the
 * caller), written; then a second store reading it, *st its folder. */
static wn_store *compacted(struct world *w, wn_item *a, char **st)
{
	wn_error err = WN_ERROR_INIT;
	wn_store *other = NULL;

	for (int i = 0; i < 4; i++)
		assert_int_equal(wn_store_mark(w->store, a, 1, i % 2 ? WN_VERDICT_VALID : WN_VERDICT_FALSE_POSITIVE,
					       NULL, &err), WN_OK);
	flush(w);
	unsetenv("WINNOW_JOURNAL_KEEP");
	assert_true(asprintf(st, "%s/state", w->dir) > 0);
	assert_int_equal(wn_store_open(w->idx, *st, &other, &err), WN_OK);
	assert_null(wn_store_warning(other));
	wn_error_clear(&err);
	return other;
}

static void test_sendmail_records_compacted(void **state)
{
	struct world *w = *state;
	wn_error err = WN_ERROR_INIT;
	wn_item *a = find(w, REVIEW_A);
	wn_store *other = NULL;
	wn_sent_state s;
	char *st = NULL;

	setenv("WINNOW_JOURNAL_KEEP", "1", 1);
	assert_int_equal(wn_store_sendmail(w->store, "handed@example.org", WN_SENT_HANDED, 10, &err), WN_OK);
	assert_int_equal(wn_store_sendmail(w->store, "took@example.org", WN_SENT_HANDED, 20, &err), WN_OK);
	assert_int_equal(wn_store_sendmail(w->store, "took@example.org", WN_SENT_ACCEPTED, 21, &err), WN_OK);
	assert_int_equal(wn_store_sendmail(w->store, "failed@example.org", WN_SENT_HANDED, 30, &err), WN_OK);
	assert_int_equal(wn_store_sendmail(w->store, "failed@example.org", WN_SENT_FAILED, 31, &err), WN_OK);
	other = compacted(w, a, &st);
	/* The failed one is gone: the journal was compacted. */
	assert_int_equal(wn_store_sent(other, "failed@example.org", &s, NULL, &err), WN_OK);
	assert_int_equal(s, WN_SENT_NONE);
	assert_int_equal(wn_store_sent(other, "handed@example.org", &s, NULL, &err), WN_OK);
	assert_int_equal(s, WN_SENT_HANDED);
	assert_int_equal(wn_store_sent(other, "took@example.org", &s, NULL, &err), WN_OK);
	assert_int_equal(s, WN_SENT_ACCEPTED);

	wn_store_close(&other);
	wn_item_free(&a);
	free(st);
	wn_error_clear(&err);
}

/* A mail in the drafts folder: pending with its findings, across a
 * compaction, until an "accepted" line ends it. */
static void test_drafted_records(void **state)
{
	struct world *w = *state;
	wn_error err = WN_ERROR_INIT;
	wn_item *a = find(w, REVIEW_A);
	wn_drafted_finding f[] = { { (char *) "rev-a@example.org", (char *) "0123456789abcdef" },
				   { (char *) "rev-b@example.org", (char *) "fedcba9876543210" } };
	wn_store *other = NULL;
	wn_drafted *v = NULL;
	wn_sent_state s;
	size_t n = 0;
	char *st = NULL;

	setenv("WINNOW_JOURNAL_KEEP", "1", 1);
	assert_int_equal(wn_store_drafted(w->store, "draft@example.org", f, 2, 40, &err), WN_OK);
	assert_int_equal(wn_store_drafted(w->store, "done@example.org", f, 1, 50, &err), WN_OK);
	assert_int_equal(wn_store_sendmail(w->store, "done@example.org", WN_SENT_ACCEPTED, 51, &err), WN_OK);
	other = compacted(w, a, &st);
	assert_int_equal(wn_store_sent(other, "draft@example.org", &s, NULL, &err), WN_OK);
	assert_int_equal(s, WN_SENT_DRAFTED);
	assert_int_equal(wn_store_drafts(other, &v, &n, &err), WN_OK);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].msgid, "draft@example.org");
	assert_int_equal(v[0].when, 40);
	assert_int_equal(v[0].n, 2);
	assert_string_equal(v[0].findings[1].review, "rev-b@example.org");
	assert_string_equal(v[0].findings[1].fp, "fedcba9876543210");
	wn_drafted_free(v, n);
	assert_int_equal(wn_store_sendmail(other, "draft@example.org", WN_SENT_ACCEPTED, 60, &err), WN_OK);
	assert_int_equal(wn_store_drafts(other, &v, &n, &err), WN_OK);
	assert_int_equal(n, 0);
	wn_drafted_free(v, n);

	wn_store_close(&other);
	wn_item_free(&a);
	free(st);
	wn_error_clear(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bulk_mark_is_one_action, setup, teardown),
		cmocka_unit_test_setup_teardown(test_history_and_undo_of_an_older_action, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_history_of_an_empty_undo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_undo_keeps_a_newer_decision, setup, teardown),
		cmocka_unit_test_setup_teardown(test_undo_of_an_older_mark_keeps_a_newer_note,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_undo_many_and_redo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_forwarded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_item_refreshed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reader_after_another_writer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_severity_and_reported, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reason_and_missed_replayed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_query_recent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_query_recent_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_rows_on_demand, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sendmail_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sendmail_records_compacted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_drafted_records, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
