/* winnow — the tree a finding is read in (lore.h): winnow.tree with the
 * patch's series applied by b4 in a worktree of its own, or the tree as
 * it is.
 *
 * The worktrees live in $XDG_CACHE_HOME/winnow/trees, one per series
 * (its thread's first message) and patch (applied up to it: the bot
 * read the file as that patch left it), named by their FNV-1a hash;
 * NAME.applied says b4 finished there, so a second look reuses it.  A
 * worktree b4 failed in is removed again: the next look tries anew. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/hash.h"
#include "lore-private.h"
#include "winnow/conf.h"
#include "winnow/proc.h"
#include "winnow/series.h"
#include "winnow/text.h"

void wn_tree_clear(wn_tree *t)
{
	free(t->root);
	free(t->why);
	memset(t, 0, sizeof(*t));
}

static bool is_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* git -C tree worktree ARGS... */
static wn_status worktree(const char *tree, const char *op, const char *a1, const char *a2,
			  const char *a3, wn_error *err)
{
	const char *argv[] = { "git", "-C", tree, "worktree", op, a1, a2, a3, NULL };

	return lore_run(NULL, (char *const *) argv, NULL, err);
}

/* A worktree left by an earlier try (b4 failed, winnow was killed). */
static wn_status clear_worktree(const char *tree, const char *wt, wn_error *err)
{
	if (is_dir(wt))
		worktree(tree, "remove", "--force", wt, NULL, NULL);
	worktree(tree, "prune", NULL, NULL, NULL, NULL);
	if (is_dir(wt))
		return wn_error_set(err, WN_IO, "cannot clear the old worktree %s", wt);
	return WN_OK;
}

/* b4 shazam in wt, offline, the series from mbox, up to part ("-P
 * 1-K"; a patch alone, part 0, has no -P: the argv ends early). */
static wn_status shazam(const char *wt, const char *mbox, const char *patch_id, int part,
			wn_error *err)
{
	char upto[32];
	const char *argv[] = { "b4", "--offline-mode", "--no-stdin", "shazam", "-m", mbox,
			       part > 0 ? "-P" : patch_id, part > 0 ? upto : NULL, patch_id, NULL };

	snprintf(upto, sizeof(upto), "1-%d", part);
	return lore_run(wt, (char *const *) argv, NULL, err);
}

static int patch_part(const wn_patch *p)
{
	wn_subject s;
	int part = 0;

	if (wn_subject_parse(p->subject, &s) == WN_OK)
		part = s.part;
	wn_subject_clear(&s);
	return part;
}

static wn_status touch(const char *path, wn_error *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

	if (fd < 0)
		return wn_error_set(err, WN_IO, "cannot create %s: %s", path, strerror(errno));
	close(fd);
	return WN_OK;
}

/* The series applied in its worktree: *out is the worktree's path. */
static wn_status apply(wn_index *idx, const wn_item *it, const char *tree, char **out,
		       wn_error *err)
{
	char *cache = NULL, *dir = NULL, *mbox = NULL, *root = NULL, *wt = NULL, *mark = NULL;
	int part = patch_part(it->patch);
	wn_status st;
	uint64_t h;

	*out = NULL;
	if ((st = wn_cache_dir(&cache, err)) != WN_OK)
		return st;
	if (!(dir = wn_strdupf("%s/trees", cache)) ||
	    !(mbox = wn_strdupf("%s/series-%ld.mbox", dir, (long) getpid()))) {
		st = wn_error_set(err, WN_NOMEM, "out of memory");
		goto out;
	}
	if ((st = wn_mkdirs(dir, err)) != WN_OK ||
	    (st = lore_thread_mbox(idx, it->patch->id, mbox, &root, err)) != WN_OK)
		goto out;
	h = wn_fnv1a_field(wn_fnv1a_field(WN_FNV_BASIS, root), it->patch->id);
	if (!(wt = wn_strdupf("%s/%016" PRIx64, dir, h)) || !(mark = wn_strdupf("%s.applied", wt))) {
		st = wn_error_set(err, WN_NOMEM, "out of memory");
		goto out;
	}
	if (access(mark, F_OK) == 0 && is_dir(wt))
		goto done;
	unlink(mark);
	if ((st = clear_worktree(tree, wt, err)) != WN_OK ||
	    (st = worktree(tree, "add", "--detach", wt, "HEAD", err)) != WN_OK)
		goto out;
	if ((st = shazam(wt, mbox, it->patch->id, part, err)) != WN_OK) {
		clear_worktree(tree, wt, NULL);
		goto out;
	}
	if ((st = touch(mark, err)) != WN_OK)
		goto out;
done:
	*out = wt;
	wt = NULL;
out:
	if (mbox)
		unlink(mbox);
	free(cache);
	free(dir);
	free(mbox);
	free(root);
	free(wt);
	free(mark);
	return st;
}

