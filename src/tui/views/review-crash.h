/* winnow TUI — a bug report's state in the review view: the
 * keys that mark a report of a bot that reads replies real, invalid, a
 * duplicate (picked from the index's other reports) or fixed, and the
 * line that says its state. */
#ifndef WINNOW_TUI_REVIEW_CRASH_H
#define WINNOW_TUI_REVIEW_CRASH_H

#include <stdbool.h>
#include <stddef.h>

#include "view.h"

/* Handle a (V, X, C, Z: ACT_MARK_REAL ...) on finding i (0-based) of
 * it; false when a is none of them. */
bool review_crash_request(struct tui *t, wn_item *it, size_t i, enum action a);
/* "duplicate of [syzbot] ... (the other report's subject)", "fixed by
 * HASH", "fixed by \"TITLE\"", "invalid", "real bug": finding i's state
 * in the report's words; NULL when it has none or is no such report.
 * malloc'd. */
char *review_crash_state(struct tui *t, const wn_item *it, size_t i);

#endif
