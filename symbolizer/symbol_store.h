/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * symbol_store.h - debug files found by ELF build id beyond the machine's
 * /usr/lib/debug (elf_syms.c looks there): symbol stores in the layout of
 * Microsoft's symbol server protocol (SSQP:
 * <store>/_.debug/elf-buildid-sym-<id>/_.debug), local directories or
 * http(s) URLs, debuginfod servers (DEBUGINFOD_URLS, through elfutils'
 * libdebuginfod), and an on-disk cache of what the network gave.
 *
 * Local places (directories, the cache) are searched when a file's symbols
 * are loaded; the network only by symbol_store__fetch, which the collector
 * calls at the end of a trace and `symbolize` offline, never while records
 * flow.  Process-wide configuration, set once before any lookup.
 */
#ifndef EBPF_COLLECT_SYMBOL_STORE_H
#define EBPF_COLLECT_SYMBOL_STORE_H

#include <stddef.h>
#include <stdint.h>

/* One server's bound: a slow or silent one costs a trace's end at most this. */
#define SYMBOL_STORE_SERVER_MS	5000
/* All fetches of one trace's end together. */
#define SYMBOL_STORE_TOTAL_MS	15000

/* list: comma-separated directories and http(s):// URLs (NULL: none).
 * 0, or -EINVAL with a one-line reason in err (an empty item, a relative
 * directory, a URL of another scheme). */
int symbol_store__configure(const char *list, char *err, size_t errlen);

/* The cache: $XDG_CACHE_HOME/ebpf-collect/symbols, else
 * /var/cache/ebpf-collect/symbols as root, else ~/.cache/ebpf-collect/symbols,
 * one <build id>.debug each. */

/* Whether any network source is configured (a URL, or DEBUGINFOD_URLS). */
int symbol_store__has_network(void);

/* An open fd of the debug file of build_id (hex) in a local place: the
 * cache, then the directories in list order; path gets its name.  -1 when
 * none has it. */
int symbol_store__find_local(const char *build_id, char *path, size_t len);

/* Ask the network (URLs in list order, then debuginfod) for build_id's
 * debug file, store it in the cache and return an open fd (path: its
 * name), or -1.  Each server gets at most SYMBOL_STORE_SERVER_MS and none
 * starts after deadline_ms (a mono_ms() time).  A build id that failed is
 * not asked again in this process. */
int symbol_store__fetch(const char *build_id, uint64_t deadline_ms, char *path, size_t len);

#endif
