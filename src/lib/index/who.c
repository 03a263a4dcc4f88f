/* winnow — who answered a review, and how new its patch's author is
 * (issue 24: 5, 6).  A maintainer reads a review the author already
 * answered differently ("the bot is wrong", "fixed in v2"), and a
 * finding sent to someone with few patches weighs more.  Read on
 * demand (wn_index_load_who), since the queue wants it only for the
 * rows it draws and wn_index_load must stay one mail read. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index-private.h"
#include "link.h"
#include "message.h"
#include "winnow/mail.h"
#include "winnow/text.h"

/* --- the replies to the review ------------------------------------------ */

struct below {
	const char *review_id;
	wn_reply *out;
	size_t n;
	bool found, oom;
};

/* Every message below m, at its depth under the review. */
static void collect(struct below *b, notmuch_message_t *m, int depth)
{
	notmuch_messages_t *rs = notmuch_message_get_replies(m);

	for (; rs && notmuch_messages_valid(rs) && !b->oom; notmuch_messages_move_to_next(rs)) {
		notmuch_message_t *r = notmuch_messages_get(rs);

		if (!wn_thread_add_reply(&b->out, &b->n, r, depth + 1, false))
			b->oom = true;
		collect(b, r, depth + 1);
	}
}

/* Look for the review in the tree below ms; collect what answers it. */
static void find_review(struct below *b, notmuch_messages_t *ms)
{
	for (; ms && notmuch_messages_valid(ms) && !b->found; notmuch_messages_move_to_next(ms)) {
		notmuch_message_t *m = notmuch_messages_get(ms);

		if (!strcmp(notmuch_message_get_message_id(m), b->review_id)) {
			b->found = true;
			collect(b, m, 0);
		} else {
			find_review(b, notmuch_message_get_replies(m));
		}
	}
}

/* Drop the replies that are bot mails (the configured query's): a
 * bot's follow-up to its own report is no human answering it.  Only
 * asked when something answered the review at all. */
static bool drop_bots(wn_index *idx, const char *tid, struct below *b)
{
	char **bots = wn_thread_bot_ids(idx, tid);
	size_t kept = 0;

	if (!bots)
		return false;
	for (size_t i = 0; i < b->n; i++) {
		bool bot = false;

		for (char **p = bots; *p && !bot; p++)
			bot = !strcmp(*p, b->out[i].id);
		if (bot) {
			free(b->out[i].id);
			free(b->out[i].from);
			free(b->out[i].subject);
		} else {
			b->out[kept++] = b->out[i];
		}
	}
	b->n = kept;
	wn_strv_free(bots);
	return true;
}

/* Could anyone have answered: another mail of the thread dated from the
 * review on?  A count on the thread's term and the date's value, far
 * cheaper than building the thread (or asking the configured query,
 * whose regular expressions read every subject), and nearly always no
 * for a review nobody answered.  (A reply whose sender's clock ran
 * behind the bot's is missed.)  Yes when the question cannot be asked. */
static bool later_mail(wn_index *idx, const char *tid, time_t since)
{
	char *qs = NULL;
	notmuch_query_t *q;
	unsigned n = 2;

	if (asprintf(&qs, "thread:%s and date:@%lld..", tid, (long long) since) < 0)
		return true;
	q = wn_index_query_new(idx, qs);
	free(qs);
	if (q && notmuch_query_count_messages(q, &n) != NOTMUCH_STATUS_SUCCESS)
		n = 2;
	if (q)
		notmuch_query_destroy(q);
	return n > 1;	/* the review itself is one */
}

static wn_status review_replies(wn_index *idx, wn_item *it, const char *author, wn_error *err)
{
	struct below b = { .review_id = it->id };
	notmuch_message_t *msg;
	notmuch_query_t *q = NULL;
	notmuch_thread_t *thread = NULL;
	time_t since;
	char *tid;
	wn_status st;

	if ((st = wn_index_message(idx, it->id, &msg, err)) != WN_OK)
		return st;
	if (!msg)
		return WN_OK;	/* gone since it was listed: nobody answered */
	tid = wn_strdup0(notmuch_message_get_thread_id(msg));
	since = notmuch_message_get_date(msg);
	notmuch_message_destroy(msg);
	if (!tid)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	if (!later_mail(idx, tid, since)) {
		free(tid);
		return WN_OK;
	}
	wn_thread_root(idx, tid, &q, &thread);
	if (thread)
		find_review(&b, notmuch_thread_get_toplevel_messages(thread));
	if (q)
		notmuch_query_destroy(q);
	if (!b.oom && b.n && !drop_bots(idx, tid, &b))
		b.oom = true;
	free(tid);
	for (size_t i = 0; !b.oom && i < b.n; i++) {
		char *a = wn_mail_addr(b.out[i].from);

		if (!a)
			b.oom = true;
		b.out[i].author = a && *a && author && !strcmp(a, author);
		free(a);
	}
	if (b.oom) {
		wn_replies_free(b.out, b.n);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	it->replies = b.out;
	it->nreplies = b.n;
	return WN_OK;
}

/* --- the author's earlier patches ----------------------------------------- */

/* An address notmuch's query parser takes inside "from:\"...\"". */
static bool quotable(const char *addr)
{
	for (const unsigned char *p = (const unsigned char *) addr; *p; p++)
		if (*p <= ' ' || *p == '"' || *p == 0x7f)
			return false;
	return *addr != '\0';
}

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

/* Every patch mail from addr: "subject:patch" narrows the search, the
 * subject's tag and the From's address (notmuch's from: matches words,
 * and "x.ann@example.org" holds those of "ann@example.org") decide. */
static wn_status author_patches(wn_index *idx, const char *addr, struct wn_author_patches **out,
				wn_error *err)
{
	struct wn_author_patches *a = calloc(1, sizeof(*a));
	notmuch_query_t *q = NULL;
	notmuch_messages_t *ms = NULL;
	char *qs = NULL;
	bool oom = !a;

	if (!oom && asprintf(&qs, "from:\"%s\" and subject:patch", addr) < 0)
		qs = NULL, oom = true;
	if (!oom && !(q = wn_index_query_new(idx, qs)))
		oom = true;
	free(qs);
	if (q && notmuch_query_search_messages(q, &ms) != NOTMUCH_STATUS_SUCCESS)
		ms = NULL;
	for (; !oom && ms && notmuch_messages_valid(ms); notmuch_messages_move_to_next(ms)) {
		notmuch_message_t *m = notmuch_messages_get(ms);
		char *from;

		if (!wn_link_patch_tag(notmuch_message_get_header(m, "subject")))
			continue;
		if (!(from = wn_mail_addr(notmuch_message_get_header(m, "from"))))
			oom = true;
		else if (!strcmp(from, addr) && !push_patch(a, m))
			oom = true;
		free(from);
	}
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
	it->who_read = true;
	return WN_OK;
}

wn_replied wn_item_replied(const wn_item *it)
{
	if (wn_item_author_reply(it))
		return WN_REPLIED_AUTHOR;
	return it->who_read && it->nreplies ? WN_REPLIED_HUMAN : WN_REPLIED_NONE;
}

const wn_reply *wn_item_author_reply(const wn_item *it)
{
	for (size_t i = 0; it->who_read && i < it->nreplies; i++)
		if (it->replies[i].author)
			return &it->replies[i];
	return NULL;
}
