// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fleet.c - --metrics and --clickhouse started from their options, as the
 * pipeline's consumers (fleet.h).
 */
#define LOG_PREFIX "ebpf-collect: "
#include <stdio.h>
#include <unistd.h>
#include "exit_codes.h"
#include "log.h"
#include "pipeline.h"
#include "fleet.h"

#define DEFAULT_EXPORT_NS	(10ULL * 1000 * 1000 * 1000)
#define DEFAULT_SPOOL_MAX	(256ULL << 20)

int fleet__start(struct fleet *f, const struct fleet_opts *o, struct pipeline *p)
{
	static char hostname[256];
	struct ch_export_opts xo = {
		.url = o->clickhouse, .attrib = o->attrib, .spool_dir = o->spool_dir,
		.spool_max = o->spool_max ? o->spool_max : DEFAULT_SPOOL_MAX,
		.interval_ns = o->export_ns ? o->export_ns : DEFAULT_EXPORT_NS,
		.table = o->table, .sym = o->sym,
	};
	struct metrics_opts mo = {
		.addr = o->metrics_addr, .agg = { o->attrib, o->metrics_pid }, .fr_ns = o->fr_ns,
		.fr_bytes = o->fr_bytes, .table = o->table, .health = o->health,
		.health_ctx = o->health_ctx,
	};
	char err[512];

	xo.host = mo.host = o->host;
	if (!o->host) {
		if (gethostname(hostname, sizeof(hostname) - 1))
			snprintf(hostname, sizeof(hostname), "localhost");
		xo.host = mo.host = hostname;
	}
	if (o->metrics_addr) {
		f->metrics = metrics__start(&mo, err, sizeof(err));
		if (!f->metrics) {
			pr_warn("%s\n", err);
			return EXIT_FAIL;
		}
		if (pipeline__add_consumer(p, &metrics_consumer, f->metrics, "--metrics"))
			return EXIT_FAIL;
	}
	if (o->clickhouse) {
		f->export = ch_export__start(&xo, err, sizeof(err));
		if (!f->export) {
			pr_warn("%s\n", err);
			return EXIT_FAIL;
		}
		if (pipeline__add_consumer(p, &ch_export_consumer, f->export, "--clickhouse"))
			return EXIT_FAIL;
		if (f->metrics)
			metrics__watch_export(f->metrics, f->export);
	}
	return EXIT_OK;
}

void fleet__stop(struct fleet *f, struct pipeline *p)
{
	pipeline__remove_consumer(p, f->export);
	pipeline__remove_consumer(p, f->metrics);
	if (f->export) {
		struct ch_export_stats st;

		ch_export__stop(f->export, &st);
		if (f->metrics)	/* the final numbers, the last batches' included */
			metrics__export_stopped(f->metrics, &st);
	}
	f->export = NULL;
	metrics__stop(f->metrics);
	f->metrics = NULL;
}
