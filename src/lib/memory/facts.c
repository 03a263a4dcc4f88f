/* winnow — the stats' facts of each review kept between runs (facts.h).
 *
 * $XDG_CACHE_HOME/winnow/facts-<hash of the database path>:
 *
 *     "WNFACTS5" key revision count length checksum excluded  (8 bytes each)
 *     payload                                                  (length bytes)
 *
 * revision: the one the records hold at; count: how many messages the
 * index held then, excluded: how many of them had a tag of
 * search.exclude_tags.  The payload: the files the passes that derived
 * the facts read (their number, then each one's path and the hash of
 * its identity, 0 for one that was not there: core/fileid.h's read
 * log), the threads the records depend on each with its count of
 * messages, then one record per review: its id, the digest of its parse,
 * whether the author answered, its findings' flags, and what they were
 * read from (series.h: wn_series_deps: threads, ids, a title, an
 * author's window of dates).
 *
 * When a record holds.  A review's facts are read from the index
 * (threads, senders and dates, the series' patches and versions, the
 * bots' reviews of those, each through the parse cache or a parse) and
 * from the later patches' mail files.  The key is the parse cache's
 * (the database's uuid, winnow's binary, the bots, the [winnow]
 * configuration) with search.exclude_tags, which changes no revision.
 * A record holds at the handle's revision when it held at the file's
 * and no message changed since could change it: one lastmod: query
 * lists the changed messages (changed_since()).  A changed message that
 * a record says was there then (a thread dependency followed by its id)
 * and is in the same thread had its tags, properties or file names
 * changed, which no fact reads -- unless the query every list runs
 * reads tags, or an excluded tag came or went (tags_matter()): then,
 * like a new one, its thread, id, title and sender are held against
 * every record's dependencies.  A removal leaves no lastmod: the count
 * of messages must have grown by exactly the changed messages not known
 * to have been there; when it grew by less, messages were removed, and
 * every thread a record depends on is counted again (the file keeps
 * each one's count): a thread with another count is taken as changed.
 * A mail file read then and gone now that no message has any more went
 * with `notmuch new`: the removal or the change it made is seen as
 * above.  A handle reopened during the
 * run (another revision) keeps the file from being written.  The
 * review's own parse, which the parse cache can redo at the same
 * revision (a mail file rewritten in place), is in each record's
 * digest.  What notmuch does not see, a mail file rewritten in place or
 * removed without `notmuch new`, the files do: every file read while
 * facts were derived (a later patch, a thread's headers, another
 * version's review, or a cache record checked against it) is kept with
 * its identity, size, times, inode (or that it was not there), and
 * checked, a stat() each, when the file is opened: one that differs,
 * and nothing is kept.  Any file a pass reads goes in, not only those
 * of the review whose facts are derived: what a pass read once serves
 * every review after it (the series' patches, the threads, the link
 * memo).  Whether a finding is valid is no part of a fact: the journal
 * can change it without a revision, so "fixed" is kept for the findings
 * it was asked for (valid then) and asked again for a finding valid now
 * that was not.
 *
 * The file is read whole and checked (length, checksum, size limits)
 * at open; any fault is an empty cache.  A run that derived anything
 * writes every record it holds to a new file beside the old and renames
 * it over: a reader never sees half a file, and of two winnows the
 * last to finish wins (both wrote facts of their own revision): the
 * records that still hold and this run's, at the handle's revision.  A
 * full disk or an unwritable folder leaves the old file or none. */
#include "autoconfig.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/fileid.h"
#include "../core/hash.h"
#include "../core/map.h"
#include "../index/cache.h"
#include "../index/index-nm.h"
#include "../index/message.h"
#include "winnow/facts.h"
#include "winnow/series.h"
#include "winnow/subject.h"
#include "winnow/text.h"

#define MAGIC "WNFACTS5"	/* 5: the dependency threads' counts; 4: the
				 * count of excluded messages; 3: each
				 * record's dependencies, the count of
				 * messages; 2: the files read */
#define HEAD 56
/* Far larger than the facts of any index (about 80 bytes a review):
 * a larger file is a damaged one, not a reason to allocate.  Also
 * what a slot's offset can hold. */
#define FILE_MAX (256u << 20)
/* A slot: 0 empty, else the record's offset + 1 in the file's payload
 * (old) or, with ADDED, in what this run put (add). */
#define ADDED (1u << 31)

/* The records stay as they are in the file (and as put, in a buffer):
 * a table of offsets finds them.  At 300,000 messages a map of copied
 * ids and a struct per record came to 20 MiB, a third of the memory
 * budget; this is the file's size and half a MiB. */
