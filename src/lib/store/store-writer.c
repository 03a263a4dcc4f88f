/* winnow — writing journaled verdicts into notmuch.
 *
 * The write runs in a child process: libnotmuch blocks in open-for-write
 * while another process holds the lock, and neither the TUI nor a CLI
 * with --timeout may wait on that longer than it chose.  Killing a child
 * that waits for the lock or dies mid-batch loses nothing: Xapian commits
 * a batch whole or not at all, and the journal still holds every entry
 * it did not confirm.
 *
 * Once it holds the lock the child reads the journal afresh and writes,
 * for every finding notmuch does not hold yet, the newest decision any
 * winnow journaled: one atomic section, one freeze/thaw per review.  It
 * tells the parent what it does on a pipe:
 *   open                 the database is open for writing
 *   batch N              the size of its work (the parent's time limit)
 *   w EID FP             about to write this finding
 *   missing MSGID        that review left the index
 *   commit               all written, committing
 *   error TEXT           it gave up (exit status 3 or 4)
 * libnotmuch exit()s on some errors (a term longer than Xapian allows):
 * a writer that dies by its own hand after "w" and before "commit" names
 * the change that may have killed it.  That change is written alone by
 * the next writer, and set aside (so that it never blocks the others)
 * only if that one dies on it too.  A writer killed from outside blames
 * no change: its batch is simply written again. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "../index/props.h"
#include "store-private.h"
/* --- the parent ------------------------------------------------------------ */

static void said_clear(struct said *w)
{
	free(w->w_eid);
	free(w->w_fp);
	free(w->error);
	memset(w, 0, sizeof(*w));
}

/* Name the change the next writer writes alone (NULL: none); false when
 * out of memory, and then none. */
static bool suspect_set(wn_store *s, const char *eid, const char *fp)
{
	char *e = eid ? strdup(eid) : NULL, *f = fp ? strdup(fp) : NULL;

	free(s->suspect_eid);
	free(s->suspect_fp);
	s->suspect_eid = s->suspect_fp = NULL;
	if (eid && (!e || !f)) {
		free(e);
		free(f);
		return false;
	}
	s->suspect_eid = e;
	s->suspect_fp = f;
	return true;
}

/* Start writing the pending changes in the background and return at
 * once (does nothing when nothing is pending or a write is running). */
