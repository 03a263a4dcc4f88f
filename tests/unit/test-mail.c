/* winnow — unit tests of MIME decoding: every mail is an inline string
 * written for the case it checks. */
#include "autoconfig.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../src/lib/mail/mail-test.h"
#include "winnow/mail.h"
#include "winnow/text.h"

static wn_mail *parse_ok(const char *text)
{
	wn_mail *m = NULL;
	wn_error err = WN_ERROR_INIT;
	wn_status st = wn_mail_parse_mem(text, strlen(text), &m, &err);

	if (st != WN_OK)
		fail_msg("parse failed: %s", wn_error_msg(&err));
	assert_non_null(m);
	wn_error_clear(&err);
	return m;
}

/* One person, however the From is written; "" for no address. */
static void test_addr(void **state)
{
	static const char *const same[] = {
		"Nina Newbie <nina.newbie@example.net>",
		"\"Newbie, Nina\" <Nina.Newbie@EXAMPLE.net>",
		"nina.newbie@example.net (Nina Newbie)",
		"NINA.NEWBIE@example.NET",
		"Nina \x01Newbie <nina.newbie@example.net>",
	};
	char *a;

	(void) state;
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		a = wn_mail_addr(same[i]);
		assert_non_null(a);
		assert_string_equal(a, "nina.newbie@example.net");
		free(a);
	}
	a = wn_mail_addr("x.nina.newbie@example.net");
	assert_string_equal(a, "x.nina.newbie@example.net");
	free(a);
	a = wn_mail_addr("");
	assert_string_equal(a, "");
	free(a);
	a = wn_mail_addr(NULL);
	assert_string_equal(a, "");
	free(a);
}

static void test_qp_utf8(void **state)
{
	wn_mail *m;

	(void) state;
	m = parse_ok(
		"From: sashiko-bot@kernel.org\n"
		"To: Some Author <author@example.org>\n"
		"Cc: list@vger.kernel.org\n"
		"Reply-To: reviews@example.org\n"
		"Subject: Re: [PATCH v2 2/5] subsys: invented subject\n"
		"Date: Tue, 03 Jun 2025 10:00:00 +0000\n"
		"Message-ID: <review-1@sashiko.dev>\n"
		"In-Reply-To: <patch-2@example.org>\n"
		"References: <cover@example.org> <patch-2@example.org>\n"
		"MIME-Version: 1.0\n"
		"Content-Type: text/plain; charset=\"utf-8\"\n"
		"Content-Transfer-Encoding: quoted-printable\n"
		"\n"
		"Sashiko AI review =C2=B7 https://sashiko.dev/#/patchset/x?part=3D2\n"
		"a very long line that was wrapped by a soft line br=\n"
		"eak in the middle\n");
	assert_string_equal(m->message_id, "review-1@sashiko.dev");
	assert_string_equal(m->from, "sashiko-bot@kernel.org");
	assert_string_equal(m->from_addr, "sashiko-bot@kernel.org");
	assert_null(m->from_name);
	assert_string_equal(m->to, "Some Author <author@example.org>");
	assert_string_equal(m->cc, "list@vger.kernel.org");
	assert_string_equal(m->reply_to, "reviews@example.org");
	assert_string_equal(m->subject, "Re: [PATCH v2 2/5] subsys: invented subject");
	assert_int_equal(m->date, 1748944800);
	assert_string_equal(m->in_reply_to, "patch-2@example.org");
	assert_int_equal(m->nreferences, 2);
	assert_string_equal(m->references[0], "cover@example.org");
	assert_string_equal(m->references[1], "patch-2@example.org");
	assert_string_equal(m->body,
		"Sashiko AI review \xc2\xb7 https://sashiko.dev/#/patchset/x?part=2\n"
		"a very long line that was wrapped by a soft line break in the middle\n");
	assert_int_equal(m->body_len, strlen(m->body));
	wn_mail_free(&m);
	assert_null(m);
}

static void test_base64_crlf(void **state)
{
	wn_mail *m;

	(void) state;
	/* "line one\r\nline two\r\n" in base64, the whole mail in CRLF */
	m = parse_ok(
		"From: \"Bot, CI\" <BOT+bpf-ci@Kernel.ORG>\r\n"
		"Subject: Re: [PATCH bpf-next] bpf: x\r\n"
		"Message-ID: <b64@x>\r\n"
		"Content-Type: text/plain; charset=utf-8\r\n"
		"Content-Transfer-Encoding: base64\r\n"
		"\r\n"
		"bGluZSBvbmUNCmxpbmUgdHdvDQo=\r\n");
	assert_string_equal(m->body, "line one\nline two\n");
	assert_string_equal(m->from_addr, "bot+bpf-ci@kernel.org");
	assert_string_equal(m->from_name, "Bot, CI");
	assert_string_equal(m->subject, "Re: [PATCH bpf-next] bpf: x");
	assert_null(strchr(m->subject, '\r'));
	wn_mail_free(&m);

	m = parse_ok("Subject: crlf\r\n\r\nbody one\r\nbody two\r\n");
	assert_string_equal(m->body, "body one\nbody two\n");
	wn_mail_free(&m);
}

/* The body's CRs and NULs (mail-fill.c, finish_body()): a CR before a
 * LF goes, any other stays; every NUL goes, wherever the runs between
 * them end. */
static void test_body_cr_nul(void **state)
{
	static const char text[] = "Subject: cr\n\na\rb\r\nc\0d\r\r\ne\0\0\r\nf\r";
	wn_error err = WN_ERROR_INIT;
	wn_mail *m = NULL;

	(void) state;
	assert_int_equal(wn_mail_parse_mem(text, sizeof(text) - 1, &m, &err), WN_OK);
	assert_int_equal(m->body_len, 12);
	assert_memory_equal(m->body, "a\rb\ncd\r\ne\nf\r", 12);
	assert_int_equal(m->body[12], '\0');
	wn_mail_free(&m);
	wn_error_clear(&err);
}

static void test_multipart_mixed(void **state)
{
	wn_mail *m;

	(void) state;
	m = parse_ok(
		"From: A <a@example.org>\n"
		"Subject: mixed\n"
		"MIME-Version: 1.0\n"
		"Content-Type: multipart/mixed; boundary=\"XX\"\n"
		"\n"
		"preamble\n"
		"--XX\n"
		"Content-Type: application/octet-stream\n"
		"Content-Transfer-Encoding: base64\n"
		"\n"
		"AAECAw==\n"
		"--XX\n"
		"Content-Type: text/plain; charset=us-ascii\n"
		"Content-Disposition: attachment; filename=\"config.txt\"\n"
		"\n"
		"CONFIG_ATTACHED=y\n"
		"--XX\n"
		"Content-Type: text/plain; charset=utf-8\n"
		"Content-Disposition: inline\n"
		"Content-Transfer-Encoding: quoted-printable\n"
		"\n"
		"the inline text =E2=9C=93\n"
		"--XX--\n");
	/* The line break before a boundary belongs to the boundary. */
	assert_string_equal(m->body, "the inline text \xe2\x9c\x93");
	wn_mail_free(&m);

	/* Only an attached text part: still better than nothing. */
	m = parse_ok(
		"Subject: attached patch\n"
		"Content-Type: multipart/mixed; boundary=b\n"
		"\n"
		"--b\n"
		"Content-Type: text/x-patch; charset=utf-8\n"
		"Content-Disposition: attachment; filename=x.patch\n"
		"\n"
		"not plain\n"
		"--b\n"
		"Content-Type: text/plain\n"
		"Content-Disposition: attachment; filename=p.txt\n"
		"\n"
		"attached plain\n"
		"--b--\n");
	assert_string_equal(m->body, "attached plain");
	wn_mail_free(&m);
}

