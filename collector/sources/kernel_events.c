// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kernel_events.c - user-space side of bpf/kernel_events.bpf.c: load and
 * attach the kernel-event programs, and turn their records into nettrace
 * events.
 *
 * Sharing the ring buffer.  The skeleton's `rb` map is replaced, before
 * load, by the collector's own ring buffer (bpf_map__reuse_fd), so kernel
 * records and CLR records travel through one ring, one consumer and one
 * reorder buffer, and leave it in timestamp order together.
 *
 * CPU sampling.  One PERF_COUNT_SW_CPU_CLOCK event per CPU (pid -1, the
 * hrtimer-driven software clock: this VM has no hardware counters), in
 * frequency mode at the requested rate, each with the cpu_sample program
 * attached; the program drops idle and non-target samples.  Samples become
 * the SampleProfiler thread-sample event exactly as EventPipe writes it
 * (docs/nettrace-format.md section 10), so TraceEvent's CPU stack views work:
 * payload int32 2 (Managed) when the leaf user frame is JIT code -- the
 * symbolizer says SYM_KIND_JIT: an anonymous executable mapping named by a
 * perf map or a method-load event -- else 1 (External).  Deviation from
 * EventPipe, by choice: CaptureThreadId is the sampled thread itself, not
 * a sampler thread.  There is no sampler thread to name here, and the
 * writer numbers events per capture thread, so every thread's sequence
 * stays contiguous (a per-CPU pseudo thread would interleave with the real
 * thread ids in viewers' thread lists).
 *
 * Off-CPU time.  BPF sends, for a traced thread leaving the CPU, a
 * SchedSwitch record with its stack there (where it blocks), and when it
 * comes back an OffCpu record with the interval and the waker.  We keep the
 * switch-out stack per thread until its OffCpu record and write OffCpu with
 * that stack, so a stack view over OffCpu events weighted by DurationNs is
 * blocking time by stack (`ebpf-collect report`).
 *
 * Frames.  Every stack goes to the collector's symbolize before its record
 * is written (symbolize__stack, architecture decision 8), which names its
 * frames in the trace the way it names the runtime's; this module only asks
 * the same symbolize where a user stack stops being code and what a
 * sample's leaf user frame is.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "kernel_events.skel.h"	/* struct kernel_events_bpf (bpf/build.mk) */
#include "kernel_events.h"
#include "syscall_names.h"	/* generated from <asm/unistd.h> */
#include "pipeline.h"
#include "symbolize.h"
#include "utf16.h"

#define LOG_PREFIX "kernel-events: "
#include "log.h"
#include "nettrace.h"
#include "nettrace_bytes.h"
#include "rundown.h"
#include "symbolizer.h"
#include "unwind.h"
#include "eh_procs.h"
#include "eh_unwind.h"

_Static_assert(sizeof(struct ke_sample) == 40, "ke_sample layout (bpf/kernel_event.h)");
_Static_assert(sizeof(struct ke_switch) == 96, "ke_switch layout");
_Static_assert(sizeof(struct ke_wakeup) == 72, "ke_wakeup layout");
_Static_assert(sizeof(struct ke_offcpu) == 64, "ke_offcpu layout");
_Static_assert(sizeof(struct ke_syscall) == 104, "ke_syscall layout");
_Static_assert(sizeof(struct ke_fork) == 72, "ke_fork layout");
_Static_assert(sizeof(struct ke_exec) == 304, "ke_exec layout");
_Static_assert(sizeof(struct ke_exit) == 48, "ke_exit layout");
_Static_assert(sizeof(struct ke_counters) == 19 * 8, "ke_counters layout");
_Static_assert(sizeof(struct ke_ustack_copy) == 32, "ke_ustack_copy layout");


/* ---------------------------------------------------- trace events */

/* One trace event per record kind, each self-describing (provider, id,
 * name, fields).  CPU samples use the sample profiler's event, as the
 * runtime writes it (docs/nettrace-format.md section 10). */
enum ke_kind {
	KIND_SAMPLE,
	KIND_SWITCH,
	KIND_WAKEUP,
	KIND_OFFCPU,
	KIND_SYSCALL,
	KIND_FORK,
	KIND_EXEC,
	KIND_EXIT,
	KIND_UCPU,
	KIND_UCSWITCH,
	NR_KINDS,
};

#define F(n, t) { .name = n, .type = NT_TYPE_##t }

static const struct nt_field_desc ke_fields_switch[] = {
	F("PrevPid", UINT32), F("PrevTid", UINT32), F("PrevComm", STRING),
	F("PrevState", UINT64), F("PrevPrio", INT32),
	F("NextPid", UINT32), F("NextTid", UINT32), F("NextComm", STRING),
	F("NextPrio", INT32), F("Cpu", UINT32),
};
static const struct nt_field_desc ke_fields_wakeup[] = {
	F("WakeePid", UINT32), F("WakeeTid", UINT32), F("WakeeComm", STRING),
	F("WakeePrio", INT32), F("TargetCpu", UINT32),
	F("WakerPid", UINT32), F("WakerTid", UINT32),
};
static const struct nt_field_desc ke_fields_offcpu[] = {
	F("Pid", UINT32), F("Tid", UINT32), F("DurationNs", UINT64), F("PrevState", UINT64),
	F("WakerPid", UINT32), F("WakerTid", UINT32), F("HasStack", BOOLEAN),
};
static const struct nt_field_desc ke_fields_syscall[] = {
	F("Id", UINT32), F("Name", STRING), F("Ret", INT64), F("DurationNs", UINT64),
	F("Arg0", UINT64), F("Arg1", UINT64), F("Arg2", UINT64), F("Arg3", UINT64),
	F("Arg4", UINT64), F("Arg5", UINT64), F("NoReturn", BOOLEAN),
};
static const struct nt_field_desc ke_fields_fork[] = {
	F("ParentPid", UINT32), F("ParentTid", UINT32), F("ParentComm", STRING),
	F("ChildPid", UINT32), F("ChildTid", UINT32), F("ChildComm", STRING),
	F("IsThread", BOOLEAN),
};
static const struct nt_field_desc ke_fields_exec[] = {
	F("Pid", UINT32), F("Tid", UINT32), F("OldTid", UINT32), F("Filename", STRING),
	F("Comm", STRING),
};
static const struct nt_field_desc ke_fields_exit[] = {
	F("Pid", UINT32), F("Tid", UINT32), F("ExitStatus", INT32), F("ExitCode", INT32),
	F("Signal", INT32), F("GroupDead", BOOLEAN), F("Comm", STRING),
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define DESC(prov, id, nm, kw, fl) \
	{ .provider = prov, .event_id = id, .name = nm, .keywords = kw, .version = 0, \
	  .level = 4, .fields = fl, .n_fields = ARRAY_SIZE(fl) }

#define PROV_SAMPLE	"Microsoft-DotNETCore-SampleProfiler"
#define PROV_SCHED	"Linux-Kernel-Sched"
#define PROV_SYSCALLS	"Linux-Kernel-Syscalls"
#define PROV_PROCESS	"Linux-Kernel-Process"
/* TraceEvent 4's universal events (docs/nettrace-format.md section 10): no
 * stable ids, TraceEvent knows them by provider and name; the payload is
 * one LEB128 Value, which V5 metadata has no type for, so like
 * Universal.System's events they are described without fields */
#define PROV_UNIVERSAL	UNIVERSAL_EVENTS_PROVIDER

static const struct nt_event_desc ke_descs[NR_KINDS] = {
	[KIND_SAMPLE] = { .provider = PROV_SAMPLE, .event_id = 0, .name = "", .keywords = 0,
			  .version = 0, .level = 4 },
	[KIND_SWITCH] = DESC(PROV_SCHED, 1, "SchedSwitch", KE_GROUP_SCHED, ke_fields_switch),
	[KIND_WAKEUP] = DESC(PROV_SCHED, 2, "SchedWakeup", KE_GROUP_SCHED, ke_fields_wakeup),
	[KIND_OFFCPU] = DESC(PROV_SCHED, 3, "OffCpu", KE_GROUP_SCHED, ke_fields_offcpu),
	[KIND_SYSCALL] = DESC(PROV_SYSCALLS, 1, "Syscall", KE_GROUP_SYSCALLS, ke_fields_syscall),
	[KIND_FORK] = DESC(PROV_PROCESS, 1, "Fork", KE_GROUP_PROC, ke_fields_fork),
	[KIND_EXEC] = DESC(PROV_PROCESS, 2, "Exec", KE_GROUP_PROC, ke_fields_exec),
	[KIND_EXIT] = DESC(PROV_PROCESS, 3, "Exit", KE_GROUP_PROC, ke_fields_exit),
	[KIND_UCPU] = { .provider = PROV_UNIVERSAL, .event_id = 1, .name = "cpu", .keywords = 0,
			.version = 0, .level = 4 },
	[KIND_UCSWITCH] = { .provider = PROV_UNIVERSAL, .event_id = 2, .name = "cswitch",
			    .keywords = 0, .version = 0, .level = 4 },
};

static const char *const ke_kind_names[NR_KINDS] = {
	"CpuSample", "SchedSwitch", "SchedWakeup", "OffCpu", "Syscall", "Fork", "Exec", "Exit",
	"cpu", "cswitch",
};


/* ------------------------------------------------------------- state */

/* switch-out stack of a thread, until its OffCpu record */
struct pending_stack {
	uint32_t tid;			/* 0: free slot */
	uint32_t depth;
	uint64_t *frames;
};

struct kernel_events {
	struct kernel_events_opts opts;
	struct kernel_events_bpf *skel;
	struct bpf_link **perf_links;
	int nr_perf_links;
	int ncpu;
	uint32_t meta[NR_KINDS];
	uint64_t written[NR_KINDS];
	uint64_t samples, managed_samples, bad_records, offcpu_ns, offcpu_with_stack;
	bool wrote;			/* the record being emitted was written */
	uint64_t cut_frames, cut_stacks;	/* user frames outside the process's code */
	struct pending_stack *pend;	/* open addressing by tid */
	size_t pend_cap, pend_n;
	struct symbolize *quiet;	/* lookups when the sink names nothing */
	struct unwinder *unwinder;	/* --call-graph dwarf */
	struct eh_procs *eh;		/* --call-graph eh */
	uint64_t frame_buf[2 * CE_MAX_STACK_DEPTH];
};

/* ------------------------------------------------------ open / attach */

static void set_autoload(struct kernel_events *ke)
{
	struct kernel_events_bpf *s = ke->skel;
	bool sched = ke->opts.groups & KE_GROUP_SCHED;
	bool sys = ke->opts.groups & KE_GROUP_SYSCALLS;

	bpf_program__set_autoload(s->progs.cpu_sample, ke->opts.sample_hz != 0);
	bpf_program__set_autoload(s->progs.sched_switch, sched);
	bpf_program__set_autoload(s->progs.sched_waking, sched);
	bpf_program__set_autoload(s->progs.sys_enter, sys);
	bpf_program__set_autoload(s->progs.sys_exit, sys);
	/* exec also drops a process's unwind tables (--call-graph eh) */
	bpf_program__set_autoload(s->progs.sched_process_exec,
				  (ke->opts.groups & KE_GROUP_PROC) || ke->opts.eh_unwind);
	/* fork (follows children) and exit (map cleanup) always load */
}

struct kernel_events *kernel_events__open(const struct kernel_events_opts *opts)
{
	struct kernel_events *ke = calloc(1, sizeof(*ke));
	int err;

	if (!ke)
		return NULL;
	ke->opts = *opts;
	if (!ke->opts.sample_events)
		ke->opts.sample_events = KE_SAMPLES_DEFAULT;
	ke->ncpu = libbpf_num_possible_cpus();
	if (ke->ncpu <= 0) {
		err = ke->ncpu ? ke->ncpu : -EINVAL;
		goto cleanup;
	}
	if (opts->ustack_copy && !(ke->unwinder = unwinder__new())) {
		err = -ENOMEM;
		goto cleanup;
	}
	if (opts->rb_fd < 0)	/* decode only (tests): no BPF */
		return ke;
	ke->skel = kernel_events_bpf__open();
	if (!ke->skel) {
		err = -errno;
		pr_warn("cannot open BPF object: %s\n", strerror(-err));
		goto cleanup;
	}
	ke->skel->rodata->targ_all = opts->all_processes;
	ke->skel->rodata->targ_sample_select = opts->sample_select;
	ke->skel->rodata->targ_self = getpid();
	ke->skel->rodata->targ_groups = opts->groups;
	ke->skel->rodata->targ_kstack = !opts->no_kstack;
	ke->skel->rodata->targ_ustack_copy = opts->ustack_copy;
	/* the copy buffer is indexed by CPU; one entry when nothing copies */
	bpf_map__set_max_entries(ke->skel->maps.ustack_copy, opts->ustack_copy ? ke->ncpu : 1);
	ke->skel->rodata->targ_eh_unwind = opts->eh_unwind;
	bpf_map__set_max_entries(ke->skel->maps.eh_rows, opts->eh_unwind ? EH_MAX_ROWS : 1);
	bpf_map__set_max_entries(ke->skel->maps.eh_procs, opts->eh_unwind ? EH_MAX_PROCS : 1);
	bpf_map__set_max_entries(ke->skel->maps.eh_exec, opts->eh_unwind ? EH_MAX_PROCS : 1);
	bpf_map__set_max_entries(ke->skel->maps.eh_maps,
				 opts->eh_unwind ? EH_MAX_PROCS * EH_MAX_MAPPINGS : 1);
	ke->skel->rodata->targ_wakeup_bytes = CE_WAKEUP_BYTES(opts->rb_bytes);
	ke->skel->rodata->targ_backstop_bytes = CE_BACKSTOP_BYTES(opts->rb_bytes);
	set_autoload(ke);
	err = bpf_map__reuse_fd(ke->skel->maps.rb, opts->rb_fd);
	if (err) {
		pr_warn("cannot share the ring buffer (fd %d): %s\n", opts->rb_fd, strerror(-err));
		goto cleanup;
	}
	err = kernel_events_bpf__load(ke->skel);
	if (err) {
		pr_warn("cannot load the kernel-event BPF programs: %s\n", strerror(-err));
		goto cleanup;
	}
	if (opts->eh_unwind &&
	    !(ke->eh = eh_procs__new(ke->skel->maps.eh_rows, ke->skel->maps.eh_maps,
				     ke->skel->maps.eh_procs))) {
		err = -errno;
		goto cleanup;
	}
	return ke;
cleanup:
	kernel_events__destroy(ke);
	errno = -err;
	return NULL;
}

int kernel_events__add_target(struct kernel_events *ke, pid_t tgid)
{
	__u32 key = tgid;
	__u8 one = 1;
	int err;

	if (!ke->skel)
		return -EINVAL;
	err = bpf_map__update_elem(ke->skel->maps.targets, &key, sizeof(key), &one,
				   sizeof(one), 0);
	/* tables before the first sample; a process gone by now has none */
	if (!err && ke->eh)
		eh_procs__load(ke->eh, tgid, NULL);
	return err;
}

int kernel_events__select(struct kernel_events *ke, pid_t tgid, int on)
{
	__u32 key = tgid;
	__u8 one = 1;
	int err;

	if (!ke || !ke->skel || !ke->opts.sample_select)
		return 0;
	if (!on) {
		err = bpf_map__delete_elem(ke->skel->maps.selected, &key, sizeof(key), 0);
		return err == -ENOENT ? 0 : err;
	}
	return bpf_map__update_elem(ke->skel->maps.selected, &key, sizeof(key), &one,
				    sizeof(one), 0);
}

static int open_cpu_clock(int cpu, unsigned int hz)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.freq = 1,
		.sample_freq = hz,
	};

	return syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* One software CPU-clock event per online CPU, each running cpu_sample. */
static int attach_sampling(struct kernel_events *ke)
{
	int cpu, fd, err;

	ke->perf_links = calloc(ke->ncpu, sizeof(*ke->perf_links));
	if (!ke->perf_links)
		return -ENOMEM;
	for (cpu = 0; cpu < ke->ncpu; cpu++) {
		struct bpf_link *link;

		fd = open_cpu_clock(cpu, ke->opts.sample_hz);
		if (fd < 0) {
			err = -errno;
			if (err == -ENODEV)	/* possible but offline */
				continue;
			pr_warn("cannot open the software CPU clock (perf_event_open "
				"PERF_COUNT_SW_CPU_CLOCK) on cpu %d: %s; CPU sampling needs "
				"CAP_PERFMON or kernel.perf_event_paranoid <= 0\n", cpu,
				strerror(-err));
			return err;
		}
		link = bpf_program__attach_perf_event(ke->skel->progs.cpu_sample, fd);
		if (!link) {
			err = -errno;
			close(fd);
			pr_warn("cannot attach the sampling program on cpu %d: %s\n", cpu,
				strerror(-err));
			return err;
		}
		ke->perf_links[ke->nr_perf_links++] = link;
	}
	return 0;
}

int kernel_events__attach(struct kernel_events *ke)
{
	int err;

	/* -p PID's tables before its first sample: the kernel's events are
	 * not traced yet, nothing of theirs waits to be read; --all: every
	 * process's files queued, built while the trace runs */
	eh_procs__settle(ke->eh);
	if (ke->eh && ke->opts.all_processes && eh_procs__load_all(ke->eh))
		return -ENOMEM;
	err = ke->skel ? kernel_events_bpf__attach(ke->skel) : -EINVAL;

	if (err) {
		pr_warn("cannot attach the kernel tracepoints (tp_btf): %s\n", strerror(-err));
		return err;
	}
	if (ke->opts.sample_hz) {
		err = attach_sampling(ke);
		if (err)
			return err;
		pr_debug("CPU sampling at %u Hz on %d CPUs\n", ke->opts.sample_hz,
			 ke->nr_perf_links);
	}
	return 0;
}

int kernel_events__counters(struct kernel_events *ke, struct ke_counters *out)
{
	struct ke_counters *per = calloc(ke->ncpu, sizeof(*per));
	__u64 *dst = (__u64 *)out;
	__u32 zero = 0;
	int i, j, err;

	if (!ke->skel) {
		free(per);
		memset(out, 0, sizeof(*out));
		return 0;
	}
	if (!per)
		return -ENOMEM;
	err = bpf_map__lookup_elem(ke->skel->maps.counters, &zero, sizeof(zero), per,
				   ke->ncpu * sizeof(*per), 0);
	if (!err) {
		memset(out, 0, sizeof(*out));
		for (i = 0; i < ke->ncpu; i++)
			for (j = 0; j < (int)(sizeof(*per) / 8); j++)
				dst[j] += ((const __u64 *)&per[i])[j];
	}
	free(per);
	return err;
}

uint64_t kernel_events__lost(struct kernel_events *ke)
{
	struct ke_counters c;

	if (!ke || kernel_events__counters(ke, &c))
		return 0;
	return c.rb_drops + c.nested_drops;
}

uint64_t kernel_events__bad_records(const struct kernel_events *ke)
{
	return ke ? ke->bad_records : 0;
}

uint64_t kernel_events__written(const struct kernel_events *ke)
{
	uint64_t n = 0;
	int i;

	for (i = 0; ke && i < NR_KINDS; i++)
		n += ke->written[i];
	return n;
}

/* With sysctl kernel.bpf_stats_enabled=1 the kernel times every program run. */
static void print_prog_stats(struct bpf_program *prog, FILE *f)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int fd = bpf_program__fd(prog);

	if (fd < 0 || bpf_prog_get_info_by_fd(fd, &info, &len) || !info.run_cnt)
		return;
	fprintf(f, "kernel-events: BPF %s: %llu runs, %.0f ns per run "
		"(kernel.bpf_stats_enabled)\n", bpf_program__name(prog),
		(unsigned long long)info.run_cnt, (double)info.run_time_ns / info.run_cnt);
}

