/* winnow — tie a review to the patch it reviews.
 *
 * In order of trust: In-Reply-To, the Message-ID a bot names the patch
 * by (0-day's "patch link:"), References (newest first), the footer
 * link Sashiko prints (series cover Message-ID + ?part=N), then the
 * subject ("Re: " + the patch subject), where the newest posting before
 * the review wins and a tie is said as "subject-ambiguous".  When
 * nothing matches the review says "patch not in index" rather than
 * guessing. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link.h"
#include "message.h"
#include "../core/str.h"
#include "winnow/subject.h"
#include "winnow/text.h"

/* Is this mail a patch (or a series' cover letter)?  A review may
 * answer something else -- syzbot's test result replies to the "#syz
 * test" mail, a thread holds human replies -- and that is no patch to
 * show attribution for.  A patch has a "[... PATCH ...]" tag in a
 * subject that is not a reply (wn_subject_is_patch), or carries a diff. */
static bool looks_like_patch(const wn_mail *m)
{
	const char *l;
	size_t pos = 0, n;

	if (wn_subject_is_patch(m->subject))
		return true;
	while (m->body && wn_str_next_line(m->body, m->body_len, &pos, &l, &n))
		if (wn_str_prefix(l, n, "diff --git ") || wn_str_prefix(l, n, "--- a/"))
			return true;
	return false;
}

/* Append s[0..n) to the NULL-terminated *out (*count entries) unless
 * it is there already: a diff's files, or a series', in order, once
 * each.  *out stays NULL-terminated, also when out of memory. */
static wn_status add_file(char ***out, size_t *count, const char *s, size_t n)
{
	char **v = *out;

	for (size_t k = 0; k < *count; k++)
		if (strlen(v[k]) == n && memcmp(v[k], s, n) == 0)
			return WN_OK;
	if (!(v = realloc(v, (*count + 2) * sizeof(*v))))
		return WN_NOMEM;
	*out = v;
	v[*count + 1] = NULL;
	if (!(v[*count] = wn_strndup(s, n)))
		return WN_NOMEM;
	++*count;
	return WN_OK;
}

/* "diff --git a/X b/Y" -> Y: the files the patch touches, added to
 * *out (add_file()).  *out stays NULL while there are none. */
static wn_status diff_files(const wn_mail *m, char ***out, size_t *count)
{
	size_t pos = 0, ln;
	const char *l;

	while (m->body && wn_str_next_line(m->body, m->body_len, &pos, &l, &ln)) {
		const char *b;
		size_t bn;

		if (!wn_str_prefix(l, ln, "diff --git ") || !(b = wn_str_find(l, ln, " b/")))
			continue;
		b += 3;
		bn = ln - (size_t) (b - l);
		while (bn && (b[bn - 1] == '\r' || b[bn - 1] == ' '))
			bn--;
		if (bn && !memchr(b, '\0', bn) && add_file(out, count, b, bn) != WN_OK)
			return WN_NOMEM;
	}
	return WN_OK;
}

/* Add files (NULL-terminated, NULL: none) to *out (add_file()). */
static wn_status add_files(char *const *files, char ***out, size_t *count)
{
	for (size_t i = 0; files && files[i]; i++)
		if (add_file(out, count, files[i], strlen(files[i])) != WN_OK)
			return WN_NOMEM;
	return WN_OK;
}

/* At most this many parts of a series are read for their files. */
#define MAX_PARTS 64

struct lk;
static wn_status series_files(struct lk *k, notmuch_message_t *cover, const char *subject);

/* One linking: the review, and what linking found besides the patch. */
struct lk {
	notmuch_database_t *db;
	wn_item *it;
	const wn_mail *mail;		/* the review's */
	char **files;			/* the linked patch's diff_files() */
	size_t nfiles;
	bool want_files;		/* ... asked for */
	wn_cache_deps *deps;		/* what the answer depends on; NULL */
	wn_link_memo *memo;		/* patches read this run; NULL */
	wn_error *err;
	/* A lookup failed because another process's write discarded the
	 * revision we read: "not found" may be wrong, so the caller
	 * reopens the index and links again. */
	bool changed;
};

