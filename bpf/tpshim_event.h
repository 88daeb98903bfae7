/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tpshim_event.h - the record of a stock CoreCLR tracepoint call, shared by
 * bpf/tpshim.bpf.c and collector/sources/tpshim.c.  Same rules as
 * collector_event.h: __u8..__u64 only, 8-byte fields first, no implicit
 * padding; user space pins the sizes.
 *
 * The program runs on the tracepoint shim's probe function
 * (usdt/tracepoint_abi.h, TPSHIM_PROBE_SYM), called as (data = the
 * tracepoint's index in the shim's table, the event's arguments...).  It
 * copies the integer argument words where the x86-64 calling convention
 * put them (rsi, rdx, rcx, r8, r9, then the stack above the return
 * address) and the bytes the arguments its spec names point at: strings
 * up to their NUL, a buffer for its length argument; user space rebuilds
 * the manifest's payload from them.
 */
#ifndef EBPF_COLLECT_TPSHIM_EVENT_H
#define EBPF_COLLECT_TPSHIM_EVENT_H

#define CE_REC_TPSHIM		4
/* a run of one thread's batched calls from the shim's buffers
 * (usdt/tracepoint_abi.h, batched mode): struct ce_clr_batch (cookie 0),
 * then the run as the shim wrote it */
#define CE_REC_TPSHIM_BATCH	5

#define TPS_MAX_ARGS		9	/* arguments after data (.NET 10's largest) */
#define TPS_REG_ARGS		5	/* of them in registers */
#define TPS_FP_ARGS		4	/* doubles, spilled below the stack pointer by
					 * the shim's probe for them (usdt/tracepoint_abi.h,
					 * TPSHIM_PROBE_FP_SYM) */
#define TPS_FP_BELOW		64	/* xmm0 at sp - 64, ..., xmm3 at sp - 40 */
#define TPS_STR_MAX		1024	/* bytes of one string, its NUL included */
#define TPS_DATA_MAX		8192	/* bytes of a serialized payload (__data__); the
					 * strings of one event take at most
					 * TPS_MAX_ARGS * TPS_STR_MAX */
#define TPS_NO_ARG		0xff

/* tps_event.flags */
#define TPS_F_CUT		0x1	/* the buffer was cut to TPS_DATA_MAX (a string
					 * cut to TPS_STR_MAX has copied[k] == TPS_STR_MAX) */
#define TPS_F_FAULT		0x2	/* the buffer could not be read (a string
					 * that could not has copied[k] == 0) */
#define TPS_F_USTACK_TRUNCATED	0x4

/* per traced (tgid, index): what to copy.  HASH `tps_specs`, key
 * ((__u64)tgid << 32) | index; a tracepoint without one is not recorded */
struct tps_spec {
	__u16 str_mask;		/* bit k: integer argument k is a NUL-terminated string */
	__u8 buf_arg;		/* the argument that points at a buffer, or TPS_NO_ARG */
	__u8 len_arg;		/* the argument that is its length */
	__u8 nargs;		/* integer arguments */
	__u8 nfp;		/* doubles */
	__u8 pad[2];
};

/* CE_REC_TPSHIM: 168 bytes, then ustack_depth and kstack_depth u64 frames,
 * then data_len bytes (each copied argument in argument order, its length
 * in copied[k]), zero-padded to 8 */
struct tps_event {
	struct ce_header hdr;
	__u32 index;		/* the tracepoint's index in the shim's table */
	__u32 cpu;
	__u64 args[TPS_MAX_ARGS];	/* the integer arguments, in order */
	__u64 fp[TPS_FP_ARGS];		/* the doubles' bits, when the spec has any */
	__u16 ustack_depth;
	__u16 kstack_depth;
	__u16 data_len;		/* at most TPS_MAX_ARGS * TPS_STR_MAX */
	__u16 flags;		/* TPS_F_* */
	__u16 copied[TPS_MAX_ARGS + 1];	/* bytes of argument k in data (strings: NUL included) */
	__u32 reserved;
};

/* per-CPU counters (PERCPU_ARRAY `tps_counters`, key 0) */
struct tps_counters {
	__u64 hits;
	__u64 submitted;
	__u64 rb_drops;
	__u64 wakeups;
	__u64 bytes;
	__u64 unselected;	/* no spec for (tgid, index) */
	__u64 nested_drops;	/* this CPU's scratch busy */
	__u64 batches;		/* runs handed over */
	__u64 batch_events;	/* calls in them */
	__u64 batch_drops;	/* calls in runs the ring (or the scratch) could not take */
};

#endif /* EBPF_COLLECT_TPSHIM_EVENT_H */
