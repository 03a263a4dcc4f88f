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

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link.h"
#include "message.h"
#include "../core/str.h"
#include "winnow/text.h"

/* Is this mail a patch (or a series' cover letter)?  A review may
 * answer something else -- syzbot's test result replies to the "#syz
 * test" mail, a thread holds human replies -- and that is no patch to
 * show attribution for.  A patch has a "[... PATCH ...]" tag in a
 * subject that is not a reply, or carries a diff. */
static bool looks_like_patch(const wn_mail *m)
{
	const char *s = m->subject ? m->subject : "", *close, *l;
	size_t pos = 0, n;

	while (*s == ' ')
		s++;
	if (*s == '[' && (close = strchr(s, ']'))) {
		for (const char *p = s; p + 5 <= close; p++)
			if (wn_text_prefix_ci(p, "patch"))
				return true;
	}
	while (m->body && str_next_line(m->body, m->body_len, &pos, &l, &n))
		if (str_prefix(l, n, "diff --git ") || str_prefix(l, n, "--- a/"))
			return true;
	return false;
}

/* "diff --git a/X b/Y" -> Y, once each, in diff order: the files the
 * patch touches.  *out stays NULL when there are none. */
static wn_status diff_files(const wn_mail *m, char ***out)
{
	char **v = NULL;
	size_t n = 0, pos = 0, ln;
	const char *l;

	while (m->body && str_next_line(m->body, m->body_len, &pos, &l, &ln)) {
		const char *b;
		size_t k, bn;
		char **nv;
		bool dup = false;

		if (!str_prefix(l, ln, "diff --git ") || !(b = str_find(l, ln, " b/")))
			continue;
		b += 3;
		bn = ln - (size_t) (b - l);
		while (bn && (b[bn - 1] == '\r' || b[bn - 1] == ' '))
			bn--;
		for (k = 0; k < n && !dup; k++)
			dup = strlen(v[k]) == bn && memcmp(v[k], b, bn) == 0;
		if (dup || !bn || memchr(b, '\0', bn))
			continue;
		nv = realloc(v, (n + 2) * sizeof(*v));
		if (!nv)
			goto nomem;
		v = nv;
		if (!(v[n] = wn_strndup(b, bn)))
			goto nomem;
		v[++n] = NULL;
	}
	*out = v;
	return WN_OK;
nomem:
	if (v)
		v[n] = NULL;
	wn_strv_free(v);
	return WN_NOMEM;
}

/* One linking: the review, and what linking found besides the patch. */
struct lk {
	notmuch_database_t *db;
	wn_item *it;
	const wn_mail *mail;		/* the review's */
	char **files;			/* the linked patch's diff_files() */
	bool want_files;		/* ... asked for */
	wn_cache_deps *deps;		/* what the answer depends on; NULL */
	wn_error *err;
	/* A lookup failed because another process's write discarded the
	 * revision we read: "not found" may be wrong, so the caller
	 * reopens the index and links again. */
	bool changed;
};

