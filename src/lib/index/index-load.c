/* winnow — loading an item: its message, its verdicts and notes, the
 * review its bot's mail holds (through the cache), the patch it answers
 * (index.c opens the handle, index-query.c finds the rows). */
#include "autoconfig.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../core/hash.h"
#include "cache.h"
#include "copy.h"
#include "link.h"
#include "message.h"
#include "index-private.h"
#include "props.h"
#include "winnow/text.h"

/* How often a read is tried again after the index changed under it. */

wn_status wn_index_message(wn_index *idx, const char *id, notmuch_message_t **out, wn_error *err)
{
	/* Xapian keeps few old revisions: while notmuch new or a tagging
	 * script commits, a lookup on our handle can fail with "revision
	 * discarded" (DatabaseModifiedError).  Reopen and try again, as
	 * notmuch's own tools do, rather than call the message missing. */
	for (int tries = 0;; tries++) {
		notmuch_status_t nst = notmuch_database_find_message(idx->db, id, out);
		wn_status st;

		/* Found; or absent, asked twice, the second time on a
		 * fresh revision: a document read while its revision was
		 * discarded can come back as "no such message". */
		if (nst == NOTMUCH_STATUS_SUCCESS && (*out || tries > 0))
			return WN_OK;
		*out = NULL;
		if (nst != NOTMUCH_STATUS_SUCCESS &&
		    (nst != NOTMUCH_STATUS_XAPIAN_EXCEPTION || tries == RETRIES))
			return wn_nm_error(err, nst, wn_index_db_reason(idx),
					   "cannot read the notmuch index");
		if ((st = wn_index_refresh(idx, err)) != WN_OK)
			return st;
	}
}

wn_status wn_index_load_verdicts(wn_index *idx, wn_item *it, wn_error *err)
{
	notmuch_message_t *msg;
	wn_status st;

	if (!it->loaded || !it->review)
		return wn_index_load(idx, it, err);
	if ((st = wn_index_message(idx, it->id, &msg, err)) != WN_OK)
		return st;
	if (!msg)
		return wn_error_set(err, WN_NOT_FOUND, "message %s is no longer in the index", it->id);
	wn_props_read_item(it, msg);
	wn_copy_merge(idx, it);
	notmuch_message_destroy(msg);
	return WN_OK;
}

/* Say why a mail the query matched yields nothing: most often it is no
 * bot's mail at all (a patch, a human reply). */
static wn_status explain_unknown(wn_item *it, const wn_mail *mail)
{
	char *why = NULL;

	if (asprintf(&why, "%s is not a known review bot (nor listed in winnow.bots); "
		     "read with the generic rule, nothing found",
		     mail->from_addr && *mail->from_addr ? mail->from_addr : "the sender") < 0)
		return WN_NOMEM;
	free(it->review->explain);
	it->review->explain = why;
	return WN_OK;
}

/* The memo of this revision, keeping hunks while a series may ask. */
static wn_link_memo *memo_of(wn_index *idx)
{
	wn_link_memo *memo = wn_link_memo_sync(&idx->memo, idx->generation);

	wn_link_memo_want_hunks(memo, idx->hunk_users > 0);
	return memo;
}

/* Which bot, its review of the mail, and the patch it answers.  Where a
 * diagnostic really is depends on the patch's files, known once the
 * patch is: the mail is read once more with them when the parser says
 * they matter (fingerprints stay as they were).  WN_NOMEM is the only
 * error. */
