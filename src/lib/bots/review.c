/* winnow — the table of bots: names, detection and the parser's entry
 * point, and the finding fingerprint.
 *
 * Every bot is a descriptor in src/lib/bots/ (see bots/bots.h); the
 * table below lists them in WN_BOT_LIST order, which is also the order
 * detection asks them.  Nothing here knows a bot's format. */
#include "autoconfig.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/hash.h"
#include "../core/map.h"
#include "bots.h"
#include "place.h"
#include "winnow/text.h"

static const struct {
	const char *name, *label;
	const struct rv_bot *desc;
} bots[] = {
#define WN_X_(e, name, label) { name, label, &wn_rv_bot_##e },
	WN_BOT_LIST(WN_X_)
#undef WN_X_
};

const char *wn_bot_name(wn_bot b)
{
	return (unsigned) b < WN_BOT_COUNT ? bots[b].name : "unknown";
}

const char *wn_bot_label(wn_bot b)
{
	return (unsigned) b < WN_BOT_COUNT ? bots[b].label : "unknown";
}

/* "BPF CI" is bpf-ci spelled another way; "0-day" is not lkp. */
static bool same_words(const char *name, const char *label)
{
	for (; *name && *label; name++, label++) {
		int a = *name == '-' ? ' ' : *name, b = *label == '-' ? ' ' : *label;

		if (a != b && !(a >= 'a' && a <= 'z' && b == a - 'a' + 'A'))
			return false;
	}
	return !*name && !*label;
}

char *wn_bot_names_text(const char *prefix, const char *sep, bool labels)
{
	wn_buf b = WN_BUF_INIT;

	for (int i = 0; i < WN_BOT_COUNT; i++) {
		wn_buf_printf(&b, "%s%s%s", i ? sep : "", prefix, bots[i].name);
		if (labels && !same_words(bots[i].name, bots[i].label))
			wn_buf_printf(&b, " (%s)", bots[i].label);
	}
	return wn_buf_steal(&b);	/* NULL if any append failed */
}

const char *wn_bot_sender(wn_bot b)
{
	return (unsigned) b < WN_BOT_COUNT && bots[b].desc->sender ? bots[b].desc->sender : "";
}

const char *wn_bot_link_marker(wn_bot b)
{
	return (unsigned) b < WN_BOT_COUNT ? bots[b].desc->link_marker : NULL;
}

bool wn_bot_passed_on(wn_bot b)
{
	return (unsigned) b < WN_BOT_COUNT && bots[b].desc->passed_on;
}

static bool bot_reads_replies(wn_bot b)
{
	return (unsigned) b < WN_BOT_COUNT && bots[b].desc->reads_replies;
}

bool wn_review_tracks_state(wn_bot b, const wn_review *r)
{
	return bot_reads_replies(b) && r && r->kind == WN_KIND_REPORT;
}

bool wn_bot_title_names_bug(wn_bot b)
{
	return (unsigned) b < WN_BOT_COUNT && bots[b].desc->title_names_bug;
}

const char *wn_bot_subject_untag(const char *s)
{
	for (int i = 0; i < WN_BOT_COUNT; i++)
		for (const char *const *t = bots[i].desc->subject_tags; t && *t; t++)
			if (wn_text_prefix_ci(s, *t))
				return s + strlen(*t);
	return s;
}

const char *wn_bot_query(wn_bot b)
{
	return (unsigned) b < WN_BOT_COUNT ? bots[b].desc->query : NULL;
}

const char *wn_bot_hidden_query(wn_bot b)
{
	return (unsigned) b < WN_BOT_COUNT ? bots[b].desc->hidden : NULL;
}

wn_status wn_bot_from_name(const char *name, wn_bot *out)
{
	unsigned b;

	for (b = 0; name && b < WN_BOT_COUNT; b++)
		if (strcmp(name, bots[b].name) == 0) {
			if (out)
				*out = (wn_bot) b;
			return WN_OK;
		}
	return WN_USAGE;
}

