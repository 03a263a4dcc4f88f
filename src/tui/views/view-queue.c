/* winnow TUI — the queue: one row per review, newest first, or ordered
 * by severity, by untriaged findings, or grouped by series.
 *
 * The query returns cheap index fields only; a review's mail (and its
 * patch) is read the first time its row is drawn, so the first screen
 * costs one page of mails however big the index is.  An order other
 * than the date, or hiding reviews without findings, needs every review
 * read: that runs between keys, with its progress in the status line,
 * and the rows change order once it is done, the cursor staying on the
 * same review.  The orders themselves are queue-sort.c's. */
#include "autoconfig.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/forward.h"
#include "winnow/proc.h"
#include "winnow/text.h"
#include "queue-private.h"

/* Reading reviews in the background: this long per slice. */
#define SLICE_MS 30

static const struct hint queue_hints[] = {
	{ ACT_BACK, "quit" }, { ACT_OPEN, "open" }, { ACT_SELECT, "select" },
	{ ACT_MARK_VALID, "valid" }, { ACT_MARK_FALSE, "false-pos" },
	{ ACT_MARK_PRE, "pre-existing" }, { ACT_MARK_UNTRIAGED, "untriaged" },
	{ ACT_SORT, "sort" }, { ACT_LIMIT, "limit" }, { ACT_SEARCH, "search" },
	{ ACT_HELP, "help" },
	{ ACT_NONE, NULL },
};

/* --- which rows ----------------------------------------------------------- */

static bool needs_all(const struct tui *t, const struct queue *q)
{
	return q->sort != QS_DATE || t->hide_empty;
}

static wn_item *row_item(struct tui *t, struct view *v, size_t i, const struct qrow **row)
{
	struct queue *q = v->priv;

	*row = NULL;
	if (!q->rows)
		return wn_list_get(t->idx, &q->list, i);
	if (i >= q->nrows)
		return NULL;
	*row = &q->rows[i];
	return q->rows[i].heading ? NULL : wn_list_get(t->idx, &q->list, q->rows[i].item);
}

static wn_item *current(struct tui *t, struct view *v)
{
	const struct qrow *r;

	return row_item(t, v, v->cursor, &r);
}

static void remember_cursor(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;
	wn_item *it = current(t, v);

	if (it && !q->keep)
		q->keep = strdup(it->id);
}

/* Put the cursor back on the review q->keep, if it is still shown. */
static void restore_cursor(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;
	size_t look = q->rows ? v->lines : (v->cursor + 200 < v->lines ? v->cursor + 200 : v->lines);

	if (!q->keep)
		return;
	for (size_t i = 0; i < look; i++) {
		const struct qrow *r;
		wn_item *it = row_item(t, v, i, &r);

		if (it && !strcmp(it->id, q->keep)) {
			view_goto(t, v, i);
			break;
		}
	}
	free(q->keep);
	q->keep = NULL;
}

/* Screens of reviews kept read on either side of the one shown. */
#define KEEP_SCREENS 2

/* Is review i (a list index) within KEEP_SCREENS of the screen? */
static bool near_screen(const struct view *v, const struct queue *q, size_t i)
{
	size_t height = v->list_h > 0 ? (size_t) v->list_h : 1, keep = KEEP_SCREENS * height;
	size_t lo = v->top > keep ? v->top - keep : 0, hi = v->top + height + keep;

	if (!q->rows)
		return i >= lo && i < hi;
	for (size_t r = lo; r < hi && r < q->nrows; r++)
		if (!q->rows[r].heading && q->rows[r].item == i)
			return true;
	return false;
}

/* Drop the review read for row i, what the orders need of it kept. */
static void drop(struct queue *q, size_t i, wn_item *it)
{
	if (!queue_sum(q, i, it) && q->sums)
		return;	/* out of memory: keep it read rather than lose it */
	wn_item_unload(it);
}

/* Lay out the rows from the reviews read (queue-sort.c), the cursor
 * on the review it was on.  Only once every review is read. */
static void build_rows(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;

	/* An undo changed verdicts of reviews no longer read: read them
	 * again for their untriaged counts, dropping them after. */
	for (size_t i = 0; q->sums_stale && q->sums && i < q->list.fetched; i++) {
		wn_item *it = q->list.items[i];

		if (!it || it->loaded || !q->sums[i].read)
			continue;
		tui_load(t, it);
		if (view_top(t) == v && !near_screen(v, q, i))
			drop(q, i, it);
		else
			queue_sum(q, i, it);
	}
	q->sums_stale = false;
	if (!queue_order(t, q)) {
		/* Out of memory: no rows rather than rows freed under us. */
		queue_free_rows(q);
		v->lines = 0;
		tui_msg(t, ROLE_ERROR, "out of memory ordering the queue");
		return;
	}
	v->lines = q->nrows;
	restore_cursor(t, v);
}

/* Rows as they are now: the list itself, or once all is read, built. */
static void relayout(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;

	t->redraw = true;
	remember_cursor(t, v);
	queue_free_rows(q);
	if (!needs_all(t, q)) {
		v->lines = q->list.n;
		restore_cursor(t, v);
	} else if (q->all) {
		build_rows(t, v);
	} else {
		v->lines = q->list.n;	/* date order until all is read */
	}
}

/* --- reading ------------------------------------------------------------- */

/* quick: only the newest reviews, a screenful at least, for a first
 * screen that costs the same however many match; complete() reads the
 * whole list at the first idle moment or key. */
