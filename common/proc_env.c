// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * proc_env.c - one variable of /proc/PID/environ, read whole (an
 * environment has no size limit of its own).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "grow.h"
#include "proc_env.h"

#define READ_CHUNK	16384

int proc_env_get(pid_t pid, const char *name, char *val, size_t len)
{
	size_t nl = strlen(name), n = 0, cap = 0, i;
	char fn[64], *buf = NULL;
	int fd, err = -ENOENT;
	ssize_t r;

	snprintf(fn, sizeof(fn), "/proc/%d/environ", (int)pid);
	fd = open(fn, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		if (GROW(buf, cap, n + READ_CHUNK + 1)) {	/* and a NUL after it all */
			err = -ENOMEM;
			goto out;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	for (i = 0; i < n; i += strlen(buf + i) + 1) {
		if (!strncmp(buf + i, name, nl) && buf[i + nl] == '=') {
			snprintf(val, len, "%s", buf + i + nl + 1);
			err = 0;
			break;
		}
	}
out:
	close(fd);
	free(buf);
	return err;
}
