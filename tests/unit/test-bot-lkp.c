/* winnow — unit tests of the kernel test robot (0-day) parser.
 *
 * Compiler, linker, smatch and sparse diagnostics in 0-day replies and
 * tree reports, the vim listings that give their quotes, reports
 * forwarded by a person, and the patch a report is about.  Whole mails
 * are read from tests/corpus/lkp-unit/; single diagnostics are inline. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review-test.h"

/* The compiler's note: lines under a new diagnostic are its notes, with
 * their code; a note under an old diagnostic is nobody's.  The
 * config:, compiler: and reproduce lines are the report's facts. */
static void test_lkp_notes_and_facts(void **state)
{
	static const char body[] =
		"Hi Some,\n"
		"\n"
		"kernel test robot noticed the following build errors:\n"
		"\n"
		"url:    https://github.com/intel-lab-lkp/linux/commits/Some-Author/frob/20260101-101010\n"
		"config: arm64-randconfig-001-20260101 (https://download.example.org/archive/20260101/config)\n"
		"compiler: clang version 21.0.0 (https://github.com/llvm/llvm-project 1234abcd)\n"
		"reproduce:\n"
		"        git clone https://github.com/intel/lkp-tests.git ~/lkp-tests\n"
		"        make W=1 O=build_dir ARCH=arm64 olddefconfig\n"
		"\n"
		"If you fix the issue in a separate patch/commit, kindly add following tags\n"
		"| Reported-by: kernel test robot <lkp@intel.com>\n"
		"| Closes: https://lore.example.org/r/202601010000.ABCD-lkp@intel.com/\n"
		"\n"
		"All errors (new ones prefixed by >>):\n"
		"\n"
		">> drivers/frob/frob.c:40:9: error: incompatible pointer to integer conversion passing 'void *' to parameter of type 'int' [-Wint-conversion]\n"
		"      40 |         frob_set(fr, NULL);\n"
		"         |                      ^~~~\n"
		"   include/linux/stddef.h:8:14: note: expanded from macro 'NULL'\n"
		"       8 | #define NULL ((void *)0)\n"
		"         |              ^~~~~~~~~~~\n"
		"   In file included from drivers/frob/frob.c:3:\n"
		"   include/linux/frob.h:12:24: note: passing argument to parameter 'v' here\n"
		"      12 | void frob_set(struct frob *fr, int v);\n"
		"         |                                    ^\n"
		"   drivers/frob/frob.c:55:3: warning: unused variable 'old' [-Wunused-variable]\n"
		"   drivers/frob/frob.c:50:3: note: previous declaration is here\n"
		">> drivers/frob/frob.c:70:1: error: redefinition of 'frob_stop'\n"
		"\n"
		"-- \n"
		"0-DAY CI Kernel Test Service\n";
	wn_review *r = parse_subject(WN_BOT_LKP, "Re: [PATCH] frob: set it", body);
	const char *const *facts;
	size_t n;
	wn_finding *f;

	(void) state;
	assert_int_equal(r->nfindings, 2);
	f = F(r, 0);
	assert_string_equal(f->notes,
			    "include/linux/stddef.h:8:14: note: expanded from macro 'NULL'\n"
			    "       8 | #define NULL ((void *)0)\n"
			    "         |              ^~~~~~~~~~~\n"
			    "include/linux/frob.h:12:24: note: passing argument to parameter 'v' here\n"
			    "      12 | void frob_set(struct frob *fr, int v);\n"
			    "         |                                    ^");
	/* the diagnostic's own excerpt stays its quote */
	assert_string_equal(f->quote, "      40 |         frob_set(fr, NULL);\n"
			    "         |                      ^~~~");
	/* the note under the old warning is in neither (see F0 above) */
	assert_null(F(r, 1)->notes);
	facts = wn_finding_facts(r, 1, &n);
	assert_int_equal(n, 5);
	assert_string_equal(facts[0], "config: arm64-randconfig-001-20260101 "
			    "(https://download.example.org/archive/20260101/config)");
	assert_string_equal(facts[1], "compiler: clang version 21.0.0 "
			    "(https://github.com/llvm/llvm-project 1234abcd)");
	assert_string_equal(facts[2], "reproduce:");
	assert_string_equal(facts[3], "        git clone https://github.com/intel/lkp-tests.git ~/lkp-tests");
	assert_string_equal(facts[4], "        make W=1 O=build_dir ARCH=arm64 olddefconfig");
	/* the tags stay tags */
	assert_int_equal(r->ntags, 2);
	wn_review_free(&r);
}

static void test_lkp_gcc(void **state)
{
	wn_review *r = corpus_review(WN_BOT_LKP,
				      "lkp-unit/02-lkp-gcc.eml");
	wn_finding *f;

	(void) state;
	assert_int_equal(r->nfindings, 2);
	f = F(r, 0);
	assert_int_equal(f->severity, WN_SEV_WARNING);
	assert_string_equal(f->file, "drivers/bus/mhi/host/trace.h");
	assert_int_equal(f->line, 144);
	assert_string_equal(f->function, "trace_event_raw_event_mhi");
	assert_string_equal(f->summary, "unused variable 'x' [-Wunused-variable]");
	assert_string_equal(f->quote, "     144 |         int x;\n         |             ^");
	f = F(r, 1);
	assert_int_equal(f->severity, WN_SEV_ERROR);
	assert_string_equal(f->file, "drivers/media/i2c/imx283.c");
	assert_int_equal(f->line, 951);
	assert_null(f->function);
	/* the vim listing gives the quote, marked line last */
	assert_contains(f->quote, "u8 trim = IMX283_HTRIMMING_EN;");
	assert_contains(f->quote, "/* comment */");
	assert_false(f->preexisting);
	wn_review_free(&r);
}

