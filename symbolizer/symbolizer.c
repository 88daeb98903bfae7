// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * symbolizer.c - joins the symbol sources into "name this address in this
 * process at this time".
 *
 * Per process we keep: its exec mappings (merged snapshots, see
 * proc_maps.c), its perf map (opened once through /proc/PID/root with the
 * pid as the process sees it, fd kept open) and perfinfo images, and a
 * range table of the runtime's own method load/unload events.  ELF files
 * are shared between processes in a DSO cache keyed by device and inode,
 * opened while the process lives (proc_map__open_path: /proc/PID/root/<path>,
 * which follows a chroot or a container's root, else /proc/PID/map_files,
 * which works for deleted or replaced files) and parsed lazily on the
 * first address in them.
 *
 * Order of lookup for a user address:
 *   1. the runtime's method events (authoritative and timestamped; they
 *      also cover ReadyToRun code inside file mappings);
 *   2. the mapping: a file-backed mapping → ELF symbols (native);
 *      an anonymous exec mapping (or none: the process may be gone and its
 *      last snapshot incomplete) → the perf map, re-read on a miss.
 *   An unknown address triggers one re-snapshot of the mappings while the
 *   process lives.  Kernel addresses go to kallsyms.
 *
 * Safety: a root collector must not be turned into a file reader.  Perf
 * maps and perfinfo files are opened with O_NOFOLLOW|O_NONBLOCK, resolved
 * inside the target's root (RESOLVE_IN_ROOT), and used only when they are
 * regular files owned by the target's uid or root.  Each refused file is
 * warned about once and counted (stats.unreadable_maps).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "symbolizer.h"
#include "symbol_store.h"
#include "clock.h"
#include "grow.h"
#include "proc_env.h"
#include "proc_stat.h"
#include "u64_map.h"
#include "strpool.h"
#include "elf_syms.h"
#include "kallsyms.h"

#define LOG_PREFIX "symbolizer: "
#include "log.h"

/* ---------------------------------------------------------- DSO cache */

struct dso {
	uint32_t dev_major, dev_minor;
	uint64_t ino;
	char *path;		/* as the process saw it */
	char *debug_root;	/* "/proc/PID/root" of the first process, for debug files */
	int fd;			/* -1: could not open */
	int loaded;		/* symbols tried */
	struct elf_syms *syms;
};

struct sym_proc {
	pid_t pid, nspid;
	uid_t uids[2];
	int n_uids;
	int gone;			/* /proc/PID vanished */
	uint64_t snap_ns;		/* monotonic time of the last snapshot */
	struct proc_maps maps;
	/* the JIT mapping (anonymous, not [vdso]-like) of the last address
	 * named by the perf map: addresses in it go to the perf map at once,
	 * without the mapping search (reset whenever maps or pm change) */
	uint64_t jit_lo, jit_hi;
	struct perf_map *pm;
	uint64_t pm_last_try;		/* monotonic ns of the last discovery */
	uint64_t pm_backoff;		/* ns before the next periodic one */
	struct perfinfo_image *images;
	int n_images;
	struct range_table *methods;	/* runtime method events */
	size_t n_methods;		/* entries added to it */
	/* bumped whenever the code known at an address may have changed
	 * (symbolizer__code_gen): the unwinder's cached reads of code */
	uint64_t code_gen;
	char **refused;			/* files already warned about */
	int n_refused;
};

struct symbolizer {
	struct symbolizer_opts opts;
	struct sym_proc **procs;
	size_t n_procs, cap_procs;
	struct u64_map proc_idx;	/* pid -> index + 1 in procs: under --all
					 * thousands of processes */
	struct sym_proc *last;
	struct dso *dsos;
	size_t n_dsos, cap_dsos;
	struct ksyms *ksyms;
	int ksyms_tried;
	struct elf_syms *vdso;		/* our own vDSO: the same kernel's image */
	int vdso_tried;
	struct symbolizer_stats st;
};

#define SNAPSHOT_MIN_NS	10000000ULL	/* 10 ms */
/* perf map discovery: at most this often from a lookup, and from the
 * periodic refresh after at most PM_BACKOFF_MAX_NS once none was found */
#define PM_RETRY_NS		100000000ULL	/* 100 ms */
#define PM_BACKOFF_MAX_NS	3200000000ULL	/* 3.2 s */

struct symbolizer *symbolizer__new(const struct symbolizer_opts *opts)
{
	struct symbolizer *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (opts)
		s->opts = *opts;
	return s;
}

