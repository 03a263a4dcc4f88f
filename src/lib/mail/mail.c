/* winnow — one mail, decoded.  GMime does the MIME work (it is what
 * notmuch itself indexes with, so we see mail the way the index does);
 * this file picks the text part, bounds its size, converts it to UTF-8
 * and copies everything out into plain malloc'd strings. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <iconv.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gmime/gmime.h>

#include "mail-private.h"
#include "winnow/buf.h"
#include "winnow/text.h"

/* A review is a few KiB; anything beyond this is an attack or an
 * accident, and the parsers downstream need not see it. */
#define WN_MAIL_BODY_MAX ((size_t) 16 << 20)
/* Deeper MIME nesting than this is not a real mail. */
#define WN_MAIL_MAX_DEPTH 32
/* Read/convert in chunks of this size (I/O granularity, not a limit). */
#define CHUNK 16384

static pthread_once_t gmime_once = PTHREAD_ONCE_INIT;
static GMimeParserOptions *parser_opts;

const char *const wn_mail_header_names[MH_COUNT] = {
#define WN_X_(e, name) name,
	MAIL_HEADER_LIST(WN_X_)
#undef WN_X_
};

static void gmime_setup(void)
{
	/* Raw 8-bit header text: try UTF-8 first, then Latin-1, which
	 * accepts every byte, so decoding never fails. */
	static const char *fallback[] = { "UTF-8", "ISO-8859-1", NULL };

	g_mime_init();
	parser_opts = g_mime_parser_options_new();
	if (parser_opts)
		g_mime_parser_options_set_fallback_charsets(parser_opts, fallback);
}

GMimeParserOptions *wn_mail_gmime(void)
{
	pthread_once(&gmime_once, gmime_setup);
	return parser_opts;
}

/* ---- UTF-8 helpers ---------------------------------------------------- */

/* g_utf8_validate(s, n, NULL), eight bytes at a time over the ASCII
 * that most mail is (no byte NUL or above 0x7f in the word: the
 * subtraction borrows into the top bit of a NUL byte); GLib checks the
 * rest.  Bodies were checked twice each, a twelfth of a listing. */
static bool utf8_valid(const char *s, size_t n)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), tops = UINT64_C(0x8080808080808080);
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t v;

		memcpy(&v, s + i, 8);
		if (((v - ones) | v) & tops)
			break;
	}
	return g_utf8_validate(s + i, (gssize) (n - i), NULL);
}

/* Copy s (n bytes, no NUL inside) as valid UTF-8: invalid sequences
 * become U+FFFD.  NULL only when out of memory. */
static char *utf8_dup_n(const char *s, size_t n)
{
	gchar *v;
	char *r;

	if (utf8_valid(s, n))
		return wn_strndup(s, n);
	v = g_utf8_make_valid(s, (gssize) n);
	r = v ? strdup(v) : NULL;
	g_free(v);
	return r;
}

static char *utf8_dup(const char *s)
{
	return s ? utf8_dup_n(s, strlen(s)) : NULL;
}

/* Latin-1 maps every byte to the code point of the same value, so this
 * conversion cannot fail. */
static wn_status latin1_to_utf8(wn_buf *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char) s[i];
		char two[2];

		if (c < 0x80) {
			if (wn_buf_putc(out, (char) c) != WN_OK)
				return WN_NOMEM;
			continue;
		}
		two[0] = (char) (0xc0 | (c >> 6));
		two[1] = (char) (0x80 | (c & 0x3f));
		if (wn_buf_append(out, two, 2) != WN_OK)
			return WN_NOMEM;
	}
	return WN_OK;
}

/* Does s hold at least one well-formed multi-byte UTF-8 sequence?  Then
 * a few bad bytes are damage in UTF-8 text, not a Latin-1 body. */
static bool has_utf8_multibyte(const char *s, size_t n)
{
	const char *p = s, *end = s + n;

	while (p < end) {
		const gchar *bad;

		if (g_utf8_validate(p, end - p, &bad))
			bad = end;
		for (; p < bad; p++)
			if ((unsigned char) *p >= 0x80)
				return true;
		if (p < end)
			p++;	/* skip the bad byte */
	}
	return false;
}

