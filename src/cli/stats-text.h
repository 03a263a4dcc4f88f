/* winnow — `winnow stats` as text: tables to paste into a mail. */
#ifndef WINNOW_STATS_TEXT_H
#define WINNOW_STATS_TEXT_H

#include "printer.h"
#include "winnow/stats.h"

/* The counts of s (sorted) as aligned tables with a bar per group, and
 * a legend; query: what was counted ("" for winnow.query).  Bars and
 * punctuation are ASCII unless the locale's codeset is UTF-8. */
void wn_stats_text(wn_printer *p, const wn_stats *s, const char *query);

#endif
