/* winnow — "likely fixed in v2" (series.h): a finding judged valid on
 * one version of a patch that the same bot no longer reports on a later
 * version whose diff still changes the finding's function.
 *
 * The later versions of a patch are the patches with the same title and
 * a higher version; a bot's review of one is a review in its thread
 * that winnow links to it. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../index/index-nm.h"
#include "../index/message.h"
#include "series-private.h"
#include "winnow/buf.h"
#include "winnow/text.h"

/* Words of a title put into the phrase query: enough to narrow. */
#define TITLE_WORDS 10

/* --- later versions ---------------------------------------------------------- */

static void version(wn_series *s, const char *id, const char *subject, void *arg)
{
	struct sr_patch *me = arg, *p = wn_text_is_reply(subject) ? NULL : wn_sr_patch_get(s, id);

	if (p && p != me && !p->subj.reply && p->subj.version > me->subj.version &&
	    strcmp(p->subj.title, me->subj.title) == 0)
		wn_sr_push(&me->versions, &me->nversions, p);
}

static int by_version(const void *a, const void *b)
{
	const struct sr_patch *x = *(struct sr_patch *const *) a, *y = *(struct sr_patch *const *) b;

	if (x->subj.version != y->subj.version)
		return x->subj.version < y->subj.version ? -1 : 1;
	return (x->date > y->date) - (x->date < y->date);
}

/* subject:"first words of the title": a phrase only narrows, the
 * titles are compared exactly in version(). */
static char *title_query(const char *title)
{
	wn_buf b = WN_BUF_INIT;
	size_t words = 0;

	wn_buf_puts(&b, "subject:\"");
	for (const char *c = title; *c && words < TITLE_WORDS; c++) {
		words += *c == ' ';
		if (words < TITLE_WORDS)
			wn_buf_putc(&b, *c == '"' ? ' ' : *c);
	}
	if (wn_buf_puts(&b, "\"") != WN_OK) {
		wn_buf_free(&b);
		return NULL;
	}
	return wn_buf_steal(&b);
}

static void find_versions(wn_series *s, struct sr_patch *p)
{
	char *qs;

	if (p->versions_read)
		return;
	p->versions_read = true;
	if (!*p->subj.title || !(qs = title_query(p->subj.title)))
		return;
	wn_sr_each(s, qs, NULL, version, p);
	free(qs);
	if (p->nversions > 1)
		qsort(p->versions, p->nversions, sizeof(*p->versions), by_version);
}

/* --- the bots' reviews of a patch ---------------------------------------------- */

static bool keep_review(struct sr_patch *p, const wn_item *it)
{
	struct sr_reviewed *nr, *r;
	size_t n = it->review->nfindings;

	if (!(nr = realloc(p->reviewed, (p->nreviewed + 1) * sizeof(*nr))))
		return false;
	p->reviewed = nr;
	r = &nr[p->nreviewed];
	memset(r, 0, sizeof(*r));
	r->bot = it->bot;
	r->loc = calloc(n ? n : 1, sizeof(*r->loc));
	r->words = calloc(n ? n : 1, sizeof(*r->words));
	if (!(r->review = strdup(it->id)) || !r->loc || !r->words) {
		free(r->review);
		free(r->loc);
		free(r->words);
		return false;
	}
	p->nreviewed++;
	for (size_t k = 0; k < n; k++, r->n++) {
		const wn_finding *f = &it->review->findings[k];

		r->loc[k] = wn_sim_location(f, it->patch->subject);
		if (wn_words_of(f->summary, &r->words[k]) != WN_OK)
			return false;
	}
	return true;
}

/* The reviews of p in its thread, newest first.  The thread's messages
 * come from thread:T alone and each is asked whether it is a review
 * (wn_index_in_lists): thread:T and winnow.query costs with the whole
 * index (review-set.c says why). */
