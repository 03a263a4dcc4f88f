/* winnow — what lies around a review in the index: any message's mail,
 * the human replies in its patch's thread, the series the patch belongs
 * to, the reviews of a patch, and the database's revision.  The
 * interface's views read them (index.h); nothing here writes. */
#include "autoconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "index-private.h"
#include "winnow/subject.h"
#include "winnow/text.h"

/* The id as notmuch has it: msgid itself when notmuch knows it (an
 * exact id, perhaps a hostile mail's with CR LF, which wn_msgid_canon
 * refuses as two ids pasted at once), else its canonical form. */
static char *exact_id(wn_index *idx, const char *msgid)
{
	notmuch_message_t *m = msgid ? wn_message_find(idx->db, msgid) : NULL;

	if (m) {
		notmuch_message_destroy(m);
		return strdup(msgid);
	}
	return wn_msgid_canon(msgid);
}

wn_status wn_index_read_mail(wn_index *idx, const char *msgid, wn_mail **out, char **path,
			     wn_error *err)
{
	char *id = exact_id(idx, msgid);
	notmuch_message_t *msg = id ? wn_message_find(idx->db, id) : NULL;
	wn_status st;

	*out = NULL;
	if (path)
		*path = NULL;
	if (!msg) {
		st = wn_error_set(err, WN_NOT_FOUND, "no message <%s> in the notmuch index",
				  id ? id : "");
		free(id);
		return st;
	}
	free(id);
	{
		/* It says "no file" before it tries one: keep its words only
		 * when it failed. */
		wn_error lerr = WN_ERROR_INIT;

		st = wn_message_read_mail(msg, out, &lerr);
		if (st != WN_OK)
			wn_error_set(err, st, "%s", wn_error_msg(&lerr));
		wn_error_clear(&lerr);
	}
	if (st == WN_OK && path) {
		const char *f = notmuch_message_get_filename(msg);

		if (!(*path = wn_strdup0(f))) {
			wn_mail_free(out);
			st = wn_error_set(err, WN_NOMEM, "out of memory");
		}
	}
	notmuch_message_destroy(msg);
	return st;
}

/* Run qs (no exclusions, oldest first); NULL on failure. */
static notmuch_query_t *search(wn_index *idx, const char *qs, notmuch_messages_t **msgs)
{
	notmuch_query_t *q = notmuch_query_create(idx->db, qs);

	if (!q)
		return NULL;
	notmuch_query_set_sort(q, NOTMUCH_SORT_OLDEST_FIRST);
	if (notmuch_query_search_messages(q, msgs) != NOTMUCH_STATUS_SUCCESS) {
		notmuch_query_destroy(q);
		return NULL;
	}
	return q;
}

/* The thread id of message id; malloc'd, NULL when absent. */
static char *thread_of(wn_index *idx, const char *id)
{
	notmuch_message_t *msg = wn_message_find(idx->db, id);
	char *tid;

	if (!msg)
		return NULL;
	tid = wn_strdup0(notmuch_message_get_thread_id(msg));
	notmuch_message_destroy(msg);
	return tid;
}

char *wn_index_subject(wn_index *idx, const char *msgid)
{
	char *id = exact_id(idx, msgid), *out = NULL;
	notmuch_message_t *msg = id ? wn_message_find(idx->db, id) : NULL;

	if (msg) {
		const char *s = notmuch_message_get_header(msg, "subject");

		out = strdup(s ? s : "");
		notmuch_message_destroy(msg);
	}
	free(id);
	return out;
}

/* Is msg (exact id) one of the query's?  By its thread, for an id
 * notmuch's query parser cannot quote (CR LF, quotes: a hostile mail's). */
static bool in_query_by_thread(wn_index *idx, const char *id)
{
	char *tid = thread_of(idx, id), *qs = NULL;
	notmuch_query_t *q = NULL;
	notmuch_messages_t *ms = NULL;
	bool found = false;

	if (tid && asprintf(&qs, "(%s) and thread:%s", idx->conf.query, tid) >= 0)
		q = notmuch_query_create(idx->db, qs);
	if (q && notmuch_query_search_messages(q, &ms) == NOTMUCH_STATUS_SUCCESS)
		for (; !found && notmuch_messages_valid(ms); notmuch_messages_move_to_next(ms)) {
			notmuch_message_t *m = notmuch_messages_get(ms);

			found = !strcmp(notmuch_message_get_message_id(m), id);
			notmuch_message_destroy(m);
		}
	if (q)
		notmuch_query_destroy(q);
	free(qs);
	free(tid);
	return found;
}