static bool run_query(struct tui *t, struct queue *q, const char *limit, bool quick)
{
	wn_error err = WN_ERROR_INIT;
	wn_list list = { 0 };
	wn_buf qs = WN_BUF_INIT;
	wn_status st;

	if (limit && *limit)
		wn_buf_printf(&qs, "(%s)", limit);
	/* Fully triaged reviews carry the triaged tag once written: hiding
	 * them is the index's work, not a reading of every mail. */
	if (t->hide_triaged)
		wn_buf_printf(&qs, "%snot tag:\"%striaged\"", qs.len ? " and " : "",
			      wn_index_conf(t->idx)->tagprefix);
	/* A query cut short by a failed allocation would show the wrong
	 * reviews (the triaged ones, say): checked once, here. */
	if ((st = wn_buf_status(&qs)) != WN_OK)
		wn_error_set(&err, st, "out of memory");
	else
		st = quick ? wn_index_query_recent(t->idx, wn_buf_str(&qs), wn_now(),
						   LINES > 0 ? (size_t) LINES : 50, &list, &err)
			   : wn_index_query(t->idx, wn_buf_str(&qs), &list, &err);
	wn_buf_free(&qs);
	if (st != WN_OK) {
		tui_msg(t, ROLE_ERROR, "%s", wn_error_msg(&err));
		t->rc = wn_status_exit_code(st);
		wn_error_clear(&err);
		return false;
	}
	queue_free_series(q);
	queue_free_sums(q);
	wn_list_free(&q->list);
	q->list = list;
	q->rev = t->rev;
	q->next = 0;
	q->all = q->who = false;
	if (limit != q->limit) {
		free(q->limit);
		q->limit = limit && *limit ? strdup(limit) : NULL;
	}
	return true;
}

/* Read the query again (R, a limit, a toggle, the index changed). */
static bool requery(struct tui *t, struct view *v, const char *limit)
{
	struct queue *q = v->priv;
	wn_error err = WN_ERROR_INIT;
	unsigned long rev;

	/* See what other programs wrote since the last poll. */
	if (wn_index_revision(t->idx, &rev, &err) == WN_OK)
		t->rev = rev;
	wn_error_clear(&err);
	remember_cursor(t, v);
	queue_free_rows(q);
	if (!run_query(t, q, limit, false))
		return false;
	v->lines = q->list.n;
	if (v->cursor >= v->lines)
		v->cursor = v->lines ? v->lines - 1 : 0;
	relayout(t, v);
	return true;
}

/* The whole list in place of the newest part the first screen was drawn
 * from, the rows already read carried over, the cursor on its review. */
static void complete(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;
	wn_list part;

	remember_cursor(t, v);
	part = q->list;
	memset(&q->list, 0, sizeof(q->list));
	if (!run_query(t, q, q->limit, false)) {
		/* Said on the status line; keep what is shown, and stop. */
		q->list = part;
		q->list.partial = false;
		free(q->keep);
		q->keep = NULL;
		return;
	}
	wn_list_adopt(&q->list, &part);
	wn_list_free(&part);
	relayout(t, v);
}

/* A slice of reading every review; true while more remains. */
static bool read_some(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;
	long long start = tui_now_ms();

	if (q->sort == QS_SERIES && !q->series)
		q->series = calloc(q->list.n ? q->list.n : 1, sizeof(*q->series));
	/* Every review: now the cache pays for its opening. */
	wn_index_cache_later(t->idx, false);
	if (!q->sums && !(q->sums = calloc(q->list.n ? q->list.n : 1, sizeof(*q->sums)))) {
		tui_msg(t, ROLE_ERROR, "out of memory reading the reviews");
		return false;
	}
	while (q->next < q->list.n && tui_now_ms() - start < SLICE_MS) {
		wn_item *it = wn_list_get(t->idx, &q->list, q->next);

		if (it) {
			tui_load(t, it);
			if (queue_sort_wants_who(q->sort) && it->loaded)
				wn_index_load_who(t->idx, it, NULL);
			if (q->series && !q->series[q->next]) {
				wn_error err = WN_ERROR_INIT;

				wn_index_series(t->idx, it, &q->series[q->next], &err);
				wn_error_clear(&err);
			}
			/* Off screen, and no view above holds it: kept as
			 * what the orders need of it only. */
			if (view_top(t) == v && !near_screen(v, q, q->next))
				drop(q, q->next, it);
			else
				queue_sum(q, q->next, it);
		}
		q->next++;
	}
	if (q->next < q->list.n) {
		tui_progress(t, "reading reviews %zu/%zu to order by %s", q->next, q->list.n,
			     queue_sort_name(q->sort));
		return true;
	}
	q->all = true;
	q->who = q->who || queue_sort_wants_who(q->sort);
	relayout(t, v);
	return false;
}

/* Who answered the reviews on screen, and how new their authors are: a
 * thread each, read between keys so that the first screen costs what
 * it did; their marks appear once read.  True while more remains. */
static bool read_who(struct tui *t, struct view *v)
{
	long long start = tui_now_ms();

	for (size_t i = v->top; i < v->lines && i < v->top + (size_t) v->list_h; i++) {
		const struct qrow *qr;
		wn_item *it = row_item(t, v, i, &qr);

		if (!it || !it->loaded || it->who_read)
			continue;
		if (tui_now_ms() - start >= SLICE_MS)
			return true;
		/* Unreadable: shown without marks, not asked again. */
		if (wn_index_load_who(t->idx, it, NULL) != WN_OK)
			it->who_read = true;
		t->redraw = true;
	}
	return false;
}

