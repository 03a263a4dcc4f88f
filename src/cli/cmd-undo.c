/* winnow undo — revert the last verdicts, also those of earlier runs. */
#include "autoconfig.h"

#include <getopt.h>
#include <stdlib.h>

#include "cli.h"

static void help(void)
{
	puts("Usage: winnow undo [--timeout=SECONDS] [N]\n"
	     "\n"
	     "Revert the last N verdict changes (default 1), newest first, whether\n"
	     "made in the TUI or with 'winnow mark', in this run or an earlier one.\n"
	     "A change that marked every finding of a review counts once.");
}

int wn_cmd_undo(wn_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	wn_error err = WN_ERROR_INIT;
	int timeout_ms = 5000, c, rc;
	unsigned long n = 1;
	size_t undone = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (wn_cli_parse_timeout(optarg, &timeout_ms) < 0)
				return wn_cli_usage_error(cli, "undo", "--timeout wants seconds, not '%s'", optarg);
			break;
		case 'h':
			help();
			return 0;
		default:
			return wn_cli_usage_error(cli, "undo", "unknown option");
		}
	}
	if (argc - optind > 1)
		return wn_cli_usage_error(cli, "undo", "wants at most one number");
	if (argc - optind == 1) {
		char *end;
		n = strtoul(argv[optind], &end, 10);
		if (*end || n == 0 || argv[optind][0] == '-')
			return wn_cli_usage_error(cli, "undo", "N is a number from 1, not '%s'", argv[optind]);
	}
	if ((rc = wn_cli_open(cli, -1, true)) != 0)
		return rc;
	if (wn_store_undo(cli->store, n, &undone, NULL, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
		goto out;
	}
	if (undone == 0) {
		fprintf(stderr, "%s: nothing to undo\n", cli->prog);
		rc = 1;
		goto out;
	}
	printf("undid %zu change%s\n", undone, undone == 1 ? "" : "s");
	rc = wn_cli_flushed(cli, wn_store_flush(cli->store, timeout_ms, &err), &err);
out:
	wn_error_clear(&err);
	wn_cli_close(cli);
	return rc;
}
