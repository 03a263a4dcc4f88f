/* winnow — who answered a review, and how new its patch's author is
 * (the newcomer mark).  A maintainer reads a review the author already
 * answered differently ("the bot is wrong", "fixed in v2"), and a
 * finding sent to someone with few patches weighs more.  Read on
 * demand (wn_index_load_who), since the queue wants it only for the
 * rows it draws and wn_index_load must stay one mail read. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/hash.h"
#include "index-private.h"
#include "link.h"
#include "message.h"
#include "tree.h"
#include "index-nm.h"
#include "winnow/subject.h"
#include "winnow/mail.h"
#include "winnow/text.h"

/* --- the replies to the review ------------------------------------------ */

/* An address notmuch's query parser takes inside "from:\"...\"". */
static bool quotable(const char *addr)
{
	for (const unsigned char *p = (const unsigned char *) addr; *p; p++)
		if (*p <= ' ' || *p == '"' || *p == 0x7f)
			return false;
	return *addr != '\0';
}

/* Thread tid as kept, or a new one kept in the oldest slot; NULL when
 * out of memory. */
static struct wn_who_thread *thread_slot(wn_index *idx, const char *tid)
{
	struct wn_who_thread *t;
	size_t slot;

	for (size_t i = 0; i < WN_WHO_THREADS; i++)
		if ((t = idx->threads[i]) && t->generation == idx->generation &&
		    !strcmp(t->tid, tid))
			return t;
	if (!(t = calloc(1, sizeof(*t))) || !(t->tid = strdup(tid))) {
		free(t);
		return NULL;
	}
	t->generation = idx->generation;
	slot = idx->next_thread++ % WN_WHO_THREADS;
	wn_who_thread_free(idx->threads[slot]);
	idx->threads[slot] = t;
	return t;
}

/* *out = a copy of s, or NULL for NULL; false when out of memory. */
static bool copy(const char *s, char **out)
{
	*out = wn_strdup0(s);
	return *out || !s;
}

/* Thread id tid (n bytes) as a number, when it is notmuch's 16 lower
 * case hex digits (one number, one spelling); false for any other. */
static bool tid_number(const char *tid, size_t n, uint64_t *v)
{
	*v = 0;
	if (n != 16)
		return false;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char) tid[i];

		if (c >= '0' && c <= '9')
			*v = *v << 4 | (uint64_t) (c - '0');
		else if (c >= 'a' && c <= 'f')
			*v = *v << 4 | (uint64_t) (c - 'a' + 10);
		else
			return false;
	}
	return true;
}

/* The slot of thread number v in idx's table of counts: its own, or
 * the empty one it would take (the table is never full). */
static size_t count_slot(const wn_index *idx, uint64_t v)
{
	size_t i = (size_t) ((v * 0x9E3779B97F4A7C15u) >> 20) & (idx->count_cap - 1);

	while (idx->count_n[i] && idx->count_tid[i] != v)
		i = (i + 1) & (idx->count_cap - 1);
	return i;
}

/* Make room for one more count; false when out of memory. */
static bool count_room(wn_index *idx)
{
	size_t cap = idx->count_cap ? 2 * idx->count_cap : 1024;
	wn_index bigger = { .count_cap = cap };

	if (2 * (idx->count_used + 1) <= idx->count_cap)
		return true;
	bigger.count_tid = calloc(cap, sizeof(*bigger.count_tid));
	bigger.count_n = calloc(cap, sizeof(*bigger.count_n));
	if (!bigger.count_tid || !bigger.count_n) {
		free(bigger.count_tid);
		free(bigger.count_n);
		return false;
	}
	for (size_t i = 0; i < idx->count_cap; i++)
		if (idx->count_n[i]) {
			size_t k = count_slot(&bigger, idx->count_tid[i]);

			bigger.count_tid[k] = idx->count_tid[i];
			bigger.count_n[k] = idx->count_n[i];
		}
	free(idx->count_tid);
	free(idx->count_n);
	idx->count_tid = bigger.count_tid;
	idx->count_n = bigger.count_n;
	idx->count_cap = cap;
	return true;
}

