// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mmap_events.c - executable mappings of the targets as the kernel makes
 * them, from perf MMAP2 records (what `perf record` uses to name frames).
 *
 * The symbolizer reads /proc/PID/maps when it first sees a process.  A
 * process that execs and exits before the next read -- a command traced
 * with `-- CMD` that runs for a millisecond, a short child of the target --
 * left nothing to read, and its native frames stayed unnamed.  The kernel
 * reports every PROT_EXEC mapping as it is made, with the file's device,
 * inode and path, so nothing depends on the process still being there when
 * the collector looks; and a target whose threads all report needs no
 * periodic re-read (symbolize__mappings_reported), which was most of the
 * collector's own CPU time while it sampled at 999 Hz.
 *
 * One PERF_COUNT_SW_DUMMY event per CPU and thread of a target (attr.mmap +
 * mmap2: exec mappings only; inherit: the threads and children it creates
 * from then on; sample_id_all with TID|TIME on CLOCK_MONOTONIC, the trace
 * clock).  Per thread, because the kernel reports a mapping to the events
 * of the thread that made it, not of its process.  The
 * events of every target share one ring per CPU (PERF_EVENT_IOC_SET_OUTPUT).
 * The rings are read by the collector's poll loop before records leave the
 * reorder buffer, 30 ms after they were made, so a mapping is known before
 * the first stack that uses it is named.  Nothing here ever waits on a ring:
 * no wakeups are asked for.  A full ring loses records (PERF_RECORD_LOST);
 * they are counted, and the /proc snapshots still cover live processes.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "grow.h"
#include "mmap_events.h"
#include "pipeline.h"
#include "symbolize.h"
#include "symbolizer.h"

#define MM_DATA_PAGES	16	/* per CPU: 64 KiB, some 500 mappings */
#define MM_MAX_FDS	8192	/* threads x CPUs: beyond, /proc snapshots only */

struct mm_ring {
	int fd;				/* -1: no event on this CPU */
	struct perf_event_mmap_page *meta;
	uint8_t *data;
	uint64_t size;			/* data bytes, a power of two */
};

struct mmap_events {
	struct mm_ring *rings;		/* per CPU */
	int ncpu;
	int *fds;			/* every event, redirected ones too */
	size_t n_fds, cap_fds;
	uint64_t lost;
	bool lost_told;			/* symbolize__mapping_reports_lost called */
	uint8_t *tmp;			/* a record that wraps around the ring */
	size_t tmp_cap;
};

/* PERF_RECORD_MMAP2 up to the file name (attr.build_id unset: dev + inode) */
struct mm_mmap2 {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	char filename[];
};

/* sample_id_all trailer for PERF_SAMPLE_TID | PERF_SAMPLE_TIME */
struct mm_sample_id {
	uint32_t pid, tid;
	uint64_t time;
};

struct mmap_events *mmap_events__new(void)
{
	struct mmap_events *me = calloc(1, sizeof(*me));
	long n = sysconf(_SC_NPROCESSORS_CONF);
	int i;

	if (!me)
		return NULL;
	me->ncpu = n > 0 ? (int)n : 1;
	me->rings = calloc(me->ncpu, sizeof(*me->rings));
	if (!me->rings) {
		free(me);
		errno = ENOMEM;
		return NULL;
	}
	for (i = 0; i < me->ncpu; i++)
		me->rings[i].fd = -1;
	return me;
}

static int mm_open(pid_t pid, int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		.mmap = 1,
		.mmap2 = 1,
		.inherit = 1,
		.sample_id_all = 1,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};

	return syscall(SYS_perf_event_open, &attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int mm_ring_map(struct mm_ring *r, int fd)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (1 + MM_DATA_PAGES) * page, PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, 0);

	if (p == MAP_FAILED)
		return -errno;
	r->fd = fd;
	r->meta = p;
	r->data = (uint8_t *)p + page;
	r->size = (uint64_t)MM_DATA_PAGES * page;
	return 0;
}

