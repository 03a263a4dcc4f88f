/* winnow — netdev's patchwork commands in a patch's thread: the
 * "pw-bot: cr" lines maintainers (and netdev's AI reviews) write for
 * the patchwork bot, which sets the patch's state from them.  Shown
 * beside a review so that a maintainer sees the patch was already sent
 * back before forwarding more. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/str.h"
#include "message.h"
#include "index-private.h"
#include "winnow/text.h"

/* Longest state kept: "changes-requested" and a word of slack. */
#define PW_STATE_MAX 40

/* The state of a "pw-bot:" line of the body (not quoted), sanitised
 * and on one line; NULL when the line is none (or out of memory, *oom). */
static char *pw_state(const char *l, size_t n, bool *oom)
{
	char *raw, *s;

	wn_str_trim(&l, &n);
	if (!wn_str_prefix_ci(l, n, "pw-bot:"))
		return NULL;
	l += 7;
	n -= 7;
	wn_str_trim(&l, &n);
	if (!n)
		return NULL;
	if (n > PW_STATE_MAX)
		n = PW_STATE_MAX;
	if (!(raw = wn_strndup(l, n)) || !(s = wn_text_sanitize(raw, 0))) {
		free(raw);
		*oom = true;
		return NULL;
	}
	free(raw);
	return s;
}

static wn_status add(wn_pwbot **v, size_t *n, char *state, notmuch_message_t *msg)
{
	const char *from = notmuch_message_get_header(msg, "from");
	const char *id = notmuch_message_get_message_id(msg);
	wn_pwbot *nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv) {
		free(state);
		return WN_NOMEM;
	}
	*v = nv;
	nv[*n].state = state;
	nv[*n].from = wn_text_sanitize(from ? from : "", 0);
	nv[*n].id = strdup(id ? id : "");
	nv[*n].date = notmuch_message_get_date(msg);
	(*n)++;
	return nv[*n - 1].from && nv[*n - 1].id ? WN_OK : WN_NOMEM;
}

/* The pw-bot lines of one message, appended. */
static wn_status scan(notmuch_message_t *msg, wn_pwbot **v, size_t *n)
{
	wn_mail *m = NULL;
	size_t pos = 0, ln;
	const char *l;
	wn_status st = WN_OK;
	bool oom = false;

	/* A mail that cannot be read just has no commands. */
	if (wn_message_read_mail(msg, &m, NULL) != WN_OK)
		return WN_OK;
	while (st == WN_OK && wn_str_next_line(m->body, m->body_len, &pos, &l, &ln)) {
		char *state = ln && l[0] == '>' ? NULL : pw_state(l, ln, &oom);

		if (state)
			st = add(v, n, state, msg);
		else if (oom)
			st = WN_NOMEM;
	}
	wn_mail_free(&m);
	return st;
}

/* The thread of id ("thread:..." term), NULL when absent. */
static char *thread_term(wn_index *idx, const char *id)
{
	notmuch_message_t *msg = id ? wn_message_find(idx->db, id) : NULL;
	char *t = NULL;

	if (!msg)
		return NULL;
	if (asprintf(&t, "thread:%s", notmuch_message_get_thread_id(msg)) < 0)
		t = NULL;
	notmuch_message_destroy(msg);
	return t;
}

wn_status wn_index_pwbot(wn_index *idx, const wn_item *it, wn_pwbot **out, size_t *n, wn_error *err)
{
	char *pt = thread_term(idx, it->patch ? it->patch->id : NULL), *rt = thread_term(idx, it->id);
	char *qs = NULL;
	notmuch_query_t *q = NULL;
	notmuch_messages_t *ms = NULL;
	wn_status st = WN_OK;

	*out = NULL;
	*n = 0;
	/* The patch's thread, and the review's when it sits elsewhere (a
	 * review linked by subject).  Only mails whose words hold
	 * "pw-bot" are read. */
	if ((pt || rt) &&
	    asprintf(&qs, "(%s%s%s) and \"pw-bot\"", pt ? pt : rt, pt && rt && strcmp(pt, rt) ? " or " : "",
		     pt && rt && strcmp(pt, rt) ? rt : "") < 0)
		qs = NULL;
	if (qs && (q = notmuch_query_create(idx->db, qs))) {
		notmuch_query_set_sort(q, NOTMUCH_SORT_OLDEST_FIRST);
		if (notmuch_query_search_messages(q, &ms) != NOTMUCH_STATUS_SUCCESS)
			ms = NULL;
	}
	for (; ms && st == WN_OK && notmuch_messages_valid(ms); notmuch_messages_move_to_next(ms)) {
		notmuch_message_t *m = notmuch_messages_get(ms);

		st = scan(m, out, n);
		notmuch_message_destroy(m);
	}
	if (q)
		notmuch_query_destroy(q);
	if ((pt || rt) && !qs)
		st = WN_NOMEM;
	free(qs);
	free(pt);
	free(rt);
	if (st != WN_OK) {
		wn_pwbot_free(*out, *n);
		*out = NULL;
		*n = 0;
		return wn_error_set(err, st, "out of memory");
	}
	return WN_OK;
}

void wn_pwbot_free(wn_pwbot *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].state);
		free(v[i].from);
		free(v[i].id);
	}
	free(v);
}
