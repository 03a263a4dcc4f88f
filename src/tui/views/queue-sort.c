/* winnow TUI — the queue's orders (queue-private.h): newest first, by
 * severity, by untriaged findings, grouped by series under the cover
 * letter's title, newest version first, or newcomers' patches first.  The patch subjects are
 * taken apart by the library (wn_subject_parse), the one parser of
 * "[PATCH v2 3/5]"; this file only turns what it says into rows. */
#include "autoconfig.h"

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/subject.h"
#include "queue-private.h"

static const char *const sort_names[QS_COUNT] = {
#define QS_X_(e, name, help) name,
	QUEUE_SORTS(QS_X_)
#undef QS_X_
};

const char *queue_sort_name(enum qsort sort)
{
	return sort_names[sort];
}

void queue_free_rows(struct queue *q)
{
	for (size_t i = 0; i < q->ngroups; i++)
		free(q->groups[i].title);
	free(q->groups);
	free(q->rows);
	q->groups = NULL;
	q->rows = NULL;
	q->ngroups = q->nrows = 0;
}

void queue_free_sums(struct queue *q)
{
	free(q->sums);
	q->sums = NULL;
	q->sums_stale = false;
}

void queue_free_series(struct queue *q)
{
	for (size_t i = 0; i < q->ntitles; i++)
		free(q->titles[i]);
	free(q->titles);
	free(q->tslots);
	q->titles = NULL;
	q->tslots = NULL;
	q->ntitles = q->tcap = 0;
	q->series = false;
	for (size_t i = 0; q->sums && i < q->list.n; i++)
		q->sums[i].title = 0;
}

/* GLib's string hash (GMime links GLib): the rows' ids and the series
 * titles need one within this process only, never stored. */
uint32_t queue_id_hash(const char *id)
{
	return (uint32_t) g_str_hash(id);
}

/* Most severe first: critical, high and error, medium and warning, low
 * and note, unknown, none. */
static int severity_rank(wn_severity s)
{
	switch (s) {
	case WN_SEV_CRITICAL: return 0;
	case WN_SEV_HIGH: case WN_SEV_ERROR: return 1;
	case WN_SEV_MEDIUM: case WN_SEV_WARNING: return 2;
	case WN_SEV_LOW: case WN_SEV_NOTE: return 3;
	case WN_SEV_UNKNOWN: return 4;
	default: return 5;
	}
}

wn_severity queue_top_severity(const wn_item *it)
{
	wn_severity best = WN_SEV_NONE;

	for (size_t i = 0; it->review && i < it->review->nfindings; i++) {
		wn_severity s = it->review->findings[i].severity;

		if (i == 0 || severity_rank(s) < severity_rank(best))
			best = s;
	}
	return best;
}

bool queue_sum(struct queue *q, size_t i, const wn_item *it)
{
	struct qsum *s = q->sums ? &q->sums[i] : NULL;
	unsigned untriaged = it->counts[WN_VERDICT_UNTRIAGED];

	/* A row not read (again) leaves what its reading kept. */
	if (!s || (!it->loaded && s->read))
		return true;
	/* Who answered is read apart (wn_index_load_who): until it is,
	 * what was kept holds. */
	s->newcomer = it->who_read || !s->read ? it->newcomer : s->newcomer;
	s->read = true;
	s->stale = false;
	s->empty = it->loaded && !it->load_error && !queue_nfindings(it);
	s->sev_rank = (int8_t) severity_rank(queue_top_severity(it));
	s->untriaged = untriaged > UINT32_MAX ? UINT32_MAX : (uint32_t) untriaged;
	s->idhash = queue_id_hash(it->id);
	return true;
}

/* The index + 1 of title in q->titles, added if new; 0 when out of
 * memory.  Hashed: a large index has tens of thousands of series. */
static uint32_t intern_title(struct queue *q, const char *title)
{
	uint32_t h = queue_id_hash(title);
	size_t at;

	if (2 * (q->ntitles + 1) > q->tcap) {
		size_t cap = q->tcap ? 2 * q->tcap : 64;
		uint32_t *slots = calloc(cap, sizeof(*slots));
		char **grown = realloc(q->titles, cap / 2 * sizeof(*grown));

		if (grown)
			q->titles = grown;
		if (!slots || !grown) {
			free(slots);
			return 0;
		}
		for (size_t k = 0; k < q->ntitles; k++) {
			for (at = queue_id_hash(q->titles[k]) & (cap - 1); slots[at];
			     at = (at + 1) & (cap - 1))
				;
			slots[at] = (uint32_t) k + 1;
		}
		free(q->tslots);
		q->tslots = slots;
		q->tcap = cap;
	}
	for (at = h & (q->tcap - 1); q->tslots[at]; at = (at + 1) & (q->tcap - 1))
		if (!strcmp(q->titles[q->tslots[at] - 1], title))
			return q->tslots[at];
	if (q->ntitles >= UINT32_MAX - 1 || !(q->titles[q->ntitles] = strdup(title)))
		return 0;
	q->tslots[at] = (uint32_t) ++q->ntitles;
	return q->tslots[at];
}