static void find_reviews(wn_series *s, struct sr_patch *p)
{
	wn_index *idx = wn_sr_index(s);
	notmuch_query_t *q = NULL;
	notmuch_messages_t *ms = NULL;
	char *qs = NULL, **ids = NULL;
	size_t n = 0;
	bool ok = true;

	if (p->reviewed_read)
		return;
	p->reviewed_read = true;
	if (!wn_sr_patch_thread(s, p) || asprintf(&qs, "thread:%s", p->thread) < 0)
		return;
	if ((q = wn_index_query_new(idx, qs))) {
		notmuch_query_set_sort(q, NOTMUCH_SORT_NEWEST_FIRST);
		if (notmuch_query_search_messages(q, &ms) != NOTMUCH_STATUS_SUCCESS)
			ms = NULL;
	}
	/* The ids first: loading a review may search the index again. */
	for (; ok && ms && notmuch_messages_valid(ms); notmuch_messages_move_to_next(ms)) {
		notmuch_message_t *m = notmuch_messages_get(ms);
		const char *id = m ? wn_message_id(m) : NULL;
		char **nv;

		if (id && *id && wn_index_in_lists(idx, id)) {
			if ((ok = (nv = realloc(ids, (n + 1) * sizeof(*nv))) != NULL)) {
				ids = nv;
				ok = (ids[n] = strdup(id)) != NULL;
				n += ok;
			}
		}
		if (m)
			notmuch_message_destroy(m);
	}
	if (q)
		notmuch_query_destroy(q);
	for (size_t i = 0; ok && i < n; i++) {
		wn_item *it = NULL;

		if (wn_index_find(idx, ids[i], &it, NULL) == WN_OK && !it->load_error &&
		    it->patch && strcmp(it->patch->id, p->id) == 0)
			ok = keep_review(p, it);
		wn_item_free(&it);
	}
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	free(qs);
}

/* --- the verdict ----------------------------------------------------------------- */

/* Did bot review q, and did it report the finding (loc, words) again? */
static void reported_on(const struct sr_patch *q, wn_bot bot, const char *loc, const wn_words *w,
			const char **review, bool *again)
{
	*review = NULL;
	*again = false;
	for (size_t r = 0; r < q->nreviewed; r++) {
		if (q->reviewed[r].bot != bot)
			continue;
		*review = q->reviewed[r].review;
		for (size_t k = 0; k < q->reviewed[r].n; k++)
			*again |= wn_sim_match(loc, w, q->reviewed[r].loc[k], &q->reviewed[r].words[k], NULL);
	}
}

static wn_status fixed_fill(wn_series *s, struct sr_patch *q, const char *review, wn_fixed *out)
{
	wn_sr_patch_subject(s, q);
	out->version = q->subj.version;
	out->patch = strdup(q->id);
	out->subject = wn_strdup0(q->subject);
	out->review = strdup(review);
	if (!out->patch || !out->review || (q->subject && !out->subject)) {
		wn_fixed_clear(out);
		return WN_NOMEM;
	}
	return WN_OK;
}

struct finding_key {
	char *loc, *file, *fn;
	wn_words words;
};

static wn_status key_of(const wn_item *it, size_t i, struct finding_key *k)
{
	const wn_finding *f = &it->review->findings[i];

	memset(k, 0, sizeof(*k));
	k->loc = wn_sim_location(f, it->patch->subject);
	k->file = f->about_commit_msg ? NULL : wn_diff_path(f->file);
	k->fn = wn_sim_function(f->function);
	return wn_words_of(f->summary, &k->words);
}

static void key_clear(struct finding_key *k)
{
	free(k->loc);
	free(k->file);
	free(k->fn);
	wn_words_free(&k->words);
}

