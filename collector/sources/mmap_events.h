/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mmap_events.h - the targets' executable mappings as the kernel makes them
 * (perf MMAP2 records), so a process that execs and exits between two
 * /proc/PID/maps snapshots still has its frames named.  See mmap_events.c.
 */
#ifndef EBPF_COLLECT_MMAP_EVENTS_H
#define EBPF_COLLECT_MMAP_EVENTS_H

#include <stdint.h>
#include <sys/types.h>

struct proc_map;
struct mmap_events;
struct pipeline_source_ops;
struct symbolize;

/* NULL + errno. */
struct mmap_events *mmap_events__new(void);
/* Report the mappings pid (and the children it forks from now on) makes.
 * 0: every thread of pid is covered (tell the symbolizer:
 * symbolize__mappings_reported); 1: only some (out of descriptors), keep
 * the /proc snapshots; -errno (perf_event_open's: ESRCH for a dead pid). */
int mmap_events__add_pid(struct mmap_events *me, pid_t pid);
/* Records the kernel dropped because a buffer was full. */
uint64_t mmap_events__lost(const struct mmap_events *me);
void mmap_events__free(struct mmap_events *me);

/* Pass what the kernel reported since the last call to sz's symbolizer, in
 * the order it reported them per CPU, and on the first lost record tell sz
 * (symbolize__mapping_reports_lost).  0 or -ENOMEM. */
int mmap_events__drain(struct mmap_events *me, struct symbolize *sz);

/* The pipeline's source (pipeline.h), ctx the struct mmap_events: every
 * round of the ring, what the kernel reported since the last one into the
 * pipeline's symbolize (which must be there), in the order it reported
 * them per CPU.  -ENOMEM when the symbolizer cannot take one. */
extern const struct pipeline_source_ops mmap_events_source_ops;

#endif
