/* winnow — scratch folders and files for the unit tests of the store
 * (test-store-edges.c, test-store-errors.c, test-store-nomem.c), and
 * the demo corpus indexed in one. */
#ifndef WN_TEST_SCRATCH_TEST_H
#define WN_TEST_SCRATCH_TEST_H

#include <sys/types.h>

#include "winnow/index.h"

/* A new empty folder under /tmp; malloc'd.  Fails the test when none
 * can be made. */
char *tmpdir(void);
/* Remove folder d and all it holds (told on stderr when it cannot). */
void rmtree(const char *d);
/* The size of the file at path; fails the test when there is none. */
off_t size_of(const char *path);

/* A scratch folder holding tests/corpus/demo indexed (dir/db), the
 * index opened; state: a counter a test may use.  cmocka's group
 * setup and teardown. */
struct scratch_world {
	char *dir;
	wn_index *idx;
	int state;
};
int scratch_world_up(void **state);
int scratch_world_down(void **state);

#endif
