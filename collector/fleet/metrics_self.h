/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * metrics_self.h - what --metrics says of the collector itself: its build
 * (ebpf_collect_build_info{version}) and the process_* family Prometheus'
 * client libraries expose (CPU, memory, descriptors, start time).
 */
#ifndef EBPF_COLLECT_METRICS_SELF_H
#define EBPF_COLLECT_METRICS_SELF_H

#include <sys/types.h>

struct mbuf;

/*
 * The build_info and process_* families into b.  child: 0 for the
 * collector alone; the daemon passes its running trace, which then counts
 * as part of it (CPU, memory and descriptors summed; the start time and
 * the descriptor limit are the daemon's; the CPU of traces that ended is
 * in the daemon's reaped children's, so the counter never goes back).
 */
void metrics_self__render(struct mbuf *b, pid_t child);

#endif
