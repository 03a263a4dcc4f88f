/* Unit tests: the similarity of findings (similar.c), patch subjects
 * taken apart (subject.c) and the hunks of a patch (mail/diff.c).  The
 * must-match and must-not-match cases of winnow(1)'s SIMILAR FINDINGS
 * are here, with the word sets worked out in the comments. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "winnow/winnow.h"
#include "winnow/series.h"
#include "winnow/similar.h"

static wn_finding finding(const char *file, const char *function, const char *summary)
{
	wn_finding f;

	memset(&f, 0, sizeof(f));
	f.file = (char *) file;
	f.function = (char *) function;
	f.summary = (char *) summary;
	return f;
}

/* Are a and b similar, each with its own patch subject? */
static bool similar(const wn_finding *a, const char *sa, const wn_finding *b, const char *sb,
		    double *score)
{
	char *la = wn_sim_location(a, sa), *lb = wn_sim_location(b, sb);
	wn_words wa, wb;
	bool r;

	assert_int_equal(wn_words_of(a->summary, &wa), WN_OK);
	assert_int_equal(wn_words_of(b->summary, &wb), WN_OK);
	r = wn_sim_match(la, &wa, lb, &wb, score);
	wn_words_free(&wa);
	wn_words_free(&wb);
	free(la);
	free(lb);
	return r;
}

static char *joined(const char *text)
{
	wn_words w;
	wn_buf b = WN_BUF_INIT;

	assert_int_equal(wn_words_of(text, &w), WN_OK);
	for (size_t i = 0; i < w.n; i++)
		wn_buf_printf(&b, "%s%s", i ? " " : "", w.w[i]);
	wn_words_free(&w);
	return b.len ? wn_buf_steal(&b) : strdup("");
}

static void assert_words(const char *text, const char *want)
{
	char *got = joined(text);

	assert_string_equal(got, want);
	free(got);
}

/* --- words -------------------------------------------------------------------- */

static void test_words(void **state)
{
	(void) state;
	/* Lower case, sorted, once each; "the", "is", "of" go; numbers go;
	 * a final e goes. */
	assert_words("The lock is taken twice, lock 42 of 7", "lock taken twic");
	/* Hex values and commit ids go, a short hex-like word stays. */
	assert_words("writes 0xdeadbeef at 0x1f since 1a2b3c4d5e6f, not beef",
		     "beef sinc writ");
	/* Versions go; names keep their endings, words lose them. */
	assert_words("v2 frees ring->bufs in wgn_ring_frees entries",
		     "buf entry fre ring wgn_ring_frees");
	assert_words("checking u32 overflows", "check overflow u32");
	/* Rewording: one word each. */
	assert_words("writes written writing write", "writ written");
	assert_words("dropped drop racing races race", "drop rac");
	assert_words(NULL, "");
	/* Every little word goes (the table is searched by halves: a word
	 * out of order would stay). */
	assert_words("a after all also an and any are as at be been before being but by can "
		     "could do does for from has have here if in into is it its line lines may "
		     "might never no not now of on or patch series so still than that the their "
		     "them then there these this those to was were when where which while will "
		     "with would", "");
}

static void test_jaccard(void **state)
{
	wn_words a, b;

	(void) state;
	assert_int_equal(wn_words_of("alpha beta gamma", &a), WN_OK);
	assert_int_equal(wn_words_of("beta gamma delta epsilon", &b), WN_OK);
	/* {beta, gamma} of {alpha, beta, gamma, delta, epsilon}. */
	assert_true(wn_words_jaccard(&a, &b) > 0.3999 && wn_words_jaccard(&a, &b) < 0.4001);
	assert_true(wn_words_jaccard(&a, &a) == 1.0);
	wn_words_free(&b);
	assert_int_equal(wn_words_of("", &b), WN_OK);
	assert_true(wn_words_jaccard(&a, &b) == 0.0);
	assert_true(wn_words_jaccard(&b, &b) == 0.0);
	wn_words_free(&a);
	wn_words_free(&b);
}

static void test_places(void **state)
{
	char *s;

	(void) state;
	s = wn_diff_path("b/drivers//net/x.c");
	assert_string_equal(s, "drivers/net/x.c");
	free(s);
	s = wn_diff_path("./drivers/net/x.c ");
	assert_string_equal(s, "drivers/net/x.c");
	free(s);
	assert_null(wn_diff_path(""));
	s = wn_sim_function(" static inline frob_it() ");
	assert_string_equal(s, "frob_it");
	free(s);
	assert_null(wn_sim_function("()"));
}

/* --- must match ------------------------------------------------------------------- */