/* Keep n, the count of thread tid's messages listed now, for
 * wn_index_thread_count(): what the facts file keeps of each thread its
 * records depend on, which was one more query a thread.  The counts of
 * an older generation go first.  Out of memory (or a count past 32
 * bits, or another spelling of a thread id) keeps nothing. */
static void count_put(wn_index *idx, const char *tid, size_t n)
{
	uint64_t v;
	size_t k;

	if (idx->counts_generation != idx->generation) {
		if (idx->count_n)
			memset(idx->count_n, 0, idx->count_cap * sizeof(*idx->count_n));
		idx->count_used = 0;
		idx->counts_generation = idx->generation;
	}
	if (n >= UINT32_MAX || !tid_number(tid, strlen(tid), &v) || !count_room(idx))
		return;
	k = count_slot(idx, v);
	idx->count_used += !idx->count_n[k];
	idx->count_tid[k] = v;
	idx->count_n[k] = (uint32_t) n + 1;
}

/* The row of the batch a list holds for message id, its values read;
 * NULL: none (or no id). */
static const struct held_row *held_of(const wn_index *idx, const char *id)
{
	return id ? wn_index_held_row(idx, id, wn_fnv1a_str(WN_FNV_BASIS, id)) : NULL;
}

/* The messages of thread tid, read from the index's values (no thread
 * built, no mail read), unsorted: the order is the index's own, the
 * one series.c's search of the thread gets, so that it can use the
 * list too (wn_index_thread_each).  One value at a time over the whole
 * thread: Xapian keeps each value slot apart, in chunks of neighbouring
 * documents, and its cursor keeps the blocks it last read, so that the
 * dates of a thread (and of the next, a pass going by date) mostly come
 * from blocks read already, where a message's four values one after the
 * other moved the cursor between slots and read them all again (more
 * than a third of a cold stats pass's reads).  False when out of
 * memory. */
static bool thread_list(wn_index *idx, struct wn_who_thread *t)
{
	char *qs = NULL;
	notmuch_query_t *q = NULL;
	notmuch_messages_t *ms = NULL;
	notmuch_message_t **m = NULL;
	const struct held_row **known = NULL;
	size_t n = 0;
	bool ok = true;

	if (asprintf(&qs, "thread:%s", t->tid) < 0 || !(q = wn_index_query_new(idx, qs))) {
		free(qs);
		return false;
	}
	free(qs);
	notmuch_query_set_sort(q, NOTMUCH_SORT_UNSORTED);
	if (notmuch_query_search_messages(q, &ms) != NOTMUCH_STATUS_SUCCESS)
		ms = NULL;
	/* The query owns them until it goes. */
	for (; ok && ms && notmuch_messages_valid(ms); notmuch_messages_move_to_next(ms)) {
		notmuch_message_t **grown = realloc(m, (n + 1) * sizeof(*grown));

		if ((ok = grown != NULL)) {
			m = grown;
			m[n++] = notmuch_messages_get(ms);
		}
	}
	if (ok && n && (!(t->v = calloc(n, sizeof(*t->v))) || !(known = calloc(n, sizeof(*known)))))
		ok = false;
	if (ok) {
		t->n = n;
		/* The ids first: a review of the batch a list holds (nearly
		 * always one, the review asking) has its other values read
		 * already, and each value is a lookup of its own. */
		for (size_t i = 0; ok && i < n; i++)
			ok = copy(wn_message_id(m[i]), &t->v[i].id);
		for (size_t i = 0; ok && i < n; i++)
			known[i] = held_of(idx, t->v[i].id);
		for (size_t i = 0; ok && i < n; i++)
			t->v[i].date = known[i] ? known[i]->date : notmuch_message_get_date(m[i]);
		for (size_t i = 0; ok && i < n; i++)
			ok = copy(known[i] ? known[i]->from :
					     notmuch_message_get_header(m[i], "from"),
				  &t->v[i].from);
		for (size_t i = 0; ok && i < n; i++)
			ok = copy(known[i] ? known[i]->subject :
					     notmuch_message_get_header(m[i], "subject"),
				  &t->v[i].subject);
	}
	free(known);
	free(m);
	notmuch_query_destroy(q);
	t->listed = true;
	t->in_order = ok && ms;
	if (t->in_order)
		count_put(idx, t->tid, n);
	return ok;
}

