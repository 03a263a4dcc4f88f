/* winnow — unit tests of the Sashiko parser.
 *
 * Every template generation of Sashiko's mail: the summary (headings,
 * severity tags, wordings and wrapping), the inline comments attached
 * to its entries, and the footer link.  Whole mails are read from
 * tests/corpus/sashiko-unit/; fragments that test one rule are inline. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review-test.h"
#include "winnow/buf.h"

static bool str_starts(const char *s, const char *p)
{
	return s && strncmp(s, p, strlen(p)) == 0;
}

/* The mail several tests read. */
#define BOTH_HEADINGS "sashiko-unit/02-sashiko-both-headings.eml"

/* The same text with every "\n" turned into "\r\n". */
static char *crlf(const char *s)
{
	size_t n = strlen(s), k = 0, i;
	char *d = malloc(2 * n + 1);

	assert_non_null(d);
	for (i = 0; i < n; i++) {
		if (s[i] == '\n')
			d[k++] = '\r';
		d[k++] = s[i];
	}
	d[k] = '\0';
	return d;
}

static void test_sashiko_both_headings(void **state)
{
	wn_review *r = corpus_review(WN_BOT_SASHIKO, BOTH_HEADINGS);
	wn_finding *f;

	(void) state;
	assert_int_equal(r->declared, 3);
	assert_int_equal(r->nfindings, 3);
	assert_string_equal(r->cover_id, "20260101-cover-v2-0-abc@example.org");
	assert_int_equal(r->part, 2);
	assert_string_equal(r->patch_subject, "[PATCH v2 2/5] subsys: invented subject");

	f = F(r, 0);
	assert_int_equal(f->severity, WN_SEV_HIGH);
	assert_false(f->preexisting);
	assert_string_equal(f->summary,
			    "Missing NULL check of t->ptr before the dereference in example_fn.");
	assert_string_equal(f->file, "fs/example.c");
	assert_string_equal(f->function, "example_fn");
	assert_int_equal(f->line, 12);	/* 10 + "lock", "+if", "+return" */
	assert_false(f->line_approx);
	assert_false(f->about_commit_msg);
	/* the caret line marks the expression: kept, under its line */
	assert_string_equal(f->quote, " \tlock(t);\n+\tif (!t->ptr)\n+\t\treturn -EINVAL;\n"
			    "    ^^^^^^^^^^^^^^");
	assert_contains(f->comment, "Can t->ptr be NULL here?");
	assert_contains(f->comment, "\n\nA second paragraph");
	assert_contains(f->comment, "    if (!t)\n        return;");
	assert_null(strstr(f->comment, "[ ... ]"));
	assert_null(strstr(f->comment, "^^^"));

	f = F(r, 1);
	assert_int_equal(f->severity, WN_SEV_LOW);
	assert_false(f->preexisting);
	assert_string_equal(f->function, "third_fn");
	assert_int_equal(f->line, 62);
	assert_contains(f->comment, "out_unlock is misleading");

	f = F(r, 2);
	assert_int_equal(f->severity, WN_SEV_CRITICAL);
	assert_true(f->preexisting);
	assert_string_equal(f->function, "other_fn");
	/* 42 get, "-put" sits before line 43, 43 return: the last line */
	assert_int_equal(f->line, 43);
	assert_contains(f->comment, "never dropped");
	wn_review_free(&r);
	assert_null(r);
}

static void test_sashiko_no_headings_bare_tags(void **state)
{
	wn_review *r = corpus_review(WN_BOT_SASHIKO,
				      "sashiko-unit/04-sashiko-bare-tags.eml");

	(void) state;
	assert_int_equal(r->declared, 2);
	assert_int_equal(r->nfindings, 2);
	assert_null(r->patch_subject);
	/* middle dot missing, %40 decoded */
	assert_string_equal(r->cover_id, "cover@example.org");
	assert_int_equal(r->part, 1);
	assert_int_equal(F(r, 0)->severity, WN_SEV_MEDIUM);
	assert_string_equal(F(r, 0)->function, "done_fn");
	assert_int_equal(F(r, 0)->line, 203);
	assert_false(F(r, 0)->preexisting);
	assert_int_equal(F(r, 1)->severity, WN_SEV_HIGH);
	assert_string_equal(F(r, 1)->function, "setup_fn");
	assert_int_equal(F(r, 1)->line, 102);
	assert_string_equal(F(r, 1)->file, "drivers/x/y.c");
	wn_review_free(&r);
}

/* Oldest generation: no tags at all; the blocks attach by their words. */
static void test_sashiko_untagged_by_similarity(void **state)
{
	wn_review *r = corpus_review(WN_BOT_SASHIKO,
				      "sashiko-unit/06-sashiko-untagged.eml");

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_string_equal(F(r, 0)->function, "foo_irq");
	assert_contains(F(r, 0)->comment, "deadlock");
	assert_string_equal(F(r, 1)->function, "bar");
	assert_contains(F(r, 1)->comment, "coutn");
	wn_review_free(&r);
}

/* Only "Pre-existing issues:"; wrapped entries; two blocks for one entry;
 * more blocks than entries never makes more findings than entries. */
/* One problem discussed at three hunks, a [Severity:] block each: every
 * block is a site of the one finding, with its own code, place and
 * words. */
static const char three_sites[] =
	"Sashiko AI review found 2 potential issue(s) to consider:\n"
	"- [High] The private lock frob_lock is taken in frob_start() but never released on the error paths.\n"
	"- [Low] The comment above frob_stop() still names the old helper.\n"
	"--\n"
	"\n"
	"commit 0123456789abcdef0123456789abcdef01234567\n"
	"Author: Some Author <author@example.org>\n"
	"\n"
	"frob: take the private lock\n"
	"\n"
	"> diff --git a/drivers/frob/core.c b/drivers/frob/core.c\n"
	"> --- a/drivers/frob/core.c\n"
	"> +++ b/drivers/frob/core.c\n"
	"> @@ -20,6 +20,8 @@ static int frob_start(struct frob *fr)\n"
	">  \tint ret;\n"
	"> +\tspin_lock(&fr->frob_lock);\n"
	"\n"
	"[Severity: High]\n"
	"The private lock frob_lock is taken here.\n"
	"\n"
	"> @@ -40,6 +42,9 @@ static int frob_start(struct frob *fr)\n"
	">  \tret = frob_power(fr);\n"
	"> +\tif (ret)\n"
	"> +\t\treturn ret;\n"
	"\n"
	"[Severity: High]\n"
	"This error path returns with frob_lock still held, is it never released?\n"
	"\n"
	"> @@ -60,6 +65,8 @@ static int frob_reset(struct frob *fr)\n"
	"> +\tif (frob_busy(fr))\n"
	"> +\t\treturn -EBUSY;\n"
	"\n"
	"[Severity: High]\n"
	"The private lock frob_lock leaks on this path too.\n"
	"\n"
	"> @@ -90,6 +97,7 @@ static void frob_stop(struct frob *fr)\n"
	">  /* calls frob_old_helper() */\n"
	"\n"
	"[Severity: Low]\n"
	"The comment above frob_stop() still names the old helper.\n"
	"\n"
	"-- \n"
	"Sashiko AI review \xc2\xb7 https://sashiko.dev/#/patchset/cover@example.org?part=1\n";

