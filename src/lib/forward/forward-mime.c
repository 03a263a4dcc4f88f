/* winnow — the forwarded-findings mail in MIME (GMime builds it), and
 * its draft text in and out.
 *
 * GMime does what must not be done by hand: RFC 2047 encoded words for
 * non-ASCII names and subjects, folding of long headers, quoting of
 * display names, and the transfer encoding of the body.  Every header
 * value reaching it was made header-safe first (no CR, LF or other
 * control character), so nothing from a mail can add or split a
 * header. */
#include "autoconfig.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmime/gmime.h>

#include "forward-private.h"
#include "../core/str.h"
#include "winnow/text.h"

static pthread_once_t gmime_once = PTHREAD_ONCE_INIT;

static void gmime_setup(void)
{
	/* Counted by GMime: mail.c's own call does not clash. */
	g_mime_init();
}

/* --- address lists ------------------------------------------------------ */

/* Does raw hold addr as a whole address, not the start of a longer
 * one?  GMime reads '"x" <a@b@c.com>' as a@b: a different person, who
 * must never be mailed.  *bad: where raw has the longer word, when so. */
static bool whole_in(const char *raw, const char *addr, const char **bad, size_t *badlen)
{
	size_t n = strlen(addr);

	*bad = NULL;
	for (const char *p = raw; (p = wn_str_find_ci(p, strlen(p), addr)) != NULL; p++) {
		bool left = p == raw || strchr("<, \t:;\"", p[-1]);
		bool right = !p[n] || strchr(">, \t;)", p[n]);

		if (left && right)
			return true;
		if (left && !*bad) {
			*bad = p;
			*badlen = strcspn(p, ">, \t;");
		}
	}
	return false;
}

static wn_status add_mailbox(InternetAddressMailbox *mb, const char *raw, fwd_mboxes *l, bool strict,
			     wn_error *err)
{
	const char *addr = internet_address_mailbox_get_addr(mb);
	const char *name = internet_address_get_name(INTERNET_ADDRESS(mb));
	const char *bad = NULL;
	size_t badlen = 0;
	char *safe;
	wn_status st;

	if (wn_fwd_addr_ok(addr) && !whole_in(raw, addr, &bad, &badlen)) {
		if (strict)
			return wn_error_set(err, WN_PARSE, "'%.*s' is not a mail address",
					    (int) (bad ? badlen : strlen(addr)), bad ? bad : addr);
		st = wn_buf_printf(&l->dropped, "%s%.*s", l->dropped.len ? ", " : "",
				   (int) (bad ? badlen : strlen(addr)), bad ? bad : addr);
		return st;
	}
	if (!wn_fwd_addr_ok(addr))
		return strict ? wn_error_set(err, WN_PARSE, "'%s' is not a mail address", addr ? addr : "")
			      : WN_OK;
	if (wn_fwd_mboxes_has(l, addr))
		return WN_OK;
	safe = name ? wn_text_header_safe(name) : NULL;
	if (name && !safe)
		return WN_NOMEM;
	st = wn_fwd_mboxes_add(l, safe, addr);
	free(safe);
	return st;
}

static wn_status add_list(InternetAddressList *list, const char *raw, fwd_mboxes *l, bool strict,
			  wn_error *err)
{
	int n = list ? internet_address_list_length(list) : 0;
	wn_status st = WN_OK;

	for (int i = 0; i < n && st == WN_OK; i++) {
		InternetAddress *ia = internet_address_list_get_address(list, i);

		if (INTERNET_ADDRESS_IS_MAILBOX(ia))
			st = add_mailbox(INTERNET_ADDRESS_MAILBOX(ia), raw, l, strict, err);
		else if (INTERNET_ADDRESS_IS_GROUP(ia))
			/* Groups do not nest (RFC 5322): one level. */
			st = add_list(internet_address_group_get_members(INTERNET_ADDRESS_GROUP(ia)), raw, l,
				      strict, err);
	}
	return st;
}

wn_status wn_fwd_parse_addresses(const char *text, fwd_mboxes *l, bool strict, wn_error *err)
{
	InternetAddressList *list;
	char *safe;
	wn_status st;

	if (!text || wn_str_blank(text, strlen(text)))
		return WN_OK;
	pthread_once(&gmime_once, gmime_setup);
	/* What we send (strict) is refused with a line break in it: it is
	 * the user's own text (draft, config), and mending it could turn
	 * "a\nBcc: b" into an address nobody meant. */
	if (strict && wn_fwd_has_control(text))
		return wn_error_set(err, WN_PARSE, "the addresses '%.60s' hold a line break or another control "
				    "character", text);
	/* A control character makes GMime drop the whole list. */
	if (!(safe = wn_text_header_safe(text)))
		return WN_NOMEM;
	list = internet_address_list_parse(NULL, safe);
	if (!list || internet_address_list_length(list) == 0) {
		st = strict ? wn_error_set(err, WN_PARSE, "cannot read the addresses '%s'", safe) : WN_OK;
		if (list)
			g_object_unref(list);
		free(safe);
		return st;
	}
	st = add_list(list, safe, l, strict, err);
	free(safe);
	g_object_unref(list);
	return st;
}

