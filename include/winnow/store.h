/* winnow — the write path: every verdict goes to an fsync'd journal
 * first, then into notmuch (properties + tags) through a read-write
 * handle that is opened briefly for one atomic batch and closed again.
 *
 * The journal lives in $XDG_STATE_HOME/winnow/ (default
 * ~/.local/state/winnow/), one file per database, and is replayed by
 * wn_store_open(): a verdict acknowledged to the user survives a crash,
 * kill -9, or another process holding the notmuch write lock. */
#ifndef WINNOW_STORE_H
#define WINNOW_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include "winnow/status.h"
#include "winnow/index.h"

typedef struct wn_store wn_store;

/* state_dir: NULL for the XDG default.  Reads the journal; entries not
 * yet in the database become pending (call wn_store_flush()). */
wn_status wn_store_open(wn_index *idx, const char *state_dir, wn_store **out, wn_error *err);
void wn_store_close(wn_store **s);

/* Journal path in use (for messages). */
const char *wn_store_journal_path(const wn_store *s);

/* Give finding (1-based; 0 for every finding) of a loaded item the
 * verdict v.  note: NULL leaves the note as it is, "" removes it; a
 * note must be UTF-8 and at most 64 KiB (WN_USAGE otherwise).
 * The change is decided from the state notmuch and the journal hold at
 * this moment (the item is refreshed from it first), not from what the
 * item showed.  When this returns WN_OK the change is on disk in the
 * journal and in it (verdicts, notes, counts); it reaches notmuch at
 * the next flush. */
wn_status wn_store_mark(wn_store *s, wn_item *it, size_t finding, wn_verdict v,
			const char *note, wn_error *err);

/* Findings the last mark of s (wn_store_mark and the functions below)
 * changed: a finding that already holds what it would be given is left
 * out, and a mark that changes nothing journals nothing (0 here). */
size_t wn_store_last_changes(const wn_store *s);

/* One finding (1-based; 0: every finding) of a loaded item. */
typedef struct wn_mark_target {
	wn_item *it;
	size_t finding;
} wn_mark_target;

/* wn_store_mark() over several targets as one action: one journal
 * write, and one undo reverts all of it. */
wn_status wn_store_mark_many(wn_store *s, const wn_mark_target *t, size_t n, wn_verdict v,
			     const char *note, wn_error *err);
/* wn_store_mark_many() that also says why: reason goes into
 * the same journal line as the verdict, so a crash keeps both or
 * neither; WN_REASON_NONE removes a reason given before. */
wn_status wn_store_mark_why(wn_store *s, const wn_mark_target *t, size_t n, wn_verdict v,
			    const char *note, wn_reason reason, wn_error *err);

/* Longest note of a missed finding, in bytes: it is one property (one
 * Xapian term, at most 245 bytes with its key and time). */
#define WN_MISS_NOTE_MAX 160
/* Record on a loaded review that the bot missed a bug: a
 * winnow.missed.<id>=<time> <note> property, journaled first like every
 * verdict and never undone.  The note is one line of UTF-8 text, at
 * most WN_MISS_NOTE_MAX bytes (WN_USAGE otherwise). */
wn_status wn_store_missed(wn_store *s, wn_item *it, const char *note, time_t when, wn_error *err);

/* Record that findings (1-based, n of them) of a loaded item were
 * forwarded in the mail sent_msgid (without <>) at time when:
 * winnow.forwarded.<fp> properties and the winnow/forwarded tag,
 * journaled first like every verdict.  Undo does not revert it. */
wn_status wn_store_forwarded(wn_store *s, wn_item *it, const size_t *findings,
			     size_t n, const char *sent_msgid, time_t when,
			     wn_error *err);
/* wn_store_forwarded() for a reply to a bot that reads replies (issue
 * 41): the value says the command the reply carried, told ("dup",
 * "invalid", "fix", "undup": lower-case letters), after the Message-ID:
 * "TIME MESSAGE-ID TOLD", so that "#syz undup" follows only a dup. */
wn_status wn_store_told(wn_store *s, wn_item *it, const size_t *findings, size_t n,
			const char *sent_msgid, const char *told, time_t when, wn_error *err);
/* The command a winnow.forwarded value says its reply carried (a
 * pointer into value), or NULL when it says none (a forward, or a
 * reply recorded without it). */
const char *wn_forwarded_told(const char *value);

/* Write pending changes to notmuch, waiting at most timeout_ms for the
 * write lock.  WN_LOCKED when the lock was not obtained in time: the
 * changes stay pending and journaled.  timeout_ms 0 never waits: it
 * starts (or collects) a background write and returns WN_LOCKED while
 * changes are still pending.
 *
 * libnotmuch blocks inside open-for-write while another process holds
 * the lock, so the write runs in a short-lived child process that the
 * caller never waits on longer than it chose: */
wn_status wn_store_flush(wn_store *s, int timeout_ms, wn_error *err);
/* Write what earlier runs journaled before showing anything, as
 * wn_store_flush, except that only time during which another process
 * holds the write lock counts against lock_ms: a busy machine makes the
 * replay slower, never skips it, so nothing stale is shown for want of
 * CPU.  WN_LOCKED when another process kept the lock that long. */
