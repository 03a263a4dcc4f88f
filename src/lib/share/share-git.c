/* winnow — the sharing repository and the git program (share-private.h).
 *
 * git runs without a shell (wn_proc_run), always with -C
 * and with settings that keep the user's own git configuration from
 * getting in the way: no hooks, no commit signing, winnow's identity.
 * The repository is hostile input (anyone who can push writes it):
 * git checks it out without symbolic links, and the files are read and
 * written by share-file.c, which never follows one.
 *
 * The user's GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE and the like would
 * send every command to another repository than -C names: they are
 * left out of the child's environment, never unset in this process
 * (which may be a TUI whose pager or editor wants them). */
#include "autoconfig.h"

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/hash.h"
#include "winnow/proc.h"

/* git's own list of the variables that name a repository's parts
 * (local_repo_env in git's environment.c). */
static const char *const repo_env[] = {
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_DIR", "GIT_GRAFT_FILE",
	"GIT_IMPLICIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_OBJECT_DIRECTORY",
	"GIT_PREFIX", "GIT_REPLACE_REF_BASE", "GIT_SHALLOW_FILE", "GIT_WORK_TREE", "GIT_NAMESPACE",
	"GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
};

static bool repo_var(const char *kv)
{
	for (size_t i = 0; i < sizeof(repo_env) / sizeof(*repo_env); i++) {
		size_t n = strlen(repo_env[i]);

		if (!strncmp(kv, repo_env[i], n) && kv[n] == '=')
			return true;
	}
	return false;
}

/* This process's environment without repo_env, and with extra; the
 * array is malloc'd, its strings are environ's and extra. */
static char **child_env(char *extra)
{
	size_t n = 0, k = 0;
	char **env;

	while (environ && environ[n])
		n++;
	if (!(env = malloc((n + 2) * sizeof(*env))))
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!repo_var(environ[i]))
			env[k++] = environ[i];
	env[k++] = extra;
	env[k] = NULL;
	return env;
}

/* GIT_CEILING_DIRECTORIES=<the folder above dir>: when dir's .git is
 * broken, git must say so, not find a repository above it (a home
 * folder kept in git) and work there. */
static char *ceiling(const char *dir)
{
	const char *slash = strrchr(dir, '/');
	char *c = NULL;

	if (asprintf(&c, "GIT_CEILING_DIRECTORIES=%.*s", slash && slash > dir ? (int) (slash - dir) : 1,
		     slash && slash > dir ? dir : "/") < 0)
		return NULL;
	return c;
}
#include "share-private.h"
#include "winnow/text.h"

#define MAX_ARGS 32

