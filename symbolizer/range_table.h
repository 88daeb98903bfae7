/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * range_table.h - the time-aware address range table (range_table.c) that
 * perf maps and runtime method events fill.
 */
#ifndef EBPF_COLLECT_RANGE_TABLE_H
#define EBPF_COLLECT_RANGE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#define SYM_TS_NONE		0ULL

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
 * Cost of a lookup: O(log n + k), k the entries walked back from addr while
 * one of them still reaches it (the versions at addr and any range spanning
 * it); of an add, nothing until the next lookup or unload, which sorts what
 * was added and moves the entries after the first of them (see
 * range_table.c).
 */
struct range_entry {
	uint64_t start;
	uint64_t end;		/* exclusive */
	uint64_t load_ts;
	uint64_t unload_ts;	/* 0: not unloaded */
	uint64_t module_id;	/* runtime ModuleID when known, else 0 */
	const char *name;	/* owned by the table */
	uint64_t seq;		/* arrival order */
	uint32_t flags;		/* runtime MethodFlags, or RANGE_F_* */
} __attribute__((aligned(64)));	/* one cache line each: a lookup touches one */

#define RANGE_F_JITTED	0x8	/* same bit as MethodFlags.Jitted */

struct range_table;
struct range_table *range_table__new(void);
void range_table__free(struct range_table *rt);
/* Copies name.  Returns the entry index or -errno. */
long range_table__add(struct range_table *rt, uint64_t start, uint64_t size,
		      const char *name, size_t name_len, uint64_t load_ts);
/* Entry idx, or NULL when idx is past range_table__extent or its entry was
 * freed (see range_table__set_horizon): an index is good until the next
 * call that takes a time. */
struct range_entry *range_table__entry(struct range_table *rt, size_t idx);
/* The live entries; the indices in use lie below range_table__extent. */
size_t range_table__count(const struct range_table *rt);
size_t range_table__extent(const struct range_table *rt);
/* Mark the entry starting at `start` that is live at ts as unloaded at ts
 * (a search, never a rebuild).  Returns the index marked, or -ENOENT. */
long range_table__unload(struct range_table *rt, uint64_t start, uint64_t ts);
const struct range_entry *range_table__find(struct range_table *rt, uint64_t addr,
					    uint64_t ts);
/* Promise that no lookup will ask for a time before ts: entries unloaded by
 * then are no answer any more; they are freed, with their names, at their
 * start's next unload or in a sweep that runs here once enough was added,
 * so the table holds the versions still alive, however long code churns.
 * Pointers from find (a name) are good until the next call here, add or
 * unload. */
void range_table__set_horizon(struct range_table *rt, uint64_t ts);
/* live_only: only an entry live at ts (no "earliest" / "newest ever"
 * fallbacks), so another source can be asked first. */
const struct range_entry *range_table__find_mode(struct range_table *rt, uint64_t addr,
						 uint64_t ts, int live_only);

#endif
