/* winnow list — the reviews matching the query, findings counted. */
#include "autoconfig.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "format.h"

static void help(void)
{
	puts("Usage: winnow list [--format=text|json] [--limit=N] [QUERY...]\n"
	     "\n"
	     "List the reviews matching winnow.query (and QUERY, a notmuch query),\n"
	     "newest first, with their bot, the patch's AI attribution and the\n"
	     "findings counted by verdict.\n"
	     "\n"
	     "  --format=text|json  output format (default text); JSON is an array\n"
	     "                      of review objects, see winnow(1)\n"
	     "  --limit=N           at most N reviews");
}

/* Print review i of l and free it.  -1 when the index changed under the
 * list and the row is gone; else 0, or the exit code of a failure. */
static int list_one(wn_cli *cli, wn_list *l, size_t i, wn_printer *p)
{
	wn_error err = WN_ERROR_INIT;
	wn_item *it = wn_list_get(cli->idx, l, i);
	int rc = 0;

	if (!it) {
		fprintf(stderr, "%s: the index changed while listing; %zu of %zu reviews shown\n",
			cli->prog, i, l->n);
		return -1;
	}
	if (wn_index_load(cli->idx, it, &err) == WN_OK) {
		wn_cli_overlay(cli, it);
		wn_print_list_item(p, it);
	} else {
		rc = wn_cli_fail(cli, &err);
	}
	wn_list_release(l, i);
	wn_error_clear(&err);
	return rc;
}

int wn_cmd_list(wn_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "limit", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *fmt_name = "text";
	wn_error err = WN_ERROR_INIT;
	wn_list list = { 0 };
	wn_buf query = WN_BUF_INIT;
	long limit = -1;
	wn_printer *p;
	int c, rc = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			fmt_name = optarg;
			break;
		case 'l': {
			char *end;
			limit = strtol(optarg, &end, 10);
			if (*end || limit < 0)
				return wn_cli_usage_error(cli, "list", "--limit wants a number, not '%s'", optarg);
			break;
		}
		case 'h':
			help();
			return 0;
		default:
			return wn_cli_usage_error(cli, "list", "unknown option");
		}
	}
	p = wn_printer_new(fmt_name, stdout);
	if (!p)
		return wn_cli_usage_error(cli, "list", "unknown format '%s' (text or json)", fmt_name);
	for (int i = optind; i < argc; i++)
		if ((i > optind && wn_buf_putc(&query, ' ')) || wn_buf_puts(&query, argv[i]))
			goto nomem;
	if ((rc = wn_cli_open(cli, 500, false)) != 0)
		goto out;
	if (wn_index_query(cli->idx, wn_buf_str(&query), &list, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
		goto out;
	}
	/* Each review is printed and freed before the next is read, so
	 * memory stays flat however many match. */
	p->begin_list(p);
	for (size_t i = 0; i < list.n && (limit < 0 || (long) i < limit) && rc == 0; i++)
		rc = list_one(cli, &list, i, p);
	/* Closed on a failure too: what was printed stays valid JSON. */
	p->end(p);
	rc = rc < 0 ? 0 : rc;
	goto out;
nomem:
	fprintf(stderr, "%s: out of memory\n", cli->prog);
	rc = 2;
out:
	wn_printer_free(&p);
	wn_list_free(&list);
	wn_buf_free(&query);
	wn_error_clear(&err);
	wn_cli_close(cli);
	return rc;
}
