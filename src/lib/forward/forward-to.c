/* winnow — who a forward goes to: the people who opted out of mail
 * from winnow (winnow.optout), and the recipients of a reply (To the
 * patch's author, Cc from the mail answered, never a list the user
 * turned off, never the user).  forward.c composes the rest. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "forward-private.h"
#include "winnow/text.h"

/* --- the user, and what they are told --------------------------------- */

wn_status wn_fwd_me(const wn_conf *c, fwd_mboxes *me, const char *what, wn_error *err)
{
	/* The user's own name and address come from the notmuch config,
	 * not from mail, but a line break there would still split the
	 * From header (or the draft's), so they are held to the same rule:
	 * refused, not silently mended, as the user must fix the config. */
	if (!c->user_email || !*c->user_email)
		return wn_error_set(err, WN_CONFIG,
				    "user.primary_email is not set in the notmuch config: "
				    "%s need a From",
				    what);
	if (wn_fwd_has_control(c->user_email) || !wn_fwd_addr_ok(c->user_email))
		return wn_error_set(
			err, WN_CONFIG,
			"user.primary_email in the notmuch config is not one "
			"mail address (a line break, blank or quote in it?): %s need a From",
			what);
	if (wn_fwd_has_control(c->user_name))
		return wn_error_set(err, WN_CONFIG,
				    "user.name in the notmuch config holds a line break or "
				    "another control character: it cannot go into a From header");
	if (wn_fwd_mboxes_add(me, c->user_name, c->user_email) != WN_OK)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	return WN_OK;
}

/* Add line (from mail: made safe here) to what the user is told. */
wn_status wn_fwd_add_notice(wn_forward *f, const char *line)
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
		} else if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			   (*s >= '0' && *s <= '9') || *s == '-') {
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
	wn_fwd_mboxes_clear(&o->addrs);
	wn_fwd_mboxes_clear(&o->domains);
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
		st = d ? wn_fwd_mboxes_add(&o->domains, NULL, d) : WN_NOMEM;
		free(d);
		return st == WN_OK ? st : wn_error_set(err, st, "out of memory");
	}
	if (wn_fwd_has_control(item))
		return wn_error_set(err, WN_CONFIG,
				    "winnow.optout: an entry holds a control character");
	st = wn_fwd_parse_loose(item, &l);
	if (st == WN_OK && !l.n)
		st = wn_error_set(
			err, WN_CONFIG,
			"winnow.optout: cannot read '%.80s' as mail addresses or a "
			"domain (write them as 'bob@example.com; Name <ann@example.org>; @example.net')",
			item);
	for (size_t i = 0; st == WN_OK && i < l.n; i++) {
		char *a = norm_addr(l.v[i].addr);

		if (!a)
			st = wn_error_set(err, WN_CONFIG,
					  "winnow.optout: '%.80s' is not a mail address",
					  l.v[i].addr);
		else
			st = wn_fwd_mboxes_add(&o->addrs, NULL, a);
		free(a);
	}
	wn_fwd_mboxes_clear(&l);
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
	if (wn_fwd_parse_loose(who, &l) == WN_OK)
		for (size_t i = 0; !hit && i < l.n; i++)
			hit = optout_has(&o, l.v[i].addr);
	wn_fwd_mboxes_clear(&l);
	optout_clear(&o);
	return hit;
}

static wn_status optout_scan(const struct optout *o, const char *list, wn_buf *out)
{
	fwd_mboxes l = { 0 };
	wn_status st = list ? wn_fwd_parse_loose(list, &l) : WN_OK;

	for (size_t i = 0; st == WN_OK && i < l.n; i++)
		if (optout_has(o, l.v[i].addr))
			st = wn_buf_printf(out, "%s%s", out->len ? ", " : "", l.v[i].addr);
	wn_fwd_mboxes_clear(&l);
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
	fwd_mboxes addrs; /* the author and you */
	const struct optout *optout;
	const char *const *bots; /* winnow.bots */
};

/* Are a and b one person's addresses, as opt-out compares them
 * (case, quotes, "+tag")?  A patch may list its author as
 * Ann@Example.COM in Cc and ann+lkml@example.com in To: one person,
 * one place in the reply. */
bool wn_fwd_same_person(const char *a, const char *b)
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
		if (wn_fwd_same_person(skip->addrs.v[i].addr, addr))
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
	if (asprintf(&line, "dropped from the %s: '%s' is no mail address", where,
		     wn_buf_str(&l->dropped)) < 0)
		return WN_NOMEM;
	st = wn_fwd_add_notice(f, line);
	free(line);
	return st;
}

/* Add the To/Cc recipients of the mail answered (the patch, or the
 * review a verdict reply answers) to cc: every one, or its lists. */