static bool queue_idle(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;

	/* The first screen is drawn: now the whole list. */
	if (q->list.partial && view_top(t) == v) {
		complete(t, v);
		return false;
	}
	/* The index moved (new mail, a tag from another program, our own
	 * write landing): read it again, only while the queue is in front
	 * (the views above hold its reviews). */
	if (q->rev != t->rev && t->rev == t->own_rev) {
		/* Only our own verdicts landed: the rows hold them already. */
		q->rev = t->rev;
	} else if (q->rev != t->rev && view_top(t) == v) {
		if (requery(t, v, q->limit))
			tui_msg(t, ROLE_STATUS, "the index changed: queue read again");
		q->rev = t->rev;
	}
	if (needs_all(t, q) && !q->all)
		return read_some(t, v);
	return view_top(t) == v && read_who(t, v);
}

/* --- the selection (t, *, T) and the bulk mark (;) ------------------------ */

static bool selected(const struct queue *q, const char *id)
{
	for (size_t i = 0; i < q->nsel; i++)
		if (!strcmp(q->sel[i], id))
			return true;
	return false;
}

static void select_one(struct queue *q, const char *id, bool on)
{
	for (size_t i = 0; i < q->nsel; i++)
		if (!strcmp(q->sel[i], id)) {
			if (!on) {
				free(q->sel[i]);
				q->sel[i] = q->sel[--q->nsel];
			}
			return;
		}
	if (on) {
		char **grown = realloc(q->sel, (q->nsel + 1) * sizeof(*grown));

		if (grown && (grown[q->nsel] = strdup(id)))
			q->nsel++;
		if (grown)
			q->sel = grown;
	}
}

static void select_none(struct queue *q)
{
	for (size_t i = 0; i < q->nsel; i++)
		free(q->sel[i]);
	free(q->sel);
	q->sel = NULL;
	q->nsel = 0;
}

/* Mark every finding of every selected review v, as one action. */
static void apply(struct tui *t, struct view *v, wn_verdict verdict)
{
	struct queue *q = v->priv;
	wn_mark_target *tg = calloc(q->nsel + 1, sizeof(*tg));
	size_t n = 0, findings = 0;
	char what[64];

	for (size_t i = 0; tg && i < v->lines && n < q->nsel; i++) {
		const struct qrow *qr;
		wn_item *it = row_item(t, v, i, &qr);

		if (!it || !selected(q, it->id))
			continue;
		tui_load(t, it);
		if (!it->loaded || it->load_error || !queue_nfindings(it))
			continue;
		tg[n].it = it;
		tg[n++].finding = 0;
		findings += queue_nfindings(it);
	}
	snprintf(what, sizeof(what), "all %zu finding%s of %zu review%s", findings,
		 findings == 1 ? "" : "s", n, n == 1 ? "" : "s");
	if (tg && (!n || prompt_mark(t, what, verdict)) &&
	    tui_mark_many(t, tg, n, verdict, n ? prompt_why(t, verdict) : WN_REASON_NONE, what))
		select_none(q);
	free(tg);
}

/* --- view ops -------------------------------------------------------------- */

static bool queue_open(struct tui *t, struct view *v, void *arg)
{
	struct queue_arg *qa = arg;
	struct queue *q = v->priv;
	bool at = qa && qa->at;

	/* A review to start on may be anywhere in the list: all of it. */
	if (!run_query(t, q, qa ? qa->query : NULL, !at && !needs_all(t, q)))
		return false;
	q->label = qa && qa->label ? strdup(qa->label) : NULL;
	v->lines = q->list.n;
	q->digits = 1;
	for (size_t i = 0; at && i < v->lines; i++) {
		const struct qrow *qr;
		wn_item *it = row_item(t, v, i, &qr);

		if (it && !strcmp(it->id, qa->at)) {
			v->cursor = i;
			qa->found = true;
			break;
		}
	}
	return true;
}

static void queue_done(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;

	queue_free_rows(q);
	queue_free_series(q);
	queue_free_sums(q);
	wn_list_free(&q->list);
	free(q->limit);
	free(q->keep);
	wn_buf_free(&q->scratch);
	select_none(q);
	free(q->label);
}

static void queue_title(struct tui *t, struct view *v, struct row *r)
{
	struct queue *q = v->priv;
	/* The configured query is long and the same every day: name only
	 * what narrows it. */
	const char *query = q->label ? q->label : q->limit && *q->limit ? q->limit : "all reviews";
	struct cell *head, *tail, *mid;
	int room;

	head = row_addf(r, ROLE_TITLE, CELL_NATURAL, "winnow %s", ui_dash());
	mid = row_add(r, ROLE_TITLE, CELL_NATURAL, query);
	size_t shown = q->rows ? q->nrows - q->ngroups : q->list.n;

	tail = row_addf(r, ROLE_TITLE, CELL_NATURAL, "%s %zu%s review%s%s%s", ui_dash(), shown,
			q->list.partial ? "+" : "", shown == 1 && !q->list.partial ? "" : "s",
			t->hide_triaged ? ", triaged hidden" : "",
			t->hide_empty ? ", empty hidden" : "");
	/* The count matters more than the end of a long query: clip the
	 * query, not the count. */
	room = COLS - text_width(head->text) - text_width(tail->text) - 3;
	if (text_width(query) > room)
		mid->width = room > 1 ? room : 1;
}

