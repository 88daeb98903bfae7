// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kernel_events.bpf.c - kernel events next to the runtime's.
 *
 *   cpu_sample      perf_event, PERF_COUNT_SW_CPU_CLOCK per CPU (this VM has
 *                   no hardware counters): one record with the kernel and
 *                   user stack of the interrupted thread; with
 *                   targ_ustack_copy (--call-graph dwarf) the user stack is
 *                   not walked but its registers and top bytes copied, for
 *                   the collector to unwind by the files' CFI.
 *   sched_switch    tp_btf: a traced thread's switch-out (prev/next,
 *                   prev_state, its stack: where it blocks), an event of
 *                   that thread; remembers the switch-out time per thread ...
 *   sched_waking    tp_btf, in the waker's context (sched_wakeup may run on
 *                   the wakee's CPU from the wake list): who woke whom,
 *                   written when the waker is traced ...
 *                   ... so that at switch-in one KE_REC_OFFCPU says how long
 *                   the thread was off CPU and who woke it.
 *   sys_enter/exit  tp_btf raw_syscalls: one record per syscall at its exit,
 *                   with the entry arguments, duration and return value.
 *   sched_process_fork/exec/exit  tp_btf: lifecycle.  The fork program
 *                   always runs: a traced process's new child processes
 *                   join the targets map, so they are traced too.
 *
 * Every program is tp_btf or perf_event: no kprobes (absent here) and no
 * tracefs (tp_btf attaches by BTF id, so nothing needs mounting).
 *
 * Records go to the collector's ring buffer (user space reuses its map fd
 * for `rb`), so they meet the CLR events in the same reorder buffer.  Fixed
 * records are reserved in place; records with stacks are built in a per-CPU
 * scratch slot and copied with bpf_ringbuf_output, the size known only after
 * bpf_get_stack.  Slot 0 serves the sampler (hard-irq context), slot 1
 * sched_switch and slot 2 sched_waking (both run with interrupts off, so
 * the sampler cannot nest into them); a busy flag still guards each, a
 * loser counts nested_drops.
 *
 * Wake-ups of the consumer are batched as for CLR events (architecture
 * decision 13); a full ring drops and counts (rb_drops), never waits.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "kernel_event.h"
#include "ce_maps.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* knobs, set between __open() and __load() */
const volatile __u32 targ_all = 0;		/* every process, not just targets */
const volatile __u32 targ_self = 0;		/* our own tgid: never traced */
const volatile __u32 targ_groups = 0;		/* KE_GROUP_* */
const volatile __u32 targ_kstack = 1;		/* kernel stacks on samples/switches */
const volatile __u32 targ_sample_select = 0;	/* samples only of `selected` processes */
const volatile __u32 targ_ustack_copy = 0;	/* dwarf mode: user stack bytes per sample */
const volatile __u32 targ_eh_unwind = 0;	/* eh mode: user stacks by .eh_frame rows */

#define KE_STACK_BYTES	CE_STACK_BYTES
#define KE_SCRATCH_BYTES (sizeof(struct ke_switch) + 2 * KE_STACK_BYTES)
#define SLOT_SAMPLE	0
#define SLOT_SWITCH	1
#define SLOT_WAKING	2
#define TASK_NOT_RUNNING_MASK 0xff	/* TASK_REPORT bits of prev_state */

struct scratch {
	__u32 busy;
	__u32 pad;
	__u8 buf[KE_SCRATCH_BYTES];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 3);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ke_counters);
} counters SEC(".maps");

/*
 * A dwarf-mode sample is built here: fixed part, kernel frames, registers
 * and up to KE_USTACK_COPY_MAX bytes of user stack, plus a page of slack
 * the page-wise copy's last read may reach as far as the verifier knows.
 * Too big for a per-CPU value (32 KiB at most), so an array indexed by the
 * CPU, sized to the CPUs by user space when dwarf mode is on (else 1).
 */