static void sym_proc__free(struct sym_proc *p)
{
	int i;

	if (!p)
		return;
	proc_maps__clear(&p->maps);
	perf_map__free(p->pm);
	perfinfo__free(p->images, p->n_images);
	range_table__free(p->methods);
	for (i = 0; i < p->n_refused; i++)
		free(p->refused[i]);
	free(p->refused);
	free(p);
}

void symbolizer__free(struct symbolizer *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n_procs; i++)
		sym_proc__free(s->procs[i]);
	free(s->procs);
	u64_map__free(&s->proc_idx);
	for (i = 0; i < s->n_dsos; i++) {
		if (s->dsos[i].fd >= 0)
			close(s->dsos[i].fd);
		elf_syms__free(s->dsos[i].syms);
		free(s->dsos[i].path);
		free(s->dsos[i].debug_root);
	}
	free(s->dsos);
	ksyms__free(s->ksyms);
	elf_syms__free(s->vdso);
	free(s);
}

/* Open the file behind a mapping (proc_map__open_path says where). */
static int dso__open(pid_t pid, const struct proc_map *m)
{
	char path[4200];
	struct stat st;
	int fd;

	if (proc_map__open_path(pid, m, path, sizeof(path)))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_ino != m->ino) {
		close(fd);	/* replaced between the check and the open */
		return -1;
	}
	return fd;
}

static int symbolizer__dso_for(struct symbolizer *s, pid_t pid, const struct proc_map *m)
{
	char root[64];
	struct dso *d;
	size_t i;

	for (i = 0; i < s->n_dsos; i++) {
		d = &s->dsos[i];
		if (d->ino == m->ino && d->dev_major == m->dev_major &&
		    d->dev_minor == m->dev_minor)
			return (int)i;
	}
	if (GROW(s->dsos, s->cap_dsos, s->n_dsos + 1))
		return -1;
	d = &s->dsos[s->n_dsos];
	memset(d, 0, sizeof(*d));
	d->dev_major = m->dev_major;
	d->dev_minor = m->dev_minor;
	d->ino = m->ino;
	d->path = strdup(m->path);
	snprintf(root, sizeof(root), "/proc/%d/root", (int)pid);
	d->debug_root = strdup(root);
	if (!d->path || !d->debug_root) {
		free(d->path);
		free(d->debug_root);
		return -1;
	}
	d->fd = dso__open(pid, m);
	return (int)s->n_dsos++;
}

static int sym_proc__snapshot(struct symbolizer *s, struct sym_proc *p)
{
	size_t i;
	int n;

	if (p->gone)
		return -ESRCH;
	p->snap_ns = mono_ns();
	p->jit_lo = p->jit_hi = 0;
	n = proc_maps__snapshot(&p->maps, p->pid, 1);
	s->st.snapshots++;
	if (n == -ESRCH || n == 0) {
		p->gone = n == -ESRCH || kill(p->pid, 0) != 0;
		return -ESRCH;
	}
	if (n < 0)
		return n;
	for (i = 0; i < p->maps.n; i++) {
		struct proc_map *m = &p->maps.maps[i];

		if (m->dso < 0 && !proc_map__is_anon(m))
			m->dso = symbolizer__dso_for(s, p->pid, m);
	}
	return 0;
}

/* ------------------------------------------------- perf-map discovery */

static int sym_proc__refused_before(struct sym_proc *p, const char *shown)
{
	int i;

	for (i = 0; i < p->n_refused; i++)
		if (!strcmp(p->refused[i], shown))
			return 1;
	return 0;
}

static void sym_proc__refuse(struct symbolizer *s, struct sym_proc *p, const char *shown,
			     const char *why)
{
	char **v;

	if (sym_proc__refused_before(p, shown))
		return;
	v = realloc(p->refused, (size_t)(p->n_refused + 1) * sizeof(*v));
	if (v) {
		p->refused = v;
		p->refused[p->n_refused] = strdup(shown);
		if (p->refused[p->n_refused])
			p->n_refused++;
	}
	s->st.unreadable_maps++;
	pr_warn("perf map %s %s; skipped\n", shown, why);
}

/* DOTNET_PerfMapJitDumpPath from the process's environment, else
 * COMPlus_PerfMapJitDumpPath (the runtime reads the two in that order);
 * an empty value counts as unset. */
