/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * host.h - --all: every process of the host that carries the runtime
 * provider (any generated manifest's providers in the event table), a
 * --usdt provider asked for, the tracepoint shim (stock .NET started ready
 * for it, preferred as -p prefers it) or a .NET diagnostics socket
 * (EventPipe, for stock .NET without the shim), each traced one way only,
 * like a -p target: those running at the start, and those that exec
 * later (the Linux-Kernel-Process Exec event, host-wide, makes the collector
 * look within the next poll, and again for a few seconds while a runtime
 * maps its libraries and opens its socket).  --comm, --cgroup, --container
 * and --pid-filter narrow it, CPU samples included: the kernel drops the
 * samples of processes they do not select.
 */
#ifndef EBPF_COLLECT_HOST_H
#define EBPF_COLLECT_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "u64_map.h"

struct collector;

struct host_file {
	dev_t dev;
	ino_t ino;
	uint8_t flags;		/* HOST_F_* */
};

struct host_pending {
	pid_t pid;
	uint64_t until;		/* look again until then */
	uint64_t next;		/* ... next at this time */
	uint64_t gap;		/* doubling from one poll */
	uint64_t size;		/* its vsize at the last look, 0 unknown */
	int files;		/* HOST_F_* of its files at the last look, -1 none */
};

/* How a target is traced, for the start and stop lines */
enum host_via {
	HOST_VIA_PROVIDER,	/* the runtime provider's USDT probes */
	HOST_VIA_USDT,		/* a --usdt provider only */
	HOST_VIA_SHIM,		/* its own tracepoints, through the tracepoint shim */
	HOST_VIA_EVENTPIPE,	/* an EventPipe session */
	HOST_NR_VIA,
};

struct host {
	bool on;			/* --all */
	pid_t *seen;			/* processes looked at and settled */
	size_t n_seen, cap_seen;
	struct host_pending *pend;	/* exec'd lately, not a target yet */
	size_t n_pend, cap_pend;
	struct host_file *files;	/* per file: which providers its notes have */
	size_t n_files, cap_files;
	struct u64_map file_idx;	/* hash of (device, inode) -> index + 1 */
	char **ug_providers;		/* --usdt providers */
	int n_ug;
	uint64_t execs, found, full;	/* exec events seen, targets found, over MAX_PIDS */
	uint64_t via[HOST_NR_VIA];	/* targets found, by how they are traced */
	uint64_t exited;		/* shim targets that exited, their holds released */
	uint64_t next_exit_check;	/* when the targets are looked at for exits */
	uint64_t select_full;		/* sample selections the kernel map refused */
};

/* Before the start: --usdt providers.  0 or -ENOMEM. */
int host__init(struct collector *c);
void host__free(struct collector *c);

/* Every process running now; EXIT_OK (no target yet is no error). */
int host__scan(struct collector *c);

/* Whether pid is selected: a target, or (--all) chosen by --comm,
 * --cgroup, --container or --pid-filter as it is now; without --all every
 * process of the trace (targets and their children). */
bool host__selected(const struct collector *c, pid_t pid);

/* An Exec event of pid (the pipeline's exec hook, before reordering). */
void host__note_exec(struct collector *c, pid_t pid);

/* Every poll: look at the processes exec'd lately, and (once a second)
 * release the tracepoints of shim targets that exited.  0 or -errno. */
int host__tick(struct collector *c, uint64_t now);

void host__print_summary(const struct collector *c);

#endif
