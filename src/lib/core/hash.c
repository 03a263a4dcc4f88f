/* winnow — FNV-1a, 64 bit; see hash.h.  A leaf: calls nothing. */
#include "autoconfig.h"

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
