/* winnow — a bot review split into findings.
 *
 * The parser works on the decoded body text only (wn_mail.body); which
 * bot sent it is decided first by wn_bot_detect(). */
#ifndef WINNOW_REVIEW_H
#define WINNOW_REVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include "winnow/status.h"
#include "winnow/mail.h"

/* X(enum suffix, name used in JSON/CLI/config, label shown in the TUI)
 *
 * The table of bots: each line is one bot, whose rules (detection,
 * parser, query term) are the descriptor wn_rv_bot_<suffix> in
 * src/lib/bots/.  Detection asks the bots in this order; generic, the
 * rule for senders the user lists, stays last. */
/* A test build (tests/lib/winnow-fake, -DWN_TEST_FAKE_ENTRIES) has one
 * more bot, whose descriptor is tests/lib/fake-entries.c, to show that
 * every list of bots names it (tests/tui/fake-entries.sh). */
#ifdef WN_TEST_FAKE_ENTRIES
#define WN_FAKE_BOT_(X) X(FAKEBOT, "fakebot", "Fake Bot")
#else
#define WN_FAKE_BOT_(X)
#endif

#define WN_BOT_LIST(X)                                  \
	X(SASHIKO,   "sashiko",   "Sashiko")            \
	X(BPF_CI,    "bpf-ci",    "BPF CI")             \
	X(NETDEV_AI, "netdev-ai", "netdev AI")          \
	X(LKP,       "lkp",       "0-day")              \
	X(SYZBOT,    "syzbot",    "syzbot")             \
	WN_FAKE_BOT_(X)                                 \
	X(GENERIC,   "generic",   "generic")

typedef enum {
#define WN_X_(e, name, label) WN_BOT_##e,
	WN_BOT_LIST(WN_X_)
#undef WN_X_
	WN_BOT_COUNT
} wn_bot;

const char *wn_bot_name(wn_bot b);
const char *wn_bot_label(wn_bot b);
/* Every bot of WN_BOT_LIST in one line, for messages and help, so that
 * no list of bots is typed by hand: each name after prefix, sep between
 * them; with labels, a label that is not just the name spelled another
 * way follows it ("lkp (0-day)").  malloc'd; NULL when out of memory. */
char *wn_bot_names_text(const char *prefix, const char *sep, bool labels);
/* The notmuch query term that finds b's mails ("from:lkp@intel.com");
 * NULL when there is none (generic: winnow.bots lists the senders).  The
 * default winnow.query ors them all. */
const char *wn_bot_query(wn_bot b);
/* Who sends b's mails, in words, for the man page's BOTS table; "" when
 * its descriptor does not say. */
const char *wn_bot_sender(wn_bot b);
/* The text that marks the line of b's mails carrying the link to the
 * review online ("dashboard link:"); NULL when there is none. */
const char *wn_bot_link_marker(wn_bot b);
/* Does each finding of b name one bug by its title (syzbot), so that
 * only findings with the identical title are the same problem? */
bool wn_bot_title_names_bug(wn_bot b);
/* Are b's reviews passed on by people (netdev's AI review, sent by a
 * maintainer), so that two people may pass on the same one? */
bool wn_bot_passed_on(wn_bot b);
/* The id of a report that the address a bot sent it from carries
 * (syzbot's "syzbot+HASH@...": HASH), *n its length; NULL when addr
 * carries none. */
const char *wn_bot_report_extid(const char *addr, size_t *n);
/* Is path (n bytes; a source path as bots name it, "kernel/locking/
 * lockdep.c") in the kernel's generic machinery, where unrelated bugs
 * meet: locking, the sanitizers, RCU, deferred work, the scheduler, the
 * allocators, entry and arch code, the stack dumper, and the headers of
 * include/linux/ whose helpers everyone calls?  A crash is placed
 * outside it and no two findings are alike by such a place. */
