// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * batch.c - the batched in-process path (batch.h): the provider's control
 * block and event names, the batch probe, and runs back into events.
 */
#define LOG_PREFIX "ebpf-collect: "
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "clr_events.skel.h"
#include "clock.h"
#include "grow.h"
#include "collector_event.h"
#include "log.h"
#include "event_table.h"
#include "provider_abi.h"
#include "reorder.h"
#include "selection.h"
#include "tracer_pause.h"
#include "pipeline.h"
#include "clr_events.h"
#include "batch.h"
#include "batch_run.h"
#include "proc_mem.h"

#define CTL_HEAD	sizeof(struct prov_batch_ctl)	/* bytes before the mask */
#define NO_EVENT	UINT32_MAX
_Static_assert(CE_BATCH_MAX >= PROV_BATCH_CAP, "clr_batch copies a whole buffer");
_Static_assert(PROV_BATCH_MAX_FRAMES <= CE_MAX_STACK_DEPTH, "a batched stack fits a record");

/* One provider file in one process. */
struct batch_file {
	dev_t dev;
	ino_t ino;
	uint64_t ctl_off;		/* file offset */
	struct batch_ctl ctl;		/* pid; addr once mapped (else 0); n events */
	uint32_t n_batched, n_stacks;
	uint32_t *table_idx;		/* batch index -> event table index */
	uint8_t *mask;
};

struct batch {
	struct batch_file *files;
	size_t n, cap;
	struct batch_seqs seqs;
	uint64_t runs, events, gaps, bad;
	uint64_t unanswered;		/* processes that did not hand over at the end */
};

/* The high-rate keywords whose events nobody reads stacks of: Type,
 * GCHeapDump, GCHeapSurvivalAndMovement, GCHeapAndTypeNames (bulk type,
 * heap graph and object-movement events, thousands per GC).  The sampled
 * allocation keywords are not among them: their stacks are the point. */
#define AUTO_KEYWORDS	(0x80000ULL | 0x100000ULL | 0x400000ULL | 0x1000000ULL)

static bool has_filter(const struct clr_source *c, const struct ect_event *ev)
{
	return recorder__has_filter(c->rec, ev - c->table->events);
}

/* The mask byte for a selected event: 0 not batched, PROV_BATCH_ON, with
 * PROV_BATCH_STACK for the stack the provider walks.  Kernel stacks
 * (--kernel-stack) only the probe gives; the heap keywords' events go
 * without a stack. */
static uint8_t batch_mode(const struct clr_source *c, const struct ect_event *ev)
{
	if (c->o.batched == BATCH_OFF || has_filter(c, ev))
		return 0;
	if (c->o.batched == BATCH_ALL)
		return c->o.kstack ? 0 : c->o.no_ustack ? PROV_BATCH_ON :
		       PROV_BATCH_ON | PROV_BATCH_STACK;
	return (ev->keywords & AUTO_KEYWORDS) && !(ev->keywords & ~AUTO_KEYWORDS) ?
	       PROV_BATCH_ON : 0;
}

/* Is this selected event batched in this trace? */
static bool batch_wanted(const struct clr_source *c, const struct ect_event *ev)
{
	return batch_mode(c, ev) != 0;
}

static struct batch *get_batch(struct clr_source *c)
{
	if (!c->batch)
		c->batch = calloc(1, sizeof(*c->batch));
	return c->batch;
}

/* The provider's event names: "<usdt provider>:<symbol>\0"... */
static int read_names(struct clr_source *c, struct batch_file *f, const char *open_path)
{
	uint64_t off = 0, size = 0;
	char *buf, *p;
	uint32_t i;
	int fd, err;

	err = provider_object__find(open_path, PROV_BATCH_EVENTS_SUFFIX, &off, &size);
	if (err)
		return err;
	buf = malloc(size + 1);
	fd = open(open_path, O_RDONLY | O_CLOEXEC);
	if (!buf || fd < 0 || pread(fd, buf, size, off) != (ssize_t)size) {
		err = !buf ? -ENOMEM : -EIO;
		goto out;
	}
	buf[size] = 0;
	f->table_idx = calloc(f->ctl.n, sizeof(*f->table_idx));
	f->mask = calloc(f->ctl.n, 1);
	err = f->table_idx && f->mask ? 0 : -ENOMEM;
	for (i = 0, p = buf; !err && i < f->ctl.n; i++) {
		char *colon = p < buf + size ? strchr(p, ':') : NULL;
		const struct ect_event *ev = NULL;

		f->table_idx[i] = NO_EVENT;
		if (colon) {
			*colon = 0;
			ev = ect_find_symbol(c->table, p, colon + 1);
			*colon = ':';
		}
		if (ev && selection__matches(c->sel, ev) && batch_wanted(c, ev)) {
			f->table_idx[i] = ev - c->table->events;
			f->mask[i] = batch_mode(c, ev);
			f->n_stacks += !!(f->mask[i] & PROV_BATCH_STACK);
			f->n_batched++;
			pr_debug("%s: %s batched\n", open_path, p);
		}
		p += p < buf + size ? strlen(p) + 1 : 0;
	}
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return err;
}

