/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * eh_walk.bpf.h - the user stack of --call-graph eh: walked in BPF by the
 * rows the collector built from each mapped file's .eh_frame
 * (bpf/eh_unwind.h), by the frame-pointer chain where no row applies.
 *
 * Include it in kernel_events.bpf.c after its scratch map and counters:
 * the frames go into a scratch slot of that program, as ce_fp_walk's do,
 * leaf first (the exact ip, then return addresses).
 *
 * One frame per bpf_loop round (Linux 5.17, commit e6f2dd0f8067), so the
 * verifier checks one round, not CE_MAX_STACK_DEPTH of them.  A round:
 *   1. the mapping of the pc (the ip for the leaf, ip - 1 for a return
 *      address: the call, not what follows it, which may be another
 *      function) among the process's, by binary search in its slot of
 *      eh_maps;
 *   2. the row in effect there, by binary search in the file's run of
 *      eh_rows;
 *   3. a rule the row gives: CFA from rsp or rbp, the return address at
 *      CFA - 8, the caller's rbp at CFA + off or kept, sp = CFA;
 *      EH_CFA_END: the stack ends;
 *      no row (JIT code, anonymous memory, a process without tables yet,
 *      a gap or a rule the table could not take): the frame-pointer step
 *      of ce_fp_walk (return address at rbp + 8, the caller's rbp at rbp,
 *      sp = rbp + 16), with its checks that rbp lies above sp, near it
 *      and aligned.
 * A CFA that does not lie above sp ends the walk too, so no table can
 * make it loop.
 *
 * Managed code keeps an rbp frame only where a method needs one: the
 * return addresses of frameless callers lie between a frame's sp and the
 * bp the frame-pointer step takes, and that step alone skips them.  So
 * before each frame-pointer step the words of [sp, bp) are scanned
 * (EH_SCAN_WORDS at most, a nested bpf_loop): a word is taken as a return
 * address, innermost first, when the instruction that ends there is a call
 * (E8 rel32, or FF /2), it lies in executable memory (its VMA's flags, by
 * bpf_find_vma, Linux 5.17) and no row covers it (code with rows is
 * walked by them: a word there is a stale one).  The rule is dwarf mode's
 * (symbolizer/unwind.c's scan_frameless), read here in the kernel.
 */
#ifndef EBPF_COLLECT_EH_WALK_BPF_H
#define EBPF_COLLECT_EH_WALK_BPF_H

#include "eh_unwind.h"
#include "x86_call.h"


/* every table's rows; user space sizes it (EH_MAX_ROWS at most) and
 * writes it through mmap */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct eh_row);
} eh_rows SEC(".maps");

/* executable mappings by tgid; a fork copies its parent's (below), an exec
 * or the last thread's exit deletes them; user space loads the rest */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct eh_proc);
} eh_procs SEC(".maps");

/* the processes' mappings, EH_MAX_MAPPINGS per slot; written through mmap */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct eh_mapping);
} eh_maps SEC(".maps");

struct eh_walk {
	__u64 ip, sp, bp;
	__u32 tgid;
	__u32 slot;		/* scratch slot the frames go to ... */
	__u32 off;		/* ... from this byte of its buf */
	__u32 n;		/* frames written */
	__u32 truncated;
	__u32 cfi, fp;		/* frames found by a row, by the chain */
	__u32 scanned;		/* ... by the scan of a frameless method's callers */
	__u32 scan_cut;		/* scans cut at EH_SCAN_WORDS words */
	__u32 vma_looked;	/* the scan looked a VMA up (once a sample) */
	__u64 last;		/* the last frame written */
	__u32 unready;		/* a frame met tables not loaded or not built yet */
};

/* The row of the file mapping that holds pc, copied to *row: 1; 0 when
 * none, -1 when none yet (the process's tables not loaded, or its file's
 * table still being built).  A global function: the verifier checks it
 * once, not at each of its calls (the walk's, the scan's). */
