/* winnow — what the tests reach inside forward/ (tests/unit/test-forward.c,
 * tests/unit/test-forward-edges.c): the mailbox lists and what a header
 * may hold (forward-addr.c), and the body (forward-body.c).  Tests
 * include this header, never forward-private.h, which includes it: each
 * declaration is made once. */
#ifndef WINNOW_FORWARD_TEST_H
#define WINNOW_FORWARD_TEST_H

#include "winnow/forward.h"

/* Review links kept per review. */
#define FWD_MAX_LINKS 2

/* One mailbox: a display name (may be NULL) and an address. */
typedef struct fwd_mbox {
	char *name;
	char *addr;
} fwd_mbox;

typedef struct fwd_mboxes {
	fwd_mbox *v;
	size_t n;
	/* What a lenient parse left out as no address, header-safe and
	 * ", "-separated, for a warning: GMime reads "a@b@c.com" as
	 * "a@b", someone else, so such a mailbox is dropped, never used. */
	wn_buf dropped;
} fwd_mboxes;

/* --- forward-addr.c --------------------------------------------------- */

/* A Message-ID fit to be written between <> in a header: printable
 * ASCII, no blank, no bracket. */
bool wn_fwd_msgid_ok(const char *id);
wn_status wn_fwd_mboxes_add(fwd_mboxes *l, const char *name, const char *addr);
bool wn_fwd_mboxes_has(const fwd_mboxes *l, const char *addr);
void wn_fwd_mboxes_clear(fwd_mboxes *l);

/* --- forward-body.c --------------------------------------------------- */

/* What the body is made of besides f's findings. */
typedef struct fwd_body_ctx {
	const wn_conf *conf;
	const char *author; /* the author's display name or address */
	char ***links;	    /* per part: NULL-terminated review links */
	/* The template of the list the patch went to (winnow.forward_template
	 * .<list> or forward_reply_template.<list>, whichever kind f is);
	 * NULL: the one of every list. */
	const wn_conf_trailer *list_template;
} fwd_body_ctx;

/* The body of f: the template (winnow.forward_template or the built-in
 * one) expanded, the findings where it says {findings}.  Safe text:
 * no control character but '\n' and '\t'. */
wn_status wn_fwd_body(const fwd_body_ctx *c, const wn_forward *f, char **out, wn_error *err);
/* The links a review mail carries to its online version (bot's footer,
 * CI run, report), at most FWD_MAX_LINKS; NULL-terminated, malloc'd. */
wn_status wn_fwd_review_links(wn_bot bot, const char *body, size_t len, char ***out);

#endif
