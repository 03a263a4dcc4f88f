/* winnow — a file's identity, and the files a pass read (fileid.h). */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "file.h"
#include "fileid.h"
#include "hash.h"

/* Has the file *sb says kept its identity long enough (fileid.h)? */
static bool file_settled(const struct stat *sb)
{
	time_t recent = time(NULL) - WN_FILE_SETTLED;

#ifdef WN_TEST_HOOKS
	/* Tests move the clock files settle by: a day back, and every
	 * file is as if just delivered; ahead, and every file is old. */
	const char *shift = getenv("WINNOW_TEST_SETTLE_SHIFT");

	if (shift)
		recent += (time_t) strtol(shift, NULL, 10);
#endif

	return sb->st_mtim.tv_sec <= recent && sb->st_ctim.tv_sec <= recent;
}

/* v in decimal at p, at least width digits (zeros first); the end. */
static char *put_udec(char *p, unsigned long long v, int width)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char) ('0' + v % 10);
		v /= 10;
	} while (v);
	while (n < width)
		tmp[n++] = '0';
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* As printf's "%lld". */
static char *put_sdec(char *p, long long v)
{
	if (v >= 0)
		return put_udec(p, (unsigned long long) v, 1);
	*p++ = '-';
	return put_udec(p, 0ULL - (unsigned long long) v, 1);
}

/* As printf's "%lld.%09ld" of a time. */
static char *put_time(char *p, const struct timespec *ts)
{
	p = put_sdec(p, (long long) ts->tv_sec);
	*p++ = '.';
	if (ts->tv_nsec < 0) /* never, by POSIX: printf's own way then */
		return p + sprintf(p, "%09ld", (long) ts->tv_nsec);
	return put_udec(p, (unsigned long long) ts->tv_nsec, 9);
}

/* "path NUL size mtime ctime inode device" into b; false when out of
 * memory.  (No settled check: wn_file_ident() makes it.)  The numbers
 * are written as "%lld %lld.%09ld %lld.%09ld %llu %llu" would write
 * them: wn_buf_printf() was a twentieth of reading a patch's mail, and
 * every review read and every record checked makes one. */
static bool file_ident_put(wn_buf *b, const char *path, const struct stat *sb)
{
	char nums[5 * 24 + 8], *p = nums;

	p = put_sdec(p, (long long) sb->st_size);
	*p++ = ' ';
	p = put_time(p, &sb->st_mtim);
	*p++ = ' ';
	p = put_time(p, &sb->st_ctim);
	*p++ = ' ';
	p = put_udec(p, (unsigned long long) sb->st_ino, 1);
	*p++ = ' ';
	p = put_udec(p, (unsigned long long) sb->st_dev, 1);
	wn_buf_puts(b, path);
	wn_buf_putc(b, '\0');
	wn_buf_append(b, nums, (size_t) (p - nums));
	return !wn_buf_failed(b);
}

bool wn_file_ident(const char *path, const struct stat *sb, char **out, size_t *len)
{
	wn_buf b = WN_BUF_INIT;

	if (!path || !S_ISREG(sb->st_mode) || !file_settled(sb))
		return false;
	if (!file_ident_put(&b, path, sb)) {
		wn_buf_free(&b);
		return false;
	}
	*len = b.len;
	*out = wn_buf_steal(&b);
	return *out != NULL;
}

/* --- the read log ----------------------------------------------------------- */

/* The log being watched: the library runs a pass on one thread. */
static _Thread_local wn_readlog *watched;

bool wn_readlog_watch(wn_readlog *log)
{
	if (log && watched && watched != log)
		return false;
	watched = log;
	return true;
}

bool wn_readlog_on(void)
{
	return watched != NULL;
}

uint64_t wn_readlog_hash(const struct stat *sb)
{
	uint64_t v[7], h;

	if (!sb)
		return 0;
	v[0] = (uint64_t) sb->st_size;
	v[1] = (uint64_t) sb->st_mtim.tv_sec;
	v[2] = (uint64_t) sb->st_mtim.tv_nsec;
	v[3] = (uint64_t) sb->st_ctim.tv_sec;
	v[4] = (uint64_t) sb->st_ctim.tv_nsec;
	v[5] = (uint64_t) sb->st_ino;
	v[6] = (uint64_t) sb->st_dev;
	h = WN_FNV_BASIS;
	for (int i = 0; i < 7; i++)
		for (int k = 0; k < 8; k++)
			h = wn_fnv1a_byte(h, (unsigned char) (v[i] >> (8 * k)));
	h &= ~WN_READLOG_BYTES;
	return h ? h : 1;	/* 0 is "absent" */
}

