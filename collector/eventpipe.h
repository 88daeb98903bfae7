/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * eventpipe.h - the EventPipe path: a stock .NET runtime (no USDT provider)
 * is traced through an EventPipe session over its diagnostics IPC channel
 * (dotnet_ipc.h).  The session's nettrace stream is read by a thread into a
 * byte queue; the collector's poll loop feeds it to the reader's stream mode
 * and pushes every event, as a CE_REC_EVENTPIPE record, into the same
 * reorder buffer as the BPF records, so the output is one time-ordered
 * trace.  EventPipe's timestamps on Linux are CLOCK_MONOTONIC nanoseconds
 * (QueryPerformanceCounter, frequency 1e9), the clock of bpf_ktime_get_ns():
 * the stream header's frequency is checked, other frequencies are scaled.
 *
 * At stop: StopTracing on a second connection makes the runtime write its
 * rundown (method and module names) and end the stream; the stream is read
 * to its end before the output is closed.
 */
#ifndef EBPF_COLLECT_EVENTPIPE_H
#define EBPF_COLLECT_EVENTPIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "dotnet_ipc.h"

/* Record type in the reorder buffer (bpf/collector_event.h numbers BPF's:
 * 1 CLR, 2 generic USDT, 16-63 kernel). */
#define CE_REC_EVENTPIPE	3

struct nt_writer;
struct symbolize;
struct reorder;

#define EP_MAX_PROVIDERS	64

struct ep_config {
	struct dn_provider provs[EP_MAX_PROVIDERS];
	char names[EP_MAX_PROVIDERS][128];	/* storage of provs[].name */
	int n;
	int rundown;		/* request the rundown at stop */
	uint32_t buffer_mb;	/* the runtime's session buffer */
};

/* Why a session could not start (the exit codes of ebpf-collect). */
enum ep_fail {
	EP_FAIL_NONE,
	EP_FAIL_NO_SOCKET,	/* no diagnostics socket: not .NET or diagnostics off */
	EP_FAIL_ACCESS,		/* socket of another user */
	EP_FAIL_RUNTIME,	/* connect or command failed */
};

struct eventpipe;
struct selection;

/* The session's providers: the selection's (DotNETRuntimeRundown becomes
 * the rundown request) plus `extra`, --providers entries naming providers
 * the event table lacks (EventSources: "Name[:KEYWORDS[:LEVEL]]", modified
 * in place).  With cpu_sampling, SampleProfiler is left out: BPF samples.
 * 0 or -E2BIG. */
int eventpipe__config(struct ep_config *cfg, const struct selection *sel, char *const *extra,
		      int n_extra, bool cpu_sampling, uint32_t buffer_mb);

/* Connect to pid's runtime and start a session (CollectTracing3, falling
 * back to CollectTracing2 when the runtime rejects it).  NULL with *why set
 * and one line in err. */
struct eventpipe *eventpipe__start(const struct dn_socket *s, const struct ep_config *cfg,
				   enum ep_fail *why, char *err, size_t errsz);

/* Move what the stream delivered into the reorder buffer.  0 or -errno. */
int eventpipe__poll(struct eventpipe *ep, struct reorder *ro);

/* StopTracing (unless the process is gone), then read the stream to its end
 * (at most timeout_ms) into the reorder buffer.  Returns 0, or 1 when the
 * stream was cut (its last block incomplete: *err says where; the events
 * before are kept), or -errno. */
int eventpipe__stop(struct eventpipe *ep, struct reorder *ro, int timeout_ms, char *err,
		    size_t errsz);

/* Write one CE_REC_EVENTPIPE record (from the reorder buffer).  Frames are
 * registered with sym (may be NULL) before the event is written. */
int eventpipe__emit(struct eventpipe *ep, struct nt_writer *w, struct symbolize *sym,
		    const void *rec, size_t len);

/* The session whose record this is (records carry the session's pid). */
struct eventpipe *eventpipe__find(struct eventpipe **eps, int n, const void *rec);

/* The runtime writes a perf map at our request (EnablePerfMap, when
 * DOTNET_PerfMapEnabled is not set): disabled at stop, its files removed by
 * eventpipe__free. */
bool eventpipe__perfmap(const struct eventpipe *ep);
/* The process had exited by the time of eventpipe__stop. */
bool eventpipe__exited(const struct eventpipe *ep);

pid_t eventpipe__pid(const struct eventpipe *ep);
uint64_t eventpipe__events(const struct eventpipe *ep);	/* written */
uint64_t eventpipe__lost(const struct eventpipe *ep);	/* the runtime's sequence gaps */
int eventpipe__version(const struct eventpipe *ep);	/* CollectTracing version used */
void eventpipe__print_summary(const struct eventpipe *ep, FILE *f);
void eventpipe__free(struct eventpipe *ep);

/* -l: which path pid gets.  Prints one line; returns 1 for a .NET runtime
 * reachable over IPC, 0 for none, -errno on failure. */
int eventpipe__describe(pid_t pid, FILE *f);

#endif
