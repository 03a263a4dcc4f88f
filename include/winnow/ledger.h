/* winnow — the pre-existing ledger: the bugs the bots found that the
 * patches did not cause, for someone with time to fix them.
 *
 * Findings marked pre-existing are gathered one review at a time and
 * merged: the same fingerprint is the same bug, and so is a similar
 * finding (wn_sim_alike, as verdict memory judges it: at the same place
 * or on the same patch in another version), whichever bot or version
 * of the series reported it.  Each bug keeps where it is, what it is, when
 * it was first and last reported, by which reviews about which patches,
 * and the maintainers' notes. */
#ifndef WINNOW_LEDGER_H
#define WINNOW_LEDGER_H

#include <stddef.h>
#include <time.h>

#include "winnow/conf.h"
#include "winnow/forward.h"
#include "winnow/index.h"
#include "winnow/status.h"

/* One review that reported the bug. */
typedef struct wn_ledger_report {
	char *review;		/* its Message-ID */
	size_t finding;		/* 1-based there */
	wn_bot bot;
	time_t date;
	char *patch;		/* the patch's Message-ID; NULL: not in the index */
	char *patch_subject;	/* the patch's subject, else the review's */
} wn_ledger_report;

typedef struct wn_ledger_entry {
	char fingerprint[WN_FP_LEN + 1];	/* of the first report */
	/* Where and what, as the newest report says it. */
	char *file, *function;	/* NULL when unknown */
	int line;		/* 0 when unknown */
	char *summary;
	wn_severity severity;	/* the most severe any report gave */
	char *list;		/* the newest report's patch's list; NULL: none */
	time_t first, last;	/* reported first and last */
	wn_ledger_report *reports;	/* oldest first */
	size_t nreports;
	char **notes;		/* the different notes, in the order met */
	size_t nnotes;
	/* The commit of the maintainer's tree that fixed it
	 * (wn_ledger_fixes); NULL: none known. */
	char *fixed_by;		/* its full hash */
	char *fixed_subject;	/* its subject, sanitised */
	const char *fixed_how;	/* "closes", "link" or "reported-by": what
				 * in its message named the bug */
} wn_ledger_entry;

typedef struct wn_ledger wn_ledger;

wn_status wn_ledger_new(wn_ledger **out, wn_error *err);
void wn_ledger_free(wn_ledger **l);

/* Add the findings of a loaded review marked pre-existing (journaled
 * verdicts laid over already).  WN_NOMEM is the only error. */
wn_status wn_ledger_add(wn_ledger *l, const wn_item *it);

/* The bugs by list (no list last), then most recently reported first. */
void wn_ledger_sort(wn_ledger *l);
size_t wn_ledger_count(const wn_ledger *l);
const wn_ledger_entry *wn_ledger_at(const wn_ledger *l, size_t i);

/* Say entry i was fixed by commit (hash, subject), named by how. */
wn_status wn_ledger_set_fixed(wn_ledger *l, size_t i, const char *commit, const char *subject,
			      const char *how);

/* Drop the entries a commit fixed (fixed_by set), keeping the order:
 * the open bugs only, for listing and for the digests.  Nothing may be
 * added afterwards. */
void wn_ledger_keep_open(wn_ledger *l);

/* Find, in the git repository dir (the maintainer's kernel tree), the
 * commits that fixed the ledger's bugs, and set their fixed_by: a
 * commit whose message has a Closes: or Link: line naming the
 * Message-ID of a review or a patch of the bug, or a Reported-by: of
 * a bot that reported it (its address) while its diff changes the bug's
 * file in the bug's function.  Only commits since the bug's first
 * report are read, with git itself (git log, git show; no shell).
 * generic_senders: winnow.bots.  WN_CONFIG when dir is no repository
 * git can read (err says what git said). */
wn_status wn_ledger_fixes(wn_ledger *l, const char *dir, const char *const *generic_senders,
			  wn_error *err);

/* A commit of the tree dir, rev as the user typed it ("abc123",
 * "HEAD~2"): its full *hash and its *title, the first line of its
 * message exactly as git holds it (malloc'd).  WN_NOT_FOUND when dir
 * has no such commit; WN_PARSE when its title could not be copied
 * exactly into a mail's line (it runs over several lines, or holds a
 * control character), err saying so, *hash set all the same. */
wn_status wn_ledger_commit(const char *dir, const char *rev, char **hash, char **title, wn_error *err);

/* The commit of the tree dir that fixed a syzbot report:
 * the oldest whose Reported-by: is the report's address
 * (syzbot+EXTID@...) or whose Closes:/Link: names its dashboard
 * (extid=EXTID) or its Message-ID (msgid, may be NULL).  extid: hex
 * digits (from mail: anything else is WN_USAGE).  *hash malloc'd;
 * WN_NOT_FOUND when no commit says so. */
wn_status wn_ledger_syz_fix(const char *dir, const char *extid, const char *msgid, char **hash,
			    wn_error *err);

/* The ledger as mail, after wn_ledger_sort(): one digest per list
 * (digest.h), To the list (its List-Id with the first dot made '@', as
 * the kernel's lists are named; bugs without a list go to the user),
 * Subject "Pre-existing bugs found by review bots in LIST (N)", each bug
 * with its place, summary, severity, when and by which bots it was
 * reported, on which patches (subject and Message-ID), and its notes.
 * *out: *n mails, each wn_forward_free()d, and the array free()d. */
wn_status wn_ledger_digests(const wn_ledger *l, const wn_conf *c, wn_forward ***out, size_t *n,
			    wn_error *err);

#endif
