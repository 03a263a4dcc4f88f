/* winnow — pull, push and status of shared verdicts (share.h): the
 * remote merged into the repository with every real conflict kept, and
 * the repository brought into notmuch. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "share-private.h"
#include "winnow/text.h"

/* --- setting up ------------------------------------------------------------ */

static wn_status ctx_open(struct ctx *c, wn_index *idx, wn_store *store, wn_share_result *out,
			  wn_error *err)
{
	const wn_conf *conf = wn_index_conf(idx);
	const char *name = conf->user_name, *email = conf->user_email;
	wn_status st;

	memset(c, 0, sizeof(*c));
	memset(out, 0, sizeof(*out));
	c->idx = idx;
	c->store = store;
	c->out = out;
	c->err = err;
	c->now = time(NULL);
	/* Decisions journaled but not in notmuch would be missed. */
	if (store && wn_store_pending(store) && (st = wn_store_flush(store, 5000, err)) != WN_OK)
		return st == WN_LOCKED ? wn_error_set(err, st, "verdicts are still journaled and the "
						      "notmuch database stays locked: try again later") : st;
	if (asprintf(&c->me, "%s <%s>", name && *name ? name : "unknown",
		     email && *email ? email : "unknown") < 0) {
		c->me = NULL;
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	if ((st = wn_sh_repo_open(&c->repo, wn_index_db_path(idx), name, email, err)) != WN_OK)
		return st;
	wn_sh_synced_load(c);
	return (out->repo = strdup(c->repo.dir)) ? WN_OK : wn_error_set(err, WN_NOMEM, "out of memory");
}

static void ctx_close(struct ctx *c)
{
	wn_sh_repo_close(&c->repo);
	wn_map_free(&c->dirs, wn_sh_rdir_free);
	wn_map_free(&c->synced, free);
	wn_map_free(&c->refused, NULL);
	free(c->me);
}

void wn_share_result_clear(wn_share_result *r)
{
	for (size_t i = 0; i < r->nconflicts; i++) {
		free(r->conflicts[i].review);
		wn_share_value_clear(&r->conflicts[i].ours);
		wn_share_value_clear(&r->conflicts[i].theirs);
	}
	free(r->conflicts);
	for (size_t i = 0; i < r->nrefused; i++) {
		free(r->refused[i].path);
		free(r->refused[i].reason);
	}
	free(r->refused);
	free(r->repo);
	memset(r, 0, sizeof(*r));
}

/* --- the remote ------------------------------------------------------------- */

/* Fetch the remote's branch into FETCH_HEAD; *empty when it has none. */
static wn_status fetch(struct ctx *c, const char *remote, bool *empty)
{
	wn_buf out = WN_BUF_INIT;
	wn_status st = wn_sh_git(&c->repo, &out, c->err, "ls-remote", "--", remote,
				 "refs/heads/" SH_BRANCH, NULL);

	*empty = st == WN_OK && out.len == 0;
	wn_buf_free(&out);
	if (st == WN_OK && !*empty)
		st = wn_sh_git(&c->repo, NULL, c->err, "fetch", "-q", "--", remote,
			       "refs/heads/" SH_BRANCH, NULL);
	c->out->remote_empty = *empty;
	return st;
}

/* Commits in range ("HEAD..FETCH_HEAD"). */
static wn_status count(struct ctx *c, const char *range, size_t *n)
{
	wn_buf out = WN_BUF_INIT;
	wn_status st = wn_sh_git(&c->repo, &out, c->err, "rev-list", "--count", range, NULL);

	*n = st == WN_OK ? strtoul(wn_buf_str(&out), NULL, 10) : 0;
	wn_buf_free(&out);
	return st;
}

/* --- merging ------------------------------------------------------------------- */

/* Stage k (2: ours, 3: theirs) of a conflicted path; NULL when absent
 * or not to be taken (too large, set aside).  Written to a file of
 * git's and read from there with the bounds of any file. */
static char *stage(struct ctx *c, int k, const char *path)
{
	wn_buf out = WN_BUF_INIT, text = WN_BUF_INIT;
	wn_error why = WN_ERROR_INIT;
	char *spec = NULL, *tab, opt[16];

	snprintf(opt, sizeof(opt), "--stage=%d", k);
	if (asprintf(&spec, ":%d:%s", k, path) < 0)
		return NULL;
	if (wn_sh_git(&c->repo, &out, NULL, "cat-file", "-s", spec, NULL) != WN_OK)
		goto out;
	if (strtoull(wn_buf_str(&out), NULL, 10) > SH_FILE_MAX) {
		wn_sh_refuse(c, path, "larger than a file of winnow's may be");
		goto out;
	}
	wn_buf_reset(&out);
	if (wn_sh_git(&c->repo, &out, NULL, "checkout-index", "-f", "--temp", opt, "--", path,
		      NULL) != WN_OK ||
	    !(tab = strchr(wn_buf_str(&out), '\t')))
		goto out;
	*tab = '\0';
	if (wn_sh_read(c->repo.dir, out.data, SH_FILE_MAX, &text, &why) == WN_PARSE)
		wn_sh_refuse(c, path, wn_error_msg(&why));
	wn_sh_unlink(c->repo.dir, out.data);
out:
	free(spec);
	wn_buf_free(&out);
	wn_error_clear(&why);
	if (!text.len)
		wn_buf_free(&text);
	return text.len ? wn_buf_steal(&text) : NULL;
}

/* One conflicted file: the same decision on both sides is none; else
 * ours stays in the file and theirs goes beside it. */
static wn_status settle(struct ctx *c, const char *path)
{
	char *ours = stage(c, 2, path), *theirs = stage(c, 3, path), *id = NULL, *side = NULL;
	wn_share_value a, b;
	bool differ = false;
	wn_status st;

	if (ours && theirs && !wn_sh_is_conflict(path) &&
	    wn_sh_parse(ours, &a, &id, NULL) == WN_OK) {
		free(id);
		if (wn_sh_parse(theirs, &b, &id, NULL) == WN_OK) {
			differ = !wn_sh_same(&a, &b);
			wn_share_value_clear(&b);
			free(id);
		}
		wn_share_value_clear(&a);
	}
	st = wn_sh_write(c->repo.dir, path, ours ? ours : theirs ? theirs : "", c->err);
	if (st == WN_OK && differ) {
		if (asprintf(&side, "%s%s", path, SH_CONFLICT) < 0)
			st = wn_error_set(c->err, WN_NOMEM, "out of memory");
		else
			st = wn_sh_write(c->repo.dir, side, theirs, c->err);
	}
	if (st == WN_OK)
		st = wn_sh_git(&c->repo, NULL, c->err, "add", "--", path, side, NULL);
	free(ours);
	free(theirs);
	free(side);
	return st;
}

static wn_status merge(struct ctx *c, const char *remote)
{
	wn_buf out = WN_BUF_INIT;
	char *msg = NULL;
	wn_status st;

	if (asprintf(&msg, "winnow: merge of %s", remote) < 0)
		return wn_error_set(c->err, WN_NOMEM, "out of memory");
	st = wn_sh_git(&c->repo, NULL, NULL, "merge", "-q", "--no-edit",
		       "--allow-unrelated-histories", "-m", msg, "FETCH_HEAD", NULL);
	if (st != WN_OK) {
		st = wn_sh_git(&c->repo, &out, c->err, "diff", "--name-only", "-z",
			       "--diff-filter=U", NULL);
		if (st == WN_OK && !out.len)
			st = wn_error_set(c->err, WN_IO, "git cannot merge %s into %s", remote, c->repo.dir);
		for (size_t i = 0; st == WN_OK && i < out.len; i += strlen(out.data + i) + 1)
			st = settle(c, out.data + i);
		if (st == WN_OK)
			st = wn_sh_git(&c->repo, NULL, c->err, "commit", "-q", "-m", msg, NULL);
	}
	free(msg);
	wn_buf_free(&out);
	return st;
}

/* --- conflicts ------------------------------------------------------------------- */

/* Put the value this database holds on the "ours" side: the file holds
 * the decision of whoever merged, which may be the other side's. */
static void orient(struct ctx *c, wn_share_conflict *x)
{
	notmuch_message_t *msg = NULL;
	struct locals l;
	const struct local *mine;
	wn_share_value none = { 0 }, t;

	if (wn_index_message(c->idx, x->review, &msg, NULL) != WN_OK || !msg)
		return;
	if (wn_sh_locals_of(msg, &l) == WN_OK) {
		mine = wn_sh_local_find(&l, x->fingerprint);
		if (!wn_sh_same(mine ? &mine->v : &none, &x->ours) &&
		    wn_sh_same(mine ? &mine->v : &none, &x->theirs)) {
			t = x->ours;
			x->ours = x->theirs;
			x->theirs = t;
		}
	}
	wn_sh_locals_clear(&l);
	notmuch_message_destroy(msg);
}

static bool add_conflict(struct ctx *c, const struct rdir *d, const char *name)
{
	wn_share_result *r = c->out;
	wn_share_conflict *nv, *x;
	size_t fl = strlen(name) - strlen(SH_CONFLICT);
	char *fp = wn_strndup(name, fl);
	bool ok = false;

	if (!fp || fl != WN_FP_LEN || !(nv = realloc(r->conflicts, (r->nconflicts + 1) * sizeof(*nv))))
		goto out;
	r->conflicts = nv;
	x = &nv[r->nconflicts];
	memset(x, 0, sizeof(*x));
	memcpy(x->fingerprint, fp, WN_FP_LEN + 1);
	if (wn_sh_file_value(c, d->path, fp, &x->ours, &x->review) == WN_OK) {
		char *other = NULL;

		if (wn_sh_file_value(c, d->path, name, &x->theirs, &other) == WN_OK) {
			orient(c, x);
			r->nconflicts++;
			ok = true;
		} else {
			wn_share_value_clear(&x->ours);
			free(x->review);
		}
		free(other);
	}
out:
	free(fp);
	return ok;
}

static void conflicts_in(void *val, void *arg)
{
	struct rdir *d = val;

	for (size_t i = 0; i < d->n; i++)
		if (wn_sh_is_conflict(d->names[i]))
			add_conflict(arg, d, d->names[i]);
}

static int by_review(const void *a, const void *b)
{
	const wn_share_conflict *x = a, *y = b;
	int r = strcmp(x->review, y->review);

	return r ? r : strcmp(x->fingerprint, y->fingerprint);
}

static wn_status conflicts(struct ctx *c)
{
	wn_status st = wn_sh_list_files(c);

	if (st == WN_OK)
		wn_map_each(&c->dirs, conflicts_in, c);
	if (c->out->nconflicts > 1)
		qsort(c->out->conflicts, c->out->nconflicts, sizeof(*c->out->conflicts), by_review);
	return st;
}

/* --- import: the repository into notmuch ------------------------------------------ */

struct change {
	size_t finding;		/* 1-based */
	wn_share_value v;
};

static long finding_of(const wn_item *it, const char *fp)
{
	for (size_t i = 0; i < it->review->nfindings; i++)
		if (!strcmp(it->review->findings[i].fingerprint, fp))
			return (long) i;
	return -1;
}

/* Mark the changes of one review, one action per verdict, reason and note. */
static wn_status apply(struct ctx *c, wn_item *it, struct change *ch, size_t n)
{
	wn_mark_target *t = calloc(n ? n : 1, sizeof(*t));
	bool *done = calloc(n ? n : 1, sizeof(*done));
	wn_status st = t && done ? WN_OK : wn_error_set(c->err, WN_NOMEM, "out of memory");

	for (size_t k = 0; st == WN_OK && k < n; k++) {
		const char *note = ch[k].v.note ? ch[k].v.note : "";
		size_t nt = 0;

		if (done[k])
			continue;
		for (size_t j = k; j < n; j++)
			if (!done[j] && ch[j].v.verdict == ch[k].v.verdict &&
			    ch[j].v.reason == ch[k].v.reason &&
			    !strcmp(ch[j].v.note ? ch[j].v.note : "", note)) {
				done[j] = true;
				t[nt++] = (wn_mark_target) { it, ch[j].finding };
			}
		/* The shared decision's reason, none included: it is the
		 * decision as its author left it. */
		st = wn_store_mark_why(c->store, t, nt, ch[k].v.verdict, note, ch[k].v.reason, c->err);
	}
	for (size_t k = 0; st == WN_OK && k < n; k++)
		if (it->severity && it->severity[ch[k].finding - 1] != ch[k].v.severity)
			st = wn_store_set_severity(c->store, it, ch[k].finding, ch[k].v.severity, c->err);
	c->out->imported += st == WN_OK ? n : 0;
	free(t);
	free(done);
	return st;
}

/* A local decision the repository has never held, against the
 * repository's: a conflict, as a merge would make it (this side's in
 * the file, the other beside it), never an overwrite. */
static wn_status keep_both(struct ctx *c, const struct rdir *d, const char *id, const char *fp,
			   const wn_share_value *mine, const wn_share_value *theirs)
{
	wn_share_value v = *mine;
	wn_buf a = WN_BUF_INIT, b = WN_BUF_INIT;
	char *path = NULL, *side = NULL;
	wn_status st;

	v.author = c->me;
	v.when = c->now;
	st = wn_sh_format(&v, id, &a);
	if (st == WN_OK)
		st = wn_sh_format(theirs, id, &b);
	if (st == WN_OK && (asprintf(&path, "%s/%s", d->path, fp) < 0 ||
			    asprintf(&side, "%s/%s%s", d->path, fp, SH_CONFLICT) < 0))
		st = WN_NOMEM;
	if (st == WN_NOMEM)
		wn_error_set(c->err, st, "out of memory");
	if (st == WN_OK)
		st = wn_sh_write(c->repo.dir, side, wn_buf_str(&b), c->err);
	if (st == WN_OK)
		st = wn_sh_write(c->repo.dir, path, wn_buf_str(&a), c->err);
	c->kept_both += st == WN_OK;
	free(path);
	free(side);
	wn_buf_free(&a);
	wn_buf_free(&b);
	return st;
}

/* The repository's decisions on one review that notmuch lacks. */
static wn_status import_review(struct ctx *c, const struct rdir *d, const char *id,
			       notmuch_message_t *msg)
{
	struct locals l;
	struct change *ch = calloc(d->n, sizeof(*ch));
	wn_item *it = NULL;
	size_t n = 0;
	wn_status st = ch ? wn_sh_locals_of(msg, &l) : WN_NOMEM;

	for (size_t i = 0; st == WN_OK && i < d->n; i++) {
		const struct local *x = wn_sh_local_find(&l, d->names[i]);
		wn_share_value none = { 0 }, f;
		char *cname = NULL;
		bool open;

		if (wn_sh_is_conflict(d->names[i]) ||
		    asprintf(&cname, "%s%s", d->names[i], SH_CONFLICT) < 0)
			continue;
		/* An open conflict is imported by nobody. */
		open = false;
		for (size_t k = 0; k < d->n; k++)
			open |= !strcmp(d->names[k], cname);
		free(cname);
		if (open || wn_sh_file_value(c, d->path, d->names[i], &f, NULL) != WN_OK)
			continue;
		if (wn_sh_same(&f, x ? &x->v : &none)) {
			wn_sh_synced_add(c, id, d->names[i]);
			wn_share_value_clear(&f);
			continue;
		}
		/* Only a decision the repository once held (in step at a
		 * sync, or written into it) may be replaced by its own. */
		if (x &&
		    (x->v.verdict != WN_VERDICT_UNTRIAGED || x->v.severity != WN_SEV_NONE ||
		     (x->v.note && *x->v.note)) &&
		    !wn_sh_is_synced(c, id, d->names[i])) {
			st = keep_both(c, d, id, d->names[i], &x->v, &f);
			wn_share_value_clear(&f);
			continue;
		}
		if (!it && (st = wn_index_find(c->idx, id, &it, c->err)) == WN_OK)
			wn_store_overlay(c->store, it);
		if (st == WN_OK) {
			long fi = finding_of(it, d->names[i]);

			if (fi < 0) {
				c->out->skipped++;
				wn_share_value_clear(&f);
				continue;
			}
			wn_sh_synced_add(c, id, d->names[i]);
			ch[n].finding = (size_t) fi + 1;
			ch[n++].v = f;
		} else {
			wn_share_value_clear(&f);
		}
	}
	if (st == WN_OK && n)
		st = apply(c, it, ch, n);
	for (size_t k = 0; k < n; k++)
		wn_share_value_clear(&ch[k].v);
	free(ch);
	if (ch)
		wn_sh_locals_clear(&l);
	wn_item_free(&it);
	return st == WN_NOMEM ? wn_error_set(c->err, st, "out of memory") : st;
}

struct walk {
	struct ctx *c;
	wn_status st;
};

static void import_dir(void *val, void *arg)
{
	struct rdir *d = val;
	struct walk *w = arg;
	notmuch_message_t *msg = NULL;
	wn_share_value v;
	char *id = NULL;

	if (w->st != WN_OK)
		return;
	for (size_t i = 0; i < d->n && !id; i++)
		if (!wn_sh_is_conflict(d->names[i]) &&
		    wn_sh_file_value(w->c, d->path, d->names[i], &v, &id) == WN_OK)
			wn_share_value_clear(&v);
	if (!id)
		return;
	if (wn_index_message(w->c->idx, id, &msg, NULL) != WN_OK || !msg) {
		/* Not in this index: kept for when it arrives. */
		w->c->out->skipped += d->n;
	} else {
		wn_error *outer = w->c->err, why = WN_ERROR_INIT;

		/* What notmuch or the store refuses of one review sets that
		 * review aside, not every other. */
		w->c->err = &why;
		w->st = import_review(w->c, d, id, msg);
		w->c->err = outer;
		if (w->st == WN_USAGE || w->st == WN_PARSE) {
			wn_sh_refuse(w->c, d->path, wn_error_msg(&why));
			w->st = WN_OK;
		} else if (w->st != WN_OK) {
			wn_error_set(outer, w->st, "%s", wn_error_msg(&why));
		}
		wn_error_clear(&why);
		notmuch_message_destroy(msg);
	}
	free(id);
}

static wn_status import(struct ctx *c)
{
	struct walk w = { c, wn_sh_list_files(c) };

	if (w.st == WN_OK)
		wn_map_each(&c->dirs, import_dir, &w);
	return w.st;
}

/* --- the commands -------------------------------------------------------------------- */

/* The open conflicts, what is in step now (save), and the end. */
static wn_status finish(struct ctx *c, wn_status st, bool save)
{
	if (st == WN_OK)
		st = conflicts(c);
	if (st == WN_OK && save)
		wn_sh_synced_save(c);
	ctx_close(c);
	return st;
}

wn_status wn_share_pull(wn_index *idx, wn_store *store, const char *remote, wn_share_result *out,
			wn_error *err)
{
	struct ctx c;
	bool empty = false;
	wn_status st = ctx_open(&c, idx, store, out, err);

	if (st == WN_OK)
		st = wn_sh_export(&c, false, false);
	if (st == WN_OK)
		st = wn_sh_commit(&c, "decisions");
	if (st == WN_OK)
		st = fetch(&c, remote, &empty);
	if (st == WN_OK && !empty)
		st = merge(&c, remote);
	if (st == WN_OK)
		st = import(&c);
	if (st == WN_OK && c.kept_both)
		st = wn_sh_commit(&c, "unshared decisions kept beside the repository's");
	return finish(&c, st, true);
}

wn_status wn_share_push(wn_index *idx, wn_store *store, const char *remote, bool resolve,
			wn_share_result *out, wn_error *err)
{
	struct ctx c;
	bool empty = false;
	wn_status st = ctx_open(&c, idx, store, out, err);

	if (st == WN_OK)
		st = wn_sh_export(&c, false, resolve);
	if (st == WN_OK)
		st = wn_sh_commit(&c, resolve ? "decisions, conflicts settled" : "decisions");
	if (st == WN_OK)
		st = fetch(&c, remote, &empty);
	if (st == WN_OK && !empty && (st = count(&c, "HEAD..FETCH_HEAD", &out->behind)) == WN_OK &&
	    out->behind)
		st = wn_error_set(err, WN_USAGE, "%s has decisions not pulled yet: run 'winnow git pull' "
				  "first", remote);
	if (st == WN_OK)
		st = wn_sh_git(&c.repo, NULL, err, "push", "-q", "--", remote,
			       "HEAD:refs/heads/" SH_BRANCH, NULL);
	out->pushed = st == WN_OK;
	return finish(&c, st, true);
}

wn_status wn_share_status(wn_index *idx, wn_store *store, const char *remote,
			  wn_share_result *out, wn_error *err)
{
	struct ctx c;
	bool empty = false;
	wn_status st = ctx_open(&c, idx, store, out, err);

	if (st == WN_OK)
		st = wn_sh_export(&c, true, false);
	if (st == WN_OK)
		st = fetch(&c, remote, &empty);
	if (st == WN_OK && !empty && (st = count(&c, "HEAD..FETCH_HEAD", &out->behind)) == WN_OK)
		st = count(&c, "FETCH_HEAD..HEAD", &out->ahead);
	if (st == WN_OK && empty)
		st = count(&c, "HEAD", &out->ahead);
	return finish(&c, st, false);
}