static void test_match_reworded(void **state)
{
	/* {frobnic_remove, writ, frobnic_irq_mask, through, fd, reg,
	 * iounmap, unmap} against the same plus "goe": 8 of 9. */
	wn_finding a = finding("drivers/misc/frobnic/core.c", "frobnic_remove",
			       "frobnic_remove() writes FROBNIC_IRQ_MASK through fd->regs after "
			       "iounmap() unmapped them.");
	wn_finding b = finding("b/drivers/misc/frobnic/core.c", "frobnic_remove()",
			       "After iounmap() in frobnic_remove(), the FROBNIC_IRQ_MASK write goes "
			       "through the unmapped fd->regs.");
	double score;

	(void) state;
	assert_true(similar(&a, "[PATCH v1 2/5] frobnic: x", &b, "[PATCH v2 2/5] frobnic: x", &score));
	assert_true(score > 0.888 && score < 0.889);
}

static void test_match_moved_lines(void **state)
{
	wn_finding a = finding("drivers/net/widgetnet/ring.c", "wgn_rx_teardown",
			       "ring->bufs is freed at line 37 but read again at line 52");
	wn_finding b = finding("drivers/net/widgetnet/ring.c", "wgn_rx_teardown",
			       "ring->bufs is freed at line 41 but read again at line 58");
	double score;

	(void) state;
	assert_true(similar(&a, NULL, &b, NULL, &score));
	assert_true(score == 1.0);
}

static void test_match_renamed_version(void **state)
{
	/* The version is in the text and in the subject: neither counts.
	 * A finding on the commit message sits at the patch's title. */
	wn_finding a = finding(NULL, NULL, "The v1 changelog says the lock is dropped in 0123456789ab");
	wn_finding b = finding(NULL, NULL, "The v3 changelog says the lock is dropped in 89abcdef0123");
	double score;

	(void) state;
	a.about_commit_msg = b.about_commit_msg = true;
	assert_true(similar(&a, "[PATCH v1 3/5] frobnic: drop the lock",
			    &b, "Re: [PATCH v3 3/5] frobnic: drop the lock", &score));
	assert_true(score == 1.0);
	/* Another patch's commit message is another place. */
	assert_false(similar(&a, "[PATCH v1 3/5] frobnic: drop the lock",
			     &b, "[PATCH v1 4/5] frobnic: take the lock", &score));
	assert_true(score == 0.0);
	/* No subject at all: like no other finding. */
	assert_false(similar(&a, NULL, &b, NULL, NULL));
}

/* --- must not match ------------------------------------------------------------- */

static void test_nomatch_same_function(void **state)
{
	/* {against, dead, fd, frobnic_irq, lock, order, updat} and
	 * {drop, fd, issu, lock, wake_up_all}: 2 of 10. */
	wn_finding a = finding("drivers/misc/frobnic/core.c", "frobnic_remove",
			       "fd->lock does not order the fd->dead update against frobnic_irq()");
	wn_finding b = finding("drivers/misc/frobnic/core.c", "frobnic_remove",
			       "wake_up_all() is issued after fd->lock has been dropped.");
	double score;

	(void) state;
	assert_false(similar(&a, NULL, &b, NULL, &score));
	assert_true(score > 0.1999 && score < 0.2001);
}

static void test_nomatch_other_file(void **state)
{
	wn_finding a = finding("drivers/net/widgetnet/ring.c", "wgn_ring_free",
			       "The return value of kzalloc() is not checked");
	wn_finding b = finding("drivers/net/widgetnet/main.c", "wgn_ring_free",
			       "The return value of kzalloc() is not checked");
	wn_finding c = finding("drivers/net/widgetnet/ring.c", "wgn_ring_alloc",
			       "The return value of kzalloc() is not checked");
	double score = 1;

	(void) state;
	assert_false(similar(&a, NULL, &b, NULL, &score));
	assert_true(score == 0.0);
	/* Same file, another function: another place too. */
	assert_false(similar(&a, NULL, &c, NULL, NULL));
}

/* --- the quoted code ----------------------------------------------- */

static void test_quote_normalised(void **state)
{
	wn_sim_quote q;

	(void) state;
	/* Diff markers, line numbers, blank runs and snips go; the anchor
	 * is the last line long enough to say something ("}" is not). */
	assert_int_equal(wn_sim_quote_of("@@ -1,4 +1,5 @@ f\n"
					 "+\tmemcpy(gz->ring,   src, len);\n"
					 "...\n"
					 " 412:\tgz->head += len;\n"
					 "-}\n", &q), WN_OK);
	assert_int_equal(q.n, 3);
	assert_string_equal(q.line[0], "memcpy(gz->ring, src, len);");
	assert_string_equal(q.line[1], "gz->head += len;");
	assert_string_equal(q.line[2], "}");
	assert_string_equal(q.anchor, "gz->head += len;");
	wn_sim_quote_free(&q);
	/* The kernel test robot's git-blame lines: the code alone. */
	assert_int_equal(wn_sim_quote_of("8b0d2f4a6c8e0b Mei Tanaka 2026-11-02  407  \tif (!p)\n"
					 "8b0d2f4a6c8e0b Mei Tanaka 2026-11-02 @408  \t\tgoto err_out;",
					 &q), WN_OK);
	assert_int_equal(q.n, 2);
	assert_string_equal(q.line[0], "if (!p)");
	assert_string_equal(q.anchor, "goto err_out;");
	wn_sim_quote_free(&q);
	assert_int_equal(wn_sim_quote_of(NULL, &q), WN_OK);
	assert_null(q.anchor);
	wn_sim_quote_free(&q);
}