#define KE_COPY_PAGE	4096
#define KE_COPY_BYTES	(sizeof(struct ke_sample) + KE_STACK_BYTES + \
			 sizeof(struct ke_ustack_copy) + KE_USTACK_COPY_MAX)

struct copy_buf {
	__u32 busy;
	__u32 pad;
	__u8 buf[KE_COPY_BYTES + KE_COPY_PAGE];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct copy_buf);
} ustack_copy SEC(".maps");

struct offcpu_start {
	__u64 ts;
	__u64 state;
	__u32 waker_pid;
	__u32 waker_tid;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 32768);
	__type(key, __u32);			/* tid */
	__type(value, struct offcpu_start);
} offcpu SEC(".maps");

struct sys_start {
	__u64 ts;
	__u64 args[6];
	__u64 id;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 32768);
	__type(key, __u32);			/* tid */
	__type(value, struct sys_start);
} sys_start SEC(".maps");

static __always_inline struct ke_counters *get_counters(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counters, &zero);
}

/*
 * The processes --all's --comm/--cgroup/--container select, by tgid: with
 * targ_sample_select, CPU samples of any other process are dropped here,
 * before a stack is walked.  User space adds a process when it finds it
 * selected (at the start, and after each exec); a fork inherits its
 * parent's membership (comm and cgroup are the parent's until an exec);
 * an exit removes it.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KE_MAX_SELECTED);
	__type(key, __u32);			/* tgid */
	__type(value, __u8);
} selected SEC(".maps");

#include "ce_common.bpf.h"
#include "eh_walk.bpf.h"

static __always_inline int is_target(__u32 tgid)
{
	if (!tgid || tgid == targ_self)
		return 0;
	return targ_all || bpf_map_lookup_elem(&targets, &tgid);
}


static __always_inline void *reserve(struct ke_counters *cnt, __u32 size)
{
	void *p = bpf_ringbuf_reserve(&rb, size, 0);

	if (!p)
		__sync_fetch_and_add(&cnt->rb_drops, 1);
	return p;
}

static __always_inline void submit(struct ke_counters *cnt, void *p, __u32 size)
{
	bpf_ringbuf_submit(p, ce_wakeup_flags(size));
	__sync_fetch_and_add(&cnt->submitted, 1);
	__sync_fetch_and_add(&cnt->bytes, size);
}

static __always_inline void fill_header(struct ce_header *h, __u32 type, __u32 size,
					__u32 pid, __u32 tid, __u64 ts)
{
	h->timestamp = ts;
	h->type = type;
	h->size = size;
	h->pid = pid;
	h->tid = tid;
}

/* One stack into buf; returns its depth in frames. */
static __always_inline __u32 get_stack(void *ctx, void *buf, __u64 flags, __u32 *ev_flags,
				       __u32 trunc_flag, struct ke_counters *cnt)
{
	long n = bpf_get_stack(ctx, buf, KE_STACK_BYTES, flags);

	if (n < 0) {
		*ev_flags |= KE_F_STACK_ERROR;
		__sync_fetch_and_add(&cnt->stack_errors, 1);
		return 0;
	}
	if (n >= KE_STACK_BYTES) {
		*ev_flags |= trunc_flag;
		if (trunc_flag == KE_F_KSTACK_TRUNCATED)
			__sync_fetch_and_add(&cnt->kstack_truncated, 1);
		else
			__sync_fetch_and_add(&cnt->ustack_truncated, 1);
		n = KE_STACK_BYTES;
	}
	return (__u32)n / 8;
}

#define PF_KTHREAD	0x00200000

/*
 * User stack by frame-pointer walk (ce_fp_walk), or with targ_eh_unwind by
 * the .eh_frame rows (eh_walk), from the user registers `ur` (a kernel
 * pointer: the sample's own registers when it interrupted user mode, else
 * the task's saved entry registers) into scratch slot `slot` at byte off.
 */
