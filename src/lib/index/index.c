/* winnow — read-only access to the notmuch index.
 *
 * The handle opened here is never writable: libnotmuch blocks or fails
 * while another process holds the write lock, and the UI must not.  All
 * writes go through store.c. */
#include "autoconfig.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cache.h"
#include "copy.h"
#include "link.h"
#include "message.h"
#include "index-private.h"
#include "props.h"
#include "winnow/text.h"

static void wn_index_authors_free(wn_index *idx);

static const char *const link_names[] = {
#define WN_X_(e, name) name,
	WN_LINK_LIST(WN_X_)
#undef WN_X_
};

const char *wn_link_name(wn_link l)
{
	return (unsigned) l < WN_LINK_COUNT ? link_names[l] : "none";
}

static wn_status load_conf(wn_index *idx)
{
	notmuch_config_pairs_t *pairs;
	notmuch_config_values_t *vals;
	const char *v;
	size_t n = 0;
	wn_status st;

	if ((st = wn_conf_init(&idx->conf)) != WN_OK)
		return st;
	v = notmuch_config_get(idx->db, NOTMUCH_CONFIG_USER_NAME);
	if (v && *v && (st = wn_conf_set(&idx->conf, "user.name", v)) != WN_OK)
		return st;
	v = notmuch_config_get(idx->db, NOTMUCH_CONFIG_PRIMARY_EMAIL);
	if (v && *v && (st = wn_conf_set(&idx->conf, "user.primary_email", v)) != WN_OK)
		return st;
	/* Your other addresses are never Cc'ed by a group reply. */
	v = notmuch_config_get(idx->db, NOTMUCH_CONFIG_OTHER_EMAIL);
	if (v && *v && (st = wn_conf_set(&idx->conf, "user.other_email", v)) != WN_OK)
		return st;
	pairs = notmuch_config_get_pairs(idx->db, "winnow.");
	for (; pairs && notmuch_config_pairs_valid(pairs); notmuch_config_pairs_move_to_next(pairs)) {
		st = wn_conf_set(&idx->conf, notmuch_config_pairs_key(pairs),
				 notmuch_config_pairs_value(pairs));
		if (st != WN_OK) {
			notmuch_config_pairs_destroy(pairs);
			return st;
		}
	}
	if (pairs)
		notmuch_config_pairs_destroy(pairs);

	/* Honour search.exclude_tags the way `notmuch search` does, so a
	 * deleted or spam review does not reappear in the queue. */
	idx->exclude_tags = calloc(1, sizeof(char *));
	if (!idx->exclude_tags)
		return WN_NOMEM;
	vals = notmuch_config_get_values(idx->db, NOTMUCH_CONFIG_EXCLUDE_TAGS);
	for (; vals && notmuch_config_values_valid(vals); notmuch_config_values_move_to_next(vals)) {
		char **nv = realloc(idx->exclude_tags, (n + 2) * sizeof(char *));
		if (!nv || !(nv[n] = strdup(notmuch_config_values_get(vals)))) {
			if (nv)
				idx->exclude_tags = nv;
			notmuch_config_values_destroy(vals);
			return WN_NOMEM;
		}
		idx->exclude_tags = nv;
		nv[++n] = NULL;
	}
	if (vals)
		notmuch_config_values_destroy(vals);
	return WN_OK;
}

/* Larger than any notmuch config: a path to something else (a log, a
 * device, a mailbox). */
#define CONFIG_MAX (1024 * 1024)

/* The config file named by --config or $NOTMUCH_CONFIG must be a
 * regular file of a sane size before libnotmuch reads it: it would wait
 * on a FIFO for ever and read /dev/zero until memory runs out.  A file
 * that does not exist is left to libnotmuch, whose error says more.
 * Links are followed: a config kept in a dotfiles repository usually is
 * one, and the user named it. */
static wn_status check_config(const char *path, wn_error *err)
{
	wn_error why = WN_ERROR_INIT;
	wn_status st = WN_OK;
	int fd;

	if (!path)
		path = getenv("NOTMUCH_CONFIG");
	if (!path || !*path)
		return WN_OK;
	if ((fd = wn_file_open(path, CONFIG_MAX, 0, &why)) >= 0)
		close(fd);
	else if (why.status != WN_NOT_FOUND)
		st = wn_error_set(err, WN_CONFIG, "cannot use notmuch config %s: %s", path,
				  wn_error_msg(&why));
	wn_error_clear(&why);
	return st;
}