static void test_quote_anchored(void **state)
{
	wn_sim_quote a, b, c, d;

	(void) state;
	assert_int_equal(wn_sim_quote_of("+\tgz->head += len;", &a), WN_OK);
	assert_int_equal(wn_sim_quote_of("+\tgz->head += len;\n \tspin_unlock(&gz->lock);\n"
					 "+\tgizmo_kick(gz);", &b), WN_OK);
	assert_int_equal(wn_sim_quote_of(" \tspin_lock(&gz->lock);\n+\tmemcpy(gz->ring, src, len);",
					 &c), WN_OK);
	assert_int_equal(wn_sim_quote_of("}\n}", &d), WN_OK);
	/* a's line is among b's: the same code, whichever is longer. */
	assert_true(wn_sim_anchored(&a, &b));
	assert_true(wn_sim_anchored(&b, &a));
	assert_false(wn_sim_anchored(&a, &c));
	/* A quote of braces only has no anchor. */
	assert_false(wn_sim_anchored(&d, &d));
	assert_false(wn_sim_anchored(&a, NULL));
	wn_sim_quote_free(&a);
	wn_sim_quote_free(&b);
	wn_sim_quote_free(&c);
	wn_sim_quote_free(&d);
}

static char *names(const char *text)
{
	wn_words w;
	wn_buf b = WN_BUF_INIT;

	assert_int_equal(wn_names_of(text, &w), WN_OK);
	for (size_t i = 0; i < w.n; i++)
		wn_buf_printf(&b, "%s%s", i ? " " : "", w.w[i]);
	wn_words_free(&w);
	return b.len ? wn_buf_steal(&b) : strdup("");
}

static void test_names(void **state)
{
	char *s;
	wn_words a, b, c, none;

	(void) state;
	s = names("gz->head is advanced with `WRITE_ONCE()` missing, so gizmo_irq() reads "
		  "a torn head in 2 places; `data` leaks");
	assert_string_equal(s, "data gizmo_irq write_once");
	free(s);
	assert_int_equal(wn_names_of("`copy_to_user` in btrfs_uring_encoded_read()", &a), WN_OK);
	assert_int_equal(wn_names_of("lock leak in `btrfs_uring_read_extent`", &b), WN_OK);
	assert_int_equal(wn_names_of("btrfs_uring_encoded_read() calls copy_to_user", &c), WN_OK);
	assert_int_equal(wn_names_of("Deadlock under the extent lock", &none), WN_OK);
	assert_true(wn_names_conflict(&a, &b, NULL));
	assert_false(wn_names_conflict(&a, &c, NULL));
	/* A summary naming nothing conflicts with none. */
	assert_false(wn_names_conflict(&a, &none, NULL));
	/* The function both sit in does not count as a shared name. */
	assert_int_equal(wn_names_of("btrfs_uring_encoded_read() leaks `data`", &none), WN_OK);
	assert_false(wn_names_conflict(&c, &none, NULL));
	assert_true(wn_names_conflict(&c, &none, "btrfs_uring_encoded_read"));
	wn_words_free(&a);
	wn_words_free(&b);
	wn_words_free(&none);
	/* One name spelt two ways: underscores aside, and a variable named
	 * by its type's last word; a name inside another is not the same. */
	assert_int_equal(wn_names_of("the `devt` of the device", &a), WN_OK);
	assert_int_equal(wn_names_of("a simple `dev_t` check", &b), WN_OK);
	assert_false(wn_names_conflict(&a, &b, NULL));
	wn_words_free(&a);
	wn_words_free(&b);
	assert_int_equal(wn_names_of("leak of the `data` structure", &a), WN_OK);
	assert_int_equal(wn_names_of("leak of btrfs_uring_encoded_data", &b), WN_OK);
	assert_false(wn_names_conflict(&a, &b, NULL));
	wn_words_free(&b);
	assert_int_equal(wn_names_of("uses data_len after free", &b), WN_OK);
	assert_true(wn_names_conflict(&a, &b, NULL));
	wn_words_free(&a);
	wn_words_free(&b);
	assert_int_equal(wn_names_of("`len` is not checked", &a), WN_OK);
	assert_int_equal(wn_names_of("uses hdr_len unchecked", &b), WN_OK);
	assert_true(wn_names_conflict(&a, &b, NULL));
	wn_words_free(&a);
	wn_words_free(&b);
	assert_int_equal(wn_names_of("Use-after-free of `root`", &a), WN_OK);
	assert_int_equal(wn_names_of("`reloc_root_is_dead()` misorders", &b), WN_OK);
	assert_true(wn_names_conflict(&a, &b, NULL));
	wn_words_free(&a);
	wn_words_free(&b);
	wn_words_free(&c);
	wn_words_free(&none);
}

