/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * metrics_shm.h - the daemon's --metrics text, handed from its trace (a
 * child process) to the daemon, which serves it, through a shared mapping
 * the daemon makes before the first fork and keeps for its life: the
 * endpoint stays up and its counters go on across reloads.
 *
 * One writer at a time (the running trace), one reader (the daemon's
 * loop).  A sequence number makes a read that crossed a write, or a write
 * its writer died in, detectable: the reader then keeps what it had.
 */
#ifndef EBPF_COLLECT_METRICS_SHM_H
#define EBPF_COLLECT_METRICS_SHM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct metrics_shm;

/* Set by the daemon before it forks a trace: the trace's --metrics then
 * publishes here instead of listening (metrics.c).  NULL otherwise. */
extern struct metrics_shm *metrics_shm_inherited;

/* The mapping; NULL with errno set. */
struct metrics_shm *metrics_shm__new(void);
void metrics_shm__free(struct metrics_shm *s);

/* The trace's side: its whole text (0, or -E2BIG: it does not fit, and
 * the previous text stays). */
int metrics_shm__publish(struct metrics_shm *s, const char *text, size_t len);

/* The wall-clock ns of the last batch ClickHouse took, in any trace of
 * this daemon (0: none); a trace raises it, never lowers it. */
uint64_t metrics_shm__export_ok_ns(const struct metrics_shm *s);
void metrics_shm__set_export_ok_ns(struct metrics_shm *s, uint64_t ns);

/* The daemon's side: the last text whole, malloc'd into *text (NUL-ended)
 * with the pid of the trace that wrote it.  1; 0 when nothing was
 * published yet or the text is being written (keep the previous one);
 * -ENOMEM. */
int metrics_shm__read(struct metrics_shm *s, char **text, size_t *len, pid_t *writer);

#endif