void kernel_events__print_summary(struct kernel_events *ke, FILE *f)
{
	struct bpf_program *prog;

	struct ke_counters c = {};
	int i;

	if (!ke)
		return;
	kernel_events__counters(ke, &c);
	for (i = 0; i < NR_KINDS; i++)
		if (ke->written[i])
			fprintf(f, "%-21s %-44s %10llu\n", ke_descs[i].provider, ke_kind_names[i],
				(unsigned long long)ke->written[i]);
	if (ke->samples)
		fprintf(f, "kernel-events: %llu CPU samples (%llu managed, %llu external) at "
			"%u Hz\n", (unsigned long long)ke->samples,
			(unsigned long long)ke->managed_samples,
			(unsigned long long)(ke->samples - ke->managed_samples),
			ke->opts.sample_hz);
	if (ke->written[KIND_OFFCPU])
		fprintf(f, "kernel-events: off-CPU %.3f s in %llu intervals (%llu with a "
			"blocking stack)\n", ke->offcpu_ns / 1e9,
			(unsigned long long)ke->written[KIND_OFFCPU],
			(unsigned long long)ke->offcpu_with_stack);
	fprintf(f, "kernel-events: dropped %llu (ring buffer full %llu, preempted %llu); "
		"truncated stacks %llu kernel, %llu user; %llu stack errors; %llu child "
		"processes followed\n", (unsigned long long)(c.rb_drops + c.nested_drops),
		(unsigned long long)c.rb_drops, (unsigned long long)c.nested_drops,
		(unsigned long long)c.kstack_truncated, (unsigned long long)c.ustack_truncated,
		(unsigned long long)c.stack_errors, (unsigned long long)c.followed);
	if (ke->samples || ke->written[KIND_SWITCH] || ke->written[KIND_WAKEUP])
		fprintf(f, "kernel-events: %llu user frames outside the process's code cut from "
			"%llu stacks\n", (unsigned long long)ke->cut_frames,
			(unsigned long long)ke->cut_stacks);
	if (ke->unwinder) {
		struct unwind_stats us;

		unwinder__stats(ke->unwinder, &us);
		fprintf(f, "kernel-events: --call-graph dwarf: %llu stacks unwound, %llu frames "
			"(%llu by CFI, %llu by frame pointers), %.1f us per stack, %llu module "
			"sets built, JIT code read %llu times (%llu answers cached); user stack "
			"copies: %llu unreadable, %llu cut at the stack's end\n",
			(unsigned long long)us.stacks, (unsigned long long)us.frames,
			(unsigned long long)us.cfi_frames, (unsigned long long)us.fp_frames,
			us.stacks ? us.ns / 1e3 / us.stacks : 0.0, (unsigned long long)us.rebuilds,
			(unsigned long long)us.code_reads, (unsigned long long)us.code_cached,
			(unsigned long long)c.ustack_copy_errors,
			(unsigned long long)c.ustack_copy_short);
	}
	if (ke->eh) {
		eh_procs__print(ke->eh, f);
		fprintf(f, "kernel-events: --call-graph eh: %llu user frames by .eh_frame rows, "
			"%llu by frame pointers, %llu frameless callers found between them "
			"(%llu scans cut at %d words); "
			"%llu samples walked by frame pointers before their tables were ready\n",
			(unsigned long long)c.eh_cfi_frames, (unsigned long long)c.eh_fp_frames,
			(unsigned long long)c.eh_scan_frames, (unsigned long long)c.eh_scan_cut,
			EH_SCAN_WORDS,
			(unsigned long long)c.eh_unready_samples);
	}
	if (ke->bad_records)
		fprintf(f, "kernel-events: %llu malformed records skipped\n",
			(unsigned long long)ke->bad_records);
	if (ke->skel)
		bpf_object__for_each_program(prog, ke->skel->obj)
			print_prog_stats(prog, f);
}