bool wn_index_thread_count(wn_index *idx, const char *tid, size_t tidn, uint64_t *n)
{
	uint64_t v;
	size_t k;

	*n = 0;
	if (idx->counts_generation != idx->generation || !idx->count_cap ||
	    !tid_number(tid, tidn, &v) || !idx->count_n[k = count_slot(idx, v)])
		return false;
	*n = idx->count_n[k] - 1;
	return true;
}

bool wn_index_thread_each(wn_index *idx, const char *tid, size_t max,
			  void (*fn)(void *arg, const char *id, const char *from,
				     const char *subject, time_t date),
			  void *arg)
{
	struct wn_who_thread *t = thread_slot(idx, tid);
	size_t *order = NULL;

	if (!t || (!t->listed && !thread_list(idx, t)) || !t->in_order)
		return false;
	/* Walked: back into the listing's order, which the nodes kept. */
	if (t->walked && t->n) {
		if (!(order = malloc(t->n * sizeof(*order))))
			return false;
		for (size_t i = 0; i < t->n; i++)
			order[t->v[i].at] = i;
	}
	for (size_t k = 0; k < t->n && k < max; k++) {
		const struct wn_who_node *x = &t->v[order ? order[k] : k];

		fn(arg, x->id, x->from, x->subject, x->date);
	}
	free(order);
	return true;
}

/* Could anyone have answered: another mail of the thread dated from the
 * review on, not from the bot (which goes on reviewing the series'
 * other patches)?  Or, with from and !exclude, a mail from that
 * address?  Read from the thread's list of senders and dates, kept for
 * the series' other reviews: far cheaper than building the thread (or
 * asking the configured query, whose regular expressions read every
 * subject), and nearly always no for a review nobody answered.  The
 * sender is matched by its address's text in the From, a test that
 * only ever says yes too often: the walk then decides.  (A reply whose
 * sender's clock ran behind the bot's is missed.)  Yes when the
 * question cannot be asked. */
static bool later_mail(wn_index *idx, const char *tid, time_t since, const char *from,
		       bool exclude)
{
	struct wn_who_thread *t = thread_slot(idx, tid);
	bool by_from = from && *from;
	size_t n = 0;

	if (!t || (!t->listed && !thread_list(idx, t)))
		return true;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].date >= since &&
		    (!by_from || (strcasestr(t->v[i].from ? t->v[i].from : "", from) != NULL) != exclude))
			n++;
	return by_from ? n > 0 : n > 1;	/* else the review itself is one */
}

/* Append the messages of ms and, after each, its answers, depth first:
 * the nodes' depths, and the messages into *m beside them (their values
 * are read after, as in thread_list). */
static bool flatten(struct wn_who_thread *t, notmuch_message_t ***m, notmuch_messages_t *ms,
		    int depth)
{
	for (; ms && notmuch_messages_valid(ms); notmuch_messages_move_to_next(ms)) {
		struct wn_who_node *grown = realloc(t->v, (t->n + 1) * sizeof(*grown));
		notmuch_message_t **gm;

		if (!grown)
			return false;
		t->v = grown;
		if (!(gm = realloc(*m, (t->n + 1) * sizeof(*gm))))
			return false;
		*m = gm;
		gm[t->n] = notmuch_messages_get(ms);
		memset(&grown[t->n], 0, sizeof(*grown));
		grown[t->n++].depth = depth;
		if (!flatten(t, m, notmuch_message_get_replies(gm[t->n - 1]), depth + 1))
			return false;
	}
	return true;
}

/* The walked nodes' ids, as wn_thread_msg_copy has them: notmuch read
 * them building the thread. */
static bool walked_ids(struct wn_who_thread *t, notmuch_message_t **m)
{
	bool ok = true;

	for (size_t i = 0; ok && i < t->n; i++)
		ok = (t->v[i].id = wn_strdup0(notmuch_message_get_message_id(m[i]))) != NULL;
	return ok;
}

/* Their other values, one slot at a time (see thread_list); as
 * wn_thread_msg_copy has them. */
