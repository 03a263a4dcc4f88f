/* winnow undo — revert the last verdicts, also those of earlier runs. */
#include "autoconfig.h"

#include <stddef.h>
#include <stdlib.h>

#include "cli.h"

struct undo_args {
	int timeout_ms;
	unsigned long n;
	const char *id;
};

static const wn_opt undo_opts[] = {
	WN_OPT_TIMEOUT(struct undo_args, timeout_ms, "wait this long for the write lock (default 5)"),
	{ .name = "id", .arg = "ID", .parse = wn_opt_string, .offset = offsetof(struct undo_args, id),
	  .help = "undo this change of 'winnow history' instead of the newest" },
	{ 0 },
};

static int undo_check(wn_cli *cli, void *args, int argc, char **argv)
{
	struct undo_args *a = args;

	if (argc > 1)
		return wn_cli_usage_error(cli, "wants at most one number");
	if (argc == 1 && a->id)
		return wn_cli_usage_error(cli, "takes either N or --id, not both");
	if (argc == 1) {
		int r = wn_cli_count(argv[0], &a->n);
		if (r == -2)
			return wn_cli_usage_error(cli, "N '%s' is far too large", argv[0]);
		if (r < 0)
			return wn_cli_usage_error(cli, "N is a number from 1, not '%s'", argv[0]);
	}
	return 0;
}

static int undo_run(wn_cli *cli, void *args)
{
	const struct undo_args *a = args;
	wn_error err = WN_ERROR_INIT;
	size_t undone = 0;
	int rc;

	wn_history_item what = { 0 };
	wn_status st;

	if (a->id) {
		st = wn_store_undo_group(cli->store, a->id, &what, &err);
		undone = st == WN_OK;
		wn_history_item_clear(&what);
	} else {
		st = wn_store_undo(cli->store, a->n, &undone, NULL, &err);
	}
	if (st != WN_OK) {
		rc = wn_cli_fail(cli, &err);
	} else if (undone == 0) {
		fprintf(stderr, "%s: nothing to undo\n", cli->prog);
		rc = 1;
	} else {
		printf("undid %zu change%s\n", undone, undone == 1 ? "" : "s");
		rc = wn_cli_flushed(cli, wn_store_flush(cli->store, a->timeout_ms, &err), &err);
	}
	wn_error_clear(&err);
	return rc;
}

const wn_cmd wn_cmd_undo = {
	.args = "[N | --id=ID]",
	.about = "Revert the last N verdict changes (default 1), newest first, whether\n"
		 "made in the TUI or with 'winnow mark', in this run or an earlier one.\n"
		 "A change that marked every finding of a review counts once.",
	.opts = undo_opts,
	WN_CMD_ARGS(struct undo_args, .timeout_ms = 5000, .n = 1),
	.check = undo_check,
	.run = undo_run,
};
