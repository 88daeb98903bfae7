// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * proc_stat.c - numeric fields of /proc/PID/stat.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

bool proc_predates(pid_t pid, const struct stat *st)
{
	unsigned long long start = proc_stat_field(pid, 22);
	long tck = sysconf(_SC_CLK_TCK);
	struct timespec now, boot;
	double proc_age, file_age;

	if (!start || tck <= 0 || clock_gettime(CLOCK_REALTIME, &now) ||
	    clock_gettime(CLOCK_BOOTTIME, &boot))
		return false;
	proc_age = (double)boot.tv_sec + boot.tv_nsec / 1e9 - (double)start / (double)tck;
	file_age = (double)(now.tv_sec - st->st_mtim.tv_sec) +
		   (now.tv_nsec - st->st_mtim.tv_nsec) / 1e9;
	return file_age > proc_age + 1.0;
}
