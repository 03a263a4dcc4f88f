/* The store's error paths (the store was under its coverage
 * floor): a journal that cannot be placed, opened, read, locked or
 * rewritten; a journal holding lines of an older winnow or broken
 * entries; a repair that cannot write; marks, records and drafts the
 * library refuses.  Each case checks what the caller is told and that
 * nothing was journaled or lost. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/journal.h"
#include "scratch-test.h"
#include "winnow/winnow.h"

#define REVIEW_A "20261102102845.9E02AC4CEF3@smtp.kernel.org"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = calloc(1, 65536);
	size_t n;

	assert_non_null(f);
	assert_non_null(text);
	n = fread(text, 1, 65535, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static void assert_said(const wn_error *err, const char *what)
{
	if (!strstr(wn_error_msg(err), what))
		fail_msg("expected \"%s\" in \"%s\"", what, wn_error_msg(err));
}

/* --- the journal alone ------------------------------------------------------ */

static int lines_seen;

static wn_status count_line(const char *line, size_t len, void *arg)
{
	(void) line;
	(void) len;
	(void) arg;
	lines_seen++;
	return WN_OK;
}

static wn_status build_same(const char *data, size_t len, wn_buf *out, void *arg)
{
	(void) arg;
	return wn_buf_append(out, data, len);
}

static wn_status build_refused(const char *data, size_t len, wn_buf *out, void *arg)
{
	(void) data;
	(void) len;
	(void) out;
	(void) arg;
	return WN_PARSE;
}

/* No state folder given: XDG_STATE_HOME when absolute, else HOME; with
 * neither, the journal has no place and the open says so. */
static void test_journal_unplaced(void **state)
{
	char *dir = tmpdir(), *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL, *want = NULL;
	char *xdg = getenv("XDG_STATE_HOME") ? strdup(getenv("XDG_STATE_HOME")) : NULL;
	char cwd[4096];
	wn_journal *j = NULL;
	wn_error err = WN_ERROR_INIT;

	(void) state;
	/* Were the relative folder taken, it would be made in dir. */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	unsetenv("HOME");
	setenv("XDG_STATE_HOME", "relative/state", 1);
	assert_int_equal(wn_journal_open(NULL, "/db", &j, &err), WN_CONFIG);
	assert_null(j);
	assert_said(&err, "neither XDG_STATE_HOME nor HOME");

	/* A relative XDG_STATE_HOME is not a place: HOME's is taken. */
	setenv("HOME", dir, 1);
	assert_int_equal(wn_journal_open(NULL, "/db", &j, &err), WN_OK);
	assert_true(asprintf(&want, "%s/.local/state/winnow/journal-", dir) > 0);
	assert_int_equal(strncmp(wn_journal_path(j), want, strlen(want)), 0);
	wn_journal_close(&j);

	if (home)
		setenv("HOME", home, 1);
	if (xdg)
		setenv("XDG_STATE_HOME", xdg, 1);
	else
		unsetenv("XDG_STATE_HOME");
	assert_int_equal(chdir(cwd), 0);
	rmtree(dir);
	free(dir);
	free(home);
	free(xdg);
	free(want);
	wn_error_clear(&err);
}

/* A folder where the journal should be: refused at the open, and, when
 * it takes the file's place later, at the next read. */
static void test_journal_not_a_file(void **state)
{
	char *dir = tmpdir(), *path;
	wn_journal *j = NULL;
	wn_error err = WN_ERROR_INIT;

	(void) state;
	assert_int_equal(wn_journal_open(dir, "/db", &j, &err), WN_OK);
	path = strdup(wn_journal_path(j));
	assert_non_null(path);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(wn_journal_update(j, NULL, count_line, NULL, &err), WN_IO);
	assert_said(&err, "is not a regular file");
	wn_journal_close(&j);

	assert_int_equal(wn_journal_open(dir, "/db", &j, &err), WN_IO);
	assert_null(j);
	assert_said(&err, "cannot open journal");

	rmtree(dir);
	free(dir);
	free(path);
	wn_error_clear(&err);
}

/* The journal removed under an open reader: reading and compacting
 * fail saying so (nothing is made up from nothing); an append makes it
 * anew. */