static wn_status review_of_mail(wn_index *idx, wn_item *it, const wn_mail *mail,
			       wn_cache_deps *deps, bool *changed, wn_error *err)
{
	bool known = wn_bot_detect(mail, (const char *const *) idx->conf.bots, &it->bot);
	wn_review_input in = { .subject = mail->subject };
	char **files = NULL;
	wn_status st;

	if (!known)
		it->bot = WN_BOT_GENERIC;
	st = wn_review_parse_with(it->bot, mail->body, mail->body_len, &in, &it->review, err);
	if (st == WN_OK)
		st = wn_link_patch(idx->db, it, mail, it->review->wants_patch_files ? &files : NULL,
				   deps, memo_of(idx), changed, err);
	if (st == WN_OK && files && it->review->wants_patch_files) {
		wn_review *again = NULL;

		in.patch_files = (const char *const *) files;
		st = wn_review_parse_with(it->bot, mail->body, mail->body_len, &in, &again, err);
		if (st == WN_OK) {
			wn_review_free(&it->review);
			it->review = again;
		}
	}
	wn_strv_free(files);
	if (st == WN_OK && !known && it->review->nfindings == 0 && explain_unknown(it, mail) != WN_OK)
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	return st;
}

void wn_index_keep_hunks(wn_index *idx, bool on)
{
	if (on)
		idx->hunk_users++;
	else if (idx->hunk_users)
		idx->hunk_users--;
}

wn_status wn_index_patch_hunks(wn_index *idx, const char *id, wn_diff_keys *hunks, wn_diff *diff,
				bool *read)
{
	wn_link_memo *memo = memo_of(idx);
	const wn_memo_entry *e = memo ? wn_link_memo_get(memo, id) : NULL;
	notmuch_message_t *msg = NULL;
	wn_status st;

	memset(hunks, 0, sizeof(*hunks));
	memset(diff, 0, sizeof(*diff));
	*read = false;
	if (e && e->hunks_known) {
		if (!e->hunks.n)
			return WN_OK;
		if (!(hunks->v = malloc(e->hunks.n * sizeof(*hunks->v))))
			return WN_NOMEM;
		memcpy(hunks->v, e->hunks.v, e->hunks.n * sizeof(*hunks->v));
		hunks->n = e->hunks.n;
		return WN_OK;
	}
	if (e && !e->held)
		return WN_NOT_FOUND;
	if ((st = wn_index_message(idx, id, &msg, NULL)) != WN_OK)
		return st == WN_NOMEM ? st : WN_NOT_FOUND;
	if (!msg)
		return WN_NOT_FOUND;
	/* The lookup may have reopened the index: a memo of its revision. */
	memo = memo_of(idx);
	st = wn_link_read_patch(memo, msg, idx->cache != NULL, diff);
	notmuch_message_destroy(msg);
	*read = st == WN_OK;
	return st;
}

/* What the properties say of each finding: arrays of nfindings. */
static wn_status read_props(wn_item *it, notmuch_message_t *msg)
{
	if (!wn_props_alloc_item(it, it->review->nfindings))
		return WN_NOMEM;
	wn_props_read_item(it, msg);
	return WN_OK;
}

/* The review read and parsed, and its properties, from the mail and
 * the index, and kept in the cache for next time. */
static wn_status load_item(wn_index *idx, wn_item *it, notmuch_message_t *msg, bool *changed,
			   wn_error *err)
{
	wn_cache_deps deps = WN_CACHE_DEPS_INIT;
	wn_error lerr = WN_ERROR_INIT;
	wn_mail *mail = NULL;
	char *ident = NULL;
	size_t ident_len = 0;
	wn_status st;

	/* The file's identity from the descriptor it is read through: a
	 * stat() of the path before and after the read was 2% of a cold
	 * list. */
	/* The review's addresses: none but From's (bots/, link.c). */
	st = wn_cache_read_mail(msg, &mail, false, idx->cache ? &ident : NULL, &ident_len, &lerr);
	if (st == WN_NOMEM)
		goto out;
	if (!ident)
		deps.unknown = true;
	if (st != WN_OK) {
		/* The queue shows the row with the reason, never drops it. */
		it->load_error = strdup(wn_error_msg(&lerr));
		it->bot = WN_BOT_GENERIC;
		st = wn_review_parse(WN_BOT_GENERIC, "", 0, &it->review, err);
	} else {
		/* For tree.c, which reads the thread's headers again. */
		wn_path_memo_keep(wn_link_memo_paths(memo_of(idx)), msg, it->id);
		st = review_of_mail(idx, it, mail, idx->cache ? &deps : NULL, changed, err);
	}
	if (st == WN_OK)
		st = read_props(it, msg);
	/* Read with the properties' terms: who.c's walk needs no lookup.
	 * A thread merged by notmuch new changes the message's lastmod, so
	 * the record keeps it. */
	if (st == WN_OK && !(it->thread_id = wn_strdup0(notmuch_message_get_thread_id(msg))))
		st = WN_NOMEM;
	/* Before the record is kept, which keeps the copies too.  After
	 * the properties: the copy's verdicts (wn_copy_merge()) are not
	 * this mail's, and the record holds this mail's alone. */
	if (st == WN_OK)
		st = wn_copy_find(idx, it, it->thread_id, it->date, idx->cache ? &deps : NULL, err);
	if (st == WN_OK && !*changed && idx->cache)
		wn_cache_put(idx->cache, idx->db, ident, ident_len, it, &deps);
out:
	free(ident);
	wn_cache_deps_free(&deps);
	wn_mail_free(&mail);
	wn_error_clear(&lerr);
	return st;
}

