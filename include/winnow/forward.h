/* winnow — forwarding verified findings to the patch author.
 *
 * The mail is a reply to the patch (not to the bot): From the user,
 * To the patch's author, Cc per winnow.cc, threaded under the patch.
 * It is made in three shapes:
 *
 *   the draft text   what the editor shows: From/To/Cc/Subject lines in
 *                    plain UTF-8, a blank line, the body.  Kept in
 *                    $XDG_STATE_HOME/winnow/drafts/ (mode 0600) with the
 *                    threading headers and the findings beside it, so a
 *                    postponed draft can be resumed;
 *   the rendered mail  what is piped to sendmail (and printed by
 *                    --dry-run): MIME built by GMime, names and subject
 *                    RFC 2047 encoded, long headers folded, text/plain
 *                    UTF-8 with a suitable transfer encoding;
 *   the record       on success, every forwarded finding gets
 *                    winnow.forwarded.<fp> and the review the
 *                    winnow/forwarded tag, through the journal.
 *
 * Mail is hostile: every value taken from a mail is made header-safe
 * (no CR/LF can reach a header) or body-safe (no control character)
 * before it is used, and no mail text ever reaches a shell: the editor
 * and sendmail are run with execvp(), their command lines split into
 * words here. */
#ifndef WINNOW_FORWARD_H
#define WINNOW_FORWARD_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "winnow/buf.h"
#include "winnow/conf.h"
#include "winnow/index.h"
#include "winnow/status.h"
#include "winnow/proc.h"
#include "winnow/store.h"

/* The findings one review contributes to a mail. */
typedef struct wn_fwd_part {
	wn_item *it;		/* borrowed: the caller keeps it alive and loaded */
	size_t *findings;	/* 1-based finding indexes, in mail order */
	size_t n;
} wn_fwd_part;

/* What kind of mail.  A bot that mailed the author already
 * needs no second copy of its findings: the author wants to know which
 * of them the maintainer holds real. */
typedef enum wn_fwd_kind {
	WN_FWD_FULL,		/* the valid findings written out, a reply to the patch */
	WN_FWD_VERDICTS,	/* a reply to the review the author has: each
				 * triaged finding quoted, the verdict under it */
} wn_fwd_kind;

typedef struct wn_forward {
	wn_fwd_kind kind;
	wn_fwd_part *parts;	/* one per review; several for one patch (--all);
				 * WN_FWD_VERDICTS: one */
	size_t nparts;
	bool preexisting;	/* findings marked pre-existing are included */
	size_t nvalid, npre;	/* findings in the mail by verdict */
	size_t nfalse;		/* WN_FWD_VERDICTS: false positives in it */
	size_t nunchecked;	/* WN_FWD_VERDICTS: untriaged, left out */

	/* The editable part, UTF-8, not encoded (as the draft shows it). */
	char *from;		/* one mailbox */
	char *to;		/* address list */
	char *cc;		/* address list; "" for none */
	char *subject;
	char *body;

	/* Fixed when composed; a resumed draft keeps them. */
	char *message_id;	/* without <> */
	char *in_reply_to;	/* the patch's Message-ID (WN_FWD_VERDICTS: the
				 * review's); NULL if it has none */
	char **references;	/* without <>, oldest first */
	size_t nreferences;
	char *key;		/* the draft's name: a hash of the reviews' ids */
	time_t created;

	/* What the user should know before sending (findings forwarded
	 * before, verdicts changed since the draft was postponed); NULL
	 * when nothing.  Plain text, '\n' between lines. */
	char *notice;
} wn_forward;

typedef struct wn_fwd_opts {
	bool preexisting;	/* add the findings marked pre-existing */
	bool skip_forwarded;	/* leave out findings forwarded before (--all) */
	bool full;		/* the full forward even when the author has the review */
} wn_fwd_opts;

/* Has the patch's author the review already?  More than 99% of the
 * bots' reviews on the lists are mailed to the author by the bot, or
 * passed on by a maintainer (netdev's AI reviews). */
