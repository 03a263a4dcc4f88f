/* winnow undo — revert the last verdicts, also those of earlier runs. */
#include "autoconfig.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "printer.h"

struct undo_args {
	const char *format;
	int timeout_ms;
	unsigned long n;
	const char *id;
	bool yes;
};

static const wn_opt undo_opts[] = {
	WN_OPT_FORMAT(struct undo_args, format, "output format (default text)"),
	WN_OPT_TIMEOUT(struct undo_args, timeout_ms,
		       "wait this long for the write lock (default 5)"),
	{ .name = "id",
	  .arg = "ID",
	  .parse = wn_opt_string,
	  .offset = offsetof(struct undo_args, id),
	  .help = "undo this change of 'winnow history' instead of the newest" },
	{ .name = "yes",
	  .parse = wn_opt_flag,
	  .offset = offsetof(struct undo_args, yes),
	  .help = "undo more than winnow.undo_confirm changes without asking" },
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
	return wn_cli_check_format(cli, a->format);
}

/* An undo keeps every decision made since the action it reverts: say
 * which finding did, so that "undid" is never claimed for it. */
static void say_kept(wn_cli *cli, const wn_history_item *h)
{
	char *which, *id, *msg = NULL;
	const char *now;

	if (!h->kept)
		return;
	which = wn_cli_finding_name(cli, h->kept_review, h->kept_fp);
	id = wn_msgid_escape(h->kept_review);
	now = h->severity ? (wn_severity_name(h->kept_sev) ? wn_severity_name(h->kept_sev)
							   : "no severity")
			  : wn_verdict_name(h->kept_v);
	if (which && id && asprintf(&msg, "%s %s of <%s> was changed since (now %s)%s; that newer "
				    "decision is kept", h->reverted ? "not undone:" : "nothing undone:",
				    which, id, now, h->kept > 1 ? ", and so were more of its findings" : "") >= 0)
		wn_cli_say(cli, "", msg);
	else
		wn_cli_say(cli, "", "out of memory");
	free(msg);
	free(id);
	free(which);
}

/* "undid N changes"; JSON {undone, changes: [{id, changes, findings,
 * review}]}, one entry per action reverted, as redo prints one. */
static void print_undo(wn_printer *p, const wn_history_item *v, size_t n, size_t undone)
{
	p->begin_map(p);
	p->map_key(p, "undone");
	p->label(p, "undid ");
	p->integer(p, (long long) undone);
	wn_pr_text(p, " change%s", undone == 1 ? "" : "s");
	if (!p->is_text) {
		p->map_key(p, "changes");
		p->begin_list(p);
		for (size_t k = 0; k < n; k++) {
			if (!v[k].reverted)
				continue;
			p->begin_map(p);
			p->map_key(p, "id");
			p->string(p, v[k].group);
			p->map_key(p, "changes");
			p->integer(p, (long long) v[k].actions);
			p->map_key(p, "findings");
			p->integer(p, (long long) v[k].reverted);
			p->map_key(p, "review");
			p->msgid(p, v[k].review);
			p->end(p);
		}
		p->end(p);
	}
	p->end(p);
	p->separator(p);
}

/* More than winnow.undo_confirm changes are undone only when the user
 * says so: --yes, or y to the question in a terminal.  0 to go on, else
 * the exit code (1: refused or declined). */
static int confirm(wn_cli *cli, const struct undo_args *a)
{
	int most = wn_index_conf(cli->idx)->undo_confirm;
	wn_error err = WN_ERROR_INIT;
	size_t count = 0;
	char *line = NULL;
	size_t cap = 0;
	bool yes;

	if (a->yes || a->n <= (unsigned long) most)
		return 0;
	if (wn_store_undo_count(cli->store, a->n, &count, &err) != WN_OK) {
		int rc = wn_cli_fail(cli, &err);

		wn_error_clear(&err);
		return rc;
	}
	if (count <= (size_t) most)
		return 0;
	if (!isatty(STDIN_FILENO)) {
		fprintf(stderr, "%s undo: not undoing %zu changes without asking (more than "
			"winnow.undo_confirm, %d); --yes undoes them\n", cli->prog, count, most);
		return 1;
	}
	fprintf(stderr, "Undo the last %zu changes? [y/N] ", count);
	yes = getline(&line, &cap, stdin) > 0 && (line[strspn(line, " \t")] == 'y' ||
						   line[strspn(line, " \t")] == 'Y');
	free(line);
	if (!yes) {
		fprintf(stderr, "%s: nothing undone\n", cli->prog);
		return 1;
	}
	return 0;
}

static int undo_run(wn_cli *cli, void *args)
{
	const struct undo_args *a = args;
	wn_error err = WN_ERROR_INIT;
	wn_history_item *v = NULL;
	wn_printer *p;
	size_t undone = 0, n = 0;
	wn_status st;
	int rc;

	if ((rc = confirm(cli, a)) != 0)
		return rc;
	/* The last N are one action, newest first (or the one --id names);
	 * one whose findings were all changed since journals nothing and
	 * is said, not counted. */
	if (a->id) {
		n = 1;
		if (!(v = calloc(1, sizeof(*v))))
			return wn_cli_nomem(cli);
		st = wn_store_undo_group(cli->store, a->id, v, &err);
	} else {
		st = wn_store_undo_many(cli->store, a->n, &v, &n, &err);
	}
	for (size_t k = 0; st == WN_OK && k < n; k++) {
		say_kept(cli, &v[k]);
		undone += v[k].reverted > 0;
	}
	if (st != WN_OK && !(st == WN_NOT_FOUND && !a->id)) {
		rc = wn_cli_fail(cli, &err);
	} else if (undone == 0) {
		if (st == WN_NOT_FOUND)
			fprintf(stderr, "%s: nothing to undo\n", cli->prog);
		rc = 1;
	} else if (!(p = wn_printer_new(a->format, stdout))) {
		rc = wn_cli_nomem(cli);
	} else {
		print_undo(p, v, n, undone);
		wn_printer_free(&p);
		rc = wn_cli_flushed(cli, wn_store_flush(cli->store, a->timeout_ms, &err), &err);
	}
	wn_history_free(&v, n);
	wn_error_clear(&err);
	return rc;
}

const wn_cmd wn_cmd_undo = {
	.args = "[N]",
	.about = "Revert the last N verdict changes (default 1), newest first, whether\n"
		 "made in the TUI or with 'winnow mark', in this run or an earlier one.\n"
		 "A change that marked every finding of a review counts once.  A finding\n"
		 "changed again since (by a later change, or by another program) keeps\n"
		 "that newer decision, and winnow says so; a change whose findings all\n"
		 "were changed since is not undone and nothing is written.\n"
		 "More than winnow.undo_confirm changes (default 5) are undone only\n"
		 "after a yes in a terminal, or with --yes; elsewhere undo refuses\n"
		 "(exit 1).  The N changes are undone as one: 'winnow redo' brings all\n"
		 "of them back.",
	.opts = undo_opts,
	WN_CMD_ARGS(struct undo_args, .format = "text", .timeout_ms = 5000, .n = 1),
	.check = undo_check,
	.run = undo_run,
};
