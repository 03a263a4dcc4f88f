/* winnow git — share verdicts and notes with other maintainers through
 * a git repository (share.h): pull, push, status. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "printer.h"
#include "winnow/share.h"

enum git_op { GIT_PULL, GIT_PUSH, GIT_STATUS };

struct git_args {
	const char *format;
	bool resolve;
	int timeout_ms;
	enum git_op op;
	const char *remote;
};

static const wn_opt git_opts[] = {
	{ .name = "resolve", .parse = wn_opt_flag, .offset = offsetof(struct git_args, resolve),
	  .help = "push: settle every open conflict with this database's decision" },
	WN_OPT_FORMAT(struct git_args, format, "output format (default text)"),
	WN_OPT_TIMEOUT(struct git_args, timeout_ms, "wait this long for the write lock (default 5)"),
	{ 0 },
};

static int git_check(wn_cli *cli, void *args, int argc, char **argv)
{
	static const char *const ops[] = { "pull", "push", "status" };
	struct git_args *a = args;
	size_t k;

	if (argc != 2)
		return wn_cli_usage_error(cli, "wants pull, push or status, and REMOTE-OR-PATH");
	for (k = 0; k < 3 && strcmp(argv[0], ops[k]); k++)
		;
	if (k == 3)
		return wn_cli_usage_error(cli, "'%s' is not pull, push or status", argv[0]);
	a->op = (enum git_op) k;
	a->remote = argv[1];
	if (a->resolve && a->op != GIT_PUSH)
		return wn_cli_usage_error(cli, "--resolve goes with push");
	return wn_cli_check_format(cli, a->format);
}

/* --- printing ---------------------------------------------------------------- */

