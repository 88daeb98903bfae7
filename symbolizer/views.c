// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * views.c - Linux views of a .nettrace: `report`, `convert` (folded,
 * speedscope, flame-graph SVG), and `symbolize` (live addresses).
 *
 * Names inside a trace come from the trace itself, the way TraceEvent does
 * it (nettrace-format.md §11): a first pass collects the method events
 * (MethodLoadVerbose / MethodDCStartVerbose = load at the event's time;
 * MethodUnloadVerbose = unload; MethodDCEndVerbose = a range valid for the
 * whole trace) and module events into a time-aware range table; the second
 * pass resolves each event's stack at the event's time and aggregates.
 * Payloads are parsed by their manifest layout here; no generated event
 * table is needed.
 *
 * Frame names: "Module!Namespace.Name(args)" for methods whose module is
 * known (module basename, ".dll" dropped), else "Namespace.Name(args)";
 * "[unknown]" when no event covers the address.  Kinds: kernel for
 * addresses >= 0xffff800000000000, JIT when MethodFlags has Jitted, else
 * native.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"	/* EXIT_OK, EXIT_FAIL, EXIT_USAGE */
#include "event_table.h"
#include "nettrace.h"
#include "symbolizer.h"

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

static int parse_u64(const char *s, uint64_t *out)
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
			fprintf(stderr, "symbolize: %s:%d: bad event line\n", path, lineno);
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
			fprintf(stderr, "symbolize: %s:%d: %s\n", path, lineno, strerror(-err));
			break;
		}
	}
	free(line);
	fclose(f);
	return err;
}

/* One ADDR[@TS]: print its line; returns 0 named, 1 unnamed, -EINVAL bad.
 * in_order: the times only grow (the collector's case): set the horizon. */
static int symbolize_one(struct symbolizer *s, pid_t pid, const char *arg, int in_order)
{
	char buf[64], name[4096], *at;
	struct sym_info si;
	uint64_t addr, ts = SYM_TS_NONE;

	snprintf(buf, sizeof(buf), "%s", arg);
	at = strchr(buf, '@');
	if (at) {
		*at++ = '\0';
		if (parse_u64(at, &ts))
			return -EINVAL;
	}
	if (parse_u64(buf, &addr))
		return -EINVAL;
	if (in_order && ts != SYM_TS_NONE)
		symbolizer__set_horizon(s, ts);
	symbolizer__resolve(s, pid, addr, ts, &si);
	sym_info__format(&si, name, sizeof(name));
	printf("%#" PRIx64 " %s %s%s%s\n", addr, kind_name(si.kind), name,
	       si.module ? " " : "", si.module ? si.module : "");
	return si.name ? 0 : 1;
}

int symbolize_main(int argc, char **argv)
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
	struct symbolizer_opts so = { 0 };
	struct symbolizer *s = NULL;
	struct symbolizer_stats st;
	const char *map_path = NULL, *events = NULL;
	uint64_t pid = 0;
	int c, i, rc, err = EXIT_OK, verbose = 0, in_order = 0;
	char *line = NULL;
	size_t cap = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "p:m:e:Nvh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_u64(optarg, &pid) || !pid || pid > INT32_MAX) {
				fprintf(stderr, "symbolize: invalid pid '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'm':
			map_path = optarg;
			break;
		case 'e':
			events = optarg;
			break;
		case 'N':
			so.no_perf_map = 1;
			break;
		case 'O':
			in_order = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'h':
			symbolize_usage(stdout);
			return EXIT_OK;
		default:
			symbolize_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (!pid && !map_path && !events) {
		symbolize_usage(stderr);
		return EXIT_USAGE;
	}
	s = symbolizer__new(&so);
	if (!s)
		return EXIT_FAIL;
	if (pid && symbolizer__add_pid(s, (pid_t)pid)) {
		fprintf(stderr, "symbolize: no such process %" PRIu64 "\n", pid);
		err = EXIT_FAIL;
		goto out;
	}
	if (map_path && (rc = symbolizer__set_perf_map(s, (pid_t)pid, map_path))) {
		fprintf(stderr, "symbolize: cannot read %s: %s\n", map_path, strerror(-rc));
		err = EXIT_FAIL;
		goto out;
	}
	if (events && symbolize_events(s, (pid_t)pid, events)) {
		err = EXIT_FAIL;
		goto out;
	}
	if (verbose && symbolizer__perf_map(s, (pid_t)pid))
		fprintf(stderr, "symbolize: perf map %s\n",
			perf_map__path(symbolizer__perf_map(s, (pid_t)pid)));
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
		rc = symbolize_one(s, (pid_t)pid, arg, in_order);
		if (rc < 0) {
			fprintf(stderr, "symbolize: invalid address '%s'\n", arg);
			err = EXIT_USAGE;
			break;
		}
		if (rc)
			err = EXIT_FAIL;
	}
	symbolizer__stats(s, &st);
	if (st.unreadable_maps)
		fprintf(stderr, "symbolize: %" PRIu64 " perf map(s) refused or unreadable\n",
			st.unreadable_maps);
out:
	free(line);
	symbolizer__free(s);
	return err;
}

/* --------------------------------------------------- rundown → writer */

struct rundown_write {
	struct nt_writer *w;
	uint32_t method_id, module_id;
	uint64_t tid, ts;
};

static int rundown_write_cb(void *ctx, uint32_t pid, int event_id, const void *payload,
			    size_t size)
{
	struct rundown_write *rw = ctx;
	struct nt_event ev = {
		.metadata_id = event_id == CLR_EV_MODULE_DCEND ? rw->module_id : rw->method_id,
		.timestamp = rw->ts, .thread_id = rw->tid, .capture_thread_id = rw->tid,
		.payload = payload, .payload_size = (uint32_t)size,
	};

	(void)pid;	/* one process per V5 trace */
	return nt_writer__write_event(rw->w, &ev);
}

int sym_rundown__write(struct sym_rundown *r, struct nt_writer *w, uint64_t thread_id,
		       uint64_t ts)
{
	static const struct nt_event_desc method = {
		CLR_RUNDOWN_PROVIDER, CLR_EV_METHOD_UNLOAD_VERBOSE, "", 0x30, 1, 4, 40, NULL, 0,
	};
	static const struct nt_event_desc module = {
		CLR_RUNDOWN_PROVIDER, CLR_EV_MODULE_DCEND, "", 0x20000008, 2, 4, 36, NULL, 0,
	};
	struct rundown_write rw = { .w = w, .tid = thread_id, .ts = ts };
	int err;

	err = nt_writer__define(w, &method, &rw.method_id);
	if (!err)
		err = nt_writer__define(w, &module, &rw.module_id);
	if (!err)
		err = sym_rundown__emit(r, rundown_write_cb, &rw);
	return err;
}

/* ------------------------------------------------------ the trace model */

#define SAMPLE_PROFILER		"Microsoft-DotNETCore-SampleProfiler"
#define PSEUDO_ID_MASK		0xffff000000000000ULL
#define PSEUDO_MODULE_PREFIX	0xebc0000000000000ULL

extern const struct ect_table clretw_event_table __attribute__((weak));

/* Names of the runtime events the views use, for traces read without the
 * generated event table (Microsoft-Windows-DotNETRuntime ids). */
static const struct {
	uint32_t id;
	const char *name;
} clr_names[] = {
	{ 1, "GCStart" }, { 2, "GCEnd" }, { 3, "GCRestartEEEnd" }, { 4, "GCHeapStats" },
	{ 5, "GCCreateSegment" }, { 7, "GCRestartEEBegin" }, { 8, "GCSuspendEEEnd" },
	{ 9, "GCSuspendEEBegin" }, { 10, "GCAllocationTick" }, { 35, "GCTriggered" },
	{ 80, "ExceptionThrown" }, { 81, "ContentionStart" }, { 85, "ThreadCreated" },
	{ 91, "ContentionStop" }, { 143, "MethodLoadVerbose" }, { 144, "MethodUnloadVerbose" },
	{ 145, "MethodJittingStarted" }, { 152, "ModuleLoad" }, { 154, "AssemblyLoad" },
	{ 250, "ExceptionCatchStart" },
};

