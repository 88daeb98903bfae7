/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * eh_builder.h - a thread that builds --call-graph eh's tables (eh_table.c)
 * off the consumer's thread: eh_procs.c queues a file's opened ELF object,
 * the thread builds its rows, most wanted first, and eh_procs.c takes the
 * finished tables back when it polls.  The thread touches no BPF map and
 * nothing of eh_procs.c's; each queued file is its alone until taken.
 *
 * Errors: eh_builder__new returns NULL and sets errno; free accepts NULL.
 */
#ifndef EBPF_COLLECT_EH_BUILDER_H
#define EBPF_COLLECT_EH_BUILDER_H

#include <stddef.h>
#include <stdint.h>
#include "eh_table.h"
#include "elf_file.h"

struct eh_builder;

/* A finished build: the caller's file number, its table (err 0) or why none. */
struct eh_built {
	uint32_t file;
	int err;		/* eh_table__build's */
	struct eh_table t;	/* the taker's to free */
};

/* Start the thread (every signal blocked in it). */
struct eh_builder *eh_builder__new(void);

/* Stop the thread (a build in progress is cut short), drop what is queued
 * and what was not taken. */
void eh_builder__free(struct eh_builder *b);

/*
 * Queue file (the caller's number for it) with its opened ELF object ef,
 * which the builder then owns and closes, at priority prio (the highest
 * is built first; the smallest file, then the oldest, among equals).  0 or
 * -ENOMEM (ef
 * closed then too).
 */
int eh_builder__add(struct eh_builder *b, uint32_t file, struct elf_file *ef, uint64_t prio);

/* Raise a queued file's priority by more (nothing once its build began). */
void eh_builder__raise(struct eh_builder *b, uint32_t file, uint64_t more);

/* Move up to max finished builds to out; their count.  Never waits for a
 * build, nor for the lock; one atomic load when none is finished. */
size_t eh_builder__take(struct eh_builder *b, struct eh_built *out, size_t max);

/* Wait until every queued file is built: only before the trace starts
 * (nothing is read meanwhile), never while records wait to be read. */
void eh_builder__wait(struct eh_builder *b);

/* Files queued and not begun; ns the thread spent building so far. */
void eh_builder__stats(struct eh_builder *b, size_t *queued, uint64_t *build_ns);

#endif