static void test_journal_gone(void **state)
{
	char *dir = tmpdir(), *text;
	wn_journal *j = NULL;
	wn_error err = WN_ERROR_INIT;
	int torn = 0;

	(void) state;
	assert_int_equal(wn_journal_open(dir, "/db", &j, &err), WN_OK);
	assert_int_equal(wn_journal_append(j, "one\n", 4, &err), WN_OK);
	assert_int_equal(unlink(wn_journal_path(j)), 0);
	lines_seen = 0;
	assert_int_equal(wn_journal_read(j, count_line, NULL, &torn, &err), WN_IO);
	assert_said(&err, "cannot read journal");
	assert_int_equal(wn_journal_update(j, NULL, count_line, NULL, &err), WN_IO);
	assert_said(&err, "cannot read journal");
	assert_int_equal(wn_journal_compact(j, build_same, NULL, &err), WN_IO);
	assert_said(&err, "cannot lock journal");
	assert_int_equal(lines_seen, 0);
	assert_int_equal(access(wn_journal_path(j), F_OK), -1);

	assert_int_equal(wn_journal_append(j, "two\n", 4, &err), WN_OK);
	text = slurp(wn_journal_path(j));
	assert_string_equal(text, "two\n");
	free(text);
	wn_journal_close(&j);
	rmtree(dir);
	free(dir);
	wn_error_clear(&err);
}

/* A compaction that cannot build or cannot write its new file leaves
 * the journal as it was; once it can, the new text replaces it. */
static void test_journal_compact_fails(void **state)
{
	static const char two[] = "first\nsecond\n";
	char *dir = tmpdir(), *tmp = NULL, *text;
	wn_journal *j = NULL;
	wn_error err = WN_ERROR_INIT;
	int torn = 0;

	(void) state;
	assert_int_equal(wn_journal_open(dir, "/db", &j, &err), WN_OK);
	assert_int_equal(wn_journal_append(j, two, strlen(two), &err), WN_OK);

	assert_int_equal(wn_journal_compact(j, build_refused, NULL, &err), WN_PARSE);
	assert_said(&err, "cannot compact journal");
	text = slurp(wn_journal_path(j));
	assert_string_equal(text, two);
	free(text);

	/* The new file's place is taken: the rename never happens. */
	assert_true(asprintf(&tmp, "%s.tmp", wn_journal_path(j)) > 0);
	assert_int_equal(mkdir(tmp, 0700), 0);
	assert_int_equal(wn_journal_compact(j, build_same, NULL, &err), WN_IO);
	assert_said(&err, "cannot rewrite journal");
	text = slurp(wn_journal_path(j));
	assert_string_equal(text, two);
	free(text);
	assert_int_equal(rmdir(tmp), 0);

	assert_int_equal(wn_journal_compact(j, build_same, NULL, &err), WN_OK);
	lines_seen = 0;
	assert_int_equal(wn_journal_read(j, count_line, NULL, &torn, &err), WN_OK);
	assert_int_equal(lines_seen, 2);
	assert_int_equal(torn, 0);

	/* A last line without its '\n' is a write cut short: not a line. */
	lines_seen = 0;
	assert_int_equal(wn_journal_lines("a\nb\ncut", 7, count_line, NULL, &torn), WN_OK);
	assert_int_equal(lines_seen, 2);
	assert_int_equal(torn, 1);

	wn_journal_close(&j);
	rmtree(dir);
	free(dir);
	free(tmp);
	wn_error_clear(&err);
}

/* --- the store over a notmuch database ------------------------------------- */

/* A state folder of the world's (a fresh one when state is NULL), its
 * store, and review A loaded with the store's verdicts. */
struct bench {
	char *state;
	wn_store *s;
	wn_item *a;
};

static void bench_open(struct scratch_world *w, struct bench *b, const char *state,
		       const char *journal)
{
	wn_error err = WN_ERROR_INIT;
	static int n;

	memset(b, 0, sizeof(*b));
	if (state)
		b->state = strdup(state);
	else
		assert_true(asprintf(&b->state, "%s/state%d", w->dir, n++) > 0);
	assert_non_null(b->state);
	if (journal) {
		/* Learn the journal's name, then give it the text. */
		assert_int_equal(wn_store_open(w->idx, b->state, &b->s, &err), WN_OK);
		put(wn_store_journal_path(b->s), journal);
		wn_store_close(&b->s);
	}
	assert_int_equal(wn_store_open(w->idx, b->state, &b->s, &err), WN_OK);
	assert_int_equal(wn_index_find(w->idx, REVIEW_A, &b->a, &err), WN_OK);
	wn_store_overlay(b->s, b->a);
	assert_true(b->a->review->nfindings >= 2);
	wn_error_clear(&err);
}