bool wn_bot_named(const char *name, size_t len, wn_bot *out)
{
	for (unsigned b = 0; name && b < WN_BOT_COUNT; b++)
		if ((strlen(bots[b].name) == len && !strncasecmp(bots[b].name, name, len)) ||
		    (strlen(bots[b].label) == len && !strncasecmp(bots[b].label, name, len))) {
			if (out)
				*out = (wn_bot) b;
			return true;
		}
	return false;
}

/* ---- detection ---- */

static void mail_view(const wn_mail *m, const char *const *generic_senders, struct rv_mail *v)
{
	const char *at;

	memset(v, 0, sizeof(*v));
	v->m = m;
	v->from = m->from_addr ? m->from_addr : "";
	v->subject = m->subject ? m->subject : "";
	v->generic_senders = generic_senders;
	at = strrchr(v->from, '@');
	if (at && at != v->from) {
		v->local = v->from;
		v->local_n = (size_t) (at - v->from);
		v->domain = at + 1;
	}
}

/* Two rounds: the headers first (a bot's own address settles it),
 * then the weaker evidence of the
 * text or the user's list, each in table order. */
bool wn_bot_detect(const wn_mail *m, const char *const *generic_senders, wn_bot *out)
{
	struct rv_mail v;
	unsigned b;

	if (!m)
		return false;
	mail_view(m, generic_senders, &v);
	for (b = 0; b < WN_BOT_COUNT; b++) {
		if (bots[b].desc->sent_by && bots[b].desc->sent_by(&v) == RV_MINE)
			goto found;
	}
	for (b = 0; b < WN_BOT_COUNT; b++)
		if (bots[b].desc->looks_like && bots[b].desc->looks_like(&v))
			goto found;
	return false;
found:
	if (out)
		*out = (wn_bot) b;
	return true;
}

bool wn_bot_of_address(const char *addr, const char *const *generic_senders, wn_bot *out)
{
	/* The address alone, as a mail From it would be: no subject, no
	 * body, so only the rules that read the address can claim it. */
	wn_mail m = { .from = (char *) addr, .from_addr = (char *) addr, .subject = (char *) "" };
	struct rv_mail v;

	if (!addr || !*addr)
		return false;
	mail_view(&m, NULL, &v);
	for (unsigned b = 0; b < WN_BOT_COUNT; b++)
		if (bots[b].desc->sent_by && bots[b].desc->sent_by(&v) == RV_MINE) {
			if (out)
				*out = (wn_bot) b;
			return true;
		}
	for (const char *const *g = generic_senders; g && *g; g++)
		if (strcasecmp(*g, addr) == 0) {
			if (out)
				*out = WN_BOT_GENERIC;
			return true;
		}
	return false;
}

bool wn_bot_address(const char *addr, const char *const *generic_senders)
{
	return wn_bot_of_address(addr, generic_senders, NULL);
}

/* ---- fingerprint ----
 *
 * FNV-1a, 64 bit (hash.h: offset basis 0xcbf29ce484222325, prime 0x100000001b3)
 * over:  bot name 0x1f file 0x1f function 0x1f text
 * where a NULL field is empty and the text is normalised on the fly:
 * ASCII letters lower-cased, every run of ASCII whitespace (space, \t,
 * \n, \v, \f, \r) one space, none at either end -- the normalisation
 * wn_text_normalize() documents.  It is spelled out here rather than
 * called so that the fingerprint can never drift: verdicts are stored
 * under it.  Printed as 16 lower-case hex digits.  DO NOT CHANGE. */

static bool fp_space(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r';
}

static uint64_t fnv_normalised(uint64_t h, const char *s)
{
	bool pending = false, any = false;

	for (; s && *s; s++) {
		int ch = (unsigned char) *s;

		if (fp_space(ch)) {
			pending = any;
			continue;
		}
		if (pending)
			h = wn_fnv1a_byte(h, ' ');
		pending = false;
		any = true;
		if (ch >= 'A' && ch <= 'Z')
			ch += 'a' - 'A';
		h = wn_fnv1a_byte(h, (unsigned char) ch);
	}
	return h;
}

