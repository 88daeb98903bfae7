// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * clr_events.bpf.c - one USDT program for every CLR manifest event.
 *
 * The runtime's probes (usdt/: provider DotNETRuntime..., probe = event
 * symbol) carry four arguments: arg0 = pointer to the payload, already
 * serialized in the manifest layout, arg1 = its length, arg2/arg3 =
 * pointers to the 16-byte activity / related activity ids (or 0).  This
 * program never decodes a field: it copies bytes.  The attach cookie
 * (bpf_usdt_cookie) is the index of the event in the collector's event
 * table, so one program serves all ~430 probes.
 *
 * Record assembly: per-CPU scratch + bpf_ringbuf_output.
 *   bpf_ringbuf_reserve() needs a size the verifier knows, but a record's
 *   size is only known after bpf_get_stack() says how deep the stack was,
 *   and payloads range from 0 to 64 KiB.  Size classes would reserve the
 *   worst-case stack (2 x 1016 bytes) plus the rounded-up payload for every
 *   event: a typical 60-byte event with 15 frames would take ~2.3 KiB of
 *   ring instead of ~260 bytes, i.e. ~9x fewer events fit before drops.
 *   We therefore build the record in a per-CPU scratch slot (an ARRAY map
 *   with one ~68 KiB slot per CPU: PERCPU_ARRAY values are capped at 32 KiB)
 *   and hand exactly header + stacks + payload bytes to bpf_ringbuf_output,
 *   which costs one extra copy of the record inside the helper.
 *   Measured (usdt_testprog, 26-byte payload, 2-frame stack, 3 runs of 1M
 *   events, kernel.bpf_stats_enabled): this program 278-285 ns per event;
 *   a variant reserving one 1.4 KiB class (header + 127 frames + 256 bytes)
 *   and writing in place 364-420 ns -- it touches ~10x more ring memory per
 *   event -- on top of holding ~10x fewer events before drops.
 *
 *   A uprobe program runs with migration disabled but, on a preemptible
 *   kernel, not necessarily with preemption disabled, so another thread on
 *   the same CPU could enter the same slot.  A cmpxchg'ed busy flag guards
 *   the slot; the loser drops its event and counts it (nested_drops).
 *
 * Stacks (decision 6): the user stack by a frame-pointer walk in BPF
 * (walk_user_stack) rather than bpf_get_stack(BPF_F_USER_STACK), which
 * faults at the end of every walk (see walk_user_stack).  Program run time
 * per event (kernel.bpf_stats_enabled) on refrt's mixed scenario, mean
 * stack depth 11: 0.92 us with the walk, 1.78 us with the helper, 0.40 us
 * without a stack.  --stack-helper selects the helper; both gave identical
 * stacks on 828 refrt events traced by both at once.
 *
 * Wakeups (architecture decision 13): records are submitted with
 * BPF_RB_NO_WAKEUP.  A record whose submission makes the unconsumed data
 * cross targ_wakeup_bytes (1/4 of the ring) or the 3/4-full backstop is
 * submitted with BPF_RB_FORCE_WAKEUP instead; otherwise the consumer picks
 * the data up when its 100 ms poll times out.  When the ring is full the
 * record is dropped and counted: the traced program is never slowed to the
 * reader's speed.
 *
 * Counters: per-CPU struct ce_counters, summed by user space at the end.
 * They are updated only while the slot's busy flag is held (or atomically
 * outside it), so preemption cannot lose increments.
 */
#include "vmlinux.h"

/*
 * libbpf's USDT spec limits.  libbpf allocates at least one spec id per
 * attached probe and per distinct argument-location string among its sites
 * (an inlined probe gets one per register allocation), per traced process.
 * The full runtime manifest has 430 events; a few are inlined at several
 * sites.  4096 specs cover all 430 probes with ~2 sites each in ~4
 * processes; the spec map costs 4096 * 208 bytes = 832 KiB of kernel
 * memory.  The IP map is only used on kernels without BPF cookies (< 5.15).
 * When the limit is hit, attach fails with -E2BIG and the collector says so.
 */
