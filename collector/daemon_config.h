/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * daemon_config.h - what `ebpf-collect daemon` runs: its config file and
 * command line turned into the collector's argv (collector/daemon_config.c),
 * each argument with where it came from, for the messages of the checks.
 */
#ifndef EBPF_COLLECT_DAEMON_CONFIG_H
#define EBPF_COLLECT_DAEMON_CONFIG_H

#include <stdbool.h>

#define DAEMON_DEFAULT_DIR	"/var/lib/ebpf-collect"

struct strv {
	char **v;
	int n;
	size_t cap;
};

struct plan {
	struct strv argv;	/* collect_main's, argv[0] "ebpf-collect" */
	struct strv from;	/* per argv entry: "FILE:LINE", "command line" or "" (a default) */
	const char *config;	/* --config FILE, or NULL */
	char *dir;		/* -o: files and dumps go under it */
	unsigned long keep;	/* --keep, for the files of earlier runs; 0: all */
	char err[1024];		/* the first error: one line, "WHERE: CAUSE" */
};

/* The collector's argv from the config and the daemon's command line, then
 * the always-on defaults.  0, or -EINVAL with p->err set (and p freed). */
int make_plan(struct plan *p, int argc, char **argv);
/* Frees what make_plan allocated; keeps p->err. */
void plan_free(struct plan *p);

#endif
