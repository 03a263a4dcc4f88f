/* winnow — verdict memory (memory.h). */
#include "autoconfig.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/map.h"
#include "../index/index-nm.h"
#include "../core/str.h"
#include "winnow/buf.h"
#include "winnow/memory.h"
#include "winnow/series.h"
#include "winnow/similar.h"
#include "winnow/text.h"

/* Words of a title put into a subject phrase query. */
#define TITLE_WORDS 10

/* A finding with a verdict, as read from a candidate review. */
struct judged {
	char *review;
	size_t finding;
	char fp[WN_FP_LEN + 1];
	wn_bot bot;
	wn_verdict verdict;
	wn_reason reason;
	char *note, *subject, *summary, *loc;
	time_t date;
	wn_words words;
	wn_words names;		/* code the summary names */
	wn_sim_quote quote;
};

/* The judged findings at one place. */
struct bucket {
	struct judged **v;
	size_t n;
};

struct wn_memory {
	wn_index *idx;
	const wn_store *store;
	wn_map by_loc;		/* location -> struct bucket */
	wn_map read;		/* review ids read (value: the memory itself) */
	wn_map asked;		/* queries run (value: the memory itself) */
};

static void judged_free(struct judged *j)
{
	free(j->review);
	free(j->note);
	free(j->subject);
	free(j->summary);
	free(j->loc);
	wn_words_free(&j->words);
	wn_words_free(&j->names);
	wn_sim_quote_free(&j->quote);
	free(j);
}

static void bucket_free(void *v)
{
	struct bucket *b = v;

	for (size_t i = 0; i < b->n; i++)
		judged_free(b->v[i]);
	free(b->v);
	free(b);
}

wn_status wn_memory_new(wn_index *idx, const wn_store *store, wn_memory **out, wn_error *err)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	(*out)->idx = idx;
	(*out)->store = store;
	return WN_OK;
}

void wn_memory_free(wn_memory **pm)
{
	wn_memory *m = pm ? *pm : NULL;

	if (!m)
		return;
	wn_map_free(&m->by_loc, bucket_free);
	wn_map_free(&m->read, NULL);
	wn_map_free(&m->asked, NULL);
	free(m);
	*pm = NULL;
}

static const char *subject_of(const wn_item *it)
{
	return it->patch && it->patch->subject ? it->patch->subject : it->subject;
}

/* --- reading candidates ---------------------------------------------------- */

static bool file_judged(wn_memory *m, struct judged *j)
{
	struct bucket *b = wn_map_get(&m->by_loc, j->loc, strlen(j->loc));
	struct judged **nv;

	if (!b) {
		if (!(b = calloc(1, sizeof(*b))) ||
		    wn_map_put(&m->by_loc, j->loc, strlen(j->loc), b) != WN_OK) {
			free(b);
			return false;
		}
	}
	if (!(nv = realloc(b->v, (b->n + 1) * sizeof(*nv))))
		return false;
	nv[b->n++] = j;
	b->v = nv;
	return true;
}

static struct judged *judged_new(const wn_item *it, size_t i)
{
	const wn_finding *f = &it->review->findings[i];
	struct judged *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->review = strdup(it->id);
	j->finding = i + 1;
	memcpy(j->fp, f->fingerprint, sizeof(j->fp));
	j->bot = it->bot;
	j->verdict = it->verdicts[i];
	j->note = wn_strdup0(it->notes ? it->notes[i] : NULL);
	j->reason = it->reasons ? it->reasons[i] : WN_REASON_NONE;
	j->subject = wn_strdup0(subject_of(it));
	j->summary = wn_strdup0(f->summary);
	j->loc = wn_sim_location(f, subject_of(it));
	j->date = it->date;
	if (!j->review || !j->subject || !j->summary ||
	    wn_words_of(f->summary, &j->words) != WN_OK ||
	    wn_names_of(f->summary, &j->names) != WN_OK || wn_sim_quote_of(f->quote, &j->quote) != WN_OK) {
		judged_free(j);
		return NULL;
	}
	return j;
}

