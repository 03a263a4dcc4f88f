/* winnow — a patch in the user's pager, at the hunk (series.h).
 *
 * The text goes into a private temporary file that the pager reads;
 * the pager is $PAGER (default less) split into words, run without a
 * shell, on the caller's terminal (core/proc.c's runner, as the
 * editor), with "+LINE" before the file, which less, more, most and vi
 * all take as "start at LINE". */
#include "autoconfig.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "winnow/proc.h"
#include "winnow/series.h"
#include "winnow/text.h"

static wn_status write_temp(const char *text, char path[], wn_error *err)
{
	size_t len = strlen(text), off = 0;
	int fd = mkstemp(path);

	if (fd < 0)
		return wn_error_set(err, WN_IO, "cannot create %s: %s", path, strerror(errno));
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			unlink(path);
			return wn_error_set(err, WN_IO, "cannot write %s: %s", path, strerror(errno));
		}
		off += (size_t) w;
	}
	close(fd);
	return WN_OK;
}

/* $PAGER's words, then "+line" and the file. */
static wn_status pager_argv(const char *path, int line, char ***out, wn_error *err)
{
	const char *pager = getenv("PAGER");
	char **v, **nv;
	size_t k = 0;
	wn_status st;

	if ((st = wn_argv_split(pager && *pager ? pager : "less", &v, err)) != WN_OK)
		return st == WN_USAGE ? wn_error_prefix(err, WN_CONFIG, "$PAGER") : st;
	while (v[k])
		k++;
	if (!(nv = realloc(v, (k + 3) * sizeof(*nv)))) {
		wn_strv_free(v);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	nv[k + 2] = NULL;
	if (asprintf(&nv[k], "+%d", line > 0 ? line : 1) < 0)
		nv[k] = NULL;
	nv[k + 1] = nv[k] ? strdup(path) : NULL;
	if (!nv[k + 1]) {
		wn_strv_free(nv);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	*out = nv;
	return WN_OK;
}

wn_status wn_run_pager(const char *text, int line, wn_error *err)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	char **argv = NULL;
	wn_status st;

	if ((size_t) snprintf(path, sizeof(path), "%s/winnow-patch-XXXXXX",
			      dir && *dir ? dir : "/tmp") >= sizeof(path))
		return wn_error_set(err, WN_CONFIG, "$TMPDIR is too long");
	if ((st = write_temp(text, path, err)) != WN_OK)
		return st;
	if ((st = pager_argv(path, line, &argv, err)) == WN_OK)
		st = wn_proc_run_terminal(argv, "the pager", err);
	wn_strv_free(argv);
	unlink(path);
	return st;
}