static void test_lkp_clang_and_linker(void **state)
{
	static const char body[] =
		"All errors (new ones prefixed by >>):\n"
		"\n"
		">> drivers/staging/media/atomisp/pci/atomisp_v4l2.c:1511:47: error: too many arguments to function call, expected single argument 'notifier', have 2 arguments\n"
		"           err = v4l2_async_nf_register(&isp->v4l2_dev, &isp->notifier);\n"
		"                 ~~~~~~~~~~~~~~~~~~~~~~                 ^~~~~~~~~~~~~~\n"
		"   include/media/v4l2-async.h:281:5: note: 'v4l2_async_nf_register' declared here\n"
		"   1 error generated.\n"
		"--\n"
		"   arm-linux-gnueabi-ld: drivers/phy/rockchip/phy-rockchip-typec.o: in function `udphy':\n"
		">> phy-rockchip-typec.c:(.text.udphy_orien_switch_unregister+0x2): undefined reference to `typec_switch_unregister'\n"
		">> drivers/video/fbdev/core/fbcon.c:2944: undefined reference to `video_is_primary_device'\n"
		">> Warning: drivers/gpu/drm/x.c:123 function parameter 'p' not described in 'f'\n"
		">> ERROR: modpost: \"foo\" [drivers/x.ko] undefined!\n"
		"\n"
		"-- \n"
		"0-DAY CI Kernel Test Service\n";
	wn_review *r = parse(WN_BOT_LKP, body);

	(void) state;
	assert_int_equal(r->nfindings, 5);
	assert_int_equal(F(r, 0)->severity, WN_SEV_ERROR);
	assert_int_equal(F(r, 0)->line, 1511);
	assert_contains(F(r, 0)->quote, "v4l2_async_nf_register(&isp->v4l2_dev");
	assert_null(strstr(F(r, 0)->quote, "generated"));
	assert_null(strstr(F(r, 0)->quote, "note:"));
	assert_string_equal(F(r, 1)->file, "phy-rockchip-typec.c");
	assert_int_equal(F(r, 1)->line, 0);
	assert_int_equal(F(r, 1)->severity, WN_SEV_ERROR);
	assert_string_equal(F(r, 1)->summary, "undefined reference to `typec_switch_unregister'");
	assert_string_equal(F(r, 2)->file, "drivers/video/fbdev/core/fbcon.c");
	assert_int_equal(F(r, 2)->line, 2944);
	assert_int_equal(F(r, 3)->severity, WN_SEV_WARNING);
	assert_string_equal(F(r, 3)->file, "drivers/gpu/drm/x.c");
	assert_int_equal(F(r, 3)->line, 123);
	assert_int_equal(F(r, 4)->severity, WN_SEV_ERROR);
	assert_null(F(r, 4)->file);
	assert_string_equal(F(r, 4)->summary, "modpost: \"foo\" [drivers/x.ko] undefined!");
	wn_review_free(&r);
}

static void test_lkp_smatch_sparse(void **state)
{
	wn_review *r = corpus_review(WN_BOT_LKP,
				      "lkp-unit/03-lkp-smatch-sparse.eml");

	(void) state;
	assert_int_equal(r->nfindings, 4);
	assert_string_equal(F(r, 0)->function, "ext4_ext_insert_extent");
	assert_int_equal(F(r, 0)->severity, WN_SEV_WARNING);
	assert_string_equal(F(r, 0)->summary, "inconsistent indenting");
	assert_false(F(r, 0)->preexisting);
	assert_contains(F(r, 0)->quote, "@2089");
	assert_int_equal(F(r, 1)->severity, WN_SEV_ERROR);
	assert_true(F(r, 1)->preexisting);
	assert_string_equal(F(r, 1)->function, "ext4_ext_map_blocks");
	assert_int_equal(F(r, 2)->severity, WN_SEV_WARNING);
	assert_string_equal(F(r, 2)->file, "drivers/thermal/ns-thermal.c");
	assert_int_equal(F(r, 2)->line, 19);
	assert_contains(F(r, 2)->summary, "incorrect type in initializer");
	assert_contains(F(r, 2)->quote, "got void *devdata");
	/* the same diagnostic twice is one finding */
	assert_string_equal(F(r, 3)->summary, "dereference of noderef expression");
	assert_string_equal(F(r, 3)->detail, "reported 2 times");
	wn_review_free(&r);
}

/* A forwarder's remark under a vim listing joins the comment of the
 * finding the listing quotes; the robot's own lines after a listing
 * (where the line came from, how to fetch the tree) do not. */
static void test_lkp_remark_under_listing(void **state)
{
	static const char body[] =
		"New smatch warnings:\n"
		"drivers/x/x.c:12 x_probe() warn: missing error code 'ret'\n"
		"\n"
		"vim +/ret +12 drivers/x/x.c\n"
		"\n"
		"abcdef0123 Dev Eloper 2026-11-02  11  \tif (!p)\n"
		"abcdef0123 Dev Eloper 2026-11-02 @12  \t\tgoto out;\n"
		"abcdef0123 Dev Eloper 2026-11-02  13  \tret = y();\n"
		"\n"
		":::::: The code at line 12 was first introduced by commit\n"
		":::::: abcdef0123 x: add probe\n"
		"\n"
		"# https://git.example.org/x.git/commit/?id=abcdef0123\n"
		"git remote add x https://git.example.org/x.git\n"
		"\n"
		"ret is zero here, so probe\n"
		"returns success.\n"
		"\n"
		"-- \n"
		"0-DAY CI Kernel Test Service\n";
	wn_review *r = parse(WN_BOT_LKP, body);

	(void) state;
	assert_int_equal(r->nfindings, 1);
	assert_contains(F(r, 0)->quote, "@12");
	assert_contains(F(r, 0)->comment, "ret is zero here, so probe\nreturns success.");
	assert_null(strstr(F(r, 0)->comment, "::::::"));
	assert_null(strstr(F(r, 0)->comment, "git remote"));
	assert_null(strstr(F(r, 0)->comment, "ret = y()"));
	wn_review_free(&r);
}

/* smatch heading of a forwarded report: lines without ">>" count. */
static void test_lkp_unmarked_sparse(void **state)
{
	static const char body[] =
		"sparse warnings:\n"
		"drivers/a.c:1:2: sparse: symbol 'x' was not declared. Should it be static?\n"
		"drivers/a.c:5:2: sparse: warning: cast to restricted __le32\n";
	wn_review *r = parse(WN_BOT_LKP, body);

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_string_equal(F(r, 0)->summary, "symbol 'x' was not declared. Should it be static?");
	assert_string_equal(F(r, 1)->summary, "cast to restricted __le32");
	wn_review_free(&r);
}

static void test_lkp_nothing(void **state)
{
	static const char body[] =
		"Hi,\n\nkernel test robot noticed the following build warnings:\n\nurl: x\n";
	wn_review *r = parse(WN_BOT_LKP, body);

	(void) state;
	assert_int_equal(r->nfindings, 0);
	assert_contains(r->explain, "section");
	wn_review_free(&r);
}

/* A smatch report checked and forwarded by a person: the robot's text
 * unquoted, sent from the person's address.  A reply quoting a report,
 * or a patch that pastes one into its commit message, is not one. */
static void test_detect_lkp_forwarded(void **state)
{
	static const char report[] =
		"tree:   https://git.example.org/linux.git master\n"
		"head:   0123456789abcdef0123456789abcdef01234567\n"
		"commit: 89abcdef0123456789abcdef0123456789abcdef x: do y\n"
		"\n"
		"If you fix the issue in a separate patch/commit (i.e. not just a new version of\n"
		"the same patch/commit), kindly add following tags\n"
		"| Reported-by: kernel test robot <lkp@intel.com>\n"
		"| Reported-by: A Checker <checker@example.org>\n"
		"\n"
		"New smatch warnings:\n"
		"drivers/x.c:12 x_probe() warn: missing error code 'ret'\n";
	static const char quoted[] =
		"On Mon, A Checker wrote:\n"
		"> | Reported-by: kernel test robot <lkp@intel.com>\n"
		"> New smatch warnings:\n"
		"\n"
		"Thanks, fixed in v2.\n";
	static const char patch[] =
		"smatch warnings:\n"
		"drivers/x.c:12 x_probe() warn: missing error code 'ret'\n"
		"\n"
		"Reported-by: kernel test robot <lkp@intel.com>\n"
		"Signed-off-by: A <a@example.org>\n"
		"---\n"
		"diff --git a/drivers/x.c b/drivers/x.c\n";
	wn_bot b = WN_BOT_COUNT;

	(void) state;
	assert_true(detect("checker@example.org", "drivers/x.c:12 x_probe() warn: missing error code 'ret'",
			   report, NULL, &b));
	assert_int_equal(b, WN_BOT_LKP);
	assert_false(detect("dev@example.org", "Re: drivers/x.c:12 x_probe() warn: x", quoted, NULL, &b));
	assert_false(detect("dev@example.org", "x: fix the missing error code", patch, NULL, &b));
	assert_false(detect("dev@example.org", "[PATCH] x: fix it", report, NULL, &b));
}

