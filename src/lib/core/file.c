/* winnow — reading files without being led astray (buf.h, file.h).
 *
 * A file the user names (a config, a theme, a template) is read only
 * when it is a regular file of a sane size.  A file inside a tree that
 * someone else wrote -- a sharing repository, the worktree b4 applied
 * a mailed series in, the kernel tree -- is also walked to one folder
 * at a time from the tree's root, never through a symbolic link, never
 * to "." or "..": a link in it (a patch can add one) could point at any
 * file of the user's. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "winnow/buf.h"
#include "winnow/text.h"

/* "larger than 64 KiB" for max = 64 KiB; bytes below one KiB. */
static wn_status too_large(wn_error *err, size_t max)
{
	if (max >= 1024)
		return wn_error_set(err, WN_CONFIG, "larger than %zu KiB", max / 1024);
	return wn_error_set(err, WN_CONFIG, "larger than %zu bytes", max);
}

/* fd when it is a regular file of at most max bytes; else -1, fd
 * closed and err set. */
static int regular(int fd, size_t max, wn_error *err)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		wn_error_set(err, WN_IO, "%s", strerror(errno));
	else if (!S_ISREG(st.st_mode))
		wn_error_set(err, WN_CONFIG, "not a regular file");
	else if ((uintmax_t) st.st_size > max)
		too_large(err, max);
	else
		return fd;
	close(fd);
	return -1;
}

int wn_file_open(const char *path, size_t max, unsigned flags, wn_error *err)
{
	int oflags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	int fd;

	if (flags & WN_FILE_NOFOLLOW)
		oflags |= O_NOFOLLOW;
	fd = open(path, oflags);
	if (fd < 0) {
		if (errno == ELOOP && (flags & WN_FILE_NOFOLLOW))
			wn_error_set(err, WN_CONFIG, "a symbolic link, not a regular file");
		else
			wn_error_set(err, errno == ENOENT ? WN_NOT_FOUND : WN_IO, "%s", strerror(errno));
		return -1;
	}
	return regular(fd, max, err);
}

/* All of fd (closed here), as wn_file_read returns it. */
static wn_status read_all(int fd, size_t max, char **out, size_t *len, wn_error *err)
{
	wn_buf b = WN_BUF_INIT;
	wn_status st = WN_OK;
	char chunk[4096];
	ssize_t n;

	while (st == WN_OK && (n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			st = wn_error_set(err, WN_IO, "%s", strerror(errno));
		else if (wn_buf_append(&b, chunk, (size_t) n) != WN_OK)
			st = wn_error_set(err, WN_NOMEM, "out of memory");
		else if (b.len > max)
			st = too_large(err, max);
	}
	close(fd);
	if (st != WN_OK) {
		wn_buf_free(&b);
		return st;
	}
	if (len)
		*len = b.len;
	if (!(*out = wn_buf_steal(&b)))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	return WN_OK;
}

/* The file an open gave (fd; -1: the open's error is in err, or in
 * local when err is NULL), read whole. */
static wn_status read_opened(int fd, size_t max, char **out, size_t *len, wn_error *err,
			     wn_error *local)
{
	wn_status st;

	if (fd >= 0)
		return read_all(fd, max, out, len, err);
	st = err ? err->status : local->status;
	wn_error_clear(local);
	return st;
}

wn_status wn_file_read(const char *path, size_t max, unsigned flags, char **out, size_t *len,
		       wn_error *err)
{
	wn_error local = WN_ERROR_INIT;

	*out = NULL;
	return read_opened(wn_file_open(path, max, flags, err ? err : &local), max, out, len, err,
			   &local);
}

/* --- inside a tree ---------------------------------------------------------- */

static bool bad_component(const char *c, size_t n)
{
	return n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.');
}

bool wn_walk_make_way(int dfd, const char *name)
{
	struct stat sb;

	return fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
	       (S_ISLNK(sb.st_mode) || S_ISREG(sb.st_mode)) && unlinkat(dfd, name, 0) == 0;
}

/* O_DIRECTORY | O_NOFOLLOW says ELOOP or ENOTDIR for a link, ENOTDIR
 * for a file: which it was. */
static int not_a_folder(int dfd, const char *name)
{
	struct stat sb;

	return fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode) ? ELOOP
											: ENOTDIR;
}

int wn_walk_parent(const char *dir, const char *path, unsigned flags, const char **leaf)
{
	bool create = flags & WN_WALK_CREATE;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	for (const char *p = path, *slash; fd >= 0; p = slash + 1) {
		int next, e;
		char *comp;

		if (!(slash = strchr(p, '/'))) {
			if (bad_component(p, strlen(p))) {
				close(fd);
				errno = EINVAL;
				return -1;
			}
			*leaf = p;
			return fd;
		}
		if (bad_component(p, (size_t) (slash - p)) || !(comp = wn_strndup(p, (size_t) (slash - p)))) {
			close(fd);
			errno = bad_component(p, (size_t) (slash - p)) ? EINVAL : ENOMEM;
			return -1;
		}
		next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && (errno == ENOTDIR || errno == ELOOP) && create && wn_walk_make_way(fd, comp))
			errno = ENOENT;
		if (next < 0 && errno == ENOENT && create && mkdirat(fd, comp, 0700) == 0)
			next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		e = next < 0 && (errno == ENOTDIR || errno == ELOOP) ? not_a_folder(fd, comp) : errno;
		free(comp);
		close(fd);
		errno = e;
		fd = next;
	}
	return -1;
}

