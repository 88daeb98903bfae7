// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * metrics_self.c - the collector's own process in --metrics
 * (metrics_self.h), read from /proc at each render (every 0.5 s).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include "proc_stat.h"
#include "metrics_agg.h"
#include "metrics_self.h"

#ifndef EBPF_COLLECT_VERSION
#define EBPF_COLLECT_VERSION "unknown"
#endif

/* proc(5) fields of /proc/PID/stat */
enum { UTIME = 14, STIME = 15, CUTIME = 16, CSTIME = 17, STARTTIME = 22, VSIZE = 23, RSS = 24 };

static unsigned long long count_fds(pid_t pid)
{
	char path[64];
	unsigned long long n = 0;
	struct dirent *e;
	struct stat st;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	/* Linux 6.2+ gives the count as the directory's size; reading the
	 * directory costs the kernel a dentry per descriptor, thousands under
	 * --all (a mapping event per thread and CPU), at every render */
	if (!stat(path, &st) && st.st_size > 0)
		return (unsigned long long)st.st_size;
	d = opendir(path);
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d) {
		closedir(d);
		n--;	/* the directory's own descriptor */
	}
	return n;
}

/* Seconds since the epoch at which the system booted (/proc/stat btime). */
static unsigned long long boot_time(void)
{
	unsigned long long t = 0;
	char line[256];
	FILE *f = fopen("/proc/stat", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "btime %llu", &t) == 1)
			break;
	if (f)
		fclose(f);
	return t;
}

static void family(struct mbuf *b, const char *name, const char *type, const char *help)
{
	mbuf__printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

void metrics_self__render(struct mbuf *b, pid_t child)
{
	static double cpu_max;	/* a child between its end and its reaping is in neither */
	pid_t self = getpid();
	double tck = (double)sysconf(_SC_CLK_TCK), page = (double)sysconf(_SC_PAGESIZE), cpu;
	uint64_t ticks = proc_stat_field(self, UTIME) + proc_stat_field(self, STIME) +
			 proc_stat_field(self, CUTIME) + proc_stat_field(self, CSTIME);
	uint64_t vsize = proc_stat_field(self, VSIZE), rss = proc_stat_field(self, RSS);
	unsigned long long fds = count_fds(self);
	struct rlimit rl = { 0 };

	if (child > 0) {
		ticks += proc_stat_field(child, UTIME) + proc_stat_field(child, STIME);
		vsize += proc_stat_field(child, VSIZE);
		rss += proc_stat_field(child, RSS);
		fds += count_fds(child);
	}
	cpu = ticks / tck;
	if (cpu < cpu_max)
		cpu = cpu_max;
	cpu_max = cpu;
	getrlimit(RLIMIT_NOFILE, &rl);
	family(b, "ebpf_collect_build_info", "gauge",
	       "The collector's version, as a label; the value is 1.");
	mbuf__printf(b, "ebpf_collect_build_info{version=\"");
	mbuf__label(b, EBPF_COLLECT_VERSION);
	mbuf__printf(b, "\"} 1\n");
	family(b, "process_cpu_seconds_total", "counter", "CPU time of the collector, user and system, in seconds.");
	mbuf__printf(b, "process_cpu_seconds_total %.2f\n", cpu);
	family(b, "process_resident_memory_bytes", "gauge", "The collector's resident memory in bytes.");
	mbuf__printf(b, "process_resident_memory_bytes %.0f\n", rss * page);
	family(b, "process_virtual_memory_bytes", "gauge", "The collector's virtual memory in bytes.");
	mbuf__printf(b, "process_virtual_memory_bytes %llu\n", (unsigned long long)vsize);
	family(b, "process_open_fds", "gauge", "File descriptors the collector has open.");
	mbuf__printf(b, "process_open_fds %llu\n", fds);
	family(b, "process_max_fds", "gauge", "The collector's limit of open file descriptors.");
	mbuf__printf(b, "process_max_fds %llu\n", (unsigned long long)rl.rlim_cur);
	family(b, "process_start_time_seconds", "gauge",
	       "When the collector started, in seconds since the Unix epoch.");
	mbuf__printf(b, "process_start_time_seconds %.2f\n",
		     boot_time() + proc_stat_field(self, STARTTIME) / tck);
}
