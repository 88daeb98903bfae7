// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * eh_procs.c - --call-graph eh's tables, from the files a process maps to
 * the BPF maps its samples are walked by.
 *
 * Files.  A file's table (eh_table.c) is built the first time a process
 * maps it and kept for the collector's life under its GNU build id (device
 * and inode when it has none), so every process that maps libc shares one
 * run of rows, whatever path it sees the file by.  Tables are built by
 * eh_builder.c's thread, never on this one, which reads the ring buffer:
 * a new file is queued with its ELF object (targets' files first, then by
 * the samples of the processes waiting for it), and eh_procs__poll takes
 * the finished tables.  The runs are appended to one array map, eh_rows,
 * written through mmap (on this thread only, as every map here): the walker
 * reads a row with one array lookup, and nothing is ever moved under it.
 * A file whose table does not fit any more is left without one (counted,
 * told once): its frames take the frame-pointer step.
 *
 * Processes.  A process has a slot of EH_MAX_MAPPINGS entries in the
 * eh_maps array (written through mmap too): its executable file mappings
 * sorted by start, each with its load bias and its file's run; anonymous
 * executable memory (JIT code) has no entry, so the walker's search misses
 * and takes the frame-pointer step, which JIT code keeps.  Its eh_procs
 * value names the slot and the count.  Both are written when the process
 * becomes a target and again when its mappings change (a fingerprint of
 * the symbolizer's view of them), so a library loaded later gets its table
 * before long.  An entry whose file is still being built says so
 * (EH_FIRST_BUILDING); when the table comes, every slot's entries of that
 * file are given its run (the file of each entry is kept beside the slots).  BPF copies a parent's value to a forked child (the same
 * slot, until the child's first sample here gives it its own) and drops a
 * value at exec and exit.  Slots of processes that have exited are taken
 * back when none is free.  A slot is rewritten in place while the walker
 * may read it: a sample in that moment may have one wrong frame.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <elfutils/libdwelf.h>
#include "clock.h"
#include "eh_builder.h"
#include "eh_procs.h"
#include "eh_table.h"
#include "elf_file.h"
#include "grow.h"
#include "proc_maps.h"
#include "u64_map.h"

#define LOG_PREFIX "eh-unwind: "
#include "log.h"

_Static_assert(sizeof(struct eh_row) == 16, "eh_row layout (bpf/eh_unwind.h)");
_Static_assert(sizeof(struct eh_mapping) == 32, "eh_mapping layout");
_Static_assert(sizeof(struct eh_proc) == 8, "eh_proc layout");

enum eh_file_state { EH_FILE_BUILDING, EH_FILE_READY, EH_FILE_NONE };

struct eh_file {
	char key[96];		/* "b:" build id, or "i:" device and inode */
	char *path;		/* as the first process that mapped it saw it */
	uint32_t first, count;	/* count 0: no table */
	enum eh_file_state state;
};

#define EH_TARGET_PRIO	(1ULL << 40)	/* a target's files before any other */

/* A target that has just exec'ed: its dynamic loader maps its libraries in
 * the next milliseconds, and a runtime's host dlopens more (dotnet:
 * libhostfxr, libcoreclr, libclrjit), so its mappings are read again at
 * every poll for EH_FRESH_NS, not only when a sample of it has passed the
 * reorder window. */
#define EH_FRESH_NS	1000000000ULL

struct fresh {
	pid_t pid;
	uint64_t until;
	uint64_t fp;	/* of the mappings read at the last poll */
};

struct eh_procs {
	struct bpf_map *procs;
	struct eh_mapping *maps;	/* the mmap'ed eh_maps */
	size_t maps_bytes;
	pid_t slot_pid[EH_MAX_PROCS];	/* 0: free */
	uint32_t slot_n[EH_MAX_PROCS];	/* entries written in each slot */
	uint32_t slot_building[EH_MAX_PROCS];	/* ... whose file is being built */
	uint32_t *entry_file;	/* file index + 1 of every eh_maps entry */
	struct eh_builder *builder;
	struct u64_map targets;	/* pids loaded as targets */
	struct u64_map slots;		/* pid -> its slot + 1 */
	struct eh_row *rows;	/* the mmap'ed eh_rows */
	size_t rows_bytes;
	uint32_t rows_max, rows_used;
	struct eh_file *files;
	size_t n_files, cap_files;
	struct u64_map loaded;	/* pid -> fingerprint of the mappings loaded */
	pid_t *pending;		/* targets that ran our program: load after the exec */
	size_t n_pending, cap_pending;
	struct fresh *fresh;	/* ... and have exec'ed lately */
	size_t n_fresh, cap_fresh;
	uint64_t consumer_ns, loads, truncated, no_table, full, no_slot;
};

/* An mmap'able array map, whole; NULL and errno on failure. */
static void *map_array(struct bpf_map *map, size_t elem, size_t *bytes)
{
	void *p;

	*bytes = ((size_t)bpf_map__max_entries(map) * elem + 4095) & ~4095UL;
	p = mmap(NULL, *bytes, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(map), 0);
	if (p != MAP_FAILED)
		return p;
	pr_warn("cannot map %s (%u entries): %s\n", bpf_map__name(map),
		bpf_map__max_entries(map), strerror(errno));
	return NULL;
}

struct eh_procs *eh_procs__new(struct bpf_map *rows, struct bpf_map *maps,
			       struct bpf_map *procs)
{
	struct eh_procs *ep = calloc(1, sizeof(*ep));
	int err;

	if (!ep)
		return NULL;
	ep->procs = procs;
	ep->rows_max = bpf_map__max_entries(rows);
	if (bpf_map__max_entries(maps) < EH_MAX_PROCS * EH_MAX_MAPPINGS) {
		pr_warn("eh_maps holds %u mappings, not %u\n", bpf_map__max_entries(maps),
			EH_MAX_PROCS * EH_MAX_MAPPINGS);
		free(ep);
		errno = EINVAL;
		return NULL;
	}
	ep->rows = map_array(rows, sizeof(struct eh_row), &ep->rows_bytes);
	ep->maps = ep->rows ? map_array(maps, sizeof(struct eh_mapping), &ep->maps_bytes) : NULL;
	ep->entry_file = ep->maps ? calloc((size_t)EH_MAX_PROCS * EH_MAX_MAPPINGS,
					   sizeof(*ep->entry_file)) : NULL;
	ep->builder = ep->entry_file ? eh_builder__new() : NULL;
	if (!ep->builder) {
		err = errno;
		eh_procs__free(ep);
		errno = err;
		return NULL;
	}
	return ep;
}

void eh_procs__free(struct eh_procs *ep)
{
	size_t i;

	if (!ep)
		return;
	eh_builder__free(ep->builder);	/* first: it stops its thread */
	for (i = 0; i < ep->n_files; i++)
		free(ep->files[i].path);
	free(ep->entry_file);
	u64_map__free(&ep->targets);
	if (ep->rows)
		munmap(ep->rows, ep->rows_bytes);
	if (ep->maps)
		munmap(ep->maps, ep->maps_bytes);
	free(ep->files);
	free(ep->pending);
	free(ep->fresh);
	u64_map__free(&ep->loaded);
	u64_map__free(&ep->slots);
	free(ep);
}

/* The identity of the file of m opened as elf. */
static void file_key(Elf *elf, const struct proc_map *m, char *key, size_t len)
{
	const void *id;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &id);
	size_t i, o;

	if (n <= 0) {
		snprintf(key, len, "i:%u:%u:%llu", m->dev_major, m->dev_minor,
			 (unsigned long long)m->ino);
		return;
	}
	o = (size_t)snprintf(key, len, "b:");
	for (i = 0; i < (size_t)n && o + 3 <= len; i++, o += 2)
		snprintf(key + o, len - o, "%02x", ((const uint8_t *)id)[i]);
}

