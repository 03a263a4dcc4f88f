/* winnow list — the reviews matching the query, findings counted.
 *
 * Each review is read, printed and freed before the next, so memory
 * stays flat however many reviews match. */
#include "autoconfig.h"

#include <stdlib.h>

#include "cli.h"
#include "format.h"

struct list_args {
	const char *format;
	long limit;		/* -1: all */
	bool print_query;
	int nwords;		/* the query, word by word */
	char **words;
};

static const wn_opt list_opts[] = {
	WN_OPT_FORMAT(struct list_args, format,
		      "output format (default text); JSON is an array\nof review objects, see winnow(1)"),
	{ .name = "limit", .arg = "N", .parse = wn_opt_count,
	  .offset = offsetof(struct list_args, limit), .wants = "a number",
	  .help = "at most N reviews" },
	{ .name = "print-query", .parse = wn_opt_flag, .offset = offsetof(struct list_args, print_query),
	  .help = "print the notmuch query winnow runs (winnow.query\nand QUERY) instead of the reviews" },
	{ 0 },
};

static int list_check(wn_cli *cli, void *args, int argc, char **argv)
{
	struct list_args *a = args;

	a->nwords = argc;
	a->words = argv;
	return wn_cli_check_format(cli, a->format);
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

static int list_run(wn_cli *cli, void *args)
{
	const struct list_args *a = args;
	wn_error err = WN_ERROR_INIT;
	wn_list list = { 0 };
	char *query = wn_cli_join(a->nwords, a->words);
	wn_printer *p = query ? wn_printer_new(a->format, stdout) : NULL;
	int rc = 0;

	if (!p) {
		rc = wn_cli_nomem(cli);
	} else if (a->print_query) {
		/* For scripts that ask notmuch the same question (bench/). */
		char *q = wn_index_query_string(cli->idx, query, &err);
		if (q)
			puts(q);
		else
			rc = wn_cli_fail(cli, &err);
		free(q);
	} else if (wn_index_query(cli->idx, query, &list, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
	} else {
		list.lazy_rows = true;	/* each row is loaded before it is printed */
		p->begin_list(p);
		for (size_t i = 0; i < list.n && (a->limit < 0 || (long) i < a->limit) && rc == 0; i++)
			rc = list_one(cli, &list, i, p);
		/* Closed on a failure too: what was printed stays valid JSON. */
		p->end(p);
	}
	wn_printer_free(&p);
	wn_list_free(&list);
	free(query);
	wn_error_clear(&err);
	return rc < 0 ? 0 : rc;
}

const wn_cmd wn_cmd_list = {
	.args = "[QUERY...]",
	.about = "List the reviews matching winnow.query (and QUERY, a notmuch query),\n"
		 "newest first, with their bot, the patch's AI attribution and the\n"
		 "findings counted by verdict.",
	.opts = list_opts,
	WN_CMD_ARGS(struct list_args, .format = "text", .limit = -1),
	.check = list_check,
	.run = list_run,
};
