/* winnow TUI — one review: the patch and its attribution on top, the
 * findings in the middle (the list the cursor moves in), the selected
 * finding's location, quoted code and comment in a pane below. */
#include "autoconfig.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "winnow/forward.h"
#include "winnow/text.h"
#include "review-crash.h"
#include "review-memory.h"
#include "review-tree.h"
#include "view.h"

struct dline {
	enum role role;
	unsigned extra;		/* TA_* on top of the role */
	bool code;		/* quoted code: not wrapped, scrolls sideways */
	char *text;		/* sanitised and tab-expanded */
};

/* Findings beside their text from this many columns on (else above). */
#define SIDE_BY_SIDE_COLS 160
/* The compact header's lines: subject, patch, review, AI, a trailer. */
#define HEADER_LINES 5
#define HSCROLL_STEP 8
/* Sites d steps through (the parser keeps no more). */
#define RV_SITE_LINES 64

struct review {
	wn_item *it;
	int header_y, header_h, bar_y, detail_y, detail_h;
	int detail_x, detail_w;	/* the text pane's columns */
	bool details;		/* h: every trailer in the header */
	int hscroll;		/* columns of quoted code scrolled away */
	int code_w;		/* widest code line of the finding */
	struct about about;	/* what d, m and r open */
	bool *sel;		/* the selected findings (t, *) */
	size_t nsel;
	bool applying;		/* ; was pressed: the next verdict key applies */
	struct dline *detail;
	size_t ndetail;
	size_t scroll;		/* first detail line shown */
	char *model;		/* "agent / model" of the attribution */
	char *tools;		/* its tools, space-separated */
	size_t site;		/* d: the site of the finding shown first */
	size_t site_line[RV_SITE_LINES];	/* where each site starts in detail */
	size_t nsite_lines;
	struct review_memory *mem;	/* seen before, series hints */
	wn_pwbot *pw;		/* netdev's pw-bot: lines in the thread */
	size_t npw;
	char *reach;		/* has the patch's author the review (a header
				 * line); NULL: unknown, no line */
	char *state;		/* a bug report's state (review-crash.c); NULL */
};

/* A line built in b, or what happened to it: never half of it. */
static const char *shown(const wn_buf *b)
{
	return wn_buf_failed(b) ? "(out of memory)" : wn_buf_str(b);
}

static const struct hint review_hints[] = {
	{ ACT_BACK, "back" }, { ACT_MARK_VALID, "valid" }, { ACT_MARK_FALSE, "false-pos" },
	{ ACT_MARK_PRE, "pre-existing" }, { ACT_MARK_UNTRIAGED, "untriaged" },
	{ ACT_FORWARD, "forward" }, { ACT_NOTE, "note" }, { ACT_DIFF, "diff" },
	{ ACT_MAIL, "mail" }, { ACT_THREAD, "replies" }, { ACT_PAGE_DOWN, "scroll" },
	{ ACT_UNDO, "undo" }, { ACT_HELP, "help" }, { ACT_NONE, NULL },
};

static size_t nfindings(const struct review *rv)
{
	return rv->it->review ? rv->it->review->nfindings : 0;
}

/* --- the detail pane ------------------------------------------------- */

static void detail_free(struct review *rv)
{
	for (size_t i = 0; i < rv->ndetail; i++)
		free(rv->detail[i].text);
	free(rv->detail);
	rv->detail = NULL;
	rv->ndetail = 0;
}

/* Append text to the pane, wrapped to width (or clipped when !wrap).
 * Quoted code gets diff colours and a "> " in front, as in a mail. */
