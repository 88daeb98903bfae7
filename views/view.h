/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * view.h - the trace model the Linux views share: a .nettrace read in two
 * passes (names first, then stacks resolved at each event's time), with
 * frames and stacks interned.  report, convert (folded, speedscope, flame
 * graph) are built on it.
 */
#ifndef EBPF_COLLECT_VIEW_H
#define EBPF_COLLECT_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "grow.h"
#include "nettrace.h"
#include "symbolizer.h"
#include "u64_map.h"

#define SAMPLE_PROFILER		"Microsoft-DotNETCore-SampleProfiler"
#define PSEUDO_ID_MASK		0xffff000000000000ULL
#define PSEUDO_MODULE_PREFIX	0xebc0000000000000ULL

struct vmodule {
	uint64_t id;
	char *name;		/* display: basename, ".dll"/".exe" dropped */
	char *path;
};

struct vframe {
	const char *name;
	const char *file;	/* module path or name, for speedscope */
	enum sym_kind kind;
	uint64_t hash;
	uint64_t self, total;	/* report: exclusive / inclusive */
	uint32_t last_stack;	/* report: inclusive counted once per stack */
};

struct vstack {
	uint32_t off, depth;	/* frames (root first) in v->frames_pool */
	uint64_t hash;
	uint64_t count;
};

struct vthread {
	uint64_t tid;
	uint32_t *stacks;	/* one per sample, in order */
	uint64_t *ts;
	size_t n, cap, cap_ts;
};

struct view {
	struct nt_trace_info info;
	struct range_table *methods;
	struct vmodule *mods;
	size_t n_mods, cap_mods;
	struct strpool *pool;
	/* frames, interned by name + kind */
	struct vframe *frames;
	size_t n_frames, cap_frames;
	uint32_t *frame_slots;
	size_t n_frame_slots;
	/* stacks, interned by frame sequence */
	struct vstack *stacks;
	size_t n_stacks, cap_stacks;
	uint32_t *stack_slots;
	size_t n_stack_slots;
	uint32_t *frames_pool;
	size_t n_pool, cap_pool;
	/* samples by thread (speedscope) */
	struct vthread *threads;
	size_t n_threads, cap_threads;
	/* what is selected */
	const char *event_filter;
	int cpu_samples;	/* the input has CPU samples: SampleProfiler
				 * thread samples or Universal.Events cpu */
	/* its samples are the cpu events: it has no thread samples (written
	 * with --sample-events universal, or by dotnet-trace collect-linux);
	 * with both, the thread samples, so a sample counts once */
	int universal_samples;
	uint64_t selected, first_ts, last_ts, events, lost;
	uint64_t start_ts;	/* the trace's earliest event */
	/* names of processes (pid) and threads (tid) from the kernel's
	 * process events: const char * in strpool */
	struct u64_map proc_comm, thread_comm;
	/* ELF build ids of the trace's Universal.System events: the metadata
	 * id -> build id, and a hash of a mapped file's path -> its build id
	 * (const char * in strpool) */
	struct u64_map meta_build_id, path_build_id;
	const char *select_desc;
	int kind_suffix;
	int tiers;		/* --tiers: a method's code version tier after its name */
	int error;		/* the reader stopped on damage */
	char errmsg[256];
};

/* view.c: the trace model */
int view_parse_u64(const char *s, uint64_t *out);
int view_streq_ci(const char *a, const char *b);
int view_is_clr(const struct nt_metadata *m, uint32_t id);
/* ev's metadata is of the view's CPU samples (after view__pass1) */
int view__is_sample(const struct view *v, const struct nt_metadata *m);
int view__init(struct view *v);
void view__free(struct view *v);
struct nt_reader *view__open(struct view *v, const char *path);
int view__pass1(struct view *v, const char *path);
uint32_t view__event_stack(struct view *v, const struct nt_read_event *ev);
int view__add_sample(struct view *v, const struct nt_read_event *ev);
/* Pass 1 and what the views select (event NULL: CPU samples if the trace
 * has any, else every event with a stack); view__load collects the
 * selected events' stacks too, for the views that fold them. */
int view__load_names(struct view *v, const char *path, const char *event);
int view__load(struct view *v, const char *path, const char *event);
int view__selected(const struct view *v, const struct nt_read_event *ev);
/* The little-endian u32 at off of ev's payload; 0 past its end. */
uint32_t view_payload_u32(const struct nt_read_event *ev, size_t off);
/* The frame id of ip at time ts (UINT32_MAX on ENOMEM); *range (when not
 * NULL) the method range that names it, NULL when none does. */
uint32_t view__resolve(struct view *v, uint64_t ip, uint64_t ts, const struct range_entry **range);
const struct vmodule *view__module(const struct view *v, uint64_t id);
/* The ELF build id (hex) the trace gives the file at path, or NULL. */
const char *view__build_id(const struct view *v, const char *path);
/* The name (comm) of thread tid, else of process pid, the trace's kernel
 * process events give; NULL when they give none (or tid 0: the process's). */
const char *view__comm(const struct view *v, uint64_t pid, uint64_t tid);
int view__add_folded(struct view *v, const char *folded, uint64_t count);
double view_ticks_to_ns(const struct view *v, uint64_t ticks);

/* the views: folded.c, speedscope.c, flamegraph.c over view__load's stacks;
 * pprof.c and chromium.c read the trace (path) again after view__load_names */
int view__write_folded(struct view *v, FILE *out);
int view__write_speedscope(struct view *v, const char *file, FILE *out);
int view__write_svg(struct view *v, const char *file, FILE *out);
int view__write_pprof(struct view *v, const char *path, FILE *out);
int view__write_chromium(struct view *v, const char *path, FILE *out);

#endif
