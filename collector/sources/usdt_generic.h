/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * usdt_generic.h - any USDT provider into the trace:
 * `--usdt PROVIDER[:PROBE-GLOB][:ARGSPEC]`.
 *
 * ARGSPEC is a comma-separated list of  [arg]N=TYPE[/NAME]  with N the
 * 0-based argument index (the same numbering as the default field names
 * arg0, arg1, ... and as bpftrace's arg0..), TYPE one of
 *   int    signed 64-bit integer (default for every argument)
 *   u64    unsigned 64-bit integer (pointers, ids); "ptr" is an alias
 *   str    pointer to a NUL-terminated string, read up to 256 bytes
 *   lstr   pointer to a string whose byte length is argument N+1 (HotSpot)
 * and NAME the field name in the trace (default argN).  Examples:
 *   --usdt python:function__*:0=str/filename,1=str/funcname
 *   --usdt postgresql:query__start:0=str/query
 *   --usdt myapp            (every probe of provider myapp, all arguments int)
 * Probes of the built-in providers (python, hotspot, hotspot_jni,
 * postgresql) get their types and names from a table; ARGSPEC overrides
 * it argument by argument.
 *
 * Lifecycle: usdt_generic__new, __add_spec (one per --usdt), __load (with
 * the collector's ring buffer fd), __attach_pid / __attach_path (again on
 * every rescan: files already attached are skipped), records from the ring
 * buffer to __emit, __read_counters / __print_summary at the end, __free.
 */
#ifndef EBPF_COLLECT_USDT_GENERIC_USER_H
#define EBPF_COLLECT_USDT_GENERIC_USER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>
#include "collector_event.h"
#include "usdt_generic_event.h"	/* UG_MAX_ARGS, struct ug_counters */

struct nt_writer;
struct pipeline_source_ops;
struct usdt_generic;

enum ug_type {
	UG_T_INT = 0,	/* default */
	UG_T_U64,
	UG_T_STR,
	UG_T_LSTR,
};

#define UG_ARGS	UG_MAX_ARGS	/* arguments of a probe */

/* Argument types and names; name NULL = "argN". */
struct ug_argspec {
	uint8_t set[UG_ARGS];		/* 1: type/name given for this index */
	uint8_t type[UG_ARGS];		/* enum ug_type */
	char *name[UG_ARGS];
};

/* One --usdt option. */
struct ug_spec {
	char *provider;
	char *glob;			/* fnmatch pattern on the probe name ("*") */
	struct ug_argspec args;
};

/* Parse "PROVIDER[:PROBE-GLOB][:ARGSPEC]".  0, or -EINVAL with a message in
 * err.  Free with ug_spec__free. */
int ug_spec__parse(const char *s, struct ug_spec *out, char *err, size_t errlen);
void ug_spec__free(struct ug_spec *sp);		/* NULL-safe */
/* Parse an ARGSPEC alone (merging into *a: later items override). */
int ug_argspec__parse(const char *s, struct ug_argspec *a, char *err, size_t errlen);
void ug_argspec__free(struct ug_argspec *a);

/* The built-in table's ARGSPEC for provider:probe, or NULL. */
const char *ug_known_args(const char *provider, const char *probe);
/* Entry i of the built-in table (its ARGSPEC), NULL past the end. */
const char *ug_known_entry(size_t i, const char **provider, const char **probe);
/* Whether provider is in the built-in table. */
int ug_known_provider(const char *provider);
/* "filename:str funcname:str lineno:int" for -l, from the table; NULL when
 * the probe is not in it. Returns buf. */
const char *ug_describe(const char *provider, const char *probe, char *buf, size_t len);

struct ug_totals {
	struct ug_counters sum;		/* the BPF program's, summed over CPUs */
	uint64_t events;		/* written to the trace */
	uint64_t bad_records;
};

/* verbose: -1 quiet (no attach messages), 0 normal, 1+ more. NULL + errno. */
struct usdt_generic *usdt_generic__new(int verbose);
void usdt_generic__free(struct usdt_generic *ug);	/* NULL-safe; detaches */
int usdt_generic__add_spec(struct usdt_generic *ug, const char *spec, char *err, size_t errlen);

/* Which processes (call before __load):
 *   UG_FOLLOW_NONE      the targets only (attached per pid; the default)
 *   UG_FOLLOW_CHILDREN  --usdt-children: attach every matching probe for
 *                       all processes (pid -1) and keep the events of the
 *                       targets (__add_target, after __load) and of their
 *                       descendants, found by a parent-chain walk in BPF.
 *                       For forking servers (PostgreSQL forks a backend per
 *                       connection).
 *   UG_FOLLOW_ALL       --all-processes: pid -1, every process's events.
 * With pid -1 every other process that runs the same file while tracing
 * takes the uprobe trap, and the kernel raises the semaphores in all of
 * them (their argument preparation runs). */
#define UG_FOLLOW_NONE		0
#define UG_FOLLOW_CHILDREN	1
#define UG_FOLLOW_ALL		2
void usdt_generic__set_follow(struct usdt_generic *ug, int follow);
int usdt_generic__add_target(struct usdt_generic *ug, pid_t pid);

/* Open and load the BPF object.  rb_fd >= 0: records go to that ring buffer
 * (bpf_map__reuse_fd); the wakeup thresholds as in clr_events.bpf.c. */
int usdt_generic__load(struct usdt_generic *ug, int rb_fd, uint64_t wakeup_bytes,
		       uint64_t backstop_bytes);

/* Attach the matching probes in every ELF file pid has mapped that was not
 * attached for pid before.  Returns probes attached (>= 0) or -errno
 * (-ESRCH: no such process). */
int usdt_generic__attach_pid(struct usdt_generic *ug, pid_t pid);
/* Attach the matching probes of one file for pid (-1: every process),
 * mapped yet or not.  Returns probes attached or -errno. */
int usdt_generic__attach_path(struct usdt_generic *ug, pid_t pid, const char *path);
size_t usdt_generic__nr_links(const struct usdt_generic *ug);

/* Write one CE_REC_USDT_GENERIC record as a self-describing event (defined
 * on first use: provider = USDT provider, name = probe name).  1 written,
 * 0 malformed (counted, not fatal), or -errno (a write error). */
int usdt_generic__emit(struct usdt_generic *ug, struct nt_writer *w, const void *data,
		       size_t len);
/* The same as the pipeline's source of that type (pipeline.h), ctx the
 * struct usdt_generic. */
extern const struct pipeline_source_ops usdt_generic_source_ops;
uint64_t usdt_generic__events(const struct usdt_generic *ug);	/* written so far */

/* Destroy the links now (NULL-safe); __free does it too.  The collector
 * calls this while it holds duplicates of every link fd, so the kernel's
 * per-link grace periods overlap (see detach_links in stop.c). */
void usdt_generic__detach(struct usdt_generic *ug);

int usdt_generic__read_counters(struct usdt_generic *ug, struct ug_totals *t);
/* Lost records (ring full, preempted): for the collector's loss accounting. */
uint64_t usdt_generic__lost(const struct ug_totals *t);
/* "PROVIDER EVENT COUNT" rows and one line of counters. */
void usdt_generic__print_summary(struct usdt_generic *ug, FILE *f);

#endif
