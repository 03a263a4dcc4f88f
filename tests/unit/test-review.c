/* winnow — unit tests of what all review parsers share.
 *
 * Bot and severity names, detection across the bots, the repair of
 * mail still quoted-printable encoded, summaries cut to length,
 * fingerprints, and hostile input for every parser.  Each bot's own
 * format is tested in test-bot-NAME.c. */
#include "autoconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review-test.h"
#include "../../src/lib/bots/build.h"
#include "../../src/lib/bots/summary.h"

static void test_bot_names(void **state)
{
	wn_bot b;

	(void) state;
	assert_string_equal(wn_bot_name(WN_BOT_SASHIKO), "sashiko");
	assert_string_equal(wn_bot_name(WN_BOT_BPF_CI), "bpf-ci");
	assert_string_equal(wn_bot_label(WN_BOT_LKP), "0-day");
	assert_int_equal(wn_bot_from_name("netdev-ai", &b), WN_OK);
	assert_int_equal(b, WN_BOT_NETDEV_AI);
	assert_int_equal(wn_bot_from_name("syzbot", &b), WN_OK);
	assert_int_equal(b, WN_BOT_SYZBOT);
	assert_int_equal(wn_bot_from_name("nope", &b), WN_USAGE);
	assert_int_equal(wn_bot_from_name(NULL, &b), WN_USAGE);
	/* What people type (bot:NAME, --bot): the id or the label, any
	 * case, the name given by its length (a query term is not
	 * NUL-terminated); the stored names stay exact. */
	assert_true(wn_bot_named("0-DAY and more", 5, &b));
	assert_int_equal(b, WN_BOT_LKP);
	assert_true(wn_bot_named("Bpf-Ci", 6, &b));
	assert_int_equal(b, WN_BOT_BPF_CI);
	assert_true(wn_bot_named("BPF CI", 6, &b));
	assert_int_equal(b, WN_BOT_BPF_CI);
	assert_false(wn_bot_named("0-da", 4, &b));
	assert_false(wn_bot_named("lkpx", 4, &b));
	assert_false(wn_bot_named(NULL, 0, &b));
	assert_int_equal(wn_bot_from_name("0-day", &b), WN_USAGE);
	/* The list an unknown --bot shows: a label only where it is more
	 * than the name in capitals ("bpf-ci" is "BPF CI"; "lkp" is not
	 * "0-day"). */
	char *names = wn_bot_names_text("", ", ", true);

	assert_non_null(names);
	assert_non_null(strstr(names, "sashiko, bpf-ci, netdev-ai, lkp (0-day), syzbot"));
	free(names);
}

static void test_severity_names(void **state)
{
	(void) state;
	assert_null(wn_severity_name(WN_SEV_NONE));
	assert_string_equal(wn_severity_name(WN_SEV_CRITICAL), "critical");
	assert_string_equal(wn_severity_name(WN_SEV_WARNING), "warning");
	assert_int_equal(wn_severity_parse("High"), WN_SEV_HIGH);
	assert_int_equal(wn_severity_parse("WARNING"), WN_SEV_WARNING);
	assert_int_equal(wn_severity_parse("note"), WN_SEV_NOTE);
	assert_int_equal(wn_severity_parse("Unknown"), WN_SEV_UNKNOWN);
	assert_int_equal(wn_severity_parse("bogus"), WN_SEV_UNKNOWN);
	assert_int_equal(wn_severity_parse(NULL), WN_SEV_UNKNOWN);
	/* The library's callers are not only winnow's: a value past the
	 * table is no grade and no kind, never a read past its end. */
	assert_true(wn_severity_graded(WN_SEV_LOW));
	assert_false(wn_severity_graded(WN_SEV_NOTE));
	assert_false(wn_severity_graded(WN_SEV_COUNT));
	assert_string_equal(wn_kind_name(WN_KIND_FIXUP), "fix-up");
	assert_string_equal(wn_kind_name(WN_KIND_COUNT), "review");
}

