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