int wn_file_open_in(const char *dir, const char *path, size_t max, wn_error *err)
{
	const char *leaf = NULL;
	int pfd = wn_walk_parent(dir, path, 0, &leaf), fd = -1, e;

	if (pfd >= 0) {
		/* O_NONBLOCK: a FIFO must not hang the open. */
		fd = openat(pfd, leaf, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		e = errno;
		close(pfd);
		errno = e;
		if (fd >= 0)
			return regular(fd, max, err);
		if (errno == ELOOP) {
			wn_error_set(err, WN_CONFIG, "a symbolic link, not a regular file");
			return -1;
		}
	}
	if (errno == ELOOP)
		wn_error_set(err, WN_CONFIG, "under a symbolic link");
	else if (errno == EINVAL)
		wn_error_set(err, WN_CONFIG, "not a path inside %s", dir);
	else if (errno == ENOENT || errno == ENOTDIR)
		wn_error_set(err, WN_NOT_FOUND, "no such file");
	else
		wn_error_set(err, errno == ENOMEM ? WN_NOMEM : WN_IO, "%s", strerror(errno));
	return -1;
}

wn_status wn_file_read_in(const char *dir, const char *path, size_t max, char **out, size_t *len,
			  wn_error *err)
{
	wn_error local = WN_ERROR_INIT;

	*out = NULL;
	return read_opened(wn_file_open_in(dir, path, max, err ? err : &local), max, out, len, err,
			   &local);
}

/* --- mail files -------------------------------------------------------------- */

char *wn_fd_read_all(int fd, size_t size, size_t max, size_t *n)
{
	char *buf;
	size_t got = 0;

	if (size > max || !(buf = malloc(size + 1)))
		return NULL;
	/* A read of a regular file that gives fewer bytes than asked
	 * stopped at its end: one that gives exactly the size fstat said
	 * needs no second read to find the end (one system call a mail).
	 * Whether the file changed while read is the caller's to check. */
	while (got <= size) {
		ssize_t r = pread(fd, buf + got, size + 1 - got, (off_t) got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		got += (size_t) r;
		if (got == size)
			break;
	}
	if (got > size) {
		free(buf);
		return NULL;
	}
	*n = got;
	return buf;
}

/* The folders last opened (per thread: a pass runs on one), the least
 * recently used given up for a new one.  A maildir has cur and new
 * per folder: four hold most of an index's. */
#define MAIL_DIRS 4

static _Thread_local struct mail_dir {
	char *path;
	size_t len;
	int fd;
	unsigned long used;
} mail_dirs[MAIL_DIRS];
static _Thread_local unsigned long mail_tick;

/* The slot of the folder path[0..len), opened now if not yet; -1 when
 * it cannot be. */
static int mail_dir(const char *path, size_t len)
{
	struct mail_dir *d = NULL;
	char *copy;
	int fd;

	for (int i = 0; i < MAIL_DIRS; i++)
		if (mail_dirs[i].path && mail_dirs[i].len == len &&
		    !memcmp(mail_dirs[i].path, path, len))
			return i;
	if (!(copy = malloc(len + 1)))
		return -1;
	memcpy(copy, path, len);
	copy[len] = '\0';
	if ((fd = open(copy, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		free(copy);
		return -1;
	}
	for (int i = 0; i < MAIL_DIRS; i++)
		if (!d || mail_dirs[i].used < d->used)
			d = &mail_dirs[i];
	if (d->path) {
		close(d->fd);
		free(d->path);
	}
	*d = (struct mail_dir){ copy, len, fd, 0 };
	return (int) (d - mail_dirs);
}

int wn_open_mail(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	int i, fd, e;

	/* Absolute paths only: a relative folder kept would follow the
	 * working directory it was opened in. */
	if (!slash || path[0] != '/' || slash == path || !slash[1] || strcmp(slash + 1, ".") == 0 ||
	    strcmp(slash + 1, "..") == 0 || (i = mail_dir(path, (size_t) (slash - path))) < 0)
		return open(path, O_RDONLY | O_CLOEXEC);
	mail_dirs[i].used = ++mail_tick;
	if ((fd = openat(mail_dirs[i].fd, slash + 1, O_RDONLY | O_CLOEXEC)) >= 0 || errno != ENOENT)
		return fd;
	/* The folder kept may no longer be the one at its path. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	e = errno;
	close(mail_dirs[i].fd);
	free(mail_dirs[i].path);
	mail_dirs[i] = (struct mail_dir){ NULL, 0, -1, 0 };
	errno = e;
	return fd;
}
