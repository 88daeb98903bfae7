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
 *   Exception: a stack-less event of at most CE_SMALL_PAYLOAD bytes, whose
 *   size is known before anything is copied, is reserved and written in
 *   place (small_event).
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
#include "ce_maps.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* knobs, set between __open() and __load() */
const volatile __u32 targ_filter_tgid = 0;	/* 1: only tgids in `targets` */
const volatile __u32 targ_ustack = 1;		/* user stacks: 0 no, 1 fp walk, 2 bpf_get_stack */
const volatile __u32 targ_kstack = 0;		/* capture kernel stacks */
const volatile __u32 targ_filters = 0;		/* 1: `filters` holds --filter predicates */

#define CE_SCRATCH_BYTES (sizeof(struct ce_clr_event) + 2 * CE_STACK_BYTES + CE_MAX_PAYLOAD)

struct scratch {
	__u32 busy;
	__u32 pad;
	__u8 buf[CE_SCRATCH_BYTES];
};

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

/*
 * The last target this CPU saw: (tgid << 32) | targets_gen, one 8-byte word
 * so that a preempting event cannot tear it.  User space bumps targets_gen
 * after every change of `targets` (host.c), so a stale word misses and the
 * hash is looked up again.  Only targets are kept: another process's event
 * always looks the hash up.  Measured (64 B bench, bpf_stats): the hash
 * look-up is ~34 ns of a ~300 ns run; the cached word ~2 ns.
 */
__u32 targets_gen = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} target_cache SEC(".maps");

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

/*
 * The probe's four arguments and its cookie, from one look-up of the spec
 * libbpf wrote for the probe site (usdt.bpf.h's map and types, so libbpf
 * still parses every argument spec).  bpf_usdt_arg() would do the look-up
 * once per argument and read each register with bpf_probe_read_kernel();
 * a register is read here as a constant-offset load from ctx.  Measured
 * (bench_floor -X 4, 64 B payload, kernel.bpf_stats_enabled): ~38 ns per
 * bpf_usdt_arg() call.  Semantics as bpf_usdt_arg(): a missing or
 * unreadable argument is 0.
 */
struct probe_args {
	long payload, len, act, rel;
	__u64 cookie;
};

/* A load from ctx at a literal offset: in C, clang merges the cases into
 * one load from a computed pointer, which the verifier rejects (a program
 * may only load from ctx at constant offsets). */