/* The patch mail (msg's) is, with its trailers, into *out; NULL when
 * the mail is no patch.  WN_NOMEM is the only error. */
static wn_status patch_of_mail(notmuch_message_t *msg, const wn_mail *mail, wn_patch **out, wn_error *err)
{
	wn_people who;
	wn_patch *p;

	*out = NULL;
	if (!looks_like_patch(mail))
		return WN_OK;
	if (wn_mail_people(mail, &who) != WN_OK)
		return WN_NOMEM;
	if (!(p = calloc(1, sizeof(*p)))) {
		wn_people_clear(&who);
		return WN_NOMEM;
	}
	p->id = wn_strdup0(notmuch_message_get_message_id(msg));
	p->subject = strdup(mail->subject ? mail->subject : "");
	p->author = who.author.text;
	p->submitter = who.sender.text;
	who.author.text = who.sender.text = NULL;
	wn_people_clear(&who);
	p->date = mail->date;
	p->list = wn_mail_list(mail);
	if (!p->id || !p->subject ||
	    wn_trailers_parse(mail->body, mail->body_len, &p->trailers, err) != WN_OK) {
		wn_patch_free(p);
		return WN_NOMEM;
	}
	*out = p;
	return WN_OK;
}

/* What the memo keeps of a patch mail besides the patch: its diff's
 * files (diff_files()) and, unless hunks is NULL, hunks
 * (wn_diff_keys_of()).  diff: the diff itself for the caller, or NULL.
 * WN_NOMEM is the only error. */
static wn_status patch_extras(const wn_mail *mail, char ***own, wn_diff_keys *hunks, wn_diff *diff)
{
	size_t nown = 0;

	if (diff_files(mail, own, &nown) != WN_OK)
		return WN_NOMEM;
	if (!hunks)
		return WN_OK;
	if (!diff)
		return wn_diff_keys_parse(mail->body, mail->body_len, hunks);
	if (wn_diff_parse(mail->body, mail->body_len, diff) != WN_OK)
		return WN_NOMEM;
	if (wn_diff_keys_of(diff, hunks) == WN_OK)
		return WN_OK;
	wn_diff_clear(diff);
	return WN_NOMEM;
}

/* Read patch mail m as try_id() would keep it, into the memo for a
 * review of it later in the run (unless the memo has it, or the read
 * met a discarded revision: changed).  files (unless NULL): its diff's
 * files added to *files (*nfiles of them, add_file()); diff (unless
 * NULL): its hunks.  WN_NOT_FOUND when the mail cannot be read;
 * WN_NOMEM. */
static wn_status read_patch(wn_link_memo *memo, notmuch_message_t *m, bool with_ident, bool changed,
			    char ***files, size_t *nfiles, wn_diff *diff)
{
	const char *id;
	const wn_memo_entry *e;
	wn_error ignored = WN_ERROR_INIT;
	wn_diff_keys hunks = { 0 };
	bool keep = diff || wn_link_memo_wants_hunks(memo);
	wn_mail *mail = NULL;
	wn_patch *p = NULL;
	char *ident = NULL, **own = NULL;
	size_t n = 0;
	wn_status st;

	st = wn_cache_read_mail(m, &mail, true, with_ident ? &ident : NULL, &n, &ignored);
	wn_error_clear(&ignored);
	if (st != WN_OK) {
		free(ident);
		return st == WN_NOMEM ? st : WN_NOT_FOUND;
	}
	/* After the read, which read the term list the id is kept from. */
	id = wn_message_id_read(m);
	e = id ? wn_link_memo_get(memo, id) : NULL;
	wn_path_memo_keep(wn_link_memo_paths(memo), m, id);
	if (patch_extras(mail, &own, keep ? &hunks : NULL, diff) != WN_OK ||
	    (files && add_files(own, files, nfiles) != WN_OK) ||
	    patch_of_mail(m, mail, &p, &ignored) != WN_OK)
		st = WN_NOMEM;
	wn_error_clear(&ignored);
	/* As try_id() keeps a patch it read (its id the index's own). */
	if (st == WN_OK && p && id && !e && !changed) {
		wn_link_memo_put(memo, id, true, with_ident, ident, n, p, own, keep ? &hunks : NULL);
		own = NULL;
	}
	if (st != WN_OK && diff)
		wn_diff_clear(diff);
	wn_diff_keys_clear(&hunks);
	wn_strv_free(own);
	wn_patch_free(p);
	wn_mail_free(&mail);
	free(ident);
	return st;
}