/* name without its comments in parentheses: "Ann Bee (The Hub)" is
 * Ann Bee, and the short forms are hers, not "A. Hub)". */
static void drop_comments(char *name)
{
	size_t o = 0;
	int depth = 0;

	for (size_t i = 0; name[i]; i++) {
		if (name[i] == '(')
			depth++;
		else if (name[i] == ')' && depth)
			depth--;
		else if (!depth && !(name[i] == ' ' && (!o || name[o - 1] == ' ')))
			name[o++] = name[i];
	}
	while (o && name[o - 1] == ' ')
		o--;
	name[o] = '\0';
}

/* An author in width columns: the whole name, else the name without
 * its comments, else "J. Beispiel", else the last name (draw_text cuts
 * what still does not fit). */
static void fit_name(char *name, size_t size, int width)
{
	char *last;
	size_t first;
	char buf[64];

	if (text_width(name) <= width)
		return;
	if (strchr(name, '(')) {
		char keep[sizeof(buf)];

		/* A name of nothing but a comment stays what it is. */
		copy_chars(keep, sizeof(keep), name, strlen(name));
		drop_comments(keep);
		if (*keep)
			copy_chars(name, size, keep, strlen(keep));
	}
	last = strrchr(name, ' ');
	if (text_width(name) <= width || !last || last == name)
		return;
	first = 1;
	while (((unsigned char) name[first] & 0xc0) == 0x80)
		first++;
	snprintf(buf, sizeof(buf), "%.*s.%s", (int) first, name, last);
	if (text_width(buf) <= width)
		copy_chars(name, size, buf, strlen(buf));
	else
		memmove(name, last + 1, strlen(last + 1) + 1);
}

/* Untriaged of the total ("2/3"): the narrow form. */
static void add_counts_narrow(struct row *r, const wn_item *it, int digits, unsigned extra)
{
	struct cell *c;
	size_t n = queue_nfindings(it);

	if (!n) {
		c = row_add(r, ROLE_DEFAULT, 2 * digits + 1, "-");
	} else {
		c = row_addf(r, it->counts[WN_VERDICT_UNTRIAGED] ? ROLE_V_UNTRIAGED : ROLE_V_VALID,
			     2 * digits + 1, "%u/%zu", it->counts[WN_VERDICT_UNTRIAGED], n);
	}
	c->right = true;
	c->extra = extra;
}

/* "20: 0u 20v  0f  0p": the total, then each verdict's count, every
 * number as wide as the largest on screen so 10 and 100 stay apart. */
static void add_counts_wide(struct row *r, const wn_item *it, int digits, unsigned extra)
{
	static const char verdict_letter[WN_VERDICT_COUNT] = { 'u', 'v', 'f', 'p' };
	size_t n = queue_nfindings(it);
	struct cell *c = row_addf(r, ROLE_NCOUNT, digits + 1, "%zu:", n);

	c->right = true;
	c->extra = extra | (n ? 0 : TA_DIM);
	for (int k = 0; k < WN_VERDICT_COUNT; k++) {
		c = row_addf(r, it->counts[k] ? role_of_verdict((wn_verdict) k) : ROLE_DEFAULT,
			     digits + 1, "%u%c", it->counts[k], verdict_letter[k]);
		c->right = true;
		c->extra = extra | (it->counts[k] ? 0 : TA_DIM);
	}
}

static void heading_row(struct queue *q, const struct qrow *qr, struct row *r)
{
	const struct qgroup *g = &q->groups[qr->group];

	row_add(r, ROLE_SERIES, CELL_NATURAL, ui_dash());
	row_add(r, ROLE_SERIES, CELL_NATURAL, g->title);
	row_addf(r, ROLE_DATE, CELL_FLEX, "(%s, %zu review%s)", g->versions, g->n,
		 g->n == 1 ? "" : "s");
}

/* "2026-11-04" wide, mutt's "Nov 04" narrow. */
static void add_date(struct row *r, const wn_item *it, bool wide, unsigned dim)
{
	struct cell *c = row_add(r, ROLE_DATE, wide ? 10 : 6, NULL);
	struct tm tm;

	c->text = c->own;
	c->extra = dim;
	if (wide)
		format_date(it->date, c->own);
	else if (it->date && localtime_r(&it->date, &tm))
		strftime(c->own, sizeof(c->own), "%b %d", &tm);
}

/* The most severe finding: "High" wide, "H" narrow. */
static void add_severity(struct row *r, const wn_item *it, bool wide)
{
	wn_severity top = queue_top_severity(it);
	const char *sev = wn_severity_name(top);
	struct cell *c = row_addf(r, role_of_severity(top), wide ? 8 : 1, "%.*s", wide ? 8 : 1,
				  sev && queue_nfindings(it) ? sev : "");

	c->own[0] = (char) toupper((unsigned char) c->own[0]);
}

static void add_badge(struct row *r, const wn_item *it, unsigned dim)
{
	if (it->patch && it->patch->trailers) {
		wn_attr_status a = it->patch->trailers->attr.status;

		row_addf(r, role_of_attr(a), 3, "[%s]", wn_attr_badge(a))->extra = dim;
	} else {
		row_add(r, ROLE_A_NONE, 3, "[ ]");
	}
}

