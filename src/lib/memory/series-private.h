/* winnow — what series.c and series-fixed.c share: a patch as a
 * wn_series caches it.  series-fixed.c calls the cache in series.c
 * through these; series.c never calls series-fixed.c. */
#ifndef WINNOW_SERIES_PRIVATE_H
#define WINNOW_SERIES_PRIVATE_H

#include <stdbool.h>
#include <time.h>

#include "winnow/series.h"
#include "winnow/similar.h"

/* One bot's review of a patch, as far as matching needs it. */
struct sr_reviewed {
	wn_bot bot;
	char *review;		/* its Message-ID */
	size_t n;		/* findings */
	char **loc;		/* wn_sim_location() of each; entries may be NULL */
	wn_words *words;	/* wn_words_of() of each summary */
};

struct sr_patch {
	char *id, *author;	/* author: the address, lower case */
	char *thread;		/* NULL until wn_sr_patch_thread() */
	bool thread_read;
	time_t date;
	wn_subject subj;
	char *subject;		/* as the mail has it, read when shown */
	wn_diff diff;
	bool diff_read;
	wn_diff_keys hunks;	/* what linking kept of the diff, when known */
	bool hunks_known;
	struct sr_patch **later;	/* later parts of its series, by part */
	size_t nlater;
	bool later_read;
	struct sr_patch **versions;	/* later versions of it, oldest first */
	size_t nversions;
	bool versions_read;
	struct sr_reviewed *reviewed;	/* the bots' reviews of it */
	size_t nreviewed;
	bool reviewed_read;
};

/* The patch with Message-ID id, read once; NULL when the index does not
 * hold it (or out of memory). */
struct sr_patch *wn_sr_patch_get(wn_series *s, const char *id);
/* The patch review it answers (it->patch), read once: from the list of
 * the review's thread when it is in it, else as wn_sr_patch_get. */
struct sr_patch *wn_sr_review_patch(wn_series *s, const wn_item *it);
/* Its thread id, read once; NULL when the index no longer holds it. */
const char *wn_sr_patch_thread(wn_series *s, struct sr_patch *p);
/* wn_diff_find() over its hunks, its mail read only when what linking
 * kept of the diff does not rule the place out. */
const wn_hunk *wn_sr_patch_find(wn_series *s, struct sr_patch *p, const char *file, const char *fn);
/* p->subject, read once. */
wn_status wn_sr_patch_subject(wn_series *s, struct sr_patch *p);
/* fn on the Message-ID and subject of every message notmuch query qs
 * matches, in no order; thread: the one thread qs names, or NULL. */
typedef void (*sr_each_fn)(wn_series *s, const char *id, const char *subject, void *arg);
void wn_sr_each(wn_series *s, const char *qs, const char *thread, sr_each_fn fn, void *arg);
/* Add p to the vector unless it is there; false when out of memory. */
bool wn_sr_push(struct sr_patch ***v, size_t *n, struct sr_patch *p);
/* Empty the cache when it has grown past its bound; only between two
 * lookups (nothing of the cache is held then). */
void wn_sr_trim(wn_series *s);
/* The later parts of p's series into p->later, found once: in its
 * thread, or from its author within SR_SIBLING_DAYS of it. */
#define SR_SIBLING_DAYS 3
void wn_sr_find_later(wn_series *s, struct sr_patch *p);
/* The index, for series-fixed.c's review queries. */
wn_index *wn_sr_index(wn_series *s);

#endif