static void test_detect_bots(void **state)
{
	wn_bot b = WN_BOT_COUNT;

	(void) state;
	assert_true(detect("sashiko-bot@kernel.org", "Re: [PATCH] x", "Thank you", NULL, &b));
	assert_int_equal(b, WN_BOT_SASHIKO);
	b = WN_BOT_COUNT;
	assert_true(detect("sashiko@kernel.org", "Re: [PATCH] x", "", NULL, &b));
	assert_int_equal(b, WN_BOT_SASHIKO);
	assert_false(detect("sashiko-bot@example.com", "Re: [PATCH] x", "", NULL, &b));

	assert_true(detect("bot+bpf-ci@kernel.org", "Re: [PATCH bpf-next] x", "> diff", NULL, &b));
	assert_int_equal(b, WN_BOT_BPF_CI);

	assert_true(detect("lkp@intel.com", "Re: [PATCH v2 3/5] x: y", "Hi", NULL, &b));
	assert_int_equal(b, WN_BOT_LKP);
	assert_true(detect("lkp@intel.com", "drivers/x.c:12:5: warning: unused", "Hi", NULL, &b));
	assert_int_equal(b, WN_BOT_LKP);
	/* Its branch summaries are its own mails too; the parser calls
	 * them summaries (test-bot-lkp.c). */
	b = WN_BOT_COUNT;
	assert_true(detect("lkp@intel.com", "[linux-next:master] BUILD SUCCESS 1234", "", NULL, &b));
	assert_int_equal(b, WN_BOT_LKP);

	assert_true(detect("syzbot@syzkaller.appspotmail.com", "[syzbot] [mm?] KASAN: x", "", NULL, &b));
	assert_int_equal(b, WN_BOT_SYZBOT);
	b = WN_BOT_COUNT;
	assert_true(detect("syzbot+67969ab6a2551c27f71b@syzkaller.appspotmail.com",
			   "[syzbot] [usb?] WARNING in usb_tx_block", "", NULL, &b));
	assert_int_equal(b, WN_BOT_SYZBOT);
	b = WN_BOT_COUNT;
	assert_true(detect("syzbot+ci5037a828ffe02b14@syzkaller.appspotmail.com",
			   "[syzbot ci] Re: tun/tap: x", "", NULL, &b));
	assert_int_equal(b, WN_BOT_SYZBOT);
	b = WN_BOT_COUNT;
	assert_true(detect("ci@example.org", "[syzbot ci] Re: x", "", NULL, &b));
	assert_int_equal(b, WN_BOT_SYZBOT);
	assert_false(detect("someone@syzkaller.appspotmail.com", "Re: [syzbot] x", "", NULL, &b));
}

static void test_detect_generic_and_humans(void **state)
{
	const char *const senders[] = { "review-bot@example.org", "", NULL };
	wn_bot b = WN_BOT_COUNT;
	wn_mail m;

	(void) state;
	assert_true(detect("review-bot@example.org", "Re: [PATCH] x", "> a\nb\n", senders, &b));
	assert_int_equal(b, WN_BOT_GENERIC);
	assert_true(detect("Review-Bot@Example.org", "Re: [PATCH] x", "", senders, &b));
	assert_false(detect("dev@example.org", "Re: [PATCH] x", "> a\nlooks good\n", senders, &b));
	assert_false(detect("dev@example.org", "[PATCH v2 1/3] mm: x", "From: a\n---\n", NULL, &b));
	/* Nothing set at all. */
	memset(&m, 0, sizeof(m));
	assert_false(wn_bot_detect(&m, NULL, &b));
	assert_false(wn_bot_detect(NULL, senders, &b));
	/* A specific bot wins over the generic list. */
	assert_true(detect("lkp@intel.com", "Re: [PATCH] x", "", (const char *const[]) { "lkp@intel.com", NULL }, &b));
	assert_int_equal(b, WN_BOT_LKP);
}

/* A copy still quoted-printable encoded although its headers say 8bit:
 * soft breaks and =XX escapes are undone before parsing. */
static void test_qp_artefacts(void **state)
{
	/* C code alone: "x +=" at a line end, one "=3D"-looking token. */
	static const char code[] =
		"> diff --git a/a.c b/a.c\n"
		"> @@ -1,2 +1,3 @@ void f(void)\n"
		"> +\tsum +=\n"
		"> +\t\tv[i];\n"
		"\n"
		"Is sum +=\n"
		"v[i] right when v holds 0x3D=3D?\n";
	wn_review *r = corpus_review(WN_BOT_SASHIKO,
				      "sashiko-unit/18-sashiko-qp-artefacts.eml");

	(void) state;
	assert_int_equal(r->declared, 1);
	assert_int_equal(r->nfindings, 1);
	assert_string_equal(F(r, 0)->summary,
			    "The loop bound in count_fn() is off by one, so the last element is read past the end.");
	assert_int_equal(F(r, 0)->line, 20);
	assert_string_equal(r->cover_id, "20260101-count-v2-0-abc@example.org");
	assert_int_equal(r->part, 12);
	assert_contains(F(r, 0)->comment, "i <= n");
	wn_review_free(&r);
	r = parse(WN_BOT_GENERIC, code);
	assert_int_equal(r->nfindings, 1);
	assert_contains(F(r, 0)->comment, "sum +=\nv[i]");
	assert_contains(F(r, 0)->comment, "0x3D=3D");
	wn_review_free(&r);
}

