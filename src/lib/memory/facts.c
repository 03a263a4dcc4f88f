/* winnow — the stats' facts of each review kept between runs (facts.h);
 * the file's format and the tables of records and keys: facts-file.c.
 *
 * The file ($XDG_CACHE_HOME/winnow/facts-<hash of the database path>)
 * holds, at one revision of the index: the files the passes that
 * derived the facts read (core/fileid.h's read log), the keys the
 * records depend on (threads each with its count of messages, ids,
 * titles, addresses), then one record per review: its id, the digest
 * of its parse, whether the author answered, its findings' flags, and
 * the keys they were read from (series.h: wn_series_deps: threads, ids,
 * a title, an author's window of dates), by number.
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
 * that was not. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/hash.h"
#include "../index/index-nm.h"
#include "../index/message.h"
#include "facts-private.h"
#include "winnow/series.h"
#include "winnow/subject.h"
#include "winnow/text.h"

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

/* Thread tid's count of messages now: the one its listing took this
 * run (who.c lists the thread of every review whose facts were
 * derived), else one query; false when that cannot be had. */
static bool count_thread(wn_facts *f, const char *tid, size_t tn, uint64_t *now)
{
	char *qs = NULL;
	bool ok = wn_index_thread_count(f->idx, tid, tn, now) ||
		  (asprintf(&qs, "thread:%.*s", (int) tn, tid) >= 0 && count_of(f, qs, now));

	free(qs);
	return ok && *now < UINT32_MAX - 1;
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
 * says were in the index, in the thread they are in now, then.  The
 * file's id keys of a changed message first (KEY_TOUCHED, not judged
 * yet: key_touched() starts from nothing), one pass over the keys, then
 * the records, a key's bytes read only for those. */
static void mark_known(wn_facts *f, wn_map *ids, struct changed *c)
{
	uint64_t off = f->recs;
	const unsigned char *p;
	struct rec x;
	bool any = false;

	for (size_t i = 0; i < f->nold; i++) {
		size_t kn;
		const char *id;

		if ((f->kstate[i] & KIND_MASK) != WN_DEP_ID)
			continue;
		if (!(id = wn_facts_key(f, (uint32_t) i, &kn, NULL)))
			return;
		if (wn_map_get(ids, id, kn)) {
			f->kstate[i] |= KEY_TOUCHED;
			any = true;
		}
	}
	while (any && wn_facts_next_old(f, &off, &x, &p)) {
		wn_cache_rd r = { p, x.end, x.deps, false };
		uint32_t prev = UINT32_MAX;
		struct dep d;

		for (uint64_t k = 0, nd = wn_facts_get_num(&r); k < nd && wn_facts_dep_next(&r, &d);
		     k++) {
			size_t kn, tn;
			const char *id, *tid;
			struct changed *m;
			void *v;

			if ((f->kstate[d.key] & KEY_TOUCHED) && prev != UINT32_MAX &&
			    (f->kstate[prev] & KIND_MASK) == WN_DEP_THREAD &&
			    (id = wn_facts_key(f, d.key, &kn, NULL)) &&
			    (v = wn_map_get(ids, id, kn))) {
				m = &c[(size_t) v - 1];
				tid = wn_facts_key(f, prev, &tn, NULL);
				m->known |= tid && strlen(m->thread) == tn &&
					    memcmp(m->thread, tid, tn) == 0;
			}
			prev = d.key;
		}
	}
	for (size_t i = 0; i < f->nold; i++)
		f->kstate[i] &= (uint8_t) ~KEY_TOUCHED;
}

/* Messages were removed (the count grew by less than the new ones):
 * every thread a record depends on counted again, one query each, and
 * a thread with another count taken as changed (its key's count now
 * the new one).  A message removed was in a thread; a record that read
 * it depends on that thread (an id found is in the thread before it).
 * False when that cannot be told. */
