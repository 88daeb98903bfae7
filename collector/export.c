// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * export.c - --clickhouse (export.h).  Not written yet: the option is
 * refused until it is.
 */
#include <stdio.h>
#include "export.h"

struct ch_export *ch_export__start(const struct ch_export_opts *o, char *err, size_t errlen)
{
	snprintf(err, errlen, "--clickhouse %s: not available in this build", o->url);
	return NULL;
}

void ch_export__record(struct ch_export *x, const struct collector *c, const void *rec,
		       size_t len)
{
	(void)x, (void)c, (void)rec, (void)len;
}

void ch_export__tick(struct ch_export *x, uint64_t now)
{
	(void)x, (void)now;
}

void ch_export__stop(struct ch_export *x)
{
	(void)x;
}