#define BPF_USDT_MAX_SPEC_CNT	4096
#define BPF_USDT_MAX_IP_CNT	4096

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/usdt.bpf.h>
#include "collector_event.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* knobs, set between __open() and __load() */
const volatile __u32 targ_filter_tgid = 0;	/* 1: only tgids in `targets` */
const volatile __u32 targ_ustack = 1;		/* user stacks: 0 no, 1 fp walk, 2 bpf_get_stack */
const volatile __u32 targ_kstack = 0;		/* capture kernel stacks */
const volatile __u64 targ_wakeup_bytes = 0;	/* wake the consumer above this fill */
const volatile __u64 targ_backstop_bytes = 0;	/* and again above this one */
const volatile __u32 targ_filters = 0;		/* 1: `filters` holds --filter predicates */

#define CE_SCRATCH_BYTES (sizeof(struct ce_clr_event) + 2 * CE_STACK_BYTES + CE_MAX_PAYLOAD)

struct scratch {
	__u32 busy;
	__u32 pad;
	__u8 buf[CE_SCRATCH_BYTES];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);		/* resized by the collector */
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);			/* = number of possible CPUs */
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ce_counters);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);			/* tgid */
	__type(value, __u8);
} targets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4096);		/* event table indexes */
	__type(key, __u32);
	__type(value, struct ce_filter);
} filters SEC(".maps");

#include "ce_common.bpf.h"


/* Copy the user (or kernel) stack to buf; returns the bytes written. */
static __always_inline __u32 copy_stack(struct pt_regs *ctx, void *buf, __u64 flags,
					__u32 *ev_flags, __u32 trunc_flag,
					__u64 *truncated, __u64 *errors)
{
	long n = bpf_get_stack(ctx, buf, CE_STACK_BYTES, flags);

	if (n < 0) {
		if (errors) {
			(*errors)++;
			*ev_flags |= CE_F_USTACK_ERROR;
		}
		return 0;
	}
	if (n >= CE_STACK_BYTES) {
		(*truncated)++;
		*ev_flags |= trunc_flag;
		n = CE_STACK_BYTES;
	}
	return (__u32)n & ~7u;
}

/* User stack by frame-pointer walk (targ_ustack == 1): ce_fp_walk(). */
static __always_inline __u32 walk_user_stack(struct pt_regs *ctx, __u64 *buf, __u32 *ev_flags,
					     struct ce_counters *cnt)
{
	int truncated = 0;
	__u32 n = ce_fp_walk(PT_REGS_IP(ctx), PT_REGS_SP(ctx), PT_REGS_FP(ctx), buf, &truncated);

	if (truncated) {
		cnt->ustack_truncated++;
		*ev_flags |= CE_F_USTACK_TRUNCATED;
	}
	return n * 8;
}

static __always_inline void read_id(__u8 *dst, long uptr, __u32 *ev_flags, __u32 flag)
{
	if (uptr && !bpf_probe_read_user(dst, 16, (const void *)uptr)) {
		*ev_flags |= flag;
		return;
	}
	__builtin_memset(dst, 0, 16);
}

static __always_inline int compare_u64(__u64 a, __u64 b)
{
	return a < b ? -1 : a > b;
}

static __always_inline int compare_s64(__s64 a, __s64 b)
{
	return a < b ? -1 : a > b;
}

/* The string field against the filter's bytes: 0 equal, 1 different. */
static __always_inline int compare_str(const struct ce_filter *f, long payload)
{
	__u8 buf[CE_FILTER_STR_MAX];
	__u32 n = f->str_len, i;

	if (n > CE_FILTER_STR_MAX || n == 0 ||
	    bpf_probe_read_user(buf, n & (CE_FILTER_STR_MAX - 1) ? n : CE_FILTER_STR_MAX,
				(const void *)(payload + f->offset)))
		return -1;
	for (i = 0; i < CE_FILTER_STR_MAX; i++) {
		if (i >= n)
			break;
		if (buf[i] != f->str[i])
			return 1;
	}
	return 0;
}

/* Does the event pass its --filter?  Read the field where it sits. */
static __always_inline bool filter_pass(struct pt_regs *ctx, const struct ce_filter *f)
{
	long payload = 0, len = 0;
	__u64 v = 0;
	int c;

	bpf_usdt_arg(ctx, 0, &payload);
	bpf_usdt_arg(ctx, 1, &len);
	if (f->kind == CE_FK_STRING) {
		if (len < f->offset + f->str_len)
			return f->op == CE_FOP_NE;	/* shorter: not equal */
		c = compare_str(f, payload);
		if (c < 0)
			return true;	/* unreadable: let user space decide */
	} else {
		if (f->size > 8 || len < f->offset + f->size ||
		    bpf_probe_read_user(&v, f->size & 15, (const void *)(payload + f->offset)))
			return true;
		if (f->kind == CE_FK_SIGNED) {
			__u32 sh = 64 - 8 * (f->size & 15);

			c = compare_s64((__s64)(v << sh) >> sh, (__s64)f->value);
		} else {
			c = compare_u64(v, f->value);
		}
	}
	switch (f->op) {
	case CE_FOP_EQ: return c == 0;
	case CE_FOP_NE: return c != 0;
	case CE_FOP_LT: return c < 0;
	case CE_FOP_LE: return c <= 0;
	case CE_FOP_GT: return c > 0;
	case CE_FOP_GE: return c >= 0;
	}
	return true;
}

