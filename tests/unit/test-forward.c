/* Unit tests of forwarding: splitting command lines, the draft text in
 * and out, opt-out matching, rendering hostile values, the body (the
 * template, quotes, wrapping, links) and running the editor. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/lib/forward/forward-test.h"
#include "winnow/winnow.h"
#include "winnow/forward.h"

/* --- wn_argv_split ------------------------------------------------------ */

static void assert_split(const char *cmd, const char *const *want)
{
	char **v = NULL;
	size_t i;

	assert_int_equal(wn_argv_split(cmd, &v, NULL), WN_OK);
	for (i = 0; want[i]; i++) {
		assert_non_null(v[i]);
		assert_string_equal(v[i], want[i]);
	}
	assert_null(v[i]);
	wn_strv_free(v);
}

static void test_argv_split(void **state)
{
	wn_error err = WN_ERROR_INIT;
	char **v = (char **) 1;

	(void) state;
	assert_split("sendmail -t -oi", (const char *[]) { "sendmail", "-t", "-oi", NULL });
	assert_split("  vim\t-c 'set tw=72' ", (const char *[]) { "vim", "-c", "set tw=72", NULL });
	assert_split("\"/opt/my editor/bin/ed\" -x", (const char *[]) { "/opt/my editor/bin/ed", "-x", NULL });
	assert_split("a\\ b c\\\\d", (const char *[]) { "a b", "c\\d", NULL });
	assert_split("x '' y", (const char *[]) { "x", "", "y", NULL });
	assert_split("\"say \\\"hi\\\" \\$HOME\"", (const char *[]) { "say \"hi\" $HOME", NULL });
	/* No shell: nothing expands, nothing separates commands. */
	assert_split("msmtp $(id);rm *", (const char *[]) { "msmtp", "$(id);rm", "*", NULL });
	assert_int_equal(wn_argv_split("  ", &v, &err), WN_USAGE);
	assert_null(v);
	assert_int_equal(wn_argv_split("vim 'open", &v, &err), WN_USAGE);
	assert_non_null(strstr(wn_error_msg(&err), "unmatched"));
	wn_error_clear(&err);
}

/* --- the draft text --------------------------------------------------- */

static wn_forward *new_forward(void)
{
	wn_forward *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->from = strdup("Demo Maintainer <maintainer@example.org>");
	f->to = strdup("Zoë Ångström <zoe@example.org>");
	f->cc = strdup("netdev@vger.kernel.org");
	f->subject = strdup("Re: [PATCH] quuxnet: fix");
	f->body = strdup("Hi Zoë,\n\nthe body.\n");
	f->message_id = strdup("20261114104000.1@example.org");
	f->in_reply_to = strdup("patch@example.org");
	f->references = calloc(2, sizeof(char *));
	f->references[0] = strdup("cover@example.org");
	f->references[1] = strdup("patch@example.org");
	f->nreferences = 2;
	f->key = strdup("0123456789abcdef");
	return f;
}

static void test_draft_roundtrip(void **state)
{
	wn_forward *f = new_forward();
	wn_buf text = WN_BUF_INIT, again = WN_BUF_INIT;

	(void) state;
	assert_int_equal(wn_forward_draft_text(f, &text), WN_OK);
	assert_string_equal(text.data, "From: Demo Maintainer <maintainer@example.org>\n"
				       "To: Zoë Ångström <zoe@example.org>\n"
				       "Cc: netdev@vger.kernel.org\n"
				       "Subject: Re: [PATCH] quuxnet: fix\n"
				       "\n"
				       "Hi Zoë,\n\nthe body.\n");
	assert_int_equal(wn_forward_draft_parse(f, text.data, text.len, NULL), WN_OK);
	assert_int_equal(wn_forward_draft_text(f, &again), WN_OK);
	assert_string_equal(text.data, again.data);
	wn_buf_free(&text);
	wn_buf_free(&again);
	wn_forward_free(&f);
}

