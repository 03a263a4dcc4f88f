/* Test helper: hold the notmuch write lock the way a long `notmuch new`
 * or a tagging script would, until told to let go.
 *
 *   holdlock          take the lock, print "locked", hold it until
 *                     SIGTERM, SIGINT or SIGHUP (or the parent's death),
 *                     then release it and exit 0
 *   holdlock --probe  exit 0 if nobody holds the lock, 1 if a process
 *                     does, 2 if that cannot be told; never waits
 *
 * Held until signalled, not for a time: a test shows that something
 * happens while the lock is held by doing it before it releases the
 * lock, however slow the machine. */
#include "autoconfig.h"

#include <fcntl.h>
#include <notmuch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* Xapian's lock file, where notmuch keeps the database (as
 * src/lib/store/store-writer.c looks for it). */
static int probe(void)
{
	static const char *const where[] = { "/.notmuch/xapian/flintlock", "/xapian/flintlock" };
	notmuch_database_t *db = NULL;
	char *msg = NULL, *path = NULL;
	int rc = 2;

	if (notmuch_database_open_with_config(NULL, NOTMUCH_DATABASE_MODE_READ_ONLY, NULL, NULL,
					      &db, &msg) != NOTMUCH_STATUS_SUCCESS) {
		fprintf(stderr, "holdlock: %s\n", msg ? msg : "cannot open the database");
		return 2;
	}
	for (size_t i = 0; rc == 2 && i < sizeof(where) / sizeof(where[0]); i++) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		int fd;

		if (asprintf(&path, "%s%s", notmuch_database_get_path(db), where[i]) < 0)
			break;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		free(path);
		if (fd < 0)
			continue;
		if (fcntl(fd, F_GETLK, &fl) == 0)
			rc = fl.l_type == F_UNLCK ? 0 : 1;
		close(fd);
	}
	notmuch_database_destroy(db);
	return rc;
}

int main(int argc, char **argv)
{
	notmuch_database_t *db = NULL;
	char *msg = NULL;
	notmuch_status_t nst;
	sigset_t set;
	int sig;

	if (argc > 1 && strcmp(argv[1], "--probe") == 0)
		return probe();
	/* Taken by sigwait below, never by a handler: blocked from here. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
#ifdef __linux__
	/* A test that dies must not leave the lock held behind it. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
	nst = notmuch_database_open_with_config(NULL, NOTMUCH_DATABASE_MODE_READ_WRITE,
						NULL, NULL, &db, &msg);
	if (nst != NOTMUCH_STATUS_SUCCESS) {
		fprintf(stderr, "holdlock: %s\n", msg ? msg : notmuch_status_to_string(nst));
		return 2;
	}
	printf("locked\n");
	fflush(stdout);
	sigwait(&set, &sig);
	notmuch_database_destroy(db);
	return 0;
}
