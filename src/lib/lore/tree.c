/* winnow — the tree a finding is read in (lore.h): winnow.tree with the
 * patch's series applied by b4 in a worktree of its own, or the tree as
 * it is.
 *
 * The worktrees live in $XDG_CACHE_HOME/winnow/trees, one per series
 * and tree (named by the FNV-1a hash of winnow.tree's real path and its
 * thread's first message): a kernel checkout is large, so every patch
 * of a series shares it.  b4 makes a commit of each patch; a review of
 * patch K sees the worktree checked out at the K-th (the bot read the
 * file as that patch left it).
 * NAME.applied holds the commits b4 started from and ended at, so a
 * second look reuses the worktree without b4.  A worktree b4 failed in
 * is removed again: the next look tries anew. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/file.h"
#include "../core/hash.h"
#include "lore-private.h"
#include "winnow/conf.h"
#include "winnow/proc.h"
#include "winnow/subject.h"
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

/* git -C tree worktree ARGS..., within secs seconds (winnow.tool_timeout,
 * as every run here).  git is given our own paths and the commits
 * git named, nothing from mail: no "--" needed. */
static wn_status worktree(int secs, const char *tree, const char *op, const char *a1,
			  const char *a2, const char *a3, wn_error *err)
{
	const char *argv[] = { "git", "-C", tree, "worktree", op, a1, a2, a3, NULL };

	return wn_lore_run(NULL, (char *const *) argv, secs, NULL, err);
}

/* A worktree left by an earlier try (b4 failed, winnow was killed). */
static wn_status clear_worktree(int secs, const char *tree, const char *wt, wn_error *err)
{
	if (is_dir(wt))
		worktree(secs, tree, "remove", "--force", wt, NULL, NULL);
	worktree(secs, tree, "prune", NULL, NULL, NULL, NULL);
	if (is_dir(wt))
		return wn_error_set(err, WN_IO, "cannot clear the old worktree %s", wt);
	return WN_OK;
}

/* b4 shazam in wt, offline, the whole series from mbox: each patch a
 * commit, so that one worktree serves the review of every patch.  The
 * id comes from mail: after "--", which b4's argparse takes as the end
 * of its options ("<-m/other.mbox@x>" would be one), and apply()
 * refuses one starting with '-' besides. */
