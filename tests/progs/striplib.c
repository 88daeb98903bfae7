// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * striplib.c - libstriplib.so, a shared library shipped stripped
 * (tests/native_names.bats): its busy functions are static, so the file
 * keeps no symbol for them, only their unwind-table entries; the one
 * exported function stays in .dynsym.  The build keeps the debug file
 * aside (tests/progs/build.mk), for the tests that find symbols by build id.
 */
#include <stdint.h>
#include <time.h>

#define BUSY __attribute__((noinline, noclone))

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static BUSY uint64_t striplib_spin_a(uint64_t n)
{
	volatile uint64_t x = 0;

	for (uint64_t i = 0; i < n; i++)
		x += i * 3;
	return x;
}

static BUSY uint64_t striplib_spin_b(uint64_t n)
{
	volatile uint64_t x = 1;

	for (uint64_t i = 0; i < n; i++)
		x ^= i << 1;
	return x;
}

static BUSY uint64_t striplib_spin_c(uint64_t n)
{
	volatile uint64_t x = 2;

	for (uint64_t i = 0; i < n; i++)
		x += x >> 3 | i;
	return x;
}

/* Spin in the three functions in turn for ms milliseconds. */
uint64_t striplib_run(unsigned int ms)
{
	uint64_t end = now_ms() + ms, sum = 0;

	while (now_ms() < end)
		sum += striplib_spin_a(200000) + striplib_spin_b(200000) + striplib_spin_c(200000);
	return sum;
}
