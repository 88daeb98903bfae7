// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * symbolize.c - every frame of the trace named inside the trace (architecture
 * decisions 8 and 10): the glue between the collector and the symbolizer
 * library.
 *
 * Sources.  The symbolizer library names an address of a process at a time:
 * the runtime's method events (fed here from the trace's own
 * MethodLoadVerbose, MethodUnloadVerbose, MethodDCStart/EndVerbose), perf
 * maps, ELF symbols of the mapped files, kallsyms.  Targets are snapshotted
 * at attach and on every poll while they live, and the library keeps their
 * files open, so a process that exits before the trace ends is still named.
 *
 * What TraceEvent does with method events (TraceLog, for a trace file; see
 * docs/nettrace-format.md section 11):
 *   - every distinct stack address of a process becomes one code-address
 *     entry, unresolved, the first time an event referencing it is read;
 *   - MethodUnloadVerbose and rundown MethodDCEndVerbose resolve every
 *     *unresolved* entry inside [start, start + size) to that method and
 *     drop those addresses from the process's address table, so the same
 *     address seen again later becomes a new, unresolved entry;
 *   - MethodLoadVerbose / MethodDCStartVerbose (Jitted) are only remembered
 *     and applied the same way after the last event of the file (their
 *     address table is for real-time sessions only), in load order: the
 *     first load covering a still-unresolved address names it.
 * So load events written before the frames cannot name a range that is
 * reused over time (every incarnation's addresses would go to the first
 * load), while a DCEnd written after the last reference to one incarnation
 * and before the first reference to the next names each incarnation's
 * addresses and only those.  This module therefore writes only rundown
 * MethodDCEndVerbose (144 v1) events, one per code range a stack touched,
 * and one ModuleDCEnd (154 v2) per module at the end:
 *
 *   - Each range (incarnation: start, size, name) that a frame
 *     resolves to is "pending" until written.  Pending ranges never overlap:
 *     when a frame resolves to a range that overlaps pending ranges of other
 *     incarnations (the code was unloaded and its addresses reused, a
 *     re-JIT'd version at overlapping addresses, a return address at the
 *     very end of a function), those are written first, just before the
 *     event that references the new range, on that event's capture thread
 *     (same queue, so TraceEvent reads them first) and at its timestamp.
 *     A frame without a name writes the pending range covering it, so no
 *     later DCEnd can claim it.
 *   - A written range's extent is [start, max(start + size, highest raw
 *     address seen + 1)): TraceEvent matches the raw return addresses while
 *     we name the call (ip - 1); ELF symbols of size 0 and kallsyms (no
 *     sizes) grow to what was seen.
 *   - At the end every pending range is written at ts (after all events),
 *     then the modules: JIT code named by runtime events keeps its runtime
 *     MethodID/ModuleID/token/flags (and its module path, when a module
 *     event told it); perf-map code gets a pseudo-module per assembly named
 *     in the perf-map line; native code one pseudo-module per shared object
 *     (functions as methods, namespace empty); kernel code "[kernel.kallsyms]"
 *     (or "[module]").
 * A V5 trace has one address space for TraceEvent, whatever the pid: a range
 * is identified by (kind, start, size, name) without the pid (the kernel's
 * functions, or a library at the same address in a forked child, are one
 * range), pseudo-modules by their path, and the pending set is global.
 *
 * Consequences.  A frame the symbolizer cannot name yet (code that existed
 * before the collector attached, named by the start rundown only later) is
 * still named in TraceEvent by the later DCEnd of the range that covers it,
 * as long as the range is not reused in between.  The runtime's own
 * MethodUnloadVerbose events in the trace resolve the same addresses to the
 * same names, so they neither help nor hurt.  Without the runtime's method
 * events (Jit keyword not selected) JIT code is named from perf maps, which
 * have no unload records: a reused range's lines only carry the time the
 * collector first read them (every poll, 100 ms), so an event in that gap
 * gets the previous incarnation's name; symbolize__print_summary warns.
 *
 * The symbol events carry thread id SYMBOLIZE_TID; the end-of-trace ones
 * also its capture thread.  Costs (measured, refrt jit-churn): ~250 ns per
 * frame (the symbolizer's lookup, one hash lookup, a binary search in the
 * pending set), ~20% more bytes in the file.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clock.h"
#include "nettrace.h"
#include "rundown.h"
#include "method_name.h"
#include "strpool.h"
#include "symbolize.h"
#include "grow.h"
#include "hash.h"
#include "symbolizer.h"
#include "symbol_store.h"
#include "u64_map.h"

#define PSEUDO_MODULE_ID	0xebc0000000000000ULL	/* views/view.c: native/kernel */
#define PSEUDO_METHOD_ID	0xebc1000000000000ULL
#define REFRESH_NS		100000000ULL	/* target snapshots: 100 ms */
#define ENC_CAP			16384
#define SZ_MAX_FRAMES		256	/* per record (BPF: 127 user + 127 kernel) */

struct sz_range {
	uint64_t hash;
	uint32_t pid;			/* the first process it was seen in */
	uint32_t flags;			/* MethodFlags written */
	uint64_t start, size;		/* identity (size as the source gave it) */
	uint64_t end;			/* extent written (exclusive) */
	uint64_t method_id, module_id;
	uint32_t token;
	enum sym_kind kind;
	uint64_t unload_ts;		/* its code's, from a method event; 0: live */
	const char *key;		/* identity name */
	const char *ns, *name, *sig;	/* what is written */
	bool pending;
	bool in_event;			/* referenced by the record being handled */
};

/* a method the runtime described (its exact namespace/name/signature) */
struct sz_method {
	uint64_t hash;
	uint32_t pid, token, flags;
	uint64_t start, size, method_id, module_id;
	uint64_t unload_ts;		/* 0: not unloaded */
	const char *disp;		/* display name given to the symbolizer; the
					 * one allocation that holds the four */
	const char *ns, *name, *sig;
};

/* Frames the symbolizer left without a name, at one address of one
 * process: the runtime's own method events in the trace may name them for
 * TraceLog (its rundown at stop, MethodLoadVerbose), so the count of
 * frames the trace leaves unnamed is only known at the end. */
struct sz_unnamed {
	uint32_t pid;
	uint64_t addr;		/* raw, as the stack has it */
	uint64_t n;
	bool named;		/* a method event covered it (one since forgotten) */
};

struct sz_module {
	uint32_t pid;
	uint64_t module_id, assembly_id;
	const char *path;		/* NULL: runtime module not described yet */
	uint64_t unload_ts;		/* ModuleUnload's; 0: loaded */
	bool pseudo;
	bool used;			/* a written range belongs to it */
};

struct sz_pid {
	pid_t pid;
	uint64_t gone_ts;		/* CLOCK_MONOTONIC when it was found gone */
	bool added;			/* known to the symbolizer */
	bool gone;
	bool target;			/* symbolize__add_pid (else: seen in a record) */
	bool reported;			/* the kernel reports its new mappings */
	bool synced;			/* snapshotted since the reports began */
};

#define SZ_HINTS	4096	/* a power of 2 */

struct symbolize {
	struct nt_writer *w;
	struct symbolizer *sym;
	struct strpool *pool;
	struct sz_range *r;
	size_t n_r, cap_r;
	uint64_t n_ranges_made;		/* ever: pseudo method ids */
	uint32_t *r_slots;		/* open addressing, index + 1 */
	size_t n_r_slots;
	uint32_t *pend;			/* pending ranges, sorted by start */
	size_t n_pend, cap_pend;
	uint32_t defer[2 * SZ_MAX_FRAMES];	/* to write after the last record */
	size_t n_defer;
	struct sz_method *m;
	size_t n_m, cap_m;
	uint32_t *m_slots;
	size_t n_m_slots;
	size_t m_adds;			/* since the last sz_methods_sweep */
	struct sz_module *mods;
	size_t n_mods, cap_mods;
	uint64_t n_pseudo;		/* pseudo-modules ever made: their ids */
	uint64_t horizon;		/* symbolize__tick's watermark */
	struct sz_pid *pids;
	size_t n_pids, cap_pids;
	/* pid -> index + 1 in pids: every record looks its pid up, and under
	 * --all a host that starts ten processes a second has seen 36,000 of
	 * them after an hour */
	struct u64_map pid_idx;
	/* hash of (pid, module id) -> index + 1 in mods of the first runtime
	 * module with that hash: every managed frame looks its module up */
	struct u64_map mod_idx;
	/* the last range each (pid, symbol) was found to be, by the name's
	 * address: a stack repeats its frames, and hashing a long name costs
	 * more than the lookup that found it; a hit still compares the name */
	struct sz_range_hint {
		const char *name;
		uint64_t start, size;
		uint32_t pid, ri;
		enum sym_kind kind;
	} hint[SZ_HINTS];
	struct sz_unnamed *un;		/* frames without a name, by address */
	size_t n_un, cap_un;
	uint64_t un_named_gone;		/* frames of forgotten processes, named */
	struct u64_map un_idx;		/* hash of (pid, address) -> index + 1 */
	pid_t last_noted;		/* the runtime process of the last event, noted */
	uint32_t meta_method, meta_module;
	uint32_t meta_mapping, meta_mapmeta;	/* Universal.System's, 0 until used */
	struct u64_map maps_seen;	/* hash of (pid, mapping start) -> its id */
	struct u64_map mapmeta_ids;	/* hash of the build id -> metadata id */
	uint64_t n_mappings, n_mapmeta;
	bool per_process;		/* V6: ranges and modules per process */
	uint64_t last_refresh;
	unsigned int ticks;
	bool reports_lost;		/* symbolize__mapping_reports_lost */
	char self_exe[PATH_MAX];
	struct symbolize_stats st;
	uint8_t enc[ENC_CAP];
};