bool wn_place_generic(const char *path, size_t n);
/* s past a bot's subject tag ("[syzbot ci]", any case) at its start;
 * s itself when it starts with none. */
const char *wn_bot_subject_untag(const char *s);
/* The notmuch query of b's mails that are no reviews (branch summaries,
 * follow-ups, its own patches): the index leaves them out unless
 * winnow.show_summaries is set.  Kept in step with the kind b's parser
 * gives those mails.  NULL when b has none. */
const char *wn_bot_hidden_query(wn_bot b);
/* WN_OK and *out set, or WN_USAGE for an unknown name. */
wn_status wn_bot_from_name(const char *name, wn_bot *out);
/* The bot a person names (name[0..len)): its name (lkp) or its label
 * (0-day), any case.  The one lookup of what people type: a query's
 * bot:NAME and every --bot.  False when none. */
bool wn_bot_named(const char *name, size_t len, wn_bot *out);

/* X(enum suffix, JSON name; NULL for "no severity", graded: 1 when a
 * maintainer grades by it (mark --severity, the interface's "!"), 0 for
 * the words only bots use) in display order, most severe first. */
#define WN_SEVERITY_LIST(X)             \
	X(NONE,     NULL,       0)      \
	X(CRITICAL, "critical", 1)      \
	X(HIGH,     "high",     1)      \
	X(MEDIUM,   "medium",   1)      \
	X(LOW,      "low",      1)      \
	WN_FAKE_SEVERITY_(X)            \
	X(ERROR,    "error",    0)      \
	X(WARNING,  "warning",  0)      \
	X(NOTE,     "note",     0)      \
	X(UNKNOWN,  "unknown",  0)

/* A test build (tests/lib/winnow-fake, -DWN_TEST_FAKE_ENTRIES) grades
 * by one more severity, to show that every list of them names it. */
#ifdef WN_TEST_FAKE_ENTRIES
#define WN_FAKE_SEVERITY_(X) X(FAKESEV, "fakesev", 1)
#else
#define WN_FAKE_SEVERITY_(X)
#endif

typedef enum {
#define WN_X_(e, name, graded) WN_SEV_##e,
	WN_SEVERITY_LIST(WN_X_)
#undef WN_X_
	WN_SEV_COUNT
} wn_severity;

/* The graded severities as one string literal, for option help,
 * messages and prompts made at compile time: WN_SEV_GRADES_PIPE is
 * "critical|high|medium|low|", WN_SEV_GRADES_COMMA "critical, high,
 * medium, low, " (so a literal after it ends the list). */
#define WN_SEV_IF_0_(x)
#define WN_SEV_IF_1_(x) x
#define WN_SEV_GRADE_PIPE_(e, name, graded) WN_SEV_IF_##graded##_(name "|")
#define WN_SEV_GRADE_COMMA_(e, name, graded) WN_SEV_IF_##graded##_(name ", ")
#define WN_SEV_GRADES_PIPE WN_SEVERITY_LIST(WN_SEV_GRADE_PIPE_)
#define WN_SEV_GRADES_COMMA WN_SEVERITY_LIST(WN_SEV_GRADE_COMMA_)

/* Does a maintainer grade by s (critical, high...)? */
bool wn_severity_graded(wn_severity s);
/* JSON name; NULL for WN_SEV_NONE. */
const char *wn_severity_name(wn_severity s);
/* Case-insensitive ("High", "WARNING"); unrecognised words give
 * WN_SEV_UNKNOWN. */
wn_severity wn_severity_parse(const char *word);

/* X(enum suffix, JSON name, in the queue by default): what a bot's
 * mail is.  Only reviews and reports are triaged; the others are the
 * bots' own traffic, which winnow.show_summaries brings into the list
 * (the index leaves them out by each bot's wn_bot_hidden_query()). */
#define WN_KIND_LIST(X)                         \
	X(REVIEW,   "review",    true)          \
	X(REPORT,   "report",    true)          \
	X(FOLLOWUP, "follow-up", false)         \
	X(SUMMARY,  "summary",   false)         \
	X(FIXUP,    "fix-up",    false)

