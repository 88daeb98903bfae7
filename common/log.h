/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One logging sink for every program and library of the project.
 *
 * A source file names its component before including this header:
 *
 *	#define LOG_PREFIX "ebpf-collect: "
 *	#include "log.h"
 *
 * and then writes pr_warn/pr_info/pr_debug.  The message goes to the sink
 * with the prefix in front of it; the default sink writes to stderr and
 * drops what is above the current level.  Programs set the level from
 * -q/-v; a caller that wants the messages elsewhere (a test, a daemon's
 * journal) installs its own sink with log_set_print(), as libbpf_set_print
 * does for libbpf.
 */
#ifndef EC_COMMON_LOG_H
#define EC_COMMON_LOG_H

#include <stdarg.h>

enum log_level {
	LOG_WARN = 0,	/* always shown: failures and losses */
	LOG_INFO = 1,	/* progress; -q hides it */
	LOG_DEBUG = 2,	/* -v */
	LOG_DEBUG2 = 3,	/* -vv: also libbpf's debug output */
};

typedef int (*log_print_fn)(enum log_level level, const char *fmt, va_list ap);

/* Install a sink (NULL restores the stderr one); returns the previous one. */
log_print_fn log_set_print(log_print_fn fn);
/* Messages above this level are dropped by the default sink. */
void log_set_level(enum log_level level);
/* Whether a message at this level would be shown (to skip costly formatting). */
int log_enabled(enum log_level level);

__attribute__((format(printf, 2, 3)))
void log_print(enum log_level level, const char *fmt, ...);
/* The same with a va_list (for sinks of other libraries, e.g. libbpf's). */
void log_vprint(enum log_level level, const char *fmt, va_list ap);

#ifndef LOG_PREFIX
#define LOG_PREFIX ""
#endif

#define pr_warn(fmt, ...)  log_print(LOG_WARN, LOG_PREFIX fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)  log_print(LOG_INFO, LOG_PREFIX fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) log_print(LOG_DEBUG, LOG_PREFIX fmt, ##__VA_ARGS__)

#endif /* EC_COMMON_LOG_H */
