/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tpshim.h - stock .NET through its own tracepoints as a source: a process
 * that loaded the tracepoint shim (usdt/README.md "The tracepoint shim")
 * has its selected tracepoints enabled through the kernel
 * (tpshim_enable.h), the shim's probe function traced by
 * bpf/tpshim.bpf.c, and each call rebuilt as the manifest event it is
 * (usdt/tracepoint_sig.h) and handed on as a runtime event record
 * (CE_REC_CLR_EVENT), written as a USDT probe's is (clr_events.c).
 */
#ifndef EBPF_COLLECT_TPSHIM_SOURCE_H
#define EBPF_COLLECT_TPSHIM_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct ect_table;
struct selection;
struct tps_proc;
struct tpshim_view;
struct tpshim_bpf;
struct pipeline;
struct pipeline_source_ops;

struct tpshim_source {
	/* given by the session */
	const struct ect_table *table;
	const struct selection *sel;
	bool ustack, kstack;
	/* an EventPipe session runs beside it (ep_targets.h: cfg_shim) with
	 * the rundown, whose events the runtime also hands to raised
	 * tracepoints: the rundown's are left down, so each comes once */
	bool no_rundown;
	/* --batched: the selected tracepoints batched in the shim's buffers
	 * (tpshim_batch.h) */
	bool batched;
	/* the source's own */
	struct tpshim_bpf *skel;
	struct tps_proc *procs;
	size_t nr_procs, cap_procs;
	uint64_t events, unreadable;	/* calls rebuilt; calls that could not be */
};

/* Load the program writing into the ring rb_fd.  0 or -errno (one line said). */
int tpshim_source__load(struct tpshim_source *s, int rb_fd, uint64_t wakeup_bytes,
			uint64_t backstop_bytes);

/* Would pid's runtime, by its start-up environment (lttng_env.h), leave a
 * tracepoint of its shim (v: tpshim__find's) uncalled that the selection
 * sel of table t wants (no_rundown: the rundown's left out, as
 * tpshim_source's)?  1 with the line that says so, and that the process
 * goes to EventPipe, in why; 0 when it calls them all; -errno when its
 * environment cannot be read. */
int tpshim__env_refuses(const struct ect_table *t, const struct selection *sel, bool no_rundown,
			pid_t pid, const struct tpshim_view *v, char *why, size_t n);

/* Trace pid through its shim: its selected tracepoints enabled, the probe
 * attached.  The tracepoints enabled (0: none selected), -ENOENT when pid
 * has no shim (or it stands down), -errno (one line said).  Unless some
 * are enabled nothing of pid is left held or attached, so that EventPipe
 * can take it without counting an event twice. */
int tpshim_source__attach_pid(struct tpshim_source *s, pid_t pid);

/* pid exited: its probe detached and the descriptors that held its
 * tracepoints handed to the caller to close (a grace period each, so off
 * the main loop); *fds is the caller's to free.  How many (0: pid is not
 * traced through the shim).  Its calls still in the ring are rebuilt. */
size_t tpshim_source__release_pid(struct tpshim_source *s, pid_t pid, int **fds);

/* The descriptors that hold the tracepoints' states up, handed to the
 * caller to close (each close waits for a grace period: the caller closes
 * them side by side); *fds is the caller's to free.  How many. */
size_t tpshim_source__take_holds(struct tpshim_source *s, int **fds);

/* Lower every tracepoint still held (the holds closed), then detach the probe. */
void tpshim_source__detach(struct tpshim_source *s);

/* The end: have every batched process's buffers handed over, reading the
 * ring (p) meanwhile; the masks are cleared by tpshim_source__detach. */
int tpshim_source__flush_batched(struct tpshim_source *s, struct pipeline *p);

/* One line per process traced through the shim. */
void tpshim_source__print_summary(const struct tpshim_source *s, FILE *f);

void tpshim_source__free(struct tpshim_source *s);

/* The pipeline's source of CE_REC_TPSHIM (pipeline.h): each record
 * arrives as the CE_REC_CLR_EVENT it stands for. */
extern const struct pipeline_source_ops tpshim_source_ops;

/* ... and of CE_REC_TPSHIM_BATCH: each call of a run of the shim's
 * batched mode (tpshim_batch.h) the same. */
extern const struct pipeline_source_ops tpshim_batch_source_ops;

#endif
