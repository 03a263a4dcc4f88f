/* winnow — scratch folders and files for the unit tests of the store
 * (test-store-edges.c, test-store-errors.c). */
#ifndef WN_TEST_SCRATCH_TEST_H
#define WN_TEST_SCRATCH_TEST_H

#include <sys/types.h>

/* A new empty folder under /tmp; malloc'd.  Fails the test when none
 * can be made. */
char *tmpdir(void);
/* Remove folder d and all it holds (told on stderr when it cannot). */
void rmtree(const char *d);
/* The size of the file at path; fails the test when there is none. */
off_t size_of(const char *path);

#endif
