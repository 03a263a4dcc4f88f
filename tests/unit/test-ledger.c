/* Unit tests: the pre-existing ledger (ledger.c) and its digests
 * (ledger-mail.c, digest.c), on reviews made up in memory; and
 * memory's pager (pager.c), run through core/proc.c. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "winnow/winnow.h"
#include "winnow/digest.h"
#include "winnow/ledger.h"
#include "winnow/series.h"

#define MAXF 4

/* A review held in one block, findings given as file, function,
 * summary, verdict. */
struct fake {
	wn_item it;
	wn_review r;
	wn_patch p;
	wn_finding f[MAXF];
	wn_verdict v[MAXF];
	char *notes[MAXF];
};

static void fake_init(struct fake *x, const char *id, time_t date, const char *list,
		      const char *patch_subject)
{
	memset(x, 0, sizeof(*x));
	x->it.id = (char *) id;
	x->it.subject = (char *) "Re: a review";
	x->it.date = date;
	x->it.loaded = true;
	x->it.bot = WN_BOT_SASHIKO;
	x->it.review = &x->r;
	x->it.patch = &x->p;
	x->it.verdicts = x->v;
	x->it.notes = x->notes;
	x->p.id = (char *) "patch@example.org";
	x->p.subject = (char *) patch_subject;
	x->p.list = (char *) list;
	x->r.findings = x->f;
}

static void fake_add(struct fake *x, const char *file, const char *fn, const char *summary,
		     wn_verdict v, const char *note)
{
	wn_finding *f = &x->f[x->r.nfindings];

	f->index = (int) x->r.nfindings + 1;
	f->file = (char *) file;
	f->function = (char *) fn;
	f->summary = (char *) summary;
	f->severity = WN_SEV_MEDIUM;
	wn_fingerprint(x->it.bot, file, fn, summary, f->fingerprint);
	x->v[x->r.nfindings] = v;
	x->notes[x->r.nfindings] = (char *) note;
	x->r.nfindings++;
}

static const char race[] = "foo_stop() writes FOO_CTRL without holding foo->lock";

static void test_merge(void **state)
{
	struct fake a, b, c;
	wn_ledger *l;
	const wn_ledger_entry *e;

	(void) state;
	/* v1: the bug, and a valid finding that stays out. */
	fake_init(&a, "r1@example.org", 1000, "foo.lists.example.org", "[PATCH 2/5] foo: stop");
	fake_add(&a, "drivers/foo.c", "foo_stop", race, WN_VERDICT_PREEXISTING, "needs the lock");
	fake_add(&a, "drivers/foo.c", "foo_stop", "a real bug", WN_VERDICT_VALID, NULL);
	/* v2: the same words (same fingerprint), the same note. */
	fake_init(&b, "r2@example.org", 3000, "foo.lists.example.org", "[PATCH v2 2/5] foo: stop");
	fake_add(&b, "drivers/foo.c", "foo_stop", race, WN_VERDICT_PREEXISTING, "needs the lock");
	/* v3: reworded, another note; and the same text in another file. */
	fake_init(&c, "r3@example.org", 2000, "foo.lists.example.org", "[PATCH v3 2/5] foo: stop");
	fake_add(&c, "b/drivers/foo.c", "foo_stop()", "In v3 foo_stop() still writes FOO_CTRL "
		 "without holding foo->lock (line 40)", WN_VERDICT_PREEXISTING, "since 2019");
	fake_add(&c, "drivers/bar.c", "foo_stop", race, WN_VERDICT_PREEXISTING, NULL);

	assert_int_equal(wn_ledger_new(&l, NULL), WN_OK);
	assert_int_equal(wn_ledger_add(l, &a.it), WN_OK);
	assert_int_equal(wn_ledger_add(l, &b.it), WN_OK);
	assert_int_equal(wn_ledger_add(l, &c.it), WN_OK);
	wn_ledger_sort(l);
	assert_int_equal(wn_ledger_count(l), 2);
	/* Last reported first: foo.c (3000) before bar.c (2000). */
	e = wn_ledger_at(l, 0);
	assert_string_equal(e->file, "drivers/foo.c");
	assert_int_equal(e->nreports, 3);
	assert_string_equal(e->reports[0].review, "r1@example.org");
	assert_string_equal(e->reports[1].review, "r3@example.org");
	assert_string_equal(e->reports[2].review, "r2@example.org");
	assert_int_equal(e->first, 1000);
	assert_int_equal(e->last, 3000);
	/* The newest report's words. */
	assert_string_equal(e->summary, race);
	assert_string_equal(e->fingerprint, a.f[0].fingerprint);
	assert_int_equal(e->nnotes, 2);
	assert_string_equal(e->notes[0], "needs the lock");
	assert_string_equal(e->notes[1], "since 2019");
	e = wn_ledger_at(l, 1);
	assert_string_equal(e->file, "drivers/bar.c");
	assert_int_equal(e->nreports, 1);
	assert_null(wn_ledger_at(l, 2));
	wn_ledger_free(&l);
	assert_null(l);
}