/* The patch a 0-day report is about, for linking without threading:
 * "patch subject:" in a reply, the commit title of "commit:" in a tree
 * report.  sparse's "@@ expected @@ got @@" stays out of the summary. */
static void test_lkp_report_subject(void **state)
{
	static const char reply[] =
		"Hi A,\n"
		"\n"
		"kernel test robot noticed the following build warnings:\n"
		"\n"
		"patch link:    https://lore.example.org/r/x%40example.org\n"
		"patch subject: [PATCH v2 1/2] x: do y\n"
		"config: x86_64-allyesconfig\n"
		"\n"
		"sparse warnings: (new ones prefixed by >>)\n"
		">> drivers/x.c:57:24: sparse: sparse: incorrect type in assignment (different base types) @@     expected restricted __le32 [usertype] len @@     got unsigned int @@\n"
		"   drivers/x.c:57:24: sparse:     expected restricted __le32 [usertype] len\n";
	static const char tree[] =
		"tree:   https://git.example.org/linux.git master\n"
		"head:   0123456789abcdef0123456789abcdef01234567\n"
		"commit: 89abcdef0123456789abcdef0123456789abcdef x: do y in z\n"
		"date:   3 days ago\n"
		"\n"
		"All warnings (new ones prefixed by >>):\n"
		"\n"
		">> drivers/x.c:5:6: warning: no previous prototype for 'x_init' [-Wmissing-prototypes]\n";
	wn_review *r = parse(WN_BOT_LKP, reply);

	(void) state;
	assert_string_equal(r->patch_subject, "[PATCH v2 1/2] x: do y");
	assert_int_equal(r->nfindings, 1);
	assert_string_equal(F(r, 0)->summary, "incorrect type in assignment (different base types)");
	assert_contains(F(r, 0)->comment, "@@ expected restricted __le32");
	wn_review_free(&r);
	r = parse(WN_BOT_LKP, tree);
	assert_string_equal(r->patch_subject, "x: do y in z");
	assert_int_equal(r->nfindings, 1);
	assert_null(r->patch_id);
	wn_review_free(&r);
}

/* The robot names the patch: "patch link:" carries its Message-ID, the
 * "url:" branch the time the robot took it (UTC+8), and a tree report's
 * commit its place in the branch before the title. */
static void test_lkp_names_the_patch(void **state)
{
	static const char reply[] =
		"url:    https://ci.example.org/lkp/linux/commits/A-B/x-do-y/20261005-161502\n"
		"patch link:    https://lore.example.org/r/20261005070000.5521-1-a.b%40example.org\n"
		"patch subject: [PATCH] x: do y\n";
	static const char old[] =
		"url:    https://ci.example.org/0day-ci/linux/commits/A-B/x-do-y/20190305-011522/\n";
	static const char tree[] =
		"commit: 0f0606ababb185afe1461ebd9abb95d797a5b952 [22/28] x: do y in z\n";
	static const char bad[] =
		"url:    https://ci.example.org/lkp/linux/commits/A-B/x-do-y/20261345-161502\n"
		"patch link:    https://lore.example.org/r/not-an-id\n";
	wn_review *r = parse(WN_BOT_LKP, reply);

	(void) state;
	assert_string_equal(r->patch_id, "20261005070000.5521-1-a.b@example.org");
	/* 2026-10-05 16:15:02 +0800 */
	assert_int_equal(r->posted_before, 1791188102);
	wn_review_free(&r);
	r = parse(WN_BOT_LKP, old);
	assert_null(r->patch_id);
	assert_int_equal(r->posted_before, 1551719722);
	wn_review_free(&r);
	r = parse(WN_BOT_LKP, tree);
	assert_string_equal(r->patch_subject, "x: do y in z");
	wn_review_free(&r);
	r = parse(WN_BOT_LKP, bad);
	assert_null(r->patch_id);
	assert_int_equal(r->posted_before, 0);
	wn_review_free(&r);
}

/* Every heading the robot has used opens a section of diagnostics;
 * the greeting and prose do not. */
static void test_lkp_heading_forms(void **state)
{
	static const char *const headings[] = {
		"All errors (new ones prefixed by >>):",
		"All warnings (new ones prefixed by >>):",
		"All error/warnings (new ones prefixed by >>):",
		"All error/warnings (new ones prefixed by >>, old ones prefixed by <<):",
		"All errors",
		"All error/warnings:",
		"sparse warnings: (new ones prefixed by >>)",
		"smatch warnings:",
		"New smatch warnings:",
		"cocci warnings: (new ones prefixed by >>)",
		"clang-analyzer warnings: (new ones prefixed by >>)",
		"echo \"sparse warnings: (new ones prefixed by >>)\"",
	};
	static const char *const not_headings[] = {
		"kernel test robot noticed the following build warnings:",
		"Kconfig warnings: (for reference only)",
		"drivers/x.c:12:5: warning: unused variable 'y' [-Wunused-variable]:",
		"Some warnings",
	};
	char body[512];
	wn_review *r;

	(void) state;
	for (size_t k = 0; k < sizeof(headings) / sizeof(headings[0]); k++) {
		snprintf(body, sizeof(body), "Hi,\n\n%s\n\n>> drivers/x.c:12:5: error: 'y' undeclared\n"
			 ">> drivers/x.c:14:6-9: WARNING: check of y after use\n", headings[k]);
		r = parse(WN_BOT_LKP, body);
		if (r->nfindings != 2)
			fail_msg("\"%s\" gave %zu findings", headings[k], r->nfindings);
		assert_int_equal(F(r, 1)->line, 14);
		assert_string_equal(F(r, 1)->summary, "check of y after use");
		wn_review_free(&r);
	}
	for (size_t k = 0; k < sizeof(not_headings) / sizeof(not_headings[0]); k++) {
		snprintf(body, sizeof(body), "Hi,\n\n%s\n\n>> drivers/x.c:12:5: error: 'y' undeclared\n",
			 not_headings[k]);
		r = parse(WN_BOT_LKP, body);
		if (r->nfindings != 0)
			fail_msg("\"%s\" opened a section", not_headings[k]);
		wn_review_free(&r);
	}
}