static bool walked_values(struct wn_who_thread *t, notmuch_message_t **m)
{
	bool ok = true;

	for (size_t i = 0; i < t->n; i++)
		t->v[i].date = notmuch_message_get_date(m[i]);
	for (size_t i = 0; ok && i < t->n; i++) {
		const char *f = notmuch_message_get_header(m[i], "from");

		ok = (t->v[i].from = strdup(f ? f : "")) != NULL;
	}
	for (size_t i = 0; ok && i < t->n; i++) {
		const char *f = notmuch_message_get_header(m[i], "subject");

		ok = (t->v[i].subject = strdup(f ? f : "")) != NULL;
	}
	return ok;
}

static void nodes_free(struct wn_who_node *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].id);
		free(v[i].from);
		free(v[i].subject);
	}
	free(v);
}

/* Take the walk's dates, Froms and Subjects from the listing v (n
 * nodes) when it holds the very messages walked: the same values of the
 * same documents, read already.  Then each walked node's at is its place
 * in the listing, and the series' pass over the thread takes the walk
 * instead of searching the thread again (after a walk, most of a
 * thread's listings did).  Anything else (a message come or gone
 * between the two, notmuch's id unlike the value, a NULL header, out of
 * memory): false, and t's nodes as they were. */
static bool from_listing(struct wn_who_thread *t, const struct wn_who_node *v, size_t n)
{
	static char taken;
	wn_map ids = WN_MAP_INIT;
	bool ok = n == t->n;

	for (size_t j = 0; ok && j < n; j++)
		ok = v[j].id && v[j].from && v[j].subject &&
		     !wn_map_get(&ids, v[j].id, strlen(v[j].id)) &&
		     wn_map_put(&ids, v[j].id, strlen(v[j].id), (void *) &v[j]) == WN_OK;
	for (size_t i = 0; ok && i < t->n; i++) {
		struct wn_who_node *x = &t->v[i];
		const struct wn_who_node *l = wn_map_get(&ids, x->id, strlen(x->id));

		if (!(ok = l && l != (const void *) &taken &&
			   wn_map_put(&ids, x->id, strlen(x->id), &taken) == WN_OK))
			break;
		x->at = (size_t) (l - v);
		x->date = l->date;
		x->from = strdup(l->from);
		x->subject = strdup(l->subject);
		ok = x->from && x->subject;
	}
	wn_map_free(&ids, NULL);
	/* Those not taken yet are NULL still (flatten). */
	for (size_t k = 0; !ok && k < t->n; k++) {
		free(t->v[k].from);
		free(t->v[k].subject);
		t->v[k].from = t->v[k].subject = NULL;
	}
	return ok;
}

/* Thread tid of review id walked, from the threads kept or walked now
 * and kept; NULL when out of memory.  The reviews of a series mostly
 * share a thread, and come one after the other. */
static struct wn_who_thread *thread_of_review(wn_index *idx, const char *tid, const char *id)
{
	struct wn_who_thread *t = thread_slot(idx, tid);
	notmuch_query_t *q = NULL;
	notmuch_thread_t *thread = NULL;
	struct wn_who_node *listing;
	notmuch_message_t **m = NULL;
	size_t nlisting;
	bool ok, in_order;

	if (!t || t->walked)
		return t;
	/* The listing, kept aside for its order. */
	in_order = t->listed && t->in_order;
	listing = in_order ? t->v : NULL;
	nlisting = in_order ? t->n : 0;
	if (in_order) {
		t->v = NULL;
		t->n = 0;
	}
	wn_who_thread_clear(t);
	wn_thread_root(idx, tid, id, &q, &thread);
	ok = !thread || (flatten(t, &m, notmuch_thread_get_toplevel_messages(thread), 0) &&
			 walked_ids(t, m));
	in_order = ok && in_order && from_listing(t, listing, nlisting);
	if (ok && !in_order)
		ok = walked_values(t, m);
	free(m);
	if (q)
		notmuch_query_destroy(q);
	/* Half read: read again next time. */
	t->walked = ok;
	t->listed = ok;
	t->in_order = ok && in_order;
	nodes_free(listing, nlisting);
	if (!ok)
		wn_who_thread_clear(t);
	return ok ? t : NULL;
}

/* --- the author's answer, from the candidates' own headers --------------- */