static __always_inline __u32 walk_user_stack(struct pt_regs *ur, struct scratch *s, __u32 slot,
					     __u32 off, __u32 *flags, struct ke_counters *cnt)
{
	__u64 ip = BPF_CORE_READ(ur, ip), sp = BPF_CORE_READ(ur, sp), fp = BPF_CORE_READ(ur, bp);
	__u64 *buf = (__u64 *)(s->buf + off);
	int truncated = 0;
	__u32 n;

	if (!ip || ip >= 0x800000000000ULL)
		return 0;
	if (targ_eh_unwind) {
		buf[0] = ip;
		n = eh_walk(ip, sp, fp, bpf_get_current_pid_tgid() >> 32, slot, off, &truncated,
			    cnt);
	} else {
		n = ce_fp_walk(ip, sp, fp, buf, &truncated);
	}
	if (truncated) {
		*flags |= KE_F_USTACK_TRUNCATED;
		__sync_fetch_and_add(&cnt->ustack_truncated, 1);
	}
	return n;
}

/*
 * Kernel stack (bpf_get_stack, skipping kskip frames of the tracing
 * itself) then user stack after a fixed part of `fixed` bytes in s->buf.
 * ur: user registers, NULL for none.  Returns the record size; kd and ud
 * get the depths.
 */
static __always_inline __u32 add_stacks(void *ctx, struct scratch *s, __u32 slot, __u32 fixed,
					__u64 kskip, struct pt_regs *ur, __u16 *kd, __u16 *ud,
					__u32 *flags, struct ke_counters *cnt)
{
	__u32 k = 0, u = 0, off;

	if (targ_kstack)
		k = get_stack(ctx, s->buf + fixed, kskip & BPF_F_SKIP_FIELD_MASK, flags,
			      KE_F_KSTACK_TRUNCATED, cnt);
	if (k > CE_MAX_STACK_DEPTH)
		k = CE_MAX_STACK_DEPTH;
	off = fixed + k * 8;
	if (off > sizeof(struct ke_switch) + KE_STACK_BYTES)
		return 0;
	if (ur)
		u = walk_user_stack(ur, s, slot, off, flags, cnt);
	if (u > CE_MAX_STACK_DEPTH)
		u = CE_MAX_STACK_DEPTH;
	*kd = k;
	*ud = u;
	return off + u * 8;
}

/* The current task's user registers, NULL for a kernel thread. */
static __always_inline struct pt_regs *task_user_regs(void)
{
	struct task_struct *t = bpf_get_current_task_btf();

	if (t->flags & PF_KTHREAD)
		return NULL;
	return (struct pt_regs *)bpf_task_pt_regs(t);
}

static __always_inline struct scratch *slot_get(__u32 slot, struct ke_counters *cnt)
{
	struct scratch *s = bpf_map_lookup_elem(&scratch, &slot);

	if (!s)
		return NULL;
	if (__sync_val_compare_and_swap(&s->busy, 0, 1) != 0) {
		__sync_fetch_and_add(&cnt->nested_drops, 1);
		return NULL;
	}
	return s;
}

static __always_inline void slot_output(struct scratch *s, __u32 size, struct ke_counters *cnt)
{
	if (size && size <= KE_SCRATCH_BYTES) {
		if (bpf_ringbuf_output(&rb, s->buf, size, ce_wakeup_flags(size))) {
			__sync_fetch_and_add(&cnt->rb_drops, 1);
		} else {
			__sync_fetch_and_add(&cnt->submitted, 1);
			__sync_fetch_and_add(&cnt->bytes, size);
		}
	}
	*(volatile __u32 *)&s->busy = 0;
}

/* ------------------------------------------------------------ samples */

/*
 * Registers and the top of the user stack at buf + off (dwarf mode).  One
 * read of the whole size first; where it fails (the stack ends within it:
 * a shallow main thread near the top of its mapping) page by page from sp,
 * keeping what was readable.  Returns the record size.
 */
