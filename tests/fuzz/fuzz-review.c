/* winnow — libFuzzer target: the review parsers.
 *
 * The input goes, as a decoded body, to wn_review_parse() for every bot;
 * then, as a whole mail, through wn_mail_parse_mem(), wn_bot_detect()
 * and the parser of the detected bot, as the index does: with the
 * mail's subject, and once more with patch files made of the findings'
 * own and a few fixed ones.  Besides the sanitizers' findings, a broken
 * promise of review.h aborts: among them, the patch's files move
 * findings but never change their number or their fingerprints. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "known-leak.h"
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
	if ((unsigned) r->kind >= WN_KIND_COUNT || (unsigned) r->followup >= WN_FOLLOWUP_COUNT ||
	    (r->nfindings && !wn_kind_queued(r->kind)))
		abort();	/* the bots' own traffic holds no findings */
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
		if (!f->file != !f->path)
			abort();	/* a file always has its normalised path */
		/* Fingerprints are unique within a review. */
		for (k = 0; k < i && k < 64; k++)
			if (!strcmp(r->findings[k].fingerprint, f->fingerprint))
				abort();
	}
}

/* The review of body as bot with in (may be NULL), checked; NULL when
 * memory ran out. */
static wn_review *parse_in(wn_bot bot, const char *body, size_t len, const wn_review_input *in)
{
	wn_review *r = NULL;
	wn_error err = WN_ERROR_INIT;

	if (wn_review_parse_with(bot, body, len, in, &r, &err) != WN_OK) {
		/* only out of memory may fail, and then nothing is returned */
		if (err.status != WN_NOMEM || r)
			abort();
		wn_error_clear(&err);
		return NULL;
	}
	check(r, bot);
	return r;
}

static void parse(wn_bot bot, const char *body, size_t len)
{
	wn_review *r = parse_in(bot, body, len, NULL);

	wn_review_free(&r);
	if (r)
		abort();
}

/* As the index does: the subject, then the patch's files. */
static void parse_mail(wn_bot bot, const wn_mail *m)
{
	static const char *const fixed[] = { "drivers/x/x.c", "include/linux/x.h", "x.c" };
	const char *files[16];
	wn_review_input in = { .subject = m->subject };
	wn_review *r = parse_in(bot, m->body, m->body_len, &in), *again;
	size_t n = 0, i;

	if (!r)
		return;
	for (i = 0; i < r->nfindings && n < 12; i++)
		if (r->findings[i].file)
			files[n++] = r->findings[i].file;
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		files[n++] = fixed[i];
	files[n] = NULL;
	in.patch_files = files;
	again = parse_in(bot, m->body, m->body_len, &in);
	if (again && again->nfindings != r->nfindings)
		abort();
	for (i = 0; again && i < r->nfindings; i++)
		if (strcmp(again->findings[i].fingerprint, r->findings[i].fingerprint) != 0)
			abort();
	wn_review_free(&again);
	wn_review_free(&r);
}

static int run(const uint8_t *data, size_t size)
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
		parse_mail(b, m);
	}
	wn_mail_free(&m);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool off = wn_fuzz_known_leak_begin(data, size);

	run(data, size);
	wn_fuzz_known_leak_end(off);
	return 0;
}
