/* winnow TUI — keys from a file instead of the keyboard, for tests
 * (WINNOW_SCRIPT, after tig's TIG_SCRIPT): the interface runs on no
 * terminal at all (curses writes to /dev/null), so a test reads exact
 * screens without a terminal emulator between it and winnow, and no
 * key can arrive before the one before it was handled.
 *
 * The file, one item a line:
 *   # comment, and blank lines        ignored
 *   keys                              each character one key; <Name> a
 *                                     named key as in winnow.bind
 *                                     (<Enter>, <Down>, <C-c>, <Esc>,
 *                                     <Space>, <lt> for '<')
 *   :save-display FILE                the screen as text, one line a row,
 *                                     trailing blanks dropped
 *   :save-display-color FILE          the same with each run of cells
 *                                     preceded by its full SGR state,
 *                                     "\e[0;1;34;46m" (as
 *                                     tests/lib/sgr-canon.pl writes)
 *   :resize COLSxROWS                 the terminal's new size
 *   :wait                             until the views' background work
 *                                     is done and no write is on its way
 *   :wait-for TEXT                    until TEXT is on the screen
 * WINNOW_SCRIPT may name a FIFO: lines are taken as they are written,
 * and the script ends when the writer closes it, so a test can look at a
 * saved screen and act before it sends the next key.  Files are written
 * whole (a temp file renamed), so a test that waits for one to appear
 * reads it complete.  A :wait or :wait-for that is
 * still waiting after WINNOW_SCRIPT_TIMEOUT seconds (default 60), or a
 * line that makes no sense, ends winnow with status 2 and says why; the
 * end of the file ends it as a quit would. */
#ifndef WINNOW_TUI_SCRIPT_H
#define WINNOW_TUI_SCRIPT_H

#include <stdbool.h>
#include <wchar.h>

/* Read the script named by WINNOW_SCRIPT, if set.  False (with a
 * message in *why, static) when it is set but cannot be read. */
bool script_open(const char **why);
/* Is a script driving the interface? */
bool script_active(void);
/* Free what script_open read. */
void script_close(void);

/* The next key, as get_wch returns it (OK or KEY_CODE_YES, *wc), after
 * running the commands before it.  ERR while the next line is not
 * written yet, while a :wait waits (busy: the
 * caller still has background work or a write on its way; the caller
 * does a slice of it and asks again), at the end of the script and
 * after a failure (script_ended then says so). */
int script_get_wch(wint_t *wc, bool busy);
/* The script is over: its end reached or a command failed.  The
 * interface then quits. */
bool script_ended(void);
/* Why it failed, for stderr once curses is gone; NULL when it did not. */
const char *script_error(void);

#endif
