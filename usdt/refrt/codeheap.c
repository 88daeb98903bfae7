// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * codeheap.c - the executable memory JIT'd code lives in.
 *
 * One address range of CODEHEAP_RESERVE bytes is reserved PROT_NONE at
 * start-up, so that every piece of JIT code can reach every other with a
 * rel32 call.  It is committed (made RWX) in CODEHEAP_REGION steps as the
 * JIT needs space, which shows up in /proc/PID/maps as anonymous rwx
 * mappings -- what perf and our symbolizer treat as "JIT code, see
 * /tmp/perf-PID.map".
 *
 * Blocks are carved first-fit, lowest address first, in CODE_ALIGN units,
 * and freed blocks are coalesced with free neighbours.  Because the JIT
 * sequence is deterministic and the allocator is address-ordered, code freed
 * by a collectible assembly unload is handed out again, at exactly the same
 * addresses, to the next methods compiled -- the address reuse a symbolizer
 * must resolve by time.  Freed code is filled with int3 so a stale call
 * traps instead of running someone else's instructions.
 *
 * CoreCLR maps its code heap W^X (double-mapped RW/RX views) by default
 * since .NET 7; we use plain RWX anonymous memory, which tools see the same
 * way (anonymous executable memory described by the perf map) and which
 * keeps code patching trivial.  All calls happen under rt->jit_lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "grow.h"
#include "refrt.h"

static struct refrt *rt;	/* the runtime, from this part's init */

#define CODEHEAP_RESERVE (64ul << 20)
#define CODEHEAP_REGION (256ul << 10)

struct block {
	uint32_t off;
	uint32_t size;
	bool free;
};

static uint8_t *heap_base;
static uint64_t heap_committed;
static struct block *blocks;
static int n_blocks;
static size_t cap_blocks;
static uint64_t heap_used;

int codeheap__init(struct refrt *r)
{
	void *p = mmap(NULL, CODEHEAP_RESERVE, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	rt = r;
	if (p == MAP_FAILED)
		return -errno;
	heap_base = p;
	return 0;
}

static int insert_block(int at, struct block b)
{
	if (GROW(blocks, cap_blocks, (size_t)n_blocks + 1))
		return -ENOMEM;
	memmove(&blocks[at + 1], &blocks[at], (n_blocks - at) * sizeof(*blocks));
	blocks[at] = b;
	n_blocks++;
	return 0;
}

static void remove_block(int at)
{
	memmove(&blocks[at], &blocks[at + 1], (n_blocks - at - 1) * sizeof(*blocks));
	n_blocks--;
}

/* commit one more region; extend a trailing free block or append one */
static int grow(void)
{
	uint8_t *r = heap_base + heap_committed;

	if (heap_committed + CODEHEAP_REGION > CODEHEAP_RESERVE)
		return -ENOSPC;
	if (mprotect(r, CODEHEAP_REGION, PROT_READ | PROT_WRITE | PROT_EXEC))
		return -errno;
	memset(r, 0xcc, CODEHEAP_REGION);
	if (n_blocks && blocks[n_blocks - 1].free) {
		blocks[n_blocks - 1].size += CODEHEAP_REGION;
	} else {
		struct block b = { (uint32_t)heap_committed, CODEHEAP_REGION, true };
		int err = insert_block(n_blocks, b);

		if (err)
			return err;
	}
	heap_committed += CODEHEAP_REGION;
	return 0;
}

void *codeheap__alloc(uint32_t size)
{
	uint32_t need = (size + CODE_ALIGN - 1) & ~(uint32_t)(CODE_ALIGN - 1);
	int err;

	if (!need || need > CODEHEAP_REGION) {
		errno = EINVAL;
		return NULL;
	}
	for (;;) {
		for (int i = 0; i < n_blocks; i++) {
			struct block *b = &blocks[i];

			if (!b->free || b->size < need)
				continue;
			if (b->size > need) {
				struct block rest = { b->off + need, b->size - need, true };

				err = insert_block(i + 1, rest);
				if (err) {
					errno = -err;
					return NULL;
				}
				b = &blocks[i];
				b->size = need;
			}
			b->free = false;
			heap_used += need;
			return heap_base + b->off;
		}
		err = grow();
		if (err) {
			errno = -err;
			return NULL;
		}
	}
}

void codeheap__free(void *p)
{
	uint32_t off = (uint32_t)((uint8_t *)p - heap_base);
	int lo = 0, hi = n_blocks - 1, i = -1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (blocks[mid].off == off) {
			i = mid;
			break;
		}
		if (blocks[mid].off < off)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	if (i < 0 || blocks[i].free) {
		pr_warn("codeheap: free of unknown block %p\n", p);
		return;
	}
	memset(p, 0xcc, blocks[i].size);
	heap_used -= blocks[i].size;
	blocks[i].free = true;
	if (i + 1 < n_blocks && blocks[i + 1].free) {
		blocks[i].size += blocks[i + 1].size;
		remove_block(i + 1);
	}
	if (i > 0 && blocks[i - 1].free) {
		blocks[i - 1].size += blocks[i].size;
		remove_block(i);
	}
}

void codeheap__stats(uint64_t *reserved, uint64_t *committed, uint64_t *used)
{
	*reserved = CODEHEAP_RESERVE;
	*committed = heap_committed;
	*used = heap_used;
}
