/* winnow — series awareness (series.h): the later patches of a review's
 * series, the later versions of its patch, and what they say about a
 * finding.
 *
 * A patch is read once per wn_series: its subject taken apart, its
 * thread and author, and (when asked) its diff -- first from the keys
 * of its hunks linking kept (wn_index_patch_hunks), its mail read only
 * when they may hold the place asked about.  So is the list of a
 * patch's later siblings and later versions, and what a bot found on a
 * later version.  Lookups go through notmuch queries on one thread or
 * one title, never over every review. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/map.h"
#include "../index/message.h"
#include "../index/index-nm.h"
#include "series-private.h"
#include "../core/str.h"
#include "winnow/similar.h"
#include "winnow/text.h"

/* How many messages one thread or title query reads at most: a thread
 * of a thousand mails is no series worth following. */
#define SCAN_MAX 1000
/* Patches the cache holds before it starts over.  A pass over a year of
 * reviews goes by date, and a series' patches, versions and reviews sit
 * within weeks of each other: what it needs again is what it read last.
 * Without a bound the cache held every patch of the year (45 MiB at
 * 100,000 messages), with it a pass stays small however long. */
#define CACHE_MAX 4096
/* Days around a patch within which an unthreaded sibling is looked for:
 * SR_SIBLING_DAYS (series-private.h, for the facts' dependencies). */
#define SIBLING_DAYS SR_SIBLING_DAYS

struct wn_series {
	wn_index *idx;
	wn_map patches;		/* id -> struct sr_patch */
	wn_map threads;		/* thread id -> struct sr_thread */
	/* For the tests: threads searched again, not taken from who.c's
	 * listing, and patch mails read for their diffs. */
	unsigned long thread_searches, diff_reads;
};

/* series-fixed.c fills a patch's reviews; the cache, which owns the
 * patch, frees them (series-fixed.c calls down into this file, never
 * the other way). */
static void reviewed_free(struct sr_reviewed *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < r[i].n; k++) {
			free(r[i].loc[k]);
			wn_words_free(&r[i].words[k]);
		}
		free(r[i].loc);
		free(r[i].words);
		free(r[i].review);
	}
	free(r);
}

static void patch_free(void *v)
{
	struct sr_patch *p = v;

	if (!p)
		return;
	free(p->id);
	free(p->thread);
	free(p->author);
	free(p->subject);
	wn_subject_clear(&p->subj);
	wn_diff_clear(&p->diff);
	wn_diff_keys_clear(&p->hunks);
	free(p->later);
	free(p->versions);
	reviewed_free(p->reviewed, p->nreviewed);
	free(p);
}

/* The patches of one thread (k/n subjects, no replies), read once for
 * every patch in it: a series' parts share their thread. */
struct sr_thread {
	struct sr_patch **v;
	size_t n;
};

static void thread_free(void *p)
{
	struct sr_thread *t = p;

	free(t->v);
	free(t);
}

wn_status wn_series_new(wn_index *idx, wn_series **out, wn_error *err)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	(*out)->idx = idx;
	/* Linking keeps what wn_sr_patch_find() asks of each patch. */
	wn_index_keep_hunks(idx, true);
	return WN_OK;
}

wn_index *wn_sr_index(wn_series *s)
{
	return s->idx;
}

void wn_sr_trim(wn_series *s)
{
	if (s->patches.n <= CACHE_MAX)
		return;
	/* Threads point into the patches: both go. */
	wn_map_free(&s->patches, patch_free);
	wn_map_free(&s->threads, thread_free);
}

#ifdef WN_TEST_HOOKS
/* For the tests: the counters, appended to $WINNOW_TEST_SERIES_LOG. */
static void test_log(const wn_series *s)
{
	const char *path = getenv("WINNOW_TEST_SERIES_LOG");
	FILE *out = path && *path ? fopen(path, "a") : NULL;

	if (out) {
		fprintf(out, "thread_searches=%lu diff_reads=%lu\n", s->thread_searches,
			s->diff_reads);
		fclose(out);
	}
}
#endif

void wn_series_free(wn_series **ps)
{
	if (!ps || !*ps)
		return;
#ifdef WN_TEST_HOOKS
	test_log(*ps);
#endif
	wn_index_keep_hunks((*ps)->idx, false);
	wn_map_free(&(*ps)->patches, patch_free);
	wn_map_free(&(*ps)->threads, thread_free);
	free(*ps);
	*ps = NULL;
}

/* --- patches --------------------------------------------------------------- */