static int proc__perf_map_dir(pid_t pid, char *dir, size_t len)
{
	if (!proc_env_get(pid, "DOTNET_PerfMapJitDumpPath", dir, len) && dir[0])
		return 0;
	if (!proc_env_get(pid, "COMPlus_PerfMapJitDumpPath", dir, len) && dir[0])
		return 0;
	return -ENOENT;
}

/* Try one candidate; returns the perf map, or NULL (refusals are warned). */
static struct perf_map *sym_proc__try_map(struct symbolizer *s, struct sym_proc *p, int root_fd,
					  const char *path, const char *shown)
{
	struct perf_map *pm;
	struct stat st;
	char why[160];

	if (sym_proc__refused_before(p, shown))
		return NULL;
	pm = perf_map__open(root_fd, path, p->uids, p->n_uids, why, sizeof(why));
	if (!pm && errno != ENOENT && errno != ENOTDIR)
		sym_proc__refuse(s, p, shown, why);
	if (!pm)
		return NULL;
	/* an earlier process of the same pid left it: not this one's (looked
	 * for again later, when the runtime may have written it anew) */
	if (!fstat(perf_map__fd(pm), &st) && proc_predates(p->pid, &st)) {
		pr_debug("pid %d: %s predates the process; not its map\n", (int)p->pid, shown);
		perf_map__free(pm);
		return NULL;
	}
	perf_map__set_path(pm, shown);
	return pm;
}

/* What was appended to the process's perf map (a bounded pass); a map that
 * runs on without ending its lines is refused here, with a warning. */
static long sym_proc__read_map(struct symbolizer *s, struct sym_proc *p, uint64_t now)
{
	long n = perf_map__refresh(p->pm, now);

	if (n > 0) {
		s->st.perf_map_entries += (uint64_t)n;
		p->code_gen++;
	} else if (n == -E2BIG)
		sym_proc__refuse(s, p, perf_map__path(p->pm), perf_map__refused(p->pm));
	return n;
}

static void sym_proc__load_perfinfo(struct symbolizer *s, struct sym_proc *p, int root_fd,
				    const char *dir, const char *shown_dir)
{
	char path[4200], shown[4300];
	struct perf_map *pi;

	snprintf(path, sizeof(path), "%s/perfinfo-%d.map", dir, (int)p->nspid);
	snprintf(shown, sizeof(shown), "%s%s", shown_dir, path);
	pi = sym_proc__try_map(s, p, root_fd, path, shown);
	if (!pi)
		return;
	perfinfo__free(p->images, p->n_images);
	p->images = NULL;
	p->n_images = perfinfo__parse(perf_map__fd(pi), &p->images);
	if (p->n_images < 0)
		p->n_images = 0;
	perf_map__free(pi);
}

static void sym_proc__find_perf_map(struct symbolizer *s, struct sym_proc *p)
{
	char dir[4096], root[64], path[4200], shown[4300];
	const char *dirs[2];
	int root_fd, i, n_dirs = 0;

	if (p->pm || s->opts.no_perf_map)
		return;
	p->pm_last_try = mono_ns();
	s->st.perf_map_searches++;
	snprintf(root, sizeof(root), "/proc/%d/root", (int)p->pid);
	root_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root_fd >= 0 && !proc__perf_map_dir(p->pid, dir, sizeof(dir)) && dir[0] == '/')
		dirs[n_dirs++] = dir;
	dirs[n_dirs++] = "/tmp";
	for (i = 0; root_fd >= 0 && i < n_dirs && !p->pm; i++) {
		snprintf(path, sizeof(path), "%s/perf-%d.map", dirs[i], (int)p->nspid);
		snprintf(shown, sizeof(shown), "%s%s", root, path);
		p->pm = sym_proc__try_map(s, p, root_fd, path, shown);
		if (p->pm)
			sym_proc__load_perfinfo(s, p, root_fd, dirs[i], root);
	}
	if (!p->pm && (root_fd < 0 || p->nspid != p->pid)) {
		/* the old "copy it out of the container" convention */
		snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)p->pid);
		p->pm = sym_proc__try_map(s, p, -1, path, path);
		if (p->pm)
			sym_proc__load_perfinfo(s, p, -1, "/tmp", "");
	}
	if (root_fd >= 0)
		close(root_fd);
	/* most processes never write a map: the periodic search waits twice
	 * as long each time it finds none (lookups that land in code no
	 * mapping names still search every PM_RETRY_NS, and an exec starts
	 * over) */
	p->pm_backoff = p->pm ? 0 : p->pm_backoff ? p->pm_backoff * 2 : PM_RETRY_NS;
	if (p->pm_backoff > PM_BACKOFF_MAX_NS)
		p->pm_backoff = PM_BACKOFF_MAX_NS;
	if (p->pm) {
		long n = sym_proc__read_map(s, p, 0);

		pr_debug("pid %d: perf map %s (%ld entries)\n", (int)p->pid,
			  perf_map__path(p->pm), n);
	}
}

