/* winnow — what the journal knows about a mail handed to sendmail.
 *
 * A mail is sent in three steps that no single write can cover: the
 * "handed" line (fsync'd) before sendmail starts, sendmail taking the
 * mail, and the "accepted" line after it exits 0.  A winnow killed in
 * between leaves a mail that was handed over without an outcome: the
 * next run cannot tell whether it went out, and must not send it again
 * without asking (a second copy of a review's findings in a
 * maintainer's inbox).  A sendmail that failed did not take the
 * mail ("failed"), so its draft is sent again freely.
 *
 *   {"op":"sendmail","mail":MSGID,"t":UNIX,"state":"handed"|"accepted"|"failed"}
 *
 * A mail written to winnow.drafts_folder for the user's mailer is
 * pending until its sent copy is indexed, with what it forwards:
 *
 *   {"op":"sendmail","mail":MSGID,"t":UNIX,"state":"drafted","findings":[[REVIEW,FP],...]}
 *
 * and an "accepted" line ends it, whether the copy was found or winnow
 * sent the mail itself.  MSGID is the mail's own Message-ID (not a
 * review's); the newest line of a mail is what counts.
 *
 * This file is the public side; the records themselves, read from and
 * written back to the journal with its other lines, are store-log-sent.c's. */
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
	const char *findings;	/* a drafted mail's, JSON text; NULL */
};

static wn_status compose_sent(wn_buf *out, void *arg, wn_error *err)
{
	struct txn *x = arg;
	wn_status st = wn_log_put_sendmail(out, x->msgid, x->state, x->t, x->findings);

	if (st != WN_OK)
		return wn_error_set(err, st, st == WN_NOMEM ? "out of memory"
				    : "cannot journal the mail: its Message-ID is not UTF-8");
	/* Our own line is not read back: count it for later warnings. */
	x->s->lineno++;
	return WN_OK;
}

static wn_status journal_sent(wn_store *s, struct txn *x, wn_error *err)
{
	wn_status st = wn_journal_txn(s->j, wn_log_reset, wn_log_line, s, compose_sent, x, err);

	/* Remembered once on disk only: a line that failed to go out must
	 * not make this process believe the mail was handed over. */
	if (st == WN_OK && wn_log_sent_remember(s, x->msgid, x->state, x->t, x->findings) != WN_OK)
		s->oom = true;
	return st;
}

wn_status wn_store_sendmail(wn_store *s, const char *msgid, wn_sent_state state, time_t when,
			    wn_error *err)
{
	struct txn x = { s, msgid, state, (long long) when, NULL };

	if (!msgid || !*msgid || state < WN_SENT_HANDED || state > WN_SENT_FAILED)
		return wn_error_set(err, WN_USAGE, "no mail to journal");
	return journal_sent(s, &x, err);
}

wn_status wn_store_drafted(wn_store *s, const char *msgid, const wn_drafted_finding *v, size_t n,
			   time_t when, wn_error *err)
{
	json_t *a = json_array();
	char *text = NULL;
	wn_status st;

	if (!msgid || !*msgid || !n) {
		json_decref(a);
		return wn_error_set(err, WN_USAGE, "no mail to journal");
	}
	for (size_t i = 0; a && i < n; i++)
		if (json_array_append_new(a, json_pack("[s, s]", v[i].review, v[i].fp)) != 0) {
			json_decref(a);
			a = NULL;
		}
	if (!a || !(text = json_dumps(a, JSON_COMPACT | JSON_ENSURE_ASCII))) {
		json_decref(a);
		return wn_error_set(err, WN_PARSE, "cannot journal the draft: a review's Message-ID is not UTF-8");
	}
	json_decref(a);
	{
		struct txn x = { s, msgid, WN_SENT_DRAFTED, (long long) when, text };

		st = journal_sent(s, &x, err);
	}
	free(text);
	return st;
}

void wn_drafted_free(wn_drafted *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		for (size_t k = 0; k < v[i].n; k++) {
			free(v[i].findings[k].review);
			free(v[i].findings[k].fp);
		}
		free(v[i].findings);
		free(v[i].msgid);
	}
	free(v);
}

struct drafts {
	wn_drafted *v;
	size_t n;
};

/* One pending draft from its journal record; a record that does not
 * read is left out (the journal is ours, but may be torn). */
static wn_status one_draft(void *arg, const char *msgid, long long t, const char *findings)
{
	struct drafts *d = arg;
	json_t *a = json_loads(findings, 0, NULL), *pair;
	wn_drafted *nv, *x;
	size_t i;

	if (!json_is_array(a)) {
		json_decref(a);
		return WN_OK;
	}
	if (!(nv = realloc(d->v, (d->n + 1) * sizeof(*nv)))) {
		json_decref(a);
		return WN_NOMEM;
	}
	d->v = nv;
	x = &nv[d->n++];
	memset(x, 0, sizeof(*x));
	x->when = (time_t) t;
	x->msgid = strdup(msgid);
	x->findings = calloc(json_array_size(a) + 1, sizeof(*x->findings));
	if (!x->msgid || !x->findings) {
		json_decref(a);
		return WN_NOMEM;
	}
	json_array_foreach(a, i, pair) {
		json_t *r = json_array_get(pair, 0), *f = json_array_get(pair, 1);

		if (!json_is_string(r) || !json_is_string(f))
			continue;
		x->findings[x->n].review = strdup(json_string_value(r));
		x->findings[x->n].fp = strdup(json_string_value(f));
		if (!x->findings[x->n].review || !x->findings[x->n].fp) {
			free(x->findings[x->n].review);
			free(x->findings[x->n].fp);
			json_decref(a);
			return WN_NOMEM;
		}
		x->n++;
	}
	json_decref(a);
	return WN_OK;
}

wn_status wn_store_drafts(wn_store *s, wn_drafted **out, size_t *n, wn_error *err)
{
	struct drafts d = { NULL, 0 };
	wn_status st;

	*out = NULL;
	*n = 0;
	if ((st = wn_store_catch_up(s, err)) != WN_OK)
		return st;
	if ((st = wn_log_sent_drafted(s, one_draft, &d)) != WN_OK) {
		wn_drafted_free(d.v, d.n);
		return wn_error_set(err, st, "out of memory");
	}
	*out = d.v;
	*n = d.n;
	return WN_OK;
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
	if ((st = wn_store_catch_up(s, err)) != WN_OK)
		return st;
	if (msgid && wn_log_sent_find(s, msgid, state, &t) && when)
		*when = (time_t) t;
	return WN_OK;
}