wn_status wn_series_fixed(wn_series *s, const wn_item *it, size_t i, wn_fixed *out,
			  wn_error *err)
{
	struct finding_key k;
	struct sr_patch *p;
	wn_status st = WN_NOT_FOUND;

	memset(out, 0, sizeof(*out));
	if (!it->loaded || !it->review || i >= it->review->nfindings || !it->patch ||
	    !it->verdicts || it->verdicts[i] != WN_VERDICT_VALID)
		return WN_NOT_FOUND;
	if (key_of(it, i, &k) != WN_OK) {
		key_clear(&k);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	wn_sr_trim(s);
	p = k.file && k.loc ? wn_sr_review_patch(s, it) : NULL;
	if (p)
		find_versions(s, p);
	for (size_t v = 0; p && st == WN_NOT_FOUND && v < p->nversions; v++) {
		struct sr_patch *q = p->versions[v];
		const char *review;
		bool again;

		find_reviews(s, q);
		reported_on(q, it->bot, k.loc, &k.words, &review, &again);
		/* Not reviewed by the bot yet, or reported again: look on. */
		if (!review || again)
			continue;
		if (wn_sr_patch_find(s, q, k.file, k.fn))
			st = fixed_fill(s, q, review, out);
	}
	key_clear(&k);
	if (st == WN_NOMEM)
		return wn_error_set(err, st, "out of memory");
	return st;
}

wn_status wn_series_superseded(wn_series *s, const wn_item *it, wn_fixed *out, wn_error *err)
{
	struct sr_patch *p, *q;
	wn_status st;

	memset(out, 0, sizeof(*out));
	if (!it->loaded || !it->patch)
		return WN_NOT_FOUND;
	wn_sr_trim(s);
	if (!(p = wn_sr_review_patch(s, it)))
		return WN_NOT_FOUND;
	find_versions(s, p);
	if (!p->nversions)
		return WN_NOT_FOUND;
	/* The newest: "v3 is out" says more than "v2 was". */
	q = p->versions[p->nversions - 1];
	st = fixed_fill(s, q, "", out);
	return st == WN_NOMEM ? wn_error_set(err, st, "out of memory") : st;
}

void wn_fixed_clear(wn_fixed *f)
{
	free(f->patch);
	free(f->subject);
	free(f->review);
	memset(f, 0, sizeof(*f));
}

/* --- what the facts were read from ------------------------------------------------- */

static bool dep(wn_series_dep_fn fn, void *arg, wn_dep_kind kind, const char *key)
{
	return !key || fn(arg, kind, key, 0, 0);
}

/* The same walk the facts took (wn_sr_review_patch, wn_sr_find_later,
 * find_versions, find_reviews' threads), over the series' cache: what
 * it no longer holds is read again.  A superset is fine (more facts
 * derived again after new mail), a subset never. */
bool wn_series_deps(wn_series *s, const wn_item *it, bool versions, wn_series_dep_fn fn,
		    void *arg)
{
	struct sr_patch *p;
	bool ok;

	/* Whether the author answered: the review's thread.  Its own id:
	 * a review that left the index (or came back). */
	ok = dep(fn, arg, WN_DEP_THREAD, it->thread_id) && dep(fn, arg, WN_DEP_ID, it->id);
	if (!ok || !it->loaded || !it->patch)
		return ok;
	wn_sr_trim(s);
	/* A patch the index does not hold (yet) is its id alone. */
	if (!dep(fn, arg, WN_DEP_ID, it->patch->id) || !(p = wn_sr_review_patch(s, it)))
		return ok;
	/* A thread followed by an id: that message was in that thread
	 * (facts.c tells a changed message's tags from its arrival). */
	ok = dep(fn, arg, WN_DEP_THREAD, wn_sr_patch_thread(s, p)) &&
	     dep(fn, arg, WN_DEP_ID, p->id);
	if (ok && p->subj.part > 0 && p->subj.total > 0) {
		wn_sr_find_later(s, p);
		/* The later parts (in its thread, or unthreaded: from its
		 * author within days of it, whether any was found or not). */
		for (size_t k = 0; ok && k < p->nlater; k++)
			ok = dep(fn, arg, WN_DEP_THREAD, wn_sr_patch_thread(s, p->later[k])) &&
			     dep(fn, arg, WN_DEP_ID, p->later[k]->id);
		ok = ok && fn(arg, WN_DEP_FROM, p->author, p->date - SR_SIBLING_DAYS * 86400,
			      p->date + SR_SIBLING_DAYS * 86400);
	}
	if (ok && versions && *p->subj.title) {
		find_versions(s, p);
		ok = fn(arg, WN_DEP_TITLE, p->subj.title, 0, 0);
		for (size_t v = 0; ok && v < p->nversions; v++)
			ok = dep(fn, arg, WN_DEP_THREAD, wn_sr_patch_thread(s, p->versions[v])) &&
			     dep(fn, arg, WN_DEP_ID, p->versions[v]->id);
	}
	return ok;
}
