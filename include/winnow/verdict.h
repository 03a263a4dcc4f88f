/* winnow — verdict states of a finding. */
#ifndef WINNOW_VERDICT_H
#define WINNOW_VERDICT_H

#include "winnow/status.h"

/* X(enum suffix, name in properties/JSON/CLI, tag suffix or NULL, label,
 * the short word winnow mark also takes) */
#define WN_VERDICT_LIST(X)                                                             \
	X(UNTRIAGED,      "untriaged",      NULL,             "untriaged",      "u")   \
	X(VALID,          "valid",          "valid",          "valid",          "v")   \
	X(FALSE_POSITIVE, "false-positive", "false-positive", "false positive", "fp")  \
	X(PREEXISTING,    "pre-existing",   "pre-existing",   "pre-existing",   "pre")

/* Every state with its short word, one an indented line, as a string
 * literal for a command's help: "\n  untriaged (u)\n  valid (v)...". */
#define WN_VERDICT_WORD_LINE_(e, name, tag, label, word) "\n  " name " (" word ")"
#define WN_VERDICT_WORD_LINES WN_VERDICT_LIST(WN_VERDICT_WORD_LINE_)

typedef enum {
#define WN_X_(e, name, tag, label, word) WN_VERDICT_##e,
	WN_VERDICT_LIST(WN_X_)
#undef WN_X_
	WN_VERDICT_COUNT
} wn_verdict;

const char *wn_verdict_name(wn_verdict v);
/* Tag suffix under the tag prefix ("valid"); NULL for UNTRIAGED. */
const char *wn_verdict_tag(wn_verdict v);
const char *wn_verdict_label(wn_verdict v);
/* The short word winnow mark takes beside the name ("fp"). */
const char *wn_verdict_word(wn_verdict v);
/* WN_OK, or WN_USAGE for an unknown name. */
wn_status wn_verdict_from_name(const char *name, wn_verdict *out);

/* Property keys, shared by the reader and the writer. */
#define WN_PROP_VERDICT   "winnow.verdict."
#define WN_PROP_NOTE      "winnow.note."
#define WN_PROP_FORWARDED "winnow.forwarded."
#define WN_PROP_SEVERITY  "winnow.severity."
#define WN_PROP_REPORTED  "winnow.reported."

#endif
