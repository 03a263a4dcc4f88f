/* winnow — the queue's first screen: the newest reviews of a query
 * (wn_index_query_recent), at a cost that does not grow with the index.
 *
 * Any search for "the newest" costs with the index: notmuch's date:
 * (and lastmod:) is a Xapian value range, which reads every message's
 * value (44 ms for date:@S.. alone at a million messages).  So the ids
 * of the first rows a search found are kept between runs in
 * $XDG_CACHE_HOME/winnow/first-<hash of the database path>, with the
 * database's revision: while notmuch says the revision is the same,
 * nothing was added, removed or tagged since, and those ids are still
 * the first rows.  They are found again by their ids alone (terms: a
 * few lookups however big the index), which also checks that every one
 * is still there.  Otherwise the newest reviews are
 * searched for by date, the windows widening, and kept for next time.
 * Like the cache of parsed reviews, it is an optimisation only: any
 * doubt and the search runs.
 *
 * winnow's own writes move the revision too, and the first screen after
 * a verdict would search by date again.  So the writer, which holds
 * notmuch's write lock and knows every message it changed, carries the
 * file forward (wn_index_recent_carry): from the revision before its
 * write to the one after, those messages added to the file as touched.
 * They are looked up with the kept ids; every message that did not
 * change sorts where it did, so the rows are exact down to the last
 * kept row that was not touched, and the file is written afresh. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "index-private.h"
#include "winnow/buf.h"
#include "winnow/text.h"

#define MAGIC "winnow first rows 2"
/* The file is small: FIRST_KEPT ids and a query. */
#define MAX_FILE (256 * 1024)
/* Ids kept: a screenful on the tallest terminal, as index-query.c's
 * first page. */
#define FIRST_KEPT 128
/* Messages a run of writes may touch before the file is given up: the
 * lookup stays a few dozen terms. */
#define TOUCHED_MAX 64

/* The file as read: its header lines and ids point into text. */
struct kept {
	char *text;
	const char *uuid, *key;
	unsigned long rev;
	bool whole;
	size_t k, t;			     /* ids kept, touched since */
	char *ids[FIRST_KEPT + TOUCHED_MAX]; /* kept, then touched */
};

/* The key line: the query notmuch runs (its first *qlen bytes, qlen
 * not NULL) and the tags it excludes; NULL (keep nothing) when it
 * cannot stand on one line. */
static char *key_line(wn_index *idx, const char *user_query, size_t *qlen)
{
	wn_error err = WN_ERROR_INIT;
	char *qs = wn_index_query_string(idx, user_query, &err);
	wn_buf b = WN_BUF_INIT;

	wn_error_clear(&err);
	if (!qs)
		return NULL;
	wn_buf_puts(&b, qs);
	if (qlen)
		*qlen = b.len;
	for (char **t = idx->exclude_tags; t && *t; t++)
		wn_buf_printf(&b, "\x1f%s", *t);
	free(qs);
	qs = wn_buf_steal(&b);
	/* Nor when the query's answer can change while the revision
	 * stays: a relative date (date:today), a saved search. */
	if (qs && (strchr(qs, '\n') || strcasestr(qs, "date:") || strcasestr(qs, "query:"))) {
		free(qs);
		qs = NULL;
	}
	return qs;
}

/* An id that can stand in id:"..." and on a line of its own: mail is
 * hostile, and a quote would change the query. */
static bool plain_id(const char *id)
{
	if (!*id)
		return false;
	for (const unsigned char *p = (const unsigned char *) id; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == '"')
			return false;
	return true;
}

static const char *db_uuid(wn_index *idx, unsigned long *rev)
{
	const char *uuid = NULL;

	*rev = notmuch_database_get_revision(idx->db, &uuid);
	return uuid ? uuid : "";
}

/* The next line of *p, cut at its end; NULL at the end of the text. */
static char *next_line(char **p)
{
	char *s = *p, *nl;

	if (!s || !*s || !(nl = strchr(s, '\n')))
		return NULL;
	*nl = '\0';
	*p = nl + 1;
	return s;
}

static void kept_free(struct kept *f)
{
	free(f->text);
	memset(f, 0, sizeof(*f));
}

