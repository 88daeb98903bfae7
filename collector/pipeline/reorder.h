/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * reorder.h - a timestamp-ordered holding area for ring-buffer records.
 *
 * The BPF ring buffer is one ring shared by all CPUs, ordered by when each
 * record was committed, not by its timestamp: a producer preempted between
 * bpf_ktime_get_ns() and its commit lands behind later records.  The
 * collector pushes every record here and pops those older than "now minus
 * a window" after each poll, so the file is written in timestamp order.
 * Records that arrive after their slot was emitted are still emitted (the
 * writer then starts a new, unsorted block) and counted as late.
 */
#ifndef EBPF_COLLECT_REORDER_H
#define EBPF_COLLECT_REORDER_H

#include <stddef.h>
#include <stdint.h>

struct reorder;

typedef int (*reorder_fn)(void *ctx, const void *rec, size_t len);

struct reorder *reorder__new(void);			/* NULL + errno */
void reorder__free(struct reorder *r);			/* NULL-safe */
/* Copy a record in.  0 or -ENOMEM. */
int reorder__push(struct reorder *r, uint64_t ts, const void *rec, size_t len);
/* Room for a record of len bytes the caller writes (valid until the next
 * pop); NULL + ENOMEM. */
void *reorder__alloc(struct reorder *r, uint64_t ts, size_t len);
/* Records pushed between these two are one run (one thread's batched
 * events, an EventPipe block): appended as they come, then sorted if they
 * were out of order and merged into place in one pass, instead of each
 * moving back past the newer records of other runs. */
void reorder__run_begin(struct reorder *r);
void reorder__run_end(struct reorder *r);
/* Hand every record with ts < cutoff to fn, oldest first (ties in push
 * order).  Stops at the first non-zero return of fn and returns it. */
int reorder__pop_before(struct reorder *r, uint64_t cutoff, reorder_fn fn, void *ctx);
size_t reorder__count(const struct reorder *r);
size_t reorder__bytes(const struct reorder *r);
uint64_t reorder__late(const struct reorder *r);	/* records older than an emitted one */

#endif
