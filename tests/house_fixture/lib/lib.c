// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib.c - the fixture's library: times a loop that fills an array (the
 * state is in lib_internal.h; the clock is common/clock.c).
 */
#include <stdlib.h>
#include "clock.h"
#include "grow.h"
#include "lib.h"
#include "lib_internal.h"

int lib__run(int n)
{
	struct lib_state s = { 0 };
	int i, sum = 0;

	s.start_ns = clock__now_ns();
	for (i = 0; i < n; i++) {
		if (s.n == s.cap && grow((void **)&s.values, &s.cap, sizeof(int)))
			break;
		s.values[s.n++] = i;
		sum += i;
	}
	s.end_ns = clock__now_ns();
	free(s.values);
	return s.end_ns >= s.start_ns ? sum : -1;
}
