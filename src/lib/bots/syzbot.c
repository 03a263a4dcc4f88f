/* winnow — syzbot: bug reports, the follow-ups in their threads, the
 * monthly reports, and syzbot ci's series reports.
 *
 * A report is one finding, titled by its subject as syzbot titles the
 * bug (the crash line rebuilt into such a title when the subject is not
 * known) and placed where it crashed (syzbot-crash.c).  Replies in the
 * thread are follow-ups (syzbot-followup.c).  syzbot ci replies to a
 * series with sections separated by "***": the intro, one section per
 * finding (title line, tree/arch/config block, crash text) and a closing
 * note. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "syzbot.h"
#include "winnow/subject.h"

const char *wn_bot_report_extid(const char *addr, size_t *n)
{
	const char *at = addr ? strchr(addr, '@') : NULL;

	if (!at || strncasecmp(addr, "syzbot+", 7) != 0 || at == addr + 7)
		return NULL;
	*n = (size_t) (at - addr - 7);
	return strspn(addr + 7, "0123456789abcdefABCDEF") == *n ? addr + 7 : NULL;
}

/* syzbot ci's subjects start with it: its series reports, their copies,
 * and its replies to a patch ("[syzbot ci] Re: [PATCH ...]"). */
static const char *const subject_tags[] = { "[syzbot ci]", NULL };

/* A patch's subject: "[PATCH ...]", "[RFC PATCH ...]", not a reply
 * (wn_subject_is_patch).  syzbot never sends one (syzbot ci's replies
 * start "[syzbot ci] Re:"). */
static bool patch_subject(const char *s)
{
	return wn_subject_is_patch(s);
}

/* syzbot@ or syzbot+<hash>@syzkaller.appspotmail.com, or a "[syzbot ci]"
 * subject (syzbot ci's series reports, and copies of them).  A person's
 * patch whose From: line also names syzbot ("Alice <a@example.org>,
 * Reported-by: syzbot+...@syzkaller.appspotmail.com") is matched by the
 * query "from:syzbot": claimed here, so that it gets a kind the queue
 * leaves out rather than being read as an unknown bot's review. */
static enum rv_claim sent_by(const struct rv_mail *m)
{
	bool addr = m->domain && strcasecmp(m->domain, "syzkaller.appspotmail.com") == 0 &&
		    ((m->local_n == 6 && strncasecmp(m->local, "syzbot", 6) == 0) ||
		     (m->local_n > 7 && strncasecmp(m->local, "syzbot+", 7) == 0));
	const char *from = m->m->from;

	if (addr || strncasecmp(m->subject, subject_tags[0], strlen(subject_tags[0])) == 0)
		return RV_MINE;
	if (patch_subject(m->subject) && from &&
	    wn_str_find_ci(from, strlen(from), "syzkaller.appspotmail.com"))
		return RV_MINE;
	return RV_NOT_MINE;
}

/* syzbot ci: a section is a finding when a "tree:"/"arch:" block
 * follows its title line. */
static void ci_sections(struct rv_ctx *c, const struct rv_lines *L)
{
	size_t i, start = 0;

	for (i = 0; i <= L->n && !c->oom; i++) {
		const char *t, *tl = NULL;
		size_t tn, tln = 0, j, crash = SIZE_MAX, tline = 0;
		bool block = false;

		if (i < L->n) {
			t = L->v[i].s;
			tn = L->v[i].n;
			wn_str_trim(&t, &tn);
			if (!wn_str_eq(t, tn, "***"))
				continue;
		}
		for (j = start; j < i; j++) {
			const char *s = L->v[j].s;
			size_t n = L->v[j].n;

			wn_str_trim(&s, &n);
			if (!tl) {
				if (n) {
					tl = s;
					tln = n;
					tline = j;
				}
				continue;
			}
			if (j <= tline + 4 &&
			    (wn_str_prefix(s, n, "tree:") || wn_str_prefix(s, n, "arch:") ||
			     wn_str_prefix(s, n, "base:")))
				block = true;
			if (block && crash == SIZE_MAX && n && wn_rv_syz_crash_head(s, n))
				crash = j;
		}
		if (block) {
			const char *in = tl ? wn_str_find(tl, tln, " in ") : NULL;
			size_t before = c->r->nfindings, text = tline + 1;

			/* No crash line (a build error): quote the text under
			 * the tree/arch block instead. */
			while (text < i && wn_str_blank(L->v[text].s, L->v[text].n))
				text++;
			while (text < i && !wn_str_blank(L->v[text].s, L->v[text].n))
				text++;
			while (text < i && wn_str_blank(L->v[text].s, L->v[text].n))
				text++;
			if (crash == SIZE_MAX && text < i)
				crash = text;
			wn_rv_syz_crash_finding(c, L, crash != SIZE_MAX ? crash : tline, i, tl,
						tln);
			/* Moved off a generic first frame (pinned), it has
			 * that frame's function: the title names the
			 * generic one. */
			if (c->r->nfindings > before && in && !c->oom && !c->fp[before].pinned) {
				/* "WARNING in reg_bounds_sanity_check": syzbot's
				 * own name for the function */
				wn_finding *f = &c->r->findings[c->r->nfindings - 1];
				const char *e = in + 4;
				size_t fl = 0;

				while (e + fl < tl + tln && str_ident_char((unsigned char) e[fl]))
					fl++;
				if (fl && e + fl == tl + tln) {
					free(f->function);
					f->function = wn_rv_dup(c, e, fl);
				}
			}
			if (crash == SIZE_MAX && c->r->nfindings > before) {
				wn_finding *f = &c->r->findings[c->r->nfindings - 1];

				free(f->quote);
				f->quote = NULL;
			}
		}
		start = i + 1;
	}
}

