/* winnow TUI — the queue's orders (queue-private.h): newest first, by
 * severity, by untriaged findings, grouped by series under the cover
 * letter's title, newest version first, or newcomers' patches first.  The patch subjects are
 * taken apart by the library (wn_subject_parse), the one parser of
 * "[PATCH v2 3/5]"; this file only turns what it says into rows. */
#include "autoconfig.h"

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
	if (q->sums)
		for (size_t i = 0; i < q->list.n; i++)
			free(q->sums[i].subject);
	free(q->sums);
	q->sums = NULL;
}

void queue_free_series(struct queue *q)
{
	if (q->series)
		for (size_t i = 0; i < q->list.n; i++)
			free(q->series[i]);
	free(q->series);
	q->series = NULL;
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
	const char *subject = it->patch ? it->patch->subject : NULL;

	bool newcomer;

	if (!s || !it->loaded)
		return true;
	/* Who answered is read apart (wn_index_load_who): until it is,
	 * what was kept holds. */
	newcomer = it->who_read ? it->newcomer : s->newcomer;
	free(s->subject);
	*s = (struct qsum) {
		.read = true,
		.empty = !it->load_error && !queue_nfindings(it),
		.newcomer = newcomer,
		.sev_rank = severity_rank(queue_top_severity(it)),
		.untriaged = it->counts[WN_VERDICT_UNTRIAGED],
	};
	/* Only the series order reads the patch's subject. */
	return !(q->series && subject && !(s->subject = strdup(subject)));
}

struct skey {
	size_t item;
	int rank;		/* severity rank, or untriaged count negated */
	size_t group;		/* series: index of the first review of its group */
	int version, part;
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

/* The group titled title, made if new; false when out of memory (no
 * group to fall back on may exist yet: the caller gives up the order). */
static bool group_of(struct queue *q, const char *title, size_t *out)
{
	struct qgroup *grown;
	char *dup;

	for (size_t g = 0; g < q->ngroups; g++)
		if (!strcmp(q->groups[g].title, title))
			return *out = g, true;
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

/* The key of review i for the current order, from the review when it
 * is read, else from what was kept of it; false when out of memory. */
static bool key_of(struct queue *q, size_t i, wn_item *it, struct skey *k)
{
	/* A review read again for its row has not read who answered. */
	bool stale = !it->loaded || (q->sort == QS_NEWCOMER && !it->who_read);
	const struct qsum *s = stale && q->sums && q->sums[i].read ? &q->sums[i] : NULL;

	memset(k, 0, sizeof(*k));
	k->item = i;
	if (q->sort == QS_SEVERITY)
		k->rank = s ? s->sev_rank : severity_rank(queue_top_severity(it));
	else if (q->sort == QS_UNTRIAGED)
		k->rank = -(int) (s ? s->untriaged : it->counts[WN_VERDICT_UNTRIAGED]);
	else if (q->sort == QS_NEWCOMER)
		k->rank = (s ? s->newcomer : it->newcomer) ? 0 : 1;
	if (q->sort == QS_SERIES) {
		const char *subject = s ? (s->subject ? s->subject : it->subject)
				      : it->patch ? it->patch->subject : it->subject;
		const char *cover = q->series && q->series[i] ? q->series[i] : subject;
		wn_subject ps, cs;

		/* Out of memory leaves a wn_subject zeroed: the review is then
		 * grouped under its whole subject, as v1, and still shown. */
		if (wn_subject_parse(subject, &ps) != WN_OK)
			ps.version = 1;
		if (cover == subject)
			cs = ps;
		else
			wn_subject_parse(cover, &cs);
		/* The heading shows the cover letter's title as written, and
		 * v1, v2 and v3 fall together under it. */
		if (!group_of(q, cover ? cover + cs.title_at : "", &k->group)) {
			if (cover != subject)
				wn_subject_clear(&cs);
			wn_subject_clear(&ps);
			return false;
		}
		k->version = ps.version;
		k->part = ps.part;
		add_version(&q->groups[k->group], k->version);
		q->groups[k->group].n++;
		if (cover != subject)
			wn_subject_clear(&cs);
		wn_subject_clear(&ps);
	}
	return true;
}

bool queue_order(struct tui *t, struct queue *q)
{
	struct skey *keys = calloc(q->list.n ? q->list.n : 1, sizeof(*keys));
	size_t n = 0;

	queue_free_rows(q);
	if (!keys)
		return false;
	for (size_t i = 0; i < q->list.n; i++) {
		wn_item *it = wn_list_get(t->idx, &q->list, i);

		if (!it || (t->hide_empty && (it->loaded ? !it->load_error && !queue_nfindings(it)
							 : q->sums && q->sums[i].read && q->sums[i].empty)))
			continue;
		if (!key_of(q, i, it, &keys[n++])) {
			free(keys);
			return false;
		}
	}
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
