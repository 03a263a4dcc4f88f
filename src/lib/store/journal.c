/* winnow — the journal file.  Every verdict is written here and fsync'd
 * before the user sees it acknowledged; see store.c for what the lines
 * mean. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/hash.h"
#include "journal.h"
#include "../core/str.h"
#include "winnow/buf.h"
#include "winnow/proc.h"

struct wn_journal {
	char *dir;
	char *path;
	size_t size;
	/* How far this process has read the file, and which file that was:
	 * another process's compaction renames a new file over the path. */
	dev_t dev;
	ino_t ino;
	off_t seen;
};

wn_status wn_journal_open(const char *state_dir, const char *db_path, wn_journal **out, wn_error *err)
{
	wn_journal *j = calloc(1, sizeof(*j));
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	struct stat st;
	wn_status made;
	int fd;

	*out = NULL;
	if (!j)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	if (state_dir)
		j->dir = strdup(state_dir);
	else if (xdg && *xdg == '/')
		j->dir = (asprintf(&j->dir, "%s/winnow", xdg) < 0) ? NULL : j->dir;
	else if (home && *home)
		j->dir = (asprintf(&j->dir, "%s/.local/state/winnow", home) < 0) ? NULL : j->dir;
	else {
		free(j);
		return wn_error_set(err, WN_CONFIG, "cannot place the journal: neither XDG_STATE_HOME nor HOME is set");
	}
	if (!j->dir || asprintf(&j->path, "%s/journal-%016llx", j->dir,
				/* FNV-1a: the file name must be stable across runs, not secure. */
				(unsigned long long) wn_fnv1a_str(WN_FNV_BASIS, db_path)) < 0) {
		free(j->dir);
		free(j);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	if ((made = wn_mkdirs(j->dir, err)) != WN_OK) {
		wn_journal_close(&j);
		return made;
	}
	fd = open(j->path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0) {
		wn_error_set(err, WN_IO, "cannot open journal %s: %s", j->path, strerror(errno));
		wn_journal_close(&j);
		return WN_IO;
	}
	/* A device or fifo in its place would feed the reader forever. */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		wn_error_set(err, WN_IO, "journal %s is not a regular file", j->path);
		wn_journal_close(&j);
		return WN_IO;
	}
	j->size = (size_t) st.st_size;
	close(fd);
	*out = j;
	return WN_OK;
}

void wn_journal_close(wn_journal **pj)
{
	wn_journal *j = pj ? *pj : NULL;

	if (!j)
		return;
	free(j->dir);
	free(j->path);
	free(j);
	*pj = NULL;
}

const char *wn_journal_path(const wn_journal *j)
{
	return j->path;
}

size_t wn_journal_size(const wn_journal *j)
{
	return j->size;
}

/* Open and flock path.  A compaction renames a new file over the path
 * while others wait for the lock on the old one: after getting the lock,
 * make sure it is still the file the path names, or an append would go
 * to an unlinked inode and be lost. */
static int lock_fd(const char *path, int flags, int how)
{
	for (;;) {
		struct stat a, b;
		int fd = open(path, flags | O_CLOEXEC, 0600);

		if (fd < 0)
			return -1;
		while (flock(fd, how) < 0) {
			if (errno != EINTR) {
				int e = errno;
				close(fd);
				errno = e;
				return -1;
			}
		}
		if (fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
		    (a.st_ino != b.st_ino || a.st_dev != b.st_dev)) {
			close(fd);
			continue;
		}
		return fd;
	}
}

static wn_status write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return WN_IO;
		}
		p += w;
		n -= (size_t) w;
	}
	return WN_OK;
}

wn_status wn_journal_lines(const char *data, size_t len, wn_journal_line_fn line, void *arg, int *torn)
{
	size_t pos = 0, n;
	const char *l;
	wn_status st;

	while (wn_str_next_line(data, len, &pos, &l, &n)) {
		if (l + n == data + len) {
			if (torn)
				*torn = 1;	/* no '\n' after it */
			break;
		}
		if (n && (st = line(l, n, arg)) != WN_OK)
			return st;
	}
	return WN_OK;
}

