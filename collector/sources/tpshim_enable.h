/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tpshim_enable.h - a stock CoreCLR's tracepoints (usdt/tracepoint_abi.h)
 * enabled through the kernel, so that a tracer that dies leaves none
 * raised (architecture decision 20).
 *
 * A tracepoint's state is a word in the writable data of the runtime's
 * library.  It is raised as a USDT semaphore is: a uprobe, for one process,
 * whose reference counter (ref_ctr_offset) is the word's file offset.  The
 * kernel updates a reference counter only in the file of its uprobe, so
 * each tracepoint's uprobe sits in that library, at an instruction that
 * never runs: the lazy-binding halves of its .plt stubs (a file bound at
 * load never runs them: CoreCLR is linked with -z now), then nops of
 * alignment padding (in a gap between the .eh_frame FDEs' ranges; clang
 * pads most of CoreCLR with int3, which the kernel does not probe, so
 * these are few: 42 in .NET 10's).  The kernel refuses two
 * uprobes at one offset with different counters, so each tracepoint has its
 * own site, chosen by its place in the library's __tracepoints section:
 * every tracer, in every process of that file, picks the same one, and
 * their holds stack.
 */
#ifndef EBPF_COLLECT_TPSHIM_ENABLE_H
#define EBPF_COLLECT_TPSHIM_ENABLE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The library that holds a process's tracepoints, as mapped there. */
struct tpshim_lib {
	int fd;				/* the mapped file (/proc/PID/map_files) */
	uint64_t map_start, map_end;	/* the writable mapping of the tracepoints */
	uint64_t map_off;		/* its file offset */
	uint64_t tps_off, tps_size;	/* the __tracepoints section on file */
	uint64_t *sites;		/* file offsets of dead instructions, ascending */
	size_t nsites;
};

/* The library of the tracepoint at tp_addr in pid: its mapping, its
 * __tracepoints section and its dead instructions.  0, -ENOENT (tp_addr is
 * not in a file-backed writable mapping, or the file has no __tracepoints
 * section or .eh_frame), -ENOEXEC (not an ELF file) or -errno. */
int tpshim_lib__open(pid_t pid, uint64_t tp_addr, struct tpshim_lib *lib);

/* Does lib hold the tracepoint at tp_addr? */
int tpshim_lib__has(const struct tpshim_lib *lib, uint64_t tp_addr);

/* Raise the state of the tracepoint at tp_addr (in lib) in pid for as long
 * as the returned descriptor is open.  The descriptor, or -errno: -ERANGE
 * when the library has fewer dead instructions than tracepoints, the
 * kernel's errno of perf_event_open otherwise. */
int tpshim_lib__hold(pid_t pid, const struct tpshim_lib *lib, uint64_t tp_addr);

void tpshim_lib__close(struct tpshim_lib *lib);

#endif
