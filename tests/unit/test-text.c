/* winnow — unit tests of the text helpers, above all the sanitiser that
 * stands between hostile mail and the terminal. */
#include "autoconfig.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "winnow/text.h"

/* Sanitise n bytes (embedded NULs allowed) and compare. */
static void check_n(const char *in, size_t n, unsigned flags, const char *want)
{
	wn_buf b = WN_BUF_INIT;

	assert_int_equal(wn_text_sanitize_buf(&b, in, n, flags), WN_OK);
	assert_string_equal(wn_buf_str(&b), want);
	wn_buf_free(&b);
}

static void check(const char *in, unsigned flags, const char *want)
{
	check_n(in, strlen(in), flags, want);
}

#define KEEP (WN_TEXT_KEEP_NEWLINE | WN_TEXT_KEEP_TAB)

/* One rule for "is this a reply?": the places
 * that asked it disagreed about "Aw:". */
static void test_reply_marker(void **state)
{
	(void) state;
	assert_int_equal(wn_text_reply_marker("Re: [PATCH] x"), 3);
	assert_int_equal(wn_text_reply_marker("RE: x"), 3);
	assert_int_equal(wn_text_reply_marker("  Aw: [PATCHv3 1/7] x"), 5);
	assert_int_equal(wn_text_reply_marker("SV: x"), 3);
	assert_int_equal(wn_text_reply_marker("Antw: x"), 5);
	assert_int_equal(wn_text_reply_marker("[PATCH] re: x"), 0);
	assert_int_equal(wn_text_reply_marker("Fwd: x"), 0);
	assert_int_equal(wn_text_reply_marker("Reply to x"), 0);
	assert_int_equal(wn_text_reply_marker(NULL), 0);
	assert_true(wn_text_is_reply("aw: x"));
	assert_false(wn_text_is_reply("[PATCH v2 1/3] x"));
}

static void test_plain_passes(void **state)
{
	(void) state;
	check("hello, world", 0, "hello, world");
	check("", 0, "");
	check("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7 \xc2\xb7", 0,
	      "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7 \xc2\xb7");
	check("~!@#$%^&*()_+{}|:\"<>?[]\\;',./`", 0, "~!@#$%^&*()_+{}|:\"<>?[]\\;',./`");
}

static void test_newline_tab(void **state)
{
	(void) state;
	check("a\nb\tc", KEEP, "a\nb\tc");
	check("a\nb\tc", 0, "a b c");
	check("a\nb\tc", WN_TEXT_KEEP_NEWLINE, "a\nb c");
	check("a\nb\tc", WN_TEXT_KEEP_TAB, "a b\tc");
	/* CRLF is one line break; a lone CR is dropped (it would let text
	 * overwrite the start of the line) and leaves a space, so the words
	 * on either side stay apart. */
	check("a\r\nb", 0, "a b");
	check("a\r\nb", KEEP, "a\nb");
	check("safe\rEVIL", KEEP, "safe EVIL");
	check("the function.\rCallers", 0, "the function. Callers");
	/* No second space where one is already, none before a line end,
	 * at the start or at the end. */
	check("a \rb", 0, "a b");
	check("a\r b", 0, "a b");
	check("a\r\r\r\n", KEEP, "a\n");
	check("\rx\r", 0, "x");
}

static void test_c0_del(void **state)
{
	char in[40], want[8];
	size_t n = 0;
	int c;

	(void) state;
	for (c = 0; c < 0x20; c++)
		if (c != '\n' && c != '\t' && c != 0x1b)
			in[n++] = (char) c;
	in[n++] = 0x7f;
	in[n++] = 'x';
	strcpy(want, "x");
	check_n(in, n, KEEP, want);
	check_n("a\0b", 3, 0, "a b");
	check("bell\a", 0, "bell");
	check("back\bspace", 0, "back space");
	check("caf\xc3\xa9\b\xc3\xa9", 0, "caf\xc3\xa9 \xc3\xa9");
}