static wn_status wn_store_flush_start(wn_store *s, wn_error *err)
{
	int fds[2];
	pid_t pid, parent;
	wn_status st;

	if (s->child > 0)
		return WN_OK;
	if ((st = wn_store_catch_up(s, err)) != WN_OK)
		return st;
	if (!wn_log_pending_count(s))
		return WN_OK;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return wn_error_set(err, WN_IO, "cannot create a pipe: %s", strerror(errno));
	/* Whatever the caller buffered is its own to print, once. */
	fflush(NULL);
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return wn_error_set(err, WN_IO, "cannot start the writer: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
#ifdef __linux__
		/* A writer outliving a killed winnow would write its batch
		 * whenever the lock frees, perhaps after newer decisions made
		 * by the next run: die with the parent; the journal keeps
		 * the batch for the next start. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(5);
		/* So that ps, top and a user about to kill something can
		 * tell the writer from winnow itself. */
		prctl(PR_SET_NAME, "winnow-writer");
#endif
		wn_store_child_write(s, fds[1]);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	s->child = pid;
	s->child_fd = fds[0];
	wn_buf_reset(&s->child_out);
	said_clear(&s->said);
	return WN_OK;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Take one line of the writer's. */
static void said_line(wn_store *s, char *line)
{
	struct said *w = &s->said;
	char *sp;

	if (strcmp(line, "open") == 0) {
		w->open = true;
		w->open_ms = now_ms();
	} else if (strcmp(line, "commit") == 0) {
		w->commit = true;
	} else if (strncmp(line, "batch ", 6) == 0) {
		w->batch = strtoul(line + 6, NULL, 10);
	} else if (strncmp(line, "w ", 2) == 0 && (sp = strchr(line + 2, ' '))) {
		free(w->w_eid);
		free(w->w_fp);
		w->w_eid = strndup(line + 2, (size_t) (sp - line - 2));
		w->w_fp = strdup(sp + 1);
	} else if (strncmp(line, "missing ", 8) == 0) {
		wn_store_warn(s, "review <%s> is no longer in the index; its verdict stays in %s",
			      line + 8, wn_journal_path(s->j));
	} else if (strncmp(line, "error ", 6) == 0) {
		free(w->error);
		w->error = strdup(line + 6);
	}
}

/* Take what the writer has said so far (the pipe is non-blocking), so it
 * never blocks on a full pipe while we wait for it to exit.  Each whole
 * line is read as it comes: a batch of 10,000 "w" lines must not push
 * its "open" out of a buffer. */
static void child_drain(wn_store *s)
{
	char chunk[8192];
	ssize_t r;

	while ((r = read(s->child_fd, chunk, sizeof(chunk))) > 0 || (r < 0 && errno == EINTR)) {
		char *start, *nl;
		size_t used;

		if (r <= 0 || wn_buf_append(&s->child_out, chunk, (size_t) r) != WN_OK)
			continue;
		start = s->child_out.data;
		while ((nl = memchr(start, '\n', s->child_out.len - (size_t) (start - s->child_out.data)))) {
			*nl = 0;
			said_line(s, start);
			start = nl + 1;
		}
		used = (size_t) (start - s->child_out.data);
		memmove(s->child_out.data, start, s->child_out.len - used);
		s->child_out.len -= used;
		s->child_out.data[s->child_out.len] = 0;
	}
}

void wn_store_writer_stop(wn_store *s)
{
	if (s->child > 0) {
		/* Pending entries stay in the journal for the next start. */
		kill(s->child, SIGKILL);
		waitpid(s->child, NULL, 0);
		s->child = -1;
	}
	if (s->child_fd >= 0)
		close(s->child_fd);
	s->child_fd = -1;
	wn_buf_free(&s->child_out);
	said_clear(&s->said);
	suspect_set(s, NULL, NULL);
}

/* Set the change the dead writer was writing aside: a reject line in
 * the journal, and the user's decision copied where they can find it. */
static wn_status set_aside(wn_store *s, const char *eid, const char *fp, const char *why, wn_error *err)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "op", "reject", "eid", eid, "fp", fp, "why", why);
	char *line = o ? json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
	wn_buf b = WN_BUF_INIT;
	wn_status st = WN_NOMEM;

	json_decref(o);
	if (line && wn_buf_puts(&b, line) == WN_OK && wn_buf_putc(&b, '\n') == WN_OK)
		st = wn_journal_append(s->j, b.data, b.len, err);
	else
		wn_error_set(err, WN_NOMEM, "out of memory");
	if (st == WN_OK) {
		s->rejected++;
		wn_log_keep_rejected(s, eid, fp, why);
		s->announce_rejects = true;
		st = wn_store_catch_up(s, err);
		s->announce_rejects = false;
	}
	free(line);
	wn_buf_free(&b);
	return st;
}

static void status_text(int status, char *buf, size_t n)
{
	if (WIFSIGNALED(status))
		snprintf(buf, n, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, n, "exit status %d", WEXITSTATUS(status));
}

/* Was the writer killed by someone else (kill -9, the OOM killer, a
 * signal to the whole process group)?  Then no change of its batch is to
 * blame.  A change kills the writer itself: libnotmuch exit()s, aborts
 * or crashes on it. */
static bool killed_from_outside(int status)
{
	if (!WIFSIGNALED(status))
		return false;
	switch (WTERMSIG(status)) {
	case SIGKILL: case SIGTERM: case SIGINT: case SIGHUP: case SIGQUIT:
		return true;
	default:
		return false;
	}
}

/* The writer died without saying why.  Its batch is still journaled and
 * is written again.  Only a change the writer died on by its own hand,
 * then died on again when it was written alone, is set aside. */
static wn_status child_died(wn_store *s, int status, wn_error *err)
{
	const struct said *w = &s->said;
	char how[64], *why = NULL;
	wn_status st = WN_OK;

	s->deaths++;
	s->death_status = status;
	if (!w->w_eid || w->commit || killed_from_outside(status))
		return WN_OK;
	if (!s->suspect_eid || strcmp(s->suspect_eid, w->w_eid) != 0 || strcmp(s->suspect_fp, w->w_fp) != 0)
		return suspect_set(s, w->w_eid, w->w_fp) ? WN_OK
			: wn_error_set(err, WN_NOMEM, "out of memory");
	status_text(status, how, sizeof(how));
	if (asprintf(&why, "the notmuch writer died writing it alone, %s", how) < 0)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	st = set_aside(s, w->w_eid, w->w_fp, why, err);
	if (st == WN_OK)
		suspect_set(s, NULL, NULL);
	free(why);
	return st;
}

