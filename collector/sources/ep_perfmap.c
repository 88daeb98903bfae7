// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ep_perfmap.c - the runtime's perf map during an EventPipe session (see
 * ep_perfmap.h).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ep_perfmap.h"
#include "proc_env.h"

static void perfmap_name(pid_t nspid, const char *kind, char *out, size_t n)
{
	snprintf(out, n, "%s-%d.map", kind, nspid);
}

void ep_perfmap__init(struct ep_perfmap *pm)
{
	pm->on = pm->existed = false;
	pm->dirfd = -1;
	pm->dir[0] = 0;
}

void ep_perfmap__enable(struct ep_perfmap *pm, const struct dn_socket *s,
			const volatile bool *cancel)
{
	char val[PATH_MAX / 2], path[PATH_MAX];
	uint8_t payload[4] = { DN_PERFMAP_TYPE_PERFMAP, 0, 0, 0 };
	struct dn_wait w = { mono_ms() + DN_EXCHANGE_TIMEOUT_MS, cancel };
	struct stat st;

	if (!proc_env_get(s->pid, "DOTNET_PerfMapEnabled", val, sizeof(val)) ||
	    !proc_env_get(s->pid, "COMPlus_PerfMapEnabled", val, sizeof(val)))
		return;
	if (proc_env_get(s->pid, "DOTNET_PerfMapJitDumpPath", val, sizeof(val)))
		snprintf(val, sizeof(val), "/tmp");
	snprintf(pm->dir, sizeof(pm->dir), "/proc/%d/root%s", s->pid, val);
	pm->dirfd = open(pm->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (pm->dirfd < 0)
		return;
	perfmap_name(s->nspid, "perf", path, sizeof(path));
	pm->existed = !fstatat(pm->dirfd, path, &st, 0);
	pm->on = !dn_command_wait(s->path, DN_SET_PROCESS, DN_PROC_ENABLE_PERFMAP,
					  payload, sizeof(payload), NULL, NULL, NULL, NULL, &w,
					  NULL);
}

void ep_perfmap__disable(struct ep_perfmap *pm, const struct dn_socket *s,
			 const volatile bool *cancel)
{
	struct dn_wait w = { mono_ms() + DN_EXCHANGE_TIMEOUT_MS, cancel };

	if (pm->on)
		dn_command_wait(s->path, DN_SET_PROCESS, DN_PROC_DISABLE_PERFMAP, NULL, 0,
				NULL, NULL, NULL, NULL, &w, NULL);
}

void ep_perfmap__remove(struct ep_perfmap *pm, pid_t nspid)
{
	char path[PATH_MAX];

	/* The runtime may still be finishing its last perf-map write when the
	 * DisablePerfMap answer arrives, and recreate the file: look again a
	 * few times over 200 ms. */
	for (int i = 0; pm->on && !pm->existed && i < 10; i++) {
		bool left;

		perfmap_name(nspid, "perf", path, sizeof(path));
		unlinkat(pm->dirfd, path, 0);
		perfmap_name(nspid, "perfinfo", path, sizeof(path));
		unlinkat(pm->dirfd, path, 0);
		usleep(20000);
		perfmap_name(nspid, "perf", path, sizeof(path));
		left = !faccessat(pm->dirfd, path, F_OK, 0);
		perfmap_name(nspid, "perfinfo", path, sizeof(path));
		if (!left && faccessat(pm->dirfd, path, F_OK, 0))
			break;
	}
	pm->on = false;
	if (pm->dirfd >= 0)
		close(pm->dirfd);
	pm->dirfd = -1;
}
