/* winnow — the one statistics pass of `winnow stats` and `winnow report`
 * (issue 26): the same walk, the same facts of the series, the same
 * records, so the report's numbers are the ones stats prints. */
#ifndef WINNOW_STATS_PASS_H
#define WINNOW_STATS_PASS_H

#include <time.h>

#include "cli.h"
#include "printer.h"
#include "winnow/stats.h"

/* What the pass saw besides the counts: the reviews' date range. */
typedef struct wn_stats_seen {
	time_t first, last;	/* of the reviews counted; 0 when none */
} wn_stats_seen;

/* Count the reviews of query ("" for winnow.query) into each of the n
 * groupings s[] (made by the caller), each sorted afterwards; seen
 * (may be NULL) gets the date range.  0, or the exit code (reported). */
int wn_stats_pass(wn_cli *cli, const char *query, wn_stats **s, size_t n, wn_stats_seen *seen);

/* One group (g NULL: the total) as `stats --format=json` prints it. */
void wn_stats_record(wn_printer *p, const wn_stats *s, const wn_stats_group *g,
		     const wn_stats_counts *c);
/* Every group of s, then the total, as a list of records. */
void wn_stats_records(wn_printer *p, const wn_stats *s);

#endif
