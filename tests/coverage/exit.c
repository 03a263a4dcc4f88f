/* Built into libwinnow by --enable-coverage only, where configure
 * renames every _exit() to this one (-D_exit=wn_cov_exit).  _exit()
 * skips the exit handlers, gcov's writing of its counters among them,
 * so the code a forked child runs before it (the store's notmuch
 * writer, forward's sender) counted as never run. */
#undef _exit
#include <unistd.h>

void __gcov_dump(void);
void wn_cov_exit(int code) __attribute__((noreturn));

void wn_cov_exit(int code)
{
	__gcov_dump();
	_exit(code);
}