/* "Name <Addr>" -> "addr"; malloc'd. */
static char *address_of(const char *from)
{
	const char *lt = from ? strrchr(from, '<') : NULL, *gt = lt ? strchr(lt, '>') : NULL;
	char *a = lt && gt ? wn_strndup(lt + 1, (size_t) (gt - lt - 1)) : wn_strdup0(from);

	for (char *p = a; p && *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char) (*p - 'A' + 'a');
	return a;
}

/* A patch from its document values: Message-ID, From, Subject, date.
 * thread: its thread when the caller knows it, or NULL: the thread id
 * is a term, and asking notmuch for it decompresses the whole term list
 * (every word of the mail), so wn_sr_patch_thread() reads it only when it
 * is needed. */
static struct sr_patch *patch_of(const char *id, const char *from, const char *subject,
				 time_t date, const char *thread)
{
	struct sr_patch *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->id = wn_strdup0(id);
	p->thread = thread ? strdup(thread) : NULL;
	p->author = address_of(from);
	p->date = date;
	if (!p->id || (thread && !p->thread) || !p->author ||
	    wn_subject_parse(subject, &p->subj) != WN_OK) {
		patch_free(p);
		return NULL;
	}
	return p;
}

static struct sr_patch *patch_new(notmuch_message_t *msg, const char *thread)
{
	return patch_of(wn_message_id(msg), notmuch_message_get_header(msg, "from"),
			notmuch_message_get_header(msg, "subject"), notmuch_message_get_date(msg),
			thread);
}

/* p into the cache under id; NULL (and p freed) when out of memory. */
static struct sr_patch *patch_keep(wn_series *s, const char *id, struct sr_patch *p)
{
	if (p && wn_map_put(&s->patches, id, strlen(id), p) != WN_OK) {
		patch_free(p);
		p = NULL;
	}
	return p;
}

struct sr_patch *wn_sr_patch_get(wn_series *s, const char *id)
{
	struct sr_patch *p = wn_map_get(&s->patches, id, strlen(id));
	notmuch_message_t *msg = NULL;

	if (p)
		return p;
	if (wn_index_message(s->idx, id, &msg, NULL) != WN_OK || !msg)
		return NULL;
	/* The patch a review is about: its thread is asked for next. */
	p = patch_new(msg, notmuch_message_get_thread_id(msg));
	notmuch_message_destroy(msg);
	return patch_keep(s, id, p);
}

const char *wn_sr_patch_thread(wn_series *s, struct sr_patch *p)
{
	notmuch_message_t *msg = NULL;

	if (p->thread || p->thread_read)
		return p->thread;
	p->thread_read = true;
	if (wn_index_message(s->idx, p->id, &msg, NULL) == WN_OK && msg) {
		p->thread = wn_strdup0(notmuch_message_get_thread_id(msg));
		notmuch_message_destroy(msg);
	}
	return p->thread;
}

/* Its hunks, read once (empty when its mail cannot be read). */
static const wn_diff *sr_patch_diff(wn_series *s, struct sr_patch *p)
{
	notmuch_message_t *msg = NULL;
	wn_mail *mail = NULL;

	if (p->diff_read)
		return &p->diff;
	p->diff_read = true;
	if (wn_index_message(s->idx, p->id, &msg, NULL) != WN_OK || !msg)
		return &p->diff;
	s->diff_reads++;
	/* The one way to read a mail (wn_mail_parse_file, whose plain path
	 * keeps a statistics pass over every series affordable); only the
	 * diff is wanted, no address list. */
	if (wn_message_read_mail_stat(msg, &mail, WN_READ_SENDER, NULL, NULL, NULL) == WN_OK)
		wn_diff_parse(mail->body, mail->body_len, &p->diff);
	wn_mail_free(&mail);
	notmuch_message_destroy(msg);
	return &p->diff;
}

const wn_hunk *wn_sr_patch_find(wn_series *s, struct sr_patch *p, const char *file, const char *fn)
{
	bool read = false;
	wn_status st;

	/* Linking read most patches a series' pass asks about (a bot
	 * reviewed them): it kept their hunks as keys.  One it did not read
	 * yet is read now as it would be, and kept for it. */
	if (!p->diff_read && !p->hunks_known) {
		st = wn_index_patch_hunks(s->idx, p->id, &p->hunks, &p->diff, &read);
		if (read) {
			p->diff_read = true;
			s->diff_reads++;
		}
		p->hunks_known = st == WN_OK && !read;
	}
	if (!p->diff_read && p->hunks_known && !wn_diff_keys_may_find(&p->hunks, file, fn))
		return NULL;
	return wn_diff_find(sr_patch_diff(s, p), file, fn);
}