struct vmodule {
	uint64_t id;
	char *name;		/* display: basename, ".dll"/".exe" dropped */
	char *path;
};

struct vframe {
	const char *name;
	const char *file;	/* module path or name, for speedscope */
	enum sym_kind kind;
	uint64_t hash;
	uint64_t self, total;	/* report: exclusive / inclusive */
	uint32_t last_stack;	/* report: inclusive counted once per stack */
};

struct vstack {
	uint32_t off, depth;	/* frames (root first) in v->frames_pool */
	uint64_t hash;
	uint64_t count;
};

struct vthread {
	uint64_t tid;
	uint32_t *stacks;	/* one per sample, in order */
	uint64_t *ts;
	size_t n, cap;
};

struct view {
	struct nt_trace_info info;
	struct range_table *methods;
	struct vmodule *mods;
	size_t n_mods, cap_mods;
	struct strpool *pool;
	/* frames, interned by name + kind */
	struct vframe *frames;
	size_t n_frames, cap_frames;
	uint32_t *frame_slots;
	size_t n_frame_slots;
	/* stacks, interned by frame sequence */
	struct vstack *stacks;
	size_t n_stacks, cap_stacks;
	uint32_t *stack_slots;
	size_t n_stack_slots;
	uint32_t *frames_pool;
	size_t n_pool, cap_pool;
	/* samples by thread (speedscope) */
	struct vthread *threads;
	size_t n_threads, cap_threads;
	/* what is selected */
	const char *event_filter;
	int cpu_samples;	/* the input has SampleProfiler events */
	uint64_t selected, first_ts, last_ts, events, lost;
	const char *select_desc;
	int kind_suffix;
	int error;		/* the reader stopped on damage */
	char errmsg[256];
};

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap ? *cap : 64;
	void *n;

	if (need <= *cap)
		return p;
	while (c < need)
		c *= 2;
	n = realloc(p, c * elem);
	if (n)
		*cap = c;
	return n;
}

#define GROW(arr, cap, need) ({							\
	void *__n = grow((arr), &(cap), (need), sizeof(*(arr)));		\
	if (__n)								\
		(arr) = __n;							\
	__n ? 0 : -ENOMEM; })

static uint64_t fnv(const void *p, size_t n, uint64_t h)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 1099511628211ULL;
	return h;
}

static void view__free(struct view *v)
{
	size_t i;

	range_table__free(v->methods);
	for (i = 0; i < v->n_mods; i++) {
		free(v->mods[i].name);
		free(v->mods[i].path);
	}
	free(v->mods);
	strpool__free(v->pool);
	free(v->frames);
	free(v->frame_slots);
	free(v->stacks);
	free(v->stack_slots);
	free(v->frames_pool);
	for (i = 0; i < v->n_threads; i++) {
		free(v->threads[i].stacks);
		free(v->threads[i].ts);
	}
	free(v->threads);
}

static int view__init(struct view *v)
{
	memset(v, 0, sizeof(*v));
	v->methods = range_table__new();
	v->pool = strpool__new();
	return v->methods && v->pool ? 0 : -ENOMEM;
}

/* ---------------------------------------------------------- event names */

static int streq_ci(const char *a, const char *b)
{
	return a && b && !strcasecmp(a, b);
}

/* "GCStart_V2" and "GCStart" both match "GCStart" (and the full name). */
static int name_matches(const char *have, const char *want)
{
	size_t wl = strlen(want);

	if (!have || !have[0])
		return 0;
	if (!strcasecmp(have, want))
		return 1;
	return !strncasecmp(have, want, wl) && have[wl] == '_' && have[wl + 1] == 'V';
}

static void event_name(const struct nt_metadata *m, char *buf, size_t len)
{
	size_t i;

	if (m->name && m->name[0]) {
		snprintf(buf, len, "%s", m->name);
		return;
	}
	if (m->manifest) {
		snprintf(buf, len, "%s", m->manifest->symbol);
		return;
	}
	if (streq_ci(m->provider, SAMPLE_PROFILER) && m->event_id == 0) {
		snprintf(buf, len, "ThreadSample");
		return;
	}
	if (streq_ci(m->provider, CLR_PROVIDER))
		for (i = 0; i < sizeof(clr_names) / sizeof(clr_names[0]); i++)
			if (clr_names[i].id == m->event_id) {
				snprintf(buf, len, "%s", clr_names[i].name);
				return;
			}
	/* "DotNETRuntime/153": the provider's short (USDT) name and the id */
	snprintf(buf, len, "%s/%u",
		 !strncasecmp(m->provider, "Microsoft-Windows-", 18) ? m->provider + 18 : m->provider,
		 m->event_id);
}

static int is_clr(const struct nt_metadata *m, uint32_t id)
{
	return m->event_id == id && streq_ci(m->provider, CLR_PROVIDER);
}

static int is_rundown(const struct nt_metadata *m, uint32_t id)
{
	return m->event_id == id && streq_ci(m->provider, CLR_RUNDOWN_PROVIDER);
}

static int is_cpu_sample(const struct nt_metadata *m)
{
	return m->event_id == 0 && streq_ci(m->provider, SAMPLE_PROFILER);
}

/* ------------------------------------------------- pass 1: name tables */

static const char *module_display(const char *path, char *buf, size_t len)
{
	const char *b = sym_basename(path);
	size_t l = strlen(b);

	if (l > 4 && (!strcasecmp(b + l - 4, ".dll") || !strcasecmp(b + l - 4, ".exe")))
		l -= 4;
	snprintf(buf, len, "%.*s", (int)l, b);
	return buf;
}

static int view__add_module(struct view *v, const struct sym_module_rec *m)
{
	const char *path = m->il_path && m->il_path[0] ? m->il_path : m->native_path;
	char disp[512];
	size_t i;

	if (!path || !path[0])
		return 0;
	for (i = 0; i < v->n_mods; i++)
		if (v->mods[i].id == m->module_id)
			return 0;
	if (GROW(v->mods, v->cap_mods, v->n_mods + 1))
		return -ENOMEM;
	v->mods[v->n_mods].id = m->module_id;
	v->mods[v->n_mods].name = strdup(module_display(path, disp, sizeof(disp)));
	v->mods[v->n_mods].path = strdup(path);
	v->n_mods++;
	return 0;
}

static const struct vmodule *view__module(const struct view *v, uint64_t id)
{
	size_t i;

	for (i = 0; i < v->n_mods; i++)
		if (v->mods[i].id == id)
			return &v->mods[i];
	return NULL;
}

/* A method event: load (ts), DCStart (always valid), unload (ts), DCEnd
 * (names what came before it, as in TraceEvent: valid until ts, so a range
 * the collector wrote once per incarnation of reused code names each
 * incarnation's events). */
static int view__method_event(struct view *v, const struct nt_read_event *ev, int kind)
{
	struct sym_method_rec m;
	char strs[8192], disp[4096];
	struct range_entry *e;
	long idx;

	if (sym_decode_method(ev->payload, ev->payload_size, &m, strs, sizeof(strs)) || !m.size)
		return 0;	/* malformed: ignore, the frames stay [unknown] */
	sym_method_display_name(m.ns, m.name, m.sig, disp, sizeof(disp));
	if (kind == 'u' && range_table__unload(v->methods, m.start, ev->timestamp) >= 0)
		return 0;
	idx = range_table__add(v->methods, m.start, m.size, disp, strlen(disp),
			       kind == 'l' ? ev->timestamp : 0);
	if (idx < 0)
		return (int)idx;
	e = range_table__entry(v->methods, (size_t)idx);
	e->module_id = m.module_id;
	e->flags = m.flags;
	if (kind == 'u' || kind == 'e')
		e->unload_ts = ev->timestamp ? ev->timestamp : 1;
	return 0;
}