/*
 * The index of the file of key, queued for its build with ef (which the
 * builder then owns) when new, its build's priority raised by prio when
 * still queued; -ENOMEM.
 */
static int file_get(struct eh_procs *ep, struct elf_file *ef, const char *key,
		    const char *path, uint64_t prio)
{
	struct eh_file *f;
	size_t i;

	for (i = 0; i < ep->n_files; i++)
		if (!strcmp(ep->files[i].key, key)) {
			if (ep->files[i].state == EH_FILE_BUILDING)
				eh_builder__raise(ep->builder, (uint32_t)i, prio);
			return (int)i;
		}
	if (GROW(ep->files, ep->cap_files, ep->n_files + 1))
		return -ENOMEM;
	f = &ep->files[ep->n_files];
	memset(f, 0, sizeof(*f));
	snprintf(f->key, sizeof(f->key), "%s", key);
	f->path = strdup(path);
	if (!f->path || eh_builder__add(ep->builder, (uint32_t)ep->n_files, ef, prio)) {
		free(f->path);
		return -ENOMEM;
	}
	f->state = EH_FILE_BUILDING;
	return (int)ep->n_files++;
}

/* A file's finished build into eh_rows, or the reason it has none. */
static void file_install(struct eh_procs *ep, struct eh_built *b)
{
	struct eh_file *f = &ep->files[b->file];

	f->state = EH_FILE_NONE;
	if (b->err) {
		pr_debug("%s: no unwind table: %s\n", f->path, strerror(-b->err));
		ep->no_table++;
	} else if (b->t.n > ep->rows_max - ep->rows_used) {
		if (!ep->full++)
			pr_warn("%s: its %u unwind rows do not fit (%u of %u used): its frames "
				"are walked by frame pointers, as are those of any other file "
				"that does not fit\n", f->path, b->t.n, ep->rows_used, ep->rows_max);
	} else {
		memcpy(ep->rows + ep->rows_used, b->t.rows, b->t.n * sizeof(*b->t.rows));
		f->first = ep->rows_used;
		f->count = b->t.n;
		f->state = EH_FILE_READY;
		ep->rows_used += b->t.n;
		pr_debug("%s: %u unwind rows\n", f->path, b->t.n);
	}
	eh_table__free(&b->t);
}

