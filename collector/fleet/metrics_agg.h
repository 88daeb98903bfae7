/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * metrics_agg.h - the numbers behind --metrics: per process runtime health
 * learnt from the runtime provider's events, and their Prometheus text.
 * Owned by the tracing thread alone; metrics.c publishes the text.
 */
#ifndef EBPF_COLLECT_METRICS_AGG_H
#define EBPF_COLLECT_METRICS_AGG_H

#include <stddef.h>
#include <stdint.h>
#include "attrib.h"

struct ect_table;
struct pipeline_event;
struct magg;

/* Text grown by the renderers; on ENOMEM `failed` is set and it stops. */
struct mbuf {
	char *p;
	size_t len, cap;
	int failed;
};

void mbuf__printf(struct mbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A label value with \ " and newlines escaped as the exposition format wants. */
void mbuf__label(struct mbuf *b, const char *s);

struct magg_opts {
	struct attrib_opts attrib;	/* the service label (none when "") */
	int pid_label;			/* --metrics-pid: a series per process */
};

/* Every series is labelled with comm, container, pod, the service when it
 * has one, and the pid with pid_label; not with the host (Prometheus's
 * instance label says it). */
struct magg *magg__new(const struct magg_opts *o);
void magg__free(struct magg *a);

/* One runtime event of table t (a USDT probe's or EventPipe's); events of
 * other providers are ignored. */
void magg__event(struct magg *a, const struct ect_table *t, const struct pipeline_event *e);

/* Every tick (now: CLOCK_MONOTONIC ns): drop processes gone for minutes. */
void magg__expire(struct magg *a, uint64_t now);

/* Append every per-process family, # HELP and # TYPE first. */
void magg__render(const struct magg *a, struct mbuf *b);

#endif
