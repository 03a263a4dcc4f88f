/* winnow — unit tests of bot detection and the review parsers.
 *
 * The mail bodies are skeletons in the shape of the real bots' mails
 * (FORMATS.md), one per template generation.  Every body is handed to
 * the parser in a buffer of exactly its length, without a terminating
 * NUL, so that AddressSanitizer catches a parser reading past len. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "winnow/review.h"

/* ---- helpers ---- */

static wn_review *parse_n(wn_bot bot, const char *s, size_t n)
{
	wn_review *r = NULL;
	wn_error err = WN_ERROR_INIT;
	char *copy = malloc(n ? n : 1);

	assert_non_null(copy);
	memcpy(copy, s, n);
	assert_int_equal(wn_review_parse(bot, copy, n, &r, &err), WN_OK);
	free(copy);
	assert_non_null(r);
	assert_int_equal(r->bot, bot);
	/* Invariants of every review. */
	if (r->nfindings) {
		size_t i;

		assert_null(r->explain);
		for (i = 0; i < r->nfindings; i++) {
			wn_finding *f = &r->findings[i];

			assert_int_equal(f->index, (int) i + 1);
			assert_int_equal(strlen(f->fingerprint), WN_FP_LEN);
			assert_non_null(f->summary);
			assert_null(strchr(f->summary, '\n'));
		}
	} else {
		assert_non_null(r->explain);
	}
	wn_error_clear(&err);
	return r;
}

static wn_review *parse(wn_bot bot, const char *s)
{
	return parse_n(bot, s, strlen(s));
}

static wn_finding *F(wn_review *r, size_t i)
{
	assert_true(i < r->nfindings);
	return &r->findings[i];
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!hay || !strstr(hay, needle))
		fail_msg("\"%s\" not found in \"%s\"", needle, hay ? hay : "(null)");
}

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

/* ---- names and tables ---- */

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
}

/* ---- detection ---- */

