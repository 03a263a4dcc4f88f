/* winnow --completion=SHELL — the completion script of bash or zsh: the
 * lists, as shell assignments both shells read, then the script proper
 * (contrib/completion/winnow.bash or winnow.zsh, built in as
 * complete-scripts.h).  Every list comes from a table, so an option, a
 * command, a bot or a reason added there completes without an edit:
 *
 *     _winnow_commands    the commands (WN_COMMANDS)
 *     _winnow_global      main's options, "--name=" when they take a value
 *     _winnow_opts[CMD]   CMD's options (its wn_opt table), --help, -x=
 *     _winnow_vals[CMD/--name]   what the option's value may be; CMD
 *                         empty for main's options
 *     _winnow_vals[CMD/N] what CMD's Nth argument may be (its .args)
 *
 * A value list is words, or @file or @dir (the shell's own file
 * completion), or "@, " and words (a comma-separated list, --by). */
#include "autoconfig.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "complete.h"
#include "complete-scripts.h"
#include "winnow/review.h"
#include "winnow/stats.h"
#include "winnow/text.h"
#include "winnow/verdict.h"

/* Only words of these characters reach the script: each list is one
 * single-quoted word list, so a table entry with a quote or a blank in
 * it would break it (none has one; such an entry does not complete). */
static bool word_ok(const char *w, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+", w[i]))
			return false;
	return true;
}

/* One word of a list, a blank before all but the first. */
static void word(FILE *out, bool *first, const char *w, size_t len)
{
	if (!w || !word_ok(w, len))
		return;
	fprintf(out, "%s%.*s", *first ? "" : " ", (int) len, w);
	*first = false;
}

static void words_bots(FILE *out, bool *first)
{
	for (int b = 0; b < WN_BOT_COUNT; b++)
		if (wn_bot_name((wn_bot) b))
			word(out, first, wn_bot_name((wn_bot) b), strlen(wn_bot_name((wn_bot) b)));
}

static void words_reasons(FILE *out, bool *first)
{
	for (int r = 1; r < WN_REASON_COUNT; r++)
		if (wn_reason_name((wn_reason) r))
			word(out, first, wn_reason_name((wn_reason) r), strlen(wn_reason_name((wn_reason) r)));
	word(out, first, "none", 4);	/* mark --reason=none removes it */
}

static void words_keys(FILE *out, bool *first)
{
	fputs("@,", out);
	*first = false;
	for (int k = 0; k < WN_STATS_KEY_COUNT; k++)
		if (wn_stats_key_name((wn_stats_key) k))
			word(out, first, wn_stats_key_name((wn_stats_key) k),
			     strlen(wn_stats_key_name((wn_stats_key) k)));
}

static void words_states(FILE *out, bool *first)
{
	for (int v = 0; v < WN_VERDICT_COUNT; v++) {
		const char *name = wn_verdict_name((wn_verdict) v), *w = wn_verdict_word((wn_verdict) v);

		if (name)
			word(out, first, name, strlen(name));
		if (w)
			word(out, first, w, strlen(w));
	}
	/* A bug report's own words (a bot that reads replies, bots.h): mark takes them. */
	for (int c = WN_CRASH_NONE + 1; c < WN_CRASH_COUNT; c++)
		word(out, first, wn_crash_word((wn_crash) c), strlen(wn_crash_word((wn_crash) c)));
}

/* The words of "text|json" (a .arg or an argument of .args), when it
 * is a choice of lower-case words; "N", "KEY[,KEY]" are not. */
