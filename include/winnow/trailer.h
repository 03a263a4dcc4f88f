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

/* The key every spelling of one model shares, so that statistics count
 * "claude-opus-4-7" and "claude-opus-4.7", "claude-4.6-opus" and
 * "claude-opus-4.6-1m" as one model.  The rule: ASCII letters lower
 * case; any other ASCII byte (punctuation, blanks, control characters)
 * separates words; numbers joined by exactly one '-', '.' or '_' are one
 * version, written with dots ("4-7" is 4.7); a context size (digits then
 * k or m: "1m", "200k") is the same model with a longer context and
 * is dropped, so is a date stamp (a number of four digits or more and
 * what follows it in its version: "20250929", "0613"); then the words
 * in the order written, then the versions, joined by '-'.  When that
 * drops everything, nothing is dropped.  Into out (size bytes, cut to
 * fit); false (out "") when model holds no letter or digit. */
#define WN_MODEL_KEY_MAX 128
bool wn_model_key(const char *model, char *out, size_t size);

#endif