static void test_draft_edits(void **state)
{
	static const char edited[] =
		"from: Demo Maintainer <maintainer@example.org>\r\n"
		"To: \"Ångström, Zoë\" <zoe@example.org>,\r\n"
		"  carol@example.com\r\n"
		"Subject: Re: a new\r\n"
		"\tsubject\r\n"
		"\r\n"
		"Body\x1b[31m red\r\nline two\n";
	wn_forward *f = new_forward();
	wn_error err = WN_ERROR_INIT;

	(void) state;
	assert_int_equal(wn_forward_draft_parse(f, edited, strlen(edited), &err), WN_OK);
	assert_string_equal(f->to, "\"Ångström, Zoë\" <zoe@example.org>, carol@example.com");
	/* Cc left out: none. */
	assert_string_equal(f->cc, "");
	assert_string_equal(f->subject, "Re: a new subject");
	/* No control character of the draft reaches the mail. */
	assert_string_equal(f->body, "Body red\nline two\n");
	wn_forward_free(&f);
}

static void test_draft_errors(void **state)
{
	static const char *const bad[] = {
		"To: a@example.org\nSubject: s\nBcc: hidden@example.org\n\nbody\n",	/* unknown header */
		"Subject: s\n\nbody\n",							/* no To */
		"To: not an address\nSubject: s\n\nbody\n",
		"To: a@example.org\n\nbody\n",						/* no Subject */
		"From: a@example.org, b@example.org\nTo: c@example.org\nSubject: s\n\nb\n",
	};
	wn_error err = WN_ERROR_INIT;

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		wn_forward *f = new_forward();

		assert_int_equal(wn_forward_draft_parse(f, bad[i], strlen(bad[i]), &err), WN_PARSE);
		/* The draft stays as it was. */
		assert_string_equal(f->to, "Zoë Ångström <zoe@example.org>");
		assert_string_equal(f->subject, "Re: [PATCH] quuxnet: fix");
		wn_forward_free(&f);
	}
	wn_error_clear(&err);
}

/* --- opt-out --------------------------------------------------------------- */

static void test_optout(void **state)
{
	wn_conf c;
	wn_forward *f = new_forward();
	char *who;

	(void) state;
	assert_int_equal(wn_conf_init(&c), WN_OK);
	assert_false(wn_forward_opted_out(&c, "zoe@example.org"));
	assert_null(wn_forward_optouts(&c, f));
	assert_int_equal(wn_conf_set(&c, "winnow.optout", "Dave@Example.com; @media.example.org"), WN_OK);
	assert_true(wn_forward_opted_out(&c, "dave@example.com"));
	assert_true(wn_forward_opted_out(&c, "Dave Example <DAVE@example.COM>"));
	assert_true(wn_forward_opted_out(&c, "someone@media.example.org"));
	/* A domain is that domain, not its subdomains nor its parents. */
	assert_false(wn_forward_opted_out(&c, "list@vger.media.example.org"));
	assert_false(wn_forward_opted_out(&c, "x@example.org"));
	assert_false(wn_forward_opted_out(&c, "dave@example.com.evil"));
	assert_int_equal(wn_conf_set(&c, "winnow.optout", "@example.org"), WN_OK);
	who = wn_forward_optouts(&c, f);
	assert_string_equal(who, "zoe@example.org");
	free(who);
	wn_conf_clear(&c);
	wn_forward_free(&f);
}

/* Opt-out as people write it: copied from a mail, with
 * commas, a bare domain, plus-addressing, a quoted local part. */
