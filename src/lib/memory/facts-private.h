/* winnow — what facts.c (when a record holds) and facts-file.c (the
 * file's format, the table of records and of dependency keys) share.
 * For the memory module's own files only. */
#ifndef WN_FACTS_PRIVATE_H
#define WN_FACTS_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "../core/fileid.h"
#include "../core/map.h"
#include "../index/cache.h"
#include "winnow/buf.h"
#include "winnow/facts.h"

#define HEAD 56
/* A slot's offset: 0 empty, else the record's offset + 1 in the file's
 * payload (old) or, with ADDED, in what this run put (add). */
#define ADDED (1u << 31)

/* A window over a file's bytes: what is read of it, read on demand
 * (the file's records are looked up about in the order written, the
 * walk's: the window moves forward).  At 600,000 messages the whole
 * file in memory was 38 MB. */
struct win {
	int fd;	       /* -1: none */
	uint64_t at;   /* where its bytes start in fd */
	uint64_t size; /* how many there are */
	uint64_t base; /* the window's first byte */
	unsigned char *buf;
	size_t len, cap;
};

/* A temporary file (unlinked) beside the facts file, written as put
 * and read back through a window. */
struct spill {
	struct win w; /* w.size: the bytes put, out's included */
	wn_buf out;   /* not written yet */
	bool failed;
};

/* A key's kind and what is known of it, one byte each of the file's
 * keys: KIND_MASK the wn_dep_kind. */
#define KIND_MASK 7u
#define KEY_USED 8u	/* a record written names it */
#define KEY_JUDGED 16u	/* held against the changes since the file */
#define KEY_TOUCHED 32u /* ... and a change could touch it */

/* This run's keys' numbers, recent ones only (a direct-mapped cache of
 * their seeded hashes): a key put again after its entry went is put
 * twice, which costs bytes of the file, never a wrong dependency. */
#define KCACHE (1u << 16)

/* A changed message's sender (its From, lower case) and date. */
struct sent {
	char *from;
	time_t date;
};

/* The records stay in the file (and as put, in a temporary file): a
 * table of their ids' hashes and offsets finds them, and of the file's
 * keys each one's place and state.  At 600,000 messages the file in
 * memory, the records put and the keys' bytes came to 120 MiB. */
struct wn_facts {
	wn_index *idx;
	char *path;
	uint64_t key;
	unsigned long rev, gen; /* the handle's when opened */
	uint64_t filerev;	/* the revision the file's records hold at */
	uint64_t count;		/* ... and how many messages the index held */
	uint64_t excluded;	/* ... of them with an excluded tag (~0: unknown) */
	/* The messages changed since filerev (facts.c: changed_since()):
	 * their threads, ids, titles, and senders with dates; removed: a
	 * message may have been removed, and the threads were counted
	 * again (their keys' counts are now's). */
	bool changes_read, changes_ok;
	bool removed;
	bool files_gone; /* a file read then was removed with notmuch new */
	wn_map ch_threads, ch_ids, ch_titles;
	struct sent *ch_from;
	size_t nch_from;
	/* The file read: its payload through old (records) and kwin
	 * (keys), checked at open; its sections' places. */
	struct win old, kwin;
	uint64_t nfiles, files, keys, recs; /* files' and keys' first entries, records' */
	/* Its files noted by their bytes (core/fileid.h): each one's hash
	 * to write, in order (its identity once it has one); at close the
	 * files are written again, not copied, when there are any. */
	uint64_t *bytes_now;
	size_t nbytes;
	uint32_t *koff;	 /* each of its keys' offset (at close: its new number) */
	uint8_t *kstate; /* ... kind and KEY_* */
	size_t nold;
	wn_readlog log; /* this run's files read, the file's known */
	bool watching;	/* this run's reads go into log */
	/* This run's keys (as the file writes them, numbered from 0) and
	 * records, put as they come. */
	struct spill nkeys, add;
	size_t nnew;
	uint64_t *kc_hash;
	uint32_t *kc_num;
	uint64_t seed;
	uint64_t *sh;	/* open addressing over the ids' hashes (0: empty) */
	uint32_t *soff; /* ... the records' offsets + 1, ADDED */
	size_t cap, n;
	bool dirty; /* something derived: write at close */
	bool moved; /* the handle was reopened: no hits, no writing */
	unsigned long hits, misses;
};