/* The parsers' copy of mail text (wn_rv_dup): NULs become spaces, the
 * text goes on after them, and the copy is terminated. */
static void test_rv_dup_nul(void **state)
{
	static const char text[] = "\0right\0\0when\0";
	struct rv_ctx c = { 0 };
	char *d = wn_rv_dup(&c, text, sizeof(text) - 1);

	(void) state;
	assert_non_null(d);
	assert_memory_equal(d, " right  when ", sizeof(text));
	free(d);
	d = wn_rv_dup(&c, "", 0);
	assert_string_equal(d, "");
	free(d);
	assert_false(c.oom);
}

static void test_long_summary_cut(void **state)
{
	char body[2048];
	wn_review *r;
	size_t n;

	(void) state;
	n = (size_t) snprintf(body, sizeof(body), "> a\n");
	while (n < 1500)
		n += (size_t) snprintf(body + n, sizeof(body) - n, "word%zu ", n);
	n += (size_t) snprintf(body + n, sizeof(body) - n, "\n");
	r = parse_n(WN_BOT_BPF_CI, body, n);
	assert_int_equal(r->nfindings, 1);
	assert_true(strlen(F(r, 0)->summary) <= 203);
	assert_true(strlen(F(r, 0)->summary) > 150);
	assert_string_equal(F(r, 0)->summary + strlen(F(r, 0)->summary) - 3, "...");
	wn_review_free(&r);
}

static void test_fingerprint(void **state)
{
	char a[WN_FP_LEN + 1], b[WN_FP_LEN + 1], c[WN_FP_LEN + 1];
	size_t i;

	(void) state;
	/* Golden values: the hash is stored with verdicts and must never
	 * change (computed independently: FNV-1a 64). */
	wn_fingerprint(WN_BOT_SASHIKO, "fs/example.c", "example_fn", "Invented problem one, one line.", a);
	assert_string_equal(a, "abb4bf3c5497bdb4");
	wn_fingerprint(WN_BOT_LKP, NULL, NULL, NULL, a);
	assert_string_equal(a, "091798cf5fd92b9b");
	wn_fingerprint(WN_BOT_SASHIKO, NULL, NULL, "  Invented   PROBLEM one,\n one line. ", a);
	assert_string_equal(a, "02d7289b664db6fc");

	/* whitespace and case do not matter */
	wn_fingerprint(WN_BOT_BPF_CI, "a.c", "f", "Can this leak the node?", a);
	wn_fingerprint(WN_BOT_BPF_CI, "a.c", "f", "  can\tthis LEAK\r\n the   node? ", b);
	assert_string_equal(a, b);
	for (i = 0; i < WN_FP_LEN; i++)
		assert_true((a[i] >= '0' && a[i] <= '9') || (a[i] >= 'a' && a[i] <= 'f'));
	/* file, function, bot and text do */
	wn_fingerprint(WN_BOT_BPF_CI, "b.c", "f", "Can this leak the node?", c);
	assert_string_not_equal(a, c);
	wn_fingerprint(WN_BOT_BPF_CI, "a.c", "g", "Can this leak the node?", c);
	assert_string_not_equal(a, c);
	wn_fingerprint(WN_BOT_SASHIKO, "a.c", "f", "Can this leak the node?", c);
	assert_string_not_equal(a, c);
	wn_fingerprint(WN_BOT_BPF_CI, "a.c", "f", "Can this leak the nodes?", c);
	assert_string_not_equal(a, c);
	/* the separator keeps fields apart */
	wn_fingerprint(WN_BOT_BPF_CI, "a.cf", NULL, "x", b);
	wn_fingerprint(WN_BOT_BPF_CI, "a.c", "f", "x", c);
	assert_string_not_equal(b, c);
}

