/* winnow — growable NUL-terminated byte buffer. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	/* Room enough (cap > len whenever cap is not 0) needs no call of
	 * reserve(): the parsers and the cache's records append a few bytes
	 * at a time, near a million times in a cold listing. */
	if (!b->failed && n < b->cap - b->len) {
		if (n)
			memcpy(b->data + b->len, s, n);
		b->len += n;
		b->data[b->len] = '\0';
		return WN_OK;
	}
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
	if (!b->failed && b->cap - b->len > 1) {
		b->data[b->len++] = c;
		b->data[b->len] = '\0';
		return WN_OK;
	}
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
