/* winnow — the index's queries: the query a user's words make (the
 * bots' queries, the hidden mails left out), the search, and the list
 * of rows it returns, read as far as it is asked (index.c opens the
 * handle, index-load.c loads a row's review). */
#include "autoconfig.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cache.h"
#include "copy.h"
#include "link.h"
#include "message.h"
#include "index-private.h"
#include "props.h"
#include "winnow/text.h"

/* How often a read is tried again after the index changed under it. */

/* The row's fields besides its id, from msg's document values: false
 * when out of memory. */
bool wn_index_row_fill(wn_item *it, notmuch_message_t *msg)
{
	const char *v;

	it->date = notmuch_message_get_date(msg);
	v = notmuch_message_get_header(msg, "subject");
	it->subject = strdup(v ? v : "");
	v = notmuch_message_get_header(msg, "from");
	it->from = strdup(v ? v : "");
	return it->subject && it->from;
}

/* Copy the cheap, indexed fields of msg into a new item: document
 * values only, no term list, so that a screenful of rows costs a few
 * lookups however big the mails are.  With id_only, the id alone: the
 * rest comes with loading (wn_index_row_pending()). */
wn_item *wn_index_item_from_message(notmuch_message_t *msg, bool id_only)
{
	wn_item *it = calloc(1, sizeof(*it));

	if (!it)
		return NULL;
	it->id = wn_strdup0(wn_message_id(msg));
	if (!it->id || (!id_only && !wn_index_row_fill(it, msg)))
		wn_item_free(&it);
	return it;
}

/* A row read with its id only: every other row has a subject, "" at
 * least. */
bool wn_index_row_pending(const wn_item *it)
{
	return !it->subject;
}

/* Does q narrow the search?  "*" is notmuch's "every message", but only
 * as the whole query: inside "(...) and (*)" notmuch no longer reads it
 * so.  An empty query narrows nothing either. */
static bool narrows(const char *q)
{
	if (!q)
		return false;
	while (*q == ' ' || *q == '\t')
		q++;
	if (*q == '*') {
		q++;
		while (*q == ' ' || *q == '\t')
			q++;
		return *q != '\0';
	}
	return *q != '\0';
}

/* The bots' mails that are no reviews (summaries, follow-ups, their own
 * patches), or'ed; they stay out of the list and its count unless
 * winnow.show_summaries is set. */
static wn_status hidden_terms(const wn_index *idx, wn_buf *b)
{
	bool any = false;

	if (idx->conf.show_summaries)
		return WN_OK;
	for (unsigned k = 0; k < WN_BOT_COUNT; k++) {
		const char *h = wn_bot_hidden_query((wn_bot) k);

		if (h && wn_buf_printf(b, "%s(%s)", any ? " or " : "", h) != WN_OK)
			return WN_NOMEM;
		any = any || h;
	}
	return WN_OK;
}

/* The query that finds bot b's mails; generic: the winnow.bots senders. */
static wn_status bot_query(const wn_index *idx, wn_bot b, wn_buf *out)
{
	const char *q = wn_bot_query(b);

	if (q)
		return wn_buf_printf(out, "(%s)", q);
	if (!idx->conf.bots || !idx->conf.bots[0])
		return wn_buf_puts(out, "(id:\"\")");	/* matches nothing */
	wn_buf_putc(out, '(');
	for (char **s = idx->conf.bots; *s; s++)
		wn_buf_printf(out, "%sfrom:\"%s\"", s == idx->conf.bots ? "" : " or ", *s);
	return wn_buf_putc(out, ')');
}

/* Copy q to out with every "bot:NAME" term replaced by that bot's query,
 * so that the limit prompt and `winnow list bot:lkp` need no address. */