/* Every slot's entries of file i get its run (count 0: none, not building). */
static void file_publish(struct eh_procs *ep, uint32_t i)
{
	const struct eh_file *f = &ep->files[i];
	uint32_t s, j;

	for (s = 0; s < EH_MAX_PROCS; s++) {
		struct eh_mapping *m = ep->maps + (size_t)s * EH_MAX_MAPPINGS;
		const uint32_t *ef = ep->entry_file + (size_t)s * EH_MAX_MAPPINGS;

		if (!ep->slot_building[s])
			continue;
		for (j = 0; j < ep->slot_n[s]; j++) {
			if (ef[j] != i + 1)
				continue;
			/* the walker reads count 0 as no rows until first is in */
			m[j].first = f->first;
			__atomic_store_n(&m[j].count, f->count, __ATOMIC_RELEASE);
			ep->slot_building[s]--;
		}
	}
}

/* m's entry (count 0 when its file has no table yet or none); *file: the
 * index of its file.  0, -ENOENT (no file to read) or -ENOMEM. */
static int map_entry(struct eh_procs *ep, pid_t pid, const struct proc_map *m, uint64_t prio,
		     struct eh_mapping *out, int *file)
{
	const struct eh_file *f;
	struct elf_file ef;
	char path[4096], key[96];
	uint64_t bias = 0;
	int err;

	if (proc_map__open_path(pid, m, path, sizeof(path)) || elf_file__open(&ef, path))
		return -ENOENT;
	err = proc_map__elf_bias(ef.elf, m, &bias);
	out->bias = bias;
	if (!err) {
		file_key(ef.elf, m, key, sizeof(key));
		*file = file_get(ep, &ef, key, m->path, prio);
		if (*file < 0) {
			err = *file;
		} else {
			f = &ep->files[*file];
			out->first = f->state == EH_FILE_BUILDING ? EH_FIRST_BUILDING : f->first;
			out->count = f->count;
		}
	}
	elf_file__close(&ef);	/* nothing when the builder took it */
	out->start = m->start;
	out->end = m->end;
	return err;
}

/* pid's slot, a free one or one of a process gone; -ENOSPC when none. */
static int slot_of(struct eh_procs *ep, pid_t pid, uint32_t *slot)
{
	struct u64_map_ent *e;
	uint32_t i;
	int pass;

	e = u64_map__find(&ep->slots, (uint64_t)pid);
	if (e && e->val) {
		*slot = (uint32_t)e->val - 1;
		return 0;
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < EH_MAX_PROCS; i++) {
			pid_t old = ep->slot_pid[i];

			if (old && (!pass || !proc__exited(old)))
				continue;
			if (old && (e = u64_map__find(&ep->slots, (uint64_t)old)))
				e->val = 0;
			if (u64_map__get(&ep->slots, (uint64_t)pid, &e))
				return -ENOMEM;
			e->val = i + 1;
			ep->slot_pid[i] = pid;
			*slot = i;
			return 0;
		}
	}
	return -ENOSPC;
}