/* Fallback: the intro's "and found the following issue(s):" list. */
static void ci_intro(struct rv_ctx *c, const struct rv_lines *L)
{
	size_t i;

	for (i = 0; i < L->n; i++)
		if (wn_str_find_ci(L->v[i].s, L->v[i].n, "found the following issue"))
			break;
	for (i++; i < L->n && !c->oom; i++) {
		const char *s = L->v[i].s;
		size_t n = L->v[i].n;
		wn_finding *f;

		wn_str_trim(&s, &n);
		if (!n)
			break;
		f = wn_rv_add(c, true);
		if (f)
			f->summary = wn_rv_oneline(c, s, n, RV_SUMMARY_MAX);
	}
}

/* ---- what kind of mail ----
 *
 * A report starts a thread ("[syzbot] [subsys?] TITLE"; before 2021 the
 * bare title).  syzbot's replies in it ("Re: ...") are follow-ups, and
 * "[syzbot] Monthly <subsys> report" is a summary.  A patch test that
 * still triggers the bug is a finding on the tested patch: a review;
 * an answer to a malformed "#syz test" that quotes such a result is a
 * follow-up.  A person's patch claimed by its From: line is a fix-up,
 * as lkp's own patches are. 
 * SYZ_HIDDEN selects the mails given a kind the queue leaves out, by the
 * same rules: the subject's start, and the phrases of wn_rv_syz_still_triggers(). */
#define SYZ_HIDDEN "from:syzbot and (subject:\"/^\\[syzbot\\] Monthly /\" or " \
		   "subject:\"/^\\[(RFC )?PATCH/\" or " \
		   "(subject:\"/^[Rr][Ee]:/\" and (body:\"does not look like a valid git repo " \
		   "address\" or (not body:\"still triggering\" and not body:\"still triggered\"))))"

static bool reply_subject(const char *s)
{
	return (s[0] == 'R' || s[0] == 'r') && (s[1] == 'E' || s[1] == 'e') && s[2] == ':';
}

static bool monthly_subject(const char *s)
{
	return strncmp(s, "[syzbot] Monthly ", 17) == 0;
}

/* The kind, from the subject when the caller gave it, else from the
 * body's opening sentence. */
static wn_kind kind_of(struct rv_ctx *c, const struct rv_lines *L, bool ci)
{
	const char *subject = c->in->subject;
	wn_followup what;
	size_t at;

	if (ci)
		return WN_KIND_REVIEW;
	if (subject) {
		if (patch_subject(subject))
			return WN_KIND_FIXUP;
		if (monthly_subject(subject))
			return WN_KIND_SUMMARY;
		if (!reply_subject(subject))
			return WN_KIND_REPORT;
	} else if (!wn_rv_syz_followup_line(L, &what, &at)) {
		return WN_KIND_REPORT;
	}
	return wn_rv_syz_still_triggers(L) && !wn_rv_syz_command_error(L) ? WN_KIND_REVIEW :
									    WN_KIND_FOLLOWUP;
}

/* Where the report starts: after the "Reported-by: syzbot+...@" tag
 * that ends syzbot's header block (and a KASAN report's "=====" line);
 * without one, at the first crash line.  SIZE_MAX: neither. */
static size_t report_start(const struct rv_lines *L)
{
	size_t i, k;

	for (i = 0; i < L->n && i < 60; i++)
		if (wn_str_prefix_ci(L->v[i].s, L->v[i].n, "Reported-by:") &&
		    wn_str_find_ci(L->v[i].s, L->v[i].n, "syz"))
			break;
	if (i < L->n && i < 60) {
		for (k = i + 1; k < L->n; k++) {
			const char *s = L->v[k].s;
			size_t n = L->v[k].n;

			wn_str_trim(&s, &n);
			if (n && !wn_rv_syz_rule_line(s, n))
				return wn_rv_syz_report_end(s, n) ? SIZE_MAX : k;
		}
		return SIZE_MAX;
	}
	for (i = 0; i < L->n; i++)
		if (wn_rv_syz_crash_head(L->v[i].s, L->v[i].n))
			return i;
	return SIZE_MAX;
}