static void bench_close(struct bench *b)
{
	wn_error err = WN_ERROR_INIT;

	wn_item_free(&b->a);
	if (b->s)
		assert_int_equal(wn_store_flush(b->s, 60000, &err), WN_OK);
	wn_store_close(&b->s);
	free(b->state);
	wn_error_clear(&err);
}

static const char *fp_of(const struct bench *b, size_t k)
{
	return b->a->review->findings[k].fingerprint;
}

/* wn_store_mark_picked() refuses what does not fit together, saying
 * what, and journals nothing. */
static void test_mark_picked_refused(void **state)
{
	static const struct {
		wn_mark_spec spec;
		const char *said;
	} bad[] = {
		{ { .verdict = false }, "nothing to mark" },
		{ { .verdict = true, .v = WN_VERDICT_COUNT }, "bad verdict" },
		{ { .severity = true, .sev = WN_SEV_COUNT }, "bad severity" },
		{ { .severity = true, .sev = WN_SEV_LOW, .note = "n" },
		  "a note goes with a verdict" },
		{ { .severity = true, .sev = WN_SEV_LOW, .reason = true },
		  "a reason goes with a verdict" },
		{ { .verdict = true,
		    .v = WN_VERDICT_FALSE_POSITIVE,
		    .reason = true,
		    .why = WN_REASON_COUNT },
		  "bad reason" },
		{ { .severity = true, .sev = WN_SEV_LOW, .closed = "fix 0123abcd" },
		  "a duplicate or a fixing commit goes with a verdict" },
		{ { .verdict = true, .v = WN_VERDICT_VALID, .closed = "neither dup nor fix" },
		  "bad winnow.closed value" },
		{ { .verdict = true, .v = WN_VERDICT_VALID, .note = "\xff\xfe" },
		  "not valid UTF-8" },
	};
	struct bench b;
	wn_error err = WN_ERROR_INIT;
	size_t changed;

	bench_open(*state, &b, NULL, NULL);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		changed = 99;
		assert_int_equal(wn_store_mark_picked(b.s, b.a, NULL, &bad[i].spec, &changed, &err),
				 WN_USAGE);
		assert_said(&err, bad[i].said);
		assert_int_equal(changed, 0);
	}
	assert_int_equal(wn_store_pending(b.s), 0);
	assert_int_equal(size_of(wn_store_journal_path(b.s)), 0);
	wn_store_overlay(b.s, b.a);
	for (size_t k = 0; k < b.a->review->nfindings; k++)
		assert_int_equal(b.a->verdicts[k], WN_VERDICT_UNTRIAGED);
	bench_close(&b);
	wn_error_clear(&err);
}

/* A review whose mail was never read cannot be marked or recorded, and
 * a missed finding's note must be text. */
static void test_not_loaded(void **state)
{
	wn_item unread = { .id = (char *) "unread@example.org", .loaded = false };
	wn_mark_target t = { &unread, 1 };
	size_t one = 1;
	struct bench b;
	wn_error err = WN_ERROR_INIT;

	bench_open(*state, &b, NULL, NULL);
	assert_int_equal(wn_store_mark(b.s, &unread, 1, WN_VERDICT_VALID, NULL, &err), WN_USAGE);
	assert_said(&err, "review unread@example.org is not loaded");
	assert_int_equal(wn_store_mark_many(b.s, &t, 1, WN_VERDICT_VALID, NULL, &err), WN_USAGE);
	assert_said(&err, "is not loaded");
	assert_int_equal(wn_store_forwarded(b.s, &unread, &one, 1, "x@example.org", 0, &err),
			 WN_USAGE);
	assert_said(&err, "is not loaded");
	assert_int_equal(wn_store_missed(b.s, &unread, "it missed a leak", 0, &err), WN_USAGE);
	assert_said(&err, "is not loaded");
	assert_int_equal(wn_store_missed(b.s, b.a, "bad \xc3 text", 0, &err), WN_USAGE);
	assert_said(&err, "not valid UTF-8");
	assert_int_equal(wn_store_pending(b.s), 0);
	assert_int_equal(size_of(wn_store_journal_path(b.s)), 0);
	bench_close(&b);
	wn_error_clear(&err);
}

