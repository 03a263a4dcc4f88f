/* winnow — sharing verdicts through git (share.h): the local decisions
 * written into the repository, the remote merged into it, and what it
 * decided brought into notmuch.
 *
 * The repository is made from notmuch (properties, read directly: no
 * mail is parsed to write it), and notmuch from the repository through
 * the store, so that every imported verdict is journaled and undoable
 * like one given by hand.
 *
 * A decision the repository holds and notmuch does not is a verdict
 * withdrawn here only when this database once agreed with it: the
 * findings in step after each sync are remembered (.git/winnow-synced).
 * Any other is one not taken yet (a review this index lacks, or had not
 * yet when it last synced, a finding it does not see), and stays in the
 * repository untouched until it is. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/map.h"
#include "../index/index-nm.h"
#include "../index/props.h"
#include "share-private.h"
#include "winnow/text.h"

/* --- the local side -------------------------------------------------------- */

void wn_sh_locals_clear(struct locals *l)
{
	for (size_t i = 0; i < l->n; i++)
		wn_share_value_clear(&l->v[i].v);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

struct local *wn_sh_local_find(const struct locals *l, const char *fp)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].fp, fp))
			return &l->v[i];
	return NULL;
}

/* The fingerprint in a property key after its prefix ("<fp>" or a note
 * piece's "<fp>.N"). */
static bool key_fp(const char *key, const char *prefix, char fp[WN_FP_LEN + 1])
{
	size_t pl = strlen(prefix), n;

	if (strncmp(key, prefix, pl))
		return false;
	n = strcspn(key + pl, ".");
	if (n != WN_FP_LEN)
		return false;
	memcpy(fp, key + pl, n);
	fp[n] = '\0';
	return true;
}

static wn_status local_add(struct locals *l, notmuch_message_t *msg, const char *fp)
{
	struct local *nv, *x;
	char *note = NULL;
	wn_verdict v;

	if (wn_sh_local_find(l, fp))
		return WN_OK;
	if (!wn_props_read_finding(msg, fp, &v, &note) || !(nv = realloc(l->v, (l->n + 1) * sizeof(*nv)))) {
		free(note);
		return WN_NOMEM;
	}
	l->v = nv;
	x = &nv[l->n++];
	memset(x, 0, sizeof(*x));
	memcpy(x->fp, fp, sizeof(x->fp));
	x->v.verdict = v;
	x->v.note = note;
	x->v.severity = wn_props_read_severity(msg, fp);
	x->v.reason = wn_props_read_reason(msg, fp);
	return WN_OK;
}

/* Every finding of msg with a verdict, note or severity of its own. */
wn_status wn_sh_locals_of(notmuch_message_t *msg, struct locals *out)
{
	static const char *const prefixes[] = { WN_PROP_VERDICT, WN_PROP_NOTE, WN_PROP_SEVERITY,
						WN_PROP_REASON };
	notmuch_message_properties_t *p = notmuch_message_get_properties(msg, "winnow.", FALSE);
	wn_status st = WN_OK;

	memset(out, 0, sizeof(*out));
	for (; st == WN_OK && p && notmuch_message_properties_valid(p);
	     notmuch_message_properties_move_to_next(p)) {
		const char *key = notmuch_message_properties_key(p);
		char fp[WN_FP_LEN + 1];

		for (size_t k = 0; k < sizeof(prefixes) / sizeof(*prefixes) && st == WN_OK; k++)
			if (key_fp(key, prefixes[k], fp))
				st = local_add(out, msg, fp);
	}
	if (p)
		notmuch_message_properties_destroy(p);
	return st;
}

static bool decided(const wn_share_value *v)
{
	return v->verdict != WN_VERDICT_UNTRIAGED || v->severity != WN_SEV_NONE ||
	       v->reason != WN_REASON_NONE || (v->note && *v->note);
}

/* --- the repository's side ----------------------------------------------- */

