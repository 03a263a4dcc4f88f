/* winnow — the reply that tells syzbot what became of its report
 * (invalid, duplicate, fixed).  syzbot reads the replies to its reports: a line that
 * starts "#syz invalid", "#syz dup: SUBJECT", "#syz fix: TITLE" or
 * "#syz undup" changes the bug on its dashboard.  The reply goes To the
 * report's syzbot+HASH address, Cc syzkaller-bugs and the report's other
 * recipients, threaded under the report; it is a wn_forward like any
 * other (WN_FWD_VERDICTS: a reply to the review, its one finding), so
 * the draft, the confirm step, the journal and the never-twice rule are
 * forward's own.
 *
 * syzbot matches the subject and the title byte for byte: they are
 * copied as they are, and refused (never mended) when they could not
 * go into one line of a mail unchanged. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "forward-private.h"
#include "../index/index-nm.h"
#include "../index/message.h"
#include "winnow/ledger.h"
#include "winnow/text.h"

/* syzbot's list, when the report names none. */
#define SYZ_LIST "syzkaller-bugs@googlegroups.com"

/* The report's id its bot's address carries (wn_bot_report_extid). */
static const char *syz_hash(const char *addr, size_t *n)
{
	return wn_bot_report_extid(addr, n);
}

/* Can text go into the command line exactly (wn_fix_title_ok: one
 * line, no control character, no blank at its ends, UTF-8)? */
static bool exact_line(const char *text)
{
	return wn_fix_title_ok(text);
}

/* The command's argument: the other report's subject, the commit's
 * title.  *arg malloc'd. */
static wn_status dup_subject(wn_index *idx, const char *other, char **arg, wn_error *err)
{
	wn_mail *m = NULL;
	wn_status st = wn_fwd_read_mail(idx, other, &m, err);

	if (st == WN_NOT_FOUND)
		return wn_error_set(err, st, "the report this one duplicates, <%s>, is no longer in the index",
				    other);
	if (st != WN_OK)
		return st;
	if (!exact_line(m->subject))
		st = wn_error_set(err, WN_PARSE, "the subject of <%s> cannot be sent exactly (a line break, "
				  "a control character or a blank at its end): the bot matches it byte for byte; "
				  "send the command yourself", other);
	else if (!(*arg = strdup(m->subject)))
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	wn_mail_free(&m);
	return st;
}

static wn_status fix_title(const wn_conf *c, const char *hash, char **arg, wn_error *err)
{
	char *full = NULL;
	wn_status st;

	if (!c->tree || !*c->tree)
		return wn_error_set(err, WN_CONFIG, "winnow.tree is not set: the title of commit %.12s "
				    "cannot be read", hash);
	st = wn_ledger_commit(c->tree, hash, &full, arg, err);
	free(full);
	if (st == WN_OK && !exact_line(*arg)) {
		free(*arg);
		*arg = NULL;
		st = wn_error_set(err, WN_PARSE, "the title of commit %.12s has a blank at an end: it cannot "
				  "be sent exactly", hash);
	}
	return st;
}

/* The body: the command alone on the first line; an invalid report's
 * note below it, no line of it able to pass for a command. */
static wn_status body(wn_forward *f, const char *cmd, const char *arg, const char *note)
{
	wn_buf b = WN_BUF_INIT;
	char *clean = note ? wn_text_sanitize(note, WN_TEXT_KEEP_NEWLINE) : NULL;

	if (note && !clean)
		return WN_NOMEM;
	wn_buf_printf(&b, "%s%s%s\n", cmd, arg ? " " : "", arg ? arg : "");
	if (clean && *clean) {
		wn_buf_puts(&b, "\n");
		for (char *l = clean, *nl; l && *l; l = nl ? nl + 1 : NULL) {
			nl = strchr(l, '\n');
			wn_buf_printf(&b, "%s%.*s\n", l[0] == '#' ? " " : "", (int) (nl ? (size_t) (nl - l) : strlen(l)), l);
		}
	}
	free(clean);
	return (f->body = wn_buf_steal(&b)) ? WN_OK : WN_NOMEM;
}

/* Is addr (any case) one of c's user addresses? */
static bool is_me(const wn_conf *c, const char *addr)
{
	if (c->user_email && !strcasecmp(c->user_email, addr))
		return true;
	for (char **e = c->other_email; e && *e; e++)
		if (!strcasecmp(*e, addr))
			return true;
	return false;
}

/* From you, To syzbot, Cc syzkaller-bugs first, then the report's other
 * recipients but you and whoever opted out. */