/* The writer has ended: take its outcome. */
static wn_status child_done(wn_store *s, int status, wn_error *err)
{
	wn_status st = WN_OK;

	child_drain(s);
	close(s->child_fd);
	s->child_fd = -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		/* The child journaled what it applied and set aside.  A
		 * suspect written alone was no poison after all. */
		suspect_set(s, NULL, NULL);
		s->announce_rejects = true;
		st = wn_store_catch_up(s, err);
		s->announce_rejects = false;
		/* Reading its "applied" line reopened the index. */
		if (st == WN_OK && wn_log_pending_count(s) == 0)
			wn_store_maybe_compact(s);
	} else if (s->said.error) {
		st = wn_error_set(err, WN_DB, "%s", s->said.error);
	} else {
		st = child_died(s, status, err);
	}
	wn_buf_free(&s->child_out);
	return st;
}

/* Collect a background write if it finished.  *busy tells whether one is
 * still running.  On a finished write the read-only index is refreshed.
 * Returns the write's failure, if it failed. */
static wn_status wn_store_poll(wn_store *s, bool *busy, wn_error *err)
{
	int status = 0;
	pid_t r;

	*busy = false;
	if (s->child <= 0)
		return WN_OK;
	do
		r = waitpid(s->child, &status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == 0) {
		child_drain(s);
		*busy = true;
		return WN_OK;
	}
	s->child = -1;
	if (r < 0) {
		wn_store_writer_stop(s);
		return wn_error_set(err, WN_IO, "lost the notmuch writer: %s", strerror(errno));
	}
	return child_done(s, status, err);
}

/* How long a writer holding the lock may take: its work's size, at a
 * pace far slower than any disk (a sanitizer or valgrind build, a busy
 * machine), and never less than the caller's timeout.  The timeout is
 * for waiting on other processes' locks, not on our own write. */
#define WRITE_MS_PER_CHANGE 10

/* The writer reads the whole journal once it has the lock, then writes
 * its batch (which it sizes in "batch N"; until it says, what is pending
 * here). */
static long long write_deadline(const wn_store *s, int timeout_ms, size_t pending)
{
	size_t n = (s->said.batch > pending ? s->said.batch : pending) + wn_store_changes_of(s);

	return s->said.open_ms + timeout_ms + (long long) n * WRITE_MS_PER_CHANGE;
}

/* Time ran out: stop the writer and say what it was doing. */
static wn_status timed_out(wn_store *s, int timeout_ms, wn_error *err)
{
	bool open;
	long long took;
	size_t n;

	child_drain(s);
	open = s->said.open;
	took = open ? now_ms() - s->said.open_ms : 0;
	wn_store_writer_stop(s);
	n = wn_log_pending_count(s);
	if (!open && s->deaths) {
		char how[64];

		status_text(s->death_status, how, sizeof(how));
		wn_error_set(err, WN_LOCKED, "the notmuch writer died %u time%s (last %s), and the "
			     "next had no lock after %.1f s; %zu verdict%s kept in %s", s->deaths,
			     s->deaths == 1 ? "" : "s", how, timeout_ms / 1000.0, n, n == 1 ? "" : "s",
			     wn_journal_path(s->j));
	} else if (!open) {
		wn_error_set(err, WN_LOCKED, "the notmuch database stayed locked by another process "
			     "for %.1f s (notmuch new, a tagging script?); %zu verdict%s kept in %s",
			     timeout_ms / 1000.0, n, n == 1 ? "" : "s", wn_journal_path(s->j));
	} else {
		wn_error_set(err, WN_LOCKED, "writing %zu verdict%s to notmuch took longer than %.1f s, "
			     "far longer than that needs: winnow stopped its own writer; they are "
			     "kept in %s", n, n == 1 ? "" : "s", took / 1000.0, wn_journal_path(s->j));
	}
	return WN_LOCKED;
}

/* Writers kept dying until the time ran out. */
static wn_status died_out(wn_store *s, wn_error *err)
{
	char how[64];
	size_t n = wn_log_pending_count(s);

	status_text(s->death_status, how, sizeof(how));
	return wn_error_set(err, WN_DB, "the notmuch writer died %u time%s (last %s); %zu verdict%s "
			    "kept in %s", s->deaths, s->deaths == 1 ? "" : "s", how, n,
			    n == 1 ? "" : "s", wn_journal_path(s->j));
}

/* Does a process other than this one hold the notmuch write lock?
 * Xapian locks the file flintlock in its database directory (fcntl, OFD
 * or classic: F_GETLK sees either); notmuch keeps that directory in
 * .notmuch/xapian under the mail root, or in xapian/ under a separate
 * database path.  When no lock file is found we cannot tell, and say
 * yes: the caller then waits no longer than it always did. */
