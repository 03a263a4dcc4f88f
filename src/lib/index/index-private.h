/* winnow — the index handle, private to the index's files (index.c,
 * thread.c).  Other modules use index-nm.h's functions instead. */
#ifndef WINNOW_PRIVATE_H
#define WINNOW_PRIVATE_H

#include <notmuch.h>

#include "index-nm.h"
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
	struct wn_cache *cache;		/* parsed reviews (cache.c); NULL: none */
	bool cache_tried;		/* opened by the first list's load */
	bool finding;			/* in wn_index_find(): opens no cache */
};


#endif