/* What a search gathers before fn is called: Message-IDs and subjects,
 * at most SCAN_MAX. */
struct gather {
	wn_series *s;
	const char *thread;
	char **ids;		/* id, subject, id, subject, ... */
	size_t n, cap;		/* pairs held, pairs room for */
	bool oom;
};

/* Room for one more pair, grown as a thread has messages: a thread has
 * a handful, and zeroing room for SCAN_MAX of them for each one listed
 * was 0.7% of a cold statistics pass.  False when out of memory. */
static bool gather_room(struct gather *g)
{
	size_t cap = g->cap ? 2 * g->cap : 16;
	char **grown;

	if (g->n < g->cap)
		return true;
	if (cap > SCAN_MAX)
		cap = SCAN_MAX;
	if (!(grown = realloc(g->ids, 2 * cap * sizeof(*grown)))) {
		g->oom = true;
		return false;
	}
	g->ids = grown;
	g->cap = cap;
	return true;
}

/* One message into g; every one that is no reply goes into the patch
 * cache on the way, from the document values the row was read from:
 * the callers ask for those, and finding each again by its Message-ID
 * would cost a lookup apiece. */
static void gather_one(void *arg, const char *id, const char *from, const char *subject,
		       time_t date)
{
	struct gather *g = arg;
	char **slot;

	if (g->n >= SCAN_MAX || !gather_room(g))
		return;
	slot = &g->ids[2 * g->n];
	slot[0] = wn_strdup0(id);
	slot[1] = strdup(subject ? subject : "");
	if (slot[0] && slot[1]) {
		if (!wn_text_is_reply(slot[1]) && !wn_map_get(&g->s->patches, slot[0], strlen(slot[0])))
			patch_keep(g->s, slot[0], patch_of(id, from, subject, date, g->thread));
		g->n++;
	} else {
		free(slot[0]);
		free(slot[1]);
	}
}

/* The gathered messages handed to fn, and freed. */
static void gather_run(struct gather *g, sr_each_fn fn, void *arg)
{
	for (size_t i = 0; i < g->n; i++) {
		fn(g->s, g->ids[2 * i], g->ids[2 * i + 1], arg);
		free(g->ids[2 * i]);
		free(g->ids[2 * i + 1]);
	}
	free(g->ids);
}

/* Call fn on the Message-ID and subject of every message of query qs
 * (raw notmuch, not narrowed by winnow.query), at most SCAN_MAX.
 * thread: the thread all of them are in, when qs says so; else NULL. */
void wn_sr_each(wn_series *s, const char *qs, const char *thread, sr_each_fn fn, void *arg)
{
	notmuch_query_t *q = wn_index_query_new(s->idx, qs);
	notmuch_messages_t *msgs = NULL;
	struct gather g = { s, thread, NULL, 0, 0, false };

	if (!q)
		return;
	/* Callers order what they keep: no sorting by Xapian. */
	notmuch_query_set_sort(q, NOTMUCH_SORT_UNSORTED);
	if (notmuch_query_search_messages(q, &msgs) == NOTMUCH_STATUS_SUCCESS) {
		for (; g.n < SCAN_MAX && !g.oom && notmuch_messages_valid(msgs);
		     notmuch_messages_move_to_next(msgs)) {
			notmuch_message_t *m = notmuch_messages_get(msgs);

			gather_one(&g, wn_message_id(m), notmuch_message_get_header(m, "from"),
				   notmuch_message_get_header(m, "subject"), notmuch_message_get_date(m));
			notmuch_message_destroy(m);
		}
	}
	/* The query's objects go before fn runs its own lookups. */
	notmuch_query_destroy(q);
	gather_run(&g, fn, arg);
}

/* wn_sr_each over "thread:THREAD", from the list of the thread the index
 * keeps for who answered its reviews (the same messages in the same
 * order, read once for both), or searched when it keeps none. */
static void sr_each_thread(wn_series *s, const char *thread, sr_each_fn fn, void *arg)
{
	struct gather g = { s, thread, NULL, 0, 0, false };
	char *qs = NULL;

	if (wn_index_thread_each(s->idx, thread, SCAN_MAX, gather_one, &g) && !g.oom) {
		gather_run(&g, fn, arg);
		return;
	}
	for (size_t i = 0; i < g.n; i++) {
		free(g.ids[2 * i]);
		free(g.ids[2 * i + 1]);
	}
	free(g.ids);
	s->thread_searches++;
	if (asprintf(&qs, "thread:%s", thread) >= 0)
		wn_sr_each(s, qs, thread, fn, arg);
	free(qs);
}

