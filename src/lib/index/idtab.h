/* winnow — a table of 64-bit values keyed by the 64-bit hash of an id
 * (idtab.c): 16 bytes a slot, no copy of the id.
 *
 * For what is held per review over a whole run (the parse cache's
 * index of its file, what a run wrote): a wn_map copies each id and
 * spends 32 bytes a slot, ~170 bytes a review in all.  Two ids can
 * hash the same: whoever uses the table must find out, from what the
 * value leads to, whether it is the id's own (the cache reads the id
 * from its record), or make do with an answer meant for the other one
 * (a record not kept, a review parsed again), never a wrong answer. */
#ifndef WINNOW_INDEX_IDTAB_H
#define WINNOW_INDEX_IDTAB_H

#include <stddef.h>
#include <stdint.h>

#include "winnow/status.h"

/* slots: cap pairs (the hash, its value; 0: empty), cap a power of
 * two or 0 (zeroed: empty). */
typedef struct wn_idtab {
	uint64_t *slots;
	size_t cap, n;
} wn_idtab;

/* The key of id (n bytes). */
uint64_t wn_idtab_key(const char *id, size_t n);
/* The value stored under key; 0 if none. */
uint64_t wn_idtab_get(const wn_idtab *t, uint64_t key);
/* Store val (not 0) under key, replacing what was there. */
wn_status wn_idtab_put(wn_idtab *t, uint64_t key, uint64_t val);
/* The bytes the table holds. */
size_t wn_idtab_bytes(const wn_idtab *t);
void wn_idtab_free(wn_idtab *t);

#endif