static __always_inline __u32 copy_user_stack(struct pt_regs *ur, __u8 *buf, __u32 off,
					     __u32 *flags, struct ke_counters *cnt)
{
	__u64 ip = BPF_CORE_READ(ur, ip), sp = BPF_CORE_READ(ur, sp), bp = BPF_CORE_READ(ur, bp);
	__u64 want = targ_ustack_copy, got = 0, chunk, lim;
	struct ke_ustack_copy *u;
	__u8 *dst;
	int i;

	if (off > sizeof(struct ke_sample) + KE_STACK_BYTES)
		return 0;
	if (!ip || ip >= 0x800000000000ULL)
		return off;
	if (want > KE_USTACK_COPY_MAX)
		want = KE_USTACK_COPY_MAX;
	u = (void *)(buf + off);
	u->ip = ip;
	u->sp = sp;
	u->bp = bp;
	u->reserved = 0;
	dst = buf + off + sizeof(*u);
	if (!bpf_probe_read_user(dst, want, (const void *)sp)) {
		got = want;
	} else {
		lim = KE_COPY_PAGE - (sp & (KE_COPY_PAGE - 1));
		for (i = 0; i < KE_USTACK_COPY_MAX / KE_COPY_PAGE + 1; i++) {
			if (got >= want || got > KE_USTACK_COPY_MAX)
				break;
			chunk = want - got;
			if (chunk > lim)
				chunk = lim;
			if (chunk > KE_COPY_PAGE)
				chunk = KE_COPY_PAGE;
			if (bpf_probe_read_user(dst + got, chunk, (const void *)(sp + got)))
				break;
			got += chunk;
			lim = KE_COPY_PAGE;
		}
		if (!got) {
			*flags |= KE_F_STACK_ERROR;
			__sync_fetch_and_add(&cnt->ustack_copy_errors, 1);
		} else {
			__sync_fetch_and_add(&cnt->ustack_copy_short, 1);
		}
	}
	u->size = got;
	*flags |= KE_F_USTACK_COPY;
	return off + sizeof(*u) + ((got + 7) & ~7ULL);
}

/* A dwarf-mode sample: kernel frames as always, then the user stack copy. */
static __always_inline int sample_copy(struct bpf_perf_event_data *ctx, struct pt_regs *ur,
				       __u32 tgid, __u32 tid, struct ke_counters *cnt)
{
	__u32 key = bpf_get_smp_processor_id(), k = 0, size, flags = 0;
	struct copy_buf *c = bpf_map_lookup_elem(&ustack_copy, &key);
	struct ke_sample *e;

	if (!c) {
		__sync_fetch_and_add(&cnt->stack_errors, 1);
		return 0;
	}
	if (__sync_val_compare_and_swap(&c->busy, 0, 1) != 0) {
		__sync_fetch_and_add(&cnt->nested_drops, 1);
		return 0;
	}
	e = (void *)c->buf;
	e->cpu = key;
	e->reserved = 0;
	if (targ_kstack)
		k = get_stack(ctx, c->buf + sizeof(*e), 0, &flags, KE_F_KSTACK_TRUNCATED, cnt);
	if (k > CE_MAX_STACK_DEPTH)
		k = CE_MAX_STACK_DEPTH;
	size = sizeof(*e) + k * 8;
	if (ur)
		size = copy_user_stack(ur, c->buf, size, &flags, cnt);
	e->kstack_depth = k;
	e->ustack_depth = 0;
	e->flags = flags;
	fill_header(&e->hdr, KE_REC_SAMPLE, size, tgid, tid, bpf_ktime_get_ns());
	if (size && size <= KE_COPY_BYTES) {
		if (bpf_ringbuf_output(&rb, c->buf, size, ce_wakeup_flags(size))) {
			__sync_fetch_and_add(&cnt->rb_drops, 1);
		} else {
			__sync_fetch_and_add(&cnt->submitted, 1);
			__sync_fetch_and_add(&cnt->bytes, size);
		}
	}
	*(volatile __u32 *)&c->busy = 0;
	return 0;
}

