/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kernel_event.h - records of bpf/kernel_events.bpf.c (CPU samples,
 * context switches and wake-ups, off-CPU intervals, syscalls, process
 * lifecycle), shared with collector/sources/kernel_events.c.
 *
 * MUST MATCH between the BPF object and user space: only __u8/__u16/__u32/
 * __u64 (and __s32/__s64), 8-byte fields first, no implicit padding; every
 * record starts with struct ce_header (bpf/collector_event.h) and has a size
 * that is a multiple of 8.  collector/sources/kernel_events.c pins the sizes with
 * _Static_assert.  Record types live in CE_REC_KERNEL_FIRST..LAST (16..63).
 *
 * Stacks follow the fixed part of a record: kstack_depth kernel frames then
 * ustack_depth user frames, each leaf first -- together exactly the
 * leaf-first stack a nettrace event carries (kernel frames, then user).
 * A CPU sample of --call-graph dwarf (KE_F_USTACK_COPY) has no user frames:
 * after its kernel frames come struct ke_ustack_copy and the copied top of
 * the user stack, which the collector unwinds (symbolizer/unwind.c).
 */
#ifndef EBPF_COLLECT_KERNEL_EVENT_H
#define EBPF_COLLECT_KERNEL_EVENT_H

#include "collector_event.h"

#define KE_REC_SAMPLE	16	/* perf_event CPU-clock sample, + stacks */
#define KE_REC_SWITCH	17	/* sched_switch, + off-CPU stack of prev when traced */
#define KE_REC_WAKEUP	18	/* sched_waking (in the waker's context) */
#define KE_REC_OFFCPU	19	/* switch-in of a thread: how long it was off CPU */
#define KE_REC_SYSCALL	20	/* raw_syscalls sys_enter + sys_exit pair */
#define KE_REC_FORK	21	/* sched_process_fork (process or thread) */
#define KE_REC_EXEC	22	/* sched_process_exec */
#define KE_REC_EXIT	23	/* sched_process_exit (per thread) */

/* groups: targ_groups bits and the --kernel list */
#define KE_GROUP_SCHED		0x1
#define KE_GROUP_SYSCALLS	0x2
#define KE_GROUP_PROC		0x4

/* flags of records that carry stacks */
#define KE_F_KSTACK_TRUNCATED	0x1
#define KE_F_USTACK_TRUNCATED	0x2
#define KE_F_STACK_ERROR	0x4
#define KE_F_HAS_STACK		0x8	/* SWITCH: prev's off-CPU stack follows;
					 * WAKEUP: the waker's stack follows */
/* KE_REC_SYSCALL flags */
#define KE_F_NORETURN		0x10	/* exit/exit_group: emitted at entry, no ret */
/* KE_REC_SAMPLE: registers and user stack copy instead of user frames */
#define KE_F_USTACK_COPY	0x20

/* --stack-size: bytes of user stack a dwarf-mode sample copies from sp.
 * perf's default; the bound keeps the per-CPU copy buffer small. */
#define KE_USTACK_COPY_DEFAULT	8192
#define KE_USTACK_COPY_MAX	32768

#define KE_COMM_LEN		16
#define KE_MAX_SELECTED		65536	/* processes --all's selection samples at once */
#define KE_FILENAME_LEN		256

/* KE_REC_SAMPLE: 40 bytes + stacks; hdr.pid/tid = the sampled thread */
struct ke_sample {
	struct ce_header hdr;
	__u32 cpu;
	__u16 kstack_depth;
	__u16 ustack_depth;
	__u32 flags;
	__u32 reserved;
};

/*
 * After the kernel frames of a KE_F_USTACK_COPY sample: the interrupted
 * thread's user registers that x86-64 CFI starts from (the pc, the stack
 * pointer every CFA rule of ordinary code is based on, and %rbp, the CFA of
 * code that keeps a frame pointer and the chain JIT code is walked by),
 * then `size` bytes read from sp upwards (fewer than asked where the stack
 * ends), padded to 8.
 */
struct ke_ustack_copy {
	__u64 ip;
	__u64 sp;
	__u64 bp;
	__u32 size;
	__u32 reserved;
};

/* KE_REC_SWITCH: 96 bytes (+ stacks when KE_F_HAS_STACK); hdr.pid/tid = prev */
struct ke_switch {
	struct ce_header hdr;
	__u64 prev_state;		/* TASK_* bits; 0 = preempted (runnable) */
	__u32 next_pid;			/* tgid */
	__u32 next_tid;
	__s32 prev_prio;
	__s32 next_prio;
	__u32 cpu;
	__u32 flags;
	__u16 kstack_depth;
	__u16 ustack_depth;
	__u32 reserved;
	char prev_comm[KE_COMM_LEN];
	char next_comm[KE_COMM_LEN];
};

