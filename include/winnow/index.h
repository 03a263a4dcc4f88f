/* winnow — the maintainer's notmuch index, read-only, and the reviews in
 * it.  Writes never go through here: see store.h. */
#ifndef WINNOW_INDEX_H
#define WINNOW_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include "winnow/status.h"
#include "winnow/conf.h"
#include "winnow/review.h"
#include "winnow/trailer.h"
#include "winnow/verdict.h"

typedef struct wn_index wn_index;

/* How a review was tied to its patch. X(enum suffix, name) */
#define WN_LINK_LIST(X)                                 \
	X(NONE,              "none")                    \
	X(IN_REPLY_TO,       "in-reply-to")             \
	X(PATCH_LINK,        "patch-link")              \
	X(REFERENCES,        "references")              \
	X(FOOTER,            "footer")                  \
	X(SUBJECT,           "subject")                 \
	X(SUBJECT_AMBIGUOUS, "subject-ambiguous")

typedef enum {
#define WN_X_(e, name) WN_LINK_##e,
	WN_LINK_LIST(WN_X_)
#undef WN_X_
	WN_LINK_COUNT
} wn_link;

const char *wn_link_name(wn_link l);

typedef struct wn_patch {
	char *id;		/* Message-ID without <> */
	char *subject;		/* decoded */
	char *author;		/* the git author, "Name <address>" (wn_mail_people) */
	char *submitter;	/* who sent it, the same way; B4 Relay: whom
				 * it relayed */
	time_t date;
	char *list;		/* its mailing list (wn_mail_list); NULL: none */
	wn_patch_trailers *trailers;	/* never NULL once loaded */
} wn_patch;

/* One review.  The first block is filled by wn_index_query() from the
 * index alone; the rest by wn_index_load(), which reads the mail files. */
typedef struct wn_item {
	char *id;		/* Message-ID without <> */
	time_t date;
	char *subject;
	char *from;

	bool loaded;
	char *load_error;	/* why loading failed; NULL when it worked */
	wn_bot bot;
	wn_review *review;	/* never NULL once loaded */
	wn_patch *patch;	/* NULL: patch not in index */
	wn_link link;
	char *report_id;	/* a follow-up: the report that opened its
				 * thread, when in the index; NULL */
	wn_verdict *verdicts;	/* review->nfindings entries */
	char **notes;		/* review->nfindings entries, NULL = no note */
	char **forwarded;	/* review->nfindings entries, NULL = not forwarded */
	wn_severity *severity;	/* the maintainer's own, WN_SEV_NONE when unset */
	char **reported;	/* to the bot's operators: "<time> <msgid>"; NULL = not */
	wn_reason *reasons;	/* why the verdict was given; WN_REASON_NONE: not said */
	char **closed;		/* a syzbot report: "dup <msgid>" or "fix <hash>"
				 * (winnow.closed, WN_CRASH_LIST); NULL: none */
	char **misses;		/* bugs the bot missed, "<time> <note>", nmisses of them */
	size_t nmisses;
	unsigned counts[WN_VERDICT_COUNT];	/* findings per verdict */
	char *warning;		/* something odd in the stored verdicts; NULL */
	/* The same AI review passed on twice (one maintainer sends it,
	 * another forwards the same text): copies are the other reviews of
	 * its thread with word for word its findings, NULL-terminated, NULL
	 * when none; copy_of the earliest of them when this one came later
	 * (the queue's review is that one), else NULL.  Verdicts set on
	 * any of them show on all (their findings share fingerprints). */
	char **copies;
	char *copy_of;

	/* Who answered the review and how new its patch's author is: not
	 * read by wn_index_load() (a thread to walk) but on demand, by
	 * wn_index_load_who(). */
	bool who_read;
	bool replies_read;	/* the replies alone */
	bool author_answered;	/* wn_index_author_replied found the author's
				 * mail below the review (replies not read) */
	char *thread_id;	/* notmuch's, once loaded */
	struct wn_reply *replies;	/* human replies to the review (wn_reply) */
	size_t nreplies;
	int earlier_patches;	/* the patch author's patches before it; -1: unknown */
	bool newcomer;		/* earlier_patches known and below winnow.newcomer */
} wn_item;

/* The reviews of a query.  Rows are read from the index only when asked
 * for (wn_list_get), so a queue over tens of thousands of reviews opens
 * as fast as its first screen. */
typedef struct wn_list {
	wn_item **items;	/* n slots; NULL until fetched */
	size_t n;		/* how many reviews match */
	size_t fetched;		/* items[0..fetched) are filled */
	struct wn_list_cursor *cursor;	/* private: where fetching goes on */
	bool partial;		/* only the newest reviews: wn_index_query_recent() */
	/* Set by a pass that loads each row as it gets it (list, export):
	 * rows past the first page are read with their id alone, and
	 * wn_index_load() fills date, subject and from (from the cache's
	 * record when it holds: three document values fewer per row). */
	bool lazy_rows;
} wn_list;