static int mm_keep_fd(struct mmap_events *me, int fd)
{
	if (GROW(me->fds, me->cap_fds, me->n_fds + 1))
		return -ENOMEM;
	me->fds[me->n_fds++] = fd;
	return 0;
}

/* The events of one thread, one per CPU; 0 when any CPU took one. */
static int mm_add_tid(struct mmap_events *me, pid_t tid)
{
	int cpu, fd, opened = 0, err = -ENODEV;

	for (cpu = 0; cpu < me->ncpu; cpu++) {
		struct mm_ring *r = &me->rings[cpu];

		if (me->n_fds >= MM_MAX_FDS)
			return opened ? 0 : -EMFILE;
		fd = mm_open(tid, cpu);
		if (fd < 0) {
			err = -errno;	/* an offline CPU: ENODEV; a dead pid: ESRCH */
			continue;
		}
		if (mm_keep_fd(me, fd)) {
			close(fd);
			return -ENOMEM;
		}
		if (r->fd < 0)
			err = mm_ring_map(r, fd);
		else
			err = ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd) ? -errno : 0;
		if (err)
			return err;
		opened++;
	}
	return opened ? 0 : err;
}

int mmap_events__add_pid(struct mmap_events *me, pid_t pid)
{
	char path[64];
	struct dirent *d;
	bool partial;
	DIR *dir;
	int err;

	err = mm_add_tid(me, pid);	/* the main thread first: a dead pid says so */
	if (err)
		return err;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	partial = !dir;
	while (dir && (d = readdir(dir))) {
		pid_t tid = (pid_t)strtol(d->d_name, NULL, 10);

		if (tid <= 0 || tid == pid)
			continue;
		err = mm_add_tid(me, tid);
		if (err && err != -ESRCH)	/* a thread that exited maps nothing */
			partial = true;
		if (err == -ENOMEM || err == -EMFILE)
			break;
	}
	if (dir)
		closedir(dir);
	if (err == -ENOMEM)
		return err;
	return partial ? 1 : 0;
}

/* One record at ring offset off into a contiguous buffer (copied when it
 * wraps).  NULL when out of memory. */
static const uint8_t *mm_record(struct mmap_events *me, const struct mm_ring *r, uint64_t off,
				uint16_t size)
{
	uint64_t at = off & (r->size - 1);

	if (at + size <= r->size)
		return r->data + at;
	if (me->tmp_cap < size) {
		uint8_t *t = realloc(me->tmp, size);

		if (!t)
			return NULL;
		me->tmp = t;
		me->tmp_cap = size;
	}
	memcpy(me->tmp, r->data + at, r->size - at);
	memcpy(me->tmp + (r->size - at), r->data, size - (r->size - at));
	return me->tmp;
}

/* Called for every executable mapping, in the order the kernel reported
 * them per CPU; m->path points into a buffer valid during the call.
 * A non-zero return stops read_mappings and is returned by it. */
typedef int (*mmap_events_fn)(void *ctx, pid_t pid, uint64_t ts, const struct proc_map *m);

