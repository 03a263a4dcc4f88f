/* winnow — entry point: global options, then a command, or the TUI.
 * main owns the database: it opens what a command needs, runs it, and
 * closes it again. */
#include "autoconfig.h"

#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "complete.h"
#include "tui.h"
#include "winnow/forward.h"

/* The commands, in the order 'winnow --help' lists them.  A command is
 * its file and one line here:
 * X(its wn_cmd, name, what main opens, journal replay budget in ms, summary)
 * Reading commands replay what an earlier run journaled, waiting briefly
 * for the write lock while another process holds it (and as long as the
 * replay takes otherwise: a busy machine must not make them show stale
 * verdicts); writing ones write it with their own changes. */
#define WN_COMMANDS(X)                                                            \
	X(wn_cmd_list, "list", WN_CMD_INDEX | WN_CMD_STORE_MAYBE, 500,              \
	  "list reviews with their findings counted")                                \
	X(wn_cmd_show, "show", WN_CMD_INDEX | WN_CMD_STORE_MAYBE, 500,              \
	  "show one review, its patch and its findings")                             \
	X(wn_cmd_mark, "mark", WN_CMD_INDEX | WN_CMD_STORE, WN_NO_REPLAY,           \
	  "give findings a verdict")                                                 \
	X(wn_cmd_forward, "forward", WN_CMD_INDEX | WN_CMD_STORE, WN_NO_REPLAY,     \
	  "mail the valid findings of a review to the patch author")               \
	X(wn_cmd_missed, "missed", WN_CMD_INDEX | WN_CMD_STORE, WN_NO_REPLAY,       \
	  "record a bug the bot did not report")                                    \
	X(wn_cmd_undo, "undo", WN_CMD_INDEX | WN_CMD_STORE, WN_NO_REPLAY,           \
	  "revert the last verdicts")                                                \
	X(wn_cmd_redo, "redo", WN_CMD_INDEX | WN_CMD_STORE, WN_NO_REPLAY,           \
	  "give back what the last undo reverted")                                   \
	X(wn_cmd_history, "history", WN_CMD_INDEX | WN_CMD_STORE, WN_NO_REPLAY,     \
	  "list the verdict changes undo can revert")                                \
	X(wn_cmd_sync, "sync-journal", WN_CMD_INDEX | WN_CMD_STORE, WN_NO_REPLAY,   \
	  "write journaled verdicts to the notmuch database")                        \
	X(wn_cmd_stats, "stats", WN_CMD_INDEX | WN_CMD_STORE_MAYBE, 500,            \
	  "count verdicts by bot, severity, list, author, attribution, month")       \
	X(wn_cmd_report, "report", WN_CMD_INDEX | WN_CMD_STORE_MAYBE, 500,          \
	  "the statistics as an HTML page with charts, or one chart as SVG")        \
	X(wn_cmd_export, "export", WN_CMD_INDEX | WN_CMD_STORE_MAYBE, 500,          \
	  "every finding with its verdict, as JSON, CSV or SARIF")                  \
	X(wn_cmd_carry, "carry", WN_CMD_INDEX | WN_CMD_STORE, 500,                  \
	  "give untriaged findings the verdict of a similar one judged before")      \
	X(wn_cmd_ledger, "ledger", WN_CMD_INDEX | WN_CMD_STORE_MAYBE, 500,          \
	  "the pre-existing bugs, each once, as text, JSON or digest mails")         \
	X(wn_cmd_git, "git", WN_CMD_INDEX | WN_CMD_STORE, WN_NO_REPLAY,             \
	  "share verdicts with other maintainers through a git repository")          \
	X(wn_cmd_feedback, "feedback", WN_CMD_INDEX | WN_CMD_STORE, 500,            \
	  "tell a bot's operators its false positives and wrong severities")         \
	X(wn_cmd_fetch, "fetch", WN_CMD_INDEX, WN_NO_REPLAY,                        \
	  "fetch the reviews of patches touching your files from lore, through lei")

#define WN_X_(cmd, name, needs, replay_ms, summary) extern const wn_cmd cmd;
WN_COMMANDS(WN_X_)
#undef WN_X_

struct command {
	const char *name;
	const wn_cmd *cmd;
	unsigned needs;		/* WN_CMD_* */
	int replay_ms;		/* WN_NO_REPLAY: none */
	const char *summary;
};

