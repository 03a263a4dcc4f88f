/* winnow — which report a syzbot report duplicates: the
 * index's other reports of its bot, best title match first, for
 * `winnow mark ID 1 duplicate` without --of and the interface's picker.
 *
 * A report's title is its subject without the bracket groups
 * ("[syzbot] [fs?]"); the match is the Jaccard index of the two titles'
 * words as memory's similarity takes them (wn_words_of: no numbers, so
 * syzbot's " (2)" of a bug seen again counts for nothing), in per mille
 * so that equal matches are equal exactly.  Ties go to the older report
 * (the one a later report usually repeats), then the smaller
 * Message-ID: the same index gives the same list, so a number of it
 * names the same report twice.
 *
 * The titles are scored from the index's rows alone; only as many
 * reports are read as the list needs, best first, to leave out what is
 * not a report (a follow-up in its thread, the bot's review of a
 * series). */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "forward-private.h"
#include "winnow/similar.h"
#include "winnow/subject.h"

struct row {
	char *id;
	char *subject;
	time_t date;
	unsigned match; /* per mille */
};

/* The words of a subject's title; empty when it has none. */
static wn_status title_words(const char *subject, wn_words *out)
{
	wn_subject s;
	wn_status st = wn_subject_parse(subject, &s);

	memset(out, 0, sizeof(*out));
	if (st == WN_OK)
		st = wn_words_of(s.title, out);
	wn_subject_clear(&s);
	return st;
}

static int by_match(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	if (a->match != b->match)
		return a->match > b->match ? -1 : 1;
	if (a->date != b->date)
		return a->date < b->date ? -1 : 1;
	return strcmp(a->id, b->id);
}

static void rows_free(struct row *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].id);
		free(v[i].subject);
	}
	free(v);
}

/* Every row of the bot's query but it, scored against mine. */
static wn_status score_rows(wn_index *idx, const wn_item *it, const wn_words *mine,
			    struct row **out, size_t *n, wn_error *err)
{
	wn_list l = { 0 };
	struct row *v = NULL;
	wn_status st = wn_index_query(idx, wn_bot_query(it->bot), &l, err);

	*n = 0;
	if (st == WN_OK && l.n && !(v = calloc(l.n, sizeof(*v))))
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	for (size_t i = 0; st == WN_OK && i < l.n; i++) {
		wn_item *r = wn_list_get(idx, &l, i);
		wn_words w;

		if (!r || !r->id || !strcmp(r->id, it->id))
			continue;
		if ((st = title_words(r->subject, &w)) != WN_OK)
			break;
		v[*n].match = (unsigned) (wn_words_jaccard(mine, &w) * 1000 + 0.5);
		wn_words_free(&w);
		v[*n].date = r->date;
		v[*n].id = strdup(r->id);
		v[*n].subject = strdup(r->subject ? r->subject : "");
		if (!v[*n].id || !v[*n].subject)
			st = WN_NOMEM;
		(*n)++;
		wn_list_release(&l, i);
	}
	wn_list_free(&l);
	if (st == WN_NOMEM)
		wn_error_set(err, st, "out of memory");
	if (st != WN_OK) {
		rows_free(v, *n);
		*n = 0;
		return st;
	}
	qsort(v, *n, sizeof(*v), by_match);
	*out = v;
	return WN_OK;
}

/* Is the row a report of its own (not a follow-up, not a series
 * review)?  Read from the mail, as the reply will be. */
static wn_status is_report(wn_index *idx, const char *id, bool *yes, wn_error *err)
{
	wn_item *r = NULL;
	wn_status st = wn_index_find(idx, id, &r, err);

	*yes = st == WN_OK && wn_forward_is_syz(r);
	wn_item_free(&r);
	/* Gone since the query: not a candidate. */
	if (st == WN_NOT_FOUND) {
		wn_error_clear(err);
		st = WN_OK;
	}
	return st;
}

wn_status wn_forward_syz_candidates(wn_index *idx, const wn_item *it, size_t max,
				    wn_syz_candidate **out, size_t *n, wn_error *err)
{
	wn_words mine;
	struct row *rows = NULL;
	size_t nrows = 0;
	wn_syz_candidate *v = NULL;
	wn_status st;

	*out = NULL;
	*n = 0;
	if (!wn_forward_is_syz(it))
		return wn_error_set(err, WN_USAGE,
				    "<%s> is no bug report of a bot that reads replies", it->id);
	if ((st = title_words(it->subject, &mine)) != WN_OK)
		return wn_error_set(err, st, "out of memory");
	st = score_rows(idx, it, &mine, &rows, &nrows, err);
	wn_words_free(&mine);
	if (st != WN_OK)
		return st;
	if (nrows && !(v = calloc(max && max < nrows ? max : nrows, sizeof(*v))))
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	for (size_t i = 0; st == WN_OK && i < nrows && (!max || *n < max); i++) {
		bool yes = false;

		if ((st = is_report(idx, rows[i].id, &yes, err)) != WN_OK || !yes)
			continue;
		v[*n] = (wn_syz_candidate){ rows[i].id, rows[i].subject, rows[i].date,
					    rows[i].match };
		rows[i].id = rows[i].subject = NULL;
		(*n)++;
	}
	rows_free(rows, nrows);
	if (st != WN_OK) {
		wn_syz_candidates_free(&v, *n);
		*n = 0;
		return st;
	}
	*out = v;
	return WN_OK;
}

void wn_syz_candidates_free(wn_syz_candidate **v, size_t n)
{
	for (size_t i = 0; *v && i < n; i++) {
		free((*v)[i].id);
		free((*v)[i].subject);
	}
	free(*v);
	*v = NULL;
}