static wn_status add_loose(InternetAddressList *list, fwd_mboxes *l)
{
	int n = list ? internet_address_list_length(list) : 0;
	wn_status st = WN_OK;

	for (int i = 0; i < n && st == WN_OK; i++) {
		InternetAddress *ia = internet_address_list_get_address(list, i);

		if (INTERNET_ADDRESS_IS_MAILBOX(ia)) {
			const char *a = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));

			if (a && strchr(a, '@'))
				st = wn_fwd_mboxes_add(l, NULL, a);
		} else if (INTERNET_ADDRESS_IS_GROUP(ia)) {
			st = add_loose(internet_address_group_get_members(INTERNET_ADDRESS_GROUP(ia)), l);
		}
	}
	return st;
}

wn_status wn_fwd_parse_loose(const char *text, fwd_mboxes *l)
{
	InternetAddressList *list;
	wn_status st;

	pthread_once(&gmime_once, gmime_setup);
	list = internet_address_list_parse(NULL, text);
	st = add_loose(list, l);
	if (list)
		g_object_unref(list);
	return st;
}

char *wn_fwd_format_addresses(const fwd_mboxes *l)
{
	wn_buf b = WN_BUF_INIT;

	pthread_once(&gmime_once, gmime_setup);
	if (wn_buf_puts(&b, "") != WN_OK)
		return NULL;
	for (size_t i = 0; i < l->n; i++) {
		InternetAddress *ia = internet_address_mailbox_new(l->v[i].name, l->v[i].addr);
		char *s = internet_address_to_string(ia, NULL, FALSE);
		wn_status st = wn_buf_printf(&b, "%s%s", i ? ", " : "", s ? s : "");

		g_free(s);
		g_object_unref(ia);
		if (st != WN_OK) {
			wn_buf_free(&b);
			return NULL;
		}
	}
	return wn_buf_steal(&b);
}

/* --- rendering ----------------------------------------------------------- */

/* Append the addresses of text to the header of type, names in UTF-8
 * encoded words (GMime would pick Latin-1 where it can). */
static wn_status set_addresses(GMimeMessage *m, GMimeAddressType type, const char *text, wn_error *err)
{
	fwd_mboxes l = { 0 };
	InternetAddressList *dst = g_mime_message_get_addresses(m, type);
	wn_status st = wn_fwd_parse_addresses(text, &l, true, err);

	for (size_t i = 0; st == WN_OK && i < l.n; i++) {
		InternetAddress *ia = internet_address_mailbox_new(l.v[i].name, l.v[i].addr);

		internet_address_set_charset(ia, "utf-8");
		internet_address_list_add(dst, ia);
		g_object_unref(ia);
	}
	wn_fwd_mboxes_clear(&l);
	return st;
}

static wn_status set_threading(GMimeMessage *m, const wn_forward *f, wn_error *err)
{
	wn_buf refs = WN_BUF_INIT;
	wn_status st = WN_OK;
	char *irt = NULL;

	/* The patch's ids come from mail: one with a blank or line break
	 * in it would end up split over header lines. */
	if (!wn_fwd_msgid_ok(f->message_id) || (f->in_reply_to && !wn_fwd_msgid_ok(f->in_reply_to)))
		return wn_error_set(err, WN_PARSE, "the Message-ID '%.60s' cannot go into a header",
				    !wn_fwd_msgid_ok(f->message_id) ?
					    f->message_id ? f->message_id : "" :
					    f->in_reply_to);
	for (size_t i = 0; i < f->nreferences; i++)
		if (!wn_fwd_msgid_ok(f->references[i]))
			return wn_error_set(err, WN_PARSE, "the Message-ID '%.60s' in References cannot go "
					    "into a header", f->references[i]);
	g_mime_message_set_message_id(m, f->message_id);
	if (f->in_reply_to) {
		if (asprintf(&irt, "<%s>", f->in_reply_to) < 0)
			return WN_NOMEM;
		g_mime_object_set_header(GMIME_OBJECT(m), "In-Reply-To", irt, NULL);
		free(irt);
	}
	for (size_t i = 0; i < f->nreferences && st == WN_OK; i++)
		st = wn_buf_printf(&refs, "%s<%s>", i ? " " : "", f->references[i]);
	if (st == WN_OK && refs.len)
		g_mime_object_set_header(GMIME_OBJECT(m), "References", refs.data, NULL);
	wn_buf_free(&refs);
	return st;
}