static const struct command commands[] = {
#define WN_X_(cmd, name, needs, replay_ms, summary) { name, &cmd, needs, replay_ms, summary },
	WN_COMMANDS(WN_X_)
#undef WN_X_
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

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
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-14s %s\n", commands[i].name, commands[i].summary);
	fputs("\n"
	      "Options:\n"
	      "  --config FILE  notmuch config file (default: $NOTMUCH_CONFIG, then\n"
	      "                 notmuch's own default)\n"
	      "  --help         show this help; 'winnow COMMAND --help' for a command\n"
	      "  --completion=" WN_COMPLETE_SHELLS "\n"
	      "                 print the shell's completion script\n"
	      "  --version      show the version\n"
	      "\n"
	      "Exit status: 0 success, 1 user error, 2 environment failure.\n"
	      "See winnow(1).\n", out);
}

static void close_db(wn_cli *cli)
{
	wn_store_close(&cli->store);
	wn_index_close(&cli->idx);
	free(cli->warned);
	cli->warned = NULL;
}

/* Open the journal as needs says: without WN_CMD_STORE a journal that
 * cannot be opened is a warning, and cli->store stays NULL. */
static wn_status open_store(wn_cli *cli, unsigned needs, wn_error *err)
{
	wn_status st;

	if (!(needs & (WN_CMD_STORE | WN_CMD_STORE_MAYBE)))
		return WN_OK;
	st = wn_store_open(cli->idx, NULL, &cli->store, err);
	/* Reading needs no journal: say what is wrong and go on, so a
	 * broken state directory never hides the reviews. */
	if (st != WN_OK && st != WN_NOMEM && !(needs & WN_CMD_STORE)) {
		wn_cli_say(cli, "warning: ", wn_error_msg(err));
		fprintf(stderr, "%s: journaled verdicts are not shown\n", cli->prog);
		st = WN_OK;
	}
	return st;
}

/* Mails written to winnow.drafts_folder whose sent copy is indexed
 * now: their findings are recorded as forwarded (the replay below
 * writes them).  A problem is a warning: nothing is lost, the next
 * command tries again. */
static void resolve_drafts(wn_cli *cli)
{
	wn_error err = WN_ERROR_INIT;
	size_t n = 0;

	if (!cli->store)
		return;
	if (wn_forward_drafts_resolve(cli->idx, cli->store, NULL, &n, &err) != WN_OK)
		wn_cli_say(cli, "warning: ", wn_error_msg(&err));
	wn_error_clear(&err);
}

/* Open what needs asks for and replay the journal, giving up once
 * another process has held the write lock for replay_ms (WN_NO_REPLAY:
 * no replay).  Verdicts
 * that do not make it stay journaled and are overlaid on what is shown.
 * Prints the error and returns the exit code on failure, else 0. */
static int open_db(wn_cli *cli, unsigned needs, int replay_ms)
{
	wn_error err = WN_ERROR_INIT;
	wn_status st = WN_OK;
	int rc;

	if (needs)
		st = wn_index_open(cli->config, &cli->idx, &err);
	if (st == WN_OK)
		st = open_store(cli, needs, &err);
	if (st != WN_OK) {
		rc = wn_cli_fail(cli, &err);
		close_db(cli);
		wn_error_clear(&err);
		return rc ? rc : 2;
	}
	wn_cli_store_warning(cli);
	resolve_drafts(cli);
	if (cli->store && wn_store_pending(cli->store) && replay_ms != WN_NO_REPLAY) {
		st = wn_store_replay(cli->store, replay_ms, &err);
		if (st != WN_OK && st != WN_LOCKED)
			wn_cli_say(cli, "warning: ", wn_error_msg(&err));
		wn_cli_store_warning(cli);
	}
	wn_error_clear(&err);
	return 0;
}

/* The command's arguments after its options. */
static int check_args(wn_cli *cli, const wn_cmd *cmd, void *args, int argc, char **argv)
{
	if (cmd->check)
		return cmd->check(cli, args, argc, argv);
	if (argc > 0)
		return wn_cli_usage_error(cli, "takes no arguments");
	return 0;
}

static int run_command(wn_cli *cli, const struct command *c, int argc, char **argv)
{
	const wn_cmd *cmd = c->cmd;
	void *args = calloc(1, cmd->size ? cmd->size : 1);
	int rc = 0;

	cli->cmd = c->name;
	if (!args)
		return wn_cli_nomem(cli);
	if (cmd->defaults)
		memcpy(args, cmd->defaults, cmd->size);
	if (wn_opts_parse(cli, cmd, args, argc, argv, &rc)) {
		rc = check_args(cli, cmd, args, argc - optind, argv + optind);
		if (rc == 0)
			rc = open_db(cli, c->needs, c->replay_ms);
		if (rc == 0)
			rc = cmd->run(cli, args);
		close_db(cli);
	}
	free(args);
	return rc;
}