/* A draft with nothing in it, or a review id JSON cannot carry, is
 * refused and not listed as pending. */
static void test_drafted_refused(void **state)
{
	wn_drafted_finding bad = { (char *) "\xff@example.org", (char *) "fp" };
	wn_drafted *d = NULL;
	size_t n = 9;
	struct bench b;
	wn_error err = WN_ERROR_INIT;

	bench_open(*state, &b, NULL, NULL);
	assert_int_equal(wn_store_drafted(b.s, "draft@example.org", &bad, 0, 1, &err), WN_USAGE);
	assert_said(&err, "no mail to journal");
	assert_int_equal(wn_store_drafted(b.s, "", &bad, 1, 1, &err), WN_USAGE);
	assert_int_equal(wn_store_drafted(b.s, "draft@example.org", &bad, 1, 1, &err), WN_PARSE);
	assert_said(&err, "not UTF-8");
	assert_int_equal(wn_store_drafts(b.s, &d, &n, &err), WN_OK);
	assert_int_equal(n, 0);
	wn_drafted_free(d, n);
	assert_int_equal(size_of(wn_store_journal_path(b.s)), 0);
	bench_close(&b);
	wn_error_clear(&err);
}

/* A journal of an older winnow: one finding per line, the finding and
 * its verdict in the line itself, no "prev" (untriaged before). */
static void test_old_journal_line(void **state)
{
	struct scratch_world *w = *state;
	struct bench b;
	wn_error err = WN_ERROR_INIT;
	char *journal = NULL;
	wn_item *a = NULL;
	wn_history_item what;

	/* The fingerprints first, from a bench of no journal. */
	bench_open(w, &b, NULL, NULL);
	assert_true(asprintf(&journal,
			     "{\"op\":\"mark\",\"eid\":\"e1\",\"group\":\"g1\",\"id\":\"" REVIEW_A
			     "\",\"t\":1,\"fp\":\"%s\",\"v\":\"valid\",\"note\":\"an old note\"}\n"
			     "{\"op\":\"mark\",\"eid\":\"e2\",\"group\":\"g2\",\"id\":\"" REVIEW_A
			     "\",\"t\":2,\"fp\":\"%s\",\"v\":\"false-positive\","
			     "\"prev\":\"pre-existing\"}\n",
			     fp_of(&b, 0), fp_of(&b, 1)) > 0);
	bench_close(&b);

	bench_open(w, &b, NULL, journal);
	assert_null(wn_store_warning(b.s));
	assert_int_equal(b.a->verdicts[0], WN_VERDICT_VALID);
	assert_non_null(b.a->notes[0]);
	assert_string_equal(b.a->notes[0], "an old note");
	assert_int_equal(b.a->verdicts[1], WN_VERDICT_FALSE_POSITIVE);
	assert_null(b.a->notes[1]);

	/* Undoing them goes back to what each line says came before. */
	assert_int_equal(wn_store_undo_last(b.s, &what, &err), WN_OK);
	assert_true(what.reverted > 0);
	assert_string_equal(what.review, REVIEW_A);
	wn_history_item_clear(&what);
	assert_int_equal(wn_index_find(w->idx, REVIEW_A, &a, &err), WN_OK);
	wn_store_overlay(b.s, a);
	assert_int_equal(a->verdicts[1], WN_VERDICT_PREEXISTING);
	assert_int_equal(a->verdicts[0], WN_VERDICT_VALID);
	wn_item_free(&a);
	assert_int_equal(wn_store_undo_last(b.s, &what, &err), WN_OK);
	wn_history_item_clear(&what);
	assert_int_equal(wn_index_find(w->idx, REVIEW_A, &a, &err), WN_OK);
	wn_store_overlay(b.s, a);
	assert_int_equal(a->verdicts[0], WN_VERDICT_UNTRIAGED);
	assert_null(a->notes[0]);
	wn_item_free(&a);
	bench_close(&b);
	free(journal);
	wn_error_clear(&err);
}

/* Append to *text a journal line of review A: op, its eid (and group)
 * from n, then tail, whose %s (or %1$s) is fp. */