/* wn_sim_judge on two findings with quotes and comments, each on its
 * patch subject. */
static bool judge_on(const wn_finding *a, const char *suba, const wn_finding *b, const char *subb,
		     wn_sim_result *r)
{
	char *la = wn_sim_location(a, suba), *lb = wn_sim_location(b, subb);
	char *pa = wn_sim_patch(suba), *pb = wn_sim_patch(subb);
	wn_words wa, wb, na, nb, ta, tb;
	wn_sim_quote qa, qb;
	bool m;

	assert_int_equal(wn_words_of(a->summary, &wa), WN_OK);
	assert_int_equal(wn_words_of(b->summary, &wb), WN_OK);
	assert_int_equal(wn_names_of(a->summary, &na), WN_OK);
	assert_int_equal(wn_names_of(b->summary, &nb), WN_OK);
	assert_int_equal(wn_sim_quote_of(a->quote, &qa), WN_OK);
	assert_int_equal(wn_sim_quote_of(b->quote, &qb), WN_OK);
	assert_int_equal(wn_words_of(a->comment, &ta), WN_OK);
	assert_int_equal(wn_words_of(b->comment, &tb), WN_OK);
	{
		wn_sim_side sa = { la, &wa, &na, &qa, pa, &ta, wn_problem_kinds(a->summary) },
			    sb = { lb, &wb, &nb, &qb, pb, &tb, wn_problem_kinds(b->summary) };

		m = wn_sim_judge(&sa, &sb, r);
	}
	wn_words_free(&wa);
	wn_words_free(&wb);
	wn_words_free(&na);
	wn_words_free(&nb);
	wn_words_free(&ta);
	wn_words_free(&tb);
	wn_sim_quote_free(&qa);
	wn_sim_quote_free(&qb);
	free(la);
	free(lb);
	free(pa);
	free(pb);
	return m;
}

static bool judge(const wn_finding *a, const wn_finding *b, wn_sim_result *r)
{
	return judge_on(a, "[PATCH v1] gizmo: x", b, "[PATCH v2] gizmo: x", r);
}

/* The patch route: v1 and v3 of one patch, the function renamed by v3,
 * the summary reworded, the comment telling the same story. */
static void test_judge_patch(void **state)
{
	/* Summaries 0.23 alike (copy, len, ring in common), the comments
	 * 0.54; the quoted line is the same. */
	wn_finding a = finding("drivers/misc/gizmo/core.c", "gizmo_flush",
			       "Copying len bytes overruns gz->ring when len exceeds GIZMO_RING_SIZE.");
	wn_finding b = finding("drivers/misc/gizmo/core.c", "gizmo_flush_ring",
			       "The copy runs past the end of the ring for a caller's len.");
	const char *v1 = "[PATCH v1 2/4] gizmo: flush the ring in one go";
	const char *v3 = "Re: [PATCH v3 3/5] gizmo: flush the ring in one go";
	wn_sim_result r;

	(void) state;
	a.quote = (char *) "+\tmemcpy(gz->ring, src, len);";
	b.quote = (char *) " \tspin_lock(&gz->lock);\n+\tmemcpy(gz->ring, src, len);";
	a.comment = (char *) "Nothing bounds len here: a caller passing more than the ring holds "
			     "writes past gz->ring.";
	b.comment = (char *) "Can a caller pass len larger than the ring?  Then memcpy writes "
			     "past gz->ring.";
	assert_true(judge_on(&a, v1, &b, v3, &r));
	assert_int_equal(r.signals & ~WN_SIM_WORDS,
			 WN_SIM_PATCH | WN_SIM_QUOTE | WN_SIM_TEXT);
	assert_string_equal(wn_sim_why(r.signals, "f.c\x1fgizmo_flush"),
			    "same patch, file and quoted line, function renamed or moved; comment alike");
	/* Another patch touching the same code: no route across functions. */
	assert_false(judge_on(&a, v1, &b, "[PATCH] gizmo: add a debugfs file", &r));
	/* Another file of the same patch. */
	b.file = (char *) "drivers/misc/gizmo/ring.c";
	assert_false(judge_on(&a, v1, &b, v3, &r));
	b.file = a.file;
	/* Summaries naming different code (the functions they sit in left
	 * out) are different problems, whatever the comments share. */
	b.summary = (char *) "gizmo_kick() is called before WRITE_ONCE(gz->head).";
	assert_false(judge_on(&a, v1, &b, v3, &r));
	/* No anchor (other code, no name in common): the texts alone must
	 * reach 0.5, and 0.23 + 0.54 does; 0.23 alone does not. */
	b.summary = (char *) "The copy runs past the end of the ring for a caller's len.";
	b.quote = (char *) "+\tgz->head = 0;";
	assert_true(judge_on(&a, v1, &b, v3, &r));
	assert_string_equal(wn_sim_why(r.signals, "f.c\x1fgizmo_flush"),
			    "same patch and file, function renamed or moved; summary and comment alike");
	b.comment = (char *) "The head is reset without the lock held.";
	assert_false(judge_on(&a, v1, &b, v3, &r));
	/* In the same function the function anchors it: 0.23 + 0.15 + the
	 * comments' 0.21, the summaries the greater part. */
	b.function = a.function;
	b.comment = (char *) "A caller passing more bytes than the lock allows.";
	assert_true(judge_on(&a, v1, &b, v3, &r));
	assert_int_equal(r.signals & (WN_SIM_PATCH | WN_SIM_PLACE | WN_SIM_QUOTE),
			 WN_SIM_PATCH | WN_SIM_PLACE);
	assert_string_equal(wn_sim_why(r.signals, "f.c\x1fgizmo_flush"),
			    "same patch and function; summary alike");
}