/* ------------------------------------------------------------ processes */

static struct sym_proc *symbolizer__proc(struct symbolizer *s, pid_t pid, int create)
{
	struct u64_map_ent *e;
	struct sym_proc *p;

	if (s->last && s->last->pid == pid)
		return s->last;
	e = u64_map__find(&s->proc_idx, (uint32_t)pid);
	if (e)
		return s->last = s->procs[e->val - 1];
	if (!create || GROW(s->procs, s->cap_procs, s->n_procs + 1))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (p)
		p->methods = range_table__new();
	if (!p || !p->methods || u64_map__get(&s->proc_idx, (uint32_t)pid, &e)) {
		if (p)
			range_table__free(p->methods);
		free(p);
		return NULL;
	}
	p->pid = pid;
	p->nspid = pid;
	e->val = s->n_procs + 1;
	s->procs[s->n_procs++] = p;
	return s->last = p;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

void symbolizer__forget_pids(struct symbolizer *s, pid_t *pids, size_t n)
{
	size_t i, k;

	if (!n)
		return;
	s->last = NULL;
	qsort(pids, n, sizeof(*pids), cmp_pid);
	for (i = k = 0; i < s->n_procs; i++) {
		struct sym_proc *p = s->procs[i];

		if (bsearch(&p->pid, pids, n, sizeof(*pids), cmp_pid))
			sym_proc__free(p);
		else
			s->procs[k++] = p;
	}
	s->n_procs = k;
	u64_map__clear(&s->proc_idx);
	for (i = 0; i < s->n_procs; i++) {
		struct u64_map_ent *e;

		/* no room is asked for: the table was this big before */
		if (!u64_map__get(&s->proc_idx, (uint32_t)s->procs[i]->pid, &e))
			e->val = i + 1;
	}
}

static int sym_proc__init(struct symbolizer *s, struct sym_proc *p)
{
	char path[64];
	struct stat st;
	int n;

	if (proc__nspid(p->pid, &p->nspid) == -ESRCH) {
		p->gone = 1;
		return -ESRCH;
	}
	n = proc__uids(p->pid, p->uids, 2);
	if (n <= 0) {
		snprintf(path, sizeof(path), "/proc/%d", (int)p->pid);
		if (stat(path, &st)) {
			p->gone = 1;
			return -ESRCH;
		}
		p->uids[0] = st.st_uid;
		n = 1;
	}
	p->n_uids = n;
	sym_proc__snapshot(s, p);
	sym_proc__find_perf_map(s, p);
	return 0;
}

int symbolizer__add_pid(struct symbolizer *s, pid_t pid)
{
	struct sym_proc *p = symbolizer__proc(s, pid, 0);

	if (p)
		return 0;
	p = symbolizer__proc(s, pid, 1);
	if (!p)
		return -ENOMEM;
	return sym_proc__init(s, p);
}

int symbolizer__refresh_perf_map(struct symbolizer *s, pid_t pid, uint64_t now)
{
	struct sym_proc *p = symbolizer__proc(s, pid, 0);

	if (!p)
		return symbolizer__add_pid(s, pid);
	if (!p->pm && !p->gone && mono_ns() - p->pm_last_try >= p->pm_backoff)
		sym_proc__find_perf_map(s, p);
	if (p->pm)
		sym_proc__read_map(s, p, now);
	return 0;
}

int symbolizer__exec(struct symbolizer *s, pid_t pid)
{
	struct sym_proc *p = symbolizer__proc(s, pid, 0);

	if (p)
		p->pm_backoff = 0;	/* a new image: its runtime may write one */
	return symbolizer__refresh(s, pid, 0);
}

int symbolizer__refresh(struct symbolizer *s, pid_t pid, uint64_t now)
{
	struct sym_proc *p = symbolizer__proc(s, pid, 0);

	if (!p)
		return symbolizer__add_pid(s, pid);
	sym_proc__snapshot(s, p);
	return symbolizer__refresh_perf_map(s, pid, now);
}

int symbolizer__fork(struct symbolizer *s, pid_t parent, pid_t child)
{
	struct sym_proc *pp = symbolizer__proc(s, parent, 0), *c;
	size_t i;

	if (!pp || pp->gone || parent == child || symbolizer__proc(s, child, 0))
		return 0;
	c = symbolizer__proc(s, child, 1);
	if (!c)
		return -ENOMEM;
	memcpy(c->uids, pp->uids, sizeof(c->uids));
	c->n_uids = pp->n_uids;
	c->snap_ns = pp->snap_ns;
	for (i = 0; i < pp->maps.n; i++) {
		const struct proc_map *m = &pp->maps.maps[i];
		struct proc_map *added;

		if (proc_maps__add(&c->maps, m))
			return -ENOMEM;
		added = (struct proc_map *)proc_maps__find(&c->maps, m->start);
		if (added)
			added->dso = m->dso;
	}
	return 1;
}

static struct sym_proc *symbolizer__proc_auto(struct symbolizer *s, pid_t pid)
{
	struct sym_proc *p = symbolizer__proc(s, pid, 0);

