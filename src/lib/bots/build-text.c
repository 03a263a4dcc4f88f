/* winnow — the text a bot parser reads and keeps (see build.h): the
 * body cut into lines once (decoded first when it is still
 * quoted-printable), and copies out of it that record running out of
 * memory in the review being built. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "winnow/text.h"

static wn_status lines_split(const char *body, size_t len, struct rv_lines *out)
{
	size_t count = 1, pos = 0;
	const char *s, *nl = body;
	size_t n;

	if (!body || !len)
		return WN_OK;
	/* Counted by memchr(): every review's body is split so. */
	while ((nl = memchr(nl, '\n', len - (size_t) (nl - body)))) {
		count++;
		if (++nl == body + len)
			break;
	}
	out->v = calloc(count, sizeof(*out->v));
	if (!out->v)
		return WN_NOMEM;
	while (wn_str_next_line(body, len, &pos, &s, &n)) {
		/* CRLF mail, and stray CRs at the end of a line. */
		while (n && s[n - 1] == '\r')
			n--;
		out->v[out->n].s = s;
		out->v[out->n].n = n;
		out->n++;
	}
	return WN_OK;
}

void wn_rv_lines_free(struct rv_lines *l)
{
	free(l->v);
	free(l->repaired);
	memset(l, 0, sizeof(*l));
}
/* malloc that records out-of-memory in c. */
static char *alloc(struct rv_ctx *c, size_t n)
{
	char *d = c->oom ? NULL : malloc(n);

	if (!d)
		c->oom = true;
	return d;
}

char *wn_rv_dup(struct rv_ctx *c, const char *s, size_t n)
{
	char *d = alloc(c, n + 1);

	if (!d)
		return NULL;
	/* Copied whole, then its NULs (none, nearly always) found by
	 * memchr(): a copy byte by byte was the parsers' largest. */
	if (n)
		memcpy(d, s, n);
	for (char *z = d; (z = memchr(z, '\0', n - (size_t) (z - d)));)
		*z++ = ' ';
	d[n] = '\0';
	return d;
}

void wn_rv_put(struct rv_ctx *c, wn_buf *b, const char *s, size_t n)
{
	/* NUL bytes in mail text become spaces: C strings must not end
	 * early, and the text must not vanish after them. */
	while (n && !c->oom) {
		const char *z = memchr(s, '\0', n);
		size_t k = z ? (size_t) (z - s) : n;

		if (wn_buf_append(b, s, k) != WN_OK || (z && wn_buf_putc(b, ' ') != WN_OK))
			c->oom = true;
		k += z ? 1 : 0;
		s += k;
		n -= k;
	}
}

char *wn_rv_take(struct rv_ctx *c, wn_buf *b)
{
	char *s;

	if (c->oom || !b->len) {
		wn_buf_free(b);
		return NULL;
	}
	s = wn_buf_steal(b);
	if (!s)
		c->oom = true;
	return s;
}

char *wn_rv_oneline(struct rv_ctx *c, const char *s, size_t n, size_t max)
{
	char *d = alloc(c, n + 4);
	size_t i, k = 0, cut;
	bool sp = false;

	if (!d)
		return NULL;
	for (i = 0; i < n; i++) {
		if (str_space((unsigned char) s[i])) {
			sp = k > 0;
			continue;
		}
		if (sp)
			d[k++] = ' ';
		sp = false;
		d[k++] = s[i];
	}
	d[k] = '\0';
	if (k <= max)
		return d;
	/* Cut on the last space before max; a single huge word is cut at
	 * a UTF-8 character boundary instead. */
	cut = max;
	while (cut > max / 2 && d[cut] != ' ')
		cut--;
	if (d[cut] != ' ') {
		cut = max;
		while (cut > 0 && ((unsigned char) d[cut] & 0xc0) == 0x80)
			cut--;
	}
	while (cut > 0 && d[cut - 1] == ' ')
		cut--;
	memcpy(d + cut, "...", 4);
	return d;
}

/* ---- quoted-printable left in the text ----
 *
 * Evidence that a body is still quoted-printable: soft line breaks (a
 * '=' ending a line right after a non-blank: code never breaks a word
 * like that, "x =" ends with a blank) and the escapes a QP encoder
 * writes for '=', a trailing blank or a UTF-8 lead byte.  Both kinds
 * must be present, so C code ("a +=", "0x3D") or prose alone never
 * triggers a decode. */
static bool qp_escape(const char *s, size_t n, size_t i)
{
	static const char *const esc[] = { "=3D", "=20", "=09", "=C2=", "=C3=", "=E2=80=" };
	size_t k;

	for (k = 0; k < sizeof(esc) / sizeof(esc[0]); k++)
		if (wn_str_prefix(s + i, n - i, esc[k]))
			return true;
	return false;
}

/* Where the next '=' is in s[from..n); n when there is none. */
static size_t next_eq(const char *s, size_t n, size_t from)
{
	const char *e = from < n ? memchr(s + from, '=', n - from) : NULL;

	return e ? (size_t) (e - s) : n;
}

/* A body that is still quoted-printable encoded: *out gets a decoded
 * copy (malloc'd, *outlen bytes), else NULL.  WN_NOMEM is the only
 * error. */
static wn_status qp_repair(const char *body, size_t len, char **out, size_t *outlen)
{
	size_t i, soft = 0, escapes = 0, o = 0;
	char *d;

	*out = NULL;
	*outlen = 0;
	/* From one '=' to the next: every review's body is looked at, and
	 * a test of each byte was most of this. */
	for (i = next_eq(body, len, 0); i < len; i = next_eq(body, len, i + 1)) {
		if (qp_escape(body, len, i))
			escapes++;
		else if (i > 0 && body[i - 1] != ' ' && body[i - 1] != '\t' && body[i - 1] != '\n' &&
			 ((i + 1 < len && body[i + 1] == '\n') ||
			  (i + 2 < len && body[i + 1] == '\r' && body[i + 2] == '\n')))
			soft++;
	}
	if (soft < 2 || escapes < 2)
		return WN_OK;
	d = malloc(len + 1);
	if (!d)
		return WN_NOMEM;
	for (i = 0; i < len; i++) {
		int hi, lo;

		if (body[i] != '=') {
			d[o++] = body[i];
			continue;
		}
		if (i + 1 < len && body[i + 1] == '\n') {
			i++;	/* soft line break */
			continue;
		}
		if (i + 2 < len && body[i + 1] == '\r' && body[i + 2] == '\n') {
			i += 2;
			continue;
		}
		hi = i + 1 < len ? wn_str_hex((unsigned char) body[i + 1]) : -1;
		lo = i + 2 < len ? wn_str_hex((unsigned char) body[i + 2]) : -1;
		if (hi >= 0 && lo >= 0) {
			d[o++] = (char) (hi * 16 + lo);
			i += 2;
		} else {
			d[o++] = '=';	/* a bare '=' stays what it is */
		}
	}
	d[o] = '\0';
	*out = d;
	*outlen = o;
	return WN_OK;
}

wn_status wn_rv_lines_read(const char *body, size_t len, struct rv_lines *out)
{
	size_t rlen = 0;

	memset(out, 0, sizeof(*out));
	if (!body)
		len = 0;
	if (qp_repair(body, len, &out->repaired, &rlen) != WN_OK)
		return WN_NOMEM;
	if (out->repaired) {
		body = out->repaired;
		len = rlen;
	}
	if (lines_split(body, len, out) != WN_OK) {
		wn_rv_lines_free(out);
		return WN_NOMEM;
	}
	return WN_OK;
}