__noinline int eh_find_row(__u32 tgid, __u64 pc, struct eh_row *row)
{
	struct eh_proc *p = bpf_map_lookup_elem(&eh_procs, &tgid);
	__u32 lo = 0, hi, mid, i, first, base, key;
	struct eh_mapping *m;
	struct eh_row *r;

	if (!row)
		return 0;
	if (!p)
		return -1;
	base = p->slot * EH_MAX_MAPPINGS;
	hi = p->n;
	if (hi > EH_MAX_MAPPINGS)
		hi = EH_MAX_MAPPINGS;
	for (i = 0; i < EH_MAP_SEARCH_STEPS && lo < hi; i++) {
		mid = base + (lo + hi) / 2;
		m = bpf_map_lookup_elem(&eh_maps, &mid);
		if (!m)
			return 0;
		if (m->start <= pc)
			lo = mid - base + 1;
		else
			hi = mid - base;
	}
	if (!lo)
		return 0;
	mid = base + lo - 1;
	m = bpf_map_lookup_elem(&eh_maps, &mid);
	if (!m || pc >= m->end || pc - m->bias > 0xffffffffULL)
		return 0;
	if (!m->count)
		return m->first == EH_FIRST_BUILDING ? -1 : 0;
	key = (__u32)(pc - m->bias);
	first = m->first;
	lo = first;
	hi = first + m->count;
	for (i = 0; i < EH_ROW_SEARCH_STEPS && lo < hi; i++) {
		mid = lo + (hi - lo) / 2;
		r = bpf_map_lookup_elem(&eh_rows, &mid);
		if (!r)
			return 0;
		if (r->pc <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == first)
		return 0;
	mid = lo - 1;
	r = bpf_map_lookup_elem(&eh_rows, &mid);
	if (!r)
		return 0;
	*row = *r;
	return 1;
}

/* The caller of w's frame by row; 1 found, 0 no rule here, -1 the end. */
static __always_inline int eh_step_cfi(struct eh_walk *w, const struct eh_row *r)
{
	__u64 cfa, ra, bp = w->bp;

	switch (r->cfa_rule) {
	case EH_CFA_SP:
		cfa = w->sp + (__s64)r->cfa_off;
		break;
	case EH_CFA_BP:
		cfa = w->bp + (__s64)r->cfa_off;
		break;
	case EH_CFA_PLT:
		cfa = w->sp + (__s64)r->cfa_off + ((w->ip & 15) >= r->plt_lim ? 8 : 0);
		break;
	case EH_CFA_END:
		return -1;
	default:
		return 0;
	}
	if (cfa <= w->sp || cfa - w->sp > CE_STACK_SPAN)
		return -1;
	if (bpf_probe_read_user(&ra, sizeof(ra), (const void *)(cfa - 8)))
		return -1;
	if (r->rbp_rule == EH_RBP_AT &&
	    bpf_probe_read_user(&bp, sizeof(bp), (const void *)(cfa + (__s64)r->rbp_off)))
		return -1;
	w->ip = ra;
	w->sp = cfa;
	w->bp = bp;
	return 1;
}

/* The caller by the frame-pointer chain; 1 found, -1 the end. */
static __always_inline int eh_step_fp(struct eh_walk *w)
{
	struct ce_fp_frame fr;

	if (w->bp < w->sp || w->bp - w->sp > CE_STACK_SPAN || (w->bp & 7))
		return -1;
	if (bpf_probe_read_user(&fr, sizeof(fr), (const void *)w->bp))
		return -1;
	w->ip = fr.ret;
	w->sp = w->bp + 16;
	w->bp = fr.next;
	return 1;
}

/* ip appended to w's frames: 0, or 1 when the stack is full. */
static __always_inline int eh_put(struct eh_walk *w, __u64 ip)
{
	struct scratch *s;
	__u32 o;

	if (w->n >= CE_MAX_STACK_DEPTH) {
		w->truncated = 1;
		return 1;
	}
	s = bpf_map_lookup_elem(&scratch, &w->slot);
	o = w->off + w->n * 8;
	if (!s || o > KE_SCRATCH_BYTES - 8)
		return 1;
	*(__u64 *)(s->buf + o) = ip;
	w->n++;
	w->last = ip;
	return 0;
}

/* Whether the instruction that ends at ret is a call (x86_call.h). */
static __always_inline int eh_after_call(__u64 ret)
{
	unsigned char b[8];

	if (bpf_probe_read_user(b, 7, (const void *)(ret - 7)))
		return 0;
	return x86_call_ends_here(b);
}

/* Executable VMAs a process's scans met (one cache per CPU: no two
 * programs write one at once), EH_XRANGES of them, the oldest replaced;
 * an exec or the process's end deletes them with its eh_procs entry. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_PERCPU_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct eh_xcache);
} eh_exec SEC(".maps");

/* a frame's words, read at once (one read of the stack, not one a word) */
struct eh_words {
	__u64 w[EH_SCAN_WORDS];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct eh_words);
} eh_scan_buf SEC(".maps");