void wn_sh_rdir_free(void *p)
{
	struct rdir *d = p;

	for (size_t i = 0; i < d->n; i++)
		free(d->names[i]);
	free(d->names);
	free(d->path);
	free(d);
}

static wn_status rdir_add(struct ctx *c, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t) (slash - path) : 0;
	struct rdir *d;
	char **nv;

	if (!slash || strncmp(path, "reviews/", 8))
		return WN_OK;
	if (!(d = wn_map_get(&c->dirs, path, dl))) {
		if (!(d = calloc(1, sizeof(*d))) || !(d->path = wn_strndup(path, dl)) ||
		    wn_map_put(&c->dirs, path, dl, d) != WN_OK) {
			if (d)
				free(d->path);
			free(d);
			return WN_NOMEM;
		}
	}
	if (!(nv = realloc(d->names, (d->n + 1) * sizeof(*nv))) || !(nv[d->n] = strdup(slash + 1))) {
		if (nv)
			d->names = nv;
		return WN_NOMEM;
	}
	d->names = nv;
	d->n++;
	return WN_OK;
}

void wn_sh_refuse(struct ctx *c, const char *path, const char *reason)
{
	wn_share_result *r = c->out;
	wn_share_refused *nv;
	size_t n = strlen(path);

	if (wn_map_get(&c->refused, path, n) || wn_map_put(&c->refused, path, n, (void *) 1) != WN_OK)
		return;
	if (!(nv = realloc(r->refused, (r->nrefused + 1) * sizeof(*nv))))
		return;
	r->refused = nv;
	if (!(nv[r->nrefused].path = strdup(path)) || !(nv[r->nrefused].reason = strdup(reason))) {
		free(nv[r->nrefused].path);
		return;
	}
	r->nrefused++;
}

/* The files of the index (HEAD's tree), by review folder: only regular
 * files of winnow's layout; anything else is set aside, never read. */
wn_status wn_sh_list_files(struct ctx *c)
{
	wn_buf out = WN_BUF_INIT;
	wn_status st;

	wn_map_free(&c->dirs, wn_sh_rdir_free);
	/* "<mode> <object> <stage>\t<path>" */
	st = wn_sh_git(&c->repo, &out, c->err, "ls-files", "-s", "-z", NULL);
	for (size_t i = 0; st == WN_OK && i < out.len; i += strlen(out.data + i) + 1) {
		const char *e = out.data + i, *path = strchr(e, '\t'), *why;

		if (!path)
			continue;
		path++;
		if (strncmp(e, "100644 ", 7) && strncmp(e, "100755 ", 7))
			wn_sh_refuse(c, path,
				     !strncmp(e, "120000 ", 7) ? "a symbolic link" :
								 "not a regular file");
		else if ((why = wn_sh_layout_check(path)))
			wn_sh_refuse(c, path, why);
		else
			st = rdir_add(c, path);
	}
	wn_buf_free(&out);
	return st == WN_NOMEM ? wn_error_set(c->err, st, "out of memory") : st;
}

/* The value in file name of folder d: WN_NOT_FOUND when there is none. */
wn_status wn_sh_file_value(struct ctx *c, const char *dir, const char *name, wn_share_value *v,
			   char **review)
{
	wn_buf b = WN_BUF_INIT;
	wn_error why = WN_ERROR_INIT;
	char *path = NULL, *id = NULL, *home = NULL;
	wn_status st = asprintf(&path, "%s/%s", dir, name) < 0 ?
			       WN_NOMEM :
			       wn_sh_read(c->repo.dir, path, SH_FILE_MAX, &b, &why);

	memset(v, 0, sizeof(*v));
	if (st == WN_OK)
		st = wn_sh_parse(wn_buf_str(&b), v, &id, &why);
	/* A file in the folder of another review than it names would
	 * reach that review's findings unseen by the export. */
	if (st == WN_OK && (!(home = wn_sh_review_dir(id)) || strcmp(home, dir))) {
		st = home ? wn_error_set(&why, WN_PARSE, "in another review's folder than its "
					 "review: line names") : WN_NOMEM;
		wn_share_value_clear(v);
		free(id);
		id = NULL;
	}
	if (st == WN_PARSE && path)
		wn_sh_refuse(c, path, wn_error_msg(&why));
	if (review)
		*review = id;
	else
		free(id);
	free(home);
	free(path);
	wn_buf_free(&b);
	wn_error_clear(&why);
	return st;
}