/* Re-parsing a reworded (re-wrapped) mail keeps every fingerprint. */
static void test_fingerprint_reparse_stable(void **state)
{
	static const char v1[] =
		"Sashiko AI review found 1 potential issue(s) to consider:\n"
		"- [High] The lock is   dropped before\n"
		"  the refcount is taken.\n"
		"--\n";
	static const char v2[] =
		"Sashiko AI review found 1 potential issue(s) to consider:\n"
		"- [High] the lock is dropped before the refcount is taken.\n"
		"--\n"
		"> diff --git a/a.c b/a.c\n"
		"> +x\n"
		"\n"
		"[Severity: High]\n"
		"The lock is dropped before the refcount is taken: a race.\n";
	wn_review *a = parse(WN_BOT_SASHIKO, v1), *b = parse(WN_BOT_SASHIKO, v2);

	(void) state;
	assert_int_equal(a->nfindings, 1);
	assert_int_equal(b->nfindings, 1);
	/* a summary finding's identity is its text, not where the parser
	 * placed it */
	assert_null(F(a, 0)->file);
	assert_string_equal(F(b, 0)->file, "a.c");
	assert_string_equal(F(a, 0)->fingerprint, F(b, 0)->fingerprint);
	wn_review_free(&a);
	wn_review_free(&b);
}

