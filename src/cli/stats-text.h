/* winnow — `winnow stats` as text: tables to paste into a mail. */
#ifndef WINNOW_STATS_TEXT_H
#define WINNOW_STATS_TEXT_H

#include "printer.h"
#include "winnow/stats.h"

/* The counts of s (sorted) as aligned tables with a bar per group, and
 * a legend; query: what was counted ("" for winnow.query).  Bars and
 * punctuation are ASCII unless the locale's codeset is UTF-8. */
void wn_stats_text(wn_printer *p, const wn_stats *s, const char *query);

/* The spellings of group g's model (wn_stats_group), each followed by
 * sep but the last, then more when there were more than it keeps.
 * malloc'd; "" for a group without spellings; NULL when out of memory.
 * Not sanitised: print it through the printer. */
char *wn_stats_spellings(const wn_stats_group *g, const char *sep, const char *more);

#endif
