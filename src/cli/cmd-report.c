/* winnow report — the statistics as one page people look at:
 * a self-contained HTML page (no script, no network, one inline style)
 * with, per bot, its findings, its false-positive rate with the 95%
 * interval as a bar with whiskers, the monthly trend as a line, its
 * false positives by reason, the rates by severity, how its
 * pre-existing claims held, and the bugs it missed; each chart has its
 * table beside it, so w3m and lynx read the same numbers, and the page
 * prints.  --format=svg gives one chart to paste elsewhere, --format=json
 * the records it is drawn from.
 *
 * Every number comes from the pass `winnow stats` makes (stats-pass.c)
 * and from wn_stats_rates_of(), printed in the JSON printer's form, so
 * the page and `stats --format=json` cannot disagree.  The library
 * counts; this file only draws. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "printer.h"
#include "report-svg.h"
#include "stats-pass.h"
#include "walk.h"
#include "winnow/stats.h"

/* The charts --format=svg draws.  X(enum suffix, name, what it shows) */
#define REPORT_CHARTS(X)                                                       \
	X(RATES,    "rates",    "every bot's false-positive rate with its interval") \
	X(TREND,    "trend",    "the monthly false-positive rate of one bot (--bot)") \
	X(REASONS,  "reasons",  "why one bot's false positives were wrong (--bot)")  \
	X(SEVERITY, "severity", "one bot's false-positive rate by severity (--bot)") \
	X(ERRORS,   "errors",   "every bot's false positives beside the bugs it missed")

enum chart {
#define X_(e, name, help) CHART_##e,
	REPORT_CHARTS(X_)
#undef X_
	CHART_COUNT
};

static const char *const chart_names[] = {
#define X_(e, name, help) name,
	REPORT_CHARTS(X_)
#undef X_
};

#define X_(e, name, help) "\n  " name ": " help
#define CHART_LINES REPORT_CHARTS(X_)

struct report_args {
	const char *format;
	const char *chart;
	const char *bot;
	enum chart which;
	wn_bot bot_id;
	int nwords;
	char **words;
};

/* clang-format off */
static const wn_opt report_opts[] = {
	{ .name = "format", .arg = WN_FORMATS_ARG(WN_FORMATS_REPORT), .parse = wn_opt_string,
	  .offset = offsetof(struct report_args, format),
	  .help = "a page (default), one chart (--chart), or the records drawn" },
	{ .name = "chart", .arg = "NAME", .parse = wn_opt_string,
	  .offset = offsetof(struct report_args, chart),
	  .help = "with --format=svg: which chart (default rates, see below)" },
	{ .name = "bot", .arg = "NAME", .parse = wn_opt_string,
	  .offset = offsetof(struct report_args, bot),
	  .help = "with --format=svg: the bot of a one-bot chart\n(its id or label, any case, as bot: in a query)" },
	{ 0 },
};
/* clang-format on */

/* "unknown chart 'x' (rates, trend, ...)": the names, not a second
 * pointer to --help (the usage error gives that). */
static int unknown_chart(wn_cli *cli, const char *chart)
{
	wn_buf b = WN_BUF_INIT;
	char *names;
	int rc;

	for (int c = 0; c < CHART_COUNT; c++)
		wn_buf_printf(&b, "%s%s", c ? ", " : "", chart_names[c]);
	names = wn_buf_steal(&b);	/* NULL if any append failed */
	rc = names ? wn_cli_usage_error(cli, "unknown chart '%s' (%s)", chart, names) : wn_cli_nomem(cli);
	free(names);
	return rc;
}

static int report_check(wn_cli *cli, void *args, int argc, char **argv)
{
	struct report_args *a = args;
	bool svg = !strcmp(a->format, "svg");
	int rc;

	a->nwords = argc;
	a->words = argv;
	if ((rc = WN_CLI_CHECK_FORMAT(cli, a->format, WN_FORMATS_REPORT)) != 0)
		return rc;
	if ((a->chart || a->bot) && !svg)
		return wn_cli_usage_error(cli, "--chart and --bot go with --format=svg");
	a->which = CHART_RATES;
	if (a->chart) {
		a->which = CHART_COUNT;
		for (int c = 0; c < CHART_COUNT; c++)
			if (!strcmp(a->chart, chart_names[c]))
				a->which = (enum chart) c;
		if (a->which == CHART_COUNT)
			return unknown_chart(cli, a->chart);
	}
	/* A bot as a query's bot:NAME takes it: its name or label, any case. */
	if (a->bot && !wn_bot_named(a->bot, strlen(a->bot), &a->bot_id)) {
		char *names = wn_bot_names_text("", ", ", true);
		rc = names ? wn_cli_usage_error(cli, "unknown bot '%s' (%s)", a->bot, names) :
			     wn_cli_nomem(cli);

		free(names);
		return rc;
	}
	if (svg && !a->bot && (a->which == CHART_TREND || a->which == CHART_REASONS ||
			       a->which == CHART_SEVERITY))
		return wn_cli_usage_error(cli, "--chart=%s wants --bot=NAME", chart_names[a->which]);
	return 0;
}