static void test_sashiko_sites(void **state)
{
	wn_review *r = parse(WN_BOT_SASHIKO, three_sites), *again;
	wn_finding *f;
	wn_site s;
	char fp[WN_FP_LEN + 1];

	(void) state;
	assert_int_equal(r->nfindings, 2);
	f = F(r, 0);
	assert_int_equal(wn_finding_nsites(f), 3);
	s = wn_finding_site(f, 0);
	assert_string_equal(s.file, "drivers/frob/core.c");
	assert_string_equal(s.function, "frob_start");
	assert_string_equal(s.code, " \tint ret;\n+\tspin_lock(&fr->frob_lock);");
	assert_string_equal(s.comment, "The private lock frob_lock is taken here.");
	s = wn_finding_site(f, 1);
	assert_string_equal(s.function, "frob_start");
	assert_int_equal(s.line, 44);
	assert_string_equal(s.code, " \tret = frob_power(fr);\n+\tif (ret)\n+\t\treturn ret;");
	assert_contains(s.comment, "still held");
	s = wn_finding_site(f, 2);
	assert_string_equal(s.function, "frob_reset");
	assert_string_equal(s.code, "+\tif (frob_busy(fr))\n+\t\treturn -EBUSY;");
	assert_string_equal(s.comment, "The private lock frob_lock leaks on this path too.");
	/* the finding itself reads as before: the first place, all words */
	assert_string_equal(f->function, "frob_start");
	assert_string_equal(f->quote, " \tint ret;\n+\tspin_lock(&fr->frob_lock);");
	assert_contains(f->comment, "taken here.\n\nThis error path");
	/* the fingerprint is the summary's alone, as it always was */
	wn_fingerprint(WN_BOT_SASHIKO, NULL, NULL, f->summary, fp);
	assert_string_equal(f->fingerprint, fp);
	/* one block: one site, the finding's own */
	f = F(r, 1);
	assert_int_equal(f->nsites, 0);
	assert_int_equal(wn_finding_nsites(f), 1);
	s = wn_finding_site(f, 0);
	assert_string_equal(s.function, "frob_stop");
	assert_string_equal(s.code, f->quote);
	assert_string_equal(s.comment, f->comment);
	/* parsing again gives the same */
	again = parse(WN_BOT_SASHIKO, three_sites);
	assert_string_equal(F(again, 0)->fingerprint, F(r, 0)->fingerprint);
	wn_review_free(&again);
	wn_review_free(&r);
}

/* Where a finding stands when the mail skips the hunk header: the file
 * from its "+++ b/" line, the function from the nearest signature of
 * the quoted lines (a removed one too), no line (nothing to count
 * from); an entry with no code at all stands in the patch's only file. */
static const char snipped_places[] =
	"Sashiko AI review found 4 potential issue(s):\n"
	"- [High] The pool is not freed on the error path of pool_grow().\n"
	"- [Medium] Callers of pool_shrink_old() remain after its removal.\n"
	"- [Low] Statistics counters overflow after a day.\n"
	"- [Low] The commit message names the wrong limit.\n"
	"--\n"
	"\n"
	"commit 0123456789abcdef0123456789abcdef01234567\n"
	"Author: A Writer <a@example.org>\n"
	"\n"
	"> diff --git a/lib/pool.c b/lib/pool.c\n"
	"> --- a/lib/pool.c\n"
	"> +++ b/lib/pool.c\n"
	"\n"
	"[ ... ]\n"
	"\n"
	"> +static int\n"
	"> +pool_grow(struct pool *p,\n"
	">  \t  size_t n)\n"
	"> +{\n"
	"> +\tp->v = alloc(n);\n"
	"> +\tif (setup(p))\n"
	"> +\t\treturn -EIO;\n"
	"\n"
	"[Severity: High]\n"
	"Is the pool freed when setup() fails here?\n"
	"\n"
	"[ ... ]\n"
	"\n"
	"> @@ -80,6 +85,2 @@ static void pool_free(struct pool *p)\n"
	"> -void pool_shrink_old(struct pool *p)\n"
	"> -{\n"
	"> -\tkfree(p->v);\n"
	"> -}\n"
	"\n"
	"[Severity: Medium]\n"
	"Do callers of pool_shrink_old() remain elsewhere?\n"
	"\n"
	"-- \n"
	"Sashiko AI review \xc2\xb7 https://sashiko.dev/#/patchset/x@example.org?part=1\n";