/* A record as stored: id, digest, replied, flags, dependencies. */
struct rec {
	const char *id;
	size_t idn;
	uint64_t digest, replied;
	const char *flags;
	size_t n;
	size_t deps;	   /* where its dependencies start (their number) */
	size_t start, end; /* its bytes */
};

/* A record's dependency as stored: a key of the table, and for an
 * author's window (WN_DEP_FROM) its dates. */
struct dep {
	uint32_t key;
	bool window;
	int64_t lo, hi;
};

/* LEB128: the numbers of the file, most of them small. */
void wn_facts_put_num(wn_buf *b, uint64_t v);
uint64_t wn_facts_get_num(wn_cache_rd *r);
/* The next dependency at r (of a record checked: rec_at); false when
 * it does not hold. */
bool wn_facts_dep_next(wn_cache_rd *r, struct dep *d);
/* The record at off of the file's payload (ADDED: of this run's), its
 * positions from *p; false when it does not hold (or cannot be read).
 * *p holds until the next read of the same window. */
bool wn_facts_rec_of(wn_facts *f, uint32_t off, struct rec *x, const unsigned char **p);
/* The seeded hash of a record's id. */
uint64_t wn_facts_id_hash(const wn_facts *f, const char *id, size_t idn);
/* The slot of the record id (of hash h): its own, or the empty one it
 * would go in; SIZE_MAX when a record cannot be read. */
size_t wn_facts_slot_of(wn_facts *f, uint64_t h, const char *id, size_t idn);
/* The slot naming the record at off (of hash h); SIZE_MAX when none. */
size_t wn_facts_slot_at(const wn_facts *f, uint64_t h, uint32_t off);
/* Room for one more id; false when out of memory. */
bool wn_facts_room(wn_facts *f);
/* The file's key i's bytes, valid until the next key read, and a
 * thread's count of messages then (unless NULL); NULL when it cannot be
 * read. */
const char *wn_facts_key(wn_facts *f, uint32_t i, size_t *len, uint64_t *count);
/* How many messages thread tid has now, into *n; false when that cannot
 * be had. */
typedef bool wn_facts_count_fn(wn_facts *f, const char *tid, size_t tn, uint64_t *n);
/* The number of this run's key (kind, k), put when new (a thread's with
 * its count now: count()); false when out of memory or unwritable. */
bool wn_facts_key_put(wn_facts *f, unsigned kind, const char *k, size_t kn,
		      wn_facts_count_fn *count, uint32_t *i);
/* Put a record's bytes (this run's); its offset, ADDED, + 1 in *off;
 * false when that failed. */
bool wn_facts_rec_put(wn_facts *f, const wn_buf *rec, uint32_t *off);
/* The file, when one of this key and a revision the handle reads, into
 * f (its files checked and known to the log, its keys' places, its
 * records into the slots); false, f as it was, when it is not one or
 * does not hold.  gone: a file read then and gone now (core/fileid.h). */
bool wn_facts_read(wn_facts *f, bool (*gone)(const char *path, void *arg));
/* Has a file the file noted by its bytes an identity now?  Then it is
 * worth writing again, even with nothing derived: the next run checks
 * that file by its identity, not by reading it. */
bool wn_facts_files_settled(const wn_facts *f);
/* Each record of the file in turn, from *off (f->recs first): false at
 * the end or on one that does not hold. */
bool wn_facts_next_old(wn_facts *f, uint64_t *off, struct rec *x, const unsigned char **p);
/* An unlinked temporary file beside the facts file; -1 when none. */
int wn_facts_tmp_fd(const wn_facts *f);
void wn_facts_spill_free(struct spill *s);
/* The records the slots name (the file's left there hold, KEY_USED
 * marked for their keys), this run's keys and the file's the records
 * name, each thread's count as count_of() makes it (given the one kept;
 * false: give up), and the files read, at the handle's revision: a new
 * file renamed over the old. */
void wn_facts_write(wn_facts *f, uint64_t count, uint64_t excluded, wn_facts_count_fn *count_of);
/* Zigzag: a date (maybe before 1970) as a small number. */
uint64_t wn_facts_zigzag(int64_t v);

#endif