/* The transfer encoding of the body: 7bit for ASCII, 8bit for UTF-8
 * text (readable as it is, like git send-email's mail), and only when
 * a line is too long for SMTP (998 bytes) what GMime finds best for
 * 7-bit transport.  GMime's own choice under the 8-bit constraint
 * leaves the header out, which would declare 8-bit text 7bit. */
static GMimeContentEncoding body_encoding(GMimePart *part, const char *body)
{
	bool eight = false;
	size_t line = 0;

	for (const unsigned char *p = (const unsigned char *) body; *p; p++) {
		eight |= *p >= 0x80;
		line = *p == '\n' ? 0 : line + 1;
		if (line > 998)
			return g_mime_part_get_best_content_encoding(part, GMIME_ENCODING_CONSTRAINT_7BIT);
	}
	return eight ? GMIME_CONTENT_ENCODING_8BIT : GMIME_CONTENT_ENCODING_7BIT;
}

/* text/plain; charset=utf-8. */
static GMimeObject *body_part(const char *body)
{
	GMimeTextPart *tp = g_mime_text_part_new_with_subtype("plain");
	GMimeStream *stream = g_mime_stream_mem_new_with_buffer(body, strlen(body));
	GMimeDataWrapper *dw = g_mime_data_wrapper_new_with_stream(stream, GMIME_CONTENT_ENCODING_DEFAULT);

	/* Not g_mime_text_part_set_text(): it would convert to the
	 * "best" charset, Latin-1 where it fits. */
	g_mime_part_set_content(GMIME_PART(tp), dw);
	g_mime_text_part_set_charset(tp, "utf-8");
	g_mime_part_set_content_encoding(GMIME_PART(tp), body_encoding(GMIME_PART(tp), body));
	g_object_unref(dw);
	g_object_unref(stream);
	return GMIME_OBJECT(tp);
}

static wn_status build(GMimeMessage *m, const wn_forward *f, time_t date, wn_error *err)
{
	GDateTime *d = g_date_time_new_from_unix_local((gint64) date);
	GMimeObject *part;
	char *subject;
	wn_status st;

	if (!d)
		return wn_error_set(err, WN_USAGE, "cannot represent the date %lld", (long long) date);
	g_mime_message_set_date(m, d);
	g_date_time_unref(d);
	if ((st = set_addresses(m, GMIME_ADDRESS_TYPE_FROM, f->from, err)) != WN_OK ||
	    (st = set_addresses(m, GMIME_ADDRESS_TYPE_TO, f->to, err)) != WN_OK ||
	    (st = set_addresses(m, GMIME_ADDRESS_TYPE_CC, f->cc, err)) != WN_OK)
		return st;
	/* Made safe when composed or read from the draft; checked once
	 * more here, as the last gate before a header. */
	if (!f->subject || wn_fwd_has_control(f->subject))
		return wn_error_set(err, WN_PARSE, "the Subject holds a line break or another control character");
	if (!(subject = strdup(f->subject)))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	g_mime_message_set_subject(m, subject, "utf-8");
	free(subject);
	if ((st = set_threading(m, f, err)) != WN_OK)
		return st == WN_NOMEM ? wn_error_set(err, st, "out of memory") : st;
	part = body_part(f->body ? f->body : "");
	g_mime_message_set_mime_part(m, part);
	g_object_unref(part);
	return WN_OK;
}

wn_status wn_forward_render(const wn_forward *f, time_t date, wn_buf *out, wn_error *err)
{
	GMimeFormatOptions *fo;
	GMimeMessage *m;
	char *s;
	wn_status st;

	pthread_once(&gmime_once, gmime_setup);
	m = g_mime_message_new(TRUE);
	st = build(m, f, date, err);
	if (st == WN_OK) {
		fo = g_mime_format_options_clone(NULL);
		/* sendmail -t wants the local convention: LF. */
		g_mime_format_options_set_newline_format(fo, GMIME_NEWLINE_FORMAT_UNIX);
		s = g_mime_object_to_string(GMIME_OBJECT(m), fo);
		g_mime_format_options_free(fo);
		st = s ? wn_buf_puts(out, s) : WN_NOMEM;
		g_free(s);
		if (st != WN_OK)
			wn_error_set(err, st, "out of memory");
	}
	g_object_unref(m);
	return st;
}

/* --- draft text ---------------------------------------------------------- */

wn_status wn_forward_draft_text(const wn_forward *f, wn_buf *out)
{
	return wn_buf_printf(out, "From: %s\nTo: %s\nCc: %s\nSubject: %s\n\n%s", f->from, f->to,
			     f->cc ? f->cc : "", f->subject, f->body ? f->body : "");
}