#define CE_REG_CASE(k, off)							\
	case k:									\
		if ((k) * 8 + 8 > sizeof(struct pt_regs))			\
			return 0;						\
		asm volatile("%0 = *(u64 *)(%1 + " #off ")" : "=r"(v) : "r"(ctx));	\
		return v

/* The pt_regs word at byte offset reg_off (libbpf's offsetof(pt_regs, reg)). */
static __always_inline __u64 ctx_reg(struct pt_regs *ctx, short reg_off)
{
	__u32 off = (__u16)reg_off;
	__u64 v;

	if (off & 7)
		return 0;
	switch (off / 8) {
	CE_REG_CASE(0, 0); CE_REG_CASE(1, 8); CE_REG_CASE(2, 16); CE_REG_CASE(3, 24);
	CE_REG_CASE(4, 32); CE_REG_CASE(5, 40); CE_REG_CASE(6, 48); CE_REG_CASE(7, 56);
	CE_REG_CASE(8, 64); CE_REG_CASE(9, 72); CE_REG_CASE(10, 80); CE_REG_CASE(11, 88);
	CE_REG_CASE(12, 96); CE_REG_CASE(13, 104); CE_REG_CASE(14, 112); CE_REG_CASE(15, 120);
	CE_REG_CASE(16, 128); CE_REG_CASE(17, 136); CE_REG_CASE(18, 144); CE_REG_CASE(19, 152);
	CE_REG_CASE(20, 160); CE_REG_CASE(21, 168); CE_REG_CASE(22, 176); CE_REG_CASE(23, 184);
	CE_REG_CASE(24, 192); CE_REG_CASE(25, 200); CE_REG_CASE(26, 208); CE_REG_CASE(27, 216);
	CE_REG_CASE(28, 224); CE_REG_CASE(29, 232); CE_REG_CASE(30, 240); CE_REG_CASE(31, 248);
	CE_REG_CASE(32, 256); CE_REG_CASE(33, 264);
	}
	return 0;
}

static __always_inline long spec_arg(struct pt_regs *ctx, const struct __bpf_usdt_spec *spec,
				     __u32 i)
{
	const struct __bpf_usdt_arg_spec *a = &spec->args[i];
	unsigned long v;

	if ((int)i >= spec->arg_cnt)
		return 0;
	switch (a->arg_type) {
	case BPF_USDT_ARG_CONST:
		v = a->val_off;
		break;
	case BPF_USDT_ARG_REG:
		v = ctx_reg(ctx, a->reg_off);
		break;
	case BPF_USDT_ARG_REG_DEREF:
		v = ctx_reg(ctx, a->reg_off);
		if (bpf_probe_read_user(&v, sizeof(v), (const void *)(v + a->val_off)))
			return 0;
		break;
	default:	/* a kind a newer libbpf added: its own reader */
		bpf_usdt_arg(ctx, i, (long *)&v);
		return v;
	}
	v <<= a->arg_bitshift;
	if (a->arg_signed)
		return (long)v >> a->arg_bitshift;
	return v >> a->arg_bitshift;
}

/*
 * A global function: the verifier checks it once and its caller sees *pa
 * as unknown bytes.  Inlined, the 0 of its error returns was a known value
 * that the caller's branches told apart, and the stack walk after them was
 * verified up to 8 times (ebpf-collect start-up 0.06 -> 0.11 s system
 * time).  One call: one per argument cost ~25 ns per event.
 */
__noinline int read_probe_args(struct pt_regs *ctx, struct probe_args *pa)
{
	const struct __bpf_usdt_spec *spec;
	int id;

	if (!pa)
		return 0;
	__builtin_memset(pa, 0, sizeof(*pa));
	id = __bpf_usdt_spec_id(ctx);
	if (id < 0)
		return 0;
	spec = bpf_map_lookup_elem(&__bpf_usdt_specs, &id);
	if (!spec)
		return 0;
	pa->cookie = spec->usdt_cookie;
	pa->payload = spec_arg(ctx, spec, 0);
	pa->len = spec_arg(ctx, spec, 1);
	pa->act = spec_arg(ctx, spec, 2);
	pa->rel = spec_arg(ctx, spec, 3);
	return 0;
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
static __always_inline bool filter_pass(const struct probe_args *pa, const struct ce_filter *f)
{
	long payload = pa->payload, len = pa->len;
	__u64 v = 0;
	int c;

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
static __always_inline bool filtered_out(const struct probe_args *pa, struct ce_counters *cnt)
{
	__u32 idx = CE_COOKIE_INDEX(pa->cookie);
	const struct ce_filter *f;

	if (!targ_filters)
		return false;
	f = bpf_map_lookup_elem(&filters, &idx);
	if (!f || !f->op || filter_pass(pa, f))
		return false;
	__sync_fetch_and_add(&cnt->filter_drops, 1);
	return true;
}

/* Is tgid in `targets`?  The gen is read before the hash (helper calls are
 * compiler barriers), so a word stored after a change carries the new gen. */
static __always_inline bool is_target(__u32 tgid)
{
	__u32 zero = 0;
	__u64 key = ((__u64)tgid << 32) | *(volatile __u32 *)&targets_gen;
	__u64 *last = bpf_map_lookup_elem(&target_cache, &zero);

	if (last && *last == key)
		return true;
	if (!bpf_map_lookup_elem(&targets, &tgid))
		return false;
	if (last)
		*last = key;
	return true;
}

/* This CPU's scratch record, claimed for one event; NULL (counted) when the
 * process is not a target or a preempted event still holds it. */
static __always_inline struct scratch *claim_scratch(struct ce_counters *cnt, __u32 tgid,
						     __u32 cpu)
{
	struct scratch *s;

	if (targ_filter_tgid && !is_target(tgid)) {
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

/* The record's header and activity ids. */
static __always_inline void fill_header(const struct probe_args *pa, struct ce_clr_event *e,
					__u64 id, __u32 cpu, __u32 *flags)
{
	e->hdr.timestamp = bpf_ktime_get_ns();
	e->hdr.type = CE_REC_CLR_EVENT;
	e->hdr.pid = id >> 32;
	e->hdr.tid = (__u32)id;
	e->cookie = pa->cookie;
	e->cpu = cpu;
	e->reserved = 0;
	read_id(e->activity_id, pa->act, flags, CE_F_HAS_ACTIVITY);
	read_id(e->related_activity_id, pa->rel, flags, CE_F_HAS_RELATED);
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

/*
 * A small event without stacks (the common case): the record is reserved
 * in the ring buffer and written in place, with no scratch slot to look up
 * and claim (a preempting event has its own record, so nothing is dropped
 * as nested) and every counter updated atomically.  Same record, same
 * counters, same wake-up decision (taken before the reserve, as
 * bpf_ringbuf_output's is) as the scratch path.
 *
 * bpf_ringbuf_reserve() takes a size the verifier knows and the record must
 * be exactly header + payload bytes, so emit_small() is reached through one
 * switch case per payload length, each with its size as an immediate (an
 * asm operand: the compiler would otherwise fold the cases into one
 * computed size).  Measured (bench-tracers' 64 B paced run,
 * kernel.bpf_stats_enabled): 271 ns per event through the scratch slot,
 * 242 ns in place (the floor's own program: 263 ns).
 */
#define CE_SMALL_PAYLOAD	128

/* The record of header h in place: only this part depends on the size, so
 * it is all the verifier walks once per size. */
static __always_inline int emit_small(const struct probe_args *pa, struct ce_counters *cnt,
				      const struct ce_clr_event *h, __u32 size, __u64 wflags)
{
	__u32 plen = size - sizeof(*h);
	struct ce_clr_event *e = bpf_ringbuf_reserve(&rb, size, 0);

	if (!e) {
		__sync_fetch_and_add(&cnt->rb_drops, 1);
		return 0;
	}
	__builtin_memcpy(e, h, sizeof(*h));
	if (plen && bpf_probe_read_user((void *)(e + 1), plen, (const void *)pa->payload)) {
		bpf_ringbuf_discard(e, BPF_RB_NO_WAKEUP);
		__sync_fetch_and_add(&cnt->payload_faults, 1);
		return 0;
	}
	bpf_ringbuf_submit(e, wflags);
	__sync_fetch_and_add(&cnt->submitted, 1);
	__sync_fetch_and_add(&cnt->bytes, size);
	if (wflags == BPF_RB_FORCE_WAKEUP)
		__sync_fetch_and_add(&cnt->wakeups, 1);
	return 0;
}

#define CE_SMALL_CASE(n)							\
	case n:									\
		asm volatile("%0 = %1" : "=r"(size) : "i"(sizeof(struct ce_clr_event) + (n))); \
		return emit_small(pa, cnt, &h, size, wflags)

/* The small path for a payload of len <= CE_SMALL_PAYLOAD bytes. */
static __always_inline int small_event(const struct probe_args *pa, struct ce_counters *cnt,
				       __u64 id, __u32 cpu)
{
	__u32 flags = 0, plen = (__u32)pa->len, size;
	struct ce_clr_event h;
	__u64 wflags;

	if (targ_filter_tgid && !is_target(id >> 32)) {
		__sync_fetch_and_add(&cnt->filtered, 1);
		return 0;
	}
	__sync_fetch_and_add(&cnt->hits, 1);
	fill_header(pa, &h, id, cpu, &flags);
	h.hdr.size = sizeof(h) + plen;
	h.flags = flags;
	h.payload_len = plen;
	h.payload_orig_len = plen;
	h.ustack_depth = 0;
	h.kstack_depth = 0;
	wflags = ce_wakeup_flags(h.hdr.size);
	switch (plen) {
	CE_SMALL_CASE(0); CE_SMALL_CASE(1); CE_SMALL_CASE(2); CE_SMALL_CASE(3); CE_SMALL_CASE(4); CE_SMALL_CASE(5);
	CE_SMALL_CASE(6); CE_SMALL_CASE(7); CE_SMALL_CASE(8); CE_SMALL_CASE(9); CE_SMALL_CASE(10); CE_SMALL_CASE(11);
	CE_SMALL_CASE(12); CE_SMALL_CASE(13); CE_SMALL_CASE(14); CE_SMALL_CASE(15); CE_SMALL_CASE(16); CE_SMALL_CASE(17);
	CE_SMALL_CASE(18); CE_SMALL_CASE(19); CE_SMALL_CASE(20); CE_SMALL_CASE(21); CE_SMALL_CASE(22); CE_SMALL_CASE(23);
	CE_SMALL_CASE(24); CE_SMALL_CASE(25); CE_SMALL_CASE(26); CE_SMALL_CASE(27); CE_SMALL_CASE(28); CE_SMALL_CASE(29);
	CE_SMALL_CASE(30); CE_SMALL_CASE(31); CE_SMALL_CASE(32); CE_SMALL_CASE(33); CE_SMALL_CASE(34); CE_SMALL_CASE(35);
	CE_SMALL_CASE(36); CE_SMALL_CASE(37); CE_SMALL_CASE(38); CE_SMALL_CASE(39); CE_SMALL_CASE(40); CE_SMALL_CASE(41);
	CE_SMALL_CASE(42); CE_SMALL_CASE(43); CE_SMALL_CASE(44); CE_SMALL_CASE(45); CE_SMALL_CASE(46); CE_SMALL_CASE(47);
	CE_SMALL_CASE(48); CE_SMALL_CASE(49); CE_SMALL_CASE(50); CE_SMALL_CASE(51); CE_SMALL_CASE(52); CE_SMALL_CASE(53);
	CE_SMALL_CASE(54); CE_SMALL_CASE(55); CE_SMALL_CASE(56); CE_SMALL_CASE(57); CE_SMALL_CASE(58); CE_SMALL_CASE(59);
	CE_SMALL_CASE(60); CE_SMALL_CASE(61); CE_SMALL_CASE(62); CE_SMALL_CASE(63); CE_SMALL_CASE(64); CE_SMALL_CASE(65);
	CE_SMALL_CASE(66); CE_SMALL_CASE(67); CE_SMALL_CASE(68); CE_SMALL_CASE(69); CE_SMALL_CASE(70); CE_SMALL_CASE(71);
	CE_SMALL_CASE(72); CE_SMALL_CASE(73); CE_SMALL_CASE(74); CE_SMALL_CASE(75); CE_SMALL_CASE(76); CE_SMALL_CASE(77);
	CE_SMALL_CASE(78); CE_SMALL_CASE(79); CE_SMALL_CASE(80); CE_SMALL_CASE(81); CE_SMALL_CASE(82); CE_SMALL_CASE(83);
	CE_SMALL_CASE(84); CE_SMALL_CASE(85); CE_SMALL_CASE(86); CE_SMALL_CASE(87); CE_SMALL_CASE(88); CE_SMALL_CASE(89);
	CE_SMALL_CASE(90); CE_SMALL_CASE(91); CE_SMALL_CASE(92); CE_SMALL_CASE(93); CE_SMALL_CASE(94); CE_SMALL_CASE(95);
	CE_SMALL_CASE(96); CE_SMALL_CASE(97); CE_SMALL_CASE(98); CE_SMALL_CASE(99); CE_SMALL_CASE(100); CE_SMALL_CASE(101);
	CE_SMALL_CASE(102); CE_SMALL_CASE(103); CE_SMALL_CASE(104); CE_SMALL_CASE(105); CE_SMALL_CASE(106); CE_SMALL_CASE(107);
	CE_SMALL_CASE(108); CE_SMALL_CASE(109); CE_SMALL_CASE(110); CE_SMALL_CASE(111); CE_SMALL_CASE(112); CE_SMALL_CASE(113);
	CE_SMALL_CASE(114); CE_SMALL_CASE(115); CE_SMALL_CASE(116); CE_SMALL_CASE(117); CE_SMALL_CASE(118); CE_SMALL_CASE(119);
	CE_SMALL_CASE(120); CE_SMALL_CASE(121); CE_SMALL_CASE(122); CE_SMALL_CASE(123); CE_SMALL_CASE(124); CE_SMALL_CASE(125);
	CE_SMALL_CASE(126); CE_SMALL_CASE(127); CE_SMALL_CASE(128);
	}
	return 0;
}

static __always_inline int handle_clr_event(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 zero = 0, cpu, off, ulen, klen, plen, size;
	struct probe_args pa;
	struct ce_counters *cnt;
	struct ce_clr_event *e;
	struct scratch *s;
	__u32 flags = 0;

	cnt = bpf_map_lookup_elem(&counters, &zero);
	if (!cnt)
		return 0;
	read_probe_args(ctx, &pa);
	if (filtered_out(&pa, cnt))
		return 0;
	cpu = bpf_get_smp_processor_id();
	if (!targ_ustack && !targ_kstack && (unsigned long)pa.len <= CE_SMALL_PAYLOAD)
		return small_event(&pa, cnt, id, cpu);
	s = claim_scratch(cnt, id >> 32, cpu);
	if (!s)
		return 0;
	cnt->hits++;

	e = (void *)s->buf;
	fill_header(&pa, e, id, cpu, &flags);
	copy_stacks(ctx, s, e, &flags, cnt, &ulen, &klen);
	off = sizeof(*e) + ulen + klen;

	/* Over what TraceEvent reads (CE_MAX_PAYLOAD): send the header alone,
	 * flagged, so the collector counts the event lost on its own thread. */
	plen = (__u32)pa.len;
	if ((unsigned long)pa.len > CE_MAX_PAYLOAD) {
		cnt->payload_truncated++;
		flags |= CE_F_PAYLOAD_TRUNCATED;
		plen = 0;
	}
	if (off > sizeof(*e) + 2 * CE_STACK_BYTES)
		goto out;
	if (plen && bpf_probe_read_user(s->buf + off, plen, (const void *)pa.payload)) {
		cnt->payload_faults++;
		goto out;
	}

	e->flags = flags;
	e->payload_len = plen;
	e->payload_orig_len = (__u32)pa.len;
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