static void test_sashiko_snipped_places(void **state)
{
	static const char *const one[] = { "lib/pool.c", NULL };
	static const char *const two[] = { "lib/pool.c", "lib/pool.h", NULL };
	wn_review_input in1 = { .patch_files = one }, in2 = { .patch_files = two };
	wn_review *r = parse(WN_BOT_SASHIKO, snipped_places);
	wn_review *r1 = parse_in(WN_BOT_SASHIKO, snipped_places, &in1);
	wn_review *r2 = parse_in(WN_BOT_SASHIKO, snipped_places, &in2);

	(void) state;
	assert_int_equal(r->nfindings, 4);
	assert_string_equal(F(r, 0)->file, "lib/pool.c");
	assert_string_equal(F(r, 0)->function, "pool_grow");
	assert_int_equal(F(r, 0)->line, 0);
	assert_string_equal(F(r, 1)->file, "lib/pool.c");
	assert_string_equal(F(r, 1)->function, "pool_shrink_old");
	assert_int_equal(F(r, 1)->line, 85);
	/* no code: the patch's files are asked for, and place it when the
	 * patch has one file only */
	assert_true(r->wants_patch_files);
	assert_null(F(r, 2)->file);
	assert_null(F(r, 2)->quote);
	assert_string_equal(F(r1, 2)->file, "lib/pool.c");
	assert_null(F(r1, 2)->function);
	assert_null(F(r2, 2)->file);
	/* about the commit message: no file, however many the patch has */
	assert_null(F(r1, 3)->file);
	for (size_t i = 0; i < r->nfindings; i++) {
		assert_string_equal(F(r1, i)->fingerprint, F(r, i)->fingerprint);
		assert_string_equal(F(r2, i)->fingerprint, F(r, i)->fingerprint);
	}
	wn_review_free(&r);
	wn_review_free(&r1);
	wn_review_free(&r2);
}

/* Without a summary the comments are the findings and their place is
 * in the fingerprint: a function only the newer reading finds is shown,
 * the fingerprint keeps the place it always had (none). */
static void test_sashiko_snipped_place_fingerprint(void **state)
{
	const char *body = strstr(snipped_places, "commit 0123");
	wn_review *r = parse(WN_BOT_SASHIKO, body);
	char fp[WN_FP_LEN + 1];

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_string_equal(F(r, 0)->function, "pool_grow");
	wn_fingerprint(WN_BOT_SASHIKO, "lib/pool.c", NULL, F(r, 0)->summary, fp);
	assert_string_equal(F(r, 0)->fingerprint, fp);
	assert_string_equal(F(r, 1)->function, "pool_shrink_old");
	/* the hunk header's function, as always */
	wn_fingerprint(WN_BOT_SASHIKO, "lib/pool.c", "pool_free", F(r, 1)->summary, fp);
	assert_string_equal(F(r, 1)->fingerprint, fp);
	wn_review_free(&r);
}

/* A comment under a hunk header alone quotes no code and names no file:
 * the patch's only file places it, its fingerprint keeps no file. */
static void test_sashiko_unquoted_place_fingerprint(void **state)
{
	static const char body[] =
		"> @@ -1,2 +1,2 @@ int pool_init(void)\n"
		"\n"
		"Is the pool leaked when pool_init() is called twice?\n";
	static const char *const one[] = { "lib/pool.c", NULL };
	wn_review_input in = { .patch_files = one };
	wn_review *r = parse(WN_BOT_SASHIKO, body), *placed = parse_in(WN_BOT_SASHIKO, body, &in);

	(void) state;
	assert_int_equal(r->nfindings, 1);
	assert_null(F(r, 0)->file);
	assert_string_equal(F(placed, 0)->file, "lib/pool.c");
	assert_string_equal(F(placed, 0)->function, "pool_init");
	assert_string_equal(F(placed, 0)->fingerprint, F(r, 0)->fingerprint);
	wn_review_free(&r);
	wn_review_free(&placed);
}

/* A block tagged [High] never places a [Low] entry, however many of the
 * entry's words it holds: the [Low] entry stands where its own [Low]
 * block does, the [High] one where the [High] block does. */
static const char tag_places[] =
	"Sashiko AI review found 2 potential issue(s) to consider:\n"
	"- [High] Reference leak on the early exit path.\n"
	"- [Low] The warning message in frob_open() is printed twice for one failure.\n"
	"--\n"
	"\n"
	"> diff --git a/drivers/frob/core.c b/drivers/frob/core.c\n"
	"> --- a/drivers/frob/core.c\n"
	"> +++ b/drivers/frob/core.c\n"
	"> @@ -10,6 +10,8 @@ static int frob_open(struct frob *fr)\n"
	"> +\tif (frob_setup(fr))\n"
	"> +\t\treturn -EIO;\n"
	"\n"
	"[Severity: High]\n"
	"The warning message in frob_open() is printed twice for one failure, and\n"
	"this return skips frob_put(): does that leak the reference?\n"
	"\n"
	"> @@ -40,6 +42,7 @@ static void frob_close(struct frob *fr)\n"
	"> +\tpr_warn(\"frob: closing\\n\");\n"
	"\n"
	"[Severity: Low]\n"
	"Same message again here.\n"
	"\n"
	"-- \n"
	"Sashiko AI review \xc2\xb7 https://sashiko.dev/#/patchset/cover@example.org?part=1\n";

static void test_sashiko_tag_keeps_place(void **state)
{
	wn_review *r = parse(WN_BOT_SASHIKO, tag_places);

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_int_equal(F(r, 0)->severity, WN_SEV_HIGH);
	assert_string_equal(F(r, 0)->function, "frob_open");
	assert_int_equal(F(r, 0)->line, 11);
	assert_int_equal(F(r, 1)->severity, WN_SEV_LOW);
	assert_string_equal(F(r, 1)->function, "frob_close");
	assert_int_equal(F(r, 1)->line, 42);
	assert_string_equal(F(r, 1)->comment, "Same message again here.");
	wn_review_free(&r);
}

/* One block raising two summary entries: the entry its tag does not
 * name still gets the block's code and words, never an empty finding. */
static const char two_in_one[] =
	"Sashiko AI review found 2 potential issue(s) to consider:\n"
	"- [High] Use-after-free of the request in gadget_complete() after gadget_put().\n"
	"- [Medium] The return value of gadget_queue() is ignored in gadget_complete().\n"
	"--\n"
	"\n"
	"> diff --git a/drivers/gadget/core.c b/drivers/gadget/core.c\n"
	"> --- a/drivers/gadget/core.c\n"
	"> +++ b/drivers/gadget/core.c\n"
	"> @@ -30,6 +30,8 @@ static void gadget_complete(struct gadget_req *req)\n"
	"> +\tgadget_put(req->gadget);\n"
	"> +\tgadget_queue(req);\n"
	"\n"
	"[Severity: High]\n"
	"After gadget_put() drops the last reference, req is freed, so is this a\n"
	"use-after-free of the request?\n"
	"\n"
	"Also, the return value of gadget_queue() is ignored here; a failure leaves\n"
	"the request on no list.\n"
	"\n"
	"-- \n"
	"Sashiko AI review \xc2\xb7 https://sashiko.dev/#/patchset/cover@example.org?part=1\n";