/* Open the notmuch database read-only.  config_path: a notmuch config
 * file, or NULL for notmuch's own rules ($NOTMUCH_CONFIG, then the
 * default).  Loads the [winnow] configuration. */
wn_status wn_index_open(const char *config_path, wn_index **out, wn_error *err);
void wn_index_close(wn_index **idx);
const wn_conf *wn_index_conf(const wn_index *idx);
/* The config file in use ("" if notmuch found none), for write handles. */
const char *wn_index_config_path(const wn_index *idx);
/* Let the read-only handle see writes made since it was opened. */
wn_status wn_index_refresh(wn_index *idx, wn_error *err);

/* Reviews matching the configured query and, if non-empty, user_query
 * (a notmuch query, where bot:NAME -- a bot's id or label, any case --
 * stands for that bot's query term), newest first.  Only counts them: rows come from
 * wn_list_get().  The list lives as long as idx. */
wn_status wn_index_query(wn_index *idx, const char *user_query, wn_list *out, wn_error *err);
/* The same reviews' newest part, for a first screen that costs the same
 * however many reviews match: the reviews dated from a few days before
 * now onwards, the window widened (1, 7, 28, 112, 448 days) until it holds
 * at least min_rows.  That list, l->partial set, is exactly the first
 * l->n rows of wn_index_query()'s, in the same order; the caller asks
 * for the whole list when it needs more (wn_list_adopt() carries over
 * the rows it loaded).  Where no window holds min_rows, the whole list,
 * l->partial clear.  While the database's revision is the one of the
 * run before (nothing added, removed or tagged since), the first rows
 * that run found are found again by their ids instead (kept in the
 * cache folder, as many as it read, up to 128; winnow's own writes
 * carry them, with the messages written): the same prefix, at a cost
 * that does not grow with the index (src/lib/index/recent.c). */
wn_status wn_index_query_recent(wn_index *idx, const char *user_query, time_t now,
				size_t min_rows, wn_list *out, wn_error *err);
/* Move the rows of from that to holds too (same index, same review),
 * loaded or not, into to, so that they are not read twice. */
void wn_list_adopt(wn_list *to, wn_list *from);
/* The notmuch query wn_index_query() runs for user_query (malloc'd;
 * NULL, with err set, when it cannot be made: a bot: term naming no
 * bot, out of memory). */
char *wn_index_query_string(const wn_index *idx, const char *user_query, wn_error *err);
/* Row i (< l->n), fetched from the index on first use (cheap fields
 * only; load it with wn_index_load()).  Rows passed over on the way
 * are not kept: memory grows with the rows asked for.  NULL when the
 * index changed under the list and the row is gone, or out of memory. */
wn_item *wn_list_get(wn_index *idx, wn_list *l, size_t i);
/* Read and parse the review mail and its patch, and the verdicts.
 * A mail that cannot be read leaves it->load_error set and still
 * returns WN_OK (the queue shows it with the reason). */
wn_status wn_index_load(wn_index *idx, wn_item *it, wn_error *err);
/* Whether wn_index_load() may open the cache of parsed reviews now
 * (the default) or later: opening it reads the index of the whole
 * cache file, which at 300,000 messages took 110 ms and 11 MiB, many
 * times what parsing a screenful of reviews costs.  The interface,
 * which loads reviews a screen at a time, asks for later until it
 * reads every review (an order, the statistics).  Once open, the
 * cache is used either way; the answers are the same without it. */
void wn_index_cache_later(wn_index *idx, bool later);
/* Re-read only the verdicts, notes and counts (after a write). */
wn_status wn_index_load_verdicts(wn_index *idx, wn_item *it, wn_error *err);
/* Find one message by Message-ID (any form wn_msgid_canon() accepts) and
 * load it.  WN_NOT_FOUND if the index does not hold it. */
wn_status wn_index_find(wn_index *idx, const char *msgid, wn_item **out, wn_error *err);

/* Drop what wn_index_load() read (the review, its patch, verdicts, who
 * answered), keeping the row's index fields: a walk through a long list
 * holds only the reviews in use, and wn_index_load() reads one again. */
void wn_item_unload(wn_item *it);
void wn_item_free(wn_item **it);
void wn_list_free(wn_list *l);

/* Recompute it->counts from it->verdicts. */
void wn_item_count(wn_item *it);

/* Free row i of l once the caller is done with it, so that a pass over
 * every review holds one at a time.  wn_list_get() reads it again if
 * asked (searching again when the search is past it). */
void wn_list_release(wn_list *l, size_t i);

/* --- around a review: its mail, its patch's thread, the index's
 * revision (thread.c; for the interface's views) --------------------- */

/* Any message of the index by Message-ID, parsed (headers and decoded
 * body); *out is the caller's (wn_mail_free()).  *path, if not NULL,
 * gets a malloc'd copy of the file read.  WN_NOT_FOUND when absent. */