static __always_inline int handle_sample(struct bpf_perf_event_data *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, size, flags = 0;
	struct ke_counters *cnt = get_counters();
	struct ke_sample *e;
	struct pt_regs *ur;
	struct scratch *s;

	if (!cnt)
		return 0;
	__sync_fetch_and_add(&cnt->samples, 1);
	if (!(__u32)id || !is_target(tgid) ||	/* idle (tid 0) or not traced */
	    (targ_sample_select && !bpf_map_lookup_elem(&selected, &tgid))) {
		__sync_fetch_and_add(&cnt->filtered, 1);
		return 0;
	}
	if (targ_ustack_copy) {
		ur = (struct pt_regs *)&ctx->regs;
		if (!(BPF_CORE_READ(ur, cs) & 3))
			ur = task_user_regs();
		return sample_copy(ctx, ur, tgid, (__u32)id, cnt);
	}
	s = slot_get(SLOT_SAMPLE, cnt);
	if (!s)
		return 0;
	e = (void *)s->buf;
	e->cpu = bpf_get_smp_processor_id();
	e->reserved = 0;
	ur = (struct pt_regs *)&ctx->regs;
	if (!(BPF_CORE_READ(ur, cs) & 3))	/* interrupted the kernel */
		ur = task_user_regs();
	size = add_stacks(ctx, s, SLOT_SAMPLE, sizeof(*e), 0, ur, &e->kstack_depth,
			  &e->ustack_depth, &flags, cnt);
	e->flags = flags;
	fill_header(&e->hdr, KE_REC_SAMPLE, size, tgid, (__u32)id, bpf_ktime_get_ns());
	slot_output(s, size, cnt);
	return 0;
}

SEC("perf_event")
int cpu_sample(struct bpf_perf_event_data *ctx)
{
	return handle_sample(ctx);
}

/* -------------------------------------------------------------- sched */

/* kernel frames of the tracing itself atop a tp_btf stack: this program
 * and bpf_trace_run4; the stack then starts at __schedule */
#define SWITCH_KSKIP	2

static __always_inline void emit_switch(void *ctx, struct task_struct *prev,
					struct task_struct *next, __u64 prev_state,
					__u64 ts, struct ke_counters *cnt)
{
	__u32 size = sizeof(struct ke_switch), flags = 0;
	struct ke_switch *e;
	struct scratch *s;

	s = slot_get(SLOT_SWITCH, cnt);
	if (!s)
		return;
	e = (void *)s->buf;
	e->prev_state = prev_state;
	e->next_pid = next->tgid;
	e->next_tid = next->pid;
	e->prev_prio = prev->prio;
	e->next_prio = next->prio;
	e->cpu = bpf_get_smp_processor_id();
	e->reserved = 0;
	e->kstack_depth = 0;
	e->ustack_depth = 0;
	bpf_probe_read_kernel_str(e->prev_comm, sizeof(e->prev_comm), prev->comm);
	bpf_probe_read_kernel_str(e->next_comm, sizeof(e->next_comm), next->comm);
	/* current is still prev here: its stacks are where it leaves the CPU */
	size = add_stacks(ctx, s, SLOT_SWITCH, sizeof(*e), SWITCH_KSKIP, task_user_regs(),
			  &e->kstack_depth, &e->ustack_depth, &flags, cnt);
	flags |= KE_F_HAS_STACK;
	e->flags = flags;
	fill_header(&e->hdr, KE_REC_SWITCH, size, prev->tgid, prev->pid, ts);
	slot_output(s, size, cnt);
}

static __always_inline void emit_offcpu(struct task_struct *next, __u64 ts,
					struct ke_counters *cnt)
{
	__u32 tid = next->pid;
	struct offcpu_start *st = bpf_map_lookup_elem(&offcpu, &tid);
	struct ke_offcpu *e;

