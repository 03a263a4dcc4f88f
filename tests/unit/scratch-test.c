/* winnow — scratch folders and files for the unit tests (scratch-test.h). */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scratch-test.h"
#include "winnow/winnow.h"

char *tmpdir(void)
{
	char *d = strdup("/tmp/winnow-unit.XXXXXX");

	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	return d;
}

void rmtree(const char *d)
{
	char *cmd = NULL;

	if (asprintf(&cmd, "rm -rf '%s'", d) > 0 && system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", d);
	free(cmd);
}

off_t size_of(const char *path)
{
	struct stat sb;

	assert_int_equal(stat(path, &sb), 0);
	return sb.st_size;
}

int scratch_world_up(void **state)
{
	const char *src = getenv("WN_TOP_SRCDIR");
	struct scratch_world *w = calloc(1, sizeof(*w));
	char *cmd = NULL, *cfg = NULL;
	wn_error err = WN_ERROR_INIT;
	int ok;

	if (!w)
		return -1;
	w->dir = tmpdir();
	ok = asprintf(&cmd, "bash '%s/tests/lib/mkdb.sh' '%s/tests/corpus/demo' '%s/db' >/dev/null",
		      src ? src : ".", src ? src : ".", w->dir) > 0 &&
	     system(cmd) == 0 && asprintf(&cfg, "%s/db/notmuch-config", w->dir) > 0 &&
	     wn_index_open(cfg, &w->idx, &err) == WN_OK;
	free(cmd);
	free(cfg);
	wn_error_clear(&err);
	*state = w;
	return ok ? 0 : -1;
}

int scratch_world_down(void **state)
{
	struct scratch_world *w = *state;

	if (w) {
		wn_index_close(&w->idx);
		rmtree(w->dir);
		free(w->dir);
		free(w);
	}
	return 0;
}
