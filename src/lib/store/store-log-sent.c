/* winnow — the journal's records of mails handed to sendmail, in
 * memory: read with the other lines, written back by compaction
 * (store-sent.c is their public side).  See store-private.h for the
 * line formats. */
#include "autoconfig.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-private.h"

/* A map value; the Message-ID again, as compaction writes the line
 * from the value alone. */
struct sent {
	long long t;
	wn_sent_state state;
	char *findings;		/* a drafted mail's, JSON text; NULL */
	char msgid[];
};

static const char *const state_names[] = {
	[WN_SENT_HANDED] = "handed", [WN_SENT_ACCEPTED] = "accepted", [WN_SENT_FAILED] = "failed",
	[WN_SENT_DRAFTED] = "drafted",
};

wn_status wn_log_sent_remember(wn_store *s, const char *msgid, wn_sent_state state, long long t,
			       const char *findings)
{
	struct sent *r = wn_map_get(&s->sent, msgid, strlen(msgid));
	char *f = findings ? strdup(findings) : NULL;

	if (findings && !f)
		return WN_NOMEM;
	if (!r) {
		size_t len = strlen(msgid);

		if (!(r = calloc(1, sizeof(*r) + len + 1))) {
			free(f);
			return WN_NOMEM;
		}
		memcpy(r->msgid, msgid, len + 1);
		if (wn_map_put(&s->sent, msgid, strlen(msgid), r) != WN_OK) {
			free(r);
			free(f);
			return WN_NOMEM;
		}
	}
	r->t = t;
	r->state = state;
	free(r->findings);
	r->findings = f;
	return WN_OK;
}

wn_status wn_store_log_read_sendmail(wn_store *s, json_t *o)
{
	json_t *mail = json_object_get(o, "mail"), *state = json_object_get(o, "state");
	json_t *findings = json_object_get(o, "findings");

	if (!json_is_string(mail) || !json_is_string(state))
		return WN_PARSE;
	for (size_t k = WN_SENT_HANDED; k <= WN_SENT_DRAFTED; k++)
		if (strcmp(json_string_value(state), state_names[k]) == 0) {
			char *text = NULL;
			wn_status st;

			if (k == WN_SENT_DRAFTED) {
				if (!json_is_array(findings))
					return WN_PARSE;
				if (!(text = json_dumps(findings, JSON_COMPACT | JSON_ENSURE_ASCII)))
					return WN_NOMEM;
			}
			st = wn_log_sent_remember(s, json_string_value(mail), (wn_sent_state) k,
						  json_integer_value(json_object_get(o, "t")),
						  text);
			free(text);
			return st;
		}
	return WN_PARSE;
}

static void sent_free(void *v)
{
	struct sent *r = v;

	if (r)
		free(r->findings);
	free(r);
}

void wn_store_log_sent_free(wn_store *s)
{
	wn_map_free(&s->sent, sent_free);
}

static char *sent_line(const char *msgid, wn_sent_state state, long long t, const char *findings)
{
	json_t *o = json_pack("{s:s, s:s, s:I, s:s}", "op", "sendmail", "mail", msgid, "t",
			      (json_int_t) t, "state", state_names[state]);
	json_t *f = findings ? json_loads(findings, 0, NULL) : NULL;
	char *text = NULL;

	if (!o) {
		json_decref(f);
		return NULL;
	}
	/* json_object_set_new takes f, whether it succeeds or not. */
	if (!findings || (f && json_object_set_new(o, "findings", f) == 0))
		text = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	return text;
}

wn_status wn_log_put_sendmail(wn_buf *out, const char *msgid, wn_sent_state state, long long t,
			      const char *findings)
{
	char *line = sent_line(msgid, state, t, findings);
	wn_status st = line ? wn_buf_puts(out, line) : WN_PARSE;

	free(line);
	if (st == WN_OK)
		st = wn_buf_putc(out, '\n');
	return st;
}

bool wn_log_sent_find(const wn_store *s, const char *msgid, wn_sent_state *state, long long *t)
{
	const struct sent *r = wn_map_get(&s->sent, msgid, strlen(msgid));

	if (!r)
		return false;
	*state = r->state;
	*t = r->t;
	return true;
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

	if (r->state == WN_SENT_HANDED || r->state == WN_SENT_ACCEPTED || r->state == WN_SENT_DRAFTED)
		p->v[p->n++] = r;
}

/* Oldest first, so that the lines keep the journal's order. */
static int by_time(const void *a, const void *b)
{
	const struct sent *x = *(const struct sent *const *) a, *y = *(const struct sent *const *) b;

	return x->t < y->t ? -1 : x->t > y->t;
}

wn_status wn_log_put_sent(wn_buf *out, const wn_store *s)
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
	/* A mail in doubt or in the drafts folder is always kept; a failed
	 * one asks nothing. */
	for (size_t i = 0; i < p.n && st == WN_OK; i++) {
		char *line;

		if (p.v[i]->state == WN_SENT_ACCEPTED && accepted-- > KEEP_ACCEPTED)
			continue;
		if (!(line = sent_line(p.v[i]->msgid, p.v[i]->state, p.v[i]->t, p.v[i]->findings)))
			st = WN_NOMEM;
		else if ((st = wn_buf_puts(out, line)) == WN_OK)
			st = wn_buf_putc(out, '\n');
		free(line);
	}
	free(p.v);
	return st;
}

wn_status wn_log_sent_drafted(const wn_store *s,
			      wn_status (*fn)(void *arg, const char *msgid, long long t,
					      const char *findings),
			      void *arg)
{
	struct put p = { calloc(s->sent.n + 1, sizeof(*p.v)), 0 };
	wn_status st = WN_OK;

	if (!p.v)
		return WN_NOMEM;
	wn_map_each(&s->sent, collect, &p);
	qsort(p.v, p.n, sizeof(*p.v), by_time);
	for (size_t i = 0; i < p.n && st == WN_OK; i++)
		if (p.v[i]->state == WN_SENT_DRAFTED && p.v[i]->findings)
			st = fn(arg, p.v[i]->msgid, p.v[i]->t, p.v[i]->findings);
	free(p.v);
	return st;
}
