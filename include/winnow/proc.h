/* winnow — running programs the user named (the editor, sendmail, git,
 * the pager), never through a shell (src/lib/core/proc.c).  Their command
 * lines come from the user's configuration and are split into words
 * here; input goes to them on a pipe, never on a command line. */
#ifndef WINNOW_PROC_H
#define WINNOW_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include "winnow/buf.h"
#include "winnow/status.h"

/* Split a command line into words, as a shell would without running
 * one: blanks separate words, '...' and "..." quote, a backslash
 * escapes the next character.  No expansion of any kind.  *argv is
 * NULL-terminated, free with wn_strv_free().  WN_USAGE for an empty
 * command or an open quote. */
wn_status wn_argv_split(const char *cmd, char ***argv, wn_error *err);

/* Run $VISUAL, else $EDITOR, else vi on the n files (as its last
 * arguments), on the caller's terminal, and wait for it.  An editor
 * that cannot start, fails or is killed gives an error; the files stay
 * as the editor left them.  (The TUI leaves curses mode around it.) */
wn_status wn_run_editor(const char *const *paths, size_t n, wn_error *err);
/* Run argv on the caller's terminal (its stdin, stdout and stderr) and
 * wait for it, Ctrl-C being its business meanwhile, as system() does:
 * the editor above, the pager (memory/pager.c).  what names it in the
 * error ("the pager"): WN_CONFIG when it cannot be run, WN_IO when it
 * fails or is killed. */
wn_status wn_proc_run_terminal(char *const *argv, const char *what, wn_error *err);

/* Run argv with input on its stdin, what it writes on stdout and
 * stderr collected in output.  WN_OK only when it exited 0 having read
 * all of input; otherwise err says how it ended (not found, exit
 * status, signal, left part of the input unread).  Returns when argv
 * exits, even if something it started holds the pipes; stops it after
 * timeout_ms (0: no limit) or on Ctrl-C (SIGINT). */
wn_status wn_proc_run(char *const *argv, const char *input, size_t len, int timeout_ms,
		      wn_buf *output, wn_error *err);
/* The same with the environment envp (NULL: this process's), so that a
 * caller changes its child's environment, never its own. */
wn_status wn_proc_run_env(char *const *argv, char *const *envp, const char *input, size_t len,
			  int timeout_ms, wn_buf *output, wn_error *err);
/* A tool winnow drives (b4, git, lei, notmuch new), no input, in the
 * folder dir (NULL: this process's; b4 shazam works on "the repository
 * I am in") and in a process group of its own, so that it is stopped
 * whole, with what it started (b4's git am): after timeout_s seconds
 * (0: no limit; err names the setting limit) or on Ctrl-C.  *stopped
 * (when not NULL) says whether it was stopped so. */
wn_status wn_proc_run_tool(const char *dir, char *const *argv, int timeout_s, const char *limit,
			   wn_buf *output, bool *stopped, wn_error *err);

/* Ctrl-C over a task of several programs (applying a series: git, b4,
 * git again): from hold to release, SIGINT does not end the process
 * between two programs but is counted, and stops the one running then,
 * so that the task cleans up after itself.  Release says whether a
 * Ctrl-C came meanwhile; holds nest. */
void wn_proc_hold_interrupt(void);
bool wn_proc_release_interrupt(void);

/* Run argv (no input) for what it writes, which is the point (git
 * log): kept up to max_out bytes, not the 64 KiB kept of a mail
 * program's words.  WN_IO when it wrote more (nothing is cut short
 * silently). */
wn_status wn_proc_run_max(char *const *argv, size_t max_out, wn_buf *output, wn_error *err);

/* The state folder of winnow ($XDG_STATE_HOME/winnow, else
 * ~/.local/state/winnow), malloc'd into *out; not created here. */
wn_status wn_state_dir(char **out, wn_error *err);
/* The cache folder of winnow ($XDG_CACHE_HOME/winnow, else
 * ~/.cache/winnow), malloc'd into *out; not created here. */
wn_status wn_cache_dir(char **out, wn_error *err);
/* mkdir -p path, mode 0700 for what it creates. */
wn_status wn_mkdirs(const char *path, wn_error *err);

/* Now, for everything that looks at "the last N days": $WINNOW_NOW
 * (Unix seconds) when set, so that a benchmark over a corpus made for
 * a fixed date, or a test, gives the same answer on any day; else the
 * clock. */
time_t wn_now(void);
/* The Unix seconds in environment variable name, when it holds a plain
 * number; else otherwise. */
time_t wn_env_time(const char *name, time_t otherwise);

#endif