static void test_sashiko_block_two_problems(void **state)
{
	wn_review *r = parse(WN_BOT_SASHIKO, two_in_one);
	wn_site s;

	(void) state;
	assert_int_equal(r->nfindings, 2);
	for (size_t i = 0; i < 2; i++) {
		wn_finding *f = F(r, i);

		assert_non_null(f->comment);
		assert_int_equal(wn_finding_nsites(f), 1);
		s = wn_finding_site(f, 0);
		assert_string_equal(s.function, "gadget_complete");
		assert_string_equal(s.code, "+\tgadget_put(req->gadget);\n+\tgadget_queue(req);");
		assert_contains(s.comment, "gadget_queue() is ignored");
	}
	assert_int_equal(F(r, 1)->severity, WN_SEV_MEDIUM);
	wn_review_free(&r);
}

static void test_sashiko_preexisting_wrapped_two_blocks(void **state)
{
	wn_review *r = corpus_review(WN_BOT_SASHIKO,
				      "sashiko-unit/08-sashiko-preexisting-two-blocks.eml");
	wn_finding *f;

	(void) state;
	assert_int_equal(r->nfindings, 1);
	f = F(r, 0);
	assert_true(f->preexisting);
	assert_string_equal(f->summary,
			    "MSR_KVM_MIGRATION_CONTROL is disabled during CPU offline and system "
			    "suspend but is never re-enabled upon online/resume, breaking live migration.");
	/* the first block gives the place, both give the comment */
	assert_string_equal(f->function, "kvm_guest_cpu_offline");
	assert_int_equal(f->line, 469);
	assert_contains(f->comment, "cleared here");
	assert_contains(f->comment, "Nothing re-enables");
	assert_true(strstr(f->comment, "cleared here") < strstr(f->comment, "Nothing re-enables"));
	wn_review_free(&r);
}

/* Seven entries, five of them High, discussed in nine blocks; the diff
 * header left unquoted and snips glued to the quoted code (a real
 * template generation). */
static void test_sashiko_many_same_severity(void **state)
{
	static const struct {
		const char *function, *first, *second;
	} want[] = {
		{ "lens_probe", "lens_crc8_table", NULL },
		{ "lens_get_ctrl", "g_volatile_ctrl", NULL },
		{ NULL, "UAPI ABI", "in-place converted endianness" },
		{ "lens_i2c_write", "CONFIG_VMAP_STACK", "stack memory to the I2C core" },
		{ "lens_probe", "devm_kzalloc", NULL },
		{ "lens_i2c_read", "packed struct", NULL },
		{ "lens_i2c_write", "-Wpointer-sign", NULL },
	};
	wn_review *r = corpus_review(WN_BOT_SASHIKO,
				      "sashiko-unit/10-sashiko-many-same-severity.eml");
	size_t i;

	(void) state;
	assert_int_equal(r->nfindings, 7);
	for (i = 0; i < 7; i++) {
		wn_finding *f = F(r, i);

		assert_string_equal(f->file, "drivers/media/i2c/lens.c");
		assert_false(f->about_commit_msg);
		assert_true(f->line_approx);
		if (want[i].function)
			assert_string_equal(f->function, want[i].function);
		else
			assert_null(f->function);
		assert_contains(f->comment, want[i].first);
		if (want[i].second)
			assert_contains(f->comment, want[i].second);
	}
	assert_int_equal(F(r, 5)->severity, WN_SEV_MEDIUM);
	assert_int_equal(F(r, 6)->severity, WN_SEV_LOW);
	wn_review_free(&r);
}

static void test_sashiko_no_issues(void **state)
{
	wn_review *r = corpus_review(WN_BOT_SASHIKO,
				      "sashiko-unit/12-sashiko-no-issues.eml");

	(void) state;
	assert_int_equal(r->nfindings, 0);
	assert_string_equal(r->explain, "Sashiko found no issues");
	assert_int_equal(r->declared, 0);
	assert_string_equal(r->cover_id, "c@d");
	assert_int_equal(r->part, 4);
	wn_review_free(&r);
}

static void test_sashiko_announced_but_empty(void **state)
{
	static const char body[] =
		"Sashiko AI review found 2 potential issue(s) to consider:\n"
		"--\n"
		"\n"
		"nothing else here\n";
	wn_review *r = parse(WN_BOT_SASHIKO, body);

	(void) state;
	assert_int_equal(r->nfindings, 0);
	assert_int_equal(r->declared, 2);
	assert_string_equal(r->explain, "Sashiko summary announces 2 issues but no entries were found");
	wn_review_free(&r);
}

/* A comment on quoted commit-message lines, and a snip inside a hunk. */
static void test_sashiko_commit_msg_and_snip(void **state)
{
	wn_review *r = corpus_review(WN_BOT_SASHIKO,
				      "sashiko-unit/14-sashiko-commit-msg-snip.eml");

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_true(F(r, 0)->about_commit_msg);
	assert_null(F(r, 0)->file);
	assert_int_equal(F(r, 0)->line, 0);
	assert_string_equal(F(r, 0)->quote, "Fixes: 0123456789ab (\"subsys: old commit\")");
	assert_false(F(r, 1)->about_commit_msg);
	assert_string_equal(F(r, 1)->file, "lib/count.c");
	assert_true(F(r, 1)->line_approx);
	assert_int_equal(F(r, 1)->line, 22);	/* counted across the snip */
	/* the quote restarts after the snip */
	assert_string_equal(F(r, 1)->quote, " \tfor (i = 0; i <= n; i++)");
	assert_null(r->cover_id);
	assert_int_equal(r->part, 0);
	wn_review_free(&r);
}

/* No summary at all: every block is a finding; missing tags are
 * "unknown"; the prose decides pre-existing. */
static void test_sashiko_without_summary(void **state)
{
	wn_review *r = corpus_review(WN_BOT_SASHIKO,
				      "sashiko-unit/16-sashiko-without-summary.eml");

	(void) state;
	assert_int_equal(r->declared, -1);
	assert_int_equal(r->nfindings, 2);
	assert_int_equal(F(r, 0)->severity, WN_SEV_UNKNOWN);
	assert_string_equal(F(r, 0)->summary, "Is g() safe to call here?");
	assert_false(F(r, 0)->preexisting);
	assert_int_equal(F(r, 0)->line, 1);
	assert_int_equal(F(r, 1)->severity, WN_SEV_MEDIUM);
	assert_true(F(r, 1)->preexisting);
	assert_int_equal(F(r, 1)->line, 2);
	wn_review_free(&r);
}