/* ------------------------------------------------------------ helpers */

static uint64_t ident_hash(uint32_t pid, uint64_t start, uint64_t size, const char *name)
{
	return hash_mix(hash_mix(hash_mix(pid, start), size), hash_str(name));
}

static const char *intern(struct symbolize *sz, const char *s)
{
	return strpool__add(sz->pool, s ? s : "", s ? strlen(s) : 0);
}

/* Rebuild an index + 1 slot table for n items whose hashes hash(i) gives. */
static int rehash(uint32_t **slots, size_t *n_slots, size_t n, const void *arr, size_t elem)
{
	size_t ns = *n_slots ? *n_slots * 2 : 1024, i, k;
	uint32_t *s;

	while (n * 2 >= ns)
		ns *= 2;
	s = calloc(ns, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		/* every item struct starts with its uint64_t hash */
		uint64_t h = *(const uint64_t *)((const char *)arr + i * elem);

		for (k = h & (ns - 1); s[k]; k = (k + 1) & (ns - 1))
			;
		s[k] = (uint32_t)i + 1;
	}
	free(*slots);
	*slots = s;
	*n_slots = ns;
	return 0;
}

/* ----------------------------------------------------------- lifecycle */

struct symbolize *symbolize__new(struct nt_writer *w, const struct symbolize_opts *opts)
{
	struct symbolizer_opts so = {
		.no_perf_map = opts ? opts->no_perf_map : 0,
		.no_kernel = opts ? opts->no_kernel : 0,
		.kallsyms_path = opts ? opts->kallsyms_path : NULL,
	};
	struct symbolize *sz = calloc(1, sizeof(*sz));
	ssize_t n;

	if (!sz)
		return NULL;
	sz->w = w;
	sz->per_process = opts && opts->per_process;
	sz->sym = symbolizer__new(&so);
	sz->pool = strpool__new();
	if (!sz->sym || !sz->pool) {
		symbolize__free(sz);
		errno = ENOMEM;
		return NULL;
	}
	n = readlink("/proc/self/exe", sz->self_exe, sizeof(sz->self_exe) - 1);
	sz->self_exe[n > 0 ? n : 0] = '\0';
	return sz;
}

void symbolize__free(struct symbolize *sz)
{
	if (!sz)
		return;
	symbolizer__free(sz->sym);
	strpool__free(sz->pool);
	free(sz->r);
	free(sz->r_slots);
	free(sz->pend);
	for (size_t i = 0; i < sz->n_m; i++)
		free((char *)sz->m[i].disp);
	free(sz->m);
	free(sz->un);
	u64_map__free(&sz->un_idx);
	u64_map__free(&sz->maps_seen);
	u64_map__free(&sz->mapmeta_ids);
	free(sz->m_slots);
	free(sz->mods);
	free(sz->pids);
	u64_map__free(&sz->pid_idx);
	u64_map__free(&sz->mod_idx);
	free(sz);
}

struct symbolizer *symbolize__symbolizer(struct symbolize *sz)
{
	return sz->sym;
}