typedef enum wn_reach {
	WN_REACH_NO,		/* not among its To/Cc (a maintainer's private copy) */
	WN_REACH_BOT,		/* the bot mailed the author: To or Cc */
	WN_REACH_HUMAN,		/* a person sent it (From no bot): their own triage */
} wn_reach;

typedef struct wn_reached {
	wn_reach how;
	char *by;		/* WN_REACH_HUMAN: who sent it, "Name <addr>", no
				 * control character; else NULL */
	time_t date;		/* WN_REACH_HUMAN: when; 0 unknown */
} wn_reached;

/* Read whether it (loaded, with its patch) reached the patch's author:
 * the review's From, To and Cc against the patch's author.  WN_NOT_FOUND
 * when the review has no patch in the index (nobody to reach). */
wn_status wn_forward_reached(wn_index *idx, const wn_item *it, wn_reached *out, wn_error *err);
void wn_reached_clear(wn_reached *r);

/* How many addresses f goes to (To and Cc, as they are now). */
size_t wn_forward_recipients(const wn_forward *f);

/* Compose the reply for items (n >= 1 loaded reviews of one patch, with
 * their verdicts): its findings marked valid (and pre-existing with
 * o->preexisting), the recipients, the threading and the body from
 * winnow.forward_template.  One review the author has already
 * (wn_forward_reached), without o->full, gets WN_FWD_VERDICTS instead:
 * a reply to the review, To the author, Cc its other recipients, its
 * findings marked valid, false positive (and pre-existing) quoted with
 * the verdict under each, from winnow.forward_reply_template; *notice
 * names the addresses of the mails that did not read (dropped).  WN_NOT_FOUND with a message saying so when
 * there is no valid finding or the patch is not in the index; WN_CONFIG
 * when user.primary_email or the template is missing.  The items stay
 * the caller's and must outlive *out. */
wn_status wn_forward_compose(wn_index *idx, wn_item **items, size_t n, const wn_fwd_opts *o,
			     wn_forward **out, wn_error *err);
void wn_forward_free(wn_forward **f);

/* The mail exactly as it is piped to sendmail: headers (Date from
 * date), a blank line, the body; LF line ends. */
wn_status wn_forward_render(const wn_forward *f, time_t date, wn_buf *out, wn_error *err);

/* The Date a mail sent now carries: wn_now(), or WINNOW_FORWARD_DATE
 * (Unix seconds) when set -- for tests, with WINNOW_FORWARD_SEED, which
 * makes Message-IDs repeatable. */
time_t wn_forward_now(void);

/* --- a reply to syzbot ----------------------------------- */

/* Is it a syzbot bug report (not syzbot ci's review of a series, not a
 * follow-up in a report's thread)? */
bool wn_forward_is_syz(const wn_item *it);
/* The reply that tells syzbot the state of its report it (loaded, a
 * wn_forward_is_syz one, marked with a WN_CRASH_LIST word): To the
 * report's syzbot+HASH address, Cc syzkaller-bugs and its other
 * recipients (not you, nor anyone in winnow.optout), a reply to it,
 * the command its first body line: "#syz invalid" (the note below it),
 * "#syz dup: SUBJECT" of the report it duplicates (in the index), "#syz
 * fix: TITLE" of the fixing commit (read in winnow.tree, or the title
 * typed: wn_closed_title), "#syz undup" for a real bug whose last reply
 * sent said dup (wn_forwarded_told; else WN_NOT_FOUND saying what it
 * said).  Subject and title are copied
 * exactly, or refused (WN_PARSE, saying why).  WN_NOT_FOUND when there
 * is nothing to tell.  Sent, drafted and recorded as any forward. */
wn_status wn_forward_syz_compose(wn_index *idx, wn_item *it, wn_forward **out, wn_error *err);
/* The commit of winnow.tree that fixed the syzbot report it
 * (wn_ledger_syz_fix over the report's syzbot+HASH), *hash malloc'd;
 * WN_CONFIG without winnow.tree, WN_NOT_FOUND when none says so. */
