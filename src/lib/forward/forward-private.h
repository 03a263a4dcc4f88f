/* winnow — what the forward*.c files share (see winnow/forward.h):
 *
 *   forward-addr.c   mailbox lists; what a header, address, id may hold
 *   forward.c        composing: findings, recipients, threading
 *   forward-body.c   the body: template, findings, links
 *   forward-mime.c   rendering with GMime; draft text in and out
 *   forward-draft.c  draft files, postponing and resuming
 *   forward-send.c   sending, recording, the sent copy
 *   syz-reply.c      the reply that answers syzbot
 *
 * Calls between them go one way: forward-send.c and
 * forward-draft.c call forward.c, forward-mime.c and the files below;
 * syz-reply.c calls forward.c and the files below it;
 * forward.c calls forward-body.c and forward-mime.c; forward-addr.c,
 * which those below call as they need, calls none of them. */
#ifndef WINNOW_FORWARD_PRIVATE_H
#define WINNOW_FORWARD_PRIVATE_H

#include "winnow/forward.h"
#include "forward-test.h"

/* Longest line of prose the body wraps to (summaries, notes). */
#define FWD_WRAP 72
/* Lines of quoted code kept per finding: the end of the quote, where
 * the code the comment is about sits. */
#define FWD_QUOTE_LINES 12

/* --- forward-addr.c --------------------------------------------------- */

/* Is addr fit for a header: one '@' with text on both sides, no blank,
 * control, quote or bracket? */
bool wn_fwd_addr_ok(const char *addr);
/* Does s hold a control character (CR, LF, tab, ESC...)? */
bool wn_fwd_has_control(const char *s);

/* --- forward-to.c ---------------------------------------------------- */

/* Add the user (user.name, user.primary_email) to me; WN_CONFIG saying
 * what is wrong when either could not go into a header as it is (what:
 * "forwarded findings", "a digest"). */
wn_status wn_fwd_me(const wn_conf *c, fwd_mboxes *me, const char *what, wn_error *err);
/* Add line (from mail: made safe here) to what the user is told. */
wn_status wn_fwd_add_notice(wn_forward *f, const char *line);
/* From you, To the author, Cc per winnow.cc from the To/Cc of the mail
 * answered (the patch; for a verdict reply the review, and its sender
 * when a person sent it). */
wn_status wn_fwd_recipients(wn_forward *f, const wn_conf *c, const wn_mail *patch,
			    const wn_mail *answered, wn_error *err);

/* Are a and b one person's addresses, as opt-out compares them (case,
 * quotes, "+tag")? */
bool wn_fwd_same_person(const char *a, const char *b);

/* --- forward.c ------------------------------------------------------- */

/* Set f->key from the reviews' Message-IDs (order does not matter). */
wn_status wn_fwd_key(wn_forward *f, wn_item **items, size_t n);
/* The command word the reply f carries when it is a reply to a bot
 * that reads replies ("dup" of "#syz dup: ...", from its body as it is
 * sent, edited or not), or NULL (syz-reply.c). */
const char *wn_forward_syz_told(const wn_forward *f);
/* The same of a mail body sent in reply to the report it (a mail of
 * the drafts folder, sent by the user's mailer). */
const char *wn_forward_syz_told_body(const wn_item *it, const char *body);
/* One mail of the index by Message-ID; WN_NOT_FOUND saying so. */
wn_status wn_fwd_read_mail(wn_index *idx, const char *id, wn_mail **out, wn_error *err);
/* f->subject: "Re: " and parent's subject, header-safe. */
wn_status wn_fwd_reply_subject(wn_forward *f, const wn_mail *parent);
/* Thread f under parent (In-Reply-To, References) and give it a new
 * Message-ID (f->key and f->created set before). */
wn_status wn_fwd_thread_under(wn_forward *f, const wn_mail *parent, const wn_conf *c);

/* --- forward-body.c --------------------------------------------------- */

/* --- forward-mime.c --------------------------------------------------- */

/* Parse an address list (draft text, patch headers) into l (appending),
 * names made header-safe.  Mailboxes with unusable addresses are
 * skipped, or fail with WN_PARSE when strict. */
wn_status wn_fwd_parse_addresses(const char *text, fwd_mboxes *l, bool strict, wn_error *err);
/* The addresses GMime reads in text (each with an '@', not checked
 * further: for matching, never for sending), appended to l. */
wn_status wn_fwd_parse_loose(const char *text, fwd_mboxes *l);
/* "Name <addr>, addr2" as the draft shows a list (names quoted when
 * they need it, not encoded).  malloc'd. */
char *wn_fwd_format_addresses(const fwd_mboxes *l);

#endif
