/* winnow — internals of the write path (the files of src/lib/store
 * but journal.c).  Calls go one way, so each file reads without the
 * ones above it: store-undo.c calls store-mark.c, store-mark.c calls
 * store.c, store.c calls store-writer.c (the parent of the writer) and
 * store-compact.c, store-writer.c calls store-child.c (the writer) and
 * store-compact.c, and each of them calls the journal's lines in
 * memory, which call none of them: store-log-line.c (a line read or
 * written) calls store-log.c and store-log-sent.c (the sendmail
 * records), store-log.c calls store-log-sent.c.
 *
 * The journal is a list of lines (one JSON object each):
 *
 *   {"op":"review","id":MSGID,"fps":[FP...]}
 *       the findings of a review, written once before its first mark, so
 *       the writer can keep winnow/triaged right without parsing mail;
 *   {"op":"mark","eid":E,"group":G,"id":MSGID,"t":UNIX,["undo_of":G2,|"redo_of":G3,]
 *    "c":[[FP,STATE,PREV,PREV_NOTE|null,NOTE|null[,REJECTED|null,REASON|null,PREV_REASON|null
 *          [,CLOSED,PREV_CLOSED|null]]]...]}
 *       one user action on one review: every finding it changed, with
 *       the state and note before (for undo).  NOTE null leaves the
 *       note alone, "" removes it.  REASON, when there, sets
 *       why the verdict was given (a WN_REASON_LIST name; "" removes
 *       it), in the same line as the verdict so a crash keeps both or
 *       neither; PREV_REASON is the one before, for undo.  CLOSED,
 *       when there, sets a syzbot report's winnow.closed
 *       ("dup <msgid>", "fix <hash>"; "" removes it) the same way, with
 *       PREV_CLOSED for undo; REASON is then null when not set.  A mark of every finding is one line,
 *       so its size is linear in the number of findings;
 *   {"op":"applied","eids":[E...]}     the writer put them into notmuch;
 *   {"op":"forward","eid":E,"group":E,"id":MSGID,"t":UNIX,"value":V,"fps":[FP...]}
 *       those findings were forwarded (winnow.forwarded.<fp>=V, V being
 *       "<rfc3339 time> <message-id of the mail sent>"); never undone;
 *   {"op":"reported",...}  the same for the feedback digest to the
 *       bot's operators (winnow.reported.<fp>=V);
 *   {"op":"missed",...,"value":"<rfc3339 time> <note>","fps":[ID]}
 *       a bug the bot missed, recorded on the review:
 *       winnow.missed.<ID>=V, ID unique to the record; never undone;
 *   {"op":"severity","eid":E,"group":G,"id":MSGID,"t":UNIX,["undo_of":G2,]
 *    "c":[[FP,SEV|null,PREV_SEV|null[,REJECTED]]...]}
 *       the maintainer's own severity (winnow.severity.<fp>), undone
 *       like a verdict;
 *   {"op":"reject","eid":E,"fp":FP,"why":TEXT}
 *       the writer could not apply that change: it is set aside (and
 *       copied to the journal's ".rejected" file) so it blocks nothing;
 *   {"op":"sendmail","mail":MSGID,"t":UNIX,"state":"handed"|"accepted"|"failed"}
 *       the mail MSGID (ours) handed to sendmail, and what became of it
 *       (store-sent.c; compaction drops the failed ones);
 *   {"op":"sendmail","mail":MSGID,"t":UNIX,"state":"drafted","findings":[[REVIEW,FP],...]}
 *       the mail written to winnow.drafts_folder instead, with what it
 *       forwards, pending until a later line of MSGID ends it.
 *
 * Compaction writes entries back with "applied":true / "undone":true.
 * Older winnow wrote one line per finding ("fp","v","prev","prev_note",
 * "note","fps"); those are still read.
 *
 * The group ties the entries of one user action (several reviews in a
 * bulk mark), which undo reverts whole.  One undo of several actions is
 * one group too, each entry's undo_of naming the action it reverts; a
 * redo is an action whose entries give back what the undo G3
 * reverted, each with "redo_of":G3: undo reverts it like a mark. */