static void test_pathological(void **state)
{
	static const char only_gt[] = ">";
	wn_review *r;
	wn_error err = WN_ERROR_INIT;
	size_t n, i;
	char *big;
	int bot;

	(void) state;
	for (bot = 0; bot < WN_BOT_COUNT; bot++) {
		r = parse_n((wn_bot) bot, "", 0);
		assert_int_equal(r->nfindings, 0);
		wn_review_free(&r);
		assert_int_equal(wn_review_parse((wn_bot) bot, NULL, 5, &r, &err), WN_OK);
		assert_int_equal(r->nfindings, 0);
		wn_review_free(&r);
		r = parse_n((wn_bot) bot, only_gt, 1);
		wn_review_free(&r);
		r = parse((wn_bot) bot, "\n\n\r\r\n>\n> \n[\n]\n- [\n--\n-- \n```\n@@ -\n> @@ -1 +\n");
		wn_review_free(&r);
	}
	assert_int_equal(wn_review_parse(WN_BOT_COUNT, "x", 1, &r, &err), WN_USAGE);
	assert_null(r);
	assert_int_equal(wn_review_parse(WN_BOT_SASHIKO, "x", 1, NULL, &err), WN_USAGE);
	wn_error_clear(&err);

	/* 1 MB of summary entries, for every parser */
	n = 1 << 20;
	big = malloc(n);
	assert_non_null(big);
	memcpy(big, "Sashiko AI review found 9 potential issue(s) to consider:\n", 58);
	for (i = 58; i + 4 <= n; i += 4)
		memcpy(big + i, "- [\n", 4);
	for (; i < n; i++)
		big[i] = '\n';
	for (bot = 0; bot < WN_BOT_COUNT; bot++) {
		r = parse_n((wn_bot) bot, big, n);
		wn_review_free(&r);
	}
	/* entries and blocks by the hundred thousand: no quadratic match */
	for (i = 58; i + 12 <= n; i += 12)
		memcpy(big + i, i % 24 ? "- [High] a\n" "\n" : "> b\n[High]\nc\n", 12);
	r = parse_n(WN_BOT_SASHIKO, big, n);
	wn_review_free(&r);
	/* ... and a summary of 45000 entries above 43000 inline blocks */
	for (i = 58; i + 11 <= n / 2; i += 11)
		memcpy(big + i, "- [High] a\n", 11);
	memcpy(big + i, "--\n", 3);
	for (i += 3; i + 12 <= n; i += 12)
		memcpy(big + i, "> b\n[High]\nc\n", 12);
	for (; i < n; i++)
		big[i] = '\n';
	r = parse_n(WN_BOT_SASHIKO, big, n);
	assert_true(r->nfindings > 40000);
	assert_non_null(F(r, 0)->comment);
	wn_review_free(&r);
	/* a 0-day report of 8000 diagnostics and 40000 vim listings */
	memcpy(big, "All warnings (new ones prefixed by >>):\n", 40);
	for (i = 40; i + 29 <= n / 4; i += 29) {
		char d[30];

		snprintf(d, sizeof(d), ">> a/b.c:%05zu:1: warning: x\n", i % 100000);
		memcpy(big + i, d, 29);
	}
	for (; i + 18 <= n; i += 18)
		memcpy(big + i, "vim +1 a/b.c\n> 1 x\n", 18);
	for (; i < n; i++)
		big[i] = '\n';
	r = parse_n(WN_BOT_LKP, big, n);
	assert_true(r->nfindings > 8000);
	wn_review_free(&r);
	/* ... and 40000 times the same diagnostic: one finding */
	for (i = 40; i + 25 <= n; i += 25)
		memcpy(big + i, ">> a/b.c:1:1: warning: x\n", 25);
	for (; i < n; i++)
		big[i] = '\n';
	r = parse_n(WN_BOT_LKP, big, n);
	assert_int_equal(r->nfindings, 1);
	assert_non_null(F(r, 0)->detail);
	wn_review_free(&r);
	/* 80000 blocks without a summary, each repeating the first */
	memcpy(big, "> a\nIs this wrong?\n", 19);
	for (i = 19; i + 12 <= n; i += 12)
		memcpy(big + i, "> b\nSame x.\n", 12);
	for (; i < n; i++)
		big[i] = '\n';
	r = parse_n(WN_BOT_BPF_CI, big, n);
	assert_int_equal(r->nfindings, 1);
	assert_true(F(r, 0)->nalso > 70000);
	wn_review_free(&r);
	/* one comment of 65000 problems each told whole: that many findings */
	memcpy(big, "> a\n", 4);
	for (i = 4; i + 16 <= n; i += 16)
		memcpy(big + i, "A b. Should c?\n\n", 16);
	for (; i < n; i++)
		big[i] = '\n';
	r = parse_n(WN_BOT_BPF_CI, big, n);
	assert_true(r->nfindings > 60000);
	wn_review_free(&r);
	/* ... and a problem leading into 260000 paragraphs ending in a
	 * colon: each is read as what follows that unit once, not again */
	memcpy(big, "> a\nIs x wrong? See:\n\n", 23);
	for (i = 23; i + 4 <= n - 3; i += 4)
		memcpy(big + i, "a:\n\n", 4);
	memcpy(big + i, "b.\n", 3);
	for (i += 3; i < n; i++)
		big[i] = '\n';
	r = parse_n(WN_BOT_BPF_CI, big, n);
	assert_int_equal(r->nfindings, 1);
	wn_review_free(&r);
	/* one 1 MB line, no newline at all */
	memset(big, 'x', n);
	for (bot = 0; bot < WN_BOT_COUNT; bot++) {
		r = parse_n((wn_bot) bot, big, n);
		wn_review_free(&r);
	}
	/* binary junk, deterministic */
	srand(1);
	for (i = 0; i < n; i++)
		big[i] = (char) (rand() & 0xff);
	for (bot = 0; bot < WN_BOT_COUNT; bot++) {
		r = parse_n((wn_bot) bot, big, n);
		wn_review_free(&r);
	}
	/* junk made of the bots' own tokens */
	{
		static const char *const tok[] = {
			"> ", ">> ", "diff --git a/x b/y", "@@ -1,2 +3,4 @@ f(", "[Severity: High]",
			"[ ... ]", "--", "-- ", "- [Low] ", "Pre-existing issues:", "x.c:1:2: warning: ",
			"***", "tree: ", "BUG: ", "+0x1/0x2 ", "vim +3 x.c", "\n", "\n", "\r\n", " ",
			"found 3 potential issue(s)", "sashiko.dev/#/patchset/", "?part=", "%4",
		};
		size_t k = 0;

		while (k < n - 64) {
			const char *t = tok[rand() % (int) (sizeof(tok) / sizeof(tok[0]))];
			size_t tl = strlen(t);

			memcpy(big + k, t, tl);
			k += tl;
		}
		for (bot = 0; bot < WN_BOT_COUNT; bot++) {
			r = parse_n((wn_bot) bot, big, k);
			wn_review_free(&r);
		}
	}
	free(big);
	wn_review_free(&r);	/* NULL is fine */
	wn_review_free(NULL);
}

/* A review body of quoted hunks, each followed by one comment. */
static char *review_of(const char *const *comments, size_t n)
{
	static const char head[] = "> diff --git a/x.c b/x.c\n> --- a/x.c\n> +++ b/x.c\n";
	size_t cap = sizeof(head) + 4096, len;
	char *b = malloc(cap);

	assert_non_null(b);
	len = (size_t) snprintf(b, cap, "%s", head);
	for (size_t k = 0; k < n; k++) {
		int w = snprintf(b + len, cap - len, "> @@ -%zu,2 +%zu,3 @@ static int f%zu(void)\n"
				 "> +\tstep%zu();\n\n%s\n\n", k * 10 + 1, k * 10 + 1, k, k, comments[k]);

		assert_true(w > 0 && (size_t) w < cap - len);
		len += (size_t) w;
	}
	return b;
}

