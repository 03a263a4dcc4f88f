/* winnow stats — how often each bot is right: the reviews counted into
 * groups (stats.h) in one pass that holds the groups only, then
 * printed as a table to paste into a mail (stats-text.c), or as one
 * record per group in JSON or CSV. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stats-text.h"
#include "walk.h"
#include "winnow/series.h"
#include "winnow/stats.h"

struct stats_args {
	const char *format;
	const char *by;
	wn_stats_key keys[WN_STATS_MAX_KEYS];
	size_t nkeys;
	int nwords;		/* the query, word by word */
	char **words;
};

static const wn_opt stats_opts[] = {
	{ .name = "format", .arg = "text|json|csv", .parse = wn_opt_string,
	  .offset = offsetof(struct stats_args, format),
	  .help = "output format (default text, a table to paste into a mail);\n"
		  "JSON and CSV give one record per group, see winnow(1)" },
	{ .name = "by", .arg = "KEY[,KEY]", .parse = wn_opt_string,
	  .offset = offsetof(struct stats_args, by),
	  .help = "group by one or two of: bot (default), severity, list,\n"
		  "author, attribution, model, month, maintainer-severity,\n"
		  "reason" },
	{ 0 },
};

static int stats_check(wn_cli *cli, void *args, int argc, char **argv)
{
	struct stats_args *a = args;
	wn_error err = WN_ERROR_INIT;
	int rc = 0;

	a->nwords = argc;
	a->words = argv;
	if (strcmp(a->format, "text") && strcmp(a->format, "json") && strcmp(a->format, "csv"))
		return wn_cli_usage_error(cli, "unknown format '%s' (text, json or csv)", a->format);
	if (wn_stats_keys_parse(a->by, a->keys, &a->nkeys, &err) != WN_OK)
		rc = wn_cli_usage_error(cli, "--by: %s", wn_error_msg(&err));
	wn_error_clear(&err);
	return rc;
}

/* The pass: the groups, and what the series says of each finding. */
struct pass {
	wn_stats *s;
	wn_series *series;
};

static int count_one(wn_cli *cli, wn_item *it, void *arg)
{
	struct pass *ps = arg;
	size_t n = it->review && !it->load_error ? it->review->nfindings : 0;
	unsigned *facts = calloc(n ? n : 1, sizeof(*facts));
	wn_later later;
	wn_fixed fixed;
	int rc = 0;

	if (!facts)
		return wn_cli_nomem(cli);
	for (size_t i = 0; i < n; i++) {
		if (wn_series_later(ps->series, it, i, &later, NULL) == WN_OK)
			facts[i] |= WN_STATS_LATER;
		if (wn_series_fixed(ps->series, it, i, &fixed, NULL) == WN_OK)
			facts[i] |= WN_STATS_FIXED;
		wn_later_clear(&later);
		wn_fixed_clear(&fixed);
	}
	if (wn_stats_add_facts(ps->s, it, 0, facts) != WN_OK)
		rc = wn_cli_nomem(cli);
	free(facts);
	return rc;
}

static void key_int(wn_printer *p, const char *key, unsigned long v)
{
	p->map_key(p, key);
	p->integer(p, (long long) v);
}

static void key_real(wn_printer *p, const char *key, bool has, double v)
{
	p->map_key(p, key);
	if (has)
		p->real(p, v);
	else
		p->null(p);
}

/* {"pre-existing": n, "other": n}: what the maintainer said of the
 * triaged findings the bot gave claim to. */
static void agreement_row(wn_printer *p, const char *key, const unsigned long said[2])
{
	p->map_key(p, key);
	p->begin_map(p);
	key_int(p, wn_verdict_name(WN_VERDICT_PREEXISTING), said[1]);
	key_int(p, "other", said[0]);
	p->end(p);
}

/* One group (g NULL: the total) as a record: its key values, the counts
 * under the verdict names, the rates (null without triaged findings). */
