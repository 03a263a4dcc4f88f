/* winnow — unit tests of the trailer block and the Assisted-by
 * classification. */
#include "autoconfig.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "winnow/trailer.h"

static wn_patch_trailers *parse(const char *body)
{
	wn_patch_trailers *t = NULL;
	wn_error err = WN_ERROR_INIT;

	assert_int_equal(wn_trailers_parse(body, body ? strlen(body) : 0, &t, &err), WN_OK);
	assert_non_null(t);
	return t;
}

static void assert_trailer(const wn_patch_trailers *t, size_t i, const char *key, const char *value)
{
	assert_true(i < t->ntrailers);
	assert_string_equal(t->trailers[i].key, key);
	assert_string_equal(t->trailers[i].value, value);
}

#define DIFF \
	"---\n" \
	" fs/example.c | 2 ++\n" \
	" 1 file changed, 2 insertions(+)\n" \
	"\n" \
	"diff --git a/fs/example.c b/fs/example.c\n" \
	"--- a/fs/example.c\n" \
	"+++ b/fs/example.c\n" \
	"@@ -1,1 +1,3 @@\n" \
	"+Signed-off-by: Not A Trailer <diff@example.org>\n"

static void test_model(void **state)
{
	wn_patch_trailers *t;

	(void) state;
	t = parse("Fix the use-after-free in example_fn().\n"
		  "\n"
		  "Assisted-by: Claude:claude-opus-4-5 coccinelle sparse\n"
		  "Signed-off-by: Some Author <author@example.org>\n"
		  DIFF);
	assert_int_equal(t->ntrailers, 2);
	assert_trailer(t, 0, "Assisted-by", "Claude:claude-opus-4-5 coccinelle sparse");
	assert_trailer(t, 1, "Signed-off-by", "Some Author <author@example.org>");
	assert_int_equal(t->attr.status, WN_ATTR_MODEL);
	assert_string_equal(t->attr.agent, "Claude");
	assert_string_equal(t->attr.model, "claude-opus-4-5");
	assert_int_equal(t->attr.ntools, 2);
	assert_string_equal(t->attr.tools[0], "coccinelle");
	assert_string_equal(t->attr.tools[1], "sparse");
	assert_string_equal(t->attr.raw, "Claude:claude-opus-4-5 coccinelle sparse");
	assert_string_equal(t->submitter, "Some Author <author@example.org>");
	assert_false(t->codev_unsigned);
	wn_trailers_free(&t);
	assert_null(t);
}

static void test_generic(void **state)
{
	wn_patch_trailers *t;

	(void) state;
	t = parse("Body.\n\nAssisted-by: LLM coccinelle sparse\nSigned-off-by: A <a@x>\n" DIFF);
	assert_int_equal(t->attr.status, WN_ATTR_GENERIC);
	assert_null(t->attr.agent);
	assert_null(t->attr.model);
	assert_int_equal(t->attr.ntools, 2);
	assert_string_equal(t->attr.tools[0], "coccinelle");
	assert_string_equal(t->attr.tools[1], "sparse");
	wn_trailers_free(&t);

	/* lower-case key and value, no tools */
	t = parse("Body.\n\nassisted-by: coding assistant\nSigned-off-by: A <a@x>\n" DIFF);
	assert_trailer(t, 0, "assisted-by", "coding assistant");
	assert_int_equal(t->attr.status, WN_ATTR_GENERIC);
	assert_int_equal(t->attr.ntools, 0);
	assert_null(t->attr.tools);
	wn_trailers_free(&t);

	t = parse("Body.\n\nASSISTED-BY: llm\n" DIFF);
	assert_int_equal(t->attr.status, WN_ATTR_GENERIC);
	wn_trailers_free(&t);
}

static void test_lowercase_model(void **state)
{
	wn_patch_trailers *t;

	(void) state;
	t = parse("Body.\n\nSigned-off-by: A <a@x>\nassisted-by: Copilot:gpt-4.1 [smatch]\n" DIFF);
	assert_int_equal(t->attr.status, WN_ATTR_MODEL);
	assert_string_equal(t->attr.agent, "Copilot");
	assert_string_equal(t->attr.model, "gpt-4.1");
	assert_int_equal(t->attr.ntools, 1);
	assert_string_equal(t->attr.tools[0], "smatch");	/* brackets are placeholders */
	wn_trailers_free(&t);
}

/* Tools as real trailers write them, with free text mixed in: only
 * names count. */
