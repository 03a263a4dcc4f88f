/* winnow — libFuzzer target: MIME decoding of a whole mail (GMime plus
 * our part selection, charset conversion and size limit), then the
 * trailer parser and the sanitiser on what came out, as the front ends
 * do. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	wn_mail *m = NULL;
	wn_error err = WN_ERROR_INIT;
	wn_patch_trailers *t = NULL;
	char *s;

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
				      m->message_id, m->in_reply_to };
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
	if (wn_trailers_parse(m->body, m->body_len, &t, NULL) == WN_OK)
		wn_trailers_free(&t);
	wn_mail_free(&m);
	if (m)
		abort();
	return 0;
}