void symbolize__stats(const struct symbolize *sz, struct symbolize_stats *st)
{
	*st = sz->st;
	st->ranges_held = sz->n_r;
	st->modules_held = sz->n_mods;
	st->methods_held = sz->n_m;
	st->processes_held = sz->n_pids;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Start addresses that several lines of pid's perf map share. */
static size_t perf_map_reused(struct symbolizer *sym, pid_t pid)
{
	struct perf_map *pm = symbolizer__perf_map(sym, pid);
	struct range_table *rt = pm ? perf_map__table(pm) : NULL;
	size_t ext = rt ? range_table__extent(rt) : 0, n = 0, i, dup = 0;
	uint64_t *starts = ext ? calloc(ext, sizeof(*starts)) : NULL;
	const struct range_entry *e;

	if (!starts)
		return 0;
	for (i = 0; i < ext; i++)
		if ((e = range_table__entry(rt, i)) != NULL)
			starts[n++] = e->start;
	qsort(starts, n, sizeof(*starts), cmp_u64);
	for (i = 1; i < n; i++)
		dup += starts[i] == starts[i - 1] && (i < 2 || starts[i - 1] != starts[i - 2]);
	free(starts);
	return dup;
}

static int cmp_method(const void *a, const void *b)
{
	const struct sz_method *x = *(const struct sz_method *const *)a;
	const struct sz_method *y = *(const struct sz_method *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Whether one of the n methods in by (sorted by cmp_method) covers u's raw
 * stack address, as TraceLog names a frame: any method event of the
 * process whose code covers it (a return address just past a method's
 * end, after a call that does not return, is not named). */
static bool sz_covered(const struct sz_method **by, size_t n, const struct sz_unnamed *u)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {	/* the first method starting above u->addr */
		size_t mid = (lo + hi) / 2;

		if (by[mid]->pid < u->pid || (by[mid]->pid == u->pid && by[mid]->start <= u->addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the methods below it (ranges may nest: re-JIT'd code) */
	for (; lo > 0 && by[lo - 1]->pid == u->pid; lo--)
		if (u->addr < by[lo - 1]->start + by[lo - 1]->size)
			return true;
	return false;
}

/* Mark the frames left unnamed that one of the n methods in by names,
 * before those methods are forgotten.  Sorts by. */
static void sz_mark_named(struct symbolize *sz, const struct sz_method **by, size_t n)
{
	qsort(by, n, sizeof(*by), cmp_method);
	for (size_t i = 0; i < sz->n_un; i++)
		if (!sz->un[i].named && sz_covered(by, n, &sz->un[i]))
			sz->un[i].named = true;
}

/* Of the frames the symbolizer left unnamed, those the runtime's method
 * events in the trace name, the methods forgotten since included. */
static uint64_t named_by_runtime(const struct symbolize *sz)
{
	const struct sz_method **by = NULL;
	uint64_t named = 0;
	size_t i;

	if (!sz->n_un)
		return 0;
	if (sz->n_m && (by = malloc(sz->n_m * sizeof(*by))) != NULL) {
		for (i = 0; i < sz->n_m; i++)
			by[i] = &sz->m[i];
		qsort(by, sz->n_m, sizeof(*by), cmp_method);
	}
	for (i = 0; i < sz->n_un; i++)
		if (sz->un[i].named || (by && sz_covered(by, sz->n_m, &sz->un[i])))
			named += sz->un[i].n;
	free(by);
	return named + sz->un_named_gone;
}

void symbolize__print_summary(const struct symbolize *sz, FILE *f)
{
	const struct symbolize_stats *st = &sz->st;
	char rt[64] = "";
	uint64_t by_rt;
	size_t i, dup;

	for (i = 0; !st->method_events && i < sz->n_pids; i++) {
		dup = perf_map_reused(sz->sym, sz->pids[i].pid);
		if (dup)
			fprintf(f, "ebpf-collect: symbols: the perf map of pid %d reuses %zu start "
				"addresses and the trace has no runtime method events: JIT frames "
				"in reused ranges are named as of when the perf map was read (select "
				"the Jit keyword 0x10 for exact names)\n", (int)sz->pids[i].pid, dup);
	}

	by_rt = named_by_runtime(sz);
	if (by_rt)	/* TraceLog names them from the runtime's own events */
		snprintf(rt, sizeof(rt), ", %llu named by the runtime's method events",
			 (unsigned long long)by_rt);
	fprintf(f, "ebpf-collect: symbols: %llu frames (%llu JIT, %llu native, %llu kernel%s), "
		"%llu without a name; %llu method events (%llu before a reused range) and "
		"%llu module events written; %llu file mappings (%llu build ids)\n",
		(unsigned long long)st->frames, (unsigned long long)st->frames_jit,
		(unsigned long long)st->frames_native, (unsigned long long)st->frames_kernel, rt,
		(unsigned long long)(st->unresolved - by_rt), (unsigned long long)st->methods_written,
		(unsigned long long)st->early_writes, (unsigned long long)st->modules_written,
		(unsigned long long)st->mappings_written, (unsigned long long)st->mappings_meta_written);
}

/* ------------------------------------------------------------ targets */

static struct sz_pid *sz_pid(struct symbolize *sz, pid_t pid, bool create)
{
	struct u64_map_ent *e = u64_map__find(&sz->pid_idx, (uint64_t)(uint32_t)pid);

	if (e)
		return &sz->pids[e->val - 1];
	if (!create || grow_array((void **)&sz->pids, &sz->cap_pids, sz->n_pids + 1,
				  sizeof(*sz->pids)) ||
	    u64_map__get(&sz->pid_idx, (uint64_t)(uint32_t)pid, &e))
		return NULL;
	e->val = sz->n_pids + 1;
	sz->pids[sz->n_pids] = (struct sz_pid){ .pid = pid };
	return &sz->pids[sz->n_pids++];
}

/* Has pid exec'd (its executable is not ours any more)? */
static bool exec_done(const struct symbolize *sz, pid_t pid)
{
	char fn[64], exe[PATH_MAX];
	ssize_t n;

	snprintf(fn, sizeof(fn), "/proc/%d/exe", (int)pid);
	n = readlink(fn, exe, sizeof(exe) - 1);
	if (n <= 0)
		return true;	/* gone or unreadable: let the symbolizer find out */
	exe[n] = '\0';
	return strcmp(exe, sz->self_exe) != 0;
}

static void sz_pid__gone(struct sz_pid *p)
{
	p->gone = true;
	p->gone_ts = mono_ns();
}

static void sz_pid__update(struct symbolize *sz, struct sz_pid *p, uint64_t now)
{
	if (p->gone)
		return;
	if (!p->added) {
		if (!exec_done(sz, p->pid))
			return;
		p->added = true;
		if (symbolizer__add_pid(sz->sym, p->pid) == -ESRCH)
			sz_pid__gone(p);
		return;
	}
	if (kill(p->pid, 0) && errno == ESRCH) {
		sz_pid__gone(p);
		return;
	}
	if (p->reported && p->synced && !sz->reports_lost) {
		symbolizer__refresh_perf_map(sz->sym, p->pid, now);
		return;
	}
	symbolizer__refresh(sz->sym, p->pid, now);
	p->synced = p->reported;
}

int symbolize__add_pid(struct symbolize *sz, pid_t pid)
{
	struct sz_pid *p = sz_pid(sz, pid, true);

	if (!p)
		return -ENOMEM;
	p->target = true;
	sz_pid__update(sz, p, mono_ns());
	return 0;
}

static void sz_methods_sweep(struct symbolize *sz, uint64_t watermark);

void symbolize__tick(struct symbolize *sz, uint64_t now, uint64_t watermark)
{
	size_t i;

	symbolizer__set_horizon(sz->sym, watermark);
	if (watermark > sz->horizon)
		sz->horizon = watermark;
	sz_methods_sweep(sz, watermark);
	if (now - sz->last_refresh < REFRESH_NS)
		return;
	sz->last_refresh = now;
	/* other processes (children, --all-processes) once a second */
	sz->ticks++;
	for (i = 0; i < sz->n_pids; i++)
		if (sz->pids[i].target || sz->ticks % 10 == 0)
			sz_pid__update(sz, &sz->pids[i], now);
}

void symbolize__mappings_reported(struct symbolize *sz, pid_t pid)
{
	struct sz_pid *p = sz_pid(sz, pid, true);

	if (p)
		p->reported = true;
}

void symbolize__mapping_reports_lost(struct symbolize *sz)
{
	sz->reports_lost = true;
}

/* A record of a process we were not told about (a child the runtime
 * started, say): track it from now on. */
static void sz_note_pid(struct symbolize *sz, pid_t pid)
{
	struct sz_pid *p = sz_pid(sz, pid, false);

	if (!p && (p = sz_pid(sz, pid, true)) != NULL) {
		p->added = true;
		if (symbolizer__add_pid(sz->sym, pid) == -ESRCH)
			sz_pid__gone(p);
	}
}

void symbolize__exec(struct symbolize *sz, pid_t pid)
{
	struct sz_pid *p = sz_pid(sz, pid, false);

	if (!p)
		sz_note_pid(sz, pid);		/* read now, for the first time */
	else if (!p->added)
		sz_pid__update(sz, p, 0);	/* a held child: its own image now */
	else if (!p->gone)
		symbolizer__exec(sz->sym, pid);
}

void symbolize__fork(struct symbolize *sz, pid_t parent, pid_t child)
{
	struct sz_pid *p;

	if (sz_pid(sz, child, false) || !sz_pid(sz, parent, false) ||
	    symbolizer__fork(sz->sym, parent, child) != 1)
		return;
	/* tracked as any process first seen by a record: refreshed while it
	 * lives, forgotten once gone */
	p = sz_pid(sz, child, true);
	if (p)
		p->added = true;
}

int symbolize__resolve(struct symbolize *sz, pid_t pid, uint64_t addr, uint64_t ts,
		       struct sym_info *si)
{
	sz_note_pid(sz, pid);
	return symbolizer__resolve(sz->sym, pid, addr, ts, si);
}

bool symbolize__is_code(struct symbolize *sz, pid_t pid, uint64_t addr, uint64_t ts)
{
	sz_note_pid(sz, pid);
	return symbolizer__is_code(sz->sym, pid, addr, ts);
}

/* ------------------------------------------------------------ modules */

static struct sz_module *sz_module_runtime(struct symbolize *sz, uint32_t pid, uint64_t id,
					   bool create)
{
	uint64_t key = hash_mix(hash64(pid), id);
	struct u64_map_ent *e = u64_map__find(&sz->mod_idx, key);
	size_t i;

	if (e) {
		struct sz_module *m = &sz->mods[e->val - 1];

		if (!m->pseudo && m->pid == pid && m->module_id == id)
			return m;
		/* two (pid, id) of one hash: the first keeps the slot */
		for (i = 0; i < sz->n_mods; i++)
			if (!sz->mods[i].pseudo && sz->mods[i].pid == pid &&
			    sz->mods[i].module_id == id)
				return &sz->mods[i];
	}
	if (!create || grow_array((void **)&sz->mods, &sz->cap_mods, sz->n_mods + 1,
				  sizeof(*sz->mods)))
		return NULL;
	if (!e) {
		if (u64_map__get(&sz->mod_idx, key, &e))
			return NULL;
		e->val = sz->n_mods + 1;
	}
	sz->mods[sz->n_mods] = (struct sz_module){ .pid = pid, .module_id = id };
	return &sz->mods[sz->n_mods++];
}

const char *symbolize__module_path(struct symbolize *sz, uint32_t pid, uint64_t module_id)
{
	const struct sz_module *m = sz_module_runtime(sz, pid, module_id, false);

	return m ? m->path : NULL;
}

static struct sz_module *sz_module_pseudo(struct symbolize *sz, uint32_t pid, const char *path)
{
	size_t i;

	for (i = 0; i < sz->n_mods; i++)
		if (sz->mods[i].pseudo && !strcmp(sz->mods[i].path, path) &&
		    (!sz->per_process || sz->mods[i].pid == pid))
			return &sz->mods[i];
	if (grow_array((void **)&sz->mods, &sz->cap_mods, sz->n_mods + 1, sizeof(*sz->mods)))
		return NULL;
	sz->mods[sz->n_mods] = (struct sz_module){
		.pid = pid, .module_id = PSEUDO_MODULE_ID + ++sz->n_pseudo,
		.path = intern(sz, path), .pseudo = true,
	};
	if (!sz->mods[sz->n_mods].path)
		return NULL;
	return &sz->mods[sz->n_mods++];
}

/* ----------------------------------------------------- runtime methods */

static struct sz_method *sz_method_find(struct symbolize *sz, uint32_t pid, uint64_t start,
					uint64_t size, const char *disp)
{
	uint64_t h = ident_hash(pid, start, size, disp);
	size_t k;

	if (!sz->n_m_slots)
		return NULL;
	for (k = h & (sz->n_m_slots - 1); sz->m_slots[k]; k = (k + 1) & (sz->n_m_slots - 1)) {
		struct sz_method *m = &sz->m[sz->m_slots[k] - 1];

		if (m->hash == h && m->pid == pid && m->start == start && m->size == size &&
		    !strcmp(m->disp, disp))
			return m;
	}
	return NULL;
}

/* Remember a method event's method (once per identity); an unload (ts
 * nonzero) marks it, so it is forgotten once no lookup can reach it, and a
 * later load of the same identity unmarks it. */
static int sz_method_add(struct symbolize *sz, uint32_t pid, const struct sym_method_rec *rec,
			 const char *disp, uint64_t unload_ts)
{
	const char *part[4] = { disp, rec->ns ? rec->ns : "", rec->name ? rec->name : "",
				rec->sig ? rec->sig : "" };
	size_t len[4], total = 0, k;
	struct sz_method *m;
	char *blk;

	m = sz_method_find(sz, pid, rec->start, rec->size, disp);
	if (m) {	/* loaded again (the same code at the same place) is live */
		m->unload_ts = unload_ts;
		return 0;
	}
	if (grow_array((void **)&sz->m, &sz->cap_m, sz->n_m + 1, sizeof(*sz->m)))
		return -ENOMEM;
	if ((sz->n_m + 1) * 2 >= sz->n_m_slots &&
	    rehash(&sz->m_slots, &sz->n_m_slots, sz->n_m, sz->m, sizeof(*sz->m)))
		return -ENOMEM;
	for (k = 0; k < 4; k++)
		total += (len[k] = strlen(part[k])) + 1;
	blk = malloc(total);
	if (!blk)
		return -ENOMEM;
	m = &sz->m[sz->n_m];
	*m = (struct sz_method){
		.hash = ident_hash(pid, rec->start, rec->size, disp), .pid = pid,
		.token = rec->token, .flags = rec->flags, .start = rec->start, .size = rec->size,
		.method_id = rec->method_id, .module_id = rec->module_id, .unload_ts = unload_ts,
	};
	{
		const char **dst[4] = { &m->disp, &m->ns, &m->name, &m->sig };

		for (k = 0, total = 0; k < 4; k++) {
			memcpy(blk + total, part[k], len[k] + 1);
			*dst[k] = blk + total;
			total += len[k] + 1;
		}
	}
	for (k = m->hash & (sz->n_m_slots - 1); sz->m_slots[k]; k = (k + 1) & (sz->n_m_slots - 1))
		;
	sz->m_slots[k] = (uint32_t)sz->n_m + 1;
	sz->n_m++;
	sz->m_adds++;
	return 0;
}

/* The method index anew, in place, after records were dropped (fewer than
 * it was sized for). */
static void sz_methods_reindex(struct symbolize *sz)
{
	size_t i, k;

	if (!sz->n_m_slots)
		return;
	memset(sz->m_slots, 0, sz->n_m_slots * sizeof(*sz->m_slots));
	for (i = 0; i < sz->n_m; i++) {
		for (k = sz->m[i].hash & (sz->n_m_slots - 1); sz->m_slots[k];
		     k = (k + 1) & (sz->n_m_slots - 1))
			;
		sz->m_slots[k] = (uint32_t)i + 1;
	}
}

/* Forget the methods unloaded before watermark (the symbolizer no longer
 * answers with their code, so no range asks for them), once as many were
 * added since the last time as half the table holds: the records of a
 * process that loads and unloads code for days stay those of the window.
 * The frames they named are marked first. */
static void sz_methods_sweep(struct symbolize *sz, uint64_t watermark)
{
	const struct sz_method **by;
	size_t i, k, n_ev = 0;

	if (!watermark || sz->m_adds < 1024 || sz->m_adds * 2 < sz->n_m)
		return;
	sz->m_adds = 0;
	by = malloc(sz->n_m * sizeof(*by));
	if (!by)
		return;
	for (i = 0; i < sz->n_m; i++)
		if (sz->m[i].unload_ts && sz->m[i].unload_ts <= watermark)
			by[n_ev++] = &sz->m[i];
	if (n_ev)
		sz_mark_named(sz, by, n_ev);
	free(by);
	if (!n_ev)
		return;
	for (i = k = 0; i < sz->n_m; i++) {
		if (sz->m[i].unload_ts && sz->m[i].unload_ts <= watermark)
			free((char *)sz->m[i].disp);
		else
			sz->m[k++] = sz->m[i];
	}
	sz->n_m = k;
	sz_methods_reindex(sz);
}

static int streq(const char *a, const char *b)
{
	return a && !strcmp(a, b);
}

/* ------------------------------------------------------------ writing */

static int sz_define(struct symbolize *sz)
{
	/* as the runtime defines them: manifest events, empty name, no fields */
	static const struct nt_event_desc method = {
		CLR_RUNDOWN_PROVIDER, CLR_EV_METHOD_UNLOAD_VERBOSE, "", 0x30, 1, 4, 40, NULL, 0,
	};
	static const struct nt_event_desc module = {
		CLR_RUNDOWN_PROVIDER, CLR_EV_MODULE_DCEND, "", 0x20000008, 2, 4, 36, NULL, 0,
	};
	int err;

	if (sz->meta_method)
		return 0;
	err = nt_writer__define(sz->w, &method, &sz->meta_method);
	if (!err)
		err = nt_writer__define(sz->w, &module, &sz->meta_module);
	if (err)
		sz->meta_method = 0;
	return err;
}

static int sz_write(struct symbolize *sz, uint32_t meta, uint32_t pid, uint64_t ts,
		    uint64_t capture_tid, long len)
{
	struct nt_event ev = {
		.metadata_id = meta, .pid = sz->per_process ? pid : 0,
		.timestamp = ts, .thread_id = SYMBOLIZE_TID,
		.capture_thread_id = capture_tid, .processor = 0xffffffffu,	/* no CPU */
		.payload = sz->enc, .payload_size = (uint32_t)len,
	};

	return nt_writer__write_event(sz->w, &ev);
}

/* Write one range as MethodDCEndVerbose. */
static int sz_range_write_one(struct symbolize *sz, uint32_t ri, uint64_t ts, uint64_t tid)
{
	struct sz_range *r = &sz->r[ri];
	uint64_t ext = r->end - r->start;
	struct sym_method_rec rec = {
		.method_id = r->method_id, .module_id = r->module_id, .start = r->start,
		.size = ext > UINT32_MAX ? UINT32_MAX : (uint32_t)ext, .token = r->token,
		.flags = r->flags, .ns = r->ns, .name = r->name, .sig = r->sig,
	};
	long len;
	int err;

	err = sz_define(sz);
	if (err)
		return err;
	len = sym_encode_method(sz->enc, sizeof(sz->enc), &rec);
	if (len < 0 || len > (long)sizeof(sz->enc))
		return 0;	/* names over 16 KiB: left unnamed */
	err = sz_write(sz, sz->meta_method, r->pid, ts, tid, len);
	if (err)
		return err;
	sz->st.methods_written++;
	return 0;
}

/* Take the range at pending index i out of the pending set. */
static void sz_pend_remove_at(struct symbolize *sz, size_t i)
{
	sz->r[sz->pend[i]].pending = false;
	memmove(&sz->pend[i], &sz->pend[i + 1], (sz->n_pend - i - 1) * sizeof(*sz->pend));
	sz->n_pend--;
}

/* First pending index whose extent ends after addr. */
static size_t sz_pend_lower(const struct symbolize *sz, uint64_t addr)
{
	size_t lo = 0, hi = sz->n_pend;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (sz->r[sz->pend[mid]].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void sz_pend_remove(struct symbolize *sz, uint32_t ri)
{
	size_t i = sz_pend_lower(sz, sz->r[ri].start);

	if (i < sz->n_pend && sz->pend[i] == ri)
		sz_pend_remove_at(sz, i);
}

/* Write every pending range overlapping [start, end), except the current
 * record's own. */
static int sz_flush_overlap(struct symbolize *sz, uint64_t start, uint64_t end, uint64_t ts,
			    uint64_t tid)
{
	size_t i = sz_pend_lower(sz, start);
	uint32_t ri;
	int err;

	while (i < sz->n_pend && sz->r[sz->pend[i]].start < end) {
		ri = sz->pend[i];
		if (sz->r[ri].in_event) {
			i++;
			continue;
		}
		sz_pend_remove_at(sz, i);
		err = sz_range_write_one(sz, ri, ts, tid);
		if (err)
			return err;
		sz->st.early_writes++;
	}
	return 0;
}

static int sz_pend_insert(struct symbolize *sz, size_t ri)
{
	size_t i;

	if (grow_array((void **)&sz->pend, &sz->cap_pend, sz->n_pend + 1, sizeof(*sz->pend)))
		return -ENOMEM;
	i = sz_pend_lower(sz, sz->r[ri].start);
	memmove(&sz->pend[i + 1], &sz->pend[i], (sz->n_pend - i) * sizeof(*sz->pend));
	sz->pend[i] = (uint32_t)ri;
	sz->n_pend++;
	sz->r[ri].pending = true;
	return 0;
}

/* ------------------------------------------- mappings (Universal.System) */

/*
 * TraceEvent 4 reads the Universal.System provider's ProcessMapping (id 3)
 * and ProcessMappingMetadata (id 5) events (docs/nettrace-format.md,
 * section 11): a mapping gives every address inside it its module, the
 * metadata the ELF build id that symbol servers index files by.  One mapping event per file mapping a frame touched, written on
 * first use, before the record, so that TraceLog has the module when it
 * meets the address; one metadata event per build id, before the first
 * mapping that names it.  Their payloads are rundown.c's.
 */
static int sz_define_mapping(struct symbolize *sz)
{
	static const struct nt_event_desc mapping = {
		UNIVERSAL_SYSTEM_PROVIDER, UNIVERSAL_EV_MAPPING, "ProcessMapping", 0, 0, 4, 0, NULL, 0,
	};
	static const struct nt_event_desc meta = {
		UNIVERSAL_SYSTEM_PROVIDER, UNIVERSAL_EV_MAPPING_META, "ProcessMappingMetadata", 0, 0,
		4, 0, NULL, 0,
	};
	int err;

	if (sz->meta_mapping)
		return 0;
	err = nt_writer__define(sz->w, &meta, &sz->meta_mapmeta);
	if (!err)
		err = nt_writer__define(sz->w, &mapping, &sz->meta_mapping);
	if (err)
		sz->meta_mapping = 0;
	return err;
}

/* The metadata id of m's build id, its event written when new; 0 for a
 * file without one. */
static int sz_mapping_meta(struct symbolize *sz, const struct sym_mapping *m, uint32_t pid,
			   uint64_t ts, uint64_t tid, uint64_t *id)
{
	char json[512];
	struct sym_mapping_meta_rec rec = { .symbol_json = json, .version_json = "" };
	struct u64_map_ent *e;
	long len;
	int err;

	*id = 0;
	if (!m->elf || !m->build_id[0])
		return 0;
	if (u64_map__get(&sz->mapmeta_ids, hash_str(m->build_id), &e))
		return -ENOMEM;
	if (e->val) {
		*id = e->val;
		return 0;
	}
	e->val = *id = ++sz->n_mapmeta;
	snprintf(json, sizeof(json),
		 "{\"type\":\"ELF\",\"build_id\":\"%s\",\"debug_link\":\"%s\","
		 "\"p_vaddr\":\"0x%llx\",\"p_offset\":\"0x%llx\"}",
		 m->build_id, m->debug_link && !strpbrk(m->debug_link, "\"\\") ? m->debug_link : "",
		 (unsigned long long)m->p_vaddr, (unsigned long long)m->p_offset);
	rec.id = *id;
	len = sym_encode_mapping_meta(sz->enc, sizeof(sz->enc), &rec);
	if (len > (long)sizeof(sz->enc))
		return 0;
	err = sz_write(sz, sz->meta_mapmeta, pid, ts, tid, len);
	if (!err)
		sz->st.mappings_meta_written++;
	return err;
}

/* Note the file mapping of pid holding addr: its events on first use. */
static int sz_note_mapping(struct symbolize *sz, pid_t pid, uint64_t addr, uint64_t ts,
			   uint64_t tid)
{
	struct sym_mapping m;
	struct sym_mapping_rec rec;
	struct u64_map_ent *e;
	uint64_t meta_id;
	long len;
	int err;

	if (addr >= SYM_KERNEL_START || symbolizer__mapping(sz->sym, pid, addr, &m))
		return 0;
	if (u64_map__get(&sz->maps_seen, hash_mix(sz->per_process ? (uint32_t)pid : 0, m.start),
			 &e))
		return -ENOMEM;
	if (e->val)
		return 0;
	err = sz_define_mapping(sz);
	if (!err)
		err = sz_mapping_meta(sz, &m, (uint32_t)pid, ts, tid, &meta_id);
	if (err)
		return err;
	e->val = ++sz->n_mappings;
	rec = (struct sym_mapping_rec){ .id = e->val, .start = m.start, .end = m.end,
					.offset = m.offset, .path = m.path, .meta_id = meta_id };
	len = sym_encode_mapping(sz->enc, sizeof(sz->enc), &rec);
	if (len > (long)sizeof(sz->enc))
		return 0;
	err = sz_write(sz, sz->meta_mapping, (uint32_t)pid, ts, tid, len);
	if (!err)
		sz->st.mappings_written++;
	return err;
}

/* -------------------------------------------------------------- ranges */

/* Fill a new range's written fields from what the symbolizer said. */
static int sz_range_describe(struct symbolize *sz, struct sz_range *r, const struct sym_info *si)
{
	char ns[1024], name[1024], sig[1024], asm_name[1024];
	const struct sz_method *m = NULL;
	struct sz_module *mod;

	r->ns = r->sig = "";
	r->name = r->key;
	r->method_id = PSEUDO_METHOD_ID + ++sz->n_ranges_made;
	if (si->kind == SYM_KIND_JIT) {
		r->flags = si->flags ? si->flags : RANGE_F_JITTED;
		if (!si->module)	/* named by a runtime method event */
			m = sz_method_find(sz, r->pid, si->start, si->size, si->name);
		if (m) {	/* copies: the method may be forgotten first */
			r->ns = intern(sz, m->ns);
			r->name = intern(sz, m->name);
			r->sig = intern(sz, m->sig);
			r->method_id = m->method_id;
			r->token = m->token;
			r->flags = m->flags;
		}
		if (si->module_id) {
			mod = sz_module_runtime(sz, r->pid, si->module_id, true);
		} else if (sym_split_perf_name(si->name, ns, name, sig, asm_name, sizeof(ns))) {
			r->ns = intern(sz, ns);
			r->name = intern(sz, name);
			r->sig = intern(sz, sig);
			mod = sz_module_pseudo(sz, r->pid, asm_name);
		} else {
			mod = sz_module_pseudo(sz, r->pid, si->module ? si->module : "[JIT]");
		}
	} else {
		r->flags = 0;
		mod = sz_module_pseudo(sz, r->pid, si->module ? si->module :
				       si->kind == SYM_KIND_KERNEL ? "[kernel.kallsyms]" :
				       "[unknown]");
	}
	if (!mod || !r->ns || !r->name || !r->sig)
		return -ENOMEM;
	mod->used = true;
	r->module_id = mod->module_id;
	return 0;
}

static uint64_t sz_range_hash(uint32_t key_pid, enum sym_kind kind, uint64_t start,
			      uint64_t size, const char *name)
{
	return ident_hash(kind ^ ((uint64_t)key_pid << 8), start, size, name);
}

/* The JIT range a method event's method (pid, start, size, display name)
 * was written as, if a frame touched it: NULL when none did. */
static struct sz_range *sz_range_of_method(struct symbolize *sz, uint32_t pid, uint64_t start,
					   uint64_t size, const char *disp)
{
	uint32_t key_pid = sz->per_process ? pid : 0;
	uint64_t h = sz_range_hash(key_pid, SYM_KIND_JIT, start, size, disp);
	size_t k;

	if (!sz->n_r_slots)
		return NULL;
	for (k = h & (sz->n_r_slots - 1); sz->r_slots[k]; k = (k + 1) & (sz->n_r_slots - 1)) {
		struct sz_range *r = &sz->r[sz->r_slots[k] - 1];

		if (r->hash == h && r->start == start && r->size == size &&
		    r->kind == SYM_KIND_JIT && (!key_pid || r->pid == pid) && !strcmp(r->key, disp))
			return r;
	}
	return NULL;
}

/* The range for si (created when new).  Returns its index or -errno. */
static long sz_range_get(struct symbolize *sz, uint32_t pid, const struct sym_info *si)
{
	uint32_t key_pid = sz->per_process ? pid : 0;	/* V5: one address space */
	struct sz_range_hint *hint = &sz->hint[hash_mix(hash_mix(pid, si->start),
						       (uintptr_t)si->name) & (SZ_HINTS - 1)];
	struct sz_range *r;
	uint64_t h;
	size_t k;
	int err;

	if (hint->name == si->name && hint->start == si->start && hint->size == si->size &&
	    hint->pid == pid && hint->kind == si->kind && si->name && hint->ri < sz->n_r) {
		r = &sz->r[hint->ri];
		if (!strcmp(r->key, si->name))
			return hint->ri;
	}
	*hint = (struct sz_range_hint){ .name = si->name, .start = si->start,
					.size = si->size, .pid = pid, .kind = si->kind };
	h = sz_range_hash(key_pid, si->kind, si->start, si->size, si->name);

	if ((sz->n_r + 1) * 2 >= sz->n_r_slots &&
	    rehash(&sz->r_slots, &sz->n_r_slots, sz->n_r, sz->r, sizeof(*sz->r)))
		return -ENOMEM;
	for (k = h & (sz->n_r_slots - 1); sz->r_slots[k]; k = (k + 1) & (sz->n_r_slots - 1)) {
		r = &sz->r[sz->r_slots[k] - 1];
		if (r->hash == h && r->start == si->start && r->size == si->size &&
		    r->kind == si->kind && (!key_pid || r->pid == pid) &&
		    !strcmp(r->key, si->name))
			return hint->ri = sz->r_slots[k] - 1;
	}
	if (grow_array((void **)&sz->r, &sz->cap_r, sz->n_r + 1, sizeof(*sz->r)))
		return -ENOMEM;
	r = &sz->r[sz->n_r];
	*r = (struct sz_range){
		.hash = h, .pid = pid, .start = si->start, .size = si->size,
		.end = si->start + (si->size ? si->size : 1), .kind = si->kind,
		.key = intern(sz, si->name),
	};
	if (!r->key)
		return -ENOMEM;
	err = sz_range_describe(sz, r, si);
	if (err)
		return err;
	sz->r_slots[k] = (uint32_t)sz->n_r + 1;
	hint->ri = (uint32_t)sz->n_r;
	return (long)sz->n_r++;
}

/* Resolve one frame (addr: the call's address; raw: the stack's, which is
 * what TraceLog matches): its range's index, or -ENOENT when it has no
 * name. */
static long sz_frame(struct symbolize *sz, pid_t pid, uint64_t addr, uint64_t raw, uint64_t ts,
		     uint64_t tid)
{
	struct sym_info si;
	size_t n_r = sz->n_r;
	long ri;
	int err;

	sz->st.frames++;
	if (symbolizer__resolve(sz->sym, pid, addr, ts, &si) || !si.name) {
		struct u64_map_ent *e;

		sz->st.unresolved++;
		/* a hash collision merges two addresses' counts: a statistic */
		if (u64_map__get(&sz->un_idx, hash_mix((uint32_t)pid, raw), &e))
			return -ENOENT;
		if (!e->val) {
			if (GROW(sz->un, sz->cap_un, sz->n_un + 1))
				return -ENOENT;
			sz->un[sz->n_un] = (struct sz_unnamed){ (uint32_t)pid, raw, 0, false };
			e->val = ++sz->n_un;
			/* TraceLog still gives it the module of its mapping */
			err = sz_note_mapping(sz, pid, addr, ts, tid);
			if (err)
				return err;
		}
		sz->un[e->val - 1].n++;
		return -ENOENT;
	}
	if (si.kind == SYM_KIND_JIT)
		sz->st.frames_jit++;
	else if (si.kind == SYM_KIND_KERNEL)
		sz->st.frames_kernel++;
	else
		sz->st.frames_native++;
	ri = sz_range_get(sz, (uint32_t)pid, &si);
	if (ri >= 0 && sz->n_r > n_r && si.kind == SYM_KIND_NATIVE) {	/* a new range */
		err = sz_note_mapping(sz, pid, addr, ts, tid);
		if (err)
			return err;
	}
	return ri;
}

/* Ranges whose DCEnd must follow the last event (see symbolize__stack). */
static int sz_write_deferred(struct symbolize *sz, uint64_t ts, uint64_t tid)
{
	size_t i;
	int err;

	for (i = 0; i < sz->n_defer; i++) {
		err = sz_range_write_one(sz, sz->defer[i], ts, tid);
		if (err)
			return err;
		sz->st.early_writes++;
	}
	sz->n_defer = 0;
	return 0;
}

/*
 * Order the record's overlapping ranges for writing after it: a range goes
 * only after every range that owns one of the record's addresses inside it
 * (the first DCEnd covering an address names it); among those free to go,
 * the smallest first; a cycle is broken by the smallest.
 */
static void sz_defer_ordered(struct symbolize *sz, const uint32_t *ev_r, size_t n,
			     const bool *conflict, const uint64_t *raw, const uint32_t *pos,
			     size_t n_frames)
{
	bool done[2 * SZ_MAX_FRAMES] = {};
	size_t left = 0, i, f;

	for (i = 0; i < n; i++)
		left += conflict[i];
	while (left--) {
		size_t best = n, best_free = n;

		for (i = 0; i < n; i++) {
			const struct sz_range *q = &sz->r[ev_r[i]];
			bool blocked = false;

			if (!conflict[i] || done[i])
				continue;
			for (f = 0; f < n_frames && !blocked; f++)
				blocked = pos[f] != i && pos[f] < n && conflict[pos[f]] &&
					  !done[pos[f]] && q->start <= raw[f] && raw[f] < q->end;
			if (best == n || q->end - q->start < sz->r[ev_r[best]].end -
			    sz->r[ev_r[best]].start)
				best = i;
			if (!blocked && (best_free == n || q->end - q->start <
			    sz->r[ev_r[best_free]].end - sz->r[ev_r[best_free]].start))
				best_free = i;
		}
		i = best_free < n ? best_free : best;
		done[i] = true;
		sz->defer[sz->n_defer++] = ev_r[i];
	}
}

/*
 * One record's frames.  Every range the record references stays pending
 * (or becomes pending), after the pending ranges of other incarnations that
 * overlap them were written (before the record).  Ranges of the record
 * that overlap each other (a return address just past a function's end,
 * nested ELF symbols, perf-map names of uncertain time) cannot all stay
 * pending: they are written right after the record (at the next call), in
 * an order where each claims its own addresses (sz_defer_ordered).
 */
static int sz_stack(struct symbolize *sz, pid_t pid, uint64_t tid, uint64_t ts,
		    const uint64_t *stack, uint32_t depth);

int symbolize__stack(struct symbolize *sz, pid_t pid, uint64_t tid, uint64_t ts,
		     const uint64_t *stack, uint32_t depth)
{
	int err;

	if (!sz->w)	/* looks up only */
		return 0;
	err = sz_write_deferred(sz, ts, tid);
	if (err || !depth)
		return err;
	return sz_stack(sz, pid, tid, ts, stack, depth);
}

/* The frames of one record named (their ranges written before it). */
static int sz_stack(struct symbolize *sz, pid_t pid, uint64_t tid, uint64_t ts,
		    const uint64_t *stack, uint32_t depth)
{
	uint32_t ev_r[2 * SZ_MAX_FRAMES];	/* distinct ranges of this record */
	uint64_t ev_end[2 * SZ_MAX_FRAMES], unres[SZ_MAX_FRAMES];
	uint64_t raw[SZ_MAX_FRAMES];		/* named frames: address, range */
	uint32_t pos[SZ_MAX_FRAMES];
	size_t n = 0, n_unres = 0, n_raw = 0, i, j;
	bool any_conflict = false;
	bool conflict[2 * SZ_MAX_FRAMES] = {};
	int err = 0;

	sz_note_pid(sz, pid);
	if (depth > SZ_MAX_FRAMES)
		depth = SZ_MAX_FRAMES;
	for (i = 0; i < depth; i++) {
		uint64_t ip = stack[i], end;
		long ri;

		if (!ip)
			continue;
		ri = sz_frame(sz, pid, sym_frame_address(stack, i), ip, ts, tid);
		if (ri == -ENOENT) {
			unres[n_unres++] = ip;
			continue;
		}
		if (ri < 0)
			return (int)ri;
		/* TraceEvent matches the raw address */
		end = ip + 1 > sz->r[ri].end ? ip + 1 : sz->r[ri].end;
		for (j = 0; j < n && ev_r[j] != (uint32_t)ri; j++)
			;
		if (j == n) {
			ev_r[n] = (uint32_t)ri;
			ev_end[n++] = end;
			sz->r[ri].in_event = true;
		} else if (end > ev_end[j]) {
			ev_end[j] = end;
		}
		raw[n_raw] = ip;
		pos[n_raw++] = (uint32_t)j;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (sz->r[ev_r[i]].start < ev_end[j] && sz->r[ev_r[j]].start < ev_end[i])
				any_conflict = conflict[i] = conflict[j] = true;
	/* other incarnations' pending ranges go before the record */
	for (i = 0; !err && i < n; i++)
		err = sz_flush_overlap(sz, sz->r[ev_r[i]].start, ev_end[i], ts, tid);
	for (i = 0; !err && i < n_unres; i++)
		err = sz_flush_overlap(sz, unres[i], unres[i] + 1, ts, tid);
	for (i = 0; !err && i < n; i++)
		if (conflict[i] && sz->r[ev_r[i]].pending)
			sz_pend_remove(sz, ev_r[i]);
	for (i = 0; i < n; i++) {
		sz->r[ev_r[i]].end = ev_end[i];
		sz->r[ev_r[i]].in_event = false;
	}
	for (i = 0; !err && i < n; i++)
		if (!conflict[i] && !sz->r[ev_r[i]].pending)
			err = sz_pend_insert(sz, ev_r[i]);
	if (!err && any_conflict)
		sz_defer_ordered(sz, ev_r, n, conflict, raw, pos, n_raw);
	return err;
}

/* ------------------------------------------------------ runtime events */

static int sz_method_event(struct symbolize *sz, int load, int rundown, pid_t pid, uint64_t ts,
			   const void *payload, size_t len)
{
	struct sym_method_rec rec;
	char strs[8192], disp[4096];
	struct sz_range *r;
	int err;

	if (sym_decode_method(payload, len, &rec, strs, sizeof(strs)) || !rec.size)
		return 0;	/* malformed: its frames stay as they are */
	sym_method_display_name(rec.ns, rec.name, rec.sig, 0, disp, sizeof(disp));
	err = sz_method_add(sz, (uint32_t)pid, &rec, disp, load ? 0 : ts ? ts : 1);
	if (err)
		return err;
	r = sz_range_of_method(sz, (uint32_t)pid, rec.start, rec.size, disp);
	if (r)
		r->unload_ts = load ? 0 : ts ? ts : 1;
	sz->st.method_events++;
	if (load)	/* DCStart: live since before the trace (time unknown) */
		return symbolizer__method_load(sz->sym, pid, rec.start, rec.size, disp,
					       rec.module_id, rec.flags, rundown ? 0 : ts);
	return symbolizer__method_unload(sz->sym, pid, rec.start, rec.size, disp,
					 rec.module_id, rec.flags, ts);
}

/* A module load (or rundown) describes it; its unload marks it, so it is
 * forgotten at a new file once no range names it (sz_compact). */
static int sz_module_event(struct symbolize *sz, int domain, int unload, pid_t pid, uint64_t ts,
			   const void *payload, size_t len)
{
	struct sym_module_rec rec;
	struct sz_module *mod;
	char strs[8192];
	const char *path;

	if (sym_decode_module(payload, len, domain, &rec, strs, sizeof(strs)))
		return 0;
	path = rec.il_path && rec.il_path[0] ? rec.il_path : rec.native_path;
	if (!path || !path[0])
		return 0;
	mod = sz_module_runtime(sz, (uint32_t)pid, rec.module_id, !unload);
	if (unload) {
		if (mod && mod->path)
			mod->unload_ts = ts ? ts : 1;
		return 0;
	}
	if (!mod)
		return -ENOMEM;
	if (!mod->path || mod->unload_ts) {	/* new, or its id taken again */
		mod->path = intern(sz, path);
		mod->assembly_id = rec.assembly_id;
		mod->unload_ts = 0;
	}
	return mod->path ? 0 : -ENOMEM;
}

/* The ids symbolize__learn reads the payload of (in either provider). */
static bool naming_event(uint32_t id)
{
	return id == CLR_EV_METHOD_LOAD_VERBOSE || id == CLR_EV_METHOD_UNLOAD_VERBOSE ||
	       id == 151 || id == CLR_EV_MODULE_LOAD || id == CLR_EV_MODULE_DCSTART ||
	       id == CLR_EV_MODULE_DCEND;
}

int symbolize__learn(struct symbolize *sz, const char *provider, uint32_t id, pid_t pid,
		     uint64_t ts, const void *payload, size_t len)
{
	int rt, rd;

	/* most events: the same process as the last one, nothing to read */
	if (pid == sz->last_noted && !naming_event(id))
		return 0;
	rt = streq(provider, CLR_PROVIDER);
	rd = streq(provider, CLR_RUNDOWN_PROVIDER);
	if (rt || rd) {
		sz_note_pid(sz, pid);
		sz->last_noted = pid;
	}
	if ((rt || rd) && id == CLR_EV_METHOD_LOAD_VERBOSE)
		return sz_method_event(sz, 1, rd, pid, ts, payload, len);
	if ((rt || rd) && id == CLR_EV_METHOD_UNLOAD_VERBOSE)
		return sz_method_event(sz, 0, rd, pid, ts, payload, len);
	if ((rt && id == CLR_EV_MODULE_LOAD) ||
	    (rd && (id == CLR_EV_MODULE_DCSTART || id == CLR_EV_MODULE_DCEND)))
		return sz_module_event(sz, 0, 0, pid, ts, payload, len);
	if (rt && id == CLR_EV_MODULE_UNLOAD)
		return sz_module_event(sz, 0, 1, pid, ts, payload, len);
	if ((rt && id == 151) || (rd && id == CLR_EV_MODULE_LOAD))	/* DomainModule* */
		return sz_module_event(sz, 1, 0, pid, ts, payload, len);
	return 0;
}

int symbolize__clr_event(struct symbolize *sz, const char *provider, uint32_t id, pid_t pid,
			 uint64_t tid, uint64_t ts, const void *payload, size_t len,
			 const uint64_t *stack, uint32_t depth)
{
	int err = symbolize__learn(sz, provider, id, pid, ts, payload, len);

	if (err)
		return err;
	return symbolize__stack(sz, pid, tid, ts, stack, depth);
}

/* ---------------------------------------------------------------- end */

/*
 * Between two files nothing is pending: forget what no later frame can
 * name, so a daemon whose runtimes load and unload code for days, on a
 * host whose processes come and go, holds what is alive.  Gone: processes
 * found gone before the horizon (sz_forget_gone) and, in a V6 trace, their
 * ranges; ranges of code unloaded before the horizon (the symbolizer no
 * longer answers with it); pseudo-modules no range names; runtime modules
 * no range names that were unloaded before the horizon or whose process
 * is forgotten.  The
 * names of what stays move to a new pool (the old one held every name ever
 * interned); indexes are rebuilt.
 */
static int sz_repool(struct symbolize *sz);

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

static bool in_pids(const pid_t *pids, size_t n, uint32_t pid)
{
	pid_t p = (pid_t)pid;

	return n && bsearch(&p, pids, n, sizeof(*pids), cmp_pid);
}

/* The processes found gone before the horizon (sorted, into *out): no
 * record of theirs is to come.  Their method records, unnamed frames and
 * entries go here (the frames their methods named counted first), the
 * symbolizer's tables of them too; their ranges and modules in
 * sz_compact. */
static size_t sz_forget_gone(struct symbolize *sz, pid_t **out)
{
	const struct sz_method **by;
	pid_t *gone;
	size_t i, k, n = 0, n_ev = 0;

	*out = NULL;
	for (i = 0; i < sz->n_pids; i++)
		n += sz->pids[i].gone && sz->pids[i].gone_ts < sz->horizon;
	if (!n || !(gone = malloc(n * sizeof(*gone))))
		return 0;
	for (i = n = 0; i < sz->n_pids; i++)
		if (sz->pids[i].gone && sz->pids[i].gone_ts < sz->horizon)
			gone[n++] = sz->pids[i].pid;
	qsort(gone, n, sizeof(*gone), cmp_pid);
	/* their methods: what they named, then forgotten */
	if (sz->n_m && (by = malloc(sz->n_m * sizeof(*by))) != NULL) {
		for (i = 0; i < sz->n_m; i++)
			if (in_pids(gone, n, sz->m[i].pid))
				by[n_ev++] = &sz->m[i];
		if (n_ev)
			sz_mark_named(sz, by, n_ev);
		free(by);
	}
	for (i = k = 0; i < sz->n_m; i++) {
		if (in_pids(gone, n, sz->m[i].pid))
			free((char *)sz->m[i].disp);
		else
			sz->m[k++] = sz->m[i];
	}
	if (k < sz->n_m) {
		sz->n_m = k;
		sz_methods_reindex(sz);
	}
	/* their unnamed frames, counted */
	for (i = k = 0; i < sz->n_un; i++) {
		if (!in_pids(gone, n, sz->un[i].pid))
			sz->un[k++] = sz->un[i];
		else if (sz->un[i].named)
			sz->un_named_gone += sz->un[i].n;
	}
	sz->n_un = k;
	u64_map__clear(&sz->un_idx);
	for (i = 0; i < sz->n_un; i++) {
		struct u64_map_ent *e;

		if (!u64_map__get(&sz->un_idx, hash_mix(sz->un[i].pid, sz->un[i].addr), &e))
			e->val = i + 1;
	}
	/* their entries */
	for (i = k = 0; i < sz->n_pids; i++)
		if (!in_pids(gone, n, (uint32_t)sz->pids[i].pid))
			sz->pids[k++] = sz->pids[i];
	sz->n_pids = k;
	u64_map__clear(&sz->pid_idx);
	for (i = 0; i < sz->n_pids; i++) {
		struct u64_map_ent *e;

		if (!u64_map__get(&sz->pid_idx, (uint64_t)(uint32_t)sz->pids[i].pid, &e))
			e->val = i + 1;
	}
	sz->last_noted = 0;
	symbolizer__forget_pids(sz->sym, gone, n);
	*out = gone;
	return n;
}

static int sz_compact(struct symbolize *sz)
{
	uint64_t *ids = NULL;
	size_t i, k, n_ids = 0, n_gone;
	pid_t *gone;

	if (sz->n_pend || sz->n_defer || !sz->horizon)
		return 0;
	n_gone = sz_forget_gone(sz, &gone);
	for (i = k = 0; i < sz->n_r; i++) {
		if ((sz->r[i].unload_ts && sz->r[i].unload_ts <= sz->horizon) ||
		    (sz->per_process && in_pids(gone, n_gone, sz->r[i].pid)))
			continue;
		sz->r[k++] = sz->r[i];
	}
	sz->n_r = k;
	/* the module ids the ranges name */
	if (sz->n_r && !(ids = malloc(sz->n_r * sizeof(*ids)))) {
		free(gone);
		return -ENOMEM;
	}
	for (i = 0; i < sz->n_r; i++)
		ids[n_ids++] = sz->r[i].module_id;
	qsort(ids, n_ids, sizeof(*ids), cmp_u64);
	for (i = k = 0; i < sz->n_mods; i++) {
		const struct sz_module *md = &sz->mods[i];
		bool named = n_ids && bsearch(&md->module_id, ids, n_ids, sizeof(*ids), cmp_u64);

		if (!named && (md->pseudo || (md->unload_ts && md->unload_ts <= sz->horizon) ||
			       in_pids(gone, n_gone, md->pid)))
			continue;
		sz->mods[k] = *md;
		sz->mods[k++].used = named;
	}
	sz->n_mods = k;
	free(ids);
	free(gone);
	/* the indexes */
	memset(sz->hint, 0, sizeof(sz->hint));
	free(sz->r_slots);
	sz->r_slots = NULL;
	sz->n_r_slots = 0;	/* rebuilt here, or by the next new range */
	if (rehash(&sz->r_slots, &sz->n_r_slots, sz->n_r, sz->r, sizeof(*sz->r)))
		return -ENOMEM;
	u64_map__clear(&sz->mod_idx);
	for (i = 0; i < sz->n_mods; i++) {
		struct u64_map_ent *e;

		if (sz->mods[i].pseudo)
			continue;
		if (u64_map__get(&sz->mod_idx, hash_mix(hash64(sz->mods[i].pid),
							sz->mods[i].module_id), &e))
			return -ENOMEM;
		if (!e->val)	/* two of one hash: the first keeps the slot */
			e->val = i + 1;
	}
	return sz_repool(sz);
}

/* The names of the ranges and modules into a new pool, the old one freed;
 * all or nothing. */
static int sz_repool(struct symbolize *sz)
{
	struct strpool *pool = strpool__new();
	const char **v = calloc(4 * sz->n_r + sz->n_mods + 1, sizeof(*v));
	size_t i, n = 0;

	if (!pool || !v)
		goto nomem;
	for (i = 0; i < sz->n_r; i++) {
		const struct sz_range *r = &sz->r[i];
		const char *const f[4] = { r->key, r->name, r->ns, r->sig };

		for (int j = 0; j < 4; j++) {
			/* the name is often the key itself */
			v[n] = j == 1 && r->name == r->key ? v[n - 1] :
			       strpool__add(pool, f[j], strlen(f[j]));
			if (!v[n++])
				goto nomem;
		}
	}
	for (i = 0; i < sz->n_mods; i++)
		if (sz->mods[i].path &&
		    !(v[n++] = strpool__add(pool, sz->mods[i].path, strlen(sz->mods[i].path))))
			goto nomem;
	for (i = n = 0; i < sz->n_r; i++) {
		sz->r[i].key = v[n++];
		sz->r[i].name = v[n++];
		sz->r[i].ns = v[n++];
		sz->r[i].sig = v[n++];
	}
	for (i = 0; i < sz->n_mods; i++)
		if (sz->mods[i].path)
			sz->mods[i].path = v[n++];
	free(v);
	strpool__free(sz->pool);
	sz->pool = pool;
	return 0;
nomem:
	free(v);
	strpool__free(pool);
	return -ENOMEM;
}

void symbolize__new_file(struct symbolize *sz)
{
	/* After symbolize__finish nothing is pending; every range is written
	 * again into the new file when a frame refers to it.  Modules stay
	 * "used": a range written again names its module, which must then have
	 * its module event in this file too (an unused one costs one event).
	 * Mappings and build ids are written again on their first use in the
	 * new file. */
	u64_map__free(&sz->maps_seen);
	u64_map__free(&sz->mapmeta_ids);
	sz_compact(sz);		/* on failure what it did not do waits */
}

/* Native ranges still pending, named again after the symbol stores' network
 * gave debug files (a stripped file's "FILE+0xSTART" becomes the function's
 * name; ranges written before keep theirs). */
static int sz_rename_pending(struct symbolize *sz, uint64_t ts)
{
	struct sym_info si;
	size_t i;

	for (i = 0; i < sz->n_pend; i++) {
		struct sz_range *r = &sz->r[sz->pend[i]];

		if (r->kind != SYM_KIND_NATIVE ||
		    symbolizer__resolve(sz->sym, (pid_t)r->pid, r->start, ts, &si) || !si.name ||
		    !strcmp(si.name, r->name))
			continue;
		r->name = intern(sz, si.name);
		if (!r->name)
			return -ENOMEM;
		sz->st.renamed++;
	}
	return 0;
}

int symbolize__fetch_symbols(struct symbolize *sz, uint64_t ts)
{
	if (!sz->w ||
	    symbolizer__fetch_symbols(sz->sym, mono_ms() + SYMBOL_STORE_TOTAL_MS) <= 0)
		return 0;
	return sz_rename_pending(sz, ts);
}

int symbolize__finish(struct symbolize *sz, uint64_t ts)
{
	size_t i;
	long len;
	int err;

	if (!sz->w)
		return 0;
	err = sz_write_deferred(sz, ts, SYMBOLIZE_TID);
	if (err)
		return err;
	while (sz->n_pend) {
		uint32_t ri = sz->pend[0];

		sz_pend_remove_at(sz, 0);
		err = sz_range_write_one(sz, ri, ts, SYMBOLIZE_TID);
		if (err)
			return err;
	}
	for (i = 0; i < sz->n_mods; i++) {
		const struct sz_module *md = &sz->mods[i];
		/* Native path empty: TraceLog treats IL == native as an NGEN
		 * image and searches the last 8 characters for ".ni.", which
		 * throws for a path shorter than 7 ("[bpf]", "[vdso]") and
		 * aborts the whole conversion (see "What TraceLog assumes"
		 * in collector/README.md). */
		struct sym_module_rec rec = {
			.module_id = md->module_id,
			.assembly_id = md->pseudo ? md->module_id : md->assembly_id,
			.il_path = md->path, .native_path = "",
		};

		if (!md->used || !md->path)
			continue;
		err = sz_define(sz);
		if (err)
			return err;
		len = sym_encode_module(sz->enc, sizeof(sz->enc), &rec);
		if (len < 0 || len > (long)sizeof(sz->enc))
			continue;
		err = sz_write(sz, sz->meta_module, md->pid, ts, SYMBOLIZE_TID, len);
		if (err)
			return err;
		sz->st.modules_written++;
	}
	return 0;
}