/* The edited headers, before they replace f's. */
struct edited {
	char *v[4];		/* From, To, Cc, Subject */
};

static const char *const edit_names[] = { "From", "To", "Cc", "Subject" };

static void edited_clear(struct edited *e)
{
	for (size_t i = 0; i < 4; i++)
		free(e->v[i]);
}

/* One header line (continuations joined) into e; names in any case,
 * as mail headers are. */
static wn_status take_header(struct edited *e, const char *line, wn_error *err)
{
	const char *colon = strchr(line, ':');
	size_t i;

	for (i = 0; colon && i < 4; i++)
		if ((size_t) (colon - line) == strlen(edit_names[i]) &&
		    strncasecmp(line, edit_names[i], strlen(edit_names[i])) == 0)
			break;
	if (!colon || i == 4)
		return wn_error_set(err, WN_PARSE, "the draft's header '%.40s' is not one of From, To, Cc, "
				    "Subject (a blank line must end the headers)", line);
	free(e->v[i]);
	e->v[i] = wn_text_header_safe(colon + 1);
	return e->v[i] ? WN_OK : WN_NOMEM;
}

/* Check the edited addresses and bring them to the draft's form. */
static wn_status canon_addresses(char **v, bool one, bool need, const char *what, wn_error *err)
{
	fwd_mboxes l = { 0 };
	wn_status st = wn_fwd_parse_addresses(*v, &l, true, err);
	char *s;

	if (st == WN_PARSE)
		return wn_error_prefix(err, WN_PARSE, what);
	if (st == WN_OK && need && !l.n)
		st = wn_error_set(err, WN_PARSE, "the draft has no %s address", what);
	if (st == WN_OK && one && l.n > 1)
		st = wn_error_set(err, WN_PARSE, "the draft's %s names more than one address", what);
	if (st == WN_OK) {
		s = wn_fwd_format_addresses(&l);
		if (!s)
			st = WN_NOMEM;
		else {
			free(*v);
			*v = s;
		}
	}
	wn_fwd_mboxes_clear(&l);
	return st;
}

static wn_status read_headers(const char *text, size_t len, struct edited *e, size_t *body, wn_error *err)
{
	wn_buf cur = WN_BUF_INIT;
	size_t pos = 0, n;
	const char *l;
	wn_status st = WN_OK;

	*body = len;
	while (st == WN_OK && wn_str_next_line(text, len, &pos, &l, &n)) {
		if (n && l[n - 1] == '\r')
			n--;
		if (n && (l[0] == ' ' || l[0] == '\t') && cur.len) {
			st = wn_buf_append(&cur, l, n);
			continue;
		}
		if (cur.len)
			st = take_header(e, cur.data, err);
		wn_buf_reset(&cur);
		if (!n) {
			*body = pos;
			break;
		}
		if (st == WN_OK)
			st = wn_buf_append(&cur, l, n);
	}
	if (st == WN_OK && cur.len)
		st = take_header(e, cur.data, err);
	wn_buf_free(&cur);
	return st;
}

wn_status wn_forward_draft_parse(wn_forward *f, const char *text, size_t len, wn_error *err)
{
	struct edited e = { { NULL } };
	size_t body;
	char *b = NULL;
	wn_status st = read_headers(text, len, &e, &body, err);

	if (st == WN_OK && !e.v[0] && !(e.v[0] = strdup(f->from)))
		st = WN_NOMEM;
	if (st == WN_OK)
		st = canon_addresses(&e.v[0], true, true, "From", err);
	if (st == WN_OK)
		st = canon_addresses(&e.v[1], false, true, "To", err);
	if (st == WN_OK)
		st = canon_addresses(&e.v[2], false, false, "Cc", err);
	if (st == WN_OK && (!e.v[3] || !*e.v[3]))
		st = wn_error_set(err, WN_PARSE, "the draft has no Subject");
	if (st == WN_OK) {
		char *raw = wn_strndup(text + body, len - body);
		/* The user's text, but still no control characters in mail. */
		b = raw ? wn_text_sanitize(raw, WN_TEXT_KEEP_NEWLINE | WN_TEXT_KEEP_TAB) : NULL;
		free(raw);
		if (!b)
			st = WN_NOMEM;
	}
	if (st == WN_OK) {
		free(f->from);
		free(f->to);
		free(f->cc);
		free(f->subject);
		free(f->body);
		f->from = e.v[0];
		f->to = e.v[1];
		f->cc = e.v[2] ? e.v[2] : strdup("");
		f->subject = e.v[3];
		f->body = b;
		if (!f->cc)
			st = WN_NOMEM;
		memset(&e, 0, sizeof(e));
	}
	if (st == WN_NOMEM)
		wn_error_set(err, WN_NOMEM, "out of memory");
	edited_clear(&e);
	return st;
}
