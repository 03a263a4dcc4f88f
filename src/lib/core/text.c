/* winnow — text helpers: the terminal-safety gate for untrusted mail
 * text, normalising, Message-ID handling. */
#include "autoconfig.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"
#include "winnow/text.h"

#define ESC 0x1b
#define BEL 0x07

/* U+FFFD REPLACEMENT CHARACTER in UTF-8. */
static const char replacement[] = "\xef\xbf\xbd";

static int is_ascii_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static unsigned char ascii_lower(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') ? (unsigned char) (c + ('a' - 'A')) : c;
}

/* Decode one UTF-8 sequence at s[0..n), n >= 1.  Returns its length and
 * stores the code point in *cp, or returns the length of the maximal
 * ill-formed subpart (at least 1) and stores UINT32_MAX.  Overlong
 * forms, surrogates and values above U+10FFFF are ill-formed (the
 * second-byte ranges below are the Unicode table 3-7). */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;
	uint32_t v;

	*cp = UINT32_MAX;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		v = c & 0x0f;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		v = c & 0x07;
		if (c == 0xf0)
			lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else {
		/* Stray continuation byte, C0/C1 overlong lead, F5..FF. */
		return 1;
	}
	for (i = 1; i < len; i++) {
		if (i >= n || s[i] < lo || s[i] > hi)
			return i;
		v = (v << 6) | (s[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*cp = v;
	return len;
}

/* Characters that reorder or disguise the text around them: the bidi
 * embeddings/overrides/isolates and the implicit direction marks. */
static int is_bidi_control(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

/* The C1 controls (7-bit ESC X or 8-bit U+00XX) that open a control
 * string running until ST. */
static int opens_string(uint32_t c1)
{
	return c1 == 0x90 /* DCS */ || c1 == 0x98 /* SOS */ || c1 == 0x9d /* OSC */ ||
	       c1 == 0x9e /* PM */ || c1 == 0x9f /* APC */;
}

/* Skip the body of a control string (OSC, DCS, SOS, PM, APC) starting
 * at s[i].  It ends at BEL, ESC \ or U+009C (all consumed), before any
 * other ESC (a new sequence starts there) and -- when the terminator is
 * missing -- before the end of the line, so a hostile unterminated OSC
 * cannot swallow the rest of the text.  Returns the index to resume at. */
static size_t skip_string(const unsigned char *s, size_t n, size_t i)
{
	while (i < n) {
		if (s[i] == BEL)
			return i + 1;
		if (s[i] == '\n')
			return i;
		if (s[i] == ESC) {
			if (i + 1 < n && s[i + 1] == '\\')
				return i + 2;
			return i;
		}
		if (s[i] == 0xc2 && i + 1 < n && s[i + 1] == 0x9c)
			return i + 2;
		i++;
	}
	return i;
}

/* Skip a CSI body (parameters 0x30-0x3F, intermediates 0x20-0x2F, one
 * final byte 0x40-0x7E).  Anything else ends the sequence without being
 * consumed, so a broken CSI never eats a newline or real text beyond
 * its own bytes. */
static size_t skip_csi(const unsigned char *s, size_t n, size_t i)
{
	while (i < n && s[i] >= 0x20 && s[i] <= 0x3f)
		i++;
	if (i < n && s[i] >= 0x40 && s[i] <= 0x7e)
		i++;
	return i;
}

/* s[i] is ESC: skip the whole escape sequence it opens. */
static size_t skip_escape(const unsigned char *s, size_t n, size_t i)
{
	unsigned char c;

	i++;
	if (i >= n)
		return i;
	c = s[i];
	switch (c) {
	case '[':
		return skip_csi(s, n, i + 1);
	case ']': case 'P': case 'X': case '^': case '_':
		return skip_string(s, n, i + 1);
	default:
		break;
	}
	/* nF sequences (ESC ( B and friends): intermediates then a final
	 * byte; plain two-byte sequences (ESC c, ESC 7, ESC =) are the
	 * same thing without intermediates. */
	while (i < n && s[i] >= 0x20 && s[i] <= 0x2f)
		i++;
	if (i < n && s[i] >= 0x30 && s[i] <= 0x7e)
		i++;
	return i;
}

/* Is the last byte out holds blank (or is there none), so that a
 * removed control needs no space to keep the words around it apart? */
static int ends_blank(const wn_buf *out, size_t start)
{
	char c;

	if (out->len <= start)
		return 1;
	c = out->data[out->len - 1];
	return c == ' ' || c == '\n' || c == '\t';
}

wn_status wn_text_sanitize_buf(wn_buf *out, const char *str, size_t n, unsigned flags)
{
	const unsigned char *s = (const unsigned char *) str;
	size_t i = 0, run = 0, len, start = out->len;
	/* A control character was removed since the last text: it becomes
	 * one space before the next visible character, so that inert
	 * characters keep their place ("function.\rCallers" reads
	 * "function. Callers", not "function.Callers").  Whole escape
	 * sequences and bidi controls are formatting, not separators: they
	 * go without a trace, as a terminal would show them. */
	int gap = 0;
	uint32_t cp;

	if (!s || !n)
		return out->data ? WN_OK : wn_buf_append(out, "", 0);

/* Safe bytes are copied in runs: one append per run, not per byte. */
#define FLUSH() do {							\
		if (run < i && wn_buf_append(out, str + run, i - run) != WN_OK) \
			return WN_NOMEM;				\
	} while (0)
#define PUT(p, k) do {							\
		if (wn_buf_append(out, (p), (k)) != WN_OK)		\
			return WN_NOMEM;				\
	} while (0)
/* Before visible text: the space a removed control left, if needed. */
#define GAP() do {							\
		if (gap && !ends_blank(out, start))			\
			PUT(" ", 1);					\
		gap = 0;						\
	} while (0)

	while (i < n) {
		unsigned char c = s[i];

		if (c >= 0x20 && c < 0x7f) {
			if (gap) {
				FLUSH();
				run = i;
				if (c != ' ')
					GAP();
				gap = 0;
			}
			i++;
			continue;
		}
		if (c < 0x80) {
			FLUSH();
			if (c == '\n') {
				PUT((flags & WN_TEXT_KEEP_NEWLINE) ? "\n" : " ", 1);
				gap = 0;
			} else if (c == '\t') {
				PUT((flags & WN_TEXT_KEEP_TAB) ? "\t" : " ", 1);
				gap = 0;
			}
			if (c == ESC)
				i = skip_escape(s, n, i);
			else if (c == '\r' && i + 1 < n && s[i + 1] == '\n')
				i++;	/* CRLF: the LF is the line break */
			else if (c != '\n' && c != '\t')
				gap = 1, i++;	/* other C0, CR, DEL: a space */
			else
				i++;
			run = i;
			continue;
		}
		len = utf8_decode(s + i, n - i, &cp);
		if (cp == UINT32_MAX) {
			FLUSH();
			GAP();
			PUT(replacement, 3);
			i += len;
			run = i;
		} else if (cp >= 0x80 && cp <= 0x9f) {
			FLUSH();
			if (cp == 0x9b)
				i = skip_csi(s, n, i + len);
			else if (opens_string(cp))
				i = skip_string(s, n, i + len);
			else
				gap = 1, i += len;	/* NEL and the other C1 */
			run = i;
		} else if (is_bidi_control(cp)) {
			FLUSH();
			i += len;
			run = i;
		} else {
			if (gap) {
				FLUSH();
				run = i;
				GAP();
			}
			i += len;
		}
	}
	FLUSH();
	return out->data ? WN_OK : wn_buf_append(out, "", 0);
#undef FLUSH
#undef PUT
#undef GAP
}

