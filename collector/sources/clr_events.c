// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * clr_events.c - the runtime's own provider (clr_events.h): find its probes
 * in every file a target maps, attach the selected ones (cookie = event
 * table index), and write the records of bpf/clr_events.bpf.c as trace
 * events (its emit in the pipeline).
 */
#define LOG_PREFIX "ebpf-collect: "
#include <argp.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "clr_events.skel.h"
#include "collector_event.h"
#include "log.h"
#include "event_table.h"
#include "nettrace.h"
#include "manifest_meta.h"
#include "selection.h"
#include "usdt_notes.h"
#include "tracer_pause.h"
#include "symbolize.h"		/* frame names in the trace */
#include "batch.h"		/* batched in-process events */
#include "proc_stat.h"
#include "clock.h"
#include "grow.h"
#include "pipeline.h"
#include "clr_events.h"

_Static_assert(sizeof(struct ce_header) == 24, "ce_header layout (bpf/collector_event.h)");
_Static_assert(sizeof(struct ce_clr_event) == 88, "ce_clr_event layout (bpf/collector_event.h)");
_Static_assert(sizeof(struct ce_counters) == 16 * 8, "ce_counters layout");
_Static_assert(sizeof(struct ce_clr_batch) == 48, "ce_clr_batch layout");
_Static_assert(sizeof(struct ce_filter) == 16 + CE_FILTER_STR_MAX, "ce_filter layout");



static void note_searched(struct clr_source *c, const char *path)
{
	size_t n = strlen(path);
	char *s;

	if (c->searched_len > 4000)
		return;
	s = realloc(c->searched, c->searched_len + n + 3);
	if (!s)
		return;
	c->searched = s;
	memcpy(s + c->searched_len, c->searched_len ? ", " : "", c->searched_len ? 2 : 0);
	c->searched_len += c->searched_len ? 2 : 0;
	memcpy(s + c->searched_len, path, n + 1);
	c->searched_len += n;
}

static bool has_our_probes(const struct clr_source *c, const struct usdt_note_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (ect_find_provider(c->table, l->v[i].provider))
			return true;
	return false;
}

/* How long a raised word may stay up with nobody attaching or detaching
 * before it is taken for one a dead tracer left (collector/README.md). */
#define STALE_WAIT_NS	(2000ULL * 1000 * 1000)

/*
 * A word already raised when we attach is another tracer's hold while its
 * probes go in or out (a fraction of a second), or one left behind: by a
 * tracer of the older protocol, which wrote the word itself and could die
 * before lowering it, or inherited through fork() in a pause window.  The
 * kernel-held counts of today's tracers cannot outlive their owners.  So
 * wait a while, and then set it to 0.
 */
static void repair_stale_word(const struct pause_site *ps, const char *path,
			      const volatile sig_atomic_t *stop)
{
	uint64_t deadline = mono_ns() + STALE_WAIT_NS;
	unsigned int v = 0;
	int err;

	while (!tracer_pause__read(ps->pid, ps->addr, &v) && v && mono_ns() < deadline &&
	       !*stop)
		usleep(10000);
	if (!v || *stop)
		return;
	err = tracer_pause__clear(ps->pid, ps->addr);
	if (err)
		pr_warn("pid %d: its runtime's tracer pause word in %s is %u and cannot be "
			"reset (%s); it fires no events\n", ps->pid, path, v, strerror(-err));
	else
		pr_warn("pid %d: its runtime's tracer pause word in %s was %u with no tracer "
			"attaching or detaching for %llu s (left by a tracer that died); set it "
			"to 0: the runtime had fired no events since\n", ps->pid, path, v,
			STALE_WAIT_NS / 1000000000ULL);
}

/*
 * Where pid's copy of open_path keeps its pause word, if it has one; and,
 * when pid already maps it, hold the word up while the probes go in: the
 * kernel raises a probe's semaphore count before it writes the
 * breakpoint, and an event fired in between would be counted by the
 * runtime and seen by nobody.  Returns true if ps describes a pause word.
 */
static bool pause_for_attach(pid_t pid, const char *path, const char *open_path,
			     struct pause_site *ps, const volatile sig_atomic_t *stop)
{
	struct stat st;
	uint64_t off = 0;
	int err = tracer_pause__file_offset(open_path, &off);

