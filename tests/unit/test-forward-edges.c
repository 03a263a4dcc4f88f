/* Forwarding's negative cases, each a change that passed
 * every other test: a Message-ID with two '@' is no Message-ID, one
 * mailbox in two cases is one recipient, and forward.lock is neither
 * kept by a child winnow forked nor taken twice by one winnow. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "forward/forward-test.h"

static void test_msgid_one_at(void **state)
{
	(void) state;
	assert_true(wn_fwd_msgid_ok("20261102.1@example.org"));
	assert_false(wn_fwd_msgid_ok("20261102.1@example.org@evil.example"));
	assert_false(wn_fwd_msgid_ok("@example.org"));
	assert_false(wn_fwd_msgid_ok("20261102.1@"));
	assert_false(wn_fwd_msgid_ok("no-at-sign"));
}

static void test_mailbox_in_two_cases(void **state)
{
	fwd_mboxes l = { 0 };

	(void) state;
	assert_int_equal(wn_fwd_mboxes_add(&l, "Ann Author", "Ann@Example.ORG"), WN_OK);
	assert_true(wn_fwd_mboxes_has(&l, "ann@example.org"));
	assert_true(wn_fwd_mboxes_has(&l, "ANN@EXAMPLE.ORG"));
	assert_false(wn_fwd_mboxes_has(&l, "ann@example.org.evil"));
	wn_fwd_mboxes_clear(&l);
}

/* In a child process: is forward.lock free?  Exit 0 when it is, 1 when
 * it is taken, 2 on an error.  A child forked while this process holds
 * the lock cannot ask wn_forward_lock() (it would answer "open already
 * in this winnow"): path, when given, is asked with F_GETLK instead. */
static int free_elsewhere(const char *path)
{
	pid_t pid = fork();
	int status = 0;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		int fd;
		bool waited;

		if (path) {
			if ((fd = open(path, O_RDWR)) < 0 || fcntl(fd, F_GETLK, &l) < 0)
				_exit(2);
			_exit(l.l_type == F_UNLCK ? 0 : 1);
		}
		if (wn_forward_lock(&fd, &waited, NULL) != WN_OK)
			_exit(2);
		_exit(waited ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* The background writer is forked while a forward holds the lock and
 * may wait minutes for the notmuch lock: it must not keep forward.lock
 * when the forward is done (F after a send was refused while the
 * writer waited).  And one winnow never holds it twice. */
static void test_lock_not_inherited(void **state)
{
	char dir[] = "/tmp/winnow-lock-XXXXXX";
	int fd, again;
	bool waited;
	pid_t writer;
	wn_error err = WN_ERROR_INIT;

	(void) state;
	char sub[sizeof(dir) + 8], path[sizeof(sub) + 16];

	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/winnow", dir);
	snprintf(path, sizeof(path), "%s/forward.lock", sub);
	assert_int_equal(mkdir(sub, 0700), 0);
	setenv("XDG_STATE_HOME", dir, 1);
	assert_int_equal(free_elsewhere(NULL), 0);

	assert_int_equal(wn_forward_lock(&fd, &waited, NULL), WN_OK);
	assert_false(waited);
	assert_true(fd >= 0);
	/* Held here: another process is refused ... */
	assert_int_equal(free_elsewhere(path), 1);
	/* ... and so is this one, without touching the lock held. */
	assert_int_equal(wn_forward_lock(&again, &waited, &err), WN_USAGE);
	assert_int_equal(again, -1);
	assert_non_null(strstr(wn_error_msg(&err), "open already in this winnow"));
	wn_error_clear(&err);
	assert_int_equal(free_elsewhere(path), 1);

	/* A child forked meanwhile, as the writer is, outlives the lock. */
	writer = fork();
	assert_true(writer >= 0);
	if (writer == 0) {
		pause();
		_exit(0);
	}
	wn_forward_unlock(&fd);
	assert_int_equal(fd, -1);
	assert_int_equal(free_elsewhere(path), 0);
	assert_int_equal(free_elsewhere(NULL), 0);
	/* Free here again too. */
	assert_int_equal(wn_forward_lock(&fd, &waited, NULL), WN_OK);
	assert_false(waited);
	wn_forward_unlock(&fd);

	kill(writer, SIGKILL);
	waitpid(writer, NULL, 0);
	unsetenv("XDG_STATE_HOME");
	unlink(path);
	rmdir(sub);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msgid_one_at),
		cmocka_unit_test(test_mailbox_in_two_cases),
		cmocka_unit_test(test_lock_not_inherited),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