bool wn_sh_is_conflict(const char *name)
{
	size_t n = strlen(name), k = strlen(SH_CONFLICT);

	return n > k && !strcmp(name + n - k, SH_CONFLICT);
}

/* --- findings in step ------------------------------------------------------------ */

static char *synced_key(const char *id, const char *fp)
{
	char *k = NULL;

	return asprintf(&k, "%s\x1f%s", id, fp) < 0 ? NULL : k;
}

void wn_sh_synced_load(struct ctx *c)
{
	wn_buf b = WN_BUF_INIT;

	/* Our own file, written by us: no smaller bound than memory. */
	if (wn_sh_read(c->repo.dir, SH_SYNCED, (size_t) -1 / 2, &b, NULL) != WN_OK)
		return;
	for (char *line = b.data, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		char *tab = strchr(line, '\t'), *id;

		if ((nl = strchr(line, '\n')))
			*nl = '\0';
		if (!tab)
			continue;
		*tab = '\0';
		id = wn_msgid_unescape(line);
		wn_sh_synced_add(c, id ? id : line, tab + 1);
		free(id);
	}
	wn_buf_free(&b);
}

void wn_sh_synced_add(struct ctx *c, const char *id, const char *fp)
{
	char *k = synced_key(id, fp);

	/* The key is its own value, for saving. */
	if (k && !wn_map_get(&c->synced, k, strlen(k)) && wn_map_put(&c->synced, k, strlen(k), k) == WN_OK)
		return;
	free(k);
}

bool wn_sh_is_synced(struct ctx *c, const char *id, const char *fp)
{
	char *k = synced_key(id, fp);
	bool r = k && wn_map_get(&c->synced, k, strlen(k));

	free(k);
	return r;
}

/* "id TAB fp", the id escaped as text output writes Message-IDs. */
static void save_one(void *val, void *arg)
{
	const char *key = val, *sep = strchr(key, '\x1f');
	char *id = sep ? wn_strndup(key, (size_t) (sep - key)) : NULL, *e = id ? wn_msgid_escape(id) : NULL;

	if (e)
		fprintf(arg, "%s\t%s\n", e, sep + 1);
	free(id);
	free(e);
}

void wn_sh_synced_save(struct ctx *c)
{
	char *path = NULL, *tmp = NULL;
	FILE *f;

	if (asprintf(&path, "%s/%s", c->repo.dir, SH_SYNCED) < 0 || asprintf(&tmp, "%s.new", path) < 0)
		goto out;
	if ((f = fopen(tmp, "we"))) {
		wn_map_each(&c->synced, save_one, f);
		if (fclose(f) == 0)
			rename(tmp, path);
	}
out:
	free(path);
	free(tmp);
}

/* --- export: notmuch into the repository ------------------------------------------ */

static wn_status write_value(struct ctx *c, const char *dir, const char *name, const char *id,
			     const wn_share_value *l, bool dry)
{
	wn_share_value v = *l;
	wn_buf b = WN_BUF_INIT;
	char *path = NULL;
	wn_status st;

	c->out->changed++;
	if (dry)
		return WN_OK;
	wn_sh_synced_add(c, id, name);
	v.author = c->me;
	v.when = c->now;
	st = wn_sh_format(&v, id, &b);
	if (st == WN_OK && asprintf(&path, "%s/%s", dir, name) < 0)
		st = WN_NOMEM;
	if (st == WN_OK)
		st = wn_sh_write(c->repo.dir, path, wn_buf_str(&b), c->err);
	else
		wn_error_set(c->err, st, "out of memory");
	c->out->exported += st == WN_OK;
	free(path);
	wn_buf_free(&b);
	return st;
}