wn_status wn_index_open(const char *config_path, wn_index **out, wn_error *err)
{
	wn_index *idx = calloc(1, sizeof(*idx));
	notmuch_status_t nst;
	char *msg = NULL;
	wn_status st;

	*out = NULL;
	if (!idx)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	if (config_path && !(idx->config_path = strdup(config_path))) {
		free(idx);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	if ((st = check_config(idx->config_path, err)) != WN_OK) {
		wn_index_close(&idx);
		return st;
	}
	/* Opening reads the database's metadata, which a concurrent
	 * commit can discard under us too (see wn_index_message). */
	for (int tries = 0;; tries++) {
		nst = notmuch_database_open_with_config(NULL, NOTMUCH_DATABASE_MODE_READ_ONLY,
							idx->config_path, NULL, &idx->db, &msg);
		if (nst != NOTMUCH_STATUS_XAPIAN_EXCEPTION || tries == RETRIES)
			break;
		free(msg);
		msg = NULL;
	}
	if (nst != NOTMUCH_STATUS_SUCCESS) {
		st = wn_nm_error(err, nst, msg, "cannot open the notmuch database");
		idx->db = NULL;
		wn_index_close(&idx);
		return st;
	}
	free(msg);
	if (!(idx->db_path = strdup(notmuch_database_get_path(idx->db))) ||
	    (st = load_conf(idx)) != WN_OK) {
		wn_index_close(&idx);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	if ((st = wn_conf_check(&idx->conf, err)) != WN_OK) {
		wn_index_close(&idx);
		return st;
	}
	*out = idx;
	return WN_OK;
}

bool wn_index_facts_file(wn_index *idx, const char *name, char **path, uint64_t *key)
{
	return wn_cache_sibling(idx->db, idx->db_path, &idx->conf, name, path, key);
}

unsigned long wn_index_generation(const wn_index *idx)
{
	return idx->generation;
}

unsigned long wn_index_stamp(wn_index *idx, const char **uuid, unsigned long *generation)
{
	*generation = idx->generation;
	return notmuch_database_get_revision(idx->db, uuid);
}

void wn_index_close(wn_index **pidx)
{
	wn_index *idx = pidx ? *pidx : NULL;

	if (!idx)
		return;
	wn_cache_close(&idx->cache);
	wn_copy_index_free(&idx->copies);
	wn_link_memo_free(&idx->memo);
	if (idx->db)
		notmuch_database_destroy(idx->db);
	free(idx->config_path);
	free(idx->db_path);
	wn_conf_clear(&idx->conf);
	wn_strv_free(idx->exclude_tags);
	wn_index_authors_free(idx);
	if (idx->reviews)
		free(idx->reviews->slot);
	free(idx->reviews);
	free(idx->cuts);
	free(idx);
	*pidx = NULL;
}

const wn_conf *wn_index_conf(const wn_index *idx)
{
	return &idx->conf;
}

const char *wn_index_config_path(const wn_index *idx)
{
	return idx->config_path ? idx->config_path : "";
}

const char *wn_index_config_arg(const wn_index *idx)
{
	return idx->config_path;
}

const char *wn_index_db_path(const wn_index *idx)
{
	return idx->db_path;
}

notmuch_message_t *wn_index_find_message(wn_index *idx, const char *id)
{
	return wn_message_find(idx->db, id);
}

notmuch_query_t *wn_index_query_new(wn_index *idx, const char *qs)
{
	return notmuch_query_create(idx->db, qs);
}

wn_status wn_index_refresh(wn_index *idx, wn_error *err)
{
	notmuch_status_t nst;

	/* Reopening reads the newest revision, which the next commit of a
	 * busy writer may discard again before we are done. */
	for (int tries = 0;; tries++) {
		nst = notmuch_database_reopen(idx->db, NOTMUCH_DATABASE_MODE_READ_ONLY);
		if (nst != NOTMUCH_STATUS_XAPIAN_EXCEPTION || tries == RETRIES)
			break;
	}

	if (nst != NOTMUCH_STATUS_SUCCESS)
		return wn_nm_error(err, nst, NULL, "cannot reopen the notmuch database");
	/* Live result sets belong to the old revision: lists restart. */
	idx->generation++;
	return WN_OK;
}

void wn_index_item_clear_loaded(wn_item *it)
{
	wn_props_free_item(it, it->review ? it->review->nfindings : 0);
	wn_review_free(&it->review);
	free(it->report_id);
	it->report_id = NULL;
	wn_patch_free(it->patch);
	it->patch = NULL;
	free(it->load_error);
	it->load_error = NULL;
	wn_copy_clear(it);
	wn_replies_free(it->replies, it->nreplies);
	it->replies = NULL;
	it->nreplies = 0;
	it->who_read = it->replies_read = it->newcomer = it->author_answered = false;
	free(it->thread_id);
	it->thread_id = NULL;
	it->loaded = false;
	memset(it->counts, 0, sizeof(it->counts));
}

void wn_replies_free(wn_reply *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].id);
		free(r[i].from);
		free(r[i].subject);
	}
	free(r);
}

void wn_author_patches_free(void *v)
{
	struct wn_author_patches *a = v;

	for (size_t i = 0; a && i < a->n; i++)
		free(a->threads[i]);
	if (a) {
		free(a->threads);
		free(a->dates);
	}
	free(a);
}

static void wn_index_authors_free(wn_index *idx)
{
	wn_map_free(&idx->authors, wn_author_patches_free);
	free(idx->count_tid);
	free(idx->count_n);
	wn_map_free(&idx->addrs, free);
	for (size_t i = 0; i < WN_WHO_THREADS; i++) {
		wn_who_thread_free(idx->threads[i]);
		idx->threads[i] = NULL;
	}
}

void wn_who_parents_clear(struct wn_who_thread *t)
{
	for (size_t i = 0; t->addr && i < t->npar; i++)
		free(t->addr[i]);
	free(t->addr);
	t->addr = NULL;
	for (size_t i = 0; t->par && i < t->npar; i++)
		free(t->par[i].refs);
	free(t->par);
	t->par = NULL;
	t->npar = 0;
	wn_map_free(&t->ids, NULL);
}

void wn_who_thread_clear(struct wn_who_thread *t)
{
	wn_who_parents_clear(t);
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].id);
		free(t->v[i].from);
		free(t->v[i].subject);
	}
	free(t->v);
	t->v = NULL;
	t->n = 0;
	t->in_order = false;
}

void wn_who_thread_free(struct wn_who_thread *t)
{
	if (t) {
		wn_who_thread_clear(t);
		free(t->tid);
		wn_strv_free(t->bots);
	}
	free(t);
}

void wn_item_unload(wn_item *it)
{
	if (it)
		wn_index_item_clear_loaded(it);
}

void wn_item_free(wn_item **pit)
{
	wn_item *it = pit ? *pit : NULL;

	if (!it)
		return;
	wn_index_item_clear_loaded(it);
	free(it->id);
	free(it->subject);
	free(it->from);
	free(it);
	*pit = NULL;
}
