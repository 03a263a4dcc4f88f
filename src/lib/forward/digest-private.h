/* winnow — what the digests' bodies share (digest.c): the ledger's
 * (ledger-mail.c) and feedback's (feedback.c). */
#ifndef WINNOW_DIGEST_PRIVATE_H
#define WINNOW_DIGEST_PRIVATE_H

#include <time.h>

#include "winnow/buf.h"
#include "winnow/digest.h"

/* Longest line of a digest's prose. */
#define DIGEST_WRAP 72

/* Append first, then text (mail text: made safe here) wrapped at
 * DIGEST_WRAP columns at blanks, each further line after rest; a
 * newline ends it. */
wn_status wn_dg_para(wn_buf *b, const char *first, const char *rest, const char *text);
/* "2026-11-10" (UTC); "" for no date. */
void wn_dg_date(time_t t, char out[16]);

#endif