/* Read the file at path into *f, checking the header against file_key
 * and uuid only (the caller checks the revision); false when it is not
 * one this run could have written. */
static bool kept_read(const char *path, uint64_t file_key, const char *uuid, struct kept *f)
{
	wn_error err = WN_ERROR_INIT;
	unsigned long long k, t;
	char *p, *line;
	size_t len;
	int w;

	memset(f, 0, sizeof(*f));
	if (wn_file_read(path, MAX_FILE, WN_FILE_NOFOLLOW, &f->text, &len, &err) != WN_OK ||
	    strlen(f->text) != len) {
		wn_error_clear(&err);
		kept_free(f);
		return false;
	}
	p = f->text;
	/* Every header line as this run would write it, or nothing. */
	if (!(line = next_line(&p)) || strcmp(line, MAGIC) || !(line = next_line(&p)) ||
	    strtoull(line, NULL, 16) != file_key || !(f->uuid = next_line(&p)) ||
	    strcmp(f->uuid, uuid) || !(line = next_line(&p)) || sscanf(line, "%lu", &f->rev) != 1 ||
	    !(line = next_line(&p)) || sscanf(line, "%d %llu %llu", &w, &k, &t) != 3 ||
	    k > FIRST_KEPT || t > TOUCHED_MAX || !(f->key = next_line(&p)))
		goto bad;
	f->whole = w == 1;
	f->k = (size_t) k;
	f->t = (size_t) t;
	for (size_t i = 0; i < f->k + f->t; i++)
		if (!(f->ids[i] = next_line(&p)) || !plain_id(f->ids[i]))
			goto bad;
	return true;
bad:
	kept_free(f);
	return false;
}

/* "(id:"a" or id:"b" ...)" of f's ids from to to. */
static void kept_ids(wn_buf *b, const struct kept *f, size_t from, size_t to)
{
	wn_buf_putc(b, '(');
	for (size_t i = from; i < to; i++)
		wn_buf_printf(b, "%sid:\"%s\"", i > from ? " or " : "", f->ids[i]);
	wn_buf_putc(b, ')');
}

/* The notmuch query of the ids kept for user_query at this revision,
 * and of those touched since that the query still matches, if they are
 * there and hold at least min_rows (or the whole list): malloc'd, the
 * file in *f; NULL otherwise. */
static char *kept_query(wn_index *idx, const char *user_query, size_t min_rows, struct kept *f)
{
	char *path = NULL, *key = NULL, *q = NULL;
	uint64_t file_key;
	unsigned long rev;
	const char *uuid = db_uuid(idx, &rev);
	wn_buf b = WN_BUF_INIT;
	size_t alone, qlen;

	memset(f, 0, sizeof(*f));
	if (!wn_cache_sibling(idx->db, idx->db_path, &idx->conf, "first", &path, &file_key))
		return NULL;
	if (!kept_read(path, file_key, uuid, f))
		goto out;
	if (f->rev != rev || !(key = key_line(idx, user_query, &qlen)) || strcmp(f->key, key) ||
	    !f->k || (f->k < min_rows && !f->whole))
		goto out;
	/* A kept id no write touched still matches: its message is as it
	 * was when the query found it.  So it is looked up alone, and only
	 * the touched ones go through the query, whose every term and value
	 * range Xapian would otherwise walk to each kept id, in blocks that
	 * grow with the index (at a million messages the first screen came
	 * 19.8 ms after exec that way, 15.3 ms with the ids alone).  Not
	 * with thread: in the query: there a message's match depends on the
	 * others of its thread, which a write may have touched. */
	alone = strcasestr(key, "thread:") ? 0 : f->k;
	if (alone)
		kept_ids(&b, f, 0, alone);
	if (alone < f->k + f->t) {
		wn_buf_printf(&b, "%s(%.*s) and ", alone ? " or (" : "(", (int) qlen, key);
		kept_ids(&b, f, alone, f->k + f->t);
		wn_buf_putc(&b, ')');
	}
	q = wn_buf_steal(&b);
out:
	if (!q)
		kept_free(f);
	wn_buf_free(&b);
	free(key);
	free(path);
	return q;
}