static void value(wn_printer *p, const char *label, const wn_share_value *v)
{
	char when[32] = "";
	struct tm tm;

	if (v->when > 0 && gmtime_r(&v->when, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	p->begin_map(p);
	p->map_key(p, "verdict");
	p->label(p, label);
	p->string(p, wn_verdict_name(v->verdict));
	p->map_key(p, "severity");
	if (v->severity != WN_SEV_NONE)
		p->label(p, ", severity ");
	p->string(p, wn_severity_name(v->severity));
	p->map_key(p, "author");
	p->label(p, "  by ");
	p->string(p, v->author);
	p->map_key(p, "time");
	p->label(p, ", ");
	p->string(p, when);
	p->separator(p);
	p->map_key(p, "note");
	if (v->note)
		p->label(p, "             note: ");
	p->string(p, v->note);
	if (v->note)
		p->separator(p);
	p->end(p);
}

/* The finding's number and summary in this index, when it has them. */
static void where(wn_cli *cli, wn_printer *p, const wn_share_conflict *x)
{
	wn_item *it = NULL;
	long k = -1;

	if (wn_index_find(cli->idx, x->review, &it, NULL) == WN_OK)
		for (size_t i = 0; i < it->review->nfindings && k < 0; i++)
			if (!strcmp(it->review->findings[i].fingerprint, x->fingerprint))
				k = (long) i;
	p->map_key(p, "finding");
	if (k >= 0) {
		p->label(p, " #");
		p->integer(p, k + 1);
	} else {
		p->null(p);
	}
	p->map_key(p, "summary");
	if (k >= 0)
		p->label(p, "  ");
	p->string(p, k >= 0 ? it->review->findings[k].summary : NULL);
	p->separator(p);
	wn_item_free(&it);
}

static void conflict(wn_cli *cli, wn_printer *p, const wn_share_conflict *x)
{
	p->begin_map(p);
	p->map_key(p, "review");
	p->label(p, "conflict: ");
	p->msgid(p, x->review);
	p->map_key(p, "fingerprint");
	p->string(p, x->fingerprint);
	where(cli, p, x);
	p->map_key(p, "ours");
	value(p, "    here:  ", &x->ours);
	p->map_key(p, "theirs");
	value(p, "    there: ", &x->theirs);
	p->end(p);
}

static void counts(wn_printer *p, const struct git_args *a, const wn_share_result *r)
{
	p->map_key(p, "repository");
	p->string(p, r->repo);
	wn_pr_key_int(p, "exported", r->exported);
	wn_pr_key_int(p, "imported", r->imported);
	wn_pr_key_int(p, "skipped", r->skipped);
	wn_pr_key_int(p, "changed", r->changed);
	wn_pr_key_int(p, "ahead", r->ahead);
	wn_pr_key_int(p, "behind", r->behind);
	p->map_key(p, "remote_empty");
	p->boolean(p, r->remote_empty);
	p->map_key(p, "pushed");
	p->boolean(p, r->pushed);
	if (a->op == GIT_STATUS)
		wn_pr_text(p, "%zu local decision%s not in the repository yet; %zu commit%s ahead of %s, "
			   "%zu behind\n", r->changed, r->changed == 1 ? "" : "s", r->ahead,
			   r->ahead == 1 ? "" : "s", r->remote_empty ? "an empty remote" : "the remote",
			   r->behind);
	else
		wn_pr_text(p, "%s: %zu decision%s written to the repository, %zu taken into notmuch%s\n",
			   a->op == GIT_PULL ? "pulled" : "pushed", r->exported, r->exported == 1 ? "" : "s",
			   r->imported, r->remote_empty ? " (the remote was empty)" : "");
	if (r->skipped)
		wn_pr_text(p, "%zu decision%s for reviews or findings this index does not have: kept\n",
			   r->skipped, r->skipped == 1 ? "" : "s");
}

static void report(wn_cli *cli, const struct git_args *a, const wn_share_result *r, wn_printer *p)
{
	p->begin_map(p);
	counts(p, a, r);
	p->map_key(p, "conflicts");
	p->begin_list(p);
	for (size_t i = 0; i < r->nconflicts; i++)
		conflict(cli, p, &r->conflicts[i]);
	p->end(p);
	/* The paths are the repository's, hostile: through the printer. */
	p->map_key(p, "refused");
	p->begin_list(p);
	for (size_t i = 0; i < r->nrefused; i++) {
		p->begin_map(p);
		p->map_key(p, "path");
		p->label(p, "refused: ");
		p->string(p, r->refused[i].path);
		p->map_key(p, "reason");
		p->label(p, ": ");
		p->string(p, r->refused[i].reason);
		p->separator(p);
		p->end(p);
	}
	p->end(p);
	if (r->nrefused)
		wn_pr_text(p, "%zu file%s of the repository set aside: nothing taken from %s\n",
			   r->nrefused, r->nrefused == 1 ? "" : "s", r->nrefused == 1 ? "it" : "them");
	if (r->nconflicts)
		wn_pr_text(p, "%zu conflict%s: decide again (or 'winnow git push --resolve' to keep "
			   "yours), then push\n", r->nconflicts, r->nconflicts == 1 ? "" : "s");
	p->end(p);
}

/* --- the command -------------------------------------------------------------------- */

static int git_run(wn_cli *cli, void *args)
{
	const struct git_args *a = args;
	wn_error err = WN_ERROR_INIT;
	wn_share_result r;
	wn_printer *p = wn_printer_new(a->format, stdout);
	wn_status st;
	int rc = 0;

	if (!p)
		return wn_cli_nomem(cli);
	if (wn_store_pending(cli->store) &&
	    (st = wn_store_flush(cli->store, a->timeout_ms, &err)) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
		goto out;
	}
	if (a->op == GIT_PULL)
		st = wn_share_pull(cli->idx, cli->store, a->remote, &r, &err);
	else if (a->op == GIT_PUSH)
		st = wn_share_push(cli->idx, cli->store, a->remote, a->resolve, &r, &err);
	else
		st = wn_share_status(cli->idx, cli->store, a->remote, &r, &err);
	if (st != WN_OK) {
		rc = wn_cli_fail(cli, &err);
	} else {
		report(cli, a, &r, p);
		if (a->op == GIT_PULL)
			rc = wn_cli_flushed(cli, wn_store_flush(cli->store, a->timeout_ms, &err), &err);
	}
	wn_share_result_clear(&r);
out:
	wn_printer_free(&p);
	wn_error_clear(&err);
	return rc;
}

const wn_cmd wn_cmd_git = {
	.args = "pull|push|status REMOTE-OR-PATH",
	.about = "Share verdicts, notes and severities with other maintainers through a\n"
		 "git repository (any URL or path git takes; branch 'winnow'), the way\n"
		 "notmuch git shares tags.  winnow keeps one file per review and finding\n"
		 "in a repository of its own; pull writes your decisions into it, merges\n"
		 "the remote and takes its decisions into notmuch; push sends yours;\n"
		 "status says what either would do.  The same finding judged differently\n"
		 "on both sides is a conflict: both decisions are kept and listed, and\n"
		 "neither overwrites the other until you decide again (or push\n"
		 "--resolve keeps yours).  See SHARING in winnow(1), also for the tags.",
	.opts = git_opts,
	WN_CMD_ARGS(struct git_args, .format = "text", .timeout_ms = 5000),
	.check = git_check,
	.run = git_run,
};
