/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * index_set.h - "is an entry equal to this one already in my array, and
 * where?" in O(1): a hash set of indexes into an array the caller owns.
 *
 * The caller hashes its entries (common/hash.h) and says when a key equals
 * entry i; the set keeps only (hash, index) pairs, open addressing with
 * linear probing, doubled at half load.  Indexes stay valid when the
 * caller's array is reallocated, so the set can be filled while the array
 * grows.  Used for the manifest's duplicate checks and name lookups, which
 * were quadratic (a 60,000-event manifest took 28 s).
 */
#ifndef EC_COMMON_INDEX_SET_H
#define EC_COMMON_INDEX_SET_H

#include <stddef.h>
#include <stdint.h>

struct index_set {
	struct index_slot {
		uint64_t hash;
		int index;	/* -1: empty */
	} *slots;
	size_t cap, n;		/* cap: 0 or a power of two */
};

/* Does key equal entry i of the caller's array (ctx)?  Non-zero if so. */
typedef int (*index_set_eq_fn)(const void *ctx, const void *key, int i);

/**
 * index_set__find() - the index of an entry equal to key, or -1
 * @s: the set (zero-initialized is an empty set)
 * @hash: key's hash, computed as the entries' were
 * @key, @eq, @ctx: eq(ctx, key, i) compares key with entry i
 */
int index_set__find(const struct index_set *s, uint64_t hash, const void *key,
		    index_set_eq_fn eq, const void *ctx);

/* Add entry index (whose hash is hash; the caller found no equal one).
 * 0 or -ENOMEM. */
int index_set__add(struct index_set *s, uint64_t hash, int index);

/* Forget every entry and the memory (NULL-safe); the set is empty again. */
void index_set__clear(struct index_set *s);

#endif /* EC_COMMON_INDEX_SET_H */