void kernel_events__detach(struct kernel_events *ke)
{
	int j;

	if (!ke)
		return;
	for (j = 0; j < ke->nr_perf_links; j++)
		bpf_link__destroy(ke->perf_links[j]);
	ke->nr_perf_links = 0;
	if (ke->skel)
		kernel_events_bpf__detach(ke->skel);
}

void kernel_events__destroy(struct kernel_events *ke)
{
	size_t i;

	if (!ke)
		return;
	kernel_events__detach(ke);
	free(ke->perf_links);
	kernel_events_bpf__destroy(ke->skel);
	for (i = 0; i < ke->pend_cap; i++)
		free(ke->pend[i].frames);
	free(ke->pend);
	symbolize__free(ke->quiet);
	unwinder__free(ke->unwinder);
	eh_procs__free(ke->eh);
	free(ke);
}

/* ---------------------------------------------------- pending stacks */

static struct pending_stack *pend_slot(struct kernel_events *ke, uint32_t tid, bool insert)
{
	size_t i, mask;

	if (insert && (ke->pend_n + 1) * 2 > ke->pend_cap) {
		size_t cap = ke->pend_cap ? ke->pend_cap * 2 : 256, old_cap = ke->pend_cap;
		struct pending_stack *old = ke->pend, *n = calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		ke->pend = n;
		ke->pend_cap = cap;
		for (i = 0; i < old_cap; i++) {
			if (!old[i].tid)
				continue;
			for (mask = cap - 1, n = &ke->pend[(old[i].tid * 2654435761u) & mask];
			     n->tid; n = &ke->pend[(n - ke->pend + 1) & mask])
				;
			*n = old[i];
		}
		free(old);
	}
	if (!ke->pend_cap)
		return NULL;
	mask = ke->pend_cap - 1;
	for (i = (tid * 2654435761u) & mask;; i = (i + 1) & mask) {
		if (ke->pend[i].tid == tid)
			return &ke->pend[i];
		if (!ke->pend[i].tid) {
			if (!insert)
				return NULL;
			ke->pend[i].tid = tid;
			ke->pend_n++;
			return &ke->pend[i];
		}
	}
}

