/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * symbolizer.h - names for code addresses: perf maps, runtime method
 * events, ELF symbols, kallsyms; and the trace views (report, convert).
 *
 * The top-level object is `struct symbolizer`.  A collector registers each
 * target process while it lives (symbolizer__add_pid snapshots its mappings,
 * opens its ELF files through /proc/PID/map_files or /proc/PID/root, and
 * finds its perf map through /proc/PID/root with the namespaced pid), feeds
 * it the runtime's method load/unload events as they arrive, and asks
 * symbolizer__resolve(pid, addr, ts) for every stack frame.  Everything a
 * process needs stays open after it exits, so late lookups still work.
 *
 * Time: timestamps are the trace clock (CLOCK_MONOTONIC ns, architecture
 * decision 5).  SYM_TS_NONE asks for "the newest entry", the perf rule.
 *
 * Lower-level sources (perf_map, range_table, elf_syms, ksyms, proc_maps)
 * are exported too: tests and the bench use them directly.
 *
 * Errors: 0 or -errno; constructors return NULL and set errno; every
 * destructor accepts NULL.  Not thread-safe: one symbolizer per thread (the
 * collector resolves on its consumer thread).
 *
 * Collector recipe (architecture decision 8): symbolizer__add_pid at
 * attach; symbolizer__refresh(pid, now) every poll period and when a process
 * exits; symbolizer__set_horizon(watermark) as events leave the reorder
 * buffer in time order; symbolizer__method_load/unload for MethodLoadVerbose/
 * MethodUnloadVerbose events; for every frame symbolizer__resolve(pid,
 * ip (callers: ip - 1, the call), event time) then sym_rundown__add; at the
 * end sym_rundown__emit → Rundown MethodDCEndVerbose (144 v1) and
 * ModuleDCEnd (154 v2) events, after all samples.
 */
#ifndef EBPF_COLLECT_SYMBOLIZER_H
#define EBPF_COLLECT_SYMBOLIZER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define SYM_TS_NONE		0ULL
#define SYM_KERNEL_START	0xffff800000000000ULL

/* ------------------------------------------------- string pool (names) */

/* Chunked arena: strings never move, so pointers into it stay valid until
 * the pool is freed.  No per-name malloc. */
struct strpool;
struct strpool *strpool__new(void);
const char *strpool__add(struct strpool *p, const char *s, size_t len);
size_t strpool__bytes(const struct strpool *p);
void strpool__free(struct strpool *p);

/* --------------------------------------- time-aware address range table */

/*
 * A set of named code ranges that may overlap in address (re-JIT, unload
 * then reuse).  Each entry has the time it was loaded (or first seen; 0 =
 * unknown), an optional unload time, and an insertion sequence number.
 * Lookup at time t: among the entries containing addr and not unloaded at
 * or before t, the one with the newest load time <= t (equal load times:
 * the one unloaded first, then the later-added); when all of them were
 * loaded after t (a perf-map line first seen after the sample), the
 * earliest-added; failing that the newest entry that ever covered addr.
 * With SYM_TS_NONE the newest-added entry wins, perf's rule.
 * Cost: O(log n + k) for the k entries covering addr (see perf_map.c).
 */
struct range_entry {
	uint64_t start;
	uint64_t end;		/* exclusive */
	uint64_t load_ts;
	uint64_t unload_ts;	/* 0: not unloaded */
	uint64_t module_id;	/* runtime ModuleID when known, else 0 */
	const char *name;
	uint32_t seq;
	uint32_t flags;		/* runtime MethodFlags, or RANGE_F_* */
};

#define RANGE_F_JITTED	0x8	/* same bit as MethodFlags.Jitted */

struct range_table;
struct range_table *range_table__new(void);
void range_table__free(struct range_table *rt);
/* Copies name.  Returns the entry index or -errno. */
long range_table__add(struct range_table *rt, uint64_t start, uint64_t size,
		      const char *name, size_t name_len, uint64_t load_ts);
struct range_entry *range_table__entry(struct range_table *rt, size_t idx);
size_t range_table__count(const struct range_table *rt);
/* Mark the entry starting at `start` that is live at ts as unloaded at ts.
 * Returns the index marked, or -ENOENT. */
long range_table__unload(struct range_table *rt, uint64_t start, uint64_t ts);
const struct range_entry *range_table__find(struct range_table *rt, uint64_t addr,
					    uint64_t ts);
