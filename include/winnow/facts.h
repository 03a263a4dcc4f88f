/* winnow — what `winnow stats` knows of each review beyond its parse,
 * kept between runs: whether the patch's author answered
 * it, and per finding whether a later patch of the series changes its
 * function (wn_series_later) and whether a later version likely fixed
 * it (wn_series_fixed).  Deriving them takes thread and series queries
 * and reading later patches' mail: most of a stats pass once the
 * parse is cached.
 *
 * An optimisation only: every answer is the same without it, and
 * nothing about it is ever an error.  Never stale: each review's facts
 * are kept under a digest of what its parse gave, with what they were
 * read from in the index (wn_series_deps), and hold while no message
 * new or changed since (notmuch's lastmod) could change them -- a tag,
 * a property or a file renamed changes none unless the lists read tags
 * -- and no message of a thread they read was removed; under the parse cache's key (winnow's
 * binary, the bots, the [winnow] configuration) and the excluded tags,
 * while the mail files read to derive them are as they were. */
#ifndef WINNOW_FACTS_H
#define WINNOW_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "winnow/index.h"
#include "winnow/series.h"

/* A finding's facts (flags). */
#define WN_FACT_LATER 1u	/* a later patch of the series changes its function */
#define WN_FACT_FIXED 2u	/* a later version likely fixed it, were it valid */
#define WN_FACT_FIXED_KNOWN 4u	/* WN_FACT_FIXED was asked (the finding was valid) */

typedef struct wn_facts wn_facts;

/* The facts kept for idx's database at the revision its handle reads,
 * if the files they were read from are still as they were; NULL (no
 * cache) when caching is off or out of memory.  deriving: this pass
 * puts facts, so the files it reads from now on are noted (kept with
 * the facts) until closed; else it only gets them. */
wn_facts *wn_facts_open(wn_index *idx, bool deriving);
/* Review it's facts, when kept for the same parse: *replied and n
 * flags (n must be its number of findings).  False on any miss. */
bool wn_facts_get(wn_facts *f, const wn_item *it, bool *replied, unsigned char *flags, size_t n);
/* Keep it's facts (derived at the handle's revision through s), with
 * what they were read from (wn_series_deps). */
void wn_facts_put(wn_facts *f, wn_series *s, const wn_item *it, bool replied,
		  const unsigned char *flags, size_t n);
/* Write what this run derived, if anything and if the handle stayed
 * at the revision it opened at, beside the file and rename it over;
 * a failure leaves the old file or none.  Frees *f. */
void wn_facts_close(wn_facts **f);

#endif
