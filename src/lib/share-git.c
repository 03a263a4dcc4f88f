/* winnow — the sharing repository and the git program (share-private.h).
 *
 * git runs without a shell (forwarding's fwd_run_pipe), always with -C
 * and with settings that keep the user's own git configuration from
 * getting in the way: no hooks, no commit signing, winnow's identity. */
#include "autoconfig.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "forward-private.h"
#include "share-private.h"
#include "winnow/text.h"

#define MAX_ARGS 32

wn_status sh_git(const sh_repo *r, wn_buf *out, wn_error *err, ...)
{
	const char *argv[MAX_ARGS + 1];
	char *ident[2] = { NULL, NULL };
	wn_buf sink = WN_BUF_INIT;
	size_t n = 0;
	wn_status st;
	va_list ap;

	if (asprintf(&ident[0], "user.name=%s", r->name) < 0 ||
	    asprintf(&ident[1], "user.email=%s", r->email) < 0) {
		free(ident[0]);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	for (const char *fixed[] = { "git", "-C", r->dir, "-c", ident[0], "-c", ident[1], "-c",
				     "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false", "-c",
				     "core.quotePath=false", NULL }, **a = fixed; *a; a++)
		argv[n++] = *a;
	va_start(ap, err);
	for (const char *a; n < MAX_ARGS && (a = va_arg(ap, const char *));)
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	st = fwd_run_pipe((char *const *) argv, "", 0, 0, out ? out : &sink, err);
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
	free(ident[0]);
	free(ident[1]);
	return st;
}

/* mkdir -p, mode 0700. */
static wn_status make_dirs(char *path, wn_error *err)
{
	for (char *p = strchr(path + 1, '/');; p = strchr(p + 1, '/')) {
		if (p)
			*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			wn_error_set(err, WN_IO, "cannot create %s: %s", path, strerror(errno));
			if (p)
				*p = '/';
			return WN_IO;
		}
		if (!p)
			return WN_OK;
		*p = '/';
	}
}

static wn_status init(sh_repo *r, wn_error *err)
{
	wn_status st = make_dirs(r->dir, err);

	if (st == WN_OK)
		st = sh_git(r, NULL, err, "init", "-q", NULL);
	if (st == WN_OK)
		st = sh_git(r, NULL, err, "symbolic-ref", "HEAD", "refs/heads/" SH_BRANCH, NULL);
	return st;
}

/* A first commit, so that HEAD always names one (also when an earlier
 * run stopped between init and it). */
static wn_status first_commit(sh_repo *r, wn_error *err)
{
	if (sh_git(r, NULL, NULL, "rev-parse", "-q", "--verify", "HEAD", NULL) == WN_OK)
		return WN_OK;
	return sh_git(r, NULL, err, "commit", "-q", "--allow-empty", "-m",
		      "winnow: verdicts shared with git", NULL);
}

wn_status sh_repo_open(sh_repo *r, const char *db_path, const char *name, const char *email,
		       wn_error *err)
{
	char *state = NULL, *dotgit = NULL;
	struct stat sb;
	wn_status st;

	memset(r, 0, sizeof(*r));
	/* The user's GIT_DIR or GIT_WORK_TREE would send every command to
	 * another repository than -C names. */
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
	if ((st = fwd_state_dir(&state, err)) != WN_OK)
		return st;
	if (asprintf(&r->dir, "%s/git-%016llx", state, fwd_hash(FWD_FNV_INIT, db_path)) < 0 ||
	    asprintf(&dotgit, "%s/.git", r->dir) < 0 || !(r->name = strdup(name && *name ? name : "winnow")) ||
	    !(r->email = strdup(email && *email ? email : "winnow@localhost"))) {
		free(state);
		free(dotgit);
		sh_repo_close(r);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	free(state);
	st = stat(dotgit, &sb) == 0 ? WN_OK : init(r, err);
	if (st == WN_OK)
		st = first_commit(r, err);
	free(dotgit);
	if (st != WN_OK)
		sh_repo_close(r);
	return st;
}

void sh_repo_close(sh_repo *r)
{
	free(r->dir);
	free(r->name);
	free(r->email);
	memset(r, 0, sizeof(*r));
}
