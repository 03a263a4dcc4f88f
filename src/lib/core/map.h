/* winnow — a string-keyed hash map (open addressing, linear probing).
 *
 * The write path looks findings up by (review, fingerprint) once per
 * finding; with tens of thousands of findings in a journal or on one
 * review a linear search would make every command quadratic. */
#ifndef WINNOW_MAP_H
#define WINNOW_MAP_H

#include <stddef.h>
#include "winnow/status.h"

typedef struct wn_map {
	struct wn_map_slot *slots;
	size_t cap;		/* a power of two, or 0 */
	size_t n;
} wn_map;

#define WN_MAP_INIT { NULL, 0, 0 }

/* The value stored under key (len bytes, may hold NUL); NULL if none. */
void *wn_map_get(const wn_map *m, const char *key, size_t len);
/* Store val under key (copied).  Replaces an existing value. */
wn_status wn_map_put(wn_map *m, const char *key, size_t len, void *val);
/* Call fn on every value (in no particular order). */
void wn_map_each(const wn_map *m, void (*fn)(void *val, void *arg), void *arg);
/* Free the keys and the table, and each value with free_val (may be NULL). */
void wn_map_free(wn_map *m, void (*free_val)(void *val));

#endif
