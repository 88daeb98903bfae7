/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * metrics.h - --metrics ADDR:PORT: the Prometheus text exposition of what
 * the collector sees, served by a thread of its own (a scrape never waits
 * for tracing, nor tracing for a scrape): per process runtime health (GCs,
 * pauses, exceptions, JIT, contention, thread pool, allocations), the
 * collector's own health (events, bytes, drops, ring fill, probes,
 * processes, the ClickHouse exporter), its build and its process.  Under
 * the daemon the text goes to the daemon, which serves it
 * (metrics_shm.h).
 */
#ifndef EBPF_COLLECT_METRICS_H
#define EBPF_COLLECT_METRICS_H

#include <stddef.h>
#include <stdint.h>
#include "metrics_agg.h"

struct ect_table;
struct metrics;
struct pipeline_consumer_ops;

/* The collector's own numbers, read every 0.5 s through metrics_opts.health. */
struct metrics_health {
	uint64_t rb_drops, payload_faults, nested_drops, filter_drops, oversize, batch_drops;
	uint64_t kernel_lost, usdt_lost;
	double ring_fill;
	uint64_t probes, processes;
};

struct metrics_opts {
	const char *addr;		/* listen on "127.0.0.1:9464" */
	const char *host;		/* the label of the collector's own numbers */
	struct magg_opts agg;		/* the runtime numbers' labels */
	uint64_t fr_ns, fr_bytes;	/* the flight recorder's window; 0: none, or not by that */
	const struct ect_table *table;	/* the runtime's events */
	void (*health)(void *ctx, struct metrics_health *h);
	void *health_ctx;
};

/* NULL and a one-line reason in err. */
struct metrics *metrics__start(const struct metrics_opts *o, char *err, size_t errlen);

/* Publish x's health (ch_export__stats) from now on: batches and rows sent,
 * failed and dropped, the spool, the time since ClickHouse last took a
 * batch.  x outlives the consumer's ticks (fleet__stop). */
struct ch_export;
void metrics__watch_export(struct metrics *m, struct ch_export *x);
/* x stopped: st, its final counters, are what metrics__stop publishes. */
struct ch_export_stats;
void metrics__export_stopped(struct metrics *m, const struct ch_export_stats *st);

/* The pipeline's consumer (pipeline.h), ctx the struct metrics: every
 * record, in time order, as it leaves the reorder buffer; every poll, the
 * collector's own counters. */
extern const struct pipeline_consumer_ops metrics_consumer;

/* Publish the final numbers and, serving them ourselves and if anything
 * has scraped us, wait up to 5 s for one more scrape to read them (counts after the last scrape
 * would otherwise never reach Prometheus); stop serving and free.
 * NULL-safe. */
void metrics__stop(struct metrics *m);

#endif
