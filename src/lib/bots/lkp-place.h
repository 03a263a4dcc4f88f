/* winnow — where a kernel test robot diagnostic really is (lkp-place.c).
 *
 * A compiler reports through the macro or header it expanded
 * ("include/linux/bits.h:8:26: warning: ..."), while the mail also
 * names the patch's own file: the "In function 'f'" line, the "In file
 * included from" chain, the "note: in expansion of macro" lines below
 * the diagnostic.  Once the patch's files are known (wn_review_input),
 * the finding moves to the first of those places that is in them, takes
 * its function from the "In function" line, and keeps where it was
 * reported as detail.  Its fingerprint stays the mail's own. */
#ifndef WINNOW_BOTS_LKP_PLACE_H
#define WINNOW_BOTS_LKP_PLACE_H

#include "build.h"

#define LKP_CHAIN_MAX 24

struct lkp_site {
	const char *path;		/* into the mail */
	size_t path_n;
	long line;
};

struct lkp_place {
	struct lkp_site chain[LKP_CHAIN_MAX];	/* the last "In file included from" */
	size_t nchain;
	struct lkp_site fn_file;		/* the last "path: In function 'f':" */
	const char *fn;
	size_t fn_n;
	size_t cur;			/* the finding that may still move */
	int by;				/* how it moved: 0 not, 1 chain, 2 function, 3 note */
	bool moving;			/* cur was reported outside the patch's files */
};

/* An "In file included from X:L," (first) or "from X:L:" line. */
void wn_lkp_place_chain(struct lkp_place *p, const char *s, size_t n, bool first);
/* A new section or file: the chain and function are no longer in force. */
void wn_lkp_place_reset(struct lkp_place *p);
/* Finding i was just made from a diagnostic: move it if it lies outside
 * the patch's files and the chain or function name a place inside. */
void wn_lkp_place_finding(struct lkp_place *p, struct rv_ctx *c, size_t i);
/* A "path:line:col: note: in expansion of macro 'M'" line below it. */
void wn_lkp_place_note(struct lkp_place *p, struct rv_ctx *c, const char *path, size_t path_n,
		       long line);

#endif