/* Promise that no lookup will ask for a time before ts: entries unloaded by
 * then leave the index at its next rebuild, so heavy reuse of one address
 * range (unload, reuse, unload ...) costs only the versions still alive. */
void range_table__set_horizon(struct range_table *rt, uint64_t ts);
/* live_only: only an entry live at ts (no "earliest" / "newest ever"
 * fallbacks), so another source can be asked first. */
const struct range_entry *range_table__find_mode(struct range_table *rt, uint64_t addr,
						 uint64_t ts, int live_only);

/* ----------------------------------------------------------- perf maps */

/*
 * /tmp/perf-PID.map to perf's contract: "START SIZE NAME\n", hex with an
 * optional 0x and any case, the name is the rest of the line.  The file is
 * an append-only log: perf_map__refresh reads what was appended since the
 * last call (a partial last line stays for later).  Entries first seen by a
 * refresh get `now` as their load time (0 = CLOCK_MONOTONIC now).
 */
struct perf_map;

/*
 * Open with O_NOFOLLOW|O_NONBLOCK (relative to root_fd with RESOLVE_IN_ROOT
 * when root_fd >= 0) and use the file only when it is a regular file owned
 * by one of uids[0..n_uids) or root.  On refusal returns NULL with errno
 * (ELOOP symlink, EPERM wrong owner, EINVAL not a regular file) and, when
 * why != NULL, a one-line reason.
 */
struct perf_map *perf_map__open(int root_fd, const char *path, const uid_t *uids,
				int n_uids, char *why, size_t why_len);
/* Unchecked open of a file we created ourselves (tests, bench). */
struct perf_map *perf_map__open_trusted(const char *path);
void perf_map__free(struct perf_map *pm);
/* Read appended lines.  Returns the number of new entries or -errno. */
long perf_map__refresh(struct perf_map *pm, uint64_t now);
/* Lookup; on a miss reads what was appended and tries again. */
const struct range_entry *perf_map__find(struct perf_map *pm, uint64_t addr, uint64_t ts);
struct range_table *perf_map__table(struct perf_map *pm);
const char *perf_map__path(const struct perf_map *pm);
int perf_map__fd(const struct perf_map *pm);
/* The path shown in messages and as the module of its entries. */
int perf_map__set_path(struct perf_map *pm, const char *path);
uint64_t perf_map__bad_lines(const struct perf_map *pm);

/* Parse one line without its '\n'.  Returns 0 or -EINVAL. */
int perf_map__parse_line(const char *line, size_t len, uint64_t *start, uint64_t *size,
			 const char **name, size_t *name_len);

/* perfinfo-PID.map: "ImageLoad;PATH;GUID;BASE;" lines (managed images). */
struct perfinfo_image {
	char *path;
	char guid[40];
	uint64_t base;
};
/* Parses fd's content (from offset 0); returns the count or -errno. */
int perfinfo__parse(int fd, struct perfinfo_image **images);
void perfinfo__free(struct perfinfo_image *images, int n);

/* ----------------------------------------------------- process mappings */

struct proc_map {
	uint64_t start, end, offset;
	uint64_t ino;
	uint32_t dev_major, dev_minor;
	uint32_t prot;		/* PROT_READ|PROT_WRITE|PROT_EXEC */
	char *path;		/* "" for anonymous */
	int dso;		/* index into the symbolizer's DSO cache, -1 none */
};

struct proc_maps {
	struct proc_map *maps;	/* sorted by start, non-overlapping */
	size_t n, cap;
};

/* Read /proc/PID/maps (exec mappings only when exec_only) and merge into pm:
 * new mappings replace overlapping old ones; old ones that vanished stay
 * (a library dlclose'd or a process gone is still symbolized).
 * Returns the number of mappings read or -errno. */
int proc_maps__snapshot(struct proc_maps *pm, pid_t pid, int exec_only);
/* Merge one mapping (copied, path included) the same way: it replaces the
 * old mappings it overlaps.  0 or -ENOMEM. */
int proc_maps__add(struct proc_maps *pm, const struct proc_map *m);
const struct proc_map *proc_maps__find(const struct proc_maps *pm, uint64_t addr);
void proc_maps__clear(struct proc_maps *pm);
/* "", "//anon", "[anon:...]", "/memfd:..." and "[heap]"-style names have no
 * ELF file behind them. */