/* Remove by backward-shift deletion (keeps probe chains intact). */
static void pend_remove(struct kernel_events *ke, struct pending_stack *p)
{
	size_t mask = ke->pend_cap - 1, i = p - ke->pend, j, k;

	free(p->frames);
	ke->pend[i] = (struct pending_stack){ 0 };
	ke->pend_n--;
	for (j = (i + 1) & mask; ke->pend[j].tid; j = (j + 1) & mask) {
		k = (ke->pend[j].tid * 2654435761u) & mask;
		if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
			ke->pend[i] = ke->pend[j];
			ke->pend[j] = (struct pending_stack){ 0 };
			i = j;
		}
	}
}

static int pend_store(struct kernel_events *ke, uint32_t tid, const uint64_t *frames,
		      uint32_t depth)
{
	struct pending_stack *p = pend_slot(ke, tid, true);
	uint64_t *f;

	if (!p)
		return -ENOMEM;
	f = realloc(p->frames, (depth ? depth : 1) * sizeof(*f));
	if (!f)
		return -ENOMEM;
	memcpy(f, frames, depth * sizeof(*f));
	p->frames = f;
	p->depth = depth;
	return 0;
}

/* -------------------------------------------------------- frame names */

/* Where this record's frames are looked up: the sink's symbolize, else the
 * module's own, which writes nothing (NULL when out of memory). */
