// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tpshim.bpf.c - a stock CoreCLR's tracepoint calls, on the tracepoint
 * shim's one probe function (bpf/tpshim_event.h, usdt/README.md "The
 * tracepoint shim").
 *
 * The uprobe sits on the function's first instruction, a 5-byte nop (on
 * the same nop of the probe for signatures with a double, after it stored
 * the SSE registers below the stack pointer), so the integer registers are the
 * caller's arguments and the stack pointer points at the return address
 * into libcoreclr.so.  The program never decodes a field: it
 * copies the argument words and what the spec of (tgid, index) says they
 * point at, with the stacks, into the ring every program shares
 * (ce_maps.bpf.h).  The record is built in per-CPU scratch and handed over
 * at its exact size, as clr_events.bpf.c does, with the same busy flag
 * against a preempting event on the same CPU.
 *
 * The user stack starts at the return address (the tracepoint's call
 * site, in the runtime), then walks the caller's frame pointers: the
 * probe function itself is not a frame of the event.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "collector_event.h"
#include "tpshim_event.h"
#include "ce_maps.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

const volatile __u32 targ_ustack = 1;	/* 1: user stacks by frame pointers */
const volatile __u32 targ_kstack = 0;

/* room for a string past an offset masked to 2 * TPS_DATA_MAX: the
 * verifier bounds an offset and a length apart, not their sum */
#define TPS_SCRATCH_BYTES (sizeof(struct tps_event) + 2 * CE_STACK_BYTES + 2 * TPS_DATA_MAX + \
			   TPS_STR_MAX)

struct tps_scratch {
	__u32 busy;
	__u32 pad;
	__u8 buf[TPS_SCRATCH_BYTES];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tps_scratch);
} tps_scratch SEC(".maps");

/* a whole run of the batched mode: larger than a per-CPU value may be,
 * so an array indexed by the CPU */
struct tps_batch_scratch {
	__u32 busy;
	__u32 pad;
	__u8 buf[sizeof(struct ce_clr_batch) + CE_BATCH_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);			/* = number of possible CPUs */
	__type(key, __u32);
	__type(value, struct tps_batch_scratch);
} tps_batch_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tps_counters);
} tps_counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u64);
	__type(value, struct tps_spec);
} tps_specs SEC(".maps");

#include "ce_common.bpf.h"

/* the user stack: the return address, then the caller's frames */
static __always_inline __u32 user_stack(struct pt_regs *ctx, __u64 *buf, __u16 *flags)
{
	int truncated = 0;
	__u64 ret = 0;

	if (bpf_probe_read_user(&ret, sizeof(ret), (const void *)PT_REGS_SP(ctx)))
		return 0;
	/* ce_fp_walk starts with the ip it is given: the call site */
	__u32 n = ce_fp_walk(ret, PT_REGS_SP(ctx), PT_REGS_FP(ctx), buf, &truncated);

	if (truncated)
		*flags |= TPS_F_USTACK_TRUNCATED;
	return n;
}