/* Add the files of part m of a series to k's.  A part read for a
 * review of it already is in the memo; one read here goes there.  A
 * part that cannot be read adds no files.  The part's file is one the
 * answer depends on: its identity goes to the cache's record (from the
 * read, else from a stat()).  WN_NOMEM is the only error. */
static wn_status part_files(struct lk *k, notmuch_message_t *m)
{
	const char *id = wn_message_id(m);
	const wn_memo_entry *e = id ? wn_link_memo_get(k->memo, id) : NULL;
	wn_status st = WN_OK;

	if (e && e->rec)
		st = add_files(e->files, &k->files, &k->nfiles);
	else if ((st = read_patch(k->memo, m, k->deps != NULL, k->changed, &k->files, &k->nfiles,
				  NULL)) != WN_NOMEM)
		st = WN_OK;
	if (st != WN_OK || !k->deps)
		return st;
	if (!id)
		k->deps->unknown = true;
	else if ((e = wn_link_memo_get(k->memo, id)) && e->ident_known && e->ident)
		wn_cache_dep_ident(k->deps, id, e->ident, e->ident_len);
	else
		wn_cache_dep(k->deps, id, m);
	return WN_OK;
}

wn_status wn_link_read_patch(wn_link_memo *memo, notmuch_message_t *msg, bool with_ident, wn_diff *diff)
{
	return read_patch(memo, msg, with_ident, false, NULL, NULL, diff);
}

/* The files a series touches, for a review of its cover letter
 * ("[PATCH v3 0/4]", no diff; syzbot ci answers series so): the diffs of
 * the parts in the cover's thread with its version and count. */
static wn_status series_files(struct lk *k, notmuch_message_t *cover, const char *subject)
{
	notmuch_query_t *q;
	notmuch_messages_t *msgs;
	wn_subject cs;
	char *qs = NULL;
	size_t parts = 0;
	wn_status st = WN_OK;

	if (wn_subject_parse(subject, &cs) != WN_OK)
		return WN_NOMEM;
	if (cs.reply || cs.part != 0 || cs.total < 1 ||
	    asprintf(&qs, "thread:%s", notmuch_message_get_thread_id(cover)) < 0 ||
	    !(q = notmuch_query_create(k->db, qs))) {
		wn_subject_clear(&cs);
		free(qs);
		return WN_OK;
	}
	notmuch_query_set_sort(q, NOTMUCH_SORT_OLDEST_FIRST);
	/* The parts that came so far: one arriving since is a mail of the
	 * thread changed since; one gone or rewritten, a file whose
	 * identity the record keeps (part_files()). */
	if (k->deps)
		wn_cache_dep_thread(k->deps, notmuch_message_get_thread_id(cover));
	if ((msgs = wn_message_search(q, &k->changed))) {
		for (; st == WN_OK && parts < MAX_PARTS && notmuch_messages_valid(msgs);
		     notmuch_messages_move_to_next(msgs)) {
			notmuch_message_t *m = notmuch_messages_get(msgs);
			wn_subject ps;

			if (wn_subject_parse(notmuch_message_get_header(m, "subject"), &ps) != WN_OK) {
				st = WN_NOMEM;
			} else if (ps.patch && !ps.reply && ps.part >= 1 && ps.total == cs.total &&
				   ps.version == cs.version) {
				parts++;
				st = part_files(k, m);
			}
			wn_subject_clear(&ps);
			notmuch_message_destroy(m);
		}
	}
	notmuch_query_destroy(q);
	free(qs);
	wn_subject_clear(&cs);
	return st;
}

/* *ident (when not NULL): the identity of msg's file, from the read
 * when there was one, else from a stat() as wn_cache_ident() takes it.
 * *own, *hunks: the files and hunks of the patch's own diff, for the
 * memo (NULL, empty: none). */