/* Text in an unknown or undeclared charset: keep valid UTF-8, repair
 * damaged UTF-8, read anything else as Latin-1. */
static wn_status guess_to_utf8(wn_buf *out, const char *s, size_t n, bool said_utf8)
{
	char *fixed;
	wn_status st;

	if (utf8_valid(s, n))
		return wn_buf_append(out, s, n);
	if (!said_utf8 && !has_utf8_multibyte(s, n))
		return latin1_to_utf8(out, s, n);
	fixed = utf8_dup_n(s, n);
	if (!fixed)
		return WN_NOMEM;
	st = wn_buf_puts(out, fixed);
	free(fixed);
	return st;
}

static bool charset_is_utf8(const char *cs)
{
	const char *canon = g_mime_charset_canon_name(cs);

	return (canon && !g_ascii_strcasecmp(canon, "utf-8")) || !g_ascii_strcasecmp(cs, "utf8");
}

/* UTF-8 or ASCII: no conversion, only checking (8-bit bytes in an
 * "ASCII" body are common and are almost always UTF-8). */
static bool charset_is_utf8ish(const char *cs)
{
	const char *canon = g_mime_charset_canon_name(cs);

	return charset_is_utf8(cs) || (canon && !g_ascii_strcasecmp(canon, "us-ascii")) ||
	       !g_ascii_strcasecmp(cs, "ascii");
}

/* Convert n bytes in charset cs to UTF-8, appending to out.  Never
 * fails on content: bytes iconv rejects become U+FFFD, an unknown
 * charset falls back to guessing. */
static wn_status charset_to_utf8(wn_buf *out, const char *cs, const char *s, size_t n)
{
	char chunk[CHUNK];
	iconv_t cd;
	char *in = (char *) s;
	size_t inleft = n;
	wn_status st = WN_OK;

	if (!cs || !*cs || charset_is_utf8ish(cs))
		return guess_to_utf8(out, s, n, cs && *cs && charset_is_utf8(cs));
	cd = g_mime_iconv_open("UTF-8", cs);
	if (cd == (iconv_t) -1)
		return guess_to_utf8(out, s, n, false);
	while (inleft) {
		char *o = chunk;
		size_t oleft = sizeof(chunk);
		size_t r = iconv(cd, &in, &inleft, &o, &oleft);
		int e = errno;

		if (wn_buf_append(out, chunk, (size_t) (o - chunk)) != WN_OK) {
			st = WN_NOMEM;
			break;
		}
		if (r != (size_t) -1)
			break;
		if (e == E2BIG)
			continue;
		/* EILSEQ: one bad byte; EINVAL: truncated at the end. */
		if (wn_buf_append(out, "\xef\xbf\xbd", 3) != WN_OK) {
			st = WN_NOMEM;
			break;
		}
		if (e != EILSEQ)
			break;
		in++;
		inleft--;
	}
	/* Flush any shift state (ISO-2022-JP and friends). */
	if (st == WN_OK) {
		char *o = chunk;
		size_t oleft = sizeof(chunk);

		if (iconv(cd, NULL, NULL, &o, &oleft) != (size_t) -1 || o > chunk)
			st = wn_buf_append(out, chunk, (size_t) (o - chunk));
	}
	g_mime_iconv_close(cd);
	return st;
}

/* ---- headers ---------------------------------------------------------- */

/* A header text on one line: every run of whitespace (folds, tabs,
 * the double spaces GMime leaves where it unfolds) becomes one space;
 * the ends are trimmed.  malloc'd, valid UTF-8. */