/* The patch's author, shortened to fit: at 80 columns 8 columns, so
 * the subject keeps at least 45; "!" first for one who opted out of bot
 * findings (winnow.optout). */
static void add_author(struct tui *t, struct row *r, const struct queue *q, const wn_item *it,
		       bool wide, unsigned dim)
{
	/* Narrow, the who marks' two columns come out of the author's. */
	int w = wide ? (COLS >= 160 ? 22 : 18)
		     : 9 - 2 * q->digits + (COLS - 80) / 3 - (q->nsel ? 1 : 0);
	/* "!" before an author who opted out of bot findings. */
	bool optout = it->patch && wn_forward_opted_out(wn_index_conf(t->idx), it->patch->author);
	struct cell *c;

	if (w < 4)
		w = 4;
	if (!wide && w > 16)
		w = 16;
	c = row_add(r, optout ? ROLE_WARNING : ROLE_AUTHOR, w, NULL);
	if (optout)
		c->own[0] = '!';
	if (it->patch && it->patch->author)
		name_of(it->patch->author, c->own + optout, sizeof(c->own) - optout);
	fit_name(c->own + optout, sizeof(c->own) - optout, w - optout);
	c->text = c->own;
	c->extra = dim;
}

/* Who answered the review (as mutt's flags: "A" the patch's author, "h"
 * another human) and "n" for a newcomer's patch; blank until read. */
static void add_who(struct row *r, const wn_item *it)
{
	wn_replied who = wn_item_replied(it);
	struct cell *c;

	c = row_add(r, who == WN_REPLIED_AUTHOR ? ROLE_REPLIED_AUTHOR : ROLE_REPLIED, 1,
		    who == WN_REPLIED_AUTHOR ? "A" : who == WN_REPLIED_HUMAN ? "h" : "");
	c->pad = 0;
	row_add(r, ROLE_NEWCOMER, 1, it->newcomer ? "n" : "");
}

/* A syzbot report's state before its subject (issue 41): "(invalid)",
 * "(real bug)", "(fixed by 0123456789ab)", "(fixed by "TITLE")" typed,
 * "(duplicate of TITLE)" with
 * the other report's subject when the queue holds it.  Into q->scratch;
 * false when it has none (or out of memory). */
static bool crash_state(struct queue *q, const wn_item *it, const char *subject)
{
	const char *what = NULL, *other = NULL, *shown;
	wn_status st;
	wn_crash c = wn_review_tracks_state(it->bot, it->review) && it->verdicts
		     ? wn_crash_of(it->verdicts[0], it->closed ? it->closed[0] : NULL, &what) : WN_CRASH_NONE;

	if (c == WN_CRASH_NONE)
		return false;
	for (size_t k = 0; c == WN_CRASH_DUPLICATE && k < q->list.fetched && !other; k++)
		if (q->list.items[k] && !strcmp(q->list.items[k]->id, what))
			other = q->list.items[k]->subject;
	shown = other ? other : what ? what : "";
	wn_buf_reset(&q->scratch);
	/* A title typed: whole, quoted (a hash is cut to 12 digits). */
	if (wn_closed_title(c, what))
		st = wn_buf_printf(&q->scratch, "(%s \"%s\") %s", wn_crash_label(c),
				   wn_closed_title(c, what), subject);
	else
		st = wn_buf_printf(&q->scratch, "(%s%s%.*s) %s", wn_crash_label(c), what ? " " : "",
				   c == WN_CRASH_FIXED ? 12 : (int) strlen(shown), shown, subject);
	if (st == WN_OK)
		return true;
	wn_buf_free(&q->scratch);
	return false;
}

/* The patch's subject; for a review without findings, dimmed, with the
 * bot's reason after it; for a copy of another review (whose verdicts
 * it shares), dimmed, saying so. */
static void add_subject(struct row *r, struct queue *q, const wn_item *it, unsigned dim)
{
	const char *subject = it->patch ? it->patch->subject : it->subject;
	struct cell *c;

	if (crash_state(q, it, subject)) {
		subject = wn_buf_str(&q->scratch);
	} else if (it->copy_of) {
		wn_buf_reset(&q->scratch);
		/* first: a narrow screen cuts the end of the subject */
		if (wn_buf_printf(&q->scratch, "(copy) %s", subject) == WN_OK)
			subject = wn_buf_str(&q->scratch);
		else
			wn_buf_free(&q->scratch);
	} else if (dim && it->review->explain) {
		wn_buf_reset(&q->scratch);
		if (wn_buf_printf(&q->scratch, "%s %s %s", subject, ui_dash(), it->review->explain) == WN_OK)
			subject = wn_buf_str(&q->scratch);
		else
			wn_buf_free(&q->scratch);	/* the subject alone; the next row afresh */
	}
	c = row_add(r, ROLE_SUBJECT, CELL_FLEX, subject);
	c->extra = dim;
	c->pad = 0;
}

