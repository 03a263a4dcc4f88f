/* winnow — digests: mails of our own made as a wn_forward (digest.h). */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "../core/hash.h"
#include "digest-private.h"
#include "forward-private.h"
#include "winnow/digest.h"
#include "winnow/text.h"

/* <YYYYMMDDhhmmss.HEX.digest@domain>; the key names its draft. */
static wn_status identity(wn_forward *f, const wn_conf *c)
{
	const char *seed = getenv("WINNOW_FORWARD_SEED");
	unsigned long long h = wn_fnv1a_field(wn_fnv1a_field(WN_FNV_BASIS, f->to), f->subject), r = 0;
	char stamp[32];
	struct tm tm;

	if (seed && *seed)
		r = wn_fnv1a_field(wn_fnv1a_field(WN_FNV_BASIS, seed), f->subject) ^ h;
	else if (getrandom(&r, sizeof(r), 0) != (ssize_t) sizeof(r))
		r = h ^ (unsigned long long) f->created ^ (unsigned long long) getpid() << 32;
	gmtime_r(&f->created, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
	if (asprintf(&f->message_id, "%s.%016llx.digest@%s", stamp, r,
		     strrchr(c->user_email, '@') + 1) < 0)
		f->message_id = NULL;
	if (asprintf(&f->key, "digest-%016llx", h) < 0)
		f->key = NULL;
	return f->message_id && f->key ? WN_OK : WN_NOMEM;
}

static wn_status people(wn_forward *f, const wn_conf *c, const char *to, wn_error *err)
{
	fwd_mboxes me = { 0 }, them = { 0 };
	wn_status st = wn_fwd_me(c, &me, "digests", err);

	if (st == WN_OK)
		st = wn_fwd_parse_addresses(to, &them, true, err);
	if (st == WN_OK && !them.n)
		st = wn_error_set(err, WN_PARSE, "no address to send the digest to");
	if (st == WN_OK && (!(f->from = wn_fwd_format_addresses(&me)) ||
			    !(f->to = wn_fwd_format_addresses(&them)) || !(f->cc = strdup(""))))
		st = WN_NOMEM;
	wn_fwd_mboxes_clear(&me);
	wn_fwd_mboxes_clear(&them);
	return st;
}

wn_status wn_digest_compose(const wn_conf *c, const char *to, const char *subject,
			    const char *body, wn_forward **out, wn_error *err)
{
	wn_forward *f;
	wn_status st;

	*out = NULL;
	if (!c->user_email || !wn_fwd_addr_ok(c->user_email))
		return wn_error_set(err, WN_CONFIG, "user.primary_email is not set (or not an address) in the "
				    "notmuch config: a digest needs a From");
	if (!(f = calloc(1, sizeof(*f))))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	f->created = wn_forward_now();
	st = people(f, c, to, err);
	if (st == WN_OK && (!(f->subject = wn_text_header_safe(subject)) ||
			    !(f->body = wn_text_sanitize(body, WN_TEXT_KEEP_NEWLINE | WN_TEXT_KEEP_TAB))))
		st = WN_NOMEM;
	if (st == WN_OK)
		st = identity(f, c);
	if (st != WN_OK) {
		wn_forward_free(&f);
		return st == WN_NOMEM ? wn_error_set(err, st, "out of memory") : st;
	}
	*out = f;
	return WN_OK;
}

/* --- bodies ------------------------------------------------------------------ */

wn_status wn_dg_para(wn_buf *b, const char *first, const char *rest, const char *text)
{
	char *safe = wn_text_sanitize(text, 0);
	size_t col;
	wn_status st = safe ? wn_text_wrap(b, first, rest, safe, DIGEST_WRAP, &col) : WN_NOMEM;

	if (st == WN_OK)
		st = wn_buf_putc(b, '\n');
	free(safe);
	return st;
}

void wn_dg_date(time_t t, char out[16])
{
	struct tm tm;

	out[0] = '\0';
	if (t > 0 && gmtime_r(&t, &tm))
		strftime(out, 16, "%Y-%m-%d", &tm);
}