static int view__module_event(struct view *v, const struct nt_read_event *ev, int domain)
{
	struct sym_module_rec m;
	char strs[8192];

	if (sym_decode_module(ev->payload, ev->payload_size, domain, &m, strs, sizeof(strs)))
		return 0;
	return view__add_module(v, &m);
}

static struct nt_reader *view__open(struct view *v, const char *path)
{
	const void *table = &clretw_event_table ? (const void *)&clretw_event_table : NULL;
	struct nt_reader *r = nt_reader__open(path, table);

	if (!r)
		fprintf(stderr, "ebpf-collect: cannot read %s: %s\n", path, strerror(errno));
	else
		v->info = *nt_reader__info(r);
	return r;
}

static int view__pass1(struct view *v, const char *path)
{
	struct nt_reader *r = view__open(v, path);
	struct nt_read_event ev;
	int rc, err = 0;

	if (!r)
		return -errno;
	while ((rc = nt_reader__next(r, &ev)) == 1) {
		const struct nt_metadata *m = ev.meta;

		v->events++;
		if (is_cpu_sample(m))
			v->cpu_samples = 1;
		if (is_clr(m, CLR_EV_METHOD_LOAD_VERBOSE))
			err = view__method_event(v, &ev, 'l');
		else if (is_clr(m, CLR_EV_METHOD_UNLOAD_VERBOSE))
			err = view__method_event(v, &ev, 'u');
		else if (is_rundown(m, CLR_EV_METHOD_LOAD_VERBOSE))
			err = view__method_event(v, &ev, 'd');
		else if (is_rundown(m, CLR_EV_METHOD_UNLOAD_VERBOSE))
			err = view__method_event(v, &ev, 'e');
		else if (is_clr(m, CLR_EV_MODULE_LOAD) || is_rundown(m, CLR_EV_MODULE_DCSTART) ||
			 is_rundown(m, CLR_EV_MODULE_DCEND))
			err = view__module_event(v, &ev, 0);
		else if (is_rundown(m, CLR_EV_MODULE_LOAD))	/* DomainModuleDCEnd */
			err = view__module_event(v, &ev, 1);
		if (err)
			break;
	}
	if (rc < 0) {
		v->error = 1;
		snprintf(v->errmsg, sizeof(v->errmsg), "%s", nt_reader__error(r));
	}
	v->lost = nt_reader__lost(r);
	nt_reader__close(r);
	return err;
}

/* --------------------------------------------------- frames and stacks */

static uint32_t view__frame(struct view *v, const char *name, const char *file,
			    enum sym_kind kind)
{
	uint64_t h = fnv(name, strlen(name), 1469598103934665603ULL) ^ (uint64_t)kind;
	struct vframe *f;
	size_t k, i;

	if (v->n_frames * 2 >= v->n_frame_slots) {
		size_t n = v->n_frame_slots ? v->n_frame_slots * 2 : 1024;
		uint32_t *s = calloc(n, sizeof(*s));

		if (!s)
			return UINT32_MAX;
		for (i = 0; i < v->n_frames; i++) {
			for (k = v->frames[i].hash & (n - 1); s[k]; k = (k + 1) & (n - 1))
				;
			s[k] = (uint32_t)i + 1;
		}
		free(v->frame_slots);
		v->frame_slots = s;
		v->n_frame_slots = n;
	}
	for (k = h & (v->n_frame_slots - 1); v->frame_slots[k];
	     k = (k + 1) & (v->n_frame_slots - 1)) {
		f = &v->frames[v->frame_slots[k] - 1];
		if (f->hash == h && f->kind == kind && !strcmp(f->name, name))
			return v->frame_slots[k] - 1;
	}
	if (GROW(v->frames, v->cap_frames, v->n_frames + 1))
		return UINT32_MAX;
	f = &v->frames[v->n_frames];
	memset(f, 0, sizeof(*f));
	f->name = strpool__add(v->pool, name, strlen(name));
	f->file = file ? strpool__add(v->pool, file, strlen(file)) : NULL;
	f->kind = kind;
	f->hash = h;
	f->last_stack = UINT32_MAX;
	v->frame_slots[k] = (uint32_t)v->n_frames + 1;
	return (uint32_t)v->n_frames++;
}

static uint32_t view__stack(struct view *v, const uint32_t *fr, uint32_t depth)
{
	uint64_t h = fnv(fr, depth * sizeof(*fr), 1469598103934665603ULL);
	struct vstack *st;
	size_t k, i;

	if (v->n_stacks * 2 >= v->n_stack_slots) {
		size_t n = v->n_stack_slots ? v->n_stack_slots * 2 : 1024;
		uint32_t *s = calloc(n, sizeof(*s));

		if (!s)
			return UINT32_MAX;
		for (i = 0; i < v->n_stacks; i++) {
			for (k = v->stacks[i].hash & (n - 1); s[k]; k = (k + 1) & (n - 1))
				;
			s[k] = (uint32_t)i + 1;
		}
		free(v->stack_slots);
		v->stack_slots = s;
		v->n_stack_slots = n;
	}
	for (k = h & (v->n_stack_slots - 1); v->stack_slots[k];
	     k = (k + 1) & (v->n_stack_slots - 1)) {
		st = &v->stacks[v->stack_slots[k] - 1];
		if (st->hash == h && st->depth == depth &&
		    !memcmp(v->frames_pool + st->off, fr, depth * sizeof(*fr)))
			return v->stack_slots[k] - 1;
	}
	if (GROW(v->stacks, v->cap_stacks, v->n_stacks + 1) ||
	    GROW(v->frames_pool, v->cap_pool, v->n_pool + depth))
		return UINT32_MAX;
	st = &v->stacks[v->n_stacks];
	st->off = (uint32_t)v->n_pool;
	st->depth = depth;
	st->hash = h;
	st->count = 0;
	memcpy(v->frames_pool + v->n_pool, fr, depth * sizeof(*fr));
	v->n_pool += depth;
	v->stack_slots[k] = (uint32_t)v->n_stacks + 1;
	return (uint32_t)v->n_stacks++;
}

/* Name one frame address at time ts; returns the frame id. */
static uint32_t view__resolve(struct view *v, uint64_t ip, uint64_t ts)
{
	const struct range_entry *e;
	const struct vmodule *mod;
	enum sym_kind kind;
	char name[4200];

	if (ip >= SYM_KERNEL_START)
		kind = SYM_KIND_KERNEL;
	else
		kind = SYM_KIND_UNKNOWN;
	e = range_table__find(v->methods, ip, ts ? ts : 1);
	if (!e)
		return view__frame(v, kind == SYM_KIND_KERNEL ? "[kernel.kallsyms]![unknown]" :
				   "[unknown]", NULL, kind);
	mod = view__module(v, e->module_id);
	if (kind != SYM_KIND_KERNEL) {
		if ((e->flags & RANGE_F_JITTED) ||
		    (e->module_id & PSEUDO_ID_MASK) != PSEUDO_MODULE_PREFIX)
			kind = SYM_KIND_JIT;	/* managed code: JIT or precompiled */
		else if (mod && !strcmp(mod->path, "[kernel.kallsyms]"))
			kind = SYM_KIND_KERNEL;
		else
			kind = SYM_KIND_NATIVE;
	}
	if (mod && kind != SYM_KIND_KERNEL)
		snprintf(name, sizeof(name), "%s!%s", mod->name, e->name);
	else
		snprintf(name, sizeof(name), "%s", e->name);
	return view__frame(v, name, mod ? mod->path : NULL, kind);
}

static struct vthread *view__thread(struct view *v, uint64_t tid)
{
	size_t i;

	for (i = 0; i < v->n_threads; i++)
		if (v->threads[i].tid == tid)
			return &v->threads[i];
	if (GROW(v->threads, v->cap_threads, v->n_threads + 1))
		return NULL;
	memset(&v->threads[v->n_threads], 0, sizeof(v->threads[0]));
	v->threads[v->n_threads].tid = tid;
	return &v->threads[v->n_threads++];
}

