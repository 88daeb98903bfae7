// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * usdt_generic.bpf.c - one USDT program for any provider's probes (for example
 * python, hotspot, postgresql, ...).
 *
 * libbpf decodes every argument (bpf_usdt_arg: register, memory or constant
 * operands of the probe's note, sign-extended to 64 bits); this program
 * copies all of them into the record.  Arguments the collector typed as
 * strings (cookie bits, see usdt_generic.h) are pointers whose bytes are
 * copied too, at most UG_MAX_STR each:
 *   UG_STR   NUL-terminated: bpf_probe_read_user_str with room for
 *            UG_MAX_STR + 1 characters, so "cut" is told apart from "exactly
 *            UG_MAX_STR long";
 *   UG_LSTR  counted (HotSpot passes (char *, length) pairs without a NUL):
 *            bpf_probe_read_user of min(length, UG_MAX_STR) bytes.
 * A cut string is counted (str_truncated) and flagged in the record; an
 * unreadable one (paged out, bad pointer) is sent empty, counted and
 * flagged.  The record never loses the event for a bad string.
 *
 * Record assembly as in clr_events.bpf.c: a per-CPU scratch slot guarded by
 * a busy flag (a preempted uprobe program can share the CPU), then exactly
 * header + string bytes to bpf_ringbuf_output, without a wakeup unless a
 * fill threshold is crossed (architecture decision 13).
 *
 * The ring buffer `rb` is the collector's own: user space calls
 * bpf_map__reuse_fd() on it before load, so these records go through the
 * same reorder buffer as the CLR events.  No stacks (not asked for yet).
 */
#include "vmlinux.h"

/* Several runtimes at once, HotSpot's hundreds of probes, inlined sites. */
#define BPF_USDT_MAX_SPEC_CNT	4096
#define BPF_USDT_MAX_IP_CNT	4096

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/usdt.bpf.h>
#include "collector_event.h"
#include "usdt_generic_event.h"
/* descendants join the set as their events come: the oldest may go */
#define CE_TARGETS_TYPE	BPF_MAP_TYPE_LRU_HASH
#include "ce_maps.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* The probes are attached for every process (pid -1) when targ_follow is
 * 1: keep the events of the processes in `targets` and of their
 * descendants (a forking server's children: PostgreSQL forks a backend per
 * connection); a descendant found by the parent walk is added to `targets`
 * (LRU) for the next event.  2: keep every process's events. */
const volatile __u32 targ_follow = 0;

#define UG_REC_BYTES	(sizeof(struct ce_usdt_generic) + UG_MAX_ARGS * UG_MAX_STR)
/* the last string read may write UG_MAX_STR + 2 bytes (see read_str) */
#define UG_SCRATCH_BYTES (UG_REC_BYTES + 8)

struct ug_scratch {
	__u32 busy;
	__u32 pad;
	__u8 buf[UG_SCRATCH_BYTES];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ug_scratch);
} ug_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ug_counters);
} ug_counters SEC(".maps");

#include "ce_common.bpf.h"

static __always_inline int is_target(__u32 tgid)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	__u8 one = 1;
	__u32 p;
	int i;

	if (bpf_map_lookup_elem(&targets, &tgid))
		return 1;
	for (i = 0; i < UG_MAX_ANCESTORS; i++) {
		t = BPF_CORE_READ(t, real_parent);
		if (!t)
			return 0;
		p = BPF_CORE_READ(t, tgid);
		if (p <= 1)
			return 0;
		if (bpf_map_lookup_elem(&targets, &p)) {
			bpf_map_update_elem(&targets, &tgid, &one, BPF_ANY);
			return 1;
		}
	}
	return 0;
}


/* Copy string argument i to dst; returns the bytes kept (no NUL). */
static __always_inline __u32 read_str(struct ce_usdt_generic *e, __u8 *dst, int i,
				      long ptr, long len, int counted,
				      struct ug_counters *cnt)
{
	long n;

	if (counted) {
		n = len;
		if (n < 0)		/* not a length: garbage, read nothing */
			goto fault;
		if (n > UG_MAX_STR) {
			n = UG_MAX_STR;
			e->str_trunc |= 1 << i;
			cnt->str_truncated++;
		}
		if (n > 0 && bpf_probe_read_user(dst, n & (2 * UG_MAX_STR - 1),
						 (const void *)ptr))
			goto fault;
		return n > 0 ? n : 0;
	}
	/* size UG_MAX_STR + 2: returns UG_MAX_STR + 2 only when the string
	 * has more than UG_MAX_STR characters */
	n = bpf_probe_read_user_str(dst, UG_MAX_STR + 2, (const void *)ptr);
	if (n <= 0)
		goto fault;
	n--;				/* the NUL */
	if (n > UG_MAX_STR) {
		n = UG_MAX_STR;
		e->str_trunc |= 1 << i;
		cnt->str_truncated++;
	}
	return n;
fault:
	e->str_fault |= 1 << i;
	cnt->str_faults++;
	return 0;
}