static void test_multipart_alternative(void **state)
{
	wn_mail *m;

	(void) state;
	/* HTML first: text/plain must still win. */
	m = parse_ok(
		"Subject: alt\n"
		"Content-Type: multipart/mixed; boundary=outer\n"
		"\n"
		"--outer\n"
		"Content-Type: multipart/alternative; boundary=inner\n"
		"\n"
		"--inner\n"
		"Content-Type: text/html; charset=utf-8\n"
		"\n"
		"<p>html</p>\n"
		"--inner\n"
		"Content-Type: text/plain; charset=utf-8\n"
		"\n"
		"plain\n"
		"--inner--\n"
		"--outer\n"
		"Content-Type: text/plain\n"
		"Content-Disposition: attachment; filename=log.txt\n"
		"\n"
		"log\n"
		"--outer--\n");
	assert_string_equal(m->body, "plain");
	wn_mail_free(&m);

	m = parse_ok(
		"Subject: html only\n"
		"Content-Type: text/html; charset=utf-8\n"
		"\n"
		"<p>only html</p>\n");
	assert_string_equal(m->body, "<p>only html</p>\n");
	wn_mail_free(&m);
}

static void test_charsets(void **state)
{
	wn_mail *m;

	(void) state;
	m = parse_ok(
		"Subject: latin1\n"
		"Content-Type: text/plain; charset=ISO-8859-1\n"
		"Content-Transfer-Encoding: 8bit\n"
		"\n"
		"Gr\xfc\xdf" "e, Ren\xe9\n");
	assert_string_equal(m->body, "Gr\xc3\xbc\xc3\x9f" "e, Ren\xc3\xa9\n");
	wn_mail_free(&m);

	m = parse_ok(
		"Subject: qp latin1\n"
		"Content-Type: text/plain; charset=iso-8859-1\n"
		"Content-Transfer-Encoding: quoted-printable\n"
		"\n"
		"caf=E9\n");
	assert_string_equal(m->body, "caf\xc3\xa9\n");
	wn_mail_free(&m);

	/* A charset nobody knows: valid UTF-8 stays as it is... */
	m = parse_ok(
		"Subject: bogus\n"
		"Content-Type: text/plain; charset=x-no-such-charset\n"
		"\n"
		"caf\xc3\xa9\n");
	assert_string_equal(m->body, "caf\xc3\xa9\n");
	wn_mail_free(&m);
	/* ...and anything else is read as Latin-1. */
	m = parse_ok(
		"Subject: bogus\n"
		"Content-Type: text/plain; charset=x-no-such-charset\n"
		"\n"
		"caf\xe9\n");
	assert_string_equal(m->body, "caf\xc3\xa9\n");
	wn_mail_free(&m);

	/* Declared UTF-8 with a broken byte: repaired, never invalid. */
	m = parse_ok(
		"Subject: broken\n"
		"Content-Type: text/plain; charset=utf-8\n"
		"\n"
		"a\xff" "b \xc3\xa9\n");
	assert_string_equal(m->body, "a\xef\xbf\xbd" "b \xc3\xa9\n");
	wn_mail_free(&m);

	/* No charset, 8-bit UTF-8 */
	m = parse_ok("Subject: none\n\n\xe2\x80\x94 dash\n");
	assert_string_equal(m->body, "\xe2\x80\x94 dash\n");
	wn_mail_free(&m);

	/* Bytes the charset does not define become U+FFFD. */
	m = parse_ok(
		"Subject: sjis\n"
		"Content-Type: text/plain; charset=us-ascii\n"
		"\n"
		"plain ascii\n");
	assert_string_equal(m->body, "plain ascii\n");
	wn_mail_free(&m);
}

static void test_rfc2047_subject(void **state)
{
	wn_mail *m;
	char *safe;

	(void) state;
	/* ESC hidden inside an encoded word: decoded as is (mail.h: not
	 * sanitised), then the sanitiser removes the whole sequence. */
	m = parse_ok(
		"From: =?UTF-8?Q?J=C3=B6rg_Evil?= <joerg@example.org>\n"
		"Subject: =?UTF-8?B?W1BBVENIXSBmb28gG10wO3B3bmVkBw==?= =?UTF-8?Q?_=C3=BCber?=\n"
		"\n"
		"x\n");
	assert_non_null(strchr(m->subject, '\x1b'));
	safe = wn_text_sanitize(m->subject, 0);
	/* Adjacent encoded words join without the blank between them. */
	assert_string_equal(safe, "[PATCH] foo  \xc3\xbc" "ber");
	free(safe);
	assert_string_equal(m->from_name, "J\xc3\xb6rg Evil");
	assert_string_equal(m->from, "J\xc3\xb6rg Evil <joerg@example.org>");
	wn_mail_free(&m);

	/* A From that GMime's strict address parser rejects still yields
	 * the address. */
	m = parse_ok(
		"From: =?UTF-8?Q?J=C3=B6rg_\x1b[31mX?= <Joerg@Example.ORG>\n"
		"Subject: s\n\nx\n");
	assert_string_equal(m->from_addr, "joerg@example.org");
	assert_non_null(m->from_name);
	wn_mail_free(&m);
}

static void test_folded_subject(void **state)
{
	wn_mail *m;

	(void) state;
	m = parse_ok(
		"Subject: Re: [PATCH v3 04/12] mm/slab: a subject that is long\n"
		"  enough to be folded\n"
		"\ttwice\n"
		"From: Maintainer Name\n"
		" <maint@example.org>\n"
		"References: <a@x>\n"
		"\t<b@x>\n"
		"  <c@x>\n"
		"\n"
		"body\n");
	assert_string_equal(m->subject,
		"Re: [PATCH v3 04/12] mm/slab: a subject that is long enough to be folded twice");
	assert_string_equal(m->from_addr, "maint@example.org");
	assert_string_equal(m->from_name, "Maintainer Name");
	assert_int_equal(m->nreferences, 3);
	assert_string_equal(m->references[2], "c@x");
	wn_mail_free(&m);
}

static void test_missing_headers(void **state)
{
	wn_mail *m;

	(void) state;
	m = parse_ok("X-Nothing: here\n\nonly a body\n");
	assert_null(m->message_id);
	assert_string_equal(m->from, "");
	assert_string_equal(m->from_addr, "");
	assert_null(m->from_name);
	assert_string_equal(m->subject, "");
	assert_null(m->to);
	assert_null(m->cc);
	assert_null(m->reply_to);
	assert_null(m->in_reply_to);
	assert_int_equal(m->nreferences, 0);
	assert_int_equal(m->date, 0);
	assert_string_equal(m->body, "only a body\n");
	wn_mail_free(&m);

	/* Headers only, no body, no final newline */
	m = parse_ok("Subject: nothing else");
	assert_string_equal(m->subject, "nothing else");
	assert_string_equal(m->body, "");
	assert_int_equal(m->body_len, 0);
	wn_mail_free(&m);

	/* Broken values */
	m = parse_ok(
		"Date: the day after tomorrow\n"
		"Message-ID: \n"
		"In-Reply-To: garbage without brackets\n"
		"References: \n"
		"\n");
	assert_int_equal(m->date, 0);
	assert_null(m->message_id);
	assert_null(m->in_reply_to);
	assert_int_equal(m->nreferences, 0);
	wn_mail_free(&m);

	/* Junk around ids, old-style In-Reply-To, bare ids */
	m = parse_ok(
		"Message-ID: bare@id.example\n"
		"In-Reply-To: <x@y> (Someone's message of \"Mon, 1 Jan 2024\")\n"
		"References: junk <a@b> more junk <c d@e> <<f@g>\n"
		"\n");
	assert_string_equal(m->message_id, "bare@id.example");
	assert_string_equal(m->in_reply_to, "x@y");
	assert_int_equal(m->nreferences, 2);
	assert_string_equal(m->references[0], "a@b");
	assert_string_equal(m->references[1], "f@g");
	wn_mail_free(&m);
	m = parse_ok("In-Reply-To: bare@irt.example\nReferences: r1@x r2@x\n\n");
	assert_string_equal(m->in_reply_to, "bare@irt.example");
	assert_int_equal(m->nreferences, 2);
	assert_string_equal(m->references[1], "r2@x");
	wn_mail_free(&m);
}

static void test_mbox_from_line(void **state)
{
	wn_mail *m;

	(void) state;
	/* git format-patch output */
	m = parse_ok(
		"From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
		"From: Some Author <author@example.org>\n"
		"Date: Mon, 2 Jun 2025 12:00:00 +0200\n"
		"Subject: [PATCH] subsys: fix\n"
		"\n"
		"Body.\n"
		"\n"
		"Signed-off-by: Some Author <author@example.org>\n"
		"---\n");
	assert_string_equal(m->from_addr, "author@example.org");
	assert_string_equal(m->subject, "[PATCH] subsys: fix");
	assert_int_equal(m->date, 1748858400);
	assert_non_null(strstr(m->body, "Signed-off-by: Some Author"));
	wn_mail_free(&m);
}

