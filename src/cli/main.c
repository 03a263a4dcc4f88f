/* winnow — entry point: global options, then a subcommand, or the TUI. */
#include "autoconfig.h"

#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tui.h"

static const wn_cmd commands[] = {
	{ "list", wn_cmd_list, "list reviews with their findings counted" },
	{ "show", wn_cmd_show, "show one review, its patch and its findings" },
	{ "mark", wn_cmd_mark, "give findings a verdict" },
	{ "undo", wn_cmd_undo, "revert the last verdicts" },
	{ "sync-journal", wn_cmd_sync, "write journaled verdicts to the notmuch database" },
};

static void usage(FILE *out)
{
	fputs("Usage: winnow [--config FILE] [QUERY...]\n"
	      "       winnow [--config FILE] COMMAND [ARGS...]\n"
	      "\n"
	      "Triage machine-generated patch reviews from your notmuch mail.\n"
	      "Without a command, opens the triage interface on the reviews that\n"
	      "match winnow.query (and QUERY, a notmuch query, if given).\n"
	      "\n"
	      "Commands:\n", out);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-14s %s\n", commands[i].name, commands[i].summary);
	fputs("\n"
	      "Options:\n"
	      "  --config FILE  notmuch config file (default: $NOTMUCH_CONFIG, then\n"
	      "                 notmuch's own default)\n"
	      "  --help         show this help; 'winnow COMMAND --help' for a command\n"
	      "  --version      show the version\n"
	      "\n"
	      "Exit status: 0 success, 1 user error, 2 environment failure.\n"
	      "See winnow(1).\n", out);
}

void wn_cli_say(const wn_cli *cli, const char *what, const char *msg)
{
	/* Messages quote Message-IDs and journal entries, which come from
	 * mail: sanitise them like everything else bound for a terminal. */
	char *clean = wn_text_sanitize(msg, 0);

	fprintf(stderr, "%s: %s%s\n", cli->prog, what, clean ? clean : "out of memory");
	free(clean);
}

int wn_cli_fail(const wn_cli *cli, const wn_error *err)
{
	wn_cli_say(cli, "", wn_error_msg(err));
	return wn_status_exit_code(err->status);
}

int wn_cli_usage_error(const wn_cli *cli, const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: ", cli->prog, cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see '%s %s --help')\n", cli->prog, cmd);
	return 1;
}

int wn_cli_open(wn_cli *cli, int replay_ms, bool need_store)
{
	wn_error err = WN_ERROR_INIT;
	wn_status st;
	int rc = 0;

	st = wn_index_open(cli->config, &cli->idx, &err);
	if (st == WN_OK) {
		st = wn_store_open(cli->idx, NULL, &cli->store, &err);
		/* Reading needs no journal: say what is wrong and go on, so
		 * a broken state directory never hides the reviews. */
		if (st != WN_OK && st != WN_NOMEM && !need_store) {
			wn_cli_say(cli, "warning: ", wn_error_msg(&err));
			fprintf(stderr, "%s: journaled verdicts are not shown\n", cli->prog);
			st = WN_OK;
		}
	}
	if (st != WN_OK) {
		rc = wn_cli_fail(cli, &err);
		wn_cli_close(cli);
		wn_error_clear(&err);
		return rc ? rc : 2;
	}
	if (cli->store && wn_store_warning(cli->store))
		wn_cli_say(cli, "warning: ", wn_store_warning(cli->store));
	/* Verdicts journaled by an earlier run reach notmuch now; if the
	 * lock is busy they stay journaled and are overlaid on what we show. */
	if (cli->store && wn_store_pending(cli->store) && replay_ms >= 0) {
		st = wn_store_flush(cli->store, replay_ms, &err);
		if (st != WN_OK && st != WN_LOCKED)
			wn_cli_say(cli, "warning: ", wn_error_msg(&err));
	}
	wn_error_clear(&err);
	return 0;
}

/* Overlay journaled verdicts when there is a journal. */
void wn_cli_overlay(const wn_cli *cli, wn_item *it)
{
	if (cli->store)
		wn_store_overlay(cli->store, it);
}

void wn_cli_close(wn_cli *cli)
{
	wn_store_close(&cli->store);
	wn_index_close(&cli->idx);
}

/* Join argv into one notmuch query string, as notmuch does. */
static char *join_args(int argc, char **argv)
{
	wn_buf b = WN_BUF_INIT;

	for (int i = 0; i < argc; i++)
		if ((i && wn_buf_putc(&b, ' ') != WN_OK) || wn_buf_puts(&b, argv[i]) != WN_OK) {
			wn_buf_free(&b);
			return NULL;
		}
	return wn_buf_steal(&b);
}

static int run_tui(wn_cli *cli, int argc, char **argv)
{
	char *query = join_args(argc, argv);
	int rc;

	if (!query) {
		fprintf(stderr, "%s: out of memory\n", cli->prog);
		return 2;
	}
	/* The TUI replays the journal in the background itself. */
	rc = wn_cli_open(cli, -1, true);
	if (rc == 0)
		rc = wn_tui_run(cli->idx, cli->store, query);
	wn_cli_close(cli);
	free(query);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	wn_cli cli = { .prog = "winnow" };
	int c;

	setlocale(LC_ALL, "");
	/* Over a file size limit, a journal write must fail with EFBIG and
	 * be reported, not kill us. */
	signal(SIGXFSZ, SIG_IGN);
	/* Inherited SIG_IGN would make the writer's exit status vanish. */
	signal(SIGCHLD, SIG_DFL);
	/* '+': stop at the first non-option, the subcommand, whose own
	 * options are its business. */
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cli.config = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("winnow %s\n", PACKAGE_VERSION);
			return 0;
		default:
			fprintf(stderr, "%s: see '%s --help'\n", cli.prog, cli.prog);
			return 1;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 0 && strcmp(argv[0], "help") == 0) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; argc > 0 && i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[0], commands[i].name) == 0) {
			/* getopt for the subcommand starts afresh. */
			optind = 0;
			return commands[i].run(&cli, argc, argv);
		}
	}
	return run_tui(&cli, argc, argv);
}