static wn_status load_patch(struct lk *k, const char *id, notmuch_message_t *msg, wn_link how,
			    char **ident, size_t *n, bool *have_ident, char ***own,
			    wn_diff_keys *hunks)
{
	wn_item *it = k->it;
	wn_error *err = k->err;
	wn_mail *mail = NULL;
	wn_patch *p = NULL;
	wn_status st;

	st = wn_cache_read_mail(msg, &mail, true, ident, n, err);	/* wn_mail_list() */
	if (ident && st != WN_NOMEM)
		*have_ident = st == WN_OK ? *ident != NULL : wn_cache_ident(msg, ident, n);
	if (st != WN_OK)
		return st;
	wn_path_memo_keep(wn_link_memo_paths(k->memo), msg, id);
	if (patch_of_mail(msg, mail, &p, err) != WN_OK)
		goto nomem;
	if (!p) {
		wn_mail_free(&mail);
		return WN_NOT_FOUND;
	}
	/* Every patch's files and hunks go to the memo: a review of its
	 * series' cover letter may ask for the first, a series' pass for
	 * the second, later in the run. */
	if (patch_extras(mail, own, wn_link_memo_wants_hunks(k->memo) ? hunks : NULL, NULL) != WN_OK ||
	    (k->want_files && add_files(*own, &k->files, &k->nfiles) != WN_OK))
		goto nomem;
	/* A cover letter has no diff: its series' parts have. */
	if (k->want_files && !k->nfiles && series_files(k, msg, mail->subject) != WN_OK)
		goto nomem;
	wn_mail_free(&mail);
	it->patch = p;
	it->link = how;
	return WN_OK;
nomem:
	wn_patch_free(p);
	wn_mail_free(&mail);
	return wn_error_set(err, WN_NOMEM, "out of memory");
}

/* What the memo keeps of id: its dependency, and its patch or none. */
static wn_status from_memo(struct lk *k, const char *id, const wn_memo_entry *e, wn_link how)
{
	if (k->deps) {
		if (e->held && !e->ident)
			k->deps->unknown = true;	/* as wn_cache_dep() says */
		else
			wn_cache_dep_ident(k->deps, id, e->ident, e->ident_len);
	}
	if (!e->rec)
		return WN_NOT_FOUND;
	if (!(k->it->patch = wn_cache_decode_patch(e->rec, e->rec_len)))
		return wn_error_set(k->err, WN_NOMEM, "out of memory");
	k->it->link = how;
	return WN_OK;
}

/* Try the message id; WN_NOT_FOUND when the index does not hold it or
 * its file is gone. */
static wn_status try_id(struct lk *k, const char *id, wn_link how)
{
	const wn_memo_entry *e;
	notmuch_message_t *msg;
	char *ident = NULL, **own = NULL;
	wn_diff_keys hunks = { 0 };
	size_t n = 0;
	bool held, have_ident = false;
	wn_status st;

	if (!id || !*id || strcmp(id, k->it->id) == 0)
		return WN_NOT_FOUND;
	/* Read for another review already: the same answer.  One that
	 * wants the diff's files takes the patch's own; a cover's (none)
	 * are its series' parts', read again. */
	e = wn_link_memo_get(k->memo, id);
	if (e && (e->ident_known || !k->deps) && (!k->want_files || !e->rec || e->files)) {
		st = from_memo(k, id, e, how);
		if (st == WN_OK && k->want_files && add_files(e->files, &k->files, &k->nfiles) != WN_OK)
			st = wn_error_set(k->err, WN_NOMEM, "out of memory");
		return st;
	}
	msg = wn_message_lookup_read(k->db, id, &k->changed); /* load_patch() reads it */
	held = msg != NULL;
	st = msg ? load_patch(k, id, msg, how, k->deps ? &ident : NULL, &n, &have_ident, &own,
			      &hunks) :
		   WN_NOT_FOUND;
	if (k->deps) {
		if (msg && !have_ident)
			k->deps->unknown = true;
		else
			wn_cache_dep_ident(k->deps, id, ident, n);
	}
	if (msg)
		notmuch_message_destroy(msg);
	/* Not what a discarded revision gave: that is read again. */
	if (st != WN_NOMEM && !k->changed)
		wn_link_memo_put(k->memo, id, held, k->deps != NULL, ident, n,
				 st == WN_OK ? k->it->patch : NULL, st == WN_OK ? own : NULL,
				 st == WN_OK && wn_link_memo_wants_hunks(k->memo) ? &hunks : NULL);
	if (st != WN_OK || k->changed)
		wn_strv_free(own);
	wn_diff_keys_clear(&hunks);
	free(ident);
	return st == WN_NOMEM ? st : (st == WN_OK ? WN_OK : WN_NOT_FOUND);
}