static char *one_line(const char *s)
{
	size_t i, o = 0, n;
	bool space = false;
	char *r, *v;

	if (!s)
		return NULL;
	n = strlen(s);
	r = malloc(n + 1);
	if (!r)
		return NULL;
	for (i = 0; i < n; i++) {
		if (g_ascii_isspace(s[i])) {
			space = true;
			continue;
		}
		if (space && o)
			r[o++] = ' ';
		space = false;
		r[o++] = s[i];
	}
	r[o] = '\0';
	v = utf8_dup_n(r, o);
	free(r);
	return v;
}

static InternetAddressMailbox *first_mailbox(InternetAddressList *list)
{
	int i, n;

	if (!list)
		return NULL;
	n = internet_address_list_length(list);
	for (i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(list, i);

		if (INTERNET_ADDRESS_IS_MAILBOX(ia))
			return INTERNET_ADDRESS_MAILBOX(ia);
		/* RFC 5322 groups do not nest: one level is all there is. */
		if (INTERNET_ADDRESS_IS_GROUP(ia)) {
			InternetAddressList *mem = internet_address_group_get_members(INTERNET_ADDRESS_GROUP(ia));
			int j, m = mem ? internet_address_list_length(mem) : 0;

			for (j = 0; j < m; j++) {
				InternetAddress *x = internet_address_list_get_address(mem, j);

				if (INTERNET_ADDRESS_IS_MAILBOX(x))
					return INTERNET_ADDRESS_MAILBOX(x);
			}
		}
	}
	return NULL;
}

/* GMime rejects a whole address header over one bad byte (a control
 * character in a display name, a raw special inside an encoded word).
 * The address is what matters for bot detection, so try again without
 * the controls, and as a last resort take the text in the last <...>. */
static InternetAddressList *lax_addresses(const char *decoded)
{
	InternetAddressList *list;
	char *clean, *lt, *gt, *name;
	size_t i, o = 0, n = strlen(decoded);

	clean = malloc(n + 1);
	if (!clean)
		return NULL;
	for (i = 0; i < n; i++)
		if ((unsigned char) decoded[i] >= 0x20 && decoded[i] != 0x7f)
			clean[o++] = decoded[i];
	clean[o] = '\0';
	list = internet_address_list_parse(parser_opts, clean);
	if (list && internet_address_list_length(list) > 0) {
		free(clean);
		return list;
	}
	if (list)
		g_object_unref(list);
	list = NULL;
	lt = strrchr(clean, '<');
	gt = lt ? strchr(lt, '>') : NULL;
	if (lt && gt && gt > lt + 1) {
		*gt = '\0';
		*lt = '\0';
		name = wn_text_trim(clean);
		i = strlen(name);
		if (i >= 2 && name[0] == '"' && name[i - 1] == '"') {
			name[i - 1] = '\0';
			name++;
		}
		list = internet_address_list_new();
		if (list) {
			InternetAddress *mb = internet_address_mailbox_new(*name ? name : NULL, wn_text_trim(lt + 1));

			internet_address_list_add(list, mb);
			g_object_unref(mb);
		}
	}
	free(clean);
	return list;
}

/* The address list of header h (new reference) or NULL when absent or
 * beyond repair. */
static InternetAddressList *addresses(const mail_view *v, enum mail_header h)
{
	const char *val = v->hdr[h];
	InternetAddressList *list;

	if (!val)
		return NULL;
	list = v->addrs[h];
	if (list && internet_address_list_length(list) > 0)
		return g_object_ref(list);
	return lax_addresses(val);
}

static void append_address(GString *s, InternetAddress *ia);

/* Display text of an address list, as GMime's
 * internet_address_list_to_string(list, NULL, FALSE) writes it but
 * without converting every domain with IDNA on the way, which was an
 * eighth of a whole listing's time: names quoted as GMime quotes them,
 * addresses as they were parsed. */
static char *list_text(InternetAddressList *list)
{
	GString *s = g_string_new(NULL);
	int n = internet_address_list_length(list);

	for (int i = 0; i < n; i++) {
		if (i)
			g_string_append(s, ", ");
		append_address(s, internet_address_list_get_address(list, i));
	}
	return g_string_free(s, FALSE);
}