static void add_line(char **text, const char *op, int n, const char *tail, const char *fp)
{
	char *rest = NULL, *more = NULL;

	assert_true(asprintf(&rest, tail, fp) >= 0);
	assert_true(
		asprintf(
			&more,
			"%s{\"op\":\"%s\",\"eid\":\"%d\",\"group\":\"g%d\",\"id\":\"%s\",\"t\":1%s}\n",
			*text ? *text : "", op, n, n, REVIEW_A, rest) > 0);
	free(rest);
	free(*text);
	*text = more;
}

/* Broken entries between good ones: each is passed over with a warning
 * naming its line, and costs none of the others. */
static void test_broken_entries(void **state)
{
	struct scratch_world *w = *state;
	struct bench b;
	wn_error err = WN_ERROR_INIT;
	wn_history_item *h = NULL;
	char *journal = NULL;
	size_t n = 0;

	bench_open(w, &b, NULL, NULL);
	add_line(&journal, "mark", 1, ",\"c\":[[\"%s\",\"valid\",\"untriaged\",null,null]]",
		 fp_of(&b, 0));
	add_line(&journal, "mark", 2, ",\"c\":\"not a list\"", NULL);
	add_line(&journal, "severity", 3, "", NULL);
	add_line(&journal, "mark", 4, ",\"c\":[]", NULL);
	add_line(&journal, "mark", 5,
		 ",\"c\":[[\"%s\",\"false-positive\",\"untriaged\",null,null]]", fp_of(&b, 1));
	add_line(&journal, "mark", 6,
		 ",\"c\":[[\"%1$s\",\"valid\",\"untriaged\",null,null]],\"fps\":[\"%1$s\",7]",
		 fp_of(&b, 1));
	bench_close(&b);

	bench_open(w, &b, NULL, journal);
	assert_non_null(wn_store_warning(b.s));
	assert_non_null(strstr(wn_store_warning(b.s), "line 6 is not a winnow entry; ignored"));
	assert_int_equal(b.a->verdicts[0], WN_VERDICT_VALID);
	assert_int_equal(b.a->verdicts[1], WN_VERDICT_FALSE_POSITIVE);
	assert_int_equal(wn_store_history(b.s, &h, &n, &err), WN_OK);
	assert_int_equal(n, 2);
	wn_history_free(&h, n);
	bench_close(&b);
	free(journal);
	wn_error_clear(&err);
}

/* A journal whose last write was cut short is written again without
 * it; when that rewrite cannot be made, the warning says why and the
 * journal stays as it is (its complete entries still count). */
static void test_repair_fails(void **state)
{
	struct scratch_world *w = *state;
	struct bench b;
	char *journal = NULL, *first = NULL, *tmp = NULL, *text, *path, *folder;
	off_t before;

	bench_open(w, &b, NULL, NULL);
	assert_true(asprintf(&first,
			     "{\"op\":\"mark\",\"eid\":\"1\",\"group\":\"g1\",\"id\":\"" REVIEW_A
			     "\",\"t\":1,\"c\":[[\"%s\",\"valid\",\"untriaged\",null,null]]}\n",
			     fp_of(&b, 0)) > 0);
	assert_true(asprintf(&journal, "%s{\"op\":\"mark\",\"eid\":\"2\",\"gro", first) > 0);
	path = strdup(wn_store_journal_path(b.s));
	folder = strdup(b.state);
	assert_non_null(path);
	assert_non_null(folder);
	bench_close(&b);
	put(path, journal);
	before = size_of(path);

	/* The rewritten journal's place is taken. */
	assert_true(asprintf(&tmp, "%s.tmp", path) > 0);
	assert_int_equal(mkdir(tmp, 0700), 0);
	bench_open(w, &b, folder, NULL);
	assert_non_null(wn_store_warning(b.s));
	assert_non_null(strstr(wn_store_warning(b.s), "the last entry was cut short"));
	assert_non_null(strstr(wn_store_warning(b.s), "ignored (cannot rewrite journal"));
	assert_int_equal(b.a->verdicts[0], WN_VERDICT_VALID);
	bench_close(&b);
	assert_int_equal(size_of(path), before);

	assert_int_equal(rmdir(tmp), 0);
	bench_open(w, &b, folder, NULL);
	assert_non_null(wn_store_warning(b.s));
	assert_non_null(strstr(wn_store_warning(b.s), "written again without it"));
	assert_int_equal(b.a->verdicts[0], WN_VERDICT_VALID);
	bench_close(&b);
	text = slurp(path);
	assert_string_equal(text, first);
	free(text);

	free(tmp);
	free(path);
	free(folder);
	free(first);
	free(journal);
}

