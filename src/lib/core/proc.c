/* winnow — running programs, never through a shell (see winnow/proc.h):
 * the editor, sendmail, git, the pager.  A core leaf: calls nothing of
 * the library above status, buf and text, so forwarding, sharing and
 * digests all run their programs through this one runner.
 *
 * Their command lines come from the user ($VISUAL, winnow.sendmail) and
 * are split into words here; the mail goes to sendmail on a pipe and
 * never appears on any command line. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "winnow/proc.h"
#include "winnow/text.h"

/* What sendmail may say before we stop listening (it only goes into
 * an error message). */
#define OUTPUT_MAX 65536

/* $VAR/winnow, else ~/FALLBACK/winnow: XDG's base folders. */
static wn_status xdg_dir(const char *var, const char *fallback, char **out, wn_error *err)
{
	const char *xdg = getenv(var), *home = getenv("HOME");
	int r;

	*out = NULL;
	if (xdg && *xdg == '/')
		r = asprintf(out, "%s/winnow", xdg);
	else if (home && *home)
		r = asprintf(out, "%s/%s/winnow", home, fallback);
	else
		return wn_error_set(err, WN_CONFIG, "neither %s nor HOME is set", var);
	if (r < 0) {
		*out = NULL;
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	return WN_OK;
}

wn_status wn_state_dir(char **out, wn_error *err)
{
	return xdg_dir("XDG_STATE_HOME", ".local/state", out, err);
}

wn_status wn_cache_dir(char **out, wn_error *err)
{
	return xdg_dir("XDG_CACHE_HOME", ".cache", out, err);
}

wn_status wn_mkdirs(const char *path, wn_error *err)
{
	char *p = strdup(path);

	if (!p)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	for (char *c = p + 1;; c++) {
		if (*c && *c != '/')
			continue;
		char was = *c;

		*c = '\0';
		if (mkdir(p, 0700) < 0 && errno != EEXIST) {
			wn_status st = wn_error_set(err, WN_IO, "cannot create %s: %s", p, strerror(errno));

			free(p);
			return st;
		}
		*c = was;
		if (!was)
			break;
	}
	free(p);
	return WN_OK;
}

time_t wn_env_time(const char *name, time_t otherwise)
{
	const char *v = getenv(name);
	char *end;
	long long t;

	if (v && *v) {
		t = strtoll(v, &end, 10);
		if (!*end && t >= 0)
			return (time_t) t;
	}
	return otherwise;
}

time_t wn_now(void)
{
	return wn_env_time("WINNOW_NOW", time(NULL));
}

/* --- splitting ------------------------------------------------------------ */

static wn_status push_word(char ***v, size_t *n, wn_buf *w)
{
	char **nv = realloc(*v, (*n + 2) * sizeof(char *));

	if (!nv)
		return WN_NOMEM;
	*v = nv;
	if (!(nv[*n] = wn_buf_steal(w)))
		return WN_NOMEM;
	nv[++*n] = NULL;
	return WN_OK;
}

wn_status wn_argv_split(const char *cmd, char ***argv, wn_error *err)
{
	wn_buf w = WN_BUF_INIT;
	char **v = NULL, quote = 0;
	bool in_word = false;
	size_t n = 0;
	wn_status st = WN_OK;

	*argv = NULL;
	for (const char *p = cmd ? cmd : ""; *p && st == WN_OK; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
			else if (quote == '"' && *p == '\\' && p[1] && strchr("\"\\$`", p[1]))
				st = wn_buf_putc(&w, *++p);
			else
				st = wn_buf_putc(&w, *p);
		} else if (*p == ' ' || *p == '\t' || *p == '\n') {
			if (in_word)
				st = push_word(&v, &n, &w);
			in_word = false;
		} else {
			in_word = true;
			if (*p == '\'' || *p == '"')
				quote = *p;
			else if (*p == '\\' && p[1])
				st = wn_buf_putc(&w, *++p);
			else
				st = wn_buf_putc(&w, *p);
		}
	}
	/* A quoted "" is a word of its own, empty. */
	if (st == WN_OK && in_word && !quote)
		st = push_word(&v, &n, &w);
	wn_buf_free(&w);
	if (st == WN_OK && quote)
		st = wn_error_set(err, WN_USAGE, "unmatched %c in the command '%s'", quote, cmd);
	else if (st == WN_OK && !n)
		st = wn_error_set(err, WN_USAGE, "empty command");
	else if (st == WN_NOMEM)
		wn_error_set(err, st, "out of memory");
	if (st != WN_OK) {
		wn_strv_free(v);
		return st;
	}
	*argv = v;
	return WN_OK;
}