/* The same diagnostic printed again (another include chain, another
 * config) is one finding, which says how often it came; its fingerprint
 * is the one the first printing always had. */
static void test_lkp_repeats(void **state)
{
	static const char body[] =
		"All warnings (new ones prefixed by >>):\n"
		"\n"
		"   In file included from drivers/x.c:3:\n"
		">> drivers/x.c:12:5: warning: unused variable 'y' [-Wunused-variable]\n"
		"      12 |     int y;\n"
		"   In file included from drivers/x.c:4:\n"
		">> drivers/x.c:12:5: warning: unused variable 'y' [-Wunused-variable]\n"
		"      12 |     int y; /* second excerpt */\n"
		">> drivers/x.c:13:5: warning: unused variable 'z' [-Wunused-variable]\n"
		">> drivers/x.c:12:5: warning: unused variable 'y' [-Wunused-variable]\n";
	char fp[WN_FP_LEN + 1];
	wn_review *r = parse(WN_BOT_LKP, body);

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_string_equal(F(r, 0)->detail, "reported 3 times");
	assert_null(strstr(F(r, 0)->quote, "second excerpt"));
	assert_null(F(r, 1)->detail);
	wn_fingerprint(WN_BOT_LKP, "drivers/x.c", NULL, "unused variable 'y' [-Wunused-variable]", fp);
	assert_string_equal(F(r, 0)->fingerprint, fp);
	wn_review_free(&r);
}

/* A diagnostic reported through a header moves, once the patch's files
 * are known, to the first place in them the mail names -- the macro's
 * use, the "In function" file, the #include that brought the header
 * in -- with the function from the "In function" line; where it was
 * reported stays as detail, and its fingerprint stays the mail's. */
static void test_lkp_macro_site(void **state)
{
	static const char body[] =
		"All errors (new ones prefixed by >>):\n"
		"\n"
		"   In file included from drivers/x/x.h:5,\n"
		"                    from drivers/x/x.c:12:\n"
		">> include/linux/regs.h:40:1: error: unknown type name 'gear_t'\n"
		"   In file included from include/linux/bitops.h:6,\n"
		"                    from drivers/x/x.c:9:\n"
		"   drivers/x/x.c: In function 'x_shift':\n"
		">> include/vdso/bits.h:7:33: warning: left shift count >= width of type\n"
		"   drivers/x/x.c:58:16: note: in expansion of macro 'BIT'\n"
		"   drivers/x/x.c: In function 'x_dump':\n"
		">> <command-line>: warning: format '%lu' expects 'long unsigned int'\n"
		"   include/linux/printk.h:590:9: note: in expansion of macro 'dynamic_pr_debug'\n"
		"   drivers/x/x.c:67:17: note: in expansion of macro 'pr_debug'\n"
		"   drivers/x/x.c: In function 'x_other':\n"
		">> include/linux/other.h:3:1: warning: not about the patch\n";
	static const char *const files[] = { "drivers/x/x.c", "drivers/x/x.h", NULL };
	wn_review_input in = { .patch_files = files };
	wn_review *before = parse(WN_BOT_LKP, body), *r = parse_in(WN_BOT_LKP, body, &in);
	char fp[WN_FP_LEN + 1];

	(void) state;
	assert_true(before->wants_patch_files);
	assert_int_equal(before->nfindings, 4);
	assert_string_equal(F(before, 1)->file, "include/vdso/bits.h");
	assert_null(F(before, 1)->detail);
	assert_string_equal(F(before, 2)->file, "<command-line>");
	assert_int_equal(r->nfindings, 4);
	/* the #include line of the patch's own header */
	assert_string_equal(F(r, 0)->file, "drivers/x/x.h");
	assert_int_equal(F(r, 0)->line, 5);
	assert_string_equal(F(r, 0)->detail, "reported at include/linux/regs.h:40");
	/* the macro's use, in the function being compiled */
	assert_string_equal(F(r, 1)->file, "drivers/x/x.c");
	assert_int_equal(F(r, 1)->line, 58);
	assert_string_equal(F(r, 1)->function, "x_shift");
	assert_string_equal(F(r, 1)->detail, "reported at include/vdso/bits.h:7");
	assert_string_equal(F(r, 2)->file, "drivers/x/x.c");
	assert_int_equal(F(r, 2)->line, 67);
	assert_string_equal(F(r, 2)->function, "x_dump");
	assert_string_equal(F(r, 2)->detail, "reported at <command-line>");
	/* no expansion below it: the function's file, without a line */
	assert_string_equal(F(r, 3)->file, "drivers/x/x.c");
	assert_int_equal(F(r, 3)->line, 0);
	assert_string_equal(F(r, 3)->function, "x_other");
	for (size_t i = 0; i < r->nfindings; i++)
		assert_string_equal(F(r, i)->fingerprint, F(before, i)->fingerprint);
	wn_fingerprint(WN_BOT_LKP, "include/vdso/bits.h", NULL,
		       "left shift count >= width of type", fp);
	assert_string_equal(F(r, 1)->fingerprint, fp);
	wn_review_free(&before);
	wn_review_free(&r);
}

/* Paths as written, and normalised for grouping: "./", "x/../", "//",
 * a base name completed from the patch's files when one matches. */
static void test_lkp_paths(void **state)
{
	static const char body[] =
		"All errors (new ones prefixed by >>):\n"
		"\n"
		">> ./include/linux/w.h:42:1: error: a\n"
		">> fs/w/../w/wfs_buf.c:123:20: error: b\n"
		">> drivers//w/x.c:3:1: error: c\n"
		">> wfs_buf.c:(.text+0x1a2): undefined reference to `d'\n"
		">> dup.c:1:1: error: e\n"
		">> ../outside.c:1:1: error: f\n";
	static const char *const files[] = {
		"fs/w/wfs_buf.c", "include/linux/w.h", "a/dup.c", "b/dup.c", NULL,
	};
	wn_review_input in = { .patch_files = files };
	wn_review *r = parse_in(WN_BOT_LKP, body, &in), *plain = parse(WN_BOT_LKP, body);

	(void) state;
	assert_int_equal(r->nfindings, 6);
	assert_string_equal(F(r, 0)->file, "./include/linux/w.h");
	assert_string_equal(F(r, 0)->path, "include/linux/w.h");
	assert_string_equal(F(r, 1)->path, "fs/w/wfs_buf.c");
	assert_string_equal(F(r, 2)->path, "drivers/w/x.c");
	assert_string_equal(F(r, 3)->file, "wfs_buf.c");
	assert_string_equal(F(r, 3)->path, "fs/w/wfs_buf.c");
	assert_string_equal(F(r, 4)->path, "dup.c");	/* two candidates: left alone */
	assert_string_equal(F(r, 5)->path, "../outside.c");
	assert_true(plain->wants_patch_files);
	assert_string_equal(F(plain, 3)->path, "wfs_buf.c");
	for (size_t i = 0; i < r->nfindings; i++)
		assert_string_equal(F(r, i)->fingerprint, F(plain, i)->fingerprint);
	wn_review_free(&r);
	wn_review_free(&plain);
}