	if (!st) {
		__sync_fetch_and_add(&cnt->offcpu_orphans, 1);
		return;
	}
	e = reserve(cnt, sizeof(*e));
	if (e) {
		fill_header(&e->hdr, KE_REC_OFFCPU, sizeof(*e), next->tgid, tid, ts);
		e->start_ts = st->ts;
		e->duration_ns = ts - st->ts;
		e->prev_state = st->state;
		e->waker_pid = st->waker_pid;
		e->waker_tid = st->waker_tid;
		e->cpu = bpf_get_smp_processor_id();
		e->reserved = 0;
		submit(cnt, e, sizeof(*e));
	}
	bpf_map_delete_elem(&offcpu, &tid);
}

static __always_inline int handle_switch(void *ctx, struct task_struct *prev,
					 struct task_struct *next, unsigned int prev_state)
{
	int prev_traced = prev->pid && is_target(prev->tgid);
	int next_traced = next->pid && is_target(next->tgid);
	struct ke_counters *cnt = get_counters();
	__u64 ts = bpf_ktime_get_ns();

	if (!cnt)
		return 0;
	if (!prev_traced && !next_traced) {
		__sync_fetch_and_add(&cnt->filtered, 1);
		return 0;
	}
	/* A switch is an event of the thread that leaves the CPU: written only
	 * when that thread is traced.  A traced thread switching in (from the
	 * idle task or another process) is its OffCpu event. */
	if (prev_traced) {
		struct offcpu_start st = { .ts = ts, .state = prev_state };
		__u32 tid = prev->pid;

		bpf_map_update_elem(&offcpu, &tid, &st, BPF_ANY);
		emit_switch(ctx, prev, next, prev_state, ts, cnt);
	}
	if (next_traced)
		emit_offcpu(next, ts, cnt);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	return handle_switch(ctx, prev, next, prev_state);
}

/* kernel frames of the tracing atop a sched_waking stack: this program
 * and bpf_trace_run1 */
#define WAKING_KSKIP	2

static __always_inline int handle_waking(void *ctx, struct task_struct *p)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct ke_counters *cnt = get_counters();
	__u32 tid = p->pid, wakee_pid = p->tgid, size = sizeof(struct ke_wakeup), flags = 0;
	int waker_traced = is_target(id >> 32);
	struct offcpu_start *st;
	struct ke_wakeup *e;
	struct scratch *s;

	if (!cnt)
		return 0;
	st = bpf_map_lookup_elem(&offcpu, &tid);
	if (st) {
		st->waker_pid = id >> 32;
		st->waker_tid = (__u32)id;
	}
	/* The wake-up is an event of the waker's thread: written only when the
	 * waker is traced (never the idle task: tgid 0).  Another waker of a
	 * traced thread is named in that thread's OffCpu event. */
	if (!waker_traced) {
		__sync_fetch_and_add(&cnt->filtered, 1);
		return 0;
	}
	s = slot_get(SLOT_WAKING, cnt);
	if (!s)
		return 0;
	e = (void *)s->buf;
	e->wakee_pid = wakee_pid;
	e->wakee_tid = tid;
	e->wakee_prio = p->prio;
	e->target_cpu = BPF_CORE_READ(p, wake_cpu);
	e->cpu = bpf_get_smp_processor_id();
	e->reserved = 0;
	e->kstack_depth = 0;
	e->ustack_depth = 0;
	bpf_probe_read_kernel_str(e->wakee_comm, sizeof(e->wakee_comm), p->comm);
	if ((__u32)id) {	/* where the waker released the wakee */
		size = add_stacks(ctx, s, SLOT_WAKING, sizeof(*e), WAKING_KSKIP, task_user_regs(),
				  &e->kstack_depth, &e->ustack_depth, &flags, cnt);
		flags |= KE_F_HAS_STACK;
	}
	e->flags = flags;
	fill_header(&e->hdr, KE_REC_WAKEUP, size, id >> 32, (__u32)id, bpf_ktime_get_ns());
	slot_output(s, size, cnt);
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(sched_waking, struct task_struct *p)
{
	return handle_waking(ctx, p);
}

