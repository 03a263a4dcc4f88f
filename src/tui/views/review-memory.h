/* winnow TUI — what the review view knows from other reviews (issue
 * 12): "seen before" (the verdict a similar finding was given, which =
 * takes), "patch 4/5 changes this function too" (which + opens at the
 * hunk) and "likely fixed in v2"; and the maintainer's own severity,
 * which ! sets.
 *
 * Looked up for the open review only, for each finding when the cursor
 * first reaches it, in slices between keys, and kept while the view is
 * open (again when its verdict changed), so that neither a queue of
 * 20,000 reviews nor a key ever waits on it. */
#ifndef WINNOW_TUI_REVIEW_MEMORY_H
#define WINNOW_TUI_REVIEW_MEMORY_H

#include <stdbool.h>
#include <stddef.h>

#include "view.h"

struct review_memory;

/* A line for the detail pane; the array ends with text NULL. */
struct memo_line {
	enum role role;
	char *text;
};

/* The next slice of looking finding i of it up (once; again after its
 * verdict or severity changed): the view's busy work, true while more is
 * left.  The first slice after the cursor moved does nothing, so that
 * the key is answered on screen first.  *mem is made on first use. */
bool review_memory_work(struct tui *t, struct review_memory **mem, wn_item *it, size_t i);
/* The lines for finding i, once made; NULL when none. */
const struct memo_line *review_memory_lines(const struct review_memory *mem, size_t i);
/* ACT_ACCEPT_SEEN, ACT_SERIES_PATCH or ACT_SEVERITY on finding i: true
 * when the cursor should move on to the next finding (a verdict was
 * given). */
bool review_memory_request(struct tui *t, struct review_memory **mem, wn_item *it, size_t i,
			   enum action a);
void review_memory_free(struct review_memory **mem);

#endif
