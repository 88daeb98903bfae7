/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * symbolize.h - names for every frame of a trace written by ebpf-collect
 * (architecture decisions 8 and 10): the one way every source (CLR USDT
 * events, EventPipe, kernel events, the recorder's rotations and dumps, the
 * fleet export) has its frames named.  The symbolizer library (symbolizer.h)
 * does the lookups; this module decides which method and module events go
 * into the trace and when, and which processes are looked at and when.  See
 * symbolize.c for the design and TraceEvent's rules.
 *
 * Use from the collector:
 *   sz = symbolize__new(writer, &opts);      after the output is open
 *   symbolize__add_pid(sz, pid);             every target, at attach
 *   for every record leaving the reorder buffer, BEFORE it is written:
 *       symbolize__clr_event(...)            CLR events (method/module events
 *                                            feed the symbolizer; stack frames)
 *       symbolize__stack(...)                any other record with a stack
 *                                            (kernel events)
 *   symbolize__tick(sz, now, watermark);     every poll (mapping snapshots,
 *                                            perf-map growth, horizon)
 *   symbolize__fetch_symbols(sz, ts);        at the end of the trace only
 *                                            (never at a rotation: it may
 *                                            wait on symbol servers)
 *   symbolize__finish(sz, ts);               after the last event, before
 *                                            the writer is closed
 *   symbolize__free(sz);
 *
 * A record's stack must go through symbolize__stack (or __clr_event) before
 * the record itself is written: the call may first write method events that
 * must precede it in the file.
 *
 * When a process's mappings and perf map are read (the one rule, for every
 * source): when it is first seen (symbolize__add_pid for a target -- a held
 * child from its first tick after exec --, its first record or lookup for
 * any other); at symbolize__exec; and at symbolize__tick while it lives,
 * every 100 ms for targets and every second for the others -- the
 * mappings only until the kernel reports them as they are made
 * (symbolize__mappings_reported): from then on one more snapshot, to cover
 * what was mapped before the reports began, and the perf map alone.  In
 * between,
 * a lookup that misses re-reads what may have grown (symbolizer.c): an
 * address in no known mapping re-reads the mappings (at most every 10 ms),
 * JIT code no perf-map line covers reads the lines appended since.
 *
 * Errors: 0 or -errno; symbolize__new returns NULL and sets errno; free
 * accepts NULL.  Not thread-safe: the collector names on its consumer thread.
 */
#ifndef EBPF_COLLECT_SYMBOLIZE_H
#define EBPF_COLLECT_SYMBOLIZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct nt_writer;
struct symbolizer;
struct sym_info;

/* Thread id of the method/module events the symbolizer writes (no Linux
 * thread has it: pid_max <= 2^22).  Tests tell them from the runtime's own
 * rundown events by it. */
#define SYMBOLIZE_TID		0x7fffffffULL

struct symbolize_opts {
	int no_perf_map;	/* names of JIT code from method events only */
	int no_kernel;		/* never read /proc/kallsyms */
	const char *kallsyms_path;	/* tests; NULL = /proc/kallsyms */
	int per_process;	/* NetTrace V6: every process its own address space */
};

struct symbolize_stats {
	uint64_t frames;		/* frames looked up */
	uint64_t unresolved;		/* frames without a name */
	uint64_t frames_jit, frames_native, frames_kernel;
	uint64_t methods_written;	/* MethodDCEndVerbose events */
	uint64_t early_writes;		/* of which written mid-trace (range reuse) */
	uint64_t modules_written;	/* ModuleDCEnd events */
	uint64_t mappings_written;	/* Universal.System ProcessMapping events */
	uint64_t mappings_meta_written;	/* ProcessMappingMetadata (build ids) */
	uint64_t renamed;		/* native ranges named by a fetched debug file */
	uint64_t method_events;		/* runtime method events fed to the symbolizer */
	/* held now: what a long churn of code must not grow (symbolize__new_file
	 * forgets what the horizon passed) */
	uint64_t ranges_held, modules_held, methods_held, processes_held;
};

struct symbolize;

/* NULL + errno.  w NULL: frames are looked up (symbolize__resolve,
 * symbolize__is_code) but nothing is written -- symbolize__stack and
 * symbolize__finish do nothing (--no-symbols: kernel events still tell
 * JIT samples and cut stacks at code). */
struct symbolize *symbolize__new(struct nt_writer *w, const struct symbolize_opts *opts);
void symbolize__free(struct symbolize *sz);

/* Track a target while it lives (mappings, ELF files, perf map).  A pid that
 * has not exec'd yet (the held -- CMD child) is snapshotted from its first
 * tick after exec.  0 or -errno. */
int symbolize__add_pid(struct symbolize *sz, pid_t pid);

/* Every poll period: re-snapshot the live targets' mappings and read their
 * perf maps' growth (rate-limited inside), and promise that no record older
 * than watermark (the reorder buffer's) comes any more. */
