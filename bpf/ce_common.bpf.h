/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ce_common.bpf.h - BPF-side helpers shared by the collector's programs
 * (clr_events, kernel_events, usdt_generic).
 *
 * Include it after ce_maps.bpf.h: ce_wakeup_flags() uses the ring buffer
 * `rb` and the knobs `targ_wakeup_bytes` / `targ_backstop_bytes`.
 */
#ifndef EBPF_COLLECT_CE_COMMON_BPF_H
#define EBPF_COLLECT_CE_COMMON_BPF_H

/*
 * Batched wakeups (architecture decision 13): records are submitted without
 * waking the consumer, except when this record makes the unconsumed data
 * cross the wakeup threshold (or the later backstop threshold).  Otherwise
 * the consumer's poll timeout picks the records up.
 */
static __always_inline __u64 ce_wakeup_flags(__u64 size)
{
	__u64 avail;

	if (!targ_wakeup_bytes)
		return BPF_RB_NO_WAKEUP;
	avail = bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA);
	if (avail < targ_wakeup_bytes && avail + size >= targ_wakeup_bytes)
		return BPF_RB_FORCE_WAKEUP;
	if (avail < targ_backstop_bytes && avail + size >= targ_backstop_bytes)
		return BPF_RB_FORCE_WAKEUP;
	return BPF_RB_NO_WAKEUP;
}

/*
 * Hand a record assembled in per-CPU scratch memory to the ring buffer and
 * count it in cnt, the program's per-CPU counters (any struct with
 * submitted, bytes, rb_drops and wakeups).  A full ring drops the record:
 * the traced program never waits for the reader.
 */
#define ce_submit(buf, size, cnt) do {						\
	__u64 __wflags = ce_wakeup_flags(size);					\
										\
	if (bpf_ringbuf_output(&rb, (buf), (size), __wflags)) {			\
		(cnt)->rb_drops++;						\
	} else {								\
		(cnt)->submitted++;						\
		(cnt)->bytes += (size);						\
		if (__wflags == BPF_RB_FORCE_WAKEUP)				\
			(cnt)->wakeups++;					\
	}									\
} while (0)

/*
 * User stack by frame-pointer walk (decision 6), used instead of
 * bpf_get_stack(BPF_F_USER_STACK), which follows %rbp blindly:
 *  - the last frame of a thread (glibc's start_thread, built without frame
 *    pointers) leaves a garbage %rbp whose read faults with page faults
 *    disabled -- an exception per event, ~600 ns here even for 2-3 frames;
 *  - a libc function that uses %rbp as a scratch register made it repeat
 *    one address up to the depth limit.
 * Here a frame pointer is only followed when it lies above the previous
 * one, 8-byte aligned, within CE_STACK_SPAN of the stack pointer, so the
 * walk stops at the first frame without one.
 *
 * Writes ip then one return address per frame, leaf first (like
 * bpf_get_stack) into buf[0 .. CE_MAX_STACK_DEPTH-1]; returns the number of
 * frames (at least 1) and sets *truncated when the depth limit was reached.
 */
#define CE_STACK_SPAN	(8U << 20)

struct ce_fp_frame {
	__u64 next;
	__u64 ret;
};

static __always_inline __u32 ce_fp_walk(__u64 ip, __u64 sp, __u64 fp, __u64 *buf,
					int *truncated)
{
	struct ce_fp_frame fr;
	__u32 n = 1, i;

	buf[0] = ip;
	for (i = 1; i < CE_MAX_STACK_DEPTH; i++) {
		if (fp < sp || fp - sp > CE_STACK_SPAN || (fp & 7))
			return n;
		if (bpf_probe_read_user(&fr, sizeof(fr), (const void *)fp) || !fr.ret)
			return n;
		buf[i] = fr.ret;
		n = i + 1;
		if (fr.next <= fp)
			return n;
		fp = fr.next;
	}
	*truncated = 1;
	return n;
}

#endif /* EBPF_COLLECT_CE_COMMON_BPF_H */
