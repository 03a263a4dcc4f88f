/* winnow — feedback to a bot's operators (feedback.h). */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest-private.h"
#include "forward-private.h"
#include "../index/message.h"
#include "../index/index-nm.h"
#include "winnow/feedback.h"
#include "winnow/text.h"

struct wn_feedback {
	wn_index *idx;
	wn_feedback_item *v;
	size_t n, cap;
};

wn_status wn_feedback_new(wn_index *idx, wn_feedback **out, wn_error *err)
{
	if (!(*out = calloc(1, sizeof(**out))))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	(*out)->idx = idx;
	return WN_OK;
}

static void item_clear(wn_feedback_item *x)
{
	free(x->review);
	free(x->summary);
	free(x->file);
	free(x->function);
	free(x->patch);
	free(x->patch_subject);
	free(x->link);
	free(x->note);
}

void wn_feedback_free(wn_feedback **pfb)
{
	wn_feedback *fb = pfb ? *pfb : NULL;

	if (!fb)
		return;
	for (size_t i = 0; i < fb->n; i++)
		item_clear(&fb->v[i]);
	free(fb->v);
	free(fb);
	*pfb = NULL;
}

size_t wn_feedback_count(const wn_feedback *fb)
{
	return fb->n;
}

const wn_feedback_item *wn_feedback_at(const wn_feedback *fb, size_t i)
{
	return i < fb->n ? &fb->v[i] : NULL;
}

/* --- gathering ---------------------------------------------------------------- */

static bool worth(const wn_item *it, size_t i)
{
	wn_severity own = it->severity ? it->severity[i] : WN_SEV_NONE;

	if (it->reported && it->reported[i])
		return false;
	return it->verdicts[i] == WN_VERDICT_FALSE_POSITIVE ||
	       (own != WN_SEV_NONE && own != it->review->findings[i].severity);
}

/* The review online, from its mail's footer (NULL when it has none). */
static char *link_of(wn_feedback *fb, const wn_item *it)
{
	notmuch_message_t *msg = NULL;
	wn_mail *m = NULL;
	char **links = NULL, *first = NULL;

	if (wn_index_message(fb->idx, it->id, &msg, NULL) != WN_OK || !msg)
		return NULL;
	if (wn_message_read_mail(msg, &m, NULL) == WN_OK &&
	    wn_fwd_review_links(it->bot, m->body, m->body_len, &links) == WN_OK && links &&
	    links[0])
		first = strdup(links[0]);
	wn_strv_free(links);
	wn_mail_free(&m);
	notmuch_message_destroy(msg);
	return first;
}

static bool dup_into(char **field, const char *v)
{
	return !v || (*field = strdup(v));
}

static wn_status add_item(wn_feedback *fb, const wn_item *it, size_t i, const char *link)
{
	const wn_finding *f = &it->review->findings[i];
	wn_feedback_item *x;
	bool code = !f->about_commit_msg, ok;

	if (fb->n == fb->cap) {
		size_t nc = fb->cap ? 2 * fb->cap : 16;
		wn_feedback_item *nv = realloc(fb->v, nc * sizeof(*nv));

		if (!nv)
			return WN_NOMEM;
		fb->v = nv;
		fb->cap = nc;
	}
	x = &fb->v[fb->n];
	memset(x, 0, sizeof(*x));
	x->finding = i + 1;
	memcpy(x->fingerprint, f->fingerprint, sizeof(x->fingerprint));
	x->bot = it->bot;
	x->date = it->date;
	x->false_positive = it->verdicts[i] == WN_VERDICT_FALSE_POSITIVE;
	x->bot_severity = f->severity;
	x->own_severity = it->severity ? it->severity[i] : WN_SEV_NONE;
	x->reason = x->false_positive && it->reasons ? it->reasons[i] : WN_REASON_NONE;
	x->line = code ? f->line : 0;
	ok = dup_into(&x->review, it->id) && dup_into(&x->summary, f->summary) &&
	     dup_into(&x->file, code ? f->file : NULL) && dup_into(&x->function, code ? f->function : NULL) &&
	     dup_into(&x->patch, it->patch ? it->patch->id : NULL) &&
	     dup_into(&x->patch_subject, it->patch ? it->patch->subject : NULL) && dup_into(&x->link, link) &&
	     dup_into(&x->note, it->notes ? it->notes[i] : NULL);
	fb->n++;
	return ok ? WN_OK : WN_NOMEM;
}

