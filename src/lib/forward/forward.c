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

/* --- the clock and the user ------------------------------------------ */

time_t wn_forward_now(void)
{
	return wn_env_time("WINNOW_FORWARD_DATE", wn_now());
}

wn_status fwd_me(const wn_conf *c, fwd_mboxes *me, const char *what, wn_error *err)
{
	/* The user's own name and address come from the notmuch config,
	 * not from mail, but a line break there would still split the
	 * From header (or the draft's), so they are held to the same rule:
	 * refused, not silently mended, as the user must fix the config. */
	if (!c->user_email || !*c->user_email)
		return wn_error_set(err, WN_CONFIG, "user.primary_email is not set in the notmuch config: "
				    "%s need a From", what);
	if (fwd_has_control(c->user_email) || !fwd_addr_ok(c->user_email))
		return wn_error_set(err, WN_CONFIG, "user.primary_email in the notmuch config is not one "
				    "mail address (a line break, blank or quote in it?): %s need a From", what);
	if (fwd_has_control(c->user_name))
		return wn_error_set(err, WN_CONFIG, "user.name in the notmuch config holds a line break or "
				    "another control character: it cannot go into a From header");
	if (fwd_mboxes_add(me, c->user_name, c->user_email) != WN_OK)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	return WN_OK;
}

/* --- opt-out ------------------------------------------------------------ */

/* An address as opt-out compares it: lower case, the local part's
 * quotes and its "+tag" taken off, so that "Bob@Example.COM",
 * "bob+lkml@example.com" and "\"bob\"@example.com" are one person.
 * malloc'd; NULL when out of memory or not an address. */
static char *norm_addr(const char *addr)
{
	const char *at = strrchr(addr, '@');
	wn_buf b = WN_BUF_INIT;
	const char *p = addr, *end = at;

	if (!at || at == addr || !at[1])
		return NULL;
	if (*p == '"' && end - p >= 2 && end[-1] == '"') {
		p++;
		end--;
	}
	for (; p < end; p++) {
		if (*p == '+')
			break;
		if (*p == '\\' && p + 1 < end)
			p++;
		if (wn_buf_putc(&b, (char) (*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p)) != WN_OK)
			goto fail;
	}
	for (p = at; *p; p++)
		if (wn_buf_putc(&b, (char) (*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p)) != WN_OK)
			goto fail;
	while (b.len && b.data[b.len - 1] == '.')
		b.data[--b.len] = '\0';
	if (!b.len || b.data[0] == '@')
		goto fail;
	return wn_buf_steal(&b);
fail:
	wn_buf_free(&b);
	return NULL;
}

/* "example.com" or "@example.com": a domain, dots between labels of
 * letters, digits and hyphens. */
static bool is_domain(const char *s)
{
	size_t label = 0;

	if (*s == '@')
		s++;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s == '.') {
			if (!label)
				return false;
			label = 0;
		} else if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
			   *s == '-') {
			label++;
		} else {
			return false;
		}
	}
	return label > 0;
}

/* winnow.optout read: addresses normalised (norm_addr) and domains
 * ("@domain", without the '@'), both lower case. */
struct optout {
	fwd_mboxes addrs;
	fwd_mboxes domains;
};

static void optout_clear(struct optout *o)
{
	fwd_mboxes_clear(&o->addrs);
	fwd_mboxes_clear(&o->domains);
}

/* One entry of the ';'-separated setting: a domain, or what GMime reads
 * as addresses (several, with commas; "Name <addr>" as copied from a
 * mail).  WN_CONFIG naming it when it is neither. */