/* Resolve ev's stack (root first) into a stack id; UINT32_MAX on ENOMEM. */
static uint32_t view__event_stack(struct view *v, const struct nt_read_event *ev)
{
	uint32_t fr[1024], depth = 0, i;

	for (i = ev->stack_depth; i-- > 0 && depth < 1024;) {
		uint64_t ip = ev->stack[i];

		if (!ip)
			continue;
		/* callers' addresses are return addresses: name the call */
		fr[depth] = view__resolve(v, i ? ip - 1 : ip, ev->timestamp);
		if (fr[depth] == UINT32_MAX)
			return UINT32_MAX;
		depth++;
	}
	return view__stack(v, fr, depth);
}

static int view__selected(struct view *v, const struct nt_read_event *ev)
{
	char name[256];

	if (!ev->stack_depth)
		return 0;
	if (v->event_filter) {
		event_name(ev->meta, name, sizeof(name));
		return name_matches(name, v->event_filter) ||
		       (ev->meta->name && name_matches(ev->meta->name, v->event_filter));
	}
	if (v->cpu_samples)
		return is_cpu_sample(ev->meta);
	return 1;
}

static int view__add_sample(struct view *v, const struct nt_read_event *ev)
{
	struct vthread *t;
	uint32_t sid = view__event_stack(v, ev);

	if (sid == UINT32_MAX)
		return -ENOMEM;
	v->stacks[sid].count++;
	if (!v->selected++)
		v->first_ts = ev->timestamp;
	v->last_ts = ev->timestamp;
	t = view__thread(v, ev->thread_id);
	if (!t)
		return -ENOMEM;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		uint32_t *st = realloc(t->stacks, cap * sizeof(*st));
		uint64_t *ts;

		if (!st)
			return -ENOMEM;
		t->stacks = st;
		ts = realloc(t->ts, cap * sizeof(*ts));
		if (!ts)
			return -ENOMEM;
		t->ts = ts;
		t->cap = cap;
	}
	t->stacks[t->n] = sid;
	t->ts[t->n++] = ev->timestamp;
	return 0;
}

/* Pass 2 for convert: collect the selected events' stacks. */
static int view__collect(struct view *v, const char *path)
{
	struct nt_reader *r = view__open(v, path);
	struct nt_read_event ev;
	int rc, err = 0;

	if (!r)
		return -errno;
	while (!err && (rc = nt_reader__next(r, &ev)) == 1)
		if (view__selected(v, &ev))
			err = view__add_sample(v, &ev);
	nt_reader__close(r);
	return err;
}

static int view__load(struct view *v, const char *path, const char *event)
{
	int err = view__pass1(v, path);

	if (err)
		return err;
	v->event_filter = event;
	v->select_desc = event ? event : v->cpu_samples ? "CPU samples (ThreadSample)" :
			 "all events with stacks";
	return view__collect(v, path);
}

/* -------------------------------------------------------- folded stacks */

static void fputs_folded_name(const struct vframe *f, int suffix, FILE *out)
{
	const char *p;

	for (p = f->name; *p; p++)
		if (*p != ';' && *p != '\n' && *p != '\r')
			fputc(*p, out);
	if (suffix && f->kind == SYM_KIND_JIT)
		fputs("_[j]", out);
	else if (suffix && f->kind == SYM_KIND_KERNEL)
		fputs("_[k]", out);
}

static char **folded_lines;

static int line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int view__write_folded(struct view *v, FILE *out)
{
	size_t i, n = 0;
	int err = 0;

	folded_lines = calloc(v->n_stacks ? v->n_stacks : 1, sizeof(char *));
	if (!folded_lines)
		return -ENOMEM;
	for (i = 0; i < v->n_stacks; i++) {
		const struct vstack *st = &v->stacks[i];
		char *buf = NULL;
		size_t len = 0;
		FILE *m;
		uint32_t d;

		if (!st->count)
			continue;
		m = open_memstream(&buf, &len);
		if (!m) {
			err = -ENOMEM;
			break;
		}
		for (d = 0; d < st->depth; d++) {
			if (d)
				fputc(';', m);
			fputs_folded_name(&v->frames[v->frames_pool[st->off + d]], v->kind_suffix, m);
		}
		if (!st->depth)
			fputs("[no frames]", m);
		fprintf(m, " %" PRIu64, st->count);
		fclose(m);
		folded_lines[n++] = buf;
	}
	qsort(folded_lines, n, sizeof(char *), line_cmp);
	for (i = 0; i < n; i++) {
		if (!err)
			fprintf(out, "%s\n", folded_lines[i]);
		free(folded_lines[i]);
	}
	free(folded_lines);
	folded_lines = NULL;
	return err;
}

/* ----------------------------------------------------------- speedscope */

static void json_str(const char *s, FILE *out)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static double ticks_to_ns(const struct view *v, uint64_t ticks)
{
	uint64_t f = v->info.freq ? v->info.freq : 1000000000ULL;

	return (double)ticks * 1e9 / (double)f;
}

