/* winnow — verdict memory (memory.h). */
#include "autoconfig.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/map.h"
#include "../index/index-nm.h"
#include "../index/message.h"
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
	wn_verdict verdict;
	wn_reason reason;
	char *note, *subject;
	time_t date;
	wn_sim_finding sim;	/* what likeness compares */
};

/* The judged findings at one place. */
struct bucket {
	struct judged **v;
	size_t n;
};

struct wn_memory {
	wn_index *idx;
	const wn_store *store;
	wn_map by_loc;		/* location -> struct bucket (owns the findings) */
	wn_map by_patch;	/* wn_sim_patch() -> struct bucket (borrows them) */
	wn_map by_fp;		/* fingerprint -> struct bucket (borrows them):
				 * identical findings wherever they sit */
	wn_map read;		/* review ids read (value: the memory itself) */
	wn_map asked;		/* queries run (value: the memory itself) */
	/* Whether any message carries a verdict tag, asked once for each
	 * revision the handle reads (judged_gen: its generation + 1). */
	bool judged_any;
	unsigned long judged_gen;
};

static void judged_free(struct judged *j)
{
	free(j->review);
	free(j->note);
	free(j->subject);
	wn_sim_finding_free(&j->sim);
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

static void bucket_borrowed_free(void *v)
{
	struct bucket *b = v;

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
	wn_map_free(&m->by_patch, bucket_borrowed_free);
	wn_map_free(&m->by_fp, bucket_borrowed_free);
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

static bool bucket_add(wn_map *map, const char *key, struct judged *j)
{
	struct bucket *b = wn_map_get(map, key, strlen(key));
	struct judged **nv;

	if (!b) {
		if (!(b = calloc(1, sizeof(*b))) || wn_map_put(map, key, strlen(key), b) != WN_OK) {
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

/* By place, which owns j, then by patch.  false: out of memory, and j
 * is owned when it is in by_loc. */
static bool file_judged(wn_memory *m, struct judged *j, bool *owned)
{
	*owned = bucket_add(&m->by_loc, j->sim.loc, j);
	return *owned && (!j->sim.patch || bucket_add(&m->by_patch, j->sim.patch, j)) &&
	       bucket_add(&m->by_fp, j->fp, j);
}

/* Finding i of it, judged.  WN_NOT_FOUND: it has no place, and is like
 * no other finding; WN_NOMEM. */
static wn_status judged_new(const wn_item *it, size_t i, struct judged **out)
{
	const wn_finding *f = &it->review->findings[i];
	struct judged *j = calloc(1, sizeof(*j));
	wn_status st;

	*out = NULL;
	if (!j)
		return WN_NOMEM;
	if ((st = wn_sim_finding_of(it->bot, f, subject_of(it), &j->sim)) != WN_OK) {
		free(j);
		return st;
	}
	j->review = strdup(it->id);
	j->finding = i + 1;
	memcpy(j->fp, f->fingerprint, sizeof(j->fp));
	j->verdict = it->verdicts[i];
	j->note = wn_strdup0(it->notes ? it->notes[i] : NULL);
	j->reason = it->reasons ? it->reasons[i] : WN_REASON_NONE;
	j->subject = wn_strdup0(subject_of(it));
	j->date = it->date;
	if (!j->review || !j->subject || (it->notes && it->notes[i] && !j->note)) {
		judged_free(j);
		return WN_NOMEM;
	}
	*out = j;
	return WN_OK;
}

/* Keep the judged findings of a loaded candidate.  false: out of memory. */
static bool keep(wn_memory *m, const wn_item *it)
{
	for (size_t i = 0; i < it->review->nfindings; i++) {
		struct judged *j;
		wn_status st;
		bool owned;

		if (it->verdicts[i] == WN_VERDICT_UNTRIAGED)
			continue;
		if ((st = judged_new(it, i, &j)) == WN_NOT_FOUND)
			continue;
		if (st != WN_OK)
			return false;
		if (!file_judged(m, j, &owned)) {
			if (!owned)
				judged_free(j);
			return false;
		}
	}
	return true;
}

/* The ids of the newest WN_MEMORY_CANDIDATES messages query qs matches
 * (search.exclude_tags left out, as every list of reviews does), into
 * ids.  Not through wn_index_query(): that adds winnow.query, whose
 * bots' terms hold regular expressions (a subject that is a patch)
 * that libnotmuch compiles at every search and keeps: a carry over
 * 100,000 messages asked notmuch a query per finding and grew to 800
 * MiB and 90 s.  A candidate is judged, and only a review is ever
 * judged, so the bots' terms narrow nothing here. */
/* The search of the candidates failed with nst (a hook lets the tests
 * make it fail). */
static notmuch_status_t candidates_search(notmuch_query_t *q, notmuch_messages_t **ms)
{
#ifdef WN_TEST_HOOKS
	if (getenv("WINNOW_TEST_CANDIDATES_FAIL")) {
		*ms = NULL;
		return NOTMUCH_STATUS_XAPIAN_EXCEPTION;
	}
#endif
	return notmuch_query_search_messages(q, ms);
}

static wn_status candidate_ids(wn_memory *m, const char *qs, char ***ids, size_t *n, wn_error *err)
{
	notmuch_query_t *q = wn_index_query_new(m->idx, qs);
	notmuch_messages_t *ms = NULL;
	notmuch_status_t nst;
	wn_status st = WN_OK;

	*ids = NULL;
	*n = 0;
	if (!q)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	notmuch_query_set_sort(q, NOTMUCH_SORT_NEWEST_FIRST);
	for (const char *const *t = wn_index_exclude_tags(m->idx); t && *t; t++)
		notmuch_query_add_tag_exclude(q, *t);
	notmuch_query_set_omit_excluded(q, NOTMUCH_EXCLUDE_TRUE);
	/* A search that fails is an error, not "no verdict to carry":
	 * carry would say nothing applies where notmuch could not tell. */
	if ((nst = candidates_search(q, &ms)) != NOTMUCH_STATUS_SUCCESS) {
		notmuch_query_destroy(q);
		return wn_nm_error(err, nst, NULL,
				   "notmuch cannot search the verdicts given before");
	}
	for (; ms && st == WN_OK && *n < WN_MEMORY_CANDIDATES && notmuch_messages_valid(ms);
	     notmuch_messages_move_to_next(ms)) {
		notmuch_message_t *msg = notmuch_messages_get(ms);
		const char *id = msg ? wn_message_id(msg) : NULL;
		char **nv;

		if (id && *id && (nv = realloc(*ids, (*n + 1) * sizeof(*nv)))) {
			*ids = nv;
			if (((*ids)[*n] = strdup(id)))
				(*n)++;
			else
				st = WN_NOMEM;
		} else if (id && *id) {
			st = WN_NOMEM;
		}
		if (msg)
			notmuch_message_destroy(msg);
	}
	notmuch_query_destroy(q);
	return st == WN_OK ? WN_OK : wn_error_set(err, st, "out of memory");
}

static wn_status read_candidates(wn_memory *m, const char *qs, wn_error *err)
{
	char **ids;
	size_t n;
	wn_status st = candidate_ids(m, qs, &ids, &n, err), found = st;

	for (size_t i = 0; st == WN_OK && i < n; i++) {
		wn_item *it = NULL;

		if (wn_map_get(&m->read, ids[i], strlen(ids[i])))
			continue;
		if (wn_map_put(&m->read, ids[i], strlen(ids[i]), m) != WN_OK)
			st = WN_NOMEM;
		else if (wn_index_find(m->idx, ids[i], &it, NULL) == WN_OK && it->loaded &&
			 !it->load_error && it->review && it->verdicts) {
			if (m->store)
				wn_store_overlay(m->store, it);
			if (!keep(m, it))
				st = WN_NOMEM;
		}
		wn_item_free(&it);
	}
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	if (found != WN_OK)
		return found; /* err says why */
	if (st == WN_NOMEM)
		return wn_error_set(err, st, "out of memory");
	return WN_OK;
}

/* The reviews given a verdict in the journal that notmuch does not hold
 * yet (while another process holds the write lock): no query of
 * notmuch's verdict tags finds them, yet the verdict given minutes ago
 * on patch 1/2 is the one patch 2/2's identical finding wants.  Read
 * once per set of such reviews, like a query. */
static wn_status read_journaled(wn_memory *m, wn_error *err)
{
	wn_buf key = WN_BUF_INIT;
	char **ids = NULL;
	size_t n = 0;
	wn_status st;

	if (!m->store || wn_store_pending(m->store) == 0)
		return WN_OK;
	if ((st = wn_store_pending_judged(m->store, &ids, &n, err)) != WN_OK)
		return st;
	for (size_t i = 0; i < n; i++)
		wn_buf_printf(&key, "\x1fjournal %s", ids[i]);
	if ((st = wn_buf_status(&key)) == WN_OK && n && !wn_map_get(&m->asked, key.data, key.len)) {
		for (size_t i = 0; st == WN_OK && i < n && i < WN_MEMORY_CANDIDATES; i++) {
			wn_item *it = NULL;

			if (wn_map_get(&m->read, ids[i], strlen(ids[i])))
				continue;
			if (wn_map_put(&m->read, ids[i], strlen(ids[i]), m) != WN_OK) {
				st = WN_NOMEM;
			} else if (wn_index_find(m->idx, ids[i], &it, NULL) == WN_OK && it->loaded &&
				   !it->load_error && it->review && it->verdicts) {
				wn_store_overlay(m->store, it);
				if (!keep(m, it))
					st = WN_NOMEM;
			}
			wn_item_free(&it);
		}
		if (st == WN_OK && wn_map_put(&m->asked, key.data, key.len, m) != WN_OK)
			st = WN_NOMEM;
	}
	wn_buf_free(&key);
	wn_store_ids_free(ids, n);
	if (st == WN_NOMEM)
		return wn_error_set(err, st, "out of memory");
	return st;
}

/* --- the query ------------------------------------------------------------------ */

static bool plain_word(const char *s)
{
	for (; *s; s++)
		if (!str_ident_char((unsigned char) *s) && *s != '.' && *s != '-')
			return false;
	return true;
}

/* The patch's title as a subject phrase: the reviews of every version
 * of the patch.  WN_NOT_FOUND without a title. */
static wn_status title_term(wn_buf *q, const char *subject)
{
	wn_subject s;
	wn_status st = WN_NOT_FOUND;
	size_t words = 0;

	if (wn_subject_parse(subject, &s) != WN_OK)
		return WN_NOT_FOUND;
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
	return st;
}

/* What the candidates' text must hold: the function, else the file's
 * own name, else the patch title as a subject phrase. */
static wn_status term(wn_buf *q, const wn_finding *f, const char *subject)
{
	char *fn = wn_sim_function(f->function), *file = wn_diff_path(f->file);
	const char *base = file ? strrchr(file, '/') : NULL;
	wn_status st;

	base = base ? base + 1 : file;
	if (!f->about_commit_msg && fn && plain_word(fn))
		st = wn_buf_printf(q, "\"%s\"", fn);
	else if (!f->about_commit_msg && base && *base && plain_word(base))
		st = wn_buf_printf(q, "\"%s\"", base);
	else
		st = title_term(q, subject);
	free(fn);
	free(file);
	return st;
}

/* The reviews holding a verdict of f's fingerprint: its exact repeats,
 * wherever they are placed (a sibling patch of the series). */
static wn_status fp_query(const wn_finding *f, wn_buf *q)
{
	const char *sep = "";
	wn_status st = WN_OK;

	for (int v = 0; st == WN_OK && v < WN_VERDICT_COUNT; v++)
		if (v != WN_VERDICT_UNTRIAGED) {
			st = wn_buf_printf(q, "%sproperty:\"%s%s=%s\"", sep, WN_PROP_VERDICT,
					   f->fingerprint, wn_verdict_name((wn_verdict) v));
			sep = " or ";
		}
	return st;
}

/* (verdict tags) and (term): the same for every finding with that term,
 * so a pass over many findings asks notmuch once per function.  A
 * finding that gives no term is looked for by its fingerprint's verdict
 * property instead (its exact repeats only).  by_patch: the term is the
 * patch's title, for the patch route (similar.h), and WN_NOT_FOUND when
 * it has none. */
static wn_status build_query(const wn_memory *m, const wn_finding *f, const char *subject,
			     bool by_patch, wn_buf *q)
{
	const char *prefix = wn_index_conf(m->idx)->tagprefix;
	wn_buf t = WN_BUF_INIT;
	wn_status st = by_patch ? title_term(&t, subject) : term(&t, f, subject);
	const char *sep = "";

	if (by_patch && st == WN_NOT_FOUND)
		return st;
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
		st = fp_query(f, q);
	}
	wn_buf_free(&t);
	return st;
}

/* --- lookup --------------------------------------------------------------------- */

/* Judged findings a lookup passes over (claimed: see wn_memory_lookup). */
#define CLAIMED_MAX 8

/* A judged finding like the one looked up. */
struct cand {
	const struct judged *j;
	wn_sim_result r;
	bool ident;		/* wn_sim_identical */
};

struct cands {
	struct cand *v;
	size_t n, cap;
};

static bool skipped(const struct judged *j, const struct judged *const *skip, size_t nskip)
{
	for (size_t k = 0; k < nskip; k++)
		if (skip[k] == j)
			return true;
	return false;
}

/* The judged findings of bucket b like finding me of review it, but
 * those in skip and those had already.  Never one of another syzbot
 * bug: see wn_sim_same_bug.  false: out of memory. */
static bool gather(struct cands *c, const struct bucket *b, const wn_item *it,
		   const wn_sim_finding *me, const struct judged *const *skip, size_t nskip)
{
	for (size_t k = 0; b && k < b->n; k++) {
		const struct judged *j = b->v[k];
		struct cand x = { .j = j };
		bool had = false;

		for (size_t h = 0; h < c->n && !had; h++)
			had = c->v[h].j == j;
		if (had || strcmp(j->review, it->id) == 0 || skipped(j, skip, nskip))
			continue;
		x.ident = wn_sim_same_bug(me->bot, me->summary, j->sim.bot, j->sim.summary) &&
			  wn_sim_identical(me, &j->sim);
		if (!wn_sim_alike(me, &j->sim, &x.r) && !x.ident)
			continue;
		if (x.ident) {
			x.r.score = x.r.words = 1;
			x.r.signals |= WN_SIM_SAME;
		}
		if (c->n == c->cap) {
			size_t nc = c->cap ? 2 * c->cap : 8;
			struct cand *nv = realloc(c->v, nc * sizeof(*nv));

			if (!nv)
				return false;
			c->v = nv;
			c->cap = nc;
		}
		c->v[c->n++] = x;
	}
	return true;
}

/* The patch route's score when it reaches the threshold: a judged
 * finding on the patch's other version outranks one elsewhere. */
static double patch_rank(const struct cand *x)
{
	return x->r.patch >= WN_SIM_THRESHOLD ? x->r.patch : 0;
}

/* Does a come before b: identical, then the same patch by the patch
 * route, then the score, then the words (two with the same code both
 * reach 1), then the newest. */
static bool before(const struct cand *a, const struct cand *b)
{
	if (a->ident != b->ident)
		return a->ident;
	if (patch_rank(a) != patch_rank(b))
		return patch_rank(a) > patch_rank(b);
	if (a->r.score != b->r.score)
		return a->r.score > b->r.score;
	if (a->r.words != b->r.words)
		return a->r.words > b->r.words;
	return a->j->date > b->j->date;
}

/* How alike x is, on the scale its kind of match is judged by. */
static double level(const struct cand *x, const struct cand *best)
{
	if (best->ident)
		return x->ident ? 1 : 0;
	return patch_rank(best) > 0 ? x->r.patch : x->r.score;
}

/* Is j more like another finding of it than finding i (score)?  Then
 * that one repeats j, not i.  by_patch: compare the patch route's
 * scores, and count a rival within WN_SIM_MARGIN (for a sure carry). */
static wn_status claimed(const wn_item *it, size_t i, const struct judged *j, double score,
			 bool by_patch, bool *out)
{
	wn_status st = WN_OK;

	*out = false;
	for (size_t k = 0; st == WN_OK && !*out && k < it->review->nfindings; k++) {
		wn_sim_finding d;
		wn_sim_result r;

		if (k == i)
			continue;
		if ((st = wn_sim_finding_of(it->bot, &it->review->findings[k], subject_of(it), &d)) ==
		    WN_NOT_FOUND) {
			st = WN_OK;
			continue;
		}
		if (st == WN_OK) {
			bool like = wn_sim_alike(&d, &j->sim, &r);

			*out = by_patch ? r.patch > score - WN_SIM_MARGIN : like && r.score > score;
		}
		wn_sim_finding_free(&d);
	}
	return st;
}

static wn_status seen_fill(const struct judged *j, const wn_sim_result *r, wn_seen *out)
{
	out->review = strdup(j->review);
	out->finding = j->finding;
	memcpy(out->fingerprint, j->fp, sizeof(out->fingerprint));
	out->bot = j->sim.bot;
	out->verdict = j->verdict;
	out->note = wn_strdup0(j->note);
	out->reason = j->reason;
	out->patch_subject = strdup(j->subject);
	out->date = j->date;
	out->summary = strdup(j->sim.summary ? j->sim.summary : "");
	out->score = r->score;
	out->signals = r->signals;
	out->why = wn_sim_why(r->signals, j->sim.loc);
	if (!out->review || !out->patch_subject || !out->summary || (j->note && !out->note)) {
		wn_seen_clear(out);
		return WN_NOMEM;
	}
	return WN_OK;
}

/* Read the candidates query q names, unless it was asked before. */
static wn_status ask(wn_memory *m, const wn_buf *q, wn_error *err)
{
	wn_status st = WN_OK;

	if (!wn_map_get(&m->asked, q->data, q->len)) {
		if ((st = read_candidates(m, wn_buf_str(q), err)) == WN_OK &&
		    wn_map_put(&m->asked, q->data, q->len, m) != WN_OK)
			st = WN_NOMEM;
	}
	return st;
}

/* The best match of finding i (me) among the candidates read, into
 * c->v[*best] (c->n: none).  A match by the patch route only stands
 * when no other finding of the review is more like the judged one: a
 * finding of v1 is repeated by one finding of v3, the most alike, so two
 * new problems at one spot of a patch do not both take the verdict of
 * the one judged before. */
static wn_status best_match(wn_memory *m, const wn_item *it, size_t i, const wn_sim_finding *me,
			    struct cands *c, size_t *best)
{
	const struct judged *skip[CLAIMED_MAX];
	size_t nskip = 0;
	wn_status st = WN_OK;
	bool taken = true;

	while (st == WN_OK && taken) {
		c->n = 0;
		*best = 0;
		if (!gather(c, wn_map_get(&m->by_loc, me->loc, strlen(me->loc)), it, me, skip, nskip) ||
		    (me->patch && !gather(c, wn_map_get(&m->by_patch, me->patch, strlen(me->patch)), it,
					  me, skip, nskip)) ||
		    !gather(c, wn_map_get(&m->by_fp, it->review->findings[i].fingerprint,
					  strlen(it->review->findings[i].fingerprint)),
			    it, me, skip, nskip))
			return WN_NOMEM;
		for (size_t k = 1; k < c->n; k++)
			if (before(&c->v[k], &c->v[*best]))
				*best = k;
		if (!c->n || c->v[*best].ident || !(c->v[*best].r.signals & WN_SIM_PATCH))
			break;
		if ((st = claimed(it, i, c->v[*best].j, c->v[*best].r.score, false, &taken)) == WN_OK &&
		    taken) {
			if (nskip == CLAIMED_MAX)
				c->n = 0;
			else
				skip[nskip++] = c->v[*best].j;
			taken = c->n > 0;
		}
	}
	if (!c->n)
		*best = 0;
	return st;
}

/* Sure or a suggestion (see wn_seen), and the close second shown
 * beside it.  The second counts when it would give another verdict or
 * is another finding of the same review: then which finding is repeated
 * is not clear, and equal scores never silently pick one. */
static wn_status decide(const wn_item *it, size_t i, const struct cands *c, size_t best,
			wn_seen *out)
{
	const struct cand *b = &c->v[best], *alt = NULL;
	double top = level(b, b);
	wn_status st = WN_OK;
	bool rival = false;

	for (size_t k = 0; k < c->n; k++) {
		const struct cand *x = &c->v[k];

		if (k == best || (x->j->verdict == b->j->verdict && strcmp(x->j->review, b->j->review)))
			continue;
		if (level(x, b) > top - WN_SIM_MARGIN && (!alt || before(x, alt)))
			alt = x;
	}
	if (b->ident)
		out->sure = !alt;
	else if (patch_rank(b) > 0 && !alt &&
		 (st = claimed(it, i, b->j, b->r.patch, true, &rival)) == WN_OK)
		out->sure = !rival;
	if (st == WN_OK && alt) {
		out->alt_review = strdup(alt->j->review);
		out->alt_finding = alt->j->finding;
		out->alt_verdict = alt->j->verdict;
		out->alt_summary = strdup(alt->j->sim.summary ? alt->j->sim.summary : "");
		if (!out->alt_review || !out->alt_summary)
			st = WN_NOMEM;
	}
	return st;
}

/* Could any judged finding be found?  Not when no message carries a
 * verdict tag (the store keeps them in step with the verdicts) and the
 * journal holds none: then every lookup of a pass would ask notmuch
 * three queries for nothing (a first carry over a new index). */
static bool judged_any(wn_memory *m)
{
	unsigned long gen = wn_index_generation(m->idx) + 1;
	const char *prefix = wn_index_conf(m->idx)->tagprefix;
	wn_buf q = WN_BUF_INIT;
	const char *sep = "";
	notmuch_query_t *nq;
	unsigned count = 1;

	if (m->store && wn_store_pending(m->store) > 0)
		return true;
	if (m->judged_gen == gen)
		return m->judged_any;
	for (int v = 0; v < WN_VERDICT_COUNT; v++)
		if (wn_verdict_tag((wn_verdict) v)) {
			wn_buf_printf(&q, "%stag:\"%s%s\"", sep, prefix,
				      wn_verdict_tag((wn_verdict) v));
			sep = " or ";
		}
	/* Unsure (out of memory, a failed count) is "maybe": ask. */
	if (wn_buf_status(&q) == WN_OK && (nq = wn_index_query_new(m->idx, wn_buf_str(&q)))) {
		if (notmuch_query_count_messages(nq, &count) != NOTMUCH_STATUS_SUCCESS)
			count = 1;
		notmuch_query_destroy(nq);
	}
	wn_buf_free(&q);
	m->judged_any = count > 0;
	m->judged_gen = gen;
	return m->judged_any;
}

wn_status wn_memory_lookup(wn_memory *m, const wn_item *it, size_t i, wn_seen *out,
			   wn_error *err)
{
	wn_buf q = WN_BUF_INIT, qp = WN_BUF_INIT, qf = WN_BUF_INIT;
	struct cands c = { 0 };
	wn_sim_finding me;
	size_t best = 0;
	wn_status st;

	memset(out, 0, sizeof(*out));
	if (!it->loaded || !it->review || i >= it->review->nfindings || !judged_any(m))
		return WN_NOT_FOUND;
	if ((st = wn_sim_finding_of(it->bot, &it->review->findings[i], subject_of(it), &me)) != WN_OK)
		return st == WN_NOMEM ? wn_error_set(err, st, "out of memory") : st;
	st = build_query(m, &it->review->findings[i], subject_of(it), false, &q);
	if (st == WN_OK)
		st = ask(m, &q, err);
	/* The patch route's candidates: the judged reviews of the patch's
	 * other versions, wherever their findings sit. */
	if (st == WN_OK && me.patch &&
	    (st = build_query(m, &it->review->findings[i], subject_of(it), true, &qp)) == WN_OK)
		st = ask(m, &qp, err);
	/* Identical findings wherever they sit: a sibling patch of the
	 * series, placed at its own title. */
	if (st == WN_OK && (st = fp_query(&it->review->findings[i], &qf)) == WN_OK)
		st = ask(m, &qf, err);
	if (st == WN_OK)
		st = read_journaled(m, err);
	if (st == WN_OK)
		st = best_match(m, it, i, &me, &c, &best);
	if (st == WN_OK)
		st = c.n ? seen_fill(c.v[best].j, &c.v[best].r, out) : WN_NOT_FOUND;
	if (st == WN_OK && (st = decide(it, i, &c, best, out)) != WN_OK)
		wn_seen_clear(out);
	free(c.v);
	wn_sim_finding_free(&me);
	wn_buf_free(&q);
	wn_buf_free(&qp);
	wn_buf_free(&qf);
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
	free(s->alt_review);
	free(s->alt_summary);
	memset(s, 0, sizeof(*s));
}
