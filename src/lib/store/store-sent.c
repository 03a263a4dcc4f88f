/* winnow — what the journal knows about a mail handed to sendmail.
 *
 * A mail is sent in three steps that no single write can cover: the
 * "handed" line (fsync'd) before sendmail starts, sendmail taking the
 * mail, and the "accepted" line after it exits 0.  A winnow killed in
 * between leaves a mail that was handed over without an outcome: the
 * next run cannot tell whether it went out, and must not send it again
 * without asking (issue 18).  A sendmail that failed did not take the
 * mail ("failed"), so its draft is sent again freely.
 *
 *   {"op":"sendmail","mail":MSGID,"t":UNIX,"state":"handed"|"accepted"|"failed"}
 *
 * MSGID is the sent mail's own Message-ID (not a review's); the newest
 * line of a mail is what counts.
 *
 * This file is the public side; the records themselves, read from and
 * written back to the journal with its other lines, are store-log.c's. */
#include "autoconfig.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "store-private.h"

/* --- the public side ------------------------------------------------------ */

struct txn {
	wn_store *s;
	const char *msgid;
	wn_sent_state state;
	long long t;
};

static wn_status compose_sent(wn_buf *out, void *arg, wn_error *err)
{
	struct txn *x = arg;
	wn_status st = log_put_sendmail(out, x->msgid, x->state, x->t);

	if (st != WN_OK)
		return wn_error_set(err, st, st == WN_NOMEM ? "out of memory"
				    : "cannot journal the mail: its Message-ID is not UTF-8");
	/* Our own line is not read back: count it for later warnings. */
	x->s->lineno++;
	return WN_OK;
}

wn_status wn_store_sendmail(wn_store *s, const char *msgid, wn_sent_state state, time_t when,
			    wn_error *err)
{
	struct txn x = { s, msgid, state, (long long) when };
	wn_status st;

	if (!msgid || !*msgid || state < WN_SENT_HANDED || state > WN_SENT_FAILED)
		return wn_error_set(err, WN_USAGE, "no mail to journal");
	st = wn_journal_txn(s->j, log_reset, log_line, s, compose_sent, &x, err);
	/* Remembered once on disk only: a line that failed to go out must
	 * not make this process believe the mail was handed over. */
	if (st == WN_OK && log_sent_remember(s, msgid, state, x.t) != WN_OK)
		s->oom = true;
	return st;
}

wn_status wn_store_sent(wn_store *s, const char *msgid, wn_sent_state *state, time_t *when,
			wn_error *err)
{
	long long t;
	wn_status st;

	*state = WN_SENT_NONE;
	if (when)
		*when = 0;
	/* Another winnow (a TUI, a forward --all) may have sent it since. */
	if ((st = store_catch_up(s, err)) != WN_OK)
		return st;
	if (msgid && log_sent_find(s, msgid, state, &t) && when)
		*when = (time_t) t;
	return WN_OK;
}
