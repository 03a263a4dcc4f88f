/* winnow — helpers shared by the review parser unit tests. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/mail.h"
#include "review-test.h"

static wn_review *parse_n_in(wn_bot bot, const char *s, size_t n, const wn_review_input *in)
{
	wn_review *r = NULL;
	wn_error err = WN_ERROR_INIT;
	char *copy = malloc(n ? n : 1);

	assert_non_null(copy);
	memcpy(copy, s, n);
	if (in)
		assert_int_equal(wn_review_parse_with(bot, copy, n, in, &r, &err), WN_OK);
	else
		assert_int_equal(wn_review_parse(bot, copy, n, &r, &err), WN_OK);
	free(copy);
	assert_non_null(r);
	assert_int_equal(r->bot, bot);
	/* Invariants of every review. */
	if (r->nfindings) {
		size_t i;

		assert_null(r->explain);
		for (i = 0; i < r->nfindings; i++) {
			wn_finding *f = &r->findings[i];

			assert_int_equal(f->index, (int) i + 1);
			assert_int_equal(strlen(f->fingerprint), WN_FP_LEN);
			assert_non_null(f->summary);
			assert_null(strchr(f->summary, '\n'));
			/* a file always has its normalised path */
			assert_true(!f->file == !f->path);
		}
		/* the bots' own traffic holds no findings */
		assert_true(wn_kind_queued(r->kind));
	} else {
		assert_non_null(r->explain);
	}
	assert_true(r->followup == WN_FOLLOWUP_NONE || r->kind == WN_KIND_FOLLOWUP ||
		    r->followup == WN_FOLLOWUP_STILL_TRIGGERS);
	wn_error_clear(&err);
	return r;
}

wn_review *parse_n(wn_bot bot, const char *s, size_t n)
{
	return parse_n_in(bot, s, n, NULL);
}

wn_review *parse(wn_bot bot, const char *s)
{
	return parse_n(bot, s, strlen(s));
}

wn_review *parse_in(wn_bot bot, const char *s, const wn_review_input *in)
{
	return parse_n_in(bot, s, strlen(s), in);
}

wn_review *parse_subject(wn_bot bot, const char *subject, const char *s)
{
	wn_review_input in = { .subject = subject };

	return parse_in(bot, s, &in);
}

wn_finding *F(wn_review *r, size_t i)
{
	assert_true(i < r->nfindings);
	return &r->findings[i];
}

void assert_contains(const char *hay, const char *needle)
{
	if (!hay || !strstr(hay, needle))
		fail_msg("\"%s\" not found in \"%s\"", needle, hay ? hay : "(null)");
}

bool detect(const char *from, const char *subject, const char *body,
	    const char *const *generic, wn_bot *b)
{
	wn_mail m;

	memset(&m, 0, sizeof(m));
	m.from_addr = (char *) from;
	m.subject = (char *) subject;
	m.body = (char *) body;
	m.body_len = body ? strlen(body) : 0;
	return wn_bot_detect(&m, generic, b);
}

bool detect_named(const char *name, const char *from, const char *subject, wn_bot *b)
{
	wn_mail m;

	memset(&m, 0, sizeof(m));
	m.from_addr = (char *) from;
	m.from_name = (char *) name;
	m.subject = (char *) subject;
	return wn_bot_detect(&m, NULL, b);
}

char *corpus_body(const char *path, wn_bot bot, size_t *len)
{
	const char *top = getenv("WN_TOP_SRCDIR");
	char file[4096];
	wn_mail *m = NULL;
	wn_error err = WN_ERROR_INIT;
	wn_bot found = WN_BOT_COUNT;
	char *body;

	snprintf(file, sizeof(file), "%s/tests/corpus/%s", top ? top : ".", path);
	if (wn_mail_parse_file(file, &m, &err) != WN_OK) {
		print_error("%s (set WN_TOP_SRCDIR)\n", wn_error_msg(&err));
		wn_error_clear(&err);
		fail();
	}
	if (bot != WN_BOT_GENERIC) {
		assert_true(wn_bot_detect(m, NULL, &found));
		assert_int_equal(found, bot);
	}
	body = malloc(m->body_len + 1);
	assert_non_null(body);
	memcpy(body, m->body, m->body_len);
	body[m->body_len] = '\0';
	if (len)
		*len = m->body_len;
	wn_mail_free(&m);
	return body;
}

wn_review *corpus_review(wn_bot bot, const char *path)
{
	size_t n;
	char *body = corpus_body(path, bot, &n);
	wn_review *r = parse_n(bot, body, n);

	free(body);
	return r;
}
