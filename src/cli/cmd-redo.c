/* winnow redo — give back what the last undo reverted. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "printer.h"

struct redo_args {
	const char *format;
	int timeout_ms;
};

static const wn_opt redo_opts[] = {
	WN_OPT_FORMAT(struct redo_args, format, "output format (default text)"),
	WN_OPT_TIMEOUT(struct redo_args, timeout_ms, "wait this long for the write lock (default 5)"),
	{ 0 },
};

static int redo_check(wn_cli *cli, void *args, int argc, char **argv)
{
	const struct redo_args *a = args;

	(void) argv;
	if (argc > 0)
		return wn_cli_usage_error(cli, "takes no arguments");
	return wn_cli_check_format(cli, a->format);
}

/* "finding 2 of <id>" changed since the undo: why nothing was redone. */
static void say_changed(wn_cli *cli, const wn_history_item *h)
{
	char *which = wn_cli_finding_name(cli, h->kept_review, h->kept_fp);
	char *id = wn_msgid_escape(h->kept_review), *msg = NULL;

	if (which && id && asprintf(&msg, "not redone: %s of <%s> was changed since the undo; "
				    "nothing written", which, id) >= 0)
		wn_cli_say(cli, "", msg);
	else
		wn_cli_say(cli, "", "not redone: a finding was changed since the undo");
	free(msg);
	free(id);
	free(which);
}

static void print_redo(wn_printer *p, const wn_history_item *h)
{
	p->begin_map(p);
	p->map_key(p, "id");
	p->string(p, h->group);
	p->map_key(p, "changes");
	p->label(p, "redid ");
	p->integer(p, (long long) h->actions);
	wn_pr_text(p, " change%s", h->actions == 1 ? "" : "s");
	p->map_key(p, "findings");
	p->label(p, " (");
	p->integer(p, (long long) h->reverted);
	wn_pr_text(p, " finding%s)", h->reverted == 1 ? "" : "s");
	p->map_key(p, "review");
	p->msgid(p, h->review);
	p->end(p);
	p->separator(p);
}

static int redo_run(wn_cli *cli, void *args)
{
	const struct redo_args *a = args;
	wn_error err = WN_ERROR_INIT;
	wn_history_item what = { 0 };
	wn_status st = wn_store_redo(cli->store, &what, &err);
	wn_printer *p;
	int rc;

	if (st == WN_USAGE && what.kept) {
		say_changed(cli, &what);
		rc = 1;
	} else if (st != WN_OK) {
		rc = wn_cli_fail(cli, &err);
	} else if (!(p = wn_printer_new(a->format, stdout))) {
		rc = wn_cli_nomem(cli);
	} else {
		print_redo(p, &what);
		wn_printer_free(&p);
		rc = wn_cli_flushed(cli, wn_store_flush(cli->store, a->timeout_ms, &err), &err);
	}
	wn_history_item_clear(&what);
	wn_error_clear(&err);
	return rc;
}

const wn_cmd wn_cmd_redo = {
	.about = "Give back what the last 'winnow undo' (or U in the interface)\n"
		 "reverted: every change of it, as one new change that 'winnow undo'\n"
		 "reverts again.  Run again, it gives back the undo before that one.\n"
		 "Refused (exit 1, nothing written) when a finding that undo reverted\n"
		 "was changed since, or when no undo is left to redo.",
	.opts = redo_opts,
	WN_CMD_ARGS(struct redo_args, .format = "text", .timeout_ms = 5000),
	.check = redo_check,
	.run = redo_run,
};