/* One finding per problem (BPF CI, netdev AI, Sashiko without summary):
 * context leads up to its problem, repeats add places, marked
 * paragraphs split; elaborations, suggestions and comparisons with the
 * patch stay where they are. */
static void test_one_finding_per_problem(void **state)
{
	static const char *const context[] = {
		"This pushes 8 bytes for the options header.",
		"And this pushes another 40 bytes for the outer header.",
		"Should the MTU check subtract those 8 bytes too?",
	};
	static const char *const repeats[] = {
		"Is buf freed when register() fails? The error path returns early.",
		"The kernel-doc still names the old helper. Should it be renamed?",
		"Same observation as in f0(): buf is not freed when unregister() fails.",
		"The same rename applies here.",
		"Similarly, reset() keeps buf after register() failed and frees nothing.",
	};
	static const char *const several[] = {
		"Can this leak the buffer on every failed setup?\n\n"
		"If register() fails, what happens to buf?\n\n"
		"Would it be simpler to free it in the caller?\n\n"
		"There is also a problem with the return value: register() returns a count.\n\n"
		"Additionally, len is read before it is set. Can it be stale?\n\n"
		"Also, the comment above is nice.",
		"If qsw_setup_irq() fails, probe returns with the ports registered: the same "
		"leak this patch fixes for the loop above.",
	};
	static const char *const quiet[] = {
		"This pushes 8 bytes.", "And this pushes another 40.",
	};
	char *b;
	wn_review *r;

	(void) state;
	b = review_of(context, 3);
	r = parse(WN_BOT_BPF_CI, b);
	assert_int_equal(r->nfindings, 1);
	assert_string_equal(F(r, 0)->summary, "Should the MTU check subtract those 8 bytes too?");
	assert_string_equal(F(r, 0)->function, "f2");
	assert_contains(F(r, 0)->comment, "This pushes 8 bytes for the options header.");
	assert_contains(F(r, 0)->comment, "> +\tstep1();");
	assert_int_equal(F(r, 0)->nalso, 0);
	wn_review_free(&r);
	free(b);

	b = review_of(repeats, 5);
	r = parse(WN_BOT_BPF_CI, b);
	assert_int_equal(r->nfindings, 2);
	assert_string_equal(F(r, 0)->function, "f0");
	assert_int_equal(F(r, 0)->nalso, 2);
	assert_string_equal(F(r, 0)->also[0].function, "f2");
	assert_string_equal(F(r, 0)->also[1].function, "f4");
	assert_int_equal(F(r, 1)->nalso, 1);
	assert_string_equal(F(r, 1)->also[0].function, "f3");
	assert_contains(F(r, 1)->comment, "The same rename applies here.");
	wn_review_free(&r);
	free(b);

	b = review_of(several, 2);
	r = parse(WN_BOT_NETDEV_AI, b);
	assert_int_equal(r->nfindings, 4);
	assert_string_equal(F(r, 0)->summary, "Can this leak the buffer on every failed setup?");
	assert_contains(F(r, 0)->comment, "Would it be simpler");
	assert_null(strstr(F(r, 0)->comment, "There is also"));
	assert_contains(F(r, 1)->summary, "There is also a problem with the return value");
	assert_contains(F(r, 2)->summary, "Additionally, len is read before it is set.");
	assert_contains(F(r, 2)->comment, "Also, the comment above is nice.");
	assert_string_equal(F(r, 1)->function, "f0");
	assert_string_equal(F(r, 3)->function, "f1");
	wn_review_free(&r);
	free(b);

	/* nothing asks or names a problem: each block is one, as sent */
	b = review_of(quiet, 2);
	r = parse(WN_BOT_BPF_CI, b);
	assert_int_equal(r->nfindings, 2);
	wn_review_free(&r);
	/* the generic rule keeps one finding per block */
	r = parse(WN_BOT_GENERIC, b);
	assert_int_equal(r->nfindings, 2);
	wn_review_free(&r);
	free(b);
	b = review_of(context, 3);
	r = parse(WN_BOT_GENERIC, b);
	assert_int_equal(r->nfindings, 3);
	wn_review_free(&r);
	free(b);
}

