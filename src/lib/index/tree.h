/* winnow — where a message of a listed thread sits in the tree notmuch
 * 0.37 builds of it (lib/thread.cc, _resolve_thread_relationships),
 * worked out from the messages' own headers (parent.c) as asked, for
 * who.c: notmuch building the thread reads every message's term list.
 * Where notmuch's placing cannot be followed for sure from what was
 * read, it says so, and the caller asks notmuch's tree. */
#ifndef WINNOW_INDEX_TREE_H
#define WINNOW_INDEX_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "index-private.h"

enum wn_below { WN_BELOW_NO, WN_BELOW_YES, WN_BELOW_UNSURE, WN_BELOW_NOMEM };

/* t->par, t->ids and t->addr (through idx's memo of addresses) of t's
 * listing (listed in order), made on first use; false when out of
 * memory. */
bool wn_tree_ready(wn_index *idx, struct wn_who_thread *t);
/* Index + 1 in t->v of the message with id, 0 when t has none. */
size_t wn_tree_at(const struct wn_who_thread *t, const char *id);
/* Is message c below message r in notmuch's tree of t? */
enum wn_below wn_tree_below(wn_index *idx, struct wn_who_thread *t, size_t c, size_t r);

#endif
