/* winnow — internals shared by index.c, link.c and store.c. */
#ifndef WINNOW_PRIVATE_H
#define WINNOW_PRIVATE_H

#include <notmuch.h>

#include "winnow/index.h"
#include "winnow/mail.h"

struct wn_index {
	notmuch_database_t *db;		/* read-only handle */
	char *config_path;		/* NULL: notmuch's own lookup */
	char *db_path;
	wn_conf conf;
	char **exclude_tags;		/* search.exclude_tags, NULL-terminated */
	unsigned long generation;	/* bumped by every reopen */
};

/* Map a notmuch status to ours, recording msg (from notmuch, may be
 * NULL, freed here) and what in err. */
wn_status wn_nm_error(wn_error *err, notmuch_status_t nst, char *msg, const char *what);

/* Find the patch a review answers: fills it->patch and it->link. */
wn_status wn_link_patch(wn_index *idx, wn_item *it, const wn_mail *review, wn_error *err);

/* Find a message by canonical id on the read-only handle; NULL if absent.
 * The caller destroys it with notmuch_message_destroy(). */
notmuch_message_t *wn_index_message(wn_index *idx, const char *id);

/* Parse the mail of msg, trying each of its files. */
wn_status wn_message_read_mail(notmuch_message_t *msg, wn_mail **mail, wn_error *err);

/* Properties of a message into it->verdicts/notes/forwarded. */
void wn_item_read_properties(wn_item *it, notmuch_message_t *msg);

#endif