static bool words_choice(FILE *out, bool *first, const char *arg, size_t len)
{
	const char *end = arg + len;

	if (!memchr(arg, '|', len))
		return false;
	for (const char *p = arg; p < end; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-|", *p))
			return false;
	for (const char *p = arg; p < end;) {
		const char *bar = memchr(p, '|', (size_t) (end - p));
		size_t n = bar ? (size_t) (bar - p) : (size_t) (end - p);

		word(out, first, p, n);
		p += n + 1;
	}
	return true;
}

static void words_shells(FILE *out, bool *first)
{
	words_choice(out, first, WN_COMPLETE_SHELLS, strlen(WN_COMPLETE_SHELLS));
}

/* What a value named by an option's name or its argument's name may
 * be.  The names are the ones the commands' tables use: the lists
 * behind them are the library's. */
static const struct {
	const char *name;	/* the option ("bot") or the argument ("STATE") */
	void (*words)(FILE *out, bool *first);
	const char *special;	/* or this instead */
} by_name[] = {
	{ "bot", words_bots, NULL },
	{ "reason", words_reasons, NULL },
	{ "by", words_keys, NULL },
	{ "STATE", words_states, NULL },
	{ "completion", words_shells, NULL },
	{ "config", NULL, "@file" },
	{ "FILE", NULL, "@file" },
	{ "DIR", NULL, "@dir" },
	{ "REMOTE-OR-PATH", NULL, "@file" },
};

/* _winnow_vals[key]='...' for an option or argument of these names
 * (either may be NULL); nothing when nothing is known of its values. */
static void values(FILE *out, const char *key, const char *name, const char *arg, size_t len)
{
	bool first = true;

	fprintf(out, "_winnow_vals[%s]='", key);
	for (size_t i = 0; i < sizeof(by_name) / sizeof(by_name[0]) && first; i++) {
		const char *n = by_name[i].name;

		if ((name && !strcmp(name, n)) || (arg && strlen(n) == len && !memcmp(arg, n, len))) {
			if (by_name[i].words)
				by_name[i].words(out, &first);
			else
				fputs(by_name[i].special, out);
			first = false;
		}
	}
	if (first && arg)
		words_choice(out, &first, arg, len);
	fputs("'\n", out);
}

static void command(FILE *out, const char *name, const wn_cmd *cmd)
{
	bool first = true;
	char key[128];
	int pos = 0;

	if (!word_ok(name, strlen(name)))
		return;
	fprintf(out, "_winnow_opts[%s]='", name);
	for (const wn_opt *o = cmd->opts; o && o->name; o++) {
		fprintf(out, "%s--%s%s", first ? "" : " ", o->name, o->arg ? "=" : "");
		if (o->letter)
			fprintf(out, " -%c%s", o->letter, o->arg ? "=" : "");
		first = false;
	}
	fprintf(out, "%s--help'\n", first ? "" : " ");
	for (const wn_opt *o = cmd->opts; o && o->name; o++) {
		if (!o->arg)
			continue;
		snprintf(key, sizeof(key), "%s/--%s", name, o->name);
		values(out, key, o->name, o->arg, strlen(o->arg));
		if (o->letter) {
			snprintf(key, sizeof(key), "%s/-%c", name, o->letter);
			values(out, key, o->name, o->arg, strlen(o->arg));
		}
	}
	/* The arguments of "MESSAGE-ID FINDING STATE": the Nth word the
	 * Nth argument.  Past an optional one ("[QUERY...]") no position
	 * is sure, and "--note TEXT" is an option's. */
	for (const char *p = cmd->args ? cmd->args : ""; *p;) {
		size_t n = strcspn(p, " ");

		if (*p == '[')
			break;
		if (*p != '-') {
			snprintf(key, sizeof(key), "%s/%d", name, ++pos);
			values(out, key, NULL, p, n);
		}
		if (*p == '-')	/* its value, the next word, is no argument */
			p += n + strspn(p + n, " ") + strcspn(p + n + strspn(p + n, " "), " ");
		else
			p += n;
		p += strspn(p, " ");
	}
}

int wn_complete_print(FILE *out, const char *shell, const struct option *global, size_t n,
		      const char *const names[], const wn_cmd *const cmds[])
{
	const char *script = !strcmp(shell, "bash") ? complete_bash : !strcmp(shell, "zsh") ? complete_zsh : NULL;
	bool first = true;
	char key[128];

	if (!script) {
		char *w = wn_text_sanitize(shell, 0);

		fprintf(stderr, "winnow: --completion wants " WN_COMPLETE_SHELLS ", not '%s'\n", w ? w : "");
		free(w);
		return 1;
	}
	fputs(!strcmp(shell, "zsh") ? "#compdef winnow\n" : "", out);
	fputs("# winnow's completion, made by 'winnow --completion' from its tables.\n"
	      "typeset -gA _winnow_opts _winnow_vals\n"
	      "_winnow_commands='", out);
	for (size_t i = 0; i < n; i++)
		word(out, &first, names[i], strlen(names[i]));
	fputs("'\n_winnow_global='", out);
	first = true;
	for (const struct option *o = global; o->name; o++) {
		fprintf(out, "%s--%s%s", first ? "" : " ", o->name, o->has_arg ? "=" : "");
		first = false;
	}
	fputs("'\n", out);
	for (const struct option *o = global; o->name; o++)
		if (o->has_arg) {
			snprintf(key, sizeof(key), "/--%s", o->name);
			values(out, key, o->name, NULL, 0);
		}
	for (size_t i = 0; i < n; i++)
		command(out, names[i], cmds[i]);
	fputs(script, out);
	return 0;
}