static void test_optout_forms(void **state)
{
	static const struct {
		const char *setting, *who;
		bool out;
	} t[] = {
		{ "Bob Example <bob@example.com>", "bob@example.com", true },
		{ "\"Example, Bob\" <bob@example.com>", "Bob <BOB@example.com>", true },
		{ "ann@example.org, bob@example.com", "bob@example.com", true },
		{ "ann@example.org, bob@example.com", "ann@example.org", true },
		{ "example.com", "carol@example.com", true },
		{ "example.com", "carol@sub.example.com", false },
		{ "example.com, example.net", "dan@example.net", true },
		{ "@Example.COM", "carol@example.com", true },
		{ "bob@example.com", "bob+lkml@example.com", true },
		{ "bob+lkml@example.com", "Bob <bob@example.com>", true },
		{ "\"bob\"@example.com", "bob@example.com", true },
		{ "bob@example.com", "\"bob\"@example.com", true },
		{ "bob@example.com", "bobby@example.com", false },
		{ "bob@example.com", "bob@example.com.evil", false },
		{ "bob@example.com; @example.net", "eve@example.net", true },
	};
	wn_error err = WN_ERROR_INIT;
	wn_conf c;

	(void) state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(wn_conf_init(&c), WN_OK);
		assert_int_equal(wn_conf_set(&c, "winnow.optout", t[i].setting), WN_OK);
		assert_int_equal(wn_forward_optout_check(&c, &err), WN_OK);
		if (wn_forward_opted_out(&c, t[i].who) != t[i].out)
			fail_msg("optout '%s' for '%s': want %d", t[i].setting, t[i].who, t[i].out);
		wn_conf_clear(&c);
	}
	/* What cannot be read stops forwarding, naming the entry. */
	assert_int_equal(wn_conf_init(&c), WN_OK);
	assert_int_equal(wn_conf_set(&c, "winnow.optout", "bob@example.com; not an address!"), WN_OK);
	assert_int_equal(wn_forward_optout_check(&c, &err), WN_CONFIG);
	assert_non_null(strstr(wn_error_msg(&err), "winnow.optout"));
	assert_non_null(strstr(wn_error_msg(&err), "not an address!"));
	wn_error_clear(&err);
	wn_conf_clear(&c);
}

/* --- rendering --------------------------------------------------------------- */

/* Every header line of mail, in order, unfolded. */
static size_t header_names(const char *mail, char names[][32], size_t max)
{
	size_t n = 0;

	for (const char *l = mail; *l && *l != '\n' && n < max; l = strchr(l, '\n') + 1) {
		if (*l != ' ' && *l != '\t') {
			size_t k = strcspn(l, ":");
			assert_true(k < 32);
			memcpy(names[n], l, k);
			names[n++][k] = '\0';
		}
		assert_non_null(strchr(l, '\n'));
	}
	return n;
}

/* Render f with one field replaced by hostile text: refused, with a
 * message, and nothing rendered. */
static void render_refuses(size_t field, const char *value, const char *says)
{
	wn_forward *f = new_forward();
	wn_buf out = WN_BUF_INIT;
	wn_error err = WN_ERROR_INIT;
	char **p = (char **) ((char *) f + field);

	free(*p);
	*p = strdup(value);
	assert_int_equal(wn_forward_render(f, 1794652800, &out, &err), WN_PARSE);
	assert_non_null(strstr(wn_error_msg(&err), says));
	assert_int_equal(out.len, 0);
	wn_error_clear(&err);
	wn_buf_free(&out);
	wn_forward_free(&f);
}

static void test_render_hostile(void **state)
{
	static const char *const want[] = { "Date", "From", "Subject", "To", "Cc", "Message-Id",
					    "In-Reply-To", "References", "MIME-Version", "Content-Type",
					    "Content-Transfer-Encoding" };
	wn_forward *f = new_forward();
	wn_buf out = WN_BUF_INIT;
	char names[32][32];
	size_t n;

	(void) state;
	assert_int_equal(wn_forward_render(f, 1794652800, &out, NULL), WN_OK);
	n = header_names(out.data, names, 32);
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < n; i++)
		assert_string_equal(names[i], want[i]);
	assert_non_null(strstr(out.data, "\nIn-Reply-To: <patch@example.org>\n"));
	assert_non_null(strstr(out.data, "\nContent-Type: text/plain; charset=utf-8\n"));
	assert_non_null(strstr(out.data, "\nContent-Transfer-Encoding: 8bit\n\nHi Zoë,\n"));
	wn_buf_free(&out);
	wn_forward_free(&f);

	/* The last gate: whatever got into a header field is refused, never
	 * mended into a different address or sent split. */