typedef enum {
#define WN_X_(e, name, queued) WN_KIND_##e,
	WN_KIND_LIST(WN_X_)
#undef WN_X_
	WN_KIND_COUNT
} wn_kind;

const char *wn_kind_name(wn_kind k);
/* Does a mail of kind k belong in the triage queue? */
bool wn_kind_queued(wn_kind k);

/* X(enum suffix, JSON name; NULL for "not a follow-up"): what a reply in
 * a bug report's thread says (syzbot's follow-ups). */
#define WN_FOLLOWUP_LIST(X)                             \
	X(NONE,           NULL)                         \
	X(REPRODUCER,     "reproducer")                 \
	X(BISECTED,       "bisected")                   \
	X(FIXED_BY,       "fixed-by")                   \
	X(TEST_OK,        "test-ok")                    \
	X(TEST_FAILED,    "test-failed")                \
	X(STILL_TRIGGERS, "still-triggers")             \
	X(COMMAND_REPLY,  "command-reply")

typedef enum {
#define WN_X_(e, name) WN_FOLLOWUP_##e,
	WN_FOLLOWUP_LIST(WN_X_)
#undef WN_X_
	WN_FOLLOWUP_COUNT
} wn_followup;

/* JSON name; NULL for WN_FOLLOWUP_NONE. */
const char *wn_followup_name(wn_followup f);

#define WN_FP_LEN 16	/* hex digits of a fingerprint */

/* One more place a finding stands (the same problem again elsewhere). */
typedef struct wn_place {
	char *file;			/* NULL when unknown */
	char *function;			/* NULL when unknown */
	int line;			/* 0 when unknown */
	bool line_approx;
} wn_place;

/* One place a finding is discussed at: the code the bot quoted there
 * and its words about that code.  Sashiko discusses one problem at
 * several hunks, a block each; every block is a site, so that no words
 * are shown without the code they are about. */
typedef struct wn_site {
	char *file;			/* NULL when unknown */
	char *function;			/* NULL when unknown */
	int line;			/* new-file line; 0 when unknown */
	bool line_approx;		/* counted across a snip */
	bool about_commit_msg;		/* the code is the commit message */
	char *code;			/* quoted code, "> " stripped; NULL */
	char *comment;			/* the bot's words there; NULL */
} wn_site;

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
	bool pairing_unsure;		/* the summary and the comment may come from
					 * different entries of the mail: their words
					 * did not tell which comment is whose */
	char *quote;			/* quoted code, "> " stripped, '\n' separated; may be NULL */
	char *comment;			/* the bot's comment text; may be NULL */
	char *path;			/* file normalised ("./", "a/../", a base name
					 * resolved in the patch's files); NULL with file */
	char *detail;			/* where the diagnostic was reported when that is
					 * not where it is placed, repeats; NULL */
	wn_place *also;			/* further places of the same problem */
	size_t nalso;
	wn_site *sites;			/* the blocks the finding was made of, in mail
					 * order, each with its code (the first is
					 * where file, line and quote come from;
					 * comment holds all their words); NULL when
					 * it has one place only: read them through
					 * wn_finding_site() */
	size_t nsites;
	char *notes;			/* the compiler's "note:" lines under the
					 * diagnostic (where a macro was expanded, the
					 * previous definition) with their code, '\n'
					 * separated; NULL */
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
	wn_kind kind;
	wn_followup followup;		/* a reply in a report's thread: what it says */
	char *followup_says;		/* ... in one line (the commit, the result); NULL */
	char *note;			/* a person's own words around a review they
					 * pass on; NULL */
	char *patch_id;			/* the patch's Message-ID as the mail names it
					 * (0-day's "patch link:"); NULL */
	time_t posted_before;		/* the patch was posted before this (0-day's
					 * branch date); 0 when unknown */
	bool wants_patch_files;		/* the patch's files would place or resolve a
					 * finding (wn_review_input) */
	char **tags;			/* the trailer lines the bot asks a fix to
					 * carry ("Reported-by: kernel test robot
					 * <lkp@intel.com>", "Closes: https://..."),
					 * verbatim, in mail order; no control
					 * character, valid UTF-8.  NULL when none */
	size_t ntags;
	char **facts;			/* what a fix's author needs of the report to
					 * see the problem again, the report's own
					 * lines in mail order: 0-day's "config:",
					 * "compiler:", "reproduce" lines, syzbot's
					 * kernel ("HEAD commit:", "git tree:"),
					 * dashboard and reproducer links.  Shared by
					 * every finding (wn_finding_facts()); no
					 * control character, valid UTF-8.  NULL when
					 * none */
	size_t nfacts;
} wn_review;

