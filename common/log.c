// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include "log.h"

static enum log_level cur_level = LOG_INFO;

static int stderr_print(enum log_level level, const char *fmt, va_list ap)
{
	if (level > cur_level)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static log_print_fn sink = stderr_print;

log_print_fn log_set_print(log_print_fn fn)
{
	log_print_fn old = sink;

	sink = fn ? fn : stderr_print;
	return old;
}

void log_set_level(enum log_level level)
{
	cur_level = level;
}

int log_enabled(enum log_level level)
{
	return sink != stderr_print || level <= cur_level;
}

void log_vprint(enum log_level level, const char *fmt, va_list ap)
{
	sink(level, fmt, ap);
}

void log_print(enum log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sink(level, fmt, ap);
	va_end(ap);
}
