/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * proc_mem.h - bytes of another process's memory, read or written in place
 * (process_vm_readv/writev: the caller needs ptrace access to the process),
 * and the file behind an address of it (/proc/PID/maps).
 */
#ifndef EBPF_COLLECT_PROC_MEM_H
#define EBPF_COLLECT_PROC_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* len bytes between buf and pid's memory at addr (into it when write):
 * 0, -errno (-ESRCH: the process is gone), or -EFAULT when only part of
 * the range is mapped. */
int proc_mem_rw(pid_t pid, uint64_t addr, void *buf, size_t len, bool write);

/* The file mapped at addr in pid: path "/proc/PID/map_files/START-END"
 * (size bytes; a uprobe's path, good while the mapping stays) and *off
 * addr's offset in it.  0, -ENOENT (no mapping holds addr), -errno. */
int proc_mapped_at(pid_t pid, uint64_t addr, char *path, size_t size, uint64_t *off);

#endif