struct eh_scan_ctx {
	struct eh_walk w;
	struct eh_xcache *xc;
	struct eh_words *words;
	__u32 nwords;
	__u32 vma_exec, vma_anon;	/* bpf_find_vma's answer */
	__u64 vma_lo, vma_hi;
};

/* bpf_find_vma's callback: the VMA's bounds, whether it is executable and
 * whether it maps no file (JIT code: no row can cover it). */
static long eh_vma_read(struct task_struct *task, struct vm_area_struct *vma, void *ctx)
{
	struct eh_scan_ctx *c = ctx;

	c->vma_exec = !!(BPF_CORE_READ(vma, vm_flags) & 4 /* VM_EXEC */);
	c->vma_anon = !BPF_CORE_READ(vma, vm_file);
	c->vma_lo = BPF_CORE_READ(vma, vm_start);
	c->vma_hi = BPF_CORE_READ(vma, vm_end);
	return 0;
}

/* The cached executable VMA that holds pc: its index, or -1. */
static __always_inline int eh_xcache_find(const struct eh_xcache *xc, __u64 pc)
{
	int k;

	for (k = 0; k < EH_XRANGES; k++)
		if (pc >= xc->lo[k] && pc < xc->hi[k])
			return k;
	return -1;
}

/*
 * One word of a frame: taken as a frameless caller's return address when
 * it lies in executable memory, no row covers it and a call ends there.
 * Whether memory is executable is known from the process's cache, or from
 * bpf_find_vma: once a sample, since the mm's lock it takes is given back
 * by an irq_work after the program (a second lookup finds it busy), so a
 * code heap first met in a sample that already looked one up is found in
 * a later one.
 */
static long eh_scan_word(__u32 i, void *arg)
{
	struct eh_scan_ctx *c = arg;
	struct eh_xcache *xc = c->xc;
	struct eh_row row;
	__u64 v;
	int k, anon;

	if (i >= c->nwords || !c->words || !xc)
		return 1;
	v = c->words->w[i & (EH_SCAN_WORDS - 1)];
	/* equal to the frame's own pc: a P/Invoke stub's record of its call
	 * into native code (the runtime's InlinedCallFrame) */
	if (v < 4096 + 7 || v >= 0x800000000000ULL || v == c->w.last)
		return 0;
	k = eh_xcache_find(xc, v - 1);
	if (k >= 0) {
		anon = xc->anon >> k & 1;
	} else {
		if (c->w.vma_looked)
			return 0;
		c->w.vma_looked = 1;
		c->vma_exec = 0;
		if (bpf_find_vma(bpf_get_current_task_btf(), v - 1, eh_vma_read, c, 0) ||
		    !c->vma_exec)
			return 0;
		k = xc->next++ & (EH_XRANGES - 1);
		xc->lo[k] = c->vma_lo;
		xc->hi[k] = c->vma_hi;
		xc->anon = (xc->anon & ~(1U << k)) | (c->vma_anon << k);
		anon = c->vma_anon;
	}
	/* code with rows is walked by them: a word there is a stale one */
	if (!anon && eh_find_row(c->w.tgid, v - 1, &row))
		return 0;
	if (!eh_after_call(v))
		return 0;
	if (eh_put(&c->w, v))
		return 1;
	c->w.scanned++;
	return 0;
}

