/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * perf_map.h - perf maps (/tmp/perf-PID.map, perfinfo-PID.map; docs/perf-map-format.md)
 * and the time-aware range table and string pool they fill.
 */
#ifndef EBPF_COLLECT_PERF_MAP_H
#define EBPF_COLLECT_PERF_MAP_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define SYM_TS_NONE		0ULL
#define SYM_KERNEL_START	0xffff800000000000ULL

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

#endif