	*ps = (struct pause_site){ .pid = pid, .off = off, .file_fd = -1, .hold_fd = -1 };
	if (!err && stat(open_path, &st))
		err = -errno;
	if (err) {
		pr_debug("pid %d: %s has no tracer pause word (%s): its first and last "
			 "events in the trace can be missed\n", pid, path, strerror(-err));
		return false;
	}
	ps->dev = st.st_dev;
	ps->ino = st.st_ino;
	ps->cpu_ticks = proc_stat_field(pid, 14) + proc_stat_field(pid, 15);
	ps->attach_ns = mono_ns();
	if (tracer_pause__site_offset(open_path, &ps->site_off))
		pr_debug("pid %d: %s has a pause word but no pause site (an older provider): its "
			 "first and last events in the trace can be missed\n", pid, path);
	else
		ps->file_fd = open(open_path, O_PATH | O_CLOEXEC);
	/* not mapped yet (-- CMD before exec, --lib): no event can fire yet */
	if (tracer_pause__resolve(pid, ps->dev, ps->ino, ps->off, &ps->addr)) {
		ps->addr = 0;
		return true;
	}
	repair_stale_word(ps, path, stop);
	if (ps->file_fd < 0)
		return true;
	ps->hold_fd = tracer_pause__hold(pid, ps->file_fd, ps->site_off, ps->off);
	if (ps->hold_fd < 0)
		pr_debug("pid %d: cannot pause the runtime while attaching (%s); its first "
			 "events can be missed\n", pid, strerror(-ps->hold_fd));
	return true;
}

/* Let the word go again, and keep the site for the end. */
static void resume_after_attach(struct clr_source *c, struct pause_site *ps, int attached)
{
	if (ps->hold_fd >= 0)
		close(ps->hold_fd);
	ps->hold_fd = -1;
	if (attached &&
	    !GROW(c->pauses, c->cap_pauses, c->nr_pauses + 1)) {
		c->pauses[c->nr_pauses++] = *ps;
		return;
	}
	if (attached)
		pr_debug("pid %d: no memory to note a pause word\n", ps->pid);
	if (ps->file_fd >= 0)
		close(ps->file_fd);
}

/* The file's batched mode, if it has one: its <prefix>:batch probe. */
static int batch_probes(struct clr_source *c, pid_t pid, const char *path, const char *open_path,
			const struct usdt_note_list *notes)
{
	struct stat st;
	size_t i;

	for (i = 0; i < notes->n; i++)
		if (!strcmp(notes->v[i].name, "batch") &&
		    !ect_find_provider(c->table, notes->v[i].provider))
			break;
	if (i == notes->n || stat(open_path, &st))
		return 0;
	return batch__attach_file(c, pid, path, open_path, st.st_dev, st.st_ino,
				  notes->v[i].provider);
}

/*
 * Attach every selected probe of one file for one pid.  Returns the number
 * of probes attached, or -errno on a failure that must stop the trace.
 */
static int attach_file(struct clr_source *c, pid_t pid, const char *path, const char *open_path)
{
	LIBBPF_OPTS(bpf_usdt_opts, uopts);
	struct usdt_note_list notes;
	int attached = 0, ours = 0, unknown = 0, err;
	struct pause_site ps;
	bool has_pause;
	size_t i;

	err = usdt_notes__load(open_path, &notes);
	if (err) {
		pr_debug("pid %d: skipping %s: %s\n", pid, path, strerror(-err));
		return 0;
	}
	has_pause = has_our_probes(c, &notes) &&
		    pause_for_attach(pid, path, open_path, &ps, c->o.stop);
	for (i = 0; i < notes.n; i++) {
		const struct usdt_note *n = &notes.v[i];
		const struct ect_event *ev;
		struct bpf_link *link;

		if (!ect_find_provider(c->table, n->provider) || usdt_notes__seen_before(&notes, i))
			continue;
		ours++;
		ev = ect_find_symbol(c->table, n->provider, n->name);
		if (!ev) {
			pr_debug("%s: probe %s:%s is not in the event table (%s)\n", path,
				 n->provider, n->name, c->table->manifest);
			unknown++;
			continue;
		}
		if (!selection__matches(c->sel, ev))
			continue;
		uopts.usdt_cookie = ev - c->table->events;
		link = bpf_program__attach_usdt(c->skel->progs.clr_event, pid, open_path,
						n->provider, n->name, &uopts);
		if (!link) {
			err = -errno;
			if (err == -E2BIG)
				pr_warn("USDT spec limit reached (BPF_USDT_MAX_SPEC_CNT=4096) attaching "
					"%s:%s in %s (pid %d): %s; trace fewer probes or processes\n",
					n->provider, n->name, path, pid, strerror(-err));
			else
				pr_warn("cannot attach %s:%s in %s (pid %d): %s\n", n->provider,
					n->name, path, pid, strerror(-err));
			c->attach_failed++;
			continue;
		}
		err = GROW(c->links, c->cap_links, c->nr_links + 1);
		if (err) {
			bpf_link__destroy(link);
			break;
		}
		c->links[c->nr_links++] = link;
		attached++;
	}
	if (attached > 0 && batch_probes(c, pid, path, open_path, &notes) == -ENOMEM)
		err = -ENOMEM;
	usdt_notes__free(&notes);
	if (has_pause)
		resume_after_attach(c, &ps, attached);
	c->ours_found += ours;
	if (ours)
		pr_info("pid %d: attached %d of %d runtime probes in %s\n", pid, attached, ours,
			path);
	if (unknown)
		pr_warn("%s: %d runtime probes are not in the event table of %s and are not "
			"traced%s\n", path, unknown, c->table->manifest,
			c->o.manifest ? "" : " (--manifest FILE reads the runtime's own manifest)");
	return err == -ENOMEM ? err : attached;
}

