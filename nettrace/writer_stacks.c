// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * writer_stacks.c - the nettrace writer's distinct stacks: each stack of a
 * sequence-point region goes once into the pending StackBlock and gets an
 * id there; events refer to it by id.  A small cache of recent stacks finds
 * most repeats without hashing the whole stack, a hash table the rest.
 * The region is bounded (NT_MAX_STACKS stacks, NT_MAX_STACK_BYTES of
 * addresses): the event writer asks wr_stack_room before adding one and
 * writes a sequence point or the pending blocks first when told to.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nettrace_internal.h"

/* Odd multipliers, one per position in 32 (splitmix64 outputs | 1). */
static const uint64_t stack_k[32] = {
	0x2cb0f69f4abea221ULL, 0x9417034723148989ULL, 0xdd555950609dfe03ULL,
	0xdbafb150deb12801ULL, 0x7e789b2e6c442cb7ULL, 0xf41e5636c7e4f8c5ULL,
	0x0959d150f8fba7e5ULL, 0xa97316f13cdb9eebULL, 0x74cd8258f9520069ULL,
	0x55c74a62e116868bULL, 0xd2f4c799a2023cbdULL, 0xdf98cb79a37b51b9ULL,
	0x396f5885524f3905ULL, 0xaf1d56386ca3b277ULL, 0xa9ffbe6b5104e85bULL,
	0x6bd0c51b9fd533b3ULL, 0x980ce91c50ab4b57ULL, 0x28ac395780fe62c5ULL,
	0x768912e3a6bcedc7ULL, 0x50b3e8c9332c7c89ULL, 0xce3bbfe520bd47dbULL,
	0xcba6c8e8e0bb7c4fULL, 0xbf194db8434a346dULL, 0x7d8f2a7b60416d7fULL,
	0x0849d1f6e0e10a5fULL, 0x7654b590d064e22fULL, 0x16d1da9507df3af3ULL,
	0xf63aef1089ea30e5ULL, 0x9ade6673cc6c522bULL, 0x4c75bc274e37087dULL,
	0xd35e12b49f51f27bULL, 0x22ddf2ffcee481ebULL,
};

/*
 * The dedup table's hash of a stack (never written to a file): the sum of
 * each address times an odd multiplier of its position (+2 per 32 frames),
 * in four lanes, then hash64.  The multiplies do not depend on each other
 * and a lane's chain is one add, so the loop runs at the multiplier's
 * throughput (a multiply-shift chain per address was a third of the
 * writer's time).  Two stacks collide only when their differences cancel
 * exactly under the multipliers; stack_equal confirms every match.
 */
static uint64_t stack_hash(const uint64_t *ips, uint32_t n, uint32_t psize)
{
	uint64_t a = n, b = 0, c = 0, d = 0, mask = psize == 4 ? 0xffffffffULL : ~0ULL;
	uint32_t i;

	for (i = 0; i + 3 < n; i += 4) {
		const uint64_t *k = &stack_k[i & 31];
		uint64_t z = (uint64_t)(i >> 5) << 1;

		a += (ips[i] & mask) * (k[0] + z);
		b += (ips[i + 1] & mask) * (k[1] + z);
		c += (ips[i + 2] & mask) * (k[2] + z);
		d += (ips[i + 3] & mask) * (k[3] + z);
	}
	for (; i < n; i++)
		a += (ips[i] & mask) * (stack_k[i & 31] + ((uint64_t)(i >> 5) << 1));
	return hash64(a ^ (b << 16 | b >> 48) ^ (c << 32 | c >> 32) ^ (d << 48 | d >> 16));
}

static int stack_equal(const struct nt_writer *w, size_t off, uint32_t depth,
		       const uint64_t *ips, uint32_t n)
{
	const uint64_t *a = w->stack_arena + off;

	if (depth != n)
		return 0;
	if (w->info.pointer_size == 8)
		return !memcmp(a, ips, (size_t)n * 8);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t x = ips[i];

		if (w->info.pointer_size == 4)
			x = (uint32_t)x;
		if (a[i] != x)
			return 0;
	}
	return 1;
}

