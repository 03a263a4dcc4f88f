/* winnow — growable NUL-terminated byte buffer.
 *
 * Out of memory is sticky: the first allocation that fails sets
 * `failed`, and every append after it does nothing and returns
 * WN_NOMEM.  A builder may therefore append without checking each call
 * and check once, at the end, with wn_buf_failed() (or through
 * wn_buf_steal(), which returns NULL): a string cut short by a failed
 * allocation is never mistaken for the whole one. */
#ifndef WINNOW_BUF_H
#define WINNOW_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdarg.h>
#include "winnow/status.h"

typedef struct wn_buf {
	char *data;	/* NUL-terminated once anything was appended */
	size_t len;
	size_t cap;
	bool failed;	/* an allocation failed; see above */
} wn_buf;

#define WN_BUF_INIT { NULL, 0, 0, false }

wn_status wn_buf_append(wn_buf *b, const char *s, size_t n);
wn_status wn_buf_puts(wn_buf *b, const char *s);
wn_status wn_buf_putc(wn_buf *b, char c);
wn_status wn_buf_printf(wn_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
wn_status wn_buf_vprintf(wn_buf *b, const char *fmt, va_list ap);
/* Contents as a C string; "" when empty.  Valid until the next change. */
const char *wn_buf_str(const wn_buf *b);
/* Did an append run out of memory since b was made, stolen or freed? */
bool wn_buf_failed(const wn_buf *b);
/* WN_NOMEM if wn_buf_failed(b), else WN_OK: a builder's one check. */
wn_status wn_buf_status(const wn_buf *b);
/* Forget the contents, keep the allocation.  Not the failure: what was
 * built before the reset was lost too, and the builder must learn it. */
void wn_buf_reset(wn_buf *b);
/* Hand the string to the caller (malloc'd) and leave b empty and fresh.
 * NULL when out of memory, now or in any append since b was made: the
 * contents are then freed, never handed over cut short. */
char *wn_buf_steal(wn_buf *b);
/* Free the contents; b is empty and fresh (not failed) again. */
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
