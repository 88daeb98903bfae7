// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * proc_mem.c - another process's memory, read or written, and the file
 * behind an address of it (proc_mem.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
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

/* "/proc/PID/map_files/START-END" of the mapping holding addr, and the file
 * offset of addr in it */
int proc_mapped_at(pid_t pid, uint64_t addr, char *path, size_t size, uint64_t *off)
{
	char line[4096];
	int err = -ENOENT;
	FILE *f;

	snprintf(path, size, "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		uint64_t start, end, pgoff;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64, &start, &end, &pgoff) != 3 ||
		    addr < start || addr >= end)
			continue;
		snprintf(path, size, "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, (int)pid, start, end);
		*off = pgoff + (addr - start);
		err = 0;
		break;
	}
	fclose(f);
	return err;
}
