/* winnow — read-only access to the notmuch index.
 *
 * The handle opened here is never writable: libnotmuch blocks or fails
 * while another process holds the write lock, and the UI must not.  All
 * writes go through store.c. */
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
#define RETRIES 8

static const char *const link_names[] = {
#define WN_X_(e, name) name,
	WN_LINK_LIST(WN_X_)
#undef WN_X_
};

const char *wn_link_name(wn_link l)
{
	return (unsigned) l < WN_LINK_COUNT ? link_names[l] : "none";
}

static wn_status load_conf(wn_index *idx)
{
	notmuch_config_pairs_t *pairs;
	notmuch_config_values_t *vals;
	const char *v;
	size_t n = 0;
	wn_status st;

	if ((st = wn_conf_init(&idx->conf)) != WN_OK)
		return st;
	v = notmuch_config_get(idx->db, NOTMUCH_CONFIG_USER_NAME);
	if (v && *v && (st = wn_conf_set(&idx->conf, "user.name", v)) != WN_OK)
		return st;
	v = notmuch_config_get(idx->db, NOTMUCH_CONFIG_PRIMARY_EMAIL);
	if (v && *v && (st = wn_conf_set(&idx->conf, "user.primary_email", v)) != WN_OK)
		return st;
	/* Your other addresses are never Cc'ed by a group reply. */
	v = notmuch_config_get(idx->db, NOTMUCH_CONFIG_OTHER_EMAIL);
	if (v && *v && (st = wn_conf_set(&idx->conf, "user.other_email", v)) != WN_OK)
		return st;
	pairs = notmuch_config_get_pairs(idx->db, "winnow.");
	for (; pairs && notmuch_config_pairs_valid(pairs); notmuch_config_pairs_move_to_next(pairs)) {
		st = wn_conf_set(&idx->conf, notmuch_config_pairs_key(pairs),
				 notmuch_config_pairs_value(pairs));
		if (st != WN_OK) {
			notmuch_config_pairs_destroy(pairs);
			return st;
		}
	}
	if (pairs)
		notmuch_config_pairs_destroy(pairs);

	/* Honour search.exclude_tags the way `notmuch search` does, so a
	 * deleted or spam review does not reappear in the queue. */
	idx->exclude_tags = calloc(1, sizeof(char *));
	if (!idx->exclude_tags)
		return WN_NOMEM;
	vals = notmuch_config_get_values(idx->db, NOTMUCH_CONFIG_EXCLUDE_TAGS);
	for (; vals && notmuch_config_values_valid(vals); notmuch_config_values_move_to_next(vals)) {
		char **nv = realloc(idx->exclude_tags, (n + 2) * sizeof(char *));
		if (!nv || !(nv[n] = strdup(notmuch_config_values_get(vals)))) {
			if (nv)
				idx->exclude_tags = nv;
			notmuch_config_values_destroy(vals);
			return WN_NOMEM;
		}
		idx->exclude_tags = nv;
		nv[++n] = NULL;
	}
	if (vals)
		notmuch_config_values_destroy(vals);
	return WN_OK;
}

/* Larger than any notmuch config: a path to something else (a log, a
 * device, a mailbox). */
#define CONFIG_MAX (1024 * 1024)

/* The config file named by --config or $NOTMUCH_CONFIG must be a
 * regular file of a sane size before libnotmuch reads it: it would wait
 * on a FIFO for ever and read /dev/zero until memory runs out.  A file
 * that does not exist is left to libnotmuch, whose error says more.
 * Links are followed: a config kept in a dotfiles repository usually is
 * one, and the user named it. */
static wn_status check_config(const char *path, wn_error *err)
{
	wn_error why = WN_ERROR_INIT;
	wn_status st = WN_OK;
	int fd;

	if (!path)
		path = getenv("NOTMUCH_CONFIG");
	if (!path || !*path)
		return WN_OK;
	if ((fd = wn_file_open(path, CONFIG_MAX, 0, &why)) >= 0)
		close(fd);
	else if (why.status != WN_NOT_FOUND)
		st = wn_error_set(err, WN_CONFIG, "cannot use notmuch config %s: %s", path,
				  wn_error_msg(&why));
	wn_error_clear(&why);
	return st;
}

