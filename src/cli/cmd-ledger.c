/* winnow ledger — the findings marked pre-existing, one entry per bug
 * however many reviews and versions reported it (ledger.h): as text,
 * JSON, an mbox of one digest per list, or those digests sent through
 * forwarding's confirm-then-send path. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "digest.h"
#include "printer.h"
#include "walk.h"
#include "winnow/ledger.h"

struct ledger_args {
	const char *format;
	const char *git;
	bool send;
	bool open;
	int nwords;
	char **words;
};

/* clang-format off */
static const wn_opt ledger_opts[] = {
	{ .name = "format", .arg = WN_FORMATS_ARG(WN_FORMATS_LEDGER), .parse = wn_opt_string,
	  .offset = offsetof(struct ledger_args, format),
	  .help = "output format (default text); mbox: one digest mail per list" },
	{ .name = "send", .parse = wn_opt_flag, .offset = offsetof(struct ledger_args, send),
	  .help = "send the digests: edit them, confirm, then winnow.sendmail" },
	{ .name = "git", .arg = "DIR", .parse = wn_opt_string, .offset = offsetof(struct ledger_args, git),
	  .help = "the kernel tree whose commits fixed bugs (default winnow.tree)" },
	{ .name = "open", .parse = wn_opt_flag, .offset = offsetof(struct ledger_args, open),
	  .help = "only the bugs no commit of the tree fixed (list and digests)" },
	{ 0 },
};
/* clang-format on */

static int ledger_check(wn_cli *cli, void *args, int argc, char **argv)
{
	struct ledger_args *a = args;
	int rc;

	a->nwords = argc;
	a->words = argv;
	if ((rc = WN_CLI_CHECK_FORMAT(cli, a->format, WN_FORMATS_LEDGER)) != 0)
		return rc;
	if (a->send && strcmp(a->format, "text"))
		return wn_cli_usage_error(cli, "takes --send or --format, not both");
	if (a->git && !*a->git)
		return wn_cli_usage_error(cli, "--git wants the kernel tree's directory");
	return 0;
}

static int add_one(wn_cli *cli, wn_item *it, void *arg)
{
	return wn_ledger_add(arg, it) == WN_OK ? 0 : wn_cli_nomem(cli);
}

/* --- text and JSON ------------------------------------------------------------ */