static wn_status shazam(int secs, const char *wt, const char *mbox, const char *patch_id,
			wn_error *err)
{
	const char *argv[] = { "b4", "--offline-mode", "--no-stdin", "shazam", "-m", mbox, "--",
			       patch_id, NULL };

	return wn_lore_run(wt, (char *const *) argv, secs, NULL, err);
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

static bool is_oid(const char *s, size_t n)
{
	if (n != 40)
		return false;
	for (size_t k = 0; k < n; k++)
		if (!strchr("0123456789abcdef", s[k]))
			return false;
	return true;
}

/* The commit HEAD of wt is at, into oid. */
static wn_status head_of(int secs, const char *wt, char oid[41], wn_error *err)
{
	const char *argv[] = { "git", "-C", wt, "rev-parse", "--verify", "HEAD", NULL };
	wn_buf out = WN_BUF_INIT;
	wn_status st = wn_lore_run(NULL, (char *const *) argv, secs, &out, err);

	if (st == WN_OK && (out.len < 40 || !is_oid(out.data, 40)))
		st = wn_error_set(err, WN_IO, "git rev-parse said no commit for %s", wt);
	if (st == WN_OK)
		memcpy(oid, out.data, 40), oid[40] = '\0';
	wn_buf_free(&out);
	return st;
}

/* NAME.applied: the commit b4 started from and the one it ended at. */
static wn_status read_mark(const char *mark, char base[41], char tip[41])
{
	char *text = NULL;
	size_t len = 0;
	bool ok = wn_file_read(mark, 256, WN_FILE_NOFOLLOW, &text, &len, NULL) == WN_OK &&
		  len >= 81 && is_oid(text, 40) && text[40] == ' ' && is_oid(text + 41, 40);

	if (ok) {
		memcpy(base, text, 40), base[40] = '\0';
		memcpy(tip, text + 41, 40), tip[40] = '\0';
	}
	free(text);
	return ok ? WN_OK : WN_NOT_FOUND;
}

static wn_status write_mark(const char *mark, const char *base, const char *tip, wn_error *err)
{
	int fd = open(mark, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	char line[84];
	int n = snprintf(line, sizeof(line), "%s %s\n", base, tip);

	if (fd < 0 || write(fd, line, (size_t) n) != n) {
		wn_status st = wn_error_set(err, WN_IO, "cannot write %s: %s", mark, strerror(errno));

		if (fd >= 0)
			close(fd);
		return st;
	}
	close(fd);
	return WN_OK;
}

/* Put wt at the part-th commit of base..tip, as that patch left the
 * tree (the tip for a patch alone or a part past the end). */
static wn_status stand_at(int secs, const char *wt, const char *base, const char *tip, int part,
			  wn_tree *t, wn_error *err)
{
	char range[84], pick[41] = "";
	const char *list[] = { "git", "-C", wt, "rev-list", "--reverse", range, NULL };
	const char *checkout[] = { "git", "-C", wt, "checkout", "-q", "--detach", pick, NULL };
	wn_buf out = WN_BUF_INIT;
	int n = 0;
	wn_status st;

	snprintf(range, sizeof(range), "%s..%s", base, tip);
	if ((st = wn_lore_run(NULL, (char *const *) list, secs, &out, err)) != WN_OK)
		goto out;
	for (size_t at = 0; at + 40 <= out.len && is_oid(out.data + at, 40); at += 41)
		if (++n <= part || part < 1)
			memcpy(pick, out.data + at, 40);
	if (!n) {
		st = wn_error_set(err, WN_IO, "b4 applied no patch");
		goto out;
	}
	t->patches = n;
	t->upto = part >= 1 && part <= n ? part : n;
	st = wn_lore_run(NULL, (char *const *) checkout, secs, NULL, err);
out:
	wn_buf_free(&out);
	return st;
}

/* The worktree's name: the tree and the series (its first message),
 * so that a worktree made from one checkout is never taken for the
 * series applied to another (winnow.tree changed).  The tree by its
 * real path: "~/linux/" and a link to it are one tree. */
static uint64_t worktree_key(const char *tree, const char *root)
{
	char *real = realpath(tree, NULL);
	uint64_t h = wn_fnv1a_field(WN_FNV_BASIS, real ? real : tree);

	free(real);
	return wn_fnv1a_field(h, root);
}

/* The series applied in its worktree, at it's patch: t->root is the
 * worktree's path. */
static wn_status apply(wn_index *idx, const wn_item *it, const char *tree, wn_tree *t,
		       wn_error *err)
{
	char *cache = NULL, *dir = NULL, *mbox = NULL, *root = NULL, *wt = NULL, *mark = NULL;
	int secs = wn_index_conf(idx)->tool_timeout;
	char base[41], tip[41];
	wn_status st;

	if (it->patch->id[0] == '-')
		return wn_error_set(err, WN_PARSE, "the patch's Message-ID starts with '-': not given to b4");
	if ((st = wn_cache_dir(&cache, err)) != WN_OK)
		return st;
	if (!(dir = wn_strdupf("%s/trees", cache)) ||
	    !(mbox = wn_strdupf("%s/series-%ld.mbox", dir, (long) getpid()))) {
		st = wn_error_set(err, WN_NOMEM, "out of memory");
		goto out;
	}
	if ((st = wn_mkdirs(dir, err)) != WN_OK ||
	    (st = wn_lore_thread_mbox(idx, it->patch->id, mbox, &root, err)) != WN_OK)
		goto out;
	if (!(wt = wn_strdupf("%s/%016" PRIx64, dir, worktree_key(tree, root))) ||
	    !(mark = wn_strdupf("%s.applied", wt))) {
		st = wn_error_set(err, WN_NOMEM, "out of memory");
		goto out;
	}
	if (!is_dir(wt) || read_mark(mark, base, tip) != WN_OK) {
		unlink(mark);
		if ((st = clear_worktree(secs, tree, wt, err)) != WN_OK ||
		    (st = worktree(secs, tree, "add", "--detach", wt, "HEAD", err)) != WN_OK ||
		    (st = head_of(secs, wt, base, err)) != WN_OK)
			goto out;
		if ((st = shazam(secs, wt, mbox, it->patch->id, err)) != WN_OK ||
		    (st = head_of(secs, wt, tip, err)) != WN_OK ||
		    (st = write_mark(mark, base, tip, err)) != WN_OK) {
			clear_worktree(secs, tree, wt, NULL);
			goto out;
		}
	}
	if ((st = stand_at(secs, wt, base, tip, patch_part(it->patch), t, err)) != WN_OK)
		goto out;
	t->root = wt;
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
	wn_status st;

	memset(t, 0, sizeof(*t));
	if (!tree)
		return wn_error_set(err, WN_CONFIG, "winnow.tree is not set (the kernel checkout "
				    "findings are read in)");
	if (!is_dir(tree))
		return wn_error_set(err, WN_CONFIG, "winnow.tree %s is not a folder", tree);
	if (!it->patch) {
		st = wn_error_set(&why, WN_NOT_FOUND, "the patch is not in the database");
	} else {
		/* Ctrl-C stops b4 or git and the apply, which cleans up
		 * (no series-PID.mbox left behind), and is no "tree as it
		 * is": the user asked for nothing more. */
		wn_proc_hold_interrupt();
		st = apply(idx, it, tree, t, &why);
		if (wn_proc_release_interrupt()) {
			wn_tree_clear(t);
			wn_error_clear(&why);
			return wn_error_set(err, WN_IO, "stopped (Ctrl-C): the series is not applied");
		}
	}
	if (st != WN_OK && st != WN_NOMEM) {
		/* The tree as it is, and why. */
		memset(t, 0, sizeof(*t));
		if (!(t->root = strdup(tree)) || !(t->why = strdup(wn_error_msg(&why))))
			st = WN_NOMEM;
	}
	t->applied = st == WN_OK && t->root && !t->why;
	wn_error_clear(&why);
	if (st == WN_NOMEM) {
		wn_tree_clear(t);
		return wn_error_set(err, st, "out of memory");
	}
	return WN_OK;
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

/* The finding's file name, when it can be one inside a tree. */
static wn_status file_name(const wn_finding *f, const char **name, wn_error *err)
{
	*name = f->path ? f->path : f->file;
	if (!*name)
		return wn_error_set(err, WN_NOT_FOUND, "the finding names no file");
	if (!inside(*name))
		return wn_error_set(err, WN_NOT_FOUND, "the finding's file is not a path inside a tree");
	return WN_OK;
}

/* Why the walk to name in the tree failed (why, cleared), in the
 * tree's words.  A link is refused, not followed: a patch of the
 * series can add one, pointing at any file of the user's. */
static wn_status refused(const wn_tree *t, const char *name, wn_error *why, wn_error *err)
{
	const char *where = t->applied ? "the tree with the series applied" : "the tree";
	wn_status st = why->status;

	if (st == WN_NOMEM)
		st = wn_error_set(err, st, "out of memory");
	else if (st == WN_NOT_FOUND)
		st = wn_error_set(err, st, "%s is not in %s", name, where);
	else
		st = wn_error_set(err, WN_PARSE, "%s in %s: %s; not opened", name, where,
				  wn_error_msg(why));
	wn_error_clear(why);
	return st;
}

wn_status wn_tree_file(const wn_tree *t, const wn_finding *f, char **path, wn_error *err)
{
	wn_error why = WN_ERROR_INIT;
	const char *name;
	wn_status st;
	int fd;

	*path = NULL;
	if ((st = file_name(f, &name, err)) != WN_OK)
		return st;
	if ((fd = wn_file_open_in(t->root, name, SIZE_MAX, &why)) < 0)
		return refused(t, name, &why, err);
	close(fd);
	if (!(*path = wn_strdupf("%s/%s", t->root, name)))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	return WN_OK;
}

wn_status wn_tree_read(const wn_tree *t, const wn_finding *f, size_t max, char **text, size_t *len,
		       wn_error *err)
{
	wn_error why = WN_ERROR_INIT;
	const char *name;
	wn_status st;

	*text = NULL;
	if ((st = file_name(f, &name, err)) != WN_OK)
		return st;
	if (wn_file_read_in(t->root, name, max, text, len, &why) != WN_OK)
		return refused(t, name, &why, err);
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