static void append_address(GString *s, InternetAddress *ia)
{
	const char *name = internet_address_get_name(ia);
	char *quoted = name && *name ? g_mime_utils_quote_string(name) : NULL;

	if (INTERNET_ADDRESS_IS_GROUP(ia)) {
		InternetAddressList *members = internet_address_group_get_members(INTERNET_ADDRESS_GROUP(ia));
		char *inner = members ? list_text(members) : NULL;

		g_string_append_printf(s, "%s: %s;", quoted ? quoted : "", inner ? inner : "");
		g_free(inner);
	} else if (INTERNET_ADDRESS_IS_MAILBOX(ia)) {
		const char *addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));

		if (quoted)
			g_string_append_printf(s, "%s <%s>", quoted, addr ? addr : "");
		else
			g_string_append(s, addr ? addr : "");
	}
	g_free(quoted);
}

/* An address header as decoded text; NULL when absent.  When no
 * address can be made of it the decoded header text is kept: the user
 * should still see what the header said. */
static wn_status address_field(const mail_view *v, enum mail_header h, char **out)
{
	const char *val = v->hdr[h];
	InternetAddressList *list;
	char *s = NULL;

	*out = NULL;
	if (!val)
		return WN_OK;
	list = addresses(v, h);
	if (list) {
		s = list_text(list);
		g_object_unref(list);
	}
	*out = one_line(s && *s ? s : val);
	g_free(s);
	return *out ? WN_OK : WN_NOMEM;
}

static wn_status fill_from(wn_mail *m, const mail_view *v)
{
	InternetAddressList *list;
	InternetAddressMailbox *mb;
	const char *name = NULL, *addr = NULL;
	wn_status st = WN_NOMEM;
	size_t i;

	if (address_field(v, MH_FROM, &m->from) != WN_OK)
		return WN_NOMEM;
	if (!m->from && !(m->from = strdup("")))
		return WN_NOMEM;
	list = addresses(v, MH_FROM);
	mb = first_mailbox(list);
	if (mb) {
		addr = internet_address_mailbox_get_addr(mb);
		name = internet_address_get_name(INTERNET_ADDRESS(mb));
	}
	m->from_addr = one_line(addr ? addr : "");
	if (!m->from_addr)
		goto out;
	for (i = 0; m->from_addr[i]; i++)
		m->from_addr[i] = g_ascii_tolower(m->from_addr[i]);
	if (name && *name) {
		m->from_name = one_line(name);
		if (!m->from_name)
			goto out;
		if (!*m->from_name) {
			free(m->from_name);
			m->from_name = NULL;
		}
	}
	st = WN_OK;
out:
	if (list)
		g_object_unref(list);
	return st;
}

static wn_status push_id(char ***ids, size_t *n, size_t *cap, const char *s, size_t len)
{
	char *raw = wn_strndup(s, len), *id, *v;

	if (!raw)
		return WN_NOMEM;
	id = wn_msgid_canon(raw);
	free(raw);
	if (!id)
		return WN_OK;	/* empty or blanks inside: not an id */
	v = utf8_dup(id);
	free(id);
	if (!v)
		return WN_NOMEM;
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 4;
		char **p = realloc(*ids, nc * sizeof(*p));

		if (!p) {
			free(v);
			return WN_NOMEM;
		}
		*ids = p;
		*cap = nc;
	}
	(*ids)[(*n)++] = v;
	return WN_OK;
}

/* Message-IDs of a References-style header, in header order.  Done by
 * hand rather than with g_mime_references_parse(), which gives up on
 * the whole header at the first junk word; real headers carry junk
 * ("<id> (Someone's message of ...)") and bare ids without brackets.
 * Like notmuch, take every <...>; with no brackets at all, take the
 * words that look like ids. */
