/* winnow show — one review: its patch, attribution and findings. */
#include "autoconfig.h"

#include <stdlib.h>

#include "cli.h"
#include "format.h"
#include "show-tree.h"

struct show_args {
	const char *format;
	const char *id;
	bool tree;
};

static const wn_opt show_opts[] = {
	WN_OPT_FORMAT(struct show_args, format, "output format (default text)"),
	{ .name = "tree", .parse = wn_opt_flag, .offset = offsetof(struct show_args, tree),
	  .help = "and the function around each finding, from winnow.tree with the\n"
		  "patch's series applied by b4 (else the tree as it is)" },
	{ 0 },
};

/* One review; with --tree, {"review": ..., "tree": ...}. */
static int show_one(wn_cli *cli, wn_printer *p, wn_item *it, bool tree)
{
	wn_error err = WN_ERROR_INIT;
	wn_pwbot *pw = NULL;
	wn_reached reach = { 0 };
	bool reach_known;
	size_t npw = 0;
	int rc = 0;

	wn_cli_overlay(cli, it);
	if (wn_index_load_who(cli->idx, it, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
		wn_error_clear(&err);
		return rc;
	}
	if (wn_index_pwbot(cli->idx, it, &pw, &npw, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
		wn_error_clear(&err);
		return rc;
	}
	/* Two mails more (the review's and the patch's): one review's worth.
	 * Unknown (null) when the patch is not in the index or a mail does
	 * not read: the rest of the review is shown all the same. */
	reach_known = it->loaded && !it->load_error && it->patch &&
		      wn_forward_reached(cli->idx, it, &reach, &err) == WN_OK;
	wn_error_clear(&err);
	if (!tree) {
		wn_print_review_pw(p, it, pw, npw, reach_known ? &reach : NULL);
	} else {
		p->begin_map(p);
		p->map_key(p, "review");
		wn_print_review_pw(p, it, pw, npw, reach_known ? &reach : NULL);
		p->map_key(p, "tree");
		rc = wn_show_tree(cli, p, it);
		p->end(p);
	}
	wn_pwbot_free(pw, npw);
	wn_reached_clear(&reach);
	return rc;
}

static int show_check(wn_cli *cli, void *args, int argc, char **argv)
{
	struct show_args *a = args;

	if (argc != 1)
		return wn_cli_usage_error(cli, "wants exactly one MESSAGE-ID");
	a->id = argv[0];
	return wn_cli_check_format(cli, a->format);
}

/* A patch's Message-ID: every review of it, newest first (JSON: an
 * array of review objects, as list gives them).  -1, having printed
 * nothing, when no review answers id. */
static int show_reviews_of(wn_cli *cli, const char *id, wn_printer *p, bool tree)
{
	wn_error err = WN_ERROR_INIT;
	wn_item **its = NULL;
	size_t n = 0;
	int rc = 0;

	if (wn_index_reviews_of(cli->idx, id, &its, &n, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
	} else if (!n) {
		rc = -1;
	} else {
		p->begin_list(p);
		for (size_t i = 0; i < n && rc == 0; i++) {
			if (i && p->is_text)
				wn_pr_text(p, "\n");
			rc = show_one(cli, p, its[i], tree);
		}
		p->end(p);
	}
	for (size_t i = 0; i < n; i++)
		wn_item_free(&its[i]);
	free(its);
	wn_error_clear(&err);
	return rc;
}

static int show_run(wn_cli *cli, void *args)
{
	const struct show_args *a = args;
	wn_error err = WN_ERROR_INIT;
	wn_printer *p = wn_printer_new(a->format, stdout);
	wn_item *it = NULL;
	int rc = 0;

	if (!p) {
		rc = wn_cli_nomem(cli);
	} else if (a->tree && !wn_index_conf(cli->idx)->tree) {
		/* Before anything is printed: never half an answer. */
		wn_cli_say(cli, "", "winnow.tree is not set (the kernel checkout findings are read in)");
		rc = 2;
	} else if (wn_index_find(cli->idx, a->id, &it, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
	} else if (wn_index_is_review(cli->idx, it->id) ||
		   (rc = show_reviews_of(cli, it->id, p, a->tree)) < 0) {
		/* A review, or a mail no review answers: shown itself, as
		 * read with its sender's rule.  (By the id notmuch has: the
		 * one typed may be an escaped form of it.) */
		rc = show_one(cli, p, it, a->tree);
	}
	wn_printer_free(&p);
	wn_item_free(&it);
	wn_error_clear(&err);
	return rc;
}

const wn_cmd wn_cmd_show = {
	.args = "MESSAGE-ID",
	.about = "Show one review: the patch it answers and that patch's trailers and\n"
		 "AI attribution, then every finding with its severity, location, the\n"
		 "bot's pre-existing claim, the verdict and the quoted code and comment.\n"
		 "netdev's patchwork commands (pw-bot: lines) in the patch's thread are\n"
		 "shown under the patch.\n"
		 "Given a patch's Message-ID, show every review of that patch (any\n"
		 "other mail is shown itself, read with its sender's rule).\n"
		 "MESSAGE-ID may be given as <id>, id or id:id.  --tree adds the function\n"
		 "around each finding as the patch leaves it (see winnow.tree).",
	.opts = show_opts,
	WN_CMD_ARGS(struct show_args, .format = "text"),
	.check = show_check,
	.run = show_run,
};
