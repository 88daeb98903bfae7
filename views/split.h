/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * split.h - one NetTrace V5 file per process of a trace (V6, or V5 with
 * several pids), for readers that know V5 only (PerfView before .NET 10's
 * TraceEvent): DIR/STEM.PID.nettrace, each with its process's events,
 * stacks, names (the per-process method and module events the collector
 * writes into V6) and sequence gaps.  A process gets a file when it has an
 * event of its own beyond the host-wide Linux-Kernel-* ones (--all records
 * every process's fork, exec and exit).  Events of no process (pid 0: the
 * collector's own loss notes and LossSummary) go into every file.
 */
#ifndef EBPF_COLLECT_SPLIT_H
#define EBPF_COLLECT_SPLIT_H

#include <stddef.h>

/* Files written, or -1 with a one-line reason in err. */
int split_by_process(const char *in, const char *dir, char *err, size_t errlen);

#endif