/* Whether id is one of f's kept ids (want true) or touched ones. */
static bool kept_has(const struct kept *f, const char *id, bool touched)
{
	size_t from = touched ? f->k : 0, to = touched ? f->k + f->t : f->k;

	for (size_t i = from; i < to; i++)
		if (strcmp(f->ids[i], id) == 0)
			return true;
	return false;
}

/* How many of l's rows (the kept and touched ids found again) are
 * surely the first rows: down to the last kept row no write touched,
 * every row of l when the file held the whole list; 0 when a kept row
 * that was not touched is missing (the file is wrong after all). */
static size_t exact_rows(const struct kept *f, const wn_list *l)
{
	size_t want = 0, found = 0, last = 0;

	if (l->fetched != l->n)
		return 0;
	for (size_t i = 0; i < f->k; i++)
		want += !kept_has(f, f->ids[i], true);
	for (size_t i = 0; i < l->n; i++) {
		if (!l->items[i])
			return 0;
		if (kept_has(f, l->items[i]->id, false) && !kept_has(f, l->items[i]->id, true)) {
			found++;
			last = i + 1;
		}
	}
	if (found != want)
		return 0;
	return f->whole ? l->n : last;
}

/* Keep the first rows of l, found at revision rev, for the next run;
 * whole: l is the whole list.  Best effort: nothing is said when the
 * file cannot be written. */
static void keep(wn_index *idx, const char *user_query, unsigned long rev, const char *uuid,
		 const wn_list *l, bool whole)
{
	size_t k = l->n < FIRST_KEPT ? l->n : FIRST_KEPT;
	char *path = NULL, *tmp = NULL, *key = NULL;
	uint64_t file_key;
	bool ok;
	FILE *f;

	/* Rows the search could not read leave nothing to keep. */
	if (!k || l->fetched < k)
		return;
	for (size_t i = 0; i < k; i++)
		if (!l->items[i] || !plain_id(l->items[i]->id))
			return;
	if (!wn_cache_sibling(idx->db, idx->db_path, &idx->conf, "first", &path, &file_key))
		return;
	if (!(key = key_line(idx, user_query, NULL)) || !(f = wn_cache_create(path, &tmp)))
		goto out;
	ok = fprintf(f, "%s\n%016llx\n%s\n%lu\n%d %zu 0\n%s\n", MAGIC,
		     (unsigned long long) file_key, uuid, rev, whole && k == l->n, k, key) > 0;
	for (size_t i = 0; ok && i < k; i++)
		ok = fprintf(f, "%s\n", l->items[i]->id) > 0;
	ok = fflush(f) == 0 && !ferror(f) && ok;
	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path) != 0)
		unlink(tmp);
out:
	free(tmp);
	free(key);
	free(path);
}

/* The newest reviews by date: each window is four times the last (a
 * day first, a week next), a handful of searches at most. */
