/* winnow — one mail, decoded.  GMime does the MIME work (it is what
 * notmuch itself indexes with, so we see mail the way the index does);
 * this file picks the text part, bounds its size, and hands the
 * header fields and the text to mail-fill.c, which copies them out
 * into plain malloc'd strings.  The entry points try the plain reader
 * (mail-plain.c) first. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gmime/gmime.h>

#include "mail-private.h"
#include "../core/file.h"
#include "../core/fileid.h"
#include "winnow/buf.h"

/* Deeper MIME nesting than this is not a real mail. */
#define WN_MAIL_MAX_DEPTH 32

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
	char chunk[WN_MAIL_CHUNK];
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

/* GMimeAddressType of each address header the message parses itself
 * (up to Reply-To; X-Original-From is no header GMime knows). */
static const GMimeAddressType address_types[MH_REPLY_TO + 1] = {
	[MH_FROM] = GMIME_ADDRESS_TYPE_FROM,
	[MH_TO] = GMIME_ADDRESS_TYPE_TO,
	[MH_CC] = GMIME_ADDRESS_TYPE_CC,
	[MH_REPLY_TO] = GMIME_ADDRESS_TYPE_REPLY_TO,
};

/* X-Original-From's list, parsed from its raw value as mail-plain.c
 * parses it (a new reference); NULL when absent or unparsable. */
static InternetAddressList *original_from(GMimeMessage *msg)
{
	GMimeHeaderList *hl = g_mime_object_get_header_list(GMIME_OBJECT(msg));
	GMimeHeader *h = hl ? g_mime_header_list_get_header(hl, wn_mail_header_names[MH_ORIGINAL_FROM]) : NULL;
	const char *raw = h ? g_mime_header_get_raw_value(h) : NULL;

	return raw ? internet_address_list_parse(wn_mail_gmime(), raw) : NULL;
}

