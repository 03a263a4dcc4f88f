/* winnow TUI — the statistics view's monthly trend: each bot's
 * false-positive rate month by month, a column a month (a level from
 * low to high; a dot for a month with reviews and nothing triaged),
 * then its last month's rate in words. */
#ifndef WINNOW_TUI_STATS_TREND_H
#define WINNOW_TUI_STATS_TREND_H

#include "winnow/stats.h"
#include "view.h"

/* Lines the trend of trend (counted by bot and month) takes: a heading
 * and a line a bot. */
int stats_trend_lines(const wn_stats *trend);
/* Draw it from line y (clipped above the status line); returns the
 * line after it. */
int stats_trend_draw(struct tui *t, const wn_stats *trend, int y);

#endif