/* Same code, different problems: what each summary says is
 * wrong decides, whatever lines they quote and however many words
 * they share. */
static void test_judge_kinds(void **state)
{
	wn_finding a = finding("drivers/dma/plume.c", "plume_start",
			       "Concurrent callers race on the shared plume->rx_buf DMA buffer.");
	wn_finding b = finding("drivers/dma/plume.c", "plume_start",
			       "The shared plume->rx_buf DMA buffer is not cacheline aligned.");
	wn_sim_result r;

	(void) state;
	a.quote = b.quote = (char *) "+	dma_map_single(dev, plume->rx_buf, PLUME_LEN, DMA_FROM_DEVICE);";
	a.comment = b.comment = (char *) "plume->rx_buf is mapped for DMA here.";
	assert_int_not_equal(wn_problem_kinds(a.summary), 0);
	assert_true(wn_kinds_conflict(wn_problem_kinds(a.summary), wn_problem_kinds(b.summary)));
	assert_false(judge(&a, &b, &r));
	assert_true(r.patch == 0);
	/* An equality where a bit test was flagged, at one line. */
	a.summary = (char *) "Testing flags with a bitwise & misses the combined PLUME_F_ALL value.";
	b.summary = (char *) "The equality flags == PLUME_F_RX fails when other flags are set.";
	assert_false(judge(&a, &b, &r));
	/* Kinds in common (a race that frees): no conflict, the texts decide. */
	a.summary = (char *) "A race with plume_stop() leads to a use-after-free of plume->rx_buf.";
	b.summary = (char *) "plume_stop() can free plume->rx_buf while plume_start() still uses it "
			     "(use-after-free).";
	assert_false(wn_kinds_conflict(wn_problem_kinds(a.summary), wn_problem_kinds(b.summary)));
	assert_true(judge(&a, &b, &r));
	assert_true(r.patch >= WN_SIM_THRESHOLD);
	/* A summary naming no kind conflicts with none. */
	assert_false(wn_kinds_conflict(0, wn_problem_kinds(a.summary)));
	/* Word starts only: "unbounded" is no "bounds". */
	assert_int_equal(wn_problem_kinds("An unbounded loop."), 0);
}

/* An information leak (what user space must not see reaches it) and a
 * resource leak (what was taken is never given back) are two problems,
 * though both summaries say "leak". */
static void test_kinds_leaks(void **state)
{
	const char *info[] = {
		"Uninitialised padding of struct plume_info leads to a kernel heap information leak.",
		"plume_ioctl() has an infoleak of the reply's reserved bytes.",
		"Uninitialized bytes of the reply buffer are leaked by plume_read().",
		"plume_read() leaks kernel stack contents to user space through the padding.",
		"The stale descriptor is disclosed to userspace after a short read.",
	};
	const char *resource[] = {
		"plume->rx_buf is leaked when dma_map_single() fails.",
		"Missing range checks on len and off in plume_read() allow an arbitrary memory leak.",
		"The reference taken by plume_get() is never freed on the error path.",
		"plume_probe() leaks a reference to the user_struct it looked up.",
	};
	unsigned first = wn_problem_kinds(info[0]);

	(void) state;
	for (size_t i = 0; i < sizeof(info) / sizeof(info[0]); i++) {
		assert_int_not_equal(wn_problem_kinds(info[i]), 0);
		for (size_t k = 0; k < sizeof(resource) / sizeof(resource[0]); k++)
			if (!wn_kinds_conflict(wn_problem_kinds(info[i]), wn_problem_kinds(resource[k])))
				fail_msg("one kind: \"%s\" and \"%s\"", info[i], resource[k]);
		/* Every information leak is one kind with every other. */
		assert_false(wn_kinds_conflict(first, wn_problem_kinds(info[i])));
	}
	/* Every resource leak is one kind with every other, "never freed"
	 * too. */
	for (size_t k = 0; k < sizeof(resource) / sizeof(resource[0]); k++)
		assert_false(wn_kinds_conflict(wn_problem_kinds(resource[0]), wn_problem_kinds(resource[k])));
}

