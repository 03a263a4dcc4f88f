/* winnow — composing the reply that forwards verified findings: which
 * findings, to whom, and how it threads under the patch.  The body is
 * forward-body.c's, the MIME forward-mime.c's. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <unistd.h>

#include "../core/hash.h"
#include "forward-private.h"
#include "../index/message.h"
#include "../index/index-nm.h"
#include "winnow/proc.h"
#include "winnow/text.h"

/* --- the clock ------------------------------------------------------- */

time_t wn_forward_now(void)
{
	return wn_env_time("WINNOW_FORWARD_DATE", wn_now());
}

/* --- which findings ------------------------------------------------------ */

static bool wanted(const wn_item *it, size_t i, const wn_fwd_opts *o, bool pre)
{
	wn_verdict v = it->verdicts[i];

	if (o->skip_forwarded && it->forwarded && it->forwarded[i])
		return false;
	return pre ? o->preexisting && v == WN_VERDICT_PREEXISTING : v == WN_VERDICT_VALID;
}

/* The findings of it to send, valid ones first. */
static wn_status pick(wn_forward *f, wn_item *it, const wn_fwd_opts *o)
{
	size_t n = it->review ? it->review->nfindings : 0;
	wn_fwd_part *p, *np = realloc(f->parts, (f->nparts + 1) * sizeof(*np));

	if (!np)
		return WN_NOMEM;
	f->parts = np;
	p = &np[f->nparts++];
	memset(p, 0, sizeof(*p));
	p->it = it;
	if (!(p->findings = calloc(n ? n : 1, sizeof(size_t))))
		return WN_NOMEM;
	for (int pass = 0; pass < 2 && it->verdicts; pass++)
		for (size_t i = 0; i < n; i++)
			if (wanted(it, i, o, pass == 1)) {
				p->findings[p->n++] = i + 1;
				if (pass)
					f->npre++;
				else
					f->nvalid++;
			}
	return WN_OK;
}

/* The findings of it a verdict reply answers, in the bot's order:
 * the triaged ones (pre-existing with o->preexisting); the untriaged
 * only counted, for the mail to say how many were not checked. */
static wn_status pick_verdicts(wn_forward *f, wn_item *it, const wn_fwd_opts *o)
{
	size_t n = it->review ? it->review->nfindings : 0;
	wn_fwd_part *p = calloc(1, sizeof(*p));

	if (!p || !(p->findings = calloc(n ? n : 1, sizeof(size_t)))) {
		free(p);
		return WN_NOMEM;
	}
	f->parts = p;
	f->nparts = 1;
	p->it = it;
	for (size_t i = 0; i < n && it->verdicts; i++) {
		wn_verdict v = it->verdicts[i];

		if (v == WN_VERDICT_UNTRIAGED) {
			f->nunchecked++;
			continue;
		}
		if (o->skip_forwarded && it->forwarded && it->forwarded[i])
			continue;
		if (v == WN_VERDICT_VALID)
			f->nvalid++;
		else if (v == WN_VERDICT_FALSE_POSITIVE)
			f->nfalse++;
		else if (v == WN_VERDICT_PREEXISTING && o->preexisting)
			f->npre++;
		else
			continue;
		p->findings[p->n++] = i + 1;
	}
	return WN_OK;
}

/* "finding 2 of Sashiko's review was forwarded on T in <id>" for the
 * findings of f sent before. */
