/* winnow — the index handle, private to the index's files (index.c,
 * index-query.c, index-load.c, thread.c...).  Other modules use
 * index-nm.h's functions instead.  Of the three index files, calls go
 * one way: index-load.c (loading a row's review) calls index-query.c
 * (the search and its rows), and both call index.c (the handle). */
#ifndef WINNOW_PRIVATE_H
#define WINNOW_PRIVATE_H

#include <notmuch.h>
#include <stdint.h>

#include "index-nm.h"
#include "../core/map.h"
#include "winnow/conf.h"
#include "winnow/index.h"

/* How many threads who.c keeps, the oldest walked going first. */
#define WN_WHO_THREADS 64

/* review-set.c's reviews, a set of their ids' seeded hashes (index.c
 * frees it, so that index.c never calls review-set.c). */
struct wn_review_set {
	uint64_t *slot; /* 0: empty */
	size_t cap, n;
	uint64_t basis;
	unsigned long generation; /* the handle's when read */
	bool ok;		  /* read whole */
};

struct wn_index {
	notmuch_database_t *db;		/* read-only handle */
	char *config_path;		/* NULL: notmuch's own lookup */
	char *db_path;
	wn_conf conf;
	char **exclude_tags;		/* search.exclude_tags, NULL-terminated */
	unsigned long generation;	/* bumped by every reopen */
	unsigned long revision;		/* last seen by wn_index_revision() */
	struct wn_review_set *reviews;	/* review-set.c, read when first asked */
	/* The dates the last long list was cut at (index-query.c), newest
	 * first: windows any search can be read in, since together they
	 * hold every date. */
	long long *cuts;
	size_t ncuts;
	/* who.c's patches of each author address (struct wn_author_patches),
	 * asked once per address. */
	wn_map authors;
	/* who.c's last threads walked: a series' reviews share one. */
	struct wn_who_thread *threads[WN_WHO_THREADS];
	size_t next_thread;
	/* How many messages each thread who.c listed held, at generation
	 * counts_generation: outlives the kept threads.  An open table of
	 * thread ids as numbers (notmuch's are 16 hex digits) and counts + 1
	 * (0: an empty slot), 12 bytes a thread where a wn_map of strings
	 * took ten times that (stats cold is near its memory bound). */
	uint64_t *count_tid;
	uint32_t *count_n;
	size_t count_cap, count_used;
	unsigned long counts_generation;
	/* message.c's addresses of From and author texts (wn_message_addr). */
	wn_map addrs;
	struct wn_cache *cache;		/* parsed reviews (cache.c); NULL: none */
	struct wn_copy_index *copies;	/* copy.c's bots' mails by thread */
	struct wn_link_memo *memo;	/* link-memo.c's patches read this run */
	unsigned hunk_users;		/* wn_index_keep_hunks() said on, minus off */
	/* The list whose search holds the message of the row it read last
	 * (index-query.c): its load needs no lookup of that message. */
	struct wn_list_cursor *held;
	bool cache_tried;		/* opened by the first list's load */
	bool finding;			/* in wn_index_find(): opens no cache */
	bool cache_later;		/* wn_index_cache_later(): not yet */
};

/* One thread as who.c listed (senders and dates) or walked it: its
 * messages in depth-first order (a message's answers follow it,
 * deeper), and its bot mails once asked. */
struct wn_who_node {
	char *id, *from, *subject;
	time_t date;
	int depth;		/* 0: a top-level message */
	size_t at;		/* walked and in_order: its place in the listing */
};

struct wn_who_thread {
	char *tid;
	unsigned long generation;	/* of the index it was read at */
	struct wn_who_node *v;	/* listed only: from and date set */
	size_t n;
	bool listed;		/* v holds every message, with from and date */
	bool in_order;		/* ... listed whole, in the order of an unsorted
				 * search, with ids and subjects (either may be
				 * NULL, as from: as notmuch had them); once
				 * walked, that order is each node's at */
	bool walked;		/* ... and ids, subjects and depths, in thread order */
	char **bots;		/* NULL until asked (wn_thread_bot_ids) */
	/* tree.c's parents of each listed message, read from the
	 * messages' own headers as asked (NULL until asked; gone with v). */
	struct wn_who_par *par;
	size_t npar;		/* ... made for that many of v (n may go first) */
	wn_map ids;		/* ... v's ids to their index + 1 */
	char **addr;		/* ... and their From's address, wn_mail_addr() */
};

/* What tree.c read of one listed message's parents: indices into the
 * thread's v, or one of tree.c's PARENT_*. */
struct wn_who_par {
	long replyto;		/* its "replyto" in the thread; PARENT_TOP: none */
	long tree;		/* its parent in notmuch's tree */
	size_t *refs;		/* with no replyto there, its references there */
	size_t nrefs;
};

