// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_views.c - report and convert on a synthetic trace written with the
 * nettrace writer: runtime method load/unload (an address range reused at
 * a later time), the collector's names for the other frames (native,
 * kernel and perf-map JIT functions, as symbolizer/symbolize.c writes them
 * at the end of a trace), CPU samples on two threads, GC pauses, GCs and
 * exceptions.  The folded output is compared with a golden text; the pprof
 * profile is read back (gunzip, protobuf-c's unpack) value by value and the
 * Chrome trace's GC spans, samples and frames are checked to the digit.
 *
 *   test_views                      run the tests (TAP)
 *   test_views --write-trace PATH   only write the synthetic trace (bats)
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "test.h"
#include "nettrace.h"
#include "rundown.h"
#include "commands.h"
#include "event_table.h"
#include <zlib.h>
#include "profile.pb-c.h"

/*
 * The views run here over a manifest table that knows no events, so the
 * names they print are their own fallback names (what a trace read without
 * the generated table shows); the real table's names are checked by the
 * bats suites through ebpf-collect.
 */
const struct ect_table clretw_event_table = { .manifest = "(none)" };

#define SAMPLE_PROFILER "Microsoft-DotNETCore-SampleProfiler"

/* EV_N runtime events, then the collector's two, defined at their first use
 * as the collector does */
enum { EV_SAMPLE, EV_LOAD, EV_UNLOAD, EV_MODLOAD, EV_SUSPEND, EV_RESTART, EV_GCSTART,
       EV_GCEND, EV_EXC, EV_N, EV_DCEND = EV_N, EV_MODEND, EV_ALL };

static const struct nt_event_desc descs[EV_ALL] = {
	[EV_SAMPLE] = { SAMPLE_PROFILER, 0, "", 0, 0, 4, 0, NULL, 0 },
	[EV_LOAD] = { CLR_PROVIDER, 143, "", 0x10, 1, 4, 37, NULL, 0 },
	[EV_UNLOAD] = { CLR_PROVIDER, 144, "", 0x10, 1, 4, 38, NULL, 0 },
	[EV_MODLOAD] = { CLR_PROVIDER, 152, "", 0x8, 2, 4, 33, NULL, 0 },
	[EV_SUSPEND] = { CLR_PROVIDER, 9, "", 0x1, 1, 4, 10, NULL, 0 },
	[EV_RESTART] = { CLR_PROVIDER, 3, "", 0x1, 1, 4, 133, NULL, 0 },
	[EV_GCSTART] = { CLR_PROVIDER, 1, "", 0x1, 2, 4, 1, NULL, 0 },
	[EV_GCEND] = { CLR_PROVIDER, 2, "", 0x1, 1, 4, 2, NULL, 0 },
	[EV_EXC] = { CLR_PROVIDER, 80, "", 0x8000, 1, 2, 1, NULL, 0 },
	[EV_DCEND] = { CLR_RUNDOWN_PROVIDER, 144, "", 0x30, 1, 4, 40, NULL, 0 },
	[EV_MODEND] = { CLR_RUNDOWN_PROVIDER, 154, "", 0x20000008, 2, 4, 36, NULL, 0 },
};

#define MAIN	0x7f0000001000ULL
#define WORK	0x7f0000002000ULL
#define REUSED	0x7f0000003000ULL
#define HELPER	0x7f0000005000ULL
#define QSORT	0x7f1000010000ULL
#define SCHED	0xffffffff81100000ULL

/* the collector's ids for what no runtime event describes (views/view.h) */
#define PSEUDO_MODULE	0xebc0000000000000ULL
#define PSEUDO_METHOD	0xebc1000000000000ULL

struct tw {
	struct nt_writer *w;
	uint32_t id[EV_ALL];
	int err;
};

static void tw_event(struct tw *t, int ev, uint64_t ts, uint64_t tid, const void *payload,
		     size_t size, const uint64_t *stack, uint32_t depth)
{
	struct nt_event e = {
		.metadata_id = t->id[ev], .timestamp = ts, .thread_id = tid,
		.capture_thread_id = tid, .payload = payload, .payload_size = (uint32_t)size,
		.stack = stack, .stack_depth = depth,
	};

	if (!t->err)
		t->err = nt_writer__write_event(t->w, &e);
}

static void tw_method(struct tw *t, int ev, uint64_t ts, uint64_t start, uint32_t size,
		      const char *ns, const char *name, const char *sig)
{
	struct sym_method_rec m = {
		.method_id = start ^ 0x5a5a, .module_id = 0x1000, .start = start, .size = size,
		.token = 0x06000001, .flags = 0x8, .ns = ns, .name = name, .sig = sig,
	};
	uint8_t buf[1024];
	long len = sym_encode_method(buf, sizeof(buf), &m);

	tw_event(t, ev, ts, 1, buf, (size_t)len, NULL, 0);
}

static void tw_sample(struct tw *t, uint64_t ts, uint64_t tid, const uint64_t *stack,
		      uint32_t depth)
{
	uint32_t type = 2;

	tw_event(t, EV_SAMPLE, ts, tid, &type, 4, stack, depth);
}

static void tw_u32s(struct tw *t, int ev, uint64_t ts, const uint32_t *v, size_t n)
{
	uint8_t buf[64] = { 0 };

	memcpy(buf, v, n * 4);
	tw_event(t, ev, ts, 1, buf, n * 4 + 2, NULL, 0);	/* + ClrInstanceID */
}

static size_t utf16(uint8_t *dst, const char *s)
{
	size_t n = 0;

	do {
		dst[n++] = (uint8_t)*s;
		dst[n++] = 0;
	} while (*s++);
	return n;
}

static void tw_exception(struct tw *t, uint64_t ts, const char *type, const char *msg,
			 const uint64_t *stack, uint32_t depth)
{
	uint8_t buf[512] = { 0 };
	size_t n = utf16(buf, type);

	n += utf16(buf + n, msg);
	n += 8 + 4 + 2 + 2;	/* EIPCodeThrow, ExceptionHR, ExceptionFlags, ClrInstanceID */
	tw_event(t, EV_EXC, ts, 7, buf, n, stack, depth);
}

/*
 * What the collector writes after the last event for the frames no runtime
 * event names: one MethodDCEndVerbose per function and one ModuleDCEnd per
 * pseudo-module -- a shared object's path, "[kernel.kallsyms]", or the
 * assembly a perf-map line names, whose name it splits into namespace, name
 * and signature (Jitted).
 */
static void tw_collector_names(struct tw *t, uint64_t ts, uint64_t tid)
{
	static const char *const mods[] = {
		"/usr/lib/x86_64-linux-gnu/libc.so.6", "[kernel.kallsyms]", "Lib",
	};
	static const struct sym_method_rec fns[] = {
		{ .start = QSORT, .size = 0x200, .ns = "", .name = "qsort", .sig = "" },
		{ .start = SCHED, .size = 0x100, .ns = "", .name = "schedule", .sig = "" },
		{ .start = HELPER, .size = 0x40, .flags = 0x8, .ns = "Lib.Helper", .name = "Run",
		  .sig = "void (int32)[OptimizedTier1]" },
	};
	uint8_t buf[1024];
	long len;
	int i;

	for (i = EV_DCEND; i <= EV_MODEND && !t->err; i++)
		t->err = nt_writer__define(t->w, &descs[i], &t->id[i]);
	for (i = 0; i < 3; i++) {
		struct sym_method_rec m = fns[i];

		m.method_id = PSEUDO_METHOD + i + 1;
		m.module_id = PSEUDO_MODULE + i + 1;	/* one module each */
		len = sym_encode_method(buf, sizeof(buf), &m);
		tw_event(t, EV_DCEND, ts, tid, buf, (size_t)len, NULL, 0);
	}
	for (i = 0; i < 3; i++) {
		struct sym_module_rec md = {
			.module_id = PSEUDO_MODULE + i + 1, .assembly_id = PSEUDO_MODULE + i + 1,
			.il_path = mods[i], .native_path = "",
		};

		len = sym_encode_module(buf, sizeof(buf), &md);
		tw_event(t, EV_MODEND, ts, tid, buf, (size_t)len, NULL, 0);
	}
}

/* The synthetic trace; 0 or -errno. */
static int write_trace(const char *path)
{
	struct nt_trace_info info = {
		.sync_ts = 1, .freq = 1000000000ULL, .pointer_size = 8, .pid = 4242, .ncpu = 2,
		.sampling_interval_ns = 1000000,
	};
	struct sym_module_rec app = { .module_id = 0x1000, .assembly_id = 0x2000,
				      .il_path = "/app/App.dll", .native_path = "" };
	struct tw t = { 0 };
	uint8_t buf[1024];
	long len;
	int i;
	const uint64_t s_work[] = { WORK + 0x10, MAIN + 0x21 };
	const uint64_t s_qsort[] = { QSORT + 8, WORK + 0x31, MAIN + 0x21 };
	/* the user frame under the kernel's is where the thread entered it,
	 * here qsort's first byte: named exactly, not at the byte before
	 * (sym_frame_address), as the collector named it when it wrote qsort */
	const uint64_t s_kern[] = { SCHED + 4, QSORT, HELPER + 0x11, MAIN + 0x21 };
	const uint64_t s_reused[] = { REUSED + 4, MAIN + 0x21 };
	const uint64_t s_unknown[] = { 0x12345, MAIN + 0x21 };
	const uint32_t gc1[] = { 1, 0, 0, 0 }, gc1e[] = { 1, 0 };
	const uint32_t gc2[] = { 2, 2, 1, 0 }, gc2e[] = { 2, 2 };
	const uint32_t suspend[] = { 1, 1 };

	clock_gettime(CLOCK_REALTIME, &info.sync_utc);
	unlink(path);
	t.w = nt_writer__open(path, &info);
	if (!t.w)
		return -errno;
	for (i = 0; i < EV_N && !t.err; i++)
		t.err = nt_writer__define(t.w, &descs[i], &t.id[i]);
	len = sym_encode_module(buf, sizeof(buf), &app);
	tw_event(&t, EV_MODLOAD, 10, 1, buf, (size_t)len, NULL, 0);
	tw_method(&t, EV_LOAD, 10, MAIN, 0x100, "App.Program", "Main", "void  (string[])");
	tw_method(&t, EV_LOAD, 10, WORK, 0x80, "App.Program", "Work", "int32  (int32)");
	tw_method(&t, EV_LOAD, 10, REUSED, 0x40, "App.Old", "Gone", "void  ()");
	for (i = 0; i < 3; i++)
		tw_sample(&t, 100 + i, 100, s_work, 2);
	tw_sample(&t, 200, 100, s_qsort, 3);
	tw_sample(&t, 300, 101, s_kern, 4);
	tw_sample(&t, 400, 100, s_reused, 2);
	tw_method(&t, EV_UNLOAD, 500, REUSED, 0x40, "App.Old", "Gone", "void  ()");
	tw_method(&t, EV_LOAD, 600, REUSED, 0x40, "App.New", "Here", "void  ()");
	tw_sample(&t, 700, 101, s_reused, 2);
	tw_sample(&t, 800, 100, s_unknown, 2);
	tw_u32s(&t, EV_SUSPEND, 1000000, suspend, 2);
	tw_u32s(&t, EV_GCSTART, 1100000, gc1, 4);
	tw_u32s(&t, EV_GCEND, 3100000, gc1e, 2);
	tw_u32s(&t, EV_RESTART, 3500000, NULL, 0);
	tw_u32s(&t, EV_SUSPEND, 4000000, suspend, 2);
	tw_u32s(&t, EV_GCSTART, 5000000, gc2, 4);
	tw_u32s(&t, EV_GCEND, 9000000 - 1, gc2e, 2);
	tw_u32s(&t, EV_RESTART, 9000000 - 1, NULL, 0);
	tw_exception(&t, 9000000, "System.InvalidOperationException", "bad state", s_work, 2);
	tw_exception(&t, 9000000, "System.InvalidOperationException", "other", s_work, 2);
	tw_exception(&t, 9000000, "System.IO.IOException", "disk", s_qsort, 3);
	/* the collector's names for the frames the runtime's events do not name */
	tw_collector_names(&t, 9000000, 1);
	if (t.err) {
		nt_writer__abort(t.w);
		return t.err;
	}
	return nt_writer__close(t.w, NULL, 9000001);
}

/* Run a subcommand main() with stdout captured into a string. */
static char *capture(int (*fn)(int, char **), int argc, char **argv, int *rc)
{
	char tmpl[] = "/tmp/test_views_out.XXXXXX";
	int fd = mkstemp(tmpl), saved = dup(1);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	fflush(stdout);
	dup2(fd, 1);
	*rc = fn(argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	f = fdopen(fd, "r");
	rewind(f);
	if (getdelim(&buf, &len, '\0', f) < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	unlink(tmpl);
	return buf;
}

static char trace[] = "/tmp/test_views.XXXXXX";
static char trace_path[64];

static void test_folded_golden(void)
{
	char *argv[] = { "convert", trace_path, "--format", "folded", NULL };
	char *argv_k[] = { "convert", trace_path, "--format", "folded", "--kind-suffix", NULL };
	char *argv_t[] = { "convert", trace_path, "--format", "folded", "--tiers", NULL };
	char *out, expect[2048];
	int rc;

	out = capture(convert_main, 4, argv, &rc);
	ASSERT_EQ(rc, 0, "exit");
	/* golden: sorted bytewise, as convert prints it */
	snprintf(expect, sizeof(expect), "%s",
		 "App!App.Program.Main(string[]);App!App.New.Here() 1\n"
		 "App!App.Program.Main(string[]);App!App.Old.Gone() 1\n"
		 "App!App.Program.Main(string[]);App!App.Program.Work(int32) 3\n"
		 "App!App.Program.Main(string[]);App!App.Program.Work(int32);libc.so.6!qsort 1\n"
		 "App!App.Program.Main(string[]);Lib!Lib.Helper.Run(int32);libc.so.6!qsort;schedule 1\n"
		 "App!App.Program.Main(string[]);[unknown] 1\n");
	ASSERT_STREQ(out, expect, "folded golden");
	if (strcmp(out, expect))
		printf("# got:\n%s", out);
	free(out);
	out = capture(convert_main, 5, argv_k, &rc);
	ASSERT_TRUE(strstr(out, "App!App.Program.Main(string[])_[j];Lib!Lib.Helper.Run(int32)_[j];libc.so.6!qsort;schedule_[k] 1\n") != NULL,
		    "kind suffixes");
	free(out);
	/* the code version's tier only when asked for */
	out = capture(convert_main, 5, argv_t, &rc);
	ASSERT_TRUE(strstr(out, "App!App.Program.Main(string[]);Lib!Lib.Helper.Run(int32)[OptimizedTier1];libc.so.6!qsort;schedule 1\n") != NULL,
		    "--tiers");
	free(out);
}

static void test_event_filter(void)
{
	char *argv[] = { "convert", trace_path, "--format", "folded", "--event",
			 "ExceptionThrown", NULL };
	char *out;
	int rc;

	out = capture(convert_main, 6, argv, &rc);
	ASSERT_EQ(rc, 0, "exit");
	ASSERT_STREQ(out,
		     "App!App.Program.Main(string[]);App!App.Program.Work(int32) 2\n"
		     "App!App.Program.Main(string[]);App!App.Program.Work(int32);libc.so.6!qsort 1\n",
		     "exceptions' stacks");
	free(out);
}

static void test_report(void)
{
	char *argv[] = { "report", trace_path, NULL };
	char *out, *line;
	int rc;
	size_t maxw = 0;

	out = capture(report_main, 2, argv, &rc);
	ASSERT_EQ(rc, 0, "exit");
	printf("%s", "# report:\n");
	for (line = out; *line;) {
		char *nl = strchr(line, '\n');
		size_t w = nl ? (size_t)(nl - line) : strlen(line);

		if (w > maxw)
			maxw = w;
		printf("# %.*s\n", (int)w, line);
		line += w + (nl ? 1 : 0);
	}
	ASSERT_TRUE(maxw < 80, "lines under 80 columns");
	ASSERT_TRUE(strstr(out, "Top methods by CPU samples (8 samples: 8 managed, 0 external)") != NULL,
		    "sample count");
	ASSERT_TRUE(strstr(out, "       3  37.5%        4  50.0%  App!App.Program.Work(int32)\n") != NULL,
		    "Work: 3 exclusive, 4 inclusive of 8");
	ASSERT_TRUE(strstr(out, "       0   0.0%") == NULL, "only frames with exclusive samples");
	ASSERT_TRUE(strstr(out, "       1  12.5%        8 100.0%") == NULL, "Main has no exclusive");
	ASSERT_TRUE(strstr(out, "       2        7.500        5.000        3.750\n") != NULL,
		    "2 pauses: 2.5 ms and 4.999999 ms");
	ASSERT_TRUE(strstr(out, "       0        1        2.000        2.000\n") != NULL, "gen0 GC 2 ms");
	ASSERT_TRUE(strstr(out, "       2        1        4.000        4.000\n") != NULL, "gen2 GC 4 ms");
	ASSERT_TRUE(strstr(out, "       2  System.InvalidOperationException     bad state\n") != NULL,
		    "exceptions by type, first message");
	ASSERT_TRUE(strstr(out, "       1  System.IO.IOException                disk\n") != NULL,
		    "second type");
	/* events are named as TraceEvent names them (ExceptionThrown_V1 is Exception/Start) */
	ASSERT_TRUE(strstr(out, "Exception/Start                 3\n") != NULL, "event count");
	/* the IOException's leaf is qsort: its leaf managed frame is Work too */
	ASSERT_TRUE(strstr(out, "                                         3  App!App.Program.Work(int32)\n") != NULL,
		    "leaf managed frame of exceptions");
	free(out);
}

static void test_speedscope_and_svg_shape(void)
{
	char *argv[] = { "convert", trace_path, "--format", "speedscope", NULL };
	char *argv2[] = { "convert", trace_path, "--format", "flamegraph", NULL };
	char *out;
	int rc;

	out = capture(convert_main, 4, argv, &rc);
	ASSERT_EQ(rc, 0, "speedscope exit");
	ASSERT_TRUE(!strncmp(out, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\"", 61),
		    "schema url first");
	ASSERT_TRUE(strstr(out, "{\"name\":\"schedule\",\"file\":\"[kernel.kallsyms]\"}") != NULL,
		    "kernel frame with its file");
	ASSERT_TRUE(strstr(out, "{\"name\":\"libc.so.6!qsort\",\"file\":\"/usr/lib/x86_64-linux-gnu/libc.so.6\"}") != NULL,
		    "native frame with its file");
	ASSERT_TRUE(strstr(out, "\"name\":\"Thread 100 (CPU samples)\"") != NULL, "per thread");
	free(out);
	out = capture(convert_main, 4, argv2, &rc);
	ASSERT_EQ(rc, 0, "svg exit");
	ASSERT_TRUE(strstr(out, "<title>App!App.Program.Main(string[]) (8 samples, 100.00%)</title>") != NULL,
		    "root title");
	ASSERT_TRUE(strstr(out, "<title>schedule (1 samples, 12.50%)</title>") != NULL, "kernel title");
	free(out);
}

/* A gzip'd file's bytes, inflated; NULL on failure. */
static uint8_t *gunzip_file(const char *path, size_t *len)
{
	uint8_t in[65536], *out = NULL;
	size_t cap = 0;
	z_stream z = { 0 };
	FILE *f = fopen(path, "rb");
	size_t n;
	int zr = Z_OK;

	*len = 0;
	if (!f || inflateInit2(&z, 15 + 32) != Z_OK) {
		if (f)
			fclose(f);
		return NULL;
	}
	while (zr != Z_STREAM_END && (n = fread(in, 1, sizeof(in), f)) > 0) {
		z.next_in = in;
		z.avail_in = (uInt)n;
		do {
			if (cap - *len < 65536) {
				cap = cap ? cap * 2 : 262144;
				out = realloc(out, cap);
			}
			z.next_out = out + *len;
			z.avail_out = (uInt)(cap - *len);
			zr = inflate(&z, Z_NO_FLUSH);
			*len = cap - z.avail_out;
		} while (zr == Z_OK && z.avail_in);
	}
	inflateEnd(&z);
	fclose(f);
	if (zr != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	return out;
}

static const Perftools__Profiles__Function *pp_func(const Perftools__Profiles__Profile *p,
						    uint64_t id)
{
	size_t i;

	for (i = 0; i < p->n_function; i++)
		if (p->function[i]->id == id)
			return p->function[i];
	return NULL;
}

static const Perftools__Profiles__Mapping *pp_map(const Perftools__Profiles__Profile *p,
						  uint64_t id)
{
	size_t i;

	for (i = 0; i < p->n_mapping; i++)
		if (p->mapping[i]->id == id)
			return p->mapping[i];
	return NULL;
}

/* The name of location id's function, "" when none. */
static const char *pp_loc_name(const Perftools__Profiles__Profile *p, uint64_t id)
{
	const Perftools__Profiles__Function *f;
	size_t i;

	for (i = 0; i < p->n_location; i++)
		if (p->location[i]->id == id && p->location[i]->n_line == 1) {
			f = pp_func(p, p->location[i]->line[0]->function_id);
			return f ? p->string_table[f->name] : "";
		}
	return "";
}

static void test_pprof_values(void)
{
	char out_path[96];
	char *argv[] = { "convert", trace_path, "--format", "pprof", "-o", out_path, NULL };
	Perftools__Profiles__Profile *p;
	int64_t sums[3] = { 0 };
	uint8_t *buf;
	size_t len, i, j;
	int rc, reused = 0, work3 = 0, exc2 = 0;
	char *out;

	snprintf(out_path, sizeof(out_path), "%s/p.pb.gz", trace);
	out = capture(convert_main, 6, argv, &rc);
	free(out);
	ASSERT_EQ(rc, 0, "pprof exit");
	buf = gunzip_file(out_path, &len);
	unlink(out_path);
	if (!ASSERT_OK_PTR(buf, "gzip"))
		return;
	p = perftools__profiles__profile__unpack(NULL, len, buf);
	free(buf);
	if (!ASSERT_OK_PTR(p, "profile.proto"))
		return;
	ASSERT_STREQ(p->string_table[0], "", "string 0");
	if (ASSERT_EQ(p->n_sample_type, 3, "sample types")) {
		ASSERT_STREQ(p->string_table[p->sample_type[0]->type], "samples", "type 0");
		ASSERT_STREQ(p->string_table[p->sample_type[0]->unit], "count", "unit 0");
		ASSERT_STREQ(p->string_table[p->sample_type[1]->type], "cpu", "type 1");
		ASSERT_STREQ(p->string_table[p->sample_type[1]->unit], "nanoseconds", "unit 1");
		ASSERT_STREQ(p->string_table[p->sample_type[2]->type], "exceptions", "type 2");
	}
	ASSERT_STREQ(p->string_table[p->default_sample_type], "samples", "default type");
	ASSERT_EQ(p->period, 1000000, "period: the sampling interval");
	ASSERT_TRUE(p->period_type && !strcmp(p->string_table[p->period_type->type], "cpu"),
		    "period type");
	/* the first sample at 100 ns, the sync point at 1 ns; the last event at 9 ms */
	ASSERT_EQ(p->duration_nanos, 9000000 - 100 + 1000000, "duration");
	/* the same stacks on the same thread are one sample */
	ASSERT_EQ(p->n_sample, 8, "distinct samples");
	for (i = 0; i < p->n_sample; i++) {
		const Perftools__Profiles__Sample *s = p->sample[i];
		const char *leaf = s->n_location_id ? pp_loc_name(p, s->location_id[0]) : "";

		if (!ASSERT_EQ(s->n_value, 3, "values"))
			break;
		for (j = 0; j < 3; j++)
			sums[j] += s->value[j];
		ASSERT_EQ(s->n_label, 2, "labels pid, tid (no process events: no comm)");
		ASSERT_STREQ(p->string_table[s->label[0]->key], "pid", "label 0");
		ASSERT_EQ(s->label[0]->num, 4242, "pid");
		if (!strcmp(leaf, "App!App.Program.Work(int32)") && s->value[0] == 3) {
			work3++;
			ASSERT_EQ(s->value[1], 3000000, "3 samples' CPU time");
			ASSERT_EQ(s->label[1]->num, 100, "tid");
			ASSERT_EQ(s->n_location_id, 2, "depth");
			ASSERT_STREQ(pp_loc_name(p, s->location_id[1]), "App!App.Program.Main(string[])",
				     "caller");
		}
		if (!strcmp(leaf, "App!App.Program.Work(int32)") && s->value[2] == 2) {
			exc2++;
			ASSERT_EQ(s->value[0], 0, "an exception is no CPU sample");
			ASSERT_EQ(s->label[1]->num, 7, "exceptions' tid");
		}
	}
	ASSERT_EQ(sums[0], 8, "CPU samples");
	ASSERT_EQ(sums[1], 8000000, "CPU time");
	ASSERT_EQ(sums[2], 3, "exceptions");
	ASSERT_EQ(work3, 1, "Work's 3 samples");
	ASSERT_EQ(exc2, 1, "the 2 exceptions thrown in Work");
	for (i = 0; i < p->n_location; i++) {
		const Perftools__Profiles__Location *l = p->location[i];
		const Perftools__Profiles__Mapping *m = pp_map(p, l->mapping_id);
		const char *name = pp_loc_name(p, l->id);

		/* one address, two methods at two times: two locations */
		if (l->address == REUSED + 4) {
			reused++;
			ASSERT_TRUE(!strcmp(name, "App!App.Old.Gone()") || !strcmp(name, "App!App.New.Here()"),
				    "reused address named at each sample's time");
		}
		/* a caller's address is inside the call */
		if (!strcmp(name, "App!App.Program.Main(string[])")) {
			ASSERT_EQ(l->address, MAIN + 0x20, "return address less one");
			if (ASSERT_OK_PTR(m, "App's mapping")) {
				ASSERT_STREQ(p->string_table[m->filename], "/app/App.dll", "mapping file");
				ASSERT_EQ(m->memory_start, MAIN, "mapping start: Main");
				ASSERT_EQ(m->memory_limit, REUSED + 0x40, "mapping limit: the reused range's end");
			}
		}
		if (l->address == 0x12345) {
			ASSERT_EQ(l->mapping_id, 0, "no mapping for an unknown address");
			ASSERT_STREQ(name, "[unknown]", "unknown frame");
		}
		if (!strcmp(name, "libc.so.6!qsort") && ASSERT_OK_PTR(m, "libc's mapping"))
			ASSERT_STREQ(p->string_table[m->filename], "/usr/lib/x86_64-linux-gnu/libc.so.6",
				     "libc mapping file");
	}
	ASSERT_EQ(reused, 2, "locations at the reused address");
	perftools__profiles__profile__free_unpacked(p, NULL);
}

static int count_str(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

static void test_chromium_values(void)
{
	char *argv[] = { "convert", trace_path, "--format", "chromium", NULL };
	char *out;
	int rc;

	out = capture(convert_main, 4, argv, &rc);
	ASSERT_EQ(rc, 0, "chromium exit");
	ASSERT_TRUE(!strncmp(out, "{\"displayTimeUnit\":\"ns\"", 22), "the JSON object form");
	/* times in µs since the first event (the module load at 10 ns) */
	ASSERT_TRUE(strstr(out, "{\"ph\":\"X\",\"name\":\"GC #1 gen 0\",\"cat\":\"GC\",\"ts\":1099.990,"
			   "\"dur\":2000.000,\"pid\":4242,\"tid\":1,"
			   "\"args\":{\"Count\":1,\"Depth\":0,\"Reason\":0}}") != NULL, "GC 1");
	ASSERT_TRUE(strstr(out, "{\"ph\":\"X\",\"name\":\"GC #2 gen 2\",\"cat\":\"GC\",\"ts\":4999.990,"
			   "\"dur\":3999.999,\"pid\":4242,\"tid\":1,"
			   "\"args\":{\"Count\":2,\"Depth\":2,\"Reason\":1}}") != NULL, "GC 2");
	ASSERT_EQ(count_str(out, "\"ph\":\"X\""), 2, "no exception is caught: 2 spans");
	/* ModuleLoad, 4 MethodLoadVerbose, MethodUnloadVerbose, 2 of each of the
	 * GC's four events, 3 ExceptionThrown */
	ASSERT_EQ(count_str(out, "\"ph\":\"i\""), 1 + 4 + 1 + 2 * 4 + 3, "instant events");
	ASSERT_EQ(count_str(out, "Rundown"), 0, "the rundown provider's events left out");
	ASSERT_EQ(count_str(out, "\"weight\":1}"), 8, "a sample per CPU sample");
	ASSERT_TRUE(strstr(out, "{\"cpu\":0,\"tid\":100,\"ts\":0.090,\"name\":\"cpu\",\"sf\":1,\"weight\":1}") != NULL,
		    "first sample: Work under Main");
	ASSERT_TRUE(strstr(out, "\"0\":{\"name\":\"App!App.Program.Main(string[])\",\"category\":\"/app/App.dll\"}") != NULL,
		    "the root frame");
	ASSERT_TRUE(strstr(out, "\"1\":{\"name\":\"App!App.Program.Work(int32)\",\"category\":\"/app/App.dll\",\"parent\":\"0\"}") != NULL,
		    "a frame under its caller");
	ASSERT_TRUE(strstr(out, "{\"name\":\"schedule\",\"category\":\"[kernel.kallsyms]\",\"parent\":") != NULL,
		    "kernel frame");
	ASSERT_TRUE(strstr(out, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":4242,\"tid\":0,"
			   "\"args\":{\"name\":\"Process 4242\"}}") != NULL, "process name");
	ASSERT_TRUE(strstr(out, "\"tid\":101,\"args\":{\"name\":\"Thread 101\"}}") != NULL, "thread name");
	free(out);
}

static void test_damaged_and_usage(void)
{
	char *a1[] = { "convert", trace_path, NULL };
	char *a2[] = { "convert", trace_path, "--format", "pdf", NULL };
	char *a3[] = { "report", "/nonexistent.nettrace", NULL };
	char *out;
	int rc;

	out = capture(convert_main, 2, a1, &rc);
	ASSERT_EQ(rc, 64, "no format");
	free(out);
	out = capture(convert_main, 4, a2, &rc);
	ASSERT_EQ(rc, 64, "bad format");
	free(out);
	out = capture(report_main, 2, a3, &rc);
	ASSERT_EQ(rc, 1, "missing file");
	free(out);
}

int main(int argc, char **argv)
{
	int err;

	if (argc == 3 && !strcmp(argv[1], "--write-trace")) {
		err = write_trace(argv[2]);
		if (err)
			fprintf(stderr, "test_views: %s: %s\n", argv[2], strerror(-err));
		return err ? 1 : 0;
	}
	if (!mkdtemp(trace))
		return 1;
	snprintf(trace_path, sizeof(trace_path), "%s/synthetic.nettrace", trace);
	err = write_trace(trace_path);
	if (err) {
		printf("not ok 1 - write_trace: %s\n1..1\n", strerror(-err));
		return 1;
	}
	RUN(test_folded_golden);
	RUN(test_event_filter);
	RUN(test_report);
	RUN(test_speedscope_and_svg_shape);
	RUN(test_pprof_values);
	RUN(test_chromium_values);
	RUN(test_damaged_and_usage);
	unlink(trace_path);
	rmdir(trace);
	return test_summary();
}