struct wn_facts {
	wn_index *idx;
	char *path;
	uint64_t key;
	unsigned long rev, gen;	/* the handle's when opened */
	uint64_t filerev;	/* the revision the file's records hold at */
	uint64_t count;		/* ... and how many messages the index held */
	uint64_t excluded;	/* ... of them with an excluded tag (~0: unknown) */
	/* The messages changed since filerev (changed_since()): their
	 * threads, ids, titles, and senders with dates. */
	bool changes_read, changes_ok;
	/* The threads the records depend on, each with its count of
	 * messages then (+ 1) -- now, for those counted again; removed:
	 * a message may have been removed, and those counts were taken. */
	wn_map thr;
	bool removed;
	bool files_gone;	/* a file read then was removed with notmuch new */
	wn_map ch_threads, ch_ids, ch_titles;
	struct sent *ch_from;
	size_t nch_from;
	unsigned char *old;	/* the file's payload, checked */
	size_t oldlen, recs;	/* ... its records from recs on */
	wn_readlog log;		/* the files read: the file's and this run's */
	bool watching;		/* this run's reads go into log */
	wn_buf add;		/* records put this run */
	uint32_t *slots;	/* open addressing over the ids' hashes */
	size_t cap, n;
	bool dirty;		/* something derived: write at close */
	bool moved;		/* the handle was reopened: no hits, no writing */
	unsigned long hits, misses;
};

/* A changed message's sender (its From, lower case) and date. */
struct sent {
	char *from;
	time_t date;
};

/* A record as stored: id, digest, replied, flags, dependencies. */
struct rec {
	const char *id;
	size_t idn;
	uint64_t digest, replied;
	const char *flags;
	size_t n;
	size_t deps;		/* where its dependencies start */
	size_t start, end;	/* its bytes */
};

/* A record's dependency as stored. */
struct dep {
	uint64_t kind, lo, hi;
	const char *key;
	size_t kn;
};

/* The next dependency at r; false (r->bad) when it does not hold. */
static bool dep_next(wn_cache_rd *r, struct dep *d)
{
	d->kind = wn_cache_get_u64(r);
	d->key = wn_cache_get_bytes(r, &d->kn);
	d->lo = wn_cache_get_u64(r);
	d->hi = wn_cache_get_u64(r);
	if (!d->key)
		r->bad = true;
	return !r->bad;
}

/* The record at off in p[0..len); false when it does not hold. */
static bool rec_at(const unsigned char *p, size_t len, size_t off, struct rec *x)
{
	wn_cache_rd r = { p, len, off, false };

	x->start = off;
	x->id = wn_cache_get_bytes(&r, &x->idn);
	x->digest = wn_cache_get_u64(&r);
	x->replied = wn_cache_get_u64(&r);
	x->flags = wn_cache_get_bytes(&r, &x->n);
	x->deps = r.pos;
	/* The dependencies: their number, then kind, key, lo, hi each. */
	for (uint64_t k = 0, nd = wn_cache_get_u64(&r); k < nd && !r.bad; k++) {
		struct dep d;

		dep_next(&r, &d);
	}
	x->end = r.pos;
	return !r.bad && x->id && x->flags && x->replied <= 1;
}

/* The record a slot names (it was checked when it went in). */
static void rec_of(const wn_facts *f, uint32_t slot, struct rec *x)
{
	size_t off = (slot & ~ADDED) - 1;

	if (slot & ADDED)
		rec_at((const unsigned char *) f->add.data, f->add.len, off, x);
	else
		rec_at(f->old, f->oldlen, off, x);
}

/* The slot of id: its record's, or the empty one it would go in. */
static uint32_t *slot_of(const wn_facts *f, const char *id, size_t idn)
{
	size_t i = (size_t) wn_fnv1a(WN_FNV_BASIS, id, idn) & (f->cap - 1);

	for (;; i = (i + 1) & (f->cap - 1)) {
		struct rec x;

		if (!f->slots[i])
			return &f->slots[i];
		rec_of(f, f->slots[i], &x);
		if (x.idn == idn && memcmp(x.id, id, idn) == 0)
			return &f->slots[i];
	}
}

/* Room for one more id, the table at most half full; false when out
 * of memory. */
static bool room(wn_facts *f)
{
	size_t cap = f->cap ? f->cap * 2 : 1024;
	wn_facts bigger = *f;

	if (2 * (f->n + 1) <= f->cap)
		return true;
	if (!(bigger.slots = calloc(cap, sizeof(*bigger.slots))))
		return false;
	bigger.cap = cap;
	for (size_t i = 0; i < f->cap; i++) {
		struct rec x;

		if (!f->slots[i])
			continue;
		rec_of(f, f->slots[i], &x);
		*slot_of(&bigger, x.id, x.idn) = f->slots[i];
	}
	free(f->slots);
	f->slots = bigger.slots;
	f->cap = cap;
	return true;
}

/* --- the digest of a review's parse ------------------------------------------ */

static uint64_t mix(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		h = wn_fnv1a_byte(h, (unsigned char) (v >> (8 * i)));
	return h;
}

/* Everything of the item the facts are derived from (stats-pass.c:
 * wn_index_author_replied, wn_series_later, wn_series_fixed). */