SEC("uprobe")
int tpshim_event(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), key;
	__u32 zero = 0, tgid = id >> 32, index = (__u32)PT_REGS_PARM1(ctx);
	struct tps_counters *cnt = bpf_map_lookup_elem(&tps_counters, &zero);
	struct tps_scratch *s;
	struct tps_spec *spec;
	struct tps_event *e;
	__u32 off = 0, nu = 0, nk = 0, size;
	__u64 *frames;
	__u8 *data;
	int k;

	if (!cnt)
		return 0;
	cnt->hits++;
	key = ((__u64)tgid << 32) | index;
	spec = bpf_map_lookup_elem(&tps_specs, &key);
	if (!spec) {
		cnt->unselected++;
		return 0;
	}
	s = bpf_map_lookup_elem(&tps_scratch, &zero);
	if (!s)
		return 0;
	if (__sync_val_compare_and_swap(&s->busy, 0, 1) != 0) {
		__sync_fetch_and_add(&cnt->nested_drops, 1);
		return 0;
	}
	e = (struct tps_event *)s->buf;
	__builtin_memset(e, 0, sizeof(*e));
	e->hdr.timestamp = bpf_ktime_get_ns();
	e->hdr.type = CE_REC_TPSHIM;
	e->hdr.pid = tgid;
	e->hdr.tid = (__u32)id;
	e->index = index;
	e->cpu = bpf_get_smp_processor_id();
	e->args[0] = PT_REGS_PARM2(ctx);
	e->args[1] = PT_REGS_PARM3(ctx);
	e->args[2] = PT_REGS_PARM4(ctx);
	e->args[3] = PT_REGS_PARM5(ctx);
	e->args[4] = PT_REGS_PARM6(ctx);
	if (spec->nargs > TPS_REG_ARGS)
		bpf_probe_read_user(&e->args[TPS_REG_ARGS], (TPS_MAX_ARGS - TPS_REG_ARGS) * 8,
				    (const void *)(PT_REGS_SP(ctx) + 8));
	if (spec->nfp)	/* the shim's probe for doubles spilled them */
		bpf_probe_read_user(e->fp, sizeof(e->fp),
				    (const void *)(PT_REGS_SP(ctx) - TPS_FP_BELOW));
	frames = (__u64 *)(e + 1);
	if (targ_ustack)
		nu = user_stack(ctx, frames, &e->flags);
	if (targ_kstack) {
		long n = bpf_get_stack(ctx, frames + (nu & CE_MAX_STACK_DEPTH), CE_STACK_BYTES, 0);

		nk = n > 0 ? (__u32)n / 8 : 0;
	}
	nu &= CE_MAX_STACK_DEPTH;
	nk &= CE_MAX_STACK_DEPTH;
	e->ustack_depth = nu;
	e->kstack_depth = nk;
	data = (__u8 *)(frames + nu + nk);
	if (spec->buf_arg == 1 && spec->len_arg == 0) {
		/* (length, __data__): the payload the runtime serialized */
		__u64 want = e->args[0];

		if (want > TPS_DATA_MAX) {
			want = TPS_DATA_MAX;
			e->flags |= TPS_F_CUT;
		}
		want &= 2 * TPS_DATA_MAX - 1;
		if (want && bpf_probe_read_user(data, want, (const void *)e->args[1])) {
			e->flags |= TPS_F_FAULT;
			want = 0;
		}
		e->copied[1] = want;
		off = want;
	} else {
		/* strings, each up to its NUL or TPS_STR_MAX bytes (a cut one
		 * ends in a NUL at TPS_STR_MAX, a failed one copies 0); off is
		 * masked so that every iteration's state is the same to the
		 * verifier, which then prunes instead of walking 2^9 paths */
		for (k = 0; k < TPS_MAX_ARGS; k++) {
			long n = 0;

			if (spec->str_mask & (1u << k)) {
				n = bpf_probe_read_user_str(data + off, TPS_STR_MAX,
							    (const void *)e->args[k]);
				if (n < 0)
					n = 0;
			}
			e->copied[k] = n;
			off = (off + n) & (2 * TPS_DATA_MAX - 1);
		}
	}
	e->data_len = off;
	size = sizeof(*e) + (nu + nk) * 8 + ((off + 7) & ~7u);
	e->hdr.size = size;
	if (size <= TPS_SCRATCH_BYTES)
		ce_submit(s->buf, size, cnt);
	*(volatile __u32 *)&s->busy = 0;
	return 0;
}

/*
 * Batched mode: a run of one thread's calls, handed over at the shim's
 * batch site as (data, len, tid, first_seq, count), the four after data
 * 32-bit, and copied whole as the shim wrote it (the collector splits it).
 * A run the ring cannot take, or that finds this CPU's scratch busy, is
 * lost whole and counted by its calls.
 */
SEC("uprobe")
int tpshim_batch(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 zero = 0, len = (__u32)PT_REGS_PARM2(ctx), count = (__u32)PT_REGS_PARM5(ctx), size;
	__u32 cpu = bpf_get_smp_processor_id();
	struct tps_counters *cnt = bpf_map_lookup_elem(&tps_counters, &zero);
	struct tps_batch_scratch *s;
	struct ce_clr_batch *b;

	if (!cnt)
		return 0;
	s = bpf_map_lookup_elem(&tps_batch_scratch, &cpu);
	if (!s || !len || len > CE_BATCH_MAX ||
	    __sync_val_compare_and_swap(&s->busy, 0, 1) != 0) {
		__sync_fetch_and_add(&cnt->batch_drops, count);
		return 0;
	}
	b = (struct ce_clr_batch *)s->buf;
	b->hdr.timestamp = bpf_ktime_get_ns();
	b->hdr.type = CE_REC_TPSHIM_BATCH;
	b->hdr.pid = id >> 32;
	b->hdr.tid = (__u32)PT_REGS_PARM3(ctx);
	b->cookie = 0;
	b->first_seq = (__u32)PT_REGS_PARM4(ctx);
	b->count = count;
	b->data_len = len;
	b->flusher_tid = (__u32)id;
	size = sizeof(*b) + len;
	b->hdr.size = size;
	if (bpf_probe_read_user(s->buf + sizeof(*b), len, (const void *)PT_REGS_PARM1(ctx)) ||
	    bpf_ringbuf_output(&rb, s->buf, size, ce_wakeup_flags(size))) {
		cnt->batch_drops += count;
	} else {
		cnt->batches++;
		cnt->batch_events += count;
		cnt->bytes += size;
	}
	*(volatile __u32 *)&s->busy = 0;
	return 0;
}
