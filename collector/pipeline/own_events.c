// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * own_events.c - ebpf-collect's own events in its traces (own_events.h).
 * Their ids and layouts are part of the trace format readers see
 * (tests/collector.bats, TraceEvent's EventsLost count): they do not change.
 */
#include <string.h>
#include "nettrace_bytes.h"
#include "utf16.h"
#include "rundown.h"
#include "symbolize.h"
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

static const struct nt_field_desc info_fields[] = {
	{ .name = "ProcessId", .type = NT_TYPE_UINT32 },
	{ .name = "Selected", .type = NT_TYPE_UINT32 },
	{ .name = "Comm", .type = NT_TYPE_STRING },
	{ .name = "Exe", .type = NT_TYPE_STRING },
	{ .name = "Cgroup", .type = NT_TYPE_STRING },
	{ .name = "Container", .type = NT_TYPE_STRING },
	{ .name = "Pod", .type = NT_TYPE_STRING },
};

const struct nt_event_desc own_process_info = {
	.provider = OWN_PROVIDER,
	.event_id = 3,
	.name = "ProcessInfo",
	.level = 4,
	.fields = info_fields,
	.n_fields = 7,
};

static void put_string(struct nt_buf *p, const char *s)
{
	p->len += utf8_to_utf16le(s, strlen(s), p->data + p->len);	/* its NUL too */
}

size_t process_info__payload(uint8_t *buf, uint32_t pid, int selected,
			     const struct proc_info *pi)
{
	struct nt_buf p = { .data = buf, .cap = PROCESS_INFO_MAX };

	nt_put_u32(&p, pid);
	nt_put_u32(&p, selected ? 1 : 0);
	put_string(&p, pi->comm);
	put_string(&p, pi->exe);
	put_string(&p, pi->cgroup);
	put_string(&p, pi->container);
	put_string(&p, pi->pod);
	return p.len;
}

/* TraceEvent knows Universal.Events by name (docs/nettrace-format.md
 * section 10): cpu is a CPU sample, cswitch a switch-in, OffCpu again */
static int universal_event(const struct nt_metadata *m, const char *name)
{
	return !strcmp(m->provider, UNIVERSAL_EVENTS_PROVIDER) && !strcmp(m->name, name);
}

static int kernel_event(const struct nt_metadata *m)
{
	return !strncmp(m->provider, "Linux-Kernel-", 13) || universal_event(m, "cswitch");
}

/* A CPU sample, or a name the collector wrote for a frame of one. */
static int sample_or_name(const struct nt_read_event *ev)
{
	return ev->thread_id == SYMBOLIZE_TID || universal_event(ev->meta, "cpu") ||
	       (ev->meta->event_id == 0 &&
		!strcmp(ev->meta->provider, "Microsoft-DotNETCore-SampleProfiler"));
}

static int process_info(const struct nt_read_event *ev, char *name, size_t len, int *selected)
{
	const uint8_t *p = ev->payload;

	if (ev->meta->event_id != 3 || strcmp(ev->meta->provider, OWN_PROVIDER) ||
	    ev->payload_size < 10)
		return 0;
	*selected = nt_get_u32(p + 4) != 0;
	if (nt_payload_string(ev->meta, p, ev->payload_size, "Comm", name, len))
		name[0] = '\0';
	return 1;
}

const struct nt_split_opts own_split_opts = {
	.host_wide = kernel_event,
	.weak = sample_or_name,
	.process_info = process_info,
	.lost_marker = &own_events_lost,
};

const struct nt_split_opts own_split_opts_all = {
	.host_wide = kernel_event,
	.process_info = process_info,
	.lost_marker = &own_events_lost,
};
