// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bench_floor.bpf.c - the floor of the side-by-side bench: the
 * least a USDT + BPF tracer can do per event and still deliver the payload.
 *
 * It reads the probe's payload pointer and length (arg0/arg1, the generated
 * provider's convention, usdt/README.md), reserves a record in the ring
 * buffer, copies the payload into it and submits it with BPF_RB_NO_WAKEUP
 * (batched wakeups, architecture decision 13: the consumer polls).  No
 * stacks, no activity ids, no tgid filter beyond libbpf's per-pid attach,
 * no per-CPU scratch: bpf_ringbuf_reserve() needs a size the verifier knows,
 * so payloads go into one of two size classes (64 B, 1 KiB), which are the
 * bench's two payload sizes; anything larger is counted and not copied.
 * A failed reserve is counted (drops), as a real tracer must.
 *
 * targ_extra (bench_floor -X MASK, default 0 = the floor) adds, one by one,
 * work that ebpf-collect's program does per event, to attribute the gap:
 *   1 bpf_ktime_get_ns() timestamp     2 pid/tid and CPU number
 *   4 usdt args 2/3 (activity ids)    8 bpf_ringbuf_query() (wakeup policy)
 */
#include "vmlinux.h"

#define BPF_USDT_MAX_SPEC_CNT	1024
#define BPF_USDT_MAX_IP_CNT	1024

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/usdt.bpf.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

const volatile __u32 targ_extra = 0;

#define FLOOR_SMALL	64
#define FLOOR_LARGE	1024

struct floor_hdr {
	__u64 cookie;
	__u64 ts;
	__u64 pid_tgid;
	__u64 act, rel;
	__u32 len;
	__u32 cpu;
};

struct floor_small {
	struct floor_hdr hdr;
	__u8 data[FLOOR_SMALL];
};

struct floor_large {
	struct floor_hdr hdr;
	__u8 data[FLOOR_LARGE];
};

/* per-CPU: [0] submitted, [1] ring full, [2] payload over 1 KiB, [3] read faults */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} floor_counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 << 20);		/* resized by the loader */
} floor_rb SEC(".maps");

static __always_inline void count(__u32 which)
{
	__u64 *v = bpf_map_lookup_elem(&floor_counters, &which);

	if (v)
		(*v)++;
}

static __always_inline void fill_extra(struct pt_regs *ctx, struct floor_hdr *h)
{
	long v;

	h->ts = targ_extra & 1 ? bpf_ktime_get_ns() : 0;
	h->pid_tgid = targ_extra & 2 ? bpf_get_current_pid_tgid() : 0;
	h->cpu = targ_extra & 2 ? bpf_get_smp_processor_id() : 0;
	h->act = h->rel = 0;
	if (targ_extra & 4) {
		if (!bpf_usdt_arg(ctx, 2, &v))
			h->act = v;
		if (!bpf_usdt_arg(ctx, 3, &v))
			h->rel = v;
	}
	if (targ_extra & 8)
		h->cpu += (__u32)bpf_ringbuf_query(&floor_rb, BPF_RB_AVAIL_DATA) & 1;
}

static __always_inline int copy_small(struct pt_regs *ctx, const void *src, __u32 len, __u64 cookie)
{
	struct floor_small *r = bpf_ringbuf_reserve(&floor_rb, sizeof(*r), 0);

	if (!r)
		return 1;
	r->hdr.cookie = cookie;
	r->hdr.len = len;
	fill_extra(ctx, &r->hdr);
	if (bpf_probe_read_user(r->data, len <= FLOOR_SMALL ? len : FLOOR_SMALL, src)) {
		bpf_ringbuf_discard(r, BPF_RB_NO_WAKEUP);
		return 3;
	}
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return 0;
}

static __always_inline int copy_large(struct pt_regs *ctx, const void *src, __u32 len, __u64 cookie)
{
	struct floor_large *r = bpf_ringbuf_reserve(&floor_rb, sizeof(*r), 0);

	if (!r)
		return 1;
	r->hdr.cookie = cookie;
	r->hdr.len = len;
	fill_extra(ctx, &r->hdr);
	if (bpf_probe_read_user(r->data, len <= FLOOR_LARGE ? len : FLOOR_LARGE, src)) {
		bpf_ringbuf_discard(r, BPF_RB_NO_WAKEUP);
		return 3;
	}
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return 0;
}

static __always_inline int handle_floor(struct pt_regs *ctx)
{
	long payload = 0, len = 0;
	__u32 n;
	int rc;

	bpf_usdt_arg(ctx, 0, &payload);
	bpf_usdt_arg(ctx, 1, &len);
	n = (__u32)len;
	if (n > FLOOR_LARGE) {
		count(2);
		return 0;
	}
	if (n <= FLOOR_SMALL)
		rc = copy_small(ctx, (const void *)payload, n, bpf_usdt_cookie(ctx));
	else
		rc = copy_large(ctx, (const void *)payload, n, bpf_usdt_cookie(ctx));
	count(rc);
	return 0;
}

SEC("usdt")
int floor_event(struct pt_regs *ctx)
{
	return handle_floor(ctx);
}
