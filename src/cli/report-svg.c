/* winnow — the report's charts as SVG (report-svg.h).
 *
 * Lengths are in the viewBox's units; the chart is drawn at 100% of its
 * container, so a phone narrows it rather than overflowing.  Colours are
 * presentation attributes, not CSS, so a chart pasted elsewhere (an SVG
 * file of its own) looks the same. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "printer.h"
#include "report-svg.h"
#include "winnow/text.h"

#define W 640		/* the viewBox's width */
#define LABEL 130	/* the labels' column */
#define BAR 360		/* the bars' length at 100% */
#define ROW 30
#define TOP 34		/* the title's band */
#define INK "#222"
#define FP_FILL "#c0392b"
#define COUNT_FILL "#2c6e9b"
#define GRID "#ccc"

void wn_html_put(FILE *out, const char *s)
{
	char *clean = wn_text_sanitize(s ? s : "", 0);

	for (const char *p = clean ? clean : ""; *p; p++)
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*p, out);
		}
	free(clean);
}

static void real(FILE *out, double v)
{
	char buf[32];

	/* The JSON printer's own form, so the DOM's numbers are the ones
	 * `winnow stats --format=json` prints. */
	wn_format_real(v, buf);
	fputs(buf, out);
}

static void percent(FILE *out, double v)
{
	fprintf(out, "%.0f%%", v * 100);
}

static void begin(FILE *out, const char *title, const char *kind, double height, bool standalone)
{
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<svg%s class=\"chart %s\" viewBox=\"0 0 %d %.0f\" width=\"100%%\" "
		"preserveAspectRatio=\"xMinYMin meet\" role=\"img\" font-family=\"sans-serif\" "
		"font-size=\"13\">\n",
		standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "", kind, W, height);
	fputs("<title>", out);
	wn_html_put(out, title);
	fputs("</title>\n", out);
	fprintf(out, "<text x=\"0\" y=\"18\" font-weight=\"bold\" fill=\"" INK "\">");
	wn_html_put(out, title);
	fputs("</text>\n", out);
}

/* Vertical grid lines at 0, 25, 50, 75 and 100%, labelled below. */
static void axis(FILE *out, double y0, double y1)
{
	for (int q = 0; q <= 4; q++) {
		double x = LABEL + BAR * q / 4.0;

		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" GRID "\"/>\n",
			x, y0, x, y1);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"" INK "\">%d%%</text>\n",
			x, y1 + 14, q * 25);
	}
}

static void label(FILE *out, double y, const char *text)
{
	fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"" INK "\">", LABEL - 8, y);
	wn_html_put(out, text);
	fputs("</text>\n", out);
}

void wn_svg_rates(FILE *out, const char *title, const wn_rate_row *rows, size_t n, bool standalone)
{
	double h = TOP + ROW * (double) (n ? n : 1) + 24;

	begin(out, title, "rates", h, standalone);
	axis(out, TOP - 6, h - 24);
	for (size_t i = 0; i < n; i++) {
		const wn_rate_row *r = &rows[i];
		double y = TOP + ROW * (double) i, mid = y + ROW / 2.0;

		fputs("<g class=\"rate\" data-label=\"", out);
		wn_html_put(out, r->label);
		fprintf(out, "\" data-k=\"%lu\" data-n=\"%lu\"", r->k, r->n);
		if (r->has) {
			fputs(" data-rate=\"", out);
			real(out, r->rate);
			fputs("\" data-low=\"", out);
			real(out, r->low);
			fputs("\" data-high=\"", out);
			real(out, r->high);
			fputc('"', out);
		}
		fputs(">\n", out);
		label(out, mid + 4, r->label);
		if (!r->has) {
			fprintf(out, "<text x=\"%d\" y=\"%.1f\" fill=\"" INK "\">nothing triaged</text>\n",
				LABEL + 6, mid + 4);
			fputs("</g>\n", out);
			continue;
		}
		/* The bar, then the interval over it: a line with end caps. */
		fprintf(out, "<rect class=\"bar\" x=\"%d\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" "
			"fill=\"" FP_FILL "\" fill-opacity=\"0.75\"/>\n", LABEL, y + 7, BAR * r->rate, ROW - 14);
		fprintf(out, "<g class=\"whisker\" stroke=\"" INK "\" stroke-width=\"1.5\">"
			"<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/>"
			"<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/>"
			"<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/></g>\n",
			LABEL + BAR * r->low, mid, LABEL + BAR * r->high, mid,
			LABEL + BAR * r->low, mid - 6, LABEL + BAR * r->low, mid + 6,
			LABEL + BAR * r->high, mid - 6, LABEL + BAR * r->high, mid + 6);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" fill=\"" INK "\">", LABEL + BAR + 8, mid + 4);
		percent(out, r->rate);
		fputs(" (", out);
		percent(out, r->low);
		fputs("\u2013", out);
		percent(out, r->high);
		fprintf(out, ") of %lu</text>\n</g>\n", r->n);
	}
	fputs("</svg>\n", out);
}

