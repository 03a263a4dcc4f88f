/* winnow — plain string helpers over (s, n) byte runs, for every file of
 * src/lib.
 *
 * Mail text is not NUL-terminated within its length and may hold NUL
 * bytes, so nothing here stops at one; a NUL reads as a blank, the way
 * the review parsers have always read it.  Only ASCII counts as space,
 * letter or digit, whatever the locale. */
#ifndef WINNOW_STR_H
#define WINNOW_STR_H

#include <stdbool.h>
#include <stddef.h>

/* The byte classes are inline: the parsers ask them of every byte of
 * every review, and a call per byte was most of words_of()'s time. */

/* ' ', \t, \n, \v, \f, \r or NUL. */
static inline bool str_space(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' ||
	       ch == '\f' || ch == '\0';
}

/* ASCII lower case; other bytes unchanged. */
static inline int str_lower(int ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

/* [A-Za-z0-9_] */
static inline bool str_ident_char(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_';
}
/* Value of a hex digit, -1 for any other byte. */
int wn_str_hex(int ch);

/* Only str_space() bytes (or nothing)? */
bool wn_str_blank(const char *s, size_t n);
/* Drop str_space() bytes from both ends. */
void wn_str_trim(const char **s, size_t *n);
/* Does s start with p (a C string)?  _ci: ignoring ASCII case. */
bool wn_str_prefix(const char *s, size_t n, const char *p);
bool wn_str_prefix_ci(const char *s, size_t n, const char *p);
/* Is s exactly p? */
bool wn_str_eq(const char *s, size_t n, const char *p);
/* First occurrence of needle (a C string) in s; NULL when absent.  _ci:
 * ignoring ASCII case (needles are short constants: linear in n). */
const char *wn_str_find(const char *s, size_t n, const char *needle);
const char *wn_str_find_ci(const char *s, size_t n, const char *needle);
/* Decimal digits at s[*i] into *out, *i moved past them; false when
 * there are none.  Values beyond INT_MAX clamp to it. */
bool wn_str_num(const char *s, size_t n, size_t *i, long *out);

/* The line of text[0..len) that starts at *pos, without its '\n', into
 * *line and *n, and *pos moved past it; false once *pos reaches len (a
 * final '\n' opens no empty line).  The loop every reader of mail text
 * runs:
 *
 *	for (pos = 0; wn_str_next_line(text, len, &pos, &l, &n);)
 */
bool wn_str_next_line(const char *text, size_t len, size_t *pos, const char **line, size_t *n);

/* Is host the domain itself or a host under it ("smtp.kernel.org" for
 * "kernel.org")?  ASCII case ignored; both are C strings. */
bool wn_str_host_in(const char *host, const char *domain);

#endif
