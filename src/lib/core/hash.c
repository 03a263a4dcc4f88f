/* winnow — FNV-1a, 64 bit; see hash.h.  A leaf: calls nothing. */
#include "autoconfig.h"

#include <string.h>

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