wn_status wn_feedback_add(wn_feedback *fb, const wn_item *it, wn_error *err)
{
	char *link = NULL;
	bool any = false;
	wn_status st = WN_OK;

	if (!it->loaded || it->load_error || !it->review || !it->verdicts)
		return WN_OK;
	for (size_t i = 0; i < it->review->nfindings && !any; i++)
		any = worth(it, i);
	if (!any)
		return WN_OK;
	link = link_of(fb, it);
	for (size_t i = 0; st == WN_OK && i < it->review->nfindings; i++)
		if (worth(it, i))
			st = add_item(fb, it, i, link);
	free(link);
	return st == WN_OK ? WN_OK : wn_error_set(err, st, "out of memory");
}

/* --- where it goes -------------------------------------------------------------- */

struct address {
	const char *key;
	char *addr;
};

/* The last non-empty value of the key wanted. */
static void address_of(void *ud, const char *key, const char *v)
{
	struct address *a = ud;

	if (!strcmp(key, a->key) && v && *v) {
		free(a->addr);
		a->addr = strdup(v);
	}
}

char *wn_feedback_address(wn_index *idx, wn_bot bot)
{
	char *key = NULL;
	struct address a = { NULL, NULL };

	if (asprintf(&key, "winnow.feedback.%s", wn_bot_name(bot)) < 0)
		return NULL;
	a.key = key;
	wn_index_config_each(idx, "winnow.feedback.", address_of, &a);
	free(key);
	return a.addr;
}

/* --- the digest ------------------------------------------------------------------ */

static const char intro[] =
	"I went through the findings %s sent on patches I look after.  Below "
	"are the ones I judged false positives and the ones whose severity I "
	"would put otherwise, with my notes, in case they help to tune the "
	"reviews.";

static wn_status heading(const wn_feedback_item *x, size_t k, wn_buf *b)
{
	const char *bs = wn_severity_name(x->bot_severity), *own = wn_severity_name(x->own_severity);
	wn_buf w = WN_BUF_INIT;
	char num[24];
	wn_status st;

	snprintf(num, sizeof(num), "%zu. ", k);
	st = wn_buf_puts(&w, x->false_positive ? "False positive" : "Severity");
	if (st == WN_OK && wn_reason_name(x->reason))
		st = wn_buf_printf(&w, " (%s)", wn_reason_name(x->reason));
	if (st == WN_OK && own && x->own_severity != x->bot_severity)
		st = wn_buf_printf(&w, "%sthe bot said %s, I would say %s", x->false_positive ? "; " : ": ",
				   bs ? bs : "nothing", own);
	else if (st == WN_OK && bs)
		st = wn_buf_printf(&w, " (the bot said %s)", bs);
	if (st == WN_OK)
		st = wn_dg_para(b, num, "   ", wn_buf_str(&w));
	wn_buf_free(&w);
	return st;
}

static wn_status place(const wn_feedback_item *x, wn_buf *b)
{
	wn_buf w = WN_BUF_INIT;
	wn_status st;

	if (x->file && x->line)
		st = wn_buf_printf(&w, "%s:%d", x->file, x->line);
	else
		st = wn_buf_puts(&w, x->file ? x->file : "the commit message");
	if (st == WN_OK && x->function)
		st = wn_buf_printf(&w, ", in %s()", x->function);
	if (st == WN_OK)
		st = wn_dg_para(b, "   ", "   ", wn_buf_str(&w));
	wn_buf_free(&w);
	return st;
}

/* "<id>" on a line of its own, never wrapped. */
static wn_status id_line(wn_buf *b, const char *indent, const char *id)
{
	char *safe = wn_text_header_safe(id);
	wn_status st = safe ? wn_buf_printf(b, "%s<%s>\n", indent, safe) : WN_NOMEM;

	free(safe);
	return st;
}