static void drop_conflict(struct ctx *c, const char *dir, const char *fp, bool dry)
{
	char *path = NULL;

	if (!dry && asprintf(&path, "%s/%s%s", dir, fp, SH_CONFLICT) >= 0)
		wn_sh_unlink(c->repo.dir, path);
	free(path);
}

/* One finding: its local decision l against the repository's. */
static wn_status export_one(struct ctx *c, const char *dir, const char *id, const char *fp,
			    const wn_share_value *l, bool dry, bool resolve)
{
	wn_share_value f, o;
	char *cname = NULL;
	wn_status st = wn_sh_file_value(c, dir, fp, &f, NULL), sc;

	if (st != WN_OK && st != WN_NOT_FOUND && st != WN_PARSE)
		return wn_error_set(c->err, st, "cannot read the repository's file of %s", fp);
	if (asprintf(&cname, "%s%s", fp, SH_CONFLICT) < 0)
		return wn_error_set(c->err, WN_NOMEM, "out of memory");
	sc = wn_sh_file_value(c, dir, cname, &o, NULL);
	free(cname);
	if (sc == WN_OK) {
		/* An open conflict ends when this side decides anew, or
		 * when asked to keep this side's decision. */
		if (resolve || (!wn_sh_same(l, &f) && !wn_sh_same(l, &o))) {
			drop_conflict(c, dir, fp, dry);
			st = wn_sh_same(l, &f) && st == WN_OK ? WN_OK :
								write_value(c, dir, fp, id, l, dry);
		} else {
			st = WN_OK;
		}
	} else if (st != WN_OK) {
		st = decided(l) ? write_value(c, dir, fp, id, l, dry) : WN_OK;
	} else {
		st = wn_sh_same(l, &f) ? WN_OK : write_value(c, dir, fp, id, l, dry);
	}
	wn_share_value_clear(&f);
	wn_share_value_clear(&o);
	return st;
}

/* Every finding of review id, local or in the repository. */
static wn_status export_review(struct ctx *c, const char *id, const struct locals *l, bool dry,
			       bool resolve)
{
	char *dir = wn_sh_review_dir(id);
	struct rdir *d = dir ? wn_map_get(&c->dirs, dir, strlen(dir)) : NULL;
	wn_share_value none = { 0 };
	wn_status st = dir ? WN_OK : WN_NOMEM;

	if (d)
		d->seen = true;
	for (size_t i = 0; st == WN_OK && i < l->n; i++)
		st = export_one(c, dir, id, l->v[i].fp, &l->v[i].v, dry, resolve);
	/* What the repository has and notmuch no longer does, after they
	 * agreed: withdrawn here. */
	for (size_t i = 0; st == WN_OK && d && i < d->n; i++)
		if (!wn_sh_is_conflict(d->names[i]) && !wn_sh_local_find(l, d->names[i]) &&
		    wn_sh_is_synced(c, id, d->names[i]))
			st = export_one(c, dir, id, d->names[i], &none, dry, resolve);
	free(dir);
	return st;
}

static wn_status export_message(struct ctx *c, notmuch_message_t *msg, bool dry, bool resolve)
{
	struct locals l = { 0 };
	char *id = wn_strdup0(notmuch_message_get_message_id(msg));
	wn_status st = id ? wn_sh_locals_of(msg, &l) : WN_NOMEM;

	if (st == WN_OK)
		st = export_review(c, id, &l, dry, resolve);
	if (st == WN_NOMEM)
		wn_error_set(c->err, st, "out of memory");
	wn_sh_locals_clear(&l);
	free(id);
	return st;
}

/* A folder notmuch's pass did not reach: a review outside winnow.query
 * here, or not in this index at all (then it stays as it is). */