static wn_status parse_ids(const char *value, char ***ids, size_t *nids)
{
	const char *p = value, *lt, *gt;
	size_t cap = 0;
	wn_status st = WN_OK;

	*ids = NULL;
	*nids = 0;
	if (!value)
		return WN_OK;
	if (strchr(value, '<')) {
		while (st == WN_OK && (lt = strchr(p, '<')) && (gt = strchr(lt + 1, '>'))) {
			/* "<a <b>": the inner '<' starts the id. */
			const char *inner = lt;

			while ((lt = memchr(inner + 1, '<', (size_t) (gt - inner - 1))))
				inner = lt;
			st = push_id(ids, nids, &cap, inner + 1, (size_t) (gt - inner - 1));
			p = gt + 1;
		}
	} else {
		while (st == WN_OK && *p) {
			size_t len;

			while (*p && g_ascii_isspace(*p))
				p++;
			len = strcspn(p, " \t\r\n");
			if (len && memchr(p, '@', len))
				st = push_id(ids, nids, &cap, p, len);
			p += len;
		}
	}
	return st;
}

static wn_status fill_ids(wn_mail *m, const mail_view *v)
{
	const char *mid = v->message_id;
	char **irt = NULL;
	size_t nirt = 0, i;
	wn_status st;
	char *id;

	if (mid && (id = wn_msgid_canon(mid))) {
		m->message_id = utf8_dup(id);
		free(id);
		if (!m->message_id)
			return WN_NOMEM;
	}
	if (parse_ids(v->hdr[MH_REFERENCES], &m->references, &m->nreferences) != WN_OK)
		return WN_NOMEM;
	st = parse_ids(v->hdr[MH_IN_REPLY_TO], &irt, &nirt);
	if (st == WN_OK && nirt) {
		m->in_reply_to = irt[0];
		irt[0] = NULL;
	}
	for (i = 0; i < nirt; i++)
		free(irt[i]);
	free(irt);
	return st;
}

/* ---- body ------------------------------------------------------------- */

static bool is_text(GMimeObject *obj, bool plain_only)
{
	GMimeContentType *ct = g_mime_object_get_content_type(obj);

	/* No Content-Type at all means text/plain (RFC 2045, 5.2). */
	if (!ct)
		return true;
	return g_mime_content_type_is_type(ct, "text", plain_only ? "plain" : "*");
}

/* The part that holds the mail's text: depth first, the first one that
 * fits.  Passes, from strict to lax: an inline text/plain; any
 * text/plain (a patch sent as an attachment); any inline text (an
 * HTML-only mail); a text/plain inside an attached message. */
static GMimePart *find_text(GMimeObject *obj, int pass, int depth)
{
	if (!obj || depth > WN_MAIL_MAX_DEPTH)
		return NULL;
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int i, n = g_mime_multipart_get_count(mp);

		for (i = 0; i < n; i++) {
			GMimePart *p = find_text(g_mime_multipart_get_part(mp, i), pass, depth + 1);

			if (p)
				return p;
		}
		return NULL;
	}
	if (GMIME_IS_MESSAGE_PART(obj)) {
		GMimeMessage *inner;

		if (pass != 3)
			return NULL;
		inner = g_mime_message_part_get_message(GMIME_MESSAGE_PART(obj));
		return inner ? find_text(g_mime_message_get_mime_part(inner), pass, depth + 1) : NULL;
	}
	if (!GMIME_IS_PART(obj))
		return NULL;
	switch (pass) {
	case 0:
		if (is_text(obj, true) && !g_mime_part_is_attachment(GMIME_PART(obj)))
			return GMIME_PART(obj);
		break;
	case 1:
	case 3:
		if (is_text(obj, true))
			return GMIME_PART(obj);
		break;
	case 2:
		if (is_text(obj, false) && !g_mime_part_is_attachment(GMIME_PART(obj)))
			return GMIME_PART(obj);
		break;
	default:
		break;
	}
	return NULL;
}

/* Read the part's content with its transfer encoding undone, at most
 * WN_MAIL_BODY_MAX bytes (QP and base64 only shrink, so the encoded
 * size never has to be trusted). */