void symbolize__tick(struct symbolize *sz, uint64_t now, uint64_t watermark);

/* The kernel now reports pid's new executable mappings (and its children's)
 * as they are made, passed in by symbolizer__add_mapping before any record
 * that uses them (the collector's mmap_events.c): symbolize__tick stops
 * re-reading pid's /proc maps.  symbolize__mapping_reports_lost: the reports
 * lost some; every process is snapshotted as before from now on. */
void symbolize__mappings_reported(struct symbolize *sz, pid_t pid);
void symbolize__mapping_reports_lost(struct symbolize *sz);

/*
 * A CLR event of provider/id at ts from pid/tid (capture thread tid), with
 * its payload and stack (leaf first: kernel frames, then user frames).
 * MethodLoadVerbose / MethodUnloadVerbose / MethodDCStart / MethodDCEnd and
 * module events feed the symbolizer; the stack is registered as with
 * symbolize__stack.  0 or -errno (write failure).
 */
int symbolize__clr_event(struct symbolize *sz, const char *provider, uint32_t id, pid_t pid,
			 uint64_t tid, uint64_t ts, const void *payload, size_t len,
			 const uint64_t *stack, uint32_t depth);

/*
 * Register the frames of one record of process pid, capture thread tid, at
 * ts, so that the trace names them: stack is leaf first, kernel frames
 * (>= SYM_KERNEL_START) then user frames; frame 0 and the first user frame
 * after kernel frames are exact IPs, the others return addresses.  Call it
 * before writing the record.  0 or -errno (write failure).
 */
int symbolize__stack(struct symbolize *sz, pid_t pid, uint64_t tid, uint64_t ts,
		     const uint64_t *stack, uint32_t depth);

/*
 * The method and module part of symbolize__clr_event alone.  The flight
 * recorder keeps records and writes them only when it dumps: it feeds the
 * runtime's method events as they arrive (a dump's frames may be named by a
 * load from before its window) and names a dump's frames with
 * symbolize__stack.  0 or -ENOMEM.
 */
int symbolize__learn(struct symbolize *sz, const char *provider, uint32_t id, pid_t pid,
		     uint64_t ts, const void *payload, size_t len);

/* pid replaced its image (an exec record): read its mappings and perf map
 * again now, before its next frames. */
void symbolize__exec(struct symbolize *sz, pid_t pid);

/* parent forked child (a process): child starts with what is known of
 * parent's mappings, read again as any process's once it is seen or
 * execs (symbolizer__fork). */
void symbolize__fork(struct symbolize *sz, pid_t parent, pid_t child);

/*
 * One address of process pid at ts looked up the way the trace's frames
 * are (same processes, same rule for re-reading them), without naming it in
 * the trace: the caller passes the address to name (sym_frame_address).
 * Always fills *si (kind and module as far as known); 0 when named,
 * -ENOENT when not (see symbolizer__resolve).
 */
int symbolize__resolve(struct symbolize *sz, pid_t pid, uint64_t addr, uint64_t ts,
		       struct sym_info *si);
/* Whether addr can be code of pid at ts (see symbolizer__is_code): a
 * frame-pointer walk's "return address" that is not ends the stack. */
bool symbolize__is_code(struct symbolize *sz, pid_t pid, uint64_t addr, uint64_t ts);

/* A new file of the same writer (nt_writer__next_file) after
 * symbolize__finish: its frames are named again in it.  What no frame at or
 * after symbolize__tick's watermark can name (code and modules unloaded
 * before it, processes found gone before it) is forgotten here, names
 * included. */
void symbolize__new_file(struct symbolize *sz);

/* The debug files of the stripped files the stacks touched, from the
 * network symbol stores (symbolizer__fetch_symbols: SYMBOL_STORE_TOTAL_MS at
 * most), and the native ranges not written yet named by them.  Call it at
 * the end of a trace, before symbolize__finish, while no record waits.
 * 0 or -ENOMEM. */
int symbolize__fetch_symbols(struct symbolize *sz, uint64_t ts);

/* Write the method events still pending and one ModuleDCEnd per module, at
 * ts (after every other event).  0 or -errno. */
int symbolize__finish(struct symbolize *sz, uint64_t ts);

/* The underlying symbolizer, for what is not a frame lookup: mappings the
 * kernel reported as they were made (symbolizer__add_mapping). */
struct symbolizer *symbolize__symbolizer(struct symbolize *sz);
/* The file of runtime module module_id in pid (a JIT frame's module, the
 * way the trace's module events name it); NULL when not described yet. */
const char *symbolize__module_path(struct symbolize *sz, uint32_t pid, uint64_t module_id);
void symbolize__stats(const struct symbolize *sz, struct symbolize_stats *st);
void symbolize__print_summary(const struct symbolize *sz, FILE *f);

#endif /* EBPF_COLLECT_SYMBOLIZE_H */
