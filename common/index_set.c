// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * index_set.c - a hash set of indexes into the caller's array (index_set.h).
 */
#include <errno.h>
#include <stdlib.h>
#include "index_set.h"

int index_set__find(const struct index_set *s, uint64_t hash, const void *key,
		    index_set_eq_fn eq, const void *ctx)
{
	size_t mask, k;

	if (!s->cap)
		return -1;
	mask = s->cap - 1;
	for (k = hash & mask; s->slots[k].index >= 0; k = (k + 1) & mask)
		if (s->slots[k].hash == hash && eq(ctx, key, s->slots[k].index))
			return s->slots[k].index;
	return -1;
}

static void put(struct index_slot *slots, size_t cap, uint64_t hash, int index)
{
	size_t k = hash & (cap - 1);

	while (slots[k].index >= 0)
		k = (k + 1) & (cap - 1);
	slots[k].hash = hash;
	slots[k].index = index;
}

static int grow(struct index_set *s)
{
	size_t cap = s->cap ? s->cap * 2 : 64, i;
	struct index_slot *slots = malloc(cap * sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < cap; i++)
		slots[i].index = -1;
	for (i = 0; i < s->cap; i++)
		if (s->slots[i].index >= 0)
			put(slots, cap, s->slots[i].hash, s->slots[i].index);
	free(s->slots);
	s->slots = slots;
	s->cap = cap;
	return 0;
}

int index_set__add(struct index_set *s, uint64_t hash, int index)
{
	if ((s->n + 1) * 2 > s->cap && grow(s))
		return -ENOMEM;
	put(s->slots, s->cap, hash, index);
	s->n++;
	return 0;
}

void index_set__clear(struct index_set *s)
{
	if (!s)
		return;
	free(s->slots);
	s->slots = NULL;
	s->cap = s->n = 0;
}
