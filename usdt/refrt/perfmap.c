// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * perfmap.c - /tmp/perf-PID.map, /tmp/perfinfo-PID.map and the jitdump,
 * with CoreCLR's switches:
 *
 *	DOTNET_PerfMapEnabled   0 off (default), 1 perf map + perfinfo + jitdump,
 *	                        2 jitdump only, 3 perf map + perfinfo only
 *	DOTNET_PerfMapJitDumpPath          directory (default /tmp)
 *	DOTNET_PerfMapShowOptimizationTiers 1: append "[QuickJitted]" etc.
 *
 * (COMPlus_ prefixes work too; main.c reads them.)  Perf map lines are
 * "%016lX %x name\n" -- CoreCLR's %p (upper case, 16 digits) for the start,
 * lower-case hex size, then the name, which contains spaces -- appended as
 * each method is compiled, before its code can run, with one write(2) per
 * line so a reader never sees a line half-written by us.  perfinfo has one
 * "ImageLoad;path;{mvid};base;" line per loaded assembly (base 0: nothing
 * here is ReadyToRun).  The jitdump follows perf's jitdump specification:
 * a header, then a CODE_LOAD record (name + code bytes) per method, and the
 * file is mmap'ed PROT_EXEC once so `perf record` sees the marker mapping
 * that `perf inject --jit` looks for.  Timestamps are CLOCK_MONOTONIC.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "refrt.h"

static struct refrt *rt;	/* the runtime, from this part's init */

#define JITDUMP_MAGIC 0x4A695444
#define JIT_CODE_LOAD 0
#define JIT_CODE_CLOSE 3

static int map_fd = -1, info_fd = -1, dump_fd = -1;
static void *dump_marker;
static char map_path[300], info_path[300], dump_path[300];
static uint64_t code_index;
static uint64_t map_lines;

static int open_out(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

static void write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= (size_t)n;
	}
}

static int jitdump_open(void)
{
	struct {
		uint32_t magic, version, total_size, elf_mach, pad1, pid;
		uint64_t timestamp, flags;
	} hdr = { JITDUMP_MAGIC, 1, sizeof(hdr), 62 /* EM_X86_64 */, 0, (uint32_t)getpid(),
		  mono_ns(), 0 };

	_Static_assert(sizeof(hdr) == 40, "jitdump header is 40 bytes");
	snprintf(dump_path, sizeof(dump_path), "%s/jit-%d.dump", rt->env.perfmap_dir, getpid());
	dump_fd = open(dump_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (dump_fd < 0)
		return -errno;
	write_all(dump_fd, &hdr, sizeof(hdr));
	/* the marker perf inject looks for: an executable mapping of the file */
	dump_marker = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_EXEC,
			   MAP_PRIVATE, dump_fd, 0);
	if (dump_marker == MAP_FAILED)
		dump_marker = NULL;
	return 0;
}

int perfmap__init(struct refrt *r)
{
	int mode = r->env.perfmap_mode, err = 0;

	rt = r;
	if (mode == 1 || mode == 3) {
		snprintf(map_path, sizeof(map_path), "%s/perf-%d.map", rt->env.perfmap_dir, getpid());
		snprintf(info_path, sizeof(info_path), "%s/perfinfo-%d.map", rt->env.perfmap_dir,
			 getpid());
		map_fd = open_out(map_path);
		if (map_fd < 0) {
			err = -errno;
			pr_warn("perf map: cannot create %s: %s\n", map_path, strerror(errno));
			return err;
		}
		info_fd = open_out(info_path);
		if (info_fd < 0) {
			err = -errno;
			pr_warn("perf map: cannot create %s: %s\n", info_path, strerror(errno));
			return err;
		}
	}
	if (mode == 1 || mode == 2) {
		err = jitdump_open();
		if (err)
			pr_warn("jitdump: cannot create %s: %s\n", dump_path, strerror(-err));
	}
	return err;
}

static void jitdump_code(const struct rt_code *c)
{
	size_t name_len = strlen(c->perfmap_name) + 1;
	struct {
		uint32_t id, total_size;
		uint64_t timestamp;
		uint32_t pid, tid;
		uint64_t vma, code_addr, code_size, code_index;
	} rec = {
		JIT_CODE_LOAD, 0, mono_ns(), (uint32_t)getpid(), (uint32_t)syscall(SYS_gettid),
		(uint64_t)(uintptr_t)c->start, (uint64_t)(uintptr_t)c->start, c->size,
		++code_index,
	};

	rec.total_size = (uint32_t)(sizeof(rec) + name_len + c->size);
	write_all(dump_fd, &rec, sizeof(rec));
	write_all(dump_fd, c->perfmap_name, name_len);
	write_all(dump_fd, c->start, c->size);
}

void perfmap__log_code(const struct rt_code *c)
{
	if (map_fd >= 0) {
		char line[512];
		int n = snprintf(line, sizeof(line), "%016lX %x %s\n", (unsigned long)c->start,
				 c->size, c->perfmap_name);

		if (n > 0)
			write_all(map_fd, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
		map_lines++;
	}
	if (dump_fd >= 0)
		jitdump_code(c);
}

void perfmap__log_image(const struct rt_assembly *a)
{
	char line[512];
	const uint8_t *g = a->mvid;
	int n;

	if (info_fd < 0)
		return;
	/* GUID text: Data1..3 are little-endian integers, Data4 bytes as is */
	n = snprintf(line, sizeof(line),
		     "ImageLoad;%s;{%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		     "%02x%02x%02x%02x%02x%02x};%016lX;\n",
		     a->path, g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6], g[8], g[9], g[10],
		     g[11], g[12], g[13], g[14], g[15], 0ul);
	if (n > 0)
		write_all(info_fd, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

void perfmap__close(void)
{
	if (dump_fd >= 0) {
		struct { uint32_t id, total_size; uint64_t timestamp; } rec = {
			JIT_CODE_CLOSE, 16, mono_ns(),
		};

		write_all(dump_fd, &rec, sizeof(rec));
		if (dump_marker)
			munmap(dump_marker, (size_t)sysconf(_SC_PAGESIZE));
		close(dump_fd);
		dump_fd = -1;
	}
	if (map_fd >= 0)
		close(map_fd);
	if (info_fd >= 0)
		close(info_fd);
	map_fd = info_fd = -1;
}

static void path_or_null(FILE *f, const char *key, const char *path, bool on)
{
	fprintf(f, "\"%s\": ", key);
	if (on)
		json_str(f, path);
	else
		fprintf(f, "null");
}

void perfmap__summary(FILE *f)
{
	int m = rt->env.perfmap_mode;

	fprintf(f, "  \"perfmap\": {\"mode\": %d, ", m);
	path_or_null(f, "perf_map", map_path, m == 1 || m == 3);
	fprintf(f, ", ");
	path_or_null(f, "perfinfo", info_path, m == 1 || m == 3);
	fprintf(f, ", ");
	path_or_null(f, "jitdump", dump_path, m == 1 || m == 2);
	fprintf(f, ", \"show_tiers\": %s, \"lines\": %llu},\n", rt->env.perfmap_tiers ? "true" : "false",
		(unsigned long long)map_lines);
}