/* Granularity against a careful reading: a lead-in to the code below
 * it is context though it holds a negation; a block that draws the
 * consequence of the last problem goes on with it; a sentence that
 * plainly opens another problem mid-paragraph splits; "Another caller
 * ..." that raises nothing does not. */
static void test_granularity(void **state)
{
	static const char *const blocks[] = {
		"reset() does not wait for the worker; it only clears the flag:",
		"Can the worker still touch buf here? There is also a missing unlock on "
		"this path. Is lock held when it returns?",
		"As a result, the next reset() deadlocks on lock.",
		"Is update() needed on the error path?\n\n"
		"Another caller, setup(), already calls it.",
		"The old code never did this.",
	};
	char *b = review_of(blocks, 5);
	wn_review *r = parse(WN_BOT_NETDEV_AI, b);

	(void) state;
	assert_int_equal(r->nfindings, 4);
	assert_string_equal(F(r, 0)->summary, "Can the worker still touch buf here?");
	assert_contains(F(r, 0)->comment, "it only clears the flag:");
	assert_null(strstr(F(r, 0)->comment, "missing unlock"));
	assert_string_equal(F(r, 1)->summary, "There is also a missing unlock on this path.");
	assert_contains(F(r, 1)->comment, "As a result, the next reset() deadlocks");
	assert_int_equal(F(r, 1)->nalso, 1);
	assert_string_equal(F(r, 1)->also[0].function, "f2");
	assert_contains(F(r, 2)->comment, "Another caller, setup()");
	assert_string_equal(F(r, 3)->summary, "The old code never did this.");
	wn_review_free(&r);
	free(b);
}

/* wn_rv_phrase() as it was, a byte at a time: the oracle for the
 * memchr() walk it takes now. */
static bool oracle_word(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch >= 0x80;
}

static bool oracle_at(const char *s, size_t n, size_t i, const char *p)
{
	for (; *p; p++) {
		if (*p == ' ') {
			if (i >= n || oracle_word((unsigned char) s[i]))
				return false;
			while (i < n && !oracle_word((unsigned char) s[i]))
				i++;
			continue;
		}
		if (i >= n || tolower((unsigned char) s[i]) != *p)
			return false;
		i++;
	}
	return i >= n || !oracle_word((unsigned char) s[i]);
}

static bool oracle_phrase(const char *s, size_t n, const char *phrase)
{
	for (size_t i = 0; i < n; i++)
		if ((i == 0 || !oracle_word((unsigned char) s[i - 1])) && oracle_at(s, n, i, phrase))
			return true;
	return false;
}

static void test_phrase(void **state)
{
	static const char *const phrases[] = { "still triggering", "free form summary", "rr", "a" };
	static const char alphabet[] = "aAfFrRsStT eilmnoguy-_.\x80";
	unsigned seed = 12345;
	char s[40];

	(void) state;
	assert_true(wn_rv_phrase("Still  Triggering.", 18, "still triggering"));
	assert_false(wn_rv_phrase("xstill triggering", 17, "still triggering"));
	assert_false(wn_rv_phrase("still triggeringly", 18, "still triggering"));
	assert_true(wn_rv_phrase("a FREE-form summary", 19, "free form summary"));
	for (int k = 0; k < 200000; k++) {
		size_t n = (seed = seed * 1103515245u + 12345u) % sizeof(s);

		for (size_t i = 0; i < n; i++)
			s[i] = alphabet[((seed = seed * 1103515245u + 12345u) >> 16) % (sizeof(alphabet) - 1)];
		for (size_t j = 0; j < sizeof(phrases) / sizeof(phrases[0]); j++)
			if (wn_rv_phrase(s, n, phrases[j]) != oracle_phrase(s, n, phrases[j]))
				fail_msg("'%.*s' / '%s'", (int) n, s, phrases[j]);
	}
}

/* wn_rv_phrase_lines() as it was: each line joined by a space to the
 * first 64 bytes of the next, then searched.  The oracle for the words
 * it now rules out first over the whole range. */
static bool oracle_lines(const struct rv_lines *L, size_t from, size_t to, const char *phrase)
{
	char b[512];

	for (size_t i = from; i < to && i < L->n; i++) {
		size_t k = i + 1 < L->n ? L->v[i + 1].n : 0, n = L->v[i].n;

		if (k > 64)
			k = 64;
		memcpy(b, L->v[i].s, n);
		b[n++] = ' ';
		memcpy(b + n, L->v[i + 1 < L->n ? i + 1 : i].s, k);
		if (oracle_phrase(b, n + k, phrase))
			return true;
	}
	return false;
}

