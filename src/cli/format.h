/* winnow — reviews as calls on the printer (printer.h): one walk of a
 * review serves text and JSON alike. */
#ifndef WINNOW_FORMAT_H
#define WINNOW_FORMAT_H

#include "printer.h"
#include "winnow/forward.h"
#include "winnow/index.h"

/* One loaded review in full, with the thread's pw-bot: lines (npw of them; JSON's
 * "pw_bot" is there only when there are some) and whether the review
 * reached the patch's author (wn_forward_reached; NULL: unknown, JSON
 * null, no text line): `winnow show`. */
void wn_print_review_pw(wn_printer *p, const wn_item *it, const wn_pwbot *pw, size_t npw,
			const wn_reached *reach);

/* One review of a listing, between p->begin_list() and p->end(): the
 * whole review, or for the text printer one line of it. */
void wn_print_list_item(wn_printer *p, const wn_item *it);

#endif