static void test_c1(void **state)
{
	(void) state;
	/* C1 as UTF-8: U+0085 NEL, U+0080 */
	check("a\xc2\x85" "b\xc2\x80" "c", 0, "a b c");
	/* 8-bit CSI U+009B with its parameters */
	check("a\xc2\x9b" "31mred", 0, "ared");
	/* 8-bit OSC U+009D ... ST U+009C */
	check("a\xc2\x9d" "0;pwned\xc2\x9c" "b", 0, "ab");
	/* Raw 0x80..0x9F bytes are invalid UTF-8, never C1 controls. */
	check("a\x9b" "31mb", 0, "a\xef\xbf\xbd" "31mb");
	check("\x85", 0, "\xef\xbf\xbd");
}

static void test_csi(void **state)
{
	(void) state;
	check("\x1b[31mred\x1b[0m", 0, "red");
	check("\x1b[2J\x1b[H" "clear", 0, "clear");
	check("a\x1b[?1049hb", 0, "ab");
	check("a\x1b[1;2;3 qb", 0, "ab");	/* intermediate byte */
	/* A broken CSI ends at the first byte that cannot belong to it
	 * and does not eat the newline. */
	check("a\x1b[12\nb", KEEP, "a\nb");
	check("a\x1b[", 0, "a");
}