/* The mask into the process, a new session, active: once it maps the file. */
static int write_mask(struct batch_file *f)
{
	if (!f->ctl.addr &&
	    tracer_pause__resolve(f->ctl.pid, f->dev, f->ino, f->ctl_off, &f->ctl.addr))
		return -EAGAIN;
	return batch_ctl__start(&f->ctl, f->mask);
}

static int attach_probe(struct clr_source *c, pid_t pid, const char *open_path,
			const char *prefix, size_t file_idx)
{
	LIBBPF_OPTS(bpf_usdt_opts, uopts, .usdt_cookie = file_idx);
	struct bpf_link *link;

	link = bpf_program__attach_usdt(c->skel->progs.clr_batch, pid, open_path, prefix,
					PROV_BATCH_PROBE, &uopts);
	if (!link)
		return -errno;
	if (GROW(c->links, c->cap_links, c->nr_links + 1)) {
		bpf_link__destroy(link);
		return -ENOMEM;
	}
	c->links[c->nr_links++] = link;
	return 0;
}

int batch__attach_file(struct clr_source *c, pid_t pid, const char *path,
		       const char *open_path, dev_t dev, ino_t ino, const char *prefix)
{
	struct batch_file f = { .dev = dev, .ino = ino, .ctl.pid = pid };
	uint64_t size = 0;
	struct batch *b;
	int err;

	if (c->o.batched == BATCH_OFF ||
	    provider_object__find(open_path, PROV_BATCH_CTL_SUFFIX, &f.ctl_off, &size) ||
	    size <= CTL_HEAD)
		return 0;
	f.ctl.n = (uint32_t)(size - CTL_HEAD);
	b = get_batch(c);
	if (!b)
		return -ENOMEM;
	err = read_names(c, &f, open_path);
	if (err || !f.n_batched)
		goto skip;
	err = attach_probe(c, pid, open_path, prefix, b->n);
	if (!err)
		err = GROW(b->files, b->cap, b->n + 1);
	if (err)
		goto skip;
	b->files[b->n++] = f;
	err = write_mask(&b->files[b->n - 1]);
	if (err && err != -EAGAIN)
		pr_warn("pid %d: cannot enable batched events in %s: %s\n", pid, path,
			strerror(-err));
	if (f.n_stacks)
		pr_info("pid %d: %u events batched in-process in %s (user stacks walked by the "
			"provider)\n", pid, f.n_batched, path);
	else
		pr_info("pid %d: %u events batched in-process in %s (no stacks on them)\n", pid,
			f.n_batched, path);
	return f.n_batched;
skip:
	if (err && err != -ENOENT)
		pr_warn("pid %d: %s: batched mode not used: %s\n", pid, path, strerror(-err));
	free(f.table_idx);
	free(f.mask);
	return err == -ENOMEM ? err : 0;
}

/* ------------------------------------------------------------ runs */

/* One event of a run as the per-event probe would have recorded it. */
static int push_event(struct reorder *ro, const struct ce_clr_batch *r, uint32_t table_idx,
		      const struct prov_batch_rec *be, const uint8_t *ids, const uint64_t *frames,
		      uint64_t depth, const uint8_t *payload)
{
	uint32_t n = (uint32_t)depth;
	struct ce_clr_event *e = reorder__alloc(ro, be->timestamp,
						sizeof(*e) + n * 8 + be->payload_len);

	if (!e)
		return -ENOMEM;
	memset(e, 0, sizeof(*e));
	e->ustack_depth = n;
	if (depth & PROV_BATCH_DEPTH_CUT)
		e->flags |= CE_F_USTACK_TRUNCATED;
	memcpy(e + 1, frames, n * 8);
	e->hdr.timestamp = be->timestamp;
	e->hdr.type = CE_REC_CLR_EVENT;
	e->hdr.size = sizeof(*e) + n * 8 + be->payload_len;
	e->hdr.pid = r->hdr.pid;
	e->hdr.tid = r->hdr.tid;
	e->cookie = table_idx;
	e->cpu = be->cpu;
	if (be->flags & PROV_BATCH_F_ACTIVITY) {
		memcpy(e->activity_id, ids, 16);
		e->flags |= CE_F_HAS_ACTIVITY;
		ids += 16;
	}
	if (be->flags & PROV_BATCH_F_RELATED) {
		memcpy(e->related_activity_id, ids, 16);
		e->flags |= CE_F_HAS_RELATED;
	}
	e->payload_len = e->payload_orig_len = be->payload_len;
	memcpy((uint8_t *)(e + 1) + n * 8, payload, be->payload_len);
	return 0;
}