void wn_svg_trend(FILE *out, const char *title, const wn_rate_row *rows, size_t n, bool standalone)
{
	const double x0 = 50, x1 = W - 20, y0 = TOP + 6, y1 = TOP + 160;
	double step = n > 1 ? (x1 - x0) / (double) (n - 1) : 0;
	bool pen = false, any = false;

	begin(out, title, "trend", y1 + 40, standalone);
	for (size_t i = 0; i < n; i++)
		any = any || rows[i].has;
	if (!any)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"" INK "\">"
			"nothing triaged</text>\n", (x0 + x1) / 2, (y0 + y1) / 2);
	for (int q = 0; q <= 4; q++) {
		double y = y1 - (y1 - y0) * q / 4.0;

		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" GRID "\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"" INK "\">%d%%</text>\n",
			x0, y, x1, y, x0 - 6, y + 4, q * 25);
	}
	/* The line joins the months that have a rate; a month without
	 * one breaks it. */
	fputs("<path class=\"line\" fill=\"none\" stroke=\"" FP_FILL "\" stroke-width=\"2\" d=\"", out);
	for (size_t i = 0; i < n; i++) {
		double x = n > 1 ? x0 + step * (double) i : (x0 + x1) / 2;

		if (!rows[i].has) {
			pen = false;
			continue;
		}
		fprintf(out, "%s%.1f %.1f ", pen ? "L" : "M", x, y1 - (y1 - y0) * rows[i].rate);
		pen = true;
	}
	fputs("\"/>\n", out);
	for (size_t i = 0; i < n; i++) {
		const wn_rate_row *r = &rows[i];
		double x = n > 1 ? x0 + step * (double) i : (x0 + x1) / 2;

		fputs("<g class=\"point\" data-label=\"", out);
		wn_html_put(out, r->label);
		fprintf(out, "\" data-k=\"%lu\" data-n=\"%lu\">", r->k, r->n);
		/* Not every month's name fits: the first, the last, and
		 * those far enough apart. */
		if (n <= 12 || i % ((n + 11) / 12) == 0 || i == n - 1) {
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" "
				"fill=\"" INK "\">", x, y1 + 16);
			wn_html_put(out, r->label);
			fputs("</text>", out);
		}
		if (r->has)
			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" INK "\"/>"
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"" FP_FILL "\"/>",
				x, y1 - (y1 - y0) * r->low, x, y1 - (y1 - y0) * r->high,
				x, y1 - (y1 - y0) * r->rate);
		fputs("</g>\n", out);
	}
	fputs("</svg>\n", out);
}

void wn_svg_counts(FILE *out, const char *title, const wn_count_row *rows, size_t n, bool standalone)
{
	unsigned long max = 0;
	double h = TOP + ROW * (double) (n ? n : 1) + 4;

	for (size_t i = 0; i < n; i++)
		if (rows[i].count > max)
			max = rows[i].count;
	begin(out, title, "counts", h, standalone);
	for (size_t i = 0; i < n; i++) {
		double y = TOP + ROW * (double) i, len = max ? BAR * (double) rows[i].count / (double) max : 0;

		fputs("<g class=\"count\" data-label=\"", out);
		wn_html_put(out, rows[i].label);
		fprintf(out, "\" data-count=\"%lu\">\n", rows[i].count);
		label(out, y + ROW / 2.0 + 4, rows[i].label);
		fprintf(out, "<rect class=\"bar\" x=\"%d\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" "
			"fill=\"" COUNT_FILL "\"/>\n", LABEL, y + 7, len, ROW - 14);
		fprintf(out, "<text x=\"%.2f\" y=\"%.1f\" fill=\"" INK "\">%lu</text>\n</g>\n",
			LABEL + len + 6, y + ROW / 2.0 + 4, rows[i].count);
	}
	fputs("</svg>\n", out);
}
