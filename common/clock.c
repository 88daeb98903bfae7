// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * clock.c - CLOCK_MONOTONIC in ns and ms, and what is left of a deadline.
 */
#include <limits.h>
#include <time.h>
#include "clock.h"

uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t mono_ms(void)
{
	return mono_ns() / 1000000;
}

int mono_ms_left(uint64_t deadline_ms)
{
	uint64_t now = mono_ms();

	if (now >= deadline_ms)
		return 0;
	return deadline_ms - now > INT_MAX ? INT_MAX : (int)(deadline_ms - now);
}
