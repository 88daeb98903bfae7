// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * host.c - --all (host.h).  A process becomes a target as a -p PID would at
 * the start: its tgid goes into the BPF target map before its probes are
 * attached (the runtime provider pauses itself while they go in), the
 * symbolizer and the mapping records follow it, and it gets a slot among
 * the targets for its EventPipe session when it has no USDT provider.
 * Stock .NET that offers the tracepoint shim is traced through it, as -p
 * does, with an EventPipe session beside it for the providers only
 * EventPipe serves (none of the runtime's: ep_targets.h), and over
 * EventPipe alone only when it does not offer the shim (or nothing of the
 * selection is among its tracepoints): never the runtime's events both
 * ways, which would count each twice.
 * Which files have which providers is remembered per file (device, inode),
 * so a library every process maps is read once.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include <bpf/libbpf.h>
#include "clr_events.skel.h"
#include "clock.h"
#include "grow.h"
#include "hash.h"
#include "exit_codes.h"
#include "dotnet_ipc.h"
#include "event_table.h"
#include "host.h"
#include "kernel_events.h"
#include "mmap_events.h"
#include "proc_info.h"
#include "proc_maps.h"
#include "proc_stat.h"
#include "symbolize.h"
#include "thread.h"
#include "tracepoint_abi.h"
#include "tpshim.h"
#include "usdt_notes.h"
#include "collector.h"

#define HOST_F_OURS	1	/* the runtime provider */
#define HOST_F_UG	2	/* a --usdt provider */
#define HOST_F_SHIM	4	/* the tracepoint shim's library (its file name) */
/* A process that exec'd is looked at again this long: a runtime maps its
 * libraries and opens its diagnostics socket after the exec.  At once, then
 * after 100 ms, 200 ms, 400 ms ... (a host that starts many short programs
 * costs each a few looks, not one per poll). */
#define PENDING_NS	(5000ULL * 1000 * 1000)
#define PENDING_GAP_NS	(100ULL * 1000 * 1000)
/* How often the targets are looked at for exits (a shim target's holds) */
#define EXIT_CHECK_NS	(1000ULL * 1000 * 1000)

static const char *const via_name[HOST_NR_VIA] = {
	[HOST_VIA_PROVIDER] = "runtime provider",
	[HOST_VIA_USDT] = "--usdt provider",
	[HOST_VIA_SHIM] = "tracepoint shim",
	[HOST_VIA_EVENTPIPE] = "EventPipe",
};

int host__init(struct collector *c)
{
	struct host *h = &c->host;
	struct ug_spec sp;
	char err[256];
	int i;

	h->on = env.all;
	if (!h->on || !env.nr_usdt)
		return 0;
	h->ug_providers = calloc(env.nr_usdt, sizeof(*h->ug_providers));
	if (!h->ug_providers)
		return -ENOMEM;
	for (i = 0; i < env.nr_usdt; i++) {
		if (ug_spec__parse(env.usdt[i], &sp, err, sizeof(err)))
			continue;	/* checked on the command line */
		h->ug_providers[h->n_ug++] = strdup(sp.provider);
		ug_spec__free(&sp);
	}
	return 0;
}

void host__free(struct collector *c)
{
	struct host *h = &c->host;
	int i;

	for (i = 0; i < h->n_ug; i++)
		free(h->ug_providers[i]);
	free(h->ug_providers);
	free(h->seen);
	free(h->pend);
	free(h->files);
	u64_map__free(&h->file_idx);
	memset(h, 0, sizeof(*h));
}

static bool is_seen(const struct host *h, pid_t pid)
{
	size_t i;

	for (i = 0; i < h->n_seen; i++)
		if (h->seen[i] == pid)
			return true;
	return false;
}

static void mark_seen(struct host *h, pid_t pid)
{
	if (!GROW(h->seen, h->cap_seen, h->n_seen + 1))
		h->seen[h->n_seen++] = pid;
}

/* Which of the providers we trace this file's notes name. */
static uint8_t notes_flags(const struct collector *c, const struct usdt_note_list *l)
{
	const struct host *h = &c->host;
	uint8_t flags = 0;
	size_t i;
	int k;

	for (i = 0; i < l->n; i++) {
		if (ect_find_provider(c->table, l->v[i].provider))
			flags |= HOST_F_OURS;
		for (k = 0; k < h->n_ug; k++)
			if (!strcmp(l->v[i].provider, h->ug_providers[k]))
				flags |= HOST_F_UG;
	}
	return flags;
}

static uint8_t file_flags(struct collector *c, const struct mapped_file *f)
{
	struct host *h = &c->host;
	struct usdt_note_list notes;
	uint8_t flags = 0;
	size_t i;

	uint64_t key = hash_mix(hash64(f->dev), f->ino);
	struct u64_map_ent *e = u64_map__find(&h->file_idx, key);
	const char *base = strrchr(f->path, '/');

	if (e && h->files[e->val - 1].dev == f->dev && h->files[e->val - 1].ino == f->ino)
		return h->files[e->val - 1].flags;
	for (i = 0; e && i < h->n_files; i++)	/* two files of one hash */
		if (h->files[i].dev == f->dev && h->files[i].ino == f->ino)
			return h->files[i].flags;
	if (!usdt_notes__load(f->open_path, &notes)) {
		flags = notes_flags(c, &notes);
		usdt_notes__free(&notes);
	}
	if (!strcmp(base ? base + 1 : f->path, TPABI_LIB_NAME))
		flags |= HOST_F_SHIM;
	if (!GROW(h->files, h->cap_files, h->n_files + 1)) {
		h->files[h->n_files++] = (struct host_file){ f->dev, f->ino, flags };
		if (!e && !u64_map__get(&h->file_idx, key, &e))
			e->val = h->n_files;
	}
	return flags;
}

/* The providers pid's mapped files carry (HOST_F_*), or -errno. */
static int process_flags(struct collector *c, pid_t pid)
{
	struct mapped_file_list files;
	int flags = 0, err;
	size_t i;

	err = proc_mapped_files(pid, &files);
	if (err)
		return err;
	for (i = 0; i < files.n; i++)
		flags |= file_flags(c, &files.v[i]);
	mapped_file_list__free(&files);
	return flags;
}

static bool any_match(const char *const *globs, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!fnmatch(globs[i], s, 0))
			return true;
	return false;
}