	if (p)
		return p;
	p = symbolizer__proc(s, pid, 1);
	if (p)
		sym_proc__init(s, p);
	return p;
}

int symbolizer__add_mapping(struct symbolizer *s, pid_t pid, const struct proc_map *m)
{
	struct sym_proc *p;
	struct proc_map *added;
	int err;

	if (!(m->prot & PROT_EXEC))
		return 0;
	p = symbolizer__proc_auto(s, pid);
	if (!p)
		return -ENOMEM;
	p->jit_lo = p->jit_hi = 0;
	p->code_gen++;
	err = proc_maps__add(&p->maps, m);
	if (err)
		return err;
	added = (struct proc_map *)proc_maps__find(&p->maps, m->start);
	if (added && added->dso < 0 && !proc_map__is_anon(added))
		added->dso = symbolizer__dso_for(s, pid, added);
	return 0;
}

int symbolizer__set_perf_map(struct symbolizer *s, pid_t pid, const char *path)
{
	struct sym_proc *p = symbolizer__proc_auto(s, pid);
	struct perf_map *pm;
	long n;

	if (!p)
		return -ENOMEM;
	pm = perf_map__open_trusted(path);
	if (!pm)
		return -errno;
	n = perf_map__refresh(pm, 0);
	if (n < 0) {
		perf_map__free(pm);
		return (int)n;
	}
	s->st.perf_map_entries += (uint64_t)n;
	p->jit_lo = p->jit_hi = 0;
	p->code_gen++;
	perf_map__free(p->pm);
	p->pm = pm;
	return 0;
}

const struct proc_maps *symbolizer__maps(struct symbolizer *s, pid_t pid)
{
	struct sym_proc *p = symbolizer__proc(s, pid, 0);

	return p ? &p->maps : NULL;
}

uint64_t symbolizer__code_gen(struct symbolizer *s, pid_t pid)
{
	struct sym_proc *p = symbolizer__proc(s, pid, 0);

	return p ? p->code_gen : 0;
}

struct perf_map *symbolizer__perf_map(struct symbolizer *s, pid_t pid)
{
	struct sym_proc *p = symbolizer__proc(s, pid, 0);

