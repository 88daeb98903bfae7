// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tpshim_batch.c - the tracepoint shim's batched mode, the tracer's side
 * (tpshim_batch.h).
 */
#define LOG_PREFIX "ebpf-collect: "
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "collector_event.h"
#include "tpshim_event.h"
#include "batch_run.h"
#include "log.h"
#include "pipeline.h"
#include "proc_mem.h"
#include "reorder.h"
#include "tpshim_batch.h"
#include "tracepoint_abi.h"

/* the shim's call record is the per-event record's, from args on */
_Static_assert(TPSHIM_MAX_ARGS == TPS_MAX_ARGS && TPSHIM_REG_ARGS == TPS_REG_ARGS &&
	       TPSHIM_FP_ARGS == TPS_FP_ARGS && TPSHIM_STR_MAX == TPS_STR_MAX &&
	       TPSHIM_DATA_MAX == TPS_DATA_MAX && TPSHIM_NO_ARG == TPS_NO_ARG, "tps limits");
_Static_assert(TPSHIM_CALL_CUT == TPS_F_CUT && TPSHIM_CALL_FAULT == TPS_F_FAULT, "tps flags");
_Static_assert(CE_BATCH_MAX >= PROV_BATCH_CAP, "tpshim_batch copies a whole buffer");
_Static_assert(PROV_BATCH_MAX_FRAMES <= CE_MAX_STACK_DEPTH, "a batched stack fits a record");

struct tps_batch {
	struct batch_ctl ctl;		/* pid, the control block, TPSHIM_CAPACITY */
	uint64_t specs, site, sema;	/* addresses in the process */
	uint8_t mask[TPSHIM_CAPACITY];
	uint32_t n_batched, n_stacks;
	struct bpf_link *link;		/* the batch site, holding the semaphore */
	struct batch_seqs seqs;
	uint64_t runs, calls, gaps, bad;
};

int tps_batch__repair(pid_t pid, const struct tpshim_table *t)
{
	struct batch_ctl c = { .pid = pid, .addr = t->batch_ctl, .n = TPSHIM_CAPACITY,
			       .written = true };
	static uint8_t mask[TPSHIM_CAPACITY];
	struct prov_batch_ctl h;
	unsigned short sema;
	uint32_t set = 0;
	int err;

	if (!t->batch_ctl || !t->batch_sema)
		return 0;	/* an older shim: no batched mode */
	err = proc_mem_rw(pid, t->batch_sema, &sema, sizeof(sema), false);
	if (!err)
		err = proc_mem_rw(pid, t->batch_ctl, &h, sizeof(h), false);
	if (!err)
		err = proc_mem_rw(pid, t->batch_ctl + sizeof(h), mask, sizeof(mask), false);
	if (err)
		return err;
	for (size_t i = 0; i < sizeof(mask); i++)
		set += !!mask[i];
	if (sema || (!h.active && !set))
		return 0;	/* a live tracer's, or nothing left */
	batch_ctl__release(&c);
	pr_warn("pid %d: the tracepoint shim's batched mode was left set by a tracer that died "
		"(session %u, %u tracepoints): cleared\n", pid, h.session, set);
	return 1;
}

struct tps_batch *tps_batch__new(pid_t pid, const struct tpshim_table *t)
{
	struct tps_batch *b;

