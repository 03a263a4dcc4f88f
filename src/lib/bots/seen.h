/* winnow — a set of texts seen in one mail, each with the finding it
 * became and how often it came (seen.c).  The same diagnostic printed
 * again is one finding; a hostile mail may print a million, so lookups
 * stay constant time: the set is core's wn_map. */
#ifndef WINNOW_BOTS_SEEN_H
#define WINNOW_BOTS_SEEN_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/map.h"

struct rv_seen_slot {
	size_t at;			/* the finding it became */
	unsigned count;			/* times seen */
};

struct rv_seen {
	wn_map m;			/* text -> struct rv_seen_slot * */
};

/* The slot of s[0..n) once seen before (its count raised), else NULL
 * after recording it as finding at.  *oom when memory ran out (then
 * nothing is recorded). */
struct rv_seen_slot *wn_rv_seen_add(struct rv_seen *t, const char *s, size_t n, size_t at,
				    bool *oom);
/* Call fn on every slot, in no particular order. */
void wn_rv_seen_each(const struct rv_seen *t, void (*fn)(const struct rv_seen_slot *e, void *arg),
		     void *arg);
void wn_rv_seen_free(struct rv_seen *t);

#endif
