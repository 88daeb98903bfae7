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
 * to its end (every session's at once, 10 s at most: ep_targets.h) before
 * the output is closed.
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
struct ect_table;
struct pipeline_event;

#define EP_MAX_PROVIDERS	64

struct ep_config {
	struct dn_provider provs[EP_MAX_PROVIDERS];
	char names[EP_MAX_PROVIDERS][128];	/* storage of provs[].name */
	int n;
	int rundown;		/* request the rundown at stop */
	uint32_t buffer_mb;	/* the runtime's session buffer */
	/* beside the tracepoint shim, which has the runtime's perf map
	 * turned on and off (tpshim.c): EnablePerfMap is not sent twice */
	bool shim_perfmap;
};

/* Why a session could not start (the exit codes of ebpf-collect). */
enum ep_fail {
	EP_FAIL_NONE,
	EP_FAIL_NO_SOCKET,	/* no diagnostics socket: not .NET or diagnostics off */
	EP_FAIL_ACCESS,		/* socket of another user */
	EP_FAIL_RUNTIME,	/* connect or command failed, no answer in time */
};

enum ep_state {
	EP_STARTING,		/* CollectTracing sent, its answer awaited */
	EP_RUNNING,		/* the stream is being read */
	EP_FAILED,		/* it did not start (eventpipe__state's msg says why) */
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

/*
 * A session with pid's runtime, started by its own thread: CollectTracing3
 * (CollectTracing2 when the runtime rejects it), then the stream read into
 * a queue of at most 4 MB.  Every exchange must end within
 * DN_EXCHANGE_TIMEOUT_MS; nothing here waits for the peer, so a slow or
 * hostile one delays no other target.  eventpipe__state says how it went.
 * cfg must outlive the session.  NULL (one line in err) only when the
 * thread cannot start.  suspended: the runtime waits at start-up for
 * ResumeRuntime; EnablePerfMap is not sent then (.NET 8 and 9 die of it
 * before they are resumed; ep_perfmap.h).
 */
struct eventpipe *eventpipe__start(const struct dn_socket *s, const struct ep_config *cfg,
				   bool suspended,
				   char *err, size_t errsz);

/* EP_FAILED: *why and *msg (one line, with the pid) say why. */
enum ep_state eventpipe__state(struct eventpipe *ep, enum ep_fail *why, const char **msg);

/* eventpipe__poll's results besides 0 and -errno: the session was dropped
 * (its thread and connection gone; eventpipe__message says why) because
 * its stream is unreadable: before any event (REFUSED: not a Nettrace
 * stream) or after some (CUT: those are kept). */
#define EP_POLL_REFUSED	1
#define EP_POLL_CUT	2

/* Move what the stream delivered into the reorder buffer: 0, EP_POLL_*,
 * -errno.  Bytes that cannot start a trace, objects over
 * NT_STREAM_MAX_BLOCK, more than 64 MB held between sequence points, more
 * event types, fields or stacks than a runtime defines, and events stamped
 * over 60 s ahead of the stream's clock are refused as they arrive: a
 * session's memory stays bounded. */
int eventpipe__poll(struct eventpipe *ep, struct reorder *ro);
const char *eventpipe__message(const struct eventpipe *ep);

/*
 * The stop, for every session at once: eventpipe__stop_begin sends
 * StopTracing from a thread of its own (the stream keeps being read: the
 * runtime writes its rundown before it answers); eventpipe__stop_poll then
 * moves what came into the reorder buffer and returns EP_STOP_AGAIN until
 * the stream has ended.  cut: end it now (time is up), keeping what came.
 * Returns 0, or 1 when the stream was cut (its last block incomplete: *err
 * says where; the events before are kept), EP_STOP_NO_STREAM, or -errno.
 * Sessions that never ran or were dropped return 0 at once.
 */
#define EP_STOP_AGAIN	2
#define EP_STOP_NO_STREAM 3	/* no trace header by the stop: dropped, *err says so */
int eventpipe__stop_begin(struct eventpipe *ep);
int eventpipe__stop_poll(struct eventpipe *ep, struct reorder *ro, bool cut, char *err,
			 size_t errsz);

/* Write one CE_REC_EVENTPIPE record (from the reorder buffer).  Frames are
 * registered with sym (may be NULL) before the event is written. */
int eventpipe__emit(struct eventpipe *ep, struct nt_writer *w, struct symbolize *sym,
		    const void *rec, size_t len);

/* One CE_REC_EVENTPIPE record as a runtime event of table t, for the
 * pipeline's consumers (pipeline.h: struct pipeline_event, how a version
 * the table lacks is read): 1 and *out, or 0 for an event the table does
 * not describe (an EventSource's) or a malformed record. */
int eventpipe__event(struct eventpipe *ep, const struct ect_table *t, const void *rec,
		     size_t len, struct pipeline_event *out);

/* The session whose record this is (records carry the session's pid). */
struct eventpipe *eventpipe__find(struct eventpipe **eps, int n, const void *rec);

/* The runtime writes a perf map at our request (EnablePerfMap, when
 * DOTNET_PerfMapEnabled is not set): disabled at stop, its files removed by
 * eventpipe__free. */
bool eventpipe__perfmap(const struct eventpipe *ep);
/* The process had exited by the time of eventpipe__stop. */
bool eventpipe__exited(const struct eventpipe *ep);

pid_t eventpipe__pid(const struct eventpipe *ep);
const char *eventpipe__path(const struct eventpipe *ep);	/* its socket */
/* Give up what the session waits for (CollectTracing's answer: it fails). */
void eventpipe__cancel(struct eventpipe *ep);
int eventpipe__version(const struct eventpipe *ep);	/* CollectTracing version used */
void eventpipe__print_summary(const struct eventpipe *ep, FILE *f);
void eventpipe__free(struct eventpipe *ep);

/* -l: which path pid gets.  Prints one line; returns 1 for a .NET runtime
 * reachable over IPC, 0 for none, -errno on failure. */
int eventpipe__describe(pid_t pid, FILE *f);

#endif
