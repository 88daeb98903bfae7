// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * split.c - the `ebpf-collect split [--all-processes] FILE DIR`
 * subcommand: one NetTrace V5 file per process of FILE, by the nettrace
 * library's nt_split_by_process, with the caller's knowledge of its own
 * events (opts; with --all-processes, all: every process with an event of
 * its own gets a file, CPU samples alone included).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views.h"
#include "nettrace.h"
#define LOG_PREFIX "split: "
#include "log.h"
#include "outfile.h"

int split_main(int argc, char **argv, const struct nt_split_opts *opts,
	       const struct nt_split_opts *all)
{
	struct outfile out;
	char err[512];
	int n, rc;

	if (argc == 4 && !strcmp(argv[1], "--all-processes")) {
		opts = all;
		argc--, argv++;
	}
	if (argc != 3 || argv[1][0] == '-') {
		fprintf(stderr, "Usage: ebpf-collect split [--all-processes] FILE DIR\n"
			"One NetTrace V5 file per process of FILE: DIR/NAME.PID.COMM.nettrace\n"
			"(mode 0600; DIR made 0700 if missing).  A process whose only events are\n"
			"CPU samples gets a file only if it was selected (a target, or --comm,\n"
			"--cgroup, --container); --all-processes: every process with events of\n"
			"its own.  The files appear once all are whole; \"N files in DIR\" on\n"
			"standard output then.\n"
			"Exit: 0 ok, 1 failure (no file is left half written), 64 usage.\n");
		return argc == 2 && !strcmp(argv[1], "--help") ? EXIT_OK : EXIT_USAGE;
	}
	n = nt_split_by_process(argv[1], argv[2], opts, err, sizeof(err));
	if (n < 0) {
		pr_warn("%s\n", err);
		return EXIT_FAIL;
	}
	rc = outfile__open(&out, NULL);
	if (!rc) {
		fprintf(out.f, "%d files in %s\n", n, argv[2]);
		rc = outfile__close(&out);
	}
	if (rc) {
		pr_warn("writing %s: %s\n", outfile_name(NULL), strerror(-rc));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