/* Undo with nothing to undo: none undone, nothing journaled. */
static void test_undo_nothing(void **state)
{
	struct bench b;
	wn_error err = WN_ERROR_INIT;
	wn_history_item *v = NULL;
	size_t n = 9;

	bench_open(*state, &b, NULL, NULL);
	assert_int_equal(wn_store_undo_many(b.s, 3, &v, &n, &err), WN_NOT_FOUND);
	assert_int_equal(n, 0);
	assert_null(v);
	assert_int_equal(size_of(wn_store_journal_path(b.s)), 0);
	bench_close(&b);
	wn_error_clear(&err);
}

/* A verdict on a review the index no longer holds stays in the journal,
 * and the writer's word on it reaches the caller as a warning. */
static void test_review_gone(void **state)
{
	struct bench b;
	wn_error err = WN_ERROR_INIT;

	bench_open(*state, &b, NULL,
		   "{\"op\":\"mark\",\"eid\":\"1\",\"group\":\"g1\",\"id\":\"gone@example.org\","
		   "\"t\":1,\"c\":[[\"0123456789abcdef\",\"valid\",\"untriaged\",null,null]]}\n");
	assert_null(wn_store_warning(b.s));
	assert_int_equal(wn_store_pending(b.s), 1);
	assert_int_equal(wn_store_flush(b.s, 60000, &err), WN_OK);
	assert_non_null(wn_store_warning(b.s));
	assert_non_null(strstr(wn_store_warning(b.s),
			       "review <gone@example.org> is no longer in the index"));
	assert_non_null(strstr(wn_store_warning(b.s), wn_store_journal_path(b.s)));
	bench_close(&b);
	wn_error_clear(&err);
}

/* The journal's lines without the writer's "applied" ones: a writer
 * that committed to notmuch and died before it could say so. */
static char *unacknowledged(const char *path)
{
	char *text = slurp(path), *out = calloc(1, strlen(text) + 1), *line, *save = NULL;

	assert_non_null(out);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strstr(line, "\"op\":\"applied\"")) {
			strcat(out, line);
			strcat(out, "\n");
		}
	free(text);
	return out;
}

static char *replace(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	char *out = NULL;

	assert_non_null(at);
	assert_true(asprintf(&out, "%.*s%s%s", (int) (at - text), text, to, at + strlen(from)) > 0);
	return out;
}

/* Such a journal's decisions that notmuch already holds (verdict, note,
 * reason, closed, severity) are recognised as written when the store
 * opens; one that differs in any of them is still to be written. */
static void test_recognise_applied(void **state)
{
	struct scratch_world *w = *state;
	wn_mark_spec spec = { .verdict = true,
			      .v = WN_VERDICT_FALSE_POSITIVE,
			      .note = "held",
			      .reason = true,
			      .why = WN_REASON_MISREAD_CODE,
			      .closed = "fix 0123456789ab",
			      .severity = true,
			      .sev = WN_SEV_LOW };
	static const char *const differs[][2] = {
		{ "\"held\"", "\"other\"" },
		{ "\"misread-code\"", "\"wrong-rule\"" },
		{ "\"fix 0123456789ab\"", "\"fix 0123456789ac\"" },
		{ "\"false-positive\"", "\"valid\"" },
	};
	struct bench b;
	wn_error err = WN_ERROR_INIT;
	bool pick[64] = { true };
	size_t changed = 0;
	char *journal, *other;

	bench_open(w, &b, NULL, NULL);
	assert_true(b.a->review->nfindings <= 64);
	assert_true(wn_closed_ok(spec.closed));
	assert_int_equal(wn_store_mark_picked(b.s, b.a, pick, &spec, &changed, &err), WN_OK);
	assert_int_equal(changed, 2);
	assert_int_equal(wn_store_flush(b.s, 60000, &err), WN_OK);
	assert_int_equal(wn_store_pending(b.s), 0);
	journal = unacknowledged(wn_store_journal_path(b.s));
	bench_close(&b);

	bench_open(w, &b, NULL, journal);
	assert_int_equal(wn_store_pending(b.s), 0);
	assert_int_equal(b.a->verdicts[0], WN_VERDICT_FALSE_POSITIVE);
	wn_store_close(&b.s);
	wn_item_free(&b.a);
	free(b.state);

	for (size_t i = 0; i < sizeof(differs) / sizeof(differs[0]); i++) {
		other = replace(journal, differs[i][0], differs[i][1]);
		bench_open(w, &b, NULL, other);
		if (wn_store_pending(b.s) == 0)
			fail_msg("%s for %s: taken as written", differs[i][1], differs[i][0]);
		/* Not flushed: notmuch keeps what the first store wrote. */
		wn_store_close(&b.s);
		wn_item_free(&b.a);
		free(b.state);
		free(other);
	}
	free(journal);
	wn_error_clear(&err);
}

