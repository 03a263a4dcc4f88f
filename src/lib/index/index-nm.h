/* winnow — what the index offers the modules above it inside the
 * library (store, forward, memory, share): notmuch objects read through
 * the index's read-only handle, never the handle itself, and the paths
 * a write handle or a state file needs.  struct wn_index stays
 * private.h's, for index.c, thread.c and the files of the index. */
#ifndef WINNOW_INDEX_NM_H
#define WINNOW_INDEX_NM_H

#include <notmuch.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "winnow/diff.h"
#include "winnow/index.h"

/* Message id on the read-only handle; NULL when absent (or out of
 * memory).  The caller destroys it (notmuch_message_destroy). */
notmuch_message_t *wn_index_find_message(wn_index *idx, const char *id);
/* The message id on the read-only handle (*out NULL when absent),
 * reopening the index and trying again when another process's write
 * discarded the revision being read. */
wn_status wn_index_message(wn_index *idx, const char *id, notmuch_message_t **out, wn_error *err);
/* Query qs on the read-only handle, raw (not narrowed by winnow.query);
 * NULL when out of memory.  The caller destroys it. */
notmuch_query_t *wn_index_query_new(wn_index *idx, const char *qs);
/* The database's folder (notmuch's database.path). */
const char *wn_index_db_path(const wn_index *idx);
/* The config file argument for a write handle: NULL for notmuch's own
 * lookup, as the read-only handle was opened. */
const char *wn_index_config_arg(const wn_index *idx);
/* A write through db (a write handle, its lock held) moved notmuch's
 * revision from to to, changing messages ids[0..n) and no other: the
 * queue's first rows kept at from (recent.c) are carried to to, those
 * messages to be looked up with them.  Best effort, says nothing. */
void wn_index_recent_carry(wn_index *idx, notmuch_database_t *db, unsigned long from,
			   unsigned long to, const char *const *ids, size_t n);

/* fn on the Message-ID, From, Subject (each NULL where notmuch has
 * none) and date of the first max messages of thread tid, in the order
 * an unsorted search of "thread:tid" gives them: the list of senders
 * who.c keeps for the thread's reviews, read now if it is not kept.
 * fn must not call the index.  False when there is no such list (out
 * of memory, the thread walked since): search the thread instead. */
bool wn_index_thread_each(wn_index *idx, const char *tid, size_t max,
			  void (*fn)(void *arg, const char *id, const char *from,
				     const char *subject, time_t date),
			  void *arg);
/* *n: how many messages "thread:tid" (tid tidn bytes) matches, when a
 * listing of the thread at the handle's present revision counted them
 * (who.c lists every review's thread in a statistics pass); false when
 * none did: ask notmuch. */
bool wn_index_thread_count(wn_index *idx, const char *tid, size_t tidn, uint64_t *n);
/* Whether linking keeps each patch's hunks for wn_index_patch_hunks():
 * on while a series may ask (wn_series_new() to wn_series_free()),
 * counted; off, a listing does not pay for them. */
void wn_index_keep_hunks(wn_index *idx, bool on);
/* What a series' pass asks of patch id's diff, without reading its
 * mail again when linking read it this run: *hunks its keys (*read
 * false), or, when no review's linking read it yet, the mail read now
 * as linking reads it (and kept for a review of it later in the run)
 * and *diff its hunks (*read true; the caller clears it).  WN_NOT_FOUND
 * when the index does not hold it or its mail cannot be read;
 * WN_NOMEM. */
wn_status wn_index_patch_hunks(wn_index *idx, const char *id, wn_diff_keys *hunks, wn_diff *diff,
				bool *read);
/* A cache of facts about the whole index (memory/facts.c): its file
 * (malloc'd into *path) and the key the cache of parsed reviews has
 * now (cache.h: wn_cache_sibling); false when caching is off. */
bool wn_index_facts_file(wn_index *idx, const char *name, char **path, uint64_t *key);
/* The revision the read-only handle reads, its database's uuid (owned
 * by the handle), and how often the handle was reopened: what is read
 * while the last stays the same is read at that one revision. */
unsigned long wn_index_stamp(wn_index *idx, const char **uuid, unsigned long *generation);
/* The last alone: cheaper, and enough between two calls of the first. */
unsigned long wn_index_generation(const wn_index *idx);
/* search.exclude_tags, NULL-terminated: what every list of reviews
 * leaves out. */
const char *const *wn_index_exclude_tags(const wn_index *idx);
/* Could the query every list of reviews runs (winnow.query, the bots',
 * the hidden mails') match otherwise after a tag, a property or a file
 * name changed?  True when unsure. */
bool wn_index_query_reads_tags(const wn_index *idx);
/* Is the message with Message-ID id one of the reviews every list
 * runs (winnow.query, the bots', the hidden mails', search.exclude_tags)
 * at the handle's revision?  The first call reads them all (once a
 * revision); true when that cannot be told.  For asking a thread's few
 * messages where thread:T and winnow.query would cost with the index. */
bool wn_index_in_lists(wn_index *idx, const char *id);
/* Does a message of the index have the file at path (true when that
 * cannot be told)? */
bool wn_index_knows_file(wn_index *idx, const char *path);

#endif