/*
 * bpf_loop callback: copy string argument i (if it is one) to sc->off.
 * A loop over the 12 arguments inline made the verifier walk every
 * combination of string/not/truncated/faulted offsets (> 1M insns);
 * bpf_loop (5.17+) verifies the body once.
 */
struct str_ctx {
	struct ce_usdt_generic *e;
	__u8 *buf;
	struct ug_counters *cnt;
	__u32 smask, lmask, nargs, off;
};

static long copy_str_arg(__u32 i, void *arg)
{
	struct str_ctx *sc = arg;
	struct ce_usdt_generic *e = sc->e;
	__u32 off = sc->off, n;
	long len;

	if (i >= sc->nargs || i >= UG_MAX_ARGS)
		return 1;
	if (!((sc->smask | sc->lmask) & (1u << i)))
		return 0;
	if (off > sizeof(*e) + (UG_MAX_ARGS - 1) * UG_MAX_STR)
		return 1;
	len = 0;
	if (i + 1 < UG_MAX_ARGS)
		len = e->args[i + 1];
	n = read_str(e, sc->buf + off, i, e->args[i], len, !!(sc->lmask & (1u << i)),
		     sc->cnt);
	if (n > UG_MAX_STR)
		n = UG_MAX_STR;
	e->str_len[i] = n;
	sc->off = off + n;
	return 0;
}

static __always_inline int handle_usdt(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), cookie = bpf_usdt_cookie(ctx);
	__u32 zero = 0, off, size;
	struct str_ctx sc;
	struct ce_usdt_generic *e;
	struct ug_counters *cnt;
	struct ug_scratch *s;
	int i, nargs;
	long v;

	cnt = bpf_map_lookup_elem(&ug_counters, &zero);
	s = bpf_map_lookup_elem(&ug_scratch, &zero);
	if (!cnt || !s)
		return 0;
	if (targ_follow == 1 && !is_target(id >> 32)) {
		__sync_fetch_and_add(&cnt->filtered, 1);
		return 0;
	}
	if (__sync_val_compare_and_swap(&s->busy, 0, 1) != 0) {
		__sync_fetch_and_add(&cnt->nested_drops, 1);
		return 0;
	}
	cnt->hits++;

	e = (void *)s->buf;
	__builtin_memset(e, 0, sizeof(*e));
	e->hdr.timestamp = bpf_ktime_get_ns();
	e->hdr.type = CE_REC_USDT_GENERIC;
	e->hdr.pid = id >> 32;
	e->hdr.tid = (__u32)id;
	e->cookie = cookie;
	e->cpu = bpf_get_smp_processor_id();
	nargs = bpf_usdt_arg_cnt(ctx);
	if (nargs < 0)
		nargs = 0;
	if (nargs > UG_MAX_ARGS)
		nargs = UG_MAX_ARGS;
	e->nargs = nargs;
	for (i = 0; i < UG_MAX_ARGS && i < nargs; i++) {
		v = 0;
		if (bpf_usdt_arg(ctx, i, &v))
			e->flags |= UG_F_ARGS_ERROR;
		e->args[i] = v;
	}

	sc.e = e;
	sc.buf = s->buf;
	sc.cnt = cnt;
	sc.smask = UG_COOKIE_STR(cookie);
	sc.lmask = UG_COOKIE_LSTR(cookie);
	sc.nargs = nargs;
	sc.off = sizeof(*e);
	bpf_loop(UG_MAX_ARGS, copy_str_arg, &sc, 0);
	off = sc.off;

	if (off > UG_REC_BYTES)		/* for the verifier */
		goto out;
	__builtin_memset(s->buf + off, 0, 8);	/* the padding */
	size = (off + 7) & ~7u;
	e->hdr.size = size;

	ce_submit(s->buf, size, cnt);
out:
	*(volatile __u32 *)&s->busy = 0;	/* helper calls above are barriers */
	return 0;
}

SEC("usdt")
int usdt_generic(struct pt_regs *ctx)
{
	return handle_usdt(ctx);
}
