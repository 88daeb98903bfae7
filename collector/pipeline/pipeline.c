// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pipeline.c - the sources and consumers registered with the pipeline, the
 * way out of the reorder window, and the one dispatcher by record type
 * (pipeline.h).
 */
#define LOG_PREFIX "ebpf-collect: "
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/types.h>
#include "log.h"
#include "helpers.h"
#include "collector_event.h"
#include "reorder.h"
#include "symbolize.h"
#include "pipeline.h"

int pipeline__add_source(struct pipeline *p, const struct pipeline_source_ops *ops, void *ctx)
{
	if (p->nr_src == PIPELINE_MAX_SOURCES)
		return -ENOSPC;
	p->src[p->nr_src++] = (struct pipeline_source){ ops, ctx };
	return 0;
}

int pipeline__add_consumer(struct pipeline *p, const struct pipeline_consumer_ops *ops,
			   void *ctx)
{
	if (p->nr_cons == PIPELINE_MAX_CONSUMERS)
		return -ENOSPC;
	p->cons[p->nr_cons++] = (struct pipeline_consumer){ ops, ctx };
	return 0;
}

void pipeline__remove_consumer(struct pipeline *p, void *ctx)
{
	int i, n = 0;

	for (i = 0; i < p->nr_cons; i++)
		if (!ctx || p->cons[i].ctx != ctx)
			p->cons[n++] = p->cons[i];
	p->nr_cons = n;
}

int pipeline__poll_sources(struct pipeline *p)
{
	int i, err;

	for (i = 0; i < p->nr_src; i++) {
		if (!p->src[i].ops->poll)
			continue;
		err = p->src[i].ops->poll(p->src[i].ctx, p);
		if (err < 0)
			return err;
	}
	return 0;
}

/* The reorder buffer's callback: every record in time order. */
static int route(void *ctx, const void *rec, size_t len)
{
	struct pipeline *p = ctx;
	int i;

	if (recorder__past_stop(p, rec, len))
		return 0;	/* the trace ends at the --stop-on event, names still follow */
	for (i = 0; i < p->nr_cons; i++)
		p->cons[i].ops->record(p->cons[i].ctx, rec, len);
	return recorder__route(p, rec, len);
}

int pipeline__pop(struct pipeline *p, uint64_t cutoff)
{
	return reorder__pop_before(p->ro, cutoff, route, p);
}

int pipeline__step(struct pipeline *p, int timeout_ms, uint64_t window)
{
	int err = ring_round(p, timeout_ms);

	if (err)
		return err;
	if (pipeline__poll_sources(p) < 0)
		return -ENOMEM;
	return pipeline__pop(p, ring_pop_cutoff(p, now_ns(), window));
}

int pipeline__tick(struct pipeline *p, uint64_t now, uint64_t watermark)
{
	int i;

	for (i = 0; i < p->nr_cons; i++)
		if (p->cons[i].ops->tick)
			p->cons[i].ops->tick(p->cons[i].ctx, now);
	return recorder__tick(p, now, watermark);
}

/* ------------------------------------------------------------ emit */

/*
 * Every emitter keeps one contract: 1 when the record became an event of
 * the trace, 0 when it did not (malformed, filtered or a loss note; counted
 * where that was decided), -errno when the file could not be written.
 * account() does what follows for all of them.
 */
static int account(struct pipeline *p, const struct ce_header *h, int ret)
{
	if (ret < 0) {
		if (!p->rec.fr)	/* a flight-recorder dump says it */
			pr_warn("cannot write to %s: %s\n", p->rec.path, strerror(-ret));
		return ret;
	}
	if (ret > 0 && p->w_tmp) {	/* the first event: the file takes its name */
		int err = p->hooks.publish(p->hooks.ctx);

		if (err)
			return err;
	}
	if (ret > 0) {
		p->records += !p->rec.again;	/* a record dumped before counts once */
		p->rec.file_records++;
		if (!p->first_ts)
			p->first_ts = h->timestamp;
		if (h->timestamp > p->last_ts)
			p->last_ts = h->timestamp;
	}
	return 0;
}

/* Frames of a source that names them through a callback (kernel events). */
static int name_stack(void *ctx, pid_t pid, uint64_t tid, uint64_t ts, const uint64_t *stack,
		      uint32_t depth)
{
	return symbolize__stack(ctx, pid, tid, ts, stack, depth);
}

static const struct pipeline_source *emitter(const struct pipeline *p, uint32_t type)
{
	int i;

	for (i = 0; i < p->nr_src; i++)
		if (p->src[i].ops->emit && type >= p->src[i].ops->first_type &&
		    type <= p->src[i].ops->last_type)
			return &p->src[i];
	return NULL;
}

/* Write one record, in timestamp order, through the emit of its type. */
int pipeline__emit(struct pipeline *p, const void *rec, size_t len)
{
	const struct ce_header *h = rec;
	const struct pipeline_source *s;
	struct pipeline_sink sink = {
		.w = p->w, .sym = p->sym, .learnt = p->rec.fr != NULL, .again = p->rec.again,
		.bad_records = &p->bad_records,
	};

	if (h->type == CE_REC_LOSS_NOTE)	/* flight recorder: a loss in the window */
		return account(p, h, recorder__emit_loss(p, rec, len));
	s = emitter(p, h->type);
	if (!s) {
		p->bad_records++;
		return account(p, h, 0);
	}
	if (p->sym) {
		sink.symbolizer = symbolize__symbolizer(p->sym);
		sink.stack = name_stack;
		sink.stack_ctx = p->sym;
	}
	return account(p, h, s->ops->emit(s->ctx, &sink, rec, len));
}
