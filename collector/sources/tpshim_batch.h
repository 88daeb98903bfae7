/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tpshim_batch.h - the tracepoint shim's batched mode, the tracer's side
 * (usdt/tracepoint_abi.h; usdt/README.md "The tracepoint shim").
 *
 * With --batched, every selected tracepoint of a process traced through
 * the shim (tpshim.h) also gets its spec written into the shim and its
 * mask byte set; the shim's batch site is held by a uprobe whose
 * reference counter is the batched mode's semaphore, which the kernel
 * raises for the uprobe's life.  A call of a batched tracepoint is then
 * written into its thread's buffer in the process and reaches BPF in a
 * run (bpf/tpshim.bpf.c tpshim_batch, CE_REC_TPSHIM_BATCH); each call of
 * a run is rebuilt as the record the per-event probe would have made
 * (struct tps_event, the stack the shim walked) and handed to the same
 * decoding (tpshim.c's), so both paths write the same payloads.
 * Per-event probes stay attached: a call the shim cannot batch (its
 * buffer has no room) goes through them.  Sequence gaps count as lost.
 */
#ifndef EBPF_COLLECT_TPSHIM_BATCH_H
#define EBPF_COLLECT_TPSHIM_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct bpf_program;
struct tpshim_spec;
struct tpshim_table;
struct pipeline;
struct pipeline_source_ops;

struct tps_batch;

/* Before any tracer of pid goes on: a batched mode left set (active, a
 * mask) while its semaphore is 0 is a dead tracer's, inert but misleading
 * (architecture decision 24): cleared, with a one-line warning.  1 when
 * cleared, 0, -errno. */
int tps_batch__repair(pid_t pid, const struct tpshim_table *t);

/* pid's batched mode, from its shim's table t; NULL with errno (ENOTSUP:
 * its shim has none). */
struct tps_batch *tps_batch__new(pid_t pid, const struct tpshim_table *t);

/* Tracepoint index batched by spec sp, with the user stack the shim walks
 * (stack): the spec is written into the process now, the mask byte by
 * tps_batch__start.  0 or -errno. */
int tps_batch__add(struct tps_batch *b, uint32_t index, const struct tpshim_spec *sp, bool stack);

/* The batch site held by prog (the semaphore raised), then the masks in
 * and a new session.  The tracepoints batched (0: none added), -errno. */
int tps_batch__start(struct tps_batch *b, struct bpf_program *prog);

/* Ask for (ask) or wait on every buffer (batch_run.h batch_ctl__pending). */
bool tps_batch__pending(struct tps_batch *b, bool ask);

/* The masks cleared; then the batch site let go (the semaphore lowered). */
void tps_batch__release(struct tps_batch *b);

/* One line: runs, calls, sequence gaps so far (nothing when none batched). */
void tps_batch__print(const struct tps_batch *b, FILE *f);

/* NULL-safe; releases first. */
void tps_batch__free(struct tps_batch *b);

/* A run r (len bytes, CE_REC_TPSHIM_BATCH) of b's process as it leaves
 * the ring: each call, as the struct tps_event the per-event probe would
 * have made, handed to rebuild(ctx, pl, event, its size), in one reorder
 * run.  0, or rebuild's error; a malformed run is cut short and counted. */
struct ce_clr_batch;
struct tps_event;
typedef int (*tps_rebuild_fn)(void *ctx, struct pipeline *pl, const struct tps_event *e,
			      size_t len);
int tps_batch__split(struct tps_batch *b, struct pipeline *pl, const struct ce_clr_batch *r,
		     size_t len, tps_rebuild_fn rebuild, void *ctx);

#endif