static bool file_attached(const struct clr_source *c, pid_t pid, dev_t dev, ino_t ino)
{
	size_t j;

	for (j = 0; j < c->nr_files; j++)
		if (c->files[j].pid == pid && c->files[j].dev == dev && c->files[j].ino == ino)
			return true;
	return false;
}

int clr_source__attach_path(struct clr_source *c, pid_t pid, const char *path)
{
	struct attached_file af = { .pid = pid };
	struct stat st;

	if (stat(path, &st))
		return -errno;
	af.dev = st.st_dev;
	af.ino = st.st_ino;
	if (file_attached(c, pid, af.dev, af.ino))
		return 0;
	if (GROW(c->files, c->cap_files, c->nr_files + 1))
		return -ENOMEM;
	c->files[c->nr_files++] = af;
	note_searched(c, path);
	return attach_file(c, pid, path, path);
}

/* Attach to the files of pid not attached yet.  Returns probes attached or -errno. */
struct attach_walk {
	struct clr_source *c;
	bool initial;
};

/* One mapped file of a target: attach it unless it was before. */
static int attach_mapped(void *ctx, pid_t pid, const struct mapped_file *f)
{
	struct attach_walk *aw = ctx;
	struct clr_source *c = aw->c;
	struct attached_file af = { pid, f->dev, f->ino };

	if (file_attached(c, pid, af.dev, af.ino))
		return 0;
	if (GROW(c->files, c->cap_files, c->nr_files + 1))
		return -ENOMEM;
	c->files[c->nr_files++] = af;
	if (aw->initial)
		note_searched(c, f->path);
	if (!mapped_file__reach(pid, f))
		return 0;
	return attach_file(c, pid, f->path, f->open_path);
}

int clr_source__attach_pid(struct clr_source *c, pid_t pid, bool initial)
{
	struct attach_walk aw = { c, initial };

	return attach_mapped_files(pid, attach_mapped, &aw);
}

/* The first event of a process in a run of them: its runtime is not silent
 * (warn_silent_runtimes). */
static void note_runtime_event(struct clr_source *c, pid_t pid)
{
	size_t i;

	c->last_event_pid = pid;
	for (i = 0; i < c->nr_pauses; i++)
		if (c->pauses[i].pid == pid)
			c->pauses[i].seen = true;
}

