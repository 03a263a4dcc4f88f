/* winnow — text helpers: sanitising untrusted mail text, normalising,
 * Message-ID handling.  Everything that came from a mail is hostile;
 * these are the only gates it passes on its way to a terminal or to an
 * outgoing header. */
#ifndef WINNOW_TEXT_H
#define WINNOW_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include "winnow/buf.h"

enum {
	WN_TEXT_KEEP_NEWLINE = 1 << 0,	/* keep '\n' (else it becomes a space) */
	WN_TEXT_KEEP_TAB     = 1 << 1,	/* keep '\t' (else it becomes a space) */
};

/* Append s (n bytes, any content) to out so that it is safe to show on a
 * terminal: C0 and C1 controls, DEL and whole escape sequences (CSI, OSC,
 * DCS, ...) are dropped, invalid UTF-8 becomes U+FFFD, and bidirectional
 * override characters are dropped.  A dropped control character (CR,
 * backspace, NEL...) leaves one space between the text around it, so
 * words never run together; CRLF is one line break.  flags:
 * WN_TEXT_KEEP_*. */
wn_status wn_text_sanitize_buf(wn_buf *out, const char *s, size_t n, unsigned flags);
/* Same, into a new malloc'd string (NULL only when out of memory).
 * s may be NULL: gives "". */
char *wn_text_sanitize(const char *s, unsigned flags);

/* A value fit for an outgoing header: sanitised, every CR/LF and tab
 * folded into one space, trimmed.  malloc'd. */
char *wn_text_header_safe(const char *s);

/* Normalised form for matching: ASCII lower case, runs of whitespace
 * collapsed to one space, trimmed.  malloc'd. */
char *wn_text_normalize(const char *s);

/* Message-ID in canonical form: accepts "<x>", "x", "id:x", "id:<x>",
 * surrounding whitespace; returns malloc'd "x", or NULL when empty or
 * when it holds whitespace inside. */
char *wn_msgid_canon(const char *s);

/* A Message-ID as text output shows it: printable ASCII as it is, every
 * other byte (controls, non-ASCII, and the backslash) as \xHH, so that
 * a hostile id is safe on a terminal and can be typed back.  malloc'd. */
char *wn_msgid_escape(const char *id);
/* The reverse, for ids typed back: malloc'd, or NULL when s holds no
 * \xHH escape (then s is meant as it is). */
char *wn_msgid_unescape(const char *s);

/* Is s[0..n) well-formed UTF-8 (no overlong forms, no surrogates)? */
bool wn_text_utf8_valid(const char *s, size_t n);

/* Does hay hold needle, either in any case (UTF-8: the capitals of
 * Latin, Greek and Cyrillic letters fold to small ones, whatever the
 * locale)?  False for NULL. */
bool wn_text_find_ci(const char *hay, const char *needle);

/* Trim ASCII whitespace from both ends, in place; returns s. */
char *wn_text_trim(char *s);

/* Does s start with prefix, ignoring ASCII case? */
bool wn_text_prefix_ci(const char *s, const char *prefix);

/* The length of the reply marker s starts with, blanks before it
 * included: "Re:" in any case and the forms other languages' mail
 * clients write ("Aw:", "Sv:", "Antw:"); 0 when there is none.  The one
 * rule every "is this a reply?" of winnow asks. */
size_t wn_text_reply_marker(const char *s);
/* Does subject s start with a reply marker? */
bool wn_text_is_reply(const char *s);

/* Free a NULL-terminated vector of strings and the vector (NULL is ok). */
void wn_strv_free(char **v);

/* strdup that tolerates NULL (gives NULL). */
char *wn_strdup0(const char *s);
/* Append first, then the words of s wrapped at width columns (code
 * points) at blanks, each new line begun with rest; a line break in s
 * stays one.  *col: the column the last line ends at (0 after a break). */
wn_status wn_text_wrap(wn_buf *b, const char *first, const char *rest, const char *s,
		       size_t width, size_t *col);
/* A new string printf-formatted; NULL when out of memory. */
char *wn_strdupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *wn_vstrdupf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* Copy of s[0..n) as a C string. */
char *wn_strndup(const char *s, size_t n);

#endif
