// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * wiring.c - the session's side of the pipeline (pipeline.h): the sources
 * every session has, and the command line's options for them, the recorder
 * and the fleet outputs, which read no options of their own.
 */
#include <bpf/libbpf.h>
#include "kernel_events.h"
#include "batch.h"
#include "exit_codes.h"
#include "collector.h"

/* ------------------------------------------------------------ sources */

/* The sources of every session: the runtime's events and its batched
 * runs, EventPipe sessions, stock .NET through the tracepoint shim.  The others come with their options (--usdt,
 * --kernel, the mappings for frame names).  EXIT_OK or EXIT_FAIL. */
int init_sources(struct collector *c, volatile sig_atomic_t *stop)
{
	c->clr.o = (struct clr_opts){
		.manifest = env.manifest, .output = env.output, .batched = env.batched,
		.kstack = env.kstack, .no_ustack = env.no_ustack, .stop = stop,
	};
	c->clr.table = c->table;
	c->clr.sel = &c->sel;
	c->clr.rec = &c->pipe.rec;
	c->tps.table = c->table;
	c->tps.sel = &c->sel;
	c->tps.ustack = !env.no_ustack;
	c->tps.kstack = env.kstack;
	/* --batched; kernel stacks only the per-event probe gives */
	c->tps.batched = env.batched == BATCH_ALL && !env.kstack;
	if (pipeline__add_source(&c->pipe, &clr_source_ops, &c->clr, "CLR events") ||
	    pipeline__add_source(&c->pipe, &batch_source_ops, &c->clr, "batched CLR events") ||
	    pipeline__add_source(&c->pipe, &ep_targets_source_ops, &c->ept, "EventPipe") ||
	    pipeline__add_source(&c->pipe, &tpshim_source_ops, &c->tps, "tracepoint shim") ||
	    pipeline__add_source(&c->pipe, &tpshim_batch_source_ops, &c->tps,
				 "batched tracepoint shim calls"))
		return EXIT_FAIL;
	return EXIT_OK;
}

/* ------------------------------------------------------------ recorder */

static bool event_selected(void *ctx, const struct ect_event *ev)
{
	return selection__matches(ctx, ev);
}

int init_recorder(struct collector *c, volatile sig_atomic_t *stop)
{
	struct recorder_opts o = {
		.output = env.output,
		.dump_on = env.dump_on, .nr_dump_on = env.nr_dump_on,
		.stop_on = env.stop_on, .nr_stop_on = env.nr_stop_on,
		.filter = env.filter, .nr_filter = env.nr_filter,
		.flight = env.flight, .fr_ns = env.fr_ns, .fr_bytes = env.fr_bytes,
		.rotate_ns = env.rotate_ns, .rotate_bytes = env.rotate_bytes,
		.keep = env.keep, .keep_dumps = env.keep_dumps,
		.split_dir = env.split_dir,
		.stop = stop,
		.selected = event_selected, .selected_ctx = &c->sel,
	};

	c->pipe.table = c->table;
	return recorder__init(&c->pipe, &o);
}

/* ------------------------------------------------------------ fleet */

/* --metrics: the collector's own numbers. */
static void fleet_health(void *ctx, struct metrics_health *h)
{
	const struct collector *c = ctx;
	struct ring *r = c->pipe.rb ? ring_buffer__ring(c->pipe.rb, 0) : NULL;

	h->rb_drops = c->totals.rb_drops;
	h->payload_faults = c->totals.payload_faults;
	h->nested_drops = c->totals.nested_drops;
	h->filter_drops = c->totals.filter_drops;
	h->oversize = c->clr.oversize;
	h->batch_drops = c->totals.batch_drops;	/* events of runs the ring could not take */
	h->kernel_lost = kernel_events__lost(c->ke);
	h->usdt_lost = c->ug ? usdt_generic__lost(&c->ug_totals) : 0;
	h->ring_fill = r && ring__size(r) ? (double)ring__avail_data_size(r) / ring__size(r) : 0;
	h->probes = c->clr.nr_links + usdt_generic__nr_links(c->ug);
	h->processes = env.nr_pids;
}

int start_fleet(struct collector *c)
{
	struct fleet_opts o = {
		.metrics_addr = env.metrics_addr, .clickhouse = env.clickhouse,
		.host = env.host_label, .attrib = env.attrib, .metrics_pid = env.metrics_pid,
		.export_ns = env.export_ns, .spool_dir = env.spool_dir, .spool_max = env.spool_max,
		.fr_ns = env.flight ? env.fr_ns : 0, .fr_bytes = env.flight ? env.fr_bytes : 0,
		.table = c->table, .sym = c->pipe.sym,
		.health = fleet_health, .health_ctx = c,
	};

	return fleet__start(&c->fleet, &o, &c->pipe);
}