/* Strip reply markers ("Re:", "RE:", "Aw:", a bot's "[syzbot ci] Re:") and
 * normalise whitespace and case.  malloc'd. */
static char *subject_key(const char *s)
{
	for (;;) {
		const char *untagged;
		size_t m;

		while (*s == ' ' || *s == '\t')
			s++;
		if ((m = wn_text_reply_marker(s)))
			s += m;
		else if ((untagged = wn_bot_subject_untag(s)) != s)
			s = untagged;	/* the bots' subject_tags */
		else
			break;
	}
	return wn_text_normalize(s);
}

/* Run query and give the id (malloc'd) of the first message accepted by
 * pick(), in the given order; NULL if none. */
typedef bool (*pick_fn)(notmuch_message_t *msg, const void *arg);

static char *search_one(struct lk *k, const char *qs, notmuch_sort_t order,
			pick_fn pick, const void *arg)
{
	notmuch_query_t *q = notmuch_query_create(k->db, qs);
	notmuch_messages_t *msgs;
	char *found = NULL;

	if (!q)
		return NULL;
	notmuch_query_set_sort(q, order);
	if ((msgs = wn_message_search(q, &k->changed))) {
		for (; !found && notmuch_messages_valid(msgs); notmuch_messages_move_to_next(msgs)) {
			notmuch_message_t *msg = notmuch_messages_get(msgs);
			if (pick(msg, arg))
				found = wn_strdup0(wn_message_id(msg));
			notmuch_message_destroy(msg);
		}
	}
	notmuch_query_destroy(q);
	return found;
}

static bool pick_part(notmuch_message_t *msg, const void *arg)
{
	const long *part = arg;

	return wn_subject_part(notmuch_message_get_header(msg, "subject")) == *part;
}

static wn_status try_footer(struct lk *k)
{
	const wn_review *r = k->it->review;
	notmuch_message_t *cover;
	char *qs = NULL, *patch;
	long part = r->part;
	wn_status st;

	if (!r->cover_id || r->part <= 0)
		return WN_NOT_FOUND;
	cover = wn_message_lookup(k->db, r->cover_id, &k->changed);
	if (k->deps)
		wn_cache_dep(k->deps, r->cover_id, cover);
	if (!cover)
		return WN_NOT_FOUND;
	if (asprintf(&qs, "thread:%s", notmuch_message_get_thread_id(cover)) < 0) {
		notmuch_message_destroy(cover);
		return wn_error_set(k->err, WN_NOMEM, "out of memory");
	}
	/* The first part of that number in the thread, oldest first: only
	 * a mail of the thread come or changed since can be another first
	 * (the one taken is looked up by id after; the cover is, above). */
	if (k->deps)
		wn_cache_dep_thread(k->deps, notmuch_message_get_thread_id(cover));
	notmuch_message_destroy(cover);
	patch = search_one(k, qs, NOTMUCH_SORT_OLDEST_FIRST, pick_part, &part);
	free(qs);
	st = try_id(k, patch, WN_LINK_FOOTER);
	free(patch);
	return st;
}

struct subject_pick {
	const char *key;	/* normalised patch subject wanted */
	const char *self;	/* the review's own id */
	bool title_only;	/* key is a bare commit title: compare titles */
};

/* Is msg a posting of the subject sp wants?  Not whether it is the
 * review itself: postings_of() asks that of the few that are, reading
 * their ids (a value of the index each) only. */
static bool pick_subject(notmuch_message_t *msg, const struct subject_pick *sp)
{
	const char *subject = notmuch_message_get_header(msg, "subject");
	char *key, *title;
	bool ok;

	if (!subject || wn_subject_posting_keys(subject, &key, &title) != WN_OK)
		return false;
	ok = key && (strcmp(key, sp->key) == 0 || (sp->title_only && strcmp(title, sp->key) == 0));
	free(key);
	free(title);
	return ok;
}

