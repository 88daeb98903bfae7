/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * batch_run.h - what both batched paths (batch.h: a usdt-gen provider's;
 * tpshim_batch.h: the tracepoint shim's) do with a process's batched mode
 * (usdt/provider_abi.h, usdt/batch_runtime.c.in): its control block in the
 * process (the mask and a session written, a flush asked for and waited
 * on, the mask cleared), a run's records walked one by one, and each
 * thread's sequence numbers checked for runs that never arrived.
 */
#ifndef EBPF_COLLECT_BATCH_RUN_H
#define EBPF_COLLECT_BATCH_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "provider_abi.h"

/* ------------------------------------------------------------ control block */

/* One process's control block at addr, of n mask bytes. */
struct batch_ctl {
	pid_t pid;
	uint64_t addr;
	uint32_t n;
	uint32_t flush_req;	/* the last asked for */
	bool written, released, asked;
};

/* The mask (n bytes) into the process, a new session, active.  0;
 * -EPROTO when addr holds no control block of n events; -errno. */
int batch_ctl__start(struct batch_ctl *b, const uint8_t *mask);

/* Ask (ask) for every buffer, or see whether the ask was answered:
 * true while it waits for this process.  A process gone, or whose
 * flusher never started (it batched nothing), is not waited for. */
bool batch_ctl__pending(struct batch_ctl *b, bool ask);

/* The end of a trace: ask every process pending(ctx, true) asks for its
 * buffers, and read the ring (p) until pending(ctx, false) says all have
 * answered, BATCH_FLUSH_WAIT_NS at most.  0; 1 when some did not answer
 * in time (their pending() still says so); -errno of the pipeline. */
struct pipeline;
#define BATCH_FLUSH_WAIT_NS (1000 * 1000000ULL)
int batch_ctl__wait(bool (*pending)(void *ctx, bool ask), void *ctx, struct pipeline *p);

/* Mask cleared, not active: every event back on its probe. */
void batch_ctl__release(struct batch_ctl *b);

/* ------------------------------------------------------------ runs */

/* One record of a run. */
struct batch_rec {
	const struct prov_batch_rec *h;
	const uint8_t *ids;		/* the ids h->flags announce, 16 bytes each */
	const uint64_t *frames;		/* (uint32_t)depth return addresses */
	uint64_t depth;			/* PROV_BATCH_DEPTH_CUT when cut */
	const uint8_t *payload;		/* h->payload_len bytes */
};

/* The record at *p of a run that ends at end: 1 (r filled, *p past it),
 * 0 at the end, -EPROTO when what is left is not a whole record. */
int batch_run__next(const uint8_t **p, const uint8_t *end, struct batch_rec *r);

/* Each thread's next sequence number, open addressing. */
#define BATCH_SEQ_SLOTS 8192
struct batch_seqs {
	struct {
		uint64_t key;	/* pid << 32 | tid | 1 << 63; 0 free */
		uint32_t next;
	} slot[BATCH_SEQ_SLOTS];
};

/* A run of count records from first of (pid, tid): the records missing
 * before it (runs that were lost).  A full table stops checking new threads. */
uint64_t batch_seqs__check(struct batch_seqs *s, uint32_t pid, uint32_t tid, uint32_t first,
			   uint32_t count);

#endif