static void check_tools(const char *value, wn_attr_status status, size_t ntools, ...)
{
	wn_attribution a;
	va_list ap;
	size_t i;

	assert_int_equal(wn_attribution_parse(value, &a), WN_OK);
	assert_int_equal(a.status, status);
	assert_int_equal(a.ntools, ntools);
	va_start(ap, ntools);
	for (i = 0; i < ntools; i++)
		assert_string_equal(a.tools[i], va_arg(ap, const char *));
	va_end(ap);
	wn_attribution_clear(&a);
}

static void test_tools_free_text(void **state)
{
	(void) state;
	check_tools("Claude:claude-opus-4-5 (review only) sparse", WN_ATTR_MODEL, 1, "sparse");
	check_tools("Claude:claude-opus-4-5 (used for the tests, not the fix)", WN_ATTR_MODEL, 0);
	check_tools("Codex:gpt-5.5 coccinelle, sparse", WN_ATTR_MODEL, 2, "coccinelle", "sparse");
	check_tools("kres:claude-opus-4-7 <https://example.org/kres>", WN_ATTR_MODEL, 0);
	check_tools("LLM [smatch] (sparse)", WN_ATTR_GENERIC, 2, "smatch", "sparse");
	check_tools("LLM checkpatch.pl", WN_ATTR_GENERIC, 1, "checkpatch.pl");
	/* an unclosed remark swallows the rest, not more */
	check_tools("LLM (all of it", WN_ATTR_GENERIC, 0);
}

/* The kernel's form is AGENT:MODEL [TOOL1] [TOOL2]: a bracketed tool's
 * name may hold blanks and punctuation. */
static void test_tools_bracketed(void **state)
{
	wn_attribution a;
	char big[400];

	(void) state;
	check_tools("Claude:claude-opus-4-7 [Claude Code]", WN_ATTR_MODEL, 1, "Claude Code");
	check_tools("Google:Gemini-3-Flash [DSDT/XML-Data-Aggregation & Formatting]", WN_ATTR_MODEL,
		    1, "DSDT/XML-Data-Aggregation & Formatting");
	check_tools("Claude:claude-opus-4-7 [Claude Code] [sparse] smatch", WN_ATTR_MODEL, 3,
		    "Claude Code", "sparse", "smatch");
	check_tools("LLM [ Claude   Code ]", WN_ATTR_GENERIC, 1, "Claude Code");
	check_tools("LLM [Claude Code][sparse]", WN_ATTR_GENERIC, 2, "Claude Code", "sparse");
	check_tools("Claude:claude-opus-4-7 [] sparse", WN_ATTR_MODEL, 1, "sparse");
	/* an unclosed bracket does not eat the rest: its words are read
	 * one by one */
	check_tools("Claude:claude-opus-4-7 [Claude Code sparse", WN_ATTR_MODEL, 3, "Claude", "Code",
		    "sparse");
	check_tools("LLM [sparse] [unclosed smatch", WN_ATTR_GENERIC, 3, "sparse", "unclosed", "smatch");
	/* a bracket holding a control character is no tool's name */
	check_tools("LLM [bad\001name] sparse", WN_ATTR_GENERIC, 0);
	/* a bracket too long for a name is a remark, skipped whole */
	memset(big, 'x', sizeof(big));
	memcpy(big, "LLM [", 5);
	memcpy(big + sizeof(big) - 9, "] sparse", 9);
	check_tools(big, WN_ATTR_GENERIC, 1, "sparse");
	/* so is a bare word too long for a name: it ends the list */
	memset(big, 'y', sizeof(big));
	memcpy(big, "LLM sparse ", 11);
	memcpy(big + sizeof(big) - 8, " smatch", 8);
	check_tools(big, WN_ATTR_GENERIC, 1, "sparse");
	/* the model is still the word after the colon */
	assert_int_equal(wn_attribution_parse("Claude:claude-opus-4-7 [Claude Code]", &a), WN_OK);
	assert_string_equal(a.agent, "Claude");
	assert_string_equal(a.model, "claude-opus-4-7");
	wn_attribution_clear(&a);
}

/* One key for every spelling of a model: lower
 * case; numbers joined by one '-', '.' or '_' are one version, written
 * with dots; the name's words first, then its versions; a context size
 * (1m, 200k) and a date stamp (4+ digits) are dropped. */
static void check_key(const char *model, const char *key)
{
	char out[WN_MODEL_KEY_MAX];

	assert_true(wn_model_key(model, out, sizeof(out)));
	assert_string_equal(out, key);
}

