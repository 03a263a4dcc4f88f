/* winnow — growable NUL-terminated byte buffer. */
#ifndef WINNOW_BUF_H
#define WINNOW_BUF_H

#include <stddef.h>
#include <stdarg.h>
#include "winnow/status.h"

typedef struct wn_buf {
	char *data;	/* NUL-terminated once anything was appended */
	size_t len;
	size_t cap;
} wn_buf;

#define WN_BUF_INIT { NULL, 0, 0 }

wn_status wn_buf_append(wn_buf *b, const char *s, size_t n);
wn_status wn_buf_puts(wn_buf *b, const char *s);
wn_status wn_buf_putc(wn_buf *b, char c);
wn_status wn_buf_printf(wn_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
wn_status wn_buf_vprintf(wn_buf *b, const char *fmt, va_list ap);
/* Contents as a C string; "" when empty.  Valid until the next change. */
const char *wn_buf_str(const wn_buf *b);
/* Forget the contents, keep the allocation. */
void wn_buf_reset(wn_buf *b);
/* Hand the string to the caller (malloc'd, never NULL unless out of
 * memory) and leave b empty. */
char *wn_buf_steal(wn_buf *b);
void wn_buf_free(wn_buf *b);

/* Files a user names (a config, a theme, a template) are read only when
 * they are regular files of a sane size: a FIFO would hang winnow for
 * ever, /dev/zero fill its memory.  The file is opened without blocking
 * (O_NONBLOCK), then checked with fstat before any read.
 *
 * wn_file_open: the open descriptor (the caller closes it), or -1 with
 * err set: WN_NOT_FOUND when path does not exist, WN_IO for another
 * failing open, WN_CONFIG for "not a regular file" or "larger than N
 * KiB".  The message is that reason alone, without the path, for the
 * caller to put in context.  WN_FILE_NOFOLLOW refuses a symbolic link
 * (O_NOFOLLOW) where a link planted by someone else could point
 * anywhere. */
#define WN_FILE_NOFOLLOW 1u
int wn_file_open(const char *path, size_t max, unsigned flags, wn_error *err);
/* The whole file, as wn_file_open allows it, NUL-terminated (it may
 * hold NULs: *len says how long), into *out, malloc'd for the caller;
 * a file that grows past max while being read is refused too. */
wn_status wn_file_read(const char *path, size_t max, unsigned flags, char **out, size_t *len,
		       wn_error *err);

#endif