static void test_osc(void **state)
{
	(void) state;
	/* Window title: the payload must go too. */
	check("a\x1b]0;pwned\x07" "b", 0, "ab");
	check("a\x1b]2;pwned\x1b\\b", 0, "ab");
	/* OSC 8 hyperlink */
	check("\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\", 0, "click");
	/* OSC 52 clipboard write */
	check("x\x1b]52;c;cm0gLXJmIH4K\x07y", 0, "xy");
	/* Unterminated: dropped to the end of the line, not beyond. */
	check("a\x1b]0;pwned\nnext line", KEEP, "a\nnext line");
	check("a\x1b]0;pwned", 0, "a");
	/* An ESC inside the payload ends it and is a sequence itself. */
	check("a\x1b]0;t\x1b[31mb", 0, "ab");
}

static void test_dcs_sos_pm_apc(void **state)
{
	(void) state;
	check("a\x1bPq#0;2;0;0;0\x1b\\b", 0, "ab");	/* DCS (sixel) */
	check("a\x1bXsos\x1b\\b", 0, "ab");
	check("a\x1b^pm\x1b\\b", 0, "ab");
	check("a\x1b_apc\x1b\\b", 0, "ab");
	check("a\x1bPunterminated\nb", KEEP, "a\nb");
	check("a\xc2\x90" "dcs\xc2\x9c" "b", 0, "ab");
	check("a\xc2\x9f" "apc\x07" "b", 0, "ab");
}

static void test_two_byte_escapes(void **state)
{
	(void) state;
	check("a\x1b" "cb", 0, "ab");		/* RIS: full reset */
	check("a\x1b" "7b\x1b" "8", 0, "ab");	/* save/restore cursor */
	check("a\x1b(0b", 0, "ab");		/* DEC line drawing */
	check("a\x1b#8" "b", 0, "ab");		/* DECALN */
	check("a\x1b", 0, "a");
	check("a\x1b\x1b[1mb", 0, "ab");
	/* ESC before a non-ASCII char: only the ESC goes. */
	check("a\x1b\xc3\xa9", 0, "a\xc3\xa9");
	check("a\x1b\nb", KEEP, "a\nb");
}

static void test_invalid_utf8(void **state)
{
	(void) state;
	/* Overlong encodings */
	check("\xc0\xaf", 0, "\xef\xbf\xbd\xef\xbf\xbd");
	check("\xc1\x9b", 0, "\xef\xbf\xbd\xef\xbf\xbd");
	check("\xe0\x80\xaf", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	check("\xf0\x80\x80\xaf", 0,
	      "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	/* Overlong ESC must not become an ESC. */
	check("\xc0\x9b[31m", 0, "\xef\xbf\xbd\xef\xbf\xbd[31m");
	/* Surrogates */
	check("\xed\xa0\x80", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	/* Above U+10FFFF, F5..FF */
	check("\xf4\x90\x80\x80", 0,
	      "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	check("\xff\xfe", 0, "\xef\xbf\xbd\xef\xbf\xbd");
	/* Truncated sequence: one U+FFFD for the maximal subpart. */
	check("a\xe2\x82" "b", 0, "a\xef\xbf\xbd" "b");
	check("a\xe2\x82", 0, "a\xef\xbf\xbd");
	check("\xf0\x9f\x90", 0, "\xef\xbf\xbd");
	/* Latin-1 bytes in a UTF-8 context */
	check("caf\xe9", 0, "caf\xef\xbf\xbd");
	/* Highest valid scalar passes. */
	check("\xf4\x8f\xbf\xbf", 0, "\xf4\x8f\xbf\xbf");
}

static void test_bidi(void **state)
{
	(void) state;
	/* RLO ... PDF (Trojan Source), isolates, marks */
	check("a\xe2\x80\xae" "cba\xe2\x80\xac" "d", 0, "acbad");
	check("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xad" "x", 0, "x");
	check("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9" "y", 0, "y");
	check("\xe2\x80\x8e\xe2\x80\x8f" "z", 0, "z");
	/* Neighbours of the ranges stay. */
	check("\xe2\x80\xa9\xe2\x80\xaf", 0, "\xe2\x80\xa9\xe2\x80\xaf");
}

static void test_sanitize_appends(void **state)
{
	wn_buf b = WN_BUF_INIT;
	char *s;

	(void) state;
	assert_int_equal(wn_buf_puts(&b, "pre:"), WN_OK);
	assert_int_equal(wn_text_sanitize_buf(&b, "\x1b[1mx", 5, 0), WN_OK);
	assert_string_equal(wn_buf_str(&b), "pre:x");
	wn_buf_free(&b);

	s = wn_text_sanitize(NULL, 0);
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
	s = wn_text_sanitize("t\x1b]0;x\x07" "ok", 0);
	assert_string_equal(s, "tok");
	free(s);
}

static void test_sanitize_large_linear(void **state)
{
	/* Many unterminated OSCs, each ending its line: must stay fast and
	 * keep every line. */
	size_t lines = 100000, i;
	wn_buf in = WN_BUF_INIT, out = WN_BUF_INIT;
	size_t nl = 0;

	(void) state;
	for (i = 0; i < lines; i++)
		assert_int_equal(wn_buf_puts(&in, "ok\x1b]0;aaaaaaaaaaaaaaaa\n"), WN_OK);
	assert_int_equal(wn_text_sanitize_buf(&out, in.data, in.len, KEEP), WN_OK);
	for (i = 0; i < out.len; i++)
		nl += out.data[i] == '\n';
	assert_int_equal(nl, lines);
	assert_int_equal(out.len, lines * 3);
	wn_buf_free(&in);
	wn_buf_free(&out);
}

static void test_header_safe(void **state)
{
	char *s;

	(void) state;
	s = wn_text_header_safe("  Re: [PATCH]\r\n\tfolded\nsubject \x1b[31m ");
	assert_string_equal(s, "Re: [PATCH] folded subject");
	assert_null(strpbrk(s, "\r\n\t"));
	free(s);
	s = wn_text_header_safe("a\rb");
	assert_string_equal(s, "a b");
	free(s);
	s = wn_text_header_safe("x\nBcc: victim@example.org");
	assert_null(strpbrk(s, "\r\n"));
	assert_string_equal(s, "x Bcc: victim@example.org");
	free(s);
	s = wn_text_header_safe("keep  two");
	assert_string_equal(s, "keep  two");
	free(s);
	s = wn_text_header_safe(NULL);
	assert_string_equal(s, "");
	free(s);
	s = wn_text_header_safe("a\xc2\x85" "b");	/* NEL */
	assert_string_equal(s, "a b");	/* a line break: a space */
	free(s);
}

static void test_normalize(void **state)
{
	char *s;

	(void) state;
	s = wn_text_normalize("  Use-After-FREE\tin\n\n foo()  ");
	assert_string_equal(s, "use-after-free in foo()");
	free(s);
	s = wn_text_normalize("");
	assert_string_equal(s, "");
	free(s);
	s = wn_text_normalize(NULL);
	assert_string_equal(s, "");
	free(s);
	s = wn_text_normalize("\xc3\x89T\xc3\xa9");	/* non-ASCII untouched */
	assert_string_equal(s, "\xc3\x89t\xc3\xa9");
	free(s);
}

static void check_msgid(const char *in, const char *want)
{
	char *s = wn_msgid_canon(in);

	if (!want) {
		assert_null(s);
		return;
	}
	assert_non_null(s);
	assert_string_equal(s, want);
	free(s);
}

static void test_msgid(void **state)
{
	(void) state;
	check_msgid("<20250101.abc@example.org>", "20250101.abc@example.org");
	check_msgid("20250101.abc@example.org", "20250101.abc@example.org");
	check_msgid("id:20250101.abc@example.org", "20250101.abc@example.org");
	check_msgid("id:<x@y>", "x@y");
	check_msgid("ID:x@y", "x@y");
	check_msgid("id:\"x@y\"", "x@y");
	check_msgid("  <x@y>\n", "x@y");
	check_msgid("", NULL);
	check_msgid("   ", NULL);
	check_msgid("<>", NULL);
	check_msgid("id:", NULL);
	check_msgid(NULL, NULL);
	check_msgid("<x y@z>", NULL);
	check_msgid("<x\ty@z>", NULL);
	/* A hostile mail's id holds control characters and is its id all
	 * the same: taken as it is (output escapes it). */
	check_msgid("x\x1b@z", "x\x1b@z");
	check_msgid("x\x7f@z", "x\x7f@z");
}

static void check_escape(const char *id, const char *shown)
{
	char *e = wn_msgid_escape(id), *back = wn_msgid_unescape(e);

	assert_string_equal(e, shown);
	if (strcmp(id, shown) == 0) {
		assert_null(back);	/* nothing to take back */
	} else {
		assert_non_null(back);
		assert_string_equal(back, id);
	}
	free(e);
	free(back);
}

static void test_msgid_escape(void **state)
{
	(void) state;
	check_escape("plain.1@example.org", "plain.1@example.org");
	check_escape("ctl\x1b[31m\x07@x", "ctl\\x1b[31m\\x07@x");
	check_escape("bidi\xe2\x80\xae@x", "bidi\\xe2\\x80\\xae@x");
	check_escape("back\\slash@x", "back\\x5cslash@x");
	/* Not an escape: \x without two hex digits, and \x00. */
	{
		char *u = wn_msgid_unescape("a\\xZZ\\x00\\x4@b");
		assert_string_equal(u, "a\\xZZ\\x00\\x4@b");
		free(u);
	}
}

static void test_small_helpers(void **state)
{
	char buf[32];
	char *s;

	(void) state;
	strcpy(buf, " \t x y \n");
	assert_string_equal(wn_text_trim(buf), "x y");
	strcpy(buf, "   ");
	assert_string_equal(wn_text_trim(buf), "");
	assert_null(wn_text_trim(NULL));
	assert_true(wn_text_prefix_ci("Signed-off-by: x", "signed-OFF-by:"));
	assert_false(wn_text_prefix_ci("Sig", "signed"));
	assert_false(wn_text_prefix_ci(NULL, "x"));
	assert_true(wn_text_prefix_ci("x", ""));
	assert_null(wn_strdup0(NULL));
	s = wn_strdup0("abc");
	assert_string_equal(s, "abc");
	free(s);
	s = wn_strndup("abcdef", 3);
	assert_string_equal(s, "abc");
	free(s);
	s = wn_strndup("", 0);
	assert_string_equal(s, "");
	free(s);
}

/* Wrapping counts code points, not bytes; a break starts the next line
 * with the continuation prefix; a line break in the text stays one. */
/* Search in any case, UTF-8 aware and without a locale (
 * "/Weißschuh" and "/thomas" must find their rows). */
static void test_find_ci(void **state)
{
	(void) state;
	assert_true(wn_text_find_ci("Thomas Weißschuh <t@example.org>", "thomas"));
	assert_true(wn_text_find_ci("Thomas Weißschuh <t@example.org>", "Weißschuh"));
	assert_true(wn_text_find_ci("Thomas Weißschuh <t@example.org>", "WEIẞSCHUH"));
	assert_true(wn_text_find_ci("J\xc3\xb6" "rg Beispiel", "J\xc3\x96" "RG"));
	assert_true(wn_text_find_ci("\xc3\x89mile \xc5\x81" "ukasz", "\xc5\x82" "uk"));
	assert_true(wn_text_find_ci("\xd0\x98\xd0\xb2\xd0\xb0\xd0\xbd", "\xd0\xb8\xd0\xb2"));
	assert_true(wn_text_find_ci("anything", ""));
	assert_true(wn_text_find_ci("abc", "abc"));
	assert_false(wn_text_find_ci("abc", "abcd"));
	assert_false(wn_text_find_ci("Jorg", "j\xc3\xb6" "rg"));
	assert_false(wn_text_find_ci("Thomas", "thomax"));
	/* Broken UTF-8 is compared byte for byte, never read past. */
	assert_true(wn_text_find_ci("a\xff\xfe" "b", "\xff\xfe" "B"));
	assert_false(wn_text_find_ci("\xc3", "\xc3\xb6"));
	assert_false(wn_text_find_ci(NULL, "a"));
	assert_false(wn_text_find_ci("a", NULL));
}

static void test_wrap(void **state)
{
	wn_buf b = WN_BUF_INIT;
	size_t col;

	(void) state;
	assert_int_equal(wn_text_wrap(&b, "- ", "  ", "aaa bbb ccc ddd", 9, &col), WN_OK);
	assert_string_equal(b.data, "- aaa bbb\n  ccc ddd");
	assert_int_equal(col, 9);
	wn_buf_free(&b);
	/* "ääää" is 8 bytes and 4 columns: it fits beside "x". */
	assert_int_equal(wn_text_wrap(&b, "", "", "x \xc3\xa4\xc3\xa4\xc3\xa4\xc3\xa4", 6, &col), WN_OK);
	assert_string_equal(b.data, "x \xc3\xa4\xc3\xa4\xc3\xa4\xc3\xa4");
	wn_buf_free(&b);
	assert_int_equal(wn_text_wrap(&b, "> ", "", "one\ntwo  three\n", 72, &col), WN_OK);
	assert_string_equal(b.data, "> one\ntwo three\n");
	assert_int_equal(col, 0);
	wn_buf_free(&b);
	/* A word longer than the width stands alone, unbroken. */
	assert_int_equal(wn_text_wrap(&b, "", "", "a abcdefghij b", 4, &col), WN_OK);
	assert_string_equal(b.data, "a\nabcdefghij\nb");
	wn_buf_free(&b);
	/* The printf form of strdup. */
	char *f = wn_strdupf("%s-%d", "v", 3);
	assert_string_equal(f, "v-3");
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reply_marker),
		cmocka_unit_test(test_plain_passes),
		cmocka_unit_test(test_newline_tab),
		cmocka_unit_test(test_c0_del),
		cmocka_unit_test(test_c1),
		cmocka_unit_test(test_csi),
		cmocka_unit_test(test_osc),
		cmocka_unit_test(test_dcs_sos_pm_apc),
		cmocka_unit_test(test_two_byte_escapes),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_bidi),
		cmocka_unit_test(test_sanitize_appends),
		cmocka_unit_test(test_sanitize_large_linear),
		cmocka_unit_test(test_header_safe),
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_msgid),
		cmocka_unit_test(test_msgid_escape),
		cmocka_unit_test(test_small_helpers),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_find_ci),
	};

	return cmocka_run_group_tests_name("text", tests, NULL, NULL);
}