static wn_status item_text(const wn_feedback_item *x, size_t k, wn_buf *b)
{
	wn_status st = heading(x, k, b);

	if (st == WN_OK)
		st = place(x, b);
	if (st == WN_OK)
		st = wn_dg_para(b, "   ", "   ", x->summary);
	if (st == WN_OK && x->patch_subject)
		st = wn_dg_para(b, "   Patch: ", "     ", x->patch_subject);
	if (st == WN_OK && x->patch)
		st = id_line(b, "     ", x->patch);
	if (st == WN_OK)
		st = x->link ? wn_dg_para(b, "   Review: ", "     ", x->link) :
			       id_line(b, "   Review: ", x->review);
	if (st == WN_OK && x->note)
		st = wn_dg_para(b, "   Note: ", "   ", x->note);
	if (st == WN_OK)
		st = wn_buf_putc(b, '\n');
	return st;
}

/* The place of x in the digest: false positives by reason in the
 * list's order, those without a reason, then the regraded ones. */
static unsigned rank_of(const wn_feedback_item *x)
{
	if (!x->false_positive)
		return WN_REASON_COUNT + 1;
	return x->reason == WN_REASON_NONE ? WN_REASON_COUNT : (unsigned) x->reason;
}

/* "Why they were wrong": how many of each reason, and which item of
 * the digest is an example (its number).  Nothing when no false
 * positive was given a reason, so such digests read as before. */
static wn_status reasons_text(const wn_feedback *fb, wn_bot bot, wn_buf *b)
{
	size_t count[WN_REASON_COUNT] = { 0 }, first[WN_REASON_COUNT] = { 0 }, k = 0, given = 0;
	wn_status st = WN_OK;

	for (unsigned r = 0; r <= WN_REASON_COUNT + 1; r++)
		for (size_t i = 0; i < fb->n; i++) {
			const wn_feedback_item *x = &fb->v[i];

			if (x->bot != bot || rank_of(x) != r)
				continue;
			k++;
			if (x->false_positive && x->reason != WN_REASON_NONE) {
				given++;
				if (!count[x->reason]++)
					first[x->reason] = k;
			}
		}
	if (!given)
		return WN_OK;
	st = wn_dg_para(b, "", "", "Why the false positives were wrong, with an example of each:");
	for (unsigned r = 1; st == WN_OK && r < WN_REASON_COUNT; r++)
		if (count[r])
			st = wn_buf_printf(b, "  %-18s %3zu  e.g. %zu below (%s)\n", wn_reason_name((wn_reason) r),
					   count[r], first[r], wn_reason_label((wn_reason) r));
	if (st == WN_OK)
		st = wn_buf_putc(b, '\n');
	return st;
}

wn_status wn_feedback_digest(const wn_feedback *fb, wn_bot bot, const wn_conf *c, const char *to,
			     wn_forward **out, wn_error *err)
{
	wn_buf body = WN_BUF_INIT, text = WN_BUF_INIT;
	size_t k = 0, fps = 0;
	char *subject = NULL;
	wn_status st = wn_buf_puts(&body, "Hello,\n\n");

	if (st == WN_OK)
		st = wn_buf_printf(&text, intro, wn_bot_label(bot));
	if (st == WN_OK)
		st = wn_dg_para(&body, "", "", wn_buf_str(&text));
	if (st == WN_OK)
		st = wn_buf_putc(&body, '\n');
	if (st == WN_OK)
		st = reasons_text(fb, bot, &body);
	for (unsigned r = 0; r <= WN_REASON_COUNT + 1; r++)
		for (size_t i = 0; st == WN_OK && i < fb->n; i++)
			if (fb->v[i].bot == bot && rank_of(&fb->v[i]) == r) {
				fps += fb->v[i].false_positive;
				st = item_text(&fb->v[i], ++k, &body);
			}
	if (st == WN_OK)
		st = wn_buf_printf(&body, "Thanks,\n%s\n", c->user_name ? c->user_name : c->user_email);
	if (st == WN_OK && asprintf(&subject, "Feedback on %s reviews: %zu false positive%s, %zu regraded",
				    wn_bot_label(bot), fps, fps == 1 ? "" : "s", k - fps) < 0)
		st = WN_NOMEM;
	if (st == WN_OK)
		st = wn_digest_compose(c, to, subject, wn_buf_str(&body), out, err);
	else
		wn_error_set(err, st, "out of memory");
	free(subject);
	wn_buf_free(&body);
	wn_buf_free(&text);
	return st;
}