char *wn_text_sanitize(const char *s, unsigned flags)
{
	wn_buf b = WN_BUF_INIT;

	if (wn_text_sanitize_buf(&b, s, s ? strlen(s) : 0, flags) != WN_OK) {
		wn_buf_free(&b);
		return NULL;
	}
	return wn_buf_steal(&b);
}

char *wn_text_header_safe(const char *s)
{
	wn_buf folded = WN_BUF_INIT, out = WN_BUF_INIT;
	size_t i = 0, n = s ? strlen(s) : 0;
	char *r = NULL;

	/* Unfold first: a run of blanks holding a CR, LF or tab is one
	 * folding point and becomes one space; the sanitiser then turns
	 * any that remain into spaces too, so no line break survives. */
	while (i < n) {
		size_t j = i;
		int fold = 0;

		while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n')) {
			if (s[j] != ' ')
				fold = 1;
			j++;
		}
		if (j > i && fold) {
			if (wn_buf_putc(&folded, ' ') != WN_OK)
				goto out;
			i = j;
			continue;
		}
		if (j > i) {
			if (wn_buf_append(&folded, s + i, j - i) != WN_OK)
				goto out;
			i = j;
			continue;
		}
		j = i;
		while (j < n && !(s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n'))
			j++;
		if (wn_buf_append(&folded, s + i, j - i) != WN_OK)
			goto out;
		i = j;
	}
	if (wn_text_sanitize_buf(&out, folded.data, folded.len, 0) != WN_OK)
		goto out;
	r = wn_buf_steal(&out);
	if (r)
		wn_text_trim(r);
out:
	wn_buf_free(&folded);
	wn_buf_free(&out);
	return r;
}

char *wn_text_normalize(const char *s)
{
	size_t n = s ? strlen(s) : 0, i, o = 0;
	int space = 0;
	char *r = malloc(n + 1);

	if (!r)
		return NULL;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char) s[i];

		if (is_ascii_space(c)) {
			space = 1;
			continue;
		}
		if (space && o)
			r[o++] = ' ';
		space = 0;
		r[o++] = (char) ascii_lower(c);
	}
	r[o] = '\0';
	return r;
}

