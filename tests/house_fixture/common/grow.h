/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* grow.h - an array that doubles when full. */
#ifndef FIXTURE_GROW_H
#define FIXTURE_GROW_H

#include <stddef.h>

int grow(void **arr, size_t *cap, size_t elem);

#endif
