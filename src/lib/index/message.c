/* winnow — one message of the notmuch index (see message.h). */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../core/hash.h"
#include "message.h"
#include "winnow/text.h"

wn_status wn_nm_error(wn_error *err, notmuch_status_t nst, char *msg, const char *what)
{
	wn_status st = WN_DB;
	char *detail = msg ? wn_text_trim(msg) : NULL;

	if (nst == NOTMUCH_STATUS_OUT_OF_MEMORY)
		st = WN_NOMEM;
	else if (nst == NOTMUCH_STATUS_BAD_QUERY_SYNTAX)
		st = WN_USAGE;
	else if (nst == NOTMUCH_STATUS_NO_CONFIG || nst == NOTMUCH_STATUS_NO_DATABASE ||
		 nst == NOTMUCH_STATUS_NO_MAIL_ROOT)
		st = WN_CONFIG;
	if (detail && *detail)
		wn_error_set(err, st, "%s: %s", what, detail);
	else
		wn_error_set(err, st, "%s: %s", what, notmuch_status_to_string(nst));
	free(msg);
	return st;
}

/* A mail the index does not hold, kept for a thread that names it: a
 * ghost has no date, and the flag (read from the whole term list) is
 * asked only of a mail without one. */
static bool ghost(notmuch_message_t *msg)
{
	notmuch_bool_t g = FALSE;

	return notmuch_message_get_date(msg) == 0 &&
	       notmuch_message_get_flag_st(msg, NOTMUCH_MESSAGE_FLAG_GHOST, &g) == NOTMUCH_STATUS_SUCCESS && g;
}

/* Ghost or not, asked of the term list alone: for a message whose
 * files are read next, which loads that list anyway (a ghost has no
 * date, so this says what ghost() says). */
static bool ghost_flag(notmuch_message_t *msg)
{
	notmuch_bool_t g = FALSE;

	return notmuch_message_get_flag_st(msg, NOTMUCH_MESSAGE_FLAG_GHOST, &g) ==
		       NOTMUCH_STATUS_SUCCESS &&
	       g;
}

static notmuch_message_t *lookup(notmuch_database_t *db, const char *id, bool *changed,
				 bool reading)
{
	notmuch_message_t *msg = NULL;
	notmuch_status_t nst = notmuch_database_find_message(db, id, &msg);

	if (nst == NOTMUCH_STATUS_XAPIAN_EXCEPTION && changed)
		*changed = true;
	if (nst != NOTMUCH_STATUS_SUCCESS)
		return NULL;
	/* notmuch_database_find_message() returns a ghost as a message
	 * with no file: absent, to linking and to the cache, which then
	 * keeps the review until the mail comes (it takes the ghost's
	 * place, and its lastmod changes). */
	if (msg && (reading ? ghost_flag(msg) : ghost(msg))) {
		notmuch_message_destroy(msg);
		msg = NULL;
	}
	return msg;
}

notmuch_message_t *wn_message_lookup(notmuch_database_t *db, const char *id, bool *changed)
{
	return lookup(db, id, changed, false);
}

notmuch_message_t *wn_message_lookup_read(notmuch_database_t *db, const char *id, bool *changed)
{
	return lookup(db, id, changed, true);
}

/* The Message-ID of msg.  notmuch_message_get_message_id() reads it
 * from the document's term list, which Xapian decompresses whole (every
 * word of the mail) on first use: that was an eighth of a full listing.
 * The index keeps the same id as a document value, cheap to read.
 * (Every database notmuch has written since 0.17 has those values:
 * notmuch upgrades older ones before writing, and so must winnow's own
 * writes; an empty value falls back to the term list all the same.) */
const char *wn_message_id(notmuch_message_t *msg)
{
	const char *v = notmuch_message_get_header(msg, "message-id");

	return v && *v ? v : notmuch_message_get_message_id(msg);
}

/* Once msg's term list is read (its file names: wn_message_read_mail()),
 * notmuch holds the id it read there, the value's twin: no lookup. */
const char *wn_message_id_read(notmuch_message_t *msg)
{
	const char *v = notmuch_message_get_message_id(msg);

	return v && *v ? v : wn_message_id(msg);
}

notmuch_message_t *wn_message_find(notmuch_database_t *db, const char *id)
{
	return wn_message_lookup(db, id, NULL);
}