#ifndef WINNOW_STORE_PRIVATE_H
#define WINNOW_STORE_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <jansson.h>

#include "journal.h"
#include "../core/map.h"
#include "../index/index-nm.h"
#include "winnow/buf.h"
#include "winnow/store.h"

struct change {
	char *fp;
	wn_verdict v, prev;		/* a verdict entry's */
	wn_severity sev, prev_sev;	/* a severity entry's */
	bool has_note;		/* sets the note; "" removes it */
	char *note;		/* when has_note */
	char *prev_note;	/* the note before; NULL: none */
	bool has_reason;	/* sets the reason; WN_REASON_NONE removes it */
	wn_reason reason, prev_reason;
	bool has_closed;	/* sets winnow.closed; "" removes it */
	char *closed;		/* when has_closed */
	char *prev_closed;	/* the one before; NULL: none */
	bool applied;		/* notmuch holds it (or something newer) */
	char *rejected;		/* why the writer set it aside; NULL */
};

struct entry {
	char *eid, *group, *undo_of, *msgid;
	char *redo_of;		/* a redo: the group of the undo it gives back */
	/* A record ("<time> <message-id>") instead of verdicts: its
	 * changes name the findings forwarded (prop WN_PROP_FORWARDED) or
	 * reported to the bot's operators (WN_PROP_REPORTED). */
	char *forward;
	const char *prop;
	/* The maintainer's severity instead of verdicts: the changes' sev. */
	bool severity;
	long long t;
	struct change *c;
	size_t nc;
	bool undone;
	bool redone;		/* an undo given back by a redo since */
};

/* Where one finding (review, fingerprint) stands in the journal. */
struct finding {
	const char *msgid, *fp;	/* point into the newest entry */
	bool has_v;		/* some change gave it a verdict: */
	size_t e, c;		/* the newest, s->e[e].c[c] */
	bool has_note;		/* some change set its note: */
	size_t ne, nc;		/* the newest one, s->e[ne].c[nc] */
	bool has_reason;	/* some change set its reason: */
	size_t re, rc;		/* the newest one */
	bool has_closed;	/* some change set its winnow.closed: */
	size_t ce, cc;		/* the newest one */
	bool has_sev;		/* some change set the maintainer's severity: */
	size_t se, sc;		/* the newest one */
};

/* The findings of a review, as its "review" line lists them. */
struct review_fps {
	char **fps;
	size_t n;
	bool journaled;		/* the journal holds this line */
};

/* What the running writer said so far, read line by line as it comes
 * (store-writer.c): never from a buffer that a long batch outgrows. */
struct said {
	bool open, commit;	/* it holds the lock; it reached the commit */
	char *w_eid, *w_fp;	/* the change it last began to write */
	char *error;		/* it gave up, saying why */
	size_t batch;		/* how many changes it writes */
	long long open_ms;	/* when it said it holds the lock */
};

struct wn_store {
	wn_index *idx;
	wn_journal *j;
	struct entry *e;
	size_t n, cap;
	wn_map findings;	/* msgid NUL fp -> struct finding */
	wn_map reviews;		/* msgid -> struct review_fps */
	wn_map eids;		/* eid -> index + 1 (as a pointer) */
	size_t nforward;	/* forward entries among e */
	char *warning;
	size_t lineno;		/* journal lines read */
	size_t cut;		/* of them, lines that are not JSON at all (cut short) */
	unsigned long counter;
	bool oom;		/* a line could not be kept: out of memory */
	/* A line read since the index was last refreshed says notmuch
	 * holds a change this store had as pending (another process's
	 * writer committed it): until the index is reopened, neither the
	 * index nor the journal's overlay shows that change. */
	bool index_behind;
	size_t last_changes;	/* findings the last mark changed (0: none, nothing journaled) */
	/* the background write, if any */
	pid_t child;
	int child_fd;
	wn_buf child_out;	/* the writer's unfinished line */
	struct said said;	/* and what its lines said */
	/* A writer that died by its own hand (not killed from outside)
	 * while writing this change: the next writer writes it alone, and
	 * sets it aside only if that one dies on it too. */
	char *suspect_eid, *suspect_fp;
	unsigned deaths;	/* writers that died during this flush */
	int death_status;	/* how the last of them ended (wait status) */
	size_t rejected;	/* changes set aside by this process's flushes */
	bool announce_rejects;	/* reading the lines of our own write */
	wn_map sent;		/* mail msgid -> its sendmail record (store-sent.c) */
	/* Undo's reach (store.c): the groups the journal held at open and
	 * those this store journaled since.  Another process's newer
	 * action is not "the last change" of this one. */
	wn_map reach;
	/* Actions an undo of this process found wholly changed since
	 * (nothing to revert, nothing journaled): the next undo of the
	 * last change passes over them. */
	wn_map spent;
};