/* One runtime event (pipeline.h: the source's emit). */
static int emit_clr_event(void *ctx, const struct pipeline_sink *s, const void *data, size_t len)
{
	struct clr_source *c = ctx;
	static uint64_t stack[2 * CE_MAX_STACK_DEPTH];
	const struct ce_clr_event *e = data;
	const uint64_t *frames = (const uint64_t *)(e + 1);
	struct nt_event ne = {};
	const struct ect_event *ev;
	uint32_t idx;
	int err;

	if (len < sizeof(*e) ||
	    len != sizeof(*e) + (e->ustack_depth + e->kstack_depth) * 8ULL + e->payload_len ||
	    CE_COOKIE_INDEX(e->cookie) >= c->table->n_events) {
		(*s->bad_records)++;
		return 0;
	}
	idx = CE_COOKIE_INDEX(e->cookie);
	ev = &c->table->events[idx];
	if (e->flags & CE_F_PAYLOAD_TRUNCATED) {
		/* over CE_MAX_PAYLOAD: TraceEvent could not read it; a gap on its thread */
		c->oversize++;
		pr_debug("%s/%s of tid %u: %u-byte payload over the %u-byte limit, dropped\n",
			 ev->provider->usdt_name, ev->symbol, e->hdr.tid, e->payload_orig_len,
			 CE_MAX_PAYLOAD);
		return nt_writer__note_lost_pid(s->w, e->hdr.pid, e->hdr.tid, 1);
	}
	if (!c->meta_ids[idx]) {
		err = manifest_define_event(s->w, ev, &c->meta_ids[idx]);
		if (err) {
			pr_warn("cannot define %s/%s in %s: %s\n", ev->provider->name, ev->symbol,
				c->o.output, strerror(-err));
			return err;
		}
	}
	ne.metadata_id = c->meta_ids[idx];
	ne.timestamp = e->hdr.timestamp;
	ne.pid = e->hdr.pid;
	ne.thread_id = e->hdr.tid;
	ne.capture_thread_id = e->hdr.tid;
	ne.processor = e->cpu;
	ne.activity_id = (e->flags & CE_F_HAS_ACTIVITY) ? e->activity_id : NULL;
	ne.related_activity_id = (e->flags & CE_F_HAS_RELATED) ? e->related_activity_id : NULL;
	ne.payload = (const uint8_t *)(frames + e->ustack_depth + e->kstack_depth);
	ne.payload_size = e->payload_len;
	if (e->kstack_depth) {
		/* leaf first: kernel frames, then user frames */
		memcpy(stack, frames + e->ustack_depth, e->kstack_depth * 8);
		memcpy(stack + e->kstack_depth, frames, e->ustack_depth * 8);
		ne.stack = stack;
	} else {
		ne.stack = e->ustack_depth ? frames : NULL;
	}
	ne.stack_depth = e->ustack_depth + e->kstack_depth;
	if (s->sym && s->learnt)	/* learnt on arrival (recorder.c): names only */
		err = symbolize__stack(s->sym, e->hdr.pid, e->hdr.tid, ne.timestamp, ne.stack,
				       ne.stack_depth);
	else if (s->sym)	/* before the event, it may write method events */
		err = symbolize__clr_event(s->sym, ev->provider->name, ev->id, e->hdr.pid,
					   e->hdr.tid, ne.timestamp, ne.payload, ne.payload_size,
					   ne.stack, ne.stack_depth);
	else
		err = 0;
	if (!err)
		err = nt_writer__write_event(s->w, &ne);
	if (err)
		return err;
	c->ev_counts[idx] += !s->again;
	if ((pid_t)e->hdr.pid != c->last_event_pid)
		note_runtime_event(c, e->hdr.pid);
	return 1;
}

/* One runtime event as the consumers read it (pipeline.h: the source's
 * event): the cookie is its index in the table the probes were attached
 * from.  An event whose payload the probe could not copy (over
 * CE_MAX_PAYLOAD) still happened: it is read with what came. */
static int clr_event(void *ctx, const struct ect_table *t, const void *rec, size_t len,
		     struct pipeline_event *out)
{
	const struct ce_clr_event *e = rec;
	size_t off;

	(void)ctx;
	if (len < sizeof(*e) || CE_COOKIE_INDEX(e->cookie) >= t->n_events)
		return 0;
	off = sizeof(*e) + ((size_t)e->ustack_depth + e->kstack_depth) * 8;
	if (off > len || e->payload_len > len - off)
		return 0;
	out->hdr = &e->hdr;
	out->idx = CE_COOKIE_INDEX(e->cookie);
	out->ev = &t->events[out->idx];
	out->version = out->ev->version;
	out->payload = (const uint8_t *)rec + off;
	out->payload_len = e->payload_len;
	return 1;
}

const struct pipeline_source_ops clr_source_ops = {
	.first_type = CE_REC_CLR_EVENT,
	.last_type = CE_REC_CLR_EVENT,
	.emit = emit_clr_event,
	.event = clr_event,
};