static int load_maps(struct eh_procs *ep, pid_t pid, const struct proc_maps *pm, uint64_t prio)
{
	struct eh_proc v = {};
	struct eh_mapping *slot;
	uint32_t *files;
	__u32 key = (__u32)pid;
	size_t i;
	int err;

	err = slot_of(ep, pid, &v.slot);
	if (err) {
		ep->no_slot++;
		return err == -ENOSPC ? 0 : err;	/* its frames: frame pointers */
	}
	slot = ep->maps + (size_t)v.slot * EH_MAX_MAPPINGS;
	files = ep->entry_file + (size_t)v.slot * EH_MAX_MAPPINGS;
	ep->slot_n[v.slot] = 0;	/* no publishing into it while it is rewritten */
	ep->slot_building[v.slot] = 0;
	for (i = 0; i < pm->n; i++) {
		const struct proc_map *m = &pm->maps[i];
		struct eh_mapping em = {};
		int file = -1;

		if (proc_map__is_anon(m) || !(m->prot & PROT_EXEC))
			continue;
		if (v.n == EH_MAX_MAPPINGS) {
			ep->truncated++;
			break;
		}
		err = map_entry(ep, pid, m, prio, &em, &file);
		if (err == -ENOMEM)
			return err;
		if (err)
			continue;
		ep->slot_building[v.slot] += em.first == EH_FIRST_BUILDING && !em.count;
		files[v.n] = (uint32_t)file + 1;
		slot[v.n++] = em;
	}
	ep->slot_n[v.slot] = v.n;
	ep->loads++;
	return bpf_map__update_elem(ep->procs, &key, sizeof(key), &v, sizeof(v), BPF_ANY);
}

/* Whether pid runs our own program: the collector's child for -- CMD
 * before its exec, whose mappings are ours, not the command's. */
