/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * own_events.h - ebpf-collect's own events in its traces, described to the
 * nettrace library as any caller describes its events (the library knows
 * none): provider "ebpf-collect", the EventsLost marker that opens a
 * thread whose events were lost before its first one, the LossSummary
 * that ends each file, and what splitting the collector's traces by
 * process must know of its events.
 */
#ifndef EBPF_COLLECT_OWN_EVENTS_H
#define EBPF_COLLECT_OWN_EVENTS_H

#include <stdint.h>
#include "nettrace.h"

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

/* nt_split_by_process of the collector's traces: the kernel events
 * (Linux-Kernel-*, recorded host-wide with --all) give no process a file of
 * its own; the files' lost marker is own_events_lost. */
extern const struct nt_split_opts own_split_opts;

#endif