/* Its branch summaries and its own patches are the robot's mails but no
 * reviews: their kind keeps them out of the queue, whatever the body
 * holds (a BUILD REGRESSION lists diagnostics too; here a body that
 * would be one finding in a report). */
/* The tags the robot asks for, verbatim without the "| "; the older
 * plain form and a person's forward that adds its own Reported-by. */
static void test_lkp_tags(void **state)
{
	static const char old[] =
		"If you fix the issue, kindly add following tag where applicable\n"
		"Reported-by: kernel test robot <lkp@intel.com>\n"
		"Reported-by: Dana Checker <dana.checker@example.org>\n"
		"\n"
		"smatch warnings:\n"
		"drivers/x.c:12 f() warn: inconsistent returns 'lock'.\n";
	wn_review *r = corpus_review(WN_BOT_LKP, "lkp-unit/02-lkp-gcc.eml");

	(void) state;
	assert_int_equal(r->ntags, 2);
	assert_string_equal(r->tags[0], "Reported-by: kernel test robot <lkp@intel.com>");
	assert_string_equal(r->tags[1], "Closes: https://lore.kernel.org/oe-kbuild-all/202311111237.zTm5NBLH-lkp@intel.com/");
	wn_review_free(&r);
	r = parse(WN_BOT_LKP, old);
	assert_int_equal(r->ntags, 2);
	assert_string_equal(r->tags[0], "Reported-by: kernel test robot <lkp@intel.com>");
	assert_string_equal(r->tags[1], "Reported-by: Dana Checker <dana.checker@example.org>");
	wn_review_free(&r);
}

static void test_lkp_kinds(void **state)
{
	static const char regression[] =
		"tree/branch: https://git.example.org/x.git for-next\n"
		"\n"
		"Error/Warning (recently discovered and may have been fixed):\n"
		"\n"
		"    drivers/x.c:12:5: error: 'y' undeclared\n"
		"\n"
		"All errors (new ones prefixed by >>):\n"
		"\n"
		">> drivers/x.c:12:5: error: 'y' undeclared\n";
	static const struct {
		const char *subject;
		wn_kind kind;
	} cases[] = {
		{ "[x:for-next] BUILD SUCCESS 0123abcd", WN_KIND_SUMMARY },
		{ "[x:for-next] BUILD SUCCESS WITH WARNING 0123abcd", WN_KIND_SUMMARY },
		{ "[x:testing] BUILD REGRESSION 0123abcd", WN_KIND_SUMMARY },
		{ "[x:master] BUILD INCOMPLETE 0123abcd", WN_KIND_SUMMARY },
		{ "[RFC PATCH] x: foo() can be static", WN_KIND_FIXUP },
		{ "[PATCH] x: fix boolreturn.cocci warnings", WN_KIND_FIXUP },
		{ "Re: [PATCH] x: y", WN_KIND_REVIEW },
		{ "[x:for-next 2/3] drivers/x.c:12:5: error: 'y' undeclared", WN_KIND_REVIEW },
	};

	(void) state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		wn_review *r = parse_subject(WN_BOT_LKP, cases[k].subject, regression);

		assert_int_equal(r->kind, cases[k].kind);
		if (r->kind == WN_KIND_REVIEW)
			assert_int_equal(r->nfindings, 1);
		else
			assert_int_equal(r->nfindings, 0);
		wn_review_free(&r);
	}
}

/* A team member sends a report from their own intel.com address under
 * the robot's display name. */
static void test_detect_lkp_personal_address(void **state)
{
	wn_bot b = WN_BOT_COUNT;

	(void) state;
	assert_true(detect_named("kernel test robot", "someone@intel.com", "Re: [PATCH] x", &b));
	assert_int_equal(b, WN_BOT_LKP);
	b = WN_BOT_COUNT;
	assert_true(detect_named("Kbuild Test Robot", "someone@linux.intel.com", "Re: [PATCH] x", &b));
	assert_int_equal(b, WN_BOT_LKP);
	/* the name alone is not enough, nor the domain alone */
	assert_false(detect_named("kernel test robot", "someone@example.org", "Re: [PATCH] x", &b));
	assert_false(detect_named("Some One", "someone@intel.com", "Re: [PATCH] x", &b));
	assert_false(detect_named("kernel test robot fan", "someone@intel.com", "Re: [PATCH] x", &b));
}

/* Every new (">>") line is a finding, whatever tool printed it: the
 * cross linker under its own name, ld.lld, kismet, make, depmod, rustc
 * (its place on the "-->" line below), includecheck, versioncheck and the
 * devicetree checks.  Severity is the line's word, else the tool's
 * (a linker or make failure is an error), else the section's. */
