/* winnow stats — how often each bot is right: the reviews counted into
 * groups (stats.h) in one pass that holds the groups only (stats-pass.c,
 * shared with winnow report), then printed as a table to paste into a
 * mail (stats-text.c), or as one record per group in JSON or CSV. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stats-pass.h"
#include "stats-text.h"
#include "walk.h"
#include "winnow/stats.h"

struct stats_args {
	const char *format;
	const char *by;
	wn_stats_key keys[WN_STATS_MAX_KEYS];
	size_t nkeys;
	int nwords;		/* the query, word by word */
	char **words;
};

/* clang-format off */
static const wn_opt stats_opts[] = {
	{ .name = "format", .arg = WN_FORMATS_ARG(WN_FORMATS_STATS), .parse = wn_opt_string,
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
/* clang-format on */

static int stats_check(wn_cli *cli, void *args, int argc, char **argv)
{
	struct stats_args *a = args;
	wn_error err = WN_ERROR_INIT;
	int rc = 0;

	a->nwords = argc;
	a->words = argv;
	if ((rc = WN_CLI_CHECK_FORMAT(cli, a->format, WN_FORMATS_STATS)) != 0)
		return rc;
	if (wn_stats_keys_parse(a->by, a->keys, &a->nkeys, &err) != WN_OK)
		rc = wn_cli_usage_error(cli, "--by: %s", wn_error_msg(&err));
	wn_error_clear(&err);
	return rc;
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
	int rc;

	if (!p || wn_stats_new(a->keys, a->nkeys, 0, &s, NULL) != WN_OK) {
		rc = wn_cli_nomem(cli);
		goto out;
	}
	rc = wn_stats_pass(cli, query, &s, 1, NULL);
	if (rc)
		goto out;
	if (wn_stats_unreadable(s))
		fprintf(stderr, "%s: %lu review%s could not be read and %s not counted\n", cli->prog,
			wn_stats_unreadable(s), wn_stats_unreadable(s) == 1 ? "" : "s",
			wn_stats_unreadable(s) == 1 ? "is" : "are");
	if (p->is_text)
		wn_stats_text(p, s, query);
	else
		wn_stats_records(p, s);
	rc = wn_walk_output(cli, stdout, rc);
out:
	wn_printer_free(&p);
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