static int view__write_speedscope(struct view *v, const char *file, FILE *out)
{
	uint64_t interval = v->info.sampling_interval_ns ? v->info.sampling_interval_ns : 1000000;
	int cpu = v->cpu_samples && !v->event_filter;
	size_t i, j;
	uint32_t d;

	fprintf(out, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n");
	fprintf(out, "\"exporter\":\"ebpf-collect\",\"name\":");
	json_str(sym_basename(file), out);
	fprintf(out, ",\"activeProfileIndex\":0,\n\"shared\":{\"frames\":[\n");
	for (i = 0; i < v->n_frames; i++) {
		fprintf(out, "%s{\"name\":", i ? ",\n" : "");
		json_str(v->frames[i].name, out);
		if (v->frames[i].file) {
			fprintf(out, ",\"file\":");
			json_str(v->frames[i].file, out);
		}
		fputc('}', out);
	}
	fprintf(out, "]},\n\"profiles\":[\n");
	for (i = 0; i < v->n_threads; i++) {
		const struct vthread *t = &v->threads[i];
		double start = ticks_to_ns(v, t->ts[0] - v->first_ts);
		double end = ticks_to_ns(v, t->ts[t->n - 1] - v->first_ts);

		fprintf(out, "%s{\"type\":\"sampled\",\"name\":\"Thread %" PRIu64 " (%s)\",",
			i ? ",\n" : "", t->tid, cpu ? "CPU samples" : v->select_desc);
		if (cpu)
			fprintf(out, "\"unit\":\"nanoseconds\",\"startValue\":%.0f,\"endValue\":%.0f,",
				start, end + (double)interval);
		else
			fprintf(out, "\"unit\":\"none\",\"startValue\":0,\"endValue\":%zu,", t->n);
		fprintf(out, "\n\"samples\":[");
		for (j = 0; j < t->n; j++) {
			const struct vstack *st = &v->stacks[t->stacks[j]];

			fprintf(out, "%s[", j ? "," : "");
			for (d = 0; d < st->depth; d++)
				fprintf(out, "%s%u", d ? "," : "", v->frames_pool[st->off + d]);
			fputc(']', out);
		}
		fprintf(out, "],\n\"weights\":[");
		for (j = 0; j < t->n; j++)
			fprintf(out, "%s%" PRIu64, j ? "," : "", cpu ? interval : (uint64_t)1);
		fprintf(out, "]}");
	}
	fprintf(out, "]}\n");
	return ferror(out) ? -EIO : 0;
}

/* ----------------------------------------------------------- flame graph */

struct fnode {
	uint32_t frame;
	uint64_t count;
	uint32_t first_child, next_sibling;	/* indices + 1 */
};

struct ftree {
	struct fnode *n;
	size_t len, cap;
};

static int ftree__child(struct ftree *t, uint32_t parent, uint32_t frame, uint32_t *out)
{
	uint32_t c;

	for (c = t->n[parent].first_child; c; c = t->n[c - 1].next_sibling)
		if (t->n[c - 1].frame == frame) {
			*out = c - 1;
			return 0;
		}
	if (GROW(t->n, t->cap, t->len + 1))
		return -ENOMEM;
	t->n[t->len].frame = frame;
	t->n[t->len].count = 0;
	t->n[t->len].first_child = 0;
	t->n[t->len].next_sibling = t->n[parent].first_child;
	t->n[parent].first_child = (uint32_t)t->len + 1;
	*out = (uint32_t)t->len++;
	return 0;
}

/* siblings in name order, for a stable picture */
static const struct view *fs_view;
static const struct ftree *fs_tree;

static int fnode_cmp(const void *a, const void *b)
{
	const struct fnode *x = &fs_tree->n[*(const uint32_t *)a];
	const struct fnode *y = &fs_tree->n[*(const uint32_t *)b];

	return strcmp(fs_view->frames[x->frame].name, fs_view->frames[y->frame].name);
}

static void fnode_sort(const struct view *v, const struct ftree *t, uint32_t *ids, size_t n)
{
	fs_view = v;
	fs_tree = t;
	qsort(ids, n, sizeof(*ids), fnode_cmp);
}

#define FG_WIDTH	1200
#define FG_PAD		10
#define FG_FRAME_H	16
#define FG_FONT		12
#define FG_CHAR_W	(FG_FONT * 0.59)
#define FG_MIN_W	0.1

static void xml_str(const char *s, size_t max, FILE *out)
{
	size_t n = 0;

	for (; *s && n < max; s++, n++) {
		unsigned char c = (unsigned char)*s;

		if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if (c < 0x20)
			fputc(' ', out);
		else
			fputc(c, out);
	}
}

/* Colours by kind, FlameGraph's java palette: JIT green, native red,
 * kernel orange, unknown grey; the name's hash varies the shade. */
static void fg_colour(const struct vframe *f, char *buf, size_t len)
{
	unsigned v1 = (unsigned)(f->hash % 64), v2 = (unsigned)((f->hash >> 8) % 64);

	switch (f->kind) {
	case SYM_KIND_JIT:
		snprintf(buf, len, "rgb(%u,%u,%u)", 50 + v1, 170 + v2 / 2, 50 + v1 / 2);
		break;
	case SYM_KIND_KERNEL:
		snprintf(buf, len, "rgb(%u,%u,%u)", 220 + v1 / 3, 130 + v2, 20 + v1 / 4);
		break;
	case SYM_KIND_NATIVE:
		snprintf(buf, len, "rgb(%u,%u,%u)", 200 + v1 / 2, 60 + v2, 50 + v1 / 2);
		break;
	default:
		snprintf(buf, len, "rgb(%u,%u,%u)", 160 + v1 / 2, 160 + v1 / 2, 160 + v1 / 2);
		break;
	}
}

static void fg_emit(const struct view *v, const struct ftree *t, uint32_t node, int depth,
		    double x, double scale, int height, uint64_t total, FILE *out)
{
	const struct fnode *nd = &t->n[node];
	double w = (double)nd->count * scale;
	const struct vframe *f = &v->frames[nd->frame];
	double y = height - FG_PAD * 3 - (depth + 1) * FG_FRAME_H;
	char colour[32];
	size_t chars;
	uint32_t c;
	double cx;

	if (w < FG_MIN_W)
		return;
	fg_colour(f, colour, sizeof(colour));
	fprintf(out, "<g><title>");
	xml_str(f->name, 4096, out);
	fprintf(out, " (%" PRIu64 " samples, %.2f%%)</title>", nd->count,
		100.0 * (double)nd->count / (double)total);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" rx=\"2\" ry=\"2\"/>",
		x, y, w, FG_FRAME_H - 1, colour);
	chars = (size_t)((w - 6) / FG_CHAR_W);
	if (chars >= 3) {
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + FG_FRAME_H - 5);
		if (strlen(f->name) <= chars) {
			xml_str(f->name, chars, out);
		} else {
			xml_str(f->name, chars - 2, out);
			fputs("..", out);
		}
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
	/* children left to right in name order for a stable picture */
	cx = x;
	{
		uint32_t *kids;
		size_t nk = 0, i;

		for (c = nd->first_child; c; c = t->n[c - 1].next_sibling)
			nk++;
		kids = malloc((nk ? nk : 1) * sizeof(*kids));
		if (!kids)
			return;
		nk = 0;
		for (c = nd->first_child; c; c = t->n[c - 1].next_sibling)
			kids[nk++] = c - 1;
		fnode_sort(v, t, kids, nk);
		for (i = 0; i < nk; i++) {
			fg_emit(v, t, kids[i], depth + 1, cx, scale, height, total, out);
			cx += (double)t->n[kids[i]].count * scale;
		}
		free(kids);
	}
}

static int ftree__depth(const struct ftree *t, uint32_t node)
{
	int best = 0, d;
	uint32_t c;

	for (c = t->n[node].first_child; c; c = t->n[c - 1].next_sibling) {
		d = ftree__depth(t, c - 1);
		if (d > best)
			best = d;
	}
	return best + 1;
}

static int view__write_svg(struct view *v, const char *file, FILE *out)
{
	struct ftree t = { 0 };
	uint64_t total = 0;
	size_t i;
	uint32_t d, cur;
	int height, err = 0;
	double scale;

	if (GROW(t.n, t.cap, 1))
		return -ENOMEM;
	t.len = 1;
	memset(&t.n[0], 0, sizeof(t.n[0]));
	t.n[0].frame = UINT32_MAX;
	for (i = 0; i < v->n_stacks && !err; i++) {
		const struct vstack *st = &v->stacks[i];

		if (!st->count)
			continue;
		total += st->count;
		t.n[0].count += st->count;
		for (cur = 0, d = 0; d < st->depth && !err; d++) {
			err = ftree__child(&t, cur, v->frames_pool[st->off + d], &cur);
			if (!err)
				t.n[cur].count += st->count;
		}
	}
	if (err) {
		free(t.n);
		return err;
	}
	height = (ftree__depth(&t, 0) - 1) * FG_FRAME_H + FG_PAD * 8;
	scale = total ? (double)(FG_WIDTH - 2 * FG_PAD) / (double)total : 0;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n"
		"<style>text { font-family: Verdana, sans-serif; font-size: %dpx; fill: #000; } g:hover rect { stroke: #000; stroke-width: 0.5; }</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f8\"/>\n"
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" style=\"font-size:17px\">Flame Graph: ",
		FG_WIDTH, height, FG_WIDTH, height, FG_FONT, FG_WIDTH, height, FG_WIDTH / 2,
		FG_PAD * 2);
	xml_str(sym_basename(file), 256, out);
	fprintf(out, "</text>\n<text x=\"%d\" y=\"%d\">", FG_PAD, FG_PAD * 4);
	xml_str(v->select_desc, 256, out);
	fprintf(out, ", %" PRIu64 " samples; green JIT, red native, orange kernel, grey unknown</text>\n",
		total);
	for (cur = t.n[0].first_child, d = 0; cur; cur = t.n[cur - 1].next_sibling)
		d++;
	{
		/* roots, in name order */
		uint32_t *roots = calloc(d ? d : 1, sizeof(*roots));
		size_t nr = 0, a;
		double x = FG_PAD;

		if (!roots) {
			free(t.n);
			return -ENOMEM;
		}
		for (cur = t.n[0].first_child; cur; cur = t.n[cur - 1].next_sibling)
			roots[nr++] = cur - 1;
		fnode_sort(v, &t, roots, nr);
		for (a = 0; a < nr; a++) {
			fg_emit(v, &t, roots[a], 0, x, scale, height, total, out);
			x += (double)t.n[roots[a]].count * scale;
		}
		free(roots);
	}
	fprintf(out, "</svg>\n");
	free(t.n);
	return ferror(out) ? -EIO : 0;
}

/* ------------------------------------------------------------- report */

struct u64map {
	uint64_t *keys, *vals;	/* key 0 is never used: callers add 1 */
	size_t n, cap;
};

