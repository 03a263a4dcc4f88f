/* winnow sync-journal — write journaled verdicts into notmuch now. */
#include "autoconfig.h"

#include "cli.h"

struct sync_args {
	int timeout_ms;
};

static const wn_opt sync_opts[] = {
	WN_OPT_TIMEOUT(struct sync_args, timeout_ms, "wait this long for the write lock (default 30)"),
	{ 0 },
};

static int sync_run(wn_cli *cli, void *args)
{
	const struct sync_args *a = args;
	wn_error err = WN_ERROR_INIT;
	/* main opened without replaying, so that the count is ours. */
	size_t pending = wn_store_pending(cli->store);
	int rc = wn_cli_flushed(cli, wn_store_flush(cli->store, a->timeout_ms, &err), &err);
	size_t left = wn_store_pending(cli->store);

	/* Not counted: changes set aside (the warning names them) and
	 * verdicts on reviews gone from the index. */
	pending -= left < pending ? left : pending;
	if (rc == 0)
		printf("%zu verdict%s written\n", pending, pending == 1 ? "" : "s");
	wn_error_clear(&err);
	return rc;
}

const wn_cmd wn_cmd_sync = {
	.about = "Write the verdicts that are in winnow's journal but not yet in the\n"
		 "notmuch database (the write lock was busy, or winnow was killed),\n"
		 "waiting up to --timeout seconds (default 30) for the lock.",
	.opts = sync_opts,
	WN_CMD_ARGS(struct sync_args, .timeout_ms = 30000),
	.run = sync_run,
};
