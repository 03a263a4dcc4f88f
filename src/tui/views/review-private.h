/* winnow TUI — the review view's private header, shared by its files
 * only: view-review.c (the view: its ops, keys and marks),
 * review-header.c (the header block: patch, attribution, trailers,
 * who answered) and review-detail.c (the pane of the selected finding).
 * Calls go one way: view-review.c calls the other two, they call
 * neither.  Nothing else includes it; a view never reaches into
 * another. */
#ifndef WINNOW_TUI_REVIEW_PRIVATE_H
#define WINNOW_TUI_REVIEW_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "review-memory.h"
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
static inline const char *shown(const wn_buf *b)
{
	return wn_buf_failed(b) ? "(out of memory)" : wn_buf_str(b);
}

static inline size_t nfindings(const struct review *rv)
{
	return rv->it->review ? rv->it->review->nfindings : 0;
}

/* --- review-detail.c: the pane of the selected finding --------------- */

void review_detail_free(struct review *rv);
/* Lay out the pane of finding cursor for width columns. */
void review_detail_build(struct review *rv, size_t cursor, int width);
/* How far the pane scrolls: its lines past one full pane. */
size_t review_max_scroll(const struct review *rv);

/* --- review-header.c: the header block --------------------------------- */

/* Lines of the header block: subject, patch, review, the author's
 * reach and pw-bot when known, the attribution and its trailers (h:
 * every trailer). */
size_t review_header_count(const struct review *rv);
/* Header line k (k < review_header_count()). */
void review_header_row(struct tui *t, const struct review *rv, size_t k, struct row *r);

#endif