char *wn_msgid_canon(const char *s)
{
	const char *b, *e, *p;

	if (!s)
		return NULL;
	b = s;
	e = s + strlen(s);
	while (b < e && is_ascii_space((unsigned char) *b))
		b++;
	while (e > b && is_ascii_space((unsigned char) e[-1]))
		e--;
	/* notmuch query syntax: id:x, id:<x>, id:"x" */
	if (e - b >= 3 && wn_text_prefix_ci(b, "id:")) {
		b += 3;
		while (b < e && is_ascii_space((unsigned char) *b))
			b++;
		if (e - b >= 2 && *b == '"' && e[-1] == '"') {
			b++;
			e--;
		}
	}
	if (b < e && *b == '<')
		b++;
	if (e > b && e[-1] == '>')
		e--;
	if (b == e)
		return NULL;
	/* Other control characters are a hostile mail's, but its id all
	 * the same: only whitespace (two ids pasted at once) is refused. */
	for (p = b; p < e; p++)
		if (is_ascii_space((unsigned char) *p))
			return NULL;
	return wn_strndup(b, (size_t) (e - b));
}

/* Printable ASCII other than the backslash stands for itself. */
static bool id_plain(unsigned char c)
{
	return c > 0x20 && c < 0x7f && c != '\\';
}

char *wn_msgid_escape(const char *id)
{
	wn_buf b = WN_BUF_INIT;

	for (const unsigned char *p = (const unsigned char *) (id ? id : ""); *p; p++)
		if ((id_plain(*p) ? wn_buf_putc(&b, (char) *p) : wn_buf_printf(&b, "\\x%02x", *p)) != WN_OK) {
			wn_buf_free(&b);
			return NULL;
		}
	return wn_buf_steal(&b);
}

char *wn_msgid_unescape(const char *s)
{
	size_t n = s ? strlen(s) : 0, k = 0;
	char *out;

	if (!s || !strstr(s, "\\x"))
		return NULL;
	if (!(out = malloc(n + 1)))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		int hi, lo;

		if (s[i] == '\\' && s[i + 1] == 'x' && (hi = wn_str_hex(s[i + 2])) >= 0 &&
		    (lo = wn_str_hex(s[i + 3])) >= 0 && (hi || lo)) {
			out[k++] = (char) (hi << 4 | lo);
			i += 3;
		} else {
			out[k++] = s[i];
		}
	}
	out[k] = '\0';
	return out;
}

char *wn_text_trim(char *s)
{
	size_t n, b = 0;

	if (!s)
		return s;
	n = strlen(s);
	while (n && is_ascii_space((unsigned char) s[n - 1]))
		n--;
	while (b < n && is_ascii_space((unsigned char) s[b]))
		b++;
	if (b)
		memmove(s, s + b, n - b);
	s[n - b] = '\0';
	return s;
}

bool wn_text_prefix_ci(const char *s, const char *prefix)
{
	if (!s || !prefix)
		return false;
	for (; *prefix; s++, prefix++) {
		if (!*s || ascii_lower((unsigned char) *s) != ascii_lower((unsigned char) *prefix))
			return false;
	}
	return true;
}

size_t wn_text_reply_marker(const char *s)
{
	static const char *const markers[] = { "re:", "aw:", "sv:", "antw:" };
	size_t b = 0;

	if (!s)
		return 0;
	while (s[b] == ' ' || s[b] == '\t')
		b++;
	for (size_t i = 0; i < sizeof(markers) / sizeof(markers[0]); i++)
		if (wn_text_prefix_ci(s + b, markers[i]))
			return b + strlen(markers[i]);
	return 0;
}

