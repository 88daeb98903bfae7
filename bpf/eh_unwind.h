/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * eh_unwind.h - the unwind tables of --call-graph eh, shared by the BPF
 * walker (bpf/eh_walk.bpf.h, in kernel_events.bpf.c's sampler) and the
 * collector that builds and loads them (collector/sources/eh_table.c: one
 * file's rows; collector/sources/eh_procs.c: the maps).
 *
 * MUST MATCH between the BPF object and user space: only __u8/__u16/__u32/
 * __u64 (and signed), 8-byte fields first, no implicit padding;
 * collector/sources/eh_procs.c pins the sizes with _Static_assert.
 *
 * Rows.  One file's .eh_frame becomes a sorted run of rows, one per address
 * where the rule for finding the caller changes (x86-64 only): from `pc`
 * (the file's virtual address, below 4 GiB) up to the next row's pc,
 *   CFA = (rsp or rbp) + cfa_off      EH_CFA_SP, EH_CFA_BP
 *   CFA = rsp + cfa_off + ((pc & 15) >= plt_lim ? 8 : 0)
 *                                     EH_CFA_PLT: the one expression the
 *                                     linkers write for a PLT's entries
 *   return address at CFA - 8 (the only rule x86-64 code uses; a row
 *   whose return address is elsewhere is EH_CFA_NONE)
 *   caller's rbp = rbp (EH_RBP_SAME) or read at CFA + rbp_off
 *   (EH_RBP_AT).
 * EH_CFA_NONE: no rule the walker can follow here (no FDE: a gap between
 * functions, or an expression or register rule): the frame-pointer step.
 * EH_CFA_END: the return address is undefined, the outermost frame
 * (_start, a thread's start): the stack ends.
 *
 * Every table of every file lives in one array map of rows (`eh_rows`),
 * each file's rows a run [first, first + count) that every process mapping
 * the file shares.  A process's executable mappings, sorted by start, are
 * a run of EH_MAX_MAPPINGS entries of the array map `eh_maps` (its slot),
 * which the `eh_procs` hash names by tgid.  Both searches index array maps
 * by a key rather than a map value by an offset: the verifier then need
 * not track the search's bounds exactly, and checks each loop once instead
 * of every path through it.
 */
#ifndef EBPF_COLLECT_EH_UNWIND_H
#define EBPF_COLLECT_EH_UNWIND_H

#define EH_CFA_NONE	0
#define EH_CFA_SP	1
#define EH_CFA_BP	2
#define EH_CFA_PLT	3
#define EH_CFA_END	4

#define EH_RBP_SAME	0
#define EH_RBP_AT	1

/* rows of every table together (16 bytes each: 32 MiB, libc has 28271);
 * a file whose rows no longer fit is walked by frame pointers, and counted */
#define EH_MAX_ROWS		(1U << 21)
#define EH_ROW_SEARCH_STEPS	22	/* binary search over EH_MAX_ROWS */
#define EH_MAX_MAPPINGS		128	/* executable file mappings per process */
#define EH_MAP_SEARCH_STEPS	8
/* words of a frame scanned for a frameless caller's return address before
 * a frame-pointer step (a JIT method's frame: its spills and locals) */
#define EH_SCAN_WORDS		64	/* a power of 2 */
/* executable VMAs the scan keeps per process (a power of 2) */
#define EH_XRANGES		8
#define EH_MAX_PROCS		1024	/* processes with tables at once */

/* an eh_mapping's first when its count is 0 because its file's table is
 * still being built (the walker counts such samples) */
#define EH_FIRST_BUILDING	0xffffffffU

struct eh_row {
	__u32 pc;		/* file virtual address where the row starts */
	__s32 cfa_off;
	__s16 rbp_off;		/* EH_RBP_AT: the caller's rbp at CFA + rbp_off */
	__u8 cfa_rule;		/* EH_CFA_* */
	__u8 rbp_rule;		/* EH_RBP_* */
	__u8 plt_lim;		/* EH_CFA_PLT: see above */
	__u8 reserved[3];
};

struct eh_mapping {
	__u64 start, end;	/* the executable mapping [start, end) */
	__u64 bias;		/* runtime address - file virtual address */
	__u32 first;		/* its file's rows in eh_rows; count 0: none
				 * (EH_FIRST_BUILDING: not yet) */
	__u32 count;
};

struct eh_proc {
	__u32 slot;		/* its mappings: eh_maps[slot * EH_MAX_MAPPINGS ...] */
	__u32 n;		/* ... that many, sorted by start */
};

/* the executable VMAs a process's scans met: [lo, hi), bit k of anon set
 * when VMA k maps no file (JIT code); next is the one to replace */
struct eh_xcache {
	__u64 lo[EH_XRANGES];
	__u64 hi[EH_XRANGES];
	__u32 anon;
	__u32 next;
};

#endif /* EBPF_COLLECT_EH_UNWIND_H */
