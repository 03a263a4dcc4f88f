/* winnow — the pre-existing ledger (ledger.h).
 *
 * A bug is found again by its fingerprint through one map, or by
 * likeness (wn_sim_alike, as verdict memory judges it) among the bugs
 * at the same place or on the same patch through two more, so adding a
 * review costs a few lookups however long the ledger is. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "../core/map.h"
#include "winnow/ledger.h"
#include "winnow/similar.h"
#include "winnow/text.h"

/* A bug with what matching it needs. */
struct entry {
	wn_ledger_entry pub;
	wn_sim_finding **sims;	/* each placed report's finding; none: matched
				 * by fingerprint only */
	size_t nsims;
};

/* The bugs at one place, or on one patch. */
struct place {
	struct entry **v;
	size_t n;
};

struct wn_ledger {
	struct entry **v;
	size_t n, cap;
	wn_map by_fp;		/* fingerprint -> struct entry */
	wn_map by_loc;		/* place -> struct place */
	wn_map by_patch;	/* wn_sim_patch() -> struct place */
};

wn_status wn_ledger_new(wn_ledger **out, wn_error *err)
{
	*out = calloc(1, sizeof(**out));
	return *out ? WN_OK : wn_error_set(err, WN_NOMEM, "out of memory");
}

static void entry_free(struct entry *e)
{
	wn_ledger_entry *p = &e->pub;

	for (size_t i = 0; i < p->nreports; i++) {
		free(p->reports[i].review);
		free(p->reports[i].patch);
		free(p->reports[i].patch_subject);
	}
	free(p->reports);
	for (size_t i = 0; i < p->nnotes; i++)
		free(p->notes[i]);
	free(p->notes);
	free(p->file);
	free(p->function);
	free(p->summary);
	free(p->list);
	free(p->fixed_by);
	free(p->fixed_subject);
	for (size_t i = 0; i < e->nsims; i++) {
		wn_sim_finding_free(e->sims[i]);
		free(e->sims[i]);
	}
	free(e->sims);
	free(e);
}

static void place_free(void *v)
{
	struct place *pl = v;

	free(pl->v);
	free(pl);
}

void wn_ledger_free(wn_ledger **pl)
{
	wn_ledger *l = pl ? *pl : NULL;

	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		entry_free(l->v[i]);
	free(l->v);
	wn_map_free(&l->by_fp, NULL);
	wn_map_free(&l->by_loc, place_free);
	wn_map_free(&l->by_patch, place_free);
	free(l);
	*pl = NULL;
}

/* --- finding the bug ------------------------------------------------------ */

/* The bug at key in map most like finding me, over *best (score *top). */
static void best_in(wn_map *map, const char *key, const wn_sim_finding *me, struct entry **best,
		    double *top)
{
	struct place *pl = key ? wn_map_get(map, key, strlen(key)) : NULL;

	for (size_t k = 0; pl && k < pl->n; k++)
		for (size_t j = 0; j < pl->v[k]->nsims; j++) {
			wn_sim_result r;

			if (wn_sim_alike(me, pl->v[k]->sims[j], &r) && r.score > *top) {
				*best = pl->v[k];
				*top = r.score;
			}
		}
}

static struct entry *similar_entry(wn_ledger *l, const wn_sim_finding *me)
{
	struct entry *best = NULL;
	double top = 0;

	best_in(&l->by_loc, me->loc, me, &best, &top);
	best_in(&l->by_patch, me->patch, me, &best, &top);
	return best;
}

/* e is among the bugs at key of map (once). */
static bool place_add(wn_map *map, const char *key, struct entry *e)
{
	struct place *pl;
	struct entry **nv;

	if (!key)
		return true;
	if (!(pl = wn_map_get(map, key, strlen(key)))) {
		if (!(pl = calloc(1, sizeof(*pl))) || wn_map_put(map, key, strlen(key), pl) != WN_OK) {
			free(pl);
			return false;
		}
	}
	for (size_t k = 0; k < pl->n; k++)
		if (pl->v[k] == e)
			return true;
	if (!(nv = realloc(pl->v, (pl->n + 1) * sizeof(*nv))))
		return false;
	nv[pl->n++] = e;
	pl->v = nv;
	return true;
}

