/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * proc_mem.h - bytes of another process's memory, read or written in place
 * (process_vm_readv/writev: the caller needs ptrace access to the process).
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

#endif