wn_status wn_index_read_mail(wn_index *idx, const char *msgid, wn_mail **out, char **path,
			     wn_error *err);

/* A human reply in a patch's thread, or to a review. */
typedef struct wn_reply {
	char *id;		/* Message-ID without <> */
	char *from;		/* decoded, as notmuch indexed it */
	char *subject;
	time_t date;
	int depth;		/* 1: answers the message it is about */
	bool to_cover;		/* about the series' cover letter, not the patch */
	bool author;		/* from the patch's author (same address) */
} wn_reply;

/* The replies to it's patch (and to its series' cover letter) that are
 * neither patches of the series nor bot reviews (messages the
 * configured query matches), in thread order.  *out holds *n entries
 * (free with wn_replies_free()); none when the patch is not in the
 * index. */
wn_status wn_index_replies(wn_index *idx, const wn_item *it, wn_reply **out, size_t *n,
			   wn_error *err);
void wn_replies_free(wn_reply *r, size_t n);

/* Who answered the review it (loaded), and how new its patch's author
 * is (who.c), into it's who fields, once: it->who_read says they are.
 *
 * The replies are every message below the review in its thread (an
 * answer to an answer too: the author answering a maintainer who
 * answered the bot is still talk about the review) that the configured
 * query does not match (no bot's), in thread order; depth 1 answers the
 * review itself.  author: the reply's From address is the patch
 * author's (wn_mail_addr, any case).  One thread query per review, and
 * one more only when something answered it.
 *
 * earlier_patches counts the mails from the patch author's address
 * whose subject starts with a "[... PATCH ...]" tag, dated before the
 * patch, its own thread (its series) left out: one query per distinct
 * address, kept for the life of idx.  -1 when the patch is not in the
 * index or its author has no address notmuch can be asked about.
 * newcomer: known, and fewer than winnow.newcomer (0: nobody is). */
wn_status wn_index_load_who(wn_index *idx, wn_item *it, wn_error *err);

/* Did the patch's author answer the review it?  What wn_index_load_who
 * says, but first a count of the author's mails in the thread since the
 * review, so that a pass over every review (stats) walks only the
 * threads the author wrote in, and without the newcomer's query: it's
 * replies are read then (replies_read), or known to hold none of the
 * author's. */
wn_status wn_index_author_replied(wn_index *idx, wn_item *it, bool *out, wn_error *err);

/* Who answered a review whose who fields are read. */
typedef enum { WN_REPLIED_NONE, WN_REPLIED_HUMAN, WN_REPLIED_AUTHOR } wn_replied;
wn_replied wn_item_replied(const wn_item *it);
/* The first reply of the patch's author to it (read); NULL: none. */
const wn_reply *wn_item_author_reply(const wn_item *it);

/* A netdev patchwork command ("pw-bot: cr") in a patch's thread. */
typedef struct wn_pwbot {
	char *state;		/* what follows "pw-bot:", one line, sanitised */
	char *from;		/* who wrote it, sanitised */
	char *id;		/* the mail's Message-ID */
	time_t date;
} wn_pwbot;

/* The pw-bot: lines (not quoted) of the mails in the thread of it's
 * patch, and of its own thread, oldest first; *n of them in *out (free
 * with wn_pwbot_free()).  None when there is no such line. */
wn_status wn_index_pwbot(wn_index *idx, const wn_item *it, wn_pwbot **out, size_t *n, wn_error *err);
void wn_pwbot_free(wn_pwbot *v, size_t n);

/* The subject of the first message of the thread holding it's patch:
 * the series' cover letter, or the patch itself when it came alone.
 * *out malloc'd; NULL when the patch is not in the index. */
wn_status wn_index_series(wn_index *idx, const wn_item *it, char **out, wn_error *err);

/* The reviews (messages of the configured query) whose patch is
 * msgid, newest first, loaded; *n of them in *out (wn_item_free each,
 * then free the array).  None when msgid is no patch anyone reviewed. */
wn_status wn_index_reviews_of(wn_index *idx, const char *msgid, wn_item ***out, size_t *n,
			      wn_error *err);

/* The subject of message msgid as notmuch indexed it (no file read);
 * malloc'd, NULL when it is not in the index. */
char *wn_index_subject(wn_index *idx, const char *msgid);

/* Is msgid a review, a message the configured query matches? */
bool wn_index_is_review(wn_index *idx, const char *msgid);

/* The database's revision (notmuch_database_get_revision), after
 * reopening the read-only handle so that changes made by other
 * processes (new mail, a tag) count.  Lists made before a change restart
 * their search on the next wn_list_get(). */
wn_status wn_index_revision(wn_index *idx, unsigned long *rev, wn_error *err);

/* Every configuration pair whose key starts with prefix ("winnow.bind."),
 * handed to fn with its full key. */
void wn_index_config_each(wn_index *idx, const char *prefix,
			  void (*fn)(void *ud, const char *key, const char *value), void *ud);

#endif
