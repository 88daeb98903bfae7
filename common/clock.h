/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * clock.h - the monotonic clock, read one way everywhere.
 *
 * CLOCK_MONOTONIC is the clock of the traces (architecture decision 5: BPF's
 * bpf_ktime_get_ns() reads it too), of perf maps and of every timeout here:
 * it does not jump when the wall clock is set.  Times are in ns, or in ms
 * for deadlines that end in a poll(2) timeout.
 */
#ifndef EC_COMMON_CLOCK_H
#define EC_COMMON_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC now, in ns. */
uint64_t mono_ns(void);

/* CLOCK_MONOTONIC now, in ms (mono_ns() / 1e6). */
uint64_t mono_ms(void);

/* What is left until deadline_ms (a mono_ms() time), as a poll(2) timeout:
 * 0 when it is past, at most INT_MAX. */
int mono_ms_left(uint64_t deadline_ms);

#endif /* EC_COMMON_CLOCK_H */