/* CRLF line ends give the same findings as LF ones. */
static void test_sashiko_crlf_same_result(void **state)
{
	char *lf = corpus_body(BOTH_HEADINGS, WN_BOT_SASHIKO, NULL);
	char *c = crlf(lf);
	wn_review *a = parse(WN_BOT_SASHIKO, lf), *b = parse(WN_BOT_SASHIKO, c);
	size_t i;

	(void) state;
	assert_int_equal(a->nfindings, b->nfindings);
	for (i = 0; i < a->nfindings; i++) {
		assert_string_equal(a->findings[i].fingerprint, b->findings[i].fingerprint);
		assert_string_equal(a->findings[i].summary, b->findings[i].summary);
		assert_string_equal(a->findings[i].comment, b->findings[i].comment);
		assert_int_equal(a->findings[i].line, b->findings[i].line);
		assert_null(strchr(b->findings[i].comment, '\r'));
	}
	assert_string_equal(a->cover_id, b->cover_id);
	assert_int_equal(b->part, 2);
	wn_review_free(&a);
	wn_review_free(&b);
	free(c);
	free(lf);
}

/* Footer variants: wrapped URL, <> around the id, "--" without space. */
static void test_sashiko_footer_variants(void **state)
{
	static const char wrapped[] =
		"Sashiko AI review found 1 potential issue(s) to consider:\n"
		"- [Low] x\n"
		"--\n"
		"> a\n"
		"b\n"
		"--\n"
		"Sashiko AI review \xc2\xb7 https://sashiko.dev/#/patchset/20260529144435.7041\n"
		"27-1-seanjc@google.com?part=26\n";
	static const char angled[] =
		"> a\n"
		"b\n"
		"-- \n"
		"Sashiko AI review\n"
		"https://sashiko.dev/#/patchset/%3C123.456-1-x%40example.org%3E?part=12\n"
		"\n";
	wn_review *r = parse(WN_BOT_SASHIKO, wrapped);

	(void) state;
	assert_string_equal(r->cover_id, "20260529144435.704127-1-seanjc@google.com");
	assert_int_equal(r->part, 26);
	assert_int_equal(r->nfindings, 1);
	assert_string_equal(F(r, 0)->comment, "b");
	wn_review_free(&r);
	r = parse(WN_BOT_SASHIKO, angled);
	assert_string_equal(r->cover_id, "123.456-1-x@example.org");
	assert_int_equal(r->part, 12);
	wn_review_free(&r);
}

/* The summary may be glued to its "--" by a rewrapped copy. */
static void test_sashiko_glued_terminator(void **state)
{
	static const char body[] =
		"Sashiko AI review found 1 potential issue(s) to consider:\n"
		"- [High] Bypassing kvm_sched_clock_init() when CONSTANT_TSC is present\n"
		"ignores KVM's PVCLOCK_TSC_STABLE_BIT.  --\n"
		"\n"
		"commit 57cf68835ef70733c037ca9ffa04fd39e1d70027\n"
		"> diff --git a/k.c b/k.c\n"
		"> +x\n"
		"\n"
		"Comment about PVCLOCK_TSC_STABLE_BIT.\n";
	wn_review *r = parse(WN_BOT_SASHIKO, body);

	(void) state;
	assert_int_equal(r->nfindings, 1);
	assert_string_equal(F(r, 0)->summary,
			    "Bypassing kvm_sched_clock_init() when CONSTANT_TSC is present ignores "
			    "KVM's PVCLOCK_TSC_STABLE_BIT.");
	assert_string_equal(F(r, 0)->file, "k.c");
	wn_review_free(&r);
}

/* NUL bytes are ordinary bytes: they neither end the body nor crash. */
static void test_sashiko_nul_bytes(void **state)
{
	static const char body[] =
		"Sashiko AI review found 1 potential issue(s) to consider:\n"
		"- [High] bad\0thing\n"
		"--\n"
		"> diff --git a/f\0.c b/f.c\n"
		"> +x\n"
		"\n"
		"comment\0with nul\n"
		"-- \n"
		"Sashiko AI review https://sashiko.dev/#/patchset/a@b?part=9\n";
	wn_review *r = parse_n(WN_BOT_SASHIKO, body, sizeof(body) - 1);

	(void) state;
	assert_int_equal(r->nfindings, 1);
	assert_string_equal(F(r, 0)->summary, "bad thing");
	assert_string_equal(F(r, 0)->comment, "comment with nul");
	assert_int_equal(r->part, 9);
	wn_review_free(&r);
}

/* Summary wording and layout variants seen across template generations
 * or produced by rewrapping clients: "issues" without "(s)", upper-case
 * severities, '*' and numbered bullets, a markdown heading too long for
 * the old 48-byte limit, "possible" instead of "potential". */
static void test_sashiko_summary_variants(void **state)
{
	static const char body[] =
		"Sashiko AI review found 4 possible issues:\n"
		"\n"
		"**New issues:**\n"
		"- [HIGH] Lock order inversion between dev->lock and the rtnl lock.\n"
		"* [Low] Misleading comment above the retry loop.\n"
		"\n"
		"**Pre-existing issues (not introduced by this patch):**\n"
		"1. [Medium] The retry loop never gives up when the firmware hangs.\n"
		"2. [Severity: Critical] dev->fw is freed while the watchdog still uses it.\n"
		"--\n"
		"\n"
		"> diff --git a/drivers/x.c b/drivers/x.c\n"
		"> @@ -1,2 +1,3 @@ static int x_probe(struct x *dev)\n"
		"> +\trtnl_lock();\n"
		"\n"
		"[Severity: High]\n"
		"dev->lock is taken inside rtnl elsewhere.\n";
	wn_review *r = parse(WN_BOT_SASHIKO, body);

	(void) state;
	assert_int_equal(r->declared, 4);
	assert_int_equal(r->nfindings, 4);
	assert_int_equal(F(r, 0)->severity, WN_SEV_HIGH);
	assert_false(F(r, 0)->preexisting);
	assert_string_equal(F(r, 0)->function, "x_probe");
	assert_int_equal(F(r, 1)->severity, WN_SEV_LOW);
	assert_false(F(r, 1)->preexisting);
	assert_int_equal(F(r, 2)->severity, WN_SEV_MEDIUM);
	assert_true(F(r, 2)->preexisting);
	assert_string_equal(F(r, 2)->summary, "The retry loop never gives up when the firmware hangs.");
	assert_int_equal(F(r, 3)->severity, WN_SEV_CRITICAL);
	assert_true(F(r, 3)->preexisting);
	wn_review_free(&r);
}

