/* winnow fetch — bring the reviews of patches touching the maintainer's
 * files from lore (any lei external) into the notmuch database: lei's
 * saved search (--init makes it), then notmuch new (lore.h). */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "printer.h"
#include "winnow/lore.h"

struct fetch_args {
	const char *format;
	bool init;
};

static const wn_opt fetch_opts[] = {
	{ .name = "init", .parse = wn_opt_flag, .offset = offsetof(struct fetch_args, init),
	  .help = "create (or redo) lei's saved search from winnow.files,\n"
		  "winnow.sections and winnow.fetch_since, printing the lei command" },
	WN_OPT_FORMAT(struct fetch_args, format, "output format (default text)"),
	{ 0 },
};

static int fetch_check(wn_cli *cli, void *args, int argc, char **argv)
{
	const struct fetch_args *a = args;

	(void) argv;
	if (argc > 0)
		return wn_cli_usage_error(cli, "takes no arguments");
	return wn_cli_check_format(cli, a->format);
}

/* A word as a shell would need it to read it back: the command line is
 * shown to be run again by hand. */
static void shell_word(wn_buf *b, const char *w)
{
	if (*w && !w[strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			     "-_=/.:,+@%")]) {
		wn_buf_puts(b, w);
		return;
	}
	wn_buf_putc(b, '\'');
	for (; *w; w++)
		wn_buf_puts(b, *w == '\'' ? "'\\''" : (char[]) { *w, 0 });
	wn_buf_putc(b, '\'');
}

/* One command: its argv (JSON) and its line for a shell (text, when
 * show). */
static void command(wn_printer *p, char *const *argv, bool show)
{
	wn_buf line = WN_BUF_INIT;

	for (size_t k = 0; argv[k]; k++) {
		if (k)
			wn_buf_putc(&line, ' ');
		shell_word(&line, argv[k]);
	}
	p->begin_map(p);
	p->map_key(p, "argv");
	p->begin_list(p);
	for (size_t k = 0; argv[k]; k++)
		p->string(p, argv[k]);
	p->end(p);
	p->map_key(p, "line");
	if (show)
		p->label(p, "");
	p->string(p, wn_buf_str(&line));
	if (show)
		p->separator(p);
	p->end(p);
	wn_buf_free(&line);
}

static void key_count(wn_printer *p, const char *key, size_t v)
{
	p->map_key(p, key);
	p->integer(p, (long long) v);
}

/* Progress, on a terminal only: what is running now. */
static void step(const wn_cli *cli, bool tty, const char *what, const char *where)
{
	if (tty)
		fprintf(stderr, "%s: %s %s\n", cli->prog, what, where);
}

/* The command lines and the counts.  Text shows --init's command
 * before it runs (so a failing one is on screen); JSON is written only
 * once all went well, never half an object. */
static void report(wn_printer *p, char *const *argv, size_t messages, size_t reviews)
{
	p->begin_map(p);
	p->map_key(p, "commands");
	p->begin_list(p);
	command(p, argv, false);
	p->end(p);
	key_count(p, "messages", messages);
	key_count(p, "reviews", reviews);
	wn_pr_text(p, "%zu new message%s, %zu new review%s\n", messages, messages == 1 ? "" : "s",
		   reviews, reviews == 1 ? "" : "s");
	p->end(p);
}

static int fetch_run(wn_cli *cli, void *args)
{
	const struct fetch_args *a = args;
	bool tty = isatty(STDERR_FILENO) && strcmp(a->format, "text") == 0;
	wn_error err = WN_ERROR_INIT;
	wn_buf progress = WN_BUF_INIT;
	size_t m0 = 0, r0 = 0, m1 = 0, r1 = 0;
	wn_printer *p = NULL;
	char **argv;
	struct stat sb;
	wn_fetch f;
	int rc = 0;

	if (wn_fetch_plan(cli->idx, &f, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
		wn_error_clear(&err);
		return rc;
	}
	argv = a->init ? f.init_argv : f.up_argv;
	if (!a->init && stat(f.folder, &sb) != 0) {
		rc = wn_cli_usage_error(cli, "no saved search yet: run 'winnow fetch --init' first");
		goto out;
	}
	if (!(p = wn_printer_new(a->format, stdout))) {
		rc = wn_cli_nomem(cli);
		goto out;
	}
	if (a->init && p->is_text) {
		command(p, argv, true);
		fflush(stdout);
	}
	if (wn_fetch_count(cli->idx, &m0, &r0, &err) != WN_OK)
		goto fail;
	step(cli, tty, "running", a->init ? "lei q" : "lei up");
	if (wn_fetch_lei(&f, argv, tty ? &progress : NULL, &err) != WN_OK)
		goto fail;
	if (tty && progress.len)
		fputs(progress.data, stderr);
	step(cli, tty, "indexing:", "notmuch new");
	if (wn_fetch_notmuch_new(cli->idx, &err) != WN_OK ||
	    wn_fetch_count(cli->idx, &m1, &r1, &err) != WN_OK)
		goto fail;
	/* Mail deleted by hand meanwhile must not show as a huge count. */
	report(p, argv, m1 > m0 ? m1 - m0 : 0, r1 > r0 ? r1 - r0 : 0);
	goto out;
fail:
	rc = wn_cli_fail(cli, &err);
out:
	wn_printer_free(&p);
	wn_buf_free(&progress);
	wn_fetch_clear(&f);
	wn_error_clear(&err);
	return rc;
}

const wn_cmd wn_cmd_fetch = {
	.about = "Fetch the threads of patches that touch your files, with the bots'\n"
		 "reviews of them, through lei (public-inbox's local client) into a\n"
		 "maildir inside the notmuch database (winnow.fetch_folder, default\n"
		 "'lore'), then run notmuch new.  --init makes lei's saved search:\n"
		 "patches touching winnow.files (path patterns) or the F: files of the\n"
		 "MAINTAINERS sections in winnow.sections (read from winnow.tree),\n"
		 "received since winnow.fetch_since (default 4.weeks.ago).  Without\n"
		 "--init, lei up refreshes it.  Where lei looks is lei's configuration\n"
		 "(lei add-external).  Ends with a count of the new messages and reviews.",
	.opts = fetch_opts,
	WN_CMD_ARGS(struct fetch_args, .format = "text"),
	.check = fetch_check,
	.run = fetch_run,
};