/* --- the numbers, from the pass ----------------------------------------- */

/* The three groupings the page draws, counted in one pass. */
enum { BY_BOT, BY_MONTH, BY_SEVERITY, NGROUPINGS };

struct report {
	wn_stats *s[NGROUPINGS];
	wn_stats_seen seen;
	const char *query;
};

static void rate_row(const char *label, const wn_stats_counts *c, wn_rate_row *out)
{
	wn_stats_rates r;

	wn_stats_rates_of(c, &r);
	*out = (wn_rate_row) { .label = label, .has = r.has_rate, .rate = r.fp_rate, .low = r.fp_low,
			       .high = r.fp_high, .k = c->verdicts[WN_VERDICT_FALSE_POSITIVE],
			       .n = r.triaged };
}

/* A bot's label from its JSON name (the group's value). */
static const char *bot_label(const char *name)
{
	wn_bot b;

	return name && wn_bot_from_name(name, &b) == WN_OK ? wn_bot_label(b) : name ? name : "none";
}

/* The groups of grouping s whose first value is bot's name, as rate
 * rows labelled by their second value (none: "none"); *n of them,
 * malloc'd. */
static wn_rate_row *rows_of(const wn_stats *s, const char *bot, size_t *n)
{
	wn_rate_row *v = calloc(wn_stats_ngroups(s) + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; v && i < wn_stats_ngroups(s); i++) {
		const wn_stats_group *g = wn_stats_group_at(s, i);

		if (g->value[0] && !strcmp(g->value[0], bot))
			rate_row(g->value[1] ? g->value[1] : "none", &g->c, &v[(*n)++]);
	}
	return v;
}

static void reason_rows(const wn_stats_counts *c, wn_count_row out[WN_REASON_COUNT])
{
	for (unsigned k = 1; k < WN_REASON_COUNT; k++)
		out[k - 1] = (wn_count_row) { wn_reason_name((wn_reason) k), c->fp_reason[k] };
	out[WN_REASON_COUNT - 1] = (wn_count_row) { "unstated", c->fp_reason[WN_REASON_NONE] };
}

/* --- HTML ------------------------------------------------------------------ */

static const char style[] =
	"body{font-family:sans-serif;color:#222;background:#fff;margin:0 auto;padding:1rem;"
	"max-width:64rem;line-height:1.4}\n"
	"h1{font-size:1.5rem}h2{font-size:1.25rem;border-bottom:1px solid #ccc}h3{font-size:1rem}\n"
	".pair{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}\n"
	".pair figure{flex:2 1 20rem;min-width:0;margin:0}\n"
	".pair .numbers{flex:1 1 14rem;min-width:0;overflow-x:auto}\n"
	"svg{display:block;width:100%;height:auto}\n"
	"table{border-collapse:collapse;font-size:.875rem}\n"
	"th,td{padding:.15rem .4rem;border-bottom:1px solid #ddd;text-align:right}\n"
	"th:first-child,td:first-child{text-align:left;white-space:nowrap}\n"
	"code{overflow-wrap:anywhere}\n"
	"@media print{body{max-width:none;padding:0}section{break-inside:avoid}"
	".pair{display:block}h2{break-after:avoid}}\n";

static void put_date(FILE *out, time_t t)
{
	char buf[16] = "";
	struct tm tm;

	if (t > 0 && gmtime_r(&t, &tm))
		strftime(buf, sizeof(buf), "%Y-%m-%d", &tm);
	fputs(*buf ? buf : "-", out);
}

static void cell_real(FILE *out, const char *cls, bool has, double v)
{
	char buf[32];

	wn_format_real(v, buf);
	if (has)
		fprintf(out, "<td class=\"%s\" data-value=\"%s\">%.0f%%</td>", cls, buf, v * 100);
	else
		fprintf(out, "<td class=\"%s\">-</td>", cls);
}

