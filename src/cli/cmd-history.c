/* winnow history — the journal's actions, newest first, as undo sees
 * them. */
#include "autoconfig.h"

#include <time.h>

#include "cli.h"
#include "printer.h"

struct history_args {
	const char *format;
	long limit;
};

static const wn_opt history_opts[] = {
	WN_OPT_FORMAT(struct history_args, format, "output format (default text)"),
	{ .name = "limit", .arg = "N", .parse = wn_opt_count, .wants = "a number",
	  .offset = offsetof(struct history_args, limit), .help = "at most N actions" },
	{ 0 },
};

static int history_check(wn_cli *cli, void *args, int argc, char **argv)
{
	const struct history_args *a = args;

	(void) argv;
	if (argc > 0)
		return wn_cli_usage_error(cli, "takes no arguments");
	return wn_cli_check_format(cli, a->format);
}

static const char *sev_word(wn_severity s)
{
	return wn_severity_name(s) ? wn_severity_name(s) : "none";
}

static void print_item(wn_printer *p, const wn_history_item *h)
{
	char when[32];
	struct tm tm;
	time_t t = h->when;

	if (!localtime_r(&t, &tm) || !strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm))
		when[0] = '\0';
	p->begin_map(p);
	p->map_key(p, "id");
	p->label(p, "");
	p->string(p, h->group);
	p->map_key(p, "time");
	p->integer(p, (long long) h->when);
	wn_pr_text(p, "  %s", when);
	p->map_key(p, "review");
	p->label(p, "  ");
	p->string(p, h->review);
	p->map_key(p, "fingerprint");
	p->string(p, h->fp);
	p->map_key(p, "reviews");
	p->integer(p, (long long) h->reviews);
	p->map_key(p, "changes");
	p->integer(p, (long long) h->changes);
	wn_pr_text(p, "  %zu finding%s", h->changes, h->changes == 1 ? "" : "s");
	/* A severity change says "severity" and the maintainer's words,
	 * "none" for unset. */
	p->map_key(p, "what");
	p->label(p, "  ");
	p->string(p, h->severity ? "severity" : "verdict");
	p->map_key(p, "from");
	p->label(p, " ");
	p->string(p, h->severity ? sev_word(h->sev_from) : wn_verdict_name(h->from));
	p->map_key(p, "to");
	p->label(p, " -> ");
	p->string(p, h->severity ? sev_word(h->sev_to) : wn_verdict_name(h->to));
	p->map_key(p, "note");
	p->boolean(p, h->note);
	if (h->note)
		wn_pr_text(p, " (note)");
	/* Why: the reason it gave, null when it gave none. */
	p->map_key(p, "reason");
	if (h->reason && h->reason_to != WN_REASON_NONE)
		p->label(p, " (reason ");
	else if (h->reason)
		wn_pr_text(p, " (reason removed)");
	p->string(p, h->reason ? wn_reason_name(h->reason_to) : NULL);
	if (h->reason && h->reason_to != WN_REASON_NONE)
		wn_pr_text(p, ")");
	p->map_key(p, "undo");
	p->boolean(p, h->is_undo);
	if (h->is_undo && h->actions > 1)
		wn_pr_text(p, "  [an undo of %zu changes]", h->actions);
	else if (h->is_undo)
		wn_pr_text(p, "  [an undo]");
	/* The changes one undo reverted, one redo gives back. */
	p->map_key(p, "actions");
	p->integer(p, (long long) h->actions);
	p->map_key(p, "redo");
	p->boolean(p, h->is_redo);
	if (h->is_redo)
		wn_pr_text(p, "  [a redo]");
	p->map_key(p, "undone");
	p->boolean(p, h->undone);
	if (h->undone)
		wn_pr_text(p, "  [undone]");
	p->map_key(p, "redone");
	p->boolean(p, h->redone);
	if (h->redone)
		wn_pr_text(p, "  [redone]");
	p->end(p);
	p->separator(p);
}

static int history_run(wn_cli *cli, void *args)
{
	const struct history_args *a = args;
	wn_error err = WN_ERROR_INIT;
	wn_history_item *v = NULL;
	wn_printer *p;
	size_t n = 0;
	int rc = 0;

	if (wn_store_history(cli->store, &v, &n, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
		wn_error_clear(&err);
		return rc;
	}
	if (!(p = wn_printer_new(a->format, stdout))) {
		wn_history_free(&v, n);
		return wn_cli_nomem(cli);
	}
	p->begin_list(p);
	for (size_t i = 0; i < n && (a->limit < 0 || (long) i < a->limit); i++)
		print_item(p, &v[i]);
	p->end(p);
	wn_printer_free(&p);
	wn_history_free(&v, n);
	return rc;
}

const wn_cmd wn_cmd_history = {
	.about = "List the verdict changes in winnow's journal, newest first: when, the\n"
		 "review, how many findings and from which state to which, and whether\n"
		 "it was undone (an undo: whether 'winnow redo' gave it back).  The first\n"
		 "column is the id 'winnow undo --id' takes.\n"
		 "The journal keeps the newest 1000 changes.",
	.opts = history_opts,
	WN_CMD_ARGS(struct history_args, .format = "text", .limit = -1),
	.check = history_check,
	.run = history_run,
};
