/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * perf_map.h - perf maps (/tmp/perf-PID.map, perfinfo-PID.map; docs/perf-map-format.md),
 * read into the time-aware range table (range_table.h).
 */
#ifndef EBPF_COLLECT_PERF_MAP_H
#define EBPF_COLLECT_PERF_MAP_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "range_table.h"

#define SYM_KERNEL_START	0xffff800000000000ULL

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
/* Read appended lines, at most a few MiB per call (the rest on later calls;
 * lines that were in the file at an earlier call get that call's time).
 * Returns the number of new entries or -errno; -E2BIG the first time a line
 * runs on for more than 64 KiB: the map is then refused (perf_map__refused)
 * and never read again, its entries so far kept. */
long perf_map__refresh(struct perf_map *pm, uint64_t now);
/* An earlier refresh stopped at its bound before lines already in the file
 * then: a lookup must read them first, a newer version of a range may be
 * among them. */
bool perf_map__pending(const struct perf_map *pm);
/* Why the map was refused ("has a line of more than ..."), or NULL. */
const char *perf_map__refused(const struct perf_map *pm);
/* Lookup after reading what perf_map__pending leaves; on a miss reads what
 * was appended and tries again. */
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
/* Parses fd's content (from offset 0, its first 4 MiB); returns the count or -errno. */
int perfinfo__parse(int fd, struct perfinfo_image **images);
void perfinfo__free(struct perfinfo_image *images, int n);

#endif