/* --comm, --cgroup, --container, --pid-filter: each given one must match */
static bool wanted(pid_t pid)
{
	struct proc_info pi;
	int i;

	if (pid == getpid())
		return false;
	if (env.nr_pid_filter) {
		for (i = 0; i < env.nr_pid_filter && env.pid_filter[i] != pid; i++)
			;
		if (i == env.nr_pid_filter)
			return false;
	}
	if (!env.nr_comm && !env.nr_cgroup && !env.nr_container)
		return true;
	if (proc_info_read(pid, &pi))
		return false;
	if (env.nr_comm && !any_match(env.comm, env.nr_comm, pi.comm))
		return false;
	if (env.nr_cgroup && !any_match(env.cgroup, env.nr_cgroup, pi.cgroup))
		return false;
	for (i = 0; i < env.nr_container; i++)
		if (pi.container[0] && !strncmp(pi.container, env.container[i],
						strlen(env.container[i])))
			break;
	return !env.nr_container || i < env.nr_container;
}

/* The selection decides which processes are sampled too: the kernel keeps
 * only their samples (kernel_events__select; a no-op without one). */
static bool select_samples(struct collector *c, pid_t pid)
{
	bool want = wanted(pid);
	int err = kernel_events__select(c->ke, pid, want);

	if (err && !c->host.select_full++)
		pr_warn("--all: cannot select pid %d for CPU sampling: %s; its samples are "
			"dropped\n", (int)pid, strerror(-err));
	return want;
}

/* After the change, a new generation: the BPF side's per-CPU memo of the
 * last target (clr_events.bpf.c, is_target) no longer matches. */
static int set_target_map(struct collector *c, pid_t pid, bool on)
{
	__u32 tgid = pid;
	__u8 one = 1;
	int err;

	if (!on)
		err = bpf_map__delete_elem(c->clr.skel->maps.targets, &tgid, sizeof(tgid), 0);
	else
		err = bpf_map__update_elem(c->clr.skel->maps.targets, &tgid, sizeof(tgid), &one,
					   sizeof(one), 0);
	__atomic_add_fetch(&c->clr.skel->bss->targets_gen, 1, __ATOMIC_RELEASE);
	return err;
}

/* pid is a target from now on, in slot env.nr_pids. */
static void add_target(struct collector *c, pid_t pid, enum host_via via)
{
	int slot = env.nr_pids++;

	env.pids[slot] = pid;
	c->pid_alive[slot] = true;
	if (c->pipe.sym)
		symbolize__add_pid(c->pipe.sym, pid);
	if (c->mm && !mmap_events__add_pid(c->mm, pid) && c->pipe.sym)
		symbolize__mappings_reported(c->pipe.sym, pid);
	if (c->ug)
		usdt_generic__add_target(c->ug, pid);
	c->host.found++;
	c->host.via[via]++;
	pr_info("--all: tracing pid %d (%s)\n", pid, via_name[via]);
}