static wn_status load_patch(struct lk *k, notmuch_message_t *msg, wn_link how)
{
	wn_item *it = k->it;
	wn_error *err = k->err;
	wn_mail *mail = NULL;
	wn_patch *p;
	wn_status st;

	st = wn_message_read_mail(msg, &mail, err);
	if (st != WN_OK)
		return st;
	if (!looks_like_patch(mail)) {
		wn_mail_free(&mail);
		return WN_NOT_FOUND;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		goto nomem;
	p->id = wn_strdup0(notmuch_message_get_message_id(msg));
	p->subject = strdup(mail->subject ? mail->subject : "");
	p->author = strdup(mail->from ? mail->from : "");
	p->date = mail->date;
	p->list = wn_mail_list(mail);
	if (!p->id || !p->subject || !p->author)
		goto nomem;
	st = wn_trailers_parse(mail->body, mail->body_len, &p->trailers, err);
	if (st != WN_OK || (k->want_files && diff_files(mail, &k->files) != WN_OK))
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

/* Try the message id; WN_NOT_FOUND when the index does not hold it or
 * its file is gone. */
static wn_status try_id(struct lk *k, const char *id, wn_link how)
{
	notmuch_message_t *msg;
	wn_status st;

	if (!id || !*id || strcmp(id, k->it->id) == 0)
		return WN_NOT_FOUND;
	msg = wn_message_lookup(k->db, id, &k->changed);
	if (k->deps)
		wn_cache_dep(k->deps, id, msg);
	if (!msg)
		return WN_NOT_FOUND;
	st = load_patch(k, msg, how);
	notmuch_message_destroy(msg);
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

static bool is_reply(const char *subject)
{
	return wn_text_is_reply(subject);
}

/* "[PATCH v2 3/5] ..." → 3 and 5; false when the subject has no N/M. */
static bool patch_number(const char *subject, long *n, long *m)
{
	const char *open = strchr(subject, '[');
	const char *close = open ? strchr(open, ']') : NULL;

	if (!open || !close)
		return false;
	for (const char *p = close - 1; p > open; p--) {
		if (*p == '/' && isdigit((unsigned char) p[1])) {
			const char *q = p;
			while (q > open && isdigit((unsigned char) q[-1]))
				q--;
			if (q == p)
				return false;
			*n = strtol(q, NULL, 10);
			*m = strtol(p + 1, NULL, 10);
			return true;
		}
	}
	return false;
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

	if (k->deps)
		k->deps->searched = true;
	if (!q)
		return NULL;
	notmuch_query_set_sort(q, order);
	if ((msgs = wn_message_search(q, &k->changed))) {
		for (; !found && notmuch_messages_valid(msgs); notmuch_messages_move_to_next(msgs)) {
			notmuch_message_t *msg = notmuch_messages_get(msgs);
			if (pick(msg, arg))
				found = wn_strdup0(notmuch_message_get_message_id(msg));
			notmuch_message_destroy(msg);
		}
	}
	notmuch_query_destroy(q);
	return found;
}

static bool pick_part(notmuch_message_t *msg, const void *arg)
{
	const long *part = arg;
	const char *subject = notmuch_message_get_header(msg, "subject");
	long n, m;

	return subject && !is_reply(subject) && patch_number(subject, &n, &m) && n == *part;
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
	notmuch_message_destroy(cover);
	patch = search_one(k, qs, NOTMUCH_SORT_OLDEST_FIRST, pick_part, &part);
	free(qs);
	st = try_id(k, patch, WN_LINK_FOOTER);
	free(patch);
	return st;
}

/* The title of a patch subject: the leading "[PATCH v2 3/5]"-style
 * groups removed.  s is normalised already; returns a pointer into s. */
static const char *subject_title(const char *s)
{
	for (;;) {
		const char *close;

		while (*s == ' ')
			s++;
		if (*s != '[' || !(close = strchr(s, ']')))
			return s;
		s = close + 1;
	}
}

struct subject_pick {
	const char *key;	/* normalised patch subject wanted */
	const char *self;	/* the review's own id */
	bool title_only;	/* key is a bare commit title: compare titles */
};

static bool pick_subject(notmuch_message_t *msg, const void *arg)
{
	const struct subject_pick *sp = arg;
	const char *subject = notmuch_message_get_header(msg, "subject");
	char *key;
	bool ok;

	if (!subject || is_reply(subject) ||
	    strcmp(notmuch_message_get_message_id(msg), sp->self) == 0)
		return false;
	key = wn_text_normalize(subject);
	ok = key && (strcmp(key, sp->key) == 0 ||
		     (sp->title_only && strcmp(subject_title(key), sp->key) == 0));
	free(key);
	return ok;
}

/* Postings of one subject, oldest first. */
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
 * clocks.  At most this many postings of one subject are weighed. */
#define SKEW 86400
#define MAX_POSTINGS 256

static void postings_of(struct lk *k, const char *qs, const struct subject_pick *sp,
			struct postings *out)
{
	notmuch_query_t *q = notmuch_query_create(k->db, qs);
	notmuch_messages_t *msgs;

	memset(out, 0, sizeof(*out));
	if (k->deps)
		k->deps->searched = true;
	if (!q)
		return;
	notmuch_query_set_sort(q, NOTMUCH_SORT_OLDEST_FIRST);
	if ((msgs = wn_message_search(q, &k->changed))) {
		for (; notmuch_messages_valid(msgs) && out->n < MAX_POSTINGS && !out->oom;
		     notmuch_messages_move_to_next(msgs)) {
			notmuch_message_t *msg = notmuch_messages_get(msgs);
			char **nid = NULL;
			time_t *nd = NULL;

			if (pick_subject(msg, sp)) {
				nid = realloc(out->id, (out->n + 1) * sizeof(*nid));
				if (nid)
					out->id = nid;
				nd = nid ? realloc(out->date, (out->n + 1) * sizeof(*nd)) : NULL;
				if (nd)
					out->date = nd;
				if (!nid || !nd || !(out->id[out->n] = wn_strdup0(notmuch_message_get_message_id(msg))))
					out->oom = true;
				else
					out->date[out->n++] = notmuch_message_get_date(msg);
			}
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
	if (ref <= 0)
		ref = (time_t) 1 << 62;
	for (i = 0; i < p->n; i++)
		if (p->date[i] <= ref && (best == SIZE_MAX || p->date[i] >= p->date[best]))
			best = i;
	if (best != SIZE_MAX) {
		for (i = 0; i < p->n; i++)
			if (i != best && p->date[i] <= ref && p->date[best] - p->date[i] <= 600)
				*ambiguous = true;
		return best;
	}
	for (i = 0; i < p->n; i++)
		if (p->date[i] <= ref + SKEW && (best == SIZE_MAX || p->date[i] < p->date[best]))
			best = i;
	return best;
}

/* Words of a title put into the phrase query (see try_subject). */
#define PHRASE_WORDS 12

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
	size_t words = 0;
	char *phrase;
	wn_buf q = WN_BUF_INIT;
	char *key = subject ? subject_key(subject) : NULL;
	wn_status st = WN_NOT_FOUND;
	size_t pick;
	bool ambiguous;

	if (!key || !*key)
		goto out;
	sp.title_only = key[0] != '[';
	/* The phrase search only narrows (a quote inside would end the
	 * phrase, so it becomes a space); pick_subject() compares exactly.
	 * Only the title goes into the phrase: the bracket groups hold
	 * words ("v2", "3/5") the indexer may split differently. */
	phrase = (char *) subject_title(key);
	if (!*phrase)
		phrase = key;
	if (wn_buf_puts(&q, "subject:\"") != WN_OK)
		goto nomem;
	/* Xapian's phrase search grows faster than linearly with the
	 * phrase's length, and a hostile subject can hold 100,000 words:
	 * the first words of the title narrow enough. */
	for (const char *c = phrase; *c && words < PHRASE_WORDS; c++) {
		words += *c == ' ';
		if (words < PHRASE_WORDS && wn_buf_putc(&q, *c == '"' ? ' ' : *c) != WN_OK)
			goto nomem;
	}
	if (wn_buf_puts(&q, "\"") != WN_OK)
		goto nomem;
	sp.key = key;
	postings_of(k, wn_buf_str(&q), &sp, &p);
	if (p.oom)
		goto nomem;
	pick = choose(&p, r->posted_before > 0 ? r->posted_before : k->it->date, &ambiguous);
	if (pick != SIZE_MAX)
		st = try_id(k, p.id[pick], ambiguous ? WN_LINK_SUBJECT_AMBIGUOUS : WN_LINK_SUBJECT);
	goto out;
nomem:
	st = wn_error_set(k->err, WN_NOMEM, "out of memory");
out:
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
		bool root = subject && !is_reply(subject);

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
			wn_cache_deps *deps, bool *changed, wn_error *err)
{
	struct lk k = { db, it, review, NULL, files != NULL, deps, err, false };
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
	if (st == WN_NOT_FOUND && it->review->patch_subject)
		st = try_subject(&k, it->review->patch_subject);
	if (st == WN_NOT_FOUND)
		st = try_subject(&k, review->subject);
	if (st == WN_OK && files)
		*files = k.files;
	else
		wn_strv_free(k.files);
	*changed = k.changed;
	return st == WN_NOT_FOUND ? WN_OK : st;
}