static void expect_parse_error(const char *data, size_t len)
{
	wn_mail *m = (wn_mail *) 1;
	wn_error err = WN_ERROR_INIT;

	assert_int_equal(wn_mail_parse_mem(data, len, &m, &err), WN_PARSE);
	assert_null(m);
	assert_int_equal(err.status, WN_PARSE);
	assert_non_null(err.msg);
	assert_null(strchr(err.msg, '\n'));
	wn_error_clear(&err);
}

static void test_garbage(void **state)
{
	(void) state;
	expect_parse_error("hello world\nthis is not a mail\n", 31);
	expect_parse_error("\0\1\2\3binary", 10);
	expect_parse_error("", 0);
	expect_parse_error("\n\n\n", 3);
}

static void test_files(void **state)
{
	char path[] = "/tmp/wn-test-mail-XXXXXX";
	const char *mail = "From: a@b.c\nSubject: from a file\n\nfile body\n";
	wn_mail *m = NULL;
	wn_error err = WN_ERROR_INIT;
	int fd;

	(void) state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, mail, strlen(mail)), (ssize_t) strlen(mail));
	close(fd);
	assert_int_equal(wn_mail_parse_file(path, &m, &err), WN_OK);
	assert_string_equal(m->subject, "from a file");
	assert_string_equal(m->body, "file body\n");
	wn_mail_free(&m);
	unlink(path);

	assert_int_equal(wn_mail_parse_file(path, &m, &err), WN_IO);
	assert_null(m);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "No such file"));
	wn_error_clear(&err);

	assert_int_equal(wn_mail_parse_file("/", &m, &err), WN_IO);
	assert_null(m);
	wn_error_clear(&err);

	/* NULL error pointer is allowed */
	assert_int_equal(wn_mail_parse_file(path, &m, NULL), WN_IO);
}

/* What wn_mail_parse_file_stat() says of the file it read is the file
 * at the path (a cache keys records on it), for the plain reader and
 * GMime's alike; nothing when nothing was read. */
static void check_read_stat(const char *mail)
{
	char path[] = "/tmp/wn-test-mail-XXXXXX";
	struct stat sb, at;
	wn_mail *m = NULL;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, mail, strlen(mail)), (ssize_t) strlen(mail));
	close(fd);
	memset(&sb, 0, sizeof(sb));
	assert_int_equal(wn_mail_parse_file_stat(path, &m, &sb, NULL), WN_OK);
	assert_non_null(m);
	wn_mail_free(&m);
	assert_int_equal(stat(path, &at), 0);
	assert_true(S_ISREG(sb.st_mode));
	assert_true(sb.st_ino == at.st_ino && sb.st_dev == at.st_dev);
	assert_true(sb.st_size == at.st_size && sb.st_size == (off_t) strlen(mail));
	assert_true(sb.st_mtim.tv_sec == at.st_mtim.tv_sec && sb.st_mtim.tv_nsec == at.st_mtim.tv_nsec);

	/* An empty file is not read: no identity. */
	assert_int_equal(truncate(path, 0), 0);
	assert_int_not_equal(wn_mail_parse_file_stat(path, &m, &sb, NULL), WN_OK);
	assert_int_equal(sb.st_mode, 0);
	unlink(path);
	sb.st_mode = S_IFREG;
	assert_int_equal(wn_mail_parse_file_stat(path, &m, &sb, NULL), WN_IO);
	assert_int_equal(sb.st_mode, 0);
	assert_null(m);
}

static void test_file_stat(void **state)
{
	(void) state;
	check_read_stat("From: a@b.c\nSubject: plain\n\nbody\n");
	/* An mbox "From " line sends it through GMime's stream. */
	check_read_stat("From a@b.c Thu Jan  1 00:00:00 2026\nFrom: a@b.c\nSubject: mbox\n\nbody\n");
}

static void test_body_limit(void **state)
{
	/* A 20 MiB body is cut to 16 MiB, on a character boundary. */
	size_t big = (size_t) 20 << 20, hdr, i;
	const char *head = "Subject: big\nContent-Type: text/plain; charset=utf-8\n\n";
	char *data;
	wn_mail *m = NULL;
	wn_error err = WN_ERROR_INIT;

	(void) state;
	hdr = strlen(head);
	data = malloc(hdr + big);
	assert_non_null(data);
	memcpy(data, head, hdr);
	for (i = 0; i + 2 <= big; i += 2) {
		data[hdr + i] = '\xc3';
		data[hdr + i + 1] = '\xa9';
	}
	assert_int_equal(wn_mail_parse_mem(data, hdr + big, &m, &err), WN_OK);
	assert_true(m->body_len <= ((size_t) 16 << 20));
	assert_true(m->body_len >= ((size_t) 16 << 20) - 4);
	assert_int_equal(m->body_len % 2, 0);
	assert_int_equal(strlen(m->body), m->body_len);
	wn_mail_free(&m);
	free(data);
}

static bool same_str(const char *a, const char *b)
{
	return (a == NULL) == (b == NULL) && (!a || strcmp(a, b) == 0);
}

static void assert_same_str(const char *what, const char *a, const char *b)
{
	if (!same_str(a, b))
		fail_msg("%s: plain reader '%s', GMime '%s'", what, a ? a : "(null)", b ? b : "(null)");
}

/* The plain reader gives what GMime's parser gives, field for field. */
static void assert_same_mail(const wn_mail *p, const wn_mail *g)
{
	assert_same_str("message_id", p->message_id, g->message_id);
	assert_same_str("from", p->from, g->from);
	assert_same_str("from_addr", p->from_addr, g->from_addr);
	assert_same_str("from_name", p->from_name, g->from_name);
	assert_same_str("subject", p->subject, g->subject);
	assert_same_str("to", p->to, g->to);
	assert_same_str("cc", p->cc, g->cc);
	assert_same_str("reply_to", p->reply_to, g->reply_to);
	assert_same_str("original_from", p->original_from, g->original_from);
	assert_same_str("list_id", p->list_id, g->list_id);
	assert_same_str("in_reply_to", p->in_reply_to, g->in_reply_to);
	assert_int_equal(p->nreferences, g->nreferences);
	for (size_t i = 0; i < p->nreferences; i++)
		assert_same_str("references", p->references[i], g->references[i]);
	assert_int_equal(p->date, g->date);
	assert_int_equal(p->body_len, g->body_len);
	assert_memory_equal(p->body, g->body, p->body_len);
}

struct plain_case {
	const char *mail;
	size_t len;		/* 0: strlen */
	bool plain;		/* read by the plain reader, else left to GMime */
};
/* GMime's lenient parser reads '"x" <a@b@c.com>' as a@b: somebody else.
 * The word is no address: dropped from what the mail's addresses are,
 * kept as the header wrote it in the text (forward drops it, saying
 * so), never turned into a@b.  A real a@b beside it stays. */
static void test_misread_address(void **state)
{
	wn_mail *m;
	char *a;

	(void) state;
	m = parse_ok("From: \"x\" <a@b@c.com>\nTo: Ann <ann@example.org>\n"
		     "Cc: Carl <carl@example.com>, \"x\" <a@b@c.com>, d@e.org\nSubject: s\n\nbody\n");
	assert_string_equal(m->from_addr, "");
	assert_string_equal(m->cc, "Carl <carl@example.com>, d@e.org, x <a@b@c.com>");
	assert_null(strstr(m->cc, "a@b>"));
	assert_string_equal(m->to, "Ann <ann@example.org>");
	wn_mail_free(&m);
	m = parse_ok("From: a@b\nCc: \"x\" <a@b@c.com>, <a@b>\nSubject: s\n\nbody\n");
	assert_string_equal(m->from_addr, "a@b");
	assert_string_equal(m->cc, "a@b, x <a@b@c.com>");
	wn_mail_free(&m);
	a = wn_mail_addr("\"x\" <a@b@c.com>");
	assert_string_equal(a, "");
	free(a);
	a = wn_mail_addr("\"x\" <A@B@c.com>, y <y@example.org>");
	assert_string_equal(a, "y@example.org");
	free(a);
}

