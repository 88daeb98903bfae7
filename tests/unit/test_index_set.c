// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_index_set.c - common/index_set: finds what was added, by key, across
 * growth and colliding hashes; an empty set finds nothing.
 */
#include <stdlib.h>
#include "test.h"
#include "hash.h"
#include "index_set.h"

#define N 100000

static int same_number(const void *ctx, const void *key, int i)
{
	return ((const int *)ctx)[i] == *(const int *)key;
}

static void test_empty(void)
{
	struct index_set s = { 0 };
	int k = 7;

	ASSERT_EQ(index_set__find(&s, hash64(7), &k, same_number, NULL), -1, "empty set");
	index_set__clear(&s);
	index_set__clear(NULL);
}

/* Every key found at its index after N adds (the set grew many times), and
 * keys never added are not. */
static void test_many(void)
{
	struct index_set s = { 0 };
	int *v = malloc(N * sizeof(*v)), i, k, bad = 0;

	if (!ASSERT_OK_PTR(v, "malloc"))
		return;
	for (i = 0; i < N; i++) {
		v[i] = i * 3;
		if (!ASSERT_OK(index_set__add(&s, hash64((uint64_t)v[i]), i), "add"))
			goto out;
	}
	for (i = 0; i < N; i++) {
		k = i * 3;
		bad += index_set__find(&s, hash64((uint64_t)k), &k, same_number, v) != i;
		k = i * 3 + 1;
		bad += index_set__find(&s, hash64((uint64_t)k), &k, same_number, v) != -1;
	}
	ASSERT_EQ(bad, 0, "lookups that went wrong");
	ASSERT_EQ(s.n, (size_t)N, "entries");
out:
	index_set__clear(&s);
	free(v);
}

/* Entries whose hashes are all equal are told apart by eq. */
static void test_collisions(void)
{
	struct index_set s = { 0 };
	int v[50], i, k, bad = 0;

	for (i = 0; i < 50; i++) {
		v[i] = i;
		index_set__add(&s, 42, i);
	}
	for (i = 0; i < 50; i++) {
		k = i;
		bad += index_set__find(&s, 42, &k, same_number, v) != i;
	}
	k = 50;
	ASSERT_EQ(bad, 0, "lookups that went wrong");
	ASSERT_EQ(index_set__find(&s, 42, &k, same_number, v), -1, "absent key, same hash");
	index_set__clear(&s);
}

int main(void)
{
	RUN(test_empty);
	RUN(test_many);
	RUN(test_collisions);
	return test_summary();
}
