/* winnow — texts seen in one mail (see seen.h). */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "../hash.h"
#include "seen.h"

/* 0 marks a free slot, so no text may hash to it. */
static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = wn_fnv1a(WN_FNV_BASIS, s, n);

	return h ? h : 1;
}

static struct rv_seen_slot *slot(struct rv_seen_slot *v, size_t cap, uint64_t h, const char *s,
				 size_t n)
{
	size_t i = (size_t) (h ^ (h >> 31)) & (cap - 1);

	while (v[i].hash && !(v[i].hash == h && v[i].n == n && memcmp(v[i].s, s, n) == 0))
		i = (i + 1) & (cap - 1);
	return &v[i];
}

/* Twice the room, at most half full. */
static bool grow(struct rv_seen *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64;
	struct rv_seen_slot *v = calloc(cap, sizeof(*v));

	if (!v)
		return false;
	for (size_t i = 0; i < t->cap; i++)
		if (t->v[i].hash)
			*slot(v, cap, t->v[i].hash, t->v[i].s, t->v[i].n) = t->v[i];
	free(t->v);
	t->v = v;
	t->cap = cap;
	return true;
}

struct rv_seen_slot *rv_seen_add(struct rv_seen *t, const char *s, size_t n, size_t at, bool *oom)
{
	uint64_t h = hash(s, n);
	struct rv_seen_slot *e;

	if ((t->n + 1) * 2 > t->cap && !grow(t)) {
		*oom = true;
		return NULL;
	}
	e = slot(t->v, t->cap, h, s, n);
	if (e->hash) {
		e->count++;
		return e;
	}
	*e = (struct rv_seen_slot) { h, s, n, at, 1 };
	t->n++;
	return NULL;
}

void rv_seen_free(struct rv_seen *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}