#define PLAIN(s) { s, sizeof(s) - 1, true }
#define NOT_PLAIN(s) { s, sizeof(s) - 1, false }

static const struct plain_case plain_cases[] = {
	PLAIN("From: Some One <some@example.org>\nSubject: [PATCH] x: y\n"
	      "Content-Type: text/plain; charset=\"utf-8\"\nContent-Transfer-Encoding: 8bit\n\n"
	      "body \xc3\xa9\n---\n diff\n"),
	PLAIN("From: a@b.c\nSubject: no content type at all\n\nbody"),
	PLAIN("From: a@b.c\r\nSubject: CRLF\r\n folded\r\nTo: x@y.z,\r\n\tw@v.u\r\n\r\nline\r\nline2\r\n"),
	PLAIN("From: =?utf-8?q?Doe=2C_John?= <j@x.org>\nTo: \"Q, R\" <q@r.s>, t@u.v\n"
	      "Cc: undisclosed-recipients:;\nReply-To: list: a@b.c, d@e.f;\n"
	      "Subject: =?iso-8859-1?q?caf=E9?= =?utf-8?b?w6k=?=\n\nx\n"),
	PLAIN("From: a@b.c\nSubject: qp\nContent-Type: TEXT/Plain; Charset=ISO-8859-1; format=flowed\n"
	      "Content-Transfer-Encoding: Quoted-Printable \n\ncaf=E9 soft=\nbreak =3D\n"),
	PLAIN("From: a@b.c\nSubject: b64\nContent-Type: text/plain; charset=utf-8\n"
	      "Content-Transfer-Encoding: base64\n\nw6ljb2xl\r\nIGJvZHkK\r\n"),
	PLAIN("From: a@b.c\nSubject: latin1 raw\nContent-Type: text/plain\n\ncaf\xe9\n"),
	PLAIN("From: \"Ctl\x01Name\" <ctl@x.org>\nSubject: lax\n\nbody\n"),
	PLAIN("From: \"x\" <a@b@c.com>\nCc: c@d.e, \"x\" <a@b@c.com>\nSubject: misread\n\nbody\n"),
	PLAIN("From: a@b.c\nX-Foo: 1\nX-Foo: 2\nDate: Tue, 03 Jun 2025 10:00:00 +0200\n"
	      "Message-ID: <m@x>\nIn-Reply-To: <p@x> (junk)\nReferences: <c@x>\n <p@x>\n"
	      "List-Id: Netdev <netdev.vger.kernel.org>\n\nbody\0with NUL\n"),
	PLAIN("From: a@b.c\nSubject: raw 8-bit \xe9t\xe9\nDate: not a date\n\n"),
	PLAIN("from: a@b.c\nSUBJECT: names in any case\nmessage-id: <l@x>\nDATE: Tue, 3 Jun 2025 10:00:00 +0200\n"
	      "content-type: text/plain; charset=utf-8\nIn-reply-TO: <p@x>\nlist-id: <l.x>\n\nbody\n"),
	/* multipart/mixed whose first part is a plain text, as the BPF
	 * CI's reviews are. */
	PLAIN("From: a@b.c\nSubject: mixed\nMIME-Version: 1.0\n"
	      "Content-Type: multipart/mixed; boundary=\"===============0686==\"\n\n"
	      "--===============0686==\nContent-Type: text/plain; charset=\"utf-8\"\n"
	      "Content-Transfer-Encoding: 8bit\n\n\n```\ncommit f7f4\n\xc3\xa9\n> --- a/x\n-- \n---\n\n"
	      "--===============0686==\nContent-Type: text/plain\n\nsecond\n--===============0686==--\nepilogue\n"),
	PLAIN("From: a@b.c\nContent-Type: Multipart/Mixed; boundary=b1; charset=x\n\npreamble\n--b\n--b2\n"
	      "--b1\ncontent-type: TEXT/plain; charset=iso-8859-1\ncontent-transfer-encoding: quoted-printable\n\n"
	      "caf=E9 soft=\nbreak\n--b1--\n"),
	PLAIN("From: a@b.c\nContent-Type: multipart/mixed; boundary=\"'()+_,-./:=?\"\n\n"
	      "--'()+_,-./:=?\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\nw6ljb2xl\nIGJvZHkK\n"
	      "--'()+_,-./:=?\n"),
	PLAIN("From: a@b.c\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\n--b--\n"),
	PLAIN("From: a@b.c\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\n\n\n--b--\n"),
	NOT_PLAIN(
		"From: a@b.c\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n"
		"Content-Disposition: attachment\n\nhi\n--b\nContent-Type: text/plain\n\ntwo\n--b--\n"),
	NOT_PLAIN(
		"From: a@b.c\nContent-Type: multipart/mixed; boundary=b\n\n--b \nContent-Type: text/plain\n\nhi\n--b--\n"),
	NOT_PLAIN(
		"From: a@b.c\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nhi\n--b-\n"),
	NOT_PLAIN(
		"From: a@b.c\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nhi\n"),
	NOT_PLAIN(
		"From: a@b.c\nContent-Type: multipart/mixed; boundary=b\n\n--b--\n--b\nContent-Type: text/plain\n\nhi\n--b\n"),
	NOT_PLAIN("From: a@b.c\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
		  "Content-Type: text/plain\r\n\r\nhi\r\n--b--\r\n"),
	NOT_PLAIN(
		"From: a@b.c\nContent-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/plain\n\nhi\n--b--\n"),
	NOT_PLAIN(
		"From: a@b.c\nContent-Type: multipart/mixed; boundary=b\nContent-Transfer-Encoding: base64\n\n"
		"--b\nContent-Type: text/plain\n\nhi\n--b--\n"),
	NOT_PLAIN(
		"From: a@b.c\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/html\n\nhi\n--b--\n"),
	NOT_PLAIN(
		"From: a@b.c\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: multipart/mixed; boundary=c\n\n"
		"--c\nContent-Type: text/plain\n\nhi\n--c--\n--b--\n"),
	NOT_PLAIN(
		"From: a@b.c\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain;\n charset=utf-8\n\n"
		"hi\n--b--\n"),
	NOT_PLAIN(
		"From: a@b.c\nContent-Type: multipart/mixed\n\n--b\nContent-Type: text/plain\n\nhi\n--b--\n"),
	NOT_PLAIN(
		"From: a@b.c\nContent-Type: multipart/mixed; boundary=b; boundary=c\n\n--b\nContent-Type: text/plain\n\n"
		"hi\n--b--\n"),
	NOT_PLAIN(
		"From: a@b.c\nContent-Type: multipart/mixed; boundary=b\n\n--b\n\nno type\n--b--\n"),
	NOT_PLAIN(
		"From: a@b.c\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nNUL\0\n--b--\n"),
	NOT_PLAIN("From: a@b.c\nSubject: one\nSubject: two\n\nbody\n"),
	NOT_PLAIN("From: a@b.c\nTo: x@y.z, w@v.u,\n ( unclosed@comment.org, t@s.r\n\nbody\n"),
	NOT_PLAIN("From: a@b.c\nCc:\n\nbody\n"),
	NOT_PLAIN("From: a@b.c\nTo: x@y\nTo: z@w\n\nbody\n"),
	NOT_PLAIN("From: a@b.c\nContent-Type: multipart/mixed; boundary=x\n\n--x\n\nhi\n--x--\n"),
	NOT_PLAIN("From: a@b.c\nContent-Type: text/html\n\n<p>hi</p>\n"),
	NOT_PLAIN("From: a@b.c\nContent-Type: text/plain; charset*=utf-8''x\n\nhi\n"),
	/* GMime stops at a name it cannot read and never sees the charset,
	 * so a NUL is dropped where the plain reader would replace it
	 * (fuzz-mail); and "charset*0" is the charset to GMime. */
	NOT_PLAIN("From: a@b.c\nContent-Type: text/plain;*a=a;charset=\"utf8\"\n\nab\0c\n"),
	NOT_PLAIN("From: a@b.c\nContent-Type: text/plain; charset*0=utf-8\n\nhi\n"),
	NOT_PLAIN("From: a@b.c\nContent-Type: text/plain; charset=\"=?utf-8?q?x?=\"\n\nhi\n"),
	NOT_PLAIN("From: a@b.c\nContent-Type: text/plain (comment)\n\nhi\n"),
	NOT_PLAIN("From: a@b.c\nContent-Transfer-Encoding: x-uuencode\n\nhi\n"),
	/* GMime does not see the name past a form feed or a vertical tab
	 * and decodes nothing; the plain reader decoded it (fuzz-mail). */
	NOT_PLAIN(
		"From: a@b.c\nContent-Transfer-Encoding: \fquoted-printable\n\nsoft=\nbreak =3D\n"),
	NOT_PLAIN("From: a@b.c\nContent-Transfer-Encoding: \vbase64\n\nw6ljb2xl\n"),
	NOT_PLAIN("From a@b.c Tue Jun  3 10:00:00 2025\nFrom: a@b.c\n\nmbox\n"),
	NOT_PLAIN("From: a@b.c\nnot a header line\n\nbody\n"),
	NOT_PLAIN("From: a@b.c\nSubject: headers only, no body\n"),
	NOT_PLAIN("From: a@b.c\nSubject: bare\rCR\n\nbody\n"),
	NOT_PLAIN("From: a@b.c\nSubject: NUL\0inside\n\nbody\n"),
	NOT_PLAIN("From: a@b.c\nSubject: x\n \t \nTo: y@z\n\nbody\n"),
	NOT_PLAIN(" folded first\nFrom: a@b.c\n\nbody\n"),
	NOT_PLAIN("\nbody only\n"),
	NOT_PLAIN(
		"Content-Type: text/plain\nContent-Transfer-Encoding: 8bit\n\nno header but the part's\n"),
};

