// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `symbolize`: name addresses of a live process (or replay method events);
 * with a trace file, name its frames again (symbolize_trace.c).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "views.h"
#define LOG_PREFIX "symbolize: "
#include "log.h"
#include "outfile.h"
#include "view.h"

/* ------------------------------------------------------------ symbolize */

static const char *kind_name(enum sym_kind k)
{
	switch (k) {
	case SYM_KIND_JIT:
		return "jit";
	case SYM_KIND_NATIVE:
		return "native";
	case SYM_KIND_KERNEL:
		return "kernel";
	default:
		return "unknown";
	}
}

int view_parse_u64(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || end == s || *end ? -EINVAL : 0;
}

static void symbolize_usage(FILE *f)
{
	fprintf(f,
		"Usage: ebpf-collect symbolize -p PID [options] [ADDR[@TS]...]\n"
		"       ebpf-collect symbolize --perf-map FILE [options] [ADDR[@TS]...]\n"
		"       ebpf-collect symbolize TRACE DIR [--symbols LIST]   (a trace's frames named again)\n"
		"Name code addresses of a live process (or offline, from a perf-map file\n"
		"and method events), one line each:\n"
		"  ADDR KIND NAME [MODULE]     KIND: jit, native, kernel, unknown\n"
		"Addresses come from the arguments, else from stdin (one per line).  @TS is\n"
		"a CLOCK_MONOTONIC ns time: the entry live at that time is named.\n"
		"  -p, --pid PID         the process (its perf map is found through /proc/PID/root)\n"
		"  -m, --perf-map FILE   use this perf map (offline; with -p: instead of the found one)\n"
		"  -e, --events FILE     method events, one per line, applied first:\n"
		"                        load START SIZE TS NAME... | unload START SIZE TS NAME...\n"
		"  -N, --no-perf-map     method events only\n"
		"      --in-order        the @TS times never decrease (as in a collector):\n"
		"                        entries unloaded before them leave the index\n"
		"Exit: 0 all named, 1 some unnamed or an error, 64 usage.\n");
}

/* "load START SIZE TS NAME..." / "unload ..." lines → the symbolizer */
static int symbolize_events(struct symbolizer *s, pid_t pid, const char *path)
{
	char *line = NULL, kind[16];
	unsigned long long start, size, ts;
	size_t cap = 0;
	int pos, err = 0, lineno = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char *name;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		pos = 0;
		if (sscanf(line, "%15s %lli %lli %lli %n", kind, &start, &size, &ts, &pos) < 4 || !pos) {
			pr_warn("%s:%d: bad event line\n", path, lineno);
			err = -EINVAL;
			break;
		}
		name = line + pos;
		if (!strcmp(kind, "load"))
			err = symbolizer__method_load(s, pid, start, size, name, 0, 0x8, ts);
		else if (!strcmp(kind, "unload"))
			err = symbolizer__method_unload(s, pid, start, size, name, 0, 0x8, ts);
		else
			err = -EINVAL;
		if (err) {
			pr_warn("%s:%d: %s\n", path, lineno, strerror(-err));
			break;
		}
	}
	free(line);
	fclose(f);
	return err;
}

/* One ADDR[@TS]: print its line; returns 0 named, 1 unnamed, -EINVAL bad.
 * in_order: the times only grow (the collector's case): set the horizon. */
static int symbolize_one(struct symbolizer *s, pid_t pid, const char *arg, int in_order,
			 FILE *out)
{
	char buf[64], name[4096], *at;
	struct sym_info si;
	uint64_t addr, ts = SYM_TS_NONE;

	snprintf(buf, sizeof(buf), "%s", arg);
	at = strchr(buf, '@');
	if (at) {
		*at++ = '\0';
		if (view_parse_u64(at, &ts))
			return -EINVAL;
	}
	if (view_parse_u64(buf, &addr))
		return -EINVAL;
	if (in_order && ts != SYM_TS_NONE)
		symbolizer__set_horizon(s, ts);
	symbolizer__resolve(s, pid, addr, ts, &si);
	sym_info__format(&si, name, sizeof(name));
	fprintf(out, "%#" PRIx64 " %s %s%s%s\n", addr, kind_name(si.kind), name,
	       si.module ? " " : "", si.module ? si.module : "");
	return si.name ? 0 : 1;
}

struct symbolize_args {
	struct symbolizer_opts so;
	const char *map_path, *events;
	uint64_t pid;
	int verbose, in_order;
};

