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
 * the first rows.  They are found again by their ids (terms: a few
 * lookups however big the index), which also checks that every one
 * is still there and still matches.  Otherwise the newest reviews are
 * searched for by date, the windows widening, and kept for next time.
 * Like the cache of parsed reviews, it is an optimisation only: any
 * doubt and the search runs. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "index-private.h"
#include "winnow/buf.h"
#include "winnow/text.h"

#define MAGIC "winnow first rows 1"
/* The file is small: FIRST_KEPT ids and a query. */
#define MAX_FILE (256 * 1024)
/* Ids kept: a screenful on the tallest terminal, as index-query.c's
 * first page. */
#define FIRST_KEPT 128

/* The key line: the query notmuch runs and the tags it excludes; NULL
 * (keep nothing) when it cannot stand on one line. */
static char *key_line(wn_index *idx, const char *user_query)
{
	wn_error err = WN_ERROR_INIT;
	char *qs = wn_index_query_string(idx, user_query, &err);
	wn_buf b = WN_BUF_INIT;

	wn_error_clear(&err);
	if (!qs)
		return NULL;
	wn_buf_puts(&b, qs);
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

/* The user's query narrowed to the ids kept for it at this revision,
 * if they are there and hold at least min_rows (or the whole list):
 * malloc'd, their number in *k; NULL otherwise. */
static char *kept_query(wn_index *idx, const char *user_query, size_t min_rows, size_t *k,
			bool *whole)
{
	char *path = NULL, *text = NULL, *key = NULL, *p, *line, *q = NULL;
	uint64_t file_key;
	unsigned long rev, want_rev;
	unsigned long long n;
	const char *uuid = db_uuid(idx, &rev);
	wn_error err = WN_ERROR_INIT;
	wn_buf b = WN_BUF_INIT;
	size_t len;
	int w;

	if (!wn_cache_sibling(idx->db, idx->db_path, &idx->conf, "first", &path, &file_key))
		return NULL;
	if (wn_file_read(path, MAX_FILE, WN_FILE_NOFOLLOW, &text, &len, &err) != WN_OK ||
	    strlen(text) != len || !(key = key_line(idx, user_query)))
		goto out;
	p = text;
	/* Every header line as this run would write it, or nothing. */
	if (!(line = next_line(&p)) || strcmp(line, MAGIC) || !(line = next_line(&p)) ||
	    strtoull(line, NULL, 16) != file_key || !(line = next_line(&p)) || strcmp(line, uuid) ||
	    !(line = next_line(&p)) || sscanf(line, "%lu", &want_rev) != 1 || want_rev != rev ||
	    !(line = next_line(&p)) || sscanf(line, "%d %llu", &w, &n) != 2 || n > FIRST_KEPT ||
	    !(line = next_line(&p)) || strcmp(line, key))
		goto out;
	*whole = w == 1;
	*k = (size_t) n;
	if (!n || (*k < min_rows && !*whole))
		goto out;
	if (user_query && *user_query)
		wn_buf_printf(&b, "(%s) and ", user_query);
	wn_buf_putc(&b, '(');
	for (size_t i = 0; i < *k; i++) {
		if (!(line = next_line(&p)) || !plain_id(line))
			goto out;
		wn_buf_printf(&b, "%sid:\"%s\"", i ? " or " : "", line);
	}
	wn_buf_putc(&b, ')');
	q = wn_buf_steal(&b);
out:
	wn_buf_free(&b);
	wn_error_clear(&err);
	free(key);
	free(text);
	free(path);
	return q;
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
	if (!(key = key_line(idx, user_query)) || !(f = wn_cache_create(path, &tmp)))
		goto out;
	ok = fprintf(f, "%s\n%016llx\n%s\n%lu\n%d %zu\n%s\n", MAGIC, (unsigned long long) file_key,
		     uuid, rev, whole && k == l->n, k, key) > 0;
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

wn_status wn_index_query_recent(wn_index *idx, const char *user_query, time_t now, size_t min_rows,
				wn_list *out, wn_error *err)
{
	unsigned long rev;
	const char *uuid;
	char *q, *uuid_copy;
	bool whole = false;
	size_t k = 0;
	wn_status st;

	if ((q = kept_query(idx, user_query, min_rows, &k, &whole))) {
		st = wn_index_query(idx, q, out, err);
		free(q);
		/* Fewer: one was removed after all; the search says. */
		if (st == WN_OK && out->n == k) {
			out->partial = !whole;
			return WN_OK;
		}
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
	free(uuid_copy);
	return st;
}