static int stab_grow(struct nt_writer *w)
{
	uint32_t ncap = w->stab_cap ? w->stab_cap * 2 : 1024;
	struct nt_stack_ent *n = calloc(ncap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (uint32_t i = 0; i < w->stab_cap; i++) {
		uint32_t j;

		if (!w->stab[i].id)
			continue;
		for (j = w->stab[i].hash & (ncap - 1); n[j].id; j = (j + 1) & (ncap - 1))
			;
		n[j] = w->stab[i];
	}
	free(w->stab);
	w->stab = n;
	w->stab_cap = ncap;
	return 0;
}

/*
 * The id of this stack in the current SP region: the recent-stacks cache
 * (the event writer looks there first itself for 8-byte pointers), else the
 * table, which the cache slot then points to.  Not found: 0, with the
 * stack's hash for wr_stack_add.
 */
int wr_stack_find(struct nt_writer *w, const uint64_t *ips, uint32_t n, uint32_t *id,
		  uint64_t *hash)
{
	struct nt_stack_hot *c = wr_stack_hot(w, ips, n);
	uint64_t h;
	uint32_t i;

	if (c->id && c->depth == n && c->first == ips[0] && c->last == ips[n - 1] &&
	    stack_equal(w, c->off, n, ips, n)) {
		*id = c->id;
		return 1;
	}
	h = stack_hash(ips, n, w->info.pointer_size);
	*hash = h;
	if (!w->stab_cap)
		return 0;
	for (i = h & (w->stab_cap - 1); w->stab[i].id; i = (i + 1) & (w->stab_cap - 1)) {
		const struct nt_stack_ent *e = &w->stab[i];

		if (e->hash == h && stack_equal(w, e->off, e->depth, ips, n)) {
			*c = (struct nt_stack_hot){ .first = ips[0], .last = ips[n - 1],
						    .off = e->off, .depth = n, .id = e->id };
			*id = e->id;
			return 1;
		}
	}
	return 0;
}

/* A new stack keeps the region bounded (a sequence point starts a new one)
 * and the pending StackBlock within a block. */
int wr_stack_room(const struct nt_writer *w, uint32_t n)
{
	size_t bytes = (size_t)n * w->info.pointer_size;

	if (w->stab_used >= NT_MAX_STACKS || (w->arena_len + n) * 8 > NT_MAX_STACK_BYTES)
		return WR_ROOM_SP;
	if (w->stacks_count && w->stacks.len + 4 + bytes > NT_BLOCK_CAP)
		return WR_ROOM_FLUSH;
	return WR_ROOM_OK;
}

int wr_stack_add(struct nt_writer *w, const uint64_t *ips, uint32_t n, uint64_t h,
		 uint32_t *id)
{
	uint32_t psize = w->info.pointer_size;
	size_t bytes = (size_t)n * psize;
	struct nt_stack_ent *e;
	uint32_t i;
	int err;

	if ((w->stab_used + 1) * 2 > w->stab_cap && (err = stab_grow(w)))
		return err;
	if (w->arena_len + n > w->arena_cap) {
		size_t ncap = w->arena_cap ? w->arena_cap : 4096;
		uint64_t *p;

		while (ncap < w->arena_len + n)
			ncap *= 2;
		p = realloc(w->stack_arena, ncap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		w->stack_arena = p;
		w->arena_cap = ncap;
	}
	if (nt_buf__reserve(&w->stacks, 4 + bytes))
		return -ENOMEM;
	if (!w->stacks_count)
		w->stacks_first_id = w->next_stack_id;
	nt_put_u32(&w->stacks, bytes);
	for (i = 0; i < n; i++) {
		uint64_t x = psize == 4 ? (uint32_t)ips[i] : ips[i];

		if (psize == 4)
			nt_put_u32(&w->stacks, x);
		else
			nt_put_u64(&w->stacks, x);
		w->stack_arena[w->arena_len + i] = x;
	}
	w->stacks_count++;
	for (i = h & (w->stab_cap - 1); w->stab[i].id; i = (i + 1) & (w->stab_cap - 1))
		;
	e = &w->stab[i];
	e->hash = h;
	e->off = w->arena_len;
	e->depth = n;
	e->id = w->next_stack_id++;
	w->arena_len += n;
	w->stab_used++;
	*wr_stack_hot(w, ips, n) = (struct nt_stack_hot){ .first = ips[0], .last = ips[n - 1],
							  .off = e->off, .depth = n, .id = e->id };
	*id = e->id;
	return 0;
}

/* A new region or a new file: the stacks written so far are forgotten and
 * stack ids restart at 1. */
void wr_forget_stacks(struct nt_writer *w)
{
	if (w->stab_cap)
		memset(w->stab, 0, w->stab_cap * sizeof(*w->stab));
	w->stab_used = 0;
	w->arena_len = 0;
	memset(w->hot, 0, sizeof(w->hot));
	w->next_stack_id = 1;
	w->stacks_first_id = 1;
}