static uint64_t digest_of(const wn_item *it)
{
	uint64_t h = wn_fnv1a_field(WN_FNV_BASIS, it->id);
	const wn_review *r = it->review;

	h = wn_fnv1a_field(h, it->thread_id);
	h = wn_fnv1a_field(h, it->from);
	h = mix(h, (uint64_t) it->date);
	h = mix(h, (uint64_t) it->bot);
	h = mix(h, it->patch != NULL);
	if (it->patch) {
		h = wn_fnv1a_field(h, it->patch->id);
		h = wn_fnv1a_field(h, it->patch->subject);
		h = wn_fnv1a_field(h, it->patch->author);
		h = mix(h, (uint64_t) it->patch->date);
	}
	h = mix(h, r ? r->nfindings : 0);
	for (size_t i = 0; r && i < r->nfindings; i++) {
		const wn_finding *f = &r->findings[i];

		h = wn_fnv1a_field(h, f->fingerprint);
		h = wn_fnv1a_field(h, f->file);
		h = wn_fnv1a_field(h, f->function);
		h = wn_fnv1a_field(h, f->summary);
		h = mix(h, f->about_commit_msg);
	}
	return h;
}

/* --- reading ------------------------------------------------------------------ */

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t) p[i] << (8 * i);
	return v;
}

/* The file, whole, when it is one of this key and revision; NULL. */
static unsigned char *read_file(const wn_facts *f, size_t *len)
{
	/* Not blocking: a FIFO put there would wait for a writer. */
	int fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	unsigned char *buf = NULL;
	struct stat sb;
	size_t got = 0;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= HEAD &&
	    (uint64_t) sb.st_size <= FILE_MAX && (buf = malloc((size_t) sb.st_size))) {
		while (got < (size_t) sb.st_size) {
			ssize_t r = read(fd, buf + got, (size_t) sb.st_size - got);

			if (r <= 0)
				break;
			got += (size_t) r;
		}
	}
	close(fd);
	/* Records of a revision the handle does not read yet (a newer
	 * winnow wrote them) are no cache for it. */
	if (!buf || got != (size_t) sb.st_size || memcmp(buf, MAGIC, 8) != 0 ||
	    le64(buf + 8) != f->key || le64(buf + 16) > f->rev || le64(buf + 32) != got - HEAD ||
	    le64(buf + 40) != wn_fnv1a(WN_FNV_BASIS, buf + HEAD, got - HEAD)) {
		free(buf);
		return NULL;
	}
	*len = got;
	return buf;
}

/* --- what changed since the file's revision ------------------------------------------ */

static bool put_key(wn_map *m, const char *k)
{
	return !k || wn_map_get(m, k, strlen(k)) || wn_map_put(m, k, strlen(k), (void *) 1) == WN_OK;
}

static char *lower(const char *s)
{
	char *l = strdup(s ? s : "");

	for (char *p = l; p && *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char) (*p - 'A' + 'a');
	return l;
}

/* A message changed since the file's revision, as it is now. */
struct changed {
	char *id, *thread, *title, *from;	/* from: lower case */
	time_t date;
	bool excluded;		/* it carries an excluded tag */
	bool known;		/* a record says it was in this thread then */
};

static void changed_free(struct changed *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].id);
		free(c[i].thread);
		free(c[i].title);
		free(c[i].from);
	}
	free(c);
}

/* Does msg carry a tag of the NULL-terminated ex? */
static bool has_tag(notmuch_message_t *msg, const char *const *ex)
{
	notmuch_tags_t *tags;
	bool has = false;

	if (!ex || !*ex)
		return false;
	for (tags = notmuch_message_get_tags(msg); !has && tags && notmuch_tags_valid(tags);
	     notmuch_tags_move_to_next(tags))
		for (const char *const *t = ex; !has && *t; t++)
			has = strcmp(notmuch_tags_get(tags), *t) == 0;
	if (tags)
		notmuch_tags_destroy(tags);
	return has;
}

/* What of msg the facts could read, into c; false when out of memory. */
static bool take(wn_facts *f, notmuch_message_t *msg, struct changed *c)
{
	const char *id = wn_message_id(msg), *tid = notmuch_message_get_thread_id(msg);
	wn_subject subj = { 0 };

	c->id = strdup(id ? id : "");
	c->thread = strdup(tid ? tid : "");
	if (wn_subject_parse(notmuch_message_get_header(msg, "subject"), &subj) == WN_OK &&
	    subj.title && *subj.title)
		c->title = strdup(subj.title);
	wn_subject_clear(&subj);
	c->from = lower(notmuch_message_get_header(msg, "from"));
	c->date = notmuch_message_get_date(msg);
	c->excluded = has_tag(msg, wn_index_exclude_tags(f->idx));
	return c->id && c->thread && c->from;
}

/* A changed message whose thread, subject, sender or date could have
 * changed, or which is new, into the sets the dependencies are held
 * against; false when out of memory. */
static bool touched(wn_facts *f, const struct changed *c)
{
	struct sent *nv;

	if (!put_key(&f->ch_ids, c->id) || !put_key(&f->ch_threads, c->thread) ||
	    !put_key(&f->ch_titles, c->title) ||
	    !(nv = realloc(f->ch_from, (f->nch_from + 1) * sizeof(*nv))))
		return false;
	f->ch_from = nv;
	nv[f->nch_from].date = c->date;
	if (!(nv[f->nch_from].from = strdup(c->from)))
		return false;
	f->nch_from++;
	return true;
}

