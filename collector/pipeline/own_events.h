/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * own_events.h - ebpf-collect's own events in its traces, described to the
 * nettrace library as any caller describes its events (the library knows
 * none): provider "ebpf-collect", the EventsLost marker that opens a
 * thread whose events were lost before its first one, the LossSummary
 * that ends each file, the ProcessInfo that says who a process of a
 * many-process trace is, and what splitting the collector's traces by
 * process must know of its events.
 */
#ifndef EBPF_COLLECT_OWN_EVENTS_H
#define EBPF_COLLECT_OWN_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include "nettrace.h"
#include "proc_info.h"

#define OWN_PROVIDER	"ebpf-collect"

/* Event 2 "EventsLost" (level 3, UInt32 Count): the writers' lost marker
 * (nt_writer__set_lost_marker). */
extern const struct nt_event_desc own_events_lost;

/* The loss counters of a run (or of one file): the LossSummary's fields. */
struct loss_summary {
	uint64_t events_written;
	uint64_t ringbuf_drops;		/* reserve failures in BPF */
	uint64_t truncated_payloads;
	uint64_t truncated_stacks;
	uint64_t unreadable_maps;
	uint64_t other_drops;
};

/* Event 1 "LossSummary" (level 4, UInt64 EventsWritten, RingbufDrops,
 * TruncatedPayloads, TruncatedStacks, UnreadableMaps, OtherDrops), as the
 * last event of a file (nt_writer__finish, nt_writer__next_file). */
struct loss_summary_event {
	struct nt_last_event ev;
	uint8_t payload[48];
};

/* loss as the LossSummary of the file w is about to end; EventsWritten is
 * w's own count when loss->events_written is 0.  Returns &e->ev. */
const struct nt_last_event *loss_summary__event(struct loss_summary_event *e,
						const struct loss_summary *loss,
						const struct nt_writer *w);

/* Event 3 "ProcessInfo" (level 4: UInt32 ProcessId, UInt32 Selected,
 * String Comm, Exe, Cgroup, Container, Pod), once per process and file of
 * a V6 trace, before its first event, and again at its exec: who the
 * process is
 * (common/proc_info.h) and whether it was selected (a target, or chosen by
 * --comm/--cgroup/--container), which decides whether its CPU samples earn
 * it a file of its own in a split. */
extern const struct nt_event_desc own_process_info;
#define PROCESS_INFO_MAX	(8 + 2 * (PROC_COMM_LEN + 2 * PROC_PATH_LEN + \
					  PROC_CONTAINER_LEN + PROC_POD_LEN))

/* The payload into buf (PROCESS_INFO_MAX bytes); its length. */
size_t process_info__payload(uint8_t *buf, uint32_t pid, int selected,
			     const struct proc_info *pi);

/* nt_split_by_process of the collector's traces: the kernel events
 * (Linux-Kernel-* and Universal.Events cswitch, recorded host-wide with
 * --all) give no process a file of its own; CPU samples (SampleProfiler's
 * and Universal.Events cpu) and the names of their frames give one to the
 * processes their ProcessInfo says were selected (or to every process,
 * with all_processes, own_split_opts_all); files are named by ProcessInfo's
 * Comm; the files' lost marker is own_events_lost. */
extern const struct nt_split_opts own_split_opts, own_split_opts_all;

#endif