static wn_status note_forwarded(wn_forward *f)
{
	wn_buf b = WN_BUF_INIT;
	wn_status st = WN_OK;

	for (size_t k = 0; k < f->nparts && st == WN_OK; k++) {
		const wn_fwd_part *p = &f->parts[k];

		for (size_t j = 0; j < p->n && st == WN_OK; j++) {
			const char *was = p->it->forwarded ? p->it->forwarded[p->findings[j] - 1] : NULL;
			const char *sp = was ? strchr(was, ' ') : NULL;

			if (!was)
				continue;
			st = wn_buf_printf(&b, "%sfinding %zu of the %s review was already forwarded on %.*s in <%s>",
					   b.len ? "\n" : "", p->findings[j], wn_bot_label(p->it->bot),
					   (int) (sp ? (size_t) (sp - was) : strlen(was)), was, sp ? sp + 1 : "?");
		}
	}
	/* One line at a time: the notice may hold lines already. */
	for (char *l = b.data, *nl; st == WN_OK && l && *l; l = nl ? nl + 1 : NULL) {
		if ((nl = strchr(l, '\n')))
			*nl = '\0';
		st = wn_fwd_add_notice(f, l);
	}
	wn_buf_free(&b);
	return st;
}

/* --- threading ------------------------------------------------------------- */

/* Append id to References: well-formed ids only (wn_fwd_msgid_ok), each
 * once; an id seen before moves to the end, so that the parent, added
 * last, ends the header whatever its own References held. */
static wn_status add_ref(wn_forward *f, const char *id)
{
	char **nv;

	if (!wn_fwd_msgid_ok(id))
		return WN_OK;
	for (size_t i = 0; i < f->nreferences; i++)
		if (strcmp(f->references[i], id) == 0) {
			char *was = f->references[i];

			memmove(&f->references[i], &f->references[i + 1],
				(f->nreferences - i - 1) * sizeof(*f->references));
			f->references[f->nreferences - 1] = was;
			return WN_OK;
		}
	nv = realloc(f->references, (f->nreferences + 1) * sizeof(*nv));
	if (!nv)
		return WN_NOMEM;
	f->references = nv;
	if (!(nv[f->nreferences] = strdup(id)))
		return WN_NOMEM;
	f->nreferences++;
	return WN_OK;
}

/* In-Reply-To the parent (the patch, or the review a verdict reply
 * answers); References the parent's plus the parent. */
static wn_status threading(wn_forward *f, const wn_mail *parent)
{
	wn_status st = WN_OK;

	for (size_t i = 0; st == WN_OK && i < parent->nreferences; i++)
		st = add_ref(f, parent->references[i]);
	if (st == WN_OK && wn_fwd_msgid_ok(parent->message_id)) {
		if (!(f->in_reply_to = strdup(parent->message_id)))
			return WN_NOMEM;
		st = add_ref(f, parent->message_id);
	}
	return st;
}

/* <YYYYMMDDhhmmss.HEX@domain-of-From>: random, or repeatable under
 * WINNOW_FORWARD_SEED (tests). */