/* How many messages query qs matches at the handle's revision; false
 * when that cannot be had. */
static bool count_of(wn_facts *f, const char *qs, uint64_t *n)
{
	notmuch_query_t *q = qs ? wn_index_query_new(f->idx, qs) : NULL;
	unsigned count = 0;
	bool ok = q && notmuch_query_count_messages(q, &count) == NOTMUCH_STATUS_SUCCESS;

	if (q)
		notmuch_query_destroy(q);
	*n = count;
	return ok;
}

static bool count_all(wn_facts *f, uint64_t *n)
{
	return count_of(f, "*", n);
}

/* "(tag:"a" or tag:"b")" of search.exclude_tags, NULL when none (or a
 * tag a query cannot name, or out of memory: *unsure). */
static char *excluded_query(wn_facts *f, bool *unsure)
{
	const char *const *ex = wn_index_exclude_tags(f->idx);
	wn_buf b = WN_BUF_INIT;

	*unsure = false;
	if (!ex || !*ex)
		return NULL;
	wn_buf_putc(&b, '(');
	for (const char *const *t = ex; *t; t++) {
		if (strchr(*t, '"'))
			*unsure = true;
		wn_buf_printf(&b, "%stag:\"%s\"", t == ex ? "" : " or ", *t);
	}
	wn_buf_putc(&b, ')');
	*unsure = *unsure || wn_buf_failed(&b);
	if (*unsure) {
		wn_buf_free(&b);
		return NULL;
	}
	return wn_buf_steal(&b);
}

/* How many messages carry an excluded tag: ~0 when unknown. */
static uint64_t count_excluded(wn_facts *f, const char *also)
{
	bool unsure;
	char *ex = excluded_query(f, &unsure), *qs = NULL;
	uint64_t n = 0;

	if (unsure)
		return ~(uint64_t) 0;
	if (!ex)
		return 0;
	if (asprintf(&qs, "%s%s", ex, also ? also : "") < 0)
		qs = NULL;
	if (!count_of(f, qs, &n))
		n = ~(uint64_t) 0;
	free(qs);
	free(ex);
	return n;
}

/* Could a changed message's tags have changed what the facts read?
 * Only through the reviews of a thread listed (series-fixed.c:
 * find_reviews, through the query every list runs and without the
 * excluded tags): when that query reads tags, or a message changed
 * since had an excluded tag then (the excluded messages then, less
 * those unchanged since: none). */
static bool tags_matter(wn_facts *f)
{
	char *also = NULL;
	uint64_t unchanged;

	if (wn_index_query_reads_tags(f->idx) || f->excluded == ~(uint64_t) 0)
		return true;
	if (!f->excluded)
		return false;
	if (asprintf(&also, " and lastmod:0..%llu", (unsigned long long) f->filerev) < 0)
		return true;
	unchanged = count_excluded(f, also);
	free(also);
	return unchanged != f->excluded;
}

/* Mark the changed messages (by id in ids) that a record of the file
 * says were in the index, in the thread they are in now, then. */
static void mark_known(wn_facts *f, wn_map *ids, struct changed *c)
{
	size_t off = f->recs;

	while (off < f->oldlen) {
		wn_cache_rd r = { f->old, f->oldlen, 0, false };
		struct dep d, prev = { 0 };
		struct rec x;

		if (!rec_at(f->old, f->oldlen, off, &x))
			return;
		r.pos = x.deps;
		for (uint64_t k = 0, nd = wn_cache_get_u64(&r); k < nd && dep_next(&r, &d); k++) {
			void *v;

			if (d.kind == WN_DEP_ID && prev.kind == WN_DEP_THREAD &&
			    (v = wn_map_get(ids, d.key, d.kn))) {
				struct changed *m = &c[(size_t) v - 1];

				m->known |= strlen(m->thread) == prev.kn &&
					    memcmp(m->thread, prev.key, prev.kn) == 0;
			}
			prev = d;
		}
		off = x.end;
	}
}

struct recount {
	wn_facts *f;
	bool ok;
};

/* One dependency thread counted again: changed, it goes with the
 * changed messages' threads. */
static void recount_one(const char *tid, size_t tn, void **val, void *arg)
{
	struct recount *rc = arg;
	char *qs = NULL;
	uint64_t now;

	if (!rc->ok || wn_map_get(&rc->f->ch_threads, tid, tn))
		return;
	if (asprintf(&qs, "thread:%.*s", (int) tn, tid) < 0 || !count_of(rc->f, qs, &now) ||
	    now >= UINT32_MAX) {
		rc->ok = false;
	} else if (now + 1 != (uintptr_t) *val) {
		*val = (void *) (uintptr_t) (now + 1);
		rc->ok = wn_map_put(&rc->f->ch_threads, tid, tn, (void *) 1) == WN_OK;
	}
	free(qs);
}

/* Messages were removed (the count grew by less than the new ones):
 * every thread a record depends on counted again, one query each, and
 * a thread with another count taken as changed.  A message removed was
 * in a thread; a record that read it depends on that thread (an id
 * found is in the thread before it).  False when that cannot be told. */