static bool recount(wn_facts *f)
{
	for (size_t i = 0; i < f->nold; i++) {
		size_t tn;
		const char *tid;
		uint64_t was, now;

		if ((f->kstate[i] & KIND_MASK) != WN_DEP_THREAD)
			continue;
		if (!(tid = wn_facts_key(f, (uint32_t) i, &tn, &was)))
			return false;
		if (wn_map_get(&f->ch_threads, tid, tn))
			continue;
		if (!count_thread(f, tid, tn, &now))
			return false;
		if (now != was && wn_map_put(&f->ch_threads, tid, tn, (void *) 1) != WN_OK)
			return false;
	}
	f->removed = true;
	return true;
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

/* Could a message changed since the file's revision touch key i (an
 * author's address: dates aside)?  Held against the changed messages'
 * threads, ids, titles and senders once for every record naming it. */
static bool key_touched(wn_facts *f, uint32_t i)
{
	uint8_t *st = &f->kstate[i];
	size_t kn;
	const char *key;
	bool t = true;

	if (*st & KEY_JUDGED)
		return (*st & KEY_TOUCHED) != 0;
	key = wn_facts_key(f, i, &kn, NULL);
	if (!key) {
		/* Unreadable now: taken as touched. */
	} else if ((*st & KIND_MASK) == WN_DEP_THREAD) {
		t = wn_map_get(&f->ch_threads, key, kn) != NULL;
	} else if ((*st & KIND_MASK) == WN_DEP_ID) {
		t = wn_map_get(&f->ch_ids, key, kn) != NULL;
	} else if ((*st & KIND_MASK) == WN_DEP_TITLE) {
		t = wn_map_get(&f->ch_titles, key, kn) != NULL;
	} else {
		/* The search was from:"address": any From holding it, a
		 * superset of what notmuch's terms match. */
		char *addr = wn_strndup(key, kn);

		t = false;
		for (size_t j = 0; j < f->nch_from && !t; j++)
			t = !addr || strstr(f->ch_from[j].from, addr);
		free(addr);
	}
	*st |= (uint8_t) (KEY_JUDGED | (t ? KEY_TOUCHED : 0));
	return t;
}

/* Did a sender of key d.key write within d's window? */
static bool from_within(wn_facts *f, const struct dep *d)
{
	size_t kn;
	const char *key = wn_facts_key(f, d->key, &kn, NULL);
	char *addr = key ? wn_strndup(key, kn) : NULL;
	bool in = !addr;

	for (size_t i = 0; addr && i < f->nch_from && !in; i++)
		in = (int64_t) f->ch_from[i].date >= d->lo &&
		     (int64_t) f->ch_from[i].date <= d->hi && strstr(f->ch_from[i].from, addr);
	free(addr);
	return in;
}

/* Could no message changed since the file's revision change the facts
 * of the file's record x?  Its dependencies (series.h: wn_series_deps)
 * against the changed messages. */
static bool deps_hold(wn_facts *f, const struct rec *x, const unsigned char *p)
{
	/* changed_since() was asked at open (the file's records were
	 * there): it reads no record now, and p holds. */
	wn_cache_rd r = { p, x->end, x->deps, false };

	if (f->filerev == f->rev)
		return true;
	if (!changed_since(f))
		return false;
	for (uint64_t k = 0, nd = wn_facts_get_num(&r); k < nd && !r.bad; k++) {
		struct dep d;

		if (!wn_facts_dep_next(&r, &d) ||
		    (key_touched(f, d.key) &&
		     ((f->kstate[d.key] & KIND_MASK) != WN_DEP_FROM || from_within(f, &d))))
			return false;
	}
	return !r.bad;
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

wn_facts *wn_facts_open(wn_index *idx, bool deriving)
{
	wn_facts *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	if (!wn_index_facts_file(idx, "facts", &f->path, &f->key)) {
		free(f);
		return NULL;
	}
	f->idx = idx;
	f->old.fd = f->kwin.fd = f->nkeys.w.fd = f->add.w.fd = -1;
	f->log = (wn_readlog) WN_READLOG_INIT;
	f->seed = wn_hash_seed();
	/* What every list leaves out is no part of the parse cache's key
	 * and changes no revision: the reviews of a thread listed. */
	for (const char *const *t = wn_index_exclude_tags(idx); t && *t; t++)
		f->key = wn_fnv1a_field(f->key, *t);
	f->rev = wn_index_stamp(idx, NULL, &f->gen);
	/* What changed since, while the file's records are all there to
	 * say which changed messages were in the index. */
	if (wn_facts_read(f, file_gone)) {
		if (f->n && f->filerev != f->rev)
			changed_since(f);
	} else {
		f->files_gone = false;
	}
	/* Not when another pass watches (a second statistics view): then
	 * this one keeps nothing. */
	if (deriving && (f->log.fd = wn_facts_tmp_fd(f)) >= 0)
		f->watching = wn_readlog_watch(&f->log);
	/* A handle that writes nothing needs no set of the paths read. */
	if (!f->watching)
		wn_readlog_free(&f->log);
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
	size_t idn, i = SIZE_MAX;
	const unsigned char *p;
	struct rec x;
	bool found = false;

	if (!f)
		return false;
	idn = strlen(it->id);
	if (f->cap && holds(f, false) &&
	    (i = wn_facts_slot_of(f, wn_facts_id_hash(f, it->id, idn), it->id, idn)) != SIZE_MAX)
		found = f->sh[i] && wn_facts_rec_of(f, f->soff[i], &x, &p);
	if (!found || x.n != n || x.digest != digest_of(it) ||
	    (!(f->soff[i] & ADDED) && !deps_hold(f, &x, p))) {
		f->misses++;
		return false;
	}
	*replied = x.replied;
	memcpy(flags, x.flags, n);
	f->hits++;
	return true;
}

/* The dependencies wn_series_deps() names, into a record being put:
 * each a key's number, an author's with its window of dates. */
struct deps {
	wn_facts *f;
	wn_buf b;
	uint64_t n;
};

static bool dep_put(void *arg, wn_dep_kind kind, const char *key, time_t lo, time_t hi)
{
	struct deps *d = arg;
	uint32_t i;

	if (!wn_facts_key_put(d->f, kind, key, strlen(key), count_thread, &i))
		return false;
	wn_facts_put_num(&d->b, (uint64_t) i << 1 | (kind == WN_DEP_FROM));
	if (kind == WN_DEP_FROM) {
		wn_facts_put_num(&d->b, wn_facts_zigzag(lo));
		wn_facts_put_num(&d->b, wn_facts_zigzag(hi));
	}
	d->n++;
	return !wn_buf_failed(&d->b);
}

void wn_facts_put(wn_facts *f, wn_series *s, const wn_item *it, bool replied,
		  const unsigned char *flags, size_t n)
{
	size_t idn = strlen(it->id), k;
	struct deps d = { f, WN_BUF_INIT, 0 };
	wn_buf rec = WN_BUF_INIT;
	bool versions = false, put;
	uint32_t off;
	uint64_t h;

	if (!f || !f->watching || !holds(f, false) || !wn_facts_room(f))
		return;
	for (size_t i = 0; i < n; i++)
		versions |= (flags[i] & WN_FACT_FIXED_KNOWN) != 0;
	/* What could change them, or nothing kept. */
	if (!wn_series_deps(s, it, versions, dep_put, &d)) {
		wn_buf_free(&d.b);
		return;
	}
	wn_facts_put_num(&rec, idn);
	wn_buf_append(&rec, it->id, idn);
	wn_cache_put_u64(&rec, digest_of(it));
	wn_buf_putc(&rec, replied ? 1 : 0);
	wn_facts_put_num(&rec, n);
	wn_buf_append(&rec, (const char *) flags, n);
	wn_facts_put_num(&rec, d.n);
	wn_buf_append(&rec, d.b.data ? d.b.data : "", d.b.len);
	wn_buf_free(&d.b);
	put = wn_facts_rec_put(f, &rec, &off);
	wn_buf_free(&rec);
	/* A record put again replaces the one before (left unwritten). */
	if (!put || (k = wn_facts_slot_of(f, h = wn_facts_id_hash(f, it->id, idn), it->id, idn)) ==
			    SIZE_MAX) {
		/* Nothing more goes in, and nothing is written. */
		f->moved = true;
		return;
	}
	f->n += !f->sh[k];
	f->sh[k] = h;
	f->soff[k] = off;
	f->dirty = true;
}

/* --- writing ------------------------------------------------------------------ */

/* A thread's count of messages now, given the one the file kept: that
 * one for a thread no message changed in since, else counted now. */
static bool count_now(wn_facts *f, const char *tid, size_t tn, uint64_t *n)
{
	if (!wn_map_get(&f->ch_threads, tid, tn) && (f->filerev == f->rev || f->changes_ok))
		return true;
	return count_thread(f, tid, tn, n);
}

/* The records that hold at the handle's revision (the file's that no
 * change since could touch, and this run's) left in the slots, the
 * keys they name marked.  Then the file (facts-file.c), the threads'
 * counts as count_now() says (this run's keys were counted when put). */
static void write_out(wn_facts *f)
{
	uint64_t count, excluded, off = f->recs;
	const unsigned char *p;
	struct rec x;

	if (!count_all(f, &count))
		return;
	excluded = count_excluded(f, NULL);
	for (uint64_t at = off; wn_facts_next_old(f, &off, &x, &p); at = off) {
		size_t i = wn_facts_slot_at(f, wn_facts_id_hash(f, x.id, x.idn), (uint32_t) at + 1);
		wn_cache_rd r;
		struct dep d;

		if (i == SIZE_MAX)
			continue;
		/* Its slot keeps its hash: the chain holds for the others. */
		if (!deps_hold(f, &x, p)) {
			f->soff[i] = 0;
			continue;
		}
		r = (wn_cache_rd){ p, x.end, x.deps, false };
		for (uint64_t k = 0, nd = wn_facts_get_num(&r); k < nd && wn_facts_dep_next(&r, &d);
		     k++)
			f->kstate[d.key] |= KEY_USED;
	}
	wn_facts_write(f, count, excluded, count_now);
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
	/* Not when a file read could not be noted (no identity, and not
	 * read whole to note it by its bytes): it could not be checked
	 * next time.  Also when nothing was derived but the index moved
	 * (the records that still hold are brought forward to its
	 * revision), or a file noted by its bytes has settled. */
	if ((f->dirty || (f->n && f->filerev != f->rev) || wn_facts_files_settled(f)) &&
	    f->watching && !f->log.unsure && holds(f, true))
		write_out(f);
	wn_readlog_free(&f->log);
	wn_map_free(&f->ch_threads, NULL);
	wn_map_free(&f->ch_ids, NULL);
	wn_map_free(&f->ch_titles, NULL);
	for (size_t i = 0; i < f->nch_from; i++)
		free(f->ch_from[i].from);
	free(f->ch_from);
	if (f->old.fd >= 0)
		close(f->old.fd);
	free(f->old.buf);
	free(f->kwin.buf);
	free(f->koff);
	free(f->kstate);
	free(f->bytes_now);
	wn_facts_spill_free(&f->nkeys);
	wn_facts_spill_free(&f->add);
	free(f->kc_hash);
	free(f->kc_num);
	free(f->sh);
	free(f->soff);
	free(f->path);
	free(f);
	*pf = NULL;
}