static void test_model_key(void **state)
{
	char out[WN_MODEL_KEY_MAX], big[300];

	(void) state;
	check_key("claude-opus-4-7", "claude-opus-4.7");
	check_key("claude-opus-4.7", "claude-opus-4.7");
	check_key("claude-4.6-opus", "claude-opus-4.6");
	check_key("claude-opus-4.6-1m", "claude-opus-4.6");
	check_key("claude-opus-4-6[1m]", "claude-opus-4.6");
	check_key("Claude_Opus_4_6", "claude-opus-4.6");
	check_key("claude-sonnet-4-5-20250929", "claude-sonnet-4.5");
	check_key("claude-3-5-sonnet-20241022", "claude-sonnet-3.5");
	check_key("gpt-4-0613", "gpt-4");
	check_key("gpt-4.1", "gpt-4.1");
	check_key("gpt-4o", "gpt-4o");
	check_key("o3", "o3");
	check_key("Gemini-3-Flash", "gemini-flash-3");
	check_key("gemini-flash-3", "gemini-flash-3");
	check_key("phi-3-mini-128k", "phi-mini-3");
	check_key("qwen3-235b", "qwen3-235b");
	/* only what is dropped otherwise: kept */
	check_key("1m", "1m");
	check_key("20250929", "20250929");
	/* a control character or any other punctuation separates words */
	check_key("claude\001opus 4_7", "claude-opus-4.7");
	/* different models stay apart */
	check_key("claude-opus-4-1", "claude-opus-4.1");
	check_key("claude-sonnet-4.6", "claude-sonnet-4.6");
	/* nothing to key */
	assert_false(wn_model_key(NULL, out, sizeof(out)));
	assert_false(wn_model_key("", out, sizeof(out)));
	assert_string_equal(out, "");
	assert_false(wn_model_key("-._[]", out, sizeof(out)));
	assert_false(wn_model_key("x", out, 0));
	/* bounded: cut to the buffer, many versions and words alike */
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_true(wn_model_key(big, out, 16));
	assert_int_equal(strlen(out), 15);
	for (size_t i = 0; i + 1 < sizeof(big); i++)
		big[i] = i % 2 ? '-' : (char) ('1' + i % 9);
	assert_true(wn_model_key(big, out, sizeof(out)));
	assert_true(strlen(out) < sizeof(out));
	for (size_t i = 0; i + 1 < sizeof(big); i++)
		big[i] = i % 2 ? ' ' : 'w';
	assert_true(wn_model_key(big, out, sizeof(out)));
	assert_true(strlen(out) < sizeof(out));
}

static void check_other(const char *value, const char *raw)
{
	wn_attribution a;

	assert_int_equal(wn_attribution_parse(value, &a), WN_OK);
	assert_int_equal(a.status, WN_ATTR_OTHER);
	assert_non_null(a.raw);
	assert_string_equal(a.raw, raw);
	assert_null(a.agent);
	assert_null(a.model);
	assert_int_equal(a.ntools, 0);
	wn_attribution_clear(&a);
	assert_int_equal(a.status, WN_ATTR_NONE);
	assert_null(a.raw);
}

static void test_other(void **state)
{
	wn_patch_trailers *t;

	(void) state;
	check_other("Claude", "Claude");
	check_other("gpt (o3)", "gpt (o3)");
	check_other("", "");
	check_other("   ", "");
	check_other("https://example.org/tool", "https://example.org/tool");
	check_other("Claude: claude-opus-4-5", "Claude: claude-opus-4-5");
	check_other(":model", ":model");
	check_other("Coding", "Coding");
	check_other("LLMs helped", "LLMs helped");

	/* empty value in a real block */
	t = parse("Body.\n\nAssisted-by:\nSigned-off-by: A <a@x>\n" DIFF);
	assert_int_equal(t->ntrailers, 2);
	assert_trailer(t, 0, "Assisted-by", "");
	assert_int_equal(t->attr.status, WN_ATTR_OTHER);
	assert_string_equal(t->attr.raw, "");
	wn_trailers_free(&t);

	t = parse("Body.\n\nAssisted-by: Claude\n" DIFF);
	assert_int_equal(t->attr.status, WN_ATTR_OTHER);
	assert_string_equal(t->attr.raw, "Claude");
	wn_trailers_free(&t);
}

