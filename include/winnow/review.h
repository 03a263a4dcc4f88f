/* winnow — a bot review split into findings.
 *
 * The parser works on the decoded body text only (wn_mail.body); which
 * bot sent it is decided first by wn_bot_detect(). */
#ifndef WINNOW_REVIEW_H
#define WINNOW_REVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include "winnow/status.h"
#include "winnow/mail.h"

/* X(enum suffix, name used in JSON/CLI/config, label shown in the TUI)
 *
 * The table of bots: each line is one bot, whose rules (detection,
 * parser, query term) are the descriptor rv_bot_<suffix> in
 * src/lib/bots/.  Detection asks the bots in this order; generic, the
 * rule for senders the user lists, stays last. */
#define WN_BOT_LIST(X)                                  \
	X(SASHIKO,   "sashiko",   "Sashiko")            \
	X(BPF_CI,    "bpf-ci",    "BPF CI")             \
	X(NETDEV_AI, "netdev-ai", "netdev AI")          \
	X(LKP,       "lkp",       "0-day")              \
	X(SYZBOT,    "syzbot",    "syzbot")             \
	X(GENERIC,   "generic",   "generic")

typedef enum {
#define WN_X_(e, name, label) WN_BOT_##e,
	WN_BOT_LIST(WN_X_)
#undef WN_X_
	WN_BOT_COUNT
} wn_bot;

const char *wn_bot_name(wn_bot b);
const char *wn_bot_label(wn_bot b);
/* The notmuch query term that finds b's mails ("from:lkp@intel.com");
 * NULL when there is none (generic: winnow.bots lists the senders).  The
 * default winnow.query ors them all. */
const char *wn_bot_query(wn_bot b);
/* WN_OK and *out set, or WN_USAGE for an unknown name. */
wn_status wn_bot_from_name(const char *name, wn_bot *out);

/* X(enum suffix, JSON name; NULL for "no severity") in display order,
 * most severe first. */
#define WN_SEVERITY_LIST(X)             \
	X(NONE,     NULL)               \
	X(CRITICAL, "critical")         \
	X(HIGH,     "high")             \
	X(MEDIUM,   "medium")           \
	X(LOW,      "low")              \
	X(ERROR,    "error")            \
	X(WARNING,  "warning")          \
	X(NOTE,     "note")             \
	X(UNKNOWN,  "unknown")

typedef enum {
#define WN_X_(e, name) WN_SEV_##e,
	WN_SEVERITY_LIST(WN_X_)
#undef WN_X_
	WN_SEV_COUNT
} wn_severity;

/* JSON name; NULL for WN_SEV_NONE. */
const char *wn_severity_name(wn_severity s);
/* Case-insensitive ("High", "WARNING"); unrecognised words give
 * WN_SEV_UNKNOWN. */
wn_severity wn_severity_parse(const char *word);

#define WN_FP_LEN 16	/* hex digits of a fingerprint */

typedef struct wn_finding {
	int index;			/* 1-based, in mail order */
	char fingerprint[WN_FP_LEN + 1];
	wn_severity severity;
	bool preexisting;		/* the bot's own claim */
	char *summary;			/* one line, whitespace collapsed */
	char *file;			/* NULL when unknown */
	char *function;			/* NULL when unknown */
	int line;			/* new-file line; 0 when unknown */
	bool line_approx;		/* counted across a snip */
	bool about_commit_msg;		/* quoted text came before any diff */
	char *quote;			/* quoted code, "> " stripped, '\n' separated; may be NULL */
	char *comment;			/* the bot's comment text; may be NULL */
} wn_finding;

typedef struct wn_review {
	wn_bot bot;
	wn_finding *findings;
	size_t nfindings;
	int declared;			/* "found N" in the summary; -1 if absent */
	char *cover_id;			/* footer link's series cover Message-ID; NULL */
	int part;			/* footer link's ?part=N; 0 if absent */
	char *patch_subject;		/* "--- Patch [N]: S ---" or In-Reply-To-Subject; NULL */
	char *explain;			/* why there are no findings; NULL when findings exist */
} wn_review;

/* Which bot sent m.  generic_senders: NULL-terminated list of lower-case
 * addresses configured by the user (may be NULL).  Returns false when m
 * is not a bot review (a patch, a human reply). */
bool wn_bot_detect(const wn_mail *m, const char *const *generic_senders, wn_bot *out);

/* Split body (len bytes, decoded text) into findings as bot writes them.
 * Never fails on content: a mail that yields nothing gives zero findings
 * and r->explain says why.  WN_NOMEM is the only error. */
wn_status wn_review_parse(wn_bot bot, const char *body, size_t len, wn_review **out, wn_error *err);
void wn_review_free(wn_review **r);

/* Fingerprint of a finding: 16 hex digits of a stable hash over the bot,
 * the file, the function and the normalised problem text (any may be
 * NULL).  Survives re-parsing and whitespace changes. */
void wn_fingerprint(wn_bot bot, const char *file, const char *function,
		    const char *text, char out[WN_FP_LEN + 1]);

#endif