static void test_phrase_lines(void **state)
{
	static const char *const phrases[] = { "recitation restrictions", "free form summary",
					       "still triggering", "fixed by commit", "rr" };
	static const char *const bits[] = {
		"recitation",
		"Restrictions",
		"RECITATION",
		"restriction",
		"free",
		"FORM",
		"Summary",
		"summaryx",
		"still",
		"Triggering",
		"fixed",
		"by",
		"commit",
		"rr",
		" ",
		" ",
		"-",
		"\n",
		"\n",
		"\r\n",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	};
	static const char cut[] =
		"x\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa restrictionsy";
	unsigned seed = 4242;
	char s[400];
	struct rv_lines L;

	(void) state;
	/* Wrapped, in another case, and cut at the 64 bytes joined. */
	assert_int_equal(wn_rv_lines_read("a Recitation\r\nRESTRICTIONS.", 27, &L), WN_OK);
	assert_true(wn_rv_phrase_lines(&L, 0, 1, "recitation restrictions"));
	assert_false(wn_rv_phrase_lines(&L, 1, 2, "recitation restrictions"));
	wn_rv_lines_free(&L);
	assert_int_equal(wn_rv_lines_read(cut, sizeof(cut) - 1, &L), WN_OK);
	assert_true(wn_rv_phrase_lines(&L, 0, 1, "restrictions"));
	assert_false(wn_rv_phrase_lines(&L, 1, 2, "restrictions"));
	wn_rv_lines_free(&L);
	for (int k = 0; k < 3000; k++) {
		size_t n = 0, parts = (seed = seed * 1103515245u + 12345u) % 24;

		for (size_t i = 0; i < parts; i++) {
			const char *b = bits[((seed = seed * 1103515245u + 12345u) >> 16) %
					     (sizeof(bits) / sizeof(bits[0]))];

			if (n + strlen(b) < sizeof(s)) {
				memcpy(s + n, b, strlen(b));
				n += strlen(b);
			}
		}
		assert_int_equal(wn_rv_lines_read(s, n, &L), WN_OK);
		for (size_t from = 0; from <= L.n; from++)
			for (size_t to = from; to <= L.n + 1; to++)
				for (size_t j = 0; j < sizeof(phrases) / sizeof(phrases[0]); j++)
					if (wn_rv_phrase_lines(&L, from, to, phrases[j]) !=
					    oracle_lines(&L, from, to, phrases[j]))
						fail_msg("'%.*s' %zu..%zu / '%s'", (int) n, s, from,
							 to, phrases[j]);
		wn_rv_lines_free(&L);
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return x < y ? -1 : x > y;
}

/* The summary's word lists are sorted so: as qsort() would, runs and
 * repeats included, at every length up to its 256 words. */
static void test_sort_u32(void **state)
{
	uint32_t v[256], w[256], t[128];
	unsigned seed = 77;

	(void) state;
	for (int k = 0; k < 4000; k++) {
		size_t n = (size_t) k % 257, spread = k % 3 ? 1u << 31 : 7;

		for (size_t i = 0; i < n; i++)
			v[i] = w[i] = (uint32_t) ((seed = seed * 1103515245u + 12345u) % spread) +
				      (k % 5 ? 0 : (uint32_t) i);
		wn_rv_sort_u32(v, t, n);
		qsort(w, n, sizeof(*w), cmp_u32);
		if (n)
			assert_memory_equal(v, w, n * sizeof(*v));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_phrase),
		cmocka_unit_test(test_phrase_lines),
		cmocka_unit_test(test_sort_u32),
		cmocka_unit_test(test_bot_names),
		cmocka_unit_test(test_severity_names),
		cmocka_unit_test(test_detect_bots),
		cmocka_unit_test(test_detect_generic_and_humans),
		cmocka_unit_test(test_qp_artefacts),
		cmocka_unit_test(test_rv_dup_nul),
		cmocka_unit_test(test_long_summary_cut),
		cmocka_unit_test(test_fingerprint),
		cmocka_unit_test(test_fingerprint_reparse_stable),
		cmocka_unit_test(test_pathological),
		cmocka_unit_test(test_one_finding_per_problem),
		cmocka_unit_test(test_granularity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
