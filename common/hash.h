/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The project's hash helpers, for its open-addressing tables (thread and
 * stack tables in the nettrace writer, identity tables in the symbolizer,
 * stack folding in the views).  None of them is stored in a file, so they
 * may change without changing any output.
 */
#ifndef EC_COMMON_HASH_H
#define EC_COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV_SEED 1469598103934665603ULL

/* Finalizer of MurmurHash3: spreads every input bit over the result. */
static inline uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* Combine a running hash with one more value. */
static inline uint64_t hash_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

/* FNV-1a-style over n bytes, continuing from h (start with HASH_FNV_SEED;
 * the tables only need a good spread, not FNV's exact values). */
static inline uint64_t hash_bytes(const void *p, size_t n, uint64_t h)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 1099511628211ULL;
	return h;
}

/* FNV-1a of a NUL-terminated string; NULL hashes like "". */
static inline uint64_t hash_str(const char *s)
{
	uint64_t h = HASH_FNV_SEED;

	while (s && *s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

#endif /* EC_COMMON_HASH_H */