static void rate_table(FILE *out, const char *first, const wn_rate_row *rows, size_t n)
{
	fputs("<div class=\"numbers\"><table><thead><tr><th>", out);
	wn_html_put(out, first);
	fputs("</th><th>triaged</th><th>false pos.</th><th>rate</th><th>95% low</th>"
	      "<th>95% high</th></tr></thead><tbody>\n", out);
	for (size_t i = 0; i < n; i++) {
		fputs("<tr><td>", out);
		wn_html_put(out, rows[i].label);
		fprintf(out, "</td><td>%lu</td><td>%lu</td>", rows[i].n, rows[i].k);
		cell_real(out, "rate", rows[i].has, rows[i].rate);
		cell_real(out, "low", rows[i].has, rows[i].low);
		cell_real(out, "high", rows[i].has, rows[i].high);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table></div>\n", out);
}

static void count_table(FILE *out, const char *first, const char *what, const wn_count_row *rows,
			size_t n)
{
	fputs("<div class=\"numbers\"><table><thead><tr><th>", out);
	wn_html_put(out, first);
	fputs("</th><th>", out);
	wn_html_put(out, what);
	fputs("</th></tr></thead><tbody>\n", out);
	for (size_t i = 0; i < n; i++) {
		fputs("<tr><td>", out);
		wn_html_put(out, rows[i].label);
		fprintf(out, "</td><td>%lu</td></tr>\n", rows[i].count);
	}
	fputs("</tbody></table></div>\n", out);
}

/* A chart and its table side by side (one above the other when narrow). */
static void rate_pair(FILE *out, const char *title, const char *first, const wn_rate_row *rows,
		      size_t n, bool trend)
{
	fputs("<div class=\"pair\"><figure>", out);
	(trend ? wn_svg_trend : wn_svg_rates)(out, title, rows, n, false);
	fputs("</figure>\n", out);
	rate_table(out, first, rows, n);
	fputs("</div>\n", out);
}

static void count_pair(FILE *out, const char *title, const char *first, const char *what,
		       const wn_count_row *rows, size_t n)
{
	fputs("<div class=\"pair\"><figure>", out);
	wn_svg_counts(out, title, rows, n, false);
	fputs("</figure>\n", out);
	count_table(out, first, what, rows, n);
	fputs("</div>\n", out);
}

static void heading(FILE *out, int level, const char *text)
{
	fprintf(out, "<h%d>", level);
	wn_html_put(out, text);
	fprintf(out, "</h%d>\n", level);
}

/* The bot's pre-existing claims against the verdicts: a table. */
static void claims(FILE *out, const wn_stats_counts *c)
{
	static const char *const said[2] = { "new", "pre-existing" };

	heading(out, 3, "The bot's pre-existing claim against the verdict");
	fputs("<table class=\"claims\"><thead><tr><th>the bot said</th><th>you said pre-existing</th>"
	      "<th>you said otherwise</th></tr></thead><tbody>\n", out);
	for (int b = 1; b >= 0; b--)
		fprintf(out, "<tr><td>%s</td><td>%lu</td><td>%lu</td></tr>\n", said[b], c->agree[b][1],
			c->agree[b][0]);
	fputs("</tbody></table>\n", out);
}

/* The bugs the bot missed, each with its note (winnow missed): what a
 * count alone cannot say. */
static void misses(FILE *out, const struct report *r, const char *bot)
{
	bool any = false;

	for (size_t i = 0; i < r->seen.nmisses; i++) {
		const wn_stats_miss *m = &r->seen.misses[i];

		if (!bot || strcmp(wn_bot_name(m->bot), bot))
			continue;
		if (!any) {
			heading(out, 3, "The bugs it missed");
			fputs("<table class=\"missed\"><thead><tr><th>recorded</th><th>review of</th>"
			      "<th>what it missed</th></tr></thead><tbody>\n", out);
			any = true;
		}
		fputs("<tr><td>", out);
		wn_html_put(out, m->when);
		fputs("</td><td data-review=\"", out);
		wn_html_put(out, m->review);
		fputs("\">", out);
		wn_html_put(out, m->subject);
		fputs("</td><td>", out);
		wn_html_put(out, m->note);
		fputs("</td></tr>\n", out);
	}
	if (any)
		fputs("</tbody></table>\n", out);
}

static int bot_section(FILE *out, const struct report *r, const wn_stats_group *g)
{
	const char *bot = g->value[0];
	const char *label = bot_label(bot);
	wn_count_row reasons[WN_REASON_COUNT];
	wn_rate_row me, *months, *sevs;
	size_t nm = 0, ns = 0;

	rate_row(label, &g->c, &me);
	months = rows_of(r->s[BY_MONTH], bot, &nm);
	sevs = rows_of(r->s[BY_SEVERITY], bot, &ns);
	if (!months || !sevs) {
		free(months);
		free(sevs);
		return -1;
	}
	fputs("<section class=\"bot\" id=\"bot-", out);
	wn_html_put(out, bot);
	fputs("\" data-bot=\"", out);
	wn_html_put(out, bot);
	fprintf(out, "\" data-reviews=\"%lu\" data-findings=\"%lu\" data-triaged=\"%lu\" "
		"data-false-positives=\"%lu\" data-missed=\"%lu\"", g->c.reviews, g->c.findings, me.n,
		me.k, g->c.missed);
	if (me.has) {
		char buf[32];

		wn_format_real(me.rate, buf);
		fprintf(out, " data-fp-rate=\"%s\"", buf);
		wn_format_real(me.low, buf);
		fprintf(out, " data-fp-low=\"%s\"", buf);
		wn_format_real(me.high, buf);
		fprintf(out, " data-fp-high=\"%s\"", buf);
	}
	fputs(">\n", out);
	heading(out, 2, label);
	fprintf(out, "<p>%lu review%s, %lu finding%s, %lu triaged: %lu false positive%s; "
		"%lu bug%s it missed.</p>\n", g->c.reviews, g->c.reviews == 1 ? "" : "s", g->c.findings,
		g->c.findings == 1 ? "" : "s", me.n, me.k, me.k == 1 ? "" : "s", g->c.missed,
		g->c.missed == 1 ? "" : "s");
	rate_pair(out, "False-positive rate, 95% interval", "bot", &me, 1, false);

	heading(out, 3, "By month");
	rate_pair(out, "False-positive rate by month", "month", months, nm, true);

	heading(out, 3, "Why the false positives were wrong");
	reason_rows(&g->c, reasons);
	count_pair(out, "False positives by reason", "reason", "false positives", reasons,
		   WN_REASON_COUNT);

	heading(out, 3, "By severity");
	rate_pair(out, "False-positive rate by the bot's severity", "severity", sevs, ns, false);

	claims(out, &g->c);
	misses(out, r, bot);
	fputs("</section>\n", out);
	free(months);
	free(sevs);
	return 0;
}

/* Every bot's rate, and its false positives beside its misses (two
 * rows a bot, labelled in labels[]): n groups of s.  NULL members when
 * out of memory; bot_rows_free() frees them. */
struct bot_rows {
	wn_rate_row *rates;
	wn_count_row *errors;
	char **labels;
	size_t n;
};

static void bot_rows_free(struct bot_rows *r)
{
	for (size_t i = 0; r->labels && i < 2 * r->n; i++)
		free(r->labels[i]);
	free(r->labels);
	free(r->rates);
	free(r->errors);
}

static bool bot_rows(const wn_stats *s, struct bot_rows *r)
{
	r->n = wn_stats_ngroups(s);
	r->rates = calloc(r->n + 1, sizeof(*r->rates));
	r->errors = calloc(2 * r->n + 1, sizeof(*r->errors));
	r->labels = calloc(2 * r->n + 1, sizeof(*r->labels));
	if (!r->rates || !r->errors || !r->labels)
		return false;
	for (size_t i = 0; i < r->n; i++) {
		const wn_stats_group *g = wn_stats_group_at(s, i);
		const char *label = bot_label(g->value[0]);

		rate_row(label, &g->c, &r->rates[i]);
		if (!(r->labels[2 * i] = wn_strdupf("%s: FP", label)) ||
		    !(r->labels[2 * i + 1] = wn_strdupf("%s: missed", label)))
			return false;
		r->errors[2 * i] = (wn_count_row) { r->labels[2 * i],
						     g->c.verdicts[WN_VERDICT_FALSE_POSITIVE] };
		r->errors[2 * i + 1] = (wn_count_row) { r->labels[2 * i + 1], g->c.missed };
	}
	return true;
}

static int overview(FILE *out, const wn_stats *s)
{
	struct bot_rows r = { 0 };
	bool ok = bot_rows(s, &r);

	if (ok) {
		fputs("<section class=\"overview\">\n", out);
		heading(out, 2, "Every bot");
		rate_pair(out, "False-positive rate, 95% interval", "bot", r.rates, r.n, false);
		count_pair(out, "Both errors: false positives and missed bugs", "bot", "findings",
			   r.errors, 2 * r.n);
		fputs("</section>\n", out);
	}
	bot_rows_free(&r);
	return ok ? 0 : -1;
}

static int page(FILE *out, const struct report *r)
{
	const wn_stats *s = r->s[BY_BOT];
	const wn_stats_counts *t = wn_stats_total(s);

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>winnow report</title>\n<style>\n", out);
	fputs(style, out);
	fputs("</style>\n</head>\n<body>\n<header>\n<h1>How the review bots did</h1>\n<p class=\"query\">"
	      "Query: <code>", out);
	wn_html_put(out, *r->query ? r->query : "winnow.query (every review)");
	fputs("</code></p>\n<p class=\"range\">Reviews from <time class=\"first\">", out);
	put_date(out, r->seen.first);
	fputs("</time> to <time class=\"last\">", out);
	put_date(out, r->seen.last);
	fprintf(out, "</time>: %lu review%s, %lu finding%s.  Made by winnow " PACKAGE_VERSION
		"; a false positive's rate is of the findings triaged, with its 95%% Wilson score "
		"interval.</p>\n</header>\n<main>\n", t->reviews, t->reviews == 1 ? "" : "s",
		t->findings, t->findings == 1 ? "" : "s");
	if (overview(out, s))
		return -1;
	for (size_t i = 0; i < wn_stats_ngroups(s); i++)
		if (bot_section(out, r, wn_stats_group_at(s, i)))
			return -1;
	fputs("</main>\n</body>\n</html>\n", out);
	return 0;
}

/* --- one chart, and the records ------------------------------------------- */

static const wn_stats_group *bot_group(const wn_stats *s, const char *bot)
{
	for (size_t i = 0; i < wn_stats_ngroups(s); i++)
		if (wn_stats_group_at(s, i)->value[0] && !strcmp(wn_stats_group_at(s, i)->value[0], bot))
			return wn_stats_group_at(s, i);
	return NULL;
}

/* Every bot's: the rates, or both errors. */
static int every_bot_chart(wn_cli *cli, enum chart which, const struct report *r)
{
	struct bot_rows br = { 0 };
	bool ok = bot_rows(r->s[BY_BOT], &br);

	if (ok && which == CHART_RATES)
		wn_svg_rates(stdout, "False-positive rate, 95% interval", br.rates, br.n, true);
	else if (ok)
		wn_svg_counts(stdout, "Both errors: false positives and missed bugs", br.errors, 2 * br.n,
			      true);
	bot_rows_free(&br);
	return ok ? 0 : wn_cli_nomem(cli);
}

static int one_chart(wn_cli *cli, const struct report_args *a, const struct report *r)
{
	const char *bot = a->bot ? wn_bot_name(a->bot_id) : NULL;
	const wn_stats_group *g = bot ? bot_group(r->s[BY_BOT], bot) : NULL;
	wn_stats_counts none = { 0 };
	wn_count_row reasons[WN_REASON_COUNT];
	wn_rate_row *rows;
	size_t n = 0;

	if (bot && !g)
		fprintf(stderr, "%s: no review of %s matched; the chart is empty\n", cli->prog,
			wn_bot_label(a->bot_id));
	switch (a->which) {
	case CHART_TREND:
	case CHART_SEVERITY:
		rows = rows_of(r->s[a->which == CHART_TREND ? BY_MONTH : BY_SEVERITY], bot, &n);
		if (!rows)
			return wn_cli_nomem(cli);
		if (a->which == CHART_TREND)
			wn_svg_trend(stdout, "False-positive rate by month", rows, n, true);
		else
			wn_svg_rates(stdout, "False-positive rate by the bot's severity", rows, n, true);
		free(rows);
		return 0;
	case CHART_REASONS:
		reason_rows(g ? &g->c : &none, reasons);
		wn_svg_counts(stdout, "False positives by reason", reasons, WN_REASON_COUNT, true);
		return 0;
	default:
		return every_bot_chart(cli, a->which, r);
	}
}

static void date_field(wn_printer *p, const char *key, time_t t)
{
	char buf[16] = "";
	struct tm tm;

	p->map_key(p, key);
	if (t > 0 && gmtime_r(&t, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%d", &tm))
		p->string(p, buf);
	else
		p->null(p);
}

/* The records the page is drawn from: `stats --format=json` by bot, by
 * bot and month, by bot and severity. */
static int records(wn_cli *cli, const struct report_args *a, const struct report *r)
{
	static const char *const keys[NGROUPINGS] = { "bots", "months", "severities" };
	wn_printer *p = wn_printer_new("json", stdout);

	(void) a;
	if (!p)
		return wn_cli_nomem(cli);
	p->begin_map(p);
	p->map_key(p, "query");
	p->string(p, r->query);
	date_field(p, "first", r->seen.first);
	date_field(p, "last", r->seen.last);
	for (int k = 0; k < NGROUPINGS; k++) {
		p->map_key(p, keys[k]);
		wn_stats_records(p, r->s[k]);
	}
	p->map_key(p, "missed");
	p->begin_list(p);
	for (size_t i = 0; i < r->seen.nmisses; i++) {
		const wn_stats_miss *m = &r->seen.misses[i];

		p->begin_map(p);
		p->map_key(p, "bot");
		p->string(p, wn_bot_name(m->bot));
		p->map_key(p, "review");
		p->string(p, m->review);
		p->map_key(p, "subject");
		p->string(p, m->subject);
		p->map_key(p, "date");
		p->string(p, m->when);
		p->map_key(p, "note");
		p->string(p, m->note);
		p->end(p);
	}
	p->end(p);
	p->end(p);
	wn_printer_free(&p);
	return 0;
}

static int report_run(wn_cli *cli, void *args)
{
	const struct report_args *a = args;
	static const wn_stats_key keys[NGROUPINGS][2] = {
		{ WN_STATS_BY_BOT }, { WN_STATS_BY_BOT, WN_STATS_BY_MONTH },
		{ WN_STATS_BY_BOT, WN_STATS_BY_SEVERITY },
	};
	static const size_t nkeys[NGROUPINGS] = { 1, 2, 2 };
	struct report r = { .query = NULL };
	char *query = wn_cli_join(a->nwords, a->words);
	int rc = 0;

	for (int k = 0; k < NGROUPINGS && !rc; k++)
		if (wn_stats_new(keys[k], nkeys[k], 0, &r.s[k], NULL) != WN_OK)
			rc = wn_cli_nomem(cli);
	if (!query && !rc)
		rc = wn_cli_nomem(cli);
	r.query = query;
	if (!rc)
		rc = wn_stats_pass(cli, query, r.s, NGROUPINGS, &r.seen);
	if (!rc && wn_stats_unreadable(r.s[BY_BOT]))
		fprintf(stderr, "%s: %lu review%s could not be read and %s not counted\n", cli->prog,
			wn_stats_unreadable(r.s[BY_BOT]), wn_stats_unreadable(r.s[BY_BOT]) == 1 ? "" : "s",
			wn_stats_unreadable(r.s[BY_BOT]) == 1 ? "is" : "are");
	if (!rc) {
		if (!strcmp(a->format, "json"))
			rc = records(cli, a, &r);
		else if (!strcmp(a->format, "svg"))
			rc = one_chart(cli, a, &r);
		else if (page(stdout, &r))
			rc = wn_cli_nomem(cli);
		rc = wn_walk_output(cli, stdout, rc);
	}
	for (int k = 0; k < NGROUPINGS; k++)
		wn_stats_free(&r.s[k]);
	wn_stats_seen_clear(&r.seen);
	free(query);
	return rc;
}

const wn_cmd wn_cmd_report = {
	.args = "[QUERY...]",
	.about = "The statistics of the reviews matching winnow.query (and QUERY) as one\n"
		 "HTML page on standard output: per bot its findings, its false-positive\n"
		 "rate with the 95% interval as a bar with whiskers, the monthly trend as\n"
		 "a line, its false positives by reason, its rates by severity, how its\n"
		 "pre-existing claims held, and the bugs it missed; the query and the\n"
		 "reviews' dates on top.  The page needs no network and no script: the\n"
		 "charts are SVG drawn by winnow, each with its table beside it for a\n"
		 "terminal browser, and it prints.  The numbers are those of\n"
		 "'winnow stats --format=json'.\n"
		 "\n"
		 "--format=svg prints one chart as an SVG file; --chart names it:" CHART_LINES "\n"
		 "--format=json prints the records the page is drawn from.",
	.opts = report_opts,
	WN_CMD_ARGS(struct report_args, .format = "html"),
	.check = report_check,
	.run = report_run,
};