/* A review bot's finding in arch/ is at its file and function (arch/ is
 * generic only for a crash's frames), and meets the finding of the
 * patch's other version there. */
static void test_finding_arch(void **state)
{
	wn_finding a = finding("arch/s390/kvm/pci.c", "kvm_s390_pci_aif_enable",
			       "The result of airq_iv_create() is never checked for NULL.");
	wn_sim_finding sa, sb, sc;
	wn_sim_result r;

	(void) state;
	a.quote = (char *) "+	zdev->aibv = airq_iv_create(msi_vecs, flags, NULL);";
	assert_int_equal(wn_sim_finding_of(WN_BOT_SASHIKO, &a, "[PATCH] KVM: s390: fix aif", &sa), WN_OK);
	assert_string_equal(sa.loc, "arch/s390/kvm/pci.c\x1fkvm_s390_pci_aif_enable");
	assert_int_equal(wn_sim_finding_of(WN_BOT_SASHIKO, &a, "[PATCH v2] KVM: s390: fix aif", &sb), WN_OK);
	assert_true(wn_sim_identical(&sa, &sb));
	assert_true(wn_sim_alike(&sa, &sb, &r));
	/* Word for word needs the same quoted code too. */
	a.quote = (char *) "+	zdev->aibv = airq_iv_create(msi_vecs, 0, NULL);";
	assert_int_equal(wn_sim_finding_of(WN_BOT_SASHIKO, &a, "[PATCH v2] KVM: s390: fix aif", &sc), WN_OK);
	assert_false(wn_sim_identical(&sa, &sc));
	wn_sim_finding_free(&sa);
	wn_sim_finding_free(&sb);
	wn_sim_finding_free(&sc);
}

static void test_judge_quote(void **state)
{
	/* {copy, len, byt, gz, ring, overrun, exceed, gizmo_ring_size} and
	 * {gz, ring, overflow, caller, pass, len, larger}: 3 of 12. */
	wn_finding a = finding("drivers/misc/gizmo/core.c", "gizmo_flush",
			       "Copying len bytes into gz->ring overruns it when len exceeds "
			       "GIZMO_RING_SIZE.");
	wn_finding b = finding("drivers/misc/gizmo/core.c", "gizmo_flush",
			       "gz->ring overflows when the caller passes a len larger than the ring.");
	wn_finding c = finding("drivers/misc/gizmo/core.c", "gizmo_probe", b.summary);
	wn_sim_result r;

	(void) state;
	a.quote = b.quote = c.quote = (char *) " \tspin_lock(&gz->lock);\n+\tmemcpy(gz->ring, src, len);";
	assert_true(judge(&a, &b, &r));
	assert_true(r.words == 0.25);
	assert_true(r.score > 0.5999 && r.score < 0.6001);
	assert_int_equal(r.signals, WN_SIM_PLACE | WN_SIM_QUOTE);
	assert_string_equal(wn_sim_why(r.signals, "f.c\x1fgizmo_flush"),
			    "same quoted line and function; summary reworded");
	/* The same code in another function is another place. */
	assert_false(judge(&a, &c, &r));
	assert_true(r.score == 0);
	/* Without the quote the words alone do not reach. */
	b.quote = NULL;
	assert_false(judge(&a, &b, &r));
	assert_int_equal(r.signals, WN_SIM_PLACE);
}

static void test_generic_places(void **state)
{
	wn_finding a = finding("kernel/locking/lockdep.c", "__lock_acquire",
			       "possible circular locking dependency detected");
	wn_finding b = a;
	char *loc;

	(void) state;
	assert_true(wn_sim_generic_path("kernel/rcu/tree.c"));
	assert_true(wn_sim_generic_path("mm/kasan/report.c"));
	assert_true(wn_sim_generic_path("lib/dump_stack.c"));
	assert_true(wn_sim_generic_path("kernel/workqueue.c"));
	assert_true(wn_sim_generic_path("include/linux/spinlock.h"));
	assert_false(wn_sim_generic_path("include/linux/mlx5/driver.h"));
	assert_false(wn_sim_generic_path("kernel/lockingx.c"));
	assert_false(wn_sim_generic_path("fs/btrfs/verity.c"));
	/* At a generic place a finding sits at its patch's title: the same
	 * text on another patch is not the same finding. */
	loc = wn_sim_location(&a, "[PATCH] plume: x");
	assert_string_equal(loc, "\x1f\x1fplume: x");
	free(loc);
	assert_false(similar(&a, "[PATCH] plume: x", &b, "[PATCH] frob: y", NULL));
	assert_true(similar(&a, "[PATCH v1] plume: x", &b, "[PATCH v2] plume: x", NULL));
}

