/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * grow.h - room for more elements in an array the caller owns.
 *
 * The capacity doubles, so n appends cost O(n) copies in all; the byte size
 * is checked for overflow before realloc, so a huge count from a hostile
 * input fails with -ENOMEM instead of allocating a wrapped-around size.
 */
#ifndef EC_COMMON_GROW_H
#define EC_COMMON_GROW_H

#include <stddef.h>

/* The capacity of an array's first allocation, in elements. */
#define GROW_FIRST	16

/**
 * grow_array() - make *arr hold at least need elements
 * @arr: the array (NULL when *cap is 0)
 * @cap: its capacity in elements, updated
 * @need: how many elements it must hold
 * @elem: the size of one element (> 0)
 *
 * When need > *cap the capacity doubles from *cap (GROW_FIRST for an empty
 * array) until it holds need.  0, or -ENOMEM with *arr and *cap unchanged.
 */
int grow_array(void **arr, size_t *cap, size_t need, size_t elem);

/* grow_array() on an array lvalue and its size_t capacity, the element size
 * taken from the array's type:  if (GROW(v->items, v->cap, v->n + 1)) ... */
#define GROW(arr, cap, need) grow_array((void **)&(arr), &(cap), (need), sizeof(*(arr)))

#endif /* EC_COMMON_GROW_H */