bool wn_index_is_review(wn_index *idx, const char *msgid)
{
	char *id = exact_id(idx, msgid), *qs = NULL;
	notmuch_query_t *q;
	unsigned n = 0;

	if (id && id[strcspn(id, "\" \t\r\n\f\v")]) {
		bool r = in_query_by_thread(idx, id);

		free(id);
		return r;
	}
	if (!id || asprintf(&qs, "(%s) and id:\"%s\"", idx->conf.query, id) < 0)
		qs = NULL;
	q = qs && !strchr(id, '"') ? notmuch_query_create(idx->db, qs) : NULL;
	if (q && notmuch_query_count_messages(q, &n) != NOTMUCH_STATUS_SUCCESS)
		n = 0;
	if (q)
		notmuch_query_destroy(q);
	free(qs);
	free(id);
	return n > 0;
}

/* --- replies ------------------------------------------------------------ */

struct walk {
	wn_index *idx;
	const char *patch_id, *cover_id;
	char **bots;		/* ids of bot mails in the thread, NULL-terminated */
	wn_reply *out;
	size_t n;
	bool oom;
};

bool wn_thread_is_bot(char *const *bots, const char *id)
{
	for (char *const *b = bots; b && *b; b++)
		if (!strcmp(*b, id))
			return true;
	return false;
}

/* A message of the series itself: "[PATCH v2 1/3] ..." and its cover,
 * never "Re: [PATCH ...]". */
static bool is_series_mail(notmuch_message_t *m)
{
	return wn_subject_is_patch(notmuch_message_get_header(m, "subject"));
}

/* m's Message-ID, From and Subject as notmuch has them, malloc'd into
 * the three; false when out of memory (the caller frees what was set). */
static bool wn_thread_msg_copy(notmuch_message_t *m, char **id, char **from, char **subject)
{
	const char *f;

	*id = wn_strdup0(notmuch_message_get_message_id(m));
	f = notmuch_message_get_header(m, "from");
	*from = strdup(f ? f : "");
	f = notmuch_message_get_header(m, "subject");
	*subject = strdup(f ? f : "");
	return *id && *from && *subject;
}

/* Append message m to the n replies of *v, as one at depth (to_cover:
 * about the cover letter); false when out of memory. */
static bool push_reply(wn_reply **v, size_t *n, notmuch_message_t *m, int depth, bool to_cover)
{
	wn_reply *grown = realloc(*v, (*n + 1) * sizeof(*grown));
	wn_reply *r;

	if (!grown)
		return false;
	*v = grown;
	r = &grown[*n];
	memset(r, 0, sizeof(*r));
	r->date = notmuch_message_get_date(m);
	r->depth = depth;
	r->to_cover = to_cover;
	if (!wn_thread_msg_copy(m, &r->id, &r->from, &r->subject)) {
		free(r->id);
		free(r->from);
		free(r->subject);
		return false;
	}
	(*n)++;
	return true;
}

static void add_reply(struct walk *w, notmuch_message_t *m, int depth, bool to_cover)
{
	if (!push_reply(&w->out, &w->n, m, depth, to_cover))
		w->oom = true;
}

/* Where a walk through the thread is. */
enum under { UNDER_NONE, UNDER_PATCH, UNDER_COVER, UNDER_TALK };

/* Collect the replies below m.  Under the patch every human mail
 * counts; under the cover letter its human replies (and their
 * discussion: UNDER_TALK), not the other patches of the series, whose
 * replies are theirs -- but the walk goes on through them, since a
 * chained series puts each patch under the one before. */
static void walk(struct walk *w, notmuch_message_t *m, enum under under, int depth)
{
	notmuch_messages_t *rs = notmuch_message_get_replies(m);

	for (; rs && notmuch_messages_valid(rs) && !w->oom; notmuch_messages_move_to_next(rs)) {
		notmuch_message_t *r = notmuch_messages_get(rs);
		const char *id = notmuch_message_get_message_id(r);
		bool bot = wn_thread_is_bot(w->bots, id);

		if (!strcmp(id, w->patch_id)) {
			walk(w, r, UNDER_PATCH, 0);
		} else if (under == UNDER_PATCH || under == UNDER_TALK) {
			if (!bot)
				add_reply(w, r, depth + 1, under == UNDER_TALK);
			walk(w, r, under, depth + 1);
		} else if (under == UNDER_COVER && !bot && !is_series_mail(r)) {
			add_reply(w, r, 1, true);
			walk(w, r, UNDER_TALK, 1);
		} else {
			walk(w, r, w->cover_id && !strcmp(id, w->cover_id) ? UNDER_COVER : UNDER_NONE, 0);
		}
	}
}

