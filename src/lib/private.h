/* winnow — the index handle, shared by index.c (which owns it) and
 * store.c (which writes beside it). */
#ifndef WINNOW_PRIVATE_H
#define WINNOW_PRIVATE_H

#include <notmuch.h>

#include "winnow/conf.h"
#include "winnow/index.h"

struct wn_index {
	notmuch_database_t *db;		/* read-only handle */
	char *config_path;		/* NULL: notmuch's own lookup */
	char *db_path;
	wn_conf conf;
	char **exclude_tags;		/* search.exclude_tags, NULL-terminated */
	unsigned long generation;	/* bumped by every reopen */
	unsigned long revision;		/* last seen by wn_index_revision() */
};

/* The message id on the read-only handle (*out NULL when absent),
 * reopening the index and trying again when another process's write
 * discarded the revision being read. */
wn_status wn_index_message(wn_index *idx, const char *id, notmuch_message_t **out, wn_error *err);

#endif