uint64_t wn_readlog_content_seed(wn_readlog *log)
{
	if (!log->content_seed)
		log->content_seed = wn_hash_seed();
	return log->content_seed;
}

/* The hash of the bytes p[0..n), never an identity's nor 0.
 * Seeded: a mail's text cannot aim a collision at it. */
static uint64_t content_hash(uint64_t seed, const void *p, size_t n)
{
	return WN_READLOG_BYTES | wn_hash_seeded(seed, p, n);
}

/* The whole of the regular file open at fd (wn_fd_read_all), *sb its
 * identity then, at most WN_READLOG_CONTENT_MAX bytes. */
static char *read_whole(int fd, struct stat *sb, size_t *n)
{
	if (fstat(fd, sb) != 0 || !S_ISREG(sb->st_mode) || sb->st_size < 0)
		return NULL;
	return wn_fd_read_all(fd, (size_t) sb->st_size, WN_READLOG_CONTENT_MAX, n);
}

static uint64_t path_hash(wn_readlog *log, const char *path, size_t len)
{
	if (!log->seed)
		log->seed = wn_hash_seed();
	return wn_hash_seeded(log->seed, path, len);
}

/* Put h into the set *set (*cap slots, *n used), at most three quarters
 * full; false when out of memory.  *known: it was there. */
static bool set_put(uint64_t **set, size_t *cap, size_t *n, uint64_t h, bool *known)
{
	size_t i;

	if (4 * (*n + 1) > 3 * *cap) {
		size_t grown = *cap ? 2 * *cap : 1024;
		uint64_t *s = calloc(grown, sizeof(*s));

		if (!s)
			return false;
		for (size_t k = 0; k < *cap; k++) {
			if (!(*set)[k])
				continue;
			for (i = (size_t) (*set)[k] & (grown - 1); s[i]; i = (i + 1) & (grown - 1))
				;
			s[i] = (*set)[k];
		}
		free(*set);
		*set = s;
		*cap = grown;
	}
	for (i = (size_t) h & (*cap - 1); (*set)[i] && (*set)[i] != h; i = (i + 1) & (*cap - 1))
		;
	*known = (*set)[i] != 0;
	if (!*known) {
		(*set)[i] = h;
		(*n)++;
	}
	return true;
}

static bool set_has(const uint64_t *set, size_t cap, uint64_t h)
{
	if (!cap)
		return false;
	for (size_t i = (size_t) h & (cap - 1); set[i]; i = (i + 1) & (cap - 1))
		if (set[i] == h)
			return true;
	return false;
}

bool wn_readlog_know(wn_readlog *log, const char *path, size_t len)
{
	bool known;

	return set_put(&log->set, &log->cap, &log->n, path_hash(log, path, len), &known);
}