static bool recount(wn_facts *f)
{
	struct recount rc = { f, true };

	wn_map_each_key(&f->thr, recount_one, &rc);
	f->removed = rc.ok;
	return rc.ok;
}

/* The messages changed (new, tagged, moved, rethreaded) since the
 * file's revision, one lastmod: query, read once.  A message a record
 * says was there, still in the same thread, had its tags, properties
 * or files changed (notmuch changes a message's thread, subject, sender
 * or date only by new mail, which makes another message new): it
 * touches no fact unless tags matter (tags_matter()).  Every other is
 * taken as new or changed: its thread, id, title and sender go into the
 * sets the records' dependencies are held against.  A message removed
 * leaves no lastmod: the count of messages tells that none was (every
 * message not known to have been there is new, and as many as the count
 * grew by); when it grew by less, the threads are counted (recount()). */
static bool changed_since(wn_facts *f)
{
	notmuch_messages_t *msgs;
	notmuch_query_t *q;
	struct changed *c = NULL;
	wn_map ids = { 0 };
	char *qs = NULL;
	bool failed = false, tags;
	uint64_t now = 0, unknown = 0;
	size_t n = 0, cap = 0;

	if (f->changes_read)
		return f->changes_ok;
	f->changes_read = true;
	if (asprintf(&qs, "lastmod:%llu..%lu", (unsigned long long) f->filerev + 1, f->rev) < 0)
		return false;
	q = wn_index_query_new(f->idx, qs);
	free(qs);
	if (!q)
		return false;
	notmuch_query_set_sort(q, NOTMUCH_SORT_UNSORTED);
	if ((msgs = wn_message_search(q, &failed))) {
		for (; notmuch_messages_valid(msgs) && !failed; notmuch_messages_move_to_next(msgs)) {
			notmuch_message_t *msg = notmuch_messages_get(msgs);
			struct changed *nc = n < cap ? c : realloc(c, (cap = cap ? 2 * cap : 64) * sizeof(*c));

			if (nc) {
				c = nc;
				memset(&c[n], 0, sizeof(*c));
				n++;
			}
			failed = !nc || !take(f, msg, &c[n - 1]) ||
				 (!wn_map_get(&ids, c[n - 1].id, strlen(c[n - 1].id)) &&
				  wn_map_put(&ids, c[n - 1].id, strlen(c[n - 1].id), (void *) n) != WN_OK);
			notmuch_message_destroy(msg);
		}
	}
	notmuch_query_destroy(q);
	failed = failed || !msgs;
	tags = !failed && n && tags_matter(f);
	if (!failed && n)
		mark_known(f, &ids, c);
	for (size_t i = 0; i < n && !failed; i++) {
		if (c[i].known && !tags && !c[i].excluded && !f->files_gone)
			continue;
		unknown += !c[i].known;
		failed = !touched(f, &c[i]);
	}
	wn_map_free(&ids, NULL);
	changed_free(c, n);
	if (failed || !count_all(f, &now))
		return f->changes_ok = false;
	f->changes_ok = now == f->count + unknown || (now < f->count + unknown && recount(f));
	return f->changes_ok;
}

/* Could no message changed since the file's revision change the facts
 * of the record x?  Its dependencies (series.h: wn_series_deps) against
 * the changed messages' threads, ids, titles and senders. */
static bool deps_hold(wn_facts *f, const struct rec *x, const unsigned char *base, size_t len)
{
	wn_cache_rd r = { base, len, x->deps, false };
	uint64_t nd;

	if (f->filerev == f->rev)
		return true;
	if (!changed_since(f))
		return false;
	nd = wn_cache_get_u64(&r);
	for (uint64_t k = 0; k < nd && !r.bad; k++) {
		struct dep d;
		uint64_t kind, lo, hi;
		size_t kn;
		const char *key;

		if (!dep_next(&r, &d))
			return false;
		kind = d.kind, lo = d.lo, hi = d.hi, key = d.key, kn = d.kn;
		if (kind == WN_DEP_THREAD) {
			if (wn_map_get(&f->ch_threads, key, kn) ||
			    (f->removed && !wn_map_get(&f->thr, key, kn)))
				return false;
		} else if (kind == WN_DEP_ID) {
			if (wn_map_get(&f->ch_ids, key, kn))
				return false;
		} else if (kind == WN_DEP_TITLE) {
			if (wn_map_get(&f->ch_titles, key, kn))
				return false;
		} else if (kind == WN_DEP_FROM) {
			/* The search was from:"address": any From holding
			 * it, a superset of what notmuch's terms match. */
			char *addr = wn_strndup(key, kn);

			for (size_t i = 0; addr && i < f->nch_from; i++)
				if ((uint64_t) f->ch_from[i].date >= lo && (uint64_t) f->ch_from[i].date <= hi &&
				    strstr(f->ch_from[i].from, addr)) {
					free(addr);
					return false;
				}
			if (!addr)
				return false;
			free(addr);
		} else {
			return false;
		}
	}
	return !r.bad;
}