static wn_status cc_from_patch(wn_forward *f, const wn_mail *patch, bool lists_only,
			       const struct cc_skip *skip, fwd_mboxes *cc)
{
	fwd_mboxes all = { 0 };
	wn_status st = wn_fwd_parse_addresses(patch->to, &all, false, NULL);

	if (st == WN_OK)
		st = wn_fwd_parse_addresses(patch->cc, &all, false, NULL);
	if (st == WN_OK)
		st = say_dropped(f, &all, "Cc");
	for (size_t i = 0; st == WN_OK && i < all.n; i++) {
		if ((lists_only && !is_list(all.v[i].addr)) || skipped(skip, all.v[i].addr) ||
		    wn_fwd_mboxes_has(cc, all.v[i].addr))
			continue;
		st = wn_fwd_mboxes_add(cc, all.v[i].name, all.v[i].addr);
	}
	wn_fwd_mboxes_clear(&all);
	return st;
}

/* winnow.cc: ';'-separated words "all" (the default: a group reply, as
 * kernel people answer a patch), "lists", "none", or addresses, in any
 * mix. */
static wn_status build_cc(wn_forward *f, const wn_conf *c, const wn_mail *patch,
			  const struct cc_skip *skip, fwd_mboxes *cc, wn_error *err)
{
	const char *spec = c->cc && *c->cc ? c->cc : "all";
	char *copy = strdup(spec), *save = NULL, *w;
	wn_status st = copy ? WN_OK : WN_NOMEM;

	for (w = copy ? strtok_r(copy, ";", &save) : NULL; w && st == WN_OK;
	     w = strtok_r(NULL, ";", &save)) {
		wn_text_trim(w);
		if (!*w || strcasecmp(w, "none") == 0)
			continue;
		if (strcasecmp(w, "lists") == 0 || strcasecmp(w, "all") == 0) {
			st = cc_from_patch(f, patch, strcasecmp(w, "lists") == 0, skip, cc);
			continue;
		}
		st = wn_fwd_parse_addresses(w, cc, true, err);
		if (st == WN_PARSE)
			st = wn_error_prefix(err, WN_CONFIG, "winnow.cc");
	}
	free(copy);
	return st;
}

/* From you, To the author, Cc per winnow.cc from the To/Cc of the mail
 * answered (the patch; for a verdict reply the review, and its sender
 * when a person sent it). */
wn_status wn_fwd_recipients(wn_forward *f, const wn_conf *c, const wn_mail *patch,
			    const wn_mail *answered, wn_error *err)
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
	if ((st = wn_fwd_me(c, &me, "forwarded findings", err)) != WN_OK) {
		wn_people_clear(&who);
		return st;
	}
	/* Composing checked it reads (wn_forward_optout_check). */
	if ((st = optout_read(c, &o, err)) != WN_OK) {
		wn_people_clear(&who);
		wn_fwd_mboxes_clear(&me);
		return st;
	}
	st = wn_fwd_parse_addresses(who.to, &to, false, NULL);
	if (st == WN_OK && !to.n) {
		wn_people_clear(&who);
		wn_fwd_mboxes_clear(&me);
		optout_clear(&o);
		return wn_error_set(err, WN_NOT_FOUND,
				    "the patch's author has no usable address: nobody to reply to");
	}
	/* Never Cc the author again, nor ourselves. */
	for (size_t i = 0; st == WN_OK && i < to.n; i++)
		st = wn_fwd_mboxes_add(&skip.addrs, NULL, to.v[i].addr);
	if (st == WN_OK && *who.author.addr)
		st = wn_fwd_mboxes_add(&skip.addrs, NULL, who.author.addr);
	if (st == WN_OK)
		st = wn_fwd_mboxes_add(&skip.addrs, NULL, c->user_email);
	for (char **e = c->other_email; st == WN_OK && e && *e; e++)
		st = wn_fwd_mboxes_add(&skip.addrs, NULL, *e);
	/* A person who passed the review on answers for it too. */
	if (st == WN_OK && answered != patch && answered->from_addr &&
	    wn_fwd_addr_ok(answered->from_addr) && !skipped(&skip, answered->from_addr) &&
	    !(c->cc && strcasecmp(c->cc, "none") == 0))
		st = wn_fwd_mboxes_add(&cc, NULL, answered->from_addr);
	if (st == WN_OK)
		st = wn_fwd_parse_addresses(who.cc, &sender, false, NULL);
	for (size_t i = 0; st == WN_OK && i < sender.n; i++)
		if (!skipped(&skip, sender.v[i].addr) && !wn_fwd_mboxes_has(&cc, sender.v[i].addr))
			st = wn_fwd_mboxes_add(&cc, sender.v[i].name, sender.v[i].addr);
	if (st == WN_OK)
		st = build_cc(f, c, answered, &skip, &cc, err);
	if (st == WN_OK &&
	    (!(f->from = wn_fwd_format_addresses(&me)) || !(f->to = wn_fwd_format_addresses(&to)) ||
	     !(f->cc = wn_fwd_format_addresses(&cc))))
		st = WN_NOMEM;
	wn_people_clear(&who);
	wn_fwd_mboxes_clear(&sender);
	wn_fwd_mboxes_clear(&me);
	wn_fwd_mboxes_clear(&to);
	wn_fwd_mboxes_clear(&cc);
	wn_fwd_mboxes_clear(&skip.addrs);
	optout_clear(&o);
	return st;
}
