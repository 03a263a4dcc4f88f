/* winnow --completion=SHELL: the bash or zsh completion script, its
 * lists made from the tables the program parses with (WN_COMMANDS and
 * main's options, each command's wn_opt table, the verdicts, reasons,
 * bots and --by keys), so a new option completes without an edit. */
#ifndef WINNOW_CLI_COMPLETE_H
#define WINNOW_CLI_COMPLETE_H

#include <getopt.h>
#include <stdio.h>

#include "cli.h"

/* The shells --completion knows, for its argument's values. */
#define WN_COMPLETE_SHELLS "bash|zsh"

/* Print shell's script (bash or zsh) to out: global are main's options
 * (ending with a zeroed one), names[i] and cmds[i] the n commands.
 * 0, or 1 (a usage error, said on stderr) for an unknown shell. */
int wn_complete_print(FILE *out, const char *shell, const struct option *global, size_t n,
		      const char *const names[], const wn_cmd *const cmds[]);

#endif