bool wn_readlog_flush(wn_readlog *log)
{
	size_t done = 0;

	if (wn_buf_failed(&log->out) || (log->out.len && log->fd < 0))
		return false;
	while (done < log->out.len) {
		ssize_t w = write(log->fd, log->out.data + done, log->out.len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		done += (size_t) w;
	}
	log->out.len = 0;
	return true;
}

/* Put path with hash into log as an entry, unless known; false when out
 * of memory or it cannot be written. */
static bool readlog_add(wn_readlog *log, const char *path, size_t len, uint64_t hash)
{
	unsigned char h[8];
	bool known;

	if (log->fill) {
		bool (*fill)(void *) = log->fill;

		log->fill = NULL;
		if (!fill(log->fill_arg))
			return false;
	}
	if (memchr(path, '\0', len) ||
	    !set_put(&log->set, &log->cap, &log->n, path_hash(log, path, len), &known))
		return false;
	if (known)
		return true;
	for (int i = 0; i < 8; i++)
		h[i] = (unsigned char) (hash >> (8 * i));
	wn_buf_append(&log->out, path, len);
	wn_buf_putc(&log->out, '\0');
	wn_buf_append(&log->out, (const char *) h, 8);
	log->len += len + 9;
	log->added++;
	return log->out.len < (1u << 16) || wn_readlog_flush(log);
}

void wn_readlog_note(const char *path, const struct stat *sb)
{
	if (!watched || !path)
		return;
	if (sb && (!S_ISREG(sb->st_mode) || !file_settled(sb)))
		watched->unsure = true;
	else if (!readlog_add(watched, path, strlen(path), wn_readlog_hash(sb)))
		watched->unsure = true;
}

void wn_readlog_note_read(const char *path, const struct stat *sb, const void *all, size_t n)
{
	if (!watched || !path)
		return;
	if (sb && S_ISREG(sb->st_mode) && file_settled(sb))
		wn_readlog_note(path, sb);
	else if (!all || n > WN_READLOG_CONTENT_MAX ||
		 !readlog_add(watched, path, strlen(path),
			      content_hash(wn_readlog_content_seed(watched), all, n)))
		watched->unsure = true;
}

void wn_readlog_note_fd(const char *path, int fd, const struct stat *sb, const void *head,
			size_t have)
{
	struct stat whole;
	size_t n = 0;
	char *all;

	if (!watched || !path)
		return;
	if (sb && S_ISREG(sb->st_mode) && file_settled(sb)) {
		wn_readlog_note(path, sb);
		return;
	}
	/* Read again whole: its bytes are what was read only when they
	 * start with what was. */
	all = read_whole(fd, &whole, &n);
	if (all && n >= have && (!have || memcmp(all, head, have) == 0))
		wn_readlog_note_read(path, NULL, all, n);
	else
		watched->unsure = true;
	free(all);
}

void wn_readlog_unsure(void)
{
	if (watched)
		watched->unsure = true;
}

/* rd holds the next entry from rd->pos (read more when not); false at
 * the end or on a read error. */
static bool rd_fill(const wn_readlog *log, wn_readlog_rd *rd, size_t *n)
{
	for (;;) {
		const char *p = rd->buf.data ? rd->buf.data + rd->pos : NULL;
		const char *nul = p ? memchr(p, '\0', rd->buf.len - rd->pos) : NULL;
		char chunk[1u << 14];
		ssize_t r;

		if (nul && (size_t) (rd->buf.data + rd->buf.len - nul) > 8) {
			*n = (size_t) (nul - p);
			return true;
		}
		if (rd->off >= log->len - log->out.len) {
			/* An entry cut short is a write that failed. */
			rd->bad = rd->pos < rd->buf.len;
			return false;
		}
		/* What is left to the front, then more. */
		if (rd->buf.data)
			memmove(rd->buf.data, rd->buf.data + rd->pos, rd->buf.len - rd->pos);
		rd->buf.len -= rd->pos;
		rd->pos = 0;
		r = pread(log->fd, chunk, sizeof(chunk), (off_t) rd->off);
		if (r <= 0) {
			rd->bad = true;
			return false;
		}
		rd->off += (uint64_t) r;
		wn_buf_append(&rd->buf, chunk, (size_t) r);
		if (wn_buf_failed(&rd->buf)) {
			rd->bad = true;
			return false;
		}
	}
}

const char *wn_readlog_next(const wn_readlog *log, wn_readlog_rd *rd, uint64_t *hash)
{
	const unsigned char *h;
	const char *p;
	size_t n;

	if (log->fd < 0 || !rd_fill(log, rd, &n))
		return NULL;
	p = rd->buf.data + rd->pos;
	h = (const unsigned char *) p + n + 1;
	*hash = 0;
	for (int i = 0; i < 8; i++)
		*hash |= (uint64_t) h[i] << (8 * i);
	rd->pos += n + 9;
	return p;
}

/* Does the file at path hold the bytes hashed to hash?  *now: its
 * identity when it kept one while read and has settled, else hash. */
static bool content_holds(const char *path, uint64_t hash, uint64_t seed, uint64_t *now)
{
	/* Not blocking: a FIFO put in a mail's place would wait. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat was, after;
	size_t n = 0;
	char *buf = fd >= 0 ? read_whole(fd, &was, &n) : NULL;
	bool ok = buf && content_hash(seed, buf, n) == hash;

	if (ok && fstat(fd, &after) == 0 && wn_readlog_hash(&after) == wn_readlog_hash(&was) &&
	    file_settled(&after))
		*now = wn_readlog_hash(&after);
	free(buf);
	if (fd >= 0)
		close(fd);
	return ok;
}

/* The key of path and identity hash together in the vouched set. */
static uint64_t vouch_key(wn_readlog *log, const char *path, size_t len, uint64_t hash)
{
	unsigned char h[8];

	for (int i = 0; i < 8; i++)
		h[i] = (unsigned char) (hash >> (8 * i));
	return wn_hash_seeded(path_hash(log, path, len), h, 8);
}

/* path (len bytes) was found just now with the identity hash (one
 * wn_readlog_hash() gives; 0 and a hash of bytes are not kept): say so
 * to the checks of this pass (wn_file_ident_vouched()).  Out of memory,
 * nothing is kept: the checks then stat() the file themselves. */
static void vouch(wn_readlog *log, const char *path, size_t len, uint64_t hash)
{
	bool known;

	if (hash && !(hash & WN_READLOG_BYTES) && !memchr(path, '\0', len))
		(void) set_put(&log->vouch, &log->vcap, &log->vn, vouch_key(log, path, len, hash),
			       &known);
}

bool wn_readlog_holds(wn_readlog *log, const char *path, uint64_t hash, uint64_t seed,
		      uint64_t *now, bool (*gone)(const char *path, void *arg), void *arg)
{
	struct stat sb;
	bool ok;

	*now = hash;
	if (stat(path, &sb) != 0)
		return errno == ENOENT && (hash == 0 || (gone && gone(path, arg)));
	ok = hash & WN_READLOG_BYTES ? content_holds(path, hash, seed, now) :
				       hash == wn_readlog_hash(&sb);
	/* There as it was: the pass's own checks of it need not ask again. */
	if (ok && log && S_ISREG(sb.st_mode))
		vouch(log, path, strlen(path), *now);
	return ok;
}

/* One number of an identity at *p (before end), as file_ident_put()
 * writes it, then the character stop; *p after it.  False when it is
 * not there. */
static bool ident_num(const char **p, const char *end, char stop, bool sign, uint64_t *v)
{
	const char *s = *p;
	bool neg = sign && s < end && *s == '-';
	uint64_t n = 0;

	s += neg;
	if (s == end || *s < '0' || *s > '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (n > (UINT64_MAX - 9) / 10)
			return false;
		n = n * 10 + (uint64_t) (*s - '0');
	}
	if (stop ? (s == end || *s != stop) : s != end)
		return false;
	*v = neg ? 0 - n : n;
	*p = s + (stop != 0);
	return true;
}

/* The identity file_ident_put() wrote (the numbers, m bytes at p) back
 * into *sb; false when it does not read as one. */
static bool ident_parse(const char *p, size_t m, struct stat *sb)
{
	const char *end = p + m;
	uint64_t v[7];

	memset(sb, 0, sizeof(*sb));
	if (!ident_num(&p, end, ' ', true, &v[0]) || !ident_num(&p, end, '.', true, &v[1]) ||
	    !ident_num(&p, end, ' ', false, &v[2]) || !ident_num(&p, end, '.', true, &v[3]) ||
	    !ident_num(&p, end, ' ', false, &v[4]) || !ident_num(&p, end, ' ', false, &v[5]) ||
	    !ident_num(&p, end, 0, false, &v[6]) || v[2] > 999999999 || v[4] > 999999999)
		return false;
	sb->st_mode = S_IFREG;
	sb->st_size = (off_t) v[0];
	sb->st_mtim.tv_sec = (time_t) v[1];
	sb->st_mtim.tv_nsec = (long) v[2];
	sb->st_ctim.tv_sec = (time_t) v[3];
	sb->st_ctim.tv_nsec = (long) v[4];
	sb->st_ino = (ino_t) v[5];
	sb->st_dev = (dev_t) v[6];
	return true;
}

bool wn_file_ident_vouched(const char *was, size_t n)
{
	const char *nul = was ? memchr(was, '\0', n) : NULL;
	struct stat sb;
	uint64_t hash;
	size_t len;

	if (!watched || !watched->vn || !nul)
		return false;
	len = (size_t) (nul - was);
	if (!ident_parse(nul + 1, n - len - 1, &sb) || !file_settled(&sb))
		return false;
	hash = wn_readlog_hash(&sb);
	if (!set_has(watched->vouch, watched->vcap, vouch_key(watched, was, len, hash)))
		return false;
	/* Noted as the stat() would have been (wn_readlog_note()). */
	if (!readlog_add(watched, was, len, hash))
		watched->unsure = true;
	return true;
}

void wn_readlog_free(wn_readlog *log)
{
	if (watched == log)
		watched = NULL;
	if (log->fd >= 0)
		close(log->fd);
	wn_buf_free(&log->out);
	free(log->set);
	free(log->vouch);
	memset(log, 0, sizeof(*log));
	log->fd = -1;
}