/* --- store-log*.c: the journal's lines in memory ----------------------- */

/* Forget every entry (the journal was replaced under us). */
void wn_log_reset(void *store);
/* Take one journal line into the store (wn_journal_line_fn). */
wn_status wn_log_line(const char *line, size_t len, void *store);
/* Append entry i's line to b; full adds applied/undone/rejected state
 * (for compaction). */
wn_status wn_log_put_entry(wn_buf *b, const wn_store *s, size_t i, bool full);
/* Append the "review" line of msgid when the store has its findings. */
wn_status wn_log_put_review(wn_buf *b, const wn_store *s, const char *msgid);
/* Record the findings of a review (copied); replaces older ones. */
wn_status wn_log_set_review(wn_store *s, const char *msgid, const char *const *fps, size_t n);
const struct review_fps *wn_log_review(const wn_store *s, const char *msgid);
/* Entries of group were undone. */
void wn_log_mark_undone(wn_store *s, const char *group);
/* Entries of group (an undo) were given back by a redo. */
void wn_log_mark_redone(wn_store *s, const char *group);
/* Index entry i (just added) in the finding and eid maps. */
wn_status wn_log_index(wn_store *s, size_t i);
/* A new zeroed entry at the end; NULL when out of memory. */
struct entry *wn_log_push(wn_store *s);
/* Drop the last entry, which was never indexed (wn_log_index). */
void wn_log_pop(wn_store *s);
/* Drop the entries from first on (a failed append) and re-index. */
void wn_log_truncate(wn_store *s, size_t first);
void wn_log_free(wn_store *s);

/* The journal's record of a finding into *out (NULL: none); false only
 * when out of memory, never taken for "none". */
bool wn_log_find(const wn_store *s, const char *msgid, const char *fp, struct finding **out);
/* The newest verdict change; NULL when only severities were set. */
const struct change *wn_log_newest(const wn_store *s, const struct finding *f);
/* The newest severity change; NULL when none. */
const struct change *wn_log_newest_sev(const wn_store *s, const struct finding *f);
/* The newest change that set the note; NULL when none did. */
const struct change *wn_log_newest_note(const wn_store *s, const struct finding *f);
/* The newest change that set the reason; NULL when none did. */
const struct change *wn_log_newest_reason(const wn_store *s, const struct finding *f);
/* The newest change that set winnow.closed; NULL when none did. */
const struct change *wn_log_newest_closed(const wn_store *s, const struct finding *f);
size_t wn_log_pending_count(const wn_store *s);
/* Every pending finding, sorted by review (malloc'd; *n entries). */
struct finding **wn_log_pending_list(const wn_store *s, size_t *n);
/* Is forward entry e not yet in notmuch? */
bool wn_log_forward_pending(const struct entry *e);
/* Does entry i hold the newest, pending change of some finding (or is
 * it a pending forward record)? */
bool wn_log_entry_pending(const wn_store *s, size_t i);

/* The sendmail records (store-log-sent.c) are read and reset with the
 * other lines (store-log-line.c, store-log.c). */
