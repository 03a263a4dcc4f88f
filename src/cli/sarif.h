/* winnow — findings as a SARIF 2.1.0 log (OASIS), for code-scanning
 * dashboards: one run per bot, its findings as results.
 *
 * The reviews come newest first, every bot mixed, while a run must
 * hold one bot's results together: each bot's results are spooled to
 * a temporary file as they come, then read back one at a time into
 * their run, so memory stays flat however many findings there are. */
#ifndef WINNOW_SARIF_H
#define WINNOW_SARIF_H

#include "printer.h"
#include "winnow/winnow.h"

typedef struct wn_sarif wn_sarif;

wn_status wn_sarif_new(wn_sarif **out, wn_error *err);
/* Spool the findings of a loaded review. */
wn_status wn_sarif_add(wn_sarif *s, const wn_item *it, wn_error *err);
/* Print the log (through a JSON printer) with every spooled result. */
wn_status wn_sarif_write(wn_sarif *s, wn_printer *p, wn_error *err);
void wn_sarif_free(wn_sarif **s);

#endif