static int mm_handle(struct mmap_events *me, const uint8_t *rec, mmap_events_fn fn, void *ctx,
		     long *n)
{
	const struct perf_event_header *h = (const void *)rec;
	const struct mm_sample_id *sid;
	const struct mm_mmap2 *m2;
	struct proc_map m;
	size_t name_max;

	if (h->type == PERF_RECORD_LOST && h->size >= sizeof(*h) + 16) {
		uint64_t lost;

		memcpy(&lost, rec + sizeof(*h) + 8, 8);
		me->lost += lost;
		return 0;
	}
	if (h->type != PERF_RECORD_MMAP2 || h->size < sizeof(*m2) + sizeof(*sid) + 1)
		return 0;
	m2 = (const void *)rec;
	sid = (const void *)(rec + h->size - sizeof(*sid));
	name_max = h->size - sizeof(*sid) - sizeof(*m2);
	if (!memchr(m2->filename, 0, name_max))
		return 0;	/* malformed: no NUL inside the record */
	/* The kernel copies the name of a mapping without a file
	 * ([uprobes-trampoline], [vdso]) through a 16-byte buffer: one cut
	 * short has no closing bracket.  /proc/PID/maps has it whole, and the
	 * symbolizer reads that on its first miss in the mapping. */
	if (m2->filename[0] == '[' && !strchr(m2->filename, ']'))
		return 0;
	memset(&m, 0, sizeof(m));
	m.start = m2->addr;
	m.end = m2->addr + m2->len;
	m.offset = m2->pgoff;
	m.dev_major = m2->maj;
	m.dev_minor = m2->min;
	m.ino = m2->ino;
	m.prot = m2->prot;
	m.path = (char *)m2->filename;
	m.dso = -1;
	(*n)++;
	return fn(ctx, (pid_t)m2->pid, sid->time, &m);
}

/* Read what the kernel reported since the last call.  Returns the number of
 * mappings passed to fn, or fn's non-zero return. */
static long read_mappings(struct mmap_events *me, mmap_events_fn fn, void *ctx)
{
	long n = 0;
	int cpu, err;

	for (cpu = 0; me && cpu < me->ncpu; cpu++) {
		struct mm_ring *r = &me->rings[cpu];
		uint64_t head, tail;

		if (r->fd < 0)
			continue;
		head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
		tail = r->meta->data_tail;
		while (tail < head) {
			struct perf_event_header hh;
			const uint8_t *rec;

			/* records are 8-byte aligned: a header never wraps */
			rec = mm_record(me, r, tail, sizeof(hh));
			if (!rec)
				return -ENOMEM;
			memcpy(&hh, rec, sizeof(hh));
			if (hh.size < sizeof(hh) || tail + hh.size > head)
				break;	/* cannot happen; never loop on it */
			rec = mm_record(me, r, tail, hh.size);
			if (!rec)
				return -ENOMEM;
			err = mm_handle(me, rec, fn, ctx, &n);
			tail += hh.size;
			if (err) {
				__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
				return err;
			}
		}
		__atomic_store_n(&r->meta->data_tail, head, __ATOMIC_RELEASE);
	}
	return n;
}

uint64_t mmap_events__lost(const struct mmap_events *me)
{
	return me ? me->lost : 0;
}

void mmap_events__free(struct mmap_events *me)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t i;
	int cpu;

	if (!me)
		return;
	for (cpu = 0; cpu < me->ncpu; cpu++)
		if (me->rings[cpu].fd >= 0)
			munmap(me->rings[cpu].meta, (1 + MM_DATA_PAGES) * page);
	for (i = 0; i < me->n_fds; i++)
		close(me->fds[i]);
	free(me->fds);
	free(me->rings);
	free(me->tmp);
	free(me);
}

/* A mapping the kernel reported: known to the symbolizer before the
 * records leave the reorder buffer. */
static int on_mapping(void *ctx, pid_t pid, uint64_t ts, const struct proc_map *m)
{
	(void)ts;
	return symbolizer__add_mapping(symbolize__symbolizer(ctx), pid, m) == -ENOMEM ?
	       -ENOMEM : 0;
}

int mmap_events__drain(struct mmap_events *me, struct symbolize *sz)
{
	if (read_mappings(me, on_mapping, sz) < 0)
		return -ENOMEM;
	if (me && me->lost && !me->lost_told) {	/* snapshots cover the rest */
		symbolize__mapping_reports_lost(sz);
		me->lost_told = true;
	}
	return 0;
}

static int pipeline_poll(void *ctx, struct pipeline *p)
{
	return mmap_events__drain(ctx, p->sym);
}

const struct pipeline_source_ops mmap_events_source_ops = {
	.poll = pipeline_poll,
};
