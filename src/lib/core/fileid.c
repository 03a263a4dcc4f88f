/* winnow — a file's identity, and the files a pass read (fileid.h). */
#include "autoconfig.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fileid.h"
#include "hash.h"

/* Has the file *sb says kept its identity long enough (fileid.h)? */
static bool file_settled(const struct stat *sb)
{
	time_t recent = time(NULL) - WN_FILE_SETTLED;

	return sb->st_mtim.tv_sec <= recent && sb->st_ctim.tv_sec <= recent;
}

/* "path NUL size mtime ctime inode device" into b; false when out of
 * memory.  (No settled check: wn_file_ident() makes it.) */
static bool file_ident_put(wn_buf *b, const char *path, const struct stat *sb)
{
	wn_buf_puts(b, path);
	wn_buf_putc(b, '\0');
	wn_buf_printf(b, "%lld %lld.%09ld %lld.%09ld %llu %llu", (long long) sb->st_size,
		      (long long) sb->st_mtim.tv_sec, (long) sb->st_mtim.tv_nsec,
		      (long long) sb->st_ctim.tv_sec, (long) sb->st_ctim.tv_nsec,
		      (unsigned long long) sb->st_ino, (unsigned long long) sb->st_dev);
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
	return h ? h : 1;	/* 0 is "absent" */
}

static uint64_t hash_at(const wn_readlog *log, size_t off, size_t *pathlen)
{
	const unsigned char *p;
	uint64_t h = 0;
	size_t n = strlen(log->paths.data + off);

	p = (const unsigned char *) log->paths.data + off + n + 1;
	for (int i = 0; i < 8; i++)
		h |= (uint64_t) p[i] << (8 * i);
	if (pathlen)
		*pathlen = n;
	return h;
}

/* The slot of path: its entry's, or the empty one it would go in. */
static uint32_t *slot_of(const wn_readlog *log, const char *path, size_t len)
{
	size_t i = (size_t) wn_fnv1a(WN_FNV_BASIS, path, len) & (log->cap - 1);

	for (;; i = (i + 1) & (log->cap - 1)) {
		uint32_t s = log->slots[i];
		size_t n;

		if (!s)
			return &log->slots[i];
		hash_at(log, s - 1, &n);
		if (n == len && memcmp(log->paths.data + s - 1, path, len) == 0)
			return &log->slots[i];
	}
}

/* Room for one more path, the table at most half full. */
static bool room(wn_readlog *log)
{
	size_t cap = log->cap ? log->cap * 2 : 256;
	wn_readlog bigger = *log;

	if (2 * (log->n + 1) <= log->cap)
		return true;
	if (!(bigger.slots = calloc(cap, sizeof(*bigger.slots))))
		return false;
	bigger.cap = cap;
	for (size_t i = 0; i < log->cap; i++) {
		size_t n;

		if (!log->slots[i])
			continue;
		hash_at(log, log->slots[i] - 1, &n);
		*slot_of(&bigger, log->paths.data + log->slots[i] - 1, n) = log->slots[i];
	}
	free(log->slots);
	log->slots = bigger.slots;
	log->cap = cap;
	return true;
}

bool wn_readlog_add(wn_readlog *log, const char *path, size_t len, uint64_t hash)
{
	unsigned char h[8];
	uint32_t *slot;
	size_t off = log->paths.len;

	if (memchr(path, '\0', len) || !room(log))
		return false;
	slot = slot_of(log, path, len);
	if (*slot) {
		if (hash_at(log, *slot - 1, NULL) != hash)
			log->unsure = true;
		return true;
	}
	for (int i = 0; i < 8; i++)
		h[i] = (unsigned char) (hash >> (8 * i));
	wn_buf_append(&log->paths, path, len);
	wn_buf_putc(&log->paths, '\0');
	wn_buf_append(&log->paths, (const char *) h, 8);
	if (wn_buf_failed(&log->paths) || log->paths.len >= UINT32_MAX)
		return false;
	*slot = (uint32_t) off + 1;
	log->n++;
	return true;
}

void wn_readlog_note(const char *path, const struct stat *sb)
{
	if (!watched || !path)
		return;
	if (sb && (!S_ISREG(sb->st_mode) || !file_settled(sb)))
		watched->unsure = true;
	else if (!wn_readlog_add(watched, path, strlen(path), wn_readlog_hash(sb)))
		watched->unsure = true;
}

void wn_readlog_unsure(void)
{
	if (watched)
		watched->unsure = true;
}

const char *wn_readlog_next(const wn_readlog *log, size_t *at, uint64_t *hash)
{
	const char *p;
	size_t n;

	if (*at >= log->paths.len)
		return NULL;
	p = log->paths.data + *at;
	*hash = hash_at(log, *at, &n);
	*at += n + 1 + 8;
	return p;
}

bool wn_readlog_holds(const wn_readlog *log, bool (*gone)(const char *path, void *arg), void *arg)
{
	size_t at = 0;
	uint64_t hash;
	const char *path;

	while ((path = wn_readlog_next(log, &at, &hash))) {
		struct stat sb;

		if (stat(path, &sb) != 0) {
			if (errno != ENOENT || (hash != 0 && !(gone && gone(path, arg))))
				return false;
		} else if (hash != wn_readlog_hash(&sb)) {
			return false;
		}
	}
	return true;
}

void wn_readlog_free(wn_readlog *log)
{
	if (watched == log)
		watched = NULL;
	wn_buf_free(&log->paths);
	free(log->slots);
	memset(log, 0, sizeof(*log));
}