bool wn_text_is_reply(const char *s)
{
	return wn_text_reply_marker(s) > 0;
}

char *wn_strdup0(const char *s)
{
	return s ? strdup(s) : NULL;
}

static size_t code_points(const char *s, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++)
		w += ((unsigned char) s[i] & 0xc0) != 0x80;
	return w;
}

wn_status wn_text_wrap(wn_buf *b, const char *first, const char *rest, const char *s,
		       size_t width, size_t *col)
{
	bool blank = false;	/* a blank is due before the next word */
	wn_status st = wn_buf_puts(b, first);

	*col = code_points(first, strlen(first));
	while (st == WN_OK && s && *s) {
		size_t n = strcspn(s, " \t\n"), w = code_points(s, n);

		if (blank && *col + 1 + w > width) {
			st = wn_buf_putc(b, '\n');
			if (st == WN_OK)
				st = wn_buf_puts(b, rest);
			*col = code_points(rest, strlen(rest));
		} else if (blank) {
			st = wn_buf_putc(b, ' ');
			(*col)++;
		}
		if (st == WN_OK)
			st = wn_buf_append(b, s, n);
		*col += w;
		blank = true;
		for (s += n; st == WN_OK && (*s == ' ' || *s == '\t' || *s == '\n'); s++)
			if (*s == '\n' && *col) {
				st = wn_buf_putc(b, '\n');
				*col = 0;
				blank = false;
			}
	}
	return st;
}

char *wn_vstrdupf(const char *fmt, va_list ap)
{
	char *s = NULL;

	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	return s;
}

char *wn_strdupf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = wn_vstrdupf(fmt, ap);
	va_end(ap);
	return s;
}

char *wn_strndup(const char *s, size_t n)
{
	char *r;

	if (n == SIZE_MAX)
		return NULL;
	r = malloc(n + 1);
	if (!r)
		return NULL;
	if (n)
		memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

void wn_strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

/* The simple lower case of the capitals people's names and subjects
 * are written in (Latin-1, Latin Extended-A, Greek, Cyrillic), without
 * the locale: a search must find "Weißschuh" and "JÖRG" on a machine
 * with none. */
static uint32_t fold(uint32_t c)
{
	if (c < 0x80)
		return c >= 'A' && c <= 'Z' ? c + 32 : c;
	if (c >= 0xc0 && c <= 0xde && c != 0xd7)
		return c + 32;
	if (c == 0x130)
		return 'i';
	if (c == 0x178)
		return 0xff;
	if ((c >= 0x100 && c <= 0x12f) || (c >= 0x132 && c <= 0x137) || (c >= 0x14a && c <= 0x177))
		return c | 1;
	if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e))
		return c & 1 ? c + 1 : c;
	if (c >= 0x391 && c <= 0x3ab && c != 0x3a2)
		return c + 32;
	if (c >= 0x410 && c <= 0x42f)
		return c + 32;
	if (c >= 0x400 && c <= 0x40f)
		return c + 80;
	if (c == 0x1e9e)
		return 0xdf;
	return c;
}

/* The next character of s at *i, folded; a byte of broken UTF-8 is
 * itself (0x80 up, above every code point's fold). */
static uint32_t next_folded(const unsigned char *s, size_t n, size_t *i)
{
	uint32_t cp;
	size_t len = utf8_decode(s + *i, n - *i, &cp);

	cp = cp == UINT32_MAX ? 0x110000u + s[*i] : fold(cp);
	*i += cp >= 0x110000u ? 1 : len;
	return cp;
}

bool wn_text_find_ci(const char *hay, const char *needle)
{
	const unsigned char *h = (const unsigned char *) hay, *nd = (const unsigned char *) needle;
	size_t hn, nn;

	if (!hay || !needle)
		return false;
	hn = strlen(hay);
	nn = strlen(needle);
	for (size_t start = 0;;) {
		size_t i = start, j = 0;
		bool same = true;

		while (j < nn && same)
			same = i < hn && next_folded(h, hn, &i) == next_folded(nd, nn, &j);
		if (same)
			return true;
		if (start >= hn)
			return false;
		next_folded(h, hn, &start);
	}
}

bool wn_text_utf8_valid(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *) s;
	uint32_t cp;

	for (size_t i = 0; i < n;) {
		i += utf8_decode(u + i, n - i, &cp);
		if (cp == UINT32_MAX)
			return false;
	}
	return true;
}