static bool detect(const char *from, const char *subject, const char *body,
		   const char *const *generic, wn_bot *b)
{
	wn_mail m;

	memset(&m, 0, sizeof(m));
	m.from_addr = (char *) from;
	m.subject = (char *) subject;
	m.body = (char *) body;
	m.body_len = body ? strlen(body) : 0;
	return wn_bot_detect(&m, generic, b);
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
	assert_false(detect("lkp@intel.com", "[linux-next:master] BUILD SUCCESS 1234", "", NULL, &b));

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

static void test_detect_netdev(void **state)
{
	wn_bot b = WN_BOT_COUNT;

	(void) state;
	assert_true(detect("kuba@kernel.org", "Re: [PATCH net] x",
			   "\nThis is an AI-generated review of your patch. The human sending this\n"
			   "email has considered the AI review valid, or at least plausible.\n---\n",
			   NULL, &b));
	assert_int_equal(b, WN_BOT_NETDEV_AI);
	b = WN_BOT_COUNT;
	assert_true(detect("horms@kernel.org", "Re: [PATCH net] x",
			   "this is an ai-generated review of your patch.\n", NULL, &b));
	assert_int_equal(b, WN_BOT_NETDEV_AI);
	/* A human answering such a review quotes the intro: not a review. */
	assert_false(detect("dev@example.org", "Re: [PATCH net] x",
			    "On Mon, X wrote:\n> This is an AI-generated review of your patch.\n",
			    NULL, &b));
	/* Deep in the body does not count either. */
	assert_false(detect("dev@example.org", "Re: [PATCH] x",
			    "Hi,\n\nthanks.\n\nabout the AI-generated review you mentioned\n", NULL, &b));
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

/* ---- Sashiko ---- */

static const char sashiko_both[] =
	"Thank you for your contribution! Sashiko AI review found 3 potential issue(s) to consider:\n"
	"\n"
	"New issues:\n"
	"- [High] Missing NULL check of t->ptr before the dereference in example_fn.\n"
	"- [Low] The new label name out_unlock is misleading.\n"
	"\n"
	"Pre-existing issues:\n"
	"- [Critical] The refcount of thing is never dropped on the error path.\n"
	"--\n"
	"\n"
	"--- Patch [2]: [PATCH v2 2/5] subsys: invented subject ---\n"
	"commit 0123456789abcdef0123456789abcdef01234567\n"
	"Author: Some Author <author@example.org>\n"
	"\n"
	"subsys: invented subject\n"
	"\n"
	"One to three sentences summarising the commit.\n"
	"\n"
	"> diff --git a/fs/example.c b/fs/example.c\n"
	"> index 0123456..789abcd 100644\n"
	"> --- a/fs/example.c\n"
	"> +++ b/fs/example.c\n"
	"> @@ -10,6 +10,8 @@ static int example_fn(struct thing *t)\n"
	">  \tlock(t);\n"
	"> +\tif (!t->ptr)\n"
	"> +\t\treturn -EINVAL;\n"
	"      ^^^^^^^^^^^^^^\n"
	"\n"
	"[Severity: High]\n"
	"Can t->ptr be NULL here? The NULL check of t->ptr comes after\n"
	"the dereference in example_fn.\n"
	"\n"
	"A second paragraph with an unquoted snippet:\n"
	"\n"
	"    if (!t)\n"
	"        return;\n"
	"\n"
	"[ ... ]\n"
	"\n"
	"> @@ -40,7 +42,7 @@ static void other_fn(struct thing *t)\n"
	">  \tget(t);\n"
	"> -\tput(t);\n"
	">  \treturn;\n"
	"\n"
	"[Severity: Critical]\n"
	"This problem wasn't introduced by this patch, but the refcount of thing\n"
	"is never dropped on the error path.\n"
	"\n"
	"> @@ -60,3 +62,3 @@ static void third_fn(void)\n"
	">  out_unlock:\n"
	"\n"
	"[Severity: Low]\n"
	"The label name out_unlock is misleading: nothing is unlocked here.\n"
	"\n"
	"-- \n"
	"Sashiko AI review \xc2\xb7 https://sashiko.dev/#/patchset/20260101-cover-v2-0-abc@example.org?part=2\n";

static void test_sashiko_both_headings(void **state)
{
	wn_review *r = parse(WN_BOT_SASHIKO, sashiko_both);
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
	assert_string_equal(f->quote, " \tlock(t);\n+\tif (!t->ptr)\n+\t\treturn -EINVAL;");
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
	static const char body[] =
		"Sashiko AI review found 2 potential issue(s) to consider:\n"
		"- [Medium] Use-after-free of req in done_fn when the timer fires late.\n"
		"- [High] Leak of buf on the -ENOMEM path in setup_fn.\n"
		"--\n"
		"\n"
		"> diff --git a/drivers/x/y.c b/drivers/x/y.c\n"
		"> --- a/drivers/x/y.c\n"
		"> +++ b/drivers/x/y.c\n"
		"> @@ -100,4 +100,6 @@ int setup_fn(void)\n"
		">  \tbuf = kmalloc(16, GFP_KERNEL);\n"
		"> +\tif (!buf)\n"
		"> +\t\treturn -ENOMEM;\n"
		"\n"
		"[High]\n"
		"Doesn't this leak buf on the -ENOMEM path? setup_fn returns without\n"
		"freeing it.\n"
		"\n"
		"> @@ -200,3 +202,4 @@ static void done_fn(struct req *req)\n"
		">  \tkfree(req);\n"
		"> +\treq->done = true;\n"
		"\n"
		"[Medium]\n"
		"The timer may fire late and touch req after kfree: a use-after-free.\n"
		"\n"
		"-- \n"
		"Sashiko AI review https://sashiko.dev/#/patchset/cover%40example.org?part=1\n";
	wn_review *r = parse(WN_BOT_SASHIKO, body);

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
	static const char body[] =
		"Sashiko AI review found 2 potential issue(s) to consider:\n"
		"- [High] Spinlock foo_lock taken in interrupt context without irqsave.\n"
		"- [Low] Typo in the comment describing bar_count.\n"
		"--\n"
		"\n"
		"> diff --git a/a.c b/a.c\n"
		"> @@ -1,3 +1,4 @@ static int bar(void)\n"
		"> +\t/* coutn of bars */\n"
		"> +\tbar_count++;\n"
		"\n"
		"There is a typo in this comment about bar_count: coutn.\n"
		"\n"
		"> @@ -50,3 +51,4 @@ static irqreturn_t foo_irq(int irq, void *d)\n"
		"> +\tspin_lock(&foo_lock);\n"
		"\n"
		"foo_lock is also taken from process context with interrupts enabled;\n"
		"taking it in interrupt context without spin_lock_irqsave can deadlock.\n"
		"\n"
		"-- \n"
		"Sashiko AI review \xc2\xb7 https://sashiko.dev/#/patchset/x@y?part=3\n";
	wn_review *r = parse(WN_BOT_SASHIKO, body);

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
static void test_sashiko_preexisting_wrapped_two_blocks(void **state)
{
	static const char body[] =
		"Thank you for your contribution! Sashiko AI review found 1 potential issue(s) to consider:\n"
		"\n"
		"Pre-existing issues:\n"
		"- [High] MSR_KVM_MIGRATION_CONTROL is disabled during CPU offline and\n"
		"  system suspend but is never re-enabled upon online/resume, breaking\n"
		"live migration.\n"
		"--\n"
		"\n"
		"> diff --git a/arch/x86/kernel/kvm.c b/arch/x86/kernel/kvm.c\n"
		"> --- a/arch/x86/kernel/kvm.c\n"
		"> +++ b/arch/x86/kernel/kvm.c\n"
		"> @@ -468,9 +468,10 @@ static void kvm_guest_cpu_offline(bool shutdown)\n"
		">  \tif (kvm_para_has_feature(KVM_FEATURE_MIGRATION_CONTROL))\n"
		">  \t\twrmsrq(MSR_KVM_MIGRATION_CONTROL, 0);\n"
		"\n"
		"[Severity: High]\n"
		"This isn't a bug introduced by this patch, but MSR_KVM_MIGRATION_CONTROL\n"
		"is cleared here during CPU offline and suspend.\n"
		"\n"
		"> @@ -600,3 +601,3 @@ static void kvm_guest_cpu_online(void)\n"
		">  \tkvm_register_steal_time();\n"
		"\n"
		"[Severity: High]\n"
		"Nothing re-enables MSR_KVM_MIGRATION_CONTROL on online/resume.\n"
		"\n"
		"-- \n"
		"Sashiko AI review \xc2\xb7 https://sashiko.dev/#/patchset/a@b?part=26\n";
	wn_review *r = parse(WN_BOT_SASHIKO, body);
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
	static const char body[] =
		"Thank you for your contribution! Sashiko AI review found 7 potential issue(s) to consider:\n"
		"- [High] Data race on global CRC table and early userspace exposure.\n"
		"- [High] Unintended hardware writes triggered from a read-only volatile getter.\n"
		"- [High] UAPI ABI breakage due to architecture-dependent bitfields and endianness exposure.\n"
		"- [High] I2C transfers performed using stack-allocated buffers.\n"
		"- [High] Use-After-Free risk due to combining `devm_kzalloc` with V4L2 device nodes.\n"
		"- [Medium] Pointer cast of a packed struct member triggers warning and risks unaligned access.\n"
		"- [Low] Pointer signedness compiler warning in CRC function call.\n"
		"--\n"
		"\n"
		"commit b6486dc31f9f1b48eddfb7b13dda9a4b186db9ac\n"
		"Author: A <a@example.org>\n"
		"\n"
		"media: i2c: lens board driver\n"
		"\n"
		"diff --git a/drivers/media/i2c/lens.c b/drivers/media/i2c/lens.c\n"
		"new file mode 100644\n"
		"index 0000000000000..596bf549bf255\n"
		"--- /dev/null\n"
		"+++ b/drivers/media/i2c/lens.c\n"
		"@@ -0,0 +1,317 @@\n"
		"[ ... ]\n"
		"> +struct lens_data {\n"
		"> +\t__u8 moving : 1;\n"
		"> +} __packed;\n"
		"\n"
		"[Severity: High]\n"
		"Does this struct definition break the UAPI ABI since it is mapped directly\n"
		"to userspace later? The C bitfields depend on the architecture.\n"
		"\n"
		"[ ... ]\n"
		"> +static int lens_i2c_write(struct lens_device *dev, u8 cmd, u16 val)\n"
		"> +{\n"
		"> +\tchar tx_data[4] = { cmd };\n"
		"\n"
		"[Severity: High]\n"
		"Can this cause memory corruption when CONFIG_VMAP_STACK is enabled? The\n"
		"array tx_data is on the stack and passed to i2c_master_send().\n"
		"\n"
		"> +\ttx_data[3] = crc8(lens_crc8_table, tx_data, 3, CRC8_INIT_VALUE);\n"
		"\n"
		"[Severity: Low]\n"
		"Does passing a char array to crc8() trigger a -Wpointer-sign warning?\n"
		"\n"
		"[ ... ]\n"
		"> +static int lens_i2c_read(struct lens_device *dev,\n"
		"> +\t\t\t   struct lens_data *rx_data)\n"
		"> +{\n"
		"> +\tint ret = i2c_master_recv(client, (char *)rx_data, sizeof(*rx_data));\n"
		"\n"
		"[Severity: High]\n"
		"Is this passing stack memory to the I2C core again? rx_data lives on\n"
		"the stack of lens_get_ctrl().\n"
		"\n"
		"> +\trx_data->moving_time = le16_to_cpup((__le16 *)&rx_data->moving_time);\n"
		"\n"
		"[Severity: Medium]\n"
		"Will this pointer cast of a packed struct member cause unaligned access?\n"
		"\n"
		"[ ... ]\n"
		"> +static int lens_get_ctrl(struct v4l2_ctrl *ctrl)\n"
		"> +{\n"
		"> +\t\t__v4l2_ctrl_modify_range(ctrl, min, max, 1, 0);\n"
		"\n"
		"[Severity: High]\n"
		"Can modifying the control range here trigger a hardware write? This is\n"
		"the g_volatile_ctrl callback, run for a read-only GET.\n"
		"\n"
		"> +\t\tmemcpy(ctrl->p_new.p_u8, &data, sizeof(data));\n"
		"\n"
		"[Severity: High]\n"
		"Does this expose in-place converted endianness and architecture-dependent\n"
		"bitfields to userspace?\n"
		"\n"
		"[ ... ]\n"
		"> +static int lens_probe(struct i2c_client *client)\n"
		"> +{\n"
		"> +\tdev = devm_kzalloc(&client->dev, sizeof(*dev), GFP_KERNEL);\n"
		"\n"
		"[Severity: High]\n"
		"Does allocating this memory with devm_kzalloc() create a use-after-free\n"
		"risk, with V4L2 device nodes held open by userspace?\n"
		"\n"
		"> +\tcrc8_populate_msb(lens_crc8_table, CEF_CRC8_POLYNOMIAL);\n"
		"\n"
		"[Severity: High]\n"
		"Is there a data race on the global lens_crc8_table here, now that the\n"
		"device is exposed to userspace?\n"
		"\n"
		"-- \n"
		"Sashiko AI review \xc2\xb7 https://sashiko.dev/#/patchset/x@y?part=2\n";
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
	wn_review *r = parse(WN_BOT_SASHIKO, body);
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
	static const char body[] =
		"Sashiko AI review found no issues.\n"
		"\n"
		"commit 0123456789abcdef0123456789abcdef01234567\n"
		"Author: A <a@example.org>\n"
		"\n"
		"subsys: do a thing\n"
		"\n"
		"> diff --git a/x.c b/x.c\n"
		"> +int x;\n"
		"\n"
		"-- \n"
		"Sashiko AI review \xc2\xb7 https://sashiko.dev/#/patchset/c@d?part=4\n";
	wn_review *r = parse(WN_BOT_SASHIKO, body);

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
	static const char body[] =
		"Sashiko AI review found 2 potential issue(s) to consider:\n"
		"- [Low] The Fixes tag names the wrong commit.\n"
		"- [Medium] Off-by-one in the loop bound of count_fn.\n"
		"--\n"
		"\n"
		"commit 0123456789abcdef0123456789abcdef01234567\n"
		"Author: A <a@example.org>\n"
		"\n"
		"> Fixes: 0123456789ab (\"subsys: old commit\")\n"
		"\n"
		"[Severity: Low]\n"
		"Does this Fixes tag name the right commit? The bug came later.\n"
		"\n"
		"> diff --git a/lib/count.c b/lib/count.c\n"
		"> @@ -20,8 +20,9 @@ int count_fn(int n)\n"
		">  \tint i;\n"
		">  \tint sum = 0;\n"
		"\n"
		"[ ... ]\n"
		"\n"
		">  \tfor (i = 0; i <= n; i++)\n"
		"\n"
		"[Severity: Medium]\n"
		"Isn't the loop bound off by one in count_fn?\n";
	wn_review *r = parse(WN_BOT_SASHIKO, body);

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
	static const char body[] =
		"commit 0123456789abcdef0123456789abcdef01234567\n"
		"Author: A <a@example.org>\n"
		"\n"
		"> diff --git a/a.c b/a.c\n"
		"> @@ -1,2 +1,3 @@ void f(void)\n"
		"> +\tg();\n"
		"\n"
		"Is g() safe to call here? It may sleep while f() holds a spinlock.\n"
		"More text.\n"
		"\n"
		"> +\th();\n"
		"\n"
		"[Severity: Medium]\n"
		"This is a pre-existing issue: h() was never checked.\n";
	wn_review *r = parse(WN_BOT_SASHIKO, body);

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

static void test_sashiko_crlf_same_result(void **state)
{
	char *c = crlf(sashiko_both);
	wn_review *a = parse(WN_BOT_SASHIKO, sashiko_both), *b = parse(WN_BOT_SASHIKO, c);
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

/* A copy still quoted-printable encoded although its headers say 8bit:
 * soft breaks and =XX escapes are undone before parsing. */
static void test_qp_artefacts(void **state)
{
	static const char body[] =
		"Thank you for your contribution! Sashiko AI review found 1 potential issue(=\n"
		"s) to consider:\n"
		"- [High] The loop bound in count_fn() is off by one, so the last elem=\n"
		"ent is read past the end.\n"
		"--\n"
		"\n"
		"> diff --git a/lib/count.c b/lib/count.c\n"
		"> @@ -20,2 +20,2 @@ int count_fn(int n)\n"
		"> -\tfor (i =3D 0; i < n; i++)\n"
		"> +\tfor (i =3D 0; i <=3D n; i++)\n"
		"\n"
		"[Severity: High]\n"
		"Doesn't i <=3D n read one element too many?\n"
		"\n"
		"--=20\n"
		"Sashiko AI review =C2=B7 https://sashiko.dev/#/patchset/20260101-count-v2-0-=\n"
		"abc@example.org?part=3D12\n";
	/* C code alone: "x +=" at a line end, one "=3D"-looking token. */
	static const char code[] =
		"> diff --git a/a.c b/a.c\n"
		"> @@ -1,2 +1,3 @@ void f(void)\n"
		"> +\tsum +=\n"
		"> +\t\tv[i];\n"
		"\n"
		"Is sum +=\n"
		"v[i] right when v holds 0x3D=3D?\n";
	wn_review *r = parse(WN_BOT_SASHIKO, body);

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

/* Hunk headers naming a function-defining macro: the function is its
 * first argument. */
static void test_inline_definer_macro(void **state)
{
	static const char body[] =
		"> diff --git a/kernel/bpf/ringbuf.c b/kernel/bpf/ringbuf.c\n"
		"> @@ -474,6 +474,9 @@ BPF_CALL_3(bpf_ringbuf_reserve, struct bpf_map *, map, u64, size, u64, flags)\n"
		"> +\tif (!size)\n"
		"\n"
		"First.\n"
		"\n"
		"> diff --git a/fs/open.c b/fs/open.c\n"
		"> @@ -1400,3 +1400,4 @@ SYSCALL_DEFINE4(openat, int, dfd, const char __user *, filename, int, flags,\n"
		"> +\tflags &= ~O_X;\n"
		"\n"
		"Second.\n"
		"\n"
		"> @@ -1500,3 +1501,4 @@ static int MY_MACRO_3(int a)\n"
		"> +\ta++;\n"
		"\n"
		"Third.\n";
	wn_review *r = parse(WN_BOT_BPF_CI, body);

	(void) state;
	assert_int_equal(r->nfindings, 3);
	assert_string_equal(F(r, 0)->function, "bpf_ringbuf_reserve");
	assert_string_equal(F(r, 1)->function, "openat");
	assert_string_equal(F(r, 2)->function, "MY_MACRO_3");
	wn_review_free(&r);
}

/* ---- BPF CI ---- */

static const char bpf_old[] =
	"\n"
	"```\n"
	"commit 8ae9fd98fe53c45a1a89adf6d254c2db90d26544\n"
	"Author: Some Author <a@example.org>\n"
	"\n"
	"bpf: use rqspinlock for lru map\n"
	"\n"
	"This patch converts raw_spinlock_t to rqspinlock_t.\n"
	"\n"
	"> diff --git a/kernel/bpf/bpf_lru_list.c b/kernel/bpf/bpf_lru_list.c\n"
	"> index e7a2fc605..38fddcb1e 100644\n"
	"> --- a/kernel/bpf/bpf_lru_list.c\n"
	"> +++ b/kernel/bpf/bpf_lru_list.c\n"
	"\n"
	"[ ... ]\n"
	"\n"
	"> @@ -466,23 +470,26 @@ static struct bpf_lru_node *bpf_common_lru_pop_free(struct bpf_lru *lru,\n"
	">  \tdo {\n"
	">\n"
	"> -\t\traw_spin_lock_irqsave(&loc_l->lock, flags);\n"
	"> +\t\tif (raw_res_spin_lock_irqsave(&loc_l->lock, flags))\n"
	"> +\t\t\treturn NULL;\n"
	"                        ^^^^^^^^^^^\n"
	"\n"
	"Can this leak the node? At this point in bpf_common_lru_pop_free(),\n"
	"a node was stolen from another CPU's list.\n"
	"\n"
	">  \t\t__local_list_add_pending(lru, loc_l, cpu, node, hash);\n"
	"\n"
	"[ ... ]\n"
	"\n"
	"\n"
	"```\n"
	"\n"
	"---\n"
	"AI reviewed your patch. Please fix the bug or email reply why it's not a bug.\n"
	"See: https://github.com/kernel-patches/vmtest/blob/master/ci/claude/README.md\n"
	"\n"
	"In-Reply-To-Subject: `bpf: use rqspinlock for lru map`\n"
	"CI run summary: https://github.com/kernel-patches/bpf/actions/runs/18928591681\n";

static void test_bpf_ci_old(void **state)
{
	wn_review *r = parse(WN_BOT_BPF_CI, bpf_old);
	wn_finding *f;

	(void) state;
	assert_int_equal(r->nfindings, 1);
	assert_string_equal(r->patch_subject, "bpf: use rqspinlock for lru map");
	assert_int_equal(r->declared, -1);
	f = F(r, 0);
	assert_int_equal(f->severity, WN_SEV_NONE);
	assert_false(f->preexisting);
	assert_string_equal(f->file, "kernel/bpf/bpf_lru_list.c");
	assert_string_equal(f->function, "bpf_common_lru_pop_free");
	assert_int_equal(f->line, 473);
	assert_string_equal(f->summary, "Can this leak the node?");
	assert_null(strstr(f->comment, "```"));
	assert_null(strstr(f->comment, "AI reviewed"));
	wn_review_free(&r);
}

static void test_bpf_ci_new(void **state)
{
	static const char body[] =
		"> diff --git a/tools/testing/selftests/bpf/jit_disasm_helpers.c b/tools/testing/selftests/bpf/jit_disasm_helpers.c\n"
		"> index 364c557c5115..4c6bcbe08491 100644\n"
		"> --- a/tools/testing/selftests/bpf/jit_disasm_helpers.c\n"
		"> +++ b/tools/testing/selftests/bpf/jit_disasm_helpers.c\n"
		"> @@ -216,9 +218,18 @@ int get_jited_program_text(int fd, char *text, size_t text_sz)\n"
		">  \tif (!ASSERT_OK(err, \"bpf_prog_get_info_by_fd #2\"))\n"
		">  \t\tgoto out;\n"
		">\n"
		"> +\ttriple = LLVMGetDefaultTargetTriple();\n"
		"\n"
		"Does this code leak the triple string? Looking at the LLVM C API,\n"
		"LLVMGetDefaultTargetTriple() returns a string that must be freed.\n"
		"\n"
		"    if (triple)\n"
		"        LLVMDisposeMessage(triple);\n"
		"\n"
		">  \tfor (pc = 0, i = 0; i < jited_funcs; ++i) {\n"
		"> -\t\tdisasm_one_func(text_out, image + pc, func_lens[i]);\n"
		"> +\t\tdisasm_one_func(text_out, image + pc, func_lens[i] - trunc_len);\n"
		"\n"
		"Can func_lens[i] - trunc_len underflow when a function is shorter than 8 bytes?\n"
		"\n"
		"\n"
		"---\n"
		"AI reviewed your patch. Please fix the bug or email reply why it's not a bug.\n"
		"See: https://github.com/kernel-patches/vmtest/blob/master/ci/claude/README.md\n"
		"\n"
		"CI run summary: https://github.com/kernel-patches/bpf/actions/runs/25998434343\n";
	wn_review *r = parse(WN_BOT_BPF_CI, body);

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_null(r->patch_subject);
	assert_string_equal(F(r, 0)->file, "tools/testing/selftests/bpf/jit_disasm_helpers.c");
	assert_string_equal(F(r, 0)->function, "get_jited_program_text");
	assert_int_equal(F(r, 0)->line, 221);
	assert_contains(F(r, 0)->comment, "        LLVMDisposeMessage(triple);");
	assert_int_equal(F(r, 1)->line, 223);
	assert_string_equal(F(r, 1)->summary,
			    "Can func_lens[i] - trunc_len underflow when a function is shorter than 8 bytes?");
	assert_null(strstr(F(r, 1)->comment, "CI run"));
	wn_review_free(&r);
}

/* A fix suggested as an unquoted diff stays part of its comment. */
static void test_inline_suggested_diff(void **state)
{
	static const char body[] =
		"> diff --git a/a.c b/a.c\n"
		"> @@ -1,2 +1,3 @@ void f(void)\n"
		"> +\tg();\n"
		"\n"
		"Should g() be called under the lock? Something like:\n"
		"\n"
		"diff --git a/a.c b/a.c\n"
		"--- a/a.c\n"
		"+++ b/a.c\n"
		"@@ -1,2 +1,3 @@\n"
		"-\tg();\n"
		"+\tlocked_g();\n"
		"\n"
		"> +\th();\n"
		"\n"
		"Second.\n";
	wn_review *r = parse(WN_BOT_BPF_CI, body);

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_contains(F(r, 0)->comment, "+\tlocked_g();");
	assert_contains(F(r, 0)->comment, "diff --git a/a.c b/a.c");
	assert_int_equal(F(r, 1)->line, 2);
	assert_string_equal(F(r, 1)->file, "a.c");
	wn_review_free(&r);
}

/* ---- netdev AI ---- */

static void test_netdev(void **state)
{
	static const char body[] =
		"This is an AI-generated review of your patch. The human sending this\n"
		"email has considered the AI review valid, or at least plausible.\n"
		"Full review at: https://netdev-ai.bots.linux.dev/sashiko/\n"
		"\n"
		"I think the second one is real, the first one less so.\n"
		"---\n"
		"From: Some Author <a@example.org>\n"
		"\n"
		"Now I have enough information to write the review.\n"
		"\n"
		"net: mana: Fix EQ leak in mana_remove on NULL port\n"
		"\n"
		"This commit changes 'goto out' to 'break'.\n"
		"\n"
		"> Fixes: ca9c54d2d6a5 (\"net: mana: Add a driver\")\n"
		"\n"
		"Does this Fixes tag point to the correct commit?\n"
		"\n"
		"> diff --git a/drivers/net/mana/mana_en.c b/drivers/net/mana/mana_en.c\n"
		"> --- a/drivers/net/mana/mana_en.c\n"
		"> +++ b/drivers/net/mana/mana_en.c\n"
		"> @@ -3100,7 +3100,7 @@ void mana_remove(struct gdma_dev *gd, bool suspending)\n"
		">  \t\tif (!ndev) {\n"
		"> -\t\t\tgoto out;\n"
		"> +\t\t\tbreak;\n"
		"\n"
		"[High]\n"
		"This wasn't introduced by this patch, but ports after a NULL one are\n"
		"never cleaned up.\n"
		"\n"
		"pw-bot: cr\n";
	wn_review *r = parse(WN_BOT_NETDEV_AI, body);

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_true(F(r, 0)->about_commit_msg);
	assert_int_equal(F(r, 0)->severity, WN_SEV_NONE);
	assert_false(F(r, 0)->preexisting);
	assert_string_equal(F(r, 0)->summary, "Does this Fixes tag point to the correct commit?");
	assert_int_equal(F(r, 1)->severity, WN_SEV_HIGH);
	assert_true(F(r, 1)->preexisting);
	assert_string_equal(F(r, 1)->function, "mana_remove");
	assert_int_equal(F(r, 1)->line, 3101);
	assert_null(strstr(F(r, 1)->comment, "pw-bot"));
	wn_review_free(&r);
}

/* netdev mail carrying a Sashiko summary: the summary rules. */
static void test_netdev_with_summary(void **state)
{
	static const char body[] =
		"This is an AI-generated review of your patch.\n"
		"---\n"
		"Sashiko AI review found 1 potential issue(s) to consider:\n"
		"- [Medium] Trust revoke misses MAC filters added while trusted.\n"
		"--\n"
		"> diff --git a/i40e.c b/i40e.c\n"
		"> @@ -4987,19 +5004,20 @@ int i40e_ndo_set_vf_trust(struct net_device *netdev)\n"
		"> +\tif (!setting)\n"
		"\n"
		"[Medium]\n"
		"Does this revoke-trust heuristic miss MAC filters? This pre-existing issue ...\n";
	wn_review *r = parse(WN_BOT_NETDEV_AI, body);

	(void) state;
	assert_int_equal(r->declared, 1);
	assert_int_equal(r->nfindings, 1);
	assert_int_equal(F(r, 0)->severity, WN_SEV_MEDIUM);
	/* the summary is authoritative: no "Pre-existing issues:" heading */
	assert_false(F(r, 0)->preexisting);
	assert_string_equal(F(r, 0)->function, "i40e_ndo_set_vf_trust");
	assert_int_equal(F(r, 0)->line, 5004);
	wn_review_free(&r);
}

/* ---- kernel test robot ---- */

static const char lkp_gcc[] =
	"Hi Krishna,\n"
	"\n"
	"kernel test robot noticed the following build warnings:\n"
	"\n"
	"[auto build test WARNING on 3006adf3be79cde4d14b1800b963b82b6e5572e0]\n"
	"\n"
	"url:    https://github.com/intel-lab-lkp/linux/commits/x/20231111-101955\n"
	"base:   3006adf3be79cde4d14b1800b963b82b6e5572e0\n"
	"config: sh-allmodconfig (https://download.01.org/0day-ci/archive/20231111/x/config)\n"
	"compiler: sh4-linux-gcc (GCC) 13.2.0\n"
	"reproduce (this is a W=1 build): (https://download.01.org/0day-ci/archive/x/reproduce)\n"
	"\n"
	"If you fix the issue in a separate patch/commit (i.e. not just a new version of\n"
	"the same patch/commit), kindly add following tags\n"
	"| Reported-by: kernel test robot <lkp@intel.com>\n"
	"| Closes: https://lore.kernel.org/oe-kbuild-all/202311111237.zTm5NBLH-lkp@intel.com/\n"
	"\n"
	"All warnings (new ones prefixed by >>):\n"
	"\n"
	"   In file included from include/trace/define_trace.h:102,\n"
	"                    from drivers/bus/mhi/host/init.c:24:\n"
	"   drivers/bus/mhi/host/trace.h: In function 'trace_event_raw_event_mhi':\n"
	">> drivers/bus/mhi/host/trace.h:144:58: warning: unused variable 'x' [-Wunused-variable]\n"
	"     144 |         int x;\n"
	"         |             ^\n"
	"   include/trace/trace_events.h:402:11: note: in definition of macro 'DECLARE_EVENT_CLASS'\n"
	"     402 |         { assign; }\n"
	"   drivers/old.c:10:1: warning: an old warning that is not new\n"
	">> drivers/media/i2c/imx283.c:951:3: error: a label can only be part of a statement\n"
	"\n"
	"\n"
	"vim +951 drivers/media/i2c/imx283.c\n"
	"\n"
	"   949\t\tcase V4L2_CID_VFLIP:\n"
	"   950\t\t\t/* comment */\n"
	" > 951\t\t\tu8 trim = IMX283_HTRIMMING_EN;\n"
	"   952\t\n"
	"\n"
	"-- \n"
	"0-DAY CI Kernel Test Service\n"
	"https://github.com/intel/lkp-tests/wiki\n";

static void test_lkp_gcc(void **state)
{
	wn_review *r = parse(WN_BOT_LKP, lkp_gcc);
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
	static const char body[] =
		"tree:   https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git master\n"
		"reproduce:\n"
		"        # apt-get install sparse\n"
		"        make C=1 drivers/x.c:1: warning: not a finding\n"
		"\n"
		"New smatch warnings:\n"
		"fs/ext4/extents.c:2089 ext4_ext_insert_extent() warn: inconsistent indenting\n"
		"\n"
		"Old smatch warnings:\n"
		"fs/ext4/extents.c:4456 ext4_ext_map_blocks() error: uninitialized symbol 'ex'.\n"
		"\n"
		"sparse warnings: (new ones prefixed by >>)\n"
		">> drivers/thermal/ns-thermal.c:19:34: sparse: sparse: incorrect type in initializer (different address spaces) @@     expected void [noderef] __iomem *pvtmon @@     got void *devdata @@\n"
		"   drivers/thermal/ns-thermal.c:19:34: sparse:     expected void [noderef] __iomem *pvtmon\n"
		"   drivers/thermal/ns-thermal.c:19:34: sparse:     got void *devdata\n"
		"   drivers/acpi/s2idle.c:426:13: sparse: sparse: restricted suspend_state_t degrades to integer\n"
		">> drivers/iio/adc/ad4691.c:675:47: sparse: sparse: dereference of noderef expression\n"
		">> drivers/iio/adc/ad4691.c:675:47: sparse: sparse: dereference of noderef expression\n"
		"\n"
		"vim +/ex +2089 fs/ext4/extents.c\n"
		"\n"
		"0123456789abcd Some Author 2020-01-01  2088  \tif (x)\n"
		"0123456789abcd Some Author 2020-01-01 @2089  \t\ty();\n"
		"\n"
		"-- \n"
		"0-DAY CI Kernel Test Service\n";
	wn_review *r = parse(WN_BOT_LKP, body);

	(void) state;
	assert_int_equal(r->nfindings, 5);
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
	/* identical diagnostics: distinct, deterministic fingerprints */
	assert_string_equal(F(r, 3)->summary, F(r, 4)->summary);
	assert_string_not_equal(F(r, 3)->fingerprint, F(r, 4)->fingerprint);
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

/* ---- syzbot ---- */

static void test_syzbot_report(void **state)
{
	static const char body[] =
		"Hello,\n"
		"\n"
		"syzbot found the following issue on:\n"
		"\n"
		"HEAD commit:    0c3836482481 Linux 6.10\n"
		"git tree:       upstream\n"
		"\n"
		"IMPORTANT: if you fix the issue, please add the following tag to the commit:\n"
		"Reported-by: syzbot+03d6270b6425df1605bf@syzkaller.appspotmail.com\n"
		"\n"
		"Bluetooth: hci0: Opcode 0x206a failed: -110\n"
		"==================================================================\n"
		"BUG: KASAN: slab-use-after-free in set_powered_sync+0x3a/0xc0 net/bluetooth/mgmt.c:1353\n"
		"Read of size 8 at addr ffff888029b4dd18 by task kworker/u9:0/54\n"
		"==================================================================\n"
		"\n"
		"---\n"
		"This report is generated by a bot. It may contain errors.\n";
	wn_review *r = parse(WN_BOT_SYZBOT, body);

	(void) state;
	assert_int_equal(r->nfindings, 1);
	assert_int_equal(F(r, 0)->severity, WN_SEV_NONE);
	/* syzbot's own title: the sanitizer first, the access from the
	 * next line */
	assert_string_equal(F(r, 0)->summary, "KASAN: slab-use-after-free Read in set_powered_sync");
	assert_string_equal(F(r, 0)->function, "set_powered_sync");
	assert_string_equal(F(r, 0)->file, "net/bluetooth/mgmt.c");
	assert_int_equal(F(r, 0)->line, 1353);
	assert_contains(F(r, 0)->quote, "Read of size 8");
	wn_review_free(&r);
}

static void test_syzbot_warning_new_format(void **state)
{
	static const char body[] =
		"------------[ cut here ]------------\n"
		"URB ffff888114e55c00 submitted while active\n"
		"WARNING: drivers/usb/core/urb.c:380 at 0x0, CPU#0: kworker/0:1/10\n"
		"Modules linked in:\n"
		"RIP: 0010:usb_submit_urb+0x15a3/0x1970 drivers/usb/core/urb.c:380\n";
	wn_review *r = parse(WN_BOT_SYZBOT, body);

	(void) state;
	assert_int_equal(r->nfindings, 1);
	assert_string_equal(F(r, 0)->summary, "WARNING in usb_submit_urb");
	assert_string_equal(F(r, 0)->file, "drivers/usb/core/urb.c");
	assert_int_equal(F(r, 0)->line, 380);
	wn_review_free(&r);
}

static void test_syzbot_ci(void **state)
{
	static const char body[] =
		"syzbot ci has tested the following series\n"
		"\n"
		"[v6] tun/tap: flow control\n"
		"https://lore.kernel.org/all/20251120152914.1127975-1-x@example.org\n"
		"* [PATCH net-next v6 1/8] ptr_ring: add __ptr_ring_full_next()\n"
		"\n"
		"and found the following issues:\n"
		"general protection fault in tun_net_xmit\n"
		"kernel build error\n"
		"\n"
		"Full report is available here:\n"
		"https://ci.syzbot.org/series/63c35694\n"
		"\n"
		"***\n"
		"\n"
		"general protection fault in tun_net_xmit\n"
		"\n"
		"tree:      net-next\n"
		"base:      45a1cd8346ca245a1ca475b26eb6ceb9d8b7c6f0\n"
		"arch:      amd64\n"
		"\n"
		"Oops: general protection fault, probably for non-canonical address 0xdffffc0000000002: 0000 [#1] SMP KASAN NOPTI\n"
		"RIP: 0010:__ptr_ring_full include/linux/ptr_ring.h:51 [inline]\n"
		"RIP: 0010:tun_net_xmit+0xdf0/0x1840 drivers/net/tun.c:1164\n"
		"\n"
		"***\n"
		"\n"
		"kernel build error\n"
		"\n"
		"tree:      torvalds\n"
		"arch:      amd64\n"
		"\n"
		"net/wireless/util.c:118:20: error: use of undeclared identifier 'X'\n"
		"\n"
		"***\n"
		"\n"
		"If these findings have caused you to resend the series or submit a\n"
		"separate fix, please add the following tag to your commit message:\n"
		"  Tested-by: syzbot@syzkaller.appspotmail.com\n";
	wn_review *r = parse(WN_BOT_SYZBOT, body);

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_string_equal(F(r, 0)->summary, "general protection fault in tun_net_xmit");
	assert_string_equal(F(r, 0)->function, "tun_net_xmit");
	assert_string_equal(F(r, 0)->file, "drivers/net/tun.c");
	assert_contains(F(r, 0)->quote, "Oops: general protection fault");
	assert_string_equal(F(r, 1)->summary, "kernel build error");
	assert_contains(F(r, 1)->quote, "undeclared identifier");
	assert_int_equal(F(r, 0)->severity, WN_SEV_NONE);
	wn_review_free(&r);
}

static void test_syzbot_status_mail(void **state)
{
	wn_review *r = parse(WN_BOT_SYZBOT,
			     "Hello,\n\nsyzbot has tested the proposed patch and the reproducer did not trigger any issue:\n\n"
			     "Reported-by: syzbot+x@syzkaller.appspotmail.com\nTested-by: syzbot+x@syzkaller.appspotmail.com\n");

	(void) state;
	assert_int_equal(r->nfindings, 0);
	assert_contains(r->explain, "crash");
	wn_review_free(&r);
}

/* ---- generic ---- */

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
	wn_review_free(&r);
}

/* A syzbot ci build error section is located at its first compiler
 * diagnostic ("path:line:col: error: ..."). */
static void test_syzbot_ci_build_error_location(void **state)
{
	static const char body[] =
		"syzbot ci has tested the following series\n"
		"\n"
		"***\n"
		"\n"
		"kernel build error\n"
		"\n"
		"tree:      net-next\n"
		"arch:      arm64\n"
		"\n"
		"drivers/net/vx/vx_tx.c:91:2: error: use of undeclared identifier 'txq'\n"
		"drivers/net/vx/vx_tx.c:92:21: error: use of undeclared identifier 'txq'\n"
		"\n"
		"***\n";
	wn_review *r = parse(WN_BOT_SYZBOT, body);

	(void) state;
	assert_int_equal(r->nfindings, 1);
	assert_string_equal(F(r, 0)->summary, "kernel build error");
	assert_string_equal(F(r, 0)->file, "drivers/net/vx/vx_tx.c");
	assert_int_equal(F(r, 0)->line, 91);
	wn_review_free(&r);
}

static void test_generic(void **state)
{
	static const char body[] =
		"On Mon, 1 Jan 2026, A Developer wrote:\n"
		"> Some prose of the patch.\n"
		"> diff --git a/x.c b/x.c\n"
		"> @@ -5,2 +5,3 @@ int main(void)\n"
		"> +\tfoo();\n"
		"\n"
		"foo() can fail; check its return value.\n"
		"\n"
		">  \tbar();\n"
		"> +\tbaz();\n"
		"Second comment, right below.\n"
		"\n"
		"-- \n"
		"A bot signature\n";
	wn_review *r = parse(WN_BOT_GENERIC, body);

	(void) state;
	assert_int_equal(r->nfindings, 2);
	assert_int_equal(F(r, 0)->severity, WN_SEV_NONE);
	assert_string_equal(F(r, 0)->file, "x.c");
	assert_int_equal(F(r, 0)->line, 5);
	assert_string_equal(F(r, 0)->function, "main");
	assert_string_equal(F(r, 1)->summary, "Second comment, right below.");
	assert_int_equal(F(r, 1)->line, 7);
	wn_review_free(&r);

	r = parse(WN_BOT_GENERIC, "just some text\nwithout quotes\n");
	assert_int_equal(r->nfindings, 0);
	assert_non_null(r->explain);
	wn_review_free(&r);
}

/* ---- summaries ---- */

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

/* ---- fingerprints ---- */

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

/* ---- hostile input ---- */

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
	/* a 0-day report of 10000 diagnostics and 40000 vim listings */
	memcpy(big, "All warnings (new ones prefixed by >>):\n", 40);
	for (i = 40; i + 25 <= n / 4; i += 25)
		memcpy(big + i, ">> a/b.c:1:1: warning: x\n", 25);
	for (; i + 18 <= n; i += 18)
		memcpy(big + i, "vim +1 a/b.c\n> 1 x\n", 18);
	for (; i < n; i++)
		big[i] = '\n';
	r = parse_n(WN_BOT_LKP, big, n);
	assert_true(r->nfindings > 10000);
	assert_non_null(F(r, 0)->quote);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bot_names),
		cmocka_unit_test(test_severity_names),
		cmocka_unit_test(test_detect_bots),
		cmocka_unit_test(test_detect_netdev),
		cmocka_unit_test(test_detect_generic_and_humans),
		cmocka_unit_test(test_sashiko_both_headings),
		cmocka_unit_test(test_sashiko_no_headings_bare_tags),
		cmocka_unit_test(test_sashiko_untagged_by_similarity),
		cmocka_unit_test(test_sashiko_preexisting_wrapped_two_blocks),
		cmocka_unit_test(test_sashiko_many_same_severity),
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
		cmocka_unit_test(test_sashiko_summary_no_terminator),
		cmocka_unit_test(test_sashiko_summary_unreadable_and_none),
		cmocka_unit_test(test_qp_artefacts),
		cmocka_unit_test(test_inline_definer_macro),
		cmocka_unit_test(test_bpf_ci_old),
		cmocka_unit_test(test_bpf_ci_new),
		cmocka_unit_test(test_inline_suggested_diff),
		cmocka_unit_test(test_netdev),
		cmocka_unit_test(test_netdev_with_summary),
		cmocka_unit_test(test_lkp_gcc),
		cmocka_unit_test(test_lkp_clang_and_linker),
		cmocka_unit_test(test_lkp_smatch_sparse),
		cmocka_unit_test(test_lkp_unmarked_sparse),
		cmocka_unit_test(test_lkp_nothing),
		cmocka_unit_test(test_syzbot_report),
		cmocka_unit_test(test_syzbot_warning_new_format),
		cmocka_unit_test(test_syzbot_ci),
		cmocka_unit_test(test_syzbot_status_mail),
		cmocka_unit_test(test_syzbot_ci_build_error_location),
		cmocka_unit_test(test_detect_lkp_forwarded),
		cmocka_unit_test(test_lkp_report_subject),
		cmocka_unit_test(test_generic),
		cmocka_unit_test(test_long_summary_cut),
		cmocka_unit_test(test_fingerprint),
		cmocka_unit_test(test_fingerprint_reparse_stable),
		cmocka_unit_test(test_pathological),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