/* Dropped by --filter before any copy (counted)? */
static __always_inline bool filtered_out(struct pt_regs *ctx, struct ce_counters *cnt)
{
	__u32 idx = CE_COOKIE_INDEX(bpf_usdt_cookie(ctx));
	const struct ce_filter *f;

	if (!targ_filters)
		return false;
	f = bpf_map_lookup_elem(&filters, &idx);
	if (!f || !f->op || filter_pass(ctx, f))
		return false;
	__sync_fetch_and_add(&cnt->filter_drops, 1);
	return true;
}

/* This CPU's scratch record, claimed for one event; NULL (counted) when the
 * process is not a target or a preempted event still holds it. */
static __always_inline struct scratch *claim_scratch(struct ce_counters *cnt, __u32 tgid,
						     __u32 cpu)
{
	struct scratch *s;

	if (targ_filter_tgid && !bpf_map_lookup_elem(&targets, &tgid)) {
		__sync_fetch_and_add(&cnt->filtered, 1);
		return NULL;
	}
	s = bpf_map_lookup_elem(&scratch, &cpu);
	if (!s)
		return NULL;
	if (__sync_val_compare_and_swap(&s->busy, 0, 1) != 0) {
		__sync_fetch_and_add(&cnt->nested_drops, 1);
		return NULL;
	}
	return s;
}

/* The record's header and activity ids; the payload's address and length. */
static __always_inline void fill_header(struct pt_regs *ctx, struct ce_clr_event *e, __u64 id,
					__u32 cpu, __u32 *flags, long *payload, long *len)
{
	long act = 0, rel = 0;

	bpf_usdt_arg(ctx, 0, payload);
	bpf_usdt_arg(ctx, 1, len);
	bpf_usdt_arg(ctx, 2, &act);
	bpf_usdt_arg(ctx, 3, &rel);

	e->hdr.timestamp = bpf_ktime_get_ns();
	e->hdr.type = CE_REC_CLR_EVENT;
	e->hdr.pid = id >> 32;
	e->hdr.tid = (__u32)id;
	e->cookie = bpf_usdt_cookie(ctx);
	e->cpu = cpu;
	e->reserved = 0;
	read_id(e->activity_id, act, flags, CE_F_HAS_ACTIVITY);
	read_id(e->related_activity_id, rel, flags, CE_F_HAS_RELATED);
}

/* The user stack, then the kernel stack, after the header. */
static __always_inline void copy_stacks(struct pt_regs *ctx, struct scratch *s,
					struct ce_clr_event *e, __u32 *flags,
					struct ce_counters *cnt, __u32 *ulen, __u32 *klen)
{
	*ulen = 0;
	if (targ_ustack == 1)
		*ulen = walk_user_stack(ctx, (__u64 *)(s->buf + sizeof(*e)), flags, cnt);
	else if (targ_ustack == 2)
		*ulen = copy_stack(ctx, s->buf + sizeof(*e), BPF_F_USER_STACK, flags,
				   CE_F_USTACK_TRUNCATED, &cnt->ustack_truncated,
				   &cnt->ustack_errors);
	if (*ulen > CE_STACK_BYTES)	/* for the verifier */
		*ulen = CE_STACK_BYTES;
	*klen = 0;
	if (targ_kstack)
		*klen = copy_stack(ctx, s->buf + sizeof(*e) + *ulen, 0, flags,
				   CE_F_KSTACK_TRUNCATED, &cnt->kstack_truncated, NULL);
	if (*klen > CE_STACK_BYTES)
		*klen = CE_STACK_BYTES;
}

