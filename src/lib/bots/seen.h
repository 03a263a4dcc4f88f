/* winnow — a set of texts seen in one mail, each with the finding it
 * became and how often it came (seen.c).  The same diagnostic printed
 * again is one finding; a hostile mail may print a million, so lookups
 * stay constant time. */
#ifndef WINNOW_BOTS_SEEN_H
#define WINNOW_BOTS_SEEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rv_seen_slot {
	uint64_t hash;			/* 0: free */
	const char *s;			/* into the mail; not owned */
	size_t n;
	size_t at;			/* the finding it became */
	unsigned count;			/* times seen */
};

struct rv_seen {
	struct rv_seen_slot *v;
	size_t cap, n;
};

/* The slot of s[0..n) once seen before (its count raised), else NULL
 * after recording it as finding at.  *oom when memory ran out (then
 * nothing is recorded). */
struct rv_seen_slot *rv_seen_add(struct rv_seen *t, const char *s, size_t n, size_t at, bool *oom);
void rv_seen_free(struct rv_seen *t);

#endif