/* Hand every complete line of fd from offset from on to line(); move
 * j->seen past the last complete one.  A last line without '\n' is a
 * torn write (appends happen under the exclusive lock, so nobody is
 * still writing it): *torn is set and it is left unread. */
static wn_status read_lines(wn_journal *j, int fd, off_t from, wn_journal_line_fn line, void *arg,
			    int *torn, wn_error *err)
{
	wn_buf b = WN_BUF_INIT;
	char chunk[65536];
	wn_status st = WN_OK;
	const char *p;
	size_t done;
	off_t off = from;
	ssize_t n;

	while ((n = pread(fd, chunk, sizeof(chunk), off)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			st = wn_error_set(err, WN_IO, "cannot read journal %s: %s", j->path, strerror(errno));
			goto out;
		}
		if (wn_buf_append(&b, chunk, (size_t) n) != WN_OK) {
			st = wn_error_set(err, WN_NOMEM, "out of memory");
			goto out;
		}
		off += n;
	}
	j->size = (size_t) off;
	/* Only complete lines: a last one without '\n' is torn. */
	p = b.len ? memrchr(b.data, '\n', b.len) : NULL;
	done = p ? (size_t) (p - b.data) + 1 : 0;
	if (done < b.len && torn)
		*torn = 1;
	st = wn_journal_lines(wn_buf_str(&b), done, line, arg, NULL);
	/* line() returns a status only: say it here, or the caller shows
	 * whatever err held before. */
	if (st != WN_OK) {
		st = wn_error_set(err, st,
				  st == WN_NOMEM ? "out of memory" :
						   "journal %s: an entry could not be taken in",
				  j->path);
		goto out;
	}
	j->seen = from + (off_t) done;
out:
	wn_buf_free(&b);
	return st;
}

/* With fd locked: read what is new since j->seen, or everything (after
 * reset()) when the path now names another file or the file shrank. */
static wn_status catch_up(wn_journal *j, int fd, wn_journal_reset_fn reset, wn_journal_line_fn line,
			  void *arg, int *torn, wn_error *err)
{
	struct stat sb;

	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode))
		return wn_error_set(err, WN_IO, "journal %s is not a regular file", j->path);
	if (sb.st_dev != j->dev || sb.st_ino != j->ino || sb.st_size < j->seen) {
		if (reset)
			reset(arg);
		j->dev = sb.st_dev;
		j->ino = sb.st_ino;
		j->seen = 0;
	}
	if (sb.st_size == j->seen)
		return WN_OK;
	return read_lines(j, fd, j->seen, line, arg, torn, err);
}

wn_status wn_journal_read(wn_journal *j, wn_journal_line_fn line, void *arg, int *torn, wn_error *err)
{
	wn_status st;
	int fd;

	*torn = 0;
	fd = lock_fd(j->path, O_RDONLY, LOCK_SH);
	if (fd < 0)
		return wn_error_set(err, WN_IO, "cannot read journal %s: %s", j->path, strerror(errno));
	j->dev = 0;
	j->ino = 0;
	j->seen = 0;
	st = catch_up(j, fd, NULL, line, arg, torn, err);
	close(fd);
	return st;
}

wn_status wn_journal_update(wn_journal *j, wn_journal_reset_fn reset, wn_journal_line_fn line,
			    void *arg, wn_error *err)
{
	wn_status st;
	int fd = lock_fd(j->path, O_RDONLY, LOCK_SH);

	if (fd < 0)
		return wn_error_set(err, WN_IO, "cannot read journal %s: %s", j->path, strerror(errno));
	st = catch_up(j, fd, reset, line, arg, NULL, err);
	close(fd);
	return st;
}

/* Append text at the end of fd (locked exclusively) and fsync.  After a
 * torn write the file ends mid-line: start on a fresh line so the new
 * entry is not glued to the broken one.  On failure nothing of text
 * stays behind: the caller tells the user this change failed, so no
 * part of it may be replayed on the next start. */
