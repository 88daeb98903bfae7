/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * metrics.h - --metrics ADDR:PORT: the Prometheus text exposition of what
 * the collector sees, served by a thread of its own (a scrape never waits
 * for tracing, nor tracing for a scrape): per process runtime health (GCs,
 * pauses, exceptions, JIT, contention, thread pool, allocations) and the
 * collector's own health (events, bytes, drops, ring fill, probes,
 * processes).
 */
#ifndef EBPF_COLLECT_METRICS_H
#define EBPF_COLLECT_METRICS_H

#include <stddef.h>
#include <stdint.h>

struct collector;
struct metrics;

/* Listen on addr ("127.0.0.1:9464"); NULL and a one-line reason in err. */
struct metrics *metrics__start(const char *addr, const char *host, char *err, size_t errlen);

/* Every record, in time order, as it leaves the reorder buffer. */
void metrics__record(struct metrics *m, const struct collector *c, const void *rec, size_t len);

/* Every poll: the collector's own counters.  */
void metrics__tick(struct metrics *m, const struct collector *c, uint64_t now);

/* Publish the final numbers and, if anything has scraped us, wait up to
 * 5 s for one more scrape to read them (counts after the last scrape
 * would otherwise never reach Prometheus); stop serving and free.
 * NULL-safe. */
void metrics__stop(struct metrics *m);

#endif