static void record(wn_printer *p, const wn_stats *s, const wn_stats_group *g,
		   const wn_stats_counts *c)
{
	wn_stats_rates r;

	wn_stats_rates_of(c, &r);
	p->begin_map(p);
	for (size_t k = 0; k < wn_stats_nkeys(s); k++) {
		p->map_key(p, wn_stats_key_name(wn_stats_key_at(s, k)));
		p->string(p, g ? g->value[k] : NULL);
	}
	/* The model is the key its spellings share: say which were seen,
	 * blank-separated (an Assisted-by model is one word). */
	for (size_t k = 0; k < wn_stats_nkeys(s); k++)
		if (wn_stats_key_at(s, k) == WN_STATS_BY_MODEL) {
			char *sp = g && g->value[k] ? wn_stats_spellings(g, " ", " ...") : NULL;

			p->map_key(p, "model_spellings");
			p->string(p, sp);
			free(sp);
		}
	p->map_key(p, "total");
	p->boolean(p, !g);
	key_int(p, "reviews", c->reviews);
	key_int(p, "findings", c->findings);
	for (unsigned v = 0; v < WN_VERDICT_COUNT; v++)
		key_int(p, wn_verdict_name((wn_verdict) v), c->verdicts[v]);
	key_int(p, "forwarded", c->forwarded);
	key_int(p, "later_patch", c->later_patch);
	key_int(p, "fixed_later", c->fixed_later);
	key_int(p, "regraded", c->regraded);
	key_int(p, "missed", c->missed);
	p->map_key(p, "false_positive_reasons");
	p->begin_map(p);
	for (unsigned k = 0; k < WN_REASON_COUNT; k++)
		key_int(p, k ? wn_reason_name((wn_reason) k) : "unstated", c->fp_reason[k]);
	p->end(p);
	key_int(p, "triaged", r.triaged);
	key_real(p, "false_positive_rate", r.has_rate, r.fp_rate);
	key_real(p, "false_positive_low", r.has_rate, r.fp_low);
	key_real(p, "false_positive_high", r.has_rate, r.fp_high);
	key_real(p, "preexisting_share", r.has_rate, r.pre_share);
	p->map_key(p, "agreement");
	p->begin_map(p);
	agreement_row(p, "bot_preexisting", c->agree[1]);
	agreement_row(p, "bot_new", c->agree[0]);
	p->end(p);
	p->end(p);
}

static void records(wn_printer *p, const wn_stats *s)
{
	p->begin_list(p);
	for (size_t i = 0; i < wn_stats_ngroups(s); i++)
		record(p, s, wn_stats_group_at(s, i), &wn_stats_group_at(s, i)->c);
	record(p, s, NULL, wn_stats_total(s));
	p->end(p);
}

static wn_printer *printer_for(const char *format)
{
	return strcmp(format, "csv") == 0 ? wn_printer_csv_new(stdout) : wn_printer_new(format, stdout);
}

static int stats_run(wn_cli *cli, void *args)
{
	const struct stats_args *a = args;
	char *query = wn_cli_join(a->nwords, a->words);
	wn_printer *p = query ? printer_for(a->format) : NULL;
	wn_stats *s = NULL;
	struct pass ps = { NULL, NULL };
	int rc;

	if (!p || wn_stats_new(a->keys, a->nkeys, 0, &s, NULL) != WN_OK ||
	    wn_series_new(cli->idx, &ps.series, NULL) != WN_OK) {
		rc = wn_cli_nomem(cli);
		goto out;
	}
	ps.s = s;
	rc = wn_walk(cli, query, count_one, &ps, NULL);
	if (rc)
		goto out;
	wn_stats_sort(s);
	if (wn_stats_unreadable(s))
		fprintf(stderr, "%s: %lu review%s could not be read and %s not counted\n", cli->prog,
			wn_stats_unreadable(s), wn_stats_unreadable(s) == 1 ? "" : "s",
			wn_stats_unreadable(s) == 1 ? "is" : "are");
	if (p->is_text)
		wn_stats_text(p, s, query);
	else
		records(p, s);
	rc = wn_walk_output(cli, stdout, rc);
out:
	wn_printer_free(&p);
	wn_series_free(&ps.series);
	wn_stats_free(&s);
	free(query);
	return rc;
}

const wn_cmd wn_cmd_stats = {
	.args = "[QUERY...]",
	.about = "Count the findings of the reviews matching winnow.query (and QUERY)\n"
		 "by verdict, in groups: how many are valid, false positives or\n"
		 "pre-existing, the false-positive rate with its 95% confidence\n"
		 "interval, and how often the bot's own pre-existing claim holds; and\n"
		 "how many findings a later patch of their series handles, how many\n"
		 "valid ones a later version fixed, and how many you graded otherwise\n"
		 "than the bot; the bugs it missed ('winnow missed') and why its false\n"
		 "positives were wrong ('winnow mark --reason').",
	.opts = stats_opts,
	WN_CMD_ARGS(struct stats_args, .format = "text", .by = "bot"),
	.check = stats_check,
	.run = stats_run,
};
