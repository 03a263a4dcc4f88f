/* winnow — one finding's file in the sharing repository: its path and
 * its text (share-private.h, share.h). */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "forward-private.h"
#include "share-private.h"
#include "str.h"
#include "winnow/text.h"

/* An encoded Message-ID longer than this is named by its hash (the
 * file's "review:" line keeps the id): a file name has 255 bytes. */
#define NAME_MAX_ID 200

static bool keep(unsigned char c, bool first)
{
	return (str_ident_char(c) && c != '_') || c == '@' || c == '+' || c == '=' || c == ',' ||
	       c == '-' || (c == '.' && !first);
}

char *sh_review_dir(const char *id)
{
	unsigned long long h = fwd_hash(FWD_FNV_INIT, id);
	wn_buf b = WN_BUF_INIT;

	wn_buf_printf(&b, "reviews/%02llx/", h >> 56);
	for (const char *p = id; *p; p++) {
		if (keep((unsigned char) *p, p == id))
			wn_buf_putc(&b, *p);
		else
			wn_buf_printf(&b, "_%02X", (unsigned char) *p);
	}
	/* Long or hostile ids: their hash. */
	if (b.len - strlen("reviews/xx/") > NAME_MAX_ID) {
		wn_buf_reset(&b);
		wn_buf_printf(&b, "reviews/%02llx/~%016llx", h >> 56, h);
	}
	return wn_buf_steal(&b);
}

/* --- the text ------------------------------------------------------------ */

static void iso(time_t t, char out[32])
{
	struct tm tm;

	out[0] = '\0';
	if (gmtime_r(&t, &tm))
		strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

wn_status sh_format(const wn_share_value *v, const char *review, wn_buf *out)
{
	char when[32], *id = wn_msgid_escape(review);
	wn_status st = id ? WN_OK : WN_NOMEM;

	iso(v->when, when);
	if (st == WN_OK)
		st = wn_buf_printf(out, "review: %s\nstate: %s\n", id, wn_verdict_name(v->verdict));
	if (st == WN_OK && v->severity != WN_SEV_NONE)
		st = wn_buf_printf(out, "severity: %s\n", wn_severity_name(v->severity));
	if (st == WN_OK)
		st = wn_buf_printf(out, "author: %s\ntime: %s\n", v->author ? v->author : "", when);
	/* A note of many lines is many "note:" lines. */
	for (const char *n = v->note; st == WN_OK && n && *n;) {
		size_t len = strcspn(n, "\n");

		st = wn_buf_printf(out, "note: %.*s\n", (int) len, n);
		n += len + (n[len] == '\n');
	}
	free(id);
	return st;
}

static time_t parse_time(const char *s)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (!strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return 0;
	return timegm(&tm);
}

static wn_status take(wn_share_value *v, char **review, wn_buf *note, const char *key,
		      const char *val)
{
	if (!strcmp(key, "review")) {
		char *raw = wn_msgid_unescape(val);

		free(*review);
		*review = raw ? raw : strdup(val);
		return *review ? WN_OK : WN_NOMEM;
	}
	if (!strcmp(key, "state"))
		return wn_verdict_from_name(val, &v->verdict) == WN_OK ? WN_OK : WN_PARSE;
	if (!strcmp(key, "severity")) {
		v->severity = wn_severity_parse(val);
		return WN_OK;
	}
	if (!strcmp(key, "author")) {
		free(v->author);
		return (v->author = strdup(val)) ? WN_OK : WN_NOMEM;
	}
	if (!strcmp(key, "time")) {
		v->when = parse_time(val);
		return WN_OK;
	}
	if (!strcmp(key, "note"))
		return wn_buf_printf(note, "%s%s", note->len ? "\n" : "", val);
	/* Keys of a newer winnow: kept out, not refused. */
	return WN_OK;
}

wn_status sh_parse(const char *text, wn_share_value *v, char **review)
{
	wn_buf note = WN_BUF_INIT, line = WN_BUF_INIT;
	wn_status st = WN_OK;
	bool state = false;

	memset(v, 0, sizeof(*v));
	*review = NULL;
	for (const char *p = text; st == WN_OK && *p;) {
		size_t len = strcspn(p, "\n");
		char *colon;

		wn_buf_reset(&line);
		if ((st = wn_buf_append(&line, p, len)) != WN_OK)
			break;
		p += len + (p[len] == '\n');
		if (!(colon = strstr(line.data, ": ")))
			continue;
		*colon = '\0';
		state |= !strcmp(line.data, "state");
		st = take(v, review, &note, line.data, colon + 2);
	}
	if (st == WN_OK && (!state || !*review))
		st = WN_PARSE;
	if (st == WN_OK && note.len && !(v->note = wn_buf_steal(&note)))
		st = WN_NOMEM;
	wn_buf_free(&note);
	wn_buf_free(&line);
	if (st != WN_OK) {
		wn_share_value_clear(v);
		free(*review);
		*review = NULL;
	}
	return st;
}

bool sh_same(const wn_share_value *a, const wn_share_value *b)
{
	return a->verdict == b->verdict && a->severity == b->severity &&
	       !strcmp(a->note ? a->note : "", b->note ? b->note : "");
}

void wn_share_value_clear(wn_share_value *v)
{
	free(v->note);
	free(v->author);
	memset(v, 0, sizeof(*v));
}

/* --- files -------------------------------------------------------------------- */

wn_status sh_read(const char *dir, const char *path, wn_buf *out)
{
	char *full = NULL, chunk[4096];
	FILE *f;
	size_t n;
	wn_status st = WN_OK;

	if (asprintf(&full, "%s/%s", dir, path) < 0)
		return WN_NOMEM;
	f = fopen(full, "re");
	free(full);
	if (!f)
		return errno == ENOENT ? WN_NOT_FOUND : WN_IO;
	while (st == WN_OK && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		st = wn_buf_append(out, chunk, n);
	if (ferror(f))
		st = WN_IO;
	fclose(f);
	return st == WN_OK && !out->data ? wn_buf_puts(out, "") : st;
}

static void make_parents(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
}

wn_status sh_write(const char *dir, const char *path, const char *text, wn_error *err)
{
	char *full = NULL;
	size_t len = strlen(text), off = 0;
	int fd;

	if (asprintf(&full, "%s/%s", dir, path) < 0)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	make_parents(full);
	fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	while (fd >= 0 && off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t) w;
	}
	if (fd < 0 || off < len || close(fd) < 0) {
		wn_error_set(err, WN_IO, "cannot write %s: %s", full, strerror(errno));
		if (fd >= 0 && off < len)
			close(fd);
		free(full);
		return WN_IO;
	}
	free(full);
	return WN_OK;
}
