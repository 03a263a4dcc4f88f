/* winnow — what the tests reach inside forward/ (tests/unit/test-forward.c,
 * tests/unit/test-forward-edges.c): the mailbox lists and what a header
 * may hold (fwd_mboxes, fwd_mboxes_add, fwd_mboxes_has,
 * fwd_mboxes_clear, fwd_msgid_ok), and the body (fwd_body_ctx,
 * fwd_body, fwd_review_links).  Tests include this header, never
 * forward-private.h.
 *
 * For now it takes them from forward-private.h whole: forward.c is
 * being split along its seams, and that header with it.  Once the split
 * is in, the declarations above move here and forward-private.h
 * includes this header, as mail's and share's do. */
#ifndef WINNOW_FORWARD_TEST_H
#define WINNOW_FORWARD_TEST_H

#include "forward-private.h"

#endif
