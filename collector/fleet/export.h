/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * export.h - --clickhouse URL: every interval the node's aggregated, named
 * CPU stacks (folded, with sample counts) and runtime event counts and
 * durations, labelled with host, service, pid and who the process is
 * (comm, exe, cgroup, container, pod: attrib.h), sent to ClickHouse over
 * HTTP; what ClickHouse cannot take waits in a bounded on-disk spool and is
 * replayed; what the spool cannot hold is counted.
 */
#ifndef EBPF_COLLECT_EXPORT_H
#define EBPF_COLLECT_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include "attrib.h"

struct ch_export;
struct ect_table;
struct symbolize;
struct pipeline_consumer_ops;

struct ch_export_opts {
	const char *url;		/* http://127.0.0.1:8123 */
	const char *host;		/* the host column */
	struct attrib_opts attrib;	/* the service column */
	const char *spool_dir;		/* NULL: no spool (a failed send is counted lost) */
	uint64_t spool_max;		/* bytes */
	uint64_t interval_ns;
	const struct ect_table *table;	/* names of the runtime's events */
	struct symbolize *sym;		/* the collector's frame names (NULL: --no-symbols) */
};

/* NULL and a one-line reason in err. */
struct ch_export *ch_export__start(const struct ch_export_opts *o, char *err, size_t errlen);

/* The pipeline's consumer (pipeline.h), ctx the struct ch_export: every
 * record, in time order, as it leaves the reorder buffer; every poll, send
 * what an interval gathered.  Never blocks tracing for long (sends run in
 * a thread of their own). */
extern const struct pipeline_consumer_ops ch_export_consumer;

struct ch_export_stats {
	uint64_t batches, rows, samples;		/* made, one batch per table a tick */
	uint64_t sent_batches, sent_rows, sent_samples;	/* in ClickHouse */
	uint64_t spooled_batches, spooled_rows;		/* waiting in the spool now */
	uint64_t spooled_bytes;				/* its files' bytes */
	uint64_t dropped_batches, dropped_rows, dropped_samples;	/* spool full or none */
	uint64_t failed_inserts;			/* each spooled and retried */
	uint64_t outages;
	uint64_t last_sent_ns;		/* CLOCK_REALTIME of the last batch ClickHouse took; 0: none */
};

/* A consistent snapshot of the counters; zeros for NULL.  Any thread, but
 * not once ch_export__stop has begun (it frees x): --metrics reads it in
 * its tick on the tracing thread (exporter health). */
void ch_export__stats(struct ch_export *x, struct ch_export_stats *st);

/* Send what is left (or spool it), print the counters, leave them in
 * *final (may be NULL; untouched for a NULL x), stop; NULL-safe. */
void ch_export__stop(struct ch_export *x, struct ch_export_stats *final);

#endif
