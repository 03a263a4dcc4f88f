/* winnow TUI — the terminal: curses setup and teardown, signals, and the
 * only routines that put text on the screen.
 *
 * Security rule: every string drawn goes through draw_text(), which
 * sanitises it with wn_text_sanitize() first, so no control character or
 * escape sequence from a mail ever reaches the terminal. */
#ifndef WINNOW_TUI_DISPLAY_H
#define WINNOW_TUI_DISPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "tcurses.h"
#include "theme.h"

/* Start curses on the controlling terminal.  False (with a message in
 * *why, static) when there is no usable terminal. */
bool display_init(const char **why);
/* Restore the terminal; safe to call twice. */
void display_end(void);
/* Hand the terminal to a program that takes it (the editor), and take
 * it back: the whole screen is redrawn at the next refresh. */
void display_suspend(void);
void display_resume(void);
/* A key for a prompt, as get_wch: from the keyboard, or from the
 * script (script.h) when one drives the interface. */
int display_get_wch(wint_t *wc);
/* The terminating signal received (SIGTERM, SIGINT, SIGHUP), or 0. */
int display_signal(void);
/* Punctuation of the UI itself: an em dash and an ellipsis when the
 * locale speaks UTF-8, ASCII otherwise. */
const char *ui_dash(void);
const char *ui_ellipsis(void);
/* Does the locale speak UTF-8 (so "…" and wide characters can be used)? */
bool display_utf8(void);

/* Draw s at (y, x) in at most width columns with attribute attr, after
 * sanitising it; clipped by display width with an ellipsis when cut,
 * never splitting a character.  Returns the columns used. */
int draw_text_attr(int y, int x, int width, chtype attr, const char *untrusted);
/* Same with a theme role. */
int draw_text(const struct theme *th, int y, int x, int width, enum role role,
	      const char *untrusted);
/* Hand text to the terminal's clipboard (OSC 52, base64: no byte of
 * it reaches the terminal as such).  False when text is empty or holds
 * a control character. */
bool display_clipboard(const char *text);

/* Blank width columns at (y, x) in attr. */
void draw_fill(int y, int x, int width, chtype attr);

/* Display width of s once sanitised. */
int text_width(const char *untrusted);

/* The rest of s (sanitised text) after its first cols columns; a wide
 * character cut in two is skipped whole. */
const char *text_skip_cols(const char *clean, int cols);

/* Sanitise s (tabs kept), expand tabs to 8-column stops, and break it
 * into lines no wider than width (at spaces when possible; '\n' always
 * breaks).  wrap == false clips instead of wrapping (code).  Appends
 * malloc'd lines to *lines / *n, which start as NULL / 0 or as an array
 * made by text_wrap (it grows geometrically).  Returns false when out
 * of memory. */
bool text_wrap(const char *untrusted, int width, bool wrap, char ***lines, size_t *n);

#endif
