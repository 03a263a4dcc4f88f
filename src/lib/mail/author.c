/* winnow — who a patch mail is from (mail.h, wn_mail_people): the git
 * author, the sender, and where a reply to them goes.
 *
 * Three ways the header From is not the author:
 *
 *   - git send-email, a maintainer sending a colleague's patch, or a
 *     sub-maintainer's pull: the author is the first line of the body,
 *
 *	From: Ann Author <ann@example.org>
 *	Date: ...                           (optional, as is Subject:)
 *
 *	commit message
 *
 *   - B4 Relay sends for people whose own mail server cannot:
 *     "From: Ann via B4 Relay <devnull+ann.example.org@kernel.org>",
 *     with "X-Original-From: Ann <ann@example.org>" and "Reply-To:
 *     ann@example.org".  Nobody reads devnull.
 *
 *   - Reply-To: where the sender wants replies, as mutt honours it.
 *
 * Mail is hostile: anything here that does not read cleanly is left
 * out, and the header From stands. */
#include "autoconfig.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail-private.h"
#include "../core/str.h"
#include "winnow/text.h"

/* The in-body header block is a few lines at the top of the body;
 * beyond these it is prose, not git's. */
#define INBODY_MAX_LINES 12
#define INBODY_MAX_BYTES 2048

bool wn_mail_addr_relay(const char *addr)
{
	return addr && (strncasecmp(addr, "devnull+", 8) == 0 || strncasecmp(addr, "devnull@", 8) == 0);
}

/* One '@' with text both sides, no blank, control or bracket: an
 * address a mail can go to, and a relay's it is not. */
static bool addr_usable(const char *a)
{
	const char *at = a ? strchr(a, '@') : NULL;

	if (!at || at == a || !at[1] || strchr(at + 1, '@') || wn_mail_addr_relay(a))
		return false;
	for (const unsigned char *p = (const unsigned char *) a; *p; p++)
		if (*p <= ' ' || *p == 0x7f || strchr("<>()[],;:\"\\", *p))
			return false;
	return true;
}

static bool line_is(const char *l, size_t n, const char *name)
{
	size_t k = strlen(name);

	return n >= k && strncasecmp(l, name, k) == 0;
}

/* The raw value of the in-body From (malloc'd, folds joined), or NULL
 * when the body does not start with an in-body header block: blank
 * lines, then "From:", "Date:" and "Subject:" lines (folded or not,
 * From exactly once), then a blank line. */
static char *inbody_from_raw(const char *body, size_t len, bool *nomem)
{
	size_t pos = 0, ln, lines = 0;
	const char *l;
	char *from = NULL;
	bool in_from = false, started = false;

	*nomem = false;
	if (len > INBODY_MAX_BYTES)
		len = INBODY_MAX_BYTES;
	while (wn_str_next_line(body, len, &pos, &l, &ln) && lines++ < INBODY_MAX_LINES) {
		while (ln && (l[ln - 1] == '\r' || l[ln - 1] == ' ' || l[ln - 1] == '\t'))
			ln--;
		if (!ln) {
			if (!started)
				continue;
			if (from)
				return from;
			break;
		}
		if (started && (*l == ' ' || *l == '\t')) {
			if (in_from) {
				size_t have = strlen(from);
				char *more = realloc(from, have + ln + 1);

				if (!more) {
					*nomem = true;
					break;
				}
				from = more;
				memcpy(from + have, l, ln);
				from[have + ln] = '\0';
			}
			continue;
		}
		started = true;
		in_from = false;
		if (line_is(l, ln, "From:")) {
			if (from)
				break;	/* two authors: neither */
			if (!(from = wn_strndup(l + 5, ln - 5))) {
				*nomem = true;
				break;
			}
			in_from = true;
		} else if (!line_is(l, ln, "Date:") && !line_is(l, ln, "Subject:")) {
			break;
		}
	}
	free(from);
	return NULL;
}

/* p: the mailbox of addr, under name (NULL: none), written as
 * wn_mail.from writes one. */
static wn_status person_of(wn_person *p, const char *name, const char *addr)
{
	InternetAddress *mb;
	char *text;

	if (name && *name) {
		if (!(p->name = wn_mail_one_line(name)))
			return WN_NOMEM;
		if (!*p->name) {
			free(p->name);
			p->name = NULL;
		}
	}
	p->addr = wn_mail_one_line(addr ? addr : "");
	if (!p->addr)
		return WN_NOMEM;
	mb = internet_address_mailbox_new(p->name, p->addr);
	text = wn_mail_mailbox_text(INTERNET_ADDRESS_MAILBOX(mb));
	g_object_unref(mb);
	p->text = text ? wn_mail_one_line(text) : NULL;
	g_free(text);
	return p->text ? WN_OK : WN_NOMEM;
}

/* p: mailbox mb as it is. */
static wn_status person_mb(wn_person *p, InternetAddressMailbox *mb)
{
	return person_of(p, internet_address_get_name(INTERNET_ADDRESS(mb)), internet_address_mailbox_get_addr(mb));
}

