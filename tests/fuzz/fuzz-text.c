/* winnow — libFuzzer target: the text helpers.  Besides "no crash", it
 * checks the promise text.h makes: nothing that reaches a terminal
 * after wn_text_sanitize_buf() can control it. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Independent of text.c on purpose: a strict UTF-8 walk that also
 * rejects the code points the sanitiser must have removed. */
static void check_safe(const unsigned char *s, size_t n, unsigned flags)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = s[i];
		uint32_t cp;
		size_t len, k;

		if (c < 0x80) {
			if (c == '\n' && (flags & WN_TEXT_KEEP_NEWLINE)) {
				i++;
				continue;
			}
			if (c == '\t' && (flags & WN_TEXT_KEEP_TAB)) {
				i++;
				continue;
			}
			if (c < 0x20 || c == 0x7f)
				abort();
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			len = 2;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			len = 3;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			len = 4;
			cp = c & 0x07;
		} else {
			abort();
		}
		if (i + len > n)
			abort();
		for (k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				abort();
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
			abort();	/* overlong */
		if (cp >= 0xd800 && cp <= 0xdfff)
			abort();	/* surrogate */
		if (cp >= 0x80 && cp <= 0x9f)
			abort();	/* C1 */
		if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
		    cp == 0x200e || cp == 0x200f)
			abort();	/* bidi */
		i += len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	wn_buf b = WN_BUF_INIT;
	unsigned flags = size ? data[0] & 3 : 0;
	char *z, *s;

	if (wn_text_sanitize_buf(&b, (const char *) data, size, flags) == WN_OK)
		check_safe((const unsigned char *) wn_buf_str(&b), b.len, flags);
	wn_buf_free(&b);

	/* The NUL-terminated entry points see the input up to its first NUL. */
	z = malloc(size + 1);
	if (!z)
		return 0;
	memcpy(z, data, size);
	z[size] = '\0';

	s = wn_text_header_safe(z);
	if (s) {
		if (strpbrk(s, "\r\n\t"))
			abort();
		check_safe((const unsigned char *) s, strlen(s), 0);
		if (*s && (s[0] == ' ' || s[strlen(s) - 1] == ' '))
			abort();
	}
	free(s);
	s = wn_text_normalize(z);
	if (s && (strstr(s, "  ") || strpbrk(s, "\t\n\r")))
		abort();
	free(s);
	/* A canonical id is never empty and holds no whitespace (a hostile
	 * mail's control characters are its id all the same); its escaped
	 * form is printable ASCII and unescapes back to it. */
	s = wn_msgid_canon(z);
	if (s) {
		char *e = wn_msgid_escape(s), *back = e ? wn_msgid_unescape(e) : NULL;

		if (!*s || strpbrk(s, " \t\r\n\f\v"))
			abort();
		for (const char *p = e; p && *p; p++)
			if ((unsigned char) *p <= 0x20 || (unsigned char) *p >= 0x7f)
				abort();
		if (e && strcmp(e, s) != 0 && (!back || strcmp(back, s) != 0))
			abort();
		free(back);
		free(e);
	}
	free(s);
	s = wn_text_sanitize(z, WN_TEXT_KEEP_NEWLINE);
	free(s);
	free(z);
	return 0;
}