static wn_status fill(wn_mail *m, GMimeMessage *msg)
{
	mail_view v = { .subject = g_mime_message_get_subject(msg),
			.message_id = g_mime_message_get_message_id(msg),
			.date = g_mime_message_get_date(msg) };
	wn_status st;

	for (int h = 0; h < MH_COUNT; h++)
		v.hdr[h] = g_mime_object_get_header(GMIME_OBJECT(msg), wn_mail_header_names[h]);
	for (int h = 0; h <= MH_REPLY_TO; h++)
		v.addrs[h] = g_mime_message_get_addresses(msg, address_types[h]);
	v.addrs[MH_ORIGINAL_FROM] = original_from(msg);
	st = wn_mail_fill_headers(m, &v);
	if (v.addrs[MH_ORIGINAL_FROM])
		g_object_unref(v.addrs[MH_ORIGINAL_FROM]);
	if (st != WN_OK)
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
	msg = g_mime_parser_construct_message(parser, wn_mail_gmime());
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

/* GMime's parse of data[0..len) (copied), what naming it in errors. */
static wn_status parse_bytes(const char *data, size_t len, const char *what, wn_mail **out,
			     wn_error *err)
{
	GMimeStream *stream = g_mime_stream_mem_new_with_buffer(data, len);
	wn_status st;

	if (!stream)
		return wn_error_set(err, WN_NOMEM, "%s: out of memory", what);
	st = parse_stream(stream, len >= 5 && !memcmp(data, "From ", 5), what, out, err);
	g_object_unref(stream);
	return st;
}

wn_status wn_mail_parse_mem_gmime(const char *data, size_t len, wn_mail **out, wn_error *err)
{
	if (!out)
		return wn_error_set(err, WN_USAGE, "wn_mail_parse_mem: no result pointer");
	*out = NULL;
	if (!data || !len)
		return wn_error_set(err, WN_PARSE, "empty input: not a mail message");
	wn_mail_gmime();
	return parse_bytes(data, len, "<memory>", out, err);
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
 * NULL when it holds more, none, or cannot be read. */
static char *slurp(int fd, size_t size, size_t max, size_t *n)
{
	char *buf = wn_fd_read_all(fd, size, max, n);

	if (buf && !*n) {
		free(buf);
		return NULL;
	}
	return buf;
}

wn_status wn_mail_parse_file(const char *path, wn_mail **out, wn_error *err)
{
	return wn_mail_parse_file_stat(path, out, NULL, err);
}

/* Did the file at fd keep what *was said of it while it was read?  A
 * write in place changes its change time (and size or modification
 * time, but a tool may put those back); its inode and device cannot
 * change under an open descriptor.  A file last changed before the
 * second before the first fstat() (at before) needs no second one: a
 * write since gave it a later change time than *was holds, so *was is
 * no longer its identity, which is all *was is for.  Most mail is old:
 * this was one fstat() per mail read. */
static void keep_if_steady(int fd, struct stat *was, time_t before)
{
	struct stat now;

	if (was->st_ctim.tv_sec < before - 1)
		return;
	if (fstat(fd, &now) != 0 || now.st_size != was->st_size ||
	    now.st_mtim.tv_sec != was->st_mtim.tv_sec || now.st_mtim.tv_nsec != was->st_mtim.tv_nsec ||
	    now.st_ctim.tv_sec != was->st_ctim.tv_sec || now.st_ctim.tv_nsec != was->st_ctim.tv_nsec)
		was->st_mode = 0;
}

/* What was read at path, steady or not (ids), all of it in all[0..n)
 * when that is at hand, for the read log (core/fileid.h) and the
 * caller's *read_sb. */
static void read_from(const char *path, int fd, struct stat *ids, struct stat *read_sb,
		      time_t before, const char *all, size_t n)
{
	keep_if_steady(fd, ids, before);
	if (read_sb && !ids->st_mode)
		read_sb->st_mode = 0;
	wn_readlog_note_read(path, ids->st_mode ? ids : NULL, all, n);
}

static wn_status read_file(const char *path, wn_mail **out, struct stat *read_sb, enum mail_lean lean,
			   wn_error *err)
{
	GMimeStream *stream;
	struct stat sb, ids;
	char head[5];
	ssize_t got;
	wn_status st;
	char *buf;
	size_t n;
	int fd;
	time_t before;

	if (!out || !path)
		return wn_error_set(err, WN_USAGE, "wn_mail_parse_file: no path or result pointer");
	*out = NULL;
	fd = wn_open_mail(path);
	if (read_sb)
		read_sb->st_mode = 0;
	if (fd < 0) {
		int e = errno;

		/* A file gone is an answer too: the read log keeps that. */
		if (e == ENOENT)
			wn_readlog_note(path, NULL);
		else
			wn_readlog_unsure();
		return wn_error_set(err, WN_IO, "%s: %s", path, strerror(e));
	}
	before = time(NULL);
	if (fstat(fd, &sb) < 0) {
		int e = errno;

		close(fd);
		wn_readlog_unsure();
		return wn_error_set(err, WN_IO, "%s: %s", path, strerror(e));
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		wn_readlog_unsure();
		return wn_error_set(err, WN_IO, "%s: %s", path,
				    S_ISDIR(sb.st_mode) ? strerror(EISDIR) : "not a regular file");
	}
	ids = sb;
	if (sb.st_size == 0) {
		read_from(path, fd, &ids, NULL, before, "", 0);
		close(fd);
		return wn_error_set(err, WN_PARSE, "%s: empty file: not a mail message", path);
	}
	if (read_sb)
		*read_sb = sb;
	wn_mail_gmime();
	/* Most mail is plain: read it whole and without GMime's objects. */
	buf = slurp(fd, (size_t) sb.st_size, WN_MAIL_PLAIN_MAX, &n);
	if (buf) {
		read_from(path, fd, &ids, read_sb, before, buf, n);
		close(fd);
		st = wn_mail_plain_read(buf, n, lean, out);
		/* Not plain: GMime parses the same bytes, so that what the
		 * read log noted is what was parsed. */
		if (st == WN_NOT_FOUND)
			st = parse_bytes(buf, n, path, out, err);
		else if (st != WN_OK)
			st = wn_error_set(err, st, "%s: out of memory", path);
		free(buf);
		return st;
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
	read_from(path, fd, &ids, read_sb, before, NULL, 0);
	g_object_unref(stream);
	return st;
}

wn_status wn_mail_parse_file_stat(const char *path, wn_mail **out, struct stat *read_sb, wn_error *err)
{
	return read_file(path, out, read_sb, LEAN_NONE, err);
}

wn_status wn_mail_parse_file_lean(const char *path, wn_mail **out, struct stat *read_sb, bool with_list,
				  wn_error *err)
{
	return read_file(path, out, read_sb, with_list ? LEAN_LIST : LEAN_SENDER, err);
}
