/* winnow mark — give findings a verdict. */
#include "autoconfig.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define DEFAULT_TIMEOUT_S 5

static void help(void)
{
	puts("Usage: winnow mark [--note=TEXT] [--timeout=SECONDS] MESSAGE-ID FINDING STATE\n"
	     "\n"
	     "Give a finding of a review a verdict.  FINDING is the 1-based index\n"
	     "shown by 'winnow show', or 'all'.  STATE is one of valid,\n"
	     "false-positive, pre-existing, untriaged.\n"
	     "\n"
	     "The verdict is written to the journal first; then winnow waits up to\n"
	     "--timeout seconds (default 5) for the notmuch write lock.  If another\n"
	     "process holds it longer, winnow exits with status 2 and the verdict\n"
	     "stays in the journal; the next winnow command writes it.\n"
	     "\n"
	     "  --note=TEXT          attach a note to the finding ('' removes it)\n"
	     "  --timeout=SECONDS    wait this long for the write lock");
}

int wn_cli_parse_timeout(const char *s, int *ms)
{
	char *end;
	double v = strtod(s, &end);

	/* Written so that NaN fails too. */
	if (end == s || *end || !(v >= 0 && v <= 86400))
		return -1;
	/* The writer needs a moment even when nobody holds the lock:
	 * shorter would only ever report "locked". */
	*ms = v < 0.2 ? 200 : (int) (v * 1000);
	return 0;
}

int wn_cli_flushed(wn_cli *cli, wn_status st, const wn_error *err)
{
	if (st == WN_OK)
		return 0;
	wn_cli_say(cli, "", wn_error_msg(err));
	if (st == WN_LOCKED || st == WN_DB)
		fprintf(stderr, "%s: the verdict is kept in the journal and written by the next "
			"winnow command, or run 'winnow sync-journal'\n", cli->prog);
	return 2;
}

int wn_cmd_mark(wn_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "note", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *note = NULL, *which;
	wn_error err = WN_ERROR_INIT;
	int timeout_ms = DEFAULT_TIMEOUT_S * 1000, c, rc;
	wn_item *it = NULL;
	unsigned long finding = 0;
	wn_verdict v;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			note = optarg;
			break;
		case 't':
			if (wn_cli_parse_timeout(optarg, &timeout_ms) < 0)
				return wn_cli_usage_error(cli, "mark", "--timeout wants seconds, not '%s'", optarg);
			break;
		case 'h':
			help();
			return 0;
		default:
			return wn_cli_usage_error(cli, "mark", "unknown option");
		}
	}
	if (argc - optind != 3)
		return wn_cli_usage_error(cli, "mark", "wants MESSAGE-ID FINDING STATE");
	which = argv[optind + 1];
	if (wn_verdict_from_name(argv[optind + 2], &v) != WN_OK)
		return wn_cli_usage_error(cli, "mark", "unknown state '%s' (valid, false-positive, pre-existing, untriaged)",
					  argv[optind + 2]);
	if (strcmp(which, "all") != 0) {
		char *end;
		finding = strtoul(which, &end, 10);
		if (*end || finding == 0 || which[0] == '-')
			return wn_cli_usage_error(cli, "mark", "FINDING is a number from 1 or 'all', not '%s'", which);
	}
	if ((rc = wn_cli_open(cli, -1, true)) != 0)
		return rc;
	if (wn_index_find(cli->idx, argv[optind], &it, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
		goto out;
	}
	wn_cli_overlay(cli, it);
	if (wn_store_mark(cli->store, it, finding, v, note, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
		goto out;
	}
	rc = wn_cli_flushed(cli, wn_store_flush(cli->store, timeout_ms, &err), &err);
out:
	wn_item_free(&it);
	wn_error_clear(&err);
	wn_cli_close(cli);
	return rc;
}