/* KE_REC_WAKEUP: 72 bytes (+ the waker's stacks when it is traced:
 * KE_F_HAS_STACK); hdr.pid/tid = the waker (current; in interrupt context
 * the interrupted thread) */
struct ke_wakeup {
	struct ce_header hdr;
	__u32 wakee_pid;
	__u32 wakee_tid;
	__s32 wakee_prio;
	__u32 target_cpu;
	__u32 cpu;
	__u32 flags;
	__u16 kstack_depth;
	__u16 ustack_depth;
	__u32 reserved;
	char wakee_comm[KE_COMM_LEN];
};

/* KE_REC_OFFCPU: 64 bytes; hdr = the thread switched in, at switch-in time.
 * Its off-CPU stack is the one of its last KE_REC_SWITCH (switch-out). */
struct ke_offcpu {
	struct ce_header hdr;
	__u64 start_ts;			/* switch-out time */
	__u64 duration_ns;		/* hdr.timestamp - start_ts */
	__u64 prev_state;		/* state it left the CPU in */
	__u32 waker_pid;		/* 0: no wake-up seen (preempted, or before the trace) */
	__u32 waker_tid;
	__u32 cpu;
	__u32 reserved;
};

/* KE_REC_SYSCALL: 104 bytes; at sys_exit (hdr.timestamp = exit time) */
struct ke_syscall {
	struct ce_header hdr;
	__u64 enter_ts;
	__u64 duration_ns;
	__s64 ret;
	__u64 args[6];
	__u32 id;
	__u32 flags;
};

/* KE_REC_FORK: 72 bytes; hdr = the parent (current) */
struct ke_fork {
	struct ce_header hdr;
	__u32 child_pid;		/* tgid */
	__u32 child_tid;
	__u32 is_thread;		/* child joined the parent's thread group */
	__u32 reserved;
	char parent_comm[KE_COMM_LEN];
	char child_comm[KE_COMM_LEN];
};

/* KE_REC_EXEC: 304 bytes; hdr = the process after exec */
struct ke_exec {
	struct ce_header hdr;
	__u32 old_tid;			/* the thread that called execve */
	__u32 filename_len;		/* bytes in filename, without the NUL */
	char comm[KE_COMM_LEN];		/* comm after exec */
	char filename[KE_FILENAME_LEN];	/* NUL-terminated, possibly cut */
};

/* KE_REC_EXIT: 48 bytes; hdr = the exiting thread */
struct ke_exit {
	struct ce_header hdr;
	__s32 exit_code;		/* wait status: (status << 8) | signal */
	__u32 group_dead;		/* last thread of its process */
	char comm[KE_COMM_LEN];
};

/* Per-CPU counters (PERCPU_ARRAY, key 0), summed by user space. */
struct ke_counters {
	__u64 samples;		/* perf_event program runs */
	__u64 submitted;	/* records handed to the ring buffer */
	__u64 rb_drops;		/* ring buffer full: record lost */
	__u64 filtered;		/* not a target: ignored */
	__u64 nested_drops;	/* per-CPU scratch busy: record lost */
	__u64 kstack_truncated;
	__u64 ustack_truncated;
	__u64 stack_errors;
	__u64 syscall_orphans;	/* sys_exit without a sys_enter seen */
	__u64 offcpu_orphans;	/* switch-in without a switch-out seen */
	__u64 followed;		/* child processes added to the targets */
	__u64 bytes;		/* bytes submitted */
	__u64 ustack_copy_errors;	/* dwarf mode: not one byte of the user stack readable */
	__u64 ustack_copy_short;	/* dwarf mode: copy cut where the stack ends (or a page
					 * is not resident) */
	__u64 eh_cfi_frames;	/* eh mode: user frames found by an .eh_frame row */
	__u64 eh_fp_frames;	/* eh mode: ... by the frame-pointer step (no row) */
	__u64 eh_unready_samples;	/* eh mode: samples of a process whose tables were not
					 * loaded yet, or with a frame in a file whose table
					 * was still being built */
	__u64 eh_scan_frames;	/* eh mode: frameless methods' callers found by the scan */
	__u64 eh_scan_cut;	/* eh mode: scans that stopped at EH_SCAN_WORDS words */
};

#endif /* EBPF_COLLECT_KERNEL_EVENT_H */
