/* winnow — which messages are reviews, asked for a few at a time
 * (index-nm.h: wn_index_in_lists).
 *
 * "The reviews of a thread" as one search, thread:T and winnow.query,
 * costs with the whole index, not with the thread: winnow.query holds
 * the bots' phrase and regular-expression terms, which Xapian advances
 * past documents one by one rather than looking a document up (2.4 ms
 * a thread at 600,000 messages, where thread:T alone takes 0.05 ms),
 * and libnotmuch keeps what it compiles for each search.  A stats pass
 * asks it for every patch with a valid finding.  So winnow.query runs
 * once, over the whole index as every list of reviews runs it, and
 * what it matched is kept as a set of hashed Message-IDs: 16 bytes a
 * review at most.  The hash is seeded at random for each set, so that
 * no mail can be written to collide with a review's id; a collision
 * could only make a message of the thread be read as a candidate
 * review, which the caller then checks. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "../core/hash.h"
#include "index-nm.h"
#include "index-private.h"

static uint64_t seed(void)
{
	uint64_t v = 0;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != (ssize_t) sizeof(v))
		v = (uint64_t) time(NULL) * 0x9E3779B97F4A7C15u ^ (uint64_t) getpid();
	return v ^ WN_FNV_BASIS;
}

static uint64_t key_of(const struct wn_review_set *s, const char *id)
{
	uint64_t h = wn_fnv1a_str(s->basis, id);

	return h ? h : 1;
}

static bool put(struct wn_review_set *s, uint64_t h)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		uint64_t *v = calloc(cap, sizeof(*v));

		if (!v)
			return false;
		for (size_t k = 0; k < s->cap; k++)
			if (s->slot[k]) {
				for (i = s->slot[k] & (cap - 1); v[i]; i = (i + 1) & (cap - 1))
					;
				v[i] = s->slot[k];
			}
		free(s->slot);
		s->slot = v;
		s->cap = cap;
	}
	for (i = h & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == h)
			return true;
	s->slot[i] = h;
	s->n++;
	return true;
}

static bool put_id(void *arg, const char *id)
{
	struct wn_review_set *s = arg;

	return put(s, key_of(s, id));
}

/* Read the set at the handle's revision; false when it cannot be.  It
 * is asked for in the middle of a stats pass: the reviews are read in
 * the windows of dates that pass's list was cut into (index-query.c),
 * so that it holds one window's result set at a time, never every
 * review's beside what the pass holds. */
static bool read_set(wn_index *idx, struct wn_review_set *s)
{
	free(s->slot);
	*s = (struct wn_review_set){ .basis = seed(), .generation = idx->generation };
	return s->ok = wn_index_each_review(idx, put_id, s);
}

bool wn_index_in_lists(wn_index *idx, const char *id)
{
	struct wn_review_set *s = idx->reviews;
	uint64_t h;

	if (!s && !(s = idx->reviews = calloc(1, sizeof(*s))))
		return true;
	if ((!s->ok || s->generation != idx->generation) && !read_set(idx, s))
		return true; /* unsure: the caller reads it and checks */
	if (!s->n)
		return false;
	h = key_of(s, id);
	for (size_t i = h & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == h)
			return true;
	return false;
}