	return p ? p->pm : NULL;
}

void symbolizer__set_horizon(struct symbolizer *s, uint64_t ts)
{
	size_t i;

	for (i = 0; i < s->n_procs; i++) {
		range_table__set_horizon(s->procs[i]->methods, ts);
		if (s->procs[i]->pm)
			range_table__set_horizon(perf_map__table(s->procs[i]->pm), ts);
	}
}

void symbolizer__stats(const struct symbolizer *s, struct symbolizer_stats *st)
{
	*st = s->st;
}

/* ----------------------------------------------------- method events */

int symbolizer__method_load(struct symbolizer *s, pid_t pid, uint64_t start, uint64_t size,
			    const char *name, uint64_t module_id, uint32_t flags, uint64_t ts)
{
	struct sym_proc *p = symbolizer__proc_auto(s, pid);
	struct range_entry *e;
	long idx;

	if (!p)
		return -ENOMEM;
	idx = range_table__add(p->methods, start, size, name, strlen(name), ts);
	if (idx < 0)
		return (int)idx;
	p->n_methods++;
	p->code_gen++;
	e = range_table__entry(p->methods, (size_t)idx);
	e->module_id = module_id;
	e->flags = flags;
	s->st.method_events++;
	return 0;
}

int symbolizer__method_unload(struct symbolizer *s, pid_t pid, uint64_t start,
			      uint64_t size, const char *name, uint64_t module_id,
			      uint32_t flags, uint64_t ts)
{
	struct sym_proc *p = symbolizer__proc_auto(s, pid);
	long idx;

	if (!p)
		return -ENOMEM;
	s->st.method_events++;
	p->code_gen++;
	if (p->pm)
		range_table__unload(perf_map__table(p->pm), start, ts);
	if (range_table__unload(p->methods, start, ts) >= 0)
		return 0;
	/* never saw it load: it existed until ts */
	idx = range_table__add(p->methods, start, size, name, strlen(name), 0);
	if (idx < 0)
		return (int)idx;
	p->n_methods++;
	range_table__entry(p->methods, (size_t)idx)->module_id = module_id;
	range_table__entry(p->methods, (size_t)idx)->flags = flags;
	range_table__entry(p->methods, (size_t)idx)->unload_ts = ts ? ts : 1;
	return 0;
}

/* -------------------------------------------------------------- resolve */

static void sym_info__from_range(struct sym_info *si, const struct range_entry *e,
				 const char *module)
{
	si->kind = SYM_KIND_JIT;
	si->name = e->name;
	si->start = e->start;
	si->size = e->end - e->start;
	si->module_id = e->module_id;
	si->flags = e->flags;
	si->module = module;
}

static int symbolizer__kernel(struct symbolizer *s, uint64_t addr, struct sym_info *si)
{
	const struct elf_sym *ks;
	const char *mod = NULL;

	si->kind = SYM_KIND_KERNEL;
	si->module = "[kernel.kallsyms]";
	if (!s->ksyms && !s->ksyms_tried && !s->opts.no_kernel) {
		s->ksyms_tried = 1;
		s->ksyms = ksyms__load(s->opts.kallsyms_path);
	}
	if (!s->ksyms || !(ks = ksyms__find(s->ksyms, addr, &mod)))
		return -ENOENT;
	si->name = ks->name;
	si->start = ks->start;
	si->module = mod;
	return 0;
}

static int symbolizer__native(struct symbolizer *s, const struct proc_map *m, uint64_t addr,
			      struct sym_info *si)
{
	struct dso *d;
	const struct elf_sym *es;
	uint64_t vaddr;

	si->kind = SYM_KIND_NATIVE;
	si->module = m->path;
	if (m->dso < 0)
		return -ENOENT;
	d = &s->dsos[m->dso];
	si->module = d->path;
	if (!d->loaded) {
		d->loaded = 1;
		if (d->fd >= 0)
			d->syms = elf_syms__load(d->fd, d->path, d->debug_root);
		if (!d->syms)
			pr_debug("%s: no ELF symbols\n", d->path);
	}
	if (!d->syms || elf_syms__addr_to_vaddr(d->syms, addr, m->start, m->offset, &vaddr))
		return -ENOENT;
	es = elf_syms__find_module(d->syms, vaddr);
	si->name = es->name;
	si->start = es->start - vaddr + addr;
	si->size = es->size;
	return 0;
}

int symbolizer__mapping(struct symbolizer *s, pid_t pid, uint64_t addr, struct sym_mapping *out)
{
	struct sym_proc *p = symbolizer__proc(s, pid, 0);
	const struct proc_map *m = p ? proc_maps__find(&p->maps, addr) : NULL;
	struct dso *d;

	if (!m || proc_map__is_anon(m) || m->path[0] != '/')
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	out->start = m->start;
	out->end = m->end;
	out->offset = m->offset;
	out->path = m->path;
	out->build_id = "";
	if (m->dso < 0)
		return 0;
	d = &s->dsos[m->dso];
	if (!d->loaded) {	/* an address no frame named yet: load it now */
		struct sym_info si;

		symbolizer__native(s, m, addr, &si);
	}
	if (!d->syms)
		return 0;
	out->elf = true;
	out->build_id = elf_syms__build_id(d->syms);
	out->debug_link = elf_syms__debug_link(d->syms);
	elf_syms__segment(d->syms, m->offset, &out->p_vaddr, &out->p_offset);
	return 0;
}

int symbolizer__fetch_symbols(struct symbolizer *s, uint64_t deadline_ms)
{
	char found[4096];
	size_t i;
	int n = 0, fd;

	if (!symbol_store__has_network())
		return 0;
	for (i = 0; i < s->n_dsos; i++) {
		struct dso *d = &s->dsos[i];
		const char *id = d->syms ? elf_syms__build_id(d->syms) : "";

		if (!id[0] || elf_syms__full(d->syms) || mono_ms_left(deadline_ms) <= 0)
			continue;
		fd = symbol_store__fetch(id, deadline_ms, found, sizeof(found));
		if (fd < 0)
			continue;
		if (!elf_syms__add_debug(d->syms, fd, found)) {
			pr_info("%s: symbols from %s\n", d->path, found);
			n++;
		}
		close(fd);
	}
	return n;
}

/* Symbols of our own vDSO (a copy in a memfd for libelf): every process of
 * this kernel maps the same image. */
static struct elf_syms *symbolizer__vdso(struct symbolizer *s)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	unsigned long long lo, hi;
	char line[256];
	FILE *f;
	int fd;