/* The record's bytes and where they lie. */
static const unsigned char *base_of(const wn_facts *f, uint32_t slot, size_t *len)
{
	*len = slot & ADDED ? f->add.len : f->oldlen;
	return slot & ADDED ? (const unsigned char *) f->add.data : f->old;
}

/* A mail file read then, gone now: when no message of the index has it
 * any more, `notmuch new` saw it go (the revision moved), and the
 * message is gone (its thread's count) or changed (lastmod).  Then no
 * changed message is taken for a tag changed only: its file may be the
 * one gone. */
static bool file_gone(const char *path, void *arg)
{
	wn_facts *f = arg;

	if (wn_index_knows_file(f->idx, path))
		return false;
	f->files_gone = true;
	return true;
}

/* The files the payload's facts were read from into the log, *recs
 * where the records start; false when that does not hold or a file is
 * no longer as it was read. */
static bool load_files(wn_facts *f, const unsigned char *p, size_t len, size_t *recs)
{
	wn_cache_rd r = { p, len, 0, false };
	uint64_t n = wn_cache_get_u64(&r);

	for (uint64_t i = 0; i < n && !r.bad; i++) {
		size_t pn;
		const char *path = wn_cache_get_bytes(&r, &pn);
		uint64_t hash = wn_cache_get_u64(&r);

		if (!path || r.bad || !wn_readlog_add(&f->log, path, pn, hash))
			return false;
	}
	/* The dependency threads with their counts of messages. */
	n = wn_cache_get_u64(&r);
	for (uint64_t i = 0; i < n && !r.bad; i++) {
		size_t tn;
		const char *tid = wn_cache_get_bytes(&r, &tn);
		uint64_t count = wn_cache_get_u64(&r);

		if (!tid || r.bad || count >= UINT32_MAX ||
		    wn_map_put(&f->thr, tid, tn, (void *) (uintptr_t) (count + 1)) != WN_OK)
			return false;
	}
	*recs = r.pos;
	return !r.bad && !f->log.unsure && wn_readlog_holds(&f->log, file_gone, f);
}

/* Every record of the payload into the table; false (the table
 * emptied) on one that does not hold or an id twice. */
static bool load(wn_facts *f)
{
	size_t off = f->recs;

	while (off < f->oldlen) {
		struct rec x;
		uint32_t *slot;

		if (!rec_at(f->old, f->oldlen, off, &x) || !room(f) ||
		    *(slot = slot_of(f, x.id, x.idn)))
			break;
		*slot = (uint32_t) (off + 1);
		f->n++;
		off = x.end;
	}
	if (off == f->oldlen)
		return true;
	if (f->slots)
		memset(f->slots, 0, f->cap * sizeof(*f->slots));
	f->n = 0;
	return false;
}

wn_facts *wn_facts_open(wn_index *idx, bool deriving)
{
	wn_facts *f = calloc(1, sizeof(*f));
	unsigned char *buf;
	size_t len = 0;

	if (!f)
		return NULL;
	if (!wn_index_facts_file(idx, "facts", &f->path, &f->key)) {
		free(f);
		return NULL;
	}
	f->idx = idx;
	/* What every list leaves out is no part of the parse cache's key
	 * and changes no revision: the reviews of a thread listed. */
	for (const char *const *t = wn_index_exclude_tags(idx); t && *t; t++)
		f->key = wn_fnv1a_field(f->key, *t);
	f->rev = wn_index_stamp(idx, NULL, &f->gen);
	if ((buf = read_file(f, &len)) && load_files(f, buf + HEAD, len - HEAD, &f->recs)) {
		f->filerev = le64(buf + 16);
		f->count = le64(buf + 24);
		f->excluded = le64(buf + 48);
		/* The payload stays where it was read: the records' bytes. */
		memmove(buf, buf + HEAD, len - HEAD);
		f->old = buf;
		f->oldlen = len - HEAD;
		/* What changed since, while the file's records are all
		 * there to say which changed messages were in the index. */
		if (load(f) && f->n && f->filerev != f->rev)
			changed_since(f);
	} else {
		free(buf);
		f->recs = 0;
		wn_readlog_free(&f->log);
		wn_map_free(&f->thr, NULL);
	}
	/* Not when another pass watches (a second statistics view): then
	 * this one keeps nothing. */
	f->watching = deriving && wn_readlog_watch(&f->log);
	return f;
}

/* Still at the revision the facts were read for?  The handle's
 * revision moves only when it is reopened, which the generation counts:
 * that is asked per review, the revision itself once more at close. */
static bool holds(wn_facts *f, bool revision)
{
	unsigned long gen, rev = f->rev;

	if (!f->moved) {
		if (revision)
			rev = wn_index_stamp(f->idx, NULL, &gen);
		else
			gen = wn_index_generation(f->idx);
		f->moved = rev != f->rev || gen != f->gen;
	}
	return !f->moved;
}

