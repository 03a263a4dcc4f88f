/* winnow — one AI review passed on twice (copy.c): the later mail is a
 * copy of the earlier, and a verdict on either is a verdict on both. */
#ifndef WINNOW_INDEX_COPY_H
#define WINNOW_INDEX_COPY_H

#include <notmuch.h>

#include "index-private.h"

/* Fill it->copies and it->copy_of for it (loaded from msg): the other
 * reviews of msg's thread by the same forwarded bot whose findings are
 * word for word its own (the same fingerprints).  WN_NOMEM is the only
 * error; a mail that cannot be read is no copy. */
wn_status wn_copy_find(wn_index *idx, wn_item *it, notmuch_message_t *msg, wn_error *err);
/* After it's own verdicts were read: a finding it has none for takes
 * the one a copy has (verdict, note, severity, forwarded, reported). */
void wn_copy_merge(wn_index *idx, wn_item *it);
/* Free it->copies and it->copy_of. */
void wn_copy_clear(wn_item *it);

#endif
