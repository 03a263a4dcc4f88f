/* winnow — the command line front end: one file per subcommand. */
#ifndef WINNOW_CLI_H
#define WINNOW_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "winnow/winnow.h"

/* What every subcommand gets: the global options, and the index and
 * store once wn_cli_open() has opened them. */
typedef struct wn_cli {
	const char *prog;		/* "winnow" */
	const char *config;		/* --config FILE, or NULL */
	wn_index *idx;
	wn_store *store;
} wn_cli;

typedef struct wn_cmd {
	const char *name;
	int (*run)(wn_cli *cli, int argc, char **argv);
	const char *summary;
} wn_cmd;

/* Open the index and the journal; replay the journal (waiting at most
 * replay_ms for the write lock, -1 not at all; pending verdicts stay
 * journaled and are overlaid when they do not make it).  Without
 * need_store a journal that cannot be opened is a warning and
 * cli->store stays NULL.  Prints the error and returns the exit code on
 * failure, 0 on success. */
int wn_cli_open(wn_cli *cli, int replay_ms, bool need_store);
void wn_cli_overlay(const wn_cli *cli, wn_item *it);
void wn_cli_close(wn_cli *cli);

/* Print "winnow: <what><msg>" on stderr, msg sanitised. */
void wn_cli_say(const wn_cli *cli, const char *what, const char *msg);
/* Print "winnow: <msg>" on stderr and return the exit code for err. */
int wn_cli_fail(const wn_cli *cli, const wn_error *err);
/* Print "winnow <cmd>: <printf msg>" on stderr; returns 1 (user error). */
int wn_cli_usage_error(const wn_cli *cli, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Parse a timeout in seconds (fractions allowed) into milliseconds;
 * -1 when s is not one. */
int wn_cli_parse_timeout(const char *s, int *ms);
/* Report the outcome of a flush after a change was journaled; returns
 * the exit code (0, or 2 with the verdict kept in the journal). */
int wn_cli_flushed(wn_cli *cli, wn_status st, const wn_error *err);

/* Subcommands. */
int wn_cmd_list(wn_cli *cli, int argc, char **argv);
int wn_cmd_show(wn_cli *cli, int argc, char **argv);
int wn_cmd_mark(wn_cli *cli, int argc, char **argv);
int wn_cmd_undo(wn_cli *cli, int argc, char **argv);
int wn_cmd_sync(wn_cli *cli, int argc, char **argv);

#endif