wn_status wn_forward_syz_fix(wn_index *idx, const wn_item *it, char **hash, wn_error *err);

/* A report the syzbot report it may duplicate. */
typedef struct wn_syz_candidate {
	char *id;      /* its Message-ID, without <> */
	char *subject; /* as the index holds it (mail text) */
	time_t date;
	unsigned match; /* how alike the crash titles are, per mille */
} wn_syz_candidate;

/* The index's other reports of it's bot (wn_forward_is_syz ones, not it),
 * the best title match first: the Jaccard index of the titles' words
 * (wn_words_of; subjects without their bracket groups), ties to the
 * older report, then the smaller Message-ID, so that the same index
 * gives the same list.  At most max of them (0: all).  *out is freed
 * with wn_syz_candidates_free(); *n may be 0. */
wn_status wn_forward_syz_candidates(wn_index *idx, const wn_item *it, size_t max,
				    wn_syz_candidate **out, size_t *n, wn_error *err);
void wn_syz_candidates_free(wn_syz_candidate **v, size_t n);

/* --- the draft ------------------------------------------------------ */

/* The draft text: From, To, Cc, Subject lines, a blank line, the body. */
wn_status wn_forward_draft_text(const wn_forward *f, wn_buf *out);
/* Take edited draft text back into f (From/To/Cc/Subject and body).
 * WN_PARSE with a one-line reason (f unchanged) when a header is
 * unknown or an address list does not parse, or To is empty. */
wn_status wn_forward_draft_parse(wn_forward *f, const char *text, size_t len, wn_error *err);

/* The drafts folder: $XDG_STATE_HOME/winnow/drafts (default
 * ~/.local/state/winnow/drafts), created with mode 0700.  malloc'd. */
wn_status wn_draft_dir(char **out, wn_error *err);
/* Where f's draft text lives in dir (malloc'd). */
char *wn_forward_draft_path(const wn_forward *f, const char *dir);
/* Write f's draft (text and what goes beside it) into dir, mode 0600,
 * replacing an older one of the same reviews. */
wn_status wn_forward_draft_save(const wn_forward *f, const char *dir, wn_error *err);
/* Read the draft text back after the editor. */
wn_status wn_forward_draft_reload(wn_forward *f, const char *dir, wn_error *err);
/* The postponed draft of items, if there is one: WN_NOT_FOUND if not.
 * Findings are matched by fingerprint; those no longer marked valid
 * (or pre-existing) are named in notice and not recorded.  A draft that
 * cannot be resumed gives WN_PARSE, its text moved aside to KEY.eml.old
 * (err names it), so that a new one can be composed. */
wn_status wn_forward_draft_find(const char *dir, wn_item **items, size_t n, wn_forward **out,
				wn_error *err);
/* Remove f's draft (after sending, or when the user discards it). */
void wn_forward_draft_remove(const wn_forward *f, const char *dir);

/* --- before sending ------------------------------------------------- */

/* Can winnow.optout be read?  Its ';'-separated entries are addresses
 * as a mail header has them ("bob@example.com", "Bob <bob@example.com>",
 * several with commas) or domains ("example.com", "@example.com").
 * WN_CONFIG naming the entry that is neither: forwarding refuses to go
 * on, as it could not tell who opted out. */
wn_status wn_forward_optout_check(const wn_conf *c, wn_error *err);
/* Does winnow.optout name addr (an address or "Name <address>"), by
 * address or by domain?  Addresses compare without case, "+tags" or
 * quotes in the local part: bob+lkml@Example.COM is bob@example.com.
 * false when the setting cannot be read (see above). */
bool wn_forward_opted_out(const wn_conf *c, const char *addr);
/* The recipients of f (To and Cc) that opted out, ", "-separated, or
 * NULL when none (or out of memory).  malloc'd. */