/* A new bug. */
static struct entry *new_entry(wn_ledger *l, const wn_finding *f)
{
	struct entry *e;

	if (l->n == l->cap) {
		size_t nc = l->cap ? 2 * l->cap : 16;
		struct entry **nv = realloc(l->v, nc * sizeof(*nv));

		if (!nv)
			return NULL;
		l->v = nv;
		l->cap = nc;
	}
	if (!(e = calloc(1, sizeof(*e))))
		return NULL;
	memcpy(e->pub.fingerprint, f->fingerprint, sizeof(e->pub.fingerprint));
	l->v[l->n++] = e;
	return e;
}

/* --- what a report adds ----------------------------------------------------- */

static bool add_note(wn_ledger_entry *p, const char *note)
{
	char **nv;

	if (!note || !*note)
		return true;
	for (size_t i = 0; i < p->nnotes; i++)
		if (strcmp(p->notes[i], note) == 0)
			return true;
	if (!(nv = realloc(p->notes, (p->nnotes + 1) * sizeof(*nv))))
		return false;
	p->notes = nv;
	return (nv[p->nnotes] = strdup(note)) && ++p->nnotes;
}

static bool set_str(char **field, const char *v)
{
	char *c = wn_strdup0(v);

	if (v && !c)
		return false;
	free(*field);
	*field = c;
	return true;
}

/* The newest report says where and what. */
static bool describe(wn_ledger_entry *p, const wn_item *it, const wn_finding *f)
{
	bool code = !f->about_commit_msg;

	p->line = code ? f->line : 0;
	return set_str(&p->file, code ? f->file : NULL) &&
	       set_str(&p->function, code ? f->function : NULL) &&
	       set_str(&p->summary, f->summary) &&
	       set_str(&p->list, it->patch ? it->patch->list : NULL);
}

static bool add_report(wn_ledger_entry *p, const wn_item *it, size_t i)
{
	const wn_finding *f = &it->review->findings[i];
	wn_ledger_report *nr = realloc(p->reports, (p->nreports + 1) * sizeof(*nr)), *r;
	size_t at;

	if (!nr)
		return false;
	p->reports = nr;
	/* Oldest first: reviews come newest first, so mostly at the front. */
	for (at = p->nreports; at > 0 && nr[at - 1].date > it->date; at--)
		;
	memmove(&nr[at + 1], &nr[at], (p->nreports - at) * sizeof(*nr));
	r = &nr[at];
	memset(r, 0, sizeof(*r));
	p->nreports++;
	r->finding = i + 1;
	r->bot = it->bot;
	r->date = it->date;
	if (!(r->review = strdup(it->id)) || !set_str(&r->patch, it->patch ? it->patch->id : NULL) ||
	    !set_str(&r->patch_subject, it->patch ? it->patch->subject : it->subject))
		return false;
	if (p->nreports == 1 || it->date < p->first)
		p->first = it->date;
	if (p->nreports == 1 || it->date >= p->last) {
		p->last = it->date;
		if (!describe(p, it, f))
			return false;
	}
	if (f->severity != WN_SEV_NONE && (p->severity == WN_SEV_NONE || f->severity < p->severity))
		p->severity = f->severity;
	return add_note(p, it->notes ? it->notes[i] : NULL);
}

/* Keep a placed report's finding (taking *sim) where later reports look. */
static bool add_sim(wn_ledger *l, struct entry *e, wn_sim_finding *sim)
{
	wn_sim_finding **nv = realloc(e->sims, (e->nsims + 1) * sizeof(*nv));

	if (!nv)
		return false;
	e->sims = nv;
	if (!(nv[e->nsims] = malloc(sizeof(**nv))))
		return false;
	*nv[e->nsims] = *sim;
	wn_sim_finding_moved(nv[e->nsims]);
	memset(sim, 0, sizeof(*sim));
	e->nsims++;
	return place_add(&l->by_loc, e->sims[e->nsims - 1]->loc, e) &&
	       place_add(&l->by_patch, e->sims[e->nsims - 1]->patch, e);
}

