/* winnow — string-keyed hash map; see map.h. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "map.h"

struct wn_map_slot {
	char *key;		/* NULL: empty */
	size_t len;
	uint64_t hash;
	void *val;
};

/* FNV-1a (hash.h): keys are Message-IDs and fingerprints we chose or
 * that a mail chose; a collision only costs a probe. */
static uint64_t hash(const char *k, size_t n)
{
	return wn_fnv1a(WN_FNV_BASIS, k, n);
}

static struct wn_map_slot *find(const wn_map *m, const char *key, size_t len, uint64_t h)
{
	size_t i = (size_t) h & (m->cap - 1);

	for (;; i = (i + 1) & (m->cap - 1)) {
		struct wn_map_slot *s = &m->slots[i];
		if (!s->key || (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0))
			return s;
	}
}

void *wn_map_get(const wn_map *m, const char *key, size_t len)
{
	struct wn_map_slot *s;

	if (!m->cap)
		return NULL;
	s = find(m, key, len, hash(key, len));
	return s->key ? s->val : NULL;
}

static wn_status grow(wn_map *m)
{
	size_t ncap = m->cap ? 2 * m->cap : 16;
	wn_map bigger = { calloc(ncap, sizeof(struct wn_map_slot)), ncap, m->n };

	if (!bigger.slots)
		return WN_NOMEM;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			*find(&bigger, m->slots[i].key, m->slots[i].len, m->slots[i].hash) = m->slots[i];
	free(m->slots);
	*m = bigger;
	return WN_OK;
}

wn_status wn_map_put(wn_map *m, const char *key, size_t len, void *val)
{
	struct wn_map_slot *s;
	uint64_t h = hash(key, len);

	/* At most half full, so probes stay short. */
	if (2 * (m->n + 1) > m->cap && grow(m) != WN_OK)
		return WN_NOMEM;
	s = find(m, key, len, h);
	if (!s->key) {
		if (!(s->key = malloc(len + 1)))
			return WN_NOMEM;
		memcpy(s->key, key, len);
		s->key[len] = '\0';
		s->len = len;
		s->hash = h;
		m->n++;
	}
	s->val = val;
	return WN_OK;
}

void wn_map_each(const wn_map *m, void (*fn)(void *val, void *arg), void *arg)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			fn(m->slots[i].val, arg);
}

void wn_map_free(wn_map *m, void (*free_val)(void *val))
{
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->slots[i].key)
			continue;
		if (free_val)
			free_val(m->slots[i].val);
		free(m->slots[i].key);
	}
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = 0;
}
