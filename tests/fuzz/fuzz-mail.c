/* winnow — libFuzzer target: MIME decoding of a whole mail (GMime plus
 * our part selection, charset conversion and size limit), then the
 * trailer parser and the sanitiser on what came out, as the front ends
 * do.  Every mail the plain reader (mail-plain.c) takes is read by
 * GMime's parser too, and the two must agree on every field. */
#include "autoconfig.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "mail/mail-test.h"
#include "known-leak.h"
#include "winnow/mail.h"
#include "winnow/text.h"
#include "winnow/trailer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* mail.h promises valid UTF-8 in every string. */
static void check_utf8(const char *s, size_t n)
{
	if (!g_utf8_validate_len(s, n, NULL))
		abort();
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* p is g in every field but the address lists To, Cc, Reply-To. */
static bool same_but_recipients(const wn_mail *p, const wn_mail *g)
{
	if (!same(p->message_id, g->message_id) || !same(p->from, g->from) ||
	    !same(p->from_addr, g->from_addr) || !same(p->from_name, g->from_name) ||
	    !same(p->subject, g->subject) || !same(p->list_id, g->list_id) ||
	    !same(p->original_from, g->original_from) ||
	    !same(p->in_reply_to, g->in_reply_to) || p->nreferences != g->nreferences ||
	    p->date != g->date || p->body_len != g->body_len ||
	    memcmp(p->body, g->body, p->body_len) != 0)
		return false;
	for (size_t i = 0; i < p->nreferences; i++)
		if (!same(p->references[i], g->references[i]))
			return false;
	return true;
}

/* The plain reader's mail is GMime's, field for field; a lean read's
 * too but for To and Cc where the List-Id names the list, and it names the same list; a sender's read but for all three
 * (none of them read), its list the List-Id's alone. */
static void check_plain(const char *data, size_t size, enum mail_lean lean)
{
	wn_mail *p = NULL, *g = NULL;
	char *pl, *gl;

	wn_mail_gmime();
	if (wn_mail_plain_read(data, size, lean, &p) != WN_OK)
		return;
	if (wn_mail_parse_mem_gmime(data, size, &g, NULL) != WN_OK || !same_but_recipients(p, g))
		abort();
	pl = wn_mail_list(p);
	gl = wn_mail_list(g);
	if (lean != LEAN_SENDER && !same(pl, gl))
		abort();
	if (lean == LEAN_NONE && (!same(p->to, g->to) || !same(p->cc, g->cc) || !same(p->reply_to, g->reply_to)))
		abort();
	if (lean == LEAN_LIST &&
	    (!same(p->reply_to, g->reply_to) || ((!same(p->to, g->to) || !same(p->cc, g->cc)) && (p->to || p->cc || !pl))))
		abort();
	if (lean == LEAN_SENDER && (p->to || p->cc || p->reply_to || (pl && !same(pl, gl))))
		abort();
	free(pl);
	free(gl);
	wn_mail_free(&p);
	wn_mail_free(&g);
}

static int run(const uint8_t *data, size_t size)
{
	wn_mail *m = NULL;
	wn_error err = WN_ERROR_INIT;
	wn_patch_trailers *t = NULL;
	char *s;

	if (size) {
		check_plain((const char *) data, size, LEAN_NONE);
		check_plain((const char *) data, size, LEAN_LIST);
		check_plain((const char *) data, size, LEAN_SENDER);
	}
	if (wn_mail_parse_mem((const char *) data, size, &m, &err) != WN_OK) {
		if (m || !err.msg || strchr(err.msg, '\n'))
			abort();
		wn_error_clear(&err);
		return 0;
	}
	if (!m || !m->from || !m->from_addr || !m->subject || !m->body)
		abort();
	if (strlen(m->body) != m->body_len || strchr(m->subject, '\n'))
		abort();
	if (m->message_id && !*m->message_id)
		abort();
	check_utf8(m->body, m->body_len);
	check_utf8(m->subject, strlen(m->subject));
	check_utf8(m->from, strlen(m->from));
	{
		const char *opt[] = { m->from_addr, m->from_name, m->to, m->cc, m->reply_to,
				      m->original_from, m->message_id, m->in_reply_to };
		size_t i;

		for (i = 0; i < sizeof(opt) / sizeof(opt[0]); i++)
			if (opt[i])
				check_utf8(opt[i], strlen(opt[i]));
		for (i = 0; i < m->nreferences; i++)
			if (!m->references[i] || !*m->references[i])
				abort();
	}

	s = wn_text_sanitize(m->subject, 0);
	free(s);
	{
		/* Who the patch is from: whole, each text on one line. */
		wn_people who;

		if (wn_mail_people(m, &who) == WN_OK) {
			const char *one[] = { who.author.text, who.author.addr, who.author.name, who.sender.text,
					      who.sender.addr, who.sender.name, who.to, who.cc };

			if (!who.author.text || !who.author.addr || !who.sender.text || !who.sender.addr)
				abort();
			for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
				if (one[i] && (strchr(one[i], '\n') || strchr(one[i], '\r')))
					abort();
			wn_people_clear(&who);
		}
	}
	if (wn_trailers_parse(m->body, m->body_len, &t, NULL) == WN_OK)
		wn_trailers_free(&t);
	wn_mail_free(&m);
	if (m)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool off = wn_fuzz_known_leak_begin(data, size);

	run(data, size);
	wn_fuzz_known_leak_end(off);
	return 0;
}
