/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * metrics_carry.h - the daemon's counters across reloads.  Each trace it
 * runs counts from zero; the daemon serves each counter series (counters,
 * and a histogram's or summary's buckets, sums and counts) as what the
 * traces that ended had reached plus what the running one says, so a
 * series never goes back when a reload replaces the trace.  A series the
 * running trace does not (yet) have is served at what the ended ones
 * reached; gauges are the running trace's only.
 *
 * The text format is all it reads: it knows no family, so the families
 * and labels of metrics.c and metrics_agg.c can change without it.
 */
#ifndef EBPF_COLLECT_METRICS_CARRY_H
#define EBPF_COLLECT_METRICS_CARRY_H

#include <stddef.h>
#include <sys/types.h>

struct mbuf;
struct mcarry;

struct mcarry *mcarry__new(void);
void mcarry__free(struct mcarry *c);

/* text: the last exposition of the trace writer (pid).  When writer
 * differs from the previous call's, the previous trace ended: its last
 * text's counters join those carried.  The merged text goes into out. */
void mcarry__render(struct mcarry *c, const char *text, pid_t writer, struct mbuf *out);

#endif
