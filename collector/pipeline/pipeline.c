// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pipeline.c - the sources and consumers registered with the pipeline, and
 * the way out of the reorder window to them and the recorder (pipeline.h).
 */
#define LOG_PREFIX "ebpf-collect: "
#include <errno.h>
#include "clock.h"
#include "log.h"
#include "reorder.h"
#include "pipeline.h"

int pipeline__add_source(struct pipeline *p, const struct pipeline_source_ops *ops, void *ctx,
			 const char *name)
{
	uint32_t t;

	if (p->nr_src == PIPELINE_MAX_SOURCES) {
		pr_warn("cannot register source %s: the pipeline takes at most %d sources\n",
			name, PIPELINE_MAX_SOURCES);
		return -ENOSPC;
	}
	if ((ops->arrive || ops->emit) &&
	    (ops->first_type > ops->last_type || ops->last_type >= PIPELINE_TYPES)) {
		pr_warn("cannot register source %s: record types %u..%u are not within "
			"the dispatch table's 0..%d\n", name, ops->first_type, ops->last_type,
			PIPELINE_TYPES - 1);
		return -EINVAL;
	}
	p->src[p->nr_src++] = (struct pipeline_source){ ops, ctx };
	for (t = ops->first_type; (ops->arrive || ops->emit) && t <= ops->last_type; t++) {
		if (ops->arrive && !p->arrive_src[t])
			p->arrive_src[t] = (uint8_t)p->nr_src;
		if (ops->emit && !p->emit_src[t])
			p->emit_src[t] = (uint8_t)p->nr_src;
	}
	return 0;
}

int pipeline__add_consumer(struct pipeline *p, const struct pipeline_consumer_ops *ops,
			   void *ctx, const char *name)
{
	if (p->nr_cons == PIPELINE_MAX_CONSUMERS) {
		pr_warn("cannot register consumer %s: the pipeline takes at most %d consumers\n",
			name, PIPELINE_MAX_CONSUMERS);
		return -ENOSPC;
	}
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
	int i, err, soon = 0;

	for (i = 0; i < p->nr_src; i++) {
		if (!p->src[i].ops->poll)
			continue;
		err = p->src[i].ops->poll(p->src[i].ctx, p);
		if (err < 0)
			return err;
		soon |= err > 0;
	}
	return soon;
}

/* The reorder buffer's callback: every record in time order. */
static int route(void *ctx, const void *rec, size_t len)
{
	struct pipeline *p = ctx;
	struct pipeline_event ev;
	int i, is_event = -1;	/* -1: not read yet */

	if (recorder__past_stop(p, rec, len))
		return 0;	/* the trace ends at the --stop-on event, names still follow */
	for (i = 0; i < p->nr_cons; i++) {
		const struct pipeline_consumer *c = &p->cons[i];

		c->ops->record(c->ctx, rec, len);
		if (!c->ops->event)
			continue;
		if (is_event < 0)	/* read once for every consumer */
			is_event = pipeline__event(p, rec, len, &ev);
		if (is_event)
			c->ops->event(c->ctx, &ev);
	}
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
	return pipeline__pop(p, ring_pop_cutoff(p, mono_ns(), window));
}

int pipeline__tick(struct pipeline *p, uint64_t now, uint64_t watermark)
{
	int i;

	for (i = 0; i < p->nr_cons; i++)
		if (p->cons[i].ops->tick)
			p->cons[i].ops->tick(p->cons[i].ctx, now);
	return recorder__tick(p, now, watermark);
}