/* A run as it leaves the ring: each event into the reorder buffer. */
static int batch_split(void *ctx, struct pipeline *pl, const void *rec, size_t len)
{
	struct clr_source *c = ctx;
	const struct ce_clr_batch *r = rec;
	const uint8_t *p = (const uint8_t *)(r + 1), *end;
	struct batch *b = c->batch;
	const struct batch_file *f;
	struct batch_rec be;
	uint32_t n = 0;
	int err = 0, more;

	if (!b || len < sizeof(*r) || len != sizeof(*r) + r->data_len || r->cookie >= b->n) {
		pl->bad_records++;
		return 0;
	}
	f = &b->files[r->cookie];
	end = p + r->data_len;
	b->gaps += batch_seqs__check(&b->seqs, r->hdr.pid, r->hdr.tid, r->first_seq, r->count);
	b->runs++;
	reorder__run_begin(pl->ro);
	while ((more = batch_run__next(&p, end, &be)) > 0) {
		if (be.h->index >= f->ctl.n || f->table_idx[be.h->index] == NO_EVENT)
			break;
		err = push_event(pl->ro, r, f->table_idx[be.h->index], be.h, be.ids, be.frames,
				 be.depth, be.payload);
		if (err)
			break;
		n++;
	}
	reorder__run_end(pl->ro);
	if (err)
		return err;
	b->events += n;
	if (n != r->count || more)
		b->bad++;	/* the rest of a malformed run is not guessed at */
	return 0;
}

const struct pipeline_source_ops batch_source_ops = {
	.first_type = CE_REC_CLR_BATCH,
	.last_type = CE_REC_CLR_BATCH,
	.arrive = batch_split,
};

void batch__tick(struct clr_source *c)
{
	size_t i;

	for (i = 0; c->batch && i < c->batch->n; i++) {
		struct batch_file *f = &c->batch->files[i];
		int err;

		if (f->ctl.written || f->ctl.released)
			continue;
		err = write_mask(f);
		if (err && err != -EAGAIN) {
			f->ctl.released = true;	/* gone, or not ours: per-event probes go on */
			pr_debug("pid %d: batched mode not enabled: %s\n", f->ctl.pid,
				 strerror(-err));
		}
	}
}

/* Ask every process for its buffers; true while some have not answered. */
static bool flush_pending(void *ctx, bool ask)
{
	struct batch *b = ctx;
	bool pending = false;
	size_t i;

	for (i = 0; i < b->n; i++)
		pending |= batch_ctl__pending(&b->files[i].ctl, ask);
	return pending;
}

int batch__flush(struct clr_source *c, struct pipeline *p)
{
	struct batch *b = c->batch;
	size_t i;
	int err;

	if (!b)
		return 0;
	err = batch_ctl__wait(flush_pending, b, p);
	if (err != 1)
		return err;
	for (i = 0; i < b->n; i++)
		if (b->files[i].ctl.asked && !b->files[i].ctl.released) {
			b->unanswered++;
			pr_warn("pid %d: batched events: its flusher did not hand over the buffers "
				"within %llu ms (the process is stopped or starved); the events "
				"still in them are missing\n", b->files[i].ctl.pid,
				BATCH_FLUSH_WAIT_NS / 1000000);
		}
	return 0;
}

void batch__release(struct clr_source *c)
{
	size_t i;

	for (i = 0; c->batch && i < c->batch->n; i++)
		batch_ctl__release(&c->batch->files[i].ctl);
}

bool batch__flowing(const struct clr_source *c)
{
	return c->batch && c->batch->runs;
}

void batch__print(const struct clr_source *c, uint64_t batch_drops)
{
	const struct batch *b = c->batch;

	if (!b || !b->runs)
		return;
	pr_warn("batched: %llu events in %llu runs from the runtime's buffers; %llu lost in "
		"runs the ring could not take (%llu by sequence gaps)%s\n",
		(unsigned long long)b->events, (unsigned long long)b->runs,
		(unsigned long long)batch_drops, (unsigned long long)b->gaps,
		b->bad ? "; malformed runs cut short" : "");
}

void batch__free(struct clr_source *c)
{
	size_t i;

	for (i = 0; c->batch && i < c->batch->n; i++) {
		free(c->batch->files[i].table_idx);
		free(c->batch->files[i].mask);
	}
	if (c->batch)
		free(c->batch->files);
	free(c->batch);
	c->batch = NULL;
}
