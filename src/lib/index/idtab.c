/* winnow — a table keyed by the hash of an id; see idtab.h. */
#include "autoconfig.h"

#include <stdlib.h>

#include "idtab.h"
#include "../core/hash.h"

uint64_t wn_idtab_key(const char *id, size_t n)
{
	return wn_fnv1a(WN_FNV_BASIS, id, n);
}

/* The slot of key: its own, or the empty one where it would go.
 * FNV-1a's low bits vary little across ids that differ only at their
 * end: the slot is taken from the high bits of the key mixed. */
static size_t find(const wn_idtab *t, uint64_t key)
{
	size_t mask = t->cap - 1, i = (size_t) ((key * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & mask;

	while (t->slots[2 * i + 1] && t->slots[2 * i] != key)
		i = (i + 1) & mask;
	return i;
}

uint64_t wn_idtab_get(const wn_idtab *t, uint64_t key)
{
	return t->cap ? t->slots[2 * find(t, key) + 1] : 0;
}

static wn_status grow(wn_idtab *t)
{
	size_t ncap = t->cap ? 2 * t->cap : 64;
	wn_idtab bigger = { calloc(ncap, 2 * sizeof(uint64_t)), ncap, t->n };

	if (!bigger.slots)
		return WN_NOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		if (t->slots[2 * i + 1]) {
			size_t j = find(&bigger, t->slots[2 * i]);

			bigger.slots[2 * j] = t->slots[2 * i];
			bigger.slots[2 * j + 1] = t->slots[2 * i + 1];
		}
	}
	free(t->slots);
	*t = bigger;
	return WN_OK;
}

wn_status wn_idtab_put(wn_idtab *t, uint64_t key, uint64_t val)
{
	size_t i;

	/* At most three quarters full: probes stay short, and a table
	 * just grown is 3/8 full, 43 bytes an entry at most. */
	if (4 * (t->n + 1) > 3 * t->cap && grow(t) != WN_OK)
		return WN_NOMEM;
	i = find(t, key);
	if (!t->slots[2 * i + 1])
		t->n++;
	t->slots[2 * i] = key;
	t->slots[2 * i + 1] = val;
	return WN_OK;
}

size_t wn_idtab_bytes(const wn_idtab *t)
{
	return t->cap * 2 * sizeof(uint64_t);
}

void wn_idtab_free(wn_idtab *t)
{
	free(t->slots);
	t->slots = NULL;
	t->cap = t->n = 0;
}