static void test_plain_reader(void **state)
{
	(void) state;
	for (size_t i = 0; i < sizeof(plain_cases) / sizeof(plain_cases[0]); i++) {
		const struct plain_case *c = &plain_cases[i];
		wn_mail *p = NULL, *g = NULL;
		wn_error err = WN_ERROR_INIT;
		wn_status st;

		wn_mail_gmime();
		st = wn_mail_plain(c->mail, c->len, &p);
		if (st != (c->plain ? WN_OK : WN_NOT_FOUND))
			fail_msg("case %zu: plain reader said %d", i, st);
		if (p) {
			assert_int_equal(wn_mail_parse_mem_gmime(c->mail, c->len, &g, &err), WN_OK);
			assert_same_mail(p, g);
		}
		wn_mail_free(&p);
		wn_mail_free(&g);
		wn_error_clear(&err);
	}
}

/* The plain reader's unfolding is GMime's, over every string of up to
 * five of the characters that matter (blanks, line breaks, others). */
static void test_unfold(void **state)
{
	static const char al[] = " \t\r\na\v\x80";
	const size_t k = sizeof(al) - 1;

	(void) state;
	wn_mail_gmime();
	for (size_t len = 0; len <= 5; len++) {
		size_t combos = 1;

		for (size_t i = 0; i < len; i++)
			combos *= k;
		for (size_t c = 0; c < combos; c++) {
			char s[8];
			char *g, *m;
			size_t v = c;

			for (size_t i = 0; i < len; i++, v /= k)
				s[i] = al[v % k];
			s[len] = '\0';
			g = g_mime_utils_header_unfold(s);
			m = wn_mail_unfold(s, len);
			if (strcmp(g, m) != 0)
				fail_msg(
					"unfold of %zu bytes (combination %zu): GMime '%s', plain reader '%s'",
					len, c, g, m);
			g_free(g);
			g_free(m);
		}
	}
}

/* The plain reader reads the usual Date itself and leaves the rest to
 * GMime: either way the mail's date is the one GMime's parser gives. */
static void test_plain_dates(void **state)
{
	static const char *const dates[] = {
		"Tue, 03 Jun 2025 10:00:00 +0200",
		"Tue, 3 Jun 2025 10:00:00 +0200",
		"3 Jun 2025 10:00:00 -0000",
		"Thu, 29 Feb 2024 23:59:59 +0000",
		"Mon, 1 Jan 1970 00:00:00 +0000",
		"Wed, 31 Dec 1969 23:59:59 +0100",
		"Sat, 1 Jan 2000 00:00 +0530",
		"Fri, 31 Dec 9999 23:59:59 -1200",
		"Sun, 01 Mar 2100 12:00:00 +1400",
		"Tue,\t3  Jun\t2025  10:00:00\t+0200 ",
		"  Tue, 3 Jun 2025 10:00:00 +0200",
		"Thu, 29 Feb 2000 01:02:03 -0930",
		"Wed, 29 Feb 2023 10:00:00 +0000",
		"Thu, 29 Feb 1900 10:00:00 +0000",
		"Tue, 31 Apr 2025 10:00:00 +0000",
		"Tue, 3 Jun 2025 24:00:00 +0000",
		"Tue, 3 Jun 2025 10:60:00 +0000",
		"Tue, 3 Jun 2025 10:00:60 +0000",
		"Tue, 3 Jun 2025 10:00:00 +2400",
		"Tue, 3 Jun 2025 10:00:00 +0260",
		"Tue, 3 Jun 2025 10:00:00 GMT",
		"Tue, 3 Jun 2025 10:00:00 +0200 (CEST)",
		"Tue, 3 Jun 25 10:00:00 +0200",
		"Tue, 3 jun 2025 10:00:00 +0200",
		"Tue,3 Jun 2025 10:00:00 +0200",
		"Xyz, 3 Jun 2025 10:00:00 +0200",
		"Tue, 3 Jun 2025 1:00:00 +0200",
		"Tue, 3 Jun 2025 10:00:00 +02",
		"Tue, 3 Jun 2025",
		"Tue, 123 Jun 2025 10:00:00 +0200",
		"Tue, 0 Jun 2025 10:00:00 +0200",
		"Tue, 3 Jun 0999 10:00:00 +0200",
		/* GMime reads no year before 1969, whatever the zone. */
		"Thu, 05 Nov 1156 04:47:30 +0000",
		"Tue, 31 Dec 1968 23:59:59 -0100",
		"Wed, 1 Jan 1969 00:30:00 +0100",
		"Tue, 3 Juni 2025 10:00:00 +0200",
		"",
	};

	(void) state;
	wn_mail_gmime();
	for (size_t i = 0; i < sizeof(dates) / sizeof(dates[0]); i++) {
		char *mail = NULL;
		wn_mail *p = NULL, *g = NULL;
		wn_error err = WN_ERROR_INIT;
		int n = asprintf(&mail, "From: a@b.c\nSubject: d\nDate: %s\n\nbody\n", dates[i]);

		assert_true(n > 0);
		assert_int_equal(wn_mail_plain(mail, (size_t) n, &p), WN_OK);
		assert_int_equal(wn_mail_parse_mem_gmime(mail, (size_t) n, &g, &err), WN_OK);
		if (p->date != g->date)
			fail_msg("Date: %s: plain reader %lld, GMime %lld", dates[i],
				 (long long) p->date, (long long) g->date);
		wn_mail_free(&p);
		wn_mail_free(&g);
		free(mail);
	}
}

/* A lean read (wn_mail_parse_file_lean()) is GMime's mail but for the
 * address lists a review's or patch's reader does not use, and names
 * the same list: over every case above, and where the List-Id decides
 * whether To and Cc are read at all. */
static void assert_lean_mail(const char *mail, size_t len, bool plain)
{
	wn_mail *p = NULL, *g = NULL;
	char *pl, *gl;

	if (wn_mail_plain_read(mail, len, LEAN_LIST, &p) != WN_OK) {
		assert_false(plain);
		return;
	}
	assert_int_equal(wn_mail_parse_mem_gmime(mail, len, &g, NULL), WN_OK);
	/* Reply-To is read: it says who a patch's sender is. */
	assert_same_str("reply_to", p->reply_to, g->reply_to);
	pl = wn_mail_list(p);
	gl = wn_mail_list(g);
	assert_same_str("list", pl, gl);
	/* To and Cc left out only where the List-Id names the list. */
	if (!same_str(p->to, g->to) || !same_str(p->cc, g->cc)) {
		wn_mail only = { .list_id = g->list_id };
		char *k = wn_mail_list(&only);

		assert_null(p->to);
		assert_null(p->cc);
		assert_non_null(k);
		free(k);
	}
	free(p->to);
	free(p->cc);
	p->to = g->to ? strdup(g->to) : NULL;
	p->cc = g->cc ? strdup(g->cc) : NULL;
	assert_same_mail(p, g);
	free(pl);
	free(gl);
	wn_mail_free(&p);
	wn_mail_free(&g);
}