/* The subject's title: "[syzbot] [fs?] [mm?] TITLE" -> TITLE (the
 * subject parser's title, as written). */
static bool subject_title(struct rv_ctx *c, const char *subject, const char **t, size_t *tn)
{
	wn_subject sj;

	if (!subject)
		return false;
	if (wn_subject_parse(subject, &sj) != WN_OK) {
		c->oom = true;
		return false;
	}
	*t = subject + sj.title_at;
	*tn = strlen(*t);
	wn_subject_clear(&sj);
	wn_str_trim(t, tn);
	return *tn > 0;
}

/* One finding, whatever the report's shape (a KASAN report, a warning,
 * an RCU stall, a hung task, a build error): titled by the subject as
 * syzbot titles its bugs, else by the crash line; placed at the crash
 * line, else the first frame or diagnostic naming a source file. */
static void report(struct rv_ctx *c, const struct rv_lines *L)
{
	size_t start = report_start(L), k;
	const char *t = NULL;
	size_t tn = 0;
	bool titled = subject_title(c, c->in->subject, &t, &tn);

	if (start == SIZE_MAX) {
		if (titled && wn_rv_add(c, false))
			c->r->findings[c->r->nfindings - 1].summary =
				wn_rv_oneline(c, t, tn, RV_SUMMARY_MAX);
		else
			wn_rv_explain(c, "syzbot mail without a crash report");
		return;
	}
	for (k = start; k < L->n && !wn_rv_syz_report_end(L->v[k].s, L->v[k].n); k++)
		if (wn_rv_syz_crash_head(L->v[k].s, L->v[k].n))
			break;
	if (k >= L->n || wn_rv_syz_report_end(L->v[k].s, L->v[k].n))
		k = start;
	wn_rv_syz_crash_finding(c, L, k, L->n, titled ? t : NULL, tn);
	if (k != start && c->r->nfindings) {
		/* the quote holds the whole report, from its first line */
		wn_finding *f = &c->r->findings[c->r->nfindings - 1];

		free(f->quote);
		f->quote = wn_rv_syz_crash_quote(c, L, start, L->n);
	}
}

/* The header lines of a report a fix's author needs. */
static const char *const report_facts[] = {
	"HEAD commit:", "git tree:", "dashboard link:", "syz repro:", "C reproducer:", NULL,
};

static void read_mail(struct rv_ctx *c, const struct rv_lines *L)
{
	size_t i;
	bool ci = false;

	for (i = 0; i < L->n && i < 20; i++)
		if (wn_str_find_ci(L->v[i].s, L->v[i].n, "syzbot ci has tested"))
			ci = true;
	c->r->kind = kind_of(c, L, ci);
	/* "Reported-by: syzbot+HASH@...", syzbot ci's "Tested-by:" */
	wn_rv_asked_tags(c, L, 0, L->n);
	switch (c->r->kind) {
	case WN_KIND_SUMMARY:
		wn_rv_explain(c, "a syzbot monthly report, a summary, not a review");
		return;
	case WN_KIND_FIXUP:
		wn_rv_explain(c, "a patch whose From: line names syzbot, not a review");
		return;
	case WN_KIND_FOLLOWUP:
		wn_rv_syz_followup(c, L);
		return;
	case WN_KIND_REPORT:
		/* the kernel it crashed on, the dashboard, the reproducers */
		wn_rv_report_facts(c, L, 0, 40, report_facts);
		report(c, L);
		return;
	default:
		break;
	}
	if (!ci) {
		wn_rv_syz_still_triggered(c, L);
		return;
	}
	ci_sections(c, L);
	if (!c->r->nfindings)
		ci_intro(c, L);
	if (!c->r->nfindings)
		wn_rv_explain(c, "syzbot ci report without findings");
}

/* A finding is placed where its crash is, then where the patch is. */
static void parse(struct rv_ctx *c, const struct rv_lines *L)
{
	read_mail(c, L);
	wn_rv_syz_patch_place(c);
}

const struct rv_bot wn_rv_bot_SYZBOT = {
	.sender = "syzbot and syzbot ci",
	.sent_by = sent_by,
	.parse = parse,
	.query = "from:syzbot",
	.hidden = SYZ_HIDDEN,
	.link_marker = "dashboard link:",
	.subject_tags = subject_tags,
	.title_names_bug = true,
	.reads_replies = true,
};