/* A hedge opening an entry ("This is a pre-existing issue, but ...")
 * is left out of the summary shown, which then says the problem; the
 * fingerprint still hashes the entry as written, so a verdict given
 * before keeps its finding.  A clause that states the problem is no
 * hedge, and a hedge with nothing after it stays. */
static void test_sashiko_summary_hedges(void **state)
{
	static const char *const written[] = {
		"This is a pre-existing issue, but the retry loop never gives up.",
		"This isn't a bug introduced by this patch, but is it safe to return early here?",
		"Not a bug introduced by this patch, but the count can wrap at 2^32.",
		"This problem wasn't introduced by this patch; however, the lock is dropped twice.",
		"The helper was removed, but it is still called from x_remove().",
		"This isn't a bug, but fine.",
		"This is a pre-existing issue, but dev_put() runs twice on the error path.",
	};
	static const char *const shown[] = {
		"The retry loop never gives up.",
		"Is it safe to return early here?",
		"The count can wrap at 2^32.",
		"The lock is dropped twice.",
		"The helper was removed, but it is still called from x_remove().",
		"This isn't a bug, but fine.",
		"dev_put() runs twice on the error path.",
	};
	wn_buf b = WN_BUF_INIT;
	wn_review *r;

	(void) state;
	wn_buf_puts(&b, "Sashiko AI review found 7 potential issue(s) to consider:\n");
	for (size_t i = 0; i < 7; i++)
		wn_buf_printf(&b, "- [Low] %s\n", written[i]);
	wn_buf_puts(&b, "--\n");
	r = parse(WN_BOT_SASHIKO, wn_buf_str(&b));
	assert_int_equal(r->nfindings, 7);
	for (size_t i = 0; i < 7; i++) {
		char fp[WN_FP_LEN + 1];

		assert_string_equal(F(r, i)->summary, shown[i]);
		wn_fingerprint(WN_BOT_SASHIKO, NULL, NULL, written[i], fp);
		assert_string_equal(F(r, i)->fingerprint, fp);
	}
	wn_review_free(&r);
	wn_buf_free(&b);
}

/* A stray blank line inside a wrapped entry does not end the summary
 * while announced entries are still to come; after the last one, text
 * past a blank line does (the "--" went missing). */
static void test_sashiko_summary_stray_blank(void **state)
{
	static const char body[] =
		"Thank you for your contribution! Sashiko AI review found 3 potential issue(s) to consider:\n"
		"- [High] The first entry is wrapped\n"
		"\n"
		"  over a blank line.\n"
		"- [Medium] The second entry, wrapped where a line ends in a\n"
		"heading-like word, pre-existing issues:\n"
		"\n"
		"- [Low] The third entry, after a blank line.\n"
		"\n"
		"subsys: the commit title, with no \"--\" above it\n"
		"\n"
		"- [High] a dash line of the commit message, not an entry\n"
		"\n"
		"> diff --git a/a.c b/a.c\n"
		"> +x\n"
		"\n"
		"[Severity: High]\n"
		"A comment.\n";
	wn_review *r = parse(WN_BOT_SASHIKO, body);

	(void) state;
	assert_int_equal(r->nfindings, 3);
	assert_string_equal(F(r, 0)->summary, "The first entry is wrapped over a blank line.");
	assert_int_equal(F(r, 1)->severity, WN_SEV_MEDIUM);
	assert_false(F(r, 1)->preexisting);
	assert_contains(F(r, 1)->summary, "heading-like word, pre-existing issues:");
	assert_int_equal(F(r, 2)->severity, WN_SEV_LOW);
	assert_false(F(r, 2)->preexisting);
	assert_string_equal(F(r, 2)->summary, "The third entry, after a blank line.");
	wn_review_free(&r);
}

/* A heading is a short line: a wrapped entry line of over 100
 * characters after a stray blank line, though it ends in
 * "pre-existing issues:", continues its entry and does not make the
 * entries after it pre-existing.  (The lower bound, 3, cannot be
 * seen: no two characters hold "bug", the shortest heading word.) */
static void test_sashiko_summary_long_line_no_heading(void **state)
{
	static const char body[] =
		"Sashiko AI review found 2 potential issue(s) to consider:\n"
		"- [High] The first entry is wrapped\n"
		"\n"
		"over a blank line by a mail client that kept a line far longer than any heading, "
		"ending in pre-existing issues:\n"
		"\n"
		"- [Low] The second entry is new.\n"
		"--\n";
	wn_review *r = parse(WN_BOT_SASHIKO, body);

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_false(F(r, 0)->preexisting);
	assert_contains(F(r, 0)->summary, "ending in pre-existing issues:");
	assert_int_equal(F(r, 1)->severity, WN_SEV_LOW);
	assert_false(F(r, 1)->preexisting);
	wn_review_free(&r);
}

/* Without its "--", a summary still ends at the commit header, at an
 * unquoted diff header or at the patch line. */
static void test_sashiko_summary_no_terminator(void **state)
{
	static const char *const bodies[] = {
		"Sashiko AI review found 1 potential issue(s):\n"
		"- [Medium] One entry, wrapped\n"
		"  over two lines.\n"
		"commit 0123456789abcdef0123456789abcdef01234567\n"
		"Author: A <a@example.org>\n"
		"\n"
		"> diff --git a/a.c b/a.c\n"
		"> +x\n"
		"\n"
		"A comment about x.\n",
		"Sashiko AI review found 1 potential issue(s):\n"
		"- [Medium] One entry, wrapped\n"
		"  over two lines.\n"
		"diff --git a/a.c b/a.c\n"
		"--- a/a.c\n"
		"+++ b/a.c\n"
		"[ ... ]\n"
		"> +x\n"
		"\n"
		"A comment about x.\n",
		"Sashiko AI review found 1 potential issue(s):\n"
		"- [Medium] One entry, wrapped\n"
		"  over two lines.\n"
		"--- Patch [3]: [PATCH 3/3] a: b ---\n"
		"> diff --git a/a.c b/a.c\n"
		"> +x\n"
		"\n"
		"A comment about x.\n",
	};
	size_t k;

	(void) state;
	for (k = 0; k < sizeof(bodies) / sizeof(bodies[0]); k++) {
		wn_review *r = parse(WN_BOT_SASHIKO, bodies[k]);

		assert_int_equal(r->nfindings, 1);
		assert_string_equal(F(r, 0)->summary, "One entry, wrapped over two lines.");
		assert_string_equal(F(r, 0)->file, "a.c");
		assert_contains(F(r, 0)->comment, "A comment about x.");
		wn_review_free(&r);
	}
}