	if (s->vdso || s->vdso_tried || !base)
		return s->vdso;
	s->vdso_tried = 1;
	f = fopen("/proc/self/maps", "re");
	while (f && fgets(line, sizeof(line), f)) {
		if (!strstr(line, "[vdso]") || sscanf(line, "%llx-%llx", &lo, &hi) != 2 ||
		    lo != base)
			continue;
		fd = memfd_create("vdso", MFD_CLOEXEC);
		if (fd >= 0 && write(fd, (const void *)base, hi - lo) == (ssize_t)(hi - lo))
			s->vdso = elf_syms__load(fd, "[vdso]", NULL);
		if (fd >= 0)
			close(fd);
		break;
	}
	if (f)
		fclose(f);
	return s->vdso;
}

/* Exec mappings the kernel makes without a file: [vdso] functions by name,
 * anything else ([uprobes] trampolines, [vsyscall]) as one symbol named
 * after the mapping.  [heap], [stack] and [anon:...] can hold JIT code. */
static int symbolizer__special(struct symbolizer *s, const struct proc_map *m, uint64_t addr,
			       struct sym_info *si)
{
	const struct elf_sym *es;
	struct elf_syms *vd;
	uint64_t vaddr;

	si->kind = SYM_KIND_NATIVE;
	si->module = m->path;
	if (!strcmp(m->path, "[vdso]") && (vd = symbolizer__vdso(s)) != NULL &&
	    !elf_syms__addr_to_vaddr(vd, addr, m->start, 0, &vaddr) &&
	    (es = elf_syms__find(vd, vaddr)) != NULL) {
		si->name = es->name;
		si->start = es->start - vaddr + addr;
		si->size = es->size;
		return 0;
	}
	si->name = m->path;
	si->start = m->start;
	si->size = m->end - m->start;
	return 0;
}

static int proc_map__is_special(const struct proc_map *m)
{
	return m->path[0] == '[' && strncmp(m->path, "[anon", 5) && strcmp(m->path, "[heap]") &&
	       strncmp(m->path, "[stack", 6);
}

/* Perf map lookup, re-discovering a map that was not there yet. */
static const struct range_entry *sym_proc__perf_map_find(struct symbolizer *s,
							 struct sym_proc *p,
							 uint64_t addr, uint64_t ts)
{
	const struct range_entry *e;
	long n;

	if (!p->pm && !p->gone && !s->opts.no_perf_map &&
	    mono_ns() - p->pm_last_try > PM_RETRY_NS)
		sym_proc__find_perf_map(s, p);
	if (!p->pm)
		return NULL;
	/* a bounded read left lines that were there before: a newer version
	 * of the range that answers below may be among them */
	while (perf_map__pending(p->pm) && sym_proc__read_map(s, p, 0) > 0)
		;
	e = range_table__find(perf_map__table(p->pm), addr, ts);
	if (e)
		return e;
	n = sym_proc__read_map(s, p, 0);
	if (n <= 0)
		return NULL;
	return range_table__find(perf_map__table(p->pm), addr, ts);
}

static const char *sym_proc__image_for(const struct sym_proc *p, const struct proc_map *m)
{
	int i;

	for (i = 0; m && i < p->n_images; i++)
		if (!strcmp(p->images[i].path, m->path) || p->images[i].base == m->start)
			return p->images[i].path;
	return NULL;
}

bool symbolizer__is_code(struct symbolizer *s, pid_t pid, uint64_t addr, uint64_t ts)
{
	struct sym_proc *p;

	if (addr >= SYM_KERNEL_START)
		return true;
	p = symbolizer__proc_auto(s, pid);
	if (!p || !p->maps.n)
		return true;	/* nothing known about the process: no grounds to cut */
	if (range_table__find(p->methods, addr, ts) || proc_maps__find(&p->maps, addr))
		return true;
	/* a mapping made since the last snapshot (rate-limited as in resolve) */
	if (!p->gone && mono_ns() - p->snap_ns >= SNAPSHOT_MIN_NS && !sym_proc__snapshot(s, p))
		return proc_maps__find(&p->maps, addr) != NULL;
	return false;
}