/* syzbot: one bug is one title.  A Read and a Write in the same frame,
 * and syzbot's "(2)", share place and words but are other bugs; the
 * same title, however folded, is the same bug; a syzbot crash is never
 * a review bot's finding. */
static void test_syzbot_titles(void **state)
{
	const char *read = "KASAN: slab-use-after-free Read in plume_release_folio";

	(void) state;
	assert_true(wn_sim_same_bug(WN_BOT_SYZBOT, read, WN_BOT_SYZBOT, read));
	assert_true(wn_sim_same_bug(WN_BOT_SYZBOT, read, WN_BOT_SYZBOT,
				    " KASAN: slab-use-after-free Read in\n plume_release_folio "));
	assert_false(wn_sim_same_bug(WN_BOT_SYZBOT, read, WN_BOT_SYZBOT,
				     "KASAN: slab-use-after-free Write in plume_release_folio"));
	assert_false(wn_sim_same_bug(WN_BOT_SYZBOT, read, WN_BOT_SYZBOT,
				     "KASAN: slab-use-after-free Read in plume_release_folio (2)"));
	assert_false(wn_sim_same_bug(WN_BOT_SYZBOT, read, WN_BOT_SYZBOT,
				     "KASAN: slab-use-after-free Read in plume_release_foli"));
	assert_false(wn_sim_same_bug(WN_BOT_SYZBOT, read, WN_BOT_SASHIKO, read));
	assert_false(wn_sim_same_bug(WN_BOT_LKP, read, WN_BOT_SYZBOT, read));
	assert_false(wn_sim_same_bug(WN_BOT_SYZBOT, NULL, WN_BOT_SYZBOT, read));
	/* Other bots: the words decide (wn_sim_match). */
	assert_true(wn_sim_same_bug(WN_BOT_SASHIKO, "a lock is missing", WN_BOT_BPF_CI, "the lock"));
}

/* --- diffs ------------------------------------------------------------------------------ */

static const char patch[] =
	"Move the mask write before the unmap.\n"
	"\n"
	"Signed-off-by: A <a@example.org>\n"
	"---\n"
	" drivers/misc/frobnic/core.c | 4 +++-\n"
	"\n"
	"diff --git a/drivers/misc/frobnic/core.c b/drivers/misc/frobnic/core.c\n"
	"--- a/drivers/misc/frobnic/core.c\n"
	"+++ b/drivers/misc/frobnic/core.c\n"
	"@@ -70,9 +72,11 @@ static void frobnic_remove(struct platform_device *pdev)\n"
	" \tstruct frobnic *fd = platform_get_drvdata(pdev);\n"
	"+\twritel(FROBNIC_IRQ_MASK, fd->regs);\n"
	"@@ -90,3 +94,9 @@ static int frobnic_probe(struct platform_device *pdev)\n"
	" }\n"
	"+\n"
	"+static int frobnic_quiesce(struct frobnic *fd)\n"
	"+{\n"
	"+BPF_CALL_2(bpf_frob, u32, a, u32, b)\n"
	"diff --git a/drivers/misc/frobnic/new.c b/drivers/misc/frobnic/new.c\n"
	"--- /dev/null\n"
	"+++ b/drivers/misc/frobnic/new.c\n"
	"@@ -0,0 +1,2 @@\n"
	"+int x;\n";

static void test_diff(void **state)
{
	wn_diff d;
	const wn_hunk *h;

	(void) state;
	assert_int_equal(wn_diff_parse(patch, strlen(patch), &d), WN_OK);
	assert_int_equal(d.n, 3);
	h = wn_diff_find(&d, "drivers/misc/frobnic/core.c", "frobnic_remove");
	assert_non_null(h);
	assert_int_equal(h->new_line, 72);
	assert_int_equal(h->mail_line, 10);
	/* A function defined inside a hunk, and one a macro defines. */
	assert_ptr_equal(wn_diff_find(&d, "drivers/misc/frobnic/core.c", "frobnic_quiesce"), &d.h[1]);
	assert_ptr_equal(wn_diff_find(&d, "drivers/misc/frobnic/core.c", "bpf_frob"), &d.h[1]);
	assert_null(wn_diff_find(&d, "drivers/misc/frobnic/core.c", "frobnic_irq"));
	assert_null(wn_diff_find(&d, "drivers/misc/frobnic/other.c", "frobnic_remove"));
	/* A new file: its name from "+++", no function in the "@@" line. */
	assert_ptr_equal(wn_diff_find(&d, "drivers/misc/frobnic/new.c", NULL), &d.h[2]);
	assert_null(d.h[2].functions);
	wn_diff_clear(&d);
}

/* A macro whose argument is a number names itself: the argument's
 * length once stood in for the macro's start and asked malloc for
 * nearly 2^64 bytes (found by fuzz-similar). */