notmuch_messages_t *wn_message_search(notmuch_query_t *q, bool *changed)
{
	notmuch_messages_t *msgs = NULL;
	notmuch_status_t nst = notmuch_query_search_messages(q, &msgs);

	if (nst == NOTMUCH_STATUS_XAPIAN_EXCEPTION && changed)
		*changed = true;
	return nst == NOTMUCH_STATUS_SUCCESS ? msgs : NULL;
}

void wn_patch_free(wn_patch *p)
{
	if (!p)
		return;
	free(p->id);
	free(p->subject);
	free(p->author);
	free(p->submitter);
	free(p->list);
	wn_trailers_free(&p->trailers);
	free(p);
}

/* The slot of an id (a collision only costs a lookup: the slot holds
 * the id). */
static size_t path_slot(const char *id)
{
	return (size_t) (wn_fnv1a_str(WN_FNV_BASIS, id) % WN_PATH_MEMO);
}

const char *wn_path_memo_get(const wn_path_memo *m, const char *id)
{
	const char *s = m && m->slot && id ? m->slot[path_slot(id)] : NULL;

	return s && !strcmp(s, id) ? s + strlen(s) + 1 : NULL;
}

void wn_path_memo_keep(wn_path_memo *m, notmuch_message_t *msg, const char *id)
{
	const char *path;
	size_t ni, np;
	char *s, **at;

	/* The file list is read by now: counting it costs nothing. */
	if (!m || !id || notmuch_message_count_files(msg) != 1 ||
	    !(path = notmuch_message_get_filename(msg)) ||
	    (!m->slot && !(m->slot = calloc(WN_PATH_MEMO, sizeof(*m->slot)))))
		return;
	ni = strlen(id);
	np = strlen(path);
	at = &m->slot[path_slot(id)];
	free(*at);
	if ((*at = s = malloc(ni + np + 2))) {
		memcpy(s, id, ni + 1);
		memcpy(s + ni + 1, path, np + 1);
	}
}

void wn_path_memo_clear(wn_path_memo *m)
{
	if (!m->slot)
		return;
	for (size_t i = 0; i < WN_PATH_MEMO; i++)
		free(m->slot[i]);
	free(m->slot);
	m->slot = NULL;
}

/* Read the mail file of msg.  Files move (maildir flag changes, mbsync)
 * between the query and now, so try every file notmuch knows. */
wn_status wn_message_read_mail(notmuch_message_t *msg, wn_mail **mail, wn_error *err)
{
	return wn_message_read_mail_stat(msg, mail, WN_READ_ALL, NULL, NULL, err);
}

wn_status wn_message_read_mail_stat(notmuch_message_t *msg, wn_mail **mail, wn_read_what what, char **path,
				    struct stat *sb, wn_error *err)
{
	notmuch_filenames_t *files = notmuch_message_get_filenames(msg);
	wn_status st = WN_NOT_FOUND;
	bool any = false;

	if (path)
		*path = NULL;
	for (; files && notmuch_filenames_valid(files); notmuch_filenames_move_to_next(files)) {
		const char *name = notmuch_filenames_get(files);

		any = true;

		st = what == WN_READ_ALL ? wn_mail_parse_file_stat(name, mail, path ? sb : NULL, err)
					 : wn_mail_parse_file_lean(name, mail, path ? sb : NULL,
								   what == WN_READ_PATCH, err);
		/* No identity (a file changed while read): *path stays NULL. */
		if (st == WN_OK && path && sb->st_mode)
			*path = strdup(name);
		if (st == WN_OK || st == WN_NOMEM)
			break;
	}
	if (files)
		notmuch_filenames_destroy(files);
	/* The readers say nothing when memory runs out: without this the
	 * caller would be told "message has no file". */
	if (st == WN_NOMEM)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	/* Said only when so: formatting it before every read was 0.2% of
	 * a cold statistics pass.  A file that was read says why not. */
	if (!any)
		return wn_error_set(err, WN_NOT_FOUND, "message has no file");
	return st;
}

char *wn_message_addr(wn_map *memo, const char *text)
{
	const char *had = wn_map_get(memo, text, strlen(text));
	char *addr, *keep;

	if (had)
		return strdup(had);
	if (!(addr = wn_mail_addr(text)))
		return NULL;
	if (memo->n >= WN_ADDR_MEMO)
		wn_map_free(memo, free);
	/* Out of memory keeps nothing: the answer is addr either way. */
	if ((keep = strdup(addr)) && wn_map_put(memo, text, strlen(text), keep) != WN_OK)
		free(keep);
	return addr;
}