static wn_status optout_entry(const char *item, struct optout *o, wn_error *err)
{
	fwd_mboxes l = { 0 };
	wn_status st;

	if (is_domain(item)) {
		char *d = strdup(item + (*item == '@'));
		size_t n = d ? strlen(d) : 0;

		for (size_t i = 0; i < n; i++)
			d[i] = (char) (d[i] >= 'A' && d[i] <= 'Z' ? d[i] - 'A' + 'a' : d[i]);
		while (n && d[n - 1] == '.')
			d[--n] = '\0';
		st = d ? fwd_mboxes_add(&o->domains, NULL, d) : WN_NOMEM;
		free(d);
		return st == WN_OK ? st : wn_error_set(err, st, "out of memory");
	}
	if (fwd_has_control(item))
		return wn_error_set(err, WN_CONFIG, "winnow.optout: an entry holds a control character");
	st = fwd_parse_loose(item, &l);
	if (st == WN_OK && !l.n)
		st = wn_error_set(err, WN_CONFIG, "winnow.optout: cannot read '%.80s' as mail addresses or a "
				  "domain (write them as 'bob@example.com; Name <ann@example.org>; @example.net')",
				  item);
	for (size_t i = 0; st == WN_OK && i < l.n; i++) {
		char *a = norm_addr(l.v[i].addr);

		if (!a)
			st = wn_error_set(err, WN_CONFIG, "winnow.optout: '%.80s' is not a mail address",
					  l.v[i].addr);
		else
			st = fwd_mboxes_add(&o->addrs, NULL, a);
		free(a);
	}
	fwd_mboxes_clear(&l);
	if (st == WN_NOMEM)
		wn_error_set(err, st, "out of memory");
	return st;
}

static wn_status optout_read(const wn_conf *c, struct optout *o, wn_error *err)
{
	wn_status st = WN_OK;

	memset(o, 0, sizeof(*o));
	for (char **e = c && c->optout ? c->optout : NULL; e && *e && st == WN_OK; e++) {
		/* A mail header's words: "a@x, b@y" are two addresses, "x.org,
		 * y.org" two domains.  Commas inside quotes or <> belong to
		 * the address (GMime reads those). */
		if (strchr(*e, '"') || strchr(*e, '<') || !strchr(*e, ',')) {
			st = optout_entry(*e, o, err);
			continue;
		}
		char *copy = strdup(*e), *save = NULL;

		if (!copy)
			st = wn_error_set(err, WN_NOMEM, "out of memory");
		for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && st == WN_OK;
		     t = strtok_r(NULL, ",", &save)) {
			wn_text_trim(t);
			if (*t)
				st = optout_entry(t, o, err);
		}
		free(copy);
	}
	if (st != WN_OK)
		optout_clear(o);
	return st;
}

wn_status wn_forward_optout_check(const wn_conf *c, wn_error *err)
{
	struct optout o;
	wn_status st = optout_read(c, &o, err);

	optout_clear(&o);
	return st;
}

static bool optout_has(const struct optout *o, const char *addr)
{
	char *a = norm_addr(addr);
	const char *dom = a ? strrchr(a, '@') + 1 : NULL;
	bool hit = false;

	/* A domain is that domain exactly: a list at a subdomain
	 * (vger.kernel.org under kernel.org) is not a person. */
	for (size_t i = 0; a && !hit && i < o->addrs.n; i++)
		hit = strcmp(a, o->addrs.v[i].addr) == 0;
	for (size_t i = 0; dom && !hit && i < o->domains.n; i++)
		hit = strcmp(dom, o->domains.v[i].addr) == 0;
	free(a);
	return hit;
}

bool wn_forward_opted_out(const wn_conf *c, const char *who)
{
	fwd_mboxes l = { 0 };
	struct optout o;
	bool hit = false;

	if (!c || !c->optout || !*c->optout || !who)
		return false;
	/* Unreadable: composing refuses it (wn_forward_optout_check), with
	 * the reason; here there is nobody to tell. */
	if (optout_read(c, &o, NULL) != WN_OK)
		return false;
	if (fwd_parse_loose(who, &l) == WN_OK)
		for (size_t i = 0; !hit && i < l.n; i++)
			hit = optout_has(&o, l.v[i].addr);
	fwd_mboxes_clear(&l);
	optout_clear(&o);
	return hit;
}

static wn_status optout_scan(const struct optout *o, const char *list, wn_buf *out)
{
	fwd_mboxes l = { 0 };
	wn_status st = list ? fwd_parse_loose(list, &l) : WN_OK;

	for (size_t i = 0; st == WN_OK && i < l.n; i++)
		if (optout_has(o, l.v[i].addr))
			st = wn_buf_printf(out, "%s%s", out->len ? ", " : "", l.v[i].addr);
	fwd_mboxes_clear(&l);
	return st;
}

