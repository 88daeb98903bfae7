/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * options.h - the one table of `ebpf-collect`'s options (collector/options.c).
 *
 * Each row is a long option (and its letter, if it has one): the name, the
 * argp key, its value, its --help line.  The command line's argp vector
 * (collector/cli.c) and the daemon's config keys and command line
 * (collector/daemon_config.c) are both made from it, so an option added
 * here is a config key too.
 */
#ifndef EBPF_COLLECT_OPTIONS_H
#define EBPF_COLLECT_OPTIONS_H

struct argp_option;

/* argp keys of the options without a letter */
enum {
	OPT_PROVIDERS = 0x100,
	OPT_PROFILE,
	OPT_KSTACK,
	OPT_NO_USTACK,
	OPT_BATCHED,
	OPT_NO_BATCHED,
	OPT_STACK_HELPER,
	OPT_TPSHIM,
	OPT_LIB,
	OPT_USDT,
	OPT_NO_SYMBOLS,
	OPT_SYMBOLS,
	OPT_USDT_CHILDREN,
	OPT_KERNEL,
	OPT_CPU_SAMPLING,
	OPT_CALL_GRAPH,
	OPT_SAMPLE_EVENTS,
	OPT_STACK_SIZE,
	OPT_ALL_PROCESSES,
	OPT_MANIFEST,
	OPT_ROTATE,
	OPT_KEEP,
	OPT_KEEP_DUMPS,
	OPT_FLIGHT,
	OPT_DUMP_ON,
	OPT_STOP_ON,
	OPT_FILTER,
	OPT_ALL,
	OPT_COMM,
	OPT_PID_FILTER,
	OPT_DOTNET_PORT,
	OPT_FORMAT,
	OPT_SPLIT,
	OPT_METRICS,
	OPT_CLICKHOUSE,
	OPT_HOST,
	OPT_SERVICE,
	OPT_EXPORT_INTERVAL,
	OPT_SPOOL,
	OPT_SPOOL_MAX,
	OPT_SERVICE_FROM,
	OPT_METRICS_PID,
	OPT_CGROUP,
	OPT_CONTAINER,
	OPT_CONFIG,		/* the daemon's own --config FILE */
	OPT_COUNT_ONLY,
};

/* What follows an option. */
enum opt_arg { OPT_ARG_NONE, OPT_ARG_REQUIRED, OPT_ARG_OPTIONAL };

/* struct collect_opt.flags */
#define OPTF_ARG_OPTIONAL	0x1	/* --NAME or --NAME=VALUE */
#define OPTF_HIDDEN		0x2	/* not listed by --help, not a config key */
#define OPTF_DAEMON		0x4	/* the daemon's command line only: not collect's,
					 * not a config key */

struct collect_opt {
	const char *name;	/* --NAME; NULL: a letter alone */
	int key;		/* the letter of -L too, or OPT_* */
	const char *arg;	/* the value's name in --help; NULL: a flag */
	unsigned int flags;	/* OPTF_* */
	const char *help;
};

/* argp's option vector of `ebpf-collect` (every row but OPTF_DAEMON ones,
 * in table order, then the end), made on the first call. */
const struct argp_option *collect_opts__argp(void);

/* The row of the long option name (rows of the daemon included), or NULL. */
const struct collect_opt *collect_opts__find(const char *name);

static inline enum opt_arg collect_opt__arg(const struct collect_opt *o)
{
	return !o->arg ? OPT_ARG_NONE :
	       o->flags & OPTF_ARG_OPTIONAL ? OPT_ARG_OPTIONAL : OPT_ARG_REQUIRED;
}

#endif
