/* winnow TUI — the one place curses is included, so the wide-character
 * API is always switched on the same way (ncursesw only declares
 * get_wch, addnwstr and friends under NCURSES_WIDECHAR). */
#ifndef WINNOW_TUI_TCURSES_H
#define WINNOW_TUI_TCURSES_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>

#endif