static wn_status recipients(wn_forward *f, const wn_conf *c, const wn_mail *rep, wn_error *err)
{
	fwd_mboxes me = { 0 }, to = { 0 }, cc = { 0 }, all = { 0 };
	size_t n = 0;
	wn_status st = wn_fwd_me(c, &me, "a reply to the bot", err);

	if (st != WN_OK)
		return st;
	if (!syz_hash(rep->from_addr, &n) || !wn_fwd_addr_ok(rep->from_addr)) {
		wn_fwd_mboxes_clear(&me);
		return wn_error_set(err, WN_NOT_FOUND, "the report is not From its bot's address "
				    "with the report's id: the bot would not read the reply");
	}
	st = wn_fwd_mboxes_add(&to, NULL, rep->from_addr);
	if (st == WN_OK)
		st = wn_fwd_parse_addresses(rep->to ? rep->to : "", &all, false, NULL);
	if (st == WN_OK)
		st = wn_fwd_parse_addresses(rep->cc ? rep->cc : "", &all, false, NULL);
	for (size_t i = 0; st == WN_OK && i < all.n; i++)
		if (!strncasecmp(all.v[i].addr, "syzkaller-bugs@", 15) &&
		    !wn_fwd_mboxes_has(&cc, all.v[i].addr))
			st = wn_fwd_mboxes_add(&cc, all.v[i].name, all.v[i].addr);
	if (st == WN_OK && !cc.n)
		st = wn_fwd_mboxes_add(&cc, NULL, SYZ_LIST);
	for (size_t i = 0; st == WN_OK && i < all.n; i++) {
		const char *a = all.v[i].addr;

		if (wn_fwd_mboxes_has(&cc, a) || wn_fwd_mboxes_has(&to, a) || is_me(c, a) ||
		    wn_forward_opted_out(c, a) || syz_hash(a, &n))
			continue;
		st = wn_fwd_mboxes_add(&cc, all.v[i].name, a);
	}
	if (st == WN_OK &&
	    (!(f->from = wn_fwd_format_addresses(&me)) || !(f->to = wn_fwd_format_addresses(&to)) ||
	     !(f->cc = wn_fwd_format_addresses(&cc))))
		st = WN_NOMEM;
	wn_fwd_mboxes_clear(&me);
	wn_fwd_mboxes_clear(&to);
	wn_fwd_mboxes_clear(&cc);
	wn_fwd_mboxes_clear(&all);
	return st == WN_NOMEM ? wn_error_set(err, st, "out of memory") : st;
}

/* The command for it's state, and its argument (malloc'd, or NULL). */
static wn_status command(wn_index *idx, wn_forward *f, const wn_item *it, const char **cmd, char **arg,
			 wn_error *err)
{
	const char *what = NULL, *told;
	wn_crash state = wn_crash_of(it->verdicts[0], it->closed ? it->closed[0] : NULL, &what);

	*arg = NULL;
	switch (state) {
	case WN_CRASH_INVALID:
		*cmd = "#syz invalid";
		f->nfalse = 1;
		return WN_OK;
	case WN_CRASH_DUPLICATE:
		*cmd = "#syz dup:";
		f->nvalid = 1;
		return dup_subject(idx, what, arg, err);
	case WN_CRASH_FIXED:
		*cmd = "#syz fix:";
		f->nvalid = 1;
		/* A title typed when marking (no tree to read it in). */
		if (!wn_closed_title(state, what))
			return fix_title(wn_index_conf(idx), what, arg, err);
		if (!(*arg = strdup(wn_closed_title(state, what))))
			return wn_error_set(err, WN_NOMEM, "out of memory");
		return WN_OK;
	case WN_CRASH_REAL:
		/* Only a report told it was a duplicate has anything to
		 * take back: the last reply sent must have said dup. */
		if (!it->forwarded || !it->forwarded[0])
			return wn_error_set(err, WN_NOT_FOUND, "the report is marked a real bug and no command was "
					    "sent for it: the bot keeps it open, nothing to reply");
		told = wn_forwarded_told(it->forwarded[0]);
		if (!told || strcmp(told, "dup"))
			return wn_error_set(
				err, WN_NOT_FOUND,
				"no '#syz undup': the last reply sent for the report "
				"said %s%s%s, not that it is a duplicate; nothing to take back",
				told ? "'#syz " : "no command winnow knows", told ? told : "",
				told ? "'" : "");
		*cmd = "#syz undup";
		f->nvalid = 1;
		return WN_OK;
	default:
		return wn_error_set(err, WN_NOT_FOUND, "the report is not marked invalid, duplicate, fixed or "
				    "real bug: nothing to tell the bot");
	}
}