wn_status wn_tree_prepare(wn_index *idx, const wn_item *it, wn_tree *t, wn_error *err)
{
	const char *tree = wn_index_conf(idx)->tree;
	wn_error why = WN_ERROR_INIT;
	char *wt = NULL;
	wn_status st = WN_OK;

	memset(t, 0, sizeof(*t));
	if (!tree)
		return wn_error_set(err, WN_CONFIG, "winnow.tree is not set (the kernel checkout "
				    "findings are read in)");
	if (!is_dir(tree))
		return wn_error_set(err, WN_CONFIG, "winnow.tree %s is not a folder", tree);
	if (!it->patch)
		st = wn_error_set(&why, WN_NOT_FOUND, "the patch is not in the database");
	else
		st = apply(idx, it, tree, &wt, &why);
	if (st == WN_NOMEM) {
		wn_error_clear(&why);
		return wn_error_set(err, st, "out of memory");
	}
	t->applied = st == WN_OK;
	t->root = t->applied ? wt : strdup(tree);
	if (!t->applied && !(t->why = strdup(wn_error_msg(&why)))) {
		wn_tree_clear(t);
		st = WN_NOMEM;
	}
	wn_error_clear(&why);
	if (!t->root) {
		wn_tree_clear(t);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	return st == WN_NOMEM ? wn_error_set(err, st, "out of memory") : WN_OK;
}

/* A path inside the tree: relative, no "." or ".." part, no control
 * character (it comes from a bot's mail). */
static bool inside(const char *f)
{
	if (!*f || *f == '/')
		return false;
	for (const unsigned char *c = (const unsigned char *) f; *c; c++)
		if (*c < ' ' || *c == 0x7f)
			return false;
	for (const char *p = f; *p;) {
		size_t n = strcspn(p, "/");

		if ((n == 1 && *p == '.') || (n == 2 && !strncmp(p, "..", 2)))
			return false;
		p += n + (p[n] == '/');
	}
	return true;
}

wn_status wn_tree_file(const wn_tree *t, const wn_finding *f, char **path, wn_error *err)
{
	const char *name = f->path ? f->path : f->file;
	struct stat sb;

	*path = NULL;
	if (!name)
		return wn_error_set(err, WN_NOT_FOUND, "the finding names no file");
	if (!inside(name))
		return wn_error_set(err, WN_NOT_FOUND, "the finding's file is not a path inside a tree");
	if (!(*path = wn_strdupf("%s/%s", t->root, name)))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	if (stat(*path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		free(*path);
		*path = NULL;
		return wn_error_set(err, WN_NOT_FOUND, "%s is not in %s", name,
				    t->applied ? "the tree with the series applied" : "the tree");
	}
	return WN_OK;
}

wn_status wn_tree_edit(const wn_tree *t, const wn_finding *f, wn_error *err)
{
	char *path = NULL, at[24];
	const char *paths[2];
	size_t n = 0;
	wn_status st = wn_tree_file(t, f, &path, err);

	if (st != WN_OK)
		return st;
	if (f->line > 0) {
		snprintf(at, sizeof(at), "+%d", f->line);
		paths[n++] = at;
	}
	paths[n++] = path;
	st = wn_run_editor(paths, n, err);
	free(path);
	return st;
}
