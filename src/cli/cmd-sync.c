/* winnow sync-journal — write journaled verdicts into notmuch now. */
#include "autoconfig.h"

#include <getopt.h>

#include "cli.h"

static void help(void)
{
	puts("Usage: winnow sync-journal [--timeout=SECONDS]\n"
	     "\n"
	     "Write the verdicts that are in winnow's journal but not yet in the\n"
	     "notmuch database (the write lock was busy, or winnow was killed),\n"
	     "waiting up to --timeout seconds (default 30) for the lock.");
}

int wn_cmd_sync(wn_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	wn_error err = WN_ERROR_INIT;
	int timeout_ms = 30000, c, rc;
	size_t pending;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (wn_cli_parse_timeout(optarg, &timeout_ms) < 0)
				return wn_cli_usage_error(cli, "sync-journal", "--timeout wants seconds, not '%s'", optarg);
			break;
		case 'h':
			help();
			return 0;
		default:
			return wn_cli_usage_error(cli, "sync-journal", "unknown option");
		}
	}
	if (argc != optind)
		return wn_cli_usage_error(cli, "sync-journal", "takes no arguments");
	/* Open without replaying, so that the count below is ours. */
	if ((rc = wn_cli_open(cli, -1, true)) != 0)
		return rc;
	pending = wn_store_pending(cli->store);
	rc = wn_cli_flushed(cli, wn_store_flush(cli->store, timeout_ms, &err), &err);
	if (rc == 0)
		printf("%zu verdict%s written\n", pending, pending == 1 ? "" : "s");
	wn_error_clear(&err);
	wn_cli_close(cli);
	return rc;
}
