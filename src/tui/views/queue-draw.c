/* winnow TUI — a queue row drawn: the title line, and each review's
 * date, counts, severity, badge, author, who answered and subject,
 * fitted to the width. */
#include "autoconfig.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/forward.h"
#include "winnow/text.h"
#include "queue-private.h"

void queue_title(struct tui *t, struct view *v, struct row *r)
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

/* A syzbot report's state before its subject (closed, or judged): "(invalid)",
 * "(real bug)", "(fixed by 0123456789ab)", "(fixed by "TITLE")" typed,
 * "(duplicate of TITLE)" with the other report's subject when the queue
 * holds it.  Into q->scratch; false when it has none (or out of memory). */
/* The subject of the list's review id, read again if it was let go of
 * (what was kept of it says which rows may be it); NULL: not listed. */
static const char *listed_subject(struct tui *t, struct queue *q, const char *id)
{
	uint32_t h = queue_id_hash(id);

	/* Rows never read are not looked for, but rows let go of are. */
	for (size_t k = 0; k < (q->sums ? q->list.n : q->list.fetched); k++) {
		const wn_item *o = k < q->list.fetched ? q->list.items[k] : NULL;

		if (!o && q->sums && q->sums[k].read && q->sums[k].idhash == h)
			o = wn_list_get(t->idx, &q->list, k);
		if (o && !strcmp(o->id, id))
			return o->subject;
	}
	return NULL;
}

static bool crash_state(struct tui *t, struct queue *q, const wn_item *it, const char *subject)
{
	const char *what = NULL, *other = NULL, *shown;
	wn_status st;
	wn_crash c = wn_review_tracks_state(it->bot, it->review) && it->verdicts
		     ? wn_crash_of(it->verdicts[0], it->closed ? it->closed[0] : NULL, &what) : WN_CRASH_NONE;

	if (c == WN_CRASH_NONE)
		return false;
	if (c == WN_CRASH_DUPLICATE && what)
		other = listed_subject(t, q, what);
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
static void add_subject(struct tui *t, struct row *r, struct queue *q, const wn_item *it,
			unsigned dim)
{
	const char *subject = it->patch ? it->patch->subject : it->subject;
	struct cell *c;

	if (crash_state(t, q, it, subject)) {
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

void queue_row(struct tui *t, struct view *v, size_t i, struct row *r)
{
	struct queue *q = v->priv;
	const struct qrow *qr;
	wn_item *it = queue_row_item(t, v, i, &qr);
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
		row_add(r, ROLE_SERIES, 1, queue_selected(q, it->id) ? "*" : "")->pad = 0;
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
	add_subject(t, r, q, it, dim);
}

static int cmp_rows(const void *a, const void *b)
{
	const struct qrow *x = *(const struct qrow *const *) a,
			  *y = *(const struct qrow *const *) b;

	return x->item < y->item ? -1 : x->item > y->item;
}

/* The rows of an order let go of, read again in the list's order: one
 * search of the index for the screen, not one for each row back. */
static void read_in_order(struct tui *t, struct view *v, int height)
{
	struct queue *q = v->priv;
	const struct qrow **want;
	size_t n = 0;

	if (!q->rows || height <= 0 || !(want = calloc((size_t) height, sizeof(*want))))
		return;
	for (size_t i = v->top; i < q->nrows && i < v->top + (size_t) height; i++) {
		const struct qrow *r = &q->rows[i];

		if (!r->heading && (r->item >= q->list.fetched || !q->list.items[r->item]))
			want[n++] = r;
	}
	qsort(want, n, sizeof(*want), cmp_rows);
	for (size_t k = 0; k < n; k++) {
		const struct qrow *r;

		queue_row_item(t, v, (size_t) (want[k] - q->rows), &r);
	}
	free(want);
}

/* Read the rows about to be drawn and size the count columns for the
 * largest number among them. */
void queue_layout(struct tui *t, struct view *v, int top, int height)
{
	struct queue *q = v->priv;
	size_t most = 0;

	v->list_y = top;
	v->list_h = height;
	read_in_order(t, v, height);
	for (size_t i = v->top; i < v->lines && i < v->top + (size_t) height; i++) {
		const struct qrow *qr;
		wn_item *it = queue_row_item(t, v, i, &qr);

		if (!it)
			continue;
		tui_load(t, it);
		if (queue_nfindings(it) > most)
			most = queue_nfindings(it);
	}
	q->digits = most >= 100 ? 3 : most >= 10 ? 2 : 1;
}