/* A summary whose entries cannot be read: the comments are kept as the
 * findings rather than dropped; "found no ..." wordings give none. */
static void test_sashiko_summary_unreadable_and_none(void **state)
{
	static const char unreadable[] =
		"Sashiko AI review found 2 potential issue(s):\n"
		"  High: entries in a layout nobody has seen yet\n"
		"--\n"
		"> diff --git a/a.c b/a.c\n"
		"> +x\n"
		"\n"
		"[Severity: High]\n"
		"First.\n"
		"\n"
		"> +y\n"
		"\n"
		"[Severity: Low]\n"
		"Second.\n";
	static const char *const none[] = {
		"Sashiko AI review found no potential issues.\n",
		"Thank you for your contribution! Sashiko AI review found no regressions.\n",
		"Sashiko AI review found 0 potential issue(s).\n",
	};
	wn_review *r = parse(WN_BOT_SASHIKO, unreadable);
	size_t k;

	(void) state;
	assert_int_equal(r->declared, 2);
	assert_int_equal(r->nfindings, 2);
	assert_int_equal(F(r, 0)->severity, WN_SEV_HIGH);
	assert_int_equal(F(r, 1)->severity, WN_SEV_LOW);
	wn_review_free(&r);
	for (k = 0; k < sizeof(none) / sizeof(none[0]); k++) {
		r = parse(WN_BOT_SASHIKO, none[k]);
		assert_int_equal(r->declared, 0);
		assert_int_equal(r->nfindings, 0);
		assert_string_equal(r->explain, "Sashiko found no issues");
		wn_review_free(&r);
	}
	/* prose elsewhere that happens to say "found 3 issues" is no summary */
	r = parse(WN_BOT_SASHIKO, "I found 3 issues with the locking.\n> +x\n\nA comment.\n");
	assert_int_equal(r->declared, -1);
	assert_int_equal(r->nfindings, 1);
	wn_review_free(&r);
}

/* A clean review quotes the commit message and says it found nothing,
 * in several wordings: a review with zero findings.  A comment that
 * asks something is a finding whatever else it says. */
static void test_sashiko_clean_review(void **state)
{
	static const char *const clean[] = {
		"Sashiko has reviewed this patch and found no issues. It looks great!",
		"Sashiko reviewed this patch and did not find any issues.",
		"No issues found.\nThe change looks good to me.",
		"I didn't find any problems with this patch.",
	};
	char body[1024];
	wn_review *r;

	(void) state;
	for (size_t k = 0; k < sizeof(clean) / sizeof(clean[0]); k++) {
		snprintf(body, sizeof(body),
			 "commit 0123456789abcdef0123456789abcdef01234567\n"
			 "Author: A <a@example.org>\n\n"
			 "> x: do y\n>\n> Signed-off-by: A <a@example.org>\n\n%s\n\n"
			 "-- \nSashiko AI review \xc2\xb7 https://sashiko.dev/#/patchset/a%%40b?part=1\n",
			 clean[k]);
		r = parse(WN_BOT_SASHIKO, body);
		assert_int_equal(r->nfindings, 0);
		assert_string_equal(r->explain, "Sashiko found no issues");
		wn_review_free(&r);
	}
	r = parse(WN_BOT_SASHIKO, "> x: do y\n\nI found no issues with the locking, but is the "
			  "refcount dropped twice on the error path?\n");
	assert_int_equal(r->nfindings, 1);
	wn_review_free(&r);
}

/* A review that quotes the commit message and then only gives its
 * Reviewed-by (or Acked-by) trailer found nothing: no finding whose
 * summary is the trailer. */
static void test_sashiko_reviewed_by_only(void **state)
{
	static const char *const tags[] = {
		"Reviewed-by: Sashiko <sashiko-bot@kernel.org>",
		"Reviewed-by: Sashiko <sashiko-bot@kernel.org>\nAcked-by: Sashiko <sashiko-bot@kernel.org>",
		"reviewed-by: Sashiko AI <sashiko-bot@kernel.org>",
	};
	char body[1024];
	wn_review *r;

	(void) state;
	for (size_t k = 0; k < sizeof(tags) / sizeof(tags[0]); k++) {
		snprintf(body, sizeof(body),
			 "commit 0123456789abcdef0123456789abcdef01234567\n"
			 "Author: A <a@example.org>\n\n"
			 "> x: do y\n>\n> Signed-off-by: A <a@example.org>\n\n%s\n\n"
			 "-- \nSashiko AI review \xc2\xb7 https://sashiko.dev/#/patchset/a%%40b?part=1\n",
			 tags[k]);
		r = parse(WN_BOT_SASHIKO, body);
		assert_int_equal(r->nfindings, 0);
		assert_string_equal(r->explain, "Sashiko found no issues");
		wn_review_free(&r);
	}
	/* a comment that goes on after the trailer is a finding */
	r = parse(WN_BOT_SASHIKO, "> x: do y\n\nReviewed-by: Sashiko <sashiko-bot@kernel.org>\n"
			  "But is the refcount dropped twice on the error path?\n");
	assert_int_equal(r->nfindings, 1);
	wn_review_free(&r);
}

/* A hunk and one untagged comment that shares no word with the
 * entries below. */
#define ONE_HUNK                                                              \
	"> diff --git a/a.c b/a.c\n> --- a/a.c\n> +++ b/a.c\n"                   \
	"> @@ -1,2 +1,3 @@ int f(void)\n> +\tx[i] = 0;\n\nCan i reach N here?\n\n"

