/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kernel_events.h - kernel events in the trace: CPU samples,
 * context switches, wake-ups and off-CPU time, syscalls, process lifecycle.
 *
 * Lifecycle (style item 2), driven by the collector:
 *   ke = kernel_events__open(&opts);     open, set knobs, reuse the
 *                                        collector's ring buffer, load
 *   kernel_events__add_target(ke, tgid); every traced process
 *   kernel_events__attach(ke);           tracepoints, per-CPU perf events
 *   ... for every record with type in CE_REC_KERNEL_FIRST..LAST leaving the
 *   reorder buffer: kernel_events__emit(ke, hdr, len, &sink);
 *   kernel_events__detach(ke); drain; kernel_events__destroy(ke);
 *
 * What is written (all level 4, version 0; documented in collector/README.md):
 *   Microsoft-DotNETCore-SampleProfiler  id 0, no name, no fields, int32
 *       payload 2 = Managed (leaf user frame is JIT code) / 1 = External,
 *       exactly as EventPipe writes thread samples; ThreadId =
 *       CaptureThreadId = the sampled thread; stack = kernel then user frames.
 *   Universal.Events        1 cpu (the same sample: Value 1, same stack),
 *                           2 cswitch (a traced thread switched in: Value
 *                           = ns off the CPU, stack = where it blocked);
 *                           LEB128 payload, no fields (--sample-events)
 *   Linux-Kernel-Sched      1 SchedSwitch (stack: where a traced prev
 *                           blocks), 2 SchedWakeup (stack: where a traced
 *                           waker woke it), 3 OffCpu (the blocking stack)
 *   Linux-Kernel-Syscalls   1 Syscall
 *   Linux-Kernel-Process    1 Fork, 2 Exec, 3 Exit
 * Field lists: see kernel_events.c (ke_fields_*), or `ebpf-collect dump`.
 */
#ifndef EBPF_COLLECT_KERNEL_EVENTS_H
#define EBPF_COLLECT_KERNEL_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>
#include "kernel_event.h"

/* --cpu-sampling without =HZ: dotnet-trace's 1 ms interval, but 999 not
 * 1000 so that samples do not run in lockstep with a 1000 (or 250) Hz tick
 * and always land at the same point of periodic work (perf's -F 999 habit) */
#define KE_DEFAULT_HZ		999
#define KE_MAX_HZ		10000

/*
 * --sample-events: a CPU sample becomes the SampleProfiler thread sample
 * (what every TraceEvent and our views read), TraceEvent 4's
 * Universal.Events cpu (PerfView's CPU view, TraceLog's CPU time; with
 * Universal.System events in the file PerfView offers only the universal
 * views), or both; with the sched group, a traced thread's switch-in
 * (OffCpu) also becomes Universal.Events cswitch (Thread Time).
 */
#define KE_SAMPLES_PROFILER	1u
#define KE_SAMPLES_UNIVERSAL	2u
#define KE_SAMPLES_DEFAULT	(KE_SAMPLES_PROFILER | KE_SAMPLES_UNIVERSAL)

struct nt_writer;
struct symbolize;
struct pipeline_source_ops;

struct kernel_events_opts {
	unsigned int groups;		/* KE_GROUP_* */
	unsigned int sample_hz;		/* 0: no CPU sampling */
	int all_processes;		/* else only targets (and their children) */
	int sample_select;		/* samples only of kernel_events__select'ed
					 * processes (and their children) */
	unsigned int sample_events;	/* KE_SAMPLES_*: what CPU samples and
					 * switch-ins become; 0: KE_SAMPLES_DEFAULT */
	int no_kstack;			/* no kernel stacks on samples / switches */
	unsigned int ustack_copy;	/* --call-graph dwarf: user stack bytes each
					 * sample copies (unwound here); 0: the
					 * BPF frame-pointer walk */
	int eh_unwind;			/* --call-graph eh: user stacks walked in BPF
					 * by the files' .eh_frame rows (eh_procs.c) */
	int rb_fd;			/* the collector's ring buffer map; < 0: decode
					 * only, no BPF (tests) */
	uint64_t rb_bytes;		/* its size (wake-up thresholds) */
	int verbose;
};