wn_status wn_store_replay(wn_store *s, int lock_ms, wn_error *err);

/* Read what other processes journaled since (forward, after waiting
 * for another forwarding run, sees what that one sent). */
wn_status wn_store_refresh(wn_store *s, wn_error *err);
/* Lay the journaled changes that have not reached notmuch yet over a
 * loaded item's verdicts, so every view shows what the user decided
 * even while another process holds the write lock. */
void wn_store_overlay(const wn_store *s, wn_item *it);

/* A warning from reading the journal (a torn last line, an entry that
 * could not be applied); NULL when all is well.  Valid until the next
 * call on s. */
const char *wn_store_warning(const wn_store *s);

/* Changes journaled but not yet in notmuch. */
size_t wn_store_pending(const wn_store *s);
/* The reviews (Message-IDs, each once) given a verdict other than
 * untriaged that notmuch does not hold yet: what verdict memory reads
 * besides notmuch's verdict tags, so that a verdict given minutes ago
 * while another process holds the write lock counts.  *ids
 * is the caller's: wn_store_ids_free(). */
wn_status wn_store_pending_judged(const wn_store *s, char ***ids, size_t *n, wn_error *err);
void wn_store_ids_free(char **ids, size_t n);

/* The maintainer's own severity for finding (1-based; 0: every
 * finding), beside the bot's: winnow.severity.<fp>=<name>, journaled
 * and undone like a verdict; WN_SEV_NONE removes it. */
wn_status wn_store_set_severity(wn_store *s, wn_item *it, size_t finding,
				wn_severity sev, wn_error *err);

/* Record that findings (1-based, n of them) were reported to the bot's
 * operators in the digest mail msgid (without <>) at when:
 * winnow.reported.<fp>, journaled first; never undone. */
wn_status wn_store_reported(wn_store *s, wn_item *it, const size_t *findings,
			    size_t n, const char *msgid, time_t when, wn_error *err);

/* One action of the journal, as the history lists it. */
typedef struct wn_history_item {
	char *group;		/* the action's id: wn_store_undo_group() */
	char *review;		/* Message-ID of its (first) review */
	char *fp;		/* fingerprint of its first finding */
	size_t reviews;		/* reviews it touched */
	size_t changes;		/* findings it changed */
	wn_verdict from, to;	/* of its first finding */
	bool note;		/* it set or removed a note */
	bool reason;		/* it gave a reason, another than before: */
	wn_reason reason_to;	/* the first such (WN_REASON_NONE: removed) */
	bool severity;		/* it set the maintainer's severity instead: */
	wn_severity sev_from, sev_to;	/* of its first finding */
	time_t when;
	bool undone;		/* undone since */
	bool is_undo;		/* itself an undo */
	bool is_redo;		/* a redo: gives back what an undo reverted */
	bool redone;		/* an undo given back by a redo since */
	size_t actions;		/* an undo: the actions it reverted (one undo
				 * of several is one action); a redo
				 * (wn_store_redo): those it gave back; else 1 */
	/* Filled by an undo only (wn_store_undo_last, wn_store_undo_group):
	 * how it went.  A finding changed again since the action (by a
	 * later one, or by another program) keeps that newer decision. */
	size_t reverted;	/* findings that went back */
	size_t kept;		/* findings that kept a newer decision */
	char *kept_review, *kept_fp;	/* the first of those */
	wn_verdict kept_v;	/* its verdict now (a verdict action) */
	wn_severity kept_sev;	/* its severity now (a severity action) */
} wn_history_item;

void wn_history_item_clear(wn_history_item *h);
void wn_history_free(wn_history_item **v, size_t n);

/* The journal's actions, newest first (what undo can still reach:
 * compaction keeps the newest 1000 changes).  *out is the caller's:
 * wn_history_free(). */
wn_status wn_store_history(wn_store *s, wn_history_item **out, size_t *n, wn_error *err);

/* Revert one action (any that is not undone and not an undo itself):
 * each finding goes back to what it was before, from the state at this
 * moment.  what (may be NULL) describes the action reverted and how it
 * went (what->reverted 0: nothing was left to revert, nothing was
 * journaled, and the action stays as it was). */
wn_status wn_store_undo_group(wn_store *s, const char *group, wn_history_item *what,
			      wn_error *err);

/* Revert the newest action within undo's reach: one this store
 * journaled, or one the journal held when the store was opened (across
 * restarts), never one another process journaled since (a screen that
 * has not shown it must not undo it; wn_store_undo_group() reaches
 * it).  what (required) describes the action and how it went: when
 * what->reverted is 0, every finding of it had changed since, nothing
 * was journaled, and the next call passes over that action.
 * WN_NOT_FOUND when nothing is left to undo. */
wn_status wn_store_undo_last(wn_store *s, wn_history_item *what, wn_error *err);

