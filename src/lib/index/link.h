/* winnow — tie a review to the patch it reviews (link.c), for index.c.
 * Sits between the index and the message layer: it reads messages,
 * never the index's own state. */
#ifndef WINNOW_LINK_H
#define WINNOW_LINK_H

#include <notmuch.h>

#include "winnow/index.h"
#include "winnow/mail.h"
#include "cache.h"
#include "link-memo.h"

/* Find the patch the review mail of it answers, searching db: fills
 * it->patch (NULL when none is found) and it->link, and, unless files is
 * NULL, *files with the files the patch's diff touches (NULL-terminated,
 * wn_strv_free(); NULL when there is no patch or no diff); for a
 * follow-up it->report_id too.  *changed tells that a lookup met a
 * revision another process's write discarded: the result may be wrong,
 * reopen and link again.  deps, unless NULL, gets what the answer
 * depended on, for the cache.  memo, unless NULL, keeps the patches read
 * for the next reviews of this run.  WN_NOMEM is the only error. */
wn_status wn_link_patch(notmuch_database_t *db, wn_item *it, const wn_mail *review, char ***files,
			wn_cache_deps *deps, wn_link_memo *memo, bool *changed, wn_error *err);

/* Read patch msg as linking does and keep it in memo for a review of it
 * later in the run (with_ident: the cache is on, its file's identity
 * taken), *diff its hunks: what a series' pass asks of a patch linking
 * has not read.  WN_NOT_FOUND when its mail cannot be read; WN_NOMEM. */
wn_status wn_link_read_patch(wn_link_memo *memo, notmuch_message_t *msg, bool with_ident, wn_diff *diff);

#endif