static wn_status read_part(GMimePart *part, wn_buf *raw)
{
	GMimeDataWrapper *content = g_mime_part_get_content(part);
	GMimeStream *src, *filt;
	GMimeContentEncoding enc;
	char chunk[CHUNK];
	wn_status st = WN_OK;

	if (!content)
		return WN_OK;
	src = g_mime_data_wrapper_get_stream(content);
	if (!src)
		return WN_OK;
	enc = g_mime_data_wrapper_get_encoding(content);
	if (g_mime_stream_reset(src) < 0)
		return WN_OK;
	filt = g_mime_stream_filter_new(src);
	if (enc == GMIME_CONTENT_ENCODING_BASE64 || enc == GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE ||
	    enc == GMIME_CONTENT_ENCODING_UUENCODE) {
		GMimeFilter *dec = g_mime_filter_basic_new(enc, FALSE);

		g_mime_stream_filter_add(GMIME_STREAM_FILTER(filt), dec);
		g_object_unref(dec);
	}
	while (raw->len <= WN_MAIL_BODY_MAX) {
		ssize_t n = g_mime_stream_read(filt, chunk, sizeof(chunk));

		if (n <= 0)
			break;
		if (wn_buf_append(raw, chunk, (size_t) n) != WN_OK) {
			st = WN_NOMEM;
			break;
		}
	}
	g_object_unref(filt);
	return st;
}

/* s[0..n) as m's body: CRLF to LF, NULs dropped (a C string must not
 * end early), valid UTF-8 whatever the converter let through (glibc's
 * iconv passes UTF-8-like sequences beyond U+10FFFF) unless the caller
 * checked it already (valid), and at most WN_MAIL_BODY_MAX bytes, cut
 * on a character boundary. */
static wn_status finish_body(wn_mail *m, const char *s, size_t n, bool valid)
{
	size_t i, o = 0;
	char *r;

	r = malloc(n + 1);
	if (!r)
		return WN_NOMEM;
	for (i = 0; i < n; i++) {
		if (s[i] == '\0')
			continue;
		if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n')
			continue;
		r[o++] = s[i];
	}
	r[o] = '\0';
	/* Dropping CRs and NULs from valid UTF-8 leaves it valid. */
	if (!valid && !utf8_valid(r, o)) {
		char *v = utf8_dup_n(r, o);

		free(r);
		if (!v)
			return WN_NOMEM;
		r = v;
		o = strlen(r);
	}
	if (o > WN_MAIL_BODY_MAX) {
		o = WN_MAIL_BODY_MAX;
		while (o && ((unsigned char) r[o] & 0xc0) == 0x80)
			o--;
		r[o] = '\0';
	}
	m->body = r;
	m->body_len = o;
	return WN_OK;
}

wn_status wn_mail_fill_body(wn_mail *m, const char *cs, const char *s, size_t n)
{
	wn_buf utf8 = WN_BUF_INIT;
	wn_status st;

	/* Valid UTF-8 in UTF-8, ASCII or no charset said, nearly every
	 * mail: what charset_to_utf8() would copy as it is. */
	if ((!cs || !*cs || charset_is_utf8ish(cs)) && utf8_valid(s, n))
		return finish_body(m, s, n, true);
	st = charset_to_utf8(&utf8, cs, s, n);
	if (st == WN_OK)
		st = finish_body(m, wn_buf_str(&utf8), utf8.len, false);
	wn_buf_free(&utf8);
	return st;
}

static wn_status fill_body(wn_mail *m, GMimeMessage *msg)
{
	GMimeObject *top = g_mime_message_get_mime_part(msg);
	GMimePart *part = NULL;
	wn_buf raw = WN_BUF_INIT;
	const char *cs = NULL;
	wn_status st = WN_OK;
	int pass;

	for (pass = 0; pass < 4 && !part; pass++)
		part = find_text(top, pass, 0);
	if (part) {
		st = read_part(part, &raw);
		cs = g_mime_object_get_content_type_parameter(GMIME_OBJECT(part), "charset");
	}
	if (st == WN_OK)
		st = wn_mail_fill_body(m, cs, wn_buf_str(&raw), raw.len);
	wn_buf_free(&raw);
	return st;
}