/* Postings of one subject that choose() weighs. */
struct postings {
	char **id;
	time_t *date;
	size_t n;
	bool oom;
};

static void postings_free(struct postings *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->id[i]);
	free(p->id);
	free(p->date);
	memset(p, 0, sizeof(*p));
}

/* A review comes after its patch, and a posting that far newer is no
 * candidate at all (the next version, say): a day of slack for skewed
 * clocks.  Two postings this close are a double send.  At most this
 * many postings of one subject are weighed (a hostile index can hold a
 * million within the slack). */
#define SKEW 86400
#define DOUBLE_SEND 600
#define MAX_POSTINGS 256

/* choose()'s reference: when the review was written (or the bot took
 * the patch); none, any time at all. */
static time_t ref_time(time_t ref)
{
	return ref > 0 ? ref : (time_t) 1 << 62;
}

/* The postings of qs that choose() can weigh for ref, newest first:
 * every one within the slack after ref, the newest before it and those
 * a double send away from that one.  The older ones, however many a
 * generic title ("bpf: remove a redundant null check") has gathered
 * over the years, are neither read nor kept: oldest first and capped,
 * this read every posting and weighed the oldest 256 of them, which
 * passed the newest before ref by. */
static void postings_of(struct lk *k, const char *qs, const struct subject_pick *sp, time_t ref,
			struct postings *out)
{
	notmuch_query_t *q = notmuch_query_create(k->db, qs);
	notmuch_messages_t *msgs;
	time_t before = 0; /* the newest posting before ref, once found */

	memset(out, 0, sizeof(*out));
	ref = ref_time(ref);
	/* choose() weighs these postings: one come or changed since is a
	 * mail that pick_subject() takes, one gone a mail looked up that is
	 * no more. */
	if (k->deps)
		wn_cache_dep_subject(k->deps, sp->key, sp->title_only);
	if (!q)
		return;
	notmuch_query_set_sort(q, NOTMUCH_SORT_NEWEST_FIRST);
	if ((msgs = wn_message_search(q, &k->changed))) {
		for (; notmuch_messages_valid(msgs) && out->n < MAX_POSTINGS && !out->oom;
		     notmuch_messages_move_to_next(msgs)) {
			notmuch_message_t *msg = notmuch_messages_get(msgs);
			time_t date = msg ? notmuch_message_get_date(msg) : 0;
			const char *id = NULL;
			char **nid = NULL;
			time_t *nd = NULL;

			if (msg && before && before - date > DOUBLE_SEND) {
				notmuch_message_destroy(msg);
				break;
			}
			if (msg && date <= ref + SKEW && pick_subject(msg, sp))
				id = wn_message_id(msg);
			if (id && strcmp(id, sp->self) != 0) {
				if (k->deps)
					wn_cache_dep_present(k->deps, id);
				nid = realloc(out->id, (out->n + 1) * sizeof(*nid));
				if (nid)
					out->id = nid;
				nd = nid ? realloc(out->date, (out->n + 1) * sizeof(*nd)) : NULL;
				if (nd)
					out->date = nd;
				if (!nid || !nd || !(out->id[out->n] = strdup(id))) {
					out->oom = true;
				} else {
					out->date[out->n++] = date;
					if (!before && date <= ref)
						before = date;
				}
			}
			if (msg)
				notmuch_message_destroy(msg);
		}
	}
	notmuch_query_destroy(q);
}

/* The posting the review answers: the newest one that precedes ref (the
 * review, or when the bot says so, when it took the patch); failing
 * that, the oldest one within a clock skew after it.  *ambiguous when
 * another posting is as plausible: one that also precedes ref within
 * ten minutes of the chosen (a double send), or when the chosen one
 * needed the skew while an earlier one exists.  SIZE_MAX: none. */
