/* winnow — syzbot's mails, split over three files: syzbot.c (the bot's
 * descriptor, what kind each mail is, reports and syzbot ci's series
 * reports), syzbot-crash.c (the crash text of a report) and
 * syzbot-followup.c (the replies in a report's thread). */
#ifndef WINNOW_BOTS_SYZBOT_H
#define WINNOW_BOTS_SYZBOT_H

#include "bots.h"

/* The report's end: syzbot's footer ("---" alone), a syzbot ci
 * section's "***", a test result's "Tested on:". */
bool wn_rv_syz_report_end(const char *s, size_t n);
/* "=====...": the rule around a KASAN report. */
bool wn_rv_syz_rule_line(const char *s, size_t n);
/* A crash line: "BUG:", "WARNING:", "general protection fault", ... */
bool wn_rv_syz_crash_head(const char *s, size_t n);
/* The report from line k up to its end, whole. */
char *wn_rv_syz_crash_quote(struct rv_ctx *c, const struct rv_lines *L, size_t k, size_t to);
/* One finding for the crash whose line is k (of [.., to)): titled sum
 * (sum_n bytes) or, when NULL, as syzbot titles the crash line; placed
 * at the crash, else the first frame or message naming a source file. */
void wn_rv_syz_crash_finding(struct rv_ctx *c, const struct rv_lines *L, size_t k, size_t to,
			     const char *sum, size_t sum_n);

/* Once the patch's files are known (wn_review_input), each crash
 * finding moves to the first frame of its crash's own stack in a file
 * the patch touches, the place it had without them kept as detail, the
 * whole stack in the quote; the fingerprint stays the one made without
 * them.  Until then it asks for them (wants_patch_files). */
void wn_rv_syz_patch_place(struct rv_ctx *c);

/* Does the mail say the tested patch still triggers the bug? */
bool wn_rv_syz_still_triggers(const struct rv_lines *L);
/* Does the mail answer a malformed "#syz" command ("... does not look
 * like a valid git repo address")?  Such a reply may quote a test result
 * ("still triggering") and is still no result. */
bool wn_rv_syz_command_error(const struct rv_lines *L);
/* The follow-up sentence among the first unquoted lines: *what and its
 * line *at; false when there is none. */
bool wn_rv_syz_followup_line(const struct rv_lines *L, wn_followup *what, size_t *at);
/* A follow-up: its kind, what it says. */
void wn_rv_syz_followup(struct rv_ctx *c, const struct rv_lines *L);
/* A patch test that still triggers the bug: a finding on the patch. */
void wn_rv_syz_still_triggered(struct rv_ctx *c, const struct rv_lines *L);

#endif
