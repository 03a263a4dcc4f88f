/* winnow — the charts of `winnow report`, drawn as SVG by
 * winnow itself: no script, no network, no library.  Every chart scales
 * to its container (a viewBox and width 100%), says in a <title> what it
 * shows, and puts its numbers in data- attributes beside the shapes, so
 * the page reads the same in a browser, a test and a terminal browser
 * (which shows the table beside it instead). */
#ifndef WINNOW_REPORT_SVG_H
#define WINNOW_REPORT_SVG_H

#include <stdbool.h>
#include <stdio.h>

/* A rate with its 95% interval, of k in n (a bot, a month, a severity):
 * the numbers wn_stats_rates_of() gives. */
typedef struct wn_rate_row {
	const char *label;
	bool has;		/* false: nothing triaged, no rate */
	double rate, low, high;
	unsigned long k, n;
} wn_rate_row;

typedef struct wn_count_row {
	const char *label;
	unsigned long count;
} wn_count_row;

/* Text into HTML or SVG, in content or an attribute's quotes:
 * sanitised (no control character, valid UTF-8), then & < > " '
 * escaped. */
void wn_html_put(FILE *out, const char *s);

/* standalone: an SVG file of its own (the XML declaration and the
 * namespace); else inline in HTML. */

/* One bar per row, its length the rate, whiskers from low to high, an
 * axis from 0 to 100%. */
void wn_svg_rates(FILE *out, const char *title, const wn_rate_row *rows, size_t n, bool standalone);
/* The rates of consecutive periods as a line, each point with its
 * interval as a vertical whisker. */
void wn_svg_trend(FILE *out, const char *title, const wn_rate_row *rows, size_t n, bool standalone);
/* One bar per row, its length the count against the largest. */
void wn_svg_counts(FILE *out, const char *title, const wn_count_row *rows, size_t n, bool standalone);

#endif
