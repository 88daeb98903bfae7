/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* lib_internal.h - the library's state: its name makes it private to lib/. */
#ifndef FIXTURE_LIB_INTERNAL_H
#define FIXTURE_LIB_INTERNAL_H

#include <stddef.h>

struct lib_state {
	unsigned long long start_ns, end_ns;
	int *values;
	size_t n, cap;
};

#endif