/* The scan of [w->sp, w->bp) into w's frames.  A global function: the
 * verifier checks it and its loop once, with w's fields unknown, not again
 * in every state of the walk's loop. */
__noinline int eh_scan(struct eh_walk *wp)
{
	struct eh_xcache zero = {};
	struct eh_scan_ctx c = {};
	__u32 key = 0, span, bytes;

	if (!wp)
		return 0;
	c.w = *wp;
	if (c.w.bp <= c.w.sp || c.w.bp - c.w.sp > CE_STACK_SPAN)
		return 0;
	span = c.w.bp - c.w.sp;
	if (span > EH_SCAN_WORDS * 8) {
		span = EH_SCAN_WORDS * 8;
		c.w.scan_cut++;
	}
	c.nwords = span / 8;
	bytes = c.nwords * 8;
	c.words = bpf_map_lookup_elem(&eh_scan_buf, &key);
	c.xc = bpf_map_lookup_elem(&eh_exec, &c.w.tgid);
	if (!c.xc) {
		bpf_map_update_elem(&eh_exec, &c.w.tgid, &zero, BPF_NOEXIST);
		c.xc = bpf_map_lookup_elem(&eh_exec, &c.w.tgid);
	}
	if (!c.words || !c.xc || !bytes || bytes > sizeof(c.words->w) ||
	    bpf_probe_read_user(c.words->w, bytes, (const void *)c.w.sp))
		return 0;
	bpf_loop(EH_SCAN_WORDS, eh_scan_word, &c, 0);
	*wp = c.w;
	return 0;
}

static long eh_walk_frame(__u32 i, void *arg)
{
	struct eh_walk *w = arg;
	struct eh_row row;
	int got;

	got = eh_find_row(w->tgid, i ? w->ip - 1 : w->ip, &row);
	if (got > 0) {
		got = eh_step_cfi(w, &row);
		if (got > 0)
			w->cfi++;
	} else {
		w->unready |= got < 0;
		got = 0;
	}
	if (!got) {
		eh_scan(w);
		got = eh_step_fp(w);
		if (got > 0)
			w->fp++;
	}
	if (got < 0 || !w->ip || w->ip >= 0x800000000000ULL)
		return 1;
	return eh_put(w, w->ip);
}

/*
 * Walk from ip/sp/bp of process tgid into scratch slot `slot` at byte off
 * (the leaf ip there already); returns the number of frames, the leaf
 * included.
 */
static __always_inline __u32 eh_walk(__u64 ip, __u64 sp, __u64 bp, __u32 tgid, __u32 slot,
				     __u32 off, int *truncated, struct ke_counters *cnt)
{
	struct eh_walk w = { .ip = ip, .sp = sp, .bp = bp, .tgid = tgid, .slot = slot,
			     .off = off, .n = 1, .last = ip };

	bpf_loop(CE_MAX_STACK_DEPTH, eh_walk_frame, &w, 0);
	if (w.truncated)
		*truncated = 1;
	__sync_fetch_and_add(&cnt->eh_cfi_frames, w.cfi);
	__sync_fetch_and_add(&cnt->eh_fp_frames, w.fp);
	if (w.scanned)
		__sync_fetch_and_add(&cnt->eh_scan_frames, w.scanned);
	if (w.scan_cut)
		__sync_fetch_and_add(&cnt->eh_scan_cut, w.scan_cut);
	if (w.unready)
		__sync_fetch_and_add(&cnt->eh_unready_samples, 1);
	return w.n;
}

#endif /* EBPF_COLLECT_EH_WALK_BPF_H */
