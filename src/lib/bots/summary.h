/* winnow — the "found N potential issue(s)" summary (summary.c) that
 * Sashiko writes, and netdev reviews made with it. */
#ifndef WINNOW_BOTS_SUMMARY_H
#define WINNOW_BOTS_SUMMARY_H

#include <stdint.h>

#include "inline.h"

struct rv_entry {
	wn_severity sev;
	bool preexisting;
	wn_buf text;
};

struct rv_summary {
	bool found;
	int declared;
	size_t line;			/* index of the "found N" line */
	size_t end;			/* first line after the summary */
	struct rv_entry *v;
	size_t n, cap;
};

/* v[0..n) in ascending order; t holds n / 2 values as scratch. */
void wn_rv_sort_u32(uint32_t *v, uint32_t *t, size_t n);

/* Look for the summary in [from, to) before the first quoted line. */
void wn_rv_summary_parse(struct rv_ctx *c, const struct rv_lines *L, size_t from, size_t to,
			 struct rv_summary *out);
void wn_rv_summary_free(struct rv_summary *s);
/* One finding per entry; blocks attach to entries by severity and word
 * overlap and lend them their location.  Pairings that cross two
 * entries are exchanged when that fits the words better; a finding
 * whose comment could as well be another entry's (or was given out by
 * order alone) has pairing_unsure.  Each of an entry's blocks is a
 * site of its finding; an entry no block's tag allows shares the block
 * with the most of its words.  The blocks stay the caller's to free. */
void wn_rv_summary_attach(struct rv_ctx *c, struct rv_summary *s, struct rv_blocks *b);
/* The same for paragraphs of prose in their order (free-form.c): an
 * entry's best paragraph opens its text, the ones after it continue it
 * until another entry's opens. */
void wn_rv_summary_attach_prose(struct rv_ctx *c, struct rv_summary *s, struct rv_blocks *b);

#endif
