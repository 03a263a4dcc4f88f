/* winnow — FNV-1a, 64 bit; see hash.h.  A leaf: calls nothing but libc. */
#include "autoconfig.h"

#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "hash.h"

uint64_t wn_fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++)
		h = wn_fnv1a_byte(h, s[i]);
	return h;
}

uint64_t wn_fnv1a_str(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = wn_fnv1a_byte(h, (unsigned char) *s);
	return h;
}

uint64_t wn_fnv1a_field(uint64_t h, const char *s)
{
	return wn_fnv1a_byte(wn_fnv1a_str(h, s), 0xff);
}

uint64_t wn_sum64(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = WN_FNV_BASIS ^ n;	/* the length: tails of zeros differ */
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		/* Byte order of the machine: the file is the machine's own
		 * cache, and its key (the binary) changes with the machine. */
		memcpy(&w, s + i, 8);
		h = (h ^ w) * WN_FNV_PRIME;
		h ^= h >> 29;
	}
	if (i < n) {
		uint64_t w = 0;	/* the last bytes, zeros after them */

		memcpy(&w, s + i, n - i);
		h = (h ^ w) * WN_FNV_PRIME;
		h ^= h >> 29;
	}
	return h;
}

uint64_t wn_hash_seed(void)
{
	uint64_t v = 0;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != (ssize_t) sizeof(v))
		v = (uint64_t) time(NULL) * WN_FNV_PRIME ^ (uint64_t) getpid() ^ (uintptr_t) &v;
	return v ? v : WN_FNV_BASIS;
}

uint64_t wn_hash_seeded(uint64_t seed, const void *p, size_t n)
{
	uint64_t h = wn_fnv1a(seed, p, n);

	/* The bits mixed: the tables take the low ones. */
	h ^= h >> 31;
	h *= UINT64_C(0x9e3779b97f4a7c15);
	h ^= h >> 29;
	return h ? h : 1;
}