struct rest {
	struct ctx *c;
	bool dry, resolve;
	wn_status st;
};

static void export_rest(void *val, void *arg)
{
	struct rdir *d = val;
	struct rest *r = arg;
	wn_share_value v;
	notmuch_message_t *msg = NULL;
	char *id = NULL;

	if (d->seen || r->st != WN_OK || !d->n)
		return;
	for (size_t i = 0; i < d->n && !id; i++)
		if (!wn_sh_is_conflict(d->names[i]) &&
		    wn_sh_file_value(r->c, d->path, d->names[i], &v, &id) == WN_OK)
			wn_share_value_clear(&v);
	if (id && wn_index_message(r->c->idx, id, &msg, NULL) == WN_OK && msg) {
		r->st = export_message(r->c, msg, r->dry, r->resolve);
		notmuch_message_destroy(msg);
	}
	free(id);
}

wn_status wn_sh_export(struct ctx *c, bool dry, bool resolve)
{
	notmuch_query_t *q = wn_index_query_new(c->idx, wn_index_conf(c->idx)->query);
	notmuch_messages_t *msgs = NULL;
	struct rest r = { c, dry, resolve, WN_OK };
	wn_status st = q ? wn_sh_list_files(c) : wn_error_set(c->err, WN_NOMEM, "out of memory");

	if (st == WN_OK && notmuch_query_search_messages(q, &msgs) != NOTMUCH_STATUS_SUCCESS)
		st = wn_error_set(c->err, WN_DB, "notmuch cannot run winnow.query");
	for (; st == WN_OK && notmuch_messages_valid(msgs); notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *m = notmuch_messages_get(msgs);

		st = export_message(c, m, dry, resolve);
		notmuch_message_destroy(m);
	}
	if (q)
		notmuch_query_destroy(q);
	if (st == WN_OK) {
		wn_map_each(&c->dirs, export_rest, &r);
		st = r.st;
	}
	return st;
}

/* Links and submodules of the repository's, out of the index: checked
 * out as plain files (core.symlinks=false), "add -A" would keep their
 * mode and send our decision written there as a link.  They are added
 * back as what the working tree holds, a regular file or a folder. */
static wn_status unlink_links(struct ctx *c)
{
	wn_buf out = WN_BUF_INIT;
	wn_status st = wn_sh_git(&c->repo, &out, c->err, "ls-files", "-s", "-z", NULL);

	for (size_t i = 0; st == WN_OK && i < out.len; i += strlen(out.data + i) + 1) {
		const char *e = out.data + i, *path = strchr(e, '\t');
		char *spec = NULL;

		if (!path || (strncmp(e, "120000 ", 7) && strncmp(e, "160000 ", 7)))
			continue;
		if (asprintf(&spec, ":(literal)%s", path + 1) < 0)
			st = wn_error_set(c->err, WN_NOMEM, "out of memory");
		else
			st = wn_sh_git(&c->repo, NULL, c->err, "rm", "-q", "--cached", "--", spec,
				       NULL);
		free(spec);
	}
	wn_buf_free(&out);
	return st;
}

wn_status wn_sh_commit(struct ctx *c, const char *what)
{
	wn_buf status = WN_BUF_INIT;
	wn_status st = unlink_links(c);
	char *msg = NULL;

	if (st == WN_OK)
		st = wn_sh_git(&c->repo, NULL, c->err, "add", "-A", NULL);

	if (st == WN_OK)
		st = wn_sh_git(&c->repo, &status, c->err, "status", "--porcelain", NULL);
	if (st == WN_OK && status.len) {
		if (asprintf(&msg, "winnow: %s by %s", what, c->me) < 0)
			st = wn_error_set(c->err, WN_NOMEM, "out of memory");
		else
			st = wn_sh_git(&c->repo, NULL, c->err, "commit", "-q", "-m", msg, NULL);
	}
	free(msg);
	wn_buf_free(&status);
	return st;
}
