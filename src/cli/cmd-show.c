/* winnow show — one review: its patch, attribution and findings. */
#include "autoconfig.h"

#include <getopt.h>
#include <stdlib.h>

#include "cli.h"
#include "format.h"

static void help(void)
{
	puts("Usage: winnow show [--format=text|json] MESSAGE-ID\n"
	     "\n"
	     "Show one review: the patch it answers and that patch's trailers and\n"
	     "AI attribution, then every finding with its severity, location, the\n"
	     "bot's pre-existing claim, the verdict and the quoted code and comment.\n"
	     "MESSAGE-ID may be given as <id>, id or id:id.\n"
	     "\n"
	     "  --format=text|json  output format (default text)");
}

int wn_cmd_show(wn_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *fmt_name = "text";
	wn_error err = WN_ERROR_INIT;
	wn_item *it = NULL;
	wn_printer *p;
	int c, rc;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			fmt_name = optarg;
			break;
		case 'h':
			help();
			return 0;
		default:
			return wn_cli_usage_error(cli, "show", "unknown option");
		}
	}
	if (argc - optind != 1)
		return wn_cli_usage_error(cli, "show", "wants exactly one MESSAGE-ID");
	p = wn_printer_new(fmt_name, stdout);
	if (!p)
		return wn_cli_usage_error(cli, "show", "unknown format '%s' (text or json)", fmt_name);
	if ((rc = wn_cli_open(cli, 500, false)) != 0)
		goto out;
	if (wn_index_find(cli->idx, argv[optind], &it, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
		goto out;
	}
	wn_cli_overlay(cli, it);
	wn_print_review(p, it);
out:
	wn_printer_free(&p);
	wn_item_free(&it);
	wn_error_clear(&err);
	wn_cli_close(cli);
	return rc;
}