static void person_clear(wn_person *p)
{
	free(p->text);
	free(p->name);
	free(p->addr);
	p->text = p->name = p->addr = NULL;
}

static wn_status person_copy(wn_person *to, const wn_person *from)
{
	to->text = strdup(from->text);
	to->addr = strdup(from->addr);
	to->name = wn_strdup0(from->name);
	return to->text && to->addr && (!from->name || to->name) ? WN_OK : WN_NOMEM;
}

/* The author from the body: the one mailbox of the in-body From, its
 * address usable; WN_NOT_FOUND when there is none such. */
static wn_status inbody_author(const wn_mail *m, wn_person *out)
{
	bool nomem;
	char *raw = m->body ? inbody_from_raw(m->body, m->body_len, &nomem) : NULL;
	InternetAddressList *list;
	InternetAddress *ia;
	wn_status st = WN_NOT_FOUND;

	if (!raw)
		return m->body && nomem ? WN_NOMEM : WN_NOT_FOUND;
	/* GMime reads it, RFC 2047 words and all, as it reads a header. */
	list = internet_address_list_parse(wn_mail_gmime(), raw);
	free(raw);
	if (!list)
		return WN_NOT_FOUND;
	ia = internet_address_list_length(list) == 1 ? internet_address_list_get_address(list, 0) : NULL;
	if (ia && INTERNET_ADDRESS_IS_MAILBOX(ia) &&
	    addr_usable(internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia))))
		st = person_mb(out, INTERNET_ADDRESS_MAILBOX(ia));
	g_object_unref(list);
	return st;
}

/* "Ann via B4 Relay" -> "Ann": the name of whom a relay sends for.
 * malloc'd (NULL name: NULL). */
static char *relay_name(const char *name)
{
	static const char via[] = " via B4 Relay";
	size_t n = name ? strlen(name) : 0, k = sizeof(via) - 1;

	if (!name)
		return NULL;
	if (n > k && strcasecmp(name + n - k, via) == 0)
		n -= k;
	return wn_strndup(name, n);
}

/* Whether s[0..n) is one or more words of ASCII letters, digits, '-'
 * and '\'' (sep ' ') or dot-atoms of those and "._+=" (sep '.'): text
 * GMime reads as it is, decodes nothing in, and quotes nothing of. */
static bool plain_words(const char *s, size_t n, char sep)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char) s[i];

		if (c == (unsigned char) sep) {
			if (i == 0 || i + 1 == n || s[i - 1] == sep)
				return false;
		} else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9') || c == '-' || (sep == ' ' && c == '\'') ||
			     (sep == '.' && strchr("_+=", c)))) {
			return false;
		}
	}
	return n > 0;
}

/* out: the sender from From alone when it reads "Name Name <a@b.c>" or
 * "a@b.c" in plain words (plain_words()), no relay's: what parsing it
 * again with GMime and writing the mailbox back would give (name,
 * address and text as they are), without doing so, which was two
 * thirds of this file's time.  WN_NOT_FOUND: not that plain. */
static wn_status plain_sender(const char *from, wn_person *out)
{
	const char *lt = from ? strchr(from, '<') : NULL, *a = lt ? lt + 1 : from, *at;
	size_t an = lt ? strlen(a) - 1 : from ? strlen(from) : 0;

	if (!from || (lt && (lt == from || lt[-1] != ' ' || from[strlen(from) - 1] != '>')))
		return WN_NOT_FOUND;
	if (lt && !plain_words(from, (size_t) (lt - from) - 1, ' '))
		return WN_NOT_FOUND;
	at = memchr(a, '@', an);
	if (!at || !plain_words(a, (size_t) (at - a), '.') ||
	    !plain_words(at + 1, an - (size_t) (at - a) - 1, '.') ||
	    memchr(at + 1, '@', an - (size_t) (at - a) - 1) || wn_mail_addr_relay(a))
		return WN_NOT_FOUND;
	out->text = strdup(from);
	out->addr = wn_strndup(a, an);
	out->name = lt ? wn_strndup(from, (size_t) (lt - from) - 1) : NULL;
	return out->text && out->addr && (!lt || out->name) ? WN_OK : WN_NOMEM;
}

static wn_status parsed_sender(const wn_mail *m, wn_person *out);

/* The sender: X-Original-From when a relay said whom it sends for;
 * a relay's devnull From with a Reply-To; else From. */
static wn_status sender_of(const wn_mail *m, wn_person *out)
{
	wn_status plain =
		!m->original_from || !*m->original_from ? plain_sender(m->from, out) : WN_NOT_FOUND;

	if (plain != WN_NOT_FOUND)
		return plain;
	person_clear(out);
	return parsed_sender(m, out);
}

