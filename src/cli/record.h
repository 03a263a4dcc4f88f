/* winnow — a finding as one flat record: what `winnow export` prints
 * per finding (JSON or CSV) and what a SARIF result carries as its
 * properties. */
#ifndef WINNOW_RECORD_H
#define WINNOW_RECORD_H

#include "printer.h"
#include "winnow/index.h"

/* Finding i of a loaded review: its review, patch, author, list,
 * attribution, location, severity, the bot's pre-existing claim, the
 * verdict, note and forwarding.  The same keys in the same order for
 * every finding, so that it is also a CSV row. */
void wn_print_finding_record(wn_printer *p, const wn_item *it, size_t i);

#endif