/* Five pre-existing entries at one function: the short second entry's
 * words all stand in the first entry's block, so best evidence first
 * crossed the two; the pairing with the higher total undoes that and is
 * sure of it.  Two entries whose words both blocks hold equally are
 * flagged, as are blocks given out by order for want of any word. */
static void test_sashiko_pairing(void **state)
{
	wn_review *r = corpus_review(WN_BOT_SASHIKO, "sashiko-pairing/02-sashiko-crossed.eml");
	size_t i;

	(void) state;
	assert_int_equal(r->nfindings, 5);
	assert_contains(F(r, 0)->comment, "use-after-free");
	assert_contains(F(r, 1)->comment, "loses\nthe buffer");
	for (i = 0; i < 5; i++)
		assert_false(F(r, i)->pairing_unsure);
	wn_review_free(&r);

	r = corpus_review(WN_BOT_SASHIKO, "sashiko-pairing/04-sashiko-unsure.eml");
	assert_int_equal(r->nfindings, 2);
	assert_true(F(r, 0)->pairing_unsure);
	assert_true(F(r, 1)->pairing_unsure);
	wn_review_free(&r);

	r = parse(WN_BOT_SASHIKO,
		  "Sashiko AI review found 2 potential issue(s):\n"
		  "- [Medium] Missing bounds check.\n- [Medium] Off by one.\n--\n\n"
		  ONE_HUNK "> +\ty[j] = 1;\n\nIs j ever equal to M?\n");
	assert_int_equal(r->nfindings, 2);
	assert_contains(F(r, 0)->comment, "reach N");
	assert_true(F(r, 0)->pairing_unsure);
	assert_true(F(r, 1)->pairing_unsure);
	wn_review_free(&r);

	/* one entry, one block: nothing to confuse it with */
	r = parse(WN_BOT_SASHIKO,
		  "Sashiko AI review found 1 potential issue(s):\n- [Medium] Missing bounds check.\n--\n\n"
		  ONE_HUNK);
	assert_false(F(r, 0)->pairing_unsure);
	wn_review_free(&r);
}

/* Free-form reviews quote no code.  Without tags each issue's prose
 * paragraphs are its comment (a paragraph that goes on with the issue
 * stays with it), placed where the prose says; with tags the blocks are
 * placed the same way and the footer is no part of them. */
static void test_sashiko_free_form(void **state)
{
	wn_review *r = corpus_review(WN_BOT_SASHIKO, "sashiko-free-form/02-sashiko-free-form.eml");

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_true(str_starts(F(r, 0)->comment, "In fs/treefs/btree.c:btree_split_leaf()"));
	assert_contains(F(r, 0)->comment, "\n\nWould it be safer");
	assert_null(strstr(F(r, 0)->comment, "This commit"));
	assert_string_equal(F(r, 0)->file, "fs/treefs/btree.c");
	assert_string_equal(F(r, 0)->function, "btree_split_leaf");
	assert_false(F(r, 0)->about_commit_msg);
	assert_true(str_starts(F(r, 1)->comment, "The retry added to btree_insert_item()"));
	assert_null(strstr(F(r, 1)->comment, "Sashiko AI review"));
	assert_string_equal(F(r, 1)->function, "btree_insert_item");
	wn_review_free(&r);

	r = corpus_review(WN_BOT_SASHIKO, "sashiko-free-form/03-sashiko-free-form-tagged.eml");
	assert_int_equal(r->nfindings, 1);
	assert_string_equal(F(r, 0)->function, "btree_release_path");
	assert_string_equal(F(r, 0)->file, "fs/treefs/btree.c");
	assert_null(strstr(F(r, 0)->comment, "sashiko.dev"));
	assert_false(F(r, 0)->about_commit_msg);
	wn_review_free(&r);

	/* A hunk header quoted without its code: the function it names
	 * stays the place, not the call the prose mentions (found by
	 * fuzz-review: the header's copy leaked when the prose's took its
	 * place). */
	r = parse(WN_BOT_SASHIKO, "> @@ -10,6 +10,8 @@ static int foo_probe(struct device *dev)\n"
				  "bar_alloc() leaks the buffer when the probe fails.\n\n"
				  "This review is a free-form summary.\n");
	assert_int_equal(r->nfindings, 1);
	assert_string_equal(F(r, 0)->function, "foo_probe");
	assert_null(F(r, 0)->file);
	wn_review_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sashiko_clean_review),
		cmocka_unit_test(test_sashiko_reviewed_by_only),
		cmocka_unit_test(test_sashiko_both_headings),
		cmocka_unit_test(test_sashiko_no_headings_bare_tags),
		cmocka_unit_test(test_sashiko_untagged_by_similarity),
		cmocka_unit_test(test_sashiko_preexisting_wrapped_two_blocks),
		cmocka_unit_test(test_sashiko_sites),
		cmocka_unit_test(test_sashiko_snipped_places),
		cmocka_unit_test(test_sashiko_snipped_place_fingerprint),
		cmocka_unit_test(test_sashiko_unquoted_place_fingerprint),
		cmocka_unit_test(test_sashiko_block_two_problems),
		cmocka_unit_test(test_sashiko_tag_keeps_place),
		cmocka_unit_test(test_sashiko_many_same_severity),
		cmocka_unit_test(test_sashiko_pairing),
		cmocka_unit_test(test_sashiko_free_form),
		cmocka_unit_test(test_sashiko_no_issues),
		cmocka_unit_test(test_sashiko_announced_but_empty),
		cmocka_unit_test(test_sashiko_commit_msg_and_snip),
		cmocka_unit_test(test_sashiko_without_summary),
		cmocka_unit_test(test_sashiko_crlf_same_result),
		cmocka_unit_test(test_sashiko_footer_variants),
		cmocka_unit_test(test_sashiko_glued_terminator),
		cmocka_unit_test(test_sashiko_nul_bytes),
		cmocka_unit_test(test_sashiko_summary_variants),
		cmocka_unit_test(test_sashiko_summary_stray_blank),
		cmocka_unit_test(test_sashiko_summary_long_line_no_heading),
		cmocka_unit_test(test_sashiko_summary_hedges),
		cmocka_unit_test(test_sashiko_summary_no_terminator),
		cmocka_unit_test(test_sashiko_summary_unreadable_and_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