static bool runs_our_image(pid_t pid)
{
	struct stat a, b;
	char link[64];

	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	return !stat(link, &a) && !stat("/proc/self/exe", &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* Files whose tables are being built. */
static size_t building(const struct eh_procs *ep)
{
	size_t i, n = 0;

	for (i = 0; i < ep->n_files; i++)
		n += ep->files[i].state == EH_FILE_BUILDING;
	return n;
}

/* The builder's finished tables into eh_rows and the slots. */
static void take_built(struct eh_procs *ep)
{
	struct eh_built b[16];
	size_t i, n;

	do {
		n = eh_builder__take(ep->builder, b, 16);
		for (i = 0; i < n; i++) {
			file_install(ep, &b[i]);
			file_publish(ep, b[i].file);
		}
	} while (n == 16);
}

/* A sample of pid, whose tables are loaded: the files it waits for move up
 * the builder's queue (the files with the most samples come first). */
static void raise_waiting(struct eh_procs *ep, pid_t pid)
{
	const struct u64_map_ent *e = u64_map__find(&ep->slots, (uint64_t)pid);
	const struct eh_mapping *m;
	const uint32_t *files;
	uint32_t s, j;

	if (!e || !e->val || !ep->slot_building[s = (uint32_t)e->val - 1])
		return;
	m = ep->maps + (size_t)s * EH_MAX_MAPPINGS;
	files = ep->entry_file + (size_t)s * EH_MAX_MAPPINGS;
	for (j = 0; j < ep->slot_n[s]; j++)
		if (!m[j].count && m[j].first == EH_FIRST_BUILDING)
			eh_builder__raise(ep->builder, files[j] - 1, 1);
}

/* pm NULL: read pid's mappings now, and pid is a target unless any. */
static int load(struct eh_procs *ep, pid_t pid, const struct proc_maps *pm, bool any)
{
	struct proc_maps own = {};
	struct u64_map_ent *e;
	uint64_t fp, prio = 1;
	int err;

	if (!pm) {
		if (runs_our_image(pid)) {	/* eh_procs__poll, after the exec */
			if (any)
				return 0;	/* the collector itself */
			if (GROW(ep->pending, ep->cap_pending, ep->n_pending + 1))
				return -ENOMEM;
			ep->pending[ep->n_pending++] = pid;
			return 0;
		}
		if (!any && u64_map__get(&ep->targets, (uint64_t)pid, &e))
			return -ENOMEM;
		err = proc_maps__snapshot(&own, pid, 1);
		if (err <= 0) {	/* gone, or a kernel thread: no slot */
			proc_maps__clear(&own);
			return err;
		}
		pm = &own;
	}
	if (u64_map__find(&ep->targets, (uint64_t)pid))
		prio += EH_TARGET_PRIO;
	fp = proc_maps__fingerprint(pm);
	err = u64_map__get(&ep->loaded, (uint64_t)pid, &e);
	if (!err && e->val == fp) {
		raise_waiting(ep, pid);
	} else if (!err) {
		err = load_maps(ep, pid, pm, prio);
		if (!err)
			e->val = fp;
		else
			pr_warn("pid %d: cannot load its unwind tables into eh_procs: %s\n",
				(int)pid, strerror(-err));
	}
	proc_maps__clear(&own);
	return err;
}

int eh_procs__load(struct eh_procs *ep, pid_t pid, const struct proc_maps *pm)
{
	uint64_t t0 = mono_ns();
	int err;

	/* between two polls the consumer may read records for long (a new
	 * process's symbols): finished tables go in with the samples too */
	take_built(ep);
	err = load(ep, pid, pm, false);

	ep->consumer_ns += mono_ns() - t0;
	return err;
}

int eh_procs__load_all(struct eh_procs *ep)
{
	uint64_t t0 = mono_ns();
	struct dirent *d;
	DIR *dir;
	int err = 0;

	dir = opendir("/proc");
	if (!dir)
		return -errno;
	while (!err && (d = readdir(dir))) {
		char *end;
		long pid = strtol(d->d_name, &end, 10);

		if (*end || pid <= 0 || pid == getpid())
			continue;
		err = load(ep, (pid_t)pid, NULL, true);
		if (err != -ENOMEM)
			err = 0;	/* gone meanwhile, or not readable: its samples load it */
	}
	closedir(dir);
	ep->consumer_ns += mono_ns() - t0;
	return err;
}

/* The fresh targets' mappings read again, loaded when they changed. */
static int poll_fresh(struct eh_procs *ep, uint64_t now)
{
	size_t i, n = 0;
	int err = 0;

	for (i = 0; i < ep->n_fresh; i++) {
		struct fresh f = ep->fresh[i];
		struct proc_maps pm = {};

		if (now > f.until || proc__exited(f.pid))
			continue;
		if (proc_maps__snapshot(&pm, f.pid, 1) > 0 && proc_maps__fingerprint(&pm) != f.fp) {
			f.fp = proc_maps__fingerprint(&pm);
			if (load(ep, f.pid, &pm, false) == -ENOMEM)
				err = -ENOMEM;
		}
		proc_maps__clear(&pm);
		ep->fresh[n++] = f;
	}
	ep->n_fresh = n;
	return err;
}

int eh_procs__poll(struct eh_procs *ep)
{
	uint64_t t0 = mono_ns();
	size_t i, n = 0;
	int err;

	take_built(ep);
	err = poll_fresh(ep, t0);
	for (i = 0; i < ep->n_pending; i++) {
		pid_t pid = ep->pending[i];

		if (proc__exited(pid))
			continue;
		if (runs_our_image(pid)) {
			ep->pending[n++] = pid;
			continue;
		}
		if (load(ep, pid, NULL, false) == -ENOMEM ||
		    GROW(ep->fresh, ep->cap_fresh, ep->n_fresh + 1)) {
			err = -ENOMEM;
			continue;
		}
		ep->fresh[ep->n_fresh++] = (struct fresh){ .pid = pid, .until = t0 + EH_FRESH_NS };
	}
	ep->n_pending = n;
	ep->consumer_ns += mono_ns() - t0;
	if (err)
		return err;
	return ep->n_pending || ep->n_fresh || building(ep);
}

void eh_procs__settle(struct eh_procs *ep)
{
	if (!ep)
		return;
	eh_builder__wait(ep->builder);
	take_built(ep);
}

void eh_procs__print(const struct eh_procs *ep, FILE *f)
{
	uint64_t build_ns;
	size_t queued;

	if (!ep)
		return;
	eh_builder__stats(ep->builder, &queued, &build_ns);
	fprintf(f, "kernel-events: --call-graph eh: %zu files (%llu without a table, %llu "
		"that did not fit, %zu not built by the end, %zu of them not begun), %u of %u "
		"rows, built in %.1f ms off the consumer's thread, which spent %.1f ms on "
		"tables; %llu process loads (%llu cut at %d mappings, %llu without a free slot "
		"of %d)\n", ep->n_files, (unsigned long long)ep->no_table,
		(unsigned long long)ep->full, building(ep), queued, ep->rows_used, ep->rows_max,
		build_ns / 1e6, ep->consumer_ns / 1e6, (unsigned long long)ep->loads,
		(unsigned long long)ep->truncated, EH_MAX_MAPPINGS,
		(unsigned long long)ep->no_slot, EH_MAX_PROCS);
}