/* Keep the judged findings of a loaded candidate.  false: out of memory. */
static bool keep(wn_memory *m, const wn_item *it)
{
	for (size_t i = 0; i < it->review->nfindings; i++) {
		struct judged *j;

		if (it->verdicts[i] == WN_VERDICT_UNTRIAGED)
			continue;
		if (!(j = judged_new(it, i)))
			return false;
		/* Without a place it is like no other finding. */
		if (!j->loc) {
			judged_free(j);
			continue;
		}
		if (!file_judged(m, j)) {
			judged_free(j);
			return false;
		}
	}
	return true;
}

static wn_status read_candidates(wn_memory *m, const char *qs, wn_error *err)
{
	wn_list list = { 0 };
	wn_status st;

	if ((st = wn_index_query(m->idx, qs, &list, err)) != WN_OK)
		return st;
	for (size_t i = 0; st == WN_OK && i < list.n && i < WN_MEMORY_CANDIDATES; i++) {
		wn_item *it = wn_list_get(m->idx, &list, i);

		if (!it || wn_map_get(&m->read, it->id, strlen(it->id)))
			continue;
		if (wn_map_put(&m->read, it->id, strlen(it->id), m) != WN_OK)
			st = WN_NOMEM;
		else if (wn_index_load(m->idx, it, NULL) == WN_OK && !it->load_error) {
			if (m->store)
				wn_store_overlay(m->store, it);
			if (!keep(m, it))
				st = WN_NOMEM;
		}
		wn_list_release(&list, i);
	}
	wn_list_free(&list);
	if (st == WN_NOMEM)
		return wn_error_set(err, st, "out of memory");
	return WN_OK;
}

/* --- the query ------------------------------------------------------------------ */

static bool plain_word(const char *s)
{
	for (; *s; s++)
		if (!str_ident_char((unsigned char) *s) && *s != '.' && *s != '-')
			return false;
	return true;
}

/* What the candidates' text must hold: the function, else the file's
 * own name, else the patch title as a subject phrase. */
static wn_status term(wn_buf *q, const wn_finding *f, const char *subject)
{
	char *fn = wn_sim_function(f->function), *file = wn_sim_path(f->file);
	const char *base = file ? strrchr(file, '/') : NULL;
	wn_subject s;
	wn_status st = WN_NOT_FOUND;

	base = base ? base + 1 : file;
	if (!f->about_commit_msg && fn && plain_word(fn))
		st = wn_buf_printf(q, "\"%s\"", fn);
	else if (!f->about_commit_msg && base && *base && plain_word(base))
		st = wn_buf_printf(q, "\"%s\"", base);
	else if (wn_subject_parse(subject, &s) == WN_OK) {
		size_t words = 0;

		if (*s.title) {
			st = wn_buf_puts(q, "subject:\"");
			for (const char *c = s.title; st == WN_OK && *c && words < TITLE_WORDS; c++) {
				words += *c == ' ';
				if (words < TITLE_WORDS)
					st = wn_buf_putc(q, *c == '"' ? ' ' : *c);
			}
			if (st == WN_OK)
				st = wn_buf_puts(q, "\"");
		}
		wn_subject_clear(&s);
	}
	free(fn);
	free(file);
	return st;
}

/* (verdict tags) and (term): the same for every finding with that term,
 * so a pass over many findings asks notmuch once per function.  A
 * finding that gives no term is looked for by its fingerprint's verdict
 * property instead (its exact repeats only). */
static wn_status build_query(const wn_memory *m, const wn_finding *f, const char *subject,
			     wn_buf *q)
{
	const char *prefix = wn_index_conf(m->idx)->tagprefix;
	wn_buf t = WN_BUF_INIT;
	wn_status st = term(&t, f, subject);
	const char *sep = "";

	if (st == WN_OK) {
		st = wn_buf_puts(q, "(");
		for (int v = 0; st == WN_OK && v < WN_VERDICT_COUNT; v++)
			if (wn_verdict_tag((wn_verdict) v)) {
				st = wn_buf_printf(q, "%stag:\"%s%s\"", sep, prefix,
						   wn_verdict_tag((wn_verdict) v));
				sep = " or ";
			}
		if (st == WN_OK)
			st = wn_buf_printf(q, ") and %s", wn_buf_str(&t));
	} else if (st == WN_NOT_FOUND) {
		st = WN_OK;
		for (int v = 0; st == WN_OK && v < WN_VERDICT_COUNT; v++)
			if (v != WN_VERDICT_UNTRIAGED) {
				st = wn_buf_printf(q, "%sproperty:\"%s%s=%s\"", sep, WN_PROP_VERDICT,
						   f->fingerprint, wn_verdict_name((wn_verdict) v));
				sep = " or ";
			}
	}
	wn_buf_free(&t);
	return st;
}