/* Revert the newest n actions within undo's reach, as
 * wn_store_undo_last() would one after another, as one action: one
 * journal write, which one wn_store_redo() gives back whole.  *out
 * (the caller's: wn_history_free()) holds one item per action reached,
 * newest first, each as wn_store_undo_last() describes it.  WN_NOT_FOUND
 * when nothing is left to undo. */
wn_status wn_store_undo_many(wn_store *s, size_t n, wn_history_item **out, size_t *nout,
			     wn_error *err);
/* How many actions wn_store_undo_many(s, n) would reach now (to ask
 * before undoing many). */
wn_status wn_store_undo_count(wn_store *s, size_t n, size_t *count, wn_error *err);

/* Give back what the newest undo within undo's reach (one this store
 * journaled, or the journal held at open) reverted, all of it, as one
 * new action that undo reverts like a mark; the undo counts as redone
 * (history says so) and the next redo reaches the undo before it.
 * what (required) describes the redo (what->reverted: the findings
 * given back, what->actions: the actions).  WN_NOT_FOUND when no undo
 * is left to redo.  WN_USAGE, and nothing journaled, when a finding the
 * undo reverted was changed since (by a mark, another program):
 * what->kept_review, kept_fp and kept_v or kept_sev name the first. */
wn_status wn_store_redo(wn_store *s, wn_history_item *what, wn_error *err);

/* The findings picked (pick[i] for finding i + 1 of a loaded item's
 * review; pick NULL: every finding) get the verdict (when verdict), note as for wn_store_mark(),
 * and the maintainer's severity (when severity), all as one action:
 * one journal line per kind, one undo.  A finding that already holds
 * what it would be given is left out; when none is left, nothing is
 * journaled.  *changed (may be NULL): the changes journaled. */
typedef struct wn_mark_spec {
	bool verdict;
	wn_verdict v;
	const char *note;	/* NULL: leave the note; "" removes it */
	bool severity;
	wn_severity sev;
	bool reason;		/* with the verdict: why (WN_REASON_NONE removes it) */
	wn_reason why;
	/* With the verdict: a syzbot report's winnow.closed ("dup <msgid>",
	 * "fix <hash>": wn_closed_ok; "" removes it), in the same journal
	 * line, undone with it; NULL leaves it. */
	const char *closed;
} wn_mark_spec;

wn_status wn_store_mark_picked(wn_store *s, wn_item *it, const bool *pick, const wn_mark_spec *spec,
			       size_t *changed, wn_error *err);

/* A mail handed to sendmail, as the journal knows it.  HANDED without
 * an outcome means winnow stopped while sendmail had the mail (a crash,
 * kill -9): it may have been sent. */
typedef enum wn_sent_state {
	WN_SENT_NONE,		/* never handed over */
	WN_SENT_HANDED,		/* handed over, no outcome journaled */
	WN_SENT_ACCEPTED,	/* sendmail exited 0 having read it all */
	WN_SENT_FAILED,		/* sendmail failed or was stopped: not taken */
	WN_SENT_DRAFTED,	/* written to winnow.drafts_folder for the
				 * user's mailer to send: its findings are
				 * forwarded once the sent copy is indexed */
} wn_sent_state;

/* Journal (fsync'd, before returning) that the mail msgid (ours,
 * without <>) is in state at when: HANDED right before sendmail is
 * started, ACCEPTED or FAILED after it ended. */
wn_status wn_store_sendmail(wn_store *s, const char *msgid, wn_sent_state state, time_t when,
			    wn_error *err);
/* One finding of a mail in the drafts folder: its review's Message-ID
 * and its fingerprint (which outlives a parser's renumbering). */
typedef struct wn_drafted_finding {
	char *review;
	char *fp;
} wn_drafted_finding;

/* A mail winnow wrote into winnow.drafts_folder, not known sent yet. */
typedef struct wn_drafted {
	char *msgid;		/* the draft's own Message-ID */
	time_t when;		/* when it was written */
	wn_drafted_finding *findings;
	size_t n;
} wn_drafted;

/* Journal (fsync'd) that the mail msgid was written to the drafts
 * folder at when with the n findings it forwards: the pending state,
 * WN_SENT_DRAFTED, that wn_store_sent() reports and wn_store_drafts()
 * lists until a later line (ACCEPTED once it is seen sent) ends it. */
wn_status wn_store_drafted(wn_store *s, const char *msgid, const wn_drafted_finding *v, size_t n,
			   time_t when, wn_error *err);
/* The mails still pending in the drafts folder, oldest first, after
 * reading what other processes journaled; *out is the caller's
 * (wn_drafted_free()). */
wn_status wn_store_drafts(wn_store *s, wn_drafted **out, size_t *n, wn_error *err);
void wn_drafted_free(wn_drafted *v, size_t n);

/* The newest state of the mail msgid (and its time, when not NULL),
 * after reading what other processes journaled. */
wn_status wn_store_sent(wn_store *s, const char *msgid, wn_sent_state *state, time_t *when,
			wn_error *err);

#endif
