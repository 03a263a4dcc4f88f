/* winnow — growable NUL-terminated byte buffer. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "winnow/buf.h"

static wn_status reserve(wn_buf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (b->failed)
		return WN_NOMEM;
	if (extra > SIZE_MAX - b->len - 1) {
		b->failed = true;
		return WN_NOMEM;
	}
	need = b->len + extra + 1;
	if (need <= b->cap)
		return WN_OK;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = realloc(b->data, cap);
	if (!p) {
		b->failed = true;
		return WN_NOMEM;
	}
	b->data = p;
	b->cap = cap;
	return WN_OK;
}

wn_status wn_buf_append(wn_buf *b, const char *s, size_t n)
{
	if (reserve(b, n) != WN_OK)
		return WN_NOMEM;
	if (n)
		memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
	return WN_OK;
}

wn_status wn_buf_puts(wn_buf *b, const char *s)
{
	return wn_buf_append(b, s, strlen(s));
}

wn_status wn_buf_putc(wn_buf *b, char c)
{
	return wn_buf_append(b, &c, 1);
}

wn_status wn_buf_vprintf(wn_buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return WN_USAGE;
	if (reserve(b, (size_t) n) != WN_OK)
		return WN_NOMEM;
	vsnprintf(b->data + b->len, (size_t) n + 1, fmt, ap);
	b->len += (size_t) n;
	return WN_OK;
}

wn_status wn_buf_printf(wn_buf *b, const char *fmt, ...)
{
	va_list ap;
	wn_status st;

	va_start(ap, fmt);
	st = wn_buf_vprintf(b, fmt, ap);
	va_end(ap);
	return st;
}

const char *wn_buf_str(const wn_buf *b)
{
	return b->data ? b->data : "";
}

void wn_buf_reset(wn_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

bool wn_buf_failed(const wn_buf *b)
{
	return b->failed;
}

wn_status wn_buf_status(const wn_buf *b)
{
	return b->failed ? WN_NOMEM : WN_OK;
}

char *wn_buf_steal(wn_buf *b)
{
	char *s = b->data;

	if (b->failed) {
		wn_buf_free(b);
		return NULL;
	}
	if (!s)
		s = calloc(1, 1);
	b->data = NULL;
	b->len = b->cap = 0;
	return s;
}

void wn_buf_free(wn_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->failed = false;
}

/* "larger than 64 KiB" for max = 64 KiB; bytes below one KiB. */
static wn_status too_large(wn_error *err, size_t max)
{
	if (max >= 1024)
		return wn_error_set(err, WN_CONFIG, "larger than %zu KiB", max / 1024);
	return wn_error_set(err, WN_CONFIG, "larger than %zu bytes", max);
}

int wn_file_open(const char *path, size_t max, unsigned flags, wn_error *err)
{
	int oflags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	struct stat st;
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

wn_status wn_file_read(const char *path, size_t max, unsigned flags, char **out, size_t *len,
		       wn_error *err)
{
	wn_error local = WN_ERROR_INIT;
	wn_buf b = WN_BUF_INIT;
	wn_status st = WN_OK;
	char chunk[4096];
	ssize_t n;
	int fd;

	*out = NULL;
	if ((fd = wn_file_open(path, max, flags, err ? err : &local)) < 0) {
		st = err ? err->status : local.status;
		wn_error_clear(&local);
		return st;
	}
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
