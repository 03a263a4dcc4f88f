/* winnow — one AI review passed on twice: see copy.h.
 *
 * netdev's AI reviews come from the maintainers who pass them on: one
 * sends the review, another forwards the same text, and the queue had
 * two rows with the same findings to judge twice.  Only such forwarded
 * reviews are compared (the bots that send their own mail send each
 * review once), and only within the thread, so that a queue of
 * thousands of reviews reads a few more mails, not all of them. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "copy.h"
#include "message.h"
#include "props.h"
#include "winnow/buf.h"

/* Bots whose reviews a person passes on, so that two people can. */
static bool forwarded_bot(wn_bot b)
{
	return wn_bot_passed_on(b);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* r's fingerprints, sorted: NULL when out of memory. */
static const char **sorted_fps(const wn_review *r)
{
	const char **v = malloc((r->nfindings ? r->nfindings : 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (size_t i = 0; i < r->nfindings; i++)
		v[i] = r->findings[i].fingerprint;
	qsort(v, r->nfindings, sizeof(*v), cmp_str);
	return v;
}

/* Is m's mail a review by it's bot with word for word its findings? */
static wn_status same_review(wn_index *idx, const wn_item *it, const char **fps,
			     notmuch_message_t *m, bool *same)
{
	wn_mail *mail = NULL;
	wn_review *r = NULL;
	wn_error lerr = WN_ERROR_INIT;
	wn_review_input in = { 0 };
	const char **other = NULL;
	wn_status st;
	wn_bot b;

	*same = false;
	st = wn_message_read_mail(m, &mail, &lerr);
	if (st != WN_OK)
		goto out;
	if (!wn_bot_detect(mail, (const char *const *) idx->conf.bots, &b) || b != it->bot)
		goto out;
	in.subject = mail->subject;
	if ((st = wn_review_parse_with(b, mail->body, mail->body_len, &in, &r, &lerr)) != WN_OK)
		goto out;
	if (r->nfindings != it->review->nfindings)
		goto out;
	if (!(other = sorted_fps(r))) {
		st = WN_NOMEM;
		goto out;
	}
	*same = true;
	for (size_t i = 0; i < r->nfindings && *same; i++)
		*same = strcmp(fps[i], other[i]) == 0;
out:
	free(other);
	wn_review_free(&r);
	wn_mail_free(&mail);
	wn_error_clear(&lerr);
	/* an unreadable mail is simply no copy */
	return st == WN_NOMEM ? WN_NOMEM : WN_OK;
}

/* Did a come before b (date, then Message-ID)? */
static bool earlier(time_t da, const char *ia, time_t db, const char *ib)
{
	return da != db ? da < db : strcmp(ia, ib) < 0;
}

static wn_status add_copy(wn_item *it, size_t *n, const char *id)
{
	char **v = realloc(it->copies, (*n + 2) * sizeof(*v));

	if (!v)
		return WN_NOMEM;
	it->copies = v;
	if (!(v[*n] = strdup(id)))
		return WN_NOMEM;
	v[++*n] = NULL;
	return WN_OK;
}

/* The mails of one thread that a passed-on bot's query matches, in the
 * order a query of them gives (newest first). */
struct copy_thread {
	size_t n;
	char **ids;
	time_t *dates;
};

/* Each passed-on bot's mails by thread, read with one query per bot and
 * revision of the index: a query per review ("thread:T and (the bot's
 * query)", phrases over the whole index) was a fifth of a warm list.
 * But the one query reads every mail of the bot in the index, which
 * grows with it: at 300,000 messages the queue's first screen, a few
 * dozen reviews, waited for thousands.  So the first THREAD_QUERIES
 * reviews of a revision ask their own thread; a pass reading more
 * than that builds the maps, costing at most twice the better of the
 * two ways whatever the number of reviews read. */
#define THREAD_QUERIES 64

/* How many thread queries before the maps: THREAD_QUERIES, or for the
 * tests $WINNOW_TEST_COPY_THREAD_QUERIES, so that either way runs over
 * a corpus smaller than THREAD_QUERIES reviews. */
static unsigned thread_queries(void)
{
#ifdef WN_TEST_HOOKS
	const char *v = getenv("WINNOW_TEST_COPY_THREAD_QUERIES");

	if (v && *v)
		return (unsigned) strtoul(v, NULL, 10);
#endif
	return THREAD_QUERIES;
}

struct wn_copy_index {
	unsigned long generation;	/* of the index the maps were read at */
	bool built[WN_BOT_COUNT];
	unsigned asked[WN_BOT_COUNT];	/* thread queries of this revision */
	wn_map threads[WN_BOT_COUNT];	/* thread id -> struct copy_thread */
};

static void thread_free(void *v)
{
	struct copy_thread *t = v;

	for (size_t i = 0; t && i < t->n; i++)
		free(t->ids[i]);
	if (t) {
		free(t->ids);
		free(t->dates);
	}
	free(t);
}

static void maps_clear(struct wn_copy_index *ci)
{
	for (unsigned b = 0; b < WN_BOT_COUNT; b++) {
		wn_map_free(&ci->threads[b], thread_free);
		ci->built[b] = false;
		ci->asked[b] = 0;
	}
}

void wn_copy_index_free(struct wn_copy_index **pci)
{
	if (!pci || !*pci)
		return;
	maps_clear(*pci);
	free(*pci);
	*pci = NULL;
}

static wn_status thread_add(wn_map *threads, const char *tid, const char *id, time_t date)
{
	struct copy_thread *t = wn_map_get(threads, tid, strlen(tid));
	char **ids;
	time_t *dates;

	if (!t) {
		if (!(t = calloc(1, sizeof(*t))))
			return WN_NOMEM;
		if (wn_map_put(threads, tid, strlen(tid), t) != WN_OK) {
			free(t);
			return WN_NOMEM;
		}
	}
	if (!(ids = realloc(t->ids, (t->n + 1) * sizeof(*ids))))
		return WN_NOMEM;
	t->ids = ids;
	if (!(dates = realloc(t->dates, (t->n + 1) * sizeof(*dates))))
		return WN_NOMEM;
	t->dates = dates;
	if (!(t->ids[t->n] = strdup(id)))
		return WN_NOMEM;
	t->dates[t->n++] = date;
	return WN_OK;
}

/* The mails query qs matches into map, by thread.  *ran false when the
 * query could not run; WN_NOMEM the only error. */
static wn_status query_threads(wn_index *idx, const char *qs, wn_map *map, bool *ran)
{
	notmuch_query_t *q = notmuch_query_create(idx->db, qs);
	notmuch_messages_t *ms;
	wn_status st = WN_OK;

	*ran = false;
	if (!q)
		return WN_NOMEM;
	/* The default sort, as the query per review had. */
	if (!(ms = wn_message_search(q, NULL))) {
		notmuch_query_destroy(q);
		return WN_OK;
	}
	for (; notmuch_messages_valid(ms) && st == WN_OK; notmuch_messages_move_to_next(ms)) {
		notmuch_message_t *m = notmuch_messages_get(ms);
		const char *id = wn_message_id(m), *tid = notmuch_message_get_thread_id(m);

		if (id && tid)
			st = thread_add(map, tid, id, notmuch_message_get_date(m));
		notmuch_message_destroy(m);
	}
	notmuch_query_destroy(q);
	if (st != WN_OK)
		wn_map_free(map, thread_free);
	*ran = st == WN_OK;
	return st;
}

/* Bot b's mails in thread tid: from the maps of this revision, or, for
 * the first THREAD_QUERIES reviews, from a query of that thread alone
 * into *own (the caller frees it).  *threads NULL when the query could
 * not run (no copies then, as a failed query per review found none);
 * WN_NOMEM the only error. */
static wn_status bot_threads(wn_index *idx, wn_bot b, const char *bq, const char *tid, wn_map *own,
			     const wn_map **threads)
{
	struct wn_copy_index *ci = idx->copies;
	wn_buf qs = WN_BUF_INIT;
	wn_status st;
	bool ran;

	*threads = NULL;
	if (!ci && !(ci = idx->copies = calloc(1, sizeof(*ci))))
		return WN_NOMEM;
	if (ci->generation != idx->generation) {
		maps_clear(ci);
		ci->generation = idx->generation;
	}
	if (ci->built[b]) {
		*threads = &ci->threads[b];
		return WN_OK;
	}
	if (ci->asked[b] < thread_queries()) {
		ci->asked[b]++;
		if (wn_buf_printf(&qs, "thread:%s and (%s)", tid, bq) != WN_OK) {
			wn_buf_free(&qs);
			return WN_NOMEM;
		}
		st = query_threads(idx, qs.data, own, &ran);
		wn_buf_free(&qs);
		*threads = ran ? own : NULL;
		return st;
	}
	if (wn_buf_printf(&qs, "(%s)", bq) != WN_OK) {
		wn_buf_free(&qs);
		return WN_NOMEM;
	}
	st = query_threads(idx, qs.data, &ci->threads[b], &ran);
	wn_buf_free(&qs);
	if (ran) {
		ci->built[b] = true;
		*threads = &ci->threads[b];
	}
	return st;
}

wn_status wn_copy_find(wn_index *idx, wn_item *it, const char *tid, time_t mine,
		       wn_cache_deps *deps, wn_error *err)
{
	const char *bq = wn_bot_query(it->bot), *first_id = it->id;
	const struct copy_thread *t;
	const wn_map *threads;
	wn_map own = WN_MAP_INIT;
	const char **fps = NULL;
	time_t first = mine;
	wn_status st = WN_OK;
	size_t n = 0;

	if (!forwarded_bot(it->bot) || it->load_error || !it->review->nfindings || !tid || !bq)
		return WN_OK;
	if ((st = bot_threads(idx, it->bot, bq, tid, &own, &threads)) != WN_OK)
		goto out;
	/* A mail of the thread new or changed since could be a copy, or
	 * the first of them.  A query that did not run found none, which
	 * is no answer to keep. */
	if (deps && threads)
		wn_cache_dep_thread(deps, tid);
	else if (deps)
		deps->unknown = true;
	/* Mostly the review alone in its thread: nothing to read. */
	t = threads ? wn_map_get(threads, tid, strlen(tid)) : NULL;
	if (!t || (t->n == 1 && strcmp(t->ids[0], it->id) == 0))
		goto out;
	if (!(fps = sorted_fps(it->review))) {
		st = WN_NOMEM;
		goto out;
	}
	for (size_t i = 0; i < t->n && st == WN_OK; i++) {
		const char *id = t->ids[i];
		notmuch_message_t *m;
		bool same = false;

		if (strcmp(id, it->id) == 0 || !(m = wn_message_find(idx->db, id)))
			continue;
		/* Its file, which the comparison read (one gone or rewritten
		 * in place leaves no lastmod in the thread). */
		if (deps)
			wn_cache_dep(deps, id, m);
		st = same_review(idx, it, fps, m, &same);
		notmuch_message_destroy(m);
		if (st == WN_OK && same) {
			st = add_copy(it, &n, id);
			if (st == WN_OK && earlier(t->dates[i], id, first, first_id)) {
				first = t->dates[i];
				first_id = it->copies[n - 1];
			}
		}
	}
	if (st == WN_OK && first_id != it->id && !(it->copy_of = strdup(first_id)))
		st = WN_NOMEM;
out:
	free(fps);
	wn_map_free(&own, thread_free);
	if (st != WN_OK) {
		wn_copy_clear(it);
		return wn_error_set(err, st, "out of memory");
	}
	return WN_OK;
}

/* Take what copy c says of the findings it says nothing of. */
static void take(wn_item *it, const wn_item *c)
{
	for (size_t i = 0; i < it->review->nfindings; i++) {
		if (it->verdicts[i] == WN_VERDICT_UNTRIAGED && c->verdicts[i] != WN_VERDICT_UNTRIAGED) {
			it->verdicts[i] = c->verdicts[i];
			it->reasons[i] = c->reasons[i];
			if (!it->closed[i] && c->closed[i])
				it->closed[i] = strdup(c->closed[i]);
			if (!it->notes[i] && c->notes[i])
				it->notes[i] = strdup(c->notes[i]);
		}
		if (it->severity[i] == WN_SEV_NONE)
			it->severity[i] = c->severity[i];
		if (!it->forwarded[i] && c->forwarded[i])
			it->forwarded[i] = strdup(c->forwarded[i]);
		if (!it->reported[i] && c->reported[i])
			it->reported[i] = strdup(c->reported[i]);
	}
	/* A bug the bot missed, recorded on either mail, is the review's:
	 * stats counts the first mail only. */
	for (size_t i = 0; i < c->nmisses; i++) {
		bool have = false;
		char **nv;

		for (size_t j = 0; j < it->nmisses && !have; j++)
			have = strcmp(it->misses[j], c->misses[i]) == 0;
		if (have || !(nv = realloc(it->misses, (it->nmisses + 1) * sizeof(*nv))))
			continue;
		it->misses = nv;
		if ((nv[it->nmisses] = strdup(c->misses[i])))
			it->nmisses++;
	}
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void wn_copy_merge(wn_index *idx, wn_item *it)
{
	size_t n = it->review ? it->review->nfindings : 0;

	for (char **id = it->copies; id && *id && n; id++) {
		notmuch_message_t *m = wn_message_find(idx->db, *id);
		wn_item c = { .review = it->review };

		if (!m)
			continue;
		c.verdicts = calloc(n, sizeof(*c.verdicts));
		c.notes = calloc(n, sizeof(*c.notes));
		c.forwarded = calloc(n, sizeof(*c.forwarded));
		c.severity = calloc(n, sizeof(*c.severity));
		c.reported = calloc(n, sizeof(*c.reported));
		c.reasons = calloc(n, sizeof(*c.reasons));
		c.closed = calloc(n, sizeof(*c.closed));
		if (c.verdicts && c.notes && c.forwarded && c.severity && c.reported && c.reasons && c.closed) {
			wn_props_read_item(&c, m);
			take(it, &c);
		}
		notmuch_message_destroy(m);
		free(c.verdicts);
		free_strs(c.notes, n);
		free_strs(c.forwarded, n);
		free(c.severity);
		free_strs(c.reported, n);
		free(c.reasons);
		free_strs(c.closed, n);
		free_strs(c.misses, c.nmisses);
		free(c.warning);
	}
	wn_item_count(it);
}

void wn_copy_clear(wn_item *it)
{
	for (char **p = it->copies; p && *p; p++)
		free(*p);
	free(it->copies);
	free(it->copy_of);
	it->copies = NULL;
	it->copy_of = NULL;
}
