/* winnow — libFuzzer target: the review parsers.
 *
 * The input goes, as a decoded body, to wn_review_parse() for every bot;
 * then, as a whole mail, through wn_mail_parse_mem(), wn_bot_detect()
 * and the parser of the detected bot, as the index does.  Besides the
 * sanitizers' findings, a broken promise of review.h aborts. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/mail.h"
#include "winnow/review.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const wn_review *r, wn_bot bot)
{
	size_t i, k;

	if (r->bot != bot || r->declared < -1 || r->part < 0)
		abort();
	if (!r->nfindings != !!r->explain)
		abort();	/* explain exactly when nothing was found */
	if (r->explain && strchr(r->explain, '\n'))
		abort();
	for (i = 0; i < r->nfindings; i++) {
		const wn_finding *f = &r->findings[i];

		if (f->index != (int) i + 1 || (unsigned) f->severity >= WN_SEV_COUNT)
			abort();
		if (!f->summary || strchr(f->summary, '\n') || f->line < 0)
			abort();
		if (strlen(f->fingerprint) != WN_FP_LEN)
			abort();
		for (k = 0; k < WN_FP_LEN; k++)
			if (!((f->fingerprint[k] >= '0' && f->fingerprint[k] <= '9') ||
			      (f->fingerprint[k] >= 'a' && f->fingerprint[k] <= 'f')))
				abort();
		/* Fingerprints are unique within a review. */
		for (k = 0; k < i && k < 64; k++)
			if (!strcmp(r->findings[k].fingerprint, f->fingerprint))
				abort();
	}
}

static void parse(wn_bot bot, const char *body, size_t len)
{
	wn_review *r = NULL;
	wn_error err = WN_ERROR_INIT;

	if (wn_review_parse(bot, body, len, &r, &err) != WN_OK) {
		/* only out of memory may fail, and then nothing is returned */
		if (err.status != WN_NOMEM || r)
			abort();
		wn_error_clear(&err);
		return;
	}
	check(r, bot);
	wn_review_free(&r);
	if (r)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const generic[] = { "bot@example.org", NULL };
	wn_mail *m = NULL;
	wn_error err = WN_ERROR_INIT;
	char *copy;
	int bot;
	wn_bot b;

	/* An exact-size copy: the parsers must not read past len. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	for (bot = 0; bot < WN_BOT_COUNT; bot++)
		parse((wn_bot) bot, copy, size);
	free(copy);

	if (wn_mail_parse_mem((const char *) data, size, &m, &err) != WN_OK) {
		wn_error_clear(&err);
		return 0;
	}
	if (wn_bot_detect(m, generic, &b)) {
		if ((unsigned) b >= WN_BOT_COUNT)
			abort();
		parse(b, m->body, m->body_len);
	}
	wn_mail_free(&m);
	return 0;
}