/* Options; EXIT_OK, or the exit code to return at once (-1: help shown). */
static int symbolize_parse(int argc, char **argv, struct symbolize_args *a)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "perf-map", required_argument, NULL, 'm' },
		{ "events", required_argument, NULL, 'e' },
		{ "no-perf-map", no_argument, NULL, 'N' },
		{ "in-order", no_argument, NULL, 'O' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "p:m:e:Nvh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (view_parse_u64(optarg, &a->pid) || !a->pid || a->pid > INT32_MAX) {
				pr_warn("invalid pid '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'm':
			a->map_path = optarg;
			break;
		case 'e':
			a->events = optarg;
			break;
		case 'N':
			a->so.no_perf_map = 1;
			break;
		case 'O':
			a->in_order = 1;
			break;
		case 'v':
			a->verbose = 1;
			break;
		case 'h':
			symbolize_usage(stdout);
			return -1;
		default:
			symbolize_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (!a->pid && !a->map_path && !a->events) {
		symbolize_usage(stderr);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The process, its perf map and recorded method events. */
static int symbolize_sources(struct symbolizer *s, const struct symbolize_args *a)
{
	pid_t pid = (pid_t)a->pid;
	int rc;

	if (pid && symbolizer__add_pid(s, pid)) {
		pr_warn("no such process %" PRIu64 "\n", a->pid);
		return EXIT_FAIL;
	}
	if (a->map_path && (rc = symbolizer__set_perf_map(s, pid, a->map_path))) {
		pr_warn("cannot read %s: %s\n", a->map_path, strerror(-rc));
		return EXIT_FAIL;
	}
	if (a->events && symbolize_events(s, pid, a->events))
		return EXIT_FAIL;
	if (a->verbose && symbolizer__perf_map(s, pid))
		pr_warn("perf map %s\n",
			perf_map__path(symbolizer__perf_map(s, pid)));
	return EXIT_OK;
}

/* Every address on the command line, or one per line of stdin. */
static int symbolize_all(struct symbolizer *s, const struct symbolize_args *a, int argc,
			 char **argv, FILE *out)
{
	char *line = NULL;
	size_t cap = 0;
	int i, rc, err = EXIT_OK;

	for (i = optind; i <= argc; i++) {
		const char *arg = i < argc ? argv[i] : NULL;

		if (optind == argc) {	/* addresses from stdin */
			if (getline(&line, &cap, stdin) <= 0)
				break;
			line[strcspn(line, "\r\n")] = '\0';
			arg = line;
			i = optind - 1;
		} else if (!arg) {
			break;
		}
		rc = symbolize_one(s, (pid_t)a->pid, arg, a->in_order, out);
		if (rc < 0) {
			pr_warn("invalid address '%s'\n", arg);
			err = EXIT_USAGE;
			break;
		}
		if (rc)
			err = EXIT_FAIL;
	}
	free(line);
	return err;
}

/* `symbolize TRACE DIR [--symbols LIST]`: TRACE is an existing file */
static int symbolize_trace_args(int argc, char **argv, const struct nt_split_opts *opts)
{
	const char *symbols = NULL;

	if (argc == 5 && !strcmp(argv[3], "--symbols"))
		symbols = argv[4];
	else if (argc == 4 && !strncmp(argv[3], "--symbols=", 10))
		symbols = argv[3] + 10;
	else if (argc != 3 || argv[2][0] == '-') {
		fprintf(stderr, "Usage: ebpf-collect symbolize TRACE DIR [--symbols LIST]\n"
			"TRACE's native frames that had no symbol (FILE+0xSTART) named from the\n"
			"debug files of their build ids, into DIR as split writes it (one V5 file\n"
			"per process).  LIST: as the collector's --symbols.\n"
			"Exit: 0 ok, 1 failure, 64 usage.\n");
		return EXIT_USAGE;
	}
	return symbolize_trace_main(argv[1], argv[2], symbols, opts);
}

int symbolize_main(int argc, char **argv, const struct nt_split_opts *opts)
{
	struct symbolize_args a = { 0 };
	struct symbolizer_stats st;
	struct symbolizer *s;
	struct outfile out;
	struct stat sb;
	int rc, err;

	if (argc >= 2 && argv[1][0] != '-' && !stat(argv[1], &sb) && S_ISREG(sb.st_mode))
		return symbolize_trace_args(argc, argv, opts);
	err = symbolize_parse(argc, argv, &a);

	if (err)
		return err < 0 ? EXIT_OK : err;
	s = symbolizer__new(&a.so);
	if (!s)
		return EXIT_FAIL;
	err = symbolize_sources(s, &a);
	if (!err && (rc = outfile__open(&out, NULL))) {
		pr_warn("writing %s: %s\n", outfile_name(NULL), strerror(-rc));
		err = EXIT_FAIL;
	} else if (!err) {
		err = symbolize_all(s, &a, argc, argv, out.f);
		rc = outfile__close(&out);
		if (rc) {
			pr_warn("writing %s: %s\n", outfile_name(NULL), strerror(-rc));
			err = EXIT_FAIL;
		}
		symbolizer__stats(s, &st);
		if (st.unreadable_maps)
			pr_warn("%" PRIu64 " perf map(s) refused or unreadable\n",
				st.unreadable_maps);
	}
	symbolizer__free(s);
	return err;
}