char **wn_thread_bot_ids(wn_index *idx, const char *tid)
{
	char *qs = NULL, **v = calloc(1, sizeof(*v));
	notmuch_messages_t *msgs = NULL;
	notmuch_query_t *q;
	size_t n = 0;

	if (!v || asprintf(&qs, "thread:%s and (%s)", tid, idx->conf.query) < 0) {
		free(v);
		return NULL;
	}
	q = search(idx, qs, &msgs);
	free(qs);
	for (; q && notmuch_messages_valid(msgs); notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *m = notmuch_messages_get(msgs);
		char **grown = realloc(v, (n + 2) * sizeof(*v));

		if (!grown || !(grown[n] = wn_strdup0(notmuch_message_get_message_id(m)))) {
			v = grown ? grown : v;
			v[n] = NULL;
			wn_strv_free(v);
			notmuch_query_destroy(q);
			return NULL;
		}
		v = grown;
		v[++n] = NULL;
	}
	if (q)
		notmuch_query_destroy(q);
	return v;
}

/* notmuch's thread tid, built from a search for qs; NULL when none. */
static notmuch_thread_t *thread_by(wn_index *idx, const char *qs, notmuch_sort_t sort,
				   notmuch_query_t **q)
{
	notmuch_threads_t *ts = NULL;

	*q = notmuch_query_create(idx->db, qs);
	if (!*q)
		return NULL;
	notmuch_query_set_sort(*q, sort);
	if (notmuch_query_search_threads(*q, &ts) != NOTMUCH_STATUS_SUCCESS ||
	    !notmuch_threads_valid(ts))
		return NULL;
	return notmuch_threads_get(ts);
}

notmuch_message_t *wn_thread_root(wn_index *idx, const char *tid, const char *seed,
				  notmuch_query_t **q, notmuch_thread_t **thread)
{
	notmuch_messages_t *top;
	char *qs = NULL;

	*thread = NULL;
	*q = NULL;
	/* Seeded by one message of it, notmuch reads the dates and subject
	 * of that one alone as the thread's matches (and sorts nothing);
	 * the tree is the same.  An id the query parser cannot quote, or
	 * one no longer in thread tid, searches the thread. */
	if (seed && !seed[strcspn(seed, "\" \t\r\n\f\v")] &&
	    asprintf(&qs, "id:\"%s\"", seed) >= 0) {
		*thread = thread_by(idx, qs, NOTMUCH_SORT_UNSORTED, q);
		free(qs);
		qs = NULL;
		if (!*thread || strcmp(notmuch_thread_get_thread_id(*thread), tid)) {
			if (*q)
				notmuch_query_destroy(*q);
			*q = NULL;
			*thread = NULL;
		}
	}
	if (!*thread) {
		if (asprintf(&qs, "thread:%s", tid) < 0)
			return NULL;
		*thread = thread_by(idx, qs, NOTMUCH_SORT_NEWEST_FIRST, q);
		free(qs);
	}
	top = *thread ? notmuch_thread_get_toplevel_messages(*thread) : NULL;
	return top && notmuch_messages_valid(top) ? notmuch_messages_get(top) : NULL;
}