/* ----------------------------------------------------------- syscalls */

#define NR_EXIT		60
#define NR_EXIT_GROUP	231

static __always_inline void emit_syscall(__u64 id, __u32 nr, const struct sys_start *st,
					 __s64 ret, __u32 flags, __u64 ts,
					 struct ke_counters *cnt)
{
	struct ke_syscall *e = reserve(cnt, sizeof(*e));
	int i;

	if (!e)
		return;
	fill_header(&e->hdr, KE_REC_SYSCALL, sizeof(*e), id >> 32, (__u32)id, ts);
	e->enter_ts = st->ts;
	e->duration_ns = ts - st->ts;
	e->ret = ret;
	for (i = 0; i < 6; i++)
		e->args[i] = st->args[i];
	e->id = nr;
	e->flags = flags;
	submit(cnt, e, sizeof(*e));
}

static __always_inline int handle_sys_enter(struct pt_regs *regs, long nr)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct ke_counters *cnt = get_counters();
	struct sys_start st;
	__u32 tid = (__u32)id;

	if (!cnt)
		return 0;
	if (!is_target(id >> 32)) {
		__sync_fetch_and_add(&cnt->filtered, 1);
		return 0;
	}
	st.ts = bpf_ktime_get_ns();
	st.id = nr;
	st.args[0] = BPF_CORE_READ(regs, di);
	st.args[1] = BPF_CORE_READ(regs, si);
	st.args[2] = BPF_CORE_READ(regs, dx);
	st.args[3] = BPF_CORE_READ(regs, r10);
	st.args[4] = BPF_CORE_READ(regs, r8);
	st.args[5] = BPF_CORE_READ(regs, r9);
	if (nr == NR_EXIT || nr == NR_EXIT_GROUP) {	/* never returns */
		emit_syscall(id, nr, &st, 0, KE_F_NORETURN, st.ts, cnt);
		return 0;
	}
	bpf_map_update_elem(&sys_start, &tid, &st, BPF_ANY);
	return 0;
}