int proc_map__is_anon(const struct proc_map *m);

/* ---------------------------------------------------------- ELF symbols */

struct elf_sym {
	uint64_t start;		/* ELF virtual address */
	uint64_t size;		/* 0: extends to the next symbol */
	const char *name;
};

struct elf_syms;

/* Load PT_LOAD headers and .symtab (else .dynsym) from fd (not closed).
 * When the file has no .symtab, a separate debug file is looked for by
 * build-id (<root>/usr/lib/debug/.build-id/xx/yyyy.debug) and by
 * .gnu_debuglink (<root>/usr/lib/debug/<dir>/<f>, <dir>/.debug/<f>,
 * <dir>/<f>), first under debug_root (may be NULL) then in our own root.
 * path is the file's path in its process (for the debuglink dirs). */
struct elf_syms *elf_syms__load(int fd, const char *path, const char *debug_root);
void elf_syms__free(struct elf_syms *es);
/* Runtime address in a mapping (start, file offset) → ELF vaddr.  -ENOENT
 * when no PT_LOAD covers the file offset. */
int elf_syms__addr_to_vaddr(const struct elf_syms *es, uint64_t addr, uint64_t map_start,
			    uint64_t map_offset, uint64_t *vaddr);
/* Largest start <= vaddr < start + size (size 0: until the next symbol). */
const struct elf_sym *elf_syms__find(const struct elf_syms *es, uint64_t vaddr);
size_t elf_syms__count(const struct elf_syms *es);
const char *elf_syms__debug_file(const struct elf_syms *es);	/* or NULL */
const char *elf_syms__build_id(const struct elf_syms *es);	/* hex or "" */

/* ------------------------------------------------------------ kallsyms */

struct ksyms;
/* path NULL = /proc/kallsyms.  Text symbols only.  If every address reads
 * as zero (kptr_restrict, not root) returns NULL with errno EPERM and warns. */
struct ksyms *ksyms__load(const char *path);
void ksyms__free(struct ksyms *ks);
/* name, start; *module gets "[kernel.kallsyms]" or "[modname]". */
const struct elf_sym *ksyms__find(const struct ksyms *ks, uint64_t addr, const char **module);
size_t ksyms__count(const struct ksyms *ks);

/* --------------------------------------------------------- symbolizer */

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
};

struct symbolizer;
struct symbolizer *symbolizer__new(const struct symbolizer_opts *opts);
void symbolizer__free(struct symbolizer *s);

/* Start tracking a process while it lives: snapshot its mappings, open its
 * ELF files and find its perf map (and perfinfo).  Idempotent.  -ESRCH if
 * the process does not exist. */
int symbolizer__add_pid(struct symbolizer *s, pid_t pid);
/* Re-snapshot mappings and read perf-map growth (call periodically and
 * when the process exits).  now as for perf_map__refresh. */
int symbolizer__refresh(struct symbolizer *s, pid_t pid, uint64_t now);
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

/* Whether addr can be code of process pid at time ts: inside one of its
 * executable mappings or a runtime method's range.  A frame-pointer walk
 * through a function without a frame pointer yields "return addresses"
 * that fail this (data, relocations); callers cut the stack there. */
bool symbolizer__is_code(struct symbolizer *s, pid_t pid, uint64_t addr, uint64_t ts);

/* Use this perf-map file for pid instead of looking for one (offline
 * analysis, tests: the file is trusted, no ownership check).  0 or -errno. */
int symbolizer__set_perf_map(struct symbolizer *s, pid_t pid, const char *path);

/* The perf map in use for pid (NULL if none) and its path. */
struct perf_map *symbolizer__perf_map(struct symbolizer *s, pid_t pid);
void symbolizer__stats(const struct symbolizer *s, struct symbolizer_stats *st);

/* "libc.so.6!qsort", "[kernel.kallsyms]!schedule", "name" for JIT code
 * (perf-map names carry their own module), "libc.so.6![unknown]",
 * "[unknown]".  Returns the length (snprintf-style). */
int sym_info__format(const struct sym_info *si, char *buf, size_t len);
const char *sym_basename(const char *path);

/* Namespace container helpers (/proc/PID/status). */
int proc__nspid(pid_t pid, pid_t *nspid);
int proc__uids(pid_t pid, uid_t *uids, int max);

/* --------------------------------------------- rundown payloads (docs/nettrace-format.md section 11) */