/* Is one of addr's mails below review id in thread tid, as the walk
 * would say, read from those mails' headers (and their parents')
 * instead of notmuch's tree, which reads every message of the thread?
 * The ones dated from since on first: the answer, nearly always.
 * Unsure (the walk decides) when any it cannot place could be. */
static enum wn_below author_below(wn_index *idx, const char *tid, const char *id, const char *addr,
			       time_t since)
{
	struct wn_who_thread *t = thread_slot(idx, tid);
	enum wn_below answer = WN_BELOW_NO;
	size_t r;

	if (!t)
		return WN_BELOW_NOMEM;
	if (t->walked || !t->listed || !t->in_order || !*addr)
		return WN_BELOW_UNSURE;
	if (!wn_tree_ready(idx, t))
		return WN_BELOW_NOMEM;
	if (!(r = wn_tree_at(t, id)))
		return WN_BELOW_UNSURE;
	r--;
	for (int late = 1; late >= 0; late--)
		for (size_t i = 0; i < t->n; i++) {
			enum wn_below b;

			if (i == r || (t->v[i].date >= since) != late)
				continue;
			b = strcmp(t->addr[i], addr) ? WN_BELOW_NO : wn_tree_below(idx, t, i, r);
			if (b == WN_BELOW_YES || b == WN_BELOW_NOMEM)
				return b;
			if (b == WN_BELOW_UNSURE)
				answer = WN_BELOW_UNSURE;
		}
	return answer;
}

/* The human mails below node r of t: its subtree, the nodes after it
 * deeper than it.  The bots' are left out (a bot's follow-up to its own
 * report is no one answering it), their answers not; the configured
 * query is asked only when something answered. */
static bool below(wn_index *idx, struct wn_who_thread *t, size_t r, const char *author,
		  wn_item *it)
{
	size_t end = r + 1;

	while (end < t->n && t->v[end].depth > t->v[r].depth)
		end++;
	if (end > r + 1 && !t->bots && !(t->bots = wn_thread_bot_ids(idx, t->tid)))
		return false;
	for (size_t i = r + 1; i < end; i++) {
		const struct wn_who_node *x = &t->v[i];
		wn_reply *grown, *y;
		char *a;

		if (wn_thread_is_bot(t->bots, x->id))
			continue;
		if (!(grown = realloc(it->replies, (it->nreplies + 1) * sizeof(*grown))))
			return false;
		it->replies = grown;
		y = &grown[it->nreplies];
		memset(y, 0, sizeof(*y));
		y->id = strdup(x->id);
		y->from = strdup(x->from);
		y->subject = strdup(x->subject);
		y->date = x->date;
		y->depth = x->depth - t->v[r].depth;
		a = wn_mail_addr(x->from);
		y->author = a && *a && author && !strcmp(a, author);
		if (!y->id || !y->from || !y->subject || !a) {
			free(y->id);
			free(y->from);
			free(y->subject);
			free(a);
			return false;
		}
		free(a);
		it->nreplies++;
	}
	return true;
}

