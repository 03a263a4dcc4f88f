/* winnow — the trailer block of a patch and its LLM attribution. */
#ifndef WINNOW_TRAILER_H
#define WINNOW_TRAILER_H

#include <stdbool.h>
#include <stddef.h>
#include "winnow/status.h"

typedef struct wn_trailer {
	char *key;	/* as written ("Signed-off-by", "assisted-by") */
	char *value;	/* trimmed; continuation lines joined with one space */
} wn_trailer;

/* X(enum suffix, JSON name, short badge for narrow columns) */
#define WN_ATTR_LIST(X)                         \
	X(NONE,    "none",    "-")              \
	X(MODEL,   "model",   "M")              \
	X(GENERIC, "generic", "G")              \
	X(OTHER,   "other",   "?")

typedef enum {
#define WN_X_(e, name, badge) WN_ATTR_##e,
	WN_ATTR_LIST(WN_X_)
#undef WN_X_
	WN_ATTR_COUNT
} wn_attr_status;

const char *wn_attr_name(wn_attr_status s);
const char *wn_attr_badge(wn_attr_status s);

typedef struct wn_attribution {
	wn_attr_status status;
	char *agent;		/* "Claude"; NULL unless status is MODEL */
	char *model;		/* "claude-opus-4-5"; NULL unless MODEL */
	char **tools;		/* e.g. {"coccinelle","sparse"}; ntools entries */
	size_t ntools;
	char *raw;		/* the trailer value as written; NULL for NONE */
} wn_attribution;

typedef struct wn_patch_trailers {
	wn_trailer *trailers;	/* the trailer block, in order */
	size_t ntrailers;
	wn_attribution attr;
	char *submitter;	/* value of the last Signed-off-by; NULL */
	bool codev_unsigned;	/* a Co-developed-by not followed by the same
				 * person's Signed-off-by */
} wn_patch_trailers;

/* Find the trailer block of a patch mail body (the last paragraph of the
 * commit message, before the "---" line that starts the diffstat/diff)
 * and classify the Assisted-by trailer.  Never fails on content: a body
 * without trailers gives an empty block and status NONE. */
wn_status wn_trailers_parse(const char *body, size_t len, wn_patch_trailers **out, wn_error *err);
void wn_trailers_free(wn_patch_trailers **t);

/* Classify one Assisted-by value (the part after the colon) into a;
 * fills every field; free with wn_attribution_clear(). */
wn_status wn_attribution_parse(const char *value, wn_attribution *a);
void wn_attribution_clear(wn_attribution *a);

#endif