static bool lock_held_elsewhere(const wn_store *s)
{
	static const char *const where[] = { "/.notmuch/xapian/flintlock", "/xapian/flintlock" };
	const char *db = s->idx ? wn_index_db_path(s->idx) : NULL;

	for (size_t i = 0; db && i < sizeof(where) / sizeof(where[0]); i++) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		char *path = NULL;
		int fd, r;

		if (asprintf(&path, "%s%s", db, where[i]) < 0)
			return true;
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		free(path);
		if (fd < 0)
			continue;
		r = fcntl(fd, F_GETLK, &fl);
		/* Closing drops this process's own fcntl locks on the file:
		 * it holds none (the writer is a child process). */
		close(fd);
		return r < 0 || fl.l_type != F_UNLCK;
	}
	return true;
}

/* Wait a little for the writer: until it says something or ends (its
 * pipe then closes), 2 ms at most.  A fixed sleep made each verdict
 * wait a millisecond on average after its write was done: a tenth of
 * what `winnow mark` takes.  A pipe closed already waits a moment, so
 * that a writer that closed it before it exits is no busy loop. */
static void await_writer(wn_store *s)
{
	struct pollfd p = { .fd = s->child_fd, .events = POLLIN };

	if (s->child_fd < 0 || poll(&p, 1, 2) <= 0 || !(p.revents & (POLLHUP | POLLERR | POLLNVAL)))
		return;
	usleep(100);
}

/* The waiting of wn_store_flush and wn_store_replay.  lock_only: only
 * time during which another process holds the lock counts against
 * timeout_ms, and a writer holding the lock is never stopped; time our
 * own writer spends opening the database or writing on a busy machine
 * does not count.  Otherwise timeout_ms bounds the wait for the lock
 * and a writer holding it gets the time its batch needs
 * (write_deadline). */
static wn_status flush_wait(wn_store *s, int timeout_ms, bool lock_only, wn_error *err)
{
	long long start = now_ms(), last = start, locked = 0;
	/* Writers that keep dying are restarted until this, in either mode:
	 * nothing else bounds a replay whose writers are killed. */
	long long deadline = start + (timeout_ms > 0 ? timeout_ms : 0);
	unsigned clean = 0;
	bool busy = false;
	wn_status st;

	/* Timeout 0: never wait and never kill.  The writer goes on in the
	 * background (it may be queued behind another process's lock) and a
	 * later call, or wn_store_poll(), collects it. */
	if (timeout_ms <= 0) {
		if ((st = wn_store_poll(s, &busy, err)) != WN_OK)
			return st;
		if (!busy && (st = wn_store_flush_start(s, err)) != WN_OK)
			return st;
		if ((st = wn_store_poll(s, &busy, err)) != WN_OK)
			return st;
		if (!wn_log_pending_count(s))
			return WN_OK;
		return wn_error_set(err, WN_LOCKED, "%zu verdict%s waiting for the index lock",
				    wn_log_pending_count(s),
				    wn_log_pending_count(s) == 1 ? "" : "s");
	}
	s->deaths = 0;
	/* A write started earlier may hold entries made since: finish it,
	 * then start one for whatever is still pending.  A writer that dies
	 * (killed from outside, or on a change it is then given alone) is
	 * started again while the time lasts. */
	for (;;) {
		unsigned deaths = s->deaths;
		bool alone = s->suspect_eid != NULL, ran = s->child > 0;
		size_t pending;

		if ((st = wn_store_flush_start(s, err)) != WN_OK)
			return st;
		ran = ran || s->child > 0;
		/* What the writer is to write, until it says (journal caught up). */
		pending = wn_log_pending_count(s);
		for (;;) {
			long long now;
			bool out;

			if ((st = wn_store_poll(s, &busy, err)) != WN_OK)
				return st;
			if (!busy)
				break;
			now = now_ms();
			if (!lock_only)
				locked = now - start;
			else if (!s->said.open && lock_held_elsewhere(s))
				locked += now - last;
			last = now;
			if (s->said.open)
				out = !lock_only && now >= write_deadline(s, timeout_ms, pending) &&
				      locked >= timeout_ms;
			else
				out = locked >= timeout_ms;
			if (out)
				return timed_out(s, timeout_ms, err);
			await_writer(s);
		}
		if (wn_log_pending_count(s) == 0 || !ran)
			return WN_OK;
		if (s->deaths == deaths && !alone && ++clean >= 2)
			return WN_OK;
		if (s->deaths != deaths && now_ms() >= deadline)
			return died_out(s, err);
	}
}

wn_status wn_store_flush(wn_store *s, int timeout_ms, wn_error *err)
{
	return flush_wait(s, timeout_ms, false, err);
}

wn_status wn_store_replay(wn_store *s, int lock_ms, wn_error *err)
{
	return flush_wait(s, lock_ms, true, err);
}
