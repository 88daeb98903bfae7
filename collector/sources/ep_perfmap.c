// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ep_perfmap.c - the runtime's perf map during an EventPipe session (see
 * ep_perfmap.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ep_perfmap.h"
#include "proc_env.h"
#include "proc_stat.h"

#define LOG_PREFIX "ebpf-collect: "
#include "log.h"

static void perfmap_name(pid_t nspid, const char *kind, char *out, size_t n)
{
	snprintf(out, n, "%s-%d.map", kind, nspid);
}

void ep_perfmap__init(struct ep_perfmap *pm)
{
	pm->on = pm->existed = false;
	pm->dirfd = -1;
	pm->pid = 0;
	pm->dir[0] = 0;
}

/* Where the runtime of pid writes its perf map (DOTNET_PerfMapJitDumpPath,
 * else /tmp), through /proc/PID/root: into pm->dir and pm->dirfd. */
static int open_dir(struct ep_perfmap *pm, pid_t pid)
{
	char val[PATH_MAX / 2];

	if (proc_env_get(pid, "DOTNET_PerfMapJitDumpPath", val, sizeof(val)))
		snprintf(val, sizeof(val), "/tmp");
	snprintf(pm->dir, sizeof(pm->dir), "/proc/%d/root%s", pid, val);
	pm->dirfd = open(pm->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return pm->dirfd < 0 ? -errno : 0;
}

/* ------------------------------------------------------------ markers */

/* The marker of a target: EP_PERFMAP_MARKERS/PID holds
 * "COLLECTOR_PID COLLECTOR_START TARGET_START" (start times in clock ticks
 * since boot, /proc/PID/stat field 22, so that a reused pid is no match). */
static void marker_path(pid_t pid, char *out, size_t n)
{
	snprintf(out, n, "%s/%d", EP_PERFMAP_MARKERS, (int)pid);
}

/* Written before EnablePerfMap: a collector killed at any point after it
 * leaves the marker behind.  Without one (no /run, not root) a leftover
 * perf map is not found later; the trace is not held up for it. */
static void marker_write(pid_t pid)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f;

	if (mkdir("/run/ebpf-collect", 0755) && errno != EEXIST)
		goto fail;
	if (mkdir(EP_PERFMAP_MARKERS, 0755) && errno != EEXIST)
		goto fail;
	marker_path(pid, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
	f = fopen(tmp, "we");
	if (!f)
		goto fail;
	fprintf(f, "%d %llu %llu\n", (int)getpid(),
		(unsigned long long)proc_stat_field(getpid(), 22),
		(unsigned long long)proc_stat_field(pid, 22));
	if (fclose(f) || rename(tmp, path)) {
		unlink(tmp);
		goto fail;
	}
	return;
fail:
	pr_debug("pid %d: no marker of its perf map in %s: %s\n", (int)pid, EP_PERFMAP_MARKERS,
		 strerror(errno));
}

static void marker_remove(pid_t pid)
{
	char path[PATH_MAX];

	marker_path(pid, path, sizeof(path));
	unlink(path);
}

/* One marker: is the collector that wrote it gone while its target runs
 * on?  Then turn the perf map off and remove its files. */
static void reclaim_one(pid_t pid, const volatile bool *cancel)
{
	unsigned long long cstart, tstart;
	char path[PATH_MAX];
	struct ep_perfmap pm;
	struct dn_socket s;
	int cpid, n;
	FILE *f;

	marker_path(pid, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return;
	n = fscanf(f, "%d %llu %llu", &cpid, &cstart, &tstart);
	fclose(f);
	if (n != 3 || cpid <= 0) {
		unlink(path);
		return;
	}
	if ((kill(cpid, 0) == 0 || errno == EPERM) && proc_stat_field(cpid, 22) == cstart)
		return;		/* its collector is still tracing */
	if (proc_stat_field(pid, 22) != tstart || dn_find_socket(pid, &s)) {
		unlink(path);	/* the target is gone too */
		return;
	}
	pr_warn("pid %d: its perf map was left on by ebpf-collect pid %d, which died; "
		"turning it off\n", (int)pid, cpid);
	ep_perfmap__init(&pm);
	pm.on = true;
	ep_perfmap__disable(&pm, &s, cancel);
	open_dir(&pm, pid);
	ep_perfmap__remove(&pm, s.nspid);
	unlink(path);
}

void ep_perfmap__reclaim(const volatile bool *cancel)
{
	DIR *d = opendir(EP_PERFMAP_MARKERS);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) && !(cancel && *cancel)) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (pid > 0 && !*end)
			reclaim_one(pid, cancel);
	}
	closedir(d);
}

/* ------------------------------------------------------------ a session */

void ep_perfmap__enable(struct ep_perfmap *pm, const struct dn_socket *s, bool may_send,
			const volatile bool *cancel)
{
	char val[PATH_MAX / 2], path[PATH_MAX];
	uint8_t payload[4] = { DN_PERFMAP_TYPE_PERFMAP, 0, 0, 0 };
	struct dn_wait w = { mono_ms() + DN_EXCHANGE_TIMEOUT_MS, cancel };
	struct stat st;

	if (!proc_env_get(s->pid, EP_PERFMAP_OURS, val, sizeof(val))) {
		/* the command's environment: on from its start, ours to undo */
		if (open_dir(pm, s->pid))
			return;
		marker_write(s->pid);
		pm->on = true;
		pm->pid = s->pid;
		return;
	}
	if (!proc_env_get(s->pid, "DOTNET_PerfMapEnabled", val, sizeof(val)) ||
	    !proc_env_get(s->pid, "COMPlus_PerfMapEnabled", val, sizeof(val)) || !may_send)
		return;
	if (open_dir(pm, s->pid))
		return;
	/* a file an earlier process of the same pid left is not a map the
	 * target has on: the target writes it anew, and it is ours to remove */
	perfmap_name(s->nspid, "perf", path, sizeof(path));
	pm->existed = !fstatat(pm->dirfd, path, &st, 0) && !proc_predates(s->pid, &st);
	marker_write(s->pid);
	pm->on = !dn_command_wait(s->path, DN_SET_PROCESS, DN_PROC_ENABLE_PERFMAP,
					  payload, sizeof(payload), NULL, NULL, NULL, NULL, &w,
					  NULL);
	if (!pm->on)
		marker_remove(s->pid);
	pm->pid = s->pid;
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
	if (pm->on && pm->pid)
		marker_remove(pm->pid);
	pm->on = false;
	if (pm->dirfd >= 0)
		close(pm->dirfd);
	pm->dirfd = -1;
}