static void test_lkp_other_tools(void **state)
{
	static const char body[] =
		"All errors (new ones prefixed by >>):\n"
		"\n"
		"   sparc-linux-ld: drivers/sprocket/gear.o: in function `gear_send':\n"
		">> gear.c:(.text+0x44): undefined reference to `__icmp_send'\n"
		">> sparc-linux-ld: gear.c:(.text+0x9c): undefined reference to `gear_hash'\n"
		">> s390x-linux-gnu-ld: drivers/sprocket/gear.c:51: undefined reference to `gear_seed'\n"
		">> ld.lld: error: undefined symbol: gear_rotate\n"
		"   >>> referenced by gear.c:60 (drivers/sprocket/gear.c:60)\n"
		"   >>>               drivers/sprocket/gear.o:(gear_probe) in archive vmlinux.a\n"
		">> make[6]: *** No rule to make target 'drivers/sprocket/cog.o', needed by 'drivers/sprocket/built-in.a'.\n"
		"   make[6]: Target 'drivers/sprocket/' not remade because of errors.\n"
		">> depmod: ERROR: Cycle detected: sprocket -> chain -> sprocket\n"
		">> error[E0425]: cannot find value `teeth` in this scope\n"
		"   --> rust/kernel/sprocket.rs:42:9\n"
		"   |\n"
		"   42 |         teeth\n"
		"   |         ^^^^^ not found in this scope\n"
		"\n"
		"kismet warnings: (new ones prefixed by >>)\n"
		">> kismet: WARNING: unmet direct dependencies detected for CHAIN when selected by GEAR\n"
		"   WARNING: unmet direct dependencies detected for CHAIN\n"
		"\n"
		"includecheck warnings: (new ones prefixed by >>)\n"
		">> drivers/sprocket/gear.c: linux/slab.h is included more than once.\n"
		"\n"
		"versioncheck warnings: (new ones prefixed by >>)\n"
		">> drivers/sprocket/gear.c: 12 linux/version.h not needed.\n"
		"\n"
		"dtcheck warnings: (new ones prefixed by >>)\n"
		">> Documentation/devicetree/bindings/sprocket/gear.yaml: teeth-count: missing type definition\n"
		"\n"
		"-- \n"
		"0-DAY CI Kernel Test Service\n";
	wn_review *r = parse(WN_BOT_LKP, body);
	wn_finding *f;

	(void) state;
	assert_int_equal(r->nfindings, 11);
	assert_null(r->explain);
	for (size_t k = 0; k < 7; k++)
		assert_int_equal(F(r, k)->severity, WN_SEV_ERROR);
	f = F(r, 0);
	assert_string_equal(f->summary, "undefined reference to `__icmp_send'");
	assert_string_equal(f->file, "gear.c");
	assert_string_equal(f->function, "gear_send");
	f = F(r, 1);
	assert_string_equal(f->summary, "undefined reference to `gear_hash'");
	assert_string_equal(f->file, "gear.c");
	assert_string_equal(f->function, "gear_send");
	assert_contains(f->comment, "sparc-linux-ld: gear.c:(.text+0x9c)");
	f = F(r, 2);
	assert_string_equal(f->file, "drivers/sprocket/gear.c");
	assert_int_equal(f->line, 51);
	assert_string_equal(f->function, "gear_send");
	assert_string_equal(f->summary, "undefined reference to `gear_seed'");
	f = F(r, 3);
	assert_string_equal(f->summary, "undefined symbol: gear_rotate");
	assert_string_equal(f->file, "drivers/sprocket/gear.c");
	assert_int_equal(f->line, 60);
	assert_string_equal(f->function, "gear_probe");
	assert_contains(f->quote, ">>> referenced by gear.c:60");
	f = F(r, 4);
	assert_null(f->file);
	assert_string_equal(f->summary, "No rule to make target 'drivers/sprocket/cog.o', needed by "
			    "'drivers/sprocket/built-in.a'.");
	f = F(r, 5);
	assert_null(f->file);
	assert_string_equal(f->summary, "Cycle detected: sprocket -> chain -> sprocket");
	f = F(r, 6);
	assert_string_equal(f->summary, "cannot find value `teeth` in this scope");
	assert_string_equal(f->file, "rust/kernel/sprocket.rs");
	assert_int_equal(f->line, 42);
	assert_contains(f->quote, "^^^^^ not found in this scope");
	f = F(r, 7);
	assert_int_equal(f->severity, WN_SEV_WARNING);
	assert_null(f->file);
	assert_string_equal(f->summary,
			    "unmet direct dependencies detected for CHAIN when selected by GEAR");
	f = F(r, 8);
	assert_int_equal(f->severity, WN_SEV_WARNING);
	assert_string_equal(f->file, "drivers/sprocket/gear.c");
	assert_int_equal(f->line, 0);
	assert_string_equal(f->summary, "linux/slab.h is included more than once.");
	f = F(r, 9);
	assert_string_equal(f->file, "drivers/sprocket/gear.c");
	assert_int_equal(f->line, 12);
	assert_string_equal(f->summary, "linux/version.h not needed.");
	f = F(r, 10);
	assert_int_equal(f->severity, WN_SEV_WARNING);
	assert_string_equal(f->file, "Documentation/devicetree/bindings/sprocket/gear.yaml");
	assert_string_equal(f->summary, "teeth-count: missing type definition");
	wn_review_free(&r);
}

/* 2020 reports quoted their checker headings as the shell echoed them
 * without the echo: "\"sparse warnings: (new ones prefixed by >>)\"". */
static void test_lkp_quoted_heading(void **state)
{
	static const char body[] =
		"Thank you for the patch! Perhaps something to improve:\n"
		"\n"
		"[auto build test WARNING on sprocket/for-next]\n"
		"\n"
		"\"sparse warnings: (new ones prefixed by >>)\"\n"
		"\n"
		">> drivers/sprocket/gear.c:30:17: sparse: sparse: incorrect type in assignment (different base types) @@    expected restricted __le16 [usertype] teeth @@    got int @@\n"
		"   drivers/sprocket/gear.c:30:17: sparse:    expected restricted __le16 [usertype] teeth\n"
		"   drivers/sprocket/gear.c:30:17: sparse:    got int\n"
		"   drivers/sprocket/gear.c:77:9: sparse: sparse: context imbalance in 'gear_lock' - wrong count at exit\n"
		"\n"
		"-- \n"
		"0-DAY CI Kernel Test Service\n";
	wn_review *r = parse(WN_BOT_LKP, body);

	(void) state;
	assert_int_equal(r->nfindings, 1);
	assert_int_equal(F(r, 0)->severity, WN_SEV_WARNING);
	assert_int_equal(F(r, 0)->line, 30);
	assert_string_equal(F(r, 0)->summary, "incorrect type in assignment (different base types)");
	wn_review_free(&r);
}

/* A linker's section offsets and addresses change with every build:
 * the same undefined reference keeps its fingerprint, its quote keeps
 * the offset. */
static void test_lkp_stable_fingerprint(void **state)
{
	static const char *const lines[][2] = {
		{ ">> gear.c:(.text+0x44): undefined reference to `gear_hash'",
		  ">> gear.c:(.text+0x1f0): undefined reference to `gear_hash'" },
		{ ">> drivers/sprocket/gear.c:51:(.text+0x44): undefined reference to `gear_hash'",
		  ">> drivers/sprocket/gear.c:51:(.text.gear_probe+0x1f0): undefined reference to `gear_hash'" },
		{ ">> vmlinux.o: warning: objtool: gear_irq()+0x4e: call to gear_wait() leaves .noinstr.text section",
		  ">> vmlinux.o: warning: objtool: gear_irq()+0x1a2: call to gear_wait() leaves .noinstr.text section" },
		{ ">> WARNING: modpost: vmlinux.o(.text+0x2d1c): Section mismatch in reference from the function gear_probe() to the function .init.text:cog_setup()",
		  ">> WARNING: modpost: vmlinux.o(.text+0x9a0): Section mismatch in reference from the function gear_probe() to the function .init.text:cog_setup()" },
		{ ">> ld.lld: error: undefined symbol: gear_rotate at 0xffffffff81a2b3c4",
		  ">> ld.lld: error: undefined symbol: gear_rotate at 0xffffffff8100a0b0" },
		{ ">> ld: warning: /tmp/kbuild-3f2a/drivers/sprocket/gear.o: missing .note.GNU-stack section implies executable stack",
		  ">> ld: warning: /tmp/kbuild-77c1/drivers/sprocket/gear.o: missing .note.GNU-stack section implies executable stack" },
	};
	char body[512];
	char fp[WN_FP_LEN + 1];
	wn_review *r;

	(void) state;
	for (size_t k = 0; k < sizeof(lines) / sizeof(lines[0]); k++) {
		for (size_t v = 0; v < 2; v++) {
			snprintf(body, sizeof(body), "All errors (new ones prefixed by >>):\n\n%s\n",
				 lines[k][v]);
			r = parse(WN_BOT_LKP, body);
			assert_int_equal(r->nfindings, 1);
			if (!v)
				memcpy(fp, F(r, 0)->fingerprint, sizeof(fp));
			else if (strcmp(fp, F(r, 0)->fingerprint) != 0)
				fail_msg("\"%s\" and its twin differ in fingerprint", lines[k][0]);
			assert_contains(F(r, 0)->comment, strchr(lines[k][v], ' ') + 1);
			wn_review_free(&r);
		}
	}
	/* a compiler's constant is part of its problem */
	for (size_t v = 0; v < 2; v++) {
		snprintf(body, sizeof(body), "All warnings (new ones prefixed by >>):\n\n"
			 ">> drivers/x.c:12:9: warning: conversion changes value from '0x%d00000000' "
			 "to '0'\n", (int) v + 1);
		r = parse(WN_BOT_LKP, body);
		assert_int_equal(r->nfindings, 1);
		if (!v)
			memcpy(fp, F(r, 0)->fingerprint, sizeof(fp));
		else
			assert_string_not_equal(fp, F(r, 0)->fingerprint);
		wn_review_free(&r);
	}
	/* another symbol is another problem */
	r = parse(WN_BOT_LKP, "All errors (new ones prefixed by >>):\n\n"
		  ">> gear.c:(.text+0x44): undefined reference to `gear_seed'\n");
	assert_int_equal(r->nfindings, 1);
	assert_string_not_equal(fp, F(r, 0)->fingerprint);
	wn_review_free(&r);
}

