/* Test helper: hold the notmuch write lock for N seconds, the way a long
 * `notmuch new` or a tagging script would.  Prints "locked" once it
 * holds the lock, so a test can wait for that line. */
#include "autoconfig.h"

#include <notmuch.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	notmuch_database_t *db = NULL;
	char *msg = NULL;
	double secs = argc > 1 ? atof(argv[1]) : 10;
	notmuch_status_t nst;

	nst = notmuch_database_open_with_config(NULL, NOTMUCH_DATABASE_MODE_READ_WRITE,
						NULL, NULL, &db, &msg);
	if (nst != NOTMUCH_STATUS_SUCCESS) {
		fprintf(stderr, "holdlock: %s\n", msg ? msg : notmuch_status_to_string(nst));
		return 2;
	}
	printf("locked\n");
	fflush(stdout);
	usleep((useconds_t) (secs * 1e6));
	notmuch_database_destroy(db);
	return 0;
}