/* ---- entry points ----------------------------------------------------- */

wn_status wn_mail_fill_headers(wn_mail *m, const mail_view *v)
{
	if (fill_from(m, v) != WN_OK)
		return WN_NOMEM;
	m->subject = one_line(v->subject ? v->subject : "");
	if (!m->subject)
		return WN_NOMEM;
	if (address_field(v, MH_TO, &m->to) != WN_OK ||
	    address_field(v, MH_CC, &m->cc) != WN_OK ||
	    address_field(v, MH_REPLY_TO, &m->reply_to) != WN_OK)
		return WN_NOMEM;
	if (v->hdr[MH_LIST_ID] && !(m->list_id = one_line(v->hdr[MH_LIST_ID])))
		return WN_NOMEM;
	if (fill_ids(m, v) != WN_OK)
		return WN_NOMEM;
	if (v->date)
		m->date = (time_t) g_date_time_to_unix(v->date);
	return WN_OK;
}

/* GMimeAddressType of each address header. */
static const GMimeAddressType address_types[MH_ADDRESS_COUNT] = {
	[MH_FROM] = GMIME_ADDRESS_TYPE_FROM,
	[MH_TO] = GMIME_ADDRESS_TYPE_TO,
	[MH_CC] = GMIME_ADDRESS_TYPE_CC,
	[MH_REPLY_TO] = GMIME_ADDRESS_TYPE_REPLY_TO,
};

static wn_status fill(wn_mail *m, GMimeMessage *msg)
{
	mail_view v = { .subject = g_mime_message_get_subject(msg),
			.message_id = g_mime_message_get_message_id(msg),
			.date = g_mime_message_get_date(msg) };

	for (int h = 0; h < MH_COUNT; h++)
		v.hdr[h] = g_mime_object_get_header(GMIME_OBJECT(msg), wn_mail_header_names[h]);
	for (int h = 0; h < MH_ADDRESS_COUNT; h++)
		v.addrs[h] = g_mime_message_get_addresses(msg, address_types[h]);
	if (wn_mail_fill_headers(m, &v) != WN_OK)
		return WN_NOMEM;
	return fill_body(m, msg);
}

static wn_status parse_stream(GMimeStream *stream, bool mbox, const char *what,
			      wn_mail **out, wn_error *err)
{
	GMimeParser *parser;
	GMimeMessage *msg;
	wn_mail *m;
	wn_status st;

	parser = g_mime_parser_new_with_stream(stream);
	/* A file that starts with an mbox "From " line (git format-patch
	 * output, a saved single-message mbox) holds one message after it. */
	g_mime_parser_set_format(parser, mbox ? GMIME_FORMAT_MBOX : GMIME_FORMAT_MESSAGE);
	msg = g_mime_parser_construct_message(parser, parser_opts);
	g_object_unref(parser);
	if (!msg)
		return wn_error_set(err, WN_PARSE, "%s: not a mail message", what);
	if (g_mime_header_list_get_count(g_mime_object_get_header_list(GMIME_OBJECT(msg))) == 0) {
		g_object_unref(msg);
		return wn_error_set(err, WN_PARSE, "%s: not a mail message (no header)", what);
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		g_object_unref(msg);
		return wn_error_set(err, WN_NOMEM, "%s: out of memory", what);
	}
	st = fill(m, msg);
	g_object_unref(msg);
	if (st != WN_OK) {
		wn_mail_free(&m);
		return wn_error_set(err, st, "%s: out of memory", what);
	}
	*out = m;
	return WN_OK;
}

wn_status wn_mail_parse_mem_gmime(const char *data, size_t len, wn_mail **out, wn_error *err)
{
	GMimeStream *stream;
	wn_status st;

	if (!out)
		return wn_error_set(err, WN_USAGE, "wn_mail_parse_mem: no result pointer");
	*out = NULL;
	if (!data || !len)
		return wn_error_set(err, WN_PARSE, "empty input: not a mail message");
	wn_mail_gmime();
	stream = g_mime_stream_mem_new_with_buffer(data, len);
	if (!stream)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	st = parse_stream(stream, len >= 5 && !memcmp(data, "From ", 5), "<memory>", out, err);
	g_object_unref(stream);
	return st;
}

