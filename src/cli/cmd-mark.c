/* winnow mark — give findings a verdict. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct mark_args {
	const char *note;	/* NULL: leave the note as it is */
	int timeout_ms;
	const char *id;
	unsigned long finding;	/* 1-based; 0: all */
	wn_verdict verdict;
	bool has_verdict;	/* STATE given (it may be left out with --severity) */
	const char *severity;	/* --severity: NULL, or a name or "none" */
	wn_severity sev;
};

static const wn_opt mark_opts[] = {
	{ .name = "note", .arg = "TEXT", .parse = wn_opt_string,
	  .offset = offsetof(struct mark_args, note),
	  .help = "attach a note to the finding ('' removes it)" },
	{ .name = "severity", .arg = "critical|high|medium|low|none", .parse = wn_opt_string,
	  .offset = offsetof(struct mark_args, severity),
	  .help = "your own severity of the finding, beside the bot's\n(none removes it); STATE may then be left out" },
	WN_OPT_TIMEOUT(struct mark_args, timeout_ms, "wait this long for the write lock (default 5)"),
	{ 0 },
};

/* --severity's word: the four a maintainer grades by, or none. */
static int severity_check(wn_cli *cli, struct mark_args *a)
{
	static const wn_severity ok[] = { WN_SEV_CRITICAL, WN_SEV_HIGH, WN_SEV_MEDIUM, WN_SEV_LOW };

	if (!a->severity)
		return 0;
	a->sev = WN_SEV_NONE;
	if (!strcmp(a->severity, "none"))
		return 0;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(a->severity, wn_severity_name(ok[i]))) {
			a->sev = ok[i];
			return 0;
		}
	return wn_cli_usage_error(cli, "unknown severity '%s' (critical, high, medium, low, none)", a->severity);
}

static int mark_check(wn_cli *cli, void *args, int argc, char **argv)
{
	struct mark_args *a = args;
	const char *which;

	if (argc != 3 && !(argc == 2 && a->severity))
		return wn_cli_usage_error(cli, "wants MESSAGE-ID FINDING STATE");
	if (severity_check(cli, a))
		return 1;
	a->id = argv[0];
	which = argv[1];
	a->has_verdict = argc == 3;
	if (a->note && !a->has_verdict)
		return wn_cli_usage_error(cli, "--note goes with a STATE");
	if (a->has_verdict && wn_verdict_from_name(argv[2], &a->verdict) != WN_OK)
		return wn_cli_usage_error(cli, "unknown state '%s' (valid, false-positive, pre-existing, untriaged)",
					  argv[2]);
	if (strcmp(which, "all") != 0) {
		int r = wn_cli_count(which, &a->finding);
		if (r == -2)
			return wn_cli_usage_error(cli, "FINDING '%s' is far too large", which);
		if (r < 0)
			return wn_cli_usage_error(cli, "FINDING is a number from 1 or 'all', not '%s'", which);
	}
	return 0;
}

static int mark_run(wn_cli *cli, void *args)
{
	const struct mark_args *a = args;
	wn_error err = WN_ERROR_INIT;
	wn_item *it = NULL;
	int rc;

	if (wn_index_find(cli->idx, a->id, &it, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
	} else {
		wn_cli_overlay(cli, it);
		if ((a->has_verdict &&
		     wn_store_mark(cli->store, it, a->finding, a->verdict, a->note, &err) != WN_OK) ||
		    (a->severity && wn_store_set_severity(cli->store, it, a->finding, a->sev, &err) != WN_OK))
			rc = wn_cli_fail(cli, &err);
		else
			rc = wn_cli_flushed(cli, wn_store_flush(cli->store, a->timeout_ms, &err), &err);
	}
	wn_item_free(&it);
	wn_error_clear(&err);
	return rc;
}

const wn_cmd wn_cmd_mark = {
	.args = "MESSAGE-ID FINDING STATE",
	.about = "Give a finding of a review a verdict.  FINDING is the 1-based index\n"
		 "shown by 'winnow show', or 'all'.  STATE is one of valid,\n"
		 "false-positive, pre-existing, untriaged.  --severity records your own\n"
		 "severity beside the bot's (with or without a STATE); it is undone\n"
		 "like a verdict and reported to the bot's operators by 'winnow\n"
		 "feedback'.\n"
		 "\n"
		 "The verdict is written to the journal first; then winnow waits up to\n"
		 "--timeout seconds (default 5) for the notmuch write lock.  If another\n"
		 "process holds it longer, winnow exits with status 2 and the verdict\n"
		 "stays in the journal; the next winnow command writes it.",
	.opts = mark_opts,
	WN_CMD_ARGS(struct mark_args, .timeout_ms = 5000),
	.check = mark_check,
	.run = mark_run,
};
