/* winnow — what both readers of a mail share (see mail-private.h):
 * GMime set up once, text converted to valid UTF-8, the header fields
 * of a mail_view copied out into a wn_mail, the body bounded and
 * cleaned, and freeing a wn_mail.  mail.c (GMime's parser) and
 * mail-plain.c (the plain reader) both call down into this file, which
 * calls neither of them. */
#include "autoconfig.h"

#include <errno.h>
#include <iconv.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gmime/gmime.h>

#include "../core/str.h"
#include "mail-private.h"
#include "winnow/buf.h"
#include "winnow/text.h"

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

/* s (malloc'd, n bytes) itself when valid UTF-8, as nearly every header
 * is, else a repaired copy (s freed): utf8_dup_n() without the copy of
 * what needs none.  NULL only when out of memory. */
static char *utf8_own(char *s, size_t n)
{
	char *v;

	if (!s || utf8_valid(s, n))
		return s;
	v = utf8_dup_n(s, n);
	free(s);
	return v;
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
	char chunk[WN_MAIL_CHUNK];
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
	char *r;

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
	return utf8_own(r, o);
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

/* Did GMime read addr out of the start of a longer word of text?  Its
 * lenient parser takes '"x" <a@b@c.com>' for a@b: somebody else, whom
 * nothing may ever mail or match.  The mailboxes come in the text's
 * order: each is looked for from *at on, past the one before, so that a
 * real <a@b> beside the misread one is told apart; *at moves past it.
 * *word, *len: the longer word.  An address the text does not show (in
 * GMime's own spelling, from another header of the same name) is no
 * misreading. */
static bool misread(const char *text, const char **at, const char *addr, const char **word, size_t *len)
{
	size_t n = strlen(addr);

	if (!n)
		return false;
	for (const char *p = *at; (p = wn_str_find_ci(p, strlen(p), addr)) != NULL; p++) {
		if (p != text && !strchr("<, \t:;\"", p[-1]))
			continue;
		*at = p + n;
		if (!p[n] || strchr(">, \t;)\"", p[n]))
			return false;
		*word = p;
		*len = strcspn(p, ">, \t;");
		*at = p + *len;
		return true;
	}
	return false;
}

/* list without the mailboxes misread from text (a new reference), the
 * words they were read from appended to bad, ", " between. */
static InternetAddressList *checked(InternetAddressList *list, const char *text, const char **at, GString *bad)
{
	InternetAddressList *out = internet_address_list_new();
	int n = internet_address_list_length(list);

	for (int i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(list, i);
		const char *addr = INTERNET_ADDRESS_IS_MAILBOX(ia)
					   ? internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia)) : NULL;
		const char *word;
		size_t len;

		if (INTERNET_ADDRESS_IS_GROUP(ia)) {
			/* Groups do not nest (RFC 5322): one level. */
			InternetAddressGroup *g = INTERNET_ADDRESS_GROUP(ia);
			InternetAddressList *mem = internet_address_group_get_members(g);
			InternetAddressList *ok = mem ? checked(mem, text, at, bad) : NULL;
			InternetAddress *ng = internet_address_group_new(internet_address_get_name(ia));

			if (ok)
				internet_address_group_set_members(INTERNET_ADDRESS_GROUP(ng), ok);
			internet_address_list_add(out, ng);
			g_object_unref(ng);
			if (ok)
				g_object_unref(ok);
		} else if (addr && misread(text, at, addr, &word, &len)) {
			/* As the header had it, in brackets: a bare word would
			 * run into its neighbours when the list is read again. */
			const char *name = internet_address_get_name(ia);
			char *quoted = name && *name ? g_mime_utils_quote_string(name) : NULL;

			if (bad)
				g_string_append_printf(bad, "%s%s%s<%.*s>", bad->len ? ", " : "", quoted ? quoted : "",
						       quoted ? " " : "", (int) len, word);
			g_free(quoted);
		} else {
			internet_address_list_add(out, ia);
		}
	}
	return out;
}

/* The address list of header h (new reference) or NULL when absent or
 * beyond repair; without the mailboxes GMime misread, whose words go to
 * bad (may be NULL). */
