/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * provider_abi.h - what a tracer finds, reads and writes in a process that
 * runs a usdt-gen provider (usdt/README.md, "Probes" and "Batched mode"):
 * the names of the provider's objects, its pause word, the batched mode's
 * control block and the records of a run its batch probe hands over.
 *
 * The one definition for both sides: usdt-gen writes this file's text into
 * every generated provider (a runtime compiles the provider without this
 * tree, so the text travels with it; usdt/build.mk), and the collector
 * includes it (collector/sources/batch.c, tracer_pause.c).  So it holds
 * C11 with <stddef.h> and <stdint.h> only, and names no generated symbol.
 */
#ifndef USDT_PROVIDER_ABI_H
#define USDT_PROVIDER_ABI_H

#include <stddef.h>
#include <stdint.h>

/* Global symbols of a provider, <prefix><suffix>, found by their suffix
 * (the prefix is usdt-gen's --name). */
#define PROV_PAUSE_SUFFIX	 "_tracer_pause"	/* the pause word */
#define PROV_PAUSE_SITE_SUFFIX	 "_tracer_pause_site"	/* the function a tracer holds it by */
#define PROV_BATCH_CTL_SUFFIX	 "_batch_ctl"		/* struct prov_batch_ctl, then the mask */
#define PROV_BATCH_EVENTS_SUFFIX "_batch_events"	/* "<provider>:<symbol>\0"..., then "\0" */
#define PROV_BATCH_SEMA_SUFFIX	 "_batch_semaphore"	/* the batch probe's semaphore */
/* the probe <prefix>:batch(data, len, tid, first_seq, count) */
#define PROV_BATCH_PROBE	 "batch"

/* The pause word is an unsigned int: the kernel counts in its low 16 bits
 * (a uprobe's reference counter), any nonzero value pauses. */
#define PROV_PAUSE_WORD_SIZE	4

/*
 * Batched mode.  The control block <prefix>_batch_ctl is this head and
 * then n_events mask bytes, one per event in <prefix>_batch_events order:
 * 0 per-event probe, PROV_BATCH_ON batched, | PROV_BATCH_STACK with the
 * user stack the provider walks.
 */
#define PROV_BATCH_MAGIC	0x31435442u	/* "BTC1" */
#define PROV_BATCH_CAP		(60 * 1024)	/* record bytes per thread: the longest run */
#define PROV_BATCH_MAX_FRAMES	127		/* PERF_MAX_STACK_DEPTH's default */
#define PROV_BATCH_FLUSH_NS	20000000L	/* flusher period while a tracer batches */
#define PROV_BATCH_IDLE_NS	500000000L	/* and while none does */

#define PROV_BATCH_ON		1
#define PROV_BATCH_STACK	2

struct prov_batch_ctl {
	uint32_t magic;		/* PROV_BATCH_MAGIC */
	uint32_t n_events;	/* mask bytes after the head */
	uint32_t session;	/* tracer: +1 per session; older records are dropped */
	uint32_t flush_req;	/* tracer: +1 to have every buffer flushed */
	uint32_t flush_done;	/* flusher: flush_req it has answered */
	uint32_t active;	/* tracer: nonzero while it batches */
	uint32_t cap;		/* PROV_BATCH_CAP */
	uint32_t flusher;	/* pid of the process whose flusher thread runs */
};

/*
 * A run: records back to back, each 8-byte aligned: struct prov_batch_rec,
 * the ids its flags announce (16 bytes each), the stack (u64 depth, with
 * PROV_BATCH_DEPTH_CUT set when the walk stopped at PROV_BATCH_MAX_FRAMES,
 * then the return addresses, innermost first), payload_len payload bytes
 * in the manifest layout, zero padding.
 */
#define PROV_BATCH_F_ACTIVITY	0x1		/* the 16-byte activity id follows */
#define PROV_BATCH_F_RELATED	0x2		/* then the related activity id */
#define PROV_BATCH_F_STACK	0x4		/* then the stack */
#define PROV_BATCH_DEPTH_CUT	(1ULL << 32)

struct prov_batch_rec {
	uint64_t timestamp;	/* CLOCK_MONOTONIC ns, the clock of bpf_ktime_get_ns() */
	uint16_t index;		/* into <prefix>_batch_events */
	uint16_t cpu;		/* sched_getcpu() when it fired */
	uint16_t flags;		/* PROV_BATCH_F_* */
	uint16_t payload_len;
};

_Static_assert(sizeof(unsigned int) == PROV_PAUSE_WORD_SIZE, "pause word size");
_Static_assert(sizeof(struct prov_batch_ctl) == 32 &&
	       offsetof(struct prov_batch_ctl, session) == 8 &&
	       offsetof(struct prov_batch_ctl, flush_req) == 12 &&
	       offsetof(struct prov_batch_ctl, flush_done) == 16 &&
	       offsetof(struct prov_batch_ctl, active) == 20 &&
	       offsetof(struct prov_batch_ctl, flusher) == 28, "batch control block layout");
_Static_assert(sizeof(struct prov_batch_rec) == 16 &&
	       offsetof(struct prov_batch_rec, index) == 8 &&
	       offsetof(struct prov_batch_rec, payload_len) == 14, "batch record layout");

#endif /* USDT_PROVIDER_ABI_H */
