/* winnow — the command line front end.
 *
 * A command is one file, cmd-NAME.c, that declares a wn_cmd: its
 * options as data, what its arguments are, and the function that does
 * the work; plus one line in WN_COMMANDS (main.c) saying what main
 * opens for it.  main parses the options, answers --help, checks the
 * arguments, opens the index and the journal, runs the command and
 * closes them again, so a command only does its own work. */
#ifndef WINNOW_CLI_H
#define WINNOW_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "formats.h"
#include "winnow/winnow.h"

/* What every command gets: the global options, and what main opened. */
typedef struct wn_cli {
	const char *prog;		/* "winnow" */
	const char *config;		/* --config FILE, or NULL */
	const char *cmd;		/* the command's name, for messages */
	wn_index *idx;			/* with WN_CMD_INDEX */
	wn_store *store;		/* with WN_CMD_STORE; may be NULL with _MAYBE */
	char *warned;			/* the store warning last printed */
} wn_cli;

/* What main opens before a command runs (WN_COMMANDS' needs). */
enum {
	WN_CMD_INDEX = 1 << 0,		/* the notmuch index, read-only */
	WN_CMD_STORE = 1 << 1,		/* and the journal, which must open */
	WN_CMD_STORE_MAYBE = 1 << 2,	/* and the journal if it opens; else a warning */
};
/* A replay budget: leave journaled verdicts for the command to write. */
#define WN_NO_REPLAY (-1)

/* An option, declared as data: main parses it and --help shows it. */
typedef struct wn_opt {
	const char *name;	/* long name, without "--" */
	const char *arg;	/* its argument as --help names it ("N"); NULL: takes none */
	const char *help;	/* for --help; '\n' separates lines */
	/* Read arg into the field at offset in the command's arguments;
	 * -1 when arg is not what the option wants, -2 when it is (a
	 * number) but out of the range the field can hold or winnow takes. */
	int (*parse)(const char *arg, void *field);
	size_t offset;
	const char *wants;	/* "a number": "--limit wants a number, not 'x'" */
	char letter;		/* a short form too ('o': -o ARG); 0: none */
} wn_opt;

/* Option parsers, by the type of the field they fill. */
int wn_opt_string(const char *arg, void *field);	/* const char * */
int wn_opt_count(const char *arg, void *field);		/* long, 0 or more */
int wn_opt_seconds(const char *arg, void *field);	/* int, milliseconds */
int wn_opt_flag(const char *arg, void *field);		/* bool, set (no argument) */

/* Options several commands take, into field of their arguments (of
 * type type), with their own help. */
#define WN_OPT_FORMAT(type, field, help_text)                                                \
	{                                                                                    \
		.name = "format", .arg = WN_FORMATS_ARG(WN_FORMATS_PRINTER),                 \
		.parse = wn_opt_string, .offset = offsetof(type, field), .help = (help_text) \
	}
#define WN_OPT_TIMEOUT(type, field, help_text)                             \
	{ .name = "timeout", .arg = "SECONDS", .parse = wn_opt_seconds,    \
	  .offset = offsetof(type, field), .wants = "seconds", .help = (help_text) }

typedef struct wn_cmd {
	const char *args;	/* after the options on the usage line; NULL: none */
	const char *about;	/* what it does, for --help */
	const wn_opt *opts;	/* ends with { 0 }; NULL: none */
	size_t size;		/* of its arguments (a struct of its own), */
	const void *defaults;	/* which start as a copy of this: WN_CMD_ARGS */
	/* Check the arguments after the options (argv[0] the first) and
	 * keep them in args.  Runs before anything is opened, so a usage
	 * error never waits on the database.  0, or the exit code.
	 * NULL: the command takes no arguments. */
	int (*check)(wn_cli *cli, void *args, int argc, char **argv);
	/* The work, with what main opened; returns the exit code. */
	int (*run)(wn_cli *cli, void *args);
} wn_cmd;

/* A command's arguments: a struct type of its own, starting as the
 * initialiser that follows (designated fields). */
#define WN_CMD_ARGS(type, ...) \
	.size = sizeof(type), .defaults = &(const type) { __VA_ARGS__ }

/* Parse argv (argv[0] the command's name) by cmd's options into args.
 * True to go on, with optind at the first argument; false to stop
 * with *rc (0 after --help, 1 for a usage error). */
bool wn_opts_parse(wn_cli *cli, const wn_cmd *cmd, void *args, int argc, char **argv, int *rc);

/* Print "winnow: <what><msg>" on stderr, msg sanitised. */
void wn_cli_say(const wn_cli *cli, const char *what, const char *msg);
/* Print "winnow: <msg>" on stderr and return the exit code for err. */
int wn_cli_fail(const wn_cli *cli, const wn_error *err);
/* Say "out of memory"; returns 2. */
int wn_cli_nomem(const wn_cli *cli);
/* Print "winnow <cmd>: <printf msg>" on stderr; returns 1 (user error). */
int wn_cli_usage_error(const wn_cli *cli, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* 0 when name is an output format, else a usage error (1). */
int wn_cli_check_format(const wn_cli *cli, const char *name);
/* 0 when name is one of the n names (a command's WN_FORMATS_ list),
 * else a usage error naming them all (1). */
int wn_cli_check_format_in(const wn_cli *cli, const char *name, const char *const *names, size_t n);
/* The same over a list of formats.h. */
#define WN_CLI_CHECK_FORMAT(cli, name, LIST)                                                  \
	wn_cli_check_format_in((cli), (name), (const char *const[]){ LIST(WN_FORMAT_NAME_) }, \
			       sizeof((const char *const[]){ LIST(WN_FORMAT_NAME_) }) /       \
				       sizeof(const char *))
/* Words joined by spaces into one notmuch query, as notmuch does
 * (malloc'd; NULL when out of memory). */
char *wn_cli_join(int argc, char **argv);
/* A count from 1, in decimal, into *out: 0; -1 when s is not one; -2
 * when it is past any sane count (a billion), so that it is reported as
 * too large rather than wrapped. */
int wn_cli_count(const char *s, unsigned long *out);
/* "finding 2": the finding with fingerprint fp of review id, or "a
 * finding" when the review no longer has it (malloc'd; NULL: out of
 * memory).  For what undo and redo say of a finding. */
char *wn_cli_finding_name(const wn_cli *cli, const char *id, const char *fp);
/* Overlay journaled verdicts when there is a journal. */
void wn_cli_overlay(const wn_cli *cli, wn_item *it);
/* Print the store's warning if it is one not printed yet (a change set
 * aside by the writer, a review gone from the index). */
void wn_cli_store_warning(wn_cli *cli);
/* Report the outcome of a flush after a change was journaled; returns
 * the exit code (0, or 2 with the verdict kept in the journal). */
int wn_cli_flushed(wn_cli *cli, wn_status st, const wn_error *err);

#endif