/* A sender's read (a review's: wn_mail_parse_file_lean() without the
 * list) has no address list but From's, and every other field GMime's.
 * What is plain to the full reader is to it (and more: an address list
 * GMime cannot be sure of is not read). */
static void assert_sender_mail(const char *mail, size_t len, bool plain)
{
	wn_mail *p = NULL, *g = NULL;

	if (wn_mail_plain_read(mail, len, LEAN_SENDER, &p) != WN_OK) {
		assert_false(plain);
		return;
	}
	assert_int_equal(wn_mail_parse_mem_gmime(mail, len, &g, NULL), WN_OK);
	assert_null(p->to);
	assert_null(p->cc);
	assert_null(p->reply_to);
	p->to = g->to ? strdup(g->to) : NULL;
	p->cc = g->cc ? strdup(g->cc) : NULL;
	p->reply_to = g->reply_to ? strdup(g->reply_to) : NULL;
	assert_same_mail(p, g);
	wn_mail_free(&p);
	wn_mail_free(&g);
}

static void test_lean_reader(void **state)
{
	static const struct plain_case lean_cases[] = {
		PLAIN("From: a@b.c\nTo: X <netdev@vger.kernel.org>\nCc: bpf@vger.kernel.org\n"
		      "Reply-To: r@s.t\nSubject: s\n\nbody\n"),
		PLAIN("From: a@b.c\nTo: x@y.z\nCc: \"Lists, Some\" <bpf@vger.kernel.org>\nSubject: s\n\nbody\n"),
		PLAIN("From: a@b.c\nTo: netdev@vger.kernel.org\nList-Id: <bpf.vger.kernel.org>\n\nbody\n"),
		PLAIN("From: a@b.c\nTo: netdev@vger.kernel.org\nList-Id:  \t\n\nbody\n"),
		PLAIN("From: a@b.c\nTo: netdev@vger.kernel.org\nList-Id: Name <>\n\nbody\n"),
		/* To GMime cannot be sure of: read by GMime unless the
		 * List-Id makes To unread. */
		NOT_PLAIN("From: a@b.c\nTo: x@y.z, w@v.u,\n ( unclosed@comment.org, t@s.r\n\nbody\n"),
		PLAIN("From: a@b.c\nTo: x@y.z, w@v.u,\n ( unclosed@comment.org, t@s.r\n"
		      "List-Id: <netdev.vger.kernel.org>\n\nbody\n"),
	};

	(void) state;
	wn_mail_gmime();
	for (size_t i = 0; i < sizeof(plain_cases) / sizeof(plain_cases[0]); i++) {
		assert_lean_mail(plain_cases[i].mail, plain_cases[i].len, plain_cases[i].plain);
		assert_sender_mail(plain_cases[i].mail, plain_cases[i].len, plain_cases[i].plain);
	}
	for (size_t i = 0; i < sizeof(lean_cases) / sizeof(lean_cases[0]); i++) {
		wn_mail *p = NULL;

		assert_lean_mail(lean_cases[i].mail, lean_cases[i].len, lean_cases[i].plain);
		assert_sender_mail(lean_cases[i].mail, lean_cases[i].len, true);
		assert_int_equal(wn_mail_plain_read(lean_cases[i].mail, lean_cases[i].len, LEAN_LIST, &p),
				 lean_cases[i].plain ? WN_OK : WN_NOT_FOUND);
		wn_mail_free(&p);
	}
}

/* mail-plain.c takes printable ASCII without "=?" as GMime's RFC 2047
 * decoder would give it back: hold GMime to that. */
static void test_plain_ascii_is_decoded_as_is(void **state)
{
	static const char *const values[] = {
		"", " ", "\t", "plain", "  lead and trail  ", "a\t\tb  c", "Re: [PATCH v2 1/3] x: y",
		"\"Quoted, Name\" <a@b.c>, (comment) d@e.f", "= ? ?= =x?= a=b?c", "<id@host> (junk)",
		"!#$%&'*+-/^_`{|}~()<>[]:;@\\,.", "?=", "=",
	};

	(void) state;
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		char *d = g_mime_utils_header_decode_text(wn_mail_gmime(), values[i]);

		assert_string_equal(d, values[i]);
		g_free(d);
	}
}

/* The plain reader finds what GMime would decode at any place in a
 * field (it looks eight bytes at a time): an encoded word, a control
 * character, 0x7f, 8-bit text, each at every offset of a Subject. */
static void test_decoding_anywhere(void **state)
{
	static const char *const what[] = { "=?utf-8?q?x_y?=", "\x01", "\x7f",
					    "\xc3\xa9",	       "\x1f", "=" };

	(void) state;
	wn_mail_gmime();
	for (size_t w = 0; w < sizeof(what) / sizeof(what[0]); w++)
		for (int at = 0; at <= 17; at++) {
			char *mail = NULL;
			wn_mail *p = NULL, *g = NULL;
			wn_error err = WN_ERROR_INIT;
			int n = asprintf(&mail, "From: a@b.c\nSubject: %.*s%s%.*s\n\nbody\n", at,
					 "abcdefghijklmnopqrstuvwxyz", what[w], 17 - at,
					 "ABCDEFGHIJKLMNOPQRSTUVWXYZ");

			assert_true(n > 0);
			assert_int_equal(wn_mail_plain(mail, (size_t) n, &p), WN_OK);
			assert_int_equal(wn_mail_parse_mem_gmime(mail, (size_t) n, &g, &err),
					 WN_OK);
			assert_same_str("subject", p->subject, g->subject);
			wn_mail_free(&p);
			wn_mail_free(&g);
			free(mail);
		}
}

/* Read From value from as both readers do; false when the plain reader
 * leaves the mail to GMime.  Fails when the two differ. */
static bool same_from(const char *from)
{
	char *mail = NULL;
	wn_mail *p = NULL, *g = NULL;
	wn_error err = WN_ERROR_INIT;
	int n = asprintf(&mail, "From: %s\nSubject: s\n\nbody\n", from);
	bool plain;

	assert_true(n > 0);
	plain = wn_mail_plain(mail, (size_t) n, &p) == WN_OK;
	if (plain) {
		assert_int_equal(wn_mail_parse_mem_gmime(mail, (size_t) n, &g, &err), WN_OK);
		if (!same_str(p->from, g->from) || !same_str(p->from_addr, g->from_addr) ||
		    !same_str(p->from_name, g->from_name))
			fail_msg("From: '%s': plain reader '%s' '%s' '%s', GMime '%s' '%s' '%s'",
				 from, p->from, p->from_addr,
				 p->from_name ? p->from_name : "(null)", g->from, g->from_addr,
				 g->from_name ? g->from_name : "(null)");
	}
	wn_mail_free(&p);
	wn_mail_free(&g);
	wn_error_clear(&err);
	free(mail);
	return plain;
}

/* Every string of up to max characters of set, each handed to fn. */
static void each_string(const char *set, size_t max, void (*fn)(const char *s, void *arg),
			void *arg)
{
	size_t k = strlen(set), idx[8] = { 0 };
	char s[9];

	for (size_t len = 1; len <= max && len < sizeof(idx) / sizeof(*idx); len++) {
		memset(idx, 0, sizeof(idx));
		for (;;) {
			size_t i;

			for (i = 0; i < len; i++)
				s[i] = set[idx[i]];
			s[len] = '\0';
			fn(s, arg);
			for (i = 0; i < len && ++idx[i] == k; i++)
				idx[i] = 0;
			if (i == len)
				break;
		}
	}
}

static void from_addr_spellings(const char *a, void *arg)
{
	char *v = NULL;

	(void) arg;
	same_from(a);
	assert_true(asprintf(&v, "Ann Lee <%s>", a) > 0);
	same_from(v);
	free(v);
}

static void from_name_spellings(const char *name, void *arg)
{
	static const char *const forms[] = { "%s <a.b@c.d>",  "%s<a.b@c.d>",   "%s  <a.b@c.d>",
					     "%s <a.b@c.d> ", "%s <a.b@c.d>x", "%s a.b@c.d" };
	char *v = NULL;

	(void) arg;
	for (size_t i = 0; i < sizeof(forms) / sizeof(*forms); i++) {
		assert_true(asprintf(&v, forms[i], name) > 0);
		same_from(v);
		free(v);
	}
}

