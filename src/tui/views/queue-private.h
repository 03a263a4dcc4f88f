/* winnow TUI — the queue view's private header, shared by its files
 * only: view-queue.c (the view: its keys and requests, the selection),
 * queue-draw.c (a row drawn), queue-rows.c (which review each row
 * shows, reading the reviews) and queue-sort.c (its orders: the keys,
 * the series groups, the rows they give).  Calls go one way, in that
 * order: each file calls only those after it.  Nothing else includes
 * it; a view never reaches into another. */
#ifndef WINNOW_TUI_QUEUE_PRIVATE_H
#define WINNOW_TUI_QUEUE_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "view.h"

/* The queue's orders: QUEUE_SORTS in keymap.h, beside o's help. */
/* clang-format off */
enum qsort {
#define QS_X_(e, name, help) QS_##e,
	QUEUE_SORTS(QS_X_)
#undef QS_X_
	QS_COUNT
};
/* clang-format on */

/* A row: a review (list index), or a series' heading.  Eight bytes: an
 * order has a row for every review. */
struct qrow {
	uint32_t item;
	uint32_t group : 31; /* index in groups; for headings */
	bool heading : 1;
};

/* What the orders need of a review, kept once it is read so that the
 * review itself, its row even (wn_list_release), can be let go when its
 * row is off screen: a few bytes a row instead of its parse (about 3.7
 * KiB) and its row's strings, which for every review of a large index
 * were more memory than all the rest. */
struct qsum {
	uint32_t idhash; /* queue_id_hash() of its Message-ID */
	uint32_t untriaged;
	uint32_t title;	       /* series: its q->titles index + 1; 0 not read */
	int32_t version, part; /* series: of its patch's subject */
	int8_t sev_rank;       /* its top severity's rank (queue-sort.c) */
	bool read : 1;	       /* filled from the review */
	bool empty : 1;	       /* read without error, no findings */
	bool newcomer : 1;
	bool stale : 1; /* verdicts changed (an undo) since: read again */
};

struct qgroup {
	char *title;
	char versions[40];	/* "v2 v3" */
	size_t n;
};

struct queue {
	wn_list list;
	char *limit;		/* the user's limit query; NULL: all */
	char *label;		/* what the title calls it instead; NULL: the limit */
	enum qsort sort;
	unsigned long rev;	/* the index revision the list was read at */
	/* Reading every review (an order or a filter that needs them). */
	size_t next;		/* the next list index to read */
	bool all;		/* every review read */
	bool who;		/* ... and who answered each (QS_NEWCOMER) */
	bool series;		/* reading the cover letters' titles began */
	char **titles;		/* the series' titles, each once (sums[].title) */
	size_t ntitles;
	uint32_t *tslots;	/* a hash of titles: index + 1, 0 free */
	size_t tcap;		/* tslots' size, a power of two */
	struct qsum *sums;	/* list.n, once reading every review began */
	bool sums_stale;	/* some sums[].stale */
	bool shifted;		/* a row read again was another review: read again */
	/* The rows shown; NULL: the list itself, in date order. */
	struct qrow *rows;
	size_t nrows;
	struct qgroup *groups;
	size_t ngroups;
	char *keep;		/* Message-ID the cursor goes back to */
	int digits;		/* of the largest finding count on screen */
	wn_buf scratch;		/* a row's composed text, until drawn */
	struct about about;	/* what d, m and r open */
	/* Message-IDs of the selected reviews (t, *), in strcmp() order:
	 * a search each, since * selects every review of the queue (67,207
	 * at 300,000 messages took 17 s to select one by one). */
	char **sel;
	size_t nsel, selcap;
	bool applying;		/* ; was pressed: the next verdict key applies */
};

static inline size_t queue_nfindings(const wn_item *it)
{
	return it->review ? it->review->nfindings : 0;
}

/* Does the order need who answered each review, and how new its author
 * is (wn_index_load_who)? */
static inline bool queue_sort_wants_who(enum qsort sort)
{
	return sort == QS_NEWCOMER;
}

/* Keep what the orders need of review i (loaded); false when out of
 * memory. */
bool queue_sum(struct queue *q, size_t i, const wn_item *it);
void queue_free_sums(struct queue *q);
/* Keep the series key of review i: its patch's subject (it) and the
 * cover letter's (cover; NULL: none); false when out of memory. */
bool queue_sum_series(struct queue *q, size_t i, const wn_item *it, const char *cover);
/* A hash of a Message-ID, to know a row read again is the same review
 * and to find a review's row without reading every row. */
uint32_t queue_id_hash(const char *id);
/* "date", "severity"...: the status line's name of an order. */
const char *queue_sort_name(enum qsort sort);
/* The review's most severe finding's severity; WN_SEV_NONE for none. */
wn_severity queue_top_severity(const wn_item *it);

/* Lay out q->rows (and for series q->groups) from every review of the
 * list: filtered (t->hide_empty), ordered by q->sort, series headed.
 * False when memory ran out: the rows are then NULL, the list shown
 * as it is. */
bool queue_order(struct tui *t, struct queue *q);
void queue_free_rows(struct queue *q);
/* The series' titles read for the series order. */
void queue_free_series(struct queue *q);

/* Screens of reviews kept read on either side of the one shown. */
#define KEEP_SCREENS 2

/* --- queue-rows.c: the rows and reading the reviews ------------------- */

/* The review of row i (loaded, read the first time it is asked for);
 * *row its row.  NULL for a heading or when it cannot be read. */
wn_item *queue_row_item(struct tui *t, struct view *v, size_t i, const struct qrow **row);
/* The review under the cursor; NULL on a heading. */
wn_item *queue_current(struct tui *t, struct view *v);
/* Does row i show review id?  Rows let go of are read again only when
 * what was kept of them says they may. */
bool queue_row_is(struct tui *t, struct view *v, size_t i, const char *id);
/* Is review id selected (t, *)? */
bool queue_selected(const struct queue *q, const char *id);
/* Where id is in q->sel (*found), or would go. */
size_t queue_sel_find(const struct queue *q, const char *id, bool *found);
/* Does the queue need every review read (an order, a filter)? */
bool queue_needs_all(const struct tui *t, const struct queue *q);
/* Is review i (a list index) within KEEP_SCREENS of the screen? */
bool queue_near_screen(const struct view *v, const struct queue *q, size_t i);
/* Let go of row i (a list index), what the orders need of it kept
 * (only its review until every review is being read). */
void queue_drop(struct queue *q, size_t i, wn_item *it);
/* quick: only the newest reviews, a screenful at least, for a first
 * screen that costs the same however many match; complete() reads the
 * whole list at the first idle moment or key. */
bool queue_run_query(struct tui *t, struct queue *q, const char *limit, bool quick);
/* Read the query again (R, a limit, a toggle, the index changed). */
bool queue_requery(struct tui *t, struct view *v, const char *limit);
/* Rows as they are now: the list itself, or once all is read, built. */
void queue_relayout(struct tui *t, struct view *v);
/* The whole list in place of the newest part the first screen was drawn
 * from, the rows already read carried over, the cursor on its review. */
void queue_complete(struct tui *t, struct view *v);
/* The view's idle op: read a slice of reviews; true while more remain. */
bool queue_idle(struct tui *t, struct view *v);

/* --- queue-draw.c: the view's drawing ops ------------------------------ */

void queue_title(struct tui *t, struct view *v, struct row *r);
void queue_row(struct tui *t, struct view *v, size_t i, struct row *r);
/* Read the rows about to be drawn and size the count columns for the
 * largest number among them. */
void queue_layout(struct tui *t, struct view *v, int top, int height);

#endif
