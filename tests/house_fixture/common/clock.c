// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* clock.c - the one reading of the monotonic clock (clock.h). */
#include <time.h>
#include "clock.h"

unsigned long long clock__now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}