/* A From in its plainest spelling is read without GMime's address
 * parser (wn_mail_plain_mailbox()): the plain reader still gives what
 * GMime's parser gives for it, and for every spelling near it. */
static void test_plain_from(void **state)
{
	static const char *const plainest[] = {
		"sashiko-bot@kernel.org", "Aiko Aalto <aiko.aalto@mail.example.org>",
		"a_b+c-d@x-y.z",	  "A1 b2 C3 <x@y>",
		"lkp@intel.com",
	};
	static const char *const others[] = {
		"<a@b.c>",
		"Ann <a@b.c",
		"Ann <a@b.c>>",
		"Ann <a@@b.c>",
		"Ann <a@b..c>",
		"Ann <.a@b.c>",
		"Ann <a.@b.c>",
		"Ann <a@.b.c>",
		"Ann <a@b.c.>",
		"Ann <a@b_c.d>",
		"Ann <a@b+c.d>",
		"Ann <@b.c>",
		"Ann <a@>",
		"a@b.c, d@e.f",
		"a@b.c (Ann)",
		"\"Ann Lee\" <a@b.c>",
		"Ann.Lee <a@b.c>",
		"Ann Lee  <a@b.c>",
		" Ann <a@b.c>",
		"ANN LEE <A.B@C.D>",
		"Ann <a@b.c> <d@e.f>",
		"Ann <\"a b\"@c.d>",
		"a",
		"Ann <a@b.c>,",
		"Ann\t<a@b.c>",
		"Ann <a@b.c>\t",
		/* Punycode: GMime's parser gives the domain decoded. */
		"syzbot ci <syzbot+ci4e@syzkaller.xn--potmail.com>",
		"a@xn--bcher-kva.example",
		"Ann <a@b.XN--p1ai>",
		"Ann <a@xn--.c>",
		"Ann <xn--a@b.c>",
	};
	size_t nl, al;
	const char *a;

	(void) state;
	wn_mail_gmime();
	for (size_t i = 0; i < sizeof(plainest) / sizeof(*plainest); i++) {
		assert_true(wn_mail_plain_mailbox(plainest[i], &nl, &a, &al));
		assert_true(same_from(plainest[i]));
	}
	assert_true(wn_mail_plain_mailbox("Ann Lee <a.b@c.d>", &nl, &a, &al));
	assert_int_equal(nl, 7);
	assert_int_equal(al, 7);
	assert_string_equal(a, "a.b@c.d>");
	for (size_t i = 0; i < sizeof(others) / sizeof(*others); i++)
		same_from(others[i]);
	/* Folded, or with an encoded word: GMime's parser reads it. */
	same_from("Ann\n <a@b.c>");
	same_from("=?utf-8?q?Ann?= <a@b.c>");
	each_string("a1.@-_+<> ", 4, from_addr_spellings, NULL);
	each_string("aZ9 .\"-,<", 3, from_name_spellings, NULL);
}

/* Read Message-ID value id as both readers do: the same id. */
static void same_message_id(const char *id, void *arg)
{
	char *mail = NULL;
	wn_mail *p = NULL, *g = NULL;
	wn_error err = WN_ERROR_INIT;
	int n = asprintf(&mail, "From: a@b.c\nMessage-ID: %s\nSubject: s\n\nbody\n", id);

	(void) arg;
	assert_true(n > 0);
	if (wn_mail_plain(mail, (size_t) n, &p) == WN_OK) {
		assert_int_equal(wn_mail_parse_mem_gmime(mail, (size_t) n, &g, &err), WN_OK);
		if (!same_str(p->message_id, g->message_id))
			fail_msg("Message-ID: '%s': plain reader '%s', GMime '%s'", id,
				 p->message_id ? p->message_id : "(null)",
				 g->message_id ? g->message_id : "(null)");
	}
	wn_mail_free(&p);
	wn_mail_free(&g);
	wn_error_clear(&err);
	free(mail);
}

static void message_id_spellings(const char *s, void *arg)
{
	char *v = NULL;

	same_message_id(s, arg);
	assert_true(asprintf(&v, "<%s>", s) > 0);
	same_message_id(v, arg);
	free(v);
	assert_true(asprintf(&v, "<a%s@b.c>", s) > 0);
	same_message_id(v, arg);
	free(v);
}

/* The usual Message-ID, "<local@domain>", is taken without GMime's
 * parser (wn_mail_plain_msgid()): the plain reader still gives the id
 * GMime's parser gives, for it and for every spelling near it. */
static void test_plain_message_id(void **state)
{
	static const char *const ids[] = {
		"<20250915163312.444EBC4CEC7@smtp.kernel.org>",
		"<20250915-pixnar-flags-v1-2-43f200d3a53b@mail.example.net>",
		"<a_b+c@d-e.f>",
		" <a@b.c> ",
		"<a@b.c> (comment)",
		"<a @b.c>",
		"<a@b.c",
		"a@b.c>",
		"xa@b.c>",
		"<<a@b.c>>",
		"<\"a b\"@c.d>",
		"<a@[1.2.3.4]>",
		"<a..b@c.d>",
		"<a@b..c>",
		"<A.B@C.D>",
		"<a@b.c><d@e.f>",
		"<a!#$%&'*/=?^`{|}~@b.c>",
		"<a@syzkaller.xn--potmail.com>",
		"<a@xn--bcher-kva.example>",
		"<xn--a@b.c>",
	};
	char *id;

	(void) state;
	wn_mail_gmime();
	id = wn_mail_plain_msgid("<a.b@c.d>");
	assert_string_equal(id, "a.b@c.d");
	g_free(id);
	assert_null(wn_mail_plain_msgid("<a b@c.d>"));
	for (size_t i = 0; i < sizeof(ids) / sizeof(*ids); i++)
		same_message_id(ids[i], NULL);
	each_string("a1.@-_+<> ", 4, message_id_spellings, NULL);
}

static void test_free_null(void **state)
{
	wn_mail *m = NULL;

	(void) state;
	wn_mail_free(&m);
	wn_mail_free(NULL);
}

/* Who a patch mail is from (wn_mail_people): the git author, the
 * sender, and where a reply goes.  One case a line: the header block
 * and body, then what each of author, submitter, To and Cc must be. */
struct people_case {
	const char *what;
	const char *mail;
	const char *author, *sender, *to, *cc;
};