static void queue_row(struct tui *t, struct view *v, size_t i, struct row *r)
{
	struct queue *q = v->priv;
	const struct qrow *qr;
	wn_item *it = row_item(t, v, i, &qr);
	bool wide = COLS >= 120;
	unsigned dim = 0;

	if (qr && qr->heading) {
		heading_row(q, qr, r);
		return;
	}
	if (!it) {
		row_add(r, ROLE_ERROR, CELL_FLEX, "(this review left the index; press R to read it again)");
		return;
	}
	tui_load(t, it);
	/* Reviews without findings, and copies of a review, are shown
	 * apart: dimmed. */
	if (it->loaded && !it->load_error && (!queue_nfindings(it) || it->copy_of))
		dim = TA_DIM;
	/* While rows are selected, a column says which (mutt's '*'). */
	if (q->nsel)
		row_add(r, ROLE_SERIES, 1, selected(q, it->id) ? "*" : "")->pad = 0;
	add_date(r, it, wide, dim);
	if (!it->loaded) {
		row_add(r, ROLE_ERROR, CELL_FLEX, it->subject);
		return;
	}
	row_add(r, ROLE_BOT, wide ? 9 : 7, wn_bot_label(it->bot))->extra = dim;
	add_severity(r, it, wide);
	add_badge(r, it, dim);
	if (it->load_error)
		row_add(r, ROLE_ERROR, wide ? 5 * (q->digits + 1) + 4 : 2 * q->digits + 1, "");
	else if (wide)
		add_counts_wide(r, it, q->digits, dim);
	else
		add_counts_narrow(r, it, q->digits, dim);
	add_who(r, it);
	add_author(t, r, q, it, wide, dim);
	if (it->load_error) {
		row_add(r, ROLE_ERROR, CELL_NATURAL, "cannot read the mail:");
		row_add(r, ROLE_ERROR, CELL_FLEX, it->load_error);
		return;
	}
	add_subject(r, q, it, dim);
}

/* Read the rows about to be drawn and size the count columns for the
 * largest number among them. */
static void queue_layout(struct tui *t, struct view *v, int top, int height)
{
	struct queue *q = v->priv;
	size_t most = 0;

	v->list_y = top;
	v->list_h = height;
	for (size_t i = v->top; i < v->lines && i < v->top + (size_t) height; i++) {
		const struct qrow *qr;
		wn_item *it = row_item(t, v, i, &qr);

		if (!it)
			continue;
		tui_load(t, it);
		if (queue_nfindings(it) > most)
			most = queue_nfindings(it);
	}
	q->digits = most >= 100 ? 3 : most >= 10 ? 2 : 1;
}

static bool has(const char *hay, const char *needle)
{
	return wn_text_find_ci(hay, needle);
}

static bool item_matches(const wn_item *it, const char *needle)
{
	if (has(it->subject, needle) || has(it->from, needle))
		return true;
	if (!it->loaded)
		return false;
	if (has(wn_bot_label(it->bot), needle) || has(wn_bot_name(it->bot), needle) ||
	    (it->patch && (has(it->patch->subject, needle) || has(it->patch->author, needle))))
		return true;
	for (size_t k = 0; k < queue_nfindings(it); k++)
		if (has(it->review->findings[k].summary, needle))
			return true;
	return false;
}

/* Search what the row shows and the summaries of its findings, over
 * the whole queue: a review not read yet is read for it (the author
 * and the bot are the mail's), and dropped again when its row is far
 * from the screen, as paging does. */
static bool queue_match(struct tui *t, struct view *v, size_t i, const char *needle)
{
	struct queue *q = v->priv;
	const struct qrow *qr;
	wn_item *it = row_item(t, v, i, &qr);
	size_t li = qr ? qr->item : i;
	bool was, hit;

	if (qr && qr->heading)
		return has(q->groups[qr->group].title, needle);
	if (!it)
		return false;
	if (has(it->subject, needle) || has(it->from, needle))
		return true;
	was = it->loaded;
	tui_load(t, it);
	hit = item_matches(it, needle);
	if (!was && it->loaded && !hit && !near_screen(v, q, li))
		drop(q, li, it);
	return hit;
}

static void mark_all(struct tui *t, struct view *v, wn_verdict verdict)
{
	wn_item *it = current(t, v);
	wn_buf question = WN_BUF_INIT;
	size_t n;
	bool yes;

	if (!it) {
		tui_msg(t, ROLE_WARNING, "no review here");
		return;
	}
	tui_load(t, it);
	if (!it->loaded || it->load_error) {
		tui_msg(t, ROLE_ERROR, "cannot mark: the review could not be read");
		return;
	}
	n = it->review->nfindings;
	if (!n) {
		tui_msg(t, ROLE_WARNING, "this review has no findings to mark");
		return;
	}
	if (verdict == WN_VERDICT_UNTRIAGED)
		wn_buf_printf(&question, "Clear the verdicts of all %zu finding%s of this review?",
			      n, n == 1 ? "" : "s");
	else
		wn_buf_printf(&question, "Mark all %zu finding%s of this review %s?", n,
			      n == 1 ? "" : "s", wn_verdict_name(verdict));
	/* Never ask half a question (the verdict is at its end). */
	if (wn_buf_failed(&question)) {
		wn_buf_free(&question);
		tui_msg(t, ROLE_ERROR, "out of memory: nothing marked");
		return;
	}
	yes = prompt_yesno(t, wn_buf_str(&question));
	wn_buf_free(&question);
	if (!yes) {
		tui_msg(t, ROLE_STATUS, "nothing marked");
		return;
	}
	if (!tui_mark(t, it, 0, verdict, prompt_why(t, verdict)))
		return;
	if (!t->msg.len)
		tui_msg(t, ROLE_STATUS, "marked %zu finding%s %s", n, n == 1 ? "" : "s",
			wn_verdict_name(verdict));
	/* mutt habit: after acting on an entry, move to the next. */
	view_goto(t, v, v->cursor + 1);
}

