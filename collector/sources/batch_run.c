// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * batch_run.c - a process's batched mode seen from the tracer
 * (batch_run.h): its control block, its runs, their sequence numbers.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "batch_run.h"
#include "clock.h"
#include "pipeline.h"
#include "proc_mem.h"

/* the flusher answers within its period (PROV_BATCH_FLUSH_NS while a
 * tracer batches, PROV_BATCH_IDLE_NS before it has seen one) */
_Static_assert(BATCH_FLUSH_WAIT_NS > PROV_BATCH_IDLE_NS, "a flusher's idle period is waited for");

#define CTL_HEAD	sizeof(struct prov_batch_ctl)	/* bytes before the mask */
#define CTL_AT(field)	offsetof(struct prov_batch_ctl, field)

int batch_ctl__start(struct batch_ctl *b, const uint8_t *mask)
{
	struct prov_batch_ctl h;
	int err;

	err = proc_mem_rw(b->pid, b->addr, &h, sizeof(h), false);
	if (err)
		return err;
	if (h.magic != PROV_BATCH_MAGIC || h.n_events != b->n)
		return -EPROTO;
	err = proc_mem_rw(b->pid, b->addr + CTL_HEAD, (void *)mask, b->n, true);
	h.session++;
	h.active = 1;
	if (!err)
		err = proc_mem_rw(b->pid, b->addr + CTL_AT(session), &h.session, 4, true);
	if (!err)
		err = proc_mem_rw(b->pid, b->addr + CTL_AT(active), &h.active, 4, true);
	b->flush_req = h.flush_req;
	b->written = !err;
	return err;
}

static bool ask(struct batch_ctl *b)
{
	struct prov_batch_ctl h;

	b->asked = false;
	if (proc_mem_rw(b->pid, b->addr, &h, sizeof(h), false)) {
		b->released = true;	/* gone */
		return false;
	}
	/* no flusher in this process: it never batched an event, so it has
	 * no buffers to hand over */
	if (h.flusher != (uint32_t)b->pid)
		return false;
	b->flush_req = h.flush_req + 1;
	if (proc_mem_rw(b->pid, b->addr + CTL_AT(flush_req), &b->flush_req, 4, true))
		b->released = true;
	b->asked = !b->released;
	return b->asked;
}

bool batch_ctl__pending(struct batch_ctl *b, bool asking)
{
	uint32_t v;

	if (asking)
		b->asked = false;
	if (!b->written || b->released || (!asking && !b->asked))
		return false;
	if (asking)
		return ask(b);
	if (proc_mem_rw(b->pid, b->addr + CTL_AT(flush_done), &v, 4, false))
		b->released = true;	/* gone: its exit handed the buffers over */
	else if (v == b->flush_req)
		b->asked = false;	/* answered */
	return b->asked && !b->released;
}

int batch_ctl__wait(bool (*pending)(void *ctx, bool ask), void *ctx, struct pipeline *p)
{
	uint64_t deadline;
	int err = 0;

	if (!pending(ctx, true))
		return 0;
	deadline = mono_ns() + BATCH_FLUSH_WAIT_NS;
	while (!err && pending(ctx, false)) {
		err = pipeline__step(p, 5, UINT64_MAX);	/* nothing popped yet */
		if (!err && mono_ns() > deadline)
			return 1;
	}
	return err;
}

void batch_ctl__release(struct batch_ctl *b)
{
	uint32_t zero = 0;
	uint8_t *off;

	if (!b->written || b->released)
		return;
	off = calloc(b->n, 1);
	if (off)
		proc_mem_rw(b->pid, b->addr + CTL_HEAD, off, b->n, true);
	proc_mem_rw(b->pid, b->addr + CTL_AT(active), &zero, 4, true);
	free(off);
	b->released = true;
}

int batch_run__next(const uint8_t **p, const uint8_t *end, struct batch_rec *r)
{
	const uint8_t *at = *p, *st;
	uint32_t ids, stack = 0, size;

	if (at == end)
		return 0;
	if (end - at < (long)sizeof(struct prov_batch_rec))
		return -EPROTO;
	memset(r, 0, sizeof(*r));
	r->h = (const void *)at;
	ids = (r->h->flags & PROV_BATCH_F_ACTIVITY ? 16 : 0) +
	      (r->h->flags & PROV_BATCH_F_RELATED ? 16 : 0);
	r->ids = at + sizeof(*r->h);
	st = r->ids + ids;
	if (r->h->flags & PROV_BATCH_F_STACK) {
		if (end - st < 8)
			return -EPROTO;
		memcpy(&r->depth, st, 8);
		if ((uint32_t)r->depth > PROV_BATCH_MAX_FRAMES)
			return -EPROTO;
		stack = 8 + 8 * (uint32_t)r->depth;
		r->frames = (const uint64_t *)(st + 8);
	}
	r->payload = st + stack;
	size = (sizeof(*r->h) + ids + stack + r->h->payload_len + 7) & ~7u;
	if (size > end - at)
		return -EPROTO;
	*p = at + size;
	return 1;
}

uint64_t batch_seqs__check(struct batch_seqs *s, uint32_t pid, uint32_t tid, uint32_t first,
			   uint32_t count)
{
	uint64_t key = (uint64_t)pid << 32 | tid | 1ULL << 63, gap = 0;
	uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ULL) >> 51) % BATCH_SEQ_SLOTS, i;

	for (i = 0; i < BATCH_SEQ_SLOTS; i++, h = (h + 1) % BATCH_SEQ_SLOTS) {
		if (s->slot[h].key == key)
			break;
		if (!s->slot[h].key) {
			s->slot[h].key = key;
			break;
		}
	}
	if (i == BATCH_SEQ_SLOTS)
		return 0;	/* full: sequence checks stop for new threads */
	if (first > s->slot[h].next)
		gap = first - s->slot[h].next;
	s->slot[h].next = first + count;
	return gap;
}
