/* winnow TUI — the queue: one row per review, newest first, or ordered
 * by severity, by untriaged findings, or grouped by series.
 *
 * The query returns cheap index fields only; a review's mail (and its
 * patch) is read the first time its row is drawn, so the first screen
 * costs one page of mails however big the index is.  An order other
 * than the date, or hiding reviews without findings, needs every review
 * read: that runs between keys, with its progress in the status line,
 * and the rows change order once it is done, the cursor staying on the
 * same review.  The rows and the reading are queue-rows.c's, a row
 * drawn queue-draw.c's, the orders queue-sort.c's. */
#include "autoconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/forward.h"
#include "winnow/proc.h"
#include "winnow/text.h"
#include "queue-private.h"

static const struct hint queue_hints[] = {
	{ ACT_BACK, "quit" }, { ACT_OPEN, "open" }, { ACT_SELECT, "select" },
	{ ACT_MARK_VALID, "valid" }, { ACT_MARK_FALSE, "false-pos" },
	{ ACT_MARK_PRE, "pre-existing" }, { ACT_MARK_UNTRIAGED, "untriaged" },
	{ ACT_SORT, "sort" }, { ACT_LIMIT, "limit" }, { ACT_SEARCH, "search" },
	{ ACT_HELP, "help" },
	{ ACT_NONE, NULL },
};

/* --- the selection (t, *, T) and the bulk mark (;) ------------------------ */

/* Room in q->sel for n more; false when out of memory. */
static bool sel_room(struct queue *q, size_t n)
{
	char **grown;
	size_t cap = q->selcap ? q->selcap : 16;

	if (q->nsel + n <= q->selcap)
		return true;
	while (cap < q->nsel + n)
		cap *= 2;
	if (!(grown = realloc(q->sel, cap * sizeof(*grown))))
		return false;
	q->sel = grown;
	q->selcap = cap;
	return true;
}

static void select_one(struct queue *q, const char *id, bool on)
{
	bool found;
	size_t at = queue_sel_find(q, id, &found);

	if (found && !on) {
		free(q->sel[at]);
		memmove(q->sel + at, q->sel + at + 1, (--q->nsel - at) * sizeof(*q->sel));
	} else if (!found && on && sel_room(q, 1) && (id = strdup(id))) {
		memmove(q->sel + at + 1, q->sel + at, (q->nsel++ - at) * sizeof(*q->sel));
		q->sel[at] = (char *) id;
	}
}