char *wn_forward_optouts(const wn_conf *c, const wn_forward *f);

/* One forwarding run at a time: two `forward --all` started together
 * would both send every mail.  wn_forward_lock() opens (creating it)
 * $XDG_STATE_HOME/winnow/forward.lock into *fd and takes it if it is
 * free; *waited says it is not, and wn_forward_lock_wait() then waits
 * for it (say so first).  The holder reads the journal again before
 * choosing what to send (wn_store_refresh).  wn_forward_unlock()
 * closes it.  The lock is this process's alone (the children it forks
 * never hold it), and one at a time: while this process holds it or
 * waits for it, wn_forward_lock() fails with WN_USAGE. */
wn_status wn_forward_lock(int *fd, bool *waited, wn_error *err);
wn_status wn_forward_lock_wait(int fd, wn_error *err);
void wn_forward_unlock(int *fd);

/* Send f: render it with the Date of now, pipe it to winnow.sendmail,
 * and on success record the forwarded findings in store (journaled;
 * flush afterwards), store a copy in winnow.sent_folder if set and
 * index it, and remove the draft from draft_dir (may be NULL).
 *
 * Before sendmail starts, the journal says the mail is handed over
 * (WN_SENT_HANDED, fsync'd; if it cannot, nothing is sent), and after
 * it ended whether it took the mail: a winnow killed in between leaves
 * the mail in doubt (wn_forward_doubt).
 *
 * On failure (the program is missing, exits non-zero or is killed)
 * err says why, with what sendmail wrote on stderr, and nothing is
 * recorded: the draft and the verdicts stay as they were.  On success,
 * *warning (malloc'd, or NULL) reports a problem after sending that did
 * not stop it (the copy could not be stored, the journal failed). */
wn_status wn_forward_send(wn_index *idx, wn_store *store, wn_forward *f, const char *draft_dir,
			  char **warning, wn_error *err);

/* Write f into winnow.drafts_folder (a maildir folder of the database)
 * for the user's mailer (neomutt, aerc, notmuch-emacs) to finish and
 * send: rendered with the Date of now, written to tmp/, journaled as
 * pending (wn_store_drafted: its findings by review and fingerprint),
 * then moved into cur/ flagged D (draft) and S, and indexed (tagged
 * draft).  The findings are not recorded as forwarded yet:
 * wn_forward_drafts_resolve() does it once the sent copy is indexed.
 * winnow's own draft stays, so that sending f from winnow later asks
 * first (wn_forward_doubt).  *path: the file written (malloc'd);
 * *warning: a problem after writing (not indexed yet), or NULL.
 * WN_CONFIG when winnow.drafts_folder is unset or not a folder inside
 * the database. */
wn_status wn_forward_to_drafts(wn_index *idx, wn_store *store, wn_forward *f, char **path, char **warning,
			       wn_error *err);

/* The mails written to the drafts folder whose sent copy is now in the
 * index (the same Message-ID, a file outside the drafts folder without
 * the D flag): their findings are recorded as forwarded (dated by the
 * sent copy), the pending state ends, winnow's own copy of the draft
 * in draft_dir (NULL: wn_draft_dir()) is removed.  *resolved: how many.  Run
 * when a command or the interface opens the store; flush afterwards. */
wn_status wn_forward_drafts_resolve(wn_index *idx, wn_store *store, const char *draft_dir, size_t *resolved,
				    wn_error *err);

/* Was f (a resumed draft keeps its Message-ID) handed to sendmail
 * before, by a run that stopped before it knew or before it removed
 * the draft?  Then sending it again may send it twice: *doubt
 * (malloc'd) says so in one line, "this mail may have been sent
 * already at 2026-11-15 10:00 UTC" (or "was sent at" when sendmail
 * took it); NULL when f was never handed over or sendmail failed.
 * Reads what other processes journaled first. */
wn_status wn_forward_doubt(wn_store *store, const wn_forward *f, char **doubt, wn_error *err);

#endif
