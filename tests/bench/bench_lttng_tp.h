/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * bench_lttng_tp.h - LTTng-UST tracepoint provider for the side-by-side
 * bench (tests/bench/bench_probes.c).  One event, bench_lttng:gc_dynamic,
 * carrying the same serialized payload the generated USDT probe
 * DotNETRuntime:GCDynamicEvent carries (manifest layout, 64 B or 1 KiB) as a
 * byte sequence, so LTTng-UST records exactly the bytes the BPF tracers copy.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER bench_lttng

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./bench_lttng_tp.h"

#if !defined(BENCH_LTTNG_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_LTTNG_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

LTTNG_UST_TRACEPOINT_EVENT(
	bench_lttng,
	gc_dynamic,
	LTTNG_UST_TP_ARGS(const uint8_t *, payload, unsigned int, len),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_sequence(uint8_t, payload, payload, unsigned int, len)
	)
)

#endif /* BENCH_LTTNG_TP_H */

#include <lttng/tracepoint-event.h>
