/* winnow TUI — the queue's rows (view-queue.c says how the queue reads):
 * which review each row shows, the cursor kept on its review across a
 * change of order, and reading the reviews between keys, a slice at a
 * time. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "winnow/proc.h"
#include "winnow/text.h"
#include "queue-private.h"

/* Reading reviews in the background: this long per slice. */
#define SLICE_MS 30

/* --- which rows ----------------------------------------------------------- */

bool queue_needs_all(const struct tui *t, const struct queue *q)
{
	return q->sort != QS_DATE || t->hide_empty;
}

wn_item *queue_row_item(struct tui *t, struct view *v, size_t i, const struct qrow **row)
{
	struct queue *q = v->priv;
	size_t li = i;
	wn_item *it;

	*row = NULL;
	if (q->rows) {
		if (i >= q->nrows)
			return NULL;
		*row = &q->rows[i];
		if (q->rows[i].heading)
			return NULL;
		li = q->rows[i].item;
	}
	if (li < q->list.fetched && q->list.items[li])
		return q->list.items[li];
	/* A row let go of is read again by its place in the list: were the
	 * list's search to give another review there now, the index moved
	 * under the queue (queue_idle() reads it again). */
	it = wn_list_get(t->idx, &q->list, li);
	if (it && q->sums && q->sums[li].read && q->sums[li].idhash != queue_id_hash(it->id)) {
		wn_list_release(&q->list, li);
		q->shifted = true;
		return NULL;
	}
	return it;
}

bool queue_row_is(struct tui *t, struct view *v, size_t i, const char *id)
{
	struct queue *q = v->priv;
	const struct qrow *r;
	wn_item *it;

	if (q->rows && q->sums && i < q->nrows && !q->rows[i].heading) {
		size_t li = q->rows[i].item;

		if ((li >= q->list.fetched || !q->list.items[li]) && q->sums[li].read &&
		    q->sums[li].idhash != queue_id_hash(id))
			return false;
	}
	it = queue_row_item(t, v, i, &r);
	return it && !strcmp(it->id, id);
}

wn_item *queue_current(struct tui *t, struct view *v)
{
	const struct qrow *r;

	return queue_row_item(t, v, v->cursor, &r);
}

static void remember_cursor(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;
	wn_item *it = queue_current(t, v);

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
		if (queue_row_is(t, v, i, q->keep)) {
			view_goto(t, v, i);
			break;
		}
	}
	free(q->keep);
	q->keep = NULL;
}

/* Is review i (a list index) within KEEP_SCREENS of the screen? */
bool queue_near_screen(const struct view *v, const struct queue *q, size_t i)
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

/* Let go of row i (a list index), what the orders need of it kept;
 * before every review is being read (no sums to find it by), only its
 * review is dropped, its row kept. */
void queue_drop(struct queue *q, size_t i, wn_item *it)
{
	if (!q->sums)
		wn_item_unload(it);
	else if (queue_sum(q, i, it))
		wn_list_release(&q->list, i);
}

/* Lay out the rows from the reviews read (queue-sort.c), the cursor
 * on the review it was on.  Only once every review is read. */
static void build_rows(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;

	/* An undo changed verdicts of reviews no longer read: read them
	 * again for their untriaged counts, letting them go after. */
	for (size_t i = 0; q->sums_stale && q->sums && i < q->list.n; i++) {
		wn_item *it;

		if (!q->sums[i].stale)
			continue;
		q->sums[i].stale = false;
		if (!(it = wn_list_get(t->idx, &q->list, i)) || it->loaded)
			continue;
		tui_load(t, it);
		if (view_top(t) == v && !queue_near_screen(v, q, i))
			queue_drop(q, i, it);
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
void queue_relayout(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;

	t->redraw = true;
	remember_cursor(t, v);
	queue_free_rows(q);
	if (!queue_needs_all(t, q)) {
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
 * screen that costs the same however many match; queue_complete() reads the
 * whole list at the first idle moment or key. */
bool queue_run_query(struct tui *t, struct queue *q, const char *limit, bool quick)
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
	q->all = q->who = q->shifted = false;
	if (limit != q->limit) {
		free(q->limit);
		q->limit = limit && *limit ? strdup(limit) : NULL;
	}
	return true;
}

/* Read the query again (R, a limit, a toggle, the index changed). */
bool queue_requery(struct tui *t, struct view *v, const char *limit)
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
	if (!queue_run_query(t, q, limit, false))
		return false;
	v->lines = q->list.n;
	if (v->cursor >= v->lines)
		v->cursor = v->lines ? v->lines - 1 : 0;
	queue_relayout(t, v);
	return true;
}

/* The whole list in place of the newest part the first screen was drawn
 * from, the rows already read carried over, the cursor on its review. */
void queue_complete(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;
	wn_list part;

	remember_cursor(t, v);
	part = q->list;
	memset(&q->list, 0, sizeof(q->list));
	if (!queue_run_query(t, q, q->limit, false)) {
		/* Said on the status line; keep what is shown, and stop. */
		q->list = part;
		q->list.partial = false;
		free(q->keep);
		q->keep = NULL;
		return;
	}
	wn_list_adopt(&q->list, &part);
	wn_list_free(&part);
	queue_relayout(t, v);
}

/* A slice of reading every review; true while more remains. */
static bool read_some(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;
	long long start = tui_now_ms();

	if (q->sort == QS_SERIES)
		q->series = true;
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
			queue_sum(q, q->next, it);
			if (q->series && !q->sums[q->next].title) {
				wn_error err = WN_ERROR_INIT;
				char *cover = NULL;

				wn_index_series(t->idx, it, &cover, &err);
				wn_error_clear(&err);
				queue_sum_series(q, q->next, it, cover);
				free(cover);
			}
			/* Off screen, and no view above holds it: kept as
			 * what the orders need of it only. */
			if (view_top(t) == v && !queue_near_screen(v, q, q->next))
				queue_drop(q, q->next, it);
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
	queue_relayout(t, v);
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
		wn_item *it = queue_row_item(t, v, i, &qr);

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

bool queue_idle(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;

	/* The first screen is drawn: now the whole list. */
	if (q->list.partial && view_top(t) == v) {
		queue_complete(t, v);
		return false;
	}
	/* The index moved (new mail, a tag from another program, our own
	 * write landing): read it again, only while the queue is in front
	 * (the views above hold its reviews). */
	if (q->rev != t->rev && t->rev == t->own_rev) {
		/* Only our own verdicts landed: the rows hold them already. */
		q->rev = t->rev;
	} else if (q->rev != t->rev && view_top(t) == v) {
		if (queue_requery(t, v, q->limit))
			tui_msg(t, ROLE_STATUS, "the index changed: queue read again");
		q->rev = t->rev;
	}
	/* A row read again was another review: the list's places moved. */
	if (q->shifted && view_top(t) == v) {
		q->shifted = false;
		if (queue_requery(t, v, q->limit))
			tui_msg(t, ROLE_STATUS, "the index changed: queue read again");
	}
	if (queue_needs_all(t, q) && !q->all)
		return read_some(t, v);
	return view_top(t) == v && read_who(t, v);
}

size_t queue_sel_find(const struct queue *q, const char *id, bool *found)
{
	size_t lo = 0, hi = q->nsel;

	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(q->sel[mid], id);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool queue_selected(const struct queue *q, const char *id)
{
	bool found;

	queue_sel_find(q, id, &found);
	return found;
}