static int run_tui(wn_cli *cli, int argc, char **argv)
{
	char *query = wn_cli_join(argc, argv);
	int rc;

	if (!query)
		return wn_cli_nomem(cli);
	/* The TUI replays the journal in the background itself. */
	rc = open_db(cli, WN_CMD_INDEX | WN_CMD_STORE, WN_NO_REPLAY);
	if (rc == 0)
		rc = wn_tui_run(cli->idx, cli->store, query);
	close_db(cli);
	free(query);
	return rc;
}

static int min3(int a, int b, int c)
{
	return a < b ? (a < c ? a : c) : (b < c ? b : c);
}

/* Edits (insert, delete, change, swap two neighbours) from a to b;
 * 4 for anything further, since only "close" matters. */
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int d[32][32];

	if (la >= 32 || lb >= 32 || (la > lb ? la - lb : lb - la) > 3)
		return 4;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int) i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int) j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1,
				       d[i - 1][j - 1] + (a[i - 1] != b[j - 1]));
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[la][lb];
}

/* The command a mistyped first word was meant to be, or NULL.  A word
 * with notmuch query syntax in it is a query, never a typo; so is one
 * far from every name (short names allow one edit, longer two). */
static const char *meant(const char *word)
{
	const char *best = NULL;
	int best_d = 3;

	if (strpbrk(word, ":\"'()*") || strlen(word) < 3)
		return NULL;
	for (size_t i = 0; i < NCOMMANDS; i++) {
		const char *name = commands[i].name;
		int d = distance(word, name), allowed = strlen(name) <= 5 ? 1 : 2;

		if (d <= allowed && d < best_d) {
			best = name;
			best_d = d;
		}
	}
	return best;
}

/* stdout's buffer: static, as stdout is used until exit. */
static char out_buf[1 << 16];

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "completion", required_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	wn_cli cli = { .prog = "winnow" };
	const char *guess;
	bool search;
	int c;

	setlocale(LC_ALL, "");
	/* Into a pipe or a file, a listing is tens of MiB: stdio's 4 KiB
	 * buffer made a write() per 4 KiB.  (glibc takes the size only
	 * with a buffer given.)  A terminal keeps its line buffering. */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, out_buf, _IOFBF, sizeof(out_buf));
	/* Over a file size limit, a journal write must fail with EFBIG and
	 * be reported, not kill us. */
	signal(SIGXFSZ, SIG_IGN);
	/* Inherited SIG_IGN would make the writer's exit status vanish. */
	signal(SIGCHLD, SIG_DFL);
	/* '+': stop at the first non-option, the command, whose own
	 * options are its business. */
	/* One line of our own per error, not getopt's and then ours. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", opts, NULL)) != -1) {
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
		case 'C': {
			const char *names[NCOMMANDS];
			const wn_cmd *cmds[NCOMMANDS];

			for (size_t i = 0; i < NCOMMANDS; i++) {
				names[i] = commands[i].name;
				cmds[i] = commands[i].cmd;
			}
			return wn_complete_print(stdout, optarg, opts, NCOMMANDS, names, cmds);
		}
		default: {
			char *word = wn_text_sanitize(argv[optind - 1], 0);

			fprintf(stderr, c == ':' ? "%s: %s wants a value (see '%s --help')\n"
				: "%s: unknown option '%s' (see '%s --help')\n",
				cli.prog, word ? word : "", cli.prog);
			free(word);
			return 1;
		}
		}
	}
	/* 'winnow -- WORDS' is always a search, whatever the words. */
	search = optind > 1 && strcmp(argv[optind - 1], "--") == 0;
	argc -= optind;
	argv += optind;
	if (!search && argc > 0 && strcmp(argv[0], "help") == 0) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; !search && argc > 0 && i < NCOMMANDS; i++)
		if (strcmp(argv[0], commands[i].name) == 0)
			return run_command(&cli, &commands[i], argc, argv);
	if (!search && argc > 0 && (guess = meant(argv[0]))) {
		char *word = wn_text_sanitize(argv[0], 0);

		fprintf(stderr, "%s: unknown command '%s'; did you mean '%s'? "
			"('%s -- %s' searches for it)\n", cli.prog, word ? word : "", guess,
			cli.prog, word ? word : "");
		free(word);
		return 1;
	}
	return run_tui(&cli, argc, argv);
}