static uint64_t *u64map__slot(struct u64map *m, uint64_t key)
{
	size_t k, i;

	if (m->n * 2 >= m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 256;
		uint64_t *nk = calloc(cap, sizeof(*nk)), *nv = calloc(cap, sizeof(*nv));

		if (!nk || !nv) {
			free(nk);
			free(nv);
			return NULL;
		}
		for (i = 0; i < m->cap; i++) {
			if (!m->keys[i])
				continue;
			for (k = (m->keys[i] * 0x9e3779b97f4a7c15ULL) >> 7 & (cap - 1); nk[k];
			     k = (k + 1) & (cap - 1))
				;
			nk[k] = m->keys[i];
			nv[k] = m->vals[i];
		}
		free(m->keys);
		free(m->vals);
		m->keys = nk;
		m->vals = nv;
		m->cap = cap;
	}
	for (k = (key * 0x9e3779b97f4a7c15ULL) >> 7 & (m->cap - 1); m->keys[k];
	     k = (k + 1) & (m->cap - 1))
		if (m->keys[k] == key)
			return &m->vals[k];
	m->keys[k] = key;
	m->n++;
	return &m->vals[k];
}

static void u64map__free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
}

struct etype {
	char name[256];
	uint64_t count;
};

struct exc_type {
	char *type, *message;
	uint64_t count;
};

struct gc_pending {
	uint32_t count, gen;
	uint64_t ts;
};

struct report {
	struct view *v;
	struct etype *etypes;
	size_t n_etypes, cap_etypes;
	struct u64map leaf;		/* (etype + 1) << 32 | frame → count */
	struct exc_type *exc;
	size_t n_exc, cap_exc;
	uint64_t cpu_total, cpu_managed, cpu_external;
	uint64_t pause_n, pause_total, pause_max, suspend_ts;
	int suspended;
	struct gc_pending pend[64];
	int n_pend;
	uint64_t gc_n[4], gc_total[4], gc_max[4];
	/* off-CPU time (issue 7): key (managed frame + 1) << 32 | (user leaf + 1) */
	struct u64map offcpu_ns, offcpu_n;
	uint64_t offcpu_total, offcpu_events;
};

static int report__etype(struct report *rp, const char *name)
{
	size_t i;

	for (i = 0; i < rp->n_etypes; i++)
		if (!strcmp(rp->etypes[i].name, name))
			return (int)i;
	if (GROW(rp->etypes, rp->cap_etypes, rp->n_etypes + 1))
		return -1;
	snprintf(rp->etypes[rp->n_etypes].name, sizeof(rp->etypes[0].name), "%s", name);
	rp->etypes[rp->n_etypes].count = 0;
	return (int)rp->n_etypes++;
}

