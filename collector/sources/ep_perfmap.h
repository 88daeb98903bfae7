/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ep_perfmap.h - the runtime's perf map during an EventPipe session: JIT
 * frames get names from it too (.NET 8+).  Unless the user configured perf
 * maps (DOTNET_PerfMapEnabled), the collector sends EnablePerfMap when the
 * session starts and DisablePerfMap at stop, and removes the perf-N.map /
 * perfinfo-N.map it caused once the trace is written (through a directory
 * descriptor, so also after the process exited).
 *
 * A collector killed before its stop (kill -9) cannot send DisablePerfMap:
 * the runtime would write its perf map for the rest of its life.  So a
 * marker under EP_PERFMAP_MARKERS names the collector while the perf map
 * is on, and every collector, at its start, turns off the perf maps whose
 * collector has died (ep_perfmap__reclaim).
 */
#ifndef EBPF_COLLECT_EP_PERFMAP_H
#define EBPF_COLLECT_EP_PERFMAP_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>
#include "dotnet_ipc.h"

#define EP_PERFMAP_MARKERS	"/run/ebpf-collect/perfmap"

struct ep_perfmap {
	pid_t pid;			/* the target (host pid), once enabled */
	bool on;			/* we asked the runtime for its perf map */
	bool existed;			/* already there: not ours to remove */
	int dirfd;			/* where it writes it, still reachable after exit */
	char dir[PATH_MAX - 64];	/* the same, through /proc/PID/root */
};

/* In the environment of a command the collector starts (-- CMD), with
 * DOTNET_PerfMapEnabled=3, when the user set neither: the runtime writes
 * its perf map from its start, and the collector knows it is its own to
 * turn off and remove.  Sent to a runtime that waits at start-up for
 * ResumeRuntime, EnablePerfMap kills .NET 8 and 9 (SIGSEGV). */
#define EP_PERFMAP_OURS		"EBPF_COLLECT_PERFMAP"

void ep_perfmap__init(struct ep_perfmap *pm);
/* EnablePerfMap (only when may_send; the perf map EP_PERFMAP_OURS turned
 * on is taken as enabled).  The exchanges end within
 * DN_EXCHANGE_TIMEOUT_MS, or when *cancel. */
void ep_perfmap__enable(struct ep_perfmap *pm, const struct dn_socket *s, bool may_send,
			const volatile bool *cancel);
void ep_perfmap__disable(struct ep_perfmap *pm, const struct dn_socket *s,
			 const volatile bool *cancel);
/* After the trace is written: remove the files we caused and the marker;
 * close. */
void ep_perfmap__remove(struct ep_perfmap *pm, pid_t nspid);
/* Every marker whose collector is gone and whose target runs on: one line
 * naming the target, DisablePerfMap, its perf map files removed.  Each
 * exchange ends within DN_EXCHANGE_TIMEOUT_MS, or when *cancel. */
void ep_perfmap__reclaim(const volatile bool *cancel);

#endif
