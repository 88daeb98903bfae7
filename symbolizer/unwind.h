/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * unwind.h - a user stack unwound offline from the registers and the top
 * of the stack a CPU sample copied (--call-graph dwarf, perf's way), by the
 * mapped files' call frame information through elfutils' libdwfl, and by
 * the frame-pointer chain through code no file covers (JIT code).
 *
 * The result is the leaf-first frame list every other stack is (the exact
 * ip, then return addresses), so naming and the trace do not know how it
 * was walked.
 *
 * Errors: unwinder__new returns NULL and sets errno; free accepts NULL.
 * Not thread-safe: one unwinder per consumer thread.
 */
#ifndef EBPF_COLLECT_UNWIND_H
#define EBPF_COLLECT_UNWIND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct proc_maps;

/* The registers the copy starts from (bpf/kernel_event.h, struct ke_ustack_copy) */
struct unwind_regs {
	uint64_t ip, sp, bp;
};

struct unwind_stats {
	uint64_t stacks;	/* unwound */
	uint64_t frames;	/* frames out */
	uint64_t cfi_frames;	/* of which reached by CFI */
	uint64_t fp_frames;	/* of which reached by the frame-pointer chain */
	uint64_t rebuilds;	/* per-process module sets built (first sight, new mappings) */
	uint64_t code_reads;	/* JIT code bytes read from the process (the frameless scan) */
	uint64_t code_cached;	/* the scan's answers taken from the cache instead */
	uint64_t ns;		/* time spent unwinding, module sets included */
};

struct unwinder;

struct unwinder *unwinder__new(void);
void unwinder__free(struct unwinder *u);

/*
 * Unwind one stack of process pid, whose executable mappings are pm (the
 * symbolizer's, symbolizer__maps) and whose code generation is code_gen
 * (symbolizer__code_gen): r, and size bytes copied from r->sp upwards.
 * Writes at most max frames, leaf first, into out; returns their number (at
 * least 1 when r->ip is set).  The libdwfl module set of pid is kept
 * between calls and built again when pm changes; what was read of pid's
 * JIT code is kept while pm and code_gen stay the same.
 */
uint32_t unwinder__unwind(struct unwinder *u, pid_t pid, const struct proc_maps *pm,
			  uint64_t code_gen, const struct unwind_regs *r, const void *stack, size_t size,
			  uint64_t *out, uint32_t max);

void unwinder__stats(const struct unwinder *u, struct unwind_stats *st);

#endif /* EBPF_COLLECT_UNWIND_H */