static size_t choose(const struct postings *p, time_t ref, bool *ambiguous)
{
	size_t best = SIZE_MAX, i;

	*ambiguous = false;
	ref = ref_time(ref);
	for (i = 0; i < p->n; i++)
		if (p->date[i] <= ref && (best == SIZE_MAX || p->date[i] >= p->date[best]))
			best = i;
	if (best != SIZE_MAX) {
		for (i = 0; i < p->n; i++)
			if (i != best && p->date[i] <= ref &&
			    p->date[best] - p->date[i] <= DOUBLE_SEND)
				*ambiguous = true;
		return best;
	}
	for (i = 0; i < p->n; i++)
		if (p->date[i] <= ref + SKEW && (best == SIZE_MAX || p->date[i] < p->date[best]))
			best = i;
	return best;
}

/* Words of a subject put into its search (see try_subject). */
#define PHRASE_WORDS 12

/* A word longer than this may be past the term generator's limit (64
 * bytes), which leaves it out of the index. */
#define WORD_MAX 32

/* Does c end a word for Xapian's term generator whatever stands beside
 * it?  Not these: ' and & join letters ("don't", "AT&T"), . , ; join
 * digits ("1.5", "1,000") and letters ("U.S.A."), + and # belong to the
 * word before ("C++", "C#"), and a byte past ASCII may be a letter. */
static bool word_edge(int c)
{
	return c == '\0' || strchr(" \t()[]{}<>\"/:-=*!?|~^%$@`\\", c) != NULL;
}

/* "subject:\"w1\" and subject:\"w2\"...": the words of the first
 * PHRASE_WORDS words of key (a patch's whole subject, normalised) that
 * are one term of the index whatever surrounds them (quoted alone, an
 * operator's word is a word too).  A posting of the key holds every
 * one, the bracket groups' "v2" and "3/5" too: they narrow a generic
 * title's hundreds of postings (every version and part of every series
 * that used it) to the few of one version and part, where the phrase of
 * the title found them all.  A word left out only widens the search,
 * and one word can hold thousands ("a-a-a..."): PHRASE_WORDS at most.
 * *q empty: no such word. */
static wn_status key_words(const char *key, wn_buf *q)
{
	size_t spaces = 0, found = 0;
	const char *end = key;

	while (*end && (spaces += *end == ' ') < PHRASE_WORDS)
		end++;
	for (const char *c = key; c < end && found < PHRASE_WORDS;) {
		size_t n = 0;

		if (!str_ident_char((unsigned char) *c)) {
			c++;
			continue;
		}
		while (str_ident_char((unsigned char) c[n]))
			n++;
		if (n <= WORD_MAX && (c == key || word_edge((unsigned char) c[-1])) &&
		    word_edge((unsigned char) c[n]) &&
		    wn_buf_printf(q, "%ssubject:\"%.*s\"", found++ ? " and " : "", (int) n, c) !=
			    WN_OK)
			return WN_NOMEM;
		c += n;
	}
	return WN_OK;
}

/* subject:"phrase" into q, a quote inside (which would end the phrase)
 * made a space.  Xapian's phrase search grows faster than linearly with
 * the phrase's length, and a hostile subject can hold 100,000 words:
 * the first words of the title narrow enough. */
static wn_status title_phrase(const char *phrase, wn_buf *q)
{
	size_t words = 0;

	if (wn_buf_puts(q, "subject:\"") != WN_OK)
		return WN_NOMEM;
	for (const char *c = phrase; *c && words < PHRASE_WORDS; c++) {
		words += *c == ' ';
		if (words < PHRASE_WORDS && wn_buf_putc(q, *c == '"' ? ' ' : *c) != WN_OK)
			return WN_NOMEM;
	}
	return wn_buf_puts(q, "\"");
}

/* subject: a review's Subject ("Re: [PATCH v2 1/3] x: y") or the title
 * a bot names the patch by (BPF CI's In-Reply-To-Subject, the commit
 * title of a 0-day tree report).  A bare title matches the title part
 * of a patch subject.  Every version of a series carries the same
 * title, and a resent patch the same subject: choose() picks the
 * posting, and says when it could not tell. */
