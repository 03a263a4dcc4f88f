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
#include "review-private.h"

static const struct hint review_hints[] = {
	{ ACT_BACK, "back" }, { ACT_MARK_VALID, "valid" }, { ACT_MARK_FALSE, "false-pos" },
	{ ACT_MARK_PRE, "pre-existing" }, { ACT_MARK_UNTRIAGED, "untriaged" },
	{ ACT_FORWARD, "forward" }, { ACT_NOTE, "note" }, { ACT_DIFF, "diff" },
	{ ACT_MAIL, "mail" }, { ACT_THREAD, "replies" }, { ACT_PAGE_DOWN, "scroll" },
	{ ACT_UNDO, "undo" }, { ACT_HELP, "help" }, { ACT_NONE, NULL },
};

/* --- view ops -------------------------------------------------------- */

/* The header's "Reached the author:" line (does the patch's author have
 * the review already, so that forwarding needs no second copy?): the
 * review's and the patch's mail read once, as the review opens.  NULL when it cannot
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
	review_detail_free(rv);
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
	int hdr = (int) review_header_count(rv), list, gap = 0, bar = 1;
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
	size_t full = review_header_count(rv), n = nfindings(rv), end;
	int x = rv->detail_x + 1, w = rv->detail_w - 2;
	struct row r;

	for (int k = 0; k < rv->header_h; k++) {
		memset(&r, 0, sizeof(r));
		if ((size_t) rv->header_h < full && k == rv->header_h - 1)
			row_addf(&r, ROLE_A_NONE, CELL_NATURAL, "  %s %zu more lines", ui_ellipsis(),
				 full - (size_t) k);
		else
			review_header_row(t, rv, (size_t) k, &r);
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
	review_detail_build(rv, v->cursor, w);
	if (rv->scroll > review_max_scroll(rv))
		rv->scroll = review_max_scroll(rv);
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
		if (rv->scroll < review_max_scroll(rv))
			rv->scroll = rv->scroll + h < review_max_scroll(rv) ? rv->scroll + h :
									      review_max_scroll(rv);
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
		if (rv->scroll < review_max_scroll(rv))
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
/* clang-format off */
static const enum action review_keys[] = {
	ACT_OPEN, ACT_PAGE_DOWN, ACT_PAGE_UP, ACT_MARK_VALID, ACT_MARK_FALSE, ACT_MARK_PRE,
	ACT_MARK_UNTRIAGED, ACT_MARK_REAL, ACT_MARK_INVALID, ACT_MARK_DUPLICATE, ACT_MARK_FIXED,
	ACT_NOTE, ACT_SEVERITY, ACT_ACCEPT_SEEN, ACT_SERIES_PATCH, ACT_DETAILS,
	ACT_SCROLL_LEFT, ACT_SCROLL_RIGHT, ACT_NEXT_SITE, ACT_DIFF, ACT_MAIL, ACT_THREAD, ACT_EDIT, ACT_FORWARD,
	ACT_MISSED, ACT_SELECT, ACT_SELECT_ALL, ACT_SELECT_NONE, ACT_APPLY, ACT_COPY_ID,
	ACT_COPY_PATCH_ID, ACT_NONE,
};
/* clang-format on */

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