static uint64_t fp_hash(wn_bot bot, const char *file, const char *function, const char *text)
{
	uint64_t h = WN_FNV_BASIS;

	h = wn_fnv1a_str(h, wn_bot_name(bot));
	h = wn_fnv1a_byte(h, 0x1f);
	h = wn_fnv1a_str(h, file);
	h = wn_fnv1a_byte(h, 0x1f);
	h = wn_fnv1a_str(h, function);
	h = wn_fnv1a_byte(h, 0x1f);
	return fnv_normalised(h, text);
}

static void fp_hex(uint64_t h, char out[WN_FP_LEN + 1])
{
	snprintf(out, WN_FP_LEN + 1, "%016" PRIx64, h);
}

void wn_fingerprint(wn_bot bot, const char *file, const char *function, const char *text,
		    char out[WN_FP_LEN + 1])
{
	fp_hex(fp_hash(bot, file, function, text), out);
}

/* Which fingerprints were given out in one review, and how many
 * duplicates a base hash had: core's wn_map from the 8 bytes of a hash
 * to its counter plus one (so that no value is NULL).  Duplicates are
 * rare, but a hostile mail may hold a million of them, so neither
 * lookups nor numbering may go quadratic. */

/* The counter of h into *count, inserting h (counter 0) when absent;
 * *fresh tells.  False when out of memory. */
static bool fp_get(wn_map *m, uint64_t h, unsigned *count, bool *fresh)
{
	void *v = wn_map_get(m, (const char *) &h, sizeof(h));

	*fresh = !v;
	*count = v ? (unsigned) ((uintptr_t) v - 1) : 0;
	return v || wn_map_put(m, (const char *) &h, sizeof(h), (void *) (uintptr_t) 1) == WN_OK;
}

static bool fp_set(wn_map *m, uint64_t h, unsigned count)
{
	return wn_map_put(m, (const char *) &h, sizeof(h), (void *) (uintptr_t) (count + 1)) == WN_OK;
}

/* The summary shown says the problem, not the hedge before it
 * (wn_rv_hedge); the fingerprint keeps hashing the summary as the bot
 * wrote it, so no verdict given before is lost.  False when out of
 * memory. */
static bool drop_hedge(struct rv_ctx *c, size_t i)
{
	wn_finding *f = &c->r->findings[i];
	size_t h = wn_rv_hedge(f->summary);

	if (!h)
		return true;
	if (!c->fp[i].text && !(c->fp[i].text = strdup(f->summary)))
		return false;
	memmove(f->summary, f->summary + h, strlen(f->summary + h) + 1);
	if (wn_rv_hedge_capital(f->summary))
		f->summary[0] = (char) (f->summary[0] - 'a' + 'A');
	return true;
}

/* Fingerprints, 1-based indexes and the "why nothing" note.  A finding
 * whose fingerprint an earlier one in the same mail already has gets
 * "\x1f#k" (k = 2, 3, ...) hashed on: deterministic, and the first of
 * equal findings keeps the plain one. */
static bool finish(struct rv_ctx *c, wn_bot bot)
{
	wn_review *r = c->r;
	wn_map m = WN_MAP_INIT;
	size_t i;
	bool ok = false;

	for (i = 0; i < r->nfindings; i++) {
		wn_finding *f = &r->findings[i];
		const struct rv_fploc *p = &c->fp[i];
		const char *file = p->pinned ? p->file : f->file;
		const char *function = p->pinned ? p->function : f->function;
		bool fresh;
		uint64_t base, h;
		unsigned count, other;

		/* Front ends may count on a summary. */
		if (!f->summary && !(f->summary = calloc(1, 1)))
			goto out;
		if (!drop_hedge(c, i))
			goto out;
		if (f->file && !f->path &&
		    !(f->path = wn_rv_path_normal(f->file, c->in->patch_files)))
			goto out;
		/* a bare base name ("xfs_buf.c") is completed from them */
		if (f->file && f->file[0] != '<' && !strchr(f->file, '/'))
			r->wants_patch_files = true;
		base = fp_hash(bot, p->loc ? file : NULL, p->loc ? function : NULL,
			       p->text ? p->text : f->summary);
		h = base;
		if (!fp_get(&m, base, &count, &fresh))
			goto out;
		while (!fresh) {
			char tag[24];

			/* the base's own counter numbers its duplicates */
			if (!fp_set(&m, base, ++count))
				goto out;
			snprintf(tag, sizeof(tag), "#%u", count + 1);
			h = wn_fnv1a_str(wn_fnv1a_byte(base, 0x1f), tag);
			if (!fp_get(&m, h, &other, &fresh))
				goto out;
		}
		fp_hex(h, f->fingerprint);
		f->index = (int) i + 1;
	}
	ok = true;
out:
	wn_map_free(&m, NULL);
	return ok;
}

