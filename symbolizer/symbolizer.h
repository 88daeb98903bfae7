/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * symbolizer.h - names for code addresses: perf maps, runtime method
 * events, ELF symbols, kallsyms.
 *
 * The top-level object is `struct symbolizer`.  Its user registers each
 * target process while it lives (symbolizer__add_pid snapshots its mappings,
 * opens its ELF files through /proc/PID/map_files or /proc/PID/root, and
 * finds its perf map through /proc/PID/root with the namespaced pid), feeds
 * it the runtime's method load/unload events as they arrive, and asks
 * symbolizer__resolve(pid, addr, ts) for every frame.  Everything a process
 * needs stays open after it exits, so late lookups still work.  A lookup
 * that misses re-reads what may have grown: the mappings, for an address in
 * none of them (at most every 10 ms), the perf map's new lines, for JIT
 * code none covers.
 *
 * Users: the collector names a trace's frames only through symbolize.h,
 * which owns one symbolizer and decides when processes are read and which
 * method/module events (rundown.h) go into the trace (the collector only
 * adds the mappings the kernel reports, symbolizer__add_mapping); the
 * `symbolize` subcommand (views/symbolize_cmd.c) uses it alone.
 *
 * Time: timestamps are the trace clock (CLOCK_MONOTONIC ns, architecture
 * decision 5).  SYM_TS_NONE asks for "the newest entry", the perf rule.
 *
 * The sources underneath have their own headers (range_table.h, perf_map.h,
 * proc_maps.h, elf_syms.h, kallsyms.h).
 *
 * Errors: 0 or -errno; constructors return NULL and set errno; every
 * destructor accepts NULL.  Not thread-safe: one symbolizer per thread.
 *
 * Recipe (architecture decision 8, as symbolize.c follows it):
 * symbolizer__add_pid at attach; symbolizer__refresh(pid, now) while the
 * process lives; symbolizer__set_horizon(watermark) as events leave the
 * reorder buffer in time order; symbolizer__method_load/unload for the
 * runtime's method events; for every frame symbolizer__resolve(pid,
 * sym_frame_address(stack, i), event time).
 */
#ifndef EBPF_COLLECT_SYMBOLIZER_H
#define EBPF_COLLECT_SYMBOLIZER_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "perf_map.h"
#include "proc_maps.h"

/* --------------------------------------------------------- symbolizer */

/*
 * The address that names frame i of a stack (leaf first, kernel frames
 * >= SYM_KERNEL_START before user frames).  Frame 0 and the first user frame
 * under kernel frames are where the thread was stopped or entered the kernel
 * (a fault's own instruction, the one after a syscall): exact.  Every other
 * frame is a return address and names the call before it (ip - 1).  Every
 * reader and writer of stacks names frames by this one rule, so a range the
 * trace's writer made for a frame is the one a view finds again.
 */
static inline uint64_t sym_frame_address(const uint64_t *stack, uint32_t i)
{
	if (!i || (stack[i - 1] >= SYM_KERNEL_START && stack[i] < SYM_KERNEL_START))
		return stack[i];
	return stack[i] - 1;
}

enum sym_kind {
	SYM_KIND_UNKNOWN = 0,
	SYM_KIND_JIT,		/* anonymous exec mapping: perf map / method events */
	SYM_KIND_NATIVE,	/* ELF file */
	SYM_KIND_KERNEL,
};

struct sym_info {
	enum sym_kind kind;
	const char *name;	/* NULL: unresolved */
	const char *module;	/* DSO path, perf-map path, "[kernel.kallsyms]", or NULL */
	uint64_t start;		/* symbol start (runtime address) when name != NULL */
	uint64_t size;
	uint64_t module_id;	/* runtime ModuleID for JIT code named by method events */
	uint32_t flags;		/* runtime MethodFlags for JIT code, else 0 */
};

struct symbolizer_opts {
	int no_perf_map;	/* ignore perf maps (method events only) */
	int no_kernel;		/* never load kallsyms */
	const char *kallsyms_path;	/* tests; NULL = /proc/kallsyms */
};

struct symbolizer_stats {
	uint64_t unreadable_maps;	/* perf maps refused (safety) or unreadable */
	uint64_t perf_map_entries;
	uint64_t method_events;
	uint64_t lookups;
	uint64_t unresolved;
	uint64_t snapshots;
	uint64_t perf_map_searches;	/* looks for a process's perf map */
};

struct symbolizer;
struct symbolizer *symbolizer__new(const struct symbolizer_opts *opts);
void symbolizer__free(struct symbolizer *s);

/* Start tracking a process while it lives: snapshot its mappings, open its
 * ELF files and find its perf map (and perfinfo).  Idempotent.  -ESRCH if
 * the process does not exist. */
int symbolizer__add_pid(struct symbolizer *s, pid_t pid);
/* Forget the n processes (gone, and past any time a lookup may ask for):
 * their mappings, perf maps and methods.  Sorts pids. */
void symbolizer__forget_pids(struct symbolizer *s, pid_t *pids, size_t n);
/* Re-snapshot mappings and read perf-map growth (call periodically and
 * when the process exits).  now as for perf_map__refresh. */
int symbolizer__refresh(struct symbolizer *s, pid_t pid, uint64_t now);
/* pid exec'd: symbolizer__refresh, and its perf map is looked for at once
 * and then as often as for a process just added (a process that has none
 * is looked at less and less often: 0.1 s, 0.2 s, ... 3.2 s). */