bool queue_sum_series(struct queue *q, size_t i, const wn_item *it, const char *cover)
{
	struct qsum *s = q->sums ? &q->sums[i] : NULL;
	const char *subject = it->loaded && it->patch ? it->patch->subject : it->subject;
	wn_subject ps, cs;

	if (!s)
		return true;
	if (!cover)
		cover = subject;
	/* Out of memory leaves a wn_subject zeroed: the review is then
	 * grouped under its whole subject, as v1, and still shown. */
	if (wn_subject_parse(subject, &ps) != WN_OK)
		ps.version = 1;
	if (cover == subject)
		cs = ps;
	else
		wn_subject_parse(cover, &cs);
	/* The heading shows the cover letter's title as written, and v1,
	 * v2 and v3 fall together under it. */
	s->title = intern_title(q, cover ? cover + cs.title_at : "");
	s->version = ps.version;
	s->part = ps.part;
	if (cover != subject)
		wn_subject_clear(&cs);
	wn_subject_clear(&ps);
	return s->title != 0;
}

struct skey {
	uint32_t item;
	int32_t rank;	/* severity rank, or untriaged count negated */
	uint32_t group; /* series: index of the first review of its group */
	int32_t version, part;
};

static int cmp_keys(const void *a, const void *b)
{
	const struct skey *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->version != y->version)
		return x->version > y->version ? -1 : 1;	/* newest version first */
	if (x->part != y->part)
		return x->part < y->part ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->item < y->item ? -1 : x->item > y->item;	/* then by date */
}

/* A new group titled title; false when out of memory (no group to fall
 * back on may exist yet: the caller gives up the order). */
static bool group_new(struct queue *q, const char *title, size_t *out)
{
	struct qgroup *grown;
	char *dup;

	if (!(dup = strdup(title)))
		return false;
	if (!(grown = realloc(q->groups, (q->ngroups + 1) * sizeof(*grown)))) {
		free(dup);
		return false;
	}
	q->groups = grown;
	memset(&q->groups[q->ngroups], 0, sizeof(*q->groups));
	q->groups[q->ngroups].title = dup;
	*out = q->ngroups++;
	return true;
}

static void add_version(struct qgroup *g, int version)
{
	char v[12];

	snprintf(v, sizeof(v), "v%d", version);
	if (!strstr(g->versions, v) && strlen(g->versions) + strlen(v) + 2 < sizeof(g->versions))
		snprintf(g->versions + strlen(g->versions), sizeof(g->versions) - strlen(g->versions),
			 "%s%s", g->versions[0] ? " " : "", v);
}

/* The key of review i for the current order, from what was kept of it;
 * groups[title] the group of each series title met so far (SIZE_MAX:
 * none yet), in the order first met.  False when out of memory. */
static bool key_of(struct queue *q, size_t i, size_t *groups, struct skey *k)
{
	const struct qsum *s = &q->sums[i];

	memset(k, 0, sizeof(*k));
	k->item = (uint32_t) i;
	if (q->sort == QS_SEVERITY)
		k->rank = s->sev_rank;
	else if (q->sort == QS_UNTRIAGED)
		k->rank = s->untriaged > INT32_MAX ? INT32_MIN + 1 : -(int) s->untriaged;
	else if (q->sort == QS_NEWCOMER)
		k->rank = s->newcomer ? 0 : 1;
	if (q->sort == QS_SERIES) {
		size_t *g = s->title ? &groups[s->title - 1] : NULL;

		if (!g || (*g == SIZE_MAX && !group_new(q, q->titles[s->title - 1], g)))
			return false;
		k->group = (uint32_t) *g;
		k->version = s->version;
		k->part = s->part;
		add_version(&q->groups[k->group], k->version);
		q->groups[k->group].n++;
	}
	return true;
}

bool queue_order(struct tui *t, struct queue *q)
{
	struct skey *keys = calloc(q->list.n ? q->list.n : 1, sizeof(*keys));
	size_t *groups = calloc(q->ntitles ? q->ntitles : 1, sizeof(*groups));
	size_t n = 0;

	queue_free_rows(q);
	/* Rows name reviews and groups in 32 and 31 bits. */
	if (!keys || !groups || !q->sums || q->list.n > INT32_MAX) {
		free(keys);
		free(groups);
		return false;
	}
	for (size_t g = 0; g < q->ntitles; g++)
		groups[g] = SIZE_MAX;
	/* The reviews read now may have changed (a verdict) since kept. */
	for (size_t i = 0; i < q->list.fetched; i++)
		if (q->list.items[i] && q->list.items[i]->loaded)
			queue_sum(q, i, q->list.items[i]);
	for (size_t i = 0; i < q->list.n; i++) {
		if (!q->sums[i].read || (t->hide_empty && q->sums[i].empty))
			continue;
		if (!key_of(q, i, groups, &keys[n++])) {
			free(keys);
			free(groups);
			return false;
		}
	}
	free(groups);
	qsort(keys, n, sizeof(*keys), cmp_keys);
	q->rows = calloc(n + q->ngroups + 1, sizeof(*q->rows));
	for (size_t i = 0; q->rows && i < n; i++) {
		if (q->sort == QS_SERIES && (i == 0 || keys[i].group != keys[i - 1].group)) {
			q->rows[q->nrows].heading = true;
			q->rows[q->nrows++].group = keys[i].group;
		}
		q->rows[q->nrows++].item = keys[i].item;
	}
	free(keys);
	return true;
}