/*
 * Where kernel_events__emit writes, and who names the frames: every record
 * with a stack goes, before it is written, through sz (symbolize__stack:
 * it writes the method events that name the frames), the collector's one
 * symbolize, which also tells whether a sample's leaf user frame is JIT code
 * and where a user stack stops being code.  With sz NULL (--no-symbols,
 * tests) the frames are not named; the module then looks them up through a
 * symbolize of its own that writes nothing.
 */
struct ke_sink {
	struct nt_writer *w;
	struct symbolize *sz;
	/* the record was written before (a flight-recorder dump overlapping an
	 * earlier one): write it again, leave the counters as they are */
	bool again;
};

struct kernel_events;

/* "sched,syscalls,proc" (also "all", "none") -> KE_GROUP_* bits.  0 or
 * -EINVAL with a message in err. */
int kernel_events__parse_groups(const char *spec, unsigned int *groups, char *err,
				size_t err_len);
/* "sampleprofiler", "universal" or "both" -> KE_SAMPLES_* bits.  0 or
 * -EINVAL. */
int kernel_events__parse_sample_events(const char *arg, unsigned int *mask);
/* "--cpu-sampling[=HZ]" argument (NULL = default).  0 or -EINVAL. */
int kernel_events__parse_hz(const char *arg, unsigned int *hz);

/*
 * Kernel-event defaults of a --profile:
 *   cpu-sampling  CPU samples at KE_DEFAULT_HZ + proc, with the CLR
 *                 profile "default" (dotnet-trace's cpu-sampling profile);
 *   contention    + sched (off-CPU time and blocking stacks).
 * ORs into *groups, sets *hz; *clr_profile = the CLR profile to select.
 * Returns 1 for those profiles, 0 for the others (nothing changed but
 * *clr_profile = name).  The implicit default profile adds no kernel
 * events: a plain `ebpf-collect -p PID` trace holds the runtime's events
 * only.
 */
int kernel_events__profile(const char *name, unsigned int *groups, unsigned int *hz,
			   const char **clr_profile);

/* NULL + errno.  Prints why on stderr ("kernel-events: ..."). */
struct kernel_events *kernel_events__open(const struct kernel_events_opts *opts);
int kernel_events__add_target(struct kernel_events *ke, pid_t tgid);
/* With opts.sample_select: tgid's CPU samples are kept (on) or dropped in
 * the kernel from now on.  0 or -errno (-E2BIG: KE_MAX_SELECTED are). */
int kernel_events__select(struct kernel_events *ke, pid_t tgid, int on);
/* Attach the selected tracepoints and the per-CPU sampling events. 0/-errno. */
int kernel_events__attach(struct kernel_events *ke);
/* Stop producing (detach everything; maps and counters stay readable, so
 * the collector can drain the ring buffer and emit what is left). */
void kernel_events__detach(struct kernel_events *ke);
/* One record (h->type in CE_REC_KERNEL_FIRST..LAST).  1 written, 0 not
 * (malformed: counted; or filtered), -errno (write failure). */
int kernel_events__emit(struct kernel_events *ke, const void *rec, size_t len,
			const struct ke_sink *sink);
/* The same as the pipeline's source of those types (pipeline.h), ctx the
 * struct kernel_events: frames named by the pipeline's symbolize. */
extern const struct pipeline_source_ops kernel_events_source_ops;
/* Records lost in BPF so far (ring buffer full, scratch busy). */
uint64_t kernel_events__lost(struct kernel_events *ke);
/* Summed per-CPU counters.  0 or -errno. */
int kernel_events__counters(struct kernel_events *ke, struct ke_counters *out);
/* Events written per kind, drops, stacks: a few lines on f. */
void kernel_events__print_summary(struct kernel_events *ke, FILE *f);
/* Records the collector saw but could not decode. */
uint64_t kernel_events__bad_records(const struct kernel_events *ke);
uint64_t kernel_events__written(const struct kernel_events *ke);
void kernel_events__destroy(struct kernel_events *ke);	/* NULL-safe */

/* x86-64 syscall name, or NULL. */
const char *ke_syscall_name(unsigned int nr);

#endif /* EBPF_COLLECT_KERNEL_EVENTS_H */
