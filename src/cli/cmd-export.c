/* winnow export — every finding of the reviews matching the query, with
 * its review, patch, attribution, location, severity, the bot's
 * pre-existing claim and the maintainer's verdict, note and forwarding:
 * as JSON or CSV records (one walk serves both), or as SARIF 2.1.0
 * (sarif.c).  Printed as the reviews are read: memory stays flat. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "record.h"
#include "sarif.h"
#include "walk.h"

struct export_args {
	const char *format;
	int nwords;		/* the query, word by word */
	char **words;
};

/* clang-format off */
static const wn_opt export_opts[] = {
	{ .name = "format", .arg = WN_FORMATS_ARG(WN_FORMATS_EXPORT), .parse = wn_opt_string,
	  .offset = offsetof(struct export_args, format),
	  .help = "output format (default json): one record per finding in JSON\n"
		  "or CSV, or a SARIF 2.1.0 log with one run per bot; see winnow(1)" },
	{ 0 },
};
/* clang-format on */

static int export_check(wn_cli *cli, void *args, int argc, char **argv)
{
	struct export_args *a = args;

	a->nwords = argc;
	a->words = argv;
	return WN_CLI_CHECK_FORMAT(cli, a->format, WN_FORMATS_EXPORT);
}

struct export_ctx {
	wn_printer *p;		/* JSON or CSV records */
	wn_sarif *sarif;	/* or SARIF */
};

static int export_one(wn_cli *cli, wn_item *it, void *arg)
{
	struct export_ctx *x = arg;
	wn_error err = WN_ERROR_INIT;
	int rc = 0;

	/* A review that cannot be read has no findings to export; the
	 * walk counts it and the user is told. */
	if (it->load_error)
		return 0;
	if (x->sarif) {
		if (wn_sarif_add(x->sarif, it, &err) != WN_OK)
			rc = wn_cli_fail(cli, &err);
		wn_error_clear(&err);
		return rc;
	}
	for (size_t i = 0; i < it->review->nfindings; i++)
		wn_print_finding_record(x->p, it, i);
	return 0;
}

static int export_run(wn_cli *cli, void *args)
{
	const struct export_args *a = args;
	struct export_ctx x = { NULL, NULL };
	char *query = wn_cli_join(a->nwords, a->words);
	unsigned long unreadable = 0;
	wn_error err = WN_ERROR_INIT;
	int rc;

	if (query)
		x.p = strcmp(a->format, "csv") == 0 ? wn_printer_csv_new(stdout)
						    : wn_printer_json_new(stdout);
	if (!x.p || (strcmp(a->format, "sarif") == 0 && wn_sarif_new(&x.sarif, &err) != WN_OK)) {
		rc = x.p ? wn_cli_fail(cli, &err) : wn_cli_nomem(cli);
		goto out;
	}
	if (!x.sarif)
		x.p->begin_list(x.p);
	rc = wn_walk(cli, query, export_one, &x, &unreadable);
	/* Closed on a failure too: what was printed stays valid JSON. */
	if (x.sarif && rc == 0 && wn_sarif_write(x.sarif, x.p, &err) != WN_OK)
		rc = wn_cli_fail(cli, &err);
	else if (!x.sarif)
		x.p->end(x.p);
	if (unreadable)
		fprintf(stderr, "%s: %lu review%s could not be read and %s not exported\n", cli->prog,
			unreadable, unreadable == 1 ? "" : "s", unreadable == 1 ? "is" : "are");
	rc = wn_walk_output(cli, stdout, rc);
out:
	wn_sarif_free(&x.sarif);
	wn_printer_free(&x.p);
	wn_error_clear(&err);
	free(query);
	return rc;
}

const wn_cmd wn_cmd_export = {
	.args = "[QUERY...]",
	.about = "Print every finding of the reviews matching winnow.query (and QUERY)\n"
		 "with its review, patch, author, attribution, location, severity,\n"
		 "the bot's pre-existing claim, and your verdict, note and forwarding.",
	.opts = export_opts,
	WN_CMD_ARGS(struct export_args, .format = "json"),
	.check = export_check,
	.run = export_run,
};
