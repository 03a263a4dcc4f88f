/* winnow — verdict memory: a finding judged before, found again.
 *
 * A series comes back as v2 and v3 with the same findings; the same
 * false positive shows up on every patch touching a file.  For a
 * finding, wn_memory_lookup() finds the most similar finding (similar.h)
 * that already has a verdict, in any other review: what the review view
 * shows as "seen before" and `winnow carry` applies.
 *
 * It never scans every verdict: the reviews worth reading are asked of
 * notmuch, those tagged with a verdict (winnow/valid, winnow/false-
 * positive, winnow/pre-existing) whose text holds the finding's
 * function (else its file's name, else its patch's title; for a finding
 * with none of these, those holding its fingerprint's verdict
 * property), and for the patch route (similar.h) those whose subject
 * holds its patch's title; at most WN_MEMORY_CANDIDATES of them per
 * query, newest first.  Each
 * query is asked once and each review read is kept (its judged
 * findings, by place), so a pass over many findings asks notmuch once
 * per function and reads each review once. */
#ifndef WINNOW_MEMORY_H
#define WINNOW_MEMORY_H

#include <stddef.h>
#include <time.h>

#include "winnow/index.h"
#include "winnow/status.h"
#include "winnow/store.h"

/* Reviews read per query at most. */
#define WN_MEMORY_CANDIDATES 200

/* A finding judged before. */
typedef struct wn_seen {
	char *review;		/* the review's Message-ID */
	size_t finding;		/* 1-based, in that review */
	char fingerprint[WN_FP_LEN + 1];
	wn_bot bot;
	wn_verdict verdict;
	char *note;		/* its note; NULL when none */
	wn_reason reason;	/* why it was given; WN_REASON_NONE */
	char *patch_subject;	/* its patch's subject (the review's when the
				 * patch is not in the index) */
	time_t date;		/* the review's date */
	char *summary;
	double score;		/* similarity (wn_sim_judge): the words' Jaccard
				 * index, plus WN_SIM_QUOTE_WEIGHT for the same
				 * code; or by the patch route, the summaries' and
				 * comments' indexes plus WN_SIM_ANCHOR_WEIGHT;
				 * at most 1 */
	unsigned signals;	/* WN_SIM_PLACE, WN_SIM_WORDS, WN_SIM_QUOTE,
				 * WN_SIM_PATCH, WN_SIM_NAME, WN_SIM_TEXT */
	const char *why;	/* wn_sim_why(): which signals matched (static) */
	/* Sure: `winnow carry` applies it and = takes it.  Not sure: a
	 * suggestion, shown, taken only when the maintainer chooses it.
	 * Sure is an identical finding (wn_sim_identical), or the same
	 * patch in another version whose pairing beats every other by
	 * WN_SIM_MARGIN both ways (similar.h). */
	bool sure;
	/* When another judged finding is as like (within WN_SIM_MARGIN)
	 * and would give another verdict, or is another finding of the
	 * same review: that one, for the maintainer to pick between (and
	 * the match is never sure).  alt_review NULL when none. */
	char *alt_review;
	size_t alt_finding;
	wn_verdict alt_verdict;
	char *alt_summary;
} wn_seen;

void wn_seen_clear(wn_seen *s);

typedef struct wn_memory wn_memory;

/* A memory over idx (which must outlive it); store (may be NULL) lays
 * journaled verdicts over what notmuch holds. */
wn_status wn_memory_new(wn_index *idx, const wn_store *store, wn_memory **out, wn_error *err);
void wn_memory_free(wn_memory **m);

/* The finding judged before that is most like finding i (0-based) of a
 * loaded review: an identical one (wn_sim_identical) first, then one of
 * the patch's other versions by the patch route's score, then the
 * highest score, then the newest review.  Findings
 * of the review itself do not count.  WN_NOT_FOUND when there is none. */
wn_status wn_memory_lookup(wn_memory *m, const wn_item *it, size_t i, wn_seen *out,
			   wn_error *err);

#endif