/* One diagnostic repeated for a family of identifiers (a macro's
 * symbols) in one file is one finding listing its places; two of a
 * kind, a stem of one word, another file, another message or another
 * severity stay apart, each with the fingerprint it has alone. */
static void test_lkp_family(void **state)
{
	static const char body[] =
		"All warnings (new ones prefixed by >>):\n"
		"\n"
		">> drivers/x.c:10:1: warning: symbol 'dev_attr_cog_0' was not declared. Should it be static?\n"
		">> drivers/x.c:11:1: warning: unused variable 'ret' [-Wunused-variable]\n"
		">> drivers/x.c:12:1: warning: symbol 'dev_attr_cog_1' was not declared. Should it be static?\n"
		">> drivers/x.c:13:1: warning: symbol 'i2c_read' was not declared. Should it be static?\n"
		">> drivers/x.c:14:1: warning: symbol 'dev_attr_limit' was not declared. Should it be static?\n"
		">> drivers/y.c:15:1: warning: symbol 'dev_attr_cog_2' was not declared. Should it be static?\n"
		">> drivers/x.c:16:1: warning: symbol 'i2c_write' was not declared. Should it be static?\n"
		">> drivers/x.c:17:1: warning: symbol 'i2c_probe' was not declared. Should it be static?\n"
		">> drivers/x.c:18:1: warning: symbol 'gb_cog_lo' was not declared. Should it be static?\n"
		">> drivers/x.c:19:1: warning: symbol 'gb_cog_hi' was not declared. Should it be static?\n"
		">> drivers/x.c:20:7: warning: implicit declaration of function \xe2\x80\x98pad_lock_a\xe2\x80\x99\n"
		">> drivers/x.c:21:7: warning: implicit declaration of function \xe2\x80\x98pad_lock_b\xe2\x80\x99\n"
		">> drivers/x.c:22:7: warning: implicit declaration of function \xe2\x80\x98pad_lock_c\xe2\x80\x99\n"
		">> drivers/x.c:23:7: warning: implicit declaration of function \xe2\x80\x98pad_lock_d\xe2\x80\x99\n"
		">> drivers/x.c:24:7: warning: implicit declaration of function \xe2\x80\x98pad_lock_e\xe2\x80\x99\n"
		">> drivers/x.c:25:7: warning: implicit declaration of function \xe2\x80\x98pad_lock_f\xe2\x80\x99\n"
		">> drivers/x.c:26:7: warning: implicit declaration of function \xe2\x80\x98pad_lock_g\xe2\x80\x99\n"
		">> drivers/x.c:27:7: warning: implicit declaration of function \xe2\x80\x98pad_lock_h\xe2\x80\x99\n"
		">> drivers/x.c:28:7: warning: implicit declaration of function \xe2\x80\x98pad_lock_i\xe2\x80\x99\n"
		">> drivers/x.c:29:7: warning: implicit declaration of function \xe2\x80\x98pad_lock_j\xe2\x80\x99\n"
		">> drivers/x.c:30:7: error: implicit declaration of function \xe2\x80\x98pad_lock_k\xe2\x80\x99\n"
		">> drivers/x.c:31:1: warning: symbol 'dev_attr_cog_3' was not declared. Should it be static?\n"
		">> drivers/x.c:32:1: warning: symbol 'dev_attr_cog_4' was not declared. Should it be static?\n"
		">> drivers/x.c:33:1: warning: symbol 'dev_attr_cog_5' was not declared. Should it be static?\n"
		">> drivers/x.c:34:1: warning: symbol 'dev_attr_cog_6' was not declared. Should it be static?\n"
		">> drivers/x.c:35:1: warning: symbol 'dev_attr_cog_7' was not declared. Should it be static?\n"
		">> drivers/x.c:36:1: warning: symbol 'dev_attr_cog_8' was not declared. Should it be static?\n"
		">> drivers/x.c:37:1: warning: symbol 'dev_attr_cog_9' was not declared. Should it be static?\n"
		">> drivers/x.c:40:7: warning: implicit declaration of function \xe2\x80\x98hub_read_a\xe2\x80\x99\n"
		">> drivers/x.c:41:7: warning: implicit declaration of function \xe2\x80\x98hub_read_b\xe2\x80\x99\n"
		">> drivers/x.c:42:7: warning: implicit declaration of function \xe2\x80\x98hub_read_c\xe2\x80\x99\n"
		">> drivers/x.c:43:7: warning: implicit declaration of function \xe2\x80\x98hub_read_d\xe2\x80\x99\n"
		">> drivers/x.c:44:7: warning: implicit declaration of function \xe2\x80\x98hub_read_e\xe2\x80\x99\n"
		">> drivers/x.c:45:7: warning: implicit declaration of function \xe2\x80\x98hub_read_f\xe2\x80\x99\n"
		">> drivers/x.c:46:7: warning: implicit declaration of function \xe2\x80\x98hub_read_g\xe2\x80\x99\n"
		">> drivers/x.c:47:7: warning: implicit declaration of function \xe2\x80\x98hub_read_h\xe2\x80\x99\n"
		">> drivers/x.c:48:7: warning: implicit declaration of function \xe2\x80\x98hub_read_i\xe2\x80\x99\n";
	char fp[WN_FP_LEN + 1];
	wn_review *r = parse(WN_BOT_LKP, body);
	wn_finding *f;

	(void) state;
	/* 1 family of 10, 7 singles, pad_lock's family of 10, the error,
	 * and hub_read's 9, one short of a family */
	assert_int_equal(r->nfindings, 1 + 7 + 1 + 1 + 9);
	f = F(r, 0);
	assert_string_equal(f->summary, "symbol 'dev_attr_*' was not declared. Should it be static? (10 places)");
	assert_int_equal(f->line, 10);
	assert_int_equal(f->nalso, 9);
	assert_int_equal(f->also[0].line, 12);
	assert_int_equal(f->also[1].line, 14);
	assert_int_equal(f->also[8].line, 37);
	assert_contains(f->quote, "drivers/x.c:10:1: warning: symbol 'dev_attr_cog_0'");
	assert_contains(f->quote, "\ndrivers/x.c:12:1: warning: symbol 'dev_attr_cog_1'");
	assert_contains(f->quote, "\ndrivers/x.c:14:1: warning: symbol 'dev_attr_limit'");
	assert_contains(f->quote, "\ndrivers/x.c:37:1: warning: symbol 'dev_attr_cog_9'");
	assert_contains(f->comment, "The same at 9 more places in drivers/x.c");
	/* neither the count nor the stem: the family keeps its verdict when
	 * a later build reports fewer of it */
	wn_fingerprint(WN_BOT_LKP, "drivers/x.c", NULL, "symbol '*' was not declared. Should it be static?", fp);
	assert_string_equal(f->fingerprint, fp);
	assert_string_equal(F(r, 1)->summary, "unused variable 'ret' [-Wunused-variable]");
	/* "i2c_" is one word: a driver's prefix, not a pattern */
	assert_string_equal(F(r, 2)->summary, "symbol 'i2c_read' was not declared. Should it be static?");
	wn_fingerprint(WN_BOT_LKP, "drivers/x.c", NULL, "symbol 'i2c_read' was not declared. Should it be static?",
		       fp);
	assert_string_equal(F(r, 2)->fingerprint, fp);
	assert_string_equal(F(r, 3)->file, "drivers/y.c");
	assert_string_equal(F(r, 6)->summary, "symbol 'gb_cog_lo' was not declared. Should it be static?");
	assert_string_equal(F(r, 7)->summary, "symbol 'gb_cog_hi' was not declared. Should it be static?");
	f = F(r, 8);
	assert_string_equal(f->summary, "implicit declaration of function \xe2\x80\x98pad_lock_*\xe2\x80\x99 (10 places)");
	assert_int_equal(f->nalso, 9);
	assert_int_equal(F(r, 9)->severity, WN_SEV_ERROR);
	assert_int_equal(F(r, 9)->line, 30);
	/* below LKP_FAMILY_MIN: each line its own finding */
	assert_string_equal(F(r, 10)->summary, "implicit declaration of function \xe2\x80\x98hub_read_a\xe2\x80\x99");
	assert_int_equal(F(r, 18)->line, 48);
	wn_review_free(&r);
}