static InternetAddressList *addresses_bad(const mail_view *v, enum mail_header h, GString *bad)
{
	const char *val = v->hdr[h];
	InternetAddressList *list, *ok;

	if (!val)
		return NULL;
	list = v->addrs[h];
	if (list && internet_address_list_length(list) > 0)
		list = g_object_ref(list);
	else
		list = lax_addresses(val);
	if (!list)
		return NULL;
	ok = checked(list, val, &(const char *) { val }, bad);
	g_object_unref(list);
	return ok;
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
 * should still see what the header said.  A word GMime misread as a
 * shorter address stays as the header wrote it, after the addresses
 * ("a@b@c.com"): whoever reads the list again (forward) finds no
 * address in it to mail, and can say so.  *keep (unless keep is NULL):
 * the list the text was made of, a new reference, NULL when none. */
static wn_status address_field_list(const mail_view *v, enum mail_header h, char **out,
				    InternetAddressList **keep)
{
	const char *val = v->hdr[h];
	InternetAddressList *list;
	GString *bad;
	char *s = NULL;

	*out = NULL;
	if (keep)
		*keep = NULL;
	if (!val)
		return WN_OK;
	bad = g_string_new(NULL);
	list = addresses_bad(v, h, bad);
	if (list) {
		s = list_text(list);
		if (keep)
			*keep = list;
		else
			g_object_unref(list);
	}
	if (s && bad->len) {
		char *both = g_strdup_printf("%s%s%s", s, *s ? ", " : "", bad->str);

		g_free(s);
		s = both;
	}
	g_string_free(bad, TRUE);
	*out = one_line(s && *s ? s : val);
	g_free(s);
	return *out ? WN_OK : WN_NOMEM;
}

static wn_status address_field(const mail_view *v, enum mail_header h, char **out)
{
	return address_field_list(v, h, out, NULL);
}

/* Dot-separated atoms of letters, digits and "_+-" (labels of letters,
 * digits and '-' with !local) from s on; the end of them.  A label of
 * punycode ("xn--") ends them at s: GMime's parser gives an address
 * that holds one decoded (and the fuzzer found it). */
static const char *plain_atoms(const char *s, bool local)
{
	const char *p = s;

	for (;;) {
		const char *start = p;

		if (!local && g_ascii_strncasecmp(p, "xn--", 4) == 0)
			return s;
		while (g_ascii_isalnum(*p) || *p == '-' || (local && (*p == '_' || *p == '+')))
			p++;
		if (p == start)
			return s; /* an empty atom: no dot-atom */
		if (*p != '.')
			return p;
		p++;
	}
}

bool wn_mail_plain_mailbox(const char *s, size_t *name_len, const char **addr, size_t *addr_len)
{
	const char *p = s, *a, *at, *end;

	*name_len = 0;
	if (*s == '<' || *s == ' ')
		return false;
	/* A name: words of letters and digits, one blank after each. */
	if (strchr(s, '<')) {
		while (g_ascii_isalnum(*p)) {
			while (g_ascii_isalnum(*p))
				p++;
			if (*p++ != ' ')
				return false;
		}
		if (*p != '<')
			return false;
		*name_len = (size_t) (p - s) - 1;
		p++;
	}
	a = p;
	at = plain_atoms(a, true);
	if (at == a || *at != '@')
		return false;
	end = plain_atoms(at + 1, false);
	if (end == at + 1)
		return false;
	if (*name_len ? (end[0] != '>' || end[1]) : *end)
		return false;
	*addr = a;
	*addr_len = (size_t) (end - a);
	return true;
}

char *wn_mail_plain_msgid(const char *v)
{
	const char *at, *end;

	if (*v != '<' || (at = plain_atoms(v + 1, true)) == v + 1 || *at != '@' ||
	    (end = plain_atoms(at + 1, false)) == at + 1 || end[0] != '>' || end[1])
		return NULL;
	return g_strndup(v + 1, (size_t) (end - v - 1));
}

/* fill_from() of a From wn_mail_plain_mailbox() reads: what GMime's
 * list would give, without building it (its parse and its objects were
 * a twentieth of a cold statistics pass). */
static wn_status fill_plain_from(wn_mail *m, const char *val)
{
	size_t nn, an;
	const char *addr;

	if (!wn_mail_plain_mailbox(val, &nn, &addr, &an))
		return WN_NOT_FOUND;
	if (!(m->from = strdup(val)) || !(m->from_addr = wn_strndup(addr, an)) ||
	    (nn && !(m->from_name = wn_strndup(val, nn))))
		return WN_NOMEM;
	for (size_t i = 0; m->from_addr[i]; i++)
		m->from_addr[i] = g_ascii_tolower(m->from_addr[i]);
	return WN_OK;
}

static wn_status fill_from(wn_mail *m, const mail_view *v)
{
	InternetAddressList *list;
	InternetAddressMailbox *mb;
	const char *name = NULL, *addr = NULL;
	wn_status st = WN_NOMEM;
	size_t i;

	if (v->from_plain && v->hdr[MH_FROM]) {
		if ((st = fill_plain_from(m, v->hdr[MH_FROM])) != WN_NOT_FOUND)
			return st;
		st = WN_NOMEM;
	}
	/* The list the text was made of: checking From's addresses once
	 * for the text and again for the address was a tenth of filling
	 * a mail. */
	if (address_field_list(v, MH_FROM, &m->from, &list) != WN_OK)
		goto out;
	if (!m->from && !(m->from = strdup("")))
		goto out;
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

InternetAddressList *wn_mail_addresses_of(const char *decoded)
{
	InternetAddressList *list, *ok;

	wn_mail_gmime();
	if (!decoded || !*decoded || !(list = lax_addresses(decoded)))
		return NULL;
	ok = checked(list, decoded, &(const char *) { decoded }, NULL);
	g_object_unref(list);
	return ok;
}

InternetAddressMailbox *wn_mail_first_mailbox(InternetAddressList *list)
{
	return first_mailbox(list);
}

char *wn_mail_mailbox_text(InternetAddressMailbox *mb)
{
	GString *s = g_string_new(NULL);

	append_address(s, INTERNET_ADDRESS(mb));
	return g_string_free(s, FALSE);
}

char *wn_mail_one_line(const char *s)
{
	return one_line(s);
}

char *wn_mail_addr(const char *text)
{
	InternetAddressList *list;
	InternetAddressMailbox *mb;
	char *out;

	wn_mail_gmime();
	list = text && *text ? wn_mail_addresses_of(text) : NULL;
	mb = first_mailbox(list);
	out = one_line(mb && internet_address_mailbox_get_addr(mb)
		       ? internet_address_mailbox_get_addr(mb) : "");
	for (size_t i = 0; out && out[i]; i++)
		out[i] = g_ascii_tolower(out[i]);
	if (list)
		g_object_unref(list);
	return out;
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
	v = utf8_own(id, strlen(id));
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
		m->message_id = utf8_own(id, strlen(id));
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

/* Where the next byte c is in s[from..n); n when there is none. */
static size_t next_of(const char *s, size_t n, size_t from, char c)
{
	const char *p = from < n ? memchr(s + from, c, n - from) : NULL;

	return p ? (size_t) (p - s) : n;
}

/* s[0..n) as m's body: CRLF to LF, NULs dropped (a C string must not
 * end early), valid UTF-8 whatever the converter let through (glibc's
 * iconv passes UTF-8-like sequences beyond U+10FFFF) unless the caller
 * checked it already (valid), and at most WN_MAIL_BODY_MAX bytes, cut
 * on a character boundary. */
static wn_status finish_body(wn_mail *m, const char *s, size_t n, bool valid)
{
	size_t i, o = 0, cr = next_of(s, n, 0, '\r'), nul = next_of(s, n, 0, '\0');
	char *r;

	r = malloc(n + 1);
	if (!r)
		return WN_NOMEM;
	/* The runs between the bytes to drop copied whole: most mail has
	 * neither, and the copy byte by byte was the largest of winnow's
	 * own costs in reading a mail.  Each byte is searched once for
	 * each of the two. */
	for (i = 0; i < n;) {
		size_t e = cr < nul ? cr : nul;

		memcpy(r + o, s + i, e - i);
		o += e - i;
		i = e;
		if (i == n)
			break;
		/* s[i] is a NUL, or a CR kept unless a LF follows. */
		if (s[i] == '\r' && !(i + 1 < n && s[i + 1] == '\n'))
			r[o++] = s[i];
		i++;
		if (cr < i)
			cr = next_of(s, n, i, '\r');
		if (nul < i)
			nul = next_of(s, n, i, '\0');
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

wn_status wn_mail_fill_recipients(wn_mail *m, const mail_view *v)
{
	free(m->to);
	free(m->cc);
	free(m->reply_to);
	if (address_field(v, MH_TO, &m->to) != WN_OK ||
	    address_field(v, MH_CC, &m->cc) != WN_OK ||
	    address_field(v, MH_REPLY_TO, &m->reply_to) != WN_OK)
		return WN_NOMEM;
	return WN_OK;
}

wn_status wn_mail_fill_headers(wn_mail *m, const mail_view *v)
{
	if (fill_from(m, v) != WN_OK)
		return WN_NOMEM;
	m->subject = one_line(v->subject ? v->subject : "");
	if (!m->subject)
		return WN_NOMEM;
	if (wn_mail_fill_recipients(m, v) != WN_OK)
		return WN_NOMEM;
	if (address_field(v, MH_ORIGINAL_FROM, &m->original_from) != WN_OK)
		return WN_NOMEM;
	if (v->hdr[MH_LIST_ID] && !(m->list_id = one_line(v->hdr[MH_LIST_ID])))
		return WN_NOMEM;
	if (fill_ids(m, v) != WN_OK)
		return WN_NOMEM;
	if (v->dated)
		m->date = v->when;
	else if (v->date)
		m->date = (time_t) g_date_time_to_unix(v->date);
	return WN_OK;
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
	free(m->original_from);
	free(m->list_id);
	free(m->in_reply_to);
	for (i = 0; i < m->nreferences; i++)
		free(m->references[i]);
	free(m->references);
	free(m->body);
	free(m);
	*mp = NULL;
}
