/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * usdt_generic_event.h - record of bpf/usdt_generic.bpf.c (any USDT probe),
 * shared with collector/sources/usdt_generic.c.
 *
 * MUST MATCH between the BPF object and user space: only __u8/__u16/__u32/
 * __u64, 8-byte fields first, no implicit padding, no includes (the includer
 * provides struct ce_header from collector_event.h first).  User space pins
 * the size with _Static_assert (collector/sources/usdt_generic.c).
 *
 * CE_REC_USDT_GENERIC record: struct ce_usdt_generic, then the string
 * arguments' bytes (no NUL), in argument order, str_len[i] bytes for every
 * argument i whose bit is set in the cookie's string masks, zero-padded so
 * hdr.size is a multiple of 8.
 *
 * Cookie (opts.usdt_cookie):
 *   bits  0..31  index of the probe in the collector's generic probe table
 *   bits 32..43  UG_STR:  argument i is a pointer to a NUL-terminated string
 *   bits 44..55  UG_LSTR: argument i is a pointer to a string whose byte
 *                length is argument i + 1 (HotSpot's convention)
 * so the BPF program needs no per-probe map lookup.
 */
#ifndef EBPF_COLLECT_USDT_GENERIC_H
#define EBPF_COLLECT_USDT_GENERIC_H

#define UG_MAX_ARGS		12	/* libbpf's BPF_USDT_MAX_ARG_CNT */
#define UG_MAX_STR		256	/* bytes kept per string argument */

#define UG_COOKIE(idx, str_mask, lstr_mask) \
	((__u64)(__u32)(idx) | ((__u64)((str_mask) & 0xfff) << 32) | \
	 ((__u64)((lstr_mask) & 0xfff) << 44))
#define UG_COOKIE_INDEX(c)	((__u32)(c))
#define UG_COOKIE_STR(c)	((__u32)((c) >> 32) & 0xfff)
#define UG_COOKIE_LSTR(c)	((__u32)((c) >> 44) & 0xfff)

/* ce_usdt_generic.flags */
#define UG_F_ARGS_ERROR		0x1	/* bpf_usdt_arg failed for some argument */

/* 168 bytes, then string bytes */
struct ce_usdt_generic {
	struct ce_header hdr;		/* type CE_REC_USDT_GENERIC */
	__u64 cookie;			/* opts.usdt_cookie of the probe */
	__u64 args[UG_MAX_ARGS];	/* as decoded by bpf_usdt_arg (sign-extended) */
	__u16 str_len[UG_MAX_ARGS];	/* bytes of string argument i in the record */
	__u32 cpu;
	__u16 nargs;			/* bpf_usdt_arg_cnt */
	__u16 flags;			/* UG_F_* */
	__u16 str_trunc;		/* bit i: string argument i was cut at UG_MAX_STR */
	__u16 str_fault;		/* bit i: string argument i could not be read */
	__u32 reserved;
};

/* Per-CPU counters (PERCPU_ARRAY, key 0), summed by user space. */
struct ug_counters {
	__u64 hits;		/* program entries */
	__u64 submitted;	/* records handed to the ring buffer */
	__u64 rb_drops;		/* bpf_ringbuf_output failed: buffer full */
	__u64 str_truncated;	/* string arguments cut at UG_MAX_STR */
	__u64 str_faults;	/* string arguments that could not be read (sent empty) */
	__u64 nested_drops;	/* scratch busy (preempted on this CPU): dropped */
	__u64 bytes;		/* bytes submitted */
	__u64 wakeups;		/* forced consumer wakeups */
	__u64 filtered;		/* targ_follow: not a target nor a descendant */
	__u64 pad;
};

#define UG_MAX_ANCESTORS	16	/* parent-chain walk of targ_follow */

#endif /* EBPF_COLLECT_USDT_GENERIC_H */