/* --- later patches of the series ----------------------------------------------- */

bool wn_sr_push(struct sr_patch ***v, size_t *n, struct sr_patch *p)
{
	struct sr_patch **nv;

	for (size_t i = 0; i < *n; i++)
		if ((*v)[i] == p)
			return true;
	if (!(nv = realloc(*v, (*n + 1) * sizeof(*nv))))
		return false;
	nv[(*n)++] = p;
	*v = nv;
	return true;
}

/* Only "[PATCH k/n] title", not a reply, is worth reading as a patch:
 * most of a thread is reviews and replies, which this keeps from being
 * read. */
static void thread_member(wn_series *s, const char *id, const char *subject, void *arg)
{
	struct sr_thread *t = arg;
	struct sr_patch *p = wn_subject_part(subject) > 0 ? wn_sr_patch_get(s, id) : NULL;

	if (p && !p->subj.reply && p->subj.part > 0)
		wn_sr_push(&t->v, &t->n, p);
}

static struct sr_thread *thread_of(wn_series *s, const char *thread)
{
	struct sr_thread *t = wn_map_get(&s->threads, thread, strlen(thread));

	if (t)
		return t;
	if (!(t = calloc(1, sizeof(*t))) || wn_map_put(&s->threads, thread, strlen(thread), t) != WN_OK) {
		free(t);
		return NULL;
	}
	sr_each_thread(s, thread, thread_member, t);
	return t;
}

struct sr_patch *wn_sr_review_patch(wn_series *s, const wn_item *it)
{
	const char *id = it->patch->id;
	struct sr_patch *p = wn_map_get(&s->patches, id, strlen(id));

	/* Listing the review's thread keeps every patch in it: free when
	 * who answered the review listed it already, and the patch's
	 * thread is known without its term list. */
	if (!p && it->thread_id && thread_of(s, it->thread_id))
		p = wn_map_get(&s->patches, id, strlen(id));
	return p ? p : wn_sr_patch_get(s, id);
}

static bool same_series(const struct sr_patch *a, const struct sr_patch *b)
{
	return a->subj.total == b->subj.total && a->subj.version == b->subj.version &&
	       strcmp(a->subj.prefix, b->subj.prefix) == 0;
}

/* Unthreaded: the author's mails within days of p. */
static void sibling(wn_series *s, const char *id, const char *subject, void *arg)
{
	struct sr_patch *me = arg,
			*p = wn_subject_part(subject) > 0 ? wn_sr_patch_get(s, id) : NULL;

	if (p && p != me && !p->subj.reply && p->subj.part > me->subj.part && same_series(p, me))
		wn_sr_push(&me->later, &me->nlater, p);
}

static int by_part(const void *a, const void *b)
{
	const struct sr_patch *x = *(struct sr_patch *const *) a, *y = *(struct sr_patch *const *) b;

	return (x->subj.part > y->subj.part) - (x->subj.part < y->subj.part);
}

/* The later parts of p's series: in its thread, or (a series sent
 * without threading: no other part there) from its author within days
 * of it.  The last part has none, and is asked nothing. */
void wn_sr_find_later(wn_series *s, struct sr_patch *p)
{
	struct sr_thread *t;
	bool threaded = false;
	char *qs = NULL;

	if (p->later_read)
		return;
	p->later_read = true;
	if (p->subj.part <= 0 || p->subj.part >= p->subj.total || !wn_sr_patch_thread(s, p) ||
	    !(t = thread_of(s, p->thread)))
		return;
	for (size_t i = 0; i < t->n; i++) {
		if (t->v[i] == p || !same_series(t->v[i], p))
			continue;
		threaded = true;
		if (t->v[i]->subj.part > p->subj.part)
			wn_sr_push(&p->later, &p->nlater, t->v[i]);
	}
	if (!threaded && strchr(p->author, '@') && !strpbrk(p->author, "\"() ") &&
	    asprintf(&qs, "from:\"%s\" and date:@%lld..@%lld", p->author,
		     (long long) p->date - SIBLING_DAYS * 86400, (long long) p->date + SIBLING_DAYS * 86400) >= 0)
		wn_sr_each(s, qs, NULL, sibling, p);
	free(qs);
	if (p->nlater > 1)
		qsort(p->later, p->nlater, sizeof(*p->later), by_part);
}

