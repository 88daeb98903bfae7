// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_batch_run.c - collector/sources/batch_run.c, what both batched paths
 * share: a control block (this process's own, written through /proc as a
 * traced process's is) started, asked to flush, answered and released; a
 * run's records walked, a malformed one refused; sequence gaps counted.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch_run.h"
#include "test.h"

#define N_EVENTS 5

static struct {
	struct prov_batch_ctl h;
	uint8_t mask[N_EVENTS];
} blk = { .h = { .magic = PROV_BATCH_MAGIC, .n_events = N_EVENTS, .cap = PROV_BATCH_CAP } };

static void test_ctl(void)
{
	struct batch_ctl c = { .pid = getpid(), .addr = (uintptr_t)&blk, .n = N_EVENTS };
	const uint8_t mask[N_EVENTS] = { 0, PROV_BATCH_ON, 0, PROV_BATCH_ON | PROV_BATCH_STACK, 0 };
	struct batch_ctl wrong = c;

	wrong.n = N_EVENTS + 1;
	ASSERT_EQ(batch_ctl__start(&wrong, mask), -EPROTO, "another count of events");
	ASSERT_OK(batch_ctl__start(&c, mask), "start");
	ASSERT_MEMEQ(blk.mask, mask, N_EVENTS, "the mask written");
	ASSERT_EQ(blk.h.session, 1, "a new session");
	ASSERT_EQ(blk.h.active, 1, "active");
	ASSERT_FALSE(batch_ctl__pending(&c, true), "no flusher started: nothing to wait for");
	blk.h.flusher = (uint32_t)getpid();
	ASSERT_TRUE(batch_ctl__pending(&c, true), "asked");
	ASSERT_EQ(blk.h.flush_req, 1, "flush_req bumped");
	ASSERT_TRUE(batch_ctl__pending(&c, false), "not answered yet");
	blk.h.flush_done = blk.h.flush_req;
	ASSERT_FALSE(batch_ctl__pending(&c, false), "answered");
	batch_ctl__release(&c);
	ASSERT_EQ(blk.h.active, 0, "released: not active");
	for (int i = 0; i < N_EVENTS; i++)
		ASSERT_EQ(blk.mask[i], 0, "released: mask cleared");
}

/* a record at p: header, the ids of flags, a stack of depth frames, len payload bytes */
static size_t put(uint8_t *p, uint16_t index, uint16_t flags, uint64_t depth, uint16_t len)
{
	struct prov_batch_rec r = { .timestamp = 100 + index, .index = index, .cpu = 1,
				    .flags = flags, .payload_len = len };
	size_t n = sizeof(r);

	memcpy(p, &r, sizeof(r));
	if (flags & PROV_BATCH_F_ACTIVITY)
		memset(p + n, 0xaa, 16), n += 16;
	if (flags & PROV_BATCH_F_STACK) {
		memcpy(p + n, &depth, 8);
		n += 8;
		for (uint32_t i = 0; i < (uint32_t)depth; i++, n += 8)
			memcpy(p + n, &(uint64_t){ 0x1000 + i }, 8);
	}
	memset(p + n, 0x5c, len);
	return (n + len + 7) & ~(size_t)7;
}

static void test_run(void)
{
	static uint64_t buf[128];
	uint8_t *run = (uint8_t *)buf;
	const uint8_t *p = run, *end;
	struct batch_rec r;
	size_t n;

	n = put(run, 3, PROV_BATCH_F_STACK, 2 | PROV_BATCH_DEPTH_CUT, 5);
	n += put(run + n, 1, PROV_BATCH_F_ACTIVITY, 0, 3);
	end = run + n;
	if (!ASSERT_EQ(batch_run__next(&p, end, &r), 1, "first record"))
		return;
	ASSERT_EQ(r.h->index, 3, "its index");
	ASSERT_EQ(r.depth, 2 | PROV_BATCH_DEPTH_CUT, "its depth word");
	ASSERT_EQ(r.frames[1], 0x1001, "its second frame");
	ASSERT_EQ(r.payload[4], 0x5c, "its payload");
	if (!ASSERT_EQ(batch_run__next(&p, end, &r), 1, "second record"))
		return;
	ASSERT_EQ(r.h->index, 1, "its index");
	ASSERT_EQ(r.ids[15], 0xaa, "its activity id");
	ASSERT_EQ(r.h->payload_len, 3, "its payload length");
	ASSERT_EQ(batch_run__next(&p, end, &r), 0, "the end");
	/* cut short, and a depth beyond what a provider walks */
	p = run;
	ASSERT_EQ(batch_run__next(&p, run + 20, &r), -EPROTO, "a record cut short");
	put(run, 0, PROV_BATCH_F_STACK, 0, 0);
	memcpy(run + sizeof(struct prov_batch_rec), &(uint64_t){ PROV_BATCH_MAX_FRAMES + 1 }, 8);
	p = run;
	ASSERT_EQ(batch_run__next(&p, run + sizeof(buf), &r), -EPROTO, "too deep a stack");
}

static void test_seqs(void)
{
	struct batch_seqs *s = calloc(1, sizeof(*s));

	if (!ASSERT_OK_PTR(s, "alloc"))
		return;
	ASSERT_EQ(batch_seqs__check(s, 7, 70, 0, 3), 0, "the first run");
	ASSERT_EQ(batch_seqs__check(s, 7, 70, 3, 4), 0, "the next in sequence");
	ASSERT_EQ(batch_seqs__check(s, 7, 71, 0, 1), 0, "another thread");
	ASSERT_EQ(batch_seqs__check(s, 7, 70, 9, 1), 2, "two records of a lost run");
	ASSERT_EQ(batch_seqs__check(s, 8, 70, 5, 1), 5, "another process, its first five lost");
	free(s);
}

int main(void)
{
	RUN(test_ctl);
	RUN(test_run);
	RUN(test_seqs);
	return test_summary();
}