static void test_digests(void **state)
{
	struct fake a, b, c;
	wn_ledger *l;
	wn_forward **m;
	size_t n;
	wn_conf conf;

	(void) state;
	fake_init(&a, "r1@example.org", 1000, "netdev.vger.kernel.org", "[PATCH] net: x");
	fake_add(&a, "net/x.c", "x_fn", "one bug", WN_VERDICT_PREEXISTING, NULL);
	fake_init(&b, "r2@example.org", 2000, NULL, "[PATCH] misc: y");
	fake_add(&b, "misc/y.c", "y_fn", "another bug", WN_VERDICT_PREEXISTING, NULL);
	fake_init(&c, "r3@example.org", 3000, "netdev.vger.kernel.org", "[PATCH] net: z");
	fake_add(&c, "net/z.c", "z_fn", "a third bug", WN_VERDICT_PREEXISTING, "see the\x1b[2J list");
	assert_int_equal(wn_conf_init(&conf), WN_OK);
	assert_int_equal(wn_ledger_new(&l, NULL), WN_OK);
	assert_int_equal(wn_ledger_add(l, &a.it), WN_OK);
	assert_int_equal(wn_ledger_add(l, &b.it), WN_OK);
	assert_int_equal(wn_ledger_add(l, &c.it), WN_OK);
	wn_ledger_sort(l);
	/* No From: a configuration error, nothing made. */
	assert_int_equal(wn_ledger_digests(l, &conf, &m, &n, NULL), WN_CONFIG);
	assert_int_equal(n, 0);
	assert_int_equal(wn_conf_set(&conf, "user.name", "Ann Maintainer"), WN_OK);
	assert_int_equal(wn_conf_set(&conf, "user.primary_email", "ann@example.org"), WN_OK);
	assert_int_equal(wn_ledger_digests(l, &conf, &m, &n, NULL), WN_OK);
	assert_int_equal(n, 2);
	/* The list's address from its List-Id; no list: to oneself. */
	assert_string_equal(m[0]->to, "netdev@vger.kernel.org");
	assert_string_equal(m[0]->subject, "Pre-existing bugs found by review bots in netdev.vger.kernel.org (2)");
	assert_string_equal(m[0]->from, "Ann Maintainer <ann@example.org>");
	assert_string_equal(m[1]->to, "ann@example.org");
	assert_non_null(strstr(m[0]->body, "1. net/z.c, in z_fn()\n   a third bug\n"));
	assert_non_null(strstr(m[0]->body, "2. net/x.c, in x_fn()\n"));
	/* Mail text reaches the body only made safe. */
	assert_null(strchr(m[0]->body, '\x1b'));
	assert_non_null(strstr(m[0]->body, "   Note: see the"));
	assert_true(strstr(m[0]->message_id, ".digest@example.org") != NULL);
	for (size_t k = 0; k < n; k++)
		wn_forward_free(&m[k]);
	free(m);
	wn_ledger_free(&l);
	wn_conf_clear(&conf);
}

/* The pager gets "+LINE" and a file holding the text; one that cannot
 * run, or fails, is an error naming it (core/proc.c's runner, as the
 * editor's). */
static void test_pager(void **state)
{
	char dir[] = "/tmp/wn-pager-XXXXXX", cmd[1024], out[256], got[64];
	wn_error err = WN_ERROR_INIT;
	FILE *fp;

	(void) state;
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/seen", dir);
	snprintf(cmd, sizeof(cmd), "/bin/sh -c 'printf \"%%s\\n\" \"$0\" > %s; cat \"$1\" >> %s'",
		 out, out);
	setenv("PAGER", cmd, 1);
	assert_int_equal(wn_run_pager("one\ntwo\n", 2, &err), WN_OK);
	assert_non_null(fp = fopen(out, "r"));
	assert_non_null(fgets(got, sizeof(got), fp));
	assert_string_equal(got, "+2\n");
	assert_non_null(fgets(got, sizeof(got), fp));
	assert_string_equal(got, "one\n");
	fclose(fp);
	unlink(out);

	setenv("PAGER", "/nonexistent/pager", 1);
	assert_int_equal(wn_run_pager("text\n", 1, &err), WN_CONFIG);
	assert_string_equal(wn_error_msg(&err),
			    "cannot run the pager '/nonexistent/pager': No such file or directory");
	setenv("PAGER", "false", 1);
	assert_int_equal(wn_run_pager("text\n", 1, &err), WN_IO);
	assert_string_equal(wn_error_msg(&err), "the pager 'false' exited with status 1");
	/* The splitter's own words after "$PAGER": */
	setenv("PAGER", "less 'open", 1);
	assert_int_equal(wn_run_pager("text\n", 1, &err), WN_CONFIG);
	assert_string_equal(wn_error_msg(&err), "$PAGER: unmatched ' in the command 'less 'open'");
	unsetenv("PAGER");
	wn_error_clear(&err);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_digests),
		cmocka_unit_test(test_pager),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