char *wn_forward_optouts(const wn_conf *c, const wn_forward *f)
{
	wn_buf b = WN_BUF_INIT;
	struct optout o;

	if (!c || !c->optout || !*c->optout || optout_read(c, &o, NULL) != WN_OK)
		return NULL;
	if (optout_scan(&o, f->to, &b) != WN_OK || optout_scan(&o, f->cc, &b) != WN_OK || !b.len) {
		wn_buf_free(&b);
		optout_clear(&o);
		return NULL;
	}
	optout_clear(&o);
	return wn_buf_steal(&b);
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

/* Add line (from mail: made safe here) to what the user is told. */
static wn_status add_notice(wn_forward *f, const char *line)
{
	char *clean = wn_text_sanitize(line, 0), *n = NULL;

	if (!clean)
		return WN_NOMEM;
	if (asprintf(&n, "%s%s%s", f->notice ? f->notice : "", f->notice ? "\n" : "", clean) < 0)
		n = NULL;
	free(clean);
	if (!n)
		return WN_NOMEM;
	free(f->notice);
	f->notice = n;
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
		st = add_notice(f, l);
	}
	wn_buf_free(&b);
	return st;
}

/* --- recipients ------------------------------------------------------------ */

/* A mailing list, by the host names lists live on (vger.kernel.org,
 * lists.infradead.org, lists.linux.dev, *.googlegroups.com, ...). */
static bool is_list(const char *addr)
{
	static const char *const hosts[] = { "vger", "lists", "list", "googlegroups", "ml", NULL };
	const char *p = strchr(addr, '@');

	while (p) {
		p++;
		for (const char *const *h = hosts; *h; h++) {
			size_t n = strlen(*h);

			if (strncasecmp(p, *h, n) == 0 && (p[n] == '.' || !p[n]))
				return true;
		}
		p = strchr(p, '.');
	}
	return false;
}

/* Who a group reply leaves out of the patch's To and Cc: the author
 * (already To), you under any of your addresses, a bot (nobody reads
 * its mailbox), and whoever opted out of bot findings. */
struct cc_skip {
	fwd_mboxes addrs;		/* the author and you */
	const struct optout *optout;
	const char *const *bots;	/* winnow.bots */
};

/* Are a and b one person's addresses, as opt-out compares them
 * (case, quotes, "+tag")?  A patch may list its author as
 * Ann@Example.COM in Cc and ann+lkml@example.com in To: one person,
 * one place in the reply. */
static bool same_person(const char *a, const char *b)
{
	char *x = norm_addr(a), *y = x ? norm_addr(b) : NULL;
	bool same = x && y ? strcmp(x, y) == 0 : strcasecmp(a, b) == 0;

	free(x);
	free(y);
	return same;
}

static bool skipped(const struct cc_skip *skip, const char *addr)
{
	for (size_t i = 0; i < skip->addrs.n; i++)
		if (same_person(skip->addrs.v[i].addr, addr))
			return true;
	return optout_has(skip->optout, addr) || wn_bot_address(addr, skip->bots);
}

/* What a lenient parse of l dropped, told: a mailbox GMime would have
 * read as someone else ("a@b@c.com" as a@b) is never mailed. */
static wn_status say_dropped(wn_forward *f, const fwd_mboxes *l, const char *where)
{
	char *line = NULL;
	wn_status st;

	if (!l->dropped.len)
		return WN_OK;
	if (asprintf(&line, "dropped from the %s: '%s' is no mail address", where, wn_buf_str(&l->dropped)) < 0)
		return WN_NOMEM;
	st = add_notice(f, line);
	free(line);
	return st;
}

/* Add the To/Cc recipients of the mail answered (the patch, or the
 * review a verdict reply answers) to cc: every one, or its lists. */
static wn_status cc_from_patch(wn_forward *f, const wn_mail *patch, bool lists_only,
			       const struct cc_skip *skip, fwd_mboxes *cc)
{
	fwd_mboxes all = { 0 };
	wn_status st = fwd_parse_addresses(patch->to, &all, false, NULL);

	if (st == WN_OK)
		st = fwd_parse_addresses(patch->cc, &all, false, NULL);
	if (st == WN_OK)
		st = say_dropped(f, &all, "Cc");
	for (size_t i = 0; st == WN_OK && i < all.n; i++) {
		if ((lists_only && !is_list(all.v[i].addr)) || skipped(skip, all.v[i].addr) ||
		    fwd_mboxes_has(cc, all.v[i].addr))
			continue;
		st = fwd_mboxes_add(cc, all.v[i].name, all.v[i].addr);
	}
	fwd_mboxes_clear(&all);
	return st;
}

