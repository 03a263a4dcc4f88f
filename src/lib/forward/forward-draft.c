/* winnow — drafts: the text the editor opens, and beside it what the
 * text does not show (threading, which findings), so that a postponed
 * draft is resumed as it was left.
 *
 *   $XDG_STATE_HOME/winnow/drafts/KEY.eml   the draft text (0600)
 *   $XDG_STATE_HOME/winnow/drafts/KEY.json  {"version":1, "created":T,
 *       "preexisting":B, "message_id":S, "in_reply_to":S|null,
 *       "references":[S...], "from":S, "to":S, "cc":S, "subject":S,
 *       "reviews":[{"id":S, "fps":[FP...]}], "kind":"verdicts"?}
 *   (kind: a verdict reply to the review, WN_FWD_VERDICTS; absent: the
 *   full forward)
 *
 * KEY is a hash of the reviews' Message-IDs: the same reviews find the
 * same draft. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "forward-private.h"
#include "winnow/proc.h"
#include "winnow/text.h"

wn_status wn_draft_dir(char **out, wn_error *err)
{
	char *state = NULL;
	wn_status st = wn_state_dir(&state, err);

	*out = NULL;
	if (st != WN_OK)
		return st;
	if (asprintf(out, "%s/drafts", state) < 0) {
		free(state);
		*out = NULL;
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	free(state);
	if ((st = wn_mkdirs(*out, err)) != WN_OK) {
		free(*out);
		*out = NULL;
	}
	return st;
}

static char *path_of(const char *dir, const char *key, const char *ext)
{
	char *p = NULL;

	return asprintf(&p, "%s/%s.%s", dir, key, ext) < 0 ? NULL : p;
}

char *wn_forward_draft_path(const wn_forward *f, const char *dir)
{
	return path_of(dir, f->key, "eml");
}

/* Replace path with data, atomically, mode 0600. */
static wn_status write_file(const char *path, const char *data, size_t len, wn_error *err)
{
	char *tmp = NULL;
	int fd = -1;
	ssize_t w = 0;
	size_t off = 0;

	if (asprintf(&tmp, "%s.tmp", path) < 0)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	while (fd >= 0 && off < len && ((w = write(fd, data + off, len - off)) > 0 || errno == EINTR))
		if (w > 0)
			off += (size_t) w;
	if (fd < 0 || off < len || fsync(fd) < 0 || close(fd) < 0 || (fd = -1, rename(tmp, path) < 0)) {
		wn_status st = wn_error_set(err, WN_IO, "cannot write the draft %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(tmp);
		free(tmp);
		return st;
	}
	free(tmp);
	return WN_OK;
}

static wn_status read_file(const char *path, wn_buf *out, wn_error *err)
{
	char chunk[8192];
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return wn_error_set(err, errno == ENOENT ? WN_NOT_FOUND : WN_IO, "cannot read the draft %s: %s",
				    path, strerror(errno));
	while ((r = read(fd, chunk, sizeof(chunk))) > 0 || (r < 0 && errno == EINTR))
		if (r > 0 && wn_buf_append(out, chunk, (size_t) r) != WN_OK) {
			close(fd);
			return wn_error_set(err, WN_NOMEM, "out of memory");
		}
	close(fd);
	if (r < 0)
		return wn_error_set(err, WN_IO, "cannot read the draft %s: %s", path, strerror(errno));
	return WN_OK;
}

/* --- what goes beside the text ------------------------------------------ */

static json_t *strs_json(char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *meta_json(const wn_forward *f)
{
	json_t *reviews = json_array(), *o;

	for (size_t k = 0; reviews && k < f->nparts; k++) {
		const wn_fwd_part *p = &f->parts[k];
		json_t *fps = json_array();

		for (size_t j = 0; fps && j < p->n; j++)
			json_array_append_new(fps, json_string(p->it->review->findings[p->findings[j] - 1].fingerprint));
		json_array_append_new(reviews, json_pack("{s:s, s:o*}", "id", p->it->id, "fps", fps));
	}
	o = json_pack("{s:i, s:I, s:b, s:s, s:s*, s:o*, s:s, s:s, s:s, s:s, s:o*}", "version", 1,
		      "created", (json_int_t) f->created, "preexisting", f->preexisting, "message_id",
		      f->message_id, "in_reply_to", f->in_reply_to, "references",
		      strs_json(f->references, f->nreferences), "from", f->from, "to", f->to, "cc",
		      f->cc ? f->cc : "", "subject", f->subject, "reviews", reviews);
	if (o && f->kind == WN_FWD_VERDICTS && json_object_set_new(o, "kind", json_string("verdicts")) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

wn_status wn_forward_draft_save(const wn_forward *f, const char *dir, wn_error *err)
{
	wn_buf text = WN_BUF_INIT;
	char *tpath = path_of(dir, f->key, "eml"), *mpath = path_of(dir, f->key, "json"), *meta = NULL;
	json_t *o = meta_json(f);
	wn_status st = WN_NOMEM;

	if (tpath && mpath && o && (meta = json_dumps(o, JSON_COMPACT)) &&
	    wn_forward_draft_text(f, &text) == WN_OK) {
		/* The text is what the user edits: the metadata first, so a
		 * text is never left without it. */
		st = write_file(mpath, meta, strlen(meta), err);
		if (st == WN_OK)
			st = write_file(tpath, wn_buf_str(&text), text.len, err);
	}
	if (st == WN_NOMEM)
		wn_error_set(err, st, "out of memory");
	json_decref(o);
	free(meta);
	free(tpath);
	free(mpath);
	wn_buf_free(&text);
	return st;
}

wn_status wn_forward_draft_reload(wn_forward *f, const char *dir, wn_error *err)
{
	wn_buf text = WN_BUF_INIT;
	char *path = path_of(dir, f->key, "eml");
	wn_status st = path ? read_file(path, &text, err) : wn_error_set(err, WN_NOMEM, "out of memory");

	if (st == WN_OK)
		st = wn_forward_draft_parse(f, wn_buf_str(&text), text.len, err);
	free(path);
	wn_buf_free(&text);
	return st;
}

void wn_forward_draft_remove(const wn_forward *f, const char *dir)
{
	char *t = path_of(dir, f->key, "eml"), *m = path_of(dir, f->key, "json");

	if (t)
		unlink(t);
	if (m)
		unlink(m);
	free(t);
	free(m);
}

/* --- resuming ------------------------------------------------------------- */

static const char *jstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static wn_status dup_field(char **field, json_t *o, const char *key)
{
	const char *v = jstr(o, key);

	if (!v)
		return WN_PARSE;
	return (*field = strdup(v)) ? WN_OK : WN_NOMEM;
}

/* A finding of the draft whose verdict is no longer one that is sent:
 * say so; it is not recorded as forwarded. */
static wn_status changed(wn_buf *notice, const wn_item *it, size_t i)
{
	return wn_buf_printf(notice, "%sfinding %zu of the %s review is now marked %s: it is not "
			     "recorded as forwarded (edit it out of the draft)", notice->len ? "\n" : "",
			     i + 1, wn_bot_label(it->bot), wn_verdict_name(it->verdicts[i]));
}

/* The findings a review had in the draft, by fingerprint. */
static wn_status resume_part(wn_forward *f, wn_item *it, json_t *fps, wn_buf *notice)
{
	size_t n = it->review ? it->review->nfindings : 0, idx;
	wn_fwd_part *p = &f->parts[f->nparts];
	json_t *fp;

	memset(p, 0, sizeof(*p));
	p->it = it;
	if (!(p->findings = calloc(n ? n : 1, sizeof(size_t))))
		return WN_NOMEM;
	f->nparts++;
	json_array_foreach(fps, idx, fp) {
		for (size_t i = 0; json_is_string(fp) && i < n; i++) {
			wn_verdict v = it->verdicts[i];

			if (strcmp(it->review->findings[i].fingerprint, json_string_value(fp)))
				continue;
			if (v == WN_VERDICT_VALID || (f->preexisting && v == WN_VERDICT_PREEXISTING) ||
			    (f->kind == WN_FWD_VERDICTS && v == WN_VERDICT_FALSE_POSITIVE)) {
				p->findings[p->n++] = i + 1;
				*(v == WN_VERDICT_VALID ? &f->nvalid : v == WN_VERDICT_PREEXISTING ? &f->npre
				  : &f->nfalse) += 1;
			} else if (changed(notice, it, i) != WN_OK) {
				return WN_NOMEM;
			}
			break;
		}
	}
	return WN_OK;
}

static wn_status resume_parts(wn_forward *f, json_t *o, wn_item **items, size_t n, wn_buf *notice)
{
	json_t *reviews = json_object_get(o, "reviews"), *r;
	size_t idx;

	if (!json_is_array(reviews) || !(f->parts = calloc(n, sizeof(*f->parts))))
		return json_is_array(reviews) ? WN_NOMEM : WN_PARSE;
	json_array_foreach(reviews, idx, r) {
		for (size_t i = 0; i < n; i++) {
			if (!jstr(r, "id") || strcmp(jstr(r, "id"), items[i]->id) || !items[i]->verdicts)
				continue;
			if (f->nparts < n && resume_part(f, items[i], json_object_get(r, "fps"), notice) != WN_OK)
				return WN_NOMEM;
			break;
		}
	}
	return f->nparts ? WN_OK : WN_PARSE;
}

static wn_status resume_meta(wn_forward *f, json_t *o)
{
	json_t *refs = json_object_get(o, "references"), *r;
	wn_status st;
	size_t idx;

	f->created = (time_t) json_integer_value(json_object_get(o, "created"));
	f->preexisting = json_is_true(json_object_get(o, "preexisting"));
	if (jstr(o, "kind") && strcmp(jstr(o, "kind"), "verdicts") == 0)
		f->kind = WN_FWD_VERDICTS;
	if ((st = dup_field(&f->message_id, o, "message_id")) != WN_OK ||
	    (st = dup_field(&f->from, o, "from")) != WN_OK || (st = dup_field(&f->to, o, "to")) != WN_OK ||
	    (st = dup_field(&f->cc, o, "cc")) != WN_OK || (st = dup_field(&f->subject, o, "subject")) != WN_OK)
		return st;
	if (jstr(o, "in_reply_to") && !(f->in_reply_to = strdup(jstr(o, "in_reply_to"))))
		return WN_NOMEM;
	if (json_is_array(refs) && !(f->references = calloc(json_array_size(refs) + 1, sizeof(char *))))
		return WN_NOMEM;
	json_array_foreach(refs, idx, r)
		if (json_is_string(r) && !(f->references[f->nreferences++] = strdup(json_string_value(r))))
			return WN_NOMEM;
	return WN_OK;
}

/* Read KEY.json and KEY.eml into f. */
static wn_status resume(wn_forward *f, const char *dir, wn_item **items, size_t n, wn_error *err)
{
	wn_buf meta = WN_BUF_INIT, notice = WN_BUF_INIT;
	char *mpath = path_of(dir, f->key, "json");
	json_t *o = NULL;
	wn_status st = mpath ? read_file(mpath, &meta, err) : WN_NOMEM;

	if (st == WN_OK && !(o = json_loadb(wn_buf_str(&meta), meta.len, 0, NULL)))
		st = wn_error_set(err, WN_PARSE, "%s: not a winnow draft", mpath);
	if (st == WN_OK && (st = resume_meta(f, o)) == WN_PARSE)
		wn_error_set(err, st, "%s: not a winnow draft", mpath);
	if (st == WN_OK && (st = resume_parts(f, o, items, n, &notice)) == WN_PARSE)
		wn_error_set(err, st, "%s: the draft's findings are gone from its reviews", mpath);
	/* A text the user left broken is still the draft: resumed, with
	 * the reason shown, to be edited again. */
	if (st == WN_OK && (st = wn_forward_draft_reload(f, dir, err)) == WN_PARSE)
		st = wn_buf_printf(&notice, "%sthe draft does not read: %s", notice.len ? "\n" : "",
				   wn_error_msg(err));
	if (st == WN_OK && notice.len)
		f->notice = wn_text_sanitize(notice.data, WN_TEXT_KEEP_NEWLINE);
	if (st == WN_NOMEM)
		wn_error_set(err, st, "out of memory");
	json_decref(o);
	free(mpath);
	wn_buf_free(&meta);
	wn_buf_free(&notice);
	return st;
}

/* A draft that cannot be resumed (its metadata broken, its findings
 * gone from the reviews) must not block a new one, nor be overwritten
 * by it: its text moves to KEY.eml.old, and err says so. */
static void set_aside(const wn_forward *f, const char *dir, wn_error *err)
{
	char *t = path_of(dir, f->key, "eml"), *old = path_of(dir, f->key, "eml.old");
	char *m = path_of(dir, f->key, "json"), *why = strdup(wn_error_msg(err));

	if (t && old && m && why && rename(t, old) == 0) {
		unlink(m);
		wn_error_set(err, WN_PARSE, "%s; its text is kept in %s", why, old);
	}
	free(t);
	free(old);
	free(m);
	free(why);
}

wn_status wn_forward_draft_find(const char *dir, wn_item **items, size_t n, wn_forward **out,
				wn_error *err)
{
	wn_forward *f = calloc(1, sizeof(*f));
	wn_status st;
	char *mpath;

	*out = NULL;
	if (!f || wn_fwd_key(f, items, n) != WN_OK || !(mpath = path_of(dir, f->key, "json"))) {
		wn_forward_free(&f);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	if (access(mpath, F_OK) < 0) {
		free(mpath);
		wn_forward_free(&f);
		return WN_NOT_FOUND;
	}
	free(mpath);
	st = resume(f, dir, items, n, err);
	if (st == WN_PARSE)
		set_aside(f, dir, err);
	if (st != WN_OK) {
		wn_forward_free(&f);
		return st;
	}
	*out = f;
	return WN_OK;
}