	if (!t->batch_ctl || !t->batch_site || !t->batch_sema || !t->batch_specs) {
		errno = ENOTSUP;
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->ctl = (struct batch_ctl){ .pid = pid, .addr = t->batch_ctl, .n = TPSHIM_CAPACITY };
	b->specs = t->batch_specs;
	b->site = t->batch_site;
	b->sema = t->batch_sema;
	return b;
}

int tps_batch__add(struct tps_batch *b, uint32_t index, const struct tpshim_spec *sp, bool stack)
{
	int err;

	if (index >= TPSHIM_CAPACITY)
		return -ERANGE;
	err = proc_mem_rw(b->ctl.pid, b->specs + (uint64_t)index * sizeof(*sp), (void *)sp,
			  sizeof(*sp), true);
	if (err)
		return err;
	b->mask[index] = PROV_BATCH_ON | (stack ? PROV_BATCH_STACK : 0);
	b->n_batched++;
	b->n_stacks += stack;
	return 0;
}

int tps_batch__start(struct tps_batch *b, struct bpf_program *prog)
{
	LIBBPF_OPTS(bpf_uprobe_opts, uo);
	char path[96], sema_path[96];
	uint64_t off;
	int err;

	if (!b->n_batched)
		return 0;
	err = proc_mapped_at(b->ctl.pid, b->site, path, sizeof(path), &off);
	if (!err)
		err = proc_mapped_at(b->ctl.pid, b->sema, sema_path, sizeof(sema_path),
				     &uo.ref_ctr_offset);
	if (err) {
		pr_warn("pid %d: the tracepoint shim's batch site: %s\n", b->ctl.pid, strerror(-err));
		return err;
	}
	b->link = bpf_program__attach_uprobe_opts(prog, b->ctl.pid, path, off, &uo);
	if (!b->link) {
		err = -errno;
		pr_warn("pid %d: cannot attach the tracepoint shim's batch site: %s\n", b->ctl.pid,
			strerror(-err));
		return err;
	}
	err = batch_ctl__start(&b->ctl, b->mask);
	if (err) {
		pr_warn("pid %d: cannot enable the tracepoint shim's batched mode: %s\n", b->ctl.pid,
			strerror(-err));
		return err;
	}
	pr_info("pid %d: %u tracepoints batched in-process in the tracepoint shim (%s)\n",
		b->ctl.pid, b->n_batched, b->n_stacks ? "user stacks walked by the shim" :
		"no stacks on them");
	return (int)b->n_batched;
}

bool tps_batch__pending(struct tps_batch *b, bool ask)
{
	return b && b->link && batch_ctl__pending(&b->ctl, ask);
}

void tps_batch__release(struct tps_batch *b)
{
	if (!b)
		return;
	batch_ctl__release(&b->ctl);
	bpf_link__destroy(b->link);
	b->link = NULL;
}

void tps_batch__print(const struct tps_batch *b, FILE *f)
{
	if (!b || !b->n_batched)
		return;
	fprintf(f, "pid %d: tracepoint shim batched: %" PRIu64 " calls in %" PRIu64 " runs from "
		"the shim's buffers, %" PRIu64 " lost by sequence gaps%s\n", b->ctl.pid, b->calls,
		b->runs, b->gaps, b->bad ? "; malformed runs cut short" : "");
}

void tps_batch__free(struct tps_batch *b)
{
	tps_batch__release(b);
	free(b);
}

/* One call of a run as the per-event probe would have recorded it. */
static size_t as_event(const struct ce_clr_batch *r, const struct batch_rec *br,
		       struct tps_event *e, size_t room)
{
	const struct tpshim_call *c = (const void *)br->payload;
	uint32_t nf = (uint32_t)br->depth;
	size_t size = sizeof(*e) + nf * 8ull + c->data_len;

	if (br->h->payload_len < sizeof(*c) || br->h->payload_len != sizeof(*c) + c->data_len ||
	    size > room)
		return 0;
	memset(e, 0, sizeof(*e));
	e->hdr.timestamp = br->h->timestamp;
	e->hdr.type = CE_REC_TPSHIM;
	e->hdr.size = size;
	e->hdr.pid = r->hdr.pid;
	e->hdr.tid = r->hdr.tid;
	e->index = br->h->index;
	e->cpu = br->h->cpu;
	memcpy(e->args, c->args, sizeof(e->args));
	memcpy(e->fp, c->fp, sizeof(e->fp));
	memcpy(e->copied, c->copied, sizeof(e->copied));
	e->data_len = c->data_len;
	e->flags = c->flags;
	if (br->depth & PROV_BATCH_DEPTH_CUT)
		e->flags |= TPS_F_USTACK_TRUNCATED;
	e->ustack_depth = nf;
	memcpy(e + 1, br->frames, nf * 8ull);
	memcpy((uint8_t *)(e + 1) + nf * 8, c + 1, c->data_len);
	return size;
}

int tps_batch__split(struct tps_batch *b, struct pipeline *pl, const struct ce_clr_batch *r,
		     size_t len, tps_rebuild_fn rebuild, void *ctx)
{
	static uint64_t buf[(sizeof(struct tps_event) + CE_STACK_BYTES + PROV_BATCH_CAP) / 8 + 1];
	const uint8_t *p = (const uint8_t *)(r + 1), *end = p + r->data_len;
	struct tps_event *e = (struct tps_event *)buf;
	struct batch_rec br;
	uint64_t n = 0;
	int err = 0, more;

	if (len != sizeof(*r) + r->data_len) {
		pl->bad_records++;
		return 0;
	}
	b->gaps += batch_seqs__check(&b->seqs, r->hdr.pid, r->hdr.tid, r->first_seq, r->count);
	b->runs++;
	reorder__run_begin(pl->ro);
	while ((more = batch_run__next(&p, end, &br)) > 0) {
		size_t size = as_event(r, &br, e, sizeof(buf));

		if (!size)
			break;
		err = rebuild(ctx, pl, e, size);
		if (err)
			break;
		n++;
	}
	reorder__run_end(pl->ro);
	if (err)
		return err;
	b->calls += n;
	if (n != r->count || more)
		b->bad++;	/* the rest of a malformed run is not guessed at */
	return 0;
}
