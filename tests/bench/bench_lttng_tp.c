// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* bench_lttng_tp.c - instantiates the bench_lttng tracepoint provider. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "bench_lttng_tp.h"