static __always_inline int handle_clr_event(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 zero = 0, cpu, off, ulen, klen, plen, size;
	long payload = 0, len = 0;
	struct ce_counters *cnt;
	struct ce_clr_event *e;
	struct scratch *s;
	__u32 flags = 0;

	cnt = bpf_map_lookup_elem(&counters, &zero);
	if (!cnt)
		return 0;
	if (filtered_out(ctx, cnt))
		return 0;
	cpu = bpf_get_smp_processor_id();
	s = claim_scratch(cnt, id >> 32, cpu);
	if (!s)
		return 0;
	cnt->hits++;

	e = (void *)s->buf;
	fill_header(ctx, e, id, cpu, &flags, &payload, &len);
	copy_stacks(ctx, s, e, &flags, cnt, &ulen, &klen);
	off = sizeof(*e) + ulen + klen;

	/* Over what TraceEvent reads (CE_MAX_PAYLOAD): send the header alone,
	 * flagged, so the collector counts the event lost on its own thread. */
	plen = (__u32)len;
	if ((unsigned long)len > CE_MAX_PAYLOAD) {
		cnt->payload_truncated++;
		flags |= CE_F_PAYLOAD_TRUNCATED;
		plen = 0;
	}
	if (off > sizeof(*e) + 2 * CE_STACK_BYTES)
		goto out;
	if (plen && bpf_probe_read_user(s->buf + off, plen, (const void *)payload)) {
		cnt->payload_faults++;
		goto out;
	}

	e->flags = flags;
	e->payload_len = plen;
	e->payload_orig_len = (__u32)len;
	e->ustack_depth = ulen / 8;
	e->kstack_depth = klen / 8;
	size = off + plen;
	if (size > CE_SCRATCH_BYTES)
		goto out;
	e->hdr.size = size;

	ce_submit(s->buf, size, cnt);
out:
	*(volatile __u32 *)&s->busy = 0;	/* helper calls above are barriers */
	return 0;
}

SEC("usdt")
int clr_event(struct pt_regs *ctx)
{
	return handle_clr_event(ctx);
}

/*
 * Batched mode: one run of a thread's events, copied as the provider wrote
 * them (user space splits it).  A run the ring cannot take, or that finds
 * this CPU's scratch busy, is lost whole and counted by its events.
 */
static __always_inline void batch_lost(struct ce_counters *cnt, long count)
{
	__sync_fetch_and_add(&cnt->batch_drops, count);
}

SEC("usdt")
int clr_batch(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	long data = 0, len = 0, tid = 0, seq = 0, count = 0;
	__u32 zero = 0, cpu, tgid = id >> 32;
	struct ce_counters *cnt;
	struct ce_clr_batch *b;
	struct scratch *s;
	__u32 size;

	cnt = bpf_map_lookup_elem(&counters, &zero);
	if (!cnt)
		return 0;
	if (targ_filter_tgid && !bpf_map_lookup_elem(&targets, &tgid))
		return 0;
	bpf_usdt_arg(ctx, 0, &data);
	bpf_usdt_arg(ctx, 1, &len);
	bpf_usdt_arg(ctx, 2, &tid);
	bpf_usdt_arg(ctx, 3, &seq);
	bpf_usdt_arg(ctx, 4, &count);
	cpu = bpf_get_smp_processor_id();
	s = bpf_map_lookup_elem(&scratch, &cpu);
	if (!s || len <= 0 || len > CE_BATCH_MAX) {
		batch_lost(cnt, count);
		return 0;
	}
	if (__sync_val_compare_and_swap(&s->busy, 0, 1) != 0) {
		batch_lost(cnt, count);
		return 0;
	}
	b = (void *)s->buf;
	b->hdr.timestamp = bpf_ktime_get_ns();
	b->hdr.type = CE_REC_CLR_BATCH;
	b->hdr.pid = tgid;
	b->hdr.tid = (__u32)tid;
	b->cookie = bpf_usdt_cookie(ctx);
	b->first_seq = (__u32)seq;
	b->count = (__u32)count;
	b->data_len = (__u32)len;
	b->flusher_tid = (__u32)id;
	if (bpf_probe_read_user(s->buf + sizeof(*b), (__u32)len,
				(const void *)data)) {
		cnt->payload_faults++;
		batch_lost(cnt, count);
		goto out;
	}
	size = sizeof(*b) + (__u32)len;
	b->hdr.size = size;
	if (bpf_ringbuf_output(&rb, s->buf, size,
			       ce_wakeup_flags(size))) {
		batch_lost(cnt, count);
	} else {
		cnt->batches++;
		cnt->batch_events += count;
		cnt->bytes += size;
	}
out:
	*(volatile __u32 *)&s->busy = 0;
	return 0;
}