static wn_status new_message_id(wn_forward *f, const wn_conf *c)
{
	const char *seed = getenv("WINNOW_FORWARD_SEED");
	const char *dom = strrchr(c->user_email, '@') + 1;
	unsigned long long r = 0;
	char stamp[32];
	struct tm tm;

	if (seed && *seed)
		r = wn_fnv1a_field(wn_fnv1a_field(WN_FNV_BASIS, seed), f->key);
	else if (getrandom(&r, sizeof(r), 0) != (ssize_t) sizeof(r))
		r = wn_fnv1a_field(WN_FNV_BASIS, f->key) ^ (unsigned long long) f->created ^
		    (unsigned long long) getpid() << 32;
	gmtime_r(&f->created, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
	return asprintf(&f->message_id, "%s.%016llx@%s", stamp, r, dom) < 0 ? WN_NOMEM : WN_OK;
}

static wn_status subject(wn_forward *f, const wn_mail *patch)
{
	char *s = wn_text_header_safe(patch->subject);

	if (!s)
		return WN_NOMEM;
	if (wn_text_is_reply(s)) {
		f->subject = s;
		return WN_OK;
	}
	f->subject = NULL;
	if (asprintf(&f->subject, "Re: %s", s) < 0)
		f->subject = NULL;
	free(s);
	return f->subject ? WN_OK : WN_NOMEM;
}

/* --- reading the mails ---------------------------------------------------- */

static wn_status read_mail(wn_index *idx, const char *id, wn_mail **out, wn_error *err)
{
	notmuch_message_t *msg = wn_index_find_message(idx, id);
	wn_error lerr = WN_ERROR_INIT;
	wn_status st;

	if (!msg)
		return wn_error_set(err, WN_NOT_FOUND, "message <%s> is no longer in the index", id);
	/* It sets a message before trying: only a failure's is passed on. */
	st = wn_message_read_mail(msg, out, &lerr);
	if (st != WN_OK)
		wn_error_set(err, st, "%s", wn_error_msg(&lerr));
	wn_error_clear(&lerr);
	notmuch_message_destroy(msg);
	return st;
}

/* The links of every review, for the body. */
static wn_status read_links(wn_index *idx, const wn_forward *f, char ***links, wn_error *err)
{
	wn_status st = WN_OK;

	for (size_t k = 0; k < f->nparts && st == WN_OK; k++) {
		wn_mail *m = NULL;

		/* A review that cannot be read just has no links. */
		if (read_mail(idx, f->parts[k].it->id, &m, NULL) == WN_OK)
			st = wn_fwd_review_links(f->parts[k].it->bot, m->body, m->body_len,
						 &links[k]);
		else
			st = (links[k] = calloc(1, sizeof(char *))) ? WN_OK : WN_NOMEM;
		wn_mail_free(&m);
	}
	if (st == WN_NOMEM)
		wn_error_set(err, WN_NOMEM, "out of memory");
	return st;
}

/* The template of a list the patch went to (its To and Cc), of the
 * table t of n (winnow.forward_template.<list>, ...reply_template.<list>):
 * the first such list in the configuration's order; NULL: none. */
static wn_status list_template(const wn_conf_trailer *t, size_t n, const wn_mail *patch,
			       const wn_conf_trailer **out)
{
	fwd_mboxes to = { 0 };
	wn_status st = WN_OK;

	*out = NULL;
	if (!n)
		return WN_OK;
	if ((st = wn_fwd_parse_loose(patch->to, &to)) == WN_OK)
		st = wn_fwd_parse_loose(patch->cc, &to);
	for (size_t i = 0; st == WN_OK && i < n && !*out; i++)
		if (wn_fwd_mboxes_has(&to, t[i].list))
			*out = &t[i];
	wn_fwd_mboxes_clear(&to);
	return st;
}

static wn_status make_body(wn_index *idx, wn_forward *f, const wn_mail *patch, wn_error *err)
{
	const wn_conf *conf = wn_index_conf(idx);
	char ***links = calloc(f->nparts, sizeof(char **));
	wn_people who;
	bool ok = wn_mail_people(patch, &who) == WN_OK;
	/* The greeting's: the git author (wn_mail_people). */
	char *author = ok ? wn_text_header_safe(who.author.name ? who.author.name : who.author.addr) : NULL;
	fwd_body_ctx c = { conf, author, links, NULL };
	wn_status st = links && author ? read_links(idx, f, links, err) : WN_NOMEM;

	if (st == WN_OK) {
		bool reply = f->kind == WN_FWD_VERDICTS;

		st = list_template(reply ? conf->list_reply_templates : conf->list_templates,
				   reply ? conf->nlist_reply_templates : conf->nlist_templates, patch,
				   &c.list_template);
		if (st == WN_NOMEM)
			wn_error_set(err, st, "out of memory");
	}

	if (ok)
		wn_people_clear(&who);

	if (st == WN_OK)
		st = wn_fwd_body(&c, f, &f->body, err);
	for (size_t k = 0; links && k < f->nparts; k++)
		wn_strv_free(links[k]);
	free(links);
	free(author);
	return st;
}

/* winnow.forward_trailer.<list>: the lines the lists the patch went to
 * want at the end of a reply carrying a valid finding ("pw-bot: cr":
 * netdev's patchwork bot marks the patch "changes requested"). */
static wn_status list_trailers(wn_forward *f, const wn_conf *c, const wn_mail *patch)
{
	fwd_mboxes to = { 0 };
	wn_buf b = WN_BUF_INIT;
	wn_status st = WN_OK;
	size_t added = 0;

	if (!c->nforward_trailers || !f->nvalid)
		return WN_OK;
	if ((st = wn_fwd_parse_loose(patch->to, &to)) == WN_OK)
		st = wn_fwd_parse_loose(patch->cc, &to);
	if (st == WN_OK)
		st = wn_buf_puts(&b, f->body);
	for (size_t i = 0; st == WN_OK && i < c->nforward_trailers; i++) {
		const wn_conf_trailer *t = &c->forward_trailers[i];

		/* wn_conf_check refused a line break in it; the line is the
		 * user's own, still held to the rule of every body line. */
		if (!wn_fwd_mboxes_has(&to, t->list) || wn_fwd_has_control(t->line))
			continue;
		/* The lines close the mail, after a blank line. */
		while (!added && b.len && b.data[b.len - 1] == '\n')
			b.data[--b.len] = '\0';
		st = wn_buf_printf(&b, "%s%s\n", added++ ? "" : "\n\n", t->line);
	}
	wn_fwd_mboxes_clear(&to);
	if (st == WN_OK && added) {
		char *body = wn_buf_steal(&b);

		if (!body)
			return WN_NOMEM;
		free(f->body);
		f->body = body;
	}
	wn_buf_free(&b);
	return st;
}

/* --- compose -------------------------------------------------------------- */

static wn_status check_items(wn_item **items, size_t n, wn_error *err)
{
	if (!n)
		return wn_error_set(err, WN_USAGE, "no review to forward");
	for (size_t i = 0; i < n; i++) {
		if (!items[i]->loaded || items[i]->load_error)
			return wn_error_set(err, WN_NOT_FOUND, "review <%s> could not be read", items[i]->id);
		if (!items[i]->patch)
			return wn_error_set(err, WN_NOT_FOUND, "the patch of review <%s> is not in the index: "
					    "there is nobody to reply to", items[i]->id);
		if (i && strcmp(items[i]->patch->id, items[0]->patch->id))
			return wn_error_set(err, WN_USAGE, "reviews of different patches go in different mails");
	}
	return WN_OK;
}

/* --- has the author the review? ------------------------------------------- */

void wn_reached_clear(wn_reached *r)
{
	free(r->by);
	memset(r, 0, sizeof(*r));
}

/* Is addr one of the people in list (a header's addresses)? */
static bool among(const char *list, const char *addr)
{
	fwd_mboxes l = { 0 };
	bool hit = false;

	if (list && wn_fwd_parse_loose(list, &l) == WN_OK)
		for (size_t i = 0; !hit && i < l.n; i++)
			hit = wn_fwd_same_person(l.v[i].addr, addr);
	wn_fwd_mboxes_clear(&l);
	return hit;
}

/* A review From a person (no bot address) was passed on by them:
 * netdev's "AI-generated review" mails are the maintainer's own triage,
 * sent to the author.  Else the bot reached the author when they are
 * among its To/Cc. */
static wn_status reach_of(const wn_conf *c, const wn_mail *review, const wn_mail *patch, wn_reached *out)
{
	wn_people who;
	fwd_mboxes to = { 0 };
	bool reached = false;

	memset(out, 0, sizeof(*out));
	if (review->from_addr && *review->from_addr &&
	    !wn_bot_address(review->from_addr, (const char *const *) c->bots)) {
		out->how = WN_REACH_HUMAN;
		out->date = review->date;
		out->by = wn_text_sanitize(review->from ? review->from : review->from_addr, 0);
		return out->by ? WN_OK : WN_NOMEM;
	}
	/* The git author (wn_mail_people), by the address they wrote the
	 * patch under or the one replies to them go to. */
	if (wn_mail_people(patch, &who) != WN_OK)
		return WN_NOMEM;
	if (*who.author.addr)
		reached = among(review->to, who.author.addr) || among(review->cc, who.author.addr);
	if (!reached && wn_fwd_parse_addresses(who.to, &to, false, NULL) == WN_OK)
		for (size_t i = 0; !reached && i < to.n; i++)
			reached = among(review->to, to.v[i].addr) || among(review->cc, to.v[i].addr);
	wn_fwd_mboxes_clear(&to);
	wn_people_clear(&who);
	if (reached)
		out->how = WN_REACH_BOT;
	return WN_OK;
}

wn_status wn_forward_reached(wn_index *idx, const wn_item *it, wn_reached *out, wn_error *err)
{
	wn_mail *review = NULL, *patch = NULL;
	wn_status st;

	memset(out, 0, sizeof(*out));
	if (!it->patch)
		return wn_error_set(err, WN_NOT_FOUND, "the patch of review <%s> is not in the index", it->id);
	if ((st = read_mail(idx, it->id, &review, err)) == WN_OK &&
	    (st = read_mail(idx, it->patch->id, &patch, err)) == WN_OK &&
	    (st = reach_of(wn_index_conf(idx), review, patch, out)) == WN_NOMEM)
		wn_error_set(err, st, "out of memory");
	wn_mail_free(&review);
	wn_mail_free(&patch);
	return st;
}

size_t wn_forward_recipients(const wn_forward *f)
{
	fwd_mboxes l = { 0 };
	size_t n;

	/* Loose: an address the send would refuse still counts here. */
	if (wn_fwd_parse_loose(f->to, &l) != WN_OK || wn_fwd_parse_loose(f->cc, &l) != WN_OK) {
		wn_fwd_mboxes_clear(&l);
		return 0;
	}
	n = l.n;
	wn_fwd_mboxes_clear(&l);
	return n;
}

/* --- compose ---------------------------------------------------------------- */

/* Which findings, and which kind of mail: a verdict reply when one
 * review reached the author (and not o->full).  *review: the review's
 * mail when it is one. */
static wn_status choose(wn_index *idx, wn_forward *f, wn_item **items, size_t n, const wn_fwd_opts *o,
			const wn_mail *patch, wn_mail **review, wn_error *err)
{
	wn_reached r = { 0 };
	wn_status st = WN_OK;

	if (n == 1 && !o->full) {
		if ((st = read_mail(idx, items[0]->id, review, err)) != WN_OK)
			return st;
		if ((st = reach_of(wn_index_conf(idx), *review, patch, &r)) != WN_OK)
			return wn_error_set(err, st, "out of memory");
		f->kind = r.how == WN_REACH_NO ? WN_FWD_FULL : WN_FWD_VERDICTS;
		wn_reached_clear(&r);
	}
	if (f->kind == WN_FWD_VERDICTS) {
		if ((st = pick_verdicts(f, items[0], o)) != WN_OK)
			return wn_error_set(err, st, "out of memory");
		if (!f->nvalid && !f->nfalse && !f->npre)
			return wn_error_set(err, WN_NOT_FOUND, "no finding of this review is marked valid or false "
					    "positive%s%s: nothing to reply", o->preexisting ? " or pre-existing" : "",
					    o->skip_forwarded ? " and not yet forwarded" : "");
		return WN_OK;
	}
	for (size_t i = 0; i < n && st == WN_OK; i++)
		st = pick(f, items[i], o);
	if (st != WN_OK)
		return wn_error_set(err, st, "out of memory");
	if (!f->nvalid)
		return wn_error_set(err, WN_NOT_FOUND, "no finding of %s is marked valid%s: nothing to forward",
				    n == 1 ? "this review" : "these reviews",
				    o->skip_forwarded ? " and not yet forwarded" : "");
	return WN_OK;
}

static wn_status compose(wn_index *idx, wn_forward *f, wn_item **items, size_t n,
			 const wn_fwd_opts *o, wn_error *err)
{
	wn_mail *patch = NULL, *review = NULL;
	const wn_mail *answered;
	wn_status st;

	if ((st = read_mail(idx, items[0]->patch->id, &patch, err)) != WN_OK)
		return st;
	if ((st = choose(idx, f, items, n, o, patch, &review, err)) != WN_OK) {
		wn_mail_free(&patch);
		wn_mail_free(&review);
		return st;
	}
	answered = f->kind == WN_FWD_VERDICTS ? review : patch;
	if ((st = wn_fwd_recipients(f, wn_index_conf(idx), patch, answered, err)) == WN_OK &&
	    (st = subject(f, answered)) == WN_OK && (st = threading(f, answered)) == WN_OK &&
	    (st = wn_fwd_key(f, items, n)) == WN_OK &&
	    (st = new_message_id(f, wn_index_conf(idx))) == WN_OK &&
	    (st = note_forwarded(f)) == WN_OK && (st = make_body(idx, f, patch, err)) == WN_OK)
		st = list_trailers(f, wn_index_conf(idx), patch);
	if (st == WN_NOMEM)
		wn_error_set(err, WN_NOMEM, "out of memory");
	wn_mail_free(&patch);
	wn_mail_free(&review);
	return st;
}

wn_status wn_forward_compose(wn_index *idx, wn_item **items, size_t n, const wn_fwd_opts *o,
			     wn_forward **out, wn_error *err)
{
	static const wn_fwd_opts defaults = { false, false, false };
	wn_forward *f;
	wn_status st;

	*out = NULL;
	if ((st = check_items(items, n, err)) != WN_OK ||
	    (st = wn_forward_optout_check(wn_index_conf(idx), err)) != WN_OK)
		return st;
	if (!(f = calloc(1, sizeof(*f))))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	f->preexisting = (o ? o : &defaults)->preexisting;
	f->created = wn_forward_now();
	st = compose(idx, f, items, n, o ? o : &defaults, err);
	if (st != WN_OK) {
		wn_forward_free(&f);
		return st;
	}
	*out = f;
	return WN_OK;
}

/* A forward's key: the same for the same reviews in any order, so a
 * draft is found again from the reviews alone (forward-draft.c). */
static char *key_of(wn_item **items, size_t n)
{
	unsigned long long sum = 0;
	char *k = NULL;

	for (size_t i = 0; i < n; i++)
		sum += wn_fnv1a_field(WN_FNV_BASIS, items[i]->id);
	return asprintf(&k, "%016llx", (unsigned long long) wn_fnv1a_field(sum, "winnow-draft")) < 0 ? NULL : k;
}

wn_status wn_fwd_key(wn_forward *f, wn_item **items, size_t n)
{
	return (f->key = key_of(items, n)) ? WN_OK : WN_NOMEM;
}

wn_status wn_fwd_read_mail(wn_index *idx, const char *id, wn_mail **out, wn_error *err)
{
	return read_mail(idx, id, out, err);
}

wn_status wn_fwd_reply_subject(wn_forward *f, const wn_mail *parent)
{
	return subject(f, parent);
}

wn_status wn_fwd_thread_under(wn_forward *f, const wn_mail *parent, const wn_conf *c)
{
	wn_status st = threading(f, parent);

	return st == WN_OK ? new_message_id(f, c) : st;
}

void wn_forward_free(wn_forward **pf)
{
	wn_forward *f = pf ? *pf : NULL;

	if (!f)
		return;
	for (size_t k = 0; k < f->nparts; k++)
		free(f->parts[k].findings);
	free(f->parts);
	free(f->from);
	free(f->to);
	free(f->cc);
	free(f->subject);
	free(f->body);
	free(f->message_id);
	free(f->in_reply_to);
	for (size_t i = 0; i < f->nreferences; i++)
		free(f->references[i]);
	free(f->references);
	free(f->key);
	free(f->notice);
	free(f);
	*pf = NULL;
}