#define FIELD(name) offsetof(wn_forward, name)
	render_refuses(FIELD(subject), "Re: [PATCH] x\r\nBcc: victim@example.net\nX-Evil: 1", "Subject");
	render_refuses(FIELD(to), "\"Evil\r\nBcc: v@example.net\" <zoe@example.org>", "line break");
	render_refuses(FIELD(from), "Me\nBcc: v@example.net <me@example.org>", "line break");
	render_refuses(FIELD(cc), "a@example.org,\nBcc: v@example.net", "line break");
	render_refuses(FIELD(in_reply_to), "patch@example.org>\nBcc: <v@example.net", "cannot go into a header");
	render_refuses(FIELD(message_id), "x y@example.org", "cannot go into a header");
#undef FIELD
}

static void test_render_encoding(void **state)
{
	wn_forward *f = new_forward();
	wn_buf out = WN_BUF_INIT;
	char *long_line = malloc(1200);

	(void) state;
	assert_int_equal(wn_forward_render(f, 1794652800, &out, NULL), WN_OK);
	/* Names in UTF-8 encoded words, never raw 8-bit in a header. */
	assert_non_null(strstr(out.data, "\nTo: =?UTF-8?b?"));
	for (const char *p = out.data; *p && !(p[0] == '\n' && p[1] == '\n'); p++)
		assert_true((unsigned char) *p < 0x80);
	/* ASCII only: 7bit; a line too long for SMTP: quoted-printable. */
	free(f->body);
	f->body = strdup("plain ascii\n");
	wn_buf_reset(&out);
	assert_int_equal(wn_forward_render(f, 1794652800, &out, NULL), WN_OK);
	assert_non_null(strstr(out.data, "\nContent-Transfer-Encoding: 7bit\n"));
	memset(long_line, 'x', 1199);
	long_line[1199] = '\0';
	free(f->body);
	f->body = long_line;
	wn_buf_reset(&out);
	assert_int_equal(wn_forward_render(f, 1794652800, &out, NULL), WN_OK);
	assert_non_null(strstr(out.data, "\nContent-Transfer-Encoding: quoted-printable\n"));
	wn_buf_free(&out);
	wn_forward_free(&f);
}

/* --- the body ----------------------------------------------------------------- */

static const char review_text[] =
	"Sashiko AI review found 2 potential issue(s):\n"
	"- [High] The summary of the first finding is long enough that it has to be wrapped at seventy-two columns.\n"
	"- [Low] A second finding.\n"
	"--\n"
	"\n"
	"> diff --git a/f.c b/f.c\n"
	"> --- a/f.c\n"
	"> +++ b/f.c\n"
	"> @@ -1,20 +1,20 @@ int f(void)\n"
	">  l1\n>  l2\n>  l3\n>  l4\n>  l5\n>  l6\n>  l7\n>  l8\n>  l9\n>  l10\n"
	">  l11\n>  l12\n>  l13\n>  l14\n> +l15\n"
	"\n"
	"[Severity: High]\n"
	"The comment on the first finding.\n"
	"\n"
	"[Severity: Low]\n"
	"The comment on the second finding.\n"
	"\n"
	"-- \n"
	"Sashiko AI review · https://sashiko.dev/#/patchset/x@example.org?part=1\n";

struct body_fixture {
	wn_item it;
	wn_review *review;
	wn_verdict verdicts[2];
	char *notes[2];
	char *forwarded[2];
	wn_conf conf;
	wn_forward f;
	size_t findings[2];
	char **links;
	char id[32], subject[32];
};

