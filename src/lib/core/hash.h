/* winnow — FNV-1a, 64 bit: the one hash of the library (hash.c).
 *
 * Used for hash-table keys (map.c, bots/seen.c), for names that must be
 * stable across runs (the journal's file, forwarding's draft key) and
 * for the finding fingerprint (review.c), which is stored with every
 * verdict: the constants and the byte order below must never change.
 * Not for anything an attacker must not be able to collide. */
#ifndef WINNOW_HASH_H
#define WINNOW_HASH_H

#include <stddef.h>
#include <stdint.h>

#define WN_FNV_BASIS UINT64_C(0xcbf29ce484222325)
#define WN_FNV_PRIME UINT64_C(0x100000001b3)

/* h continued over one byte. */
static inline uint64_t wn_fnv1a_byte(uint64_t h, unsigned char c)
{
	return (h ^ c) * WN_FNV_PRIME;
}

/* FNV-1a, 32 bit, for what already hashed so: bots/summary.c's words,
 * whose matches stay as they were.  Never for something new. */
#define WN_FNV32_BASIS UINT32_C(2166136261)
#define WN_FNV32_PRIME UINT32_C(16777619)

static inline uint32_t wn_fnv1a32_byte(uint32_t h, unsigned char c)
{
	return (h ^ c) * WN_FNV32_PRIME;
}

/* h continued over p[0..n) (start with WN_FNV_BASIS). */
uint64_t wn_fnv1a(uint64_t h, const void *p, size_t n);
/* h continued over the string s up to its NUL; NULL adds nothing. */
uint64_t wn_fnv1a_str(uint64_t h, const char *s);
/* h continued over s and then the byte 0xff, a separator, so that
 * fields ("ab", "c") and ("a", "bc") hash differently. */
uint64_t wn_fnv1a_field(uint64_t h, const char *s);

/* A checksum of p[0..n), eight bytes at a time (FNV-1a's one multiply
 * per byte was 1.7% of a cold listing, over every cache record written
 * and read).  Each step is a bijection of the state for a given word,
 * so two inputs of one length that differ in a single word -- any
 * flipped byte -- never sum the same.  For damage, not for attackers;
 * not stable across versions of winnow: bump the magic of whatever
 * stores it when it changes. */
uint64_t wn_sum64(const void *p, size_t n);

/* A seed no one outside the process knows (the kernel's randomness),
 * never 0, and a hash seeded so, its bits mixed, never 0: for the
 * tables that keep only 64-bit hashes of what they hold (a file's
 * paths read, the facts' ids and keys), whose inputs (from mail) must
 * not be able to aim a collision at a known seed. */
uint64_t wn_hash_seed(void);
uint64_t wn_hash_seeded(uint64_t seed, const void *p, size_t n);

#endif