wn_status wn_index_open(const char *config_path, wn_index **out, wn_error *err)
{
	wn_index *idx = calloc(1, sizeof(*idx));
	notmuch_status_t nst;
	char *msg = NULL;
	wn_status st;

	*out = NULL;
	if (!idx)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	if (config_path && !(idx->config_path = strdup(config_path))) {
		free(idx);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	if ((st = check_config(idx->config_path, err)) != WN_OK) {
		wn_index_close(&idx);
		return st;
	}
	/* Opening reads the database's metadata, which a concurrent
	 * commit can discard under us too (see wn_index_message). */
	for (int tries = 0;; tries++) {
		nst = notmuch_database_open_with_config(NULL, NOTMUCH_DATABASE_MODE_READ_ONLY,
							idx->config_path, NULL, &idx->db, &msg);
		if (nst != NOTMUCH_STATUS_XAPIAN_EXCEPTION || tries == RETRIES)
			break;
		free(msg);
		msg = NULL;
	}
	if (nst != NOTMUCH_STATUS_SUCCESS) {
		st = wn_nm_error(err, nst, msg, "cannot open the notmuch database");
		idx->db = NULL;
		wn_index_close(&idx);
		return st;
	}
	free(msg);
	if (!(idx->db_path = strdup(notmuch_database_get_path(idx->db))) ||
	    (st = load_conf(idx)) != WN_OK) {
		wn_index_close(&idx);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	if ((st = wn_conf_check(&idx->conf, err)) != WN_OK) {
		wn_index_close(&idx);
		return st;
	}
	*out = idx;
	return WN_OK;
}

bool wn_index_facts_file(wn_index *idx, const char *name, char **path, uint64_t *key)
{
	return wn_cache_sibling(idx->db, idx->db_path, &idx->conf, name, path, key);
}

unsigned long wn_index_generation(const wn_index *idx)
{
	return idx->generation;
}

unsigned long wn_index_stamp(wn_index *idx, const char **uuid, unsigned long *generation)
{
	*generation = idx->generation;
	return notmuch_database_get_revision(idx->db, uuid);
}

void wn_index_close(wn_index **pidx)
{
	wn_index *idx = pidx ? *pidx : NULL;

	if (!idx)
		return;
	wn_cache_close(&idx->cache);
	wn_copy_index_free(&idx->copies);
	wn_link_memo_free(&idx->memo);
	if (idx->db)
		notmuch_database_destroy(idx->db);
	free(idx->config_path);
	free(idx->db_path);
	wn_conf_clear(&idx->conf);
	wn_strv_free(idx->exclude_tags);
	wn_index_authors_free(idx);
	free(idx);
	*pidx = NULL;
}

const wn_conf *wn_index_conf(const wn_index *idx)
{
	return &idx->conf;
}

const char *wn_index_config_path(const wn_index *idx)
{
	return idx->config_path ? idx->config_path : "";
}

const char *wn_index_config_arg(const wn_index *idx)
{
	return idx->config_path;
}

const char *wn_index_db_path(const wn_index *idx)
{
	return idx->db_path;
}

notmuch_message_t *wn_index_find_message(wn_index *idx, const char *id)
{
	return wn_message_find(idx->db, id);
}

notmuch_query_t *wn_index_query_new(wn_index *idx, const char *qs)
{
	return notmuch_query_create(idx->db, qs);
}

wn_status wn_index_refresh(wn_index *idx, wn_error *err)
{
	notmuch_status_t nst;

	/* Reopening reads the newest revision, which the next commit of a
	 * busy writer may discard again before we are done. */
	for (int tries = 0;; tries++) {
		nst = notmuch_database_reopen(idx->db, NOTMUCH_DATABASE_MODE_READ_ONLY);
		if (nst != NOTMUCH_STATUS_XAPIAN_EXCEPTION || tries == RETRIES)
			break;
	}

	if (nst != NOTMUCH_STATUS_SUCCESS)
		return wn_nm_error(err, nst, NULL, "cannot reopen the notmuch database");
	/* Live result sets belong to the old revision: lists restart. */
	idx->generation++;
	return WN_OK;
}

/* The row's fields besides its id, from msg's document values: false
 * when out of memory. */
static bool row_fill(wn_item *it, notmuch_message_t *msg)
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
 * rest comes with loading (row_pending()). */
static wn_item *item_from_message(notmuch_message_t *msg, bool id_only)
{
	wn_item *it = calloc(1, sizeof(*it));

	if (!it)
		return NULL;
	it->id = wn_strdup0(wn_message_id(msg));
	if (!it->id || (!id_only && !row_fill(it, msg)))
		wn_item_free(&it);
	return it;
}

/* A row read with its id only: every other row has a subject, "" at
 * least. */
static bool row_pending(const wn_item *it)
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

/* Rows read with their ids only, a batch at a time (wn_list_get()):
 * each is loaded next (list, export), and its message is kept for that
 * load.  Reading one value slot for the whole batch, then the next,
 * keeps Xapian's cursor in one slot's blocks: value by value, row by
 * row, every value read again the block of its slot. */
#define AHEAD 64

struct held_row {
	notmuch_message_t *msg;	/* NULL: taken by its load, or none */
	char *id;
	bool filled;		/* date, subject and from read (fill_held()) */
	time_t date;
	char *subject, *from;
};

struct wn_list_cursor {
	wn_index *idx;
	unsigned long generation;	/* of the index the search ran on */
	char *query;
	notmuch_query_t *q;
	notmuch_messages_t *msgs;
	size_t pos;		/* messages consumed from msgs */
	struct held_row held[AHEAD];
	size_t nheld;
};

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

/* (Re)start the search; the index may have been reopened since. */
static bool cursor_open(wn_index *idx, struct wn_list_cursor *c)
{
	cursor_close(c);
	c->q = make_query(idx, c->query);
	if (!c->q)
		return false;
	if (notmuch_query_search_messages(c->q, &c->msgs) != NOTMUCH_STATUS_SUCCESS) {
		cursor_close(c);
		return false;
	}
	c->generation = idx->generation;
	return true;
}

/* What notmuch last said about the database (malloc'd; NULL: nothing). */
static char *db_reason(wn_index *idx)
{
	const char *s = notmuch_database_status_string(idx->db);

	return s && *s ? strdup(s) : NULL;
}

static wn_status query_failed(wn_index *idx, wn_list *out, notmuch_status_t nst, wn_error *err)
{
	wn_status st = wn_nm_error(err, nst, db_reason(idx), "notmuch cannot run the query");

	/* Not the database's fault: the query the user wrote. */
	if (st == WN_DB && nst == NOTMUCH_STATUS_XAPIAN_EXCEPTION)
		st = err ? (err->status = WN_USAGE) : WN_USAGE;
	wn_list_free(out);
	return st;
}

/* Rows read while the search that counts them is open anyway: a
 * screenful on the tallest terminal. */
#define FIRST_PAGE 128

/* Count the results of the search open in c, stepping over them (which
 * costs nothing: the result set is in memory), and read the first rows
 * on the way into first[].  How many were read goes to *nfirst; fewer
 * than FIRST_PAGE when the index changed under a row (wn_list_get()
 * reads it again) or memory ran out. */
static size_t count_results(struct wn_list_cursor *c, wn_item **first, size_t *nfirst)
{
	size_t n = 0;
	bool reading = true;

	*nfirst = 0;
	for (; notmuch_messages_valid(c->msgs); notmuch_messages_move_to_next(c->msgs), n++) {
		notmuch_message_t *msg;

		if (!reading || n >= FIRST_PAGE)
			continue;
		msg = notmuch_messages_get(c->msgs);
		first[n] = msg ? item_from_message(msg, false) : NULL;
		if (msg)
			notmuch_message_destroy(msg);
		if (first[n])
			(*nfirst)++;
		else
			reading = false;
	}
	return n;
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
	struct wn_list_cursor *c;
	notmuch_status_t nst;
	wn_item **first;
	size_t count, nfirst;
	char *qs;

	memset(out, 0, sizeof(*out));
	if (!(qs = build_query(idx, user_query, err)))
		return err->status ? err->status : WN_NOMEM;
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

wn_status wn_index_query_recent(wn_index *idx, const char *user_query, time_t now,
				size_t min_rows, wn_list *out, wn_error *err)
{
	/* Each window is four times the last (a day first, a week next):
	 * a handful of cheap searches at most, each of them bounded by
	 * date, not by the index.  The search costs with the reviews its
	 * window holds: at 300,000 messages a week held 1,173 of them, a
	 * day 69, and the first screen took 20 ms less. */
	static const int days[] = { 1, 7, 28, 112, 448 };

	for (size_t w = 0; w < sizeof(days) / sizeof(*days); w++) {
		/* Open-ended: a review dated in the future is newer than
		 * now, and the whole list has it first too. */
		long long since = (long long) now - (long long) days[w] * 86400;
		char *q = user_query && *user_query
			  ? wn_strdupf("(%s) and date:@%lld..", user_query, since)
			  : wn_strdupf("date:@%lld..", since);
		wn_status st;

		if (!q)
			return wn_error_set(err, WN_NOMEM, "out of memory");
		st = wn_index_query(idx, q, out, err);
		free(q);
		if (st != WN_OK)
			return st;
		if (out->n >= min_rows) {
			out->partial = true;
			return WN_OK;
		}
		wn_list_free(out);
	}
	return wn_index_query(idx, user_query, out, err);
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
		it = l->items[c->pos] = item_from_message(msg, l->lazy_rows);
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
	size_t from = i;

	if (i >= l->n)
		return NULL;
	if (l->items[i])
		return l->items[i];
	/* A result set of an older revision can name documents that are
	 * gone now (libnotmuch aborts on those): search again. */
	if (c->generation != idx->generation && c->msgs)
		cursor_close(c);
	/* No search open (wn_index_query() closed the one that counted),
	 * or it is past row i: search again.  Going back, read a page of
	 * rows up to i on the way. */
	if (!c->msgs || c->pos > i) {
		if (c->msgs)
			from = i >= BACK_PAGE ? i + 1 - BACK_PAGE : 0;
		if (!cursor_open(idx, c))
			return NULL;
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
	while (l->lazy_rows && c->nheld < AHEAD && c->pos < l->n && notmuch_messages_valid(c->msgs))
		if (!fetch_next(l, c))
			break;	/* row i is read; the next ask says why */
	return l->items[i];
}

static void item_clear_loaded(wn_item *it)
{
	wn_props_free_item(it, it->review ? it->review->nfindings : 0);
	wn_review_free(&it->review);
	free(it->report_id);
	it->report_id = NULL;
	wn_patch_free(it->patch);
	it->patch = NULL;
	free(it->load_error);
	it->load_error = NULL;
	wn_copy_clear(it);
	wn_replies_free(it->replies, it->nreplies);
	it->replies = NULL;
	it->nreplies = 0;
	it->who_read = it->replies_read = it->newcomer = it->author_answered = false;
	free(it->thread_id);
	it->thread_id = NULL;
	it->loaded = false;
	memset(it->counts, 0, sizeof(it->counts));
}

wn_status wn_index_message(wn_index *idx, const char *id, notmuch_message_t **out, wn_error *err)
{
	/* Xapian keeps few old revisions: while notmuch new or a tagging
	 * script commits, a lookup on our handle can fail with "revision
	 * discarded" (DatabaseModifiedError).  Reopen and try again, as
	 * notmuch's own tools do, rather than call the message missing. */
	for (int tries = 0;; tries++) {
		notmuch_status_t nst = notmuch_database_find_message(idx->db, id, out);
		wn_status st;

		/* Found; or absent, asked twice, the second time on a
		 * fresh revision: a document read while its revision was
		 * discarded can come back as "no such message". */
		if (nst == NOTMUCH_STATUS_SUCCESS && (*out || tries > 0))
			return WN_OK;
		*out = NULL;
		if (nst != NOTMUCH_STATUS_SUCCESS &&
		    (nst != NOTMUCH_STATUS_XAPIAN_EXCEPTION || tries == RETRIES))
			return wn_nm_error(err, nst, db_reason(idx), "cannot read the notmuch index");
		if ((st = wn_index_refresh(idx, err)) != WN_OK)
			return st;
	}
}

wn_status wn_index_load_verdicts(wn_index *idx, wn_item *it, wn_error *err)
{
	notmuch_message_t *msg;
	wn_status st;

	if (!it->loaded || !it->review)
		return wn_index_load(idx, it, err);
	if ((st = wn_index_message(idx, it->id, &msg, err)) != WN_OK)
		return st;
	if (!msg)
		return wn_error_set(err, WN_NOT_FOUND, "message %s is no longer in the index", it->id);
	wn_props_read_item(it, msg);
	wn_copy_merge(idx, it);
	notmuch_message_destroy(msg);
	return WN_OK;
}

/* Say why a mail the query matched yields nothing: most often it is no
 * bot's mail at all (a patch, a human reply). */
static wn_status explain_unknown(wn_item *it, const wn_mail *mail)
{
	char *why = NULL;

	if (asprintf(&why, "%s is not a known review bot (nor listed in winnow.bots); "
		     "read with the generic rule, nothing found",
		     mail->from_addr && *mail->from_addr ? mail->from_addr : "the sender") < 0)
		return WN_NOMEM;
	free(it->review->explain);
	it->review->explain = why;
	return WN_OK;
}

/* The memo of this revision, keeping hunks while a series may ask. */
static wn_link_memo *memo_of(wn_index *idx)
{
	wn_link_memo *memo = wn_link_memo_sync(&idx->memo, idx->generation);

	wn_link_memo_want_hunks(memo, idx->hunk_users > 0);
	return memo;
}

/* Which bot, its review of the mail, and the patch it answers.  Where a
 * diagnostic really is depends on the patch's files, known once the
 * patch is: the mail is read once more with them when the parser says
 * they matter (fingerprints stay as they were).  WN_NOMEM is the only
 * error. */
static wn_status review_of_mail(wn_index *idx, wn_item *it, const wn_mail *mail,
			       wn_cache_deps *deps, bool *changed, wn_error *err)
{
	bool known = wn_bot_detect(mail, (const char *const *) idx->conf.bots, &it->bot);
	wn_review_input in = { .subject = mail->subject };
	char **files = NULL;
	wn_status st;

	if (!known)
		it->bot = WN_BOT_GENERIC;
	st = wn_review_parse_with(it->bot, mail->body, mail->body_len, &in, &it->review, err);
	if (st == WN_OK)
		st = wn_link_patch(idx->db, it, mail, it->review->wants_patch_files ? &files : NULL,
				   deps, memo_of(idx), changed, err);
	if (st == WN_OK && files && it->review->wants_patch_files) {
		wn_review *again = NULL;

		in.patch_files = (const char *const *) files;
		st = wn_review_parse_with(it->bot, mail->body, mail->body_len, &in, &again, err);
		if (st == WN_OK) {
			wn_review_free(&it->review);
			it->review = again;
		}
	}
	wn_strv_free(files);
	if (st == WN_OK && !known && it->review->nfindings == 0 && explain_unknown(it, mail) != WN_OK)
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	return st;
}

void wn_index_keep_hunks(wn_index *idx, bool on)
{
	if (on)
		idx->hunk_users++;
	else if (idx->hunk_users)
		idx->hunk_users--;
}

wn_status wn_index_patch_hunks(wn_index *idx, const char *id, wn_diff_keys *hunks, wn_diff *diff,
				bool *read)
{
	wn_link_memo *memo = memo_of(idx);
	const wn_memo_entry *e = memo ? wn_link_memo_get(memo, id) : NULL;
	notmuch_message_t *msg = NULL;
	wn_status st;

	memset(hunks, 0, sizeof(*hunks));
	memset(diff, 0, sizeof(*diff));
	*read = false;
	if (e && e->hunks_known) {
		if (!e->hunks.n)
			return WN_OK;
		if (!(hunks->v = malloc(e->hunks.n * sizeof(*hunks->v))))
			return WN_NOMEM;
		memcpy(hunks->v, e->hunks.v, e->hunks.n * sizeof(*hunks->v));
		hunks->n = e->hunks.n;
		return WN_OK;
	}
	if (e && !e->held)
		return WN_NOT_FOUND;
	if ((st = wn_index_message(idx, id, &msg, NULL)) != WN_OK)
		return st == WN_NOMEM ? st : WN_NOT_FOUND;
	if (!msg)
		return WN_NOT_FOUND;
	/* The lookup may have reopened the index: a memo of its revision. */
	memo = memo_of(idx);
	st = wn_link_read_patch(memo, msg, idx->cache != NULL, diff);
	notmuch_message_destroy(msg);
	*read = st == WN_OK;
	return st;
}

/* What the properties say of each finding: arrays of nfindings. */
static wn_status read_props(wn_item *it, notmuch_message_t *msg)
{
	if (!wn_props_alloc_item(it, it->review->nfindings))
		return WN_NOMEM;
	wn_props_read_item(it, msg);
	return WN_OK;
}

/* The review read and parsed, and its properties, from the mail and
 * the index, and kept in the cache for next time. */
static wn_status load_item(wn_index *idx, wn_item *it, notmuch_message_t *msg, bool *changed,
			   wn_error *err)
{
	wn_cache_deps deps = WN_CACHE_DEPS_INIT;
	wn_error lerr = WN_ERROR_INIT;
	wn_mail *mail = NULL;
	char *ident = NULL;
	size_t ident_len = 0;
	wn_status st;

	/* The file's identity from the descriptor it is read through: a
	 * stat() of the path before and after the read was 2% of a cold
	 * list. */
	/* The review's addresses: none but From's (bots/, link.c). */
	st = wn_cache_read_mail(msg, &mail, false, idx->cache ? &ident : NULL, &ident_len, &lerr);
	if (st == WN_NOMEM)
		goto out;
	if (!ident)
		deps.unknown = true;
	if (st != WN_OK) {
		/* The queue shows the row with the reason, never drops it. */
		it->load_error = strdup(wn_error_msg(&lerr));
		it->bot = WN_BOT_GENERIC;
		st = wn_review_parse(WN_BOT_GENERIC, "", 0, &it->review, err);
	} else {
		st = review_of_mail(idx, it, mail, idx->cache ? &deps : NULL, changed, err);
	}
	if (st == WN_OK)
		st = read_props(it, msg);
	/* Read with the properties' terms: who.c's walk needs no lookup.
	 * A thread merged by notmuch new changes the message's lastmod, so
	 * the record keeps it. */
	if (st == WN_OK && !(it->thread_id = wn_strdup0(notmuch_message_get_thread_id(msg))))
		st = WN_NOMEM;
	if (st == WN_OK && !*changed && idx->cache)
		wn_cache_put(idx->cache, idx->db, ident, ident_len, it, &deps);
out:
	free(ident);
	wn_cache_deps_free(&deps);
	wn_mail_free(&mail);
	wn_error_clear(&lerr);
	return st;
}

/* Read date, subject and from of every row of c not loaded yet, one
 * value slot after the other (see AHEAD); what row_fill() reads. */
static void fill_held(struct wn_list_cursor *c)
{
	size_t i;

	for (i = 0; i < c->nheld; i++)
		if (c->held[i].msg && !c->held[i].filled)
			c->held[i].date = notmuch_message_get_date(c->held[i].msg);
	for (i = 0; i < c->nheld; i++)
		if (c->held[i].msg && !c->held[i].filled) {
			const char *v = notmuch_message_get_header(c->held[i].msg, "subject");
			c->held[i].subject = strdup(v ? v : "");
		}
	for (i = 0; i < c->nheld; i++)
		if (c->held[i].msg && !c->held[i].filled) {
			const char *v = notmuch_message_get_header(c->held[i].msg, "from");
			c->held[i].from = strdup(v ? v : "");
			c->held[i].filled = c->held[i].subject && c->held[i].from;
		}
}

/* The message of it when a list's search holds it (fetch_next()): the
 * same document a lookup by its id finds, the index being at the
 * search's revision still.  A pending row gets its fields from the
 * batch's reading (fill_held()).  NULL: none; else the caller destroys
 * it. */
static notmuch_message_t *take_held(wn_index *idx, wn_item *it)
{
	struct wn_list_cursor *c = idx->held;
	struct held_row *h = NULL;
	notmuch_message_t *msg;

	if (!c || c->generation != idx->generation)
		return NULL;
	for (size_t i = 0; i < c->nheld && !h; i++)
		if (c->held[i].msg && strcmp(c->held[i].id, it->id) == 0)
			h = &c->held[i];
	if (!h)
		return NULL;
	if (row_pending(it) && !h->filled)
		fill_held(c);
	if (row_pending(it) && h->filled) {
		it->date = h->date;
		it->subject = h->subject;
		it->from = h->from;
		h->subject = h->from = NULL;
	}
	msg = h->msg;
	h->msg = NULL;
	return msg;
}

static wn_status load_once(wn_index *idx, wn_item *it, bool *changed, wn_error *err)
{
	notmuch_message_t *msg;
	wn_status st;

	item_clear_loaded(it);
	/* Opened by the first list of reviews, not by one review found
	 * by its id (mark, show): reading the cache's index costs more
	 * than parsing one review.  A review found later, in the same
	 * process, uses it. */
	if (!idx->cache_tried && !idx->finding && !idx->cache_later) {
		idx->cache = wn_cache_open(idx->db, idx->db_path, &idx->conf);
		idx->cache_tried = true;
	}
	/* A record that holds needs no lookup of the message: the list
	 * row came from the index, the record's checks say the rest (its
	 * thread too, which copies are looked for in, and a pending row's
	 * date, subject and sender: the message's lastmod is unchanged). */
	if (wn_cache_get(idx->cache, idx->db, it)) {
		/* After the cache took the record: the copy's verdicts are
		 * not this mail's properties. */
		if (wn_copy_find(idx, it, it->thread_id, it->date, err) != WN_OK)
			goto nomem;
		wn_copy_merge(idx, it);
		it->loaded = true;
		return WN_OK;
	}
	if (!(msg = take_held(idx, it)) && (st = wn_index_message(idx, it->id, &msg, err)) != WN_OK)
		return st;
	if (!msg)
		return wn_error_set(err, WN_NOT_FOUND, "message %s is not in the index", it->id);
	/* Before the parse: linking by subject weighs the review's date. */
	/* The row and load_item() read the date and thread from msg: a
	 * document value read again was 2% of a cold list. */
	if ((row_pending(it) && !row_fill(it, msg)) || load_item(idx, it, msg, changed, err) != WN_OK ||
	    wn_copy_find(idx, it, it->thread_id, it->date, err) != WN_OK) {
		notmuch_message_destroy(msg);
		goto nomem;
	}
	notmuch_message_destroy(msg);
	wn_copy_merge(idx, it);	/* counts the findings */
	it->loaded = true;
	return WN_OK;
nomem:
	item_clear_loaded(it);
	return wn_error_set(err, WN_NOMEM, "out of memory");
}

void wn_index_cache_later(wn_index *idx, bool later)
{
	idx->cache_later = later;
}

wn_status wn_index_load(wn_index *idx, wn_item *it, wn_error *err)
{
	/* A patch looked up while another process's write discarded the
	 * revision could be called missing: reopen and read it again. */
	for (int tries = 0;; tries++) {
		bool changed = false;
		wn_status st = load_once(idx, it, &changed, err);

		if (st != WN_OK || !changed || tries == RETRIES)
			return st;
		if ((st = wn_index_refresh(idx, err)) != WN_OK)
			return st;
	}
}

wn_status wn_index_find(wn_index *idx, const char *msgid, wn_item **out, wn_error *err)
{
	/* An exact id of a hostile mail (CR LF in it, as the sharing
	 * repository brings it) is one id, not two pasted at once. */
	char *id = wn_msgid_canon(msgid);
	notmuch_message_t *msg;
	wn_item *it;
	wn_status st;

	if (!id && msgid && strpbrk(msgid, "\r\n"))
		id = strdup(msgid);

	*out = NULL;
	if (!id)
		return wn_error_set(err, WN_USAGE, "not a Message-ID: '%s'", msgid ? msgid : "");
	st = wn_index_message(idx, id, &msg, err);
	if (st == WN_OK && !msg) {
		/* Text output shows a hostile id with \xHH escapes
		 * (wn_msgid_escape): take that form back too. */
		char *raw = wn_msgid_unescape(id);
		if (raw)
			st = wn_index_message(idx, raw, &msg, err);
		free(raw);
	}
	if (st == WN_OK && !msg) {
		char *shown = wn_msgid_escape(id);
		st = wn_error_set(err, WN_NOT_FOUND, "no message <%s> in the notmuch index",
				  shown ? shown : id);
		free(shown);
	}
	if (st != WN_OK) {
		free(id);
		return st;
	}
	free(id);
	it = item_from_message(msg, false);
	notmuch_message_destroy(msg);
	if (!it)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	idx->finding = true;
	st = wn_index_load(idx, it, err);
	idx->finding = false;
	if (st != WN_OK) {
		wn_item_free(&it);
		return st;
	}
	*out = it;
	return WN_OK;
}

void wn_replies_free(wn_reply *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].id);
		free(r[i].from);
		free(r[i].subject);
	}
	free(r);
}

void wn_author_patches_free(void *v)
{
	struct wn_author_patches *a = v;

	for (size_t i = 0; a && i < a->n; i++)
		free(a->threads[i]);
	if (a) {
		free(a->threads);
		free(a->dates);
	}
	free(a);
}

void wn_index_authors_free(wn_index *idx)
{
	wn_map_free(&idx->authors, wn_author_patches_free);
	free(idx->count_tid);
	free(idx->count_n);
	wn_map_free(&idx->addrs, free);
	for (size_t i = 0; i < WN_WHO_THREADS; i++) {
		wn_who_thread_free(idx->threads[i]);
		idx->threads[i] = NULL;
	}
}

void wn_who_parents_clear(struct wn_who_thread *t)
{
	for (size_t i = 0; t->addr && i < t->npar; i++)
		free(t->addr[i]);
	free(t->addr);
	t->addr = NULL;
	for (size_t i = 0; t->par && i < t->npar; i++)
		free(t->par[i].refs);
	free(t->par);
	t->par = NULL;
	t->npar = 0;
	wn_map_free(&t->ids, NULL);
}

void wn_who_thread_clear(struct wn_who_thread *t)
{
	wn_who_parents_clear(t);
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].id);
		free(t->v[i].from);
		free(t->v[i].subject);
	}
	free(t->v);
	t->v = NULL;
	t->n = 0;
	t->in_order = false;
}

void wn_who_thread_free(struct wn_who_thread *t)
{
	if (t) {
		wn_who_thread_clear(t);
		free(t->tid);
		wn_strv_free(t->bots);
	}
	free(t);
}

void wn_item_unload(wn_item *it)
{
	if (it)
		item_clear_loaded(it);
}

void wn_item_free(wn_item **pit)
{
	wn_item *it = pit ? *pit : NULL;

	if (!it)
		return;
	item_clear_loaded(it);
	free(it->id);
	free(it->subject);
	free(it->from);
	free(it);
	*pit = NULL;
}

void wn_list_free(wn_list *l)
{
	for (size_t i = 0; i < l->fetched; i++)
		wn_item_free(&l->items[i]);
	free(l->items);
	if (l->cursor) {
		cursor_close(l->cursor);
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