static wn_status by_date(wn_index *idx, const char *user_query, time_t now, size_t min_rows,
			 wn_list *out, wn_error *err)
{
	static const int days[] = { 1, 7, 28, 112, 448 };

	for (size_t w = 0; w < sizeof(days) / sizeof(*days); w++) {
		/* Open-ended: a review dated in the future is newer than
		 * now, and the whole list has it first too. */
		long long since = (long long) now - (long long) days[w] * 86400;
		char *q = user_query && *user_query ?
				  wn_strdupf("(%s) and date:@%lld..", user_query, since) :
				  wn_strdupf("date:@%lld..", since);
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

#ifdef WN_TEST_HOOKS
/* For the tests: how the first rows were found ("ids N": by the kept
 * ids, N rows; "date": by date), appended to $WINNOW_TEST_FIRST_LOG. */
static void test_log(const char *how, size_t n)
{
	const char *path = getenv("WINNOW_TEST_FIRST_LOG");
	FILE *f = path && *path ? fopen(path, "a") : NULL;

	if (f) {
		fprintf(f, "%s %zu\n", how, n);
		fclose(f);
	}
}
#else
#define test_log(how, n) ((void) 0)
#endif

/* Cut l to its first n rows. */
static void cut_rows(wn_list *l, size_t n)
{
	for (size_t i = n; i < l->fetched; i++)
		wn_item_free(&l->items[i]);
	if (l->fetched > n)
		l->fetched = n;
	l->n = n;
}

wn_status wn_index_query_recent(wn_index *idx, const char *user_query, time_t now, size_t min_rows,
				wn_list *out, wn_error *err)
{
	unsigned long rev;
	const char *uuid;
	char *q, *uuid_copy;
	struct kept f;
	wn_status st;

	if ((q = kept_query(idx, user_query, min_rows, &f))) {
		size_t n;

		st = wn_index_query_notmuch(idx, q, out, err);
		free(q);
		/* The kept and touched ids can be more than the search's
		 * first page: the rest, read now, are a few more. */
		for (size_t i = out->fetched; st == WN_OK && i < out->n; i++)
			if (!wn_list_get(idx, out, i))
				break;
		/* Fewer: one was removed after all; the search says. */
		if (st == WN_OK && (n = exact_rows(&f, out)) && (n >= min_rows || f.whole)) {
			cut_rows(out, n);
			out->partial = !f.whole;
			/* Written afresh, without the touched ids: they would
			 * only grow. */
			if (f.t)
				keep(idx, user_query, f.rev, f.uuid, out, f.whole);
			kept_free(&f);
			test_log("ids", n);
			return WN_OK;
		}
		kept_free(&f);
		if (st == WN_OK)
			wn_list_free(out);
		wn_error_clear(err);
	}
	/* The revision before the search: a later one would claim rows
	 * older than it. */
	uuid = db_uuid(idx, &rev);
	if (!(uuid_copy = strdup(uuid)))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	st = by_date(idx, user_query, now, min_rows, out, err);
	if (st == WN_OK)
		keep(idx, user_query, rev, uuid_copy, out, !out->partial);
	test_log("date", st == WN_OK ? out->n : 0);
	free(uuid_copy);
	return st;
}

void wn_index_recent_carry(wn_index *idx, notmuch_database_t *db, unsigned long from,
			   unsigned long to, const char *const *ids, size_t n)
{
	char *path = NULL, *tmp = NULL;
	const char *uuid = NULL;
	uint64_t file_key;
	struct kept f;
	size_t t, nadd = 0;
	const char **add = NULL;
	bool ok;
	FILE *out;

	notmuch_database_get_revision(db, &uuid);
	if (from == to || !uuid ||
	    !wn_cache_sibling(db, idx->db_path, &idx->conf, "first", &path, &file_key))
		return;
	/* A file of another revision was stale before this write. */
	if (!kept_read(path, file_key, uuid, &f)) {
		free(path);
		return;
	}
	t = f.t;
	if (!(add = malloc((n ? n : 1) * sizeof(*add))))
		goto out;
	for (size_t i = 0; i < n; i++)
		if (!plain_id(ids[i]))
			goto out;
	/* A review written again is looked up once. */
	for (size_t i = 0, j; i < n; i++) {
		for (j = 0; j < nadd && strcmp(add[j], ids[i]); j++)
			;
		if (j == nadd && !kept_has(&f, ids[i], true))
			add[nadd++] = ids[i];
	}
	/* Of another revision, it was stale before this write; with too
	 * many touched, it is left stale. */
	if (f.rev != from || f.t + nadd > TOUCHED_MAX)
		goto out;
	if (!(out = wn_cache_create(path, &tmp)))
		goto out;
	ok = fprintf(out, "%s\n%016llx\n%s\n%lu\n%d %zu %zu\n%s\n", MAGIC,
		     (unsigned long long) file_key, uuid, to, f.whole, f.k, t + nadd, f.key) > 0;
	for (size_t i = 0; ok && i < f.k + t; i++)
		ok = fprintf(out, "%s\n", f.ids[i]) > 0;
	for (size_t i = 0; ok && i < nadd; i++)
		ok = fprintf(out, "%s\n", add[i]) > 0;
	ok = fflush(out) == 0 && !ferror(out) && ok;
	ok = fclose(out) == 0 && ok;
	if (!ok || rename(tmp, path) != 0)
		unlink(tmp);
out:
	kept_free(&f);
	free(add);
	free(tmp);
	free(path);
}