/* --- children ------------------------------------------------------------ */

/* In the child, before exec: signals as a fresh program expects them
 * (winnow ignores SIGPIPE or SIGXFSZ; ignored signals survive exec). */
static void child_signals(void)
{
	signal(SIGPIPE, SIG_DFL);
	signal(SIGXFSZ, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
}

/* exec argv (with envp when not NULL, else this process's
 * environment); on failure tell the parent errno through fd. */
static void __attribute__((noreturn)) exec_env_or_report(char *const *argv, char *const *envp, int fd)
{
	int e;

	child_signals();
	if (envp)
		execvpe(argv[0], argv, envp);
	else
		execvp(argv[0], argv);
	e = errno;
	if (write(fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static void __attribute__((noreturn)) exec_or_report(char *const *argv, int fd)
{
	exec_env_or_report(argv, NULL, fd);
}

/* Did exec fail?  Reads the errno the child sent, 0 when exec worked
 * (the pipe closed on exec). */
static int exec_errno(int fd)
{
	int e = 0;
	ssize_t r;

	do
		r = read(fd, &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	close(fd);
	return r == (ssize_t) sizeof(e) ? e : 0;
}

static pid_t wait_child(pid_t pid, int *status)
{
	pid_t r;

	do
		r = waitpid(pid, status, 0);
	while (r < 0 && errno == EINTR);
	return r;
}

/* How a child ended, as an error (WN_OK for exit 0).  The program by
 * its base name: the message has to fit a status line. */
static wn_status ended(const char *what, const char *prog, int status, wn_error *err)
{
	const char *base = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;

	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return WN_OK;
	if (WIFSIGNALED(status))
		return wn_error_set(err, WN_IO, "%s'%s' was killed by signal %d (%s)", what, base,
				    WTERMSIG(status), strsignal(WTERMSIG(status)));
	return wn_error_set(err, WN_IO, "%s'%s' exited with status %d", what, base,
			    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* --- the editor ------------------------------------------------------------ */

static wn_status editor_argv(const char *const *paths, size_t n, char ***argv, wn_error *err)
{
	const char *ed = getenv("VISUAL");
	size_t k = 0;
	char **v, **nv;
	wn_status st;

	if (!ed || !*ed)
		ed = getenv("EDITOR");
	if (!ed || !*ed)
		ed = "vi";
	if ((st = wn_argv_split(ed, &v, err)) != WN_OK)
		return st == WN_USAGE ? wn_error_prefix(err, WN_CONFIG, "$VISUAL/$EDITOR") : st;
	while (v[k])
		k++;
	nv = realloc(v, (k + n + 1) * sizeof(char *));
	if (!nv) {
		wn_strv_free(v);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		nv[k + i] = strdup(paths[i]);
	nv[k + n] = NULL;
	for (size_t i = 0; i < n; i++)
		if (!nv[k + i]) {
			wn_strv_free(nv);
			return wn_error_set(err, WN_NOMEM, "out of memory");
		}
	*argv = nv;
	return WN_OK;
}

wn_status wn_proc_run_terminal(char *const *argv, const char *what, wn_error *err)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	int fds[2], status = 0, e;
	wn_status st;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return wn_error_set(err, WN_IO, "cannot create a pipe: %s", strerror(errno));
	/* As system() does: Ctrl-C is the program's business while it
	 * runs, and what the caller printed comes before it. */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		exec_or_report(argv, fds[1]);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		st = wn_error_set(err, WN_IO, "cannot start %s: %s", what, strerror(errno));
	} else if ((e = exec_errno(fds[0])) != 0) {
		wait_child(pid, &status);
		st = wn_error_set(err, WN_CONFIG, "cannot run %s '%s': %s", what, argv[0],
				  strerror(e));
	} else if (wait_child(pid, &status) < 0) {
		st = wn_error_set(err, WN_IO, "lost %s: %s", what, strerror(errno));
	} else {
		char lead[64];

		snprintf(lead, sizeof(lead), "%s ", what);
		st = ended(lead, argv[0], status, err);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	return st;
}

wn_status wn_run_editor(const char *const *paths, size_t n, wn_error *err)
{
	char **argv = NULL;
	wn_status st;

	if ((st = editor_argv(paths, n, &argv, err)) != WN_OK)
		return st;
	st = wn_proc_run_terminal(argv, "the editor", err);
	wn_strv_free(argv);
	return st;
}

/* --- sendmail --------------------------------------------------------------- */

/* Ctrl-C while a program runs: stop it (sendmail: keep the draft).
 * Counted, so that a run sees only the Ctrl-C that came while it ran,
 * and a task of several runs (wn_proc_hold_interrupt) any of them. */
static volatile sig_atomic_t interrupts;
/* The task's hold: how deep, the count when it began, the handler
 * before it. */
static int held;
static sig_atomic_t held_from;
static struct sigaction held_old;

static void on_sigint(int sig)
{
	(void) sig;
	interrupts++;
}

void wn_proc_hold_interrupt(void)
{
	struct sigaction on_int = { .sa_handler = on_sigint };

	if (held++ == 0) {
		held_from = interrupts;
		sigaction(SIGINT, &on_int, &held_old);
	}
}

bool wn_proc_release_interrupt(void)
{
	bool hit = interrupts != held_from;

	if (held > 0 && --held == 0)
		sigaction(SIGINT, &held_old, NULL);
	return hit;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* How sendmail's run went, besides its exit status. */
struct pumped {
	pid_t group;		/* the child's process group, stopped whole; 0: the child alone */
	sig_atomic_t seen;	/* Ctrl-Cs counted before it started */
	size_t max;		/* output kept at most */
	bool overflow;		/* it wrote more than that */
	size_t written;		/* bytes of the mail written into the pipe */
	int unread;		/* of those, left in the pipe when it exited */
	int write_errno;	/* a write failed (EPIPE: it stopped reading) */
	bool timed_out, cancelled;
};

/* Feed input to fd_in and collect fd_out until the child pid exits
 * (its status in *status).  poll(), so that neither side can fill a
 * pipe and wait on the other.  The end is the child's exit, not the
 * pipe's: a sendmail that leaves a daemon holding its stdout has still
 * finished.  keep_rd is our copy of the pipe's read end: writes never
 * fail for want of a reader, and what sendmail left unread can be
 * counted once it is gone.  After timeout_ms (0: none) or a Ctrl-C the
 * child is stopped: SIGTERM, then SIGKILL. */
static void pump(pid_t pid, int fd_in, int keep_rd, const char *input, size_t len, int fd_out,
		 wn_buf *output, int timeout_ms, int *status, struct pumped *r)
{
	long long start = now_ms(), killed_at = 0;
	bool exited = false;
	char chunk[4096];
	ssize_t n;

	if (!len) {
		close(fd_in);
		fd_in = -1;
	}
	while (!exited) {
		struct pollfd p[2] = { { fd_out, POLLIN, 0 }, { fd_in, POLLOUT, 0 } };
		pid_t w = waitpid(pid, status, WNOHANG);
		long long t = now_ms();

		if (w == pid || (w < 0 && errno != EINTR)) {
			exited = true;
			break;
		}
		bool interrupted = interrupts != r->seen;

		if (!killed_at && (interrupted || (timeout_ms > 0 && t - start >= timeout_ms))) {
			r->cancelled = interrupted;
			r->timed_out = !interrupted;
			kill(r->group ? -r->group : pid, SIGTERM);
			killed_at = t;
		} else if (killed_at && t - killed_at >= 2000) {
			kill(r->group ? -r->group : pid, SIGKILL);
		}
		/* A tenth of a second: how soon an exit or Ctrl-C is seen. */
		if (poll(p, fd_in >= 0 ? 2 : 1, 100) < 0)
			continue;
		if (fd_in >= 0 && p[1].revents) {
			n = write(fd_in, input + r->written, len - r->written);
			if (n > 0)
				r->written += (size_t) n;
			if (n < 0 && errno != EINTR && errno != EAGAIN)
				r->write_errno = errno;
			if (r->write_errno || r->written == len) {
				close(fd_in);
				fd_in = -1;
			}
		}
		if (fd_out >= 0 && p[0].revents) {
			n = read(fd_out, chunk, sizeof(chunk));
			if (n > 0 && output->len < r->max)
				wn_buf_append(output, chunk, (size_t) n);
			else if (n > 0)
				r->overflow = true;
		}
	}
	/* Stopped: what it started goes too (b4's git am). */
	if (killed_at && r->group)
		kill(-r->group, SIGKILL);
	/* What it said before it went; a daemon it left may hold the pipe
	 * open, so only what is there now. */
	fcntl(fd_out, F_SETFL, fcntl(fd_out, F_GETFL) | O_NONBLOCK);
	while ((n = read(fd_out, chunk, sizeof(chunk))) > 0)
		if (output->len < r->max)
			wn_buf_append(output, chunk, (size_t) n);
		else
			r->overflow = true;
	close(fd_out);
	if (ioctl(keep_rd, FIONREAD, &r->unread) < 0)
		r->unread = 0;
	close(keep_rd);
	if (fd_in >= 0)
		close(fd_in);
}

/* A write to a pipe whose reader is gone raises SIGPIPE, which would
 * kill winnow: block it while we write and take the pending one away
 * afterwards, without touching the handler the program set. */
static void sigpipe_block(sigset_t *old)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &s, old);
}

static void sigpipe_restore(const sigset_t *old)
{
	sigset_t s, pending;
	struct timespec zero = { 0, 0 };

	sigemptyset(&s);
	sigaddset(&s, SIGPIPE);
	sigpending(&pending);
	if (sigismember(&pending, SIGPIPE) && !sigismember(old, SIGPIPE))
		sigtimedwait(&s, NULL, &zero);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void child_plumb(int in, int out)
{
	dup2(in, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	dup2(out, STDERR_FILENO);
}

wn_status wn_proc_run(char *const *argv, const char *input, size_t len, int timeout_ms,
		       wn_buf *output, wn_error *err)
{
	return wn_proc_run_env(argv, NULL, input, len, timeout_ms, output, err);
}

/* How run_in runs a program, besides argv and its input. */
struct how {
	const char *dir;	/* where (NULL: here) */
	char *const *envp;	/* its environment (NULL: ours) */
	int timeout_ms;		/* 0: no limit */
	const char *limit;	/* the setting of the limit, for the error */
	bool group;		/* in a process group of its own */
	bool *stopped;		/* out, may be NULL: stopped by the limit or Ctrl-C */
};

/* Run argv as h says, keeping at most max_out bytes of what it writes:
 * beyond OUTPUT_MAX, more is an error, not a silent cut. */
static wn_status run_in(const struct how *h, char *const *argv, const char *input, size_t len,
			size_t max_out, wn_buf *output, wn_error *err)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, ex[2] = { -1, -1 }, status = 0, e;
	struct sigaction on_int = { .sa_handler = on_sigint }, old_int;
	struct pumped r = { .max = max_out, .seen = interrupts };
	const char *dir = h->dir;
	int timeout_ms = h->timeout_ms;
	wn_status st;
	sigset_t old;
	pid_t pid;

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(ex, O_CLOEXEC) < 0) {
		e = errno;
		for (int i = 0; i < 2; i++) {
			if (in[i] >= 0)
				close(in[i]);
			if (out[i] >= 0)
				close(out[i]);
		}
		return wn_error_set(err, WN_IO, "cannot create a pipe: %s", strerror(e));
	}
	sigpipe_block(&old);
	pid = fork();
	if (pid == 0) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (h->group)
			setpgid(0, 0);
		child_plumb(in[0], out[1]);
		/* A folder that is gone is reported as exec's errors are. */
		if (dir && chdir(dir) < 0) {
			e = errno;
			if (write(ex[1], &e, sizeof(e)) < 0)
				_exit(127);
			_exit(127);
		}
		exec_env_or_report(argv, h->envp, ex[1]);
	}
	/* Both sides set it: the kill must not find the group missing. */
	if (pid > 0 && h->group && (setpgid(pid, pid) == 0 || errno == EACCES))
		r.group = pid;
	close(out[1]);
	close(ex[1]);
	if (pid < 0) {
		e = errno;
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(ex[0]);
		sigpipe_restore(&old);
		return wn_error_set(err, WN_IO, "cannot start '%s': %s", argv[0], strerror(e));
	}
	e = exec_errno(ex[0]);
	/* No SA_RESTART: poll() returns at once on Ctrl-C.  Under a
	 * task's hold its handler is in place already. */
	if (!held)
		sigaction(SIGINT, &on_int, &old_int);
	pump(pid, in[1], in[0], input, e ? 0 : len, out[0], output, timeout_ms, &status, &r);
	if (!held)
		sigaction(SIGINT, &old_int, NULL);
	sigpipe_restore(&old);
	if (h->stopped)
		*h->stopped = !e && (r.cancelled || r.timed_out);
	if (e)
		return wn_error_set(err, WN_IO, "cannot run '%s': %s", argv[0], strerror(e));
	if (r.cancelled)
		return wn_error_set(err, WN_IO, "'%s' was stopped (Ctrl-C)%s", argv[0],
				    len ? ": the mail is not sent" : "");
	if (r.timed_out)
		return wn_error_set(err, WN_IO, "'%s' did not finish in %d s (%s) and was stopped%s",
				    argv[0], timeout_ms / 1000, h->limit,
				    len ? ": the mail may not be sent" : "");
	if ((st = ended("", argv[0], status, err)) != WN_OK)
		return st;
	if (r.overflow && max_out > OUTPUT_MAX)
		return wn_error_set(err, WN_IO, "'%s' wrote more than %zu MiB: too much to read", argv[0],
				    max_out >> 20);
	/* Exit 0 is not enough: it must have taken the whole mail. */
	if (r.write_errno || r.written < len || r.unread > 0)
		return wn_error_set(err, WN_IO, "'%s' exited 0 but read only %zu of the mail's %zu bytes: "
				    "not sent", argv[0], r.written - (size_t) (r.unread > 0 ? r.unread : 0), len);
	return WN_OK;
}

wn_status wn_proc_run_tool(const char *dir, char *const *argv, int timeout_s, const char *limit,
			   wn_buf *output, bool *stopped, wn_error *err)
{
	struct how h = { .dir = dir, .timeout_ms = timeout_s * 1000, .limit = limit, .group = true,
			 .stopped = stopped };

	return run_in(&h, argv, "", 0, OUTPUT_MAX, output, err);
}

wn_status wn_proc_run_env(char *const *argv, char *const *envp, const char *input, size_t len,
			  int timeout_ms, wn_buf *output, wn_error *err)
{
	struct how h = { .envp = envp, .timeout_ms = timeout_ms, .limit = "winnow.sendmail_timeout" };

	return run_in(&h, argv, input, len, OUTPUT_MAX, output, err);
}

wn_status wn_proc_run_max(char *const *argv, size_t max_out, wn_buf *output, wn_error *err)
{
	struct how h = { 0 };

	return run_in(&h, argv, "", 0, max_out > OUTPUT_MAX ? max_out : OUTPUT_MAX, output, err);
}