static struct symbolize *lookup(struct kernel_events *ke, const struct ke_sink *sink)
{
	if (sink->sz)
		return sink->sz;
	if (!ke->quiet)
		ke->quiet = symbolize__new(NULL, NULL);
	return ke->quiet;
}

/* The record's frames named in the trace, before the record is written. */
static int name_stack(const struct ke_sink *sink, const struct ce_header *h,
		      const uint64_t *frames, uint32_t depth)
{
	if (!sink->sz)
		return 0;
	return symbolize__stack(sink->sz, h->pid, h->tid, h->timestamp, frames, depth);
}

/*
 * The kind of code of a sample's leaf user frame, frames[i] (under kernel
 * frames when i > 0: where the thread entered the kernel, named exactly, as
 * sym_frame_address does).
 */
static enum sym_kind leaf_kind(struct kernel_events *ke, const struct ke_sink *sink,
			       const struct ce_header *h, const uint64_t *frames, uint32_t i)
{
	struct symbolize *sz = frames[i] ? lookup(ke, sink) : NULL;
	struct sym_info si;

	if (!sz)
		return SYM_KIND_UNKNOWN;
	symbolize__resolve(sz, h->pid, sym_frame_address(frames, i), h->timestamp, &si);
	return si.kind;
}

/*
 * The frame-pointer walk trusts %rbp; through a function built without frame
 * pointers (libc's leaves) it reads a "return address" that is data (an
 * address in .rela.dyn or .rodata).  As perf does with callchains, the user
 * stack ends before the first frame that is not code of the process (an
 * executable mapping or a runtime method), and the frames cut are counted.
 * user[0] is the interrupted ip; callers are checked at address - 1, the
 * call instruction.  Returns the user depth kept.
 */
static uint32_t cut_user_stack(struct kernel_events *ke, const struct ke_sink *sink,
			       const struct ce_header *h, const uint64_t *user, uint32_t ud)
{
	struct symbolize *sz = ud ? lookup(ke, sink) : NULL;
	uint32_t i;

	if (!sz)
		return ud;
	for (i = 0; i < ud; i++)
		if (!symbolize__is_code(sz, h->pid, sym_frame_address(user, i), h->timestamp))
			break;
	if (i < ud && !sink->again) {
		ke->cut_frames += ud - i;
		ke->cut_stacks++;
	}
	return i;
}

/* ------------------------------------------------------------ payload */

struct pbuf {
	uint8_t b[2048];
	uint32_t n;
};

static void put(struct pbuf *p, const void *v, size_t n)
{
	if (p->n + n <= sizeof(p->b)) {
		memcpy(p->b + p->n, v, n);
		p->n += n;
	}
}

static void put_u32(struct pbuf *p, uint32_t v) { put(p, &v, 4); }
static void put_i32(struct pbuf *p, int32_t v) { put(p, &v, 4); }
static void put_u64(struct pbuf *p, uint64_t v) { put(p, &v, 8); }
static void put_i64(struct pbuf *p, int64_t v) { put(p, &v, 8); }
static void put_bool(struct pbuf *p, int v) { put_u32(p, v ? 1 : 0); }

#define KE_MAX_STR	512	/* bytes of one UTF-8 string field kept */

/* UTF-8 (at most max bytes, stops at NUL) as UTF-16LE + NUL; invalid
 * sequences become U+FFFD. */
static void put_str(struct pbuf *p, const char *s, size_t max)
{
	uint8_t u16[2 * KE_MAX_STR + 2];
	size_t n = strnlen(s, max < KE_MAX_STR ? max : KE_MAX_STR);

	put(p, u16, utf8_to_utf16le(s, n, u16));
}

/* -------------------------------------------------------------- emit */

static int write_ev(struct kernel_events *ke, const struct ke_sink *sink, enum ke_kind kind,
		    const struct ce_header *h, uint32_t cpu, const struct pbuf *p,
		    const uint64_t *stack, uint32_t depth)
{
	struct nt_event ne = {
		.timestamp = h->timestamp,
		.pid = h->pid,
		.thread_id = h->tid,
		.capture_thread_id = h->tid,
		.processor = cpu,
		.payload = p->b,
		.payload_size = p->n,
		.stack = depth ? stack : NULL,
		.stack_depth = depth,
	};
	int err;

	if (!ke->meta[kind]) {
		err = nt_writer__define(sink->w, &ke_descs[kind], &ke->meta[kind]);
		if (err)
			return err;
	}
	ne.metadata_id = ke->meta[kind];
	err = nt_writer__write_event(sink->w, &ne);
	if (!err)
		ke->wrote = true;
	if (!err && !sink->again)
		ke->written[kind]++;
	return err;
}

/*
 * A Universal.Events event: its payload the LEB128 Value alone.  TraceEvent
 * takes the process, thread and CPU from the event's header and the stack
 * from its stack id, as for any event.
 */