/* --- lookup --------------------------------------------------------------------- */

/* The judged finding of bucket b most like finding f of review it (at
 * loc, with words w).  Never one of another syzbot bug: see
 * wn_sim_same_bug. */
static const struct judged *best_of(const struct bucket *b, const wn_item *it, const wn_finding *f,
				    const wn_sim_side *me, wn_sim_result *res)
{
	const struct judged *best = NULL;

	memset(res, 0, sizeof(*res));
	for (size_t k = 0; b && k < b->n; k++) {
		const struct judged *j = b->v[k];
		wn_sim_side other = { j->loc, &j->words, &j->names, &j->quote };
		wn_sim_result r;

		if (strcmp(j->review, it->id) == 0 ||
		    !wn_sim_same_bug(it->bot, f->summary, j->bot, j->summary) ||
		    !wn_sim_judge(me, &other, &r))
			continue;
		/* The score, then the words (two with the same code both
		 * reach 1), then the newest. */
		if (!best || r.score > res->score ||
		    (r.score == res->score &&
		     (r.words > res->words || (r.words == res->words && j->date > best->date)))) {
			best = j;
			*res = r;
		}
	}
	return best;
}

static wn_status seen_fill(const struct judged *j, const wn_sim_result *r, wn_seen *out)
{
	out->review = strdup(j->review);
	out->finding = j->finding;
	memcpy(out->fingerprint, j->fp, sizeof(out->fingerprint));
	out->bot = j->bot;
	out->verdict = j->verdict;
	out->note = wn_strdup0(j->note);
	out->reason = j->reason;
	out->patch_subject = strdup(j->subject);
	out->date = j->date;
	out->summary = strdup(j->summary);
	out->score = r->score;
	out->signals = r->signals;
	out->why = wn_sim_why(r->signals, j->loc);
	if (!out->review || !out->patch_subject || !out->summary || (j->note && !out->note)) {
		wn_seen_clear(out);
		return WN_NOMEM;
	}
	return WN_OK;
}

wn_status wn_memory_lookup(wn_memory *m, const wn_item *it, size_t i, wn_seen *out,
			   wn_error *err)
{
	const wn_finding *f;
	const struct judged *best;
	wn_words w = { 0 }, names = { 0 };
	wn_sim_quote quote = { 0 };
	wn_buf q = WN_BUF_INIT;
	char *loc = NULL;
	wn_sim_result res;
	wn_status st;

	memset(out, 0, sizeof(*out));
	if (!it->loaded || !it->review || i >= it->review->nfindings)
		return WN_NOT_FOUND;
	f = &it->review->findings[i];
	if (!(loc = wn_sim_location(f, subject_of(it))))
		return WN_NOT_FOUND;
	st = wn_words_of(f->summary, &w);
	if (st == WN_OK)
		st = wn_names_of(f->summary, &names);
	if (st == WN_OK)
		st = wn_sim_quote_of(f->quote, &quote);
	if (st == WN_OK)
		st = build_query(m, f, subject_of(it), &q);
	if (st == WN_OK && !wn_map_get(&m->asked, q.data, q.len)) {
		if ((st = read_candidates(m, wn_buf_str(&q), err)) == WN_OK &&
		    wn_map_put(&m->asked, q.data, q.len, m) != WN_OK)
			st = WN_NOMEM;
	}
	if (st == WN_OK) {
		wn_sim_side me = { loc, &w, &names, &quote };

		best = best_of(wn_map_get(&m->by_loc, loc, strlen(loc)), it, f, &me, &res);
		st = best ? seen_fill(best, &res, out) : WN_NOT_FOUND;
	}
	free(loc);
	wn_words_free(&w);
	wn_words_free(&names);
	wn_sim_quote_free(&quote);
	wn_buf_free(&q);
	if (st == WN_NOMEM)
		return wn_error_set(err, st, "out of memory");
	return st;
}

void wn_seen_clear(wn_seen *s)
{
	free(s->review);
	free(s->note);
	free(s->patch_subject);
	free(s->summary);
	memset(s, 0, sizeof(*s));
}
