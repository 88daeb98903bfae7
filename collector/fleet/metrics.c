// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * metrics.c - --metrics (metrics.h): the tracing thread counts what passes
 * (metrics_agg.c for the runtime's events, the collector's own health
 * here) and every RENDER_NS publishes the whole exposition text to the
 * server thread (metrics_http.c), which only ever reads published text;
 * under the daemon, to the daemon (metrics_shm.c), which serves it with
 * its own process and build (metrics_self.c) and the counters of earlier
 * traces (metrics_carry.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/types.h>
#define LOG_PREFIX "ebpf-collect: "
#include "log.h"
#include "collector_event.h"
#include "pipeline.h"
#include "metrics_agg.h"
#include "metrics_http.h"
#include "metrics_self.h"
#include "metrics_shm.h"
#include "export.h"
#include "metrics.h"

/* How stale a scrape's numbers may be; rendering is the only cost a
 * scrape puts on the tracing thread, and it is paid here, not per scrape. */
#define RENDER_NS	(500 * 1000000ULL)
/* At the end: how long the final numbers wait for a scrape to read them
 * (a 1 s scrape interval always gets them; counts after the last scrape
 * would otherwise never reach Prometheus). */
#define LINGER_MS	5000

struct metrics {
	struct mhttp *http;		/* serving ourselves, or */
	struct metrics_shm *shm;	/* handing the text to the daemon */
	struct ch_export *export;	/* --clickhouse while it runs */
	int has_export;			/* --clickhouse given */
	struct ch_export_stats xs;	/* its counters, read at each tick */
	uint64_t export_start_ns;	/* wall clock */
	struct magg *agg;
	char *host;
	struct metrics_opts o;
	uint64_t events, bytes;		/* the records that passed */
	struct metrics_health h;	/* the collector's own, copied on the tracing thread */
	uint64_t last_render;
	int shm_warned;
};

static void render_health(const struct metrics *m, struct mbuf *b)
{
	const struct metrics_health *h = &m->h;
	const struct { const char *cause; uint64_t n; } drops[] = {
		{ "ring_buffer_full", h->rb_drops }, { "payload_fault", h->payload_faults },
		{ "nested", h->nested_drops }, { "filter", h->filter_drops },
		{ "oversize", h->oversize }, { "kernel_events", h->kernel_lost },
		{ "usdt", h->usdt_lost }, { "batched_run", h->batch_drops },
	};
	size_t i;

	mbuf__printf(b, "# HELP ebpf_collect_events_total Records the collector handled.\n"
		     "# TYPE ebpf_collect_events_total counter\n");
	mbuf__printf(b, "ebpf_collect_events_total{host=\"");
	mbuf__label(b, m->host);
	mbuf__printf(b, "\"} %llu\n", (unsigned long long)m->events);
	mbuf__printf(b, "# HELP ebpf_collect_event_bytes_total Bytes of the records the collector handled.\n"
		     "# TYPE ebpf_collect_event_bytes_total counter\n");
	mbuf__printf(b, "ebpf_collect_event_bytes_total{host=\"");
	mbuf__label(b, m->host);
	mbuf__printf(b, "\"} %llu\n", (unsigned long long)m->bytes);
	mbuf__printf(b, "# HELP ebpf_collect_dropped_events_total Events lost or left out, by cause.\n"
		     "# TYPE ebpf_collect_dropped_events_total counter\n");
	for (i = 0; i < sizeof(drops) / sizeof(drops[0]); i++) {
		mbuf__printf(b, "ebpf_collect_dropped_events_total{host=\"");
		mbuf__label(b, m->host);
		mbuf__printf(b, "\",cause=\"%s\"} %llu\n", drops[i].cause,
			     (unsigned long long)drops[i].n);
	}
}

static void render_gauge(const struct metrics *m, struct mbuf *b, const char *name,
			 const char *help, double v)
{
	mbuf__printf(b, "# HELP %s %s\n# TYPE %s gauge\n%s{host=\"", name, help, name, name);
	mbuf__label(b, m->host);
	mbuf__printf(b, "\"} %.9g\n", v);
}

static void render_state(const struct metrics *m, struct mbuf *b)
{
	render_gauge(m, b, "ebpf_collect_ring_buffer_fill_ratio",
		     "Share of the runtime-event ring buffer waiting to be read (0 to 1).",
		     m->h.ring_fill);
	render_gauge(m, b, "ebpf_collect_attached_probes", "Probes attached.",
		     (double)m->h.probes);
	render_gauge(m, b, "ebpf_collect_tracked_processes", "Processes traced.",
		     (double)m->h.processes);
	if (m->o.fr_ns)
		render_gauge(m, b, "ebpf_collect_flight_recorder_window_seconds",
			     "The flight recorder's window.", m->o.fr_ns / 1e9);
	if (m->o.fr_bytes)
		render_gauge(m, b, "ebpf_collect_flight_recorder_window_bytes",
			     "The flight recorder's window.", (double)m->o.fr_bytes);
}

static uint64_t wall_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static void render_counter(const struct metrics *m, struct mbuf *b, const char *name,
			   const char *help, uint64_t v)
{
	mbuf__printf(b, "# HELP %s %s\n# TYPE %s counter\n%s{host=\"", name, help, name, name);
	mbuf__label(b, m->host);
	mbuf__printf(b, "\"} %llu\n", (unsigned long long)v);
}

/* The ClickHouse exporter's health. */
static void render_export(const struct metrics *m, struct mbuf *b)
{
	const struct ch_export_stats *x = &m->xs;
	uint64_t ok = x->last_sent_ns, now = wall_ns();

	if (m->shm)	/* an earlier trace of the daemon may have sent last */
		ok = metrics_shm__export_ok_ns(m->shm);
	render_counter(m, b, "ebpf_collect_export_sent_batches_total",
		       "Batches ClickHouse took.", x->sent_batches);
	render_counter(m, b, "ebpf_collect_export_failed_batches_total",
		       "Inserts that failed (the batch is spooled and retried).", x->failed_inserts);
	render_counter(m, b, "ebpf_collect_export_dropped_batches_total",
		       "Batches lost: the spool was full, or there is none.", x->dropped_batches);
	render_counter(m, b, "ebpf_collect_export_sent_rows_total",
		       "Rows ClickHouse took.", x->sent_rows);
	render_counter(m, b, "ebpf_collect_export_dropped_rows_total",
		       "Rows of the batches lost.", x->dropped_rows);
	render_counter(m, b, "ebpf_collect_export_outages_total",
		       "Times ClickHouse stopped answering.", x->outages);
	render_gauge(m, b, "ebpf_collect_export_spool_bytes",
		     "Bytes of the batches waiting in the spool.", (double)x->spooled_bytes);
	render_gauge(m, b, "ebpf_collect_export_spool_files",
		     "Batches waiting in the spool, one file each.", (double)x->spooled_batches);
	render_gauge(m, b, "ebpf_collect_export_seconds_since_success",
		     "Seconds since ClickHouse last took a batch (since the export started, "
		     "if it has taken none).",
		     ((ok ? ok : m->export_start_ns) < now ? now - (ok ? ok : m->export_start_ns)
		      : 0) / 1e9);
}

static void publish(struct metrics *m)
{
	struct mbuf b = { 0 };

	render_health(m, &b);
	render_state(m, &b);
	if (m->has_export)
		render_export(m, &b);
	if (!m->shm)	/* the daemon adds its own, the trace's included */
		metrics_self__render(&b, 0);
	magg__render(m->agg, &b);
	if (b.failed) {
		free(b.p);	/* out of memory: the previous text stays */
		return;
	}
	if (m->http) {
		mhttp__publish(m->http, b.p, b.len);
		return;
	}
	if (metrics_shm__publish(m->shm, b.p, b.len) && !m->shm_warned) {
		pr_warn("--metrics: the text (%zu bytes) exceeds the daemon's buffer; "
			"the daemon serves the last text that fitted\n", b.len);
		m->shm_warned = 1;
	}
	free(b.p);
}

void metrics__export_stopped(struct metrics *m, const struct ch_export_stats *st)
{
	m->export = NULL;
	m->xs = *st;
	if (m->shm)
		metrics_shm__set_export_ok_ns(m->shm, st->last_sent_ns);
}

void metrics__watch_export(struct metrics *m, struct ch_export *x)
{
	m->export = x;
	m->has_export = 1;
	m->export_start_ns = wall_ns();
	ch_export__stats(x, &m->xs);
}

struct metrics *metrics__start(const struct metrics_opts *o, char *err, size_t errlen)
{
	struct metrics *m = calloc(1, sizeof(*m));

	if (m) {
		m->o = *o;
		m->host = strdup(o->host ? o->host : "");
		m->agg = magg__new(&o->agg);
	}
	if (!m || !m->host || !m->agg) {
		snprintf(err, errlen, "--metrics %s: out of memory", o->addr);
		metrics__stop(m);
		return NULL;
	}
	m->shm = metrics_shm_inherited;
	if (!m->shm)
		m->http = mhttp__start(o->addr, err, errlen);
	if (!m->http && !m->shm) {
		metrics__stop(m);
		return NULL;
	}
	publish(m);	/* a scrape before the first tick gets the families */
	return m;
}

/* Every record, in time order, as it leaves the reorder buffer. */
static void metrics_record(void *ctx, const void *rec, size_t len)
{
	struct metrics *m = ctx;

	(void)rec;
	m->events++;
	m->bytes += len;
}

/* Every runtime event, however it came (a USDT probe, EventPipe). */
static void metrics_event(void *ctx, const struct pipeline_event *ev)
{
	struct metrics *m = ctx;

	magg__event(m->agg, m->o.table, ev);
}

/* Every poll: the collector's own counters. */
static void metrics_tick(void *ctx, uint64_t now)
{
	struct metrics *m = ctx;

	if (now - m->last_render < RENDER_NS)
		return;
	m->last_render = now;
	magg__expire(m->agg, now);
	m->o.health(m->o.health_ctx, &m->h);
	if (m->export) {
		ch_export__stats(m->export, &m->xs);
		if (m->shm)
			metrics_shm__set_export_ok_ns(m->shm, m->xs.last_sent_ns);
	}
	publish(m);
}

const struct pipeline_consumer_ops metrics_consumer = {
	.record = metrics_record,
	.event = metrics_event,
	.tick = metrics_tick,
};

void metrics__stop(struct metrics *m)
{
	if (!m)
		return;
	if (m->http || m->shm) {
		m->h.ring_fill = 0;	/* drained */
		publish(m);
	}
	if (m->http) {
		mhttp__linger(m->http, LINGER_MS);
		mhttp__stop(m->http);
	}
	magg__free(m->agg);
	free(m->host);
	free(m);
}