static int write_universal(struct kernel_events *ke, const struct ke_sink *sink,
			   enum ke_kind kind, const struct ce_header *h, uint32_t cpu,
			   uint64_t value, const uint64_t *stack, uint32_t depth)
{
	struct pbuf p = { .n = 0 };

	p.n = (uint32_t)(nt_emit_varint(p.b, value) - p.b);
	return write_ev(ke, sink, kind, h, cpu, &p, stack, depth);
}

static bool stack_ok(size_t len, size_t fixed, uint32_t kd, uint32_t ud)
{
	return kd <= CE_MAX_STACK_DEPTH && ud <= CE_MAX_STACK_DEPTH &&
	       len == fixed + (kd + ud) * 8ULL;
}

/*
 * The user frames of a dwarf-mode sample (KE_F_USTACK_COPY): the copy after
 * its kd kernel frames unwound into ke->frame_buf after those frames.
 * Returns the whole depth, or -EBADMSG when the record does not hold what
 * it says.
 */
static int unwind_sample(struct kernel_events *ke, const struct ke_sink *sink,
			 const struct ke_sample *e, size_t len)
{
	const uint64_t *kframes = (const uint64_t *)(e + 1);
	uint32_t kd = e->kstack_depth, ud = 0;
	const struct ke_ustack_copy *c;
	size_t fixed = sizeof(*e) + kd * 8ULL;
	struct symbolize *sz;
	const struct proc_maps *pm;
	struct unwind_regs r;

	if (kd > CE_MAX_STACK_DEPTH || e->ustack_depth || len < fixed + sizeof(*c))
		return -EBADMSG;
	c = (const void *)((const char *)e + fixed);
	if (c->size > KE_USTACK_COPY_MAX || len != fixed + sizeof(*c) + ((c->size + 7ULL) & ~7ULL))
		return -EBADMSG;
	memcpy(ke->frame_buf, kframes, kd * 8);
	sz = lookup(ke, sink);
	if (!ke->unwinder || !sz || !c->ip)
		return kd;
	/* the process is read by the one rule of every lookup (symbolize.h),
	 * its mappings again when the pc is in none of them */
	symbolize__is_code(sz, e->hdr.pid, c->ip, e->hdr.timestamp);
	pm = symbolizer__maps(symbolize__symbolizer(sz), e->hdr.pid);
	r.ip = c->ip;
	r.sp = c->sp;
	r.bp = c->bp;
	ud = unwinder__unwind(ke->unwinder, e->hdr.pid, pm,
			      symbolizer__code_gen(symbolize__symbolizer(sz), e->hdr.pid), &r,
			      c + 1, c->size, ke->frame_buf + kd, CE_MAX_STACK_DEPTH);
	return kd + ud;
}

/*
 * --call-graph eh: the walker's view of pid's mappings follows the
 * symbolizer's (read again by the lookups of the stack just named, told
 * by mmap events), so a process met first by a sample (a child, --all)
 * and a library loaded later get their tables for the samples to come.
 */
static void sync_eh_tables(struct kernel_events *ke, const struct ke_sink *sink, pid_t pid)
{
	struct symbolize *sz = lookup(ke, sink);
	const struct proc_maps *pm;

	if (!sz || !(pm = symbolizer__maps(symbolize__symbolizer(sz), pid)) || !pm->n)
		return;
	eh_procs__load(ke->eh, pid, pm);
}

static int emit_sample(struct kernel_events *ke, const struct ke_sample *e, size_t len,
		       const struct ke_sink *sink)
{
	const uint64_t *frames = (const uint64_t *)(e + 1);
	uint32_t depth = e->kstack_depth + e->ustack_depth, ud = e->ustack_depth;
	struct pbuf p = { .n = 0 };
	enum sym_kind kind;
	int err;

	if (e->flags & KE_F_USTACK_COPY) {
		err = unwind_sample(ke, sink, e, len);
		if (err < 0)
			return err;
		frames = ke->frame_buf;
		ud = err - e->kstack_depth;
	} else if (!stack_ok(len, sizeof(*e), e->kstack_depth, e->ustack_depth)) {
		return -EBADMSG;
	}
	depth = e->kstack_depth + cut_user_stack(ke, sink, &e->hdr, frames + e->kstack_depth, ud);
	/* not even its leaf is the process's code: a -- CMD child sampled
	 * just before its exec, in our own code, once the command's mappings
	 * are known; not the command's sample (counted with the cut stacks) */
	if (!depth && ud)
		return 0;
	err = name_stack(sink, &e->hdr, frames, depth);
	if (err)
		return err;
	if (ke->eh)
		sync_eh_tables(ke, sink, e->hdr.pid);
	kind = depth > e->kstack_depth ? leaf_kind(ke, sink, &e->hdr, frames, e->kstack_depth) :
	       SYM_KIND_UNKNOWN;
	if (ke->opts.sample_events & KE_SAMPLES_PROFILER) {
		/* EventPipe: 2 = Managed (leaf user frame in JIT code), 1 = External */
		put_i32(&p, kind == SYM_KIND_JIT ? 2 : 1);
		err = write_ev(ke, sink, KIND_SAMPLE, &e->hdr, e->cpu, &p, frames, depth);
		if (err)
			return err;
	}
	if (ke->opts.sample_events & KE_SAMPLES_UNIVERSAL) {
		/* Value, the sample's weight: one sample (TraceEvent's CPU
		 * time per sample is the trace's sampling interval) */
		err = write_universal(ke, sink, KIND_UCPU, &e->hdr, e->cpu, 1, frames, depth);
		if (err)
			return err;
	}
	if (!sink->again) {
		ke->samples++;
		ke->managed_samples += kind == SYM_KIND_JIT;
	}
	return 0;
}

/*
 * BPF skips the program and bpf_trace_run4 atop a switch stack; depending
 * on how the tracepoint was called, __traceiter_sched_switch may still
 * lead.  It is the tracing, not where the thread blocked: drop it.
 */
static bool tracing_frame(struct kernel_events *ke, const struct ke_sink *sink,
			  const struct ce_header *h, uint64_t ip)
{
	struct symbolize *sz = lookup(ke, sink);
	struct sym_info si;

	return sz && !symbolize__resolve(sz, h->pid, ip, h->timestamp, &si) && si.name &&
	       !strncmp(si.name, "__traceiter_", 12);
}