static wn_status expand_bots(const wn_index *idx, const char *q, wn_buf *out, wn_error *err)
{
	const char *p = q;

	while (*p) {
		bool start = p == q || p[-1] == ' ' || p[-1] == '(' || p[-1] == '\t';

		if (start && !strncasecmp(p, "bot:", 4)) {
			const char *name = p + 4;
			size_t len = strcspn(name, " \t()");
			wn_bot b;

			if (!wn_bot_named(name, len, &b)) {
				char *all = wn_bot_names_text("bot:", ", ", false);

				if (!all)
					return wn_error_set(err, WN_NOMEM, "out of memory");
				wn_error_set(err, WN_USAGE, "unknown bot '%.*s' in the query (%s)", (int) len,
					     name, all);
				free(all);
				return WN_USAGE;
			}
			if (bot_query(idx, b, out) != WN_OK)
				return wn_error_set(err, WN_NOMEM, "out of memory");
			p = name + len;
			continue;
		}
		if (wn_buf_putc(out, *p++) != WN_OK)
			return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	return WN_OK;
}

static wn_status run_query(wn_index *idx, char *qs, wn_list *out, wn_error *err);

static char *build_query(const wn_index *idx, const char *user_query, wn_error *err)
{
	wn_buf b = WN_BUF_INIT, hidden = WN_BUF_INIT;
	bool any = false;

	if (narrows(idx->conf.query)) {
		if (wn_buf_printf(&b, "(%s)", idx->conf.query) != WN_OK)
			goto nomem;
		any = true;
	}
	if (narrows(user_query)) {
		if (wn_buf_puts(&b, any ? " and (" : "(") != WN_OK)
			goto nomem;
		if (expand_bots(idx, user_query, &b, err) != WN_OK)
			goto fail;
		if (wn_buf_putc(&b, ')') != WN_OK)
			goto nomem;
		any = true;
	}
	if (hidden_terms(idx, &hidden) != WN_OK ||
	    (hidden.len && wn_buf_printf(&b, "%snot (%s)", any ? " and " : "", hidden.data) != WN_OK) ||
	    (!b.len && wn_buf_puts(&b, "*") != WN_OK))
		goto nomem;
	wn_buf_free(&hidden);
	return wn_buf_steal(&b);
nomem:
	wn_error_set(err, WN_NOMEM, "out of memory");
fail:
	wn_buf_free(&hidden);
	wn_buf_free(&b);
	return NULL;
}

char *wn_index_query_string(const wn_index *idx, const char *user_query, wn_error *err)
{
	return build_query(idx, user_query, err);
}

static notmuch_query_t *make_query(wn_index *idx, const char *qs)
{
	notmuch_query_t *q = notmuch_query_create(idx->db, qs);

	if (!q)
		return NULL;
	notmuch_query_set_sort(q, NOTMUCH_SORT_NEWEST_FIRST);
	for (char **t = idx->exclude_tags; t && *t; t++)
		notmuch_query_add_tag_exclude(q, *t);
	notmuch_query_set_omit_excluded(q, NOTMUCH_EXCLUDE_TRUE);
	return q;
}

/* Let go of the rows c holds.  None held, it touches nothing else: a
 * list whose search ended may outlive its index. */
static void cursor_release(struct wn_list_cursor *c)
{
	if (!c->nheld)
		return;
	for (size_t i = 0; i < c->nheld; i++) {
		struct held_row *h = &c->held[i];

		if (h->msg)
			notmuch_message_destroy(h->msg);
		free(h->id);
		free(h->subject);
		free(h->from);
	}
	memset(c->held, 0, sizeof(c->held));
	c->nheld = 0;
	if (c->idx && c->idx->held == c)
		c->idx->held = NULL;
}

static void cursor_close(struct wn_list_cursor *c)
{
	cursor_release(c);	/* before the query frees it */
	if (c->q)
		notmuch_query_destroy(c->q);	/* frees msgs too */
	c->q = NULL;
	c->msgs = NULL;
	c->pos = 0;
}

/* query, of the dates from lo to hi, both taken (0: no bound), or
 * NULL when out of memory. */
static char *dated(const char *query, long long lo, long long hi)
{
	char l[32] = "", h[32] = "";
	bool every = !strcmp(query, "*"); /* see narrows() */

	if (lo)
		snprintf(l, sizeof(l), "@%lld", lo);
	if (hi)
		snprintf(h, sizeof(h), "@%lld", hi);
	return every ? wn_strdupf("date:%s..%s", l, h) :
		       wn_strdupf("(%s) and date:%s..%s", query, l, h);
}

/* The search of window w of c's list (malloc'd), or NULL when out of
 * memory.  Window w holds the dates from the next window's cut to the
 * day before its own: notmuch's @ ranges take both ends. */
static char *window_query(const struct wn_list_cursor *c, size_t w)
{
	return dated(c->query, w + 1 < c->nwin ? c->win[w + 1].cut : 0,
		     w > 0 ? c->win[w].cut - 1 : 0);
}

#ifdef WN_TEST_HOOKS
/* For the tests: each search of a list's window, appended to
 * $WINNOW_TEST_LIST_LOG ("window W of N from ROW"). */
static void window_log(const struct wn_list_cursor *c, size_t w)
{
	const char *path = getenv("WINNOW_TEST_LIST_LOG");
	FILE *out = path && *path ? fopen(path, "a") : NULL;

	if (out) {
		fprintf(out, "window %zu of %zu from %zu\n", w, c->nwin ? c->nwin : 1, c->pos);
		fclose(out);
	}
}
#endif

/* (Re)start the search of window w; the index may have been reopened
 * since. */
static bool cursor_open(wn_index *idx, struct wn_list_cursor *c, size_t w)
{
	char *qs = c->nwin > 1 ? window_query(c, w) : NULL;

	cursor_close(c);
	if (c->nwin > 1 && !qs)
		return false;
	c->q = make_query(idx, qs ? qs : c->query);
	free(qs);
	if (!c->q)
		return false;
	if (notmuch_query_search_messages(c->q, &c->msgs) != NOTMUCH_STATUS_SUCCESS) {
		cursor_close(c);
		return false;
	}
	c->cur = w;
	c->pos = c->nwin > 1 ? c->win[w].start : 0;
	c->generation = idx->generation;
#ifdef WN_TEST_HOOKS
	window_log(c, w);
#endif
	return true;
}

/* The window of row i, and the row after that window's last. */
static size_t window_of(const struct wn_list_cursor *c, size_t i)
{
	size_t w = 0;

	while (w + 1 < c->nwin && c->win[w + 1].start <= i)
		w++;
	return w;
}

static size_t window_end(const struct wn_list_cursor *c, size_t w, size_t n)
{
	return w + 1 < c->nwin ? c->win[w + 1].start : n;
}

/* Rows a list is read in windows of, past that many: a search holds
 * Xapian's result set, 88 bytes a row, for as long as it is read, which
 * a pass over every review at a million messages made 20 MB.  16,384
 * rows, 1.4 MB: a cold stats at a million messages peaked at 63.9 MiB
 * with windows of twice that, under a 64 MiB bound; each window more is
 * one search more (about 45 ms at a million messages, 14 of them). */
#define WINDOW_ROWS 16384

static size_t window_rows(void)
{
#ifdef WN_TEST_HOOKS
	/* For the tests: windows of a few rows. */
	const char *v = getenv("WINNOW_TEST_LIST_WINDOW");

	if (v && atoi(v) > 0)
		return (size_t) atoi(v);
#endif
	return WINDOW_ROWS;
}

/* Cut c's list before row at, whose date is older than cut (every row
 * before it being dated from cut on: the search is newest first).  No
 * cut when out of memory, or for dates notmuch's ranges do not spell
 * (@ takes no sign): the rows stay in the window before. */
static void window_cut(struct wn_list_cursor *c, size_t at, long long cut)
{
	struct wn_list_window *grown;

	if (cut <= 0 || !(grown = realloc(c->win, (c->nwin + 2) * sizeof(*grown))))
		return;
	c->win = grown;
	if (!c->nwin)
		grown[c->nwin++] = (struct wn_list_window){ .start = 0 };
	grown[c->nwin++] = (struct wn_list_window){ .start = at, .cut = cut };
}

/* What notmuch last said about the database (malloc'd; NULL: nothing). */
char *wn_index_db_reason(wn_index *idx)
{
	const char *s = notmuch_database_status_string(idx->db);

	return s && *s ? strdup(s) : NULL;
}

static wn_status query_failed(wn_index *idx, wn_list *out, notmuch_status_t nst, wn_error *err)
{
	wn_status st =
		wn_nm_error(err, nst, wn_index_db_reason(idx), "notmuch cannot run the query");

	/* Not the database's fault: the query the user wrote. */
	if (st == WN_DB && nst == NOTMUCH_STATUS_XAPIAN_EXCEPTION)
		st = err ? (err->status = WN_USAGE) : WN_USAGE;
	wn_list_free(out);
	return st;
}

/* Rows read while the search that counts them is open anyway: a
 * screenful on the tallest terminal. */
#define FIRST_PAGE 128

static size_t first_page(void)
{
#ifdef WN_TEST_HOOKS
	/* For the tests: fewer rows read with the count, the rest read a
	 * batch at a time as on a long list. */
	const char *v = getenv("WINNOW_TEST_FIRST_PAGE");

	if (v && *v && atoi(v) >= 0 && atoi(v) < FIRST_PAGE)
		return (size_t) atoi(v);
#endif
	return FIRST_PAGE;
}

/* Count the results of the search open in c, stepping over them (which
 * costs nothing: the result set is in memory), and read the first rows
 * on the way into first[].  How many were read goes to *nfirst; fewer
 * than FIRST_PAGE when the index changed under a row (wn_list_get()
 * reads it again) or memory ran out.  A long list is cut into windows
 * of dates on the way (window_cut()): every window_rows() rows, at the
 * next row dated older than that one, a few dates read. */
static size_t count_results(struct wn_list_cursor *c, wn_item **first, size_t *nfirst)
{
	size_t n = 0, rows = window_rows(), next_cut = rows, page = first_page();
	bool reading = true, cutting = false;
	long long at = 0;

	*nfirst = 0;
	for (; notmuch_messages_valid(c->msgs); notmuch_messages_move_to_next(c->msgs), n++) {
		bool row = reading && n < page;
		notmuch_message_t *msg;

		if (!row && n < next_cut)
			continue;
		msg = notmuch_messages_get(c->msgs);
		if (row) {
			first[n] = msg ? wn_index_item_from_message(msg, false) : NULL;
			if (first[n])
				(*nfirst)++;
			else
				reading = false;
		}
		if (msg && n >= next_cut) {
			long long d = (long long) notmuch_message_get_date(msg);

			if (!cutting) {
				at = d;
				cutting = true;
			} else if (d < at) {
				window_cut(c, n, at);
				cutting = false;
				next_cut = n + rows;
			}
		}
		if (msg)
			notmuch_message_destroy(msg);
	}
	return n;
}

/* The index keeps c's cuts, when it has any, for other searches to be
 * read in the same windows (wn_index_each_review()). */
static void keep_cuts(wn_index *idx, const struct wn_list_cursor *c)
{
	long long *cuts;

	if (c->nwin < 2 || !(cuts = malloc((c->nwin - 1) * sizeof(*cuts))))
		return;
	for (size_t w = 1; w < c->nwin; w++)
		cuts[w - 1] = c->win[w].cut;
	free(idx->cuts);
	idx->cuts = cuts;
	idx->ncuts = c->nwin - 1;
}

#ifdef WN_TEST_HOOKS
/* For the tests: each search wn_index_each_review() ran, appended to
 * $WINNOW_TEST_LIST_LOG ("reviews window W of N: K ids"). */
static void reviews_log(size_t w, size_t n, size_t k)
{
	const char *path = getenv("WINNOW_TEST_LIST_LOG");
	FILE *out = path && *path ? fopen(path, "a") : NULL;

	if (out) {
		fprintf(out, "reviews window %zu of %zu: %zu ids\n", w, n, k);
		fclose(out);
	}
}
#endif

bool wn_index_each_review(wn_index *idx, bool (*fn)(void *arg, const char *id), void *arg)
{
	wn_error err = WN_ERROR_INIT;
	char *qs = build_query(idx, NULL, &err);
	bool ok = qs != NULL;

	wn_error_clear(&err);
	for (size_t w = 0; ok && w <= idx->ncuts; w++) {
		char *wq = idx->ncuts ? dated(qs, w < idx->ncuts ? idx->cuts[w] : 0,
					      w > 0 ? idx->cuts[w - 1] - 1 : 0) :
					NULL;
		notmuch_query_t *q = (wq || !idx->ncuts) ? make_query(idx, wq ? wq : qs) : NULL;
		notmuch_messages_t *ms = NULL;
		size_t k = 0;

		free(wq);
		/* Ids alone, in any order: no sort keys held. */
		if (q)
			notmuch_query_set_sort(q, NOTMUCH_SORT_UNSORTED);
		ok = q && notmuch_query_search_messages(q, &ms) == NOTMUCH_STATUS_SUCCESS;
		for (; ok && notmuch_messages_valid(ms); notmuch_messages_move_to_next(ms), k++) {
			notmuch_message_t *m = notmuch_messages_get(ms);
			const char *id = m ? wn_message_id(m) : NULL;

			ok = id && fn(arg, id);
			if (m)
				notmuch_message_destroy(m);
		}
		if (q)
			notmuch_query_destroy(q);
#ifdef WN_TEST_HOOKS
		reviews_log(w, idx->ncuts + 1, k);
#else
		(void) k;
#endif
	}
	free(qs);
	return ok;
}

const char *const *wn_index_exclude_tags(const wn_index *idx)
{
	return (const char *const *) idx->exclude_tags;
}

bool wn_index_knows_file(wn_index *idx, const char *path)
{
	notmuch_message_t *msg = NULL;

	if (notmuch_database_find_message_by_filename(idx->db, path, &msg) != NOTMUCH_STATUS_SUCCESS)
		return true;	/* unsure: as if known */
	if (msg)
		notmuch_message_destroy(msg);
	return msg != NULL;
}

bool wn_index_query_reads_tags(const wn_index *idx)
{
	/* The prefixes whose terms a tag, a property or a file's name
	 * sets, not the mail's text or headers (query: names a saved
	 * search, which may hold any of them). */
	static const char *const prefixes[] = { "tag:", "is:", "property:", "query:",
						"lastmod:", "path:", "folder:" };
	wn_error err = WN_ERROR_INIT;
	char *qs = build_query(idx, NULL, &err);
	bool reads = !qs;

	wn_error_clear(&err);

	for (char *p = qs; p && *p; p++)
		*p = (char) tolower((unsigned char) *p);
	for (size_t i = 0; qs && !reads && i < sizeof(prefixes) / sizeof(*prefixes); i++)
		reads = strstr(qs, prefixes[i]) != NULL;
	free(qs);
	return reads;
}

wn_status wn_index_query(wn_index *idx, const char *user_query, wn_list *out, wn_error *err)
{
	char *qs;

	memset(out, 0, sizeof(*out));
	if (!(qs = build_query(idx, user_query, err)))
		return err->status ? err->status : WN_NOMEM;
	return run_query(idx, qs, out, err);
}

wn_status wn_index_query_notmuch(wn_index *idx, const char *qs, wn_list *out, wn_error *err)
{
	char *copy = strdup(qs);

	memset(out, 0, sizeof(*out));
	if (!copy)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	return run_query(idx, copy, out, err);
}

/* wn_index_query() of the notmuch query qs, which the list takes. */
static wn_status run_query(wn_index *idx, char *qs, wn_list *out, wn_error *err)
{
	struct wn_list_cursor *c;
	notmuch_status_t nst;
	wn_item **first;
	size_t count, nfirst;

	c = calloc(1, sizeof(*c));
	first = calloc(FIRST_PAGE, sizeof(*first));
	if (!c || !first) {
		free(qs);
		free(c);
		free(first);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	c->idx = idx;
	c->query = qs;
	c->generation = idx->generation;
	out->cursor = c;
	c->q = make_query(idx, qs);
	if (!c->q) {
		free(first);
		wn_list_free(out);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	for (int tries = 0;; tries++) {
		nst = notmuch_query_search_messages(c->q, &c->msgs);
		if (nst == NOTMUCH_STATUS_SUCCESS)
			break;
		/* A revision discarded under us looks the same as a query
		 * Xapian cannot run: reopen, and if it still fails, it is
		 * the query, and Xapian says why. */
		if (nst == NOTMUCH_STATUS_XAPIAN_EXCEPTION && tries < RETRIES &&
		    wn_index_refresh(idx, NULL) == WN_OK) {
			notmuch_query_destroy(c->q);
			c->msgs = NULL;
			if ((c->q = make_query(idx, qs)))
				continue;
			nst = NOTMUCH_STATUS_OUT_OF_MEMORY;
		}
		free(first);
		return query_failed(idx, out, nst, err);
	}
	c->generation = idx->generation;
	/* One search both orders and counts: notmuch_query_count_messages()
	 * would run the whole match a second time, as much work again as
	 * the search itself, and for every review that matches.  The rows
	 * past the first page come from the search run anew when they are
	 * asked for (wn_list_get() does that for a search that ended). */
	count = count_results(c, first, &nfirst);
	cursor_close(c);
	keep_cuts(idx, c);
	out->n = count;
	out->items = calloc(count ? count : 1, sizeof(*out->items));
	if (!out->items) {
		while (nfirst)
			wn_item_free(&first[--nfirst]);
		free(first);
		wn_list_free(out);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	memcpy(out->items, first, nfirst * sizeof(*first));
	out->fetched = nfirst;
	free(first);
	return WN_OK;
}

void wn_list_adopt(wn_list *to, wn_list *from)
{
	for (size_t i = 0; i < from->fetched && i < to->fetched; i++) {
		if (!from->items[i] || !to->items[i] || strcmp(from->items[i]->id, to->items[i]->id))
			continue;
		wn_item_free(&to->items[i]);
		to->items[i] = from->items[i];
		from->items[i] = NULL;
	}
}

/* Rows read before the one asked for when the search starts again to
 * go back (k, PageUp after G): one search per this many rows scrolled
 * back, not one per row. */
#define BACK_PAGE 128

/* Row c->pos of the open search into l->items (unless read already),
 * and on to the next.  False when it cannot be read.  A row read with
 * its id only keeps its message for the load that follows (take_held()):
 * finding it again by its id was 2% of a cold list. */
static bool fetch_next(wn_list *l, struct wn_list_cursor *c)
{
	notmuch_message_t *msg;
	wn_item *it;

	if (!l->items[c->pos]) {
		if (!(msg = notmuch_messages_get(c->msgs)))
			return false;
		it = l->items[c->pos] = wn_index_item_from_message(msg, l->lazy_rows);
		if (it && l->lazy_rows && c->nheld < AHEAD &&
		    (c->held[c->nheld].id = strdup(it->id))) {
			c->held[c->nheld++].msg = msg;
			c->idx->held = c;
		} else {
			notmuch_message_destroy(msg);
		}
		if (!it)
			return false;
	}
	notmuch_messages_move_to_next(c->msgs);
	if (++c->pos > l->fetched)
		l->fetched = c->pos;
	return true;
}

wn_item *wn_list_get(wn_index *idx, wn_list *l, size_t i)
{
	struct wn_list_cursor *c = l->cursor;
	size_t from = i, w, end;

	if (i >= l->n)
		return NULL;
	if (l->items[i])
		return l->items[i];
	/* Each window of a long list is a search of its own. */
	w = window_of(c, i);
	end = window_end(c, w, l->n);
	/* A result set of an older revision can name documents that are
	 * gone now (libnotmuch aborts on those): search again. */
	if (c->generation != idx->generation && c->msgs)
		cursor_close(c);
	/* No search open (wn_index_query() closed the one that counted),
	 * or it is past row i: search again.  Going back, read a page of
	 * rows up to i on the way. */
	if (!c->msgs || c->cur != w || c->pos > i) {
		if (c->msgs && (c->pos > i || w < c->cur))
			from = i >= BACK_PAGE ? i + 1 - BACK_PAGE : 0;
		if (!cursor_open(idx, c, w))
			return NULL;
		if (from < c->pos)
			from = c->pos; /* not before the window */
	}
	/* Step over the rows before: only the rows asked for are read,
	 * so that G at the end of tens of thousands of reviews holds a
	 * screenful of them, not every one passed.  A search that ends
	 * early (the index changed) leaves the row NULL. */
	for (; c->pos < from && notmuch_messages_valid(c->msgs); c->pos++)
		notmuch_messages_move_to_next(c->msgs);
	/* A new batch of rows read by id (their loads follow): the rows
	 * after i come along, as many as a batch holds. */
	cursor_release(c);
	while (c->pos <= i && notmuch_messages_valid(c->msgs))
		if (!fetch_next(l, c))
			return NULL;
	while (l->lazy_rows && c->nheld < AHEAD && c->pos < end && notmuch_messages_valid(c->msgs))
		if (!fetch_next(l, c))
			break;	/* row i is read; the next ask says why */
	return l->items[i];
}

void wn_list_free(wn_list *l)
{
	for (size_t i = 0; i < l->fetched; i++)
		wn_item_free(&l->items[i]);
	free(l->items);
	if (l->cursor) {
		cursor_close(l->cursor);
		free(l->cursor->win);
		free(l->cursor->query);
		free(l->cursor);
	}
	memset(l, 0, sizeof(*l));
}

void wn_list_release(wn_list *l, size_t i)
{
	if (i < l->fetched)
		wn_item_free(&l->items[i]);
}