static wn_status add_finding(wn_ledger *l, const wn_item *it, size_t i)
{
	const wn_finding *f = &it->review->findings[i];
	struct entry *e = wn_map_get(&l->by_fp, f->fingerprint, strlen(f->fingerprint));
	wn_sim_finding sim;
	wn_status st = wn_sim_finding_of(it->bot, f, it->patch ? it->patch->subject : it->subject, &sim);
	bool placed = st == WN_OK, ok;

	if (st == WN_NOMEM)
		return st;
	if (!e && placed)
		e = similar_entry(l, &sim);
	if (!e && !(e = new_entry(l, f))) {
		wn_sim_finding_free(&sim);
		return WN_NOMEM;
	}
	ok = (wn_map_get(&l->by_fp, f->fingerprint, strlen(f->fingerprint)) ||
	      wn_map_put(&l->by_fp, f->fingerprint, strlen(f->fingerprint), e) == WN_OK) &&
	     add_report(&e->pub, it, i) && (!placed || add_sim(l, e, &sim));
	wn_sim_finding_free(&sim);
	return ok ? WN_OK : WN_NOMEM;
}

wn_status wn_ledger_add(wn_ledger *l, const wn_item *it)
{
	wn_status st = WN_OK;

	if (!it->loaded || it->load_error || !it->review || !it->verdicts)
		return WN_OK;
	for (size_t i = 0; st == WN_OK && i < it->review->nfindings; i++)
		if (it->verdicts[i] == WN_VERDICT_PREEXISTING)
			st = add_finding(l, it, i);
	return st;
}

/* --- order ----------------------------------------------------------------------- */

static int by_list_then_last(const void *a, const void *b)
{
	const wn_ledger_entry *x = &(*(struct entry *const *) a)->pub;
	const wn_ledger_entry *y = &(*(struct entry *const *) b)->pub;
	int c;

	if (!x->list != !y->list)
		return x->list ? -1 : 1;
	if (x->list && (c = strcmp(x->list, y->list)))
		return c;
	if (x->last != y->last)
		return x->last > y->last ? -1 : 1;
	return strcmp(x->fingerprint, y->fingerprint);
}

void wn_ledger_sort(wn_ledger *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), by_list_then_last);
}

size_t wn_ledger_count(const wn_ledger *l)
{
	return l->n;
}

const wn_ledger_entry *wn_ledger_at(const wn_ledger *l, size_t i)
{
	return i < l->n ? &l->v[i]->pub : NULL;
}

wn_status wn_ledger_set_fixed(wn_ledger *l, size_t i, const char *commit, const char *subject,
			      const char *how)
{
	wn_ledger_entry *p;
	char *c, *s;

	if (i >= l->n)
		return WN_USAGE;
	p = &l->v[i]->pub;
	c = strdup(commit);
	s = wn_text_sanitize(subject ? subject : "", 0);
	if (!c || !s) {
		free(c);
		free(s);
		return WN_NOMEM;
	}
	free(p->fixed_by);
	free(p->fixed_subject);
	p->fixed_by = c;
	p->fixed_subject = s;
	p->fixed_how = how;
	return WN_OK;
}

void wn_ledger_keep_open(wn_ledger *l)
{
	size_t w = 0;

	/* The lookup maps point at entries: emptied, so that none points
	 * at a freed one (adding afterwards is not allowed anyway). */
	wn_map_free(&l->by_fp, NULL);
	wn_map_free(&l->by_loc, place_free);
	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i]->pub.fixed_by)
			entry_free(l->v[i]);
		else
			l->v[w++] = l->v[i];
	}
	l->n = w;
}
