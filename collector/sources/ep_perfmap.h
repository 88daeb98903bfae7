/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ep_perfmap.h - the runtime's perf map during an EventPipe session: JIT
 * frames get names from it too (.NET 8+).  Unless the user configured perf
 * maps (DOTNET_PerfMapEnabled), the collector sends EnablePerfMap when the
 * session starts and DisablePerfMap at stop, and removes the perf-N.map /
 * perfinfo-N.map it caused once the trace is written (through a directory
 * descriptor, so also after the process exited).
 */
#ifndef EBPF_COLLECT_EP_PERFMAP_H
#define EBPF_COLLECT_EP_PERFMAP_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>
#include "dotnet_ipc.h"

struct ep_perfmap {
	bool on;			/* we asked the runtime for its perf map */
	bool existed;			/* already there: not ours to remove */
	int dirfd;			/* where it writes it, still reachable after exit */
	char dir[PATH_MAX - 64];	/* the same, through /proc/PID/root */
};

void ep_perfmap__init(struct ep_perfmap *pm);
/* The exchanges end within DN_EXCHANGE_TIMEOUT_MS, or when *cancel. */
void ep_perfmap__enable(struct ep_perfmap *pm, const struct dn_socket *s,
			const volatile bool *cancel);
void ep_perfmap__disable(struct ep_perfmap *pm, const struct dn_socket *s,
			 const volatile bool *cancel);
/* After the trace is written: remove the files we caused; close. */
void ep_perfmap__remove(struct ep_perfmap *pm, pid_t nspid);

#endif
