// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `convert`: a trace as folded stacks, speedscope JSON, a flame-graph SVG,
 * a pprof profile or Chrome trace-event JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "views.h"
#define LOG_PREFIX "convert: "
#include "log.h"
#include "outfile.h"
#include "view.h"

/* ------------------------------------------------------------- convert */

static void convert_usage(FILE *f)
{
	fprintf(f,
		"Usage: ebpf-collect convert FILE\n"
		"         --format folded|speedscope|flamegraph|pprof|chromium\n"
		"         [-o OUT] [--event NAME] [--kind-suffix] [--tiers]\n"
		"  folded       FlameGraph's folded stacks: root;...;leaf COUNT\n"
		"  speedscope   speedscope JSON, one sampled profile per thread\n"
		"  flamegraph   a flame-graph SVG (no Perl needed)\n"
		"  pprof        a gzip'd pprof profile.proto (go tool pprof, Parca, Pyroscope)\n"
		"  chromium     Chrome trace-event JSON (chrome://tracing, Perfetto): runtime\n"
		"               events, GC/contention/exception spans, samples, stack frames\n"
		"Input events: CPU samples if the trace has any, else every event with a\n"
		"stack; --event NAME picks one event type (e.g. GCAllocationTick).\n"
		"--kind-suffix appends _[j] to JIT and _[k] to kernel frames (folded).\n"
		"--tiers appends the code version's tier to a method ([QuickJitted]).\n"
		"Exit: 0 ok, 1 failure, 64 usage.\n");
}

/* The view in the format asked for, to outpath or stdout; 0 or -1 (said why). */
static int convert_write(struct view *v, const char *format, const char *path,
			 const char *outpath)
{
	struct outfile out;
	int err = outfile__open(&out, outpath);

	if (err) {
		pr_warn("cannot create output %s: %s\n", outpath, strerror(-err));
		return -1;
	}
	if (!strcmp(format, "folded"))
		err = view__write_folded(v, out.f);
	else if (!strcmp(format, "speedscope"))
		err = view__write_speedscope(v, path, out.f);
	else if (!strcmp(format, "pprof"))
		err = view__write_pprof(v, path, out.f);
	else if (!strcmp(format, "chromium"))
		err = view__write_chromium(v, path, out.f);
	else
		err = view__write_svg(v, path, out.f);
	err = outfile__finish(&out, err);
	if (err) {
		pr_warn("writing %s: %s\n", outfile_name(outpath), strerror(-err));
		return -1;
	}
	return 0;
}

static int rereads(const char *format)
{
	return !strcmp(format, "pprof") || !strcmp(format, "chromium");
}

int convert_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "event", required_argument, NULL, 'e' },
		{ "kind-suffix", no_argument, NULL, 'k' },
		{ "tiers", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *format = NULL, *outpath = NULL, *event = NULL, *path;
	int c, err, suffix = 0, tiers = 0, exit_code = EXIT_OK;
	struct view v;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:e:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			format = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'e':
			event = optarg;
			break;
		case 'k':
			suffix = 1;
			break;
		case 't':
			tiers = 1;
			break;
		case 'h':
			convert_usage(stdout);
			return EXIT_OK;
		default:
			convert_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || !format ||
	    (strcmp(format, "folded") && strcmp(format, "speedscope") &&
	     strcmp(format, "flamegraph") && !rereads(format))) {
		convert_usage(stderr);
		return EXIT_USAGE;
	}
	path = argv[optind];
	if (view__init(&v)) {
		view__free(&v);
		return EXIT_FAIL;
	}
	v.kind_suffix = suffix;
	v.tiers = tiers;
	/* pprof and chromium read the trace again for what the folded
	 * stacks lose (addresses, times, events without stacks) */
	err = rereads(format) ? view__load_names(&v, path, event) : view__load(&v, path, event);
	if (err) {
		view__free(&v);
		return EXIT_FAIL;
	}
	if (v.error) {
		pr_warn("%s is damaged (%s); converting what was read\n", path,
			v.errmsg);
		exit_code = EXIT_FAIL;
	}
	if (convert_write(&v, format, path, outpath))
		exit_code = EXIT_FAIL;
	else if (!v.selected)
		pr_warn("no events with stacks selected (%s)\n", v.select_desc);
	view__free(&v);
	return exit_code;
}