static void limit(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;
	/* The current limit is the default, replaced by what is typed; a
	 * labelled queue's query is no text to offer: start afresh. */
	char *s = prompt_default(t, "Limit to (notmuch query, bot:NAME, empty for all): ",
				 q->label ? NULL : q->limit);

	if (!s)
		return;
	wn_text_trim(s);
	if (requery(t, v, s)) {
		free(q->label);
		q->label = NULL;
		v->cursor = v->top = 0;
		t->rc = 0;
		if (*s)
			tui_msg(t, ROLE_STATUS, "limited to: %s", s);
		else
			tui_msg(t, ROLE_STATUS, "showing all reviews");
	}
	free(s);
}

/* J/Tab, K/BackTab: the next review (forward or back) that still has
 * untriaged findings, reading reviews on the way. */
static void next_untriaged(struct tui *t, struct view *v, bool forward)
{
	for (size_t step = 1; step <= v->lines; step++) {
		size_t i = forward ? (v->cursor + step) % v->lines
				   : (v->cursor + v->lines - step) % v->lines;
		const struct qrow *qr;
		wn_item *it = row_item(t, v, i, &qr);

		if (!it)
			continue;
		tui_load(t, it);
		if (it->loaded && it->counts[WN_VERDICT_UNTRIAGED]) {
			bool wrapped = forward ? i <= v->cursor : i >= v->cursor;

			view_goto(t, v, i);
			if (wrapped)
				tui_msg(t, ROLE_STATUS, "wrapped to the %s", forward ? "top" : "bottom");
			return;
		}
	}
	tui_msg(t, ROLE_STATUS, "no review with untriaged findings");
}

/* x and z: flip a toggle, keep it in the notmuch config, show the rows. */
static void toggle(struct tui *t, struct view *v, bool *flag, const char *key, const char *what)
{
	struct queue *q = v->priv;

	*flag = !*flag;
	if (!requery(t, v, q->limit))
		return;
	if (!tui_conf_set(t, key, *flag ? "true" : "false"))
		tui_msg(t, ROLE_WARNING, "%s %s (could not save %s in the notmuch config)",
			*flag ? "hiding" : "showing", what, key);
	else
		tui_msg(t, ROLE_STATUS, "%s %s (saved in the notmuch config)",
			*flag ? "hiding" : "showing", what);
}

/* t, *, T and ; (then a verdict key): true when a was one of them. */
static bool bulk_request(struct tui *t, struct view *v, enum action a)
{
	struct queue *q = v->priv;
	wn_verdict verdict;
	wn_item *it;

	if (q->applying) {
		q->applying = false;
		if (tui_action_verdict(a, &verdict))
			apply(t, v, verdict);
		else
			tui_say_verdict_keys(t, v);
		return true;
	}
	switch (a) {
	case ACT_SELECT:
		if ((it = current(t, v))) {
			select_one(q, it->id, !selected(q, it->id));
			view_goto(t, v, v->cursor + 1);
		}
		return true;
	case ACT_SELECT_ALL:
		for (size_t i = 0; i < v->lines; i++) {
			const struct qrow *qr;

			if ((it = row_item(t, v, i, &qr)))
				select_one(q, it->id, true);
		}
		tui_msg(t, ROLE_STATUS, "%zu review%s selected: ; then v, f, p or u marks them all",
			q->nsel, q->nsel == 1 ? "" : "s");
		return true;
	case ACT_SELECT_NONE:
		select_none(q);
		tui_msg(t, ROLE_STATUS, "selection cleared");
		return true;
	case ACT_APPLY:
		if (!q->nsel) {
			tui_msg(t, ROLE_WARNING, "nothing selected: t selects a review, * every review");
			return true;
		}
		q->applying = true;
		tui_msg(t, ROLE_STATUS, "mark the %zu selected review%s: v, f, p or u?", q->nsel,
			q->nsel == 1 ? "" : "s");
		return true;
	default:
		return false;
	}
}

/* Enter, d, m, r: the review, or its patch, mail or thread about its
 * first finding still untriaged. */
static struct view_req open_request(struct tui *t, struct view *v, enum action a)
{
	struct queue *q = v->priv;
	wn_item *it = current(t, v);

	if (!it) {
		tui_msg(t, ROLE_WARNING, "%s", v->lines ? "a series heading: its reviews follow"
							: "no review here");
		return req_done();
	}
	tui_load(t, it);
	if (!it->loaded)
		return req_done();
	if (a == ACT_OPEN)
		return req_open(VIEW_REVIEW, it);
	q->about = (struct about) { .it = it };
	for (size_t k = 0; k < queue_nfindings(it); k++)
		if (it->verdicts[k] == WN_VERDICT_UNTRIAGED) {
			q->about.finding = k;
			break;
		}
	return req_open(a == ACT_DIFF ? VIEW_DIFF : a == ACT_MAIL ? VIEW_MAIL : VIEW_THREAD,
			&q->about);
}

/* o: the next order. */
static void next_sort(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;

	q->sort = (enum qsort) ((q->sort + 1) % QS_COUNT);
	if ((q->sort == QS_SERIES && !q->series) || (queue_sort_wants_who(q->sort) && !q->who)) {
		q->all = false;	/* the series, who answered: one more look each */
		q->next = 0;
	}
	relayout(t, v);
	tui_msg(t, ROLE_STATUS, "sorted by %s", queue_sort_name(q->sort));
}