/* winnow.cc: ';'-separated words "all" (the default: a group reply, as
 * kernel people answer a patch), "lists", "none", or addresses, in any
 * mix. */
static wn_status build_cc(wn_forward *f, const wn_conf *c, const wn_mail *patch, const struct cc_skip *skip,
			  fwd_mboxes *cc, wn_error *err)
{
	const char *spec = c->cc && *c->cc ? c->cc : "all";
	char *copy = strdup(spec), *save = NULL, *w;
	wn_status st = copy ? WN_OK : WN_NOMEM;

	for (w = copy ? strtok_r(copy, ";", &save) : NULL; w && st == WN_OK; w = strtok_r(NULL, ";", &save)) {
		wn_text_trim(w);
		if (!*w || strcasecmp(w, "none") == 0)
			continue;
		if (strcasecmp(w, "lists") == 0 || strcasecmp(w, "all") == 0) {
			st = cc_from_patch(f, patch, strcasecmp(w, "lists") == 0, skip, cc);
			continue;
		}
		st = fwd_parse_addresses(w, cc, true, err);
		if (st == WN_PARSE)
			st = wn_error_prefix(err, WN_CONFIG, "winnow.cc");
	}
	free(copy);
	return st;
}

/* From you, To the author, Cc per winnow.cc from the To/Cc of the mail
 * answered (the patch; for a verdict reply the review, and its sender
 * when a person sent it). */
static wn_status recipients(wn_forward *f, const wn_conf *c, const wn_mail *patch, const wn_mail *answered,
			    wn_error *err)
{
	fwd_mboxes me = { 0 }, to = { 0 }, cc = { 0 }, sender = { 0 };
	struct optout o;
	struct cc_skip skip = { { 0 }, &o, (const char *const *) c->bots };
	wn_people who;
	wn_status st;

	/* The git author To (or where they asked replies to go), the
	 * sender Cc when someone else (wn_mail_people). */
	if (wn_mail_people(patch, &who) != WN_OK)
		return WN_NOMEM;
	if ((st = fwd_me(c, &me, "forwarded findings", err)) != WN_OK) {
		wn_people_clear(&who);
		return st;
	}
	/* Composing checked it reads (wn_forward_optout_check). */
	if ((st = optout_read(c, &o, err)) != WN_OK) {
		wn_people_clear(&who);
		fwd_mboxes_clear(&me);
		return st;
	}
	st = fwd_parse_addresses(who.to, &to, false, NULL);
	if (st == WN_OK && !to.n) {
		wn_people_clear(&who);
		fwd_mboxes_clear(&me);
		optout_clear(&o);
		return wn_error_set(err, WN_NOT_FOUND, "the patch's author has no usable address: nobody to reply to");
	}
	/* Never Cc the author again, nor ourselves. */
	for (size_t i = 0; st == WN_OK && i < to.n; i++)
		st = fwd_mboxes_add(&skip.addrs, NULL, to.v[i].addr);
	if (st == WN_OK && *who.author.addr)
		st = fwd_mboxes_add(&skip.addrs, NULL, who.author.addr);
	if (st == WN_OK)
		st = fwd_mboxes_add(&skip.addrs, NULL, c->user_email);
	for (char **e = c->other_email; st == WN_OK && e && *e; e++)
		st = fwd_mboxes_add(&skip.addrs, NULL, *e);
	/* A person who passed the review on answers for it too. */
	if (st == WN_OK && answered != patch && answered->from_addr && fwd_addr_ok(answered->from_addr) &&
	    !skipped(&skip, answered->from_addr) && !(c->cc && strcasecmp(c->cc, "none") == 0))
		st = fwd_mboxes_add(&cc, NULL, answered->from_addr);
	if (st == WN_OK)
		st = fwd_parse_addresses(who.cc, &sender, false, NULL);
	for (size_t i = 0; st == WN_OK && i < sender.n; i++)
		if (!skipped(&skip, sender.v[i].addr) && !fwd_mboxes_has(&cc, sender.v[i].addr))
			st = fwd_mboxes_add(&cc, sender.v[i].name, sender.v[i].addr);
	if (st == WN_OK)
		st = build_cc(f, c, answered, &skip, &cc, err);
	if (st == WN_OK && (!(f->from = fwd_format_addresses(&me)) || !(f->to = fwd_format_addresses(&to)) ||
			    !(f->cc = fwd_format_addresses(&cc))))
		st = WN_NOMEM;
	wn_people_clear(&who);
	fwd_mboxes_clear(&sender);
	fwd_mboxes_clear(&me);
	fwd_mboxes_clear(&to);
	fwd_mboxes_clear(&cc);
	fwd_mboxes_clear(&skip.addrs);
	optout_clear(&o);
	return st;
}

