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
/* A slot: 0 empty, else the record's offset + 1 in the file's payload
 * (old) or, with ADDED, in what this run put (add). */
#define ADDED (1u << 31)

/* One key of the table of dependencies (a thread id, a Message-ID, a
 * title, an address), kept once however many records name it. */
struct fkey {
	uint32_t off, len; /* its bytes in the file's payload, or in keys (KEY_ADDED) */
	uint32_t count;	   /* a thread's messages then + 1; 0 not known */
	uint8_t kind;	   /* wn_dep_kind */
	uint8_t state;	   /* KEY_* */
};

#define KEY_ADDED 1u   /* put this run: its bytes are in keys */
#define KEY_USED 2u    /* a record written names it */
#define KEY_JUDGED 4u  /* held against the changes since the file */
#define KEY_TOUCHED 8u /* ... and a change could touch it */

/* A changed message's sender (its From, lower case) and date. */
struct sent {
	char *from;
	time_t date;
};

/* The records stay as they are in the file (and as put, in a buffer):
 * a table of offsets finds them.  At 300,000 messages a map of copied
 * ids and a struct per record came to 20 MiB, a third of the memory
 * budget; this is the file's size and half a MiB. */
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
	unsigned char *old;  /* the file's payload, checked */
	size_t oldlen, recs; /* ... its records from recs on */
	wn_readlog log;	     /* the files read: the file's and this run's */
	bool watching;	     /* this run's reads go into log */
	/* The keys: the file's first, in its order (its records name
	 * them by that number), then this run's; found by kslots (built
	 * when the first record is put). */
	struct fkey *tab;
	size_t ntab, tabcap, nold;
	wn_buf keys;
	uint32_t *kslots;
	size_t kcap;
	wn_buf add;	 /* records put this run */
	uint32_t *slots; /* open addressing over the ids' hashes */
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
/* The record at off in p[0..len), its keys below nkeys; false when it
 * does not hold. */
bool wn_facts_rec_at(const unsigned char *p, size_t len, size_t off, size_t nkeys, struct rec *x);
/* The record a slot names, and the bytes it lies in. */
const unsigned char *wn_facts_rec_of(const wn_facts *f, uint32_t slot, struct rec *x, size_t *len);
/* The slot of id: its record's, or the empty one it would go in. */
uint32_t *wn_facts_slot_of(const wn_facts *f, const char *id, size_t idn);
/* Room for one more id; false when out of memory. */
bool wn_facts_room(wn_facts *f);
/* Key i's bytes. */
const char *wn_facts_key(const wn_facts *f, uint32_t i, size_t *len);
/* The number of the key (kind, k), put in the table when new; false
 * when out of memory. */
bool wn_facts_key_put(wn_facts *f, unsigned kind, const char *k, size_t kn, uint32_t *i);
/* The file, when one of this key and a revision the handle reads, into
 * f (its files into the log, its keys into the table, its records into
 * the slots); false, f as it was, when it is not one or does not hold.
 * gone: a file read then and gone now (core/fileid.h). */
bool wn_facts_read(wn_facts *f, bool (*gone)(const char *path, void *arg));
/* Every record the slots name, with the keys they name (KEY_USED, each
 * thread's count set), at the handle's revision: a new file renamed
 * over the old. */
void wn_facts_write(wn_facts *f, uint64_t count, uint64_t excluded);
/* Zigzag: a date (maybe before 1970) as a small number. */
uint64_t wn_facts_zigzag(int64_t v);

#endif