static wn_status try_subject(struct lk *k, const char *subject)
{
	struct subject_pick sp = { NULL, k->it->id, false };
	const wn_review *r = k->it->review;
	struct postings p = { 0 };
	wn_subject ks = { 0 };
	wn_buf q = WN_BUF_INIT;
	char *key = subject ? subject_key(subject) : NULL;
	wn_status st = WN_NOT_FOUND;
	size_t pick;
	time_t ref;
	bool ambiguous;

	if (!key || !*key)
		goto out;
	sp.title_only = key[0] != '[';
	/* The search only narrows; pick_subject() compares exactly.  A
	 * patch's subject: its words (key_words()).  A bare title, or a
	 * subject with none of those: the phrase of its title part (the
	 * postings of a bare title have bracket groups of their own). */
	if ((!sp.title_only && key_words(key, &q) != WN_OK) ||
	    (!q.len && (wn_subject_parse(key, &ks) != WN_OK ||
			title_phrase(*ks.title ? key + ks.title_at : key, &q) != WN_OK)))
		goto nomem;
	sp.key = key;
	ref = r->posted_before > 0 ? r->posted_before : k->it->date;
	postings_of(k, wn_buf_str(&q), &sp, ref, &p);
	if (p.oom)
		goto nomem;
	pick = choose(&p, ref, &ambiguous);
	if (pick != SIZE_MAX)
		st = try_id(k, p.id[pick], ambiguous ? WN_LINK_SUBJECT_AMBIGUOUS : WN_LINK_SUBJECT);
	goto out;
nomem:
	st = wn_error_set(k->err, WN_NOMEM, "out of memory");
out:
	wn_subject_clear(&ks);
	postings_free(&p);
	wn_buf_free(&q);
	free(key);
	return st;
}

/* The report a follow-up follows: the oldest message it refers to that
 * the index holds and that is no reply -- the mail that opened the
 * thread.  A reply to a "#syz test" mail names that mail last. */
static wn_status link_report(struct lk *k)
{
	const wn_mail *m = k->mail;
	size_t n = m->nreferences;

	for (size_t i = 0; i <= n; i++) {
		const char *id = i < n ? m->references[i] : m->in_reply_to;
		notmuch_message_t *msg = id && *id ? wn_message_lookup(k->db, id, &k->changed) : NULL;
		const char *subject = msg ? notmuch_message_get_header(msg, "subject") : NULL;

		if (k->deps && id && *id)
			wn_cache_dep(k->deps, id, msg);
		bool root = subject && !wn_text_is_reply(subject);

		if (root && !(k->it->report_id = strdup(id))) {
			notmuch_message_destroy(msg);
			return wn_error_set(k->err, WN_NOMEM, "out of memory");
		}
		if (msg)
			notmuch_message_destroy(msg);
		if (root)
			break;
	}
	return WN_OK;
}

wn_status wn_link_patch(notmuch_database_t *db, wn_item *it, const wn_mail *review, char ***files,
			wn_cache_deps *deps, wn_link_memo *memo, bool *changed, wn_error *err)
{
	struct lk k = { db, it, review, NULL, 0, files != NULL, deps, memo, err, false };
	bool report = it->review->kind == WN_KIND_REPORT;
	wn_status st;

	if (files)
		*files = NULL;
	it->link = WN_LINK_NONE;
	if (it->review->followup != WN_FOLLOWUP_NONE && link_report(&k) != WN_OK)
		return WN_NOMEM;
	st = try_id(&k, review->in_reply_to, WN_LINK_IN_REPLY_TO);
	if (st == WN_NOT_FOUND)
		st = try_id(&k, it->review->patch_id, WN_LINK_PATCH_LINK);
	for (size_t i = review->nreferences; st == WN_NOT_FOUND && i > 0; i--)
		st = try_id(&k, review->references[i - 1], WN_LINK_REFERENCES);
	if (st == WN_NOT_FOUND)
		st = try_footer(&k);
	/* A bug report opens its own thread about a tree and answers no
	 * patch (syzbot's, 0-day's): a patch its title found could only be a fix
	 * sent after it, and the phrase searches are dear (a fifth of a
	 * cold list of real bot mail, half of them for syzbot's reports). */
	if (st == WN_NOT_FOUND && !report && it->review->patch_subject)
		st = try_subject(&k, it->review->patch_subject);
	if (st == WN_NOT_FOUND && !report)
		st = try_subject(&k, review->subject);
	if (st == WN_OK && files)
		*files = k.files;
	else
		wn_strv_free(k.files);
	*changed = k.changed;
	return st == WN_NOT_FOUND ? WN_OK : st;
}