/* --- threading ------------------------------------------------------------- */

/* Append id to References: well-formed ids only (fwd_msgid_ok), each
 * once; an id seen before moves to the end, so that the parent, added
 * last, ends the header whatever its own References held. */
static wn_status add_ref(wn_forward *f, const char *id)
{
	char **nv;

	if (!fwd_msgid_ok(id))
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
	if (st == WN_OK && fwd_msgid_ok(parent->message_id)) {
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
			st = fwd_review_links(f->parts[k].it->bot, m->body, m->body_len, &links[k]);
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
	if ((st = fwd_parse_loose(patch->to, &to)) == WN_OK)
		st = fwd_parse_loose(patch->cc, &to);
	for (size_t i = 0; st == WN_OK && i < n && !*out; i++)
		if (fwd_mboxes_has(&to, t[i].list))
			*out = &t[i];
	fwd_mboxes_clear(&to);
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
		st = fwd_body(&c, f, &f->body, err);
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
	if ((st = fwd_parse_loose(patch->to, &to)) == WN_OK)
		st = fwd_parse_loose(patch->cc, &to);
	if (st == WN_OK)
		st = wn_buf_puts(&b, f->body);
	for (size_t i = 0; st == WN_OK && i < c->nforward_trailers; i++) {
		const wn_conf_trailer *t = &c->forward_trailers[i];

		/* wn_conf_check refused a line break in it; the line is the
		 * user's own, still held to the rule of every body line. */
		if (!fwd_mboxes_has(&to, t->list) || fwd_has_control(t->line))
			continue;
		/* The lines close the mail, after a blank line. */
		while (!added && b.len && b.data[b.len - 1] == '\n')
			b.data[--b.len] = '\0';
		st = wn_buf_printf(&b, "%s%s\n", added++ ? "" : "\n\n", t->line);
	}
	fwd_mboxes_clear(&to);
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

	if (list && fwd_parse_loose(list, &l) == WN_OK)
		for (size_t i = 0; !hit && i < l.n; i++)
			hit = same_person(l.v[i].addr, addr);
	fwd_mboxes_clear(&l);
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
	if (!reached && fwd_parse_addresses(who.to, &to, false, NULL) == WN_OK)
		for (size_t i = 0; !reached && i < to.n; i++)
			reached = among(review->to, to.v[i].addr) || among(review->cc, to.v[i].addr);
	fwd_mboxes_clear(&to);
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
	if (fwd_parse_loose(f->to, &l) != WN_OK || fwd_parse_loose(f->cc, &l) != WN_OK) {
		fwd_mboxes_clear(&l);
		return 0;
	}
	n = l.n;
	fwd_mboxes_clear(&l);
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
	if ((st = recipients(f, wn_index_conf(idx), patch, answered, err)) == WN_OK &&
	    (st = subject(f, answered)) == WN_OK && (st = threading(f, answered)) == WN_OK &&
	    (st = fwd_key(f, items, n)) == WN_OK && (st = new_message_id(f, wn_index_conf(idx))) == WN_OK &&
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

wn_status fwd_key(wn_forward *f, wn_item **items, size_t n)
{
	return (f->key = key_of(items, n)) ? WN_OK : WN_NOMEM;
}

wn_status fwd_read_mail(wn_index *idx, const char *id, wn_mail **out, wn_error *err)
{
	return read_mail(idx, id, out, err);
}

wn_status fwd_reply_subject(wn_forward *f, const wn_mail *parent)
{
	return subject(f, parent);
}

wn_status fwd_thread_under(wn_forward *f, const wn_mail *parent, const wn_conf *c)
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