static void test_none_and_first_wins(void **state)
{
	wn_patch_trailers *t;
	wn_attribution a;

	(void) state;
	t = parse("Body.\n\nSigned-off-by: A <a@x>\n" DIFF);
	assert_int_equal(t->attr.status, WN_ATTR_NONE);
	assert_null(t->attr.raw);
	wn_trailers_free(&t);

	t = parse("Body.\n\nAssisted-by: LLM\nAssisted-by: Claude:claude-opus-4-5\n" DIFF);
	assert_int_equal(t->attr.status, WN_ATTR_GENERIC);
	wn_trailers_free(&t);

	assert_int_equal(wn_attribution_parse(NULL, &a), WN_OK);
	assert_int_equal(a.status, WN_ATTR_NONE);
	assert_null(a.raw);
	wn_attribution_clear(&a);
}

static void test_continuation(void **state)
{
	wn_patch_trailers *t;

	(void) state;
	t = parse("Body.\n"
		  "\n"
		  "Reported-by: Some Reporter\n"
		  "  <reporter@example.org>\n"
		  "Closes: https://lore.kernel.org/all/\n"
		  "\tabc@example.org/\n"
		  "Signed-off-by: A <a@x>\n"
		  DIFF);
	assert_int_equal(t->ntrailers, 3);
	assert_trailer(t, 0, "Reported-by", "Some Reporter <reporter@example.org>");
	assert_trailer(t, 1, "Closes", "https://lore.kernel.org/all/ abc@example.org/");
	assert_trailer(t, 2, "Signed-off-by", "A <a@x>");
	wn_trailers_free(&t);
}

static void test_codev(void **state)
{
	wn_patch_trailers *t;

	(void) state;
	t = parse("Body.\n\n"
		  "Co-developed-by: Jane Doe <jane@example.org>\n"
		  "Signed-off-by: Jane  Doe <JANE@example.org>\n"
		  "Signed-off-by: Some Author <author@example.org>\n" DIFF);
	assert_false(t->codev_unsigned);
	assert_string_equal(t->submitter, "Some Author <author@example.org>");
	wn_trailers_free(&t);

	/* SoB of someone else next */
	t = parse("Body.\n\n"
		  "Co-developed-by: Jane Doe <jane@example.org>\n"
		  "Signed-off-by: Some Author <author@example.org>\n" DIFF);
	assert_true(t->codev_unsigned);
	wn_trailers_free(&t);

	/* the right SoB, but not right after */
	t = parse("Body.\n\n"
		  "Co-developed-by: Jane Doe <jane@example.org>\n"
		  "Reviewed-by: R <r@x>\n"
		  "Signed-off-by: Jane Doe <jane@example.org>\n" DIFF);
	assert_true(t->codev_unsigned);
	wn_trailers_free(&t);

	/* last trailer of the block */
	t = parse("Body.\n\n"
		  "Signed-off-by: Jane Doe <jane@example.org>\n"
		  "co-developed-by: Jane Doe <jane@example.org>\n" DIFF);
	assert_true(t->codev_unsigned);
	wn_trailers_free(&t);
}

static void test_no_divider(void **state)
{
	wn_patch_trailers *t;

	(void) state;
	/* No "---": the diff itself ends the message, and the
	 * Signed-off-by added inside the diff is not a trailer. */
	t = parse("Body.\n"
		  "\n"
		  "Signed-off-by: A <a@x>\n"
		  "\n"
		  "diff --git a/x b/x\n"
		  "--- a/x\n"
		  "+++ b/x\n"
		  "+Signed-off-by: B <b@x>\n");
	assert_int_equal(t->ntrailers, 1);
	assert_string_equal(t->submitter, "A <a@x>");
	wn_trailers_free(&t);

	/* No divider and no diff: the whole body */
	t = parse("Body.\n\nAcked-by: X <x@y>\nSigned-off-by: A <a@x>");
	assert_int_equal(t->ntrailers, 2);
	assert_trailer(t, 1, "Signed-off-by", "A <a@x>");
	wn_trailers_free(&t);
}

static void test_no_trailers(void **state)
{
	wn_patch_trailers *t;

	(void) state;
	t = parse("Just a commit message.\n" DIFF);
	assert_int_equal(t->ntrailers, 0);
	assert_null(t->trailers);
	assert_int_equal(t->attr.status, WN_ATTR_NONE);
	assert_null(t->submitter);
	assert_false(t->codev_unsigned);
	wn_trailers_free(&t);

	/* trailers, but not in the last paragraph */
	t = parse("Signed-off-by: A <a@x>\n\nMore text after.\n" DIFF);
	assert_int_equal(t->ntrailers, 0);
	wn_trailers_free(&t);

	t = parse("");
	assert_int_equal(t->ntrailers, 0);
	wn_trailers_free(&t);
	t = parse(NULL);
	assert_int_equal(t->ntrailers, 0);
	wn_trailers_free(&t);
	t = parse("\n\n---\n");
	assert_int_equal(t->ntrailers, 0);
	wn_trailers_free(&t);
}