/*
 * Make pid a target if it has what we trace.  1 it is (or was already),
 * 0 not (yet), -errno.  final: it will not be looked at again.  *files:
 * the HOST_F_* of its mapped files, read now, or (files_known) as the
 * caller knows them from an earlier call.
 */
static int consider(struct collector *c, pid_t pid, bool final, int *files, bool files_known)
{
	int flags, n = 0, g = 0, slot = env.nr_pids;

	if (is_seen(&c->host, pid))
		return 1;
	if (!select_samples(c, pid)) {
		mark_seen(&c->host, pid);
		return 0;
	}
	if (env.nr_pids >= MAX_PIDS) {
		c->host.full++;
		mark_seen(&c->host, pid);
		return 0;
	}
	flags = files_known ? *files : (*files = process_flags(c, pid));
	if (flags < 0) {
		if (flags == -ESRCH || final)
			mark_seen(&c->host, pid);
		return flags == -ESRCH || flags == -EACCES ? 0 : flags;
	}
	if (flags & (HOST_F_OURS | HOST_F_UG)) {
		set_target_map(c, pid, true);	/* before the probes: their first events */
		n = flags & HOST_F_OURS ? clr_source__attach_pid(&c->clr, pid, false) : 0;
		g = flags & HOST_F_UG ? usdt_generic__attach_pid(c->ug, pid) : 0;
		if (n < 0 || g < 0)
			return n < 0 ? n : g;
	}
	if (n > 0 || g > 0) {
		add_target(c, pid, n > 0 ? HOST_VIA_PROVIDER : HOST_VIA_USDT);
		mark_seen(&c->host, pid);
		return 1;
	}
	/* stock .NET: its own tracepoints when it offers the shim (a failed
	 * attach leaves nothing of it held: EventPipe then) */
	if (c->tps.skel && (flags & HOST_F_SHIM) && tpshim_source__attach_pid(&c->tps, pid) > 0) {
		set_target_map(c, pid, true);
		/* what only EventPipe serves, in a session beside the shim */
		if (ep_targets__beside_shim(&c->ept, slot) &&
		    ep_targets__attach_one(&c->ept, slot, pid) == EXIT_NO_PROBES)
			pr_info("--all: pid %d: no .NET diagnostics socket: traced through the "
				"tracepoint shim only\n", pid);
		add_target(c, pid, HOST_VIA_SHIM);
		mark_seen(&c->host, pid);
		return 1;
	}
	if (ep_targets__attach_one(&c->ept, slot, pid) == EXIT_OK) {
		set_target_map(c, pid, true);
		add_target(c, pid, HOST_VIA_EVENTPIPE);
		mark_seen(&c->host, pid);
		return 1;
	}
	if (flags & (HOST_F_OURS | HOST_F_UG))
		set_target_map(c, pid, false);
	if (final)
		mark_seen(&c->host, pid);
	return 0;
}

/* "1 runtime provider, 0 --usdt provider, 2 tracepoint shim, 1 EventPipe" */
static const char *via_counts(const struct host *h, char *buf, size_t size)
{
	size_t off = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < HOST_NR_VIA && off < size; i++)
		off += snprintf(buf + off, size - off, "%s%llu %s", i ? ", " : "",
				(unsigned long long)h->via[i], via_name[i]);
	return buf;
}