/* Read date, subject and from of every row of c not loaded yet, one
 * value slot after the other (see AHEAD); what wn_index_row_fill() reads. */
static void fill_held(struct wn_list_cursor *c)
{
	size_t i;

	for (i = 0; i < c->nheld; i++)
		if (c->held[i].msg && !c->held[i].filled)
			c->held[i].date = notmuch_message_get_date(c->held[i].msg);
	for (i = 0; i < c->nheld; i++)
		if (c->held[i].msg && !c->held[i].filled) {
			const char *v = notmuch_message_get_header(c->held[i].msg, "subject");
			c->held[i].subject = strdup(v ? v : "");
		}
	for (i = 0; i < c->nheld; i++)
		if (c->held[i].msg && !c->held[i].filled) {
			const char *v = notmuch_message_get_header(c->held[i].msg, "from");
			c->held[i].from = strdup(v ? v : "");
			c->held[i].filled = c->held[i].subject && c->held[i].from;
			c->held[i].hash = wn_fnv1a_str(WN_FNV_BASIS, c->held[i].id);
		}
}

const struct held_row *wn_index_held_row(const wn_index *idx, const char *id, uint64_t hash)
{
	const struct wn_list_cursor *c = idx->held;

	if (!c || c->generation != idx->generation)
		return NULL;
	for (size_t i = 0; i < c->nheld; i++)
		if (c->held[i].filled && c->held[i].hash == hash && !strcmp(c->held[i].id, id))
			return &c->held[i];
	return NULL;
}

/* The message of it when a list's search holds it (fetch_next()): the
 * same document a lookup by its id finds, the index being at the
 * search's revision still.  A pending row gets its fields from the
 * batch's reading (fill_held()).  NULL: none; else the caller destroys
 * it. */
static notmuch_message_t *take_held(wn_index *idx, wn_item *it)
{
	struct wn_list_cursor *c = idx->held;
	struct held_row *h = NULL;
	notmuch_message_t *msg;

	if (!c || c->generation != idx->generation)
		return NULL;
	for (size_t i = 0; i < c->nheld && !h; i++)
		if (c->held[i].msg && strcmp(c->held[i].id, it->id) == 0)
			h = &c->held[i];
	if (!h)
		return NULL;
	if (wn_index_row_pending(it) && !h->filled)
		fill_held(c);
	/* Copies: the row keeps its values for the thread listings of the
	 * batch's reviews (wn_index_held_row()).  Out of memory leaves the
	 * row pending, read as any other. */
	if (wn_index_row_pending(it) && h->filled) {
		it->date = h->date;
		it->subject = strdup(h->subject);
		it->from = strdup(h->from);
		if (!it->subject || !it->from) {
			free(it->subject);
			free(it->from);
			it->subject = it->from = NULL;
		}
	}
	msg = h->msg;
	h->msg = NULL;
	return msg;
}

