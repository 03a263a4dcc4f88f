/* winnow — a review walked once through the printer.
 *
 * Each field says where it goes: a JSON key, a text label, or both
 * (printer.h has the rules).  Where the text shows a value otherwise
 * than JSON holds it (a date, a bot's label, a finding's heading line),
 * the walk hands JSON the value and the text its own words. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "winnow/text.h"

#include "format.h"

/* A string: JSON's under key, the text's after label; NULL leaves it
 * out of that output. */
static void field(wn_printer *p, const char *key, const char *label, const char *s)
{
	if (key)
		p->map_key(p, key);
	if (label)
		p->label(p, label);
	p->string(p, s);
}

/* A Message-ID on a text line of its own (see wn_printer.msgid). */
static void id_line(wn_printer *p, const char *key, const char *label, const char *id)
{
	if (key)
		p->map_key(p, key);
	p->label(p, label);
	p->msgid(p, id);
	p->separator(p);
}

/* A string on a text line of its own. */
static void line(wn_printer *p, const char *key, const char *label, const char *s)
{
	field(p, key, label, s);
	p->separator(p);
}

/* A line the text shows only when s is set; JSON has null then. */
static void line_if(wn_printer *p, const char *key, const char *label, const char *s)
{
	field(p, key, s ? label : NULL, s);
	if (s)
		p->separator(p);
}

/* Mail text: JSON's whole under key, the text's as lines, each after
 * indent. */
static void block(wn_printer *p, const char *key, const char *indent, const char *s)
{
	p->map_key(p, key);
	p->block(p, indent);
	p->string(p, s);
}

static void key_bool(wn_printer *p, const char *key, bool v)
{
	p->map_key(p, key);
	p->boolean(p, v);
}

/* A date: Unix seconds under key (if any) in JSON, local time after
 * label (if any) in the text. */
