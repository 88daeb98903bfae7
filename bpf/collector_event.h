/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collector_event.h - records shared by the bpf/ programs and collector/.
 *
 * MUST MATCH between the BPF objects and user space: only __u8/__u16/__u32/
 * __u64, 8-byte fields first, no implicit padding, no includes.  User space
 * pins the sizes with _Static_assert (collector/sources/clr_events.c).
 *
 * Every record in the ring buffer starts with struct ce_header; `type`
 * says what follows and `size` is the whole record in bytes (header
 * included, a multiple of 8), so a reader can skip types it does not know.
 *
 *   CE_REC_CLR_EVENT   a manifest (CLR) event from clr_events.bpf.c:
 *                      struct ce_clr_event, then ustack_depth u64 user
 *                      frames (leaf first), kstack_depth u64 kernel frames,
 *                      then payload_len payload bytes, zero-padded to 8.
 *   CE_REC_CLR_BATCH   a run of one thread's batched manifest events
 *                      (clr_batch in clr_events.bpf.c): struct
 *                      ce_clr_batch, then data_len bytes of records as
 *                      the provider wrote them (usdt/provider_abi.h).
 *   CE_REC_KERNEL_*    reserved for kernel events (samples,
 *                      sched, syscalls, process lifecycle).
 *   CE_REC_USDT_GENERIC reserved for arbitrary USDT probes.
 */
#ifndef EBPF_COLLECT_COLLECTOR_EVENT_H
#define EBPF_COLLECT_COLLECTOR_EVENT_H

/* record types */
#define CE_REC_CLR_EVENT	1
#define CE_REC_USDT_GENERIC	2
#define CE_REC_CLR_BATCH	3
#define CE_REC_KERNEL_FIRST	16	/* 16..63 */
#define CE_REC_KERNEL_LAST	63

/* limits */
/* The largest payload TraceEvent's TraceLog converts: it copies each event
 * into its ETLX file as a record of at most 64 KiB with 99 bytes of its own,
 * and a larger one aborts the whole conversion ("Read past end of stream"),
 * so PerfView could not open the file.  Measured with TraceEvent 4.0.0:
 * 65436 converts, 65437 does not, with or without activity ids and stacks. */
#define CE_MAX_PAYLOAD		65436
#define CE_STR_(x)		#x
#define CE_STR(x)		CE_STR_(x)	/* CE_STR(CE_MAX_PAYLOAD): "65436" */
#define CE_MAX_STACK_DEPTH	127	/* PERF_MAX_STACK_DEPTH (sysctl default) */
#define CE_STACK_BYTES		(CE_MAX_STACK_DEPTH * 8)
/* entries of every program's `targets` map (bpf/ce_maps.bpf.h): the
 * processes user space traces by pid, and room for their children */
#define CE_MAX_TARGETS		4096
/* the knobs targ_wakeup_bytes and targ_backstop_bytes of every program for
 * a ring of rb bytes (architecture decision 13): a quarter, three quarters */
#define CE_WAKEUP_BYTES(rb)	((rb) / 4)
#define CE_BACKSTOP_BYTES(rb)	((rb) / 4 * 3)

/* ce_clr_event.flags */
#define CE_F_PAYLOAD_TRUNCATED	0x1	/* payload_orig_len > CE_MAX_PAYLOAD: no payload
					 * copied, the collector counts the event lost */
#define CE_F_USTACK_TRUNCATED	0x2	/* user stack filled CE_MAX_STACK_DEPTH */
#define CE_F_KSTACK_TRUNCATED	0x4
#define CE_F_USTACK_ERROR	0x8	/* bpf_get_stack failed: no user stack */
#define CE_F_HAS_ACTIVITY	0x10	/* activity_id was copied (probe arg2 != 0) */
#define CE_F_HAS_RELATED	0x20	/* related_activity_id was copied (arg3 != 0) */

/* cookie layout (opts.usdt_cookie): low 32 bits = index of the event in the
 * collector's event table, bits 32..63 reserved (0). */
#define CE_COOKIE_INDEX(c)	((__u32)(c))