static uint32_t rd32(const struct nt_read_event *ev, size_t off)
{
	const uint8_t *p = ev->payload;

	if (off + 4 > ev->payload_size)
		return 0;
	return (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 | (uint32_t)p[off + 2] << 16 |
	       (uint32_t)p[off + 3] << 24;
}

static int report__exception(struct report *rp, const struct nt_read_event *ev)
{
	char type[1024] = "", msg[1024] = "";
	long n = sym_utf16_to_utf8(ev->payload, ev->payload_size, type, sizeof(type));
	size_t i;

	if (n > 0)
		sym_utf16_to_utf8(ev->payload + n, ev->payload_size - (size_t)n, msg, sizeof(msg));
	if (!type[0])
		snprintf(type, sizeof(type), "[unknown]");
	for (i = 0; i < rp->n_exc; i++)
		if (!strcmp(rp->exc[i].type, type)) {
			rp->exc[i].count++;
			return 0;
		}
	if (GROW(rp->exc, rp->cap_exc, rp->n_exc + 1))
		return -ENOMEM;
	rp->exc[rp->n_exc].type = strdup(type);
	rp->exc[rp->n_exc].message = strdup(msg);
	rp->exc[rp->n_exc].count = 1;
	rp->n_exc++;
	return 0;
}

static void report__gc(struct report *rp, const struct nt_read_event *ev)
{
	const struct nt_metadata *m = ev->meta;
	uint64_t dt;
	int i;

	if (is_clr(m, 9)) {		/* GCSuspendEEBegin */
		rp->suspended = 1;
		rp->suspend_ts = ev->timestamp;
	} else if (is_clr(m, 3) && rp->suspended) {	/* GCRestartEEEnd */
		rp->suspended = 0;
		dt = ev->timestamp - rp->suspend_ts;
		rp->pause_n++;
		rp->pause_total += dt;
		if (dt > rp->pause_max)
			rp->pause_max = dt;
	} else if (is_clr(m, 1)) {	/* GCStart: Count, Depth (v1+) */
		if (rp->n_pend == 64)
			rp->n_pend = 0;
		rp->pend[rp->n_pend].count = rd32(ev, 0);
		rp->pend[rp->n_pend].gen = m->version >= 1 ? rd32(ev, 4) : 0;
		rp->pend[rp->n_pend].ts = ev->timestamp;
		rp->n_pend++;
	} else if (is_clr(m, 2)) {	/* GCEnd: Count, Depth */
		uint32_t count = rd32(ev, 0);

		for (i = rp->n_pend - 1; i >= 0; i--) {
			uint32_t g;

			if (rp->pend[i].count != count)
				continue;
			g = rp->pend[i].gen > 3 ? 3 : rp->pend[i].gen;
			dt = ev->timestamp - rp->pend[i].ts;
			rp->gc_n[g]++;
			rp->gc_total[g] += dt;
			if (dt > rp->gc_max[g])
				rp->gc_max[g] = dt;
			rp->pend[i] = rp->pend[--rp->n_pend];
			break;
		}
	}
}

/* Leaf managed frame of a stack (first JIT frame from the leaf), else the leaf. */
static uint32_t report__leaf_managed(const struct view *v, uint32_t sid)
{
	const struct vstack *st = &v->stacks[sid];
	uint32_t d;

	for (d = st->depth; d-- > 0;)
		if (v->frames[v->frames_pool[st->off + d]].kind == SYM_KIND_JIT)
			return v->frames_pool[st->off + d];
	return st->depth ? v->frames_pool[st->off + st->depth - 1] : UINT32_MAX;
}

/* Kernel OffCpu events (issue 7, collector/kernel_events.c: provider
 * Linux-Kernel-Sched, id 3, fields Pid, Tid, DurationNs, ...): blocked time
 * by (leaf managed frame, leaf user frame) of the blocking stack. */
static int report__offcpu(struct report *rp, const struct nt_read_event *ev)
{
	const struct nt_metadata *m = ev->meta;
	struct view *v = rp->v;
	uint32_t sid, managed, user = UINT32_MAX, d;
	uint64_t ns, key, *slot;

	if (m->event_id != 3 || !streq_ci(m->provider, "Linux-Kernel-Sched") ||
	    m->n_fields < 3 || strcmp(m->fields[2].name, "DurationNs"))
		return 0;
	ns = rd32(ev, 8) | (uint64_t)rd32(ev, 12) << 32;
	rp->offcpu_total += ns;
	rp->offcpu_events++;
	if (!ev->stack_depth)
		return 0;
	sid = view__event_stack(v, ev);
	if (sid == UINT32_MAX)
		return -ENOMEM;
	managed = report__leaf_managed(v, sid);
	for (d = v->stacks[sid].depth; d-- > 0;) {
		uint32_t f = v->frames_pool[v->stacks[sid].off + d];

		if (v->frames[f].kind != SYM_KIND_KERNEL) {
			user = f;
			break;
		}
	}
	if (managed != UINT32_MAX && v->frames[managed].kind != SYM_KIND_JIT)
		managed = UINT32_MAX;
	key = ((uint64_t)managed + 1) << 32 | ((uint64_t)user + 1);
	slot = u64map__slot(&rp->offcpu_ns, key);
	if (!slot)
		return -ENOMEM;
	*slot += ns;
	slot = u64map__slot(&rp->offcpu_n, key);
	if (!slot)
		return -ENOMEM;
	(*slot)++;
	return 0;
}

static int report__event(struct report *rp, const struct nt_read_event *ev)
{
	struct view *v = rp->v;
	char name[256];
	uint64_t *slot;
	uint32_t sid, leaf;
	int et;

	if (is_cpu_sample(ev->meta)) {
		rp->cpu_total++;
		if (rd32(ev, 0) == 2)
			rp->cpu_managed++;
		else if (rd32(ev, 0) == 1)
			rp->cpu_external++;
		return ev->stack_depth ? view__add_sample(v, ev) : 0;
	}
	report__gc(rp, ev);
	if (is_clr(ev->meta, 80) && report__exception(rp, ev))
		return -ENOMEM;
	if (report__offcpu(rp, ev))	/* issue 7 */
		return -ENOMEM;
	if (!ev->stack_depth)
		return 0;
	event_name(ev->meta, name, sizeof(name));
	et = report__etype(rp, name);
	if (et < 0)
		return -ENOMEM;
	rp->etypes[et].count++;
	sid = view__event_stack(v, ev);
	if (sid == UINT32_MAX)
		return -ENOMEM;
	leaf = report__leaf_managed(v, sid);
	if (leaf == UINT32_MAX)
		return 0;
	slot = u64map__slot(&rp->leaf, ((uint64_t)et + 1) << 32 | leaf);
	if (!slot)
		return -ENOMEM;
	(*slot)++;
	return 0;
}

/* Fit a name into w columns: drop the argument list first ("(..)"), then
 * keep the end of what is left (the type and method). */
static void print_fit(const char *s, int w)
{
	int l = (int)strlen(s), p;
	const char *paren = strchr(s, '(');

	if (l <= w) {
		printf("%s\n", s);
		return;
	}
	p = paren ? (int)(paren - s) : l;
	if (p + 4 <= w)
		printf("%.*s(..)\n", p, s);
	else
		printf("..%.*s%s\n", w - 2 - (paren ? 4 : 0), s + p - (w - 2 - (paren ? 4 : 0)),
		       paren ? "(..)" : "");
}

static uint32_t *sort_frames_by;	/* 0 = self, 1 = total */
static const struct view *sort_view;

static int frame_cmp(const void *a, const void *b)
{
	const struct vframe *x = &sort_view->frames[*(const uint32_t *)a];
	const struct vframe *y = &sort_view->frames[*(const uint32_t *)b];
	uint64_t kx = *sort_frames_by ? x->total : x->self, ky = *sort_frames_by ? y->total : y->self;

	if (kx != ky)
		return kx > ky ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void report__cpu(struct report *rp, int top)
{
	struct view *v = rp->v;
	uint32_t *order, by = 0, d;
	size_t i, n = 0;
	uint64_t total = 0;

	for (i = 0; i < v->n_stacks; i++) {
		const struct vstack *st = &v->stacks[i];

		if (!st->count || !st->depth)
			continue;
		total += st->count;
		v->frames[v->frames_pool[st->off + st->depth - 1]].self += st->count;
		for (d = 0; d < st->depth; d++) {
			struct vframe *f = &v->frames[v->frames_pool[st->off + d]];

			if (f->last_stack != i) {
				f->last_stack = (uint32_t)i;
				f->total += st->count;
			}
		}
	}
	printf("\nTop methods by CPU samples (%" PRIu64 " samples: %" PRIu64 " managed, %" PRIu64
	       " external)\n", rp->cpu_total, rp->cpu_managed, rp->cpu_external);
	if (!total) {
		printf("  (no samples with stacks)\n");
		return;
	}
	order = malloc(v->n_frames * sizeof(*order));
	if (!order)
		return;
	for (i = 0; i < v->n_frames; i++)
		if (v->frames[i].self)
			order[n++] = (uint32_t)i;
	sort_frames_by = &by;
	sort_view = v;
	qsort(order, n, sizeof(*order), frame_cmp);
	printf("%8s %6s %8s %6s  %s\n", "Excl", "Excl%", "Incl", "Incl%", "Method");
	for (i = 0; i < n && (int)i < top; i++) {
		const struct vframe *f = &v->frames[order[i]];

		printf("%8" PRIu64 " %5.1f%% %8" PRIu64 " %5.1f%%  ", f->self,
		       100.0 * (double)f->self / (double)total, f->total,
		       100.0 * (double)f->total / (double)total);
		print_fit(f->name, 80 - 35);
	}
	free(order);
}

struct leaf_count {
	uint32_t frame;
	uint64_t count;
};

static int leaf_cmp(const void *a, const void *b)
{
	const struct leaf_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(sort_view->frames[x->frame].name, sort_view->frames[y->frame].name);
}

static uint64_t *offcpu_sort_vals;

/* "module!Ns.Type.Method(args)" -> "Type.Method": no module, no arguments,
 * at most the last two dotted parts. */
static const char *short_name(const char *full, char *buf, size_t len)
{
	const char *p = strchr(full, '!'), *dot1 = NULL, *dot2 = NULL, *q;
	size_t n, dots;

	p = p ? p + 1 : full;
	n = strcspn(p, "(");
	dots = strchr(p, '@') ? 0 : n;	/* not in "sym@@GLIBC_2.3" */
	for (q = p; q < p + dots; q++) {
		if (*q == '.') {
			dot2 = dot1;
			dot1 = q;
		}
	}
	if (dot2) {
		n -= dot2 + 1 - p;
		p = dot2 + 1;
	}
	snprintf(buf, len, "%.*s", (int)n, p);
	return buf;
}

static int offcpu_cmp(const void *a, const void *b)
{
	uint64_t x = offcpu_sort_vals[*(const size_t *)a], y = offcpu_sort_vals[*(const size_t *)b];

	return x == y ? 0 : x > y ? -1 : 1;
}

/* Off-CPU time by blocking frame (issue 7). */
static void report__offcpu_print(struct report *rp, int top)
{
	struct view *v = rp->v;
	size_t k, n = 0, *idx;
	char name[512], a[240], b[240];
	int i;

	if (!rp->offcpu_events)
		return;
	printf("\nOff-CPU time by blocking frame (%.3f s in %" PRIu64 " OffCpu intervals;\n"
	       "leaf managed frame <- leaf user frame where the thread blocked)\n",
	       rp->offcpu_total / 1e9, rp->offcpu_events);
	idx = malloc((rp->offcpu_ns.cap ? rp->offcpu_ns.cap : 1) * sizeof(*idx));
	if (!idx)
		return;
	for (k = 0; k < rp->offcpu_ns.cap; k++)
		if (rp->offcpu_ns.keys[k])
			idx[n++] = k;
	offcpu_sort_vals = rp->offcpu_ns.vals;
	qsort(idx, n, sizeof(*idx), offcpu_cmp);
	printf("%10s %6s %8s  %s\n", "ms", "%", "Count", "Frames");
	for (i = 0; i < top && (size_t)i < n; i++) {
		uint64_t key = rp->offcpu_ns.keys[idx[i]], *cnt = u64map__slot(&rp->offcpu_n, key);
		uint32_t mf = (uint32_t)(key >> 32) - 1, uf = (uint32_t)key - 1;

		snprintf(name, sizeof(name), "%s <- %s",
			 mf != UINT32_MAX ? short_name(v->frames[mf].name, a, sizeof(a)) : "-",
			 uf != UINT32_MAX ? short_name(v->frames[uf].name, b, sizeof(b)) : "-");
		printf("%10.3f %5.1f%% %8" PRIu64 "  ", rp->offcpu_ns.vals[idx[i]] / 1e6,
		       rp->offcpu_total ? 100.0 * rp->offcpu_ns.vals[idx[i]] / rp->offcpu_total : 0,
		       cnt ? *cnt : 0);
		printf("%.51s\n", name);
	}
	free(idx);
}

static void report__events(struct report *rp, int top)
{
	struct view *v = rp->v;
	struct leaf_count *lc;
	size_t e, k, n;
	int i;

	printf("\nTop methods by event count (events with stacks; leaf managed frame)\n");
	if (!rp->n_etypes) {
		printf("  (no events with stacks)\n");
		return;
	}
	lc = malloc((rp->leaf.n ? rp->leaf.n : 1) * sizeof(*lc));
	if (!lc)
		return;
	sort_view = v;
	printf("%-24s %8s %8s  %s\n", "Event", "Events", "Count", "Method");
	for (e = 0; e < rp->n_etypes; e++) {
		printf("%-24.24s %8" PRIu64 "\n", rp->etypes[e].name, rp->etypes[e].count);
		for (k = 0, n = 0; k < rp->leaf.cap; k++)
			if (rp->leaf.keys[k] && (rp->leaf.keys[k] >> 32) == e + 1) {
				lc[n].frame = (uint32_t)rp->leaf.keys[k];
				lc[n++].count = rp->leaf.vals[k];
			}
		qsort(lc, n, sizeof(*lc), leaf_cmp);
		for (i = 0; i < top && (size_t)i < n; i++) {
			printf("%-24s %8s %8" PRIu64 "  ", "", "", lc[i].count);
			print_fit(v->frames[lc[i].frame].name, 80 - 44);
		}
	}
	free(lc);
}

static void report__gc_print(struct report *rp, const struct view *v)
{
	int g;

	printf("\nGC pauses (GCSuspendEEBegin to GCRestartEEEnd)\n");
	printf("%8s %12s %12s %12s\n", "Count", "Total ms", "Max ms", "Mean ms");
	printf("%8" PRIu64 " %12.3f %12.3f %12.3f\n", rp->pause_n,
	       ticks_to_ns(v, rp->pause_total) / 1e6, ticks_to_ns(v, rp->pause_max) / 1e6,
	       rp->pause_n ? ticks_to_ns(v, rp->pause_total) / 1e6 / (double)rp->pause_n : 0.0);
	printf("\nGCs by generation (GCStart to GCEnd)\n");
	printf("%8s %8s %12s %12s\n", "Gen", "Count", "Total ms", "Max ms");
	for (g = 0; g < 4; g++)
		if (rp->gc_n[g])
			printf("%8d %8" PRIu64 " %12.3f %12.3f\n", g, rp->gc_n[g],
			       ticks_to_ns(v, rp->gc_total[g]) / 1e6, ticks_to_ns(v, rp->gc_max[g]) / 1e6);
}

static int exc_cmp(const void *a, const void *b)
{
	const struct exc_type *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->type, y->type);
}

static void report__exceptions(struct report *rp)
{
	size_t i;

	printf("\nExceptions by type\n");
	if (!rp->n_exc) {
		printf("  (none)\n");
		return;
	}
	qsort(rp->exc, rp->n_exc, sizeof(*rp->exc), exc_cmp);
	printf("%8s  %-36s %s\n", "Count", "Type", "First message");
	for (i = 0; i < rp->n_exc; i++)
		printf("%8" PRIu64 "  %-36.36s %.32s\n", rp->exc[i].count, rp->exc[i].type,
		       rp->exc[i].message ? rp->exc[i].message : "");
}

static void report_usage(FILE *f)
{
	fprintf(f,
		"Usage: ebpf-collect report FILE [--top N]\n"
		"Summarize a .nettrace: top methods by CPU samples (exclusive/inclusive) and by\n"
		"event count (leaf managed frame per event type), GC pauses, GCs by generation,\n"
		"exceptions by type.  Frames are named from the trace's own method events.\n"
		"Exit: 0 ok, 1 unreadable or damaged file (what was read is reported), 64 usage.\n");
}

int report_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct view v;
	struct report rp = { 0 };
	struct nt_reader *r = NULL;
	struct nt_read_event ev;
	uint64_t top = 15;
	int c, rc = 0, err, exit_code = EXIT_OK;
	size_t i;
	const char *path;

	optind = 1;
	while ((c = getopt_long(argc, argv, "n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_u64(optarg, &top) || !top || top > 1000) {
				fprintf(stderr, "report: invalid --top '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			report_usage(stdout);
			return EXIT_OK;
		default:
			report_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		report_usage(stderr);
		return EXIT_USAGE;
	}
	path = argv[optind];
	if (view__init(&v) || view__pass1(&v, path)) {
		view__free(&v);
		return EXIT_FAIL;
	}
	rp.v = &v;
	r = view__open(&v, path);
	if (!r) {
		view__free(&v);
		return EXIT_FAIL;
	}
	err = 0;
	while (!err && (rc = nt_reader__next(r, &ev)) == 1)
		err = report__event(&rp, &ev);
	nt_reader__close(r);
	printf("Trace: %.72s\n", sym_basename(path));
	printf("Events: %" PRIu64 ", lost: %" PRIu64 ", samples span %.3f s, methods named: %zu\n",
	       v.events, v.lost, v.selected ? ticks_to_ns(&v, v.last_ts - v.first_ts) / 1e9 : 0.0,
	       range_table__count(v.methods));
	if (v.error) {
		printf("warning: the file is damaged: %s\n", v.errmsg);
		exit_code = EXIT_FAIL;
	}
	report__cpu(&rp, (int)top);
	report__offcpu_print(&rp, (int)top);	/* issue 7 */
	report__events(&rp, 3);
	report__gc_print(&rp, &v);
	report__exceptions(&rp);
	if (err) {
		fprintf(stderr, "report: %s\n", strerror(-err));
		exit_code = EXIT_FAIL;
	}
	for (i = 0; i < rp.n_exc; i++) {
		free(rp.exc[i].type);
		free(rp.exc[i].message);
	}
	free(rp.exc);
	free(rp.etypes);
	u64map__free(&rp.leaf);
	u64map__free(&rp.offcpu_ns);
	u64map__free(&rp.offcpu_n);
	view__free(&v);
	return exit_code;
}

/* ------------------------------------------------------------- convert */

static void convert_usage(FILE *f)
{
	fprintf(f,
		"Usage: ebpf-collect convert FILE --format folded|speedscope|flamegraph\n"
		"                            [-o OUT] [--event NAME] [--kind-suffix]\n"
		"  folded       FlameGraph's folded stacks: root;...;leaf COUNT\n"
		"  speedscope   speedscope JSON, one sampled profile per thread\n"
		"  flamegraph   a flame-graph SVG (no Perl needed)\n"
		"Input events: CPU samples if the trace has any, else every event with a\n"
		"stack; --event NAME picks one event type (e.g. GCAllocationTick).\n"
		"--kind-suffix appends _[j] to JIT and _[k] to kernel frames (folded).\n"
		"Exit: 0 ok, 1 failure, 64 usage.\n");
}

int convert_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "event", required_argument, NULL, 'e' },
		{ "kind-suffix", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *format = NULL, *outpath = NULL, *event = NULL, *path;
	int c, err, suffix = 0, exit_code = EXIT_OK;
	struct view v;
	FILE *out;

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
	     strcmp(format, "flamegraph"))) {
		convert_usage(stderr);
		return EXIT_USAGE;
	}
	path = argv[optind];
	if (view__init(&v)) {
		view__free(&v);
		return EXIT_FAIL;
	}
	v.kind_suffix = suffix;
	err = view__load(&v, path, event);
	if (err) {
		view__free(&v);
		return EXIT_FAIL;
	}
	if (v.error) {
		fprintf(stderr, "convert: %s is damaged (%s); converting what was read\n", path,
			v.errmsg);
		exit_code = EXIT_FAIL;
	}
	if (!v.selected)
		fprintf(stderr, "convert: no events with stacks selected (%s)\n", v.select_desc);
	out = outpath ? fopen(outpath, "w") : stdout;
	if (!out) {
		fprintf(stderr, "convert: cannot write %s: %s\n", outpath, strerror(errno));
		view__free(&v);
		return EXIT_FAIL;
	}
	if (!strcmp(format, "folded"))
		err = view__write_folded(&v, out);
	else if (!strcmp(format, "speedscope"))
		err = view__write_speedscope(&v, path, out);
	else
		err = view__write_svg(&v, path, out);
	if (outpath && fclose(out))
		err = -errno;
	else if (!outpath)
		fflush(out);
	if (err) {
		fprintf(stderr, "convert: writing %s: %s\n", outpath ? outpath : "stdout",
			strerror(-err));
		exit_code = EXIT_FAIL;
	}
	view__free(&v);
	return exit_code;
}
