/* Where a run's block reads go: an LD_PRELOAD library that takes one
 * pread() in READS_EVERY (default 1) and writes down who asked for it,
 * for bench/reads.py to count (bench/RESULTS.md, "Where the block reads
 * go").  Xapian reads its tables with pread(), one block a call, and
 * those calls, unlike time, do not drift from one run to the next on a
 * busy machine; perf can count them but, with a tracepoint, not sample
 * them one in N with their callers.
 *
 * Each taken call is one line of PREFIX.PID (READS_OUT=PREFIX; a forked
 * child, winnow's store writer say, writes its own file): the
 * calling frames innermost first, those of the program itself as
 * "X:offset" from its load address (reads.py names them with addr2line) and
 * the named entry points of libnotmuch as "N:name"; Xapian's and the C
 * library's own frames are left out.  The last line is
 * "# calls N every K", N every pread() the process made.
 *
 *   cc -O2 -shared -fPIC -o reads.so bench/reads.c -ldl
 *   READS_OUT=/tmp/r READS_EVERY=10 LD_PRELOAD=$PWD/reads.so winnow stats
 *   python3 bench/reads.py ./winnow /tmp/r.*
 *
 * Not built by make: a measuring tool for the benchmark's readers;
 * tests/integration/bench-smoke.sh builds and runs it once. */
#define _GNU_SOURCE

#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Frames a taken call keeps at most: winnow's deepest is far less. */
#define DEPTH 64

static unsigned long calls, every;
static int out = -1;	/* the file of the process that opened it */
static pid_t owner;	/* that process; 0 before the first call */
/* The executable's load bias (its offsets are what addr2line reads,
 * PIE or not) and the span of its loaded segments. */
static uintptr_t bias, lo = UINTPTR_MAX, hi;

/* The first object dl_iterate_phdr names is the executable. */
static int program(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void) size;
	(void) arg;
	bias = info->dlpi_addr;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (bias + ph->p_vaddr < lo)
			lo = bias + ph->p_vaddr;
		if (bias + ph->p_vaddr + ph->p_memsz > hi)
			hi = bias + ph->p_vaddr + ph->p_memsz;
	}
	return 1;
}

/* Append one line to the file with one write(): no stdio buffer a
 * forked child could write out a second time. */
static void put(const char *line, size_t n)
{
	while (n > 0) {
		ssize_t w = write(out, line, n);

		if (w <= 0)
			return;
		line += w;
		n -= (size_t) w;
	}
}

static void note(void)
{
	void *bt[DEPTH];
	char line[DEPTH * 80 + 2];
	size_t at = 0;
	int n = backtrace(bt, DEPTH);

	for (int i = 0; i < n; i++) {
		uintptr_t a = (uintptr_t) bt[i];
		Dl_info d;
		int w = 0;

		if (a >= lo && a < hi)
			w = snprintf(line + at, sizeof(line) - at - 1, " X:%lx", (unsigned long) (a - bias));
		else if (dladdr(bt[i], &d) && d.dli_fname && strstr(d.dli_fname, "libnotmuch") && d.dli_sname &&
			 !strncmp(d.dli_sname, "notmuch_", 8))
			w = snprintf(line + at, sizeof(line) - at - 1, " N:%.60s", d.dli_sname);
		if (w > 0 && (size_t) w < sizeof(line) - at - 1)
			at += (size_t) w;
	}
	line[at++] = '\n';
	put(line, at);
}

static void done(void)
{
	char line[80];
	int n;

	/* A forked child runs its parent's atexit handlers too: the
	 * parent's file is the parent's to close. */
	if (out < 0 || owner != getpid())
		return;
	n = snprintf(line, sizeof(line), "# calls %lu every %lu\n", calls, every);
	put(line, (size_t) n);
	close(out);
	out = -1;
}

/* A forked child's next call opens the child's own file; the parent's,
 * inherited, is closed in the child alone. */
static void forked(void)
{
	if (out >= 0)
		close(out);
	out = -1;
	owner = 0;
}

/* On the first call in a process (the first ever, or the first in a
 * forked child): a file of its own, named by its pid. */
static void start(void)
{
	const char *prefix = getenv("READS_OUT"), *e = getenv("READS_EVERY");
	static int registered;
	char name[4096];

	owner = getpid();
	calls = 0;
	out = -1;
	every = e && atol(e) > 0 ? (unsigned long) atol(e) : 1;
	if (!hi)
		dl_iterate_phdr(program, NULL);
	if (!prefix || snprintf(name, sizeof(name), "%s.%ld", prefix, (long) owner) >= (int) sizeof(name))
		return;
	out = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out >= 0 && !registered) {
		registered = 1;
		atexit(done);
		pthread_atfork(NULL, NULL, forked);
	}
}

ssize_t pread64(int fd, void *buf, size_t count, off_t offset)
{
	if (!owner)
		start();
	if (out >= 0 && ++calls % every == 0)
		note();
	return syscall(SYS_pread64, fd, buf, count, offset);
}

ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
	return pread64(fd, buf, count, offset);
}
