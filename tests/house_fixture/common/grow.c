// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* grow.c - an array that doubles when full (grow.h). */
#include <stdlib.h>
#include "grow.h"

int grow(void **arr, size_t *cap, size_t elem)
{
	size_t n = *cap ? *cap * 2 : 16;
	void *p = realloc(*arr, n * elem);

	if (!p)
		return -1;
	*arr = p;
	*cap = n;
	return 0;
}
