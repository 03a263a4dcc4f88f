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
 * line of a mail is what counts. */
#include "autoconfig.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "store-private.h"

/* A map value; the Message-ID again, as compaction writes the line
 * from the value alone. */
struct sent {
	long long t;
	wn_sent_state state;
	char msgid[];
};

static const char *const state_names[] = {
	[WN_SENT_HANDED] = "handed", [WN_SENT_ACCEPTED] = "accepted", [WN_SENT_FAILED] = "failed",
};

static wn_status remember(wn_store *s, const char *msgid, wn_sent_state state, long long t)
{
	struct sent *r = wn_map_get(&s->sent, msgid, strlen(msgid));

	if (!r) {
		size_t len = strlen(msgid);

		if (!(r = calloc(1, sizeof(*r) + len + 1)))
			return WN_NOMEM;
		memcpy(r->msgid, msgid, len + 1);
		if (wn_map_put(&s->sent, msgid, strlen(msgid), r) != WN_OK) {
			free(r);
			return WN_NOMEM;
		}
	}
	r->t = t;
	r->state = state;
	return WN_OK;
}

wn_status log_read_sendmail(wn_store *s, struct json_t *o)
{
	json_t *mail = json_object_get(o, "mail"), *state = json_object_get(o, "state");

	if (!json_is_string(mail) || !json_is_string(state))
		return WN_PARSE;
	for (size_t k = WN_SENT_HANDED; k <= WN_SENT_FAILED; k++)
		if (strcmp(json_string_value(state), state_names[k]) == 0)
			return remember(s, json_string_value(mail), (wn_sent_state) k,
					json_integer_value(json_object_get(o, "t")));
	return WN_PARSE;
}

void log_sent_free(wn_store *s)
{
	wn_map_free(&s->sent, free);
}

static char *sent_line(const char *msgid, wn_sent_state state, long long t)
{
	json_t *o = json_pack("{s:s, s:s, s:I, s:s}", "op", "sendmail", "mail", msgid, "t",
			      (json_int_t) t, "state", state_names[state]);
	char *text = o ? json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;

	json_decref(o);
	return text;
}

/* How many mails that sendmail took compaction keeps: a winnow killed
 * after sendmail took a mail but before it removed the draft leaves a
 * draft of a mail that was sent, and the journal must still say so when
 * it is resumed.  The newest ones: such a draft is resumed soon, or
 * never. */
#define KEEP_ACCEPTED 200

struct put {
	const struct sent **v;
	size_t n;
};

static void collect(void *val, void *arg)
{
	struct put *p = arg;
	const struct sent *r = val;

	if (r->state == WN_SENT_HANDED || r->state == WN_SENT_ACCEPTED)
		p->v[p->n++] = r;
}

/* Oldest first, so that the lines keep the journal's order. */
static int by_time(const void *a, const void *b)
{
	const struct sent *x = *(const struct sent *const *) a, *y = *(const struct sent *const *) b;

	return x->t < y->t ? -1 : x->t > y->t;
}

wn_status log_put_sent(wn_buf *out, const wn_store *s)
{
	struct put p = { calloc(s->sent.n + 1, sizeof(*p.v)), 0 };
	size_t accepted = 0;
	wn_status st = WN_OK;

	if (!p.v)
		return WN_NOMEM;
	wn_map_each(&s->sent, collect, &p);
	qsort(p.v, p.n, sizeof(*p.v), by_time);
	for (size_t i = 0; i < p.n; i++)
		accepted += p.v[i]->state == WN_SENT_ACCEPTED;
	/* A mail in doubt is always kept; a failed one asks nothing. */
	for (size_t i = 0; i < p.n && st == WN_OK; i++) {
		char *line;

		if (p.v[i]->state == WN_SENT_ACCEPTED && accepted-- > KEEP_ACCEPTED)
			continue;
		if (!(line = sent_line(p.v[i]->msgid, p.v[i]->state, p.v[i]->t)))
			st = WN_NOMEM;
		else if ((st = wn_buf_puts(out, line)) == WN_OK)
			st = wn_buf_putc(out, '\n');
		free(line);
	}
	free(p.v);
	return st;
}

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
	char *line = sent_line(x->msgid, x->state, x->t);
	wn_status st = line ? wn_buf_puts(out, line) : WN_PARSE;

	free(line);
	if (st == WN_OK)
		st = wn_buf_putc(out, '\n');
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
	if (st == WN_OK && remember(s, msgid, state, x.t) != WN_OK)
		s->oom = true;
	return st;
}

wn_status wn_store_sent(wn_store *s, const char *msgid, wn_sent_state *state, time_t *when,
			wn_error *err)
{
	const struct sent *r;
	wn_status st;

	*state = WN_SENT_NONE;
	if (when)
		*when = 0;
	/* Another winnow (a TUI, a forward --all) may have sent it since. */
	if ((st = store_catch_up(s, err)) != WN_OK)
		return st;
	if (!msgid || !(r = wn_map_get(&s->sent, msgid, strlen(msgid))))
		return WN_OK;
	*state = r->state;
	if (when)
		*when = (time_t) r->t;
	return WN_OK;
}