/* ---- entry point ---- */

static void ctx_free(struct rv_ctx *c)
{
	size_t i;

	for (i = 0; c->fp && c->r && i < c->r->nfindings; i++) {
		free(c->fp[i].file);
		free(c->fp[i].function);
		free(c->fp[i].text);
	}
	free(c->fp);
	c->fp = NULL;
}

wn_status wn_review_parse(wn_bot bot, const char *body, size_t len, wn_review **out, wn_error *err)
{
	return wn_review_parse_with(bot, body, len, NULL, out, err);
}

wn_status wn_review_parse_with(wn_bot bot, const char *body, size_t len, const wn_review_input *in,
			       wn_review **out, wn_error *err)
{
	static const wn_review_input none;
	struct rv_ctx c;
	struct rv_lines L;
	wn_review *r;

	if (!out)
		return wn_error_set(err, WN_USAGE, "wn_review_parse: no result pointer");
	*out = NULL;
	if ((unsigned) bot >= WN_BOT_COUNT)
		return wn_error_set(err, WN_USAGE, "unknown bot %d", (int) bot);
	memset(&c, 0, sizeof(c));
	c.in = in ? in : &none;
	c.r = r = calloc(1, sizeof(*r));
	if (!r)
		goto nomem;
	r->bot = bot;
	r->kind = WN_KIND_REVIEW;
	r->declared = -1;
	if (wn_rv_lines_read(body, len, &L) != WN_OK)
		goto nomem;
	bots[bot].desc->parse(&c, &L);
	wn_rv_lines_free(&L);
	if (!c.oom && r->nfindings) {
		free(r->explain);
		r->explain = NULL;
	} else if (!c.oom && !r->explain) {
		wn_rv_explain(&c, "%s mail: nothing parsed", wn_bot_label(bot));
	}
	if (c.oom || !finish(&c, bot))
		goto nomem;
	ctx_free(&c);
	*out = r;
	return WN_OK;
nomem:
	ctx_free(&c);
	wn_review_free(&r);
	return wn_error_set(err, WN_NOMEM, "out of memory parsing a review");
}

void wn_review_free(wn_review **rp)
{
	wn_review *r;
	size_t i;

	if (!rp || !*rp)
		return;
	r = *rp;
	for (i = 0; i < r->nfindings; i++)
		wn_rv_finding_free(&r->findings[i]);
	free(r->findings);
	free(r->cover_id);
	free(r->patch_subject);
	free(r->explain);
	free(r->followup_says);
	free(r->note);
	free(r->patch_id);
	for (i = 0; i < r->ntags; i++)
		free(r->tags[i]);
	free(r->tags);
	for (i = 0; i < r->nfacts; i++)
		free(r->facts[i]);
	free(r->facts);
	free(r);
	*rp = NULL;
}

size_t wn_finding_nsites(const wn_finding *f)
{
	if (f->nsites)
		return f->nsites;
	return f->quote || f->comment;
}

wn_site wn_finding_site(const wn_finding *f, size_t i)
{
	wn_site s = { 0 };

	if (i < f->nsites)
		return f->sites[i];
	if (f->nsites || i)
		return s;
	s.file = f->file;
	s.function = f->function;
	s.line = f->line;
	s.line_approx = f->line_approx;
	s.about_commit_msg = f->about_commit_msg;
	s.code = f->quote;
	s.comment = f->comment;
	return s;
}

const char *const *wn_finding_facts(const wn_review *r, size_t i, size_t *n)
{
	*n = i < r->nfindings ? r->nfacts : 0;
	return *n ? (const char *const *) r->facts : NULL;
}