wn_status wn_index_replies(wn_index *idx, const wn_item *it, wn_reply **out, size_t *n,
			   wn_error *err)
{
	struct walk w = { .idx = idx };
	notmuch_query_t *q = NULL;
	notmuch_thread_t *thread = NULL;
	notmuch_messages_t *top;
	char *tid;

	*out = NULL;
	*n = 0;
	if (!it->patch)
		return WN_OK;
	tid = thread_of(idx, it->patch->id);
	if (!tid)
		return WN_OK;
	w.patch_id = it->patch->id;
	w.bots = wn_thread_bot_ids(idx, tid);
	if (wn_thread_root(idx, tid, NULL, &q, &thread) && thread) {
		top = notmuch_thread_get_toplevel_messages(thread);
		for (; top && notmuch_messages_valid(top) && !w.oom; notmuch_messages_move_to_next(top)) {
			notmuch_message_t *m = notmuch_messages_get(top);
			const char *id = notmuch_message_get_message_id(m);

			if (!w.cover_id && strcmp(id, w.patch_id) && is_series_mail(m))
				w.cover_id = id;
			if (!strcmp(id, w.patch_id))
				walk(&w, m, UNDER_PATCH, 0);
			else
				walk(&w, m, w.cover_id && !strcmp(id, w.cover_id) ? UNDER_COVER
										  : UNDER_NONE, 0);
		}
	}
	if (q)
		notmuch_query_destroy(q);
	free(tid);
	wn_strv_free(w.bots);
	if (w.oom || !w.bots) {
		wn_replies_free(w.out, w.n);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	*out = w.out;
	*n = w.n;
	return WN_OK;
}

/* --- the series ------------------------------------------------------ */

wn_status wn_index_series(wn_index *idx, const wn_item *it, char **out, wn_error *err)
{
	notmuch_query_t *q = NULL;
	notmuch_thread_t *thread = NULL;
	notmuch_message_t *root;
	char *tid;

	*out = NULL;
	if (!it->patch || !(tid = thread_of(idx, it->patch->id)))
		return WN_OK;
	root = wn_thread_root(idx, tid, NULL, &q, &thread);
	if (root) {
		const char *s = notmuch_message_get_header(root, "subject");

		*out = strdup(s ? s : "");
	}
	if (q)
		notmuch_query_destroy(q);
	free(tid);
	if (root && !*out)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	return WN_OK;
}

/* --- the reviews of a patch -------------------------------------------- */

/* "subject:\"w1 w2 w3 w4\"": the first words of the patch's title (no
 * "[PATCH v3 3/3]"), to find reviews that lost the threading headers and
 * were tied to the patch by their (maybe shortened) subject. */
static void subject_words(notmuch_database_t *db, const char *id, wn_buf *out)
{
	notmuch_message_t *m = wn_message_find(db, id);
	const char *s = m ? notmuch_message_get_header(m, "subject") : NULL;
	int words = 0;
	wn_subject subj;

	/* Only the title: the bracket groups hold words ("v3", "3/3") the
	 * reviews' subjects need not share. */
	if (s && wn_subject_parse(s, &subj) == WN_OK) {
		s += subj.title_at;
		wn_subject_clear(&subj);
	} else {
		s = NULL;
	}
	for (; s && *s && words < 4; words++) {
		size_t n;

		while (*s && !isalnum((unsigned char) *s) && *s != '_')
			s++;
		n = 0;
		while (isalnum((unsigned char) s[n]) || s[n] == '_')
			n++;
		if (!n)
			break;
		wn_buf_printf(out, "%s%.*s", words ? " " : " or subject:\"", (int) n, s);
		s += n;
	}
	if (words)
		wn_buf_putc(out, '"');
	if (m)
		notmuch_message_destroy(m);
}

wn_status wn_index_reviews_of(wn_index *idx, const char *msgid, wn_item ***out, size_t *n,
			      wn_error *err)
{
	char *id = exact_id(idx, msgid), *tid = id ? thread_of(idx, id) : NULL, *qs = NULL;
	wn_list list = { 0 };
	wn_status st = WN_OK;

	*out = NULL;
	*n = 0;
	if (!tid) {
		st = wn_error_set(err, WN_NOT_FOUND, "no message <%s> in the notmuch index",
				  id ? id : msgid);
		goto out;
	}
	{
		wn_buf b = WN_BUF_INIT;

		wn_buf_printf(&b, "thread:%s", tid);
		subject_words(idx->db, id, &b);
		if (!(qs = wn_buf_steal(&b))) {
			st = wn_error_set(err, WN_NOMEM, "out of memory");
			goto out;
		}
	}
	if ((st = wn_index_query(idx, qs, &list, err)) != WN_OK)
		goto out;
	for (size_t i = 0; i < list.n; i++) {
		wn_item *it = wn_list_get(idx, &list, i), **grown;

		if (!it)
			break;
		if ((st = wn_index_load(idx, it, err)) != WN_OK)
			break;
		if (!it->patch || strcmp(it->patch->id, id))
			continue;
		if (!(grown = realloc(*out, (*n + 1) * sizeof(*grown)))) {
			st = wn_error_set(err, WN_NOMEM, "out of memory");
			break;
		}
		*out = grown;
		(*out)[(*n)++] = it;
		list.items[i] = NULL;	/* the caller's now */
	}
out:
	wn_list_free(&list);
	free(qs);
	free(tid);
	free(id);
	return st;
}

/* --- the revision and the configuration ----------------------------------- */

wn_status wn_index_revision(wn_index *idx, unsigned long *rev, wn_error *err)
{
	notmuch_status_t nst = notmuch_database_reopen(idx->db, NOTMUCH_DATABASE_MODE_READ_ONLY);

	if (nst != NOTMUCH_STATUS_SUCCESS)
		return wn_nm_error(err, nst, NULL, "cannot reopen the notmuch database");
	*rev = notmuch_database_get_revision(idx->db, NULL);
	/* Result sets of the old revision may name documents that are gone:
	 * lists restart their search (unchanged: they carry on). */
	if (*rev != idx->revision)
		idx->generation++;
	idx->revision = *rev;
	return WN_OK;
}

void wn_index_config_each(wn_index *idx, const char *prefix,
			  void (*fn)(void *ud, const char *key, const char *value), void *ud)
{
	notmuch_config_pairs_t *pairs = notmuch_config_get_pairs(idx->db, prefix);

	for (; pairs && notmuch_config_pairs_valid(pairs); notmuch_config_pairs_move_to_next(pairs)) {
		const char *k = notmuch_config_pairs_key(pairs);

		if (k && !strncmp(k, prefix, strlen(prefix)))
			fn(ud, k, notmuch_config_pairs_value(pairs));
	}
	if (pairs)
		notmuch_config_pairs_destroy(pairs);
}