/* Drop the reviews read for rows far from the screen (read again if
 * they come back): paging through tens of thousands of reviews holds a
 * few screens of them, not every one passed (at 10,000 messages each
 * kept about 3.7 KiB); the orders keep what they need of each
 * (struct qsum).  Done as a key reaches the queue, before it acts: no
 * view above holds one of its reviews then, nor any of its own actions
 * (a prompt redraws the screen while a bulk mark holds its reviews). */
static void drop_far(struct view *v)
{
	struct queue *q = v->priv;
	size_t height = v->list_h > 0 ? (size_t) v->list_h : 1, keep = KEEP_SCREENS * height;
	size_t lo = v->top > keep ? v->top - keep : 0, hi = v->top + height + keep;
	size_t n = q->rows ? q->nrows : q->list.fetched;

	for (size_t r = 0; r < n; r++) {
		size_t i = q->rows ? q->rows[r].item : r;
		wn_item *it = i < q->list.fetched ? q->list.items[i] : NULL;

		if ((r < lo || r >= hi) && !(q->rows && q->rows[r].heading) && it && it->loaded)
			drop(q, i, it);
	}
}

static struct view_req queue_request(struct tui *t, struct view *v, enum action a)
{
	struct queue *q = v->priv;
	wn_verdict verdict;

	/* Every key acts on the whole list (G goes to the last review). */
	if (q->list.partial)
		complete(t, v);
	drop_far(v);
	if (bulk_request(t, v, a) || copy_request(t, a, current(t, v), NULL))
		return req_done();
	if (tui_action_verdict(a, &verdict)) {
		mark_all(t, v, verdict);
		return req_done();
	}
	switch (a) {
	case ACT_OPEN:
	case ACT_DIFF:
	case ACT_MAIL:
	case ACT_THREAD:
		return open_request(t, v, a);
	case ACT_LIMIT:
		limit(t, v);
		break;
	case ACT_MISSED: {
		wn_item *it = current(t, v);

		if (it)
			tui_load(t, it);
		tui_missed(t, it, prompt_missed(t, it));
		break;
	}
	case ACT_NEXT_FINDING:
	case ACT_PREV_FINDING:
		if (v->lines)
			next_untriaged(t, v, a == ACT_NEXT_FINDING);
		break;
	case ACT_SORT:
		next_sort(t, v);
		break;
	case ACT_HIDE_TRIAGED:
		toggle(t, v, &t->hide_triaged, "winnow.hide-triaged", "fully triaged reviews");
		break;
	case ACT_HIDE_EMPTY:
		toggle(t, v, &t->hide_empty, "winnow.hide-empty", "reviews without findings");
		break;
	case ACT_RELOAD:
		if (requery(t, v, q->limit))
			tui_msg(t, ROLE_STATUS, "queue read again: %zu review%s", q->list.n,
				q->list.n == 1 ? "" : "s");
		break;
	default:
		return req_pass(a);
	}
	return req_done();
}

/* After an undo: read the verdicts of the review msgid again, pending
 * changes laid over (views above share the item). */
static void queue_reload(struct tui *t, struct view *v, const char *msgid)
{
	struct queue *q = v->priv;

	/* Only rows already fetched can hold it loaded. */
	for (size_t i = 0; i < q->list.fetched; i++) {
		wn_item *it = q->list.items[i];

		if (!it || (msgid && strcmp(it->id, msgid)))
			continue;
		if (it->loaded) {
			tui_reload_verdicts(t, it);
			queue_sum(q, i, it);
		} else if (q->sums && q->sums[i].read) {
			/* Dropped: its counts are read again before the
			 * rows are next ordered. */
			q->sums_stale = true;
		}
		if (msgid)
			break;
	}
}

/* After an undo: the cursor on the review it changed. */
static void queue_focus(struct tui *t, struct view *v, const char *msgid, const char *fp)
{
	for (size_t i = 0; i < v->lines; i++) {
		const struct qrow *qr;
		wn_item *it = row_item(t, v, i, &qr);

		if (it && !strcmp(it->id, msgid)) {
			view_goto(t, v, i);
			return;
		}
	}
}

static const char *queue_mode(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;

	return queue_sort_name(q->sort);
}

/* The keys this view takes itself: the help lists them first. */
static const enum action queue_keys[] = {
	ACT_OPEN, ACT_MARK_VALID, ACT_MARK_FALSE, ACT_MARK_PRE, ACT_MARK_UNTRIAGED, ACT_NEXT_FINDING,
	ACT_PREV_FINDING, ACT_SELECT, ACT_SELECT_ALL, ACT_SELECT_NONE, ACT_APPLY, ACT_SORT,
	ACT_HIDE_TRIAGED, ACT_HIDE_EMPTY, ACT_RELOAD, ACT_LIMIT, ACT_DIFF, ACT_MAIL, ACT_THREAD,
	ACT_MISSED, ACT_COPY_ID, ACT_COPY_PATCH_ID, ACT_NONE,
};

const struct view_ops queue_ops = {
	.name = "queue",
	.priv_size = sizeof(struct queue),
	.open = queue_open,
	.done = queue_done,
	.title = queue_title,
	.row = queue_row,
	.layout = queue_layout,
	.request = queue_request,
	.match = queue_match,
	.reload = queue_reload,
	.focus = queue_focus,
	.idle = queue_idle,
	.mode = queue_mode,
	.hints = queue_hints,
	.keys = queue_keys,
};