static wn_status parsed_sender(const wn_mail *m, wn_person *out)
{
	InternetAddressList *from = wn_mail_addresses_of(m->from);
	InternetAddressMailbox *fmb = wn_mail_first_mailbox(from);
	InternetAddressList *orig = wn_mail_addresses_of(m->original_from);
	InternetAddressMailbox *omb = wn_mail_first_mailbox(orig);
	InternetAddressList *rt = NULL;
	InternetAddressMailbox *rmb = NULL;
	wn_status st;

	if (!omb && fmb && wn_mail_addr_relay(internet_address_mailbox_get_addr(fmb))) {
		rt = wn_mail_addresses_of(m->reply_to);
		rmb = wn_mail_first_mailbox(rt);
		if (rmb && !addr_usable(internet_address_mailbox_get_addr(rmb)))
			rmb = NULL;
	}
	if (omb && addr_usable(internet_address_mailbox_get_addr(omb))) {
		st = person_mb(out, omb);
	} else if (rmb) {
		char *name = relay_name(internet_address_get_name(INTERNET_ADDRESS(fmb)));
		const char *rname = internet_address_get_name(INTERNET_ADDRESS(rmb));

		st = person_of(out, rname && *rname ? rname : name, internet_address_mailbox_get_addr(rmb));
		free(name);
	} else if (fmb) {
		st = person_mb(out, fmb);
	} else {
		/* No address in From: what it said, for the eye. */
		out->text = strdup(m->from ? m->from : "");
		out->addr = strdup("");
		st = out->text && out->addr ? WN_OK : WN_NOMEM;
	}
	if (from)
		g_object_unref(from);
	if (orig)
		g_object_unref(orig);
	if (rt)
		g_object_unref(rt);
	return st;
}

/* Append mailbox mb to the list text b ("a, b"), under known's name
 * when mb has its address and no name of its own. */
static wn_status add_to_list(GString *b, InternetAddressMailbox *mb, const wn_person *known)
{
	const char *addr = internet_address_mailbox_get_addr(mb);
	const char *name = internet_address_get_name(INTERNET_ADDRESS(mb));
	wn_person p = { 0 };
	wn_status st;

	if (!addr_usable(addr))
		return WN_OK;
	if ((!name || !*name) && strcasecmp(addr, known->addr) == 0)
		name = known->name;
	st = person_of(&p, name, addr);
	if (st == WN_OK) {
		if (b->len)
			g_string_append(b, ", ");
		g_string_append(b, p.text);
	}
	person_clear(&p);
	return st;
}

/* The sender's reply addresses: the Reply-To's (mutt's rule) when it
 * holds any usable one, else the sender's own.  Into *out (malloc'd,
 * NULL when none); the author's and the sender's names where those
 * lists give an address alone. */
static wn_status reply_list(const wn_mail *m, const wn_people *p, char **out)
{
	InternetAddressList *rt = wn_mail_addresses_of(m->reply_to);
	GString *b = g_string_new(NULL);
	wn_status st = WN_OK;
	int n = rt ? internet_address_list_length(rt) : 0;

	for (int i = 0; i < n && st == WN_OK; i++) {
		InternetAddress *ia = internet_address_list_get_address(rt, i);

		if (INTERNET_ADDRESS_IS_MAILBOX(ia))
			st = add_to_list(b, INTERNET_ADDRESS_MAILBOX(ia),
					 strcasecmp(internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia)),
						    p->author.addr) == 0 ? &p->author : &p->sender);
	}
	if (st == WN_OK && !b->len && addr_usable(p->sender.addr))
		g_string_append(b, p->sender.text);
	*out = st == WN_OK && b->len ? strdup(b->str) : NULL;
	if (st == WN_OK && b->len && !*out)
		st = WN_NOMEM;
	g_string_free(b, TRUE);
	if (rt)
		g_object_unref(rt);
	return st;
}

wn_status wn_mail_people(const wn_mail *m, wn_people *out)
{
	wn_status st;
	char *replies = NULL;

	memset(out, 0, sizeof(*out));
	st = sender_of(m, &out->sender);
	if (st == WN_OK) {
		st = inbody_author(m, &out->author);
		if (st == WN_NOT_FOUND) {
			person_clear(&out->author);
			st = person_copy(&out->author, &out->sender);
		}
	}
	if (st == WN_OK)
		st = reply_list(m, out, &replies);
	if (st == WN_OK && *out->author.addr && strcasecmp(out->author.addr, out->sender.addr) == 0) {
		/* The author sent it: a reply goes where the author asked. */
		out->to = replies;
		replies = NULL;
	} else if (st == WN_OK) {
		if (addr_usable(out->author.addr) && !(out->to = strdup(out->author.text)))
			st = WN_NOMEM;
		out->cc = replies;
		replies = NULL;
	}
	free(replies);
	if (st != WN_OK)
		wn_people_clear(out);
	return st;
}

void wn_people_clear(wn_people *p)
{
	person_clear(&p->author);
	person_clear(&p->sender);
	free(p->to);
	free(p->cc);
	p->to = p->cc = NULL;
}