static int body_setup(void **state)
{
	struct body_fixture *x = calloc(1, sizeof(*x));

	strcpy(x->id, "review@example.org");
	strcpy(x->subject, "Re: [PATCH] f: g");

	assert_int_equal(wn_review_parse(WN_BOT_SASHIKO, review_text, strlen(review_text), &x->review, NULL),
			 WN_OK);
	assert_int_equal(x->review->nfindings, 2);
	x->it.id = x->id;
	x->it.bot = WN_BOT_SASHIKO;
	x->it.loaded = true;
	x->it.review = x->review;
	x->it.verdicts = x->verdicts;
	x->it.notes = x->notes;
	x->it.forwarded = x->forwarded;
	x->verdicts[0] = WN_VERDICT_VALID;
	x->verdicts[1] = WN_VERDICT_FALSE_POSITIVE;
	x->notes[0] = strdup("Seen \x1b]0;title\x07 on arm64 \x1b[1mtoo\x1b[0m.");
	x->notes[1] = strdup("NOT TO BE SENT");
	assert_int_equal(wn_conf_init(&x->conf), WN_OK);
	wn_conf_set(&x->conf, "user.name", "Demo Maintainer");
	wn_conf_set(&x->conf, "user.primary_email", "maintainer@example.org");
	x->findings[0] = 1;
	x->f.parts = calloc(1, sizeof(wn_fwd_part));
	x->f.parts[0] = (wn_fwd_part) { &x->it, x->findings, 1 };
	x->f.nparts = 1;
	x->f.nvalid = 1;
	x->f.subject = x->subject;
	assert_int_equal(
		wn_fwd_review_links(WN_BOT_SASHIKO, review_text, strlen(review_text), &x->links),
		WN_OK);
	*state = x;
	return 0;
}

static int body_teardown(void **state)
{
	struct body_fixture *x = *state;

	wn_review_free(&x->review);
	free(x->notes[0]);
	free(x->notes[1]);
	wn_conf_clear(&x->conf);
	free(x->f.parts);
	wn_strv_free(x->links);
	free(x);
	return 0;
}

static char *body_of(struct body_fixture *x)
{
	char **links[1] = { x->links };
	fwd_body_ctx c = { &x->conf, "Zoë Ångström", links, NULL };
	char *body = NULL;

	assert_int_equal(wn_fwd_body(&c, &x->f, &body, NULL), WN_OK);
	return body;
}

static void test_body_default(void **state)
{
	struct body_fixture *x = *state;
	char *body = body_of(x);

	assert_string_equal(body,
		"Hi Zoë,\n"
		"\n"
		"Sashiko reviewed this patch automatically. I went through the\n"
		"findings by hand and kept the ones I believe are real problems\n"
		"in the patch (1 of 2):\n"
		"\n"
		"[High] The summary of the first finding is long enough that it has to be\n"
		"wrapped at seventy-two columns.\n"
		"\n"
		"At f.c:15 in f():\n"
		"> [ ... ]\n"
		">  l4\n>  l5\n>  l6\n>  l7\n>  l8\n>  l9\n>  l10\n>  l11\n>  l12\n>  l13\n>  l14\n> +l15\n"
		"\n"
		"The comment on the first finding.\n"
		"\n"
		"Note: Seen on arm64 too.\n"
		"\n"
		"Sashiko review: https://sashiko.dev/#/patchset/x@example.org?part=1\n"
		"\n"
		"Thanks,\n"
		"Demo Maintainer\n");
	assert_null(strstr(body, "NOT TO BE SENT"));
	free(body);
}

/* A line the bot gave only roughly (a hunk's line, not the finding's)
 * says so: "~15", so the author does not look for the problem at 15
 * exactly. */
static void test_body_line_approx(void **state)
{
	struct body_fixture *x = *state;
	char *body;

	x->review->findings[0].line_approx = true;
	body = body_of(x);
	assert_non_null(strstr(body, "\nAt f.c:~15 in f():\n"));
	free(body);
}

static void test_body_template(void **state)
{
	struct body_fixture *x = *state;
	char path[] = "/tmp/wn-template-XXXXXX";
	int fd = mkstemp(path);
	static const char tpl[] = "{first}/{author}/{bot}/{count}/{total}/{me}/{unknown}/{subject}\n-- \nsig\n";
	char *body;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, tpl, strlen(tpl)), (ssize_t) strlen(tpl));
	close(fd);
	wn_conf_set(&x->conf, "forward_template", path);
	body = body_of(x);
	/* Keys expanded, an unknown {word} kept, the signature's "-- "
	 * kept, the findings after the text when it does not place them. */
	{
		static const char want[] = "Zoë/Zoë Ångström/Sashiko/1/2/Demo Maintainer/{unknown}/"
					   "Re: [PATCH] f: g\n-- \nsig\n\n[High] ";

		assert_memory_equal(body, want, strlen(want));
	}
	free(body);
	unlink(path);
	wn_conf_set(&x->conf, "forward_template", "/nonexistent/template");
	{
		char **links[1] = { x->links };
		fwd_body_ctx c = { &x->conf, "Zoë", links, NULL };
		wn_error err = WN_ERROR_INIT;

		body = NULL;
		assert_int_equal(wn_fwd_body(&c, &x->f, &body, &err), WN_CONFIG);
		assert_non_null(strstr(wn_error_msg(&err), "/nonexistent/template"));
		wn_error_clear(&err);
	}
}

