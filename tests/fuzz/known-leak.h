/* winnow — fuzzing: the inputs on which a library winnow links leaks by
 * itself, so that a fuzzer does not report that library's bug as ours.
 *
 * GMime before 3.2.15 (Debian 12 has 3.2.13) leaks the addr-spec it has
 * read when an address whose domain is a literal ("a@[x]") is followed
 * by a comment that never closes ("a@[x] (c"): address_parse() goes to
 * its error label without freeing it (GMime's own commit 6d34651e,
 * "Fixed some memory leaks in address_parse()", mends it in 3.2.15).
 * GMime's message parser reads every address header of every mail, so
 * winnow cannot keep such a header from it, and LeakSanitizer cannot
 * tell that leak from one of ours: GLib has no frame pointers, so both
 * stacks stop at g_realloc(), and a suppression wide enough to name
 * GMime would hide the GMime objects we forget to unref as well.
 *
 * So leak detection is off for such an input alone; every other input
 * keeps it.  The test is wider than the bug: "]", then any blanks or
 * control characters (the lax second parse of mail-fill.c drops
 * controls), then "(", in the raw input or in it with its RFC 2047
 * words decoded.  It misses one way in: a body's in-body "From:" line
 * hidden by base64 or quoted-printable. */
#ifndef WN_FUZZ_KNOWN_LEAK_H
#define WN_FUZZ_KNOWN_LEAK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <glib.h>
#include <gmime/gmime.h>
#include <sanitizer/lsan_interface.h>

/* Whether s[0..n) holds "]", blanks or controls, then "(". */
static bool wn_fuzz_literal_then_comment(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t k;

		if (s[i] != ']')
			continue;
		for (k = i + 1; k < n && ((unsigned char) s[k] <= 0x20 || s[k] == 0x7f); k++)
			;
		if (k < n && s[k] == '(')
			return true;
	}
	return false;
}

/* Whether the pattern is in s[0..n) with its RFC 2047 words decoded,
 * as GMime decodes a header.  Both readings of a control character are
 * tried, as part of the word next to it and as a blank (the lax parse
 * drops it, which may join a word to its neighbour); a NUL would end
 * the text, so it is always a blank. */
static bool wn_fuzz_decoded_literal_then_comment(const char *s, size_t n)
{
	bool hit = false;
	char *text = g_malloc(n + 1), *decoded;

	for (int blank_controls = 0; blank_controls < 2 && !hit; blank_controls++) {
		for (size_t i = 0; i < n; i++) {
			bool control = (unsigned char) s[i] < 0x20 || s[i] == 0x7f;

			text[i] = !s[i] || (blank_controls && control) ? ' ' : s[i];
		}
		text[n] = '\0';
		decoded = g_mime_utils_header_decode_text(NULL, text);
		hit = decoded && wn_fuzz_literal_then_comment(decoded, strlen(decoded));
		g_free(decoded);
	}
	g_free(text);
	return hit;
}

static bool wn_fuzz_gmime_leaks(const uint8_t *data, size_t size)
{
	static int fixed = -1;
	const char *s = (const char *) data;

	if (fixed < 0) {
		g_mime_init();
		fixed = g_mime_check_version(3, 2, 15);
	}
	if (fixed)
		return false;
	return wn_fuzz_literal_then_comment(s, size) ||
	       (memmem(s, size, "=?", 2) && wn_fuzz_decoded_literal_then_comment(s, size));
}

/* Call before running an input, and wn_fuzz_known_leak_end() with its
 * answer after: allocations in between are not reported when the input
 * is one a linked library is known to leak on. */
static bool wn_fuzz_known_leak_begin(const uint8_t *data, size_t size)
{
	if (!wn_fuzz_gmime_leaks(data, size))
		return false;
	__lsan_disable();
	return true;
}

static void wn_fuzz_known_leak_end(bool off)
{
	if (off)
		__lsan_enable();
}

#endif
