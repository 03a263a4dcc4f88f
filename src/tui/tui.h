/* winnow — the curses front end, entered from the winnow program.
 *
 * This is its only public face.  Inside, calls go down only: the
 * driver (tui.c: loop, view table and stack, generic actions) over the
 * views (view-*.c), over prompt.c, view.c (rows, cursor, drawing) and
 * the store glue (tui-store.c), over display, theme and keymap, over
 * libwinnow.  view.h spells out each layer and how to add a view. */
#ifndef WINNOW_TUI_H
#define WINNOW_TUI_H

#include "winnow/index.h"
#include "winnow/store.h"

/* Run the TUI on the reviews matching query (NULL or "" for all of the
 * configured query) until the user quits.  idx and store stay owned by
 * the caller.  Returns the process exit code. */
int wn_tui_run(wn_index *idx, wn_store *store, const char *query);

#endif
