// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * grow.c - doubling an array's capacity, overflow-checked.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "grow.h"

int grow_array(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap ? *cap : GROW_FIRST;
	void *p;

	if (need <= *cap)
		return 0;
	while (c < need)
		c = c > SIZE_MAX / 2 ? need : c * 2;
	if (!elem || c > SIZE_MAX / elem)
		return -ENOMEM;
	p = realloc(*arr, c * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = c;
	return 0;
}
