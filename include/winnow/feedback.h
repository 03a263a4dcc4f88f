/* winnow — feedback to a bot's operators: the findings judged false
 * positive, or graded otherwise than the bot did, that were not
 * reported yet, gathered a review at a time and written per bot as a
 * digest mail (digest.h) to winnow.feedback.<bot>, or as records for
 * the operators' own tools.  What was sent is recorded on each finding
 * (wn_store_reported: winnow.reported.<fp>), so nothing is reported
 * twice. */
#ifndef WINNOW_FEEDBACK_H
#define WINNOW_FEEDBACK_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "winnow/forward.h"
#include "winnow/index.h"
#include "winnow/status.h"

typedef struct wn_feedback_item {
	char *review;		/* the review's Message-ID */
	size_t finding;		/* 1-based */
	char fingerprint[WN_FP_LEN + 1];
	wn_bot bot;
	time_t date;		/* the review's */
	bool false_positive;	/* judged so */
	wn_severity bot_severity;
	wn_severity own_severity;	/* the maintainer's; WN_SEV_NONE: not regraded */
	char *summary;
	char *file, *function;	/* NULL when unknown */
	int line;
	char *patch, *patch_subject;	/* NULL when the patch is not in the index */
	char *link;		/* the review online (the bot's footer, the CI run); NULL */
	char *note;		/* the maintainer's; NULL */
	wn_reason reason;	/* why it is a false positive; WN_REASON_NONE */
} wn_feedback_item;

typedef struct wn_feedback wn_feedback;

wn_status wn_feedback_new(wn_index *idx, wn_feedback **out, wn_error *err);
void wn_feedback_free(wn_feedback **fb);

/* Add the findings of a loaded review worth reporting: judged false
 * positive, or with the maintainer's severity other than the bot's,
 * and not reported before. */
wn_status wn_feedback_add(wn_feedback *fb, const wn_item *it, wn_error *err);
size_t wn_feedback_count(const wn_feedback *fb);
const wn_feedback_item *wn_feedback_at(const wn_feedback *fb, size_t i);

/* winnow.feedback.<bot name> of the notmuch config: where the bot's
 * operators read; NULL when unset (there is no default).  malloc'd. */
char *wn_feedback_address(wn_index *idx, wn_bot bot);

/* The digest of bot's findings (there must be some) To to: its false
 * positives grouped by reason, a count and an example of
 * each reason first, in WN_REASON_LIST's order, those without one
 * next, then the regraded ones. */
wn_status wn_feedback_digest(const wn_feedback *fb, wn_bot bot, const wn_conf *c, const char *to,
			     wn_forward **out, wn_error *err);

#endif
