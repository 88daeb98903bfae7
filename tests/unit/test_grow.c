// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_grow.c - common/grow: an empty array gets GROW_FIRST elements, the
 * capacity doubles and keeps what the array held, a need it holds already
 * changes nothing, and a size that would overflow fails with nothing lost.
 */
#include <stdint.h>
#include <stdlib.h>
#include "test.h"
#include "grow.h"

#define N 100000

static void test_first(void)
{
	int *v = NULL;
	size_t cap = 0;

	ASSERT_OK(GROW(v, cap, 0), "need 0");
	ASSERT_TRUE(v == NULL && cap == 0, "nothing allocated for nothing");
	if (!ASSERT_OK(GROW(v, cap, 1), "need 1"))
		return;
	ASSERT_OK_PTR(v, "allocated");
	ASSERT_EQ(cap, GROW_FIRST, "first capacity");
	free(v);
}

/* N appends: every value kept across the moves, the capacity a doubling of
 * GROW_FIRST each time it changed, and it changed only log2(N) times. */
static void test_appends(void)
{
	size_t cap = 0, n, changes = 0, last = 0;
	int *v = NULL, bad = 0;

	for (n = 0; n < N; n++) {
		if (!ASSERT_OK(GROW(v, cap, n + 1), "grow"))
			goto out;
		if (cap != last) {
			bad += last && cap != 2 * last;
			changes++;
			last = cap;
		}
		v[n] = (int)n * 7;
	}
	for (n = 0; n < N; n++)
		bad += v[n] != (int)n * 7;
	ASSERT_EQ(bad, 0, "values or capacities that went wrong");
	ASSERT_TRUE(cap >= N && cap < 2 * N, "capacity within a doubling of the need");
	ASSERT_TRUE(changes <= 14, "reallocations: log2(N / GROW_FIRST) + 1");
out:
	free(v);
}

/* A need far beyond the capacity is met in one call, with the smallest
 * doubling that holds it; a need within it leaves the array alone. */
static void test_jump_and_within(void)
{
	size_t cap = 0;
	char *v = NULL, *before;

	if (!ASSERT_OK(GROW(v, cap, 1000), "jump"))
		return;
	ASSERT_EQ(cap, 1024, "16 doubled to 1024");
	before = v;
	ASSERT_OK(GROW(v, cap, 1024), "need = capacity");
	ASSERT_OK(GROW(v, cap, 3), "smaller need");
	ASSERT_TRUE(v == before && cap == 1024, "unchanged");
	free(v);
}

/* A byte size past SIZE_MAX (or one malloc cannot give) is -ENOMEM, and the
 * array and its capacity are as they were. */
static void test_overflow(void)
{
	uint64_t *v = NULL, *before;
	size_t cap = 0;

	if (!ASSERT_OK(GROW(v, cap, 10), "grow"))
		return;
	v[9] = 42;
	before = v;
	ASSERT_EQ(GROW(v, cap, SIZE_MAX / 4), -ENOMEM, "elements * 8 overflows");
	ASSERT_EQ(GROW(v, cap, SIZE_MAX), -ENOMEM, "SIZE_MAX elements");
	ASSERT_EQ(grow_array((void **)&v, &cap, SIZE_MAX / 2 + 2, 1), -ENOMEM,
		  "no doubling holds it: a byte array that large");
	ASSERT_TRUE(v == before && cap == GROW_FIRST && v[9] == 42, "array kept");
	free(v);
}

int main(void)
{
	RUN(test_first);
	RUN(test_appends);
	RUN(test_jump_and_within);
	RUN(test_overflow);
	return test_summary();
}
