/* winnow — what notmuch's indexing took a message's parents to be
 * (parent.c), for who.c: its "replyto" term (the one parent notmuch's
 * thread tree tries first) and its "reference" terms (what it falls
 * back on), read again from the mail file's header block the way
 * notmuch 0.37's add-message.cc chose them, without notmuch building a
 * thread (which reads every message's term list).  Where the headers
 * might read otherwise through GMime (encoded words, comments, 8-bit
 * text, folded ids, repeated headers, odd lines, gzip, mbox) it says
 * so, and the caller asks notmuch instead. */
#ifndef WINNOW_INDEX_PARENT_H
#define WINNOW_INDEX_PARENT_H

#include <stdbool.h>
#include <stddef.h>

#include "winnow/status.h"

/* Longer ids than this are left to notmuch: it keeps a Message-ID
 * over 189 bytes (NOTMUCH_MESSAGE_ID_MAX) as a hash of it, and drops a
 * term over 245. */
#define WN_PARENT_ID_MAX 180

typedef struct wn_parent_ids {
	char *replyto;		/* NULL: no "replyto" term */
	char **refs;		/* every "reference" term, NULL-terminated */
} wn_parent_ids;

/* The terms indexing message self (its id) from file path gave.
 * WN_OK and *sure: out filled.  WN_OK and !*sure: the file's headers
 * are not ones this reader is sure to read as notmuch did (or the file
 * cannot be read); out empty.  WN_NOMEM: out empty. */
wn_status wn_parent_read(const char *path, const char *self, wn_parent_ids *out, bool *sure);
/* The same from a file's header block already read: head[0..len),
 * NUL-terminated at len, which it writes into (the fuzz target's way
 * in). */
wn_status wn_parent_parse(char *head, size_t len, const char *self, wn_parent_ids *out, bool *sure);
void wn_parent_ids_clear(wn_parent_ids *p);

#endif
