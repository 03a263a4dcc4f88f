/* winnow — texts seen in one mail (see seen.h), over core's wn_map. */
#include "autoconfig.h"

#include <stdlib.h>

#include "seen.h"

struct rv_seen_slot *wn_rv_seen_add(struct rv_seen *t, const char *s, size_t n, size_t at,
				    bool *oom)
{
	struct rv_seen_slot *e = wn_map_get(&t->m, s, n);

	if (e) {
		e->count++;
		return e;
	}
	if (!(e = malloc(sizeof(*e))) || wn_map_put(&t->m, s, n, e) != WN_OK) {
		free(e);
		*oom = true;
		return NULL;
	}
	*e = (struct rv_seen_slot) { at, 1 };
	return NULL;
}

struct each {
	void (*fn)(const struct rv_seen_slot *e, void *arg);
	void *arg;
};

static void each_one(void *val, void *arg)
{
	struct each *w = arg;

	w->fn(val, w->arg);
}

void wn_rv_seen_each(const struct rv_seen *t, void (*fn)(const struct rv_seen_slot *e, void *arg),
		     void *arg)
{
	struct each w = { fn, arg };

	wn_map_each(&t->m, each_one, &w);
}

void wn_rv_seen_free(struct rv_seen *t)
{
	wn_map_free(&t->m, free);
}
