/* winnow — verdict states of a finding. */
#ifndef WINNOW_VERDICT_H
#define WINNOW_VERDICT_H

#include <stdbool.h>

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
/* A state as a person types it: its name, its short word ("fp"), or
 * the letter the interface marks it with, the short word's first ("f",
 * "p"), any case.  WN_OK, or WN_USAGE for none of those. */
wn_status wn_verdict_from_word(const char *word, wn_verdict *out);

/* Why a verdict (mostly a false positive) was given: what a
 * bot's operators can act on.  A persistent format (notmuch properties,
 * the journal, shared verdict files, SARIF), so names never change.
 * X(enum suffix, name, the key the interface's prompt takes (its first
 * letter), a short word for a narrow prompt, what it means) */
#define WN_REASON_LIST(X)                                                                                 \
	X(MISREAD_CODE,      "misread-code",      'm', "misread",   "the code does not do what the bot says") \
	X(WRONG_RULE,        "wrong-rule",        'w', "rule",      "the rule it applies does not hold here") \
	X(HANDLED_ELSEWHERE, "handled-elsewhere", 'h', "elsewhere", "another patch or part handles it")      \
	X(ALREADY_FIXED,     "already-fixed",     'a', "fixed",     "already fixed")                          \
	X(INTENDED,          "intended",          'i', "intended",  "the code means to do that")              \
	X(CONFIG,            "config",            'c', "config",    "unreachable in any real configuration")  \
	X(DUPLICATE,         "duplicate",         'd', "dup",       "reported already")                       \
	X(STYLE,             "style",             's', "style",     "true, but not worth a change")    \
	WN_FAKE_REASON_(X)

/* A test build (tests/lib/winnow-fake, -DWN_TEST_FAKE_ENTRIES) has one
 * more reason, which every list of reasons must name
 * (tests/tui/fake-entries.sh). */
#ifdef WN_TEST_FAKE_ENTRIES
#define WN_FAKE_REASON_(X) X(FAKEREASON, "fakereason", 'f', "fake", "a reason of the test build")
#else
#define WN_FAKE_REASON_(X)
#endif

/* Every reason, one an indented line, as a string literal for --help. */
#define WN_REASON_LINE_(e, name, key, word, label) "\n  " name " (" label ")"
#define WN_REASON_LINES WN_REASON_LIST(WN_REASON_LINE_)

typedef enum {
	WN_REASON_NONE,
#define WN_X_(e, name, key, word, label) WN_REASON_##e,
	WN_REASON_LIST(WN_X_)
#undef WN_X_
	WN_REASON_COUNT
} wn_reason;

/* "misread-code"; NULL for WN_REASON_NONE and anything out of range. */
const char *wn_reason_name(wn_reason r);
/* What the reason means, for help and prompts; "" for none. */
const char *wn_reason_label(wn_reason r);
/* The short word of a narrow prompt ("misread"); "" for none. */
const char *wn_reason_word(wn_reason r);
/* The prompt's key ('m'); 0 for none. */
char wn_reason_key(wn_reason r);
/* WN_OK, or WN_USAGE for an unknown name. */
wn_status wn_reason_from_name(const char *name, wn_reason *out);
/* The reason whose prompt key is c; WN_REASON_NONE when none. */
wn_reason wn_reason_from_key(int c);

/* A syzbot bug report's state, in the words a crash report
 * takes: stored as a verdict (stats count it there) plus, for a
 * duplicate or a fixed bug, winnow.closed.<fp> = "<kind> <what>": the
 * other report's Message-ID ("dup") or the fixing commit's hash
 * ("fix").  X(enum suffix, winnow mark's word, the verdict stored, what
 * the interface says, the property's kind or NULL) */
#define WN_CRASH_LIST(X)                                                  \
	X(REAL,      "real",      VALID,          "real bug",     NULL)  \
	X(INVALID,   "invalid",   FALSE_POSITIVE, "invalid",      NULL)  \
	X(DUPLICATE, "duplicate", VALID,          "duplicate of", "dup") \
	X(FIXED,     "fixed",     VALID,          "fixed by",     "fix")

/* Every state with its word, one an indented line, for --help. */
#define WN_CRASH_WORD_LINE_(e, word, v, label, kind) "\n  " word " (" label ")"
#define WN_CRASH_WORD_LINES WN_CRASH_LIST(WN_CRASH_WORD_LINE_)

typedef enum {
	WN_CRASH_NONE,		/* untriaged, or a verdict no crash word names */
#define WN_X_(e, word, v, label, kind) WN_CRASH_##e,
	WN_CRASH_LIST(WN_X_)
#undef WN_X_
	WN_CRASH_COUNT
} wn_crash;

/* The mark word ("duplicate"); NULL for WN_CRASH_NONE. */
const char *wn_crash_word(wn_crash c);
/* "duplicate of"; "" for WN_CRASH_NONE. */
const char *wn_crash_label(wn_crash c);
/* The verdict a state is stored as. */
wn_verdict wn_crash_verdict(wn_crash c);
/* The property's kind ("dup", "fix"); NULL when the state has none. */
const char *wn_crash_kind(wn_crash c);
/* WN_OK, or WN_USAGE for a word that names no state. */
wn_status wn_crash_from_word(const char *word, wn_crash *out);
/* The state of a finding holding verdict v and closed (its
 * winnow.closed value, NULL: none); *what: what closed names (the
 * Message-ID, the hash), NULL when nothing.  A closed value that does
 * not go with v (a hand edit) is not believed. */
wn_crash wn_crash_of(wn_verdict v, const char *closed, const char **what);
/* Is value fit for winnow.closed: "<kind> <what>", a kind of the list,
 * what non-empty printable ASCII without a blank, or for a fixed bug
 * the commit's exact title typed after WN_CLOSED_TITLE ("fix =quill:
 * check the mapping": no tree to read it in; wn_fix_title_ok), at most
 * WN_CLOSED_MAX bytes in all? */
bool wn_closed_ok(const char *value);
#define WN_CLOSED_MAX 200
#define WN_CLOSED_TITLE '='
/* Can title go into a "#syz fix:" line exactly: UTF-8, one line, no
 * control character, no blank at either end (the bot matches it byte
 * for byte)? */
bool wn_fix_title_ok(const char *title);
/* The title typed for state c's what ("=TITLE"), NULL when what is
 * no typed title (a commit hash, another state). */
const char *wn_closed_title(wn_crash c, const char *what);

/* Property keys, shared by the reader and the writer. */
#define WN_PROP_VERDICT   "winnow.verdict."
#define WN_PROP_NOTE      "winnow.note."
#define WN_PROP_FORWARDED "winnow.forwarded."
#define WN_PROP_SEVERITY  "winnow.severity."
#define WN_PROP_REPORTED  "winnow.reported."
#define WN_PROP_REASON    "winnow.reason."
#define WN_PROP_MISSED    "winnow.missed."
#define WN_PROP_CLOSED    "winnow.closed."

#endif