wn_status wn_sh_git(const sh_repo *r, wn_buf *out, wn_error *err, ...)
{
	const char *argv[MAX_ARGS + 1];
	char *ident[2] = { NULL, NULL }, *ceil = ceiling(r->dir), **env = ceil ? child_env(ceil) : NULL;
	wn_buf sink = WN_BUF_INIT;
	size_t n = 0;
	wn_status st;
	va_list ap;

	if (!env || asprintf(&ident[0], "user.name=%s", r->name) < 0 ||
	    asprintf(&ident[1], "user.email=%s", r->email) < 0) {
		free(ident[0]);
		free(env);
		free(ceil);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	for (const char *fixed[] = { "git", "-C", r->dir, "-c", ident[0], "-c", ident[1], "-c",
				     "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false", "-c",
				     "core.quotePath=false", "-c", "core.symlinks=false", NULL }, **a = fixed;
	     *a; a++)
		argv[n++] = *a;
	va_start(ap, err);
	for (const char *a; n < MAX_ARGS && (a = va_arg(ap, const char *));)
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	st = wn_proc_run_env((char *const *) argv, env, "", 0, 0, out ? out : &sink, err);
	if (st != WN_OK && (out ? out : &sink)->len) {
		/* Its own words after ours, on one line. */
		char *said = wn_text_header_safe(wn_buf_str(out ? out : &sink)), *msg = strdup(wn_error_msg(err));

		if (said && strlen(said) > 300)
			strcpy(said + 297, "...");
		wn_error_set(err, st, "%s: %s", msg ? msg : "git failed", said ? said : "");
		free(said);
		free(msg);
	}
	wn_buf_free(&sink);
	free(env);
	free(ceil);
	free(ident[0]);
	free(ident[1]);
	return st;
}

static wn_status init(sh_repo *r, wn_error *err)
{
	wn_status st = wn_mkdirs(r->dir, err);

	/* No template: no sample hooks to copy, fewer bytes to lack. */
	if (st == WN_OK)
		st = wn_sh_git(r, NULL, err, "init", "-q", "--template=", NULL);
	if (st == WN_OK)
		st = wn_sh_git(r, NULL, err, "symbolic-ref", "HEAD", "refs/heads/" SH_BRANCH, NULL);
	return st;
}

/* A first commit, so that HEAD always names one (also when an earlier
 * run stopped between init and it). */
static wn_status first_commit(sh_repo *r, wn_error *err)
{
	if (wn_sh_git(r, NULL, NULL, "rev-parse", "-q", "--verify", "HEAD", NULL) == WN_OK)
		return WN_OK;
	return wn_sh_git(r, NULL, err, "commit", "-q", "--allow-empty", "-m",
			 "winnow: verdicts shared with git", NULL);
}

static int remove_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void) sb;
	(void) ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* A repository git no longer takes for one (an init or a write cut
 * short by a full disk): made anew.  Nothing is lost: every decision
 * is in notmuch and is written again, the remote's are fetched again;
 * the findings in step are kept (SH_SYNCED, when it can be read). */
static wn_status renew(sh_repo *r, wn_error *err)
{
	char *text = NULL;
	wn_buf b = WN_BUF_INIT;
	wn_status st = WN_OK;

	if (wn_sh_read(r->dir, SH_SYNCED, (size_t) -1 / 2, &b, NULL) == WN_OK)
		text = wn_buf_steal(&b);
	if (nftw(r->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) < 0 && errno != ENOENT)
		st = wn_error_set(err, WN_IO, "cannot remove the broken repository %s: %s", r->dir,
				  strerror(errno));
	if (st == WN_OK)
		st = init(r, err);
	if (st == WN_OK && text)
		st = wn_sh_write(r->dir, SH_SYNCED, text, err);
	wn_buf_free(&b);
	free(text);
	return st;
}

wn_status wn_sh_repo_open(sh_repo *r, const char *db_path, const char *name, const char *email,
			  wn_error *err)
{
	char *state = NULL, *dotgit = NULL;
	struct stat sb;
	wn_status st;

	memset(r, 0, sizeof(*r));
	if ((st = wn_state_dir(&state, err)) != WN_OK)
		return st;
	if (asprintf(&r->dir, "%s/git-%016llx", state,
		     (unsigned long long) wn_fnv1a_field(WN_FNV_BASIS, db_path)) < 0 ||
	    asprintf(&dotgit, "%s/.git", r->dir) < 0 || !(r->name = strdup(name && *name ? name : "winnow")) ||
	    !(r->email = strdup(email && *email ? email : "winnow@localhost"))) {
		free(state);
		free(dotgit);
		wn_sh_repo_close(r);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	free(state);
	if (stat(dotgit, &sb) < 0)
		st = init(r, err);
	else if (wn_sh_git(r, NULL, NULL, "rev-parse", "--git-dir", NULL) != WN_OK)
		st = renew(r, err);
	else
		st = WN_OK;
	if (st == WN_OK)
		st = first_commit(r, err);
	free(dotgit);
	if (st != WN_OK)
		wn_sh_repo_close(r);
	return st;
}

void wn_sh_repo_close(sh_repo *r)
{
	free(r->dir);
	free(r->name);
	free(r->email);
	memset(r, 0, sizeof(*r));
}
