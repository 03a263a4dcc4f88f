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

#include "../core/file.h"
#include "../core/hash.h"
#include "../index/props.h"
#include "share-private.h"
#include "../core/str.h"
#include "winnow/text.h"

/* An encoded Message-ID longer than this is named by its hash (the
 * file's "review:" line keeps the id): a file name has 255 bytes. */
#define NAME_MAX_ID 200

static bool keep(unsigned char c, bool first)
{
	return (str_ident_char(c) && c != '_') || c == '@' || c == '+' || c == '=' || c == ',' ||
	       c == '-' || (c == '.' && !first);
}

char *wn_sh_review_dir(const char *id)
{
	unsigned long long h = wn_fnv1a_field(WN_FNV_BASIS, id);
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

wn_status wn_sh_format(const wn_share_value *v, const char *review, wn_buf *out)
{
	char when[32], *id = wn_msgid_escape(review);
	wn_status st = id ? WN_OK : WN_NOMEM;

	iso(v->when, when);
	if (st == WN_OK)
		st = wn_buf_printf(out, "review: %s\nstate: %s\n", id, wn_verdict_name(v->verdict));
	if (st == WN_OK && v->severity != WN_SEV_NONE)
		st = wn_buf_printf(out, "severity: %s\n", wn_severity_name(v->severity));
	if (st == WN_OK && wn_reason_name(v->reason))
		st = wn_buf_printf(out, "reason: %s\n", wn_reason_name(v->reason));
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
	/* A reason this winnow does not know (a newer list) reads as none
	 * rather than refusing the decision it explains. */
	if (!strcmp(key, "reason")) {
		if (wn_reason_from_name(val, &v->reason) != WN_OK)
			v->reason = WN_REASON_NONE;
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

wn_status wn_sh_parse(const char *text, wn_share_value *v, char **review, wn_error *err)
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
	if (st == WN_NOMEM)
		wn_error_set(err, st, "out of memory");
	else if (st != WN_OK)
		wn_error_set(err, st, "not a decision of winnow's: an unknown state");
	else if (!state || !*review)
		st = wn_error_set(err, WN_PARSE, "not a decision of winnow's: no %s line",
				  state ? "review:" : "state:");
	/* What the store would refuse, refused here, where the file can
	 * be named and set aside. */
	else if (note.len > WN_NOTE_MAX)
		st = wn_error_set(err, WN_PARSE, "a note of %zu bytes, more than the %d kept", note.len,
				  WN_NOTE_MAX);
	else if (!wn_text_utf8_valid(note.data, note.len) ||
		 (v->author && !wn_text_utf8_valid(v->author, strlen(v->author))))
		st = wn_error_set(err, WN_PARSE, "a note or author that is not valid UTF-8 text");
	if (st == WN_OK && note.len && !(v->note = wn_buf_steal(&note)))
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	wn_buf_free(&note);
	wn_buf_free(&line);
	if (st != WN_OK) {
		wn_share_value_clear(v);
		free(*review);
		*review = NULL;
	}
	return st;
}

bool wn_sh_same(const wn_share_value *a, const wn_share_value *b)
{
	return a->verdict == b->verdict && a->severity == b->severity && a->reason == b->reason &&
	       !strcmp(a->note ? a->note : "", b->note ? b->note : "");
}

void wn_share_value_clear(wn_share_value *v)
{
	free(v->note);
	free(v->author);
	memset(v, 0, sizeof(*v));
}

/* --- files -------------------------------------------------------------------- */

/* The repository is another maintainer's (or anyone's who can push):
 * every path in it is walked from the working tree's root by core's
 * wn_walk_parent (file.h), never through a symbolic link, so that
 * nothing outside the tree is read or written whatever it holds. */
static int open_parent(const char *dir, const char *path, bool create, const char **leaf)
{
	return wn_walk_parent(dir, path, create ? WN_WALK_CREATE : 0, leaf);
}

static const char *why(int e)
{
	/* O_NOFOLLOW's ELOOP, O_DIRECTORY's ENOTDIR on a link. */
	return e == ELOOP || e == ENOTDIR ? "a symbolic link or not a folder" : strerror(e);
}

wn_status wn_sh_read(const char *dir, const char *path, size_t max, wn_buf *out, wn_error *err)
{
	wn_error why = WN_ERROR_INIT;
	int fd = wn_file_open_in(dir, path, max, &why);
	char chunk[4096];
	wn_status st = WN_OK;

	if (fd < 0) {
		st = why.status;
		if (st != WN_NOT_FOUND)
			st = wn_error_set(err, st == WN_NOMEM ? st : WN_PARSE, "%s", wn_error_msg(&why));
		wn_error_clear(&why);
		return st;
	}
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			st = wn_error_set(err, WN_IO, "cannot read %s/%s: %s", dir, path, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		/* Grown since fstat: still bounded. */
		if (out->len + (size_t) n > max) {
			st = wn_error_set(err, WN_PARSE, "more than the %zu bytes a file may have", max);
			break;
		}
		if ((st = wn_buf_append(out, chunk, (size_t) n)) != WN_OK) {
			wn_error_set(err, st, "out of memory");
			break;
		}
	}
	close(fd);
	return st == WN_OK && !out->data ? wn_buf_puts(out, "") : st;
}

wn_status wn_sh_write(const char *dir, const char *path, const char *text, wn_error *err)
{
	const char *leaf = NULL;
	size_t len = strlen(text), off = 0;
	int pfd = open_parent(dir, path, true, &leaf), fd = -1, e = 0;

	if (pfd >= 0) {
		/* O_NOFOLLOW: a link planted at the file's place is not
		 * followed; O_NONBLOCK: nor is a FIFO waited on. */
		fd = openat(pfd, leaf, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
		if (fd < 0 && errno == ELOOP && wn_walk_make_way(pfd, leaf))
			fd = openat(pfd, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC,
				    0600);
		e = errno;
		close(pfd);
		errno = e;
	}
	if (fd >= 0) {
		struct stat sb;

		if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) || ftruncate(fd, 0) < 0) {
			close(fd);
			return wn_error_set(err, WN_IO, "cannot write %s/%s: not a regular file", dir, path);
		}
	}
	while (fd >= 0 && off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t) w;
	}
	if (fd < 0 || off < len) {
		e = errno;
		if (fd >= 0)
			close(fd);
		return wn_error_set(err, WN_IO, "cannot write %s/%s: %s", dir, path, why(e));
	}
	if (close(fd) < 0)
		return wn_error_set(err, WN_IO, "cannot write %s/%s: %s", dir, path, strerror(errno));
	return WN_OK;
}