/* A reply sent before: said, as forward says it. */
static wn_status notice(wn_forward *f, const wn_item *it)
{
	const char *was = it->forwarded ? it->forwarded[0] : NULL;
	const char *sp = was ? strchr(was, ' ') : NULL, *id = sp ? sp + 1 : "?";
	const char *told = wn_forwarded_told(was);
	char *clean;

	if (!was)
		return WN_OK;
	if (asprintf(&clean, "a reply to this report was already sent on %.*s in <%.*s>%s%s%s",
		     (int) (sp ? (size_t) (sp - was) : strlen(was)), was, (int) strcspn(id, " "),
		     id, told ? " (#syz " : "", told ? told : "", told ? ")" : "") < 0)
		return WN_NOMEM;
	f->notice = wn_text_sanitize(clean, 0);
	free(clean);
	return f->notice ? WN_OK : WN_NOMEM;
}

static wn_status compose(wn_index *idx, wn_forward *f, wn_item *it, wn_error *err)
{
	const wn_conf *c = wn_index_conf(idx);
	wn_mail *rep = NULL;
	const char *cmd = NULL;
	char *arg = NULL;
	wn_status st;

	if (!(f->parts = calloc(1, sizeof(*f->parts))) || !(f->parts[0].findings = calloc(1, sizeof(size_t))))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	f->nparts = 1;
	f->parts[0].it = it;
	f->parts[0].findings[f->parts[0].n++] = 1;
	if ((st = command(idx, f, it, &cmd, &arg, err)) != WN_OK)
		return st;
	st = wn_fwd_read_mail(idx, it->id, &rep, err);
	if (st == WN_OK)
		st = recipients(f, c, rep, err);
	if (st == WN_OK &&
	    ((st = wn_fwd_reply_subject(f, rep)) != WN_OK ||
	     (st = wn_fwd_key(f, &it, 1)) != WN_OK ||
	     (st = wn_fwd_thread_under(f, rep, c)) != WN_OK || (st = notice(f, it)) != WN_OK ||
	     (st = body(f, cmd, arg, f->nfalse ? it->notes[0] : NULL)) != WN_OK))
		wn_error_set(err, st, "out of memory");
	wn_mail_free(&rep);
	free(arg);
	return st;
}

const char *wn_forward_syz_told_body(const wn_item *it, const char *body)
{
	static const char *const words[] = { "invalid", "dup", "fix", "undup" };
	size_t n;

	if (!wn_forward_is_syz(it) || !body || strncmp(body, "#syz ", 5))
		return NULL;
	n = strspn(body + 5, "abcdefghijklmnopqrstuvwxyz");
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && !strncmp(body + 5, words[i], n))
			return words[i];
	return NULL;
}

const char *wn_forward_syz_told(const wn_forward *f)
{
	if (f->kind != WN_FWD_VERDICTS || f->nparts != 1)
		return NULL;
	return wn_forward_syz_told_body(f->parts[0].it, f->body);
}

bool wn_forward_is_syz(const wn_item *it)
{
	return it && it->loaded && wn_review_tracks_state(it->bot, it->review);
}

wn_status wn_forward_syz_fix(wn_index *idx, const wn_item *it, char **hash, wn_error *err)
{
	const wn_conf *c = wn_index_conf(idx);
	wn_mail *rep = NULL;
	const char *h;
	char *extid = NULL;
	size_t n = 0;
	wn_status st;

	*hash = NULL;
	if (!c->tree || !*c->tree)
		return wn_error_set(err, WN_CONFIG,
				    "winnow.tree is not set: no commit to look for (--title TEXT "
				    "gives the fixing commit's title)");
	if ((st = wn_fwd_read_mail(idx, it->id, &rep, err)) != WN_OK)
		return st;
	if (!(h = syz_hash(rep->from_addr, &n)))
		st = wn_error_set(err, WN_NOT_FOUND, "the report is not From its bot's address with the report's id");
	else if (!(extid = strndup(h, n)))
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	else
		st = wn_ledger_syz_fix(c->tree, extid, it->id, hash, err);
	free(extid);
	wn_mail_free(&rep);
	return st;
}

wn_status wn_forward_syz_compose(wn_index *idx, wn_item *it, wn_forward **out, wn_error *err)
{
	wn_forward *f;
	wn_status st;

	*out = NULL;
	if (!it->loaded || it->load_error)
		return wn_error_set(err, WN_NOT_FOUND, "review <%s> could not be read", it->id);
	if (!wn_forward_is_syz(it) || !it->review->nfindings || !it->verdicts)
		return wn_error_set(err, WN_USAGE, "<%s> is no bug report of a bot that reads replies", it->id);
	if ((st = wn_forward_optout_check(wn_index_conf(idx), err)) != WN_OK)
		return st;
	if (!(f = calloc(1, sizeof(*f))))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	f->kind = WN_FWD_VERDICTS;
	f->created = wn_forward_now();
	if ((st = compose(idx, f, it, err)) != WN_OK) {
		wn_forward_free(&f);
		return st;
	}
	*out = f;
	return WN_OK;
}