static void test_git_block_rules(void **state)
{
	wn_patch_trailers *t;

	(void) state;
	/* Only trailers in the body: the Subject is the title. */
	t = parse("Signed-off-by: A <a@x>\n" DIFF);
	assert_int_equal(t->ntrailers, 1);
	wn_trailers_free(&t);

	/* A free-text line in the block is tolerated next to a
	 * Signed-off-by when at least 25% of the lines are trailers... */
	t = parse("Body.\n\n"
		  "Acked-by: B <b@x>\n"
		  "[ v2: rebased ]\n"
		  "Signed-off-by: A <a@x>\n" DIFF);
	assert_int_equal(t->ntrailers, 2);
	assert_trailer(t, 0, "Acked-by", "B <b@x>");
	assert_trailer(t, 1, "Signed-off-by", "A <a@x>");
	wn_trailers_free(&t);

	/* ...but without one of git's own trailers it is prose. */
	t = parse("Body.\n\n"
		  "Acked-by: B <b@x>\n"
		  "[ v2: rebased ]\n" DIFF);
	assert_int_equal(t->ntrailers, 0);
	wn_trailers_free(&t);

	/* Under 25%: prose. */
	t = parse("Body.\n\n"
		  "This paragraph\nhas three lines\nof prose and\n"
		  "Signed-off-by: A <a@x>\n" DIFF);
	assert_int_equal(t->ntrailers, 1);	/* 1 of 4 is exactly 25% */
	wn_trailers_free(&t);
	t = parse("Body.\n\n"
		  "This paragraph\nhas four lines\nof prose and\nmore\n"
		  "Signed-off-by: A <a@x>\n" DIFF);
	assert_int_equal(t->ntrailers, 0);
	wn_trailers_free(&t);

	/* Blank lines and comments at the end, blanks before the key's
	 * colon, a prose line with a colon */
	t = parse("Body: with colon\nand more\n\n"
		  "Fixes : 0123456789ab (\"subsys: old\")\n"
		  "Cc: stable@vger.kernel.org # 6.1+\n"
		  "# a comment line\n"
		  "\n\n" DIFF);
	assert_int_equal(t->ntrailers, 2);
	assert_trailer(t, 0, "Fixes", "0123456789ab (\"subsys: old\")");
	assert_trailer(t, 1, "Cc", "stable@vger.kernel.org # 6.1+");
	wn_trailers_free(&t);

	/* "--- " plus text is where git am stops too */
	t = parse("Body.\n\nSigned-off-by: A <a@x>\n--- a/file.c\n+++ b/file.c\n");
	assert_int_equal(t->ntrailers, 1);
	wn_trailers_free(&t);
}

static void test_names(void **state)
{
	(void) state;
	assert_string_equal(wn_attr_name(WN_ATTR_NONE), "none");
	assert_string_equal(wn_attr_name(WN_ATTR_MODEL), "model");
	assert_string_equal(wn_attr_name(WN_ATTR_GENERIC), "generic");
	assert_string_equal(wn_attr_name(WN_ATTR_OTHER), "other");
	assert_string_equal(wn_attr_badge(WN_ATTR_MODEL), "M");
	assert_string_equal(wn_attr_badge(WN_ATTR_OTHER), "?");
	assert_string_equal(wn_attr_name((wn_attr_status) 99), "none");
}

static void test_free_null(void **state)
{
	wn_patch_trailers *t = NULL;

	(void) state;
	wn_trailers_free(&t);
	wn_trailers_free(NULL);
	wn_attribution_clear(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_generic),
		cmocka_unit_test(test_lowercase_model),
		cmocka_unit_test(test_other),
		cmocka_unit_test(test_tools_free_text),
		cmocka_unit_test(test_tools_bracketed),
		cmocka_unit_test(test_model_key),
		cmocka_unit_test(test_none_and_first_wins),
		cmocka_unit_test(test_continuation),
		cmocka_unit_test(test_codev),
		cmocka_unit_test(test_no_divider),
		cmocka_unit_test(test_no_trailers),
		cmocka_unit_test(test_git_block_rules),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_free_null),
	};

	return cmocka_run_group_tests_name("trailer", tests, NULL, NULL);
}