/* Compaction (here once the journal holds more than two changes, the
 * newest kept): when its new file cannot be written the warning says
 * so and every line stays; once it can, the journal is written anew,
 * the record kept marked as written, and notmuch still holds every
 * decision (verdicts, notes, severities, forwards). */
static void test_compaction(void **state)
{
	struct scratch_world *w = *state;
	struct bench b;
	wn_error err = WN_ERROR_INIT;
	char *tmp = NULL, *text, *folder;
	size_t one = 1;
	off_t full;
	wn_verdict v2;
	wn_severity sev;

	setenv("WINNOW_JOURNAL_KEEP", "1", 1);
	bench_open(w, &b, NULL, NULL);
	folder = strdup(b.state);
	assert_non_null(folder);
	assert_true(asprintf(&tmp, "%s.tmp", wn_store_journal_path(b.s)) > 0);
	assert_int_equal(mkdir(tmp, 0700), 0);
	/* Three changes, each to what notmuch does not hold already (the
	 * tests before this one wrote into the same database). */
	v2 = b.a->verdicts[1] == WN_VERDICT_FALSE_POSITIVE ? WN_VERDICT_PREEXISTING :
							     WN_VERDICT_FALSE_POSITIVE;
	sev = b.a->severity[0] == WN_SEV_HIGH ? WN_SEV_MEDIUM : WN_SEV_HIGH;
	assert_int_equal(wn_store_mark(b.s, b.a, 2, v2, NULL, &err), WN_OK);
	assert_int_equal(wn_store_set_severity(b.s, b.a, 1, sev, &err), WN_OK);
	assert_int_equal(wn_store_mark(b.s, b.a, 1, WN_VERDICT_VALID, "kept", &err), WN_OK);
	assert_int_equal(wn_store_last_changes(b.s), 1);
	assert_int_equal(wn_store_flush(b.s, 60000, &err), WN_OK);
	assert_non_null(wn_store_warning(b.s));
	assert_non_null(strstr(wn_store_warning(b.s), "cannot rewrite journal"));
	full = size_of(wn_store_journal_path(b.s));
	text = slurp(wn_store_journal_path(b.s));
	assert_non_null(strstr(text, "\"op\":\"applied\""));
	assert_non_null(strstr(text, "\"op\":\"severity\""));
	free(text);

	assert_int_equal(rmdir(tmp), 0);
	assert_int_equal(wn_store_forwarded(b.s, b.a, &one, 1, "sent@example.org", 1, &err), WN_OK);
	assert_int_equal(wn_store_flush(b.s, 60000, &err), WN_OK);
	text = slurp(wn_store_journal_path(b.s));
	assert_null(strstr(text, "\"op\":\"applied\""));
	assert_non_null(strstr(text, "\"op\":\"forward\""));
	assert_non_null(strstr(text, "\"applied\":true"));
	assert_true(size_of(wn_store_journal_path(b.s)) < full);
	free(text);
	bench_close(&b);

	bench_open(w, &b, folder, NULL);
	assert_int_equal(wn_store_pending(b.s), 0);
	assert_int_equal(b.a->verdicts[0], WN_VERDICT_VALID);
	assert_string_equal(b.a->notes[0], "kept");
	assert_non_null(b.a->forwarded[0]);
	assert_non_null(strstr(b.a->forwarded[0], "sent@example.org"));
	assert_int_equal(b.a->verdicts[1], v2);
	assert_int_equal(b.a->severity[0], sev);
	bench_close(&b);
	unsetenv("WINNOW_JOURNAL_KEEP");
	free(folder);
	free(tmp);
	wn_error_clear(&err);
}