bool wn_facts_get(wn_facts *f, const wn_item *it, bool *replied, unsigned char *flags, size_t n)
{
	uint32_t *slot;
	struct rec x;

	if (!f)
		return false;
	slot = f->cap && holds(f, false) ? slot_of(f, it->id, strlen(it->id)) : NULL;
	if (slot && *slot)
		rec_of(f, *slot, &x);
	if (!slot || !*slot || x.n != n || x.digest != digest_of(it) ||
	    (!(*slot & ADDED) && !deps_hold(f, &x, f->old, f->oldlen))) {
		f->misses++;
		return false;
	}
	*replied = x.replied;
	memcpy(flags, x.flags, n);
	f->hits++;
	return true;
}

/* The dependencies wn_series_deps() names, into a record being put. */
struct deps {
	wn_buf b;
	uint64_t n;
};

static bool dep_put(void *arg, wn_dep_kind kind, const char *key, time_t lo, time_t hi)
{
	struct deps *d = arg;

	wn_cache_put_u64(&d->b, (uint64_t) kind);
	wn_cache_put_bytes(&d->b, key, strlen(key));
	wn_cache_put_u64(&d->b, (uint64_t) lo);
	wn_cache_put_u64(&d->b, (uint64_t) hi);
	d->n++;
	return !wn_buf_failed(&d->b);
}

void wn_facts_put(wn_facts *f, wn_series *s, const wn_item *it, bool replied,
		  const unsigned char *flags, size_t n)
{
	size_t idn = strlen(it->id), off;
	struct deps d = { WN_BUF_INIT, 0 };
	bool versions = false;
	uint32_t *slot;

	if (!f || !f->watching || !holds(f, false) || !room(f))
		return;
	for (size_t i = 0; i < n; i++)
		versions |= (flags[i] & WN_FACT_FIXED_KNOWN) != 0;
	/* What could change them, or nothing kept. */
	if (!wn_series_deps(s, it, versions, dep_put, &d)) {
		wn_buf_free(&d.b);
		return;
	}
	off = f->add.len;
	wn_cache_put_bytes(&f->add, it->id, idn);
	wn_cache_put_u64(&f->add, digest_of(it));
	wn_cache_put_u64(&f->add, replied);
	wn_cache_put_bytes(&f->add, (const char *) flags, n);
	wn_cache_put_u64(&f->add, d.n);
	wn_buf_append(&f->add, d.b.data ? d.b.data : "", d.b.len);
	wn_buf_free(&d.b);
	if (wn_buf_failed(&f->add) || f->add.len >= ADDED - 1) {
		/* Nothing more goes in, and nothing is written. */
		f->moved = true;
		return;
	}
	/* A record put again replaces the one before (left unwritten). */
	slot = slot_of(f, it->id, idn);
	f->n += !*slot;
	*slot = (uint32_t) (off + 1) | ADDED;
	f->dirty = true;
}

/* --- writing ------------------------------------------------------------------ */

static void put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char) (v >> (8 * i));
}

/* The header, its length and checksum as given, to out's start. */
static bool put_head(const wn_facts *f, FILE *out, uint64_t count, uint64_t excluded, uint64_t len,
		     uint64_t sum)
{
	unsigned char head[HEAD];

	memcpy(head, MAGIC, 8);
	put_le64(head + 8, f->key);
	put_le64(head + 16, f->rev);
	put_le64(head + 24, count);
	put_le64(head + 32, len);
	put_le64(head + 40, sum);
	put_le64(head + 48, excluded);
	return fseek(out, 0, SEEK_SET) == 0 && fwrite(head, 1, HEAD, out) == HEAD;
}

/* Will the record in slot be written (it holds at the handle's
 * revision)? */
static bool kept(wn_facts *f, uint32_t slot, struct rec *x, const unsigned char **base)
{
	size_t blen;

	rec_of(f, slot, x);
	*base = base_of(f, slot, &blen);
	return (slot & ADDED) || deps_hold(f, x, *base, blen);
}

/* The threads the records written depend on, each with its count of
 * messages now: the one kept, for a thread no message changed in since
 * (or counted again), else the one its listing took this run (who.c
 * lists the thread of every review whose facts were derived), else one
 * query.  False when that cannot be had. */