static void add_lines_x(struct review *rv, enum role role, unsigned extra, const char *text,
			bool wrap, int width)
{
	char **lines = NULL;
	size_t n = 0;
	struct dline *grown;

	if (!text_wrap(text, width, wrap, &lines, &n))
		goto out;
	/* Trailing blank lines of a comment only push the next one down. */
	while (n && !lines[n - 1][strspn(lines[n - 1], " ")])
		free(lines[--n]);
	grown = realloc(rv->detail, (rv->ndetail + n) * sizeof(*grown));
	if (!grown)
		goto out;
	rv->detail = grown;
	for (size_t i = 0; i < n; i++) {
		struct dline *d = &rv->detail[rv->ndetail];

		d->role = role;
		d->extra = extra;
		d->code = role == ROLE_QUOTE;
		if (role == ROLE_QUOTE) {
			/* Drawn after a "> ", scrolled by < and >. */
			if (!strncmp(lines[i], "@@", 2))
				d->role = ROLE_DIFF_HUNK;
			else if (lines[i][0] == '+')
				d->role = ROLE_DIFF_ADD;
			else if (lines[i][0] == '-')
				d->role = ROLE_DIFF_DEL;
			if (text_width(lines[i]) + 2 > rv->code_w)
				rv->code_w = text_width(lines[i]) + 2;
		} else if (role == ROLE_COMMENT && lines[i][0] == '>') {
			d->role = ROLE_QUOTE;
		}
		d->text = lines[i];
		lines[i] = NULL;
		rv->ndetail++;
	}
out:
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

static void add_lines(struct review *rv, enum role role, const char *text, bool wrap, int width)
{
	add_lines_x(rv, role, 0, text, wrap, width);
}

static void add_blank(struct review *rv)
{
	struct dline *grown;
	char *empty;

	if (!rv->ndetail || !rv->detail[rv->ndetail - 1].text[0])
		return;
	grown = realloc(rv->detail, (rv->ndetail + 1) * sizeof(*grown));
	if (!grown)
		return;
	rv->detail = grown;
	if (!(empty = strdup("")))
		return;
	rv->detail[rv->ndetail].role = ROLE_DEFAULT;
	rv->detail[rv->ndetail].extra = 0;
	rv->detail[rv->ndetail].code = false;
	rv->detail[rv->ndetail++].text = empty;
}

/* A finding the bot discusses at several places: each place, its code
 * and the bot's words there; the one d went to in bold. */
static void sites_build(struct review *rv, const wn_finding *f, int width)
{
	size_t n = wn_finding_nsites(f);
	wn_buf b = WN_BUF_INIT;

	for (size_t k = 0; k < n; k++) {
		wn_site s = wn_finding_site(f, k);

		add_blank(rv);
		if (rv->nsite_lines < RV_SITE_LINES)
			rv->site_line[rv->nsite_lines++] = rv->ndetail;
		wn_buf_reset(&b);
		wn_buf_printf(&b, "Site %zu of %zu: ", k + 1, n);
		if (s.about_commit_msg)
			wn_buf_puts(&b, "commit message");
		else if (s.file && s.line)
			wn_buf_printf(&b, "%s:%d%s", s.file, s.line, s.line_approx ? "~" : "");
		else
			wn_buf_puts(&b, s.file ? s.file : "location unknown");
		if (s.function)
			wn_buf_printf(&b, "  in %s()", s.function);
		add_lines_x(rv, ROLE_LOCATION, k == rv->site ? TA_BOLD : 0, shown(&b), true, width);
		if (s.code && *s.code)
			add_lines(rv, ROLE_QUOTE, s.code, false, width);
		if (s.comment && *s.comment)
			add_lines(rv, ROLE_COMMENT, s.comment, true, width);
	}
	wn_buf_free(&b);
}

static void detail_build(struct review *rv, size_t cursor, int width)
{
	const wn_item *it = rv->it;
	const wn_finding *f;
	wn_buf b = WN_BUF_INIT;

	detail_free(rv);
	rv->code_w = 0;
	if (it->load_error) {
		add_lines(rv, ROLE_ERROR, it->load_error, true, width);
		return;
	}
	if (it->warning)
		add_lines(rv, ROLE_WARNING, it->warning, true, width);
	if (it->copy_of)
		add_lines(rv, ROLE_HEADER,
			  "A copy of an earlier review in this thread: a verdict here is one there.",
			  true, width);
	if (!nfindings(rv)) {
		add_lines(rv, ROLE_COMMENT,
			  it->review && it->review->explain ? it->review->explain
							    : "The bot reported no findings.",
			  true, width);
		return;
	}
	f = &it->review->findings[cursor < nfindings(rv) ? cursor : 0];
	if (f->about_commit_msg)
		wn_buf_puts(&b, "commit message");
	else if (f->file && f->line)
		wn_buf_printf(&b, "%s:%d%s", f->file, f->line, f->line_approx ? "~" : "");
	else if (f->file)
		wn_buf_puts(&b, f->file);
	else
		wn_buf_puts(&b, "location unknown");
	if (f->function)
		wn_buf_printf(&b, "  in %s()", f->function);
	add_lines(rv, ROLE_LOCATION, shown(&b), true, width);
	if (f->preexisting)
		add_lines(rv, ROLE_PRECLAIM, "The bot says this issue predates the patch (pre-existing).",
			  true, width);
	if (f->pairing_unsure)
		add_lines(rv, ROLE_WARNING,
			  "Pairing unsure: this comment may belong to another of the mail's summaries.",
			  true, width);
	if (it->notes && it->notes[cursor]) {
		wn_buf_reset(&b);
		wn_buf_printf(&b, "Note: %s", it->notes[cursor]);
		add_lines(rv, ROLE_HEADER, shown(&b), true, width);
	}
	if (rv->state) {
		wn_buf_reset(&b);
		wn_buf_printf(&b, "State: %s", rv->state);
		add_lines(rv, ROLE_HEADER, shown(&b), true, width);
	}
	if (it->forwarded && it->forwarded[cursor]) {
		wn_buf_reset(&b);
		wn_buf_printf(&b, "Forwarded: %s", it->forwarded[cursor]);
		add_lines(rv, ROLE_HEADER, shown(&b), true, width);
	}
	if (it->reasons && wn_reason_name(it->reasons[cursor])) {
		wn_buf_reset(&b);
		wn_buf_printf(&b, "Why: %s (%s)", wn_reason_name(it->reasons[cursor]),
			      wn_reason_label(it->reasons[cursor]));
		add_lines(rv, ROLE_HEADER, shown(&b), true, width);
	}
	for (size_t k = 0; k < it->nmisses; k++) {
		/* "<rfc3339 time> <note>": the day is enough here. */
		const char *m = it->misses[k], *sp = strchr(m, ' ');

		wn_buf_reset(&b);
		if (sp && sp - m > 10)
			wn_buf_printf(&b, "Missed by the bot (%.10s): %s", m, sp + 1);
		else
			wn_buf_printf(&b, "Missed by the bot: %s", m);
		add_lines(rv, ROLE_HEADER, shown(&b), true, width);
	}
	for (const struct memo_line *m = review_memory_lines(rv->mem, cursor); m && m->text; m++)
		add_lines(rv, m->role, m->text, true, width);
	add_blank(rv);
	add_lines_x(rv, ROLE_SUBJECT, TA_BOLD, f->summary, true, width);
	rv->nsite_lines = 0;
	if (wn_finding_nsites(f) > 1) {
		sites_build(rv, f, width);
	} else {
		if (f->quote && *f->quote) {
			add_blank(rv);
			add_lines(rv, ROLE_QUOTE, f->quote, false, width);
		}
		if (f->comment && *f->comment) {
			add_blank(rv);
			add_lines(rv, ROLE_COMMENT, f->comment, true, width);
		}
	}
	wn_buf_free(&b);
}

static size_t max_scroll(const struct review *rv)
{
	size_t h = rv->detail_h > 0 ? (size_t) rv->detail_h : 1;

	return rv->ndetail > h ? rv->ndetail - h : 0;
}

/* --- the header block ------------------------------------------------- */

static void attribution_row(const struct review *rv, const wn_attribution *a, struct row *r)
{
	row_add(r, ROLE_HEADER, CELL_NATURAL, "AI:");
	switch (a->status) {
	case WN_ATTR_MODEL:
		row_add(r, ROLE_A_MODEL, CELL_NATURAL, "model")->pad = 2;
		row_add(r, ROLE_A_MODEL, CELL_NATURAL, rv->model)->pad = 2;
		break;
	case WN_ATTR_GENERIC:
		row_add(r, ROLE_A_GENERIC, CELL_NATURAL, "generic LLM")->pad = 2;
		break;
	case WN_ATTR_OTHER:
		row_add(r, ROLE_A_OTHER, CELL_NATURAL, "other")->pad = 2;
		row_add(r, ROLE_DEFAULT, CELL_NATURAL, "\"")->pad = 0;
		row_add(r, ROLE_A_OTHER, CELL_NATURAL, a->raw ? a->raw : "")->pad = 0;
		row_add(r, ROLE_DEFAULT, CELL_NATURAL, "\"")->pad = 2;
		break;
	default:
		row_add(r, ROLE_A_NONE, CELL_NATURAL, "none disclosed");
		return;
	}
	if (a->ntools) {
		row_add(r, ROLE_HEADER, CELL_NATURAL, "tools:");
		row_add(r, ROLE_DEFAULT, CELL_FLEX, rv->tools);
	}
}

static bool is_assisted_by(const char *key)
{
	return key && !strcasecmp(key, "Assisted-by");
}

/* The trailer the compact header shows: Assisted-by, else the first. */
static size_t shown_trailer(const wn_patch_trailers *tr)
{
	for (size_t i = 0; i < tr->ntrailers; i++)
		if (is_assisted_by(tr->trailers[i].key))
			return i;
	return 0;
}

static size_t header_count(const struct review *rv)
{
	const wn_item *it = rv->it;
	const wn_patch_trailers *tr = it->patch ? it->patch->trailers : NULL;
	/* subject, patch, review, reached the author, pw-bot */
	size_t n = 3 + (rv->reach ? 1 : 0) + (rv->npw ? 1 : 0);

	if (!tr)
		return n;
	if (!rv->details)
		return n + 1 + (tr->ntrailers || tr->codev_unsigned ? 1 : 0);
	return n + 1 + tr->ntrailers + (tr->codev_unsigned ? 1 : 0);
}

static void trailer_row(const wn_patch_trailers *tr, size_t k, struct row *r)
{
	const wn_trailer *x = &tr->trailers[k];
	bool ab = is_assisted_by(x->key);
	struct cell *c;

	/* The Assisted-by value in the colour of its class (model,
	 * generic, other), as the queue's badge. */
	c = row_add(r, ab ? role_of_attr(tr->attr.status) : ROLE_TRAILER_KEY, CELL_NATURAL, NULL);
	snprintf(c->own, sizeof(c->own), "  %.40s:", x->key);
	c->text = c->own;
	row_add(r, ab ? role_of_attr(tr->attr.status) : ROLE_TRAILER_VALUE, CELL_FLEX, x->value);
}

/* "Author replied 2026-11-03" (the first time), else "Mark replied
 * 2026-11-03" (the first human to): r lists them. */
static void replied_cells(const wn_item *it, struct row *r)
{
	const wn_reply *first = wn_item_author_reply(it);
	struct cell *c;
	char date[16];

	if (!first && (!it->who_read || !it->nreplies))
		return;
	if (!first)
		first = &it->replies[0];
	format_date(first->date, date);
	if (first->author) {
		c = row_addf(r, ROLE_REPLIED_AUTHOR, CELL_NATURAL, "Author replied %s", date);
	} else {
		char name[64];

		name_of(first->from, name, sizeof(name));
		c = row_addf(r, ROLE_REPLIED, CELL_NATURAL, "%s replied %s", name, date);
	}
	c->pad = it->newcomer ? 2 : 0;
}

/* "pw-bot:  cr  Name  date": the patchwork commands of the thread, the
 * newest last, as netdev's bot takes the last one. */
static void pwbot_row(const struct review *rv, struct row *r)
{
	char date[16];

	row_add(r, ROLE_HEADER, CELL_NATURAL, "pw-bot:");
	for (size_t i = 0; i < rv->npw; i++) {
		format_date(rv->pw[i].date, date);
		row_add(r, ROLE_WARNING, CELL_NATURAL, rv->pw[i].state);
		row_add(r, ROLE_DEFAULT, CELL_NATURAL, rv->pw[i].from);
		row_addf(r, ROLE_DATE, CELL_NATURAL, "%s", date)->pad = 2;
	}
}

/* Header line k (k < header_count()). */
static void header_row(struct tui *t, const struct review *rv, size_t k, struct row *r)
{
	const wn_item *it = rv->it;
	const wn_patch *p = it->patch;
	const wn_patch_trailers *tr = p ? p->trailers : NULL;
	struct cell *c;
	char date[16];

	if (k == 0) {
		/* Who answered and a newcomer's patch beside the subject:
		 * the one line with room to spare at 80 columns. */
		c = row_add(r, ROLE_SUBJECT, CELL_FLEX, p ? p->subject : it->subject);
		c->extra = TA_BOLD;
		replied_cells(it, r);
		if (it->newcomer)
			row_add(r, ROLE_NEWCOMER, CELL_NATURAL, "newcomer")->pad = 0;
		return;
	}
	if (k == 1) {
		if (!p) {
			row_add(r, ROLE_WARNING, CELL_NATURAL, "patch not in index");
			row_add(r, ROLE_DEFAULT, CELL_FLEX,
				"(the review is shown alone; its patch was not found in notmuch)");
			return;
		}
		format_date(p->date, date);
		row_add(r, ROLE_HEADER, CELL_NATURAL, "Patch:");
		row_add(r, ROLE_AUTHOR, CELL_NATURAL, p->author)->pad = 2;
		row_addf(r, ROLE_DATE, CELL_NATURAL, "%s", date)->pad = 2;
		row_addf(r, ROLE_DEFAULT, CELL_NATURAL, "linked by %s", wn_link_name(it->link));
		return;
	}
	if (k == 2) {
		format_date(it->date, date);
		row_add(r, ROLE_HEADER, CELL_NATURAL, "Review:");
		row_add(r, ROLE_BOT, CELL_NATURAL, wn_bot_label(it->bot));
		row_add(r, ROLE_DEFAULT, CELL_NATURAL, it->from)->pad = 2;
		row_addf(r, ROLE_DATE, CELL_NATURAL, "%s", date)->pad = 2;
		if (it->review && it->review->declared >= 0 &&
		    (size_t) it->review->declared != it->review->nfindings)
			row_addf(r, ROLE_WARNING, CELL_NATURAL, "%zu findings (the bot says %d)",
				 nfindings(rv), it->review->declared);
		else
			row_addf(r, ROLE_NCOUNT, CELL_NATURAL, "%zu finding%s", nfindings(rv),
				 nfindings(rv) == 1 ? "" : "s");
		return;
	}
	if (rv->reach && k == 3) {
		row_add(r, ROLE_HEADER, CELL_NATURAL, "Reached the author:");
		row_add(r, ROLE_DEFAULT, CELL_FLEX, rv->reach);
		return;
	}
	if (rv->reach)
		k--;
	if (rv->npw && k == 3) {
		pwbot_row(rv, r);
		return;
	}
	if (rv->npw)
		k--;
	if (!tr)
		return;
	if (k == 3) {
		attribution_row(rv, &tr->attr, r);
		return;
	}
	k -= 4;
	if (!rv->details) {
		/* One line: the telling trailer, and how to see them all. */
		if (tr->ntrailers)
			trailer_row(tr, shown_trailer(tr), r);
		if (tr->codev_unsigned)
			row_add(r, ROLE_WARNING, CELL_NATURAL, "! Co-developed-by unsigned");
		if (tr->ntrailers > 1 || tr->codev_unsigned) {
			char key[16] = "h";

			keymap_key_of(&t->keys, VIEW_REVIEW, ACT_DETAILS, key, sizeof(key));
			row_addf(r, ROLE_A_NONE, CELL_NATURAL, "%s: all %zu trailers", key,
				 tr->ntrailers)->pad = 0;
		}
		return;
	}
	if (k < tr->ntrailers) {
		trailer_row(tr, k, r);
		return;
	}
	row_add(r, ROLE_WARNING, CELL_FLEX,
		"  ! a Co-developed-by is not followed by the same person's Signed-off-by");
}

/* --- view ops -------------------------------------------------------- */

/* The header's "Reached the author:" line (issue 35): the review's and
 * the patch's mail read once, as the review opens.  NULL when it cannot
 * be told (no patch, a mail that does not read). */
static char *reach_line(struct tui *t, const wn_item *it)
{
	wn_reached r = { 0 };
	wn_buf b = WN_BUF_INIT;
	char when[16];

	if (!it->loaded || it->load_error || !it->patch || wn_forward_reached(t->idx, it, &r, NULL) != WN_OK)
		return NULL;
	if (r.how == WN_REACH_NO) {
		wn_buf_puts(&b, "no: sent to the maintainers only");
	} else if (r.how == WN_REACH_BOT) {
		wn_buf_puts(&b, "yes, sent by the bot");
	} else {
		format_date(r.date, when);
		wn_buf_printf(&b, "yes, sent to the author by %s on %s", r.by ? r.by : "?", when);
	}
	wn_reached_clear(&r);
	return wn_buf_steal(&b);
}

static bool review_open(struct tui *t, struct view *v, void *arg)
{
	struct review *rv = v->priv;

	rv->it = arg;
	/* Who answered it: one thread, read as the review opens (the
	 * queue may have read it already). */
	if (rv->it->loaded && !rv->it->who_read &&
	    wn_index_load_who(t->idx, rv->it, NULL) != WN_OK)
		rv->it->who_read = true;	/* shown without: not asked again */
	if (rv->it->patch && rv->it->patch->trailers) {
		const wn_attribution *a = &rv->it->patch->trailers->attr;
		wn_buf b = WN_BUF_INIT;

		wn_buf_printf(&b, "%s / %s", a->agent ? a->agent : "?", a->model ? a->model : "?");
		rv->model = wn_buf_steal(&b);
		for (size_t i = 0; i < a->ntools; i++)
			wn_buf_printf(&b, "%s%s", i ? " " : "", a->tools[i]);
		rv->tools = wn_buf_steal(&b);
	}
	/* Not knowing them (out of memory) leaves the line out. */
	if (wn_index_pwbot(t->idx, rv->it, &rv->pw, &rv->npw, NULL) != WN_OK)
		rv->npw = 0;
	rv->reach = reach_line(t, rv->it);
	v->lines = nfindings(rv);
	/* Start on the first finding still waiting for a verdict. */
	for (size_t i = 0; i < v->lines && rv->it->verdicts; i++)
		if (rv->it->verdicts[i] == WN_VERDICT_UNTRIAGED) {
			v->cursor = i;
			break;
		}
	return true;
}

static void review_done(struct tui *t, struct view *v)
{
	struct review *rv = v->priv;

	free(rv->sel);
	detail_free(rv);
	free(rv->model);
	free(rv->tools);
	review_memory_free(&rv->mem);
	wn_pwbot_free(rv->pw, rv->npw);
	free(rv->reach);
	free(rv->state);
}

static void review_title(struct tui *t, struct view *v, struct row *r)
{
	struct review *rv = v->priv;

	row_addf(r, ROLE_TITLE, CELL_NATURAL, "winnow %s %s review %s", ui_dash(),
		 wn_bot_label(rv->it->bot), ui_dash());
	row_add(r, ROLE_TITLE, CELL_FLEX, rv->it->subject);
	row_addf(r, ROLE_TITLE, CELL_NATURAL, "%zu finding%s", nfindings(rv),
		 nfindings(rv) == 1 ? "" : "s");
}

static void review_row(struct tui *t, struct view *v, size_t i, struct row *r)
{
	struct review *rv = v->priv;
	const wn_finding *f = &rv->it->review->findings[i];
	wn_verdict vd = rv->it->verdicts ? rv->it->verdicts[i] : WN_VERDICT_UNTRIAGED;
	const char *sev = wn_severity_name(f->severity);
	struct cell *c;

	if (rv->nsel)
		row_add(r, ROLE_SERIES, 1, rv->sel[i] ? "*" : "")->pad = 0;
	row_addf(r, ROLE_NCOUNT, 3, "%d", f->index)->right = true;
	c = row_addf(r, role_of_severity(f->severity), 8, "%s", sev ? sev : "-");
	c->own[0] = (char) toupper((unsigned char) c->own[0]);
	row_add(r, ROLE_PRECLAIM, 3, f->preexisting ? "PRE" : "");
	row_add(r, role_of_verdict(vd), 14, wn_verdict_name(vd));
	/* A note waits under the finding: say so in the list. */
	row_add(r, ROLE_HEADER, 1, rv->it->notes && rv->it->notes[i] ? "n" : "");
	row_add(r, ROLE_DEFAULT, CELL_FLEX, f->summary);
}

static void review_layout(struct tui *t, struct view *v, int top, int height)
{
	struct review *rv = v->priv;
	int hdr = (int) header_count(rv), list, gap = 0, bar = 1;
	int n = v->lines ? (int) (v->lines < 1000 ? v->lines : 1000) : 1;
	bool side = COLS >= SIDE_BY_SIDE_COLS && height >= 8;

	if (height < 4) {
		/* A tiny terminal: the findings list, and the text if room. */
		hdr = 0;
		bar = 0;
		list = 1;
	} else {
		int third = height / 3 > 1 ? height / 3 : 1;

		/* The whole header (h) may take half the screen. */
		if (rv->details && hdr > height / 2)
			hdr = height / 2;
		else if (!rv->details && hdr > third)
			hdr = third;
		if (hdr > height - 3)
			hdr = height - 3;
		if (height >= 16)
			gap = 1;
		list = side ? height - hdr - gap : (height - hdr - gap - bar) / 3;
		if (list < 1)
			list = 1;
		if (list > n && !side)
			list = n;
	}
	rv->header_y = top;
	rv->header_h = hdr;
	v->list_y = top + hdr + gap;
	v->list_h = list;
	if (side) {
		/* Findings on the left, the text beside them. */
		v->list_w = COLS * 2 / 5 > 70 ? COLS * 2 / 5 : 70;
		rv->detail_x = v->list_w + 1;
		rv->detail_w = COLS - rv->detail_x;
		rv->bar_y = v->list_y;
		rv->detail_y = v->list_y + 1;
		rv->detail_h = top + height - rv->detail_y;
		return;
	}
	rv->detail_x = 0;
	rv->detail_w = COLS;
	rv->bar_y = bar ? v->list_y + list : -1;
	rv->detail_y = v->list_y + list + bar;
	rv->detail_h = top + height - rv->detail_y;
	if (rv->detail_h < 0)
		rv->detail_h = 0;
}

static void draw_bar(struct tui *t, struct view *v, size_t end)
{
	struct review *rv = v->priv;
	size_t n = nfindings(rv);
	struct row r;

	memset(&r, 0, sizeof(r));
	if (n) {
		const wn_finding *f = &rv->it->review->findings[v->cursor];
		const char *sev = wn_severity_name(f->severity);
		wn_verdict vd = rv->it->verdicts[v->cursor];

		row_addf(&r, ROLE_TITLE, CELL_NATURAL, "finding %d of %zu", f->index, n);
		if (sev)
			row_addf(&r, ROLE_TITLE, CELL_NATURAL, "%s %c%s", ui_dash(),
				 toupper((unsigned char) sev[0]), sev + 1);
		if (f->preexisting)
			row_addf(&r, ROLE_TITLE, CELL_NATURAL, "%s pre-existing (bot)", ui_dash());
		row_addf(&r, ROLE_TITLE, CELL_NATURAL, "%s %s", ui_dash(), wn_verdict_label(vd));
	} else {
		row_add(&r, ROLE_TITLE, CELL_NATURAL, "no findings");
	}
	row_add(&r, ROLE_TITLE, CELL_FLEX, "");
	if (rv->code_w > rv->detail_w - 2 || rv->hscroll)
		row_addf(&r, ROLE_TITLE, CELL_NATURAL, "< > code%s", rv->hscroll ? " (scrolled)" : "");
	if (rv->ndetail > (size_t) rv->detail_h)
		row_addf(&r, ROLE_TITLE, CELL_NATURAL, "lines %zu-%zu of %zu%s",
			 rv->scroll + 1, end, rv->ndetail,
			 end < rv->ndetail ? "  Space: more" : "");
	view_draw_bar_at(t, rv->bar_y, rv->detail_x, rv->detail_w, &r, ROLE_TITLE);
}

static void review_draw(struct tui *t, struct view *v)
{
	struct review *rv = v->priv;
	size_t full = header_count(rv), n = nfindings(rv), end;
	int x = rv->detail_x + 1, w = rv->detail_w - 2;
	struct row r;

	for (int k = 0; k < rv->header_h; k++) {
		memset(&r, 0, sizeof(r));
		if ((size_t) rv->header_h < full && k == rv->header_h - 1)
			row_addf(&r, ROLE_A_NONE, CELL_NATURAL, "  %s %zu more lines", ui_ellipsis(),
				 full - (size_t) k);
		else
			header_row(t, rv, (size_t) k, &r);
		view_draw_row(t, rv->header_y + k, &r, false);
	}
	if (!n && v->list_h > 0) {
		memset(&r, 0, sizeof(r));
		row_add(&r, ROLE_A_NONE, CELL_FLEX, rv->it->load_error ? "the mail could not be read"
							       : "no findings in this review");
		view_draw_row_at(t, v->list_y, v->list_x, v->list_w, &r, false);
	}

	free(rv->state);
	rv->state = review_crash_state(t, rv->it, v->cursor);
	detail_build(rv, v->cursor, w);
	if (rv->scroll > max_scroll(rv))
		rv->scroll = max_scroll(rv);
	end = rv->scroll + (size_t) rv->detail_h;
	if (end > rv->ndetail)
		end = rv->ndetail;
	if (rv->bar_y >= 0)
		draw_bar(t, v, end);
	for (size_t i = rv->scroll; i < end; i++) {
		const struct dline *d = &rv->detail[i];
		chtype a = theme_attr(&t->theme, d->role) | theme_ta(d->extra);
		int y = rv->detail_y + (int) (i - rv->scroll);

		if (d->code) {
			/* "> " stays; the code under it scrolls sideways. */
			draw_text_attr(y, x, 2, a, ">");
			draw_text_attr(y, x + 2, w - 2, a, text_skip_cols(d->text, rv->hscroll));
		} else {
			draw_text_attr(y, x, w, a, d->text);
		}
	}
}

static void review_select(struct tui *t, struct view *v)
{
	struct review *rv = v->priv;

	rv->scroll = 0;
	rv->hscroll = 0;
	rv->site = 0;
}

static void mark(struct tui *t, struct view *v, wn_verdict verdict)
{
	struct review *rv = v->priv;
	size_t n = nfindings(rv), open = 0;
	const wn_finding *f;

	if (!n) {
		tui_msg(t, ROLE_WARNING, "this review has no findings to mark");
		return;
	}
	f = &rv->it->review->findings[v->cursor];
	if (!tui_mark(t, rv->it, v->cursor + 1, verdict, prompt_why(t, verdict)))
		return;
	for (size_t i = 0; i < n; i++)
		if (rv->it->verdicts[i] == WN_VERDICT_UNTRIAGED)
			open++;
	if (!t->msg.len) {
		if (open || verdict == WN_VERDICT_UNTRIAGED)
			tui_msg(t, ROLE_STATUS, "marked finding %d %s", f->index, wn_verdict_name(verdict));
		else
			tui_msg(t, ROLE_STATUS, "marked finding %d %s; all %zu findings triaged (q: back to the queue)",
				f->index, wn_verdict_name(verdict), n);
	}
	/* mutt habit: after acting on an entry, move to the next one. */
	view_goto(t, v, v->cursor + 1);
}

/* t, * and T: the findings a bulk mark (;) will take. */
static void select_findings(struct tui *t, struct view *v, enum action a)
{
	struct review *rv = v->priv;
	size_t n = nfindings(rv);

	if (!n) {
		tui_msg(t, ROLE_WARNING, "this review has no findings to select");
		return;
	}
	if (!rv->sel && !(rv->sel = calloc(n, sizeof(*rv->sel))))
		return;
	if (a == ACT_SELECT) {
		rv->sel[v->cursor] = !rv->sel[v->cursor];
		view_goto(t, v, v->cursor + 1);
	} else {
		for (size_t i = 0; i < n; i++)
			rv->sel[i] = a == ACT_SELECT_ALL;
	}
	rv->nsel = 0;
	for (size_t i = 0; i < n; i++)
		rv->nsel += rv->sel[i];
	if (a != ACT_SELECT)
		tui_msg(t, ROLE_STATUS, "%zu finding%s selected%s", rv->nsel, rv->nsel == 1 ? "" : "s",
			rv->nsel ? ": ; then v, f, p or u marks them all" : "");
}

/* Mark the selected findings v, as one action. */
static void apply(struct tui *t, struct view *v, wn_verdict verdict)
{
	struct review *rv = v->priv;
	wn_mark_target *tg = calloc(rv->nsel + 1, sizeof(*tg));
	size_t n = 0;
	char what[48];

	for (size_t i = 0; tg && i < nfindings(rv); i++)
		if (rv->sel[i]) {
			tg[n].it = rv->it;
			tg[n++].finding = i + 1;
		}
	snprintf(what, sizeof(what), "%zu finding%s", n, n == 1 ? "" : "s");
	if (tg && (!n || prompt_mark(t, what, verdict)) &&
	    tui_mark_many(t, tg, n, verdict, n ? prompt_why(t, verdict) : WN_REASON_NONE, what)) {
		memset(rv->sel, 0, nfindings(rv) * sizeof(*rv->sel));
		rv->nsel = 0;
	}
	free(tg);
}

/* a: the note of the current finding, in the line editor. */
static void annotate(struct tui *t, struct view *v)
{
	struct review *rv = v->priv;
	const char *old;
	char label[48], *note;

	if (!nfindings(rv)) {
		tui_msg(t, ROLE_WARNING, "this review has no findings to annotate");
		return;
	}
	old = rv->it->notes ? rv->it->notes[v->cursor] : NULL;
	snprintf(label, sizeof(label), "Note on finding %d: ", rv->it->review->findings[v->cursor].index);
	note = prompt_line(t, label, old);
	if (!note) {
		tui_msg(t, ROLE_STATUS, "note unchanged");
		return;
	}
	wn_text_trim(note);
	if (!strcmp(note, old ? old : ""))
		tui_msg(t, ROLE_STATUS, "note unchanged");
	else if (tui_note(t, rv->it, v->cursor + 1, note) && !t->msg.len)
		tui_msg(t, ROLE_STATUS, *note ? "note saved on finding %d" : "note removed from finding %d",
			rv->it->review->findings[v->cursor].index);
	free(note);
}

/* After an undo of this review: the cursor on the finding it changed. */
static void review_focus(struct tui *t, struct view *v, const char *msgid, const char *fp)
{
	struct review *rv = v->priv;

	if (strcmp(rv->it->id, msgid) || !fp)
		return;
	for (size_t i = 0; i < nfindings(rv); i++)
		if (!strcmp(rv->it->review->findings[i].fingerprint, fp)) {
			view_goto(t, v, i);
			return;
		}
}

/* The text pane: Space and - page through it (then on to the next
 * finding, as mutt's pager), Enter a line, < and > the code sideways.
 * True when a was one of them. */
static bool scroll_request(struct tui *t, struct view *v, enum action a)
{
	struct review *rv = v->priv;
	size_t h = rv->detail_h > 1 ? (size_t) rv->detail_h - 1 : 1;

	switch (a) {
	case ACT_PAGE_DOWN:
		if (rv->scroll < max_scroll(rv))
			rv->scroll = rv->scroll + h < max_scroll(rv) ? rv->scroll + h : max_scroll(rv);
		else if (v->cursor + 1 < v->lines)
			view_goto(t, v, v->cursor + 1);
		else
			tui_msg(t, ROLE_STATUS, "end of the last finding");
		return true;
	case ACT_PAGE_UP:
		rv->scroll = rv->scroll > h ? rv->scroll - h : 0;
		return true;
	case ACT_NEXT_SITE:
		/* the next place, from the last back to the first */
		if (rv->nsite_lines < 2) {
			tui_msg(t, ROLE_STATUS, "the bot discusses this finding at one place");
			return true;
		}
		rv->site = (rv->site + 1) % rv->nsite_lines;
		rv->scroll = rv->site_line[rv->site];
		tui_msg(t, ROLE_STATUS, "site %zu of %zu", rv->site + 1, rv->nsite_lines);
		return true;
	case ACT_OPEN:
		if (rv->scroll < max_scroll(rv))
			rv->scroll++;
		return true;
	case ACT_SCROLL_RIGHT:
		if (rv->hscroll + rv->detail_w - 2 < rv->code_w)
			rv->hscroll += HSCROLL_STEP;
		else
			tui_msg(t, ROLE_STATUS, "the code ends here");
		return true;
	case ACT_SCROLL_LEFT:
		rv->hscroll = rv->hscroll > HSCROLL_STEP ? rv->hscroll - HSCROLL_STEP : 0;
		return true;
	default:
		return false;
	}
}

/* t, *, T and ; (then a verdict key): true when a was one of them. */
static bool bulk_request(struct tui *t, struct view *v, enum action a)
{
	struct review *rv = v->priv;
	wn_verdict verdict;

	if (rv->applying) {
		rv->applying = false;
		if (tui_action_verdict(a, &verdict))
			apply(t, v, verdict);
		else
			tui_say_verdict_keys(t, v);
		return true;
	}
	switch (a) {
	case ACT_SELECT:
	case ACT_SELECT_ALL:
	case ACT_SELECT_NONE:
		select_findings(t, v, a);
		return true;
	case ACT_APPLY:
		if (!rv->nsel)
			tui_msg(t, ROLE_WARNING, "nothing selected: t selects a finding, * every finding");
		else
			tui_msg(t, ROLE_STATUS, "mark the %zu selected finding%s: v, f, p or u?",
				rv->nsel, rv->nsel == 1 ? "" : "s");
		rv->applying = rv->nsel > 0;
		return true;
	default:
		return false;
	}
}

/* Seen before and the series hints, looked up between keys. */
static bool review_busy(struct tui *t, struct view *v)
{
	struct review *rv = v->priv;

	return review_memory_work(t, &rv->mem, rv->it, v->cursor);
}

static struct view_req review_request(struct tui *t, struct view *v, enum action a)
{
	struct review *rv = v->priv;
	wn_verdict verdict;

	if (bulk_request(t, v, a) || scroll_request(t, v, a) || copy_request(t, a, rv->it, NULL))
		return req_done();
	if (tui_action_verdict(a, &verdict)) {
		mark(t, v, verdict);
		return req_done();
	}
	if (review_crash_request(t, rv->it, v->cursor, a))
		return req_done();
	switch (a) {
	case ACT_NOTE:
		annotate(t, v);
		return req_done();
	case ACT_MISSED:
		tui_missed(t, rv->it, prompt_missed(t, rv->it));
		return req_done();
	case ACT_DETAILS:
		rv->details = !rv->details;
		return req_done();
	case ACT_DIFF:
	case ACT_MAIL:
	case ACT_THREAD:
		rv->about = (struct about) { .it = rv->it, .finding = v->cursor };
		return req_open(a == ACT_DIFF ? VIEW_DIFF : a == ACT_MAIL ? VIEW_MAIL : VIEW_THREAD,
				&rv->about);
	case ACT_FORWARD:
		return req_open(VIEW_COMPOSE, rv->it);
	case ACT_EDIT:
		review_tree_edit(t, rv->it, v->cursor);
		return req_done();
	case ACT_ACCEPT_SEEN:
	case ACT_SERIES_PATCH:
	case ACT_SEVERITY:
		if (review_memory_request(t, &rv->mem, rv->it, v->cursor, a))
			view_goto(t, v, v->cursor + 1);
		return req_done();
	default:
		return req_pass(a);
	}
}

/* The keys this view takes itself: the help lists them first. */
static const enum action review_keys[] = {
	ACT_OPEN, ACT_PAGE_DOWN, ACT_PAGE_UP, ACT_MARK_VALID, ACT_MARK_FALSE, ACT_MARK_PRE,
	ACT_MARK_UNTRIAGED, ACT_MARK_REAL, ACT_MARK_INVALID, ACT_MARK_DUPLICATE, ACT_MARK_FIXED,
	ACT_NOTE, ACT_SEVERITY, ACT_ACCEPT_SEEN, ACT_SERIES_PATCH, ACT_DETAILS,
	ACT_SCROLL_LEFT, ACT_SCROLL_RIGHT, ACT_NEXT_SITE, ACT_DIFF, ACT_MAIL, ACT_THREAD, ACT_EDIT, ACT_FORWARD,
	ACT_MISSED, ACT_SELECT, ACT_SELECT_ALL, ACT_SELECT_NONE, ACT_APPLY, ACT_COPY_ID,
	ACT_COPY_PATCH_ID, ACT_NONE,
};

const struct view_ops review_ops = {
	.name = "review",
	.priv_size = sizeof(struct review),
	.open = review_open,
	.done = review_done,
	.title = review_title,
	.row = review_row,
	.layout = review_layout,
	.draw = review_draw,
	.request = review_request,
	.select = review_select,
	.focus = review_focus,
	.busy = review_busy,
	.hints = review_hints,
	.keys = review_keys,
};