static wn_status later_fill(wn_later *out, const struct sr_patch *p, const wn_hunk *h)
{
	memset(out, 0, sizeof(*out));
	out->patch = strdup(p->id);
	out->subject = wn_strdup0(p->subject);
	out->part = p->subj.part;
	out->total = p->subj.total;
	out->mail_line = h->mail_line;
	out->new_line = h->new_line;
	if (!out->patch || (p->subject && !out->subject)) {
		wn_later_clear(out);
		return WN_NOMEM;
	}
	return WN_OK;
}

wn_status wn_series_later(wn_series *s, const wn_item *it, size_t i, wn_later *out,
			  wn_error *err)
{
	const wn_finding *f;
	struct sr_patch *p;
	char *file, *fn;
	wn_status st = WN_NOT_FOUND;

	memset(out, 0, sizeof(*out));
	if (!it->loaded || !it->review || i >= it->review->nfindings || !it->patch)
		return WN_NOT_FOUND;
	wn_sr_trim(s);
	f = &it->review->findings[i];
	if (f->about_commit_msg || !(file = wn_diff_path(f->file)))
		return WN_NOT_FOUND;
	fn = wn_sim_function(f->function);
	p = wn_sr_review_patch(s, it);
	if (p && p->subj.part > 0 && p->subj.total > 0) {
		wn_sr_find_later(s, p);
		for (size_t k = 0; st == WN_NOT_FOUND && k < p->nlater; k++) {
			const wn_hunk *h = wn_sr_patch_find(s, p->later[k], file, fn);

			if (h && wn_sr_patch_subject(s, p->later[k]) == WN_OK)
				st = later_fill(out, p->later[k], h);
		}
	}
	free(file);
	free(fn);
	if (st == WN_NOMEM)
		return wn_error_set(err, st, "out of memory");
	return st;
}

void wn_later_clear(wn_later *l)
{
	free(l->patch);
	free(l->subject);
	memset(l, 0, sizeof(*l));
}

/* The subject as the mail has it (for showing), read once. */
wn_status wn_sr_patch_subject(wn_series *s, struct sr_patch *p)
{
	notmuch_message_t *msg = NULL;
	const char *v;

	if (p->subject)
		return WN_OK;
	if (wn_index_message(s->idx, p->id, &msg, NULL) != WN_OK || !msg)
		return WN_NOT_FOUND;
	v = notmuch_message_get_header(msg, "subject");
	p->subject = strdup(v ? v : "");
	notmuch_message_destroy(msg);
	return p->subject ? WN_OK : WN_NOMEM;
}

/* --- the patch as text ----------------------------------------------------------- */

/* Header lines of the text: values made one line each, so that the
 * body's line numbers stay where the hunks say. */
static wn_status patch_header(wn_buf *b, const wn_mail *m, const char *id)
{
	char *from = wn_text_header_safe(m->from ? m->from : "");
	char *subject = wn_text_header_safe(m->subject ? m->subject : "");
	char *mid = wn_text_header_safe(m->message_id ? m->message_id : id);
	wn_status st = WN_NOMEM;

	if (from && subject && mid)
		st = wn_buf_printf(b, "From: %s\nSubject: %s\nMessage-ID: <%s>\n\n", from, subject, mid);
	free(from);
	free(subject);
	free(mid);
	return st;
}

wn_status wn_series_patch_text(wn_series *s, const char *id, char **out, int *header_lines,
			       wn_error *err)
{
	notmuch_message_t *msg = NULL;
	wn_mail *m = NULL;
	wn_buf b = WN_BUF_INIT;
	wn_status st;

	*out = NULL;
	*header_lines = 4;
	if ((st = wn_index_message(s->idx, id, &msg, err)) != WN_OK)
		return st;
	if (!msg)
		return wn_error_set(err, WN_NOT_FOUND, "the patch is no longer in the index");
	st = wn_message_read_mail(msg, &m, err);
	notmuch_message_destroy(msg);
	if (st != WN_OK)
		return st;
	/* Lines stay lines: only what a terminal would act on goes. */
	if (patch_header(&b, m, id) != WN_OK ||
	    wn_text_sanitize_buf(&b, m->body ? m->body : "", m->body_len,
				 WN_TEXT_KEEP_NEWLINE | WN_TEXT_KEEP_TAB) != WN_OK ||
	    !(*out = wn_buf_steal(&b)))
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	wn_mail_free(&m);
	wn_buf_free(&b);
	return st;
}
