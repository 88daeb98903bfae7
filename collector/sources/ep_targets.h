/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ep_targets.h - the collector's EventPipe sessions: one per target that
 * has no runtime USDT probes but a .NET diagnostics socket (eventpipe.h),
 * and the runtimes that wait on a diagnostic port of the collector's
 * (ep_port.h) until their session runs: the -- dotnet child, and with
 * --dotnet-port those of the host.  Messages go to stderr as one line each; results are the
 * collector's exit codes (commands.h).
 */
#ifndef EBPF_COLLECT_EP_TARGETS_H
#define EBPF_COLLECT_EP_TARGETS_H

#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include "eventpipe.h"
#include "ep_port.h"

#define EP_TARGETS_MAX	256	/* >= MAX_PIDS (collector.h checks) */

struct ect_table;
struct reorder;
struct selection;
struct symbolize;
struct nt_writer;
struct pipeline_source_ops;

struct ep_targets {
	struct eventpipe *ep[EP_TARGETS_MAX];	/* by the target's -p slot */
	struct ep_config cfg;
	/* a process traced through the tracepoint shim, which carries the
	 * runtime's providers, gets a session beside it for the providers
	 * only EventPipe serves (EventSources, SampleProfiler): cfg_shim,
	 * none of the event table's, so no event comes both ways (no
	 * session when it has none) */
	struct ep_config cfg_shim;
	bool beside_shim[EP_TARGETS_MAX];	/* the slot's session is such a one */
	bool quiet;
	pid_t child;		/* -- dotnet: waits for its session */
	bool wait_child;
	uint64_t child_deadline;
	bool cut;		/* a stream ended mid-block */
	int fail;		/* exit code behind a poll error, or 0 */
	bool all;		/* --all: a target that fails is dropped, the run goes on */
	const volatile sig_atomic_t *stop;	/* SIGINT/SIGTERM count (may be NULL) */
	bool running[EP_TARGETS_MAX];	/* its session answered (announced) */
	struct ep_port port;	/* --dotnet-port, or -- dotnet's: runtimes waiting */
	char port_dir[64];	/* -- dotnet: the port's private directory */
};

/* --providers: entries whose provider the event table lacks (EventSources,
 * SampleProfiler) go to EventPipe only.  *keep gets the rest (malloc'd,
 * "" when nothing is left), extra[] the others (malloc'd).  0 or -ENOMEM. */
int ep_targets__split_providers(const struct ect_table *t, const char *spec, char **keep,
				char **extra, int *n_extra, int max);

/* Does every pid have a .NET diagnostics socket? */
bool ep_targets__all_dotnet(const pid_t *pids, int n);

/* The sessions' providers (eventpipe__config), and those of a session
 * beside the tracepoint shim.  0 or EXIT_USAGE. */
int ep_targets__config(struct ep_targets *t, const struct selection *sel, char *const *extra,
		       int n_extra, bool cpu_sampling, bool quiet);

/* Sessions for the targets with cand[i] set, started all at once and
 * waited for together (each within DN_EXCHANGE_TIMEOUT_MS; a signal ends
 * the wait).  EXIT_OK when one started; EXIT_NO_PROBES when no candidate
 * has a socket (the caller has said so); another exit code on failure. */
int ep_targets__attach(struct ep_targets *t, const pid_t *pids, const bool *cand, int n);

/* -- dotnet: a port of the child's own, in a new directory under /tmp:
 * the child is started with DOTNET_DiagnosticPorts=PATH,suspend.  EXIT_OK
 * with the socket's path in path, or EXIT_FAIL with one line. */
int ep_targets__listen_child(struct ep_targets *t, char *path, size_t n);

/* -- dotnet: wait (poll) for the child's runtime on the port; then start
 * its session unless has_usdt(ctx, child) (a session beside the shim when
 * has_usdt set beside_shim[0]), and resume it once the session runs (or
 * failed). */
void ep_targets__wait_child(struct ep_targets *t, pid_t child);

/* --all: a session for a process found after the start (slot = its index
 * among the targets), not waited for: EXIT_OK once CollectTracing is under
 * way (ep_targets__poll tells how it went), EXIT_NO_PROBES (no socket) or
 * an exit code. */
int ep_targets__attach_one(struct ep_targets *t, int slot, pid_t pid);

/* --dotnet-port PATH: listen there (ep_port.h); the caller takes each
 * runtime that announces itself (ep_port__next on t->port) and starts its
 * session; ep_targets__poll resumes it once the session runs or failed.
 * EXIT_OK, or EXIT_FAIL with one line. */
int ep_targets__listen(struct ep_targets *t, const char *path);

/* Every poll: the child's start, the sessions that answered or failed
 * since, then each stream into ro.  A session that fails or whose stream
 * is refused is dropped with one line; with --all the run goes on and
 * the exit code is not changed; otherwise a stream refused after some
 * events sets t->cut, anything else ends the run: -errno (t->fail: the
 * exit code).  Runtimes waiting on the port whose session is no longer
 * starting are resumed. */
int ep_targets__poll(struct ep_targets *t, struct reorder *ro,
		     bool (*has_usdt)(void *ctx, pid_t pid), void *ctx);

/* Sessions running (records may come up to ~100 ms late)?  How many, and
 * how many of them beside the tracepoint shim? */
bool ep_targets__active(const struct ep_targets *t);
int ep_targets__count(const struct ep_targets *t);
int ep_targets__count_beside(const struct ep_targets *t);

/* Slot i's process is traced through the tracepoint shim: its session, if
 * any, takes only what EventPipe alone serves.  Whether there is such a
 * thing to take (true: start a session beside the shim). */
bool ep_targets__beside_shim(struct ep_targets *t, int i);

/* The providers of a session beside the shim, "A, B" into buf. */
const char *ep_targets__beside_names(const struct ep_targets *t, char *buf, size_t n);

/* StopTracing to every session at once; rundown and the rest of every
 * stream into ro, for at most EP_STOP_TIMEOUT_MS in all, or until one more
 * SIGINT/SIGTERM: then the streams still open are cut.  0 or -errno;
 * t->cut says a stream was cut. */
#define EP_STOP_TIMEOUT_MS	10000
int ep_targets__stop(struct ep_targets *t, struct reorder *ro);

/* The pipeline's source of CE_REC_EVENTPIPE (pipeline.h), ctx the struct
 * ep_targets: writes one record of a session; the records come into the
 * window by ep_targets__poll and ep_targets__stop. */
extern const struct pipeline_source_ops ep_targets_source_ops;

void ep_targets__print_summary(const struct ep_targets *t, FILE *f);
void ep_targets__free(struct ep_targets *t);

#endif
