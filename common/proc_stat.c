// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * proc_stat.c - numeric fields of /proc/PID/stat.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "proc_stat.h"

uint64_t proc_stat_field(pid_t pid, int field)
{
	char fn[64], buf[1024], *p;
	ssize_t r;
	int fd, i;

	if (field < 3)
		return field == 1 ? (uint64_t)pid : 0;
	snprintf(fn, sizeof(fn), "/proc/%d/stat", (int)pid);
	fd = open(fn, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return 0;
	buf[r] = 0;
	p = strrchr(buf, ')');	/* the command name may hold spaces and ')' */
	for (i = 2; p && i < field; i++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}
