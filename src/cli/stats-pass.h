/* winnow — the one statistics pass of `winnow stats` and `winnow report`:
 * the same walk, the same facts of the series, the same
 * records, so the report's numbers are the ones stats prints. */
#ifndef WINNOW_STATS_PASS_H
#define WINNOW_STATS_PASS_H

#include <time.h>

#include "cli.h"
#include "printer.h"
#include "winnow/review.h"
#include "winnow/stats.h"

/* A bug a bot missed (winnow missed), as the report lists it. */
typedef struct wn_stats_miss {
	wn_bot bot;
	char *review;		/* the review's Message-ID */
	char *subject;		/* the patch's subject, else the review's */
	char *when;		/* as recorded */
	char *note;
} wn_stats_miss;

/* What the pass saw besides the counts: the reviews' date range, and
 * the misses recorded on them, in the walk's order. */
typedef struct wn_stats_seen {
	time_t first, last;	/* of the reviews counted; 0 when none */
	wn_stats_miss *misses;
	size_t nmisses;
} wn_stats_seen;

void wn_stats_seen_clear(wn_stats_seen *seen);

/* Count the reviews of query ("" for winnow.query) into each of the n
 * groupings s[] (made by the caller), each sorted afterwards; seen
 * (may be NULL) gets the date range.  0, or the exit code (reported). */
int wn_stats_pass(wn_cli *cli, const char *query, wn_stats **s, size_t n, wn_stats_seen *seen);

/* Every group of s, then the total, as a list of records. */
void wn_stats_records(wn_printer *p, const wn_stats *s);

#endif
