/* winnow TUI — the statistics view's trend: each bot's false-positive
 * rate month by month, one column a month (stats-trend.h). */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "stats-trend.h"

/* The distinct months of the trend, oldest first (malloc'd pointers
 * into the stats). */
static const char **months_of(const wn_stats *trend, size_t *n)
{
	const char **m = calloc(wn_stats_ngroups(trend) + 1, sizeof(*m));

	*n = 0;
	for (size_t i = 0; m && i < wn_stats_ngroups(trend); i++) {
		const char *x = wn_stats_group_at(trend, i)->value[1];
		size_t j = 0;

		if (!x)
			continue;
		while (j < *n && strcmp(m[j], x) < 0)
			j++;
		if (j < *n && strcmp(m[j], x) == 0)
			continue;
		memmove(m + j + 1, m + j, (*n - j) * sizeof(*m));
		m[j] = x;
		(*n)++;
	}
	return m;
}

static const wn_stats_group *trend_cell(const wn_stats *trend, const char *bot, const char *month)
{
	for (size_t i = 0; i < wn_stats_ngroups(trend); i++) {
		const wn_stats_group *g = wn_stats_group_at(trend, i);

		if (g->value[1] && strcmp(g->value[0], bot) == 0 && strcmp(g->value[1], month) == 0)
			return g;
	}
	return NULL;
}

/* One column of a bot's trend: a level for the month's false-positive
 * rate, a dot for a month with reviews but nothing triaged. */
static const char *level(const wn_stats_group *g)
{
	static const char *const utf8[] = {
		"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
	};
	static const char *const ascii[] = { "_", ".", ":", "-", "=", "+", "*", "#" };
	wn_stats_rates r;
	int k;

	if (!g)
		return " ";
	wn_stats_rates_of(&g->c, &r);
	if (!r.has_rate)
		return display_utf8() ? "\u00b7" : ".";
	k = (int) (r.fp_rate * 8);
	if (k > 7)
		k = 7;
	return display_utf8() ? utf8[k] : ascii[k];
}

/* "Sashiko  ▁▃█  50% in 2026-11 (3 of 6)": the last month with a rate. */
static void trend_line(struct tui *t, int y, const wn_stats *trend, const char *bot,
		       const char **months, size_t first, size_t n)
{
	struct row r = { .n = 0 };
	wn_buf line = WN_BUF_INIT;
	const wn_stats_group *last = NULL;
	wn_stats_rates rate;
	wn_bot b;

	row_add(&r, ROLE_BOT, 10, wn_bot_from_name(bot, &b) == WN_OK ? wn_bot_label(b) : bot);
	for (size_t m = first; m < n; m++) {
		const wn_stats_group *g = trend_cell(trend, bot, months[m]);

		wn_buf_puts(&line, level(g));
		if (g && (wn_stats_rates_of(&g->c, &rate), rate.has_rate))
			last = g;
	}
	/* A trend cut short would read as months without mail. */
	row_add(&r, ROLE_TREND, (int) (n - first), wn_buf_failed(&line) ? "" : wn_buf_str(&line))->pad = 2;
	if (last) {
		wn_stats_rates_of(&last->c, &rate);
		row_addf(&r, ROLE_DEFAULT, CELL_NATURAL, "%.0f%% in %s (%lu of %lu)", rate.fp_rate * 100,
			 last->value[1], last->c.verdicts[WN_VERDICT_FALSE_POSITIVE], rate.triaged);
	} else {
		row_add(&r, ROLE_DEFAULT, CELL_NATURAL, "nothing triaged yet")->extra = TA_DIM;
	}
	view_draw_row(t, y, &r, false);
	wn_buf_free(&line);
}

int stats_trend_lines(const wn_stats *trend)
{
	int bots = 0;

	for (size_t i = 0; i < wn_stats_ngroups(trend); i++)
		if (i == 0 || strcmp(wn_stats_group_at(trend, i)->value[0],
				     wn_stats_group_at(trend, i - 1)->value[0]))
			bots++;
	return 1 + bots;
}

int stats_trend_draw(struct tui *t, const wn_stats *trend, int y)
{
	int room = COLS - 10 - 2 - 28;
	size_t n, first = 0;
	const char **months = months_of(trend, &n);
	struct row head = { .n = 0 };

	if (!months || y >= LINES - 1)
		goto out;
	/* The newest months when not all fit. */
	if (room < 1)
		room = 1;
	if (n > (size_t) room)
		first = n - (size_t) room;
	row_add(&head, ROLE_HEADER, CELL_NATURAL, "False-positive rate by month");
	if (n > first + 1)
		row_addf(&head, ROLE_HEADER, CELL_NATURAL, "(%s to %s)", months[first], months[n - 1]);
	else if (n)
		row_addf(&head, ROLE_HEADER, CELL_NATURAL, "(%s)", months[first]);
	view_draw_row(t, y++, &head, false);
	for (size_t i = 0; i < wn_stats_ngroups(trend) && y < LINES - 1; i++) {
		const char *bot = wn_stats_group_at(trend, i)->value[0];

		if (i && strcmp(bot, wn_stats_group_at(trend, i - 1)->value[0]) == 0)
			continue;
		trend_line(t, y++, trend, bot, months, first, n);
	}
out:
	free(months);
	return y;
}