static wn_status append_locked(wn_journal *j, int fd, const char *text, size_t len, wn_error *err)
{
	struct stat st;
	char last = '\n';
	off_t orig = 0;
	int e;

	if (fstat(fd, &st) == 0)
		orig = st.st_size;
	if (orig > 0 && pread(fd, &last, 1, orig - 1) == 1 && last != '\n' &&
	    write_all(fd, "\n", 1) != WN_OK)
		goto fail;
	if (write_all(fd, text, len) != WN_OK || fsync(fd) < 0)
		goto fail;
	if (fstat(fd, &st) == 0)
		j->size = (size_t) st.st_size;
	return WN_OK;
fail:
	e = errno;
	if (ftruncate(fd, orig) == 0)
		fsync(fd);
	return wn_error_set(err, WN_IO, "cannot write journal %s: %s", j->path, strerror(e));
}

wn_status wn_journal_txn(wn_journal *j, wn_journal_reset_fn reset, wn_journal_line_fn line,
			 void *line_arg, wn_journal_compose_fn compose, void *compose_arg, wn_error *err)
{
	wn_buf out = WN_BUF_INIT;
	wn_status st;
	int fd = lock_fd(j->path, O_RDWR | O_CREAT | O_APPEND, LOCK_EX);

	if (fd < 0)
		return wn_error_set(err, WN_IO, "cannot open journal %s: %s", j->path, strerror(errno));
	st = catch_up(j, fd, reset, line, line_arg, NULL, err);
	if (st == WN_OK)
		st = compose(&out, compose_arg, err);
	if (st == WN_OK && out.len)
		st = append_locked(j, fd, out.data, out.len, err);
	/* What we appended is known to the caller already. */
	if (st == WN_OK)
		j->seen = (off_t) j->size;
	wn_buf_free(&out);
	close(fd);
	return st;
}

wn_status wn_journal_append(wn_journal *j, const char *text, size_t len, wn_error *err)
{
	wn_status st;
	int fd = lock_fd(j->path, O_RDWR | O_CREAT | O_APPEND, LOCK_EX);

	if (fd < 0)
		return wn_error_set(err, WN_IO, "cannot open journal %s: %s", j->path, strerror(errno));
	st = append_locked(j, fd, text, len, err);
	close(fd);
	return st;
}

/* Read all of fd from the start into b. */
static wn_status slurp(int fd, wn_buf *b)
{
	char chunk[65536];
	off_t off = 0;
	ssize_t n;

	while ((n = pread(fd, chunk, sizeof(chunk), off)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return WN_IO;
		}
		if (wn_buf_append(b, chunk, (size_t) n) != WN_OK)
			return WN_NOMEM;
		off += n;
	}
	return WN_OK;
}

wn_status wn_journal_compact(wn_journal *j, wn_journal_build_fn build, void *arg, wn_error *err)
{
	wn_buf old = WN_BUF_INIT, neu = WN_BUF_INIT;
	struct stat sb;
	char *tmp = NULL;
	int lfd, fd = -1, dfd;
	wn_status st;

	lfd = lock_fd(j->path, O_RDWR, LOCK_EX);
	if (lfd < 0)
		return wn_error_set(err, WN_IO, "cannot lock journal %s: %s", j->path, strerror(errno));
	st = slurp(lfd, &old);
	if (st != WN_OK) {
		wn_error_set(err, st, "cannot read journal %s: %s", j->path,
			     st == WN_NOMEM ? "out of memory" : strerror(errno));
		goto out;
	}
	st = build(wn_buf_str(&old), old.len, &neu, arg);
	if (st != WN_OK) {
		wn_error_set(err, st, "cannot compact journal %s", j->path);
		goto out;
	}
	if (asprintf(&tmp, "%s.tmp", j->path) < 0) {
		tmp = NULL;
		st = wn_error_set(err, WN_NOMEM, "out of memory");
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write_all(fd, wn_buf_str(&neu), neu.len) != WN_OK || fsync(fd) < 0 ||
	    fstat(fd, &sb) < 0 || (close(fd), fd = -1, rename(tmp, j->path) < 0)) {
		st = wn_error_set(err, WN_IO, "cannot rewrite journal %s: %s", j->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(tmp);
		goto out;
	}
	dfd = open(j->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	j->size = neu.len;
	/* The caller's memory is the new file now. */
	j->dev = sb.st_dev;
	j->ino = sb.st_ino;
	j->seen = (off_t) neu.len;
out:
	free(tmp);
	wn_buf_free(&old);
	wn_buf_free(&neu);
	close(lfd);
	return st;
}
