/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tracepoint_read.h - the tracepoint shim's table read from outside the
 * process (usdt/tracepoint_abi.h): whether a process holds the shim, how
 * many tracepoints it was handed, and each one's name, signature, state
 * and address.  Reads /proc/PID/maps and /proc/PID/mem, so the caller
 * needs what ptrace's read access needs (root, or the same user).
 */
#ifndef USDT_TRACEPOINT_READ_H
#define USDT_TRACEPOINT_READ_H

#include <stdint.h>
#include <sys/types.h>

#include "tracepoint_abi.h"

struct tpshim_view {
	pid_t pid;
	uint64_t table_addr;		/* the table's address in the process */
	struct tpshim_table table;	/* as tpshim__find read it */
};

struct tpshim_tp {
	uint64_t addr;			/* struct tpabi_tracepoint's address */
	int state;
	uint64_t probes;
	uint64_t probe_func, probe_data;	/* probes[0], when probes is set */
	char name[256];
	char signature[2048];		/* cut at the size, NUL-terminated */
};

/* Find the shim's table in pid.  0; -ENOENT when the process has no shim
 * mapped (or a mapping of its name without the table); -errno of reading
 * its maps or memory otherwise (-ESRCH: no such process). */
int tpshim__find(pid_t pid, struct tpshim_view *v);

/* Entry i (< table.count): 0, -ENOENT when its library unregistered it,
 * -errno when the process's memory cannot be read. */
int tpshim__tracepoint(const struct tpshim_view *v, uint32_t i, struct tpshim_tp *tp);

#endif /* USDT_TRACEPOINT_READ_H */