static __always_inline int handle_sys_exit(long ret)
{
	__u64 id = bpf_get_current_pid_tgid(), ts = bpf_ktime_get_ns();
	struct ke_counters *cnt = get_counters();
	__u32 tid = (__u32)id;
	struct sys_start *st;

	if (!cnt)
		return 0;
	st = bpf_map_lookup_elem(&sys_start, &tid);
	if (!st) {
		if (is_target(id >> 32))
			__sync_fetch_and_add(&cnt->syscall_orphans, 1);
		return 0;
	}
	emit_syscall(id, (__u32)st->id, st, ret, 0, ts, cnt);
	bpf_map_delete_elem(&sys_start, &tid);
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(sys_enter, struct pt_regs *regs, long nr)
{
	return handle_sys_enter(regs, nr);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit, struct pt_regs *regs, long ret)
{
	return handle_sys_exit(ret);
}

/* ------------------------------------------------------------ process */

static __always_inline int handle_fork(struct task_struct *parent, struct task_struct *child)
{
	__u32 ppid = parent->tgid, cpid = child->tgid;
	struct ke_counters *cnt = get_counters();
	struct ke_fork *e;
	__u8 one = 1;

	if (!cnt)
		return 0;
	if (!is_target(ppid)) {
		__sync_fetch_and_add(&cnt->filtered, 1);
		return 0;
	}
	if (cpid != ppid && !targ_all) {	/* a new process: follow it */
		bpf_map_update_elem(&targets, &cpid, &one, BPF_ANY);
		__sync_fetch_and_add(&cnt->followed, 1);
	}
	if (cpid != ppid && targ_sample_select && bpf_map_lookup_elem(&selected, &ppid))
		bpf_map_update_elem(&selected, &cpid, &one, BPF_ANY);
	if (cpid != ppid && targ_eh_unwind) {	/* the same mappings, until an exec */
		struct eh_proc *ep = bpf_map_lookup_elem(&eh_procs, &ppid);

		/* the parent's slot: user space gives the child its own when it
		 * first sees it */

		if (ep)
			bpf_map_update_elem(&eh_procs, &cpid, ep, BPF_ANY);
	}
	if (!(targ_groups & KE_GROUP_PROC))
		return 0;
	e = reserve(cnt, sizeof(*e));
	if (!e)
		return 0;
	fill_header(&e->hdr, KE_REC_FORK, sizeof(*e), ppid, parent->pid, bpf_ktime_get_ns());
	e->child_pid = cpid;
	e->child_tid = child->pid;
	e->is_thread = cpid == ppid;
	e->reserved = 0;
	bpf_probe_read_kernel_str(e->parent_comm, sizeof(e->parent_comm), parent->comm);
	bpf_probe_read_kernel_str(e->child_comm, sizeof(e->child_comm), child->comm);
	submit(cnt, e, sizeof(*e));
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(sched_process_fork, struct task_struct *parent, struct task_struct *child)
{
	return handle_fork(parent, child);
}

static __always_inline int handle_exec(struct task_struct *p, pid_t old_pid,
				       struct linux_binprm *bprm)
{
	struct ke_counters *cnt = get_counters();
	__u32 tgid = p->tgid;
	struct ke_exec *e;
	long n;

	if (targ_eh_unwind) {	/* other files now: user space loads them */
		bpf_map_delete_elem(&eh_procs, &tgid);
		bpf_map_delete_elem(&eh_exec, &tgid);
	}
	if (!cnt || !(targ_groups & KE_GROUP_PROC))
		return 0;
	if (!is_target(p->tgid)) {
		__sync_fetch_and_add(&cnt->filtered, 1);
		return 0;
	}
	e = reserve(cnt, sizeof(*e));
	if (!e)
		return 0;
	fill_header(&e->hdr, KE_REC_EXEC, sizeof(*e), p->tgid, p->pid, bpf_ktime_get_ns());
	e->old_tid = old_pid;
	bpf_probe_read_kernel_str(e->comm, sizeof(e->comm), p->comm);
	n = bpf_probe_read_kernel_str(e->filename, sizeof(e->filename), bprm->filename);
	e->filename_len = n > 0 ? n - 1 : 0;
	if (n <= 0)
		e->filename[0] = 0;
	submit(cnt, e, sizeof(*e));
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(sched_process_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	return handle_exec(p, old_pid, bprm);
}

static __always_inline int handle_exit(struct task_struct *p, bool group_dead)
{
	struct ke_counters *cnt = get_counters();
	__u32 tid = p->pid;
	struct ke_exit *e;

	bpf_map_delete_elem(&offcpu, &tid);
	bpf_map_delete_elem(&sys_start, &tid);
	if (group_dead) {
		__u32 tgid = p->tgid;

		if (targ_sample_select)
			bpf_map_delete_elem(&selected, &tgid);
		if (targ_eh_unwind) {
			bpf_map_delete_elem(&eh_procs, &tgid);
			bpf_map_delete_elem(&eh_exec, &tgid);
		}
	}
	if (!cnt)
		return 0;
	if (!is_target(p->tgid)) {
		__sync_fetch_and_add(&cnt->filtered, 1);
		return 0;
	}
	if (!(targ_groups & KE_GROUP_PROC))
		return 0;
	e = reserve(cnt, sizeof(*e));
	if (!e)
		return 0;
	fill_header(&e->hdr, KE_REC_EXIT, sizeof(*e), p->tgid, tid, bpf_ktime_get_ns());
	e->exit_code = p->exit_code;
	e->group_dead = group_dead;
	bpf_probe_read_kernel_str(e->comm, sizeof(e->comm), p->comm);
	submit(cnt, e, sizeof(*e));
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(sched_process_exit, struct task_struct *p, bool group_dead)
{
	return handle_exit(p, group_dead);
}
