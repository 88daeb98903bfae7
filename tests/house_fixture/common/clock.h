/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* clock.h - the one reading of the monotonic clock. */
#ifndef FIXTURE_CLOCK_H
#define FIXTURE_CLOCK_H

unsigned long long clock__now_ns(void);

#endif
