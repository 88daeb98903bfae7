// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * metrics.c - --metrics (metrics.h).  Not written yet: the option is
 * refused until it is.
 */
#include <stdio.h>
#include "metrics.h"

struct metrics *metrics__start(const char *addr, const char *host, char *err, size_t errlen)
{
	(void)host;
	snprintf(err, errlen, "--metrics %s: not available in this build", addr);
	return NULL;
}

void metrics__record(struct metrics *m, const struct collector *c, const void *rec, size_t len)
{
	(void)m, (void)c, (void)rec, (void)len;
}

void metrics__tick(struct metrics *m, const struct collector *c, uint64_t now)
{
	(void)m, (void)c, (void)now;
}

void metrics__stop(struct metrics *m)
{
	(void)m;
}