wn_status wn_mail_parse_mem(const char *data, size_t len, wn_mail **out, wn_error *err)
{
	wn_status st;

	if (out && data && len) {
		wn_mail_gmime();
		st = wn_mail_plain(data, len, out);
		if (st == WN_NOMEM)
			return wn_error_set(err, WN_NOMEM, "out of memory");
		if (st == WN_OK)
			return WN_OK;
	}
	return wn_mail_parse_mem_gmime(data, len, out, err);
}

/* Read all of fd (at most max bytes) into a new buffer: *n bytes, or
 * NULL when it holds more (or cannot be read). */
static char *slurp(int fd, size_t size, size_t max, size_t *n)
{
	char *buf;
	size_t got = 0;

	if (size > max || !(buf = malloc(size + 1)))
		return NULL;
	/* One more byte than fstat said, to see a file that grew. */
	while (got <= size) {
		ssize_t r = pread(fd, buf + got, size + 1 - got, (off_t) got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t) r;
	}
	if (got == 0 || got > size) {
		free(buf);
		return NULL;
	}
	*n = got;
	return buf;
}

wn_status wn_mail_parse_file(const char *path, wn_mail **out, wn_error *err)
{
	GMimeStream *stream;
	struct stat sb;
	char head[5];
	ssize_t got;
	wn_status st;
	char *buf;
	size_t n;
	int fd;

	if (!out || !path)
		return wn_error_set(err, WN_USAGE, "wn_mail_parse_file: no path or result pointer");
	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return wn_error_set(err, WN_IO, "%s: %s", path, strerror(errno));
	if (fstat(fd, &sb) < 0) {
		int e = errno;

		close(fd);
		return wn_error_set(err, WN_IO, "%s: %s", path, strerror(e));
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		return wn_error_set(err, WN_IO, "%s: %s", path,
				    S_ISDIR(sb.st_mode) ? strerror(EISDIR) : "not a regular file");
	}
	if (sb.st_size == 0) {
		close(fd);
		return wn_error_set(err, WN_PARSE, "%s: empty file: not a mail message", path);
	}
	wn_mail_gmime();
	/* Most mail is plain: read it whole and without GMime's objects. */
	buf = slurp(fd, (size_t) sb.st_size, WN_MAIL_PLAIN_MAX, &n);
	if (buf) {
		st = wn_mail_plain(buf, n, out);
		free(buf);
		if (st != WN_NOT_FOUND) {
			close(fd);
			return st == WN_OK ? WN_OK : wn_error_set(err, st, "%s: out of memory", path);
		}
	}
	got = pread(fd, head, sizeof(head), 0);
	if (got < 0) {
		int e = errno;

		close(fd);
		return wn_error_set(err, WN_IO, "%s: %s", path, strerror(e));
	}
	/* The stream owns fd from here on. */
	stream = g_mime_stream_fs_new(fd);
	if (!stream) {
		close(fd);
		return wn_error_set(err, WN_NOMEM, "%s: out of memory", path);
	}
	st = parse_stream(stream, got == 5 && !memcmp(head, "From ", 5), path, out, err);
	g_object_unref(stream);
	return st;
}

void wn_mail_free(wn_mail **mp)
{
	wn_mail *m;
	size_t i;

	if (!mp || !*mp)
		return;
	m = *mp;
	free(m->message_id);
	free(m->from);
	free(m->from_addr);
	free(m->from_name);
	free(m->subject);
	free(m->to);
	free(m->cc);
	free(m->reply_to);
	free(m->list_id);
	free(m->in_reply_to);
	for (i = 0; i < m->nreferences; i++)
		free(m->references[i]);
	free(m->references);
	free(m->body);
	free(m);
	*mp = NULL;
}
