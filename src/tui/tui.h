/* winnow — the curses front end, entered from the winnow program. */
#ifndef WINNOW_TUI_H
#define WINNOW_TUI_H

#include "winnow/index.h"
#include "winnow/store.h"

/* Run the TUI on the reviews matching query (NULL or "" for all of the
 * configured query) until the user quits.  idx and store stay owned by
 * the caller.  Returns the process exit code. */
int wn_tui_run(wn_index *idx, wn_store *store, const char *query);

#endif
