/* winnow — one AI review passed on twice (copy.c): the later mail is a
 * copy of the earlier, and a verdict on either is a verdict on both. */
#ifndef WINNOW_INDEX_COPY_H
#define WINNOW_INDEX_COPY_H

#include <notmuch.h>

#include "cache.h"
#include "index-private.h"

/* Fill it->copies and it->copy_of for it (in thread tid, dated mine):
 * the other reviews of the thread by the same forwarded bot whose
 * findings are word for word its own (the same fingerprints).  The
 * bot's mails are found once per revision of the index, for every
 * review.  With deps (the review's cache record's), the thread
 * searched and the mails compared are noted in it: the answer is kept
 * with the record and holds as long as it does.  WN_NOMEM is the only
 * error; a mail that cannot be read is no copy. */
wn_status wn_copy_find(wn_index *idx, wn_item *it, const char *tid, time_t mine,
		       wn_cache_deps *deps, wn_error *err);
/* After it's own verdicts were read: a finding it has none for takes
 * the one a copy has (verdict, note, severity, forwarded, reported). */
void wn_copy_merge(wn_index *idx, wn_item *it);
/* Free what wn_copy_find() keeps of the index (wn_index.copies). */
void wn_copy_index_free(struct wn_copy_index **ci);
/* Free it->copies and it->copy_of. */
void wn_copy_clear(wn_item *it);

#endif