wn_status wn_sh_unlink(const char *dir, const char *path)
{
	const char *leaf = NULL;
	int pfd = open_parent(dir, path, false, &leaf), r;

	if (pfd < 0)
		return errno == ENOENT ? WN_OK : WN_IO;
	r = unlinkat(pfd, leaf, 0);
	close(pfd);
	return r == 0 || errno == ENOENT ? WN_OK : WN_IO;
}

/* --- the layout ---------------------------------------------------------------- */

static bool hex_lower(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

static bool hex_upper(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F');
}

/* A folder name wn_sh_review_dir() writes: kept bytes and _HH, or ~hash. */
static bool review_name(const char *s, size_t n)
{
	if (n && s[0] == '~')
		return n == 17 && hex_lower(s + 1, 16);
	if (!n || n > NAME_MAX_ID)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '_') {
			if (i + 2 >= n || !hex_upper(s[i + 1]) || !hex_upper(s[i + 2]))
				return false;
			i += 2;
		} else if (!keep((unsigned char) s[i], i == 0)) {
			return false;
		}
	}
	return true;
}

const char *wn_sh_layout_check(const char *path)
{
	const char *p = path, *name, *slash;
	size_t k = strlen(SH_CONFLICT), fl;

	if (strncmp(p, "reviews/", 8))
		return "not of winnow's layout (reviews/ab/<review>/<fingerprint>)";
	p += 8;
	if (!hex_lower(p, 2) || p[2] != '/')
		return "not of winnow's layout (reviews/ab/<review>/<fingerprint>)";
	name = p + 3;
	if (!(slash = strchr(name, '/')) || !review_name(name, (size_t) (slash - name)))
		return "not of winnow's layout (reviews/ab/<review>/<fingerprint>)";
	fl = strlen(slash + 1);
	if (fl == WN_FP_LEN + k && !strcmp(slash + 1 + WN_FP_LEN, SH_CONFLICT))
		fl = WN_FP_LEN;
	if (fl != WN_FP_LEN || !hex_lower(slash + 1, WN_FP_LEN))
		return "not of winnow's layout (reviews/ab/<review>/<fingerprint>)";
	return NULL;
}