static void test_people(void **state)
{
	static const struct people_case cases[] = {
		{ "plain", "From: Ann <ann@example.org>\n\nbody\n",
		  "Ann <ann@example.org>", "Ann <ann@example.org>", "Ann <ann@example.org>", NULL },
		{ "in-body From, sent by another", "From: Bob <bob@example.com>\n\nFrom: Ann <ann@example.org>\n\nmsg\n",
		  "Ann <ann@example.org>", "Bob <bob@example.com>", "Ann <ann@example.org>", "Bob <bob@example.com>" },
		{ "after blank lines, with Date and Subject, folded, RFC 2047",
		  "From: Bob <bob@example.com>\n\n\nFrom: =?utf-8?q?Ann_=C3=85berg?=\n <ann@example.org>\nDate: Mon, 1 Jun 2026\n"
		  "Subject: x\n\nmsg\n",
		  "Ann Åberg <ann@example.org>", "Bob <bob@example.com>", "Ann Åberg <ann@example.org>",
		  "Bob <bob@example.com>" },
		{ "in-body From of the sender's own address: no Cc",
		  "From: Ann <ANN@example.org>\n\nFrom: Ann A. <ann@example.org>\n\nmsg\n",
		  "\"Ann A.\" <ann@example.org>", "Ann <ANN@example.org>", "Ann <ANN@example.org>", NULL },
		{ "no blank line after it: prose, not git's",
		  "From: Bob <bob@example.com>\n\nFrom: Ann <ann@example.org>\nmsg\n",
		  "Bob <bob@example.com>", "Bob <bob@example.com>", "Bob <bob@example.com>", NULL },
		{ "two in-body Froms: neither", "From: Bob <bob@example.com>\n\nFrom: Ann <ann@example.org>\n"
		  "From: Cy <cy@example.org>\n\nmsg\n",
		  "Bob <bob@example.com>", "Bob <bob@example.com>", "Bob <bob@example.com>", NULL },
		{ "an in-body From without an address",
		  "From: Bob <bob@example.com>\n\nFrom: the datasheet, page 4\n\nmsg\n",
		  "Bob <bob@example.com>", "Bob <bob@example.com>", "Bob <bob@example.com>", NULL },
		{ "an in-body From of two people", "From: Bob <bob@example.com>\n\nFrom: a@example.org, b@example.org\n\nm\n",
		  "Bob <bob@example.com>", "Bob <bob@example.com>", "Bob <bob@example.com>", NULL },
		{ "an in-body From with a broken address", "From: Bob <bob@example.com>\n\nFrom: Ann <ann@@example.org>\n\nm\n",
		  "Bob <bob@example.com>", "Bob <bob@example.com>", "Bob <bob@example.com>", NULL },
		{ "Reply-To: the reply goes there, the author stays",
		  "From: Dan <dan@work.example>\nReply-To: dan@home.example\n\nbody\n",
		  "Dan <dan@work.example>", "Dan <dan@work.example>", "dan@home.example", NULL },
		{ "Reply-To of the sender of a colleague's patch",
		  "From: Bob <bob@example.com>\nReply-To: Bob <bob@lists.example.com>\n\nFrom: Ann <ann@example.org>\n\nm\n",
		  "Ann <ann@example.org>", "Bob <bob@example.com>", "Ann <ann@example.org>",
		  "Bob <bob@lists.example.com>" },
		{ "B4 Relay: X-Original-From", "From: Cy via B4 Relay <devnull+cy.example.net@kernel.org>\n"
		  "X-Original-From: Cy Dee <cy@example.net>\nReply-To: cy@example.net\n\nbody\n",
		  "Cy Dee <cy@example.net>", "Cy Dee <cy@example.net>", "Cy Dee <cy@example.net>", NULL },
		{ "B4 Relay without X-Original-From: Reply-To, the relay's name cut",
		  "From: Cy Dee via B4 Relay <devnull+cy.example.net@kernel.org>\nReply-To: cy@example.net\n\nbody\n",
		  "Cy Dee <cy@example.net>", "Cy Dee <cy@example.net>", "Cy Dee <cy@example.net>", NULL },
		{ "a relay's address alone: nobody to write to",
		  "From: Cy via B4 Relay <devnull+cy.example.net@kernel.org>\n\nbody\n",
		  "Cy via B4 Relay <devnull+cy.example.net@kernel.org>",
		  "Cy via B4 Relay <devnull+cy.example.net@kernel.org>", NULL, NULL },
		{ "a relay's address in-body is no author",
		  "From: Bob <bob@example.com>\n\nFrom: Cy <devnull+cy.example.net@kernel.org>\n\nm\n",
		  "Bob <bob@example.com>", "Bob <bob@example.com>", "Bob <bob@example.com>", NULL },
		{ "a comment in a display name is kept",
		  "From: =?utf-8?q?Uta_Berg_=28The_Hub=29?= <uta@example.org>\n\nbody\n",
		  "\"Uta Berg (The Hub)\" <uta@example.org>", "\"Uta Berg (The Hub)\" <uta@example.org>",
		  "\"Uta Berg (The Hub)\" <uta@example.org>", NULL },
		{ "no From at all", "Subject: x\n\nbody\n", "", "", NULL, NULL },
	};

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct people_case *c = &cases[i];
		wn_mail *m = parse_ok(c->mail);
		wn_people who;

		assert_int_equal(wn_mail_people(m, &who), WN_OK);
		assert_same_str(c->what, who.author.text, c->author);
		assert_same_str(c->what, who.sender.text, c->sender);
		assert_same_str(c->what, who.to, c->to);
		assert_same_str(c->what, who.cc, c->cc);
		wn_people_clear(&who);
		wn_mail_free(&m);
	}
	assert_true(wn_mail_addr_relay("devnull+a.b.c@kernel.org"));
	assert_false(wn_mail_addr_relay("dev@kernel.org"));
}

/* wn_mail_people reads a plain From ("Ann Author <ann@example.org>")
 * without GMime: whatever the From, what it gives is what the parse
 * gives, which an X-Original-From with no address to use ("x") forces.
 * (A relay's From reads otherwise beside one: test_people has those.) */
static void test_people_plain_from(void **state)
{
	static const char *const froms[] = {
		"Ann Author <ann@example.org>",
		"ann@example.org",
		"Ann <ann.b+tag=x@mail.example.org>",
		"Sean O'Brien-Smith <o_b@x.example.org>",
		"Ann <ANN@Example.ORG>",
		"J. Smith <j@x.org>",
		"\"Smith, Ann\" <a@x.org>",
		"=?utf-8?q?Ann_=C3=85berg?= <a@x.org>",
		"\"=?utf-8?q?Ann?=\" <a@x.org>",
		"Ann  Author <a@x.org>",
		"Ann Author<a@x.org>",
		"Ann <a@b@c.org>",
		"Ann <a..b@x.org>",
		"Ann <.a@x.org>",
		"Ann <a@x.org.>",
		"Ann <a@x.org>, Bob <b@y.org>",
		"a@x.org (Ann)",
		"<a@x.org>",
		"Ann <>",
		"Ann",
		"@x.org",
		"a@",
		"Ann <a@x.org> trailing",
		"Ann=Bob <a@x.org>",
		"Ann? <a@x.org>",
	};

	(void) state;
	for (size_t i = 0; i < sizeof(froms) / sizeof(froms[0]); i++) {
		char *plain = NULL, *parsed = NULL;
		wn_mail *m, *n;
		wn_people a, b;

		/* Reply-To: where the sender's name goes, the same both ways. */
		assert_true(asprintf(&plain, "From: %s\nReply-To: r@x.org\n\nb\n", froms[i]) > 0);
		assert_true(asprintf(&parsed,
				     "From: %s\nX-Original-From: x\nReply-To: r@x.org\n\nb\n",
				     froms[i]) > 0);
		m = parse_ok(plain);
		n = parse_ok(parsed);
		assert_int_equal(wn_mail_people(m, &a), WN_OK);
		assert_int_equal(wn_mail_people(n, &b), WN_OK);
		assert_same_str(froms[i], a.sender.text, b.sender.text);
		assert_same_str(froms[i], a.sender.name, b.sender.name);
		assert_same_str(froms[i], a.sender.addr, b.sender.addr);
		assert_same_str(froms[i], a.author.text, b.author.text);
		assert_same_str(froms[i], a.author.name, b.author.name);
		assert_same_str(froms[i], a.author.addr, b.author.addr);
		assert_same_str(froms[i], a.to, b.to);
		assert_same_str(froms[i], a.cc, b.cc);
		wn_people_clear(&a);
		wn_people_clear(&b);
		wn_mail_free(&m);
		wn_mail_free(&n);
		free(plain);
		free(parsed);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_misread_address),
		cmocka_unit_test(test_qp_utf8),
		cmocka_unit_test(test_base64_crlf),
		cmocka_unit_test(test_body_cr_nul),
		cmocka_unit_test(test_multipart_mixed),
		cmocka_unit_test(test_multipart_alternative),
		cmocka_unit_test(test_charsets),
		cmocka_unit_test(test_rfc2047_subject),
		cmocka_unit_test(test_folded_subject),
		cmocka_unit_test(test_missing_headers),
		cmocka_unit_test(test_mbox_from_line),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_file_stat),
		cmocka_unit_test(test_body_limit),
		cmocka_unit_test(test_plain_reader),
		cmocka_unit_test(test_plain_dates),
		cmocka_unit_test(test_unfold),
		cmocka_unit_test(test_lean_reader),
		cmocka_unit_test(test_plain_ascii_is_decoded_as_is),
		cmocka_unit_test(test_decoding_anywhere),
		cmocka_unit_test(test_plain_from),
		cmocka_unit_test(test_plain_message_id),
		cmocka_unit_test(test_free_null),
		cmocka_unit_test(test_addr),
		cmocka_unit_test(test_people),
		cmocka_unit_test(test_people_plain_from),
	};

	return cmocka_run_group_tests_name("mail", tests, NULL, NULL);
}