/* A writer that cannot open the database for writing (here: its Xapian
 * folder moved away) fails the flush saying why, and the verdict stays
 * journaled, to be written once it can. */
static void test_writer_cannot_open(void **state)
{
	void *own = NULL;
	struct scratch_world *w;
	struct bench b;
	wn_error err = WN_ERROR_INIT;
	char *xapian = NULL, *away = NULL;

	(void) state;
	/* A database of its own: the others' index stays whole. */
	assert_int_equal(scratch_world_up(&own), 0);
	w = own;
	assert_true(asprintf(&xapian, "%s/db/mail/.notmuch/xapian", w->dir) > 0);
	assert_true(asprintf(&away, "%s.away", xapian) > 0);
	bench_open(w, &b, NULL, NULL);
	assert_int_equal(rename(xapian, away), 0);
	assert_int_equal(wn_store_mark(b.s, b.a, 1, WN_VERDICT_VALID, NULL, &err), WN_OK);
	assert_int_equal(wn_store_flush(b.s, 60000, &err), WN_DB);
	assert_said(&err, "cannot open the notmuch database for writing");
	assert_int_equal(wn_store_pending(b.s), 1);

	assert_int_equal(rename(away, xapian), 0);
	assert_int_equal(wn_store_flush(b.s, 60000, &err), WN_OK);
	assert_int_equal(wn_store_pending(b.s), 0);
	bench_close(&b);
	scratch_world_down(&own);
	free(xapian);
	free(away);
	wn_error_clear(&err);
}

/* A change notmuch refuses (a property key may not hold '=', and a
 * journal is a file anyone can write) is set aside: the writer goes on,
 * says so once, and keeps it whole in the journal's .rejected file. */
static void test_writer_rejects(void **state)
{
	struct scratch_world *w = *state;
	struct bench b;
	wn_error err = WN_ERROR_INIT;
	char *journal = NULL, *rejected = NULL, *text;

	add_line(&journal, "mark", 1, ",\"c\":[[\"%s\",\"valid\",\"untriaged\",null,\"a note\"]]",
		 "bad=fp");
	bench_open(w, &b, NULL, journal);
	assert_int_equal(wn_store_pending(b.s), 1);
	assert_int_equal(wn_store_flush(b.s, 60000, &err), WN_OK);
	assert_int_equal(wn_store_pending(b.s), 0);
	assert_non_null(wn_store_warning(b.s));
	assert_non_null(strstr(wn_store_warning(b.s), "finding bad=fp of review <" REVIEW_A
						      "> could not be written to notmuch"));
	text = slurp(wn_store_journal_path(b.s));
	assert_non_null(strstr(text, "\"op\":\"reject\""));
	free(text);
	assert_true(asprintf(&rejected, "%s.rejected", wn_store_journal_path(b.s)) > 0);
	text = slurp(rejected);
	assert_non_null(strstr(text, "\"fp\":\"bad=fp\""));
	assert_non_null(strstr(text, "\"note\":\"a note\""));
	free(text);
	bench_close(&b);
	free(rejected);
	free(journal);
	wn_error_clear(&err);
}

int main(void)
{
	const struct CMUnitTest journal[] = {
		cmocka_unit_test(test_journal_unplaced),
		cmocka_unit_test(test_journal_not_a_file),
		cmocka_unit_test(test_journal_gone),
		cmocka_unit_test(test_journal_compact_fails),
	};
	const struct CMUnitTest store[] = {
		cmocka_unit_test(test_mark_picked_refused), cmocka_unit_test(test_not_loaded),
		cmocka_unit_test(test_drafted_refused),	    cmocka_unit_test(test_old_journal_line),
		cmocka_unit_test(test_broken_entries),	    cmocka_unit_test(test_repair_fails),
		cmocka_unit_test(test_undo_nothing),	    cmocka_unit_test(test_review_gone),
		cmocka_unit_test(test_recognise_applied),   cmocka_unit_test(test_compaction),
		cmocka_unit_test(test_writer_cannot_open),  cmocka_unit_test(test_writer_rejects),
	};
	int failed = cmocka_run_group_tests(journal, NULL, NULL);

	return failed + cmocka_run_group_tests(store, scratch_world_up, scratch_world_down);
}