int symbolizer__exec(struct symbolizer *s, pid_t pid);
/* child was forked by parent (a process, not a thread): until it execs it
 * runs parent's image, so when child is not known yet and parent is, child
 * starts with parent's mappings and uids as known now, without reading
 * /proc (a child that exits before its first record would otherwise be
 * named from nothing).  1 when child got parent's mappings, 0 when not
 * (child known already, parent not known), -ENOMEM. */
int symbolizer__fork(struct symbolizer *s, pid_t parent, pid_t child);
/* Read perf-map growth only, for a process whose new mappings arrive by
 * symbolizer__add_mapping as the kernel makes them: a /proc/PID/maps
 * snapshot of a .NET process costs the collector 0.2-2 ms, and at ten a
 * second it was most of what the collector spent while sampling. */
int symbolizer__refresh_perf_map(struct symbolizer *s, pid_t pid, uint64_t now);
/* A mapping the kernel reported as it was made (perf MMAP2 records): merged
 * like a snapshot line, its file opened now -- through the process while it
 * lives, else by path when that file still has the same inode.  Starts
 * tracking pid as symbolizer__add_pid does.  Non-exec mappings are ignored.
 * 0, -ENOMEM. */
int symbolizer__add_mapping(struct symbolizer *s, pid_t pid, const struct proc_map *m);

/* Runtime method events (MethodLoadVerbose, MethodDCStartVerbose: load;
 * MethodUnloadVerbose, MethodDCEndVerbose: unload / end).  name is the
 * display name (see sym_method_display_name).  ts = event time. */
int symbolizer__method_load(struct symbolizer *s, pid_t pid, uint64_t start, uint64_t size,
			    const char *name, uint64_t module_id, uint32_t flags, uint64_t ts);
int symbolizer__method_unload(struct symbolizer *s, pid_t pid, uint64_t start,
			      uint64_t size, const char *name, uint64_t module_id,
			      uint32_t flags, uint64_t ts);

/* No lookup will ask for a time before ts (the collector's reorder-buffer
 * watermark): see range_table__set_horizon. */
void symbolizer__set_horizon(struct symbolizer *s, uint64_t ts);

/* Name addr in process pid at time ts.  Always fills *si (kind and module
 * as far as known); returns 0 when named, -ENOENT when not. */
int symbolizer__resolve(struct symbolizer *s, pid_t pid, uint64_t addr, uint64_t ts,
			struct sym_info *si);

/* The file mapping of process pid that holds addr, as the trace's
 * ProcessMapping and ProcessMappingMetadata events describe it. */
struct sym_mapping {
	uint64_t start, end, offset;
	const char *path;	/* the file's path in the process */
	const char *build_id;	/* hex, "" unknown (or not ELF) */
	const char *debug_link;	/* .gnu_debuglink name, or NULL */
	uint64_t p_vaddr, p_offset;	/* the PT_LOAD header mapped there */
	bool elf;
};

/* 0 and *out (valid while the process's mappings are not re-read), or
 * -ENOENT when addr is in no file mapping of pid. */
int symbolizer__mapping(struct symbolizer *s, pid_t pid, uint64_t addr, struct sym_mapping *out);

/* Ask the symbol stores' network sources (symbol_store.h) for the debug
 * files of the stripped files whose symbols were loaded, until deadline_ms
 * (a mono_ms() time); what they give names later lookups.  Returns how many
 * files got symbols.  Never call it while records flow: a server may take
 * SYMBOL_STORE_SERVER_MS. */
int symbolizer__fetch_symbols(struct symbolizer *s, uint64_t deadline_ms);

/* Whether addr can be code of process pid at time ts: inside one of its
 * executable mappings or a runtime method's range.  A frame-pointer walk
 * through a function without a frame pointer yields "return addresses"
 * that fail this (data, relocations); callers cut the stack there. */
bool symbolizer__is_code(struct symbolizer *s, pid_t pid, uint64_t addr, uint64_t ts);

/* Use this perf-map file for pid instead of looking for one (offline
 * analysis, tests: the file is trusted, no ownership check).  0 or -errno. */
int symbolizer__set_perf_map(struct symbolizer *s, pid_t pid, const char *path);

/* The executable mappings known of pid (NULL: not tracked), as lookups
 * left them: what the offline unwinder (unwind.h) takes for its modules. */
const struct proc_maps *symbolizer__maps(struct symbolizer *s, pid_t pid);

/* A number that changes whenever the code of pid at some address may have
 * changed in what the symbolizer was told: a method loaded or unloaded (a
 * collectible assembly's code freed, its memory handed to new methods), new
 * perf-map lines read, a mapping the kernel reported.  What is cached of
 * the process's code bytes (the unwinder's) holds while it stays the same;
 * mappings that the snapshots change are the cache's own check (unwind.c).
 * 0 for an untracked pid. */
uint64_t symbolizer__code_gen(struct symbolizer *s, pid_t pid);

/* The perf map in use for pid (NULL if none) and its path. */
struct perf_map *symbolizer__perf_map(struct symbolizer *s, pid_t pid);
void symbolizer__stats(const struct symbolizer *s, struct symbolizer_stats *st);

/* "libc.so.6!qsort", "[kernel.kallsyms]!schedule", "name" for JIT code
 * (perf-map names carry their own module), "libc.so.6![unknown]",
 * "[unknown]".  Returns the length (snprintf-style). */
int sym_info__format(const struct sym_info *si, char *buf, size_t len);
const char *sym_basename(const char *path);
/* A module's name in flame graphs and the fleet's stacks: its basename
 * without ".dll"/".exe", into buf; returns buf. */
const char *sym_module_display(const char *path, char *buf, size_t len);

#endif /* EBPF_COLLECT_SYMBOLIZER_H */