static void date(wn_printer *p, const char *key, const char *label, time_t t)
{
	char buf[32];
	struct tm tm;

	if (key)
		wn_pr_key_int(p, key, (long long) t);
	if (!label)
		return;
	if (t > 0 && localtime_r(&t, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M", &tm))
		wn_pr_text(p, "%s%s", label, buf);
	else
		wn_pr_text(p, "%s(no date)      ", label);
}

static size_t nfindings(const wn_item *it)
{
	return it->review ? it->review->nfindings : 0;
}

/* "3 findings, 1 valid, 2 untriaged": the text's summary of verdicts
 * that JSON leaves to the findings themselves. */
static void counts(wn_printer *p, const wn_item *it)
{
	size_t n = nfindings(it);

	wn_pr_text(p, "%zu finding%s", n, n == 1 ? "" : "s");
	for (unsigned v = 0; n && v < WN_VERDICT_COUNT; v++)
		if (it->counts[v])
			wn_pr_text(p, ", %u %s", it->counts[v], wn_verdict_name((wn_verdict) v));
}

/* The text says "model: agent / model", or quotes what a trailer that
 * names no model says, then the tools. */
static void attribution(wn_printer *p, const wn_attribution *a)
{
	bool model = a->status == WN_ATTR_MODEL;
	bool quoted = !model && a->status != WN_ATTR_NONE;

	p->begin_map(p);
	field(p, "status", "", wn_attr_name(a->status));
	field(p, "agent", model ? ": " : NULL, a->agent);
	field(p, "model", model ? " / " : NULL, a->model);
	field(p, "raw", quoted ? ": \"" : NULL, a->raw);
	if (quoted)
		wn_pr_text(p, "\"");
	p->map_key(p, "tools");
	if (a->ntools)
		wn_pr_text(p, " (tools:");
	p->begin_list(p);
	for (size_t i = 0; i < a->ntools; i++)
		field(p, NULL, " ", a->tools[i]);
	p->end(p);
	if (a->ntools)
		wn_pr_text(p, ")");
	p->end(p);
}

static void trailers(wn_printer *p, const wn_patch_trailers *t)
{
	p->map_key(p, "attribution");
	wn_pr_text(p, "AI:       ");
	attribution(p, &t->attr);
	p->separator(p);
	p->map_key(p, "trailers");
	p->begin_list(p);
	for (size_t i = 0; i < t->ntrailers; i++) {
		p->begin_map(p);
		field(p, "key", "          ", t->trailers[i].key);
		line(p, "value", ": ", t->trailers[i].value);
		p->end(p);
	}
	p->end(p);
	key_bool(p, "codev_unsigned", t->codev_unsigned);
	if (t->codev_unsigned) {
		wn_pr_text(p, "Warning:  a Co-developed-by is not followed by that person's Signed-off-by");
		p->separator(p);
	}
}

static void patch(wn_printer *p, const wn_item *it)
{
	const wn_patch *pt = it->patch;

	field(p, "link", NULL, wn_link_name(it->link));
	p->map_key(p, "patch");
	if (!pt) {
		p->null(p);
		wn_pr_text(p, "Patch:    not in index");
		p->separator(p);
		return;
	}
	p->begin_map(p);
	p->map_key(p, "id");
	p->label(p, "Patch:    id:");
	p->msgid(p, pt->id);
	wn_pr_text(p, " (linked by %s)", wn_link_name(it->link));
	p->separator(p);
	line(p, "subject", "          ", pt->subject);
	line(p, "author", "Author:   ", pt->author);
	/* Who sent it: the text says so where that is someone else. */
	if (pt->submitter && strcmp(pt->submitter, pt->author))
		line(p, "submitter", "Sent by:  ", pt->submitter);
	else
		field(p, "submitter", NULL, pt->submitter);
	date(p, "date", NULL, pt->date);
	trailers(p, pt->trailers);
	p->end(p);
}

/* Where the finding is: the text says it on one "at:" line. */
static void location(wn_printer *p, const wn_finding *f)
{
	bool at_file = !f->about_commit_msg && f->file;

	key_bool(p, "about_commit_message", f->about_commit_msg);
	if (f->about_commit_msg) {
		wn_pr_text(p, "    at: commit message");
		p->separator(p);
	}
	field(p, "file", at_file ? "    at: " : NULL, f->file);
	p->map_key(p, "line");
	if (f->line > 0) {
		if (at_file)
			p->label(p, f->line_approx ? ":~" : ":");
		p->integer(p, f->line);
	} else {
		p->null(p);
	}
	key_bool(p, "line_approximate", f->line_approx);
	field(p, "function", at_file && f->function ? " in " : NULL, f->function);
	if (at_file && f->function)
		wn_pr_text(p, "()");
	if (at_file)
		p->separator(p);
	field(p, "path", NULL, f->path);
	line_if(p, "detail", "    detail: ", f->detail);
	p->map_key(p, "also");
	p->begin_list(p);
	for (size_t k = 0; k < f->nalso; k++) {
		const wn_place *a = &f->also[k];

		p->begin_map(p);
		field(p, "file", "    also: ", a->file);
		p->map_key(p, "line");
		if (a->line > 0) {
			p->label(p, a->line_approx ? ":~" : ":");
			p->integer(p, a->line);
		} else {
			p->null(p);
		}
		field(p, "function", a->function ? " in " : NULL, a->function);
		if (a->function)
			wn_pr_text(p, "()");
		p->separator(p);
		p->end(p);
	}
	p->end(p);
}

/* Where the finding is discussed, each place with the code the bot
 * quoted there and its words about it, when there are several. */
static void sites(wn_printer *p, const wn_finding *f)
{
	size_t n = wn_finding_nsites(f);

	/* Only a finding of several places has the key, as only a doubtful
	 * pairing has "pairing": one place is its quote and comment. */
	if (n < 2)
		return;
	p->map_key(p, "sites");
	p->begin_list(p);
	for (size_t k = 0; k < n; k++) {
		wn_site s = wn_finding_site(f, k);
		bool text = true;

		p->begin_map(p);
		if (text)
			wn_pr_text(p, "    -- site %zu of %zu: ", k + 1, n);
		if (text && s.about_commit_msg)
			wn_pr_text(p, "commit message");
		field(p, "file", text && !s.about_commit_msg ? "" : NULL, s.file);
		p->map_key(p, "line");
		if (s.line > 0) {
			if (text && !s.about_commit_msg && s.file)
				p->label(p, s.line_approx ? ":~" : ":");
			p->integer(p, s.line);
		} else {
			p->null(p);
		}
		field(p, "function", text && s.function ? " in " : NULL, s.function);
		if (text && s.function)
			wn_pr_text(p, "()");
		if (text)
			p->separator(p);
		p->map_key(p, "code");
		if (text)
			p->block(p, "    > ");
		p->string(p, s.code);
		p->map_key(p, "comment");
		if (text)
			p->block(p, "    ");
		p->string(p, s.comment);
		p->end(p);
	}
	p->end(p);
}

/* A syzbot report's state in its own words, only on one that
 * has one: "state: duplicate of <id>"; JSON "state" and "duplicate_of"
 * or "fixed_by". */
static void crash_state(wn_printer *p, const wn_item *it, size_t i)
{
	const char *what = NULL;
	wn_crash c = wn_review_tracks_state(it->bot, it->review)
		     ? wn_crash_of(it->verdicts[i], it->closed ? it->closed[i] : NULL, &what) : WN_CRASH_NONE;

	if (c == WN_CRASH_NONE)
		return;
	if (wn_closed_title(c, what)) {
		/* A title typed: mail text's rules, though the user's. */
		wn_pr_text(p, "    state: %s \"", wn_crash_label(c));
		field(p, "state", NULL, wn_crash_word(c));
		field(p, "fixed_title", "", wn_closed_title(c, what));
		wn_pr_text(p, "\"\n");
		return;
	}
	if (p->is_text) {
		wn_pr_text(p, "    state: %s%s%s\n", wn_crash_label(c), what ? " " : "", what ? what : "");
		return;
	}
	field(p, "state", NULL, wn_crash_word(c));
	if (what)
		field(p, c == WN_CRASH_DUPLICATE ? "duplicate_of" : "fixed_by", NULL, what);
}

static void finding(wn_printer *p, const wn_item *it, size_t i)
{
	const wn_finding *f = &it->review->findings[i];
	const char *sev = wn_severity_name(f->severity);
	const char *verdict = wn_verdict_name(it->verdicts[i]);

	p->begin_map(p);
	/* The text heads a finding with one line of what JSON keeps in
	 * four keys. */
	wn_pr_text(p, "\n[%d] %-8s %-12s %s\n", f->index, sev ? sev : "-",
		   f->preexisting ? "pre-existing" : "new", verdict);
	wn_pr_key_int(p, "index", f->index);
	field(p, "severity", NULL, sev);
	key_bool(p, "preexisting", f->preexisting);
	field(p, "verdict", NULL, verdict);
	line(p, "summary", "    ", f->summary);
	/* Only a doubtful pairing has the key: the findings whose summary
	 * and comment match need no word about it. */
	if (f->pairing_unsure) {
		field(p, "pairing", "    pairing: ", "unsure");
		wn_pr_text(p, " (the summary's words do not tell which comment is its own)");
		p->separator(p);
	}
	location(p, f);
	line(p, "fingerprint", "    fingerprint: ", f->fingerprint);
	line_if(p, "note", "    note: ", it->notes[i]);
	/* Only when given, so a review without reasons reads
	 * as it always did. */
	if (it->reasons && wn_reason_name(it->reasons[i]))
		line_if(p, "reason", "    reason: ", wn_reason_name(it->reasons[i]));
	crash_state(p, it, i);
	field(p, "forwarded", NULL, it->forwarded[i]);
	if (f->notes) {
		p->map_key(p, "notes");
		p->block(p, "    | ");
		p->string(p, f->notes);
	}
	/* A finding discussed at several places: the text shows each
	 * place's code above its words (sites()), JSON keeps the whole
	 * too. */
	if (wn_finding_nsites(f) > 1) {
		field(p, "quote", NULL, f->quote);
		field(p, "comment", NULL, f->comment);
	} else {
		block(p, "quote", "    > ", f->quote);
		block(p, "comment", "    ", f->comment);
	}
	sites(p, f);
	p->end(p);
}

/* What the mail is; a follow-up says what it says and which report it
 * follows.  The text names the kind only when it is no review. */
static void kind(wn_printer *p, const wn_item *it)
{
	const wn_review *r = it->review;
	wn_kind k = r ? r->kind : WN_KIND_REVIEW;
	const char *what = r ? wn_followup_name(r->followup) : NULL;

	bool said = k != WN_KIND_REVIEW || what;

	field(p, "kind", said ? "Kind:     " : NULL, wn_kind_name(k));
	if (what)
		wn_pr_text(p, " (%s)", what);
	if (said)
		p->separator(p);
	p->map_key(p, "follow_up");
	if (!what) {
		p->null(p);
		return;
	}
	p->begin_map(p);
	field(p, "what", NULL, what);
	line_if(p, "says", "          ", r->followup_says);
	line_if(p, "report", "Follows:  id:", it->report_id);
	p->end(p);
}

/* The report's lines a fix's author needs to see the problem again
 * (the build's config, compiler and reproducer; the kernel syzbot
 * crashed and its links): the text only when there are some. */
static void facts(wn_printer *p, const wn_review *r)
{
	size_t n = r ? r->nfacts : 0;

	if (!n)
		return;
	p->map_key(p, "facts");
	p->begin_list(p);
	for (size_t i = 0; i < n; i++)
		line(p, NULL, i ? "          " : "Report:   ", r->facts[i]);
	p->end(p);
}

/* Who answered the review, and whether its author is new (read only
 * where wn_index_load_who() ran: show, not list). */
static void who(wn_printer *p, const wn_item *it)
{
	if (!it->who_read)
		return;
	p->map_key(p, "replies");
	p->begin_list(p);
	for (size_t i = 0; i < it->nreplies; i++) {
		const wn_reply *r = &it->replies[i];

		p->begin_map(p);
		date(p, "date", i ? "          " : "Replies:  ", r->date);
		field(p, "from", "  ", r->from);
		key_bool(p, "author", r->author);
		if (r->author)
			wn_pr_text(p, " (the patch's author)");
		wn_pr_key_int(p, "depth", r->depth);
		p->map_key(p, "id");
		p->label(p, "  id:");
		p->msgid(p, r->id);
		p->separator(p);
		p->end(p);
	}
	p->end(p);
	key_bool(p, "newcomer", it->newcomer);
	p->map_key(p, "earlier_patches");
	if (it->earlier_patches >= 0)
		p->integer(p, it->earlier_patches);
	else
		p->null(p);
	if (it->newcomer) {
		if (it->earlier_patches)
			wn_pr_text(p, "Newcomer: %d earlier patch%s of the author in the index",
				   it->earlier_patches, it->earlier_patches == 1 ? "" : "es");
		else
			wn_pr_text(p, "Newcomer: no earlier patch of the author in the index");
		p->separator(p);
	}
}

/* Has the patch's author the review?  Read by show alone:
 * it takes the review's and the patch's mail, two files a review, which
 * list's JSON does not pay for (the key is not there). */
static void reached(wn_printer *p, const wn_reached *r)
{
	char when[32] = "(no date)";
	struct tm tm;

	p->map_key(p, "reached_author");
	if (!r) {
		p->null(p);
		return;
	}
	p->boolean(p, r->how != WN_REACH_NO);
	if (r->how == WN_REACH_NO) {
		wn_pr_text(p, "Reached the author: no: sent to the maintainers only");
	} else if (r->how == WN_REACH_BOT) {
		wn_pr_text(p, "Reached the author: yes, sent by the bot");
	} else {
		if (r->date > 0 && localtime_r(&r->date, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
		wn_pr_text(p, "Reached the author: yes, sent to the author by %s on %s", r->by ? r->by : "?",
			   when);
	}
	p->separator(p);
}

/* netdev's patchwork commands in the thread: "pw-bot:   cr  (who, when)". */
static void pwbot(wn_printer *p, const wn_pwbot *pw, size_t npw)
{
	if (!npw)
		return;
	p->map_key(p, "pw_bot");
	p->begin_list(p);
	for (size_t i = 0; i < npw; i++) {
		p->begin_map(p);
		field(p, "state", "pw-bot:   ", pw[i].state);
		field(p, "from", "  (", pw[i].from);
		date(p, "date", ", ", pw[i].date);
		wn_pr_text(p, ")");
		p->separator(p);
		field(p, "id", NULL, pw[i].id);
		p->end(p);
	}
	p->end(p);
}

/* Bugs the bot missed, recorded by 'winnow missed' ("<time> <note>");
 * only when there are some. */
static void missed(wn_printer *p, const wn_item *it)
{
	if (!it->nmisses)
		return;
	wn_pr_text(p, "\nMissed by the bot:\n");
	p->map_key(p, "missed");
	p->begin_list(p);
	for (size_t i = 0; i < it->nmisses; i++) {
		const char *sp = strchr(it->misses[i], ' ');
		char *when = sp ? wn_strndup(it->misses[i], (size_t) (sp - it->misses[i])) : NULL;

		p->begin_map(p);
		field(p, "date", "    ", when);
		field(p, "note", "  ", sp ? sp + 1 : it->misses[i]);
		p->separator(p);
		p->end(p);
		free(when);
	}
	p->end(p);
}

static void review(wn_printer *p, const wn_item *it, const wn_pwbot *pw, size_t npw, bool show,
		   const wn_reached *reach);

/* One loaded review in full: each element of `winnow list
 * --format=json` (wn_print_review_pw: with what show adds). */
static void wn_print_review(wn_printer *p, const wn_item *it)
{
	review(p, it, NULL, 0, false, NULL);
}

void wn_print_review_pw(wn_printer *p, const wn_item *it, const wn_pwbot *pw, size_t npw,
			const wn_reached *reach)
{
	review(p, it, pw, npw, true, reach);
}

static void review(wn_printer *p, const wn_item *it, const wn_pwbot *pw, size_t npw, bool show,
		   const wn_reached *reach)
{
	const wn_review *r = it->review;
	size_t n = nfindings(it);

	p->begin_map(p);
	id_line(p, "id", "Review:   id:", it->id);
	field(p, "bot", NULL, wn_bot_name(it->bot));
	line(p, NULL, "Bot:      ", wn_bot_label(it->bot));
	line(p, "from", "From:     ", it->from);
	date(p, "date", "Date:     ", it->date);
	p->separator(p);
	line(p, "subject", "Subject:  ", it->subject);
	kind(p, it);
	line_if(p, "note", "Note:     ", r ? r->note : NULL);
	line_if(p, "warning", "Warning:  ", it->warning);
	/* Only a copy has the key: the review it repeats word for word,
	 * whose verdicts are its own. */
	if (it->copy_of)
		id_line(p, "copy_of", "Copy of:  id:", it->copy_of);
	/* JSON has one "explain": why the mail could not be read, else
	 * why it gave no findings; the text says each on its own line. */
	line_if(p, NULL, "Error:    ", it->load_error);
	field(p, "explain", NULL, it->load_error ? it->load_error : r ? r->explain : NULL);
	patch(p, it);
	facts(p, r);
	who(p, it);
	if (show)
		reached(p, reach);
	pwbot(p, pw, npw);
	wn_pr_text(p, "Findings: ");
	counts(p, it);
	p->separator(p);
	if (!n && r && r->explain)
		line(p, NULL, "          ", r->explain);
	p->map_key(p, "findings");
	p->begin_list(p);
	for (size_t i = 0; i < n; i++)
		finding(p, it, i);
	p->end(p);
	missed(p, it);
	p->end(p);
}

/* A listing's line, notmuch search's way: the id first (what a script
 * cuts), the date, the findings untriaged of all, the bot, the
 * attribution badge, the patch's author and subject (the review's when
 * the patch is not in the index). */
static void row(wn_printer *p, const wn_item *it)
{
	const wn_patch *pt = it->patch;
	const char *from = pt ? pt->author : it->from, *lt = from ? strchr(from, '<') : NULL;
	char *name = lt && lt > from ? wn_strndup(from, (size_t) (lt - from)) : NULL;

	p->begin_map(p);
	p->label(p, "id:");
	p->msgid(p, it->id);
	date(p, NULL, "  ", it->date);
	wn_pr_text(p, "  [%u/%zu] %-9s [%s] ", it->counts[WN_VERDICT_UNTRIAGED], nfindings(it),
		   wn_bot_name(it->bot), pt ? wn_attr_badge(pt->trailers->attr.status) : " ");
	field(p, NULL, "", name ? wn_text_trim(name) : from);
	field(p, NULL, "; ", pt ? pt->subject : it->subject);
	if (it->copy_of)
		wn_pr_text(p, " (copy)");
	p->separator(p);
	p->end(p);
	free(name);
}

void wn_print_list_item(wn_printer *p, const wn_item *it)
{
	/* As notmuch's search does: people read a listing as one line a
	 * review, scripts want every review whole. */
	if (p->is_text)
		row(p, it);
	else
		wn_print_review(p, it);
}