wn_status wn_store_log_read_sendmail(wn_store *s, json_t *o);
void wn_store_log_sent_free(wn_store *s);

/* Copy the change (eid, fp) and why to the journal's ".rejected" file,
 * where the user finds what could not be written. */
void wn_log_keep_rejected(const wn_store *s, const char *eid, const char *fp, const char *why);

void wn_store_warn(wn_store *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Bring the journal's newer lines (other processes, the writer) in;
 * the index is reopened when they say notmuch holds more than it did. */
wn_status wn_store_catch_up(wn_store *s, wn_error *err);
/* Reopen the index at its newest revision (best effort: a failure
 * keeps the older one), which holds every commit the journal read so
 * far names. */
void wn_store_index_refresh(wn_store *s);

/* The mails handed to sendmail (store-sent.c is their public side). */
/* Remember the newest state of a mail (msgid copied); findings: the
 * drafted mail's, as the journal writes them (JSON text, copied), NULL
 * for every other state. */
wn_status wn_log_sent_remember(wn_store *s, const char *msgid, wn_sent_state state, long long t,
			       const char *findings);
/* What the journal last said of mail msgid; false when nothing. */
bool wn_log_sent_find(const wn_store *s, const char *msgid, wn_sent_state *state, long long *t);
/* Append one "sendmail" line (findings: as for wn_log_sent_remember);
 * WN_PARSE when msgid is not UTF-8. */
wn_status wn_log_put_sendmail(wn_buf *out, const char *msgid, wn_sent_state state, long long t,
			      const char *findings);
/* Each mail still drafted, oldest first: fn(msgid, t, findings JSON). */
wn_status wn_log_sent_drafted(const wn_store *s,
			      wn_status (*fn)(void *arg, const char *msgid, long long t,
					      const char *findings),
			      void *arg);
/* Append the lines compaction keeps: the mails still in doubt, and the
 * newest ones sendmail took. */
wn_status wn_log_put_sent(wn_buf *out, const wn_store *s);

/* --- store-writer.c, store-child.c, store-compact.c --------------------- */

/* The child (store-child.c): write the journal's pending decisions
 * into notmuch, telling the parent on fd; never returns. */
void __attribute__((noreturn)) wn_store_child_write(wn_store *s, int fd);

/* Compaction (store-compact.c): the changes the store holds; compact
 * the journal once it holds twice the changes undo keeps. */
size_t wn_store_changes_of(const wn_store *s);
void wn_store_maybe_compact(wn_store *s);

/* Kill a running writer (its batch stays journaled). */
void wn_store_writer_stop(wn_store *s);
/* Write the journal again with every entry it holds but without the
 * lines cut short (a crash during a write), so that their warning is
 * given once, not by every later command.  On failure
 * the journal stays as it was. */
wn_status wn_store_repair(wn_store *s, wn_error *err);

/* --- store.c and store-mark.c: what marking and undo use ---------------- */

/* Replace *slot by a copy of value (NULL: none); false when out of
 * memory, *slot kept. */
bool wn_store_set_closed(char **slot, const char *value);
/* The state of a finding right now: notmuch (msg, may be NULL) under the
 * journal's pending decisions.  *note and *closed are malloc'd (NULL:
 * none; false with either set: the caller frees them). */
bool wn_store_current_state(const wn_store *s, notmuch_message_t *msg, const char *msgid,
			    const char *fp, wn_verdict *v, char **note, wn_severity *sev,
			    wn_reason *reason, char **closed);
/* Put group in undo's reach (s->reach); in_map: is group in m? */
wn_status wn_store_reach_add(wn_store *s, const char *group);
bool wn_store_in_map(const wn_map *m, const char *group);
/* Our own lines are not read back: count them, so that a warning about
 * a later line names the right one. */
void wn_store_count_lines(wn_store *s, const wn_buf *out);
/* A new entry about msgid, in group (NULL: a group of its own). */
struct entry *wn_store_new_entry(wn_store *s, const char *msgid, const char *group, size_t nc);

#endif