static void iso(time_t t, char out[32])
{
	struct tm tm;

	out[0] = '\0';
	if (t > 0 && gmtime_r(&t, &tm))
		strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static size_t reviews_of(const wn_ledger_entry *e)
{
	size_t n = 0;

	for (size_t i = 0; i < e->nreports; i++) {
		size_t k = 0;

		while (k < i && strcmp(e->reports[k].review, e->reports[i].review))
			k++;
		n += k == i;
	}
	return n;
}

static void place(wn_printer *p, const wn_ledger_entry *e)
{
	p->map_key(p, "file");
	p->label(p, "");
	p->string(p, e->file ? e->file : NULL);
	if (!e->file)
		wn_pr_text(p, "commit message");
	p->map_key(p, "line");
	if (e->line) {
		p->label(p, ":");
		p->integer(p, e->line);
	} else {
		p->null(p);
	}
	p->map_key(p, "function");
	if (e->function)
		p->label(p, " in ");
	p->string(p, e->function);
	if (e->function)
		wn_pr_text(p, "()");
	p->map_key(p, "severity");
	if (e->severity != WN_SEV_NONE)
		p->label(p, "  ");
	p->string(p, wn_severity_name(e->severity));
	p->separator(p);
}

static void reports(wn_printer *p, const wn_ledger_entry *e)
{
	p->map_key(p, "reports");
	p->begin_list(p);
	for (size_t i = 0; i < e->nreports; i++) {
		const wn_ledger_report *r = &e->reports[i];
		char date[32];

		iso(r->date, date);
		p->begin_map(p);
		p->map_key(p, "review");
		p->msgid(p, r->review);
		p->map_key(p, "finding");
		p->integer(p, (long long) r->finding);
		p->map_key(p, "bot");
		p->label(p, "    ");
		p->string(p, wn_bot_name(r->bot));
		p->map_key(p, "date");
		p->label(p, " ");
		p->string(p, date);
		p->map_key(p, "patch");
		p->msgid(p, r->patch);
		p->map_key(p, "patch_subject");
		p->label(p, "  ");
		p->string(p, r->patch_subject);
		p->end(p);
		p->separator(p);
	}
	p->end(p);
}

/* "fixed by <hash> (subject)": the commit of the tree that fixed it. */
static void fixed(wn_printer *p, const wn_ledger_entry *e)
{
	p->map_key(p, "fixed_by");
	if (!e->fixed_by) {
		p->null(p);
		return;
	}
	p->begin_map(p);
	p->map_key(p, "commit");
	p->label(p, "  fixed by ");
	p->string(p, e->fixed_by);
	p->map_key(p, "subject");
	p->label(p, " (");
	p->string(p, e->fixed_subject);
	wn_pr_text(p, ")");
	p->map_key(p, "how");
	p->label(p, ", named by its ");
	p->string(p, e->fixed_how);
	wn_pr_text(p, " line");
	p->end(p);
	p->separator(p);
}

static void entry(wn_printer *p, const wn_ledger_entry *e)
{
	char first[32], last[32];

	iso(e->first, first);
	iso(e->last, last);
	p->begin_map(p);
	p->map_key(p, "fingerprint");
	p->string(p, e->fingerprint);
	place(p, e);
	p->map_key(p, "summary");
	p->block(p, "  ");
	p->string(p, e->summary);
	p->map_key(p, "list");
	p->label(p, "  list: ");
	p->string(p, e->list ? e->list : "none");
	p->separator(p);
	p->map_key(p, "reviews");
	p->label(p, "  reported by ");
	p->integer(p, (long long) reviews_of(e));
	wn_pr_text(p, " review%s", reviews_of(e) == 1 ? "" : "s");
	p->map_key(p, "first");
	p->label(p, ", first ");
	p->string(p, first);
	p->map_key(p, "last");
	p->label(p, ", last ");
	p->string(p, last);
	p->separator(p);
	reports(p, e);
	fixed(p, e);
	p->map_key(p, "notes");
	p->begin_list(p);
	for (size_t i = 0; i < e->nnotes; i++) {
		p->label(p, "  note: ");
		p->string(p, e->notes[i]);
		p->separator(p);
	}
	p->end(p);
	p->end(p);
	p->separator(p);
}

static int print(const struct ledger_args *a, const wn_ledger *l)
{
	wn_printer *p = wn_printer_new(a->format, stdout);

	if (!p)
		return 2;
	p->begin_list(p);
	for (size_t i = 0; i < wn_ledger_count(l); i++)
		entry(p, wn_ledger_at(l, i));
	p->end(p);
	wn_printer_free(&p);
	return 0;
}

/* --- mail ------------------------------------------------------------------------ */

static int mail(wn_cli *cli, const struct ledger_args *a, const wn_ledger *l)
{
	wn_error err = WN_ERROR_INIT;
	wn_forward **m = NULL;
	size_t n = 0;
	int rc;

	if (wn_ledger_digests(l, wn_index_conf(cli->idx), &m, &n, &err) != WN_OK)
		rc = wn_cli_fail(cli, &err);
	else if (!n)
		rc = 0;
	else
		rc = a->send ? wn_digest_send(cli, m, n, NULL, NULL) : wn_digest_mbox(cli, m, n);
	for (size_t k = 0; k < n; k++)
		wn_forward_free(&m[k]);
	free(m);
	wn_error_clear(&err);
	return rc;
}

static int ledger_run(wn_cli *cli, void *args)
{
	const struct ledger_args *a = args;
	char *words = wn_cli_join(a->nwords, a->words), *query = NULL;
	const char *prefix = wn_index_conf(cli->idx)->tagprefix;
	const char *tree = a->git ? a->git : wn_index_conf(cli->idx)->tree;
	wn_ledger *l = NULL;
	int rc;

	if (a->open && (!tree || !*tree)) {
		free(words);
		return wn_cli_usage_error(cli, "--open needs the kernel tree: --git DIR or winnow.tree");
	}

	/* Only reviews with a pre-existing finding are worth reading. */
	if (!words || asprintf(&query, "tag:\"%spre-existing\"%s%s%s", prefix, *words ? " and (" : "",
			       words, *words ? ")" : "") < 0 || wn_ledger_new(&l, NULL) != WN_OK) {
		rc = wn_cli_nomem(cli);
		goto out;
	}
	rc = wn_walk(cli, query, add_one, l, NULL);
	if (rc)
		goto out;
	wn_ledger_sort(l);
	if (tree && *tree) {
		wn_error err = WN_ERROR_INIT;

		if (wn_ledger_fixes(l, tree, (const char *const *) wn_index_conf(cli->idx)->bots, &err) != WN_OK)
			rc = wn_cli_fail(cli, &err);
		wn_error_clear(&err);
		if (rc)
			goto out;
		/* The listing and the digests alike. */
		if (a->open)
			wn_ledger_keep_open(l);
	}
	if (!strcmp(a->format, "mbox") || a->send)
		rc = mail(cli, a, l);
	else
		rc = print(a, l);
	if (!a->send && !rc && !wn_ledger_count(l))
		fprintf(stderr, "%s: no finding is marked pre-existing\n", cli->prog);
	rc = wn_walk_output(cli, stdout, rc);
out:
	wn_ledger_free(&l);
	free(words);
	free(query);
	return rc;
}

const wn_cmd wn_cmd_ledger = {
	.args = "[QUERY...]",
	.about = "The findings marked pre-existing in the reviews matching winnow.query\n"
		 "(and QUERY): one entry per bug, however many reviews, bots and versions\n"
		 "of a series reported it (the same fingerprint, or a similar finding at\n"
		 "the same place; see winnow(1)), with its place, summary, the first and\n"
		 "last time it was reported, the reviews and their patches, and the\n"
		 "notes.  --format=mbox writes one digest mail per mailing list; --send\n"
		 "sends them the way forward does: edit, confirm, winnow.sendmail.\n"
		 "Given the kernel tree (--git DIR, or winnow.tree), a bug is shown\n"
		 "fixed by the commit whose Closes or Link trailer names one of its reviews\n"
		 "or patches, or whose Reported-by: names a bot that reported it while\n"
		 "changing its function; --open lists only the bugs not fixed.",
	.opts = ledger_opts,
	WN_CMD_ARGS(struct ledger_args, .format = "text"),
	.check = ledger_check,
	.run = ledger_run,
};