/* CLR event ids (Microsoft-Windows-DotNETRuntime / ...Rundown) */
#define CLR_PROVIDER		"Microsoft-Windows-DotNETRuntime"
#define CLR_RUNDOWN_PROVIDER	"Microsoft-Windows-DotNETRuntimeRundown"
#define CLR_EV_METHOD_LOAD_VERBOSE	143	/* Rundown: MethodDCStartVerbose */
#define CLR_EV_METHOD_UNLOAD_VERBOSE	144	/* Rundown: MethodDCEndVerbose */
#define CLR_EV_MODULE_LOAD		152	/* Rundown: DomainModuleDCEnd */
#define CLR_EV_MODULE_DCSTART		153
#define CLR_EV_MODULE_DCEND		154

struct sym_method_rec {
	uint64_t method_id, module_id, start;
	uint32_t size, token, flags;
	const char *ns, *name, *sig;	/* UTF-8 */
	uint16_t clr_instance;
	int has_rejit;			/* v2 */
	uint64_t rejit_id;
};

struct sym_module_rec {
	uint64_t module_id, assembly_id;
	uint32_t flags;
	const char *il_path, *native_path;	/* UTF-8 */
	uint16_t clr_instance;
};

/* Encode as MethodLoadVerbose/MethodDCEndVerbose (v1; v2 when has_rejit) or
 * ModuleDCEnd v2 (PDB fields zero/empty).  Returns the byte size (which
 * may exceed cap: then nothing useful was written) or -EINVAL. */
long sym_encode_method(void *buf, size_t cap, const struct sym_method_rec *m);
long sym_encode_module(void *buf, size_t cap, const struct sym_module_rec *m);
/* Decode; strings are converted into strbuf (UTF-8).  0 or -EINVAL. */
int sym_decode_method(const void *p, size_t len, struct sym_method_rec *m,
		      char *strbuf, size_t strcap);
/* ModuleLoad/ModuleDCEnd (any version) and DomainModuleDCEnd (domain=1). */
int sym_decode_module(const void *p, size_t len, int domain, struct sym_module_rec *m,
		      char *strbuf, size_t strcap);
/* PerfView's display: "ns.name(args)" (args from the signature's first
 * '('); ns may be empty.  Returns the length. */
int sym_method_display_name(const char *ns, const char *name, const char *sig,
			    char *buf, size_t len);
/* UTF-16LE NUL-terminated string at p (at most len bytes) to UTF-8.
 * Returns bytes consumed (incl. NUL) or -EINVAL when unterminated. */
long sym_utf16_to_utf8(const void *p, size_t len, char *out, size_t outcap);

/*
 * Rundown collector for the trace (architecture decision 8): record every
 * range a stack touched (sym_rundown__add after each resolve), then emit
 * one MethodDCEndVerbose (Rundown 144 v1) payload per distinct range and
 * one ModuleDCEnd (Rundown 154 v2) payload per module: JIT ranges keep
 * their runtime ModuleID when known, else they belong to a pseudo-module
 * named after the perf map; native code gets one module per shared object;
 * kernel code one "[kernel.kallsyms]" module.
 */
struct sym_rundown;
struct sym_rundown *sym_rundown__new(void);
void sym_rundown__free(struct sym_rundown *r);
int sym_rundown__add(struct sym_rundown *r, uint32_t pid, const struct sym_info *si);
size_t sym_rundown__count(const struct sym_rundown *r);
/* cb(ctx, pid, event_id (144 or 154), payload, size) for every method,
 * then every module; stops at a negative return. */
typedef int (*sym_rundown_cb)(void *ctx, uint32_t pid, int event_id, const void *payload,
			      size_t size);
int sym_rundown__emit(struct sym_rundown *r, sym_rundown_cb cb, void *ctx);
/* Convenience for the collector: define MethodDCEndVerbose (Rundown 144 v1,
 * keywords 0x30) and ModuleDCEnd (Rundown 154 v2, keywords 0x20000008) the
 * way the runtime does (manifest events: empty name, no fields) and write
 * every payload as an event of thread_id at ts (after the last sample).
 * In rundown_write.c.  0 or -errno. */
struct nt_writer;
int sym_rundown__write(struct sym_rundown *r, struct nt_writer *w, uint64_t thread_id,
		       uint64_t ts);

#endif /* EBPF_COLLECT_SYMBOLIZER_H */
