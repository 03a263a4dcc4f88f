/* winnow — winnow fetch: lei's saved search of the patches touching the
 * maintainer's files, written into a maildir inside the notmuch
 * database, then notmuch new.
 *
 * lei does the fetching (its externals are the user's: lore, a local
 * mirror, whatever lei is told); winnow only builds the query and names
 * the folder.  lei writes each message into the maildir's tmp/ and
 * renames it into place, so a lei that fails or is stopped leaves whole
 * messages or none: nothing half-written for notmuch new to index. */
#include "autoconfig.h"

#include <notmuch.h>
#include <stdlib.h>
#include <string.h>

#include "../core/file.h"
#include "../core/str.h"
#include "../index/index-nm.h"
#include "lore-private.h"
#include "winnow/conf.h"
#include "winnow/lore.h"
#include "winnow/text.h"

/* MAINTAINERS is about 800 KiB today. */
#define MAINTAINERS_MAX (16u << 20)

void wn_fetch_clear(wn_fetch *f)
{
	free(f->query);
	free(f->folder);
	wn_strv_free(f->init_argv);
	wn_strv_free(f->up_argv);
	memset(f, 0, sizeof(*f));
}

/* The patterns of winnow.sections, from winnow.tree's MAINTAINERS. */
static wn_status section_patterns(const wn_conf *c, char ***files, char ***excluded, wn_error *err)
{
	char *path, *text = NULL;
	size_t len = 0;
	wn_status st;

	if (!c->sections || !c->sections[0])
		return WN_OK;
	if (!c->tree)
		return wn_error_set(err, WN_CONFIG, "winnow.sections needs winnow.tree, the kernel "
				    "tree whose MAINTAINERS names them");
	if (!(path = wn_strdupf("%s/MAINTAINERS", c->tree)))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	/* Not through a link either: the tree is read as b4's worktrees are. */
	st = wn_file_read_in(c->tree, "MAINTAINERS", MAINTAINERS_MAX, &text, &len, err);
	if (st != WN_OK) {
		wn_error_prefix(err, st == WN_NOT_FOUND ? WN_CONFIG : st, path);
	} else {
		st = wn_maintainers_patterns(text, len, c->sections, files, excluded, err);
		if (st == WN_NOT_FOUND)
			st = wn_error_prefix(err, WN_CONFIG, path);
	}
	free(text);
	free(path);
	return st;
}

/* Copy v (NULL-terminated) onto the end of *to. */
static wn_status append_all(char ***to, char *const *v)
{
	size_t k = 0, n = 0;
	char **nv;

	while (*to && (*to)[k])
		k++;
	while (v && v[n])
		n++;
	if (!(nv = realloc(*to, (k + n + 1) * sizeof(*nv))))
		return WN_NOMEM;
	*to = nv;
	nv[k] = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!(nv[k + i] = strdup(v[i])))
			return WN_NOMEM;
		nv[k + i + 1] = NULL;
	}
	return WN_OK;
}

static char **argv_of(const char *const *words)
{
	size_t n = 0;
	char **v;

	while (words[n])
		n++;
	if (!(v = calloc(n + 1, sizeof(*v))))
		return NULL;
	for (size_t k = 0; k < n; k++)
		if (!(v[k] = strdup(words[k]))) {
			wn_strv_free(v);
			return NULL;
		}
	return v;
}