/* How many sites finding f has: its sites, else 1 when it has code or
 * words of its own, else 0. */
size_t wn_finding_nsites(const wn_finding *f);
/* Site i (below wn_finding_nsites(f)) of f, pointing into f: one of its
 * sites, or, when it has none, its own place, quote and comment. */
wn_site wn_finding_site(const wn_finding *f, size_t i);
/* The report lines finding i of r carries (r->facts: the same for every
 * finding of a report); *n gets how many. */
const char *const *wn_finding_facts(const wn_review *r, size_t i, size_t *n);
/* Is r, a mail of bot b, a bug report whose state the bot tracks by
 * replies (syzbot's "#syz" commands), so that the report has a state of
 * its own (invalid, duplicate of, fixed by) a reply can tell? */
bool wn_review_tracks_state(wn_bot b, const wn_review *r);

/* Which bot sent m.  generic_senders: NULL-terminated list of lower-case
 * addresses configured by the user (may be NULL).  Returns false when m
 * is not a bot review (a patch, a human reply). */
bool wn_bot_detect(const wn_mail *m, const char *const *generic_senders, wn_bot *out);
/* Is addr (an address, any case) one a bot sends from, by its own
 * address rule or in generic_senders (winnow.bots)?  A reply to the
 * patch never Cc's a bot: its mailbox is not read by people. */
bool wn_bot_address(const char *addr, const char *const *generic_senders);
/* The same, saying which bot (*out; GENERIC for generic_senders). */
bool wn_bot_of_address(const char *addr, const char *const *generic_senders, wn_bot *out);

/* Split body (len bytes, decoded text) into findings as bot writes them.
 * Never fails on content: a mail that yields nothing gives zero findings
 * and r->explain says why.  WN_NOMEM is the only error. */
wn_status wn_review_parse(wn_bot bot, const char *body, size_t len, wn_review **out, wn_error *err);

/* What else a parser may know about the mail and the patch it answers. */
typedef struct wn_review_input {
	const char *subject;		/* the mail's decoded Subject; NULL: unknown */
	const char *const *patch_files;	/* files the reviewed patch's diff touches,
					 * NULL-terminated; NULL: not known */
} wn_review_input;

/* wn_review_parse() with in (may be NULL): the subject decides what
 * kind of mail a bot's is and titles a bug report; the patch's files
 * place a diagnostic reported through a header at its line in the
 * patch and resolve base names.  Fingerprints never depend on
 * patch_files: a verdict finds its finding whether the patch is in the
 * index or not. */
wn_status wn_review_parse_with(wn_bot bot, const char *body, size_t len, const wn_review_input *in,
			       wn_review **out, wn_error *err);
void wn_review_free(wn_review **r);

/* Fingerprint of a finding: 16 hex digits of a stable hash over the bot,
 * the file, the function and the normalised problem text (any may be
 * NULL).  Survives re-parsing and whitespace changes. */
void wn_fingerprint(wn_bot bot, const char *file, const char *function,
		    const char *text, char out[WN_FP_LEN + 1]);

#endif