/* Drop its messages (to be read again), or all of it (index.c). */
void wn_who_thread_clear(struct wn_who_thread *t);
/* Drop only what who.c read of their parents and addresses. */
void wn_who_parents_clear(struct wn_who_thread *t);
void wn_who_thread_free(struct wn_who_thread *t);

/* The dates and threads of one author's patch mails (who.c). */
struct wn_author_patches {
	size_t n;
	time_t *dates;
	char **threads;
};

/* Free one of them (void *: a wn_map value), and the whole map
 * (index.c, for who.c too). */
void wn_author_patches_free(void *a);

/* The ids of the mails of thread tid that the configured query matches
 * (the bots'), NULL-terminated (wn_strv_free); NULL when out of memory
 * (thread.c). */
char **wn_thread_bot_ids(wn_index *idx, const char *tid);
/* Is id among them? */
bool wn_thread_is_bot(char *const *bots, const char *id);
/* The thread tid and its first top-level message (the cover letter or
 * the patch); seed: the Message-ID of one of its messages, or NULL.
 * *q, once set, must be destroyed by the caller, and with it the thread
 * and its messages (thread.c). */
notmuch_message_t *wn_thread_root(wn_index *idx, const char *tid, const char *seed,
				  notmuch_query_t **q, notmuch_thread_t **thread);

/* How often a read is tried again after the index changed under it. */
#define RETRIES 8

/* Rows read with their ids only, a batch at a time (wn_list_get()):
 * each is loaded next (list, export), and its message is kept for that
 * load.  Reading one value slot for the whole batch, then the next,
 * keeps Xapian's cursor in one slot's blocks: value by value, row by
 * row, every value read again the block of its slot. */
#define AHEAD 64

struct held_row {
	notmuch_message_t *msg;	/* NULL: taken by its load, or none */
	char *id;
	bool filled;		/* date, subject and from read (fill_held()) */
	uint64_t hash;		/* ... and id's, wn_fnv1a_str() */
	time_t date;
	char *subject, *from; /* kept after the load took a copy */
};

/* A window of a long list's rows (index-query.c): rows from start on,
 * dated before the cut (the dates from the window before's cut on
 * being the window before's); the first window has no cut. */
struct wn_list_window {
	size_t start;
	long long cut;
};

struct wn_list_cursor {
	wn_index *idx;
	unsigned long generation;	/* of the index the search ran on */
	char *query;
	notmuch_query_t *q;
	notmuch_messages_t *msgs;
	size_t pos;		    /* the list's row msgs is at */
	struct wn_list_window *win; /* NULL: one search over every row */
	size_t nwin;
	size_t cur; /* the window msgs searches */
	struct held_row held[AHEAD];
	size_t nheld;
};

/* wn_index_query() of qs as notmuch reads it, taken as it is: neither
 * the configured query nor the hidden tags added (recent.c's lookup of
 * messages by id, which matched them before). */
wn_status wn_index_query_notmuch(wn_index *idx, const char *qs, wn_list *out, wn_error *err);

/* Every message of the reviews' list (wn_index_query() with no query
 * of the user's), its Message-ID to fn, in no order: read in the
 * windows of dates the last long list was cut into when there was one,
 * so that no search holds every review's result set (88 bytes a
 * review) beside what a pass holds then.  False when a search failed or
 * fn said stop. */
bool wn_index_each_review(wn_index *idx, bool (*fn)(void *arg, const char *id), void *arg);

/* --- index.c, index-query.c: what index-load.c calls ------------------- */

/* Free what loading gave the item; its row stays. */
void wn_index_item_clear_loaded(wn_item *it);
/* A row read with its id only: every other row has a subject, "" at
 * least. */
bool wn_index_row_pending(const wn_item *it);
/* The row's fields besides its id, from msg's document values: false
 * when out of memory. */
bool wn_index_row_fill(wn_item *it, notmuch_message_t *msg);
/* Copy the cheap, indexed fields of msg into a new item: document
 * values only, no term list, so that a screenful of rows costs a few
 * lookups however big the mails are.  With id_only, the id alone: the
 * rest comes with loading (wn_index_row_pending()). */
wn_item *wn_index_item_from_message(notmuch_message_t *msg, bool id_only);
/* The row of the batch a list holds now (index-load.c) whose values
 * fill_held() read, for Message-ID id (hash: wn_fnv1a_str() of it), or
 * NULL.  Its date, subject and from are the values its document has at
 * this generation: what a thread's listing would read again. */
const struct held_row *wn_index_held_row(const wn_index *idx, const char *id, uint64_t hash);
/* What notmuch last said about the database (malloc'd; NULL: nothing). */
char *wn_index_db_reason(wn_index *idx);

#endif
