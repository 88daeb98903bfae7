/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * batch.h - the batched in-process path of a usdt-gen provider.
 *
 * For the events it batches, the collector sets their bytes in the
 * provider's <prefix>_batch_ctl.mask (written into the process as the
 * pause word is) and still attaches their probes, which raises their
 * semaphores: the provider then writes those events into per-thread
 * buffers and hands them over in runs through its one <prefix>:batch
 * probe (usdt/batch_runtime.c.in; the layout both sides share is
 * usdt/provider_abi.h).  A run arrives as one CE_REC_CLR_BATCH
 * record; batch_source_ops turns it back into the CE_REC_CLR_EVENT records
 * the per-event probe would have made (the user stack the provider walked,
 * if asked), with the provider's timestamps, and checks each thread's
 * sequence numbers.
 *
 * Which events: --batched every selected one (none with kernel stacks); by
 * default those of the high-rate heap keywords alone, without stacks.
 */
#ifndef EBPF_COLLECT_BATCH_H
#define EBPF_COLLECT_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct clr_source;
struct pipeline;
struct pipeline_source_ops;

enum batch_mode { BATCH_AUTO = 0, BATCH_ALL, BATCH_OFF };

/* After the probes of one provider file went in for pid: if the file has
 * the batched mode and some of its events are wanted, attach its batch
 * probe and write the mask (now, or once the file is mapped: batch__tick).
 * Returns events batched, 0, or -ENOMEM. */
int batch__attach_file(struct clr_source *c, pid_t pid, const char *path,
		       const char *open_path, dev_t dev, ino_t ino, const char *prefix);

/* The pipeline's source of CE_REC_CLR_BATCH (pipeline.h): a run as it
 * leaves the ring, each of its events into the reorder buffer (0, or
 * -ENOMEM).  ctx the struct clr_source. */
extern const struct pipeline_source_ops batch_source_ops;

/* Write masks that were waiting for their file to be mapped. */
void batch__tick(struct clr_source *c);

/* The end: have every thread's buffer handed over (the providers are
 * paused), reading the ring meanwhile; then, after the detach, clear the
 * masks (batch__release). */
int batch__flush(struct clr_source *c, struct pipeline *p);
void batch__release(struct clr_source *c);

/* Have batched runs arrived?  Then the reorder window must cover a quiet
 * thread's hand-over delay (BATCH_REORDER_WINDOW_NS); until then the
 * shorter one keeps trigger dumps prompt. */
bool batch__flowing(const struct clr_source *c);

/* One line for the summary (runs, events, losses, sequence gaps);
 * batch_drops: the BPF counter of events in runs the ring could not take. */
void batch__print(const struct clr_source *c, uint64_t batch_drops);

void batch__free(struct clr_source *c);

#endif