int symbolizer__resolve(struct symbolizer *s, pid_t pid, uint64_t addr, uint64_t ts,
			struct sym_info *si)
{
	const struct range_entry *e;
	const struct proc_map *m;
	struct sym_proc *p;
	int err;

	s->st.lookups++;
	/* the common cases first, without a call that is not a lookup: a
	 * method event's range, or a JIT frame in the same mapping as the
	 * last one the perf map named (what the steps below would find);
	 * both fill every field of si */
	p = s->last && s->last->pid == pid ? s->last : NULL;
	if (p && p->n_methods && addr < SYM_KERNEL_START &&
	    (e = range_table__find_mode(p->methods, addr, ts, 1))) {
		sym_info__from_range(si, e, NULL);
		return 0;
	}
	if (p && addr - p->jit_lo < p->jit_hi - p->jit_lo && p->pm && !perf_map__pending(p->pm) &&
	    (e = range_table__find(perf_map__table(p->pm), addr, ts))) {
		sym_info__from_range(si, e, perf_map__path(p->pm));
		return 0;
	}
	memset(si, 0, sizeof(*si));
	if (addr >= SYM_KERNEL_START) {
		err = symbolizer__kernel(s, addr, si);
		goto out;
	}
	p = symbolizer__proc_auto(s, pid);
	if (!p) {
		err = -ENOMEM;
		goto out;
	}
	e = range_table__find_mode(p->methods, addr, ts, 1);
	if (e) {
		sym_info__from_range(si, e, NULL);
		err = 0;
		goto out;
	}
	m = proc_maps__find(&p->maps, addr);
	/* an unknown address: the process may have mapped something new; but
	 * garbage frames must not cost a /proc read each, so at most one
	 * re-snapshot per SNAPSHOT_MIN_NS (symbolizer__refresh is not limited) */
	if (!m && !p->gone && mono_ns() - p->snap_ns >= SNAPSHOT_MIN_NS &&
	    !sym_proc__snapshot(s, p))
		m = proc_maps__find(&p->maps, addr);
	if (m && !proc_map__is_anon(m)) {
		err = symbolizer__native(s, m, addr, si);
		if (err && sym_proc__image_for(p, m))
			si->module = sym_proc__image_for(p, m);
		goto out;
	}
	if (m && proc_map__is_special(m)) {
		err = symbolizer__special(s, m, addr, si);
		goto out;
	}
	e = sym_proc__perf_map_find(s, p, addr, ts);
	if (e) {
		sym_info__from_range(si, e, perf_map__path(p->pm));
		if (m) {
			p->jit_lo = m->start;
			p->jit_hi = m->end;
		}
		err = 0;
		goto out;
	}
	/* last resort: a method event whose range covered addr at another time */
	e = range_table__find(p->methods, addr, ts);
	if (e) {
		sym_info__from_range(si, e, NULL);
		err = 0;
		goto out;
	}
	if (m) {
		si->kind = SYM_KIND_JIT;
		si->module = m->path[0] ? m->path : NULL;
	}
	err = -ENOENT;
out:
	if (err)
		s->st.unresolved++;
	return err;
}

const char *sym_basename(const char *path)
{
	const char *b = path ? strrchr(path, '/') : NULL;

	return b ? b + 1 : path;
}

const char *sym_module_display(const char *path, char *buf, size_t len)
{
	const char *b = sym_basename(path);
	size_t l = strlen(b);

	if (l > 4 && (!strcasecmp(b + l - 4, ".dll") || !strcasecmp(b + l - 4, ".exe")))
		l -= 4;
	snprintf(buf, len, "%.*s", (int)l, b);
	return buf;
}

int sym_info__format(const struct sym_info *si, char *buf, size_t len)
{
	const char *mod = si->module ? sym_basename(si->module) : NULL;

	if (si->name) {
		if (si->kind == SYM_KIND_NATIVE && mod)
			return snprintf(buf, len, "%s!%s", mod, si->name);
		return snprintf(buf, len, "%s", si->name);
	}
	if (mod && mod[0] && si->kind != SYM_KIND_JIT)
		return snprintf(buf, len, "%s![unknown]", mod);
	return snprintf(buf, len, "[unknown]");
}
