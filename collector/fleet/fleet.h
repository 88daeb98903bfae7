/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * fleet.h - the fleet outputs of one collector, --metrics and --clickhouse,
 * started from their options and registered with the pipeline as its
 * consumers (pipeline.h): they see every record as it leaves the reorder
 * buffer, and a tick every poll.
 */
#ifndef EBPF_COLLECT_FLEET_H
#define EBPF_COLLECT_FLEET_H

#include <stdint.h>
#include "metrics.h"
#include "export.h"
#include "attrib.h"

struct pipeline;

struct fleet_opts {
	const char *metrics_addr;	/* --metrics; NULL: none */
	const char *clickhouse;		/* --clickhouse URL; NULL: none */
	const char *host;		/* --host; NULL: the hostname */
	struct attrib_opts attrib;	/* --service, --service-from */
	int metrics_pid;		/* --metrics-pid */
	uint64_t export_ns;		/* --export-interval; 0: 10 s */
	const char *spool_dir;		/* --spool */
	uint64_t spool_max;		/* --spool-max; 0: 256 MiB */
	uint64_t fr_ns, fr_bytes;	/* the flight recorder's window; 0: none, or not by that */
	const struct ect_table *table;	/* the runtime's events */
	struct symbolize *sym;		/* frame names; NULL with --no-symbols */
	/* --metrics: the collector's own numbers, read every 0.5 s */
	void (*health)(void *ctx, struct metrics_health *h);
	void *health_ctx;
};

struct fleet {
	struct metrics *metrics;	/* --metrics, NULL without */
	struct ch_export *export;	/* --clickhouse, NULL without */
};

/* Started before the probes.  EXIT_OK or EXIT_FAIL (said why). */
int fleet__start(struct fleet *f, const struct fleet_opts *o, struct pipeline *p);
/* After the end of the trace: the last export sent or spooled, the last
 * numbers published, both gone from p's consumers.  Again is nothing. */
void fleet__stop(struct fleet *f, struct pipeline *p);

#endif
