// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * proc_mem.c - another process's memory, read or written (proc_mem.h).
 */
#include <errno.h>
#include <sys/uio.h>

#include "proc_mem.h"

int proc_mem_rw(pid_t pid, uint64_t addr, void *buf, size_t len, bool write)
{
	struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = write ? process_vm_writev(pid, &local, 1, &remote, 1, 0) :
			    process_vm_readv(pid, &local, 1, &remote, 1, 0);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EFAULT;
}