static int id_order(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Every review of the queue selected: their ids put after the ones
 * selected, then sorted once and each kept once.  A row read only for
 * its id is let go of again (at 300,000 messages, all of them held were
 * 51 MiB). */
static void select_all(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;
	size_t n = 0;

	for (size_t i = 0; i < v->lines; i++) {
		size_t li = q->rows ? (i < q->nrows ? q->rows[i].item : SIZE_MAX) : i;
		bool held = li < q->list.fetched && q->list.items[li];
		const struct qrow *qr;
		wn_item *it = queue_row_item(t, v, i, &qr);
		char *id;

		if (it && sel_room(q, 1) && (id = strdup(it->id)))
			q->sel[q->nsel++] = id;
		if (it && !held)
			wn_list_release(&q->list, li);
	}
	if (q->nsel)
		qsort(q->sel, q->nsel, sizeof(*q->sel), id_order);
	for (size_t i = 0; i < q->nsel; i++) {
		if (n && !strcmp(q->sel[n - 1], q->sel[i]))
			free(q->sel[i]);
		else
			q->sel[n++] = q->sel[i];
	}
	q->nsel = n;
}

static void select_none(struct queue *q)
{
	for (size_t i = 0; i < q->nsel; i++)
		free(q->sel[i]);
	free(q->sel);
	q->sel = NULL;
	q->nsel = q->selcap = 0;
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
		wn_item *it = queue_row_item(t, v, i, &qr);

		if (!it || !queue_selected(q, it->id))
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
	if (!queue_run_query(t, q, qa ? qa->query : NULL, !at && !queue_needs_all(t, q)))
		return false;
	q->label = qa && qa->label ? strdup(qa->label) : NULL;
	v->lines = q->list.n;
	q->digits = 1;
	for (size_t i = 0; at && i < v->lines; i++) {
		const struct qrow *qr;
		wn_item *it = queue_row_item(t, v, i, &qr);

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
	wn_item *it = queue_row_item(t, v, i, &qr);
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
	if (!was && it->loaded && !hit && !queue_near_screen(v, q, li))
		queue_drop(q, li, it);
	return hit;
}

static void mark_all(struct tui *t, struct view *v, wn_verdict verdict)
{
	wn_item *it = queue_current(t, v);
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
	if (queue_requery(t, v, s)) {
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
		wn_item *it = queue_row_item(t, v, i, &qr);

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
	if (!queue_requery(t, v, q->limit))
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
		if ((it = queue_current(t, v))) {
			select_one(q, it->id, !queue_selected(q, it->id));
			view_goto(t, v, v->cursor + 1);
		}
		return true;
	case ACT_SELECT_ALL:
		select_all(t, v);
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
	wn_item *it = queue_current(t, v);

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
	queue_relayout(t, v);
	tui_msg(t, ROLE_STATUS, "sorted by %s", queue_sort_name(q->sort));
}

/* Drop the reviews read for rows far from the screen (read again if
 * they come back): paging through tens of thousands of reviews holds a
 * few screens of them, not every one passed (at 10,000 messages each
 * kept about 3.7 KiB); the orders keep what they need of each
 * (struct qsum).  Done as a key reaches the queue, before it acts: no
 * view above holds one of its reviews then, nor any of its own actions
 * (a prompt redraws the screen while a bulk mark holds its reviews). */
#ifdef WN_TEST_HOOKS
/* For the tests: how many rows the list holds read after drop_far(),
 * appended to $WINNOW_TEST_QUEUE_LOG. */
static void test_log(const struct queue *q)
{
	const char *path = getenv("WINNOW_TEST_QUEUE_LOG");
	FILE *f = path && *path ? fopen(path, "a") : NULL;
	size_t held = 0;

	for (size_t i = 0; f && i < q->list.fetched; i++)
		held += q->list.items[i] != NULL;
	if (f) {
		fprintf(f, "held=%zu of=%zu\n", held, q->list.n);
		fclose(f);
	}
}
#endif

static void drop_far(struct view *v)
{
	struct queue *q = v->priv;
	size_t height = v->list_h > 0 ? (size_t) v->list_h : 1, keep = KEEP_SCREENS * height;
	size_t lo = v->top > keep ? v->top - keep : 0, hi = v->top + height + keep;
	size_t n = q->rows ? q->nrows : q->list.fetched;

	for (size_t r = 0; r < n; r++) {
		size_t i = q->rows ? q->rows[r].item : r;
		wn_item *it = i < q->list.fetched ? q->list.items[i] : NULL;

		/* Rows read on the way to another (wn_list_get) too, once
		 * what the orders need of them is kept. */
		if ((r < lo || r >= hi) && !(q->rows && q->rows[r].heading) && it &&
		    (it->loaded || q->sums))
			queue_drop(q, i, it);
	}
#ifdef WN_TEST_HOOKS
	test_log(q);
#endif
}

static struct view_req queue_request(struct tui *t, struct view *v, enum action a)
{
	struct queue *q = v->priv;
	wn_verdict verdict;

	/* Every key acts on the whole list (G goes to the last review). */
	if (q->list.partial)
		queue_complete(t, v);
	drop_far(v);
	if (bulk_request(t, v, a) || copy_request(t, a, queue_current(t, v), NULL))
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
		wn_item *it = queue_current(t, v);

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
		if (queue_requery(t, v, q->limit))
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
	uint32_t h = msgid ? queue_id_hash(msgid) : 0;

	/* Only rows read can hold it loaded; what was kept of the others
	 * says which may be it. */
	for (size_t i = 0; i < q->list.n; i++) {
		wn_item *it = i < q->list.fetched ? q->list.items[i] : NULL;
		struct qsum *s = q->sums ? &q->sums[i] : NULL;

		if (!it) {
			if (s && s->read && (!msgid || s->idhash == h))
				s->stale = q->sums_stale = true;
			continue;
		}
		if (msgid && strcmp(it->id, msgid))
			continue;
		if (it->loaded) {
			tui_reload_verdicts(t, it);
			queue_sum(q, i, it);
		} else if (s && s->read) {
			/* Dropped: its counts are read again before the
			 * rows are next ordered. */
			s->stale = q->sums_stale = true;
		}
		if (msgid)
			break;
	}
}

/* After an undo: the cursor on the review it changed. */
static void queue_focus(struct tui *t, struct view *v, const char *msgid, const char *fp)
{
	for (size_t i = 0; i < v->lines; i++) {
		if (queue_row_is(t, v, i, msgid)) {
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