static void test_links(void **state)
{
	static const char bpf[] = "x\n---\nSee: https://ci.example.org/README.md\n\n"
				  "CI run summary: https://ci.example.org/runs/42).\n";
	static const char lkp[] = "| Reported-by: kernel test robot <lkp@intel.com>\n"
				  "| Closes: https://lore.kernel.org/oe-kbuild-all/2026-lkp@intel.com/\n";
	char **v = NULL;

	(void) state;
	assert_int_equal(wn_fwd_review_links(WN_BOT_BPF_CI, bpf, strlen(bpf), &v), WN_OK);
	assert_string_equal(v[0], "https://ci.example.org/runs/42");
	assert_null(v[1]);
	wn_strv_free(v);
	assert_int_equal(wn_fwd_review_links(WN_BOT_LKP, lkp, strlen(lkp), &v), WN_OK);
	assert_string_equal(v[0], "https://lore.kernel.org/oe-kbuild-all/2026-lkp@intel.com/");
	wn_strv_free(v);
	assert_int_equal(wn_fwd_review_links(WN_BOT_GENERIC, bpf, strlen(bpf), &v), WN_OK);
	assert_null(v[0]);
	wn_strv_free(v);
}

/* --- the editor ------------------------------------------------------------------- */

static void test_editor(void **state)
{
	char path[] = "/tmp/wn-draft-XXXXXX", buf[64] = "";
	const char *paths[1] = { path };
	wn_error err = WN_ERROR_INIT;
	int fd = mkstemp(path);
	FILE *fp;

	(void) state;
	assert_true(fd >= 0);
	close(fd);
	/* Words and quotes, the file as the last argument, no shell of
	 * ours in between. */
	setenv("VISUAL", "/bin/sh -c 'printf \"%s\" \"$0\" > \"$1\"' 'edited by sh'", 1);
	assert_int_equal(wn_run_editor(paths, 1, &err), WN_OK);
	fp = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "edited by sh");
	setenv("VISUAL", "/nonexistent/editor", 1);
	assert_int_equal(wn_run_editor(paths, 1, &err), WN_CONFIG);
	assert_non_null(strstr(wn_error_msg(&err), "No such file or directory"));
	unsetenv("VISUAL");
	setenv("EDITOR", "false", 1);
	assert_int_equal(wn_run_editor(paths, 1, &err), WN_IO);
	assert_non_null(strstr(wn_error_msg(&err), "exited with status 1"));
	setenv("EDITOR", "/bin/sh -c 'kill -TERM $$'", 1);
	assert_int_equal(wn_run_editor(paths, 1, &err), WN_IO);
	assert_non_null(strstr(wn_error_msg(&err), "killed by signal 15"));
	unsetenv("EDITOR");
	wn_error_clear(&err);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_argv_split),
		cmocka_unit_test(test_draft_roundtrip),
		cmocka_unit_test(test_draft_edits),
		cmocka_unit_test(test_draft_errors),
		cmocka_unit_test(test_optout),
		cmocka_unit_test(test_optout_forms),
		cmocka_unit_test(test_render_hostile),
		cmocka_unit_test(test_render_encoding),
		cmocka_unit_test_setup_teardown(test_body_default, body_setup, body_teardown),
		cmocka_unit_test_setup_teardown(test_body_template, body_setup, body_teardown),
		cmocka_unit_test_setup_teardown(test_body_line_approx, body_setup, body_teardown),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_editor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