static void test_diff_macro_number(void **state)
{
	static const char p[] =
		"--- a/x.c\n+++ b/x.c\n@@ -1,2 +1,3 @@ AB_CD(123456789)\n a\n+b\n c\n";
	wn_diff d;

	(void) state;
	assert_int_equal(wn_diff_parse(p, strlen(p), &d), WN_OK);
	assert_int_equal(d.n, 1);
	assert_ptr_equal(wn_diff_find(&d, "x.c", "AB_CD"), &d.h[0]);
	wn_diff_clear(&d);
}

/* A mail read as it is, CRLF and all, gives the same hunks. */
static void test_diff_crlf(void **state)
{
	wn_buf b = WN_BUF_INIT;
	wn_diff d;

	(void) state;
	for (const char *p = patch; *p; p++)
		wn_buf_puts(&b, *p == '\n' ? "\r\n" : (char[]) { *p, 0 });
	assert_int_equal(wn_diff_parse(b.data, b.len, &d), WN_OK);
	assert_int_equal(d.n, 3);
	assert_ptr_equal(wn_diff_find(&d, "drivers/misc/frobnic/core.c", "frobnic_remove"), &d.h[0]);
	assert_ptr_equal(wn_diff_find(&d, "drivers/misc/frobnic/core.c", "frobnic_quiesce"), &d.h[1]);
	assert_ptr_equal(wn_diff_find(&d, "drivers/misc/frobnic/new.c", NULL), &d.h[2]);
	assert_int_equal(d.h[0].mail_line, 10);
	wn_diff_clear(&d);
	wn_buf_free(&b);
}

/* The keys linking keeps of a diff say "maybe" for every place
 * wn_diff_find() finds and, over these few, "no" for every other: a
 * key per place and one per file, each once. */
static void test_diff_keys(void **state)
{
	static const char *const files[] = { "drivers/misc/frobnic/core.c",
					     "drivers/misc/frobnic/new.c",
					     "drivers/misc/frobnic/other.c", NULL };
	static const char *const fns[] = { "frobnic_remove", "frobnic_probe", "frobnic_quiesce",
					   "bpf_frob", "frobnic_irq", "x", NULL };
	wn_diff_keys k, direct, none = { 0 };
	wn_diff d, empty = { 0 };

	(void) state;
	assert_int_equal(wn_diff_parse(patch, strlen(patch), &d), WN_OK);
	assert_int_equal(wn_diff_keys_of(&d, &k), WN_OK);
	/* core.c twice (two hunks), new.c once; four functions. */
	assert_int_equal(k.n, 2 + 4);
	for (const char *const *f = files; *f; f++) {
		assert_int_equal(wn_diff_keys_may_find(&k, *f, NULL), wn_diff_find(&d, *f, NULL) != NULL);
		for (const char *const *fn = fns; *fn; fn++)
			assert_int_equal(wn_diff_keys_may_find(&k, *f, *fn),
					 wn_diff_find(&d, *f, *fn) != NULL);
	}
	assert_false(wn_diff_keys_may_find(&k, NULL, NULL));
	/* Straight from the body, no hunk built: the same keys. */
	assert_int_equal(wn_diff_keys_parse(patch, strlen(patch), &direct), WN_OK);
	assert_int_equal(direct.n, k.n);
	assert_memory_equal(direct.v, k.v, k.n * sizeof(*k.v));
	wn_diff_keys_clear(&direct);
	/* A file's key is no function's: "core.c" + "" is not "core.c". */
	assert_false(wn_diff_keys_may_find(&k, "drivers/misc/frobnic/new.c", ""));
	wn_diff_keys_clear(&k);
	assert_int_equal(k.n, 0);
	/* No hunks, no keys: nothing may be found. */
	assert_int_equal(wn_diff_keys_of(&empty, &k), WN_OK);
	assert_int_equal(k.n, 0);
	assert_false(wn_diff_keys_may_find(&none, "drivers/misc/frobnic/core.c", NULL));
	wn_diff_clear(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_jaccard),
		cmocka_unit_test(test_places),
		cmocka_unit_test(test_match_reworded),
		cmocka_unit_test(test_match_moved_lines),
		cmocka_unit_test(test_match_renamed_version),
		cmocka_unit_test(test_nomatch_same_function),
		cmocka_unit_test(test_nomatch_other_file),
		cmocka_unit_test(test_quote_normalised),
		cmocka_unit_test(test_quote_anchored),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_judge_quote),
		cmocka_unit_test(test_judge_patch),
		cmocka_unit_test(test_generic_places),
		cmocka_unit_test(test_syzbot_titles),
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_diff_crlf),
		cmocka_unit_test(test_diff_macro_number),
		cmocka_unit_test(test_diff_keys),
		cmocka_unit_test(test_judge_kinds),
		cmocka_unit_test(test_kinds_leaks),
		cmocka_unit_test(test_finding_arch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