wn_status wn_fetch_plan(wn_index *idx, wn_fetch *f, wn_error *err)
{
	const wn_conf *c = wn_index_conf(idx);
	char **files = NULL, **excluded = NULL, *out = NULL;
	wn_status st;

	memset(f, 0, sizeof(*f));
	f->timeout = c->tool_timeout;
	if ((st = wn_fetch_check_folder(c->fetch_folder, err)) != WN_OK)
		return st;
	if (append_all(&files, c->files) != WN_OK) {
		st = wn_error_set(err, WN_NOMEM, "out of memory");
		goto out;
	}
	if ((st = section_patterns(c, &files, &excluded, err)) != WN_OK)
		goto out;
	if ((st = wn_fetch_query(files, excluded, c->fetch_since, &f->query, err)) != WN_OK)
		goto out;
	f->folder = wn_strdupf("%s/%s", wn_index_db_path(idx), c->fetch_folder);
	out = f->folder ? wn_strdupf("maildir:%s", f->folder) : NULL;
	if (out) {
		/* --threads: the bots answer the patch, not the files.
		 * --augment: never clobber what an earlier fetch wrote (and
		 * notmuch indexed, verdicts and all); --dedupe=mid: a message
		 * already there, or from two externals, is written once. */
		const char *init[] = { "lei", "q", "--threads", "--dedupe=mid", "--augment",
				       "-o", out, f->query, NULL };
		const char *up[] = { "lei", "up", f->folder, NULL };

		f->init_argv = argv_of(init);
		f->up_argv = argv_of(up);
	}
	if (!f->init_argv || !f->up_argv)
		st = wn_error_set(err, WN_NOMEM, "out of memory");
out:
	free(out);
	wn_strv_free(files);
	wn_strv_free(excluded);
	if (st != WN_OK)
		wn_fetch_clear(f);
	return st;
}

/* lei's workers report a failed search ("... Exception: Unknown range
 * operation") and lei still exits 0; that is a failure here, or a
 * broken query would look like "no new mail". */
static bool worker_failed(const char *text, size_t len)
{
	return wn_str_find(text, len, " Exception: ") != NULL;
}

wn_status wn_fetch_lei(const wn_fetch *f, char *const *argv, wn_buf *progress, wn_error *err)
{
	wn_buf out = WN_BUF_INIT;
	size_t pos = 0, n;
	const char *l;
	wn_status st = wn_lore_run(NULL, argv, f->timeout, &out, err);

	if (st == WN_OK && worker_failed(out.data ? out.data : "", out.len)) {
		wn_lore_last_line(out.data, out.len, &l, &n);
		st = wn_error_set(err, WN_IO, "lei: %.*s", (int) n, l ? l : "");
	}
	while (st == WN_OK && progress &&
	       wn_str_next_line(out.data ? out.data : "", out.len, &pos, &l, &n))
		if (n && l[0] == '#')
			wn_buf_printf(progress, "%.*s\n", (int) n, l);
	wn_buf_free(&out);
	return st;
}

wn_status wn_fetch_notmuch_new(wn_index *idx, wn_error *err)
{
	const char *cfg = wn_index_config_arg(idx);
	char *opt = cfg ? wn_strdupf("--config=%s", cfg) : NULL;
	char nm[] = "notmuch", new[] = "new";
	char *argv[] = { nm, opt ? opt : new, opt ? new : NULL, NULL };
	wn_status st;

	if (cfg && !opt)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	/* No limit: a first notmuch new of a large fetch takes what it
	 * takes, and stops cleanly on Ctrl-C. */
	st = wn_lore_run(NULL, argv, 0, NULL, err);
	free(opt);
	return st == WN_OK ? wn_index_refresh(idx, err) : st;
}

wn_status wn_fetch_count(wn_index *idx, size_t *messages, size_t *reviews, wn_error *err)
{
	notmuch_query_t *q = wn_index_query_new(idx, "*");
	unsigned count = 0;
	wn_list l = { 0 };
	wn_status st;

	if (!q)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	if (notmuch_query_count_messages(q, &count) != NOTMUCH_STATUS_SUCCESS) {
		notmuch_query_destroy(q);
		return wn_error_set(err, WN_DB, "cannot count the messages of the database");
	}
	notmuch_query_destroy(q);
	*messages = count;
	if ((st = wn_index_query(idx, NULL, &l, err)) != WN_OK)
		return st;
	*reviews = l.n;
	wn_list_free(&l);
	return WN_OK;
}