/* A hostile report: 50,000 lines of one message, no two sharing a
 * stem, must not make the families quadratic; as many sharing one
 * are one finding. */
static void test_lkp_family_huge(void **state)
{
	const size_t n = 50000;
	const char *head = "All warnings (new ones prefixed by >>):\n\n";
	size_t cap = strlen(head) + n * 128, len;
	char *body = malloc(cap);
	wn_review *r;

	(void) state;
	assert_non_null(body);
	for (int shared = 0; shared < 2; shared++) {
		len = (size_t) snprintf(body, cap, "%s", head);
		for (size_t i = 0; i < n; i++)
			len += (size_t) snprintf(body + len, cap - len,
						 ">> drivers/x.c:%zu:1: warning: symbol '%s%zu_a' was not "
						 "declared. Should it be static?\n", i + 1,
						 shared ? "dev_attr_" : "s", i);
		r = parse_n(WN_BOT_LKP, body, len);
		assert_int_equal(r->nfindings, shared ? 1 : n);
		if (shared)
			assert_int_equal(F(r, 0)->nalso, n - 1);
		wn_review_free(&r);
	}
	free(body);
}

/* Which diagnostics are one family does not depend on the patch's
 * files: a header's symbols reached through three of the patch's files
 * are one finding, with one fingerprint, whether the index knows the
 * patch or not. */
static void test_lkp_family_patch_files(void **state)
{
	static const char *const files[] = {
		"drivers/a0.c", "drivers/a1.c", "drivers/a2.c", "drivers/a3.c", "drivers/a4.c",
		"drivers/a5.c", "drivers/a6.c", "drivers/a7.c", "drivers/a8.c", "drivers/a9.c", NULL,
	};
	char body[4096];
	size_t len = (size_t) snprintf(body, sizeof(body), "All warnings (new ones prefixed by >>):\n\n");
	wn_review_input in = { .patch_files = files };
	wn_review *alone, *placed;

	(void) state;
	/* each line of the header's family is included from another file
	 * the patch touches */
	for (int i = 0; i < 10; i++)
		len += (size_t) snprintf(body + len, sizeof(body) - len,
					 "   In file included from drivers/a%d.c:3:\n"
					 ">> include/linux/cog.h:%d:1: warning: symbol 'dev_attr_cog_%d' "
					 "was not declared. Should it be static?\n", i, 10 + i, i);
	alone = parse(WN_BOT_LKP, body);
	placed = parse_in(WN_BOT_LKP, body, &in);
	assert_int_equal(alone->nfindings, 1);
	assert_int_equal(placed->nfindings, 1);
	assert_string_equal(F(placed, 0)->fingerprint, F(alone, 0)->fingerprint);
	assert_string_equal(F(alone, 0)->file, "include/linux/cog.h");
	assert_string_equal(F(placed, 0)->file, "drivers/a0.c");
	assert_int_equal(F(placed, 0)->nalso, 9);
	assert_string_equal(F(placed, 0)->also[1].file, "drivers/a2.c");
	wn_review_free(&alone);
	wn_review_free(&placed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lkp_gcc),
		cmocka_unit_test(test_lkp_clang_and_linker),
		cmocka_unit_test(test_lkp_smatch_sparse),
		cmocka_unit_test(test_lkp_remark_under_listing),
		cmocka_unit_test(test_lkp_unmarked_sparse),
		cmocka_unit_test(test_lkp_nothing),
		cmocka_unit_test(test_detect_lkp_forwarded),
		cmocka_unit_test(test_lkp_report_subject),
		cmocka_unit_test(test_lkp_names_the_patch),
		cmocka_unit_test(test_lkp_heading_forms),
		cmocka_unit_test(test_lkp_repeats),
		cmocka_unit_test(test_lkp_macro_site),
		cmocka_unit_test(test_lkp_paths),
		cmocka_unit_test(test_lkp_kinds),
		cmocka_unit_test(test_lkp_tags),
		cmocka_unit_test(test_detect_lkp_personal_address),
		cmocka_unit_test(test_lkp_other_tools),
		cmocka_unit_test(test_lkp_quoted_heading),
		cmocka_unit_test(test_lkp_stable_fingerprint),
		cmocka_unit_test(test_lkp_family),
		cmocka_unit_test(test_lkp_family_huge),
		cmocka_unit_test(test_lkp_family_patch_files),
		cmocka_unit_test(test_lkp_notes_and_facts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