static wn_status load_once(wn_index *idx, wn_item *it, bool *changed, wn_error *err)
{
	notmuch_message_t *msg;
	wn_status st;

	wn_index_item_clear_loaded(it);
	/* Opened by the first list of reviews, not by one review found
	 * by its id (mark, show): reading the cache's index costs more
	 * than parsing one review.  A review found later, in the same
	 * process, uses it. */
	if (!idx->cache_tried && !idx->finding && !idx->cache_later) {
		idx->cache = wn_cache_open(idx->db, idx->db_path, &idx->conf);
		idx->cache_tried = true;
	}
	/* A record that holds needs no lookup of the message: the list
	 * row came from the index, the record's checks say the rest (its
	 * thread, its copies, and a pending row's date, subject and
	 * sender: the message's lastmod is unchanged).  The copies'
	 * verdicts are read now, as they are not this mail's. */
	if (wn_cache_get(idx->cache, idx->db, it)) {
		wn_copy_merge(idx, it);
		it->loaded = true;
		return WN_OK;
	}
	if (!(msg = take_held(idx, it)) && (st = wn_index_message(idx, it->id, &msg, err)) != WN_OK)
		return st;
	if (!msg)
		return wn_error_set(err, WN_NOT_FOUND, "message %s is not in the index", it->id);
	/* Before the parse: linking by subject weighs the review's date. */
	/* The row and load_item() read the date and thread from msg: a
	 * document value read again was 2% of a cold list. */
	if ((wn_index_row_pending(it) && !wn_index_row_fill(it, msg)) ||
	    load_item(idx, it, msg, changed, err) != WN_OK) {
		notmuch_message_destroy(msg);
		goto nomem;
	}
	notmuch_message_destroy(msg);
	wn_copy_merge(idx, it);	/* counts the findings */
	it->loaded = true;
	return WN_OK;
nomem:
	wn_index_item_clear_loaded(it);
	return wn_error_set(err, WN_NOMEM, "out of memory");
}

void wn_index_cache_later(wn_index *idx, bool later)
{
	idx->cache_later = later;
}

wn_status wn_index_load(wn_index *idx, wn_item *it, wn_error *err)
{
	/* A patch looked up while another process's write discarded the
	 * revision could be called missing: reopen and read it again. */
	for (int tries = 0;; tries++) {
		bool changed = false;
		wn_status st = load_once(idx, it, &changed, err);

		if (st != WN_OK || !changed || tries == RETRIES)
			return st;
		if ((st = wn_index_refresh(idx, err)) != WN_OK)
			return st;
	}
}

wn_status wn_index_find(wn_index *idx, const char *msgid, wn_item **out, wn_error *err)
{
	/* An exact id of a hostile mail (CR LF in it, as the sharing
	 * repository brings it) is one id, not two pasted at once. */
	char *id = wn_msgid_canon(msgid);
	notmuch_message_t *msg;
	wn_item *it;
	wn_status st;

	if (!id && msgid && strpbrk(msgid, "\r\n"))
		id = strdup(msgid);

	*out = NULL;
	if (!id)
		return wn_error_set(err, WN_USAGE, "not a Message-ID: '%s'", msgid ? msgid : "");
	st = wn_index_message(idx, id, &msg, err);
	if (st == WN_OK && !msg) {
		/* Text output shows a hostile id with \xHH escapes
		 * (wn_msgid_escape): take that form back too. */
		char *raw = wn_msgid_unescape(id);
		if (raw)
			st = wn_index_message(idx, raw, &msg, err);
		free(raw);
	}
	if (st == WN_OK && !msg) {
		char *shown = wn_msgid_escape(id);
		st = wn_error_set(err, WN_NOT_FOUND, "no message <%s> in the notmuch index",
				  shown ? shown : id);
		free(shown);
	}
	if (st != WN_OK) {
		free(id);
		return st;
	}
	free(id);
	it = wn_index_item_from_message(msg, false);
	notmuch_message_destroy(msg);
	if (!it)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	idx->finding = true;
	st = wn_index_load(idx, it, err);
	idx->finding = false;
	if (st != WN_OK) {
		wn_item_free(&it);
		return st;
	}
	*out = it;
	return WN_OK;
}