/* common header of every record: 24 bytes */
struct ce_header {
	__u64 timestamp;	/* bpf_ktime_get_ns(): CLOCK_MONOTONIC ns */
	__u32 type;		/* CE_REC_* */
	__u32 size;		/* whole record incl. header, multiple of 8 */
	__u32 pid;		/* tgid */
	__u32 tid;
};

/* CE_REC_CLR_EVENT: 80 bytes, then stacks and payload */
struct ce_clr_event {
	struct ce_header hdr;
	__u64 cookie;			/* opts.usdt_cookie of the probe */
	__u8 activity_id[16];		/* zero unless CE_F_HAS_ACTIVITY */
	__u8 related_activity_id[16];	/* zero unless CE_F_HAS_RELATED */
	__u32 cpu;
	__u32 flags;			/* CE_F_* */
	__u32 payload_len;		/* payload bytes in the record */
	__u32 payload_orig_len;		/* length the probe announced */
	__u16 ustack_depth;		/* frames */
	__u16 kstack_depth;
	__u32 reserved;
};

/* Per-CPU counters (PERCPU_ARRAY, key 0), summed by user space at the end. */
struct ce_counters {
	__u64 hits;		/* program entries */
	__u64 submitted;	/* records handed to the ring buffer */
	__u64 rb_drops;		/* bpf_ringbuf_output failed: buffer full */
	__u64 payload_truncated;	/* payload over CE_MAX_PAYLOAD: sent without it */
	__u64 payload_faults;	/* bpf_probe_read_user of the payload failed: dropped */
	__u64 ustack_truncated;
	__u64 ustack_errors;
	__u64 kstack_truncated;
	__u64 nested_drops;	/* scratch busy (preempted on this CPU): dropped */
	__u64 filtered;		/* tgid not a target (guard) */
	__u64 wakeups;		/* forced consumer wakeups */
	__u64 bytes;		/* bytes submitted */
	__u64 filter_drops;	/* --filter: the field did not match */
	__u64 batches;		/* batched runs handed to the ring buffer */
	__u64 batch_events;	/* events in them */
	__u64 batch_drops;	/* events in runs the ring (or a busy scratch) could not take */
};

/*
 * Batched mode: a usdt-gen provider writes events into a per-thread buffer
 * and one probe, <prefix>:batch(data, len, tid, first_seq, count), hands
 * over a run of them.  The records of a run are the provider's
 * (usdt/provider_abi.h); clr_batch copies a run whole, up to
 * CE_BATCH_MAX bytes: at least a provider's buffer (PROV_BATCH_CAP, which
 * collector/sources/batch.c checks).
 */
#define CE_BATCH_MAX		(60 * 1024)

/* CE_REC_CLR_BATCH: 48 bytes, then the run */
struct ce_clr_batch {
	struct ce_header hdr;	/* timestamp: handed over; tid: the thread that fired them */
	__u64 cookie;		/* the provider file's index in the collector's batch list */
	__u32 first_seq;	/* the thread's sequence number of the first event */
	__u32 count;		/* events in the run */
	__u32 data_len;
	__u32 flusher_tid;	/* the thread that handed it over */
};

/*
 * --filter on one event, evaluated before anything is copied: the field at
 * a fixed payload offset compared with a value (ARRAY map `filters`, key =
 * the event's table index).  Strings compare their UTF-16LE bytes with the
 * terminating NUL unit, so equal means the whole string.
 */
#define CE_FILTER_STR_MAX	128

enum ce_filter_op { CE_FOP_EQ = 1, CE_FOP_NE, CE_FOP_LT, CE_FOP_LE, CE_FOP_GT, CE_FOP_GE };
enum ce_filter_kind { CE_FK_UNSIGNED = 1, CE_FK_SIGNED, CE_FK_STRING };

struct ce_filter {
	__u8 op;		/* enum ce_filter_op; 0 = no filter */
	__u8 kind;		/* enum ce_filter_kind */
	__u8 size;		/* integer field: 1, 2, 4, 8 bytes */
	__u8 pad;
	__u16 offset;		/* in the payload */
	__u16 str_len;		/* string: bytes to compare, NUL unit included */
	__u64 value;		/* integers (signed ones sign-extended) */
	__u8 str[CE_FILTER_STR_MAX];
};

#endif /* EBPF_COLLECT_COLLECTOR_EVENT_H */