int host__scan(struct collector *c)
{
	char buf[160];
	DIR *d = opendir("/proc");
	struct dirent *de;
	int err = 0, files;

	if (!d) {
		pr_warn("--all: cannot read /proc: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	while (!err && (de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		err = consider(c, (pid_t)pid, true, &files, false);
		err = err < 0 && err != -ENOENT ? err : 0;
	}
	closedir(d);
	if (err) {
		pr_warn("--all: %s\n", strerror(-err));
		return EXIT_FAIL;
	}
	pr_info("--all: %llu processes traced (%s); new ones are added as they exec\n",
		(unsigned long long)c->host.found, via_counts(&c->host, buf, sizeof(buf)));
	return EXIT_OK;
}

/* The selection as /proc says now, not the kernel's map: a record may
 * leave the window before the poll that looks at its process's exec. */
bool host__selected(const struct collector *c, pid_t pid)
{
	int i;

	if (!c->host.on)
		return true;
	for (i = 0; i < env.nr_pids; i++)
		if (env.pids[i] == pid)
			return true;
	return (env.nr_comm || env.nr_cgroup || env.nr_container || env.nr_pid_filter) &&
	       wanted(pid);
}

void host__note_exec(struct collector *c, pid_t pid)
{
	struct host *h = &c->host;
	size_t i;

	if (!h->on)
		return;
	h->execs++;
	for (i = 0; i < (size_t)env.nr_pids; i++)
		if (env.pids[i] == pid)
			return;	/* a target already: the rescan attaches its new files */
	for (i = 0; i < h->n_seen; i++)	/* the pid is a new program now */
		if (h->seen[i] == pid) {
			h->seen[i] = h->seen[--h->n_seen];
			break;
		}
	if (GROW(h->pend, h->cap_pend, h->n_pend + 1))
		return;
	h->pend[h->n_pend++] = (struct host_pending){
		.pid = pid, .until = mono_ns() + PENDING_NS, .gap = PENDING_GAP_NS, .files = -1,
	};
}

struct closer {
	int *fds;
	size_t n;
};

static void *close_holds(void *arg)
{
	struct closer *cl = arg;

	for (size_t i = 0; i < cl->n; i++)
		close(cl->fds[i]);
	free(cl->fds);
	free(cl);
	return NULL;
}

/* A shim target exited: its probe off, its holds closed by a thread of
 * their own (each close waits for a grace period, tens of ms: the main
 * loop goes on reading the ring meanwhile). */
static void release_exited(struct collector *c, pid_t pid)
{
	struct closer *cl;
	pthread_t th;
	int *fds;
	size_t n = tpshim_source__release_pid(&c->tps, pid, &fds);

	if (!n)
		return;
	c->host.exited++;
	pr_info("--all: pid %d exited: its %zu tracepoints released\n", (int)pid, n);
	cl = malloc(sizeof(*cl));
	if (cl) {
		*cl = (struct closer){ fds, n };
		if (!thread_start_nosig(&th, close_holds, cl)) {
			pthread_detach(th);
			return;
		}
		free(cl);
	}
	for (size_t i = 0; i < n; i++)
		close(fds[i]);
	free(fds);
}

static void check_exits(struct collector *c)
{
	int i;

	for (i = 0; i < env.nr_pids; i++)
		if (c->pid_alive[i] && proc__exited(env.pids[i])) {
			c->pid_alive[i] = false;
			if (c->tps.skel)
				release_exited(c, env.pids[i]);
		}
}

int host__tick(struct collector *c, uint64_t now)
{
	struct host *h = &c->host;
	uint64_t size;
	size_t i = 0;
	bool same;
	pid_t pid;
	int rc, files;

	/* --dotnet-port: a runtime that waits there before its first managed
	 * method; ep_targets__poll resumes it once its session runs */
	if (now >= h->next_exit_check) {
		h->next_exit_check = now + EXIT_CHECK_NS;
		check_exits(c);
	}
	while ((pid = ep_port__next(&c->ept.port)) > 0) {
		for (i = 0; i < (size_t)env.nr_pids && env.pids[i] != pid; i++)
			;
		if (i < (size_t)env.nr_pids)
			continue;	/* a target already (found at its exec) */
		for (i = 0; i < h->n_seen; i++)	/* as at an exec: a new program */
			if (h->seen[i] == pid) {
				h->seen[i] = h->seen[--h->n_seen];
				break;
			}
		rc = consider(c, pid, true, &files, false);
		if (rc < 0 && rc != -ENOENT)
			return rc;
	}
	i = 0;

	while (i < h->n_pend) {
		struct host_pending *p = &h->pend[i];
		bool last = now >= p->until;

		if (now < p->next && !last) {
			i++;
			continue;
		}
		p->next = now + p->gap;
		p->gap *= 2;
		/* its files read again only if its size moved: nothing was
		 * mapped or unmapped since a look that found no provider and no
		 * shim (every exec of a busy host is looked at a few times) */
		size = proc_stat_field(p->pid, 23);	/* vsize */
		same = !last && size && size == p->size && p->files == 0;
		p->size = size;
		rc = consider(c, p->pid, last, &p->files, same);
		if (rc < 0 && rc != -ENOENT)
			return rc;
		if (rc == 1 || last)
			h->pend[i] = h->pend[--h->n_pend];
		else
			i++;
	}
	return 0;
}

void host__print_summary(const struct collector *c)
{
	const struct host *h = &c->host;
	char buf[160];

	if (!h->on)
		return;
	pr_warn("--all: %llu processes traced (%s), %llu execs seen%s\n",
		(unsigned long long)h->found, via_counts(h, buf, sizeof(buf)),
		(unsigned long long)h->execs,
		h->full ? "; more than the target limit were left out" : "");
	if (h->exited)
		pr_warn("--all: %llu processes traced through the tracepoint shim exited, their "
			"tracepoints released\n", (unsigned long long)h->exited);
}