static bool put_threads(wn_facts *f, FILE *out, uint64_t *sum, uint64_t *len)
{
	wn_map now = WN_MAP_INIT;
	wn_buf b = WN_BUF_INIT;
	bool ok = true;

	for (size_t i = 0; ok && i < f->cap; i++) {
		const unsigned char *base;
		struct rec x;
		struct dep d;
		wn_cache_rd r;

		if (!f->slots[i] || !kept(f, f->slots[i], &x, &base))
			continue;
		r = (wn_cache_rd) { base, x.end, x.deps, false };
		for (uint64_t k = 0, nd = wn_cache_get_u64(&r); ok && k < nd && dep_next(&r, &d); k++) {
			void *was;
			uint64_t count;
			char *qs = NULL;

			if (d.kind != WN_DEP_THREAD || wn_map_get(&now, d.key, d.kn))
				continue;
			if ((was = wn_map_get(&f->thr, d.key, d.kn)) &&
			    !wn_map_get(&f->ch_threads, d.key, d.kn) &&
			    (f->filerev == f->rev || f->changes_ok)) {
				count = (uintptr_t) was - 1;
			} else if (!wn_index_thread_count(f->idx, d.key, d.kn, &count)) {
				ok = asprintf(&qs, "thread:%.*s", (int) d.kn, d.key) >= 0 &&
				     count_of(f, qs, &count) && count < UINT32_MAX;
				free(qs);
			}
			ok = ok && wn_map_put(&now, d.key, d.kn, (void *) (uintptr_t) (count + 1)) == WN_OK;
			wn_cache_put_bytes(&b, d.key, d.kn);
			wn_cache_put_u64(&b, count);
		}
		ok = ok && !r.bad;
	}
	if (ok) {
		wn_buf head = WN_BUF_INIT;

		wn_cache_put_u64(&head, now.n);
		ok = !wn_buf_failed(&head) && !wn_buf_failed(&b) &&
		     fwrite(head.data, 1, head.len, out) == head.len &&
		     (!b.len || fwrite(b.data, 1, b.len, out) == b.len);
		*sum = wn_fnv1a(*sum, head.data, head.len);
		*sum = wn_fnv1a(*sum, b.data ? b.data : "", b.len);
		*len += head.len + b.len;
		wn_buf_free(&head);
	}
	wn_map_free(&now, NULL);
	wn_buf_free(&b);
	return ok;
}

/* Every record the table names, straight from where it lies, then the
 * header with their length and checksum. */
static void write_file(wn_facts *f)
{
	uint64_t len = 0, sum = WN_FNV_BASIS, count, excluded;
	char *tmp = NULL;
	FILE *out;
	bool ok;

	wn_buf files = WN_BUF_INIT;
	const char *path;
	uint64_t hash;
	size_t at = 0;

	/* The records are written at the handle's revision: those of the
	 * file that no change since could touch, and this run's. */
	if (!count_all(f, &count) || !(out = wn_cache_create(f->path, &tmp)))
		return;
	excluded = count_excluded(f, NULL);
	ok = put_head(f, out, 0, 0, 0, 0);
	wn_cache_put_u64(&files, f->log.n);
	while ((path = wn_readlog_next(&f->log, &at, &hash))) {
		wn_cache_put_bytes(&files, path, strlen(path));
		wn_cache_put_u64(&files, hash);
	}
	ok = ok && !wn_buf_failed(&files) && fwrite(files.data, 1, files.len, out) == files.len;
	sum = wn_fnv1a(sum, files.data, files.len);
	len += files.len;
	wn_buf_free(&files);
	ok = ok && put_threads(f, out, &sum, &len);
	for (size_t i = 0; ok && i < f->cap; i++) {
		const unsigned char *base;
		struct rec x;
		size_t blen;

		if (!f->slots[i])
			continue;
		rec_of(f, f->slots[i], &x);
		base = base_of(f, f->slots[i], &blen);
		if (!(f->slots[i] & ADDED) && !deps_hold(f, &x, base, blen))
			continue;
		ok = fwrite(base + x.start, 1, x.end - x.start, out) == x.end - x.start;
		sum = wn_fnv1a(sum, base + x.start, x.end - x.start);
		len += x.end - x.start;
	}
	ok = ok && put_head(f, out, count, excluded, len, sum);
	ok = fflush(out) == 0 && !ferror(out) && ok;
	ok = fclose(out) == 0 && ok;
	if (!ok || rename(tmp, f->path) != 0)
		unlink(tmp);
	free(tmp);
}

#ifdef WN_TEST_HOOKS
/* For the tests: how many reviews' facts were kept and how many were
 * derived, appended to $WINNOW_TEST_FACTS_LOG. */
static void test_log(const wn_facts *f)
{
	const char *path = getenv("WINNOW_TEST_FACTS_LOG");
	FILE *out = path && *path ? fopen(path, "a") : NULL;

	if (out) {
		fprintf(out, "hits=%lu misses=%lu\n", f->hits, f->misses);
		fclose(out);
	}
}
#endif

void wn_facts_close(wn_facts **pf)
{
	wn_facts *f = pf ? *pf : NULL;

	if (!f)
		return;
#ifdef WN_TEST_HOOKS
	test_log(f);
#endif
	if (f->watching)
		wn_readlog_watch(NULL);
	/* Not when a file read had no identity (changed in the last two
	 * seconds, or while read): it could not be checked next time. */
	/* Also when nothing was derived but the index moved: the records
	 * that still hold are brought forward to its revision. */
	if ((f->dirty || (f->n && f->filerev != f->rev)) && f->watching && !f->log.unsure &&
	    holds(f, true))
		write_file(f);
	wn_readlog_free(&f->log);
	wn_map_free(&f->ch_threads, NULL);
	wn_map_free(&f->ch_ids, NULL);
	wn_map_free(&f->ch_titles, NULL);
	wn_map_free(&f->thr, NULL);
	for (size_t i = 0; i < f->nch_from; i++)
		free(f->ch_from[i].from);
	free(f->ch_from);
	free(f->old);
	wn_buf_free(&f->add);
	free(f->slots);
	free(f->path);
	free(f);
	*pf = NULL;
}