static int emit_switch(struct kernel_events *ke, const struct ke_switch *e, size_t len,
		       const struct ke_sink *sink)
{
	const uint64_t *frames = (const uint64_t *)(e + 1);
	uint32_t depth = e->kstack_depth + e->ustack_depth;
	struct pbuf p = { .n = 0 };
	int err;

	if (!stack_ok(len, sizeof(*e), e->kstack_depth, e->ustack_depth))
		return -EBADMSG;
	if (e->flags & KE_F_HAS_STACK) {
		depth = e->kstack_depth + cut_user_stack(ke, sink, &e->hdr,
							 frames + e->kstack_depth, e->ustack_depth);
		if (e->kstack_depth && tracing_frame(ke, sink, &e->hdr, frames[0])) {
			frames++;
			depth--;
		}
		err = name_stack(sink, &e->hdr, frames, depth);
		if (!err)
			err = pend_store(ke, e->hdr.tid, frames, depth);
		if (err)
			return err;
	}
	put_u32(&p, e->hdr.pid);
	put_u32(&p, e->hdr.tid);
	put_str(&p, e->prev_comm, sizeof(e->prev_comm));
	put_u64(&p, e->prev_state);
	put_i32(&p, e->prev_prio);
	put_u32(&p, e->next_pid);
	put_u32(&p, e->next_tid);
	put_str(&p, e->next_comm, sizeof(e->next_comm));
	put_i32(&p, e->next_prio);
	put_u32(&p, e->cpu);
	return write_ev(ke, sink, KIND_SWITCH, &e->hdr, e->cpu, &p, frames, depth);
}

static int emit_wakeup(struct kernel_events *ke, const struct ke_wakeup *e, size_t len,
		       const struct ke_sink *sink)
{
	const uint64_t *frames = (const uint64_t *)(e + 1);
	uint32_t depth = e->kstack_depth + e->ustack_depth;
	struct pbuf p = { .n = 0 };
	int err;

	if (!stack_ok(len, sizeof(*e), e->kstack_depth, e->ustack_depth))
		return -EBADMSG;
	if (depth) {
		depth = e->kstack_depth + cut_user_stack(ke, sink, &e->hdr,
							 frames + e->kstack_depth, e->ustack_depth);
		err = name_stack(sink, &e->hdr, frames, depth);
		if (err)
			return err;
	}
	put_u32(&p, e->wakee_pid);
	put_u32(&p, e->wakee_tid);
	put_str(&p, e->wakee_comm, sizeof(e->wakee_comm));
	put_i32(&p, e->wakee_prio);
	put_u32(&p, e->target_cpu);
	put_u32(&p, e->hdr.pid);
	put_u32(&p, e->hdr.tid);
	return write_ev(ke, sink, KIND_WAKEUP, &e->hdr, e->cpu, &p, frames, depth);
}

static int emit_offcpu(struct kernel_events *ke, const struct ke_offcpu *e,
		       const struct ke_sink *sink)
{
	struct pending_stack *ps = pend_slot(ke, e->hdr.tid, false);
	struct pbuf p = { .n = 0 };
	uint32_t depth = 0;
	int err;

	if (ps) {
		depth = ps->depth;
		memcpy(ke->frame_buf, ps->frames, depth * sizeof(uint64_t));
		pend_remove(ke, ps);
	}
	if (depth) {	/* named at switch-out; symbolize may have to write it again */
		err = name_stack(sink, &e->hdr, ke->frame_buf, depth);
		if (err)
			return err;
	}
	put_u32(&p, e->hdr.pid);
	put_u32(&p, e->hdr.tid);
	put_u64(&p, e->duration_ns);
	put_u64(&p, e->prev_state);
	put_u32(&p, e->waker_pid);
	put_u32(&p, e->waker_tid);
	put_bool(&p, ps != NULL);
	err = write_ev(ke, sink, KIND_OFFCPU, &e->hdr, e->cpu, &p, ke->frame_buf, depth);
	/* the same switch-in as TraceEvent's cswitch: the thread switched in,
	 * on e->cpu, Value how long it was off the CPU (in the trace's ticks,
	 * ns), its stack where it blocked */
	if (!err && (ke->opts.sample_events & KE_SAMPLES_UNIVERSAL))
		err = write_universal(ke, sink, KIND_UCSWITCH, &e->hdr, e->cpu, e->duration_ns,
				      ke->frame_buf, depth);
	if (!err && !sink->again) {
		ke->offcpu_ns += e->duration_ns;
		ke->offcpu_with_stack += ps != NULL;
	}
	return err;
}

static int emit_syscall(struct kernel_events *ke, const struct ke_syscall *e,
			const struct ke_sink *sink)
{
	const char *name = ke_syscall_name(e->id);
	struct pbuf p = { .n = 0 };
	char unk[32];
	int i;

	if (!name) {
		snprintf(unk, sizeof(unk), "syscall_%u", e->id);
		name = unk;
	}
	put_u32(&p, e->id);
	put_str(&p, name, strlen(name));
	put_i64(&p, e->ret);
	put_u64(&p, e->duration_ns);
	for (i = 0; i < 6; i++)
		put_u64(&p, e->args[i]);
	put_bool(&p, e->flags & KE_F_NORETURN);
	return write_ev(ke, sink, KIND_SYSCALL, &e->hdr, 0, &p, NULL, 0);
}

static int emit_fork(struct kernel_events *ke, const struct ke_fork *e,
		     const struct ke_sink *sink)
{
	struct symbolize *sz = lookup(ke, sink);
	struct pbuf p = { .n = 0 };

	/* a child that exits before it is seen still runs its parent's code */
	if (sz && !e->is_thread)
		symbolize__fork(sz, e->hdr.pid, e->child_pid);

	put_u32(&p, e->hdr.pid);
	put_u32(&p, e->hdr.tid);
	put_str(&p, e->parent_comm, sizeof(e->parent_comm));
	put_u32(&p, e->child_pid);
	put_u32(&p, e->child_tid);
	put_str(&p, e->child_comm, sizeof(e->child_comm));
	put_bool(&p, e->is_thread);
	return write_ev(ke, sink, KIND_FORK, &e->hdr, 0, &p, NULL, 0);
}

static int emit_exec(struct kernel_events *ke, const struct ke_exec *e,
		     const struct ke_sink *sink)
{
	struct symbolize *sz = lookup(ke, sink);
	struct pbuf p = { .n = 0 };

	/* a new image: re-read its mappings while the process still lives */
	if (sz)
		symbolize__exec(sz, e->hdr.pid);
	put_u32(&p, e->hdr.pid);
	put_u32(&p, e->hdr.tid);
	put_u32(&p, e->old_tid);
	put_str(&p, e->filename, sizeof(e->filename));
	put_str(&p, e->comm, sizeof(e->comm));
	return write_ev(ke, sink, KIND_EXEC, &e->hdr, 0, &p, NULL, 0);
}

