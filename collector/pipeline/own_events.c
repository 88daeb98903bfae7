// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * own_events.c - ebpf-collect's own events in its traces (own_events.h).
 * Their ids and layouts are part of the trace format readers see
 * (tests/collector.bats, TraceEvent's EventsLost count): they do not change.
 */
#include <string.h>
#include "nettrace_bytes.h"
#include "own_events.h"

static const struct nt_field_desc lost_fields[] = {
	{ .name = "Count", .type = NT_TYPE_UINT32 },
};

const struct nt_event_desc own_events_lost = {
	.provider = OWN_PROVIDER,
	.event_id = 2,
	.name = "EventsLost",
	.level = 3,
	.fields = lost_fields,
	.n_fields = 1,
};

static const struct nt_field_desc summary_fields[] = {
	{ .name = "EventsWritten", .type = NT_TYPE_UINT64 },
	{ .name = "RingbufDrops", .type = NT_TYPE_UINT64 },
	{ .name = "TruncatedPayloads", .type = NT_TYPE_UINT64 },
	{ .name = "TruncatedStacks", .type = NT_TYPE_UINT64 },
	{ .name = "UnreadableMaps", .type = NT_TYPE_UINT64 },
	{ .name = "OtherDrops", .type = NT_TYPE_UINT64 },
};

static const struct nt_event_desc summary_desc = {
	.provider = OWN_PROVIDER,
	.event_id = 1,
	.name = "LossSummary",
	.level = 4,
	.fields = summary_fields,
	.n_fields = 6,
};

const struct nt_last_event *loss_summary__event(struct loss_summary_event *e,
						const struct loss_summary *loss,
						const struct nt_writer *w)
{
	struct nt_buf p = { .data = e->payload, .cap = sizeof(e->payload) };

	nt_put_u64(&p, loss->events_written ? loss->events_written : nt_writer__events(w));
	nt_put_u64(&p, loss->ringbuf_drops);
	nt_put_u64(&p, loss->truncated_payloads);
	nt_put_u64(&p, loss->truncated_stacks);
	nt_put_u64(&p, loss->unreadable_maps);
	nt_put_u64(&p, loss->other_drops);
	e->ev = (struct nt_last_event){ .desc = &summary_desc, .payload = e->payload,
					.payload_size = sizeof(e->payload) };
	return &e->ev;
}

static int kernel_event(const struct nt_metadata *m)
{
	return !strncmp(m->provider, "Linux-Kernel-", 13);
}

const struct nt_split_opts own_split_opts = {
	.host_wide = kernel_event,
	.lost_marker = &own_events_lost,
};
