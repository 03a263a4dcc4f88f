/* winnow — a command's options, parsed and described from its table. */
#include "autoconfig.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* getopt values of table options: clear of 'h' and '?'. */
#define OPT_FIRST 256

int wn_opt_string(const char *arg, void *field)
{
	*(const char **) field = arg;
	return 0;
}

int wn_opt_count(const char *arg, void *field)
{
	char *end;
	long v;

	/* strtol alone takes "" for 0 and 99999999999999999999 for
	 * LONG_MAX: a limit nobody typed. */
	if (*arg < '0' || *arg > '9')
		return -1;
	errno = 0;
	v = strtol(arg, &end, 10);
	if (*end)
		return -1;
	if (errno == ERANGE)
		return -2;
	*(long *) field = v;
	return 0;
}

int wn_opt_seconds(const char *arg, void *field)
{
	char *end;
	double v = strtod(arg, &end);

	/* Written so that NaN fails too. */
	if (end == arg || *end || !(v >= 0))
		return -1;
	if (!(v <= 86400))
		return -2;
	/* The writer needs a moment even when nobody holds the lock:
	 * shorter would only ever report "locked". */
	*(int *) field = v < 0.2 ? 200 : (int) (v * 1000);
	return 0;
}

int wn_opt_flag(const char *arg, void *field)
{
	(void) arg;
	*(bool *) field = true;
	return 0;
}

static size_t count_opts(const wn_cmd *cmd)
{
	size_t n = 0;

	while (cmd->opts && cmd->opts[n].name)
		n++;
	return n;
}

/* "--name=ARG" ("-x, --name=ARG" with a short form), as the option
 * list writes it. */
static int opt_width(const wn_opt *o)
{
	return (o->letter ? 4 : 0) + 2 + (int) strlen(o->name) + (o->arg ? 1 + (int) strlen(o->arg) : 0);
}

static void put_opt(FILE *out, const wn_opt *o)
{
	if (o->letter)
		fprintf(out, "-%c, ", o->letter);
	fprintf(out, "--%s%s%s", o->name, o->arg ? "=" : "", o->arg ? o->arg : "");
}

/* The usage line prefers the short form: "-o DIR". */
static void put_usage_opt(FILE *out, const wn_opt *o)
{
	if (o->letter)
		fprintf(out, "-%c%s%s", o->letter, o->arg ? " " : "", o->arg ? o->arg : "");
	else
		fprintf(out, "--%s%s%s", o->name, o->arg ? "=" : "", o->arg ? o->arg : "");
}

/* Help text whose every line starts in column. */
static void put_help(FILE *out, const char *h, int column)
{
	size_t len;

	while (h[len = strcspn(h, "\n")] == '\n') {
		fprintf(out, "%.*s\n%*s", (int) len, h, column, "");
		h += len + 1;
	}
	fprintf(out, "%s\n", h);
}

static void wn_opts_help(const wn_cli *cli, const wn_cmd *cmd, FILE *out)
{
	size_t n = count_opts(cmd);
	int width = 0;

	fprintf(out, "Usage: %s %s", cli->prog, cli->cmd);
	for (size_t i = 0; i < n; i++) {
		fputs(" [", out);
		put_usage_opt(out, &cmd->opts[i]);
		fputc(']', out);
		if (opt_width(&cmd->opts[i]) > width)
			width = opt_width(&cmd->opts[i]);
	}
	if (cmd->args)
		fprintf(out, " %s", cmd->args);
	fprintf(out, "\n\n%s\n", cmd->about);
	if (n)
		fputc('\n', out);
	for (size_t i = 0; i < n; i++) {
		fputs("  ", out);
		put_opt(out, &cmd->opts[i]);
		/* Help starts in one column, two past the widest option. */
		fprintf(out, "%*s", width - opt_width(&cmd->opts[i]) + 2, "");
		put_help(out, cmd->opts[i].help, width + 4);
	}
}

/* What was wrong with the option word (as the user typed it). */
static int bad_option(wn_cli *cli, int c, const char *word)
{
	char *w = wn_text_sanitize(word, 0);
	int rc;

	if (c == ':')
		rc = wn_cli_usage_error(cli, "%s wants a value", w ? w : "the option");
	else if (word[0] == '-' && word[1] >= '0' && word[1] <= '9')
		rc = wn_cli_usage_error(cli, "'%s' is not an option, and numbers here count from 1", w ? w : "");
	else
		rc = wn_cli_usage_error(cli, "unknown option '%s'", w ? w : "");
	free(w);
	return rc;
}

bool wn_opts_parse(wn_cli *cli, const wn_cmd *cmd, void *args, int argc, char **argv, int *rc)
{
	size_t n = count_opts(cmd);
	struct option *lo = calloc(n + 2, sizeof(*lo));
	char *shorts = calloc(2 * n + 3, 1);	/* ":h" and a letter with : per option */
	bool *given = calloc(n + 1, sizeof(*given));
	int c;

	if (!lo || !shorts || !given) {
		free(lo);
		free(shorts);
		free(given);
		*rc = wn_cli_nomem(cli);
		return false;
	}
	for (size_t i = 0; i < n; i++)
		lo[i] = (struct option) { cmd->opts[i].name,
			cmd->opts[i].arg ? required_argument : no_argument, NULL, OPT_FIRST + (int) i };
	lo[n] = (struct option) { "help", no_argument, NULL, 'h' };
	strcpy(shorts, ":h");
	for (size_t i = 0; i < n; i++)
		if (cmd->opts[i].letter)
			strcat(strncat(shorts, &cmd->opts[i].letter, 1), cmd->opts[i].arg ? ":" : "");
	/* getopt starts afresh for the command's own options. */
	optind = 0;
	/* Our own messages: getopt's "invalid option -- '1'" says nothing
	 * to someone who typed a negative number. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const wn_opt *o;

		for (size_t i = 0; c != 'h' && c < OPT_FIRST && i < n; i++)
			if (cmd->opts[i].letter && c == cmd->opts[i].letter)
				c = OPT_FIRST + (int) i;

		if (c == 'h') {
			wn_opts_help(cli, cmd, stdout);
			*rc = 0;
			break;
		}
		if (c == ':' || c == '?' || c < OPT_FIRST || c >= OPT_FIRST + (int) n) {
			*rc = bad_option(cli, c, argv[optind - 1]);
			break;
		}
		o = &cmd->opts[c - OPT_FIRST];
		/* "Last one wins" would drop a note or a reason typed first
		 * without a word; a flag given twice is still one flag. */
		if (o->arg && given[c - OPT_FIRST]) {
			char letter[4] = "";

			if (o->letter)
				snprintf(letter, sizeof(letter), "-%c/", o->letter);
			*rc = wn_cli_usage_error(cli, "%s--%s is given twice; it takes one value", letter, o->name);
			break;
		}
		given[c - OPT_FIRST] = true;
		switch (o->parse(optarg, (char *) args + o->offset)) {
		case 0:
			continue;
		case -2:
			*rc = wn_cli_usage_error(cli, "--%s=%s is out of range", o->name, optarg);
			break;
		default:
			*rc = wn_cli_usage_error(cli, "--%s wants %s, not '%s'", o->name, o->wants, optarg);
			break;
		}
		break;
	}
	free(lo);
	free(shorts);
	free(given);
	return c == -1;
}
