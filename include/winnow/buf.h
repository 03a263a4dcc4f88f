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

#endif
