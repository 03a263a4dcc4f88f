/* winnow — one message of the notmuch index: found by Message-ID, its
 * mail file read, and what notmuch says turned into a wn_error.
 *
 * The bottom layer of libwinnow's notmuch side, as notmuch's own
 * lib/message-file.c is of notmuch: index.c, link.c and store.c call
 * it, it calls none of them (index → link → message, store → message). */
#ifndef WINNOW_MESSAGE_H
#define WINNOW_MESSAGE_H

#include <notmuch.h>
#include <stdbool.h>

#include "../core/map.h"
#include "winnow/index.h"
#include "winnow/mail.h"
#include "winnow/status.h"

/* Map a notmuch status to ours, recording msg (from notmuch, may be
 * NULL, freed here) and what in err. */
wn_status wn_nm_error(wn_error *err, notmuch_status_t nst, char *msg, const char *what);

/* The message with canonical id in db; NULL if absent (or only a
 * ghost: an id other mail names, which the index does not hold).  The
 * caller destroys it with notmuch_message_destroy(). */
notmuch_message_t *wn_message_find(notmuch_database_t *db, const char *id);
/* The same, and *changed set when notmuch could not tell because a
 * concurrent write discarded the revision being read (the caller
 * reopens and asks again).  changed may be NULL. */
notmuch_message_t *wn_message_lookup(notmuch_database_t *db, const char *id, bool *changed);
/* The same, for a message whose files are read next: that read's term
 * list answers whether it is a ghost, no date looked up for it. */
notmuch_message_t *wn_message_lookup_read(notmuch_database_t *db, const char *id, bool *changed);
/* wn_mail_addr(text) through memo (text -> its address, at most
 * WN_ADDR_MEMO of them, then started over): a statistics pass asks for
 * the address of the same authors and senders review after review and
 * thread after thread, and GMime's parse was 2% of it.  malloc'd; NULL
 * when out of memory. */
#define WN_ADDR_MEMO 8192
char *wn_message_addr(wn_map *memo, const char *text);
/* msg's Message-ID, from the document's values rather than its term
 * list, which Xapian decompresses whole on first use. */
const char *wn_message_id(notmuch_message_t *msg);
/* The same, for a msg whose term list was read already (its files):
 * the id notmuch kept from it, no value read. */
const char *wn_message_id_read(notmuch_message_t *msg);
/* Run a query; *changed set as above when it failed that way. */
notmuch_messages_t *wn_message_search(notmuch_query_t *q, bool *changed);

/* Free a patch a review answers (wn_item.patch) and its trailers. */
void wn_patch_free(wn_patch *p);

/* Parse the mail of msg, trying each of its files.  *mail is the
 * caller's (wn_mail_free()). */
wn_status wn_message_read_mail(notmuch_message_t *msg, wn_mail **mail, wn_error *err);

/* How much of a mail's address lists a read gives: all, a patch's
 * (wn_mail_list() as the full read's), a sender's (From alone); see
 * wn_mail_parse_file_lean(). */
typedef enum { WN_READ_ALL, WN_READ_PATCH, WN_READ_SENDER } wn_read_what;

/* The files of messages with one file read this run, by Message-ID:
 * tree.c reads a thread's messages' headers again, and most of them
 * (reviews, their patches) were read before; notmuch's name of the file
 * costs their whole term list.  Direct-mapped, WN_PATH_MEMO slots (a
 * newer id takes an older one's), so bounded whatever the index holds.
 * Zeroed is empty. */
#define WN_PATH_MEMO 1024
typedef struct wn_path_memo {
	char **slot; /* "id\0path": NULL, or WN_PATH_MEMO of them */
} wn_path_memo;
/* After msg (found by id) was read: its file kept, when it has one
 * (out of memory keeps nothing).  m may be NULL. */
void wn_path_memo_keep(wn_path_memo *m, notmuch_message_t *msg, const char *id);
/* The file message id was read from; NULL when not kept (or m NULL). */
const char *wn_path_memo_get(const wn_path_memo *m, const char *id);
void wn_path_memo_clear(wn_path_memo *m);

/* The same, with what, and *path (malloc'd) with *sb the file read
 * when path is not NULL, taken from the descriptor it was read through
 * and unchanged while it was read; *path NULL when that cannot be had.
 * (The cache turns them into an identity: wn_cache_read_mail().) */
struct stat;
wn_status wn_message_read_mail_stat(notmuch_message_t *msg, wn_mail **mail, wn_read_what what, char **path,
				    struct stat *sb, wn_error *err);

#endif