static int emit_exit(struct kernel_events *ke, const struct ke_exit *e,
		     const struct ke_sink *sink)
{
	struct pending_stack *ps = pend_slot(ke, e->hdr.tid, false);
	struct pbuf p = { .n = 0 };

	if (ps)
		pend_remove(ke, ps);
	put_u32(&p, e->hdr.pid);
	put_u32(&p, e->hdr.tid);
	put_i32(&p, e->exit_code);
	put_i32(&p, (e->exit_code >> 8) & 0xff);
	put_i32(&p, e->exit_code & 0x7f);
	put_bool(&p, e->group_dead);
	put_str(&p, e->comm, sizeof(e->comm));
	return write_ev(ke, sink, KIND_EXIT, &e->hdr, 0, &p, NULL, 0);
}

int kernel_events__emit(struct kernel_events *ke, const void *rec, size_t len,
			const struct ke_sink *sink)
{
	const struct ce_header *h = rec;
	int err;

	ke->wrote = false;
	if (len < sizeof(*h) || h->size != len)
		goto bad;
#define FIXED(t) if (len != sizeof(t)) goto bad
	switch (h->type) {
	case KE_REC_SAMPLE:
		if (len < sizeof(struct ke_sample))
			goto bad;
		err = emit_sample(ke, rec, len, sink);
		break;
	case KE_REC_SWITCH:
		if (len < sizeof(struct ke_switch))
			goto bad;
		err = emit_switch(ke, rec, len, sink);
		break;
	case KE_REC_WAKEUP:
		if (len < sizeof(struct ke_wakeup))
			goto bad;
		err = emit_wakeup(ke, rec, len, sink);
		break;
	case KE_REC_OFFCPU:
		FIXED(struct ke_offcpu);
		err = emit_offcpu(ke, rec, sink);
		break;
	case KE_REC_SYSCALL:
		FIXED(struct ke_syscall);
		err = emit_syscall(ke, rec, sink);
		break;
	case KE_REC_FORK:
		FIXED(struct ke_fork);
		err = emit_fork(ke, rec, sink);
		break;
	case KE_REC_EXEC:
		FIXED(struct ke_exec);
		err = emit_exec(ke, rec, sink);
		break;
	case KE_REC_EXIT:
		FIXED(struct ke_exit);
		err = emit_exit(ke, rec, sink);
		break;
	default:
		goto bad;
	}
#undef FIXED
	if (err == -EBADMSG)
		goto bad;
	if (err < 0)
		return err;
	return ke->wrote;	/* some records are filtered */
bad:
	ke->bad_records += !sink->again;
	return 0;
}

/* The pipeline's emit for kernel records; their frames are named by the
 * same symbolize as the runtime's. */
static int pipeline_emit(void *ctx, const struct pipeline_sink *s, const void *rec, size_t len)
{
	struct ke_sink sink = { .w = s->w, .sz = s->sym, .again = s->again };

	return kernel_events__emit(ctx, rec, len, &sink);
}

/* every poll of the main loop: --call-graph eh's finished tables go in,
 * its targets that have just exec'ed get theirs; 1 while some are still
 * being built (poll again soon) */
static int pipeline_poll(void *ctx, struct pipeline *p)
{
	struct kernel_events *ke = ctx;

	(void)p;
	return ke->eh ? eh_procs__poll(ke->eh) : 0;
}

const struct pipeline_source_ops kernel_events_source_ops = {
	.first_type = CE_REC_KERNEL_FIRST,
	.last_type = CE_REC_KERNEL_LAST,
	.emit = pipeline_emit,
	.poll = pipeline_poll,
};

/* ----------------------------------------------------------- options */

/* The --kernel group list and the --cpu-sampling rate, checked before
 * anything is opened, and syscall names by number. */

int kernel_events__parse_groups(const char *spec, unsigned int *groups, char *err,
				size_t err_len)
{
	char *dup = strdup(spec), *tok, *save = NULL;
	unsigned int g = 0;
	int rc = 0;

	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "sched"))
			g |= KE_GROUP_SCHED;
		else if (!strcmp(tok, "syscalls") || !strcmp(tok, "syscall"))
			g |= KE_GROUP_SYSCALLS;
		else if (!strcmp(tok, "proc") || !strcmp(tok, "process"))
			g |= KE_GROUP_PROC;
		else if (!strcmp(tok, "all"))
			g |= KE_GROUP_SCHED | KE_GROUP_SYSCALLS | KE_GROUP_PROC;
		else if (strcmp(tok, "none")) {
			snprintf(err, err_len, "unknown kernel event group '%s' (sched, syscalls, "
				 "proc, all, none)", tok);
			rc = -EINVAL;
			break;
		}
	}
	free(dup);
	if (!rc)
		*groups = g;
	return rc;
}

int kernel_events__parse_hz(const char *arg, unsigned int *hz)
{
	unsigned long v;
	char *end;

	if (!arg) {
		*hz = KE_DEFAULT_HZ;
		return 0;
	}
	if (*arg < '0' || *arg > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || *end || v < 1 || v > KE_MAX_HZ)
		return -EINVAL;
	*hz = v;
	return 0;
}

int kernel_events__parse_sample_events(const char *arg, unsigned int *mask)
{
	if (!strcmp(arg, "both"))
		*mask = KE_SAMPLES_PROFILER | KE_SAMPLES_UNIVERSAL;
	else if (!strcmp(arg, "universal"))
		*mask = KE_SAMPLES_UNIVERSAL;
	else if (!strcmp(arg, "sampleprofiler"))
		*mask = KE_SAMPLES_PROFILER;
	else
		return -EINVAL;
	return 0;
}

int kernel_events__profile(const char *name, unsigned int *groups, unsigned int *hz,
			   const char **clr_profile)
{
	*clr_profile = name;
	if (!strcmp(name, "cpu-sampling")) {
		*groups |= KE_GROUP_PROC;
		*hz = KE_DEFAULT_HZ;
		*clr_profile = "default";
		return 1;
	}
	if (!strcmp(name, "contention")) {
		*groups |= KE_GROUP_SCHED;
		return 1;
	}
	return 0;
}

const char *ke_syscall_name(unsigned int nr)
{
	if (nr >= ARRAY_SIZE(ke_syscall_names))
		return NULL;
	return ke_syscall_names[nr];
}