static wn_status review_replies(wn_index *idx, wn_item *it, const char *author, wn_error *err)
{
	struct wn_who_thread *t = NULL;
	time_t since = it->date;
	const char *tid;
	bool ok = true, walk = false;

	if (!(tid = it->thread_id))
		return WN_OK;	/* not loaded from the index: no thread */
	{
		char *bot = wn_mail_addr(it->from);

		walk = later_mail(idx, tid, since, bot, true);
		free(bot);
	}
	if (walk) {
		ok = (t = thread_of_review(idx, tid, it->id)) != NULL;
		for (size_t r = 0; ok && r < t->n; r++)
			if (!strcmp(t->v[r].id, it->id)) {
				ok = below(idx, t, r, author, it);
				break;
			}
	}
	if (!ok) {
		wn_replies_free(it->replies, it->nreplies);
		it->replies = NULL;
		it->nreplies = 0;
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	return WN_OK;
}

/* --- the author's earlier patches ----------------------------------------- */

static bool push_patch(struct wn_author_patches *a, notmuch_message_t *m)
{
	time_t *dates = realloc(a->dates, (a->n + 1) * sizeof(*dates));
	char **threads;

	if (!dates)
		return false;
	a->dates = dates;
	if (!(threads = realloc(a->threads, (a->n + 1) * sizeof(*threads))))
		return false;
	a->threads = threads;
	if (!(threads[a->n] = wn_strdup0(notmuch_message_get_thread_id(m))))
		return false;
	dates[a->n++] = notmuch_message_get_date(m);
	return true;
}

/* The address B4 Relay sends addr's patches from:
 * "ann@example.org" -> "devnull+ann.example.org@kernel.org".  malloc'd;
 * NULL when out of memory. */
static char *relay_of(const char *addr)
{
	char *r = NULL;

	if (asprintf(&r, "devnull+%s@kernel.org", addr) < 0)
		return NULL;
	*strchr(r + strlen("devnull+"), '@') = '.';
	return r;
}

/* Is m, From relay, a patch B4 Relay sent for addr?  Its X-Original-From
 * says whom it sends for ("a.b@c.org" and "a@b.c.org" share a relay
 * address); without one, the relay address alone. */
static bool relayed_for(notmuch_message_t *m, const char *addr, bool *oom)
{
	const char *orig = notmuch_message_get_header(m, "x-original-from");
	char *o;
	bool same;

	if (!orig || !*orig)
		return true;
	if (!(o = wn_mail_addr(orig))) {
		*oom = true;
		return false;
	}
	same = !strcmp(o, addr);
	free(o);
	return same;
}

/* Every patch mail from addr, or sent for it by B4 Relay: "subject:patch"
 * narrows the search, the subject's tag and the From's address (notmuch's
 * from: matches words, and "x.ann@example.org" holds those of
 * "ann@example.org") decide.  One query either way: the relay's address
 * is addr spelled in its From. */
static wn_status author_patches(wn_index *idx, const char *addr, struct wn_author_patches **out,
				wn_error *err)
{
	struct wn_author_patches *a = calloc(1, sizeof(*a));
	notmuch_query_t *q = NULL;
	notmuch_messages_t *ms = NULL;
	char *qs = NULL, *relay = strchr(addr, '@') ? relay_of(addr) : strdup("");
	bool oom = !a || !relay;

	if (!oom && asprintf(&qs, *relay ? "(from:\"%s\" or from:\"%s\") and subject:patch"
					 : "from:\"%s\" and subject:patch", addr, relay) < 0)
		qs = NULL, oom = true;
	if (!oom && !(q = wn_index_query_new(idx, qs)))
		oom = true;
	free(qs);
	if (q && notmuch_query_search_messages(q, &ms) != NOTMUCH_STATUS_SUCCESS)
		ms = NULL;
	for (; !oom && ms && notmuch_messages_valid(ms); notmuch_messages_move_to_next(ms)) {
		notmuch_message_t *m = notmuch_messages_get(ms);
		char *from;

		if (!wn_subject_is_patch(notmuch_message_get_header(m, "subject")))
			continue;
		if (!(from = wn_mail_addr(notmuch_message_get_header(m, "from"))))
			oom = true;
		else if ((!strcmp(from, addr) || (*relay && !strcmp(from, relay) && relayed_for(m, addr, &oom))) &&
			 !oom && !push_patch(a, m))
			oom = true;
		free(from);
	}
	free(relay);
	if (q)
		notmuch_query_destroy(q);
	if (!oom && wn_map_put(&idx->authors, addr, strlen(addr), a) != WN_OK)
		oom = true;
	if (oom) {
		wn_author_patches_free(a);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	*out = a;
	return WN_OK;
}

static wn_status earlier_patches(wn_index *idx, wn_item *it, const char *addr, wn_error *err)
{
	struct wn_author_patches *a;
	notmuch_message_t *msg;
	const char *tid;
	wn_status st;
	int n = 0;

	it->earlier_patches = -1;
	if (!it->patch || !addr || !quotable(addr))
		return WN_OK;
	a = wn_map_get(&idx->authors, addr, strlen(addr));
	if (!a && (st = author_patches(idx, addr, &a, err)) != WN_OK)
		return st;
	if ((st = wn_index_message(idx, it->patch->id, &msg, err)) != WN_OK)
		return st;
	tid = msg ? notmuch_message_get_thread_id(msg) : NULL;
	/* Its own series is not experience: a first series of six patches
	 * still comes from a newcomer. */
	for (size_t i = 0; i < a->n; i++)
		if (a->dates[i] < it->patch->date && !(tid && !strcmp(tid, a->threads[i])))
			n++;
	if (msg)
		notmuch_message_destroy(msg);
	it->earlier_patches = n;
	return WN_OK;
}

/* --- the item -------------------------------------------------------------- */

wn_status wn_index_load_who(wn_index *idx, wn_item *it, wn_error *err)
{
	char *addr = NULL;
	wn_status st;

	if (it->who_read)
		return WN_OK;
	if (!it->loaded && (st = wn_index_load(idx, it, err)) != WN_OK)
		return st;
	if (it->patch && !(addr = wn_mail_addr(it->patch->author)))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	if (it->replies_read) {
		/* Read by wn_index_author_replied, but only when the author
		 * wrote in the thread since: read them all. */
		wn_replies_free(it->replies, it->nreplies);
		it->replies = NULL;
		it->nreplies = 0;
		it->replies_read = false;
	}
	st = review_replies(idx, it, addr, err);
	if (st == WN_OK)
		st = earlier_patches(idx, it, addr, err);
	free(addr);
	if (st != WN_OK) {
		wn_replies_free(it->replies, it->nreplies);
		it->replies = NULL;
		it->nreplies = 0;
		return st;
	}
	it->newcomer = it->earlier_patches >= 0 && it->earlier_patches < idx->conf.newcomer;
	it->who_read = it->replies_read = true;
	return WN_OK;
}

wn_status wn_index_author_replied(wn_index *idx, wn_item *it, bool *out, wn_error *err)
{
	enum wn_below found = WN_BELOW_NO;
	char *addr;
	wn_status st;

	*out = false;
	if (it->who_read) {
		*out = wn_item_replied(it) == WN_REPLIED_AUTHOR;
		return WN_OK;
	}
	if (!it->loaded && (st = wn_index_load(idx, it, err)) != WN_OK)
		return st;
	if (!it->patch || !it->thread_id)
		return WN_OK;
	if (!(addr = wn_message_addr(&idx->addrs, it->patch->author)))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	/* The author wrote nothing in the thread since: no walk.  Else is
	 * one of the author's mails below the review?  Asked of those mails'
	 * headers (author_below), and of notmuch's tree only when they
	 * cannot say for sure.  The author is no bot, so the configured
	 * query (regular expressions over every subject of the thread, most
	 * of a pass over every review) is not asked. */
	st = WN_OK;
	if (it->replies_read) {
		*out = wn_item_author_reply(it) != NULL;
	} else if (later_mail(idx, it->thread_id, it->date, addr, false) &&
		   (found = author_below(idx, it->thread_id, it->id, addr, it->date)) != WN_BELOW_UNSURE) {
		*out = found == WN_BELOW_YES;
		if (found == WN_BELOW_NOMEM)
			st = wn_error_set(err, WN_NOMEM, "out of memory");
	} else if (found == WN_BELOW_UNSURE) {
		struct wn_who_thread *t = thread_of_review(idx, it->thread_id, it->id);

		if (!t)
			st = wn_error_set(err, WN_NOMEM, "out of memory");
		for (size_t r = 0; t && r < t->n; r++) {
			if (strcmp(t->v[r].id, it->id))
				continue;
			for (size_t i = r + 1; i < t->n && t->v[i].depth > t->v[r].depth && !*out; i++) {
				char *a = wn_message_addr(&idx->addrs, t->v[i].from);

				if (!a) {
					st = wn_error_set(err, WN_NOMEM, "out of memory");
					break;
				}
				*out = *a && !strcmp(a, addr);
				free(a);
			}
			break;
		}
	}
	free(addr);
	it->author_answered = *out;
	return st;
}

wn_replied wn_item_replied(const wn_item *it)
{
	if (wn_item_author_reply(it) || it->author_answered)
		return WN_REPLIED_AUTHOR;
	return it->who_read && it->nreplies ? WN_REPLIED_HUMAN : WN_REPLIED_NONE;
}

const wn_reply *wn_item_author_reply(const wn_item *it)
{
	for (size_t i = 0; (it->who_read || it->replies_read) && i < it->nreplies; i++)
		if (it->replies[i].author)
			return &it->replies[i];
	return NULL;
}
