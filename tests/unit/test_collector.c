// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_collector.c - unit tests of the collector's pure parts:
 * --providers/--profile selection against the generated event table,
 * the timestamp reorder buffer, and USDT note / mapped-file discovery
 * (on this test binary's own probe).
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include <stdlib.h>
#include <unistd.h>
#include "event_table.h"
#include "reorder.h"
#include "selection.h"
#include "usdt_notes.h"
#include "test.h"

extern const struct ect_table clretw_event_table;

__extension__ unsigned short test_prov_probe_a_semaphore
	__attribute__((unused)) __attribute__((section(".probes")));

static __attribute__((noinline)) void fire(long v)
{
	if (test_prov_probe_a_semaphore)
		STAP_PROBE2(test_prov, probe_a, v, v + 1);
}

static const struct ect_event *ev(const char *sym)
{
	return ect_find_symbol(&clretw_event_table, "DotNETRuntime", sym);
}

static void test_selection_match(void)
{
	const struct ect_event *gc = ev("GCStart_V2"), *ri = ev("RuntimeInformationStart");
	const struct ect_event *ex = ev("ExceptionThrown_V1");
	struct selection s = {};
	char err[256];

	if (!ASSERT_OK_PTR(gc, "GCStart_V2") || !ASSERT_OK_PTR(ri, "RuntimeInformationStart") ||
	    !ASSERT_OK_PTR(ex, "ExceptionThrown_V1"))
		return;
	ASSERT_OK(selection__add_spec(&s, &clretw_event_table, "DotNETRuntime:0x1:4", err,
				      sizeof(err)), "gc spec");
	ASSERT_TRUE(selection__matches(&s, gc), "GC keyword, Informational");
	ASSERT_FALSE(selection__matches(&s, ex), "Exception keyword not selected");
	/* RuntimeInformationStart has no keyword: any mask selects it */
	ASSERT_EQ(ri->keywords, 0, "RuntimeInformationStart keywords");
	ASSERT_TRUE(selection__matches(&s, ri), "keywordless event");

	memset(&s, 0, sizeof(s));
	ASSERT_OK(selection__add_spec(&s, &clretw_event_table,
				      "Microsoft-Windows-DotNETRuntime:1:Warning", err, sizeof(err)),
		  "full name, no 0x, level name");
	ASSERT_FALSE(selection__matches(&s, gc), "Informational above Warning");
	ASSERT_FALSE(selection__matches(&s, ri), "keywordless but Informational");

	memset(&s, 0, sizeof(s));
	ASSERT_OK(selection__add_spec(&s, &clretw_event_table, "DotNETRuntime", err, sizeof(err)),
		  "name only");
	ASSERT_TRUE(selection__matches(&s, gc) && selection__matches(&s, ex), "all keywords");
	ASSERT_EQ(s.req[0].keywords, ~0ULL, "omitted keywords = all");
	ASSERT_EQ(s.req[0].level, 5, "omitted level = Verbose");
}

static void test_selection_errors(void)
{
	static const char *const bad[] = {
		"", "Nope", "DotNETRuntime:0xZZ", "DotNETRuntime:0x1:6", "DotNETRuntime:0x1:-1",
		"DotNETRuntime:0x1:4abc", "DotNETRuntime:12345678901234567890:4",
	};
	struct selection s = {};
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		ASSERT_EQ(selection__add_spec(&s, &clretw_event_table, bad[i], err, sizeof(err)),
			  -EINVAL, bad[i]);
		ASSERT_TRUE(err[0], "message");
	}
	ASSERT_EQ(selection__add_profile(&s, &clretw_event_table, "nope"), -ENOENT, "profile");
	ASSERT_OK(selection__add_profile(&s, &clretw_event_table, "gc-collect"), "gc-collect");
	ASSERT_TRUE(selection__matches(&s, ev("GCStart_V2")), "gc-collect selects GCStart_V2");
	ASSERT_FALSE(selection__matches(&s, ev("MethodLoadVerbose_V2")), "but not JIT events");
}

/* --tracepoint-shim starts the runtime with the selection as its
 * DOTNET_LTTngConfig: the runtime's providers only, one entry each */
static void test_selection_lttng_config(void)
{
	struct selection s = {};
	char err[256], buf[256];

	ASSERT_OK(selection__add_spec(&s, &clretw_event_table,
				      "DotNETRuntime:0x8000:4,DotNETRuntimeRundown:0x30178:5,"
				      "DotNETRuntime:0x1:5", err, sizeof(err)), "spec");
	ASSERT_OK(selection__lttng_config(&s, buf, sizeof(buf)), "config");
	ASSERT_STREQ(buf, "Microsoft-Windows-DotNETRuntime:8001:5,"
		     "Microsoft-Windows-DotNETRuntimeRundown:30178:5", "merged per provider");
	ASSERT_EQ(selection__lttng_config(&s, buf, 20), -ENOSPC, "too short");
	ASSERT_STREQ(buf, "", "nothing half written");

	memset(&s, 0, sizeof(s));
	ASSERT_OK(selection__add_spec(&s, &clretw_event_table, "DotNETRuntime", err, sizeof(err)),
		  "name only");
	ASSERT_OK(selection__lttng_config(&s, buf, sizeof(buf)), "all");
	ASSERT_STREQ(buf, "Microsoft-Windows-DotNETRuntime:FFFFFFFFFFFFFFFF:5", "all keywords");

	memset(&s, 0, sizeof(s));
	ASSERT_EQ(selection__lttng_config(&s, buf, sizeof(buf)), -ENOENT, "no runtime provider");
}

static void test_profiles(void)
{
	static const struct { const char *profile, *event; int want; } cases[] = {
		{ "default", "GCStart_V2", 1 },
		{ "default", "MethodLoadVerbose_V2", 1 },
		{ "default", "ExceptionThrown_V1", 1 },
		{ "default", "GCAllocationTick_V3", 0 },	/* Verbose */
		{ "gc-verbose", "GCAllocationTick_V3", 1 },
		{ "jit", "MethodJittingStarted_V1", 1 },
		{ "jit", "GCStart_V2", 0 },
		{ "exceptions", "ExceptionCatchStart", 1 },
		{ "exceptions", "ContentionStart_V1", 0 },
		{ "contention", "ContentionStart_V1", 1 },
		{ "contention", "ExceptionThrown_V1", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct selection s = {};
		const struct ect_event *e = ev(cases[i].event);

		if (!ASSERT_OK_PTR(e, cases[i].event))
			continue;
		ASSERT_OK(selection__add_profile(&s, &clretw_event_table, cases[i].profile),
			  cases[i].profile);
		ASSERT_EQ(selection__matches(&s, e), cases[i].want, cases[i].event);
	}
}

struct collected {
	uint64_t ts[16];
	int n;
};

static int collect(void *ctx, const void *rec, size_t len)
{
	struct collected *c = ctx;

	if (len != 8)
		return -EINVAL;
	memcpy(&c->ts[c->n++], rec, 8);
	return 0;
}

static void test_reorder(void)
{
	static const uint64_t in[] = { 50, 10, 40, 10, 30, 20 };
	struct reorder *r = reorder__new();
	struct collected c = {};
	size_t i;

	if (!ASSERT_OK_PTR(r, "new"))
		return;
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		ASSERT_OK(reorder__push(r, in[i], &in[i], 8), "push");
	ASSERT_EQ(reorder__count(r), 6, "count");
	ASSERT_OK(reorder__pop_before(r, 35, collect, &c), "pop < 35");
	ASSERT_EQ(c.n, 4, "4 records before 35");
	ASSERT_EQ(c.ts[0], 10, "0");
	ASSERT_EQ(c.ts[1], 10, "1");
	ASSERT_EQ(c.ts[2], 20, "2");
	ASSERT_EQ(c.ts[3], 30, "3");
	/* a record older than one already emitted still comes out, counted late */
	ASSERT_OK(reorder__push(r, 5, &in[1], 8), "late push");
	ASSERT_EQ(reorder__late(r), 1, "late");
	ASSERT_OK(reorder__pop_before(r, UINT64_MAX, collect, &c), "drain");
	ASSERT_EQ(c.n, 7, "all");
	ASSERT_EQ(c.ts[5], 40, "40");
	ASSERT_EQ(c.ts[6], 50, "50");
	ASSERT_EQ(reorder__count(r), 0, "empty");
	ASSERT_EQ(reorder__bytes(r), 0, "no bytes held");
	reorder__free(r);
	reorder__free(NULL);
}

struct stress {
	uint64_t last_ts, n, bad;
};

static int check_order(void *ctx, const void *rec, size_t len)
{
	const uint8_t *p = rec;
	struct stress *st = ctx;
	uint64_t ts;
	size_t i;

	memcpy(&ts, rec, 8);
	if (ts < st->last_ts)
		st->bad++;
	for (i = 8; i < len; i++)
		if (p[i] != (uint8_t)ts)
			st->bad++;
	st->last_ts = ts;
	st->n++;
	return 0;
}

/* 200k records, sizes 8 B..200 KiB (chunk overflow), 1% of them late by up
 * to 500 ticks: every record comes out once, in order, intact. */
static void test_reorder_stress(void)
{
	static uint8_t buf[200 * 1024];
	struct reorder *r = reorder__new();
	struct stress st = {};
	uint64_t ts = 1000, i;
	unsigned int seed = 1;

	if (!ASSERT_OK_PTR(r, "new"))
		return;
	for (i = 0; i < 200000; i++) {
		uint64_t t = ts++;
		size_t len = 8 + rand_r(&seed) % 256;

		if (i % 1000 == 999)
			len = sizeof(buf);
		if (rand_r(&seed) % 100 == 0)
			t -= rand_r(&seed) % 500;
		memcpy(buf, &t, 8);
		memset(buf + 8, (uint8_t)t, len - 8);
		if (!ASSERT_OK(reorder__push(r, t, buf, len), "push"))
			break;
		if (i % 5000 == 0 && !ASSERT_OK(reorder__pop_before(r, ts - 1000, check_order, &st),
						"pop"))
			break;
	}
	ASSERT_OK(reorder__pop_before(r, UINT64_MAX, check_order, &st), "drain");
	ASSERT_EQ(st.n, 200000, "all records");
	ASSERT_EQ(st.bad, 0, "order and contents");
	reorder__free(r);
}

struct runs_check {
	uint64_t last_ts, last_key, n, bad;
};

/* records are {ts, push number}: ts order, ties in push order */
static int check_runs(void *ctx, const void *rec, size_t len)
{
	struct runs_check *rc = ctx;
	uint64_t v[2];

	if (len != sizeof(v))
		return -EINVAL;
	memcpy(v, rec, sizeof(v));
	if (v[0] < rc->last_ts || (v[0] == rc->last_ts && v[1] < rc->last_key))
		rc->bad++;
	rc->last_ts = v[0];
	rc->last_key = v[1];
	rc->n++;
	return 0;
}

/* Runs of 4 threads' events (sorted within a run, overlapping each other,
 * some ties, one run out of order) interleaved with single pushes: every
 * record out once, in timestamp order; equal timestamps in push order. */
static void test_reorder_runs(void)
{
	struct reorder *r = reorder__new();
	struct runs_check rc = {};
	uint64_t clock[4] = { 1000, 1003, 1001, 1002 }, pushed = 0;
	uint64_t pop_at = 0;
	unsigned int seed = 7;
	int k;

	if (!ASSERT_OK_PTR(r, "new"))
		return;
	for (k = 0; k < 400; k++) {
		int t = rand_r(&seed) % 4, n = 1 + rand_r(&seed) % 300, i;

		reorder__run_begin(r);
		for (i = 0; i < n; i++) {
			uint64_t v[2] = { clock[t], pushed }, *p;

			if (k == 17 && i == n / 2)
				v[0] -= 50;	/* a run not in order */
			clock[t] += rand_r(&seed) % 3;	/* ties */
			p = reorder__alloc(r, v[0], sizeof(v));
			if (!ASSERT_OK_PTR(p, "alloc"))
				goto out;
			memcpy(p, v, sizeof(v));
			pushed++;
		}
		reorder__run_end(r);
		if (k % 3 == 0) {
			uint64_t v[2] = { clock[k % 4], pushed };

			ASSERT_OK(reorder__push(r, v[0], v, sizeof(v)), "single");
			pushed++;
		}
		if (k % 50 == 49) {	/* what every thread is past, less a margin */
			pop_at = clock[0];
			for (t = 1; t < 4; t++)
				pop_at = clock[t] < pop_at ? clock[t] : pop_at;
			ASSERT_OK(reorder__pop_before(r, pop_at - 100, check_runs, &rc), "pop");
		}
	}
	ASSERT_OK(reorder__pop_before(r, UINT64_MAX, check_runs, &rc), "drain");
	ASSERT_EQ(rc.n, pushed, "every record once");
	ASSERT_EQ(rc.bad, 0, "timestamp order");
	ASSERT_EQ(reorder__late(r), 0, "none late");
out:
	reorder__free(r);
}

/* EventPipe-like runs: a block holds 2 to 4 threads' events, each thread's
 * in order, one thread after another (so the run is out of order and
 * reaches back before records already held): every record out once, in
 * timestamp order, ties in push order. */
static void test_reorder_blocks(void)
{
	struct reorder *r = reorder__new();
	struct runs_check rc = {};
	uint64_t clock[4] = { 5000, 5000, 5000, 5000 }, pushed = 0, low;
	unsigned int seed = 11;
	int k, t;

	if (!ASSERT_OK_PTR(r, "new"))
		return;
	for (k = 0; k < 300; k++) {
		int threads = 2 + rand_r(&seed) % 3, j;

		reorder__run_begin(r);
		for (j = 0; j < threads; j++) {
			int n = 1 + rand_r(&seed) % 100, i;

			t = (k + j) % 4;
			for (i = 0; i < n; i++) {
				uint64_t v[2] = { clock[t], pushed }, *p;

				clock[t] += rand_r(&seed) % 4;	/* ties */
				p = reorder__alloc(r, v[0], sizeof(v));
				if (!ASSERT_OK_PTR(p, "alloc"))
					goto out;
				memcpy(p, v, sizeof(v));
				pushed++;
			}
		}
		reorder__run_end(r);
		if (k % 40 == 39) {
			for (low = clock[0], t = 1; t < 4; t++)
				low = clock[t] < low ? clock[t] : low;
			ASSERT_OK(reorder__pop_before(r, low - 400, check_runs, &rc), "pop");
		}
	}
	ASSERT_OK(reorder__pop_before(r, UINT64_MAX, check_runs, &rc), "drain");
	ASSERT_EQ(rc.n, pushed, "every record once");
	ASSERT_EQ(rc.bad, 0, "timestamp order");
out:
	reorder__free(r);
}

static void test_notes_self(void)
{
	struct usdt_note_list l = {};
	int found = 0;
	size_t i;

	fire(1);
	if (!ASSERT_OK(usdt_notes__load("/proc/self/exe", &l), "load"))
		return;
	for (i = 0; i < l.n; i++) {
		if (strcmp(l.v[i].provider, "test_prov") || strcmp(l.v[i].name, "probe_a"))
			continue;
		found++;
		ASSERT_NEQ(l.v[i].pc, 0, "pc");
		ASSERT_NEQ(l.v[i].semaphore, 0, "has a semaphore");
		ASSERT_TRUE(strchr(l.v[i].args, '@'), "argument spec");
	}
	ASSERT_EQ(found, 1, "probe_a once");
	usdt_notes__free(&l);
	usdt_notes__free(NULL);
	ASSERT_EQ(usdt_notes__load("/nonexistent", &l), -ENOENT, "missing file");
	ASSERT_EQ(usdt_notes__load("/proc/self/status", &l), -ENOEXEC, "not ELF");
}

static void test_mapped_files(void)
{
	struct mapped_file_list f = {};
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int self = 0, libc = 0;
	size_t i;

	if (!ASSERT_GE(n, 1, "readlink"))
		return;
	exe[n] = 0;
	if (!ASSERT_OK(proc_mapped_files(getpid(), &f), "maps"))
		return;
	for (i = 0; i < f.n; i++) {
		self += !strcmp(f.v[i].path, exe);
		libc += strstr(f.v[i].path, "libc.so") != NULL;
		ASSERT_TRUE(!strncmp(f.v[i].open_path, "/proc/", 6), "open_path via /proc");
	}
	ASSERT_EQ(self, 1, "own executable listed once");
	ASSERT_EQ(libc, 1, "libc listed once");
	mapped_file_list__free(&f);
	ASSERT_EQ(proc_mapped_files(4000000, &f), -ESRCH, "no such pid");
}

int main(void)
{
	RUN(test_selection_match);
	RUN(test_selection_errors);
	RUN(test_selection_lttng_config);
	RUN(test_profiles);
	RUN(test_reorder);
	RUN(test_reorder_stress);
	RUN(test_reorder_runs);
	RUN(test_reorder_blocks);
	RUN(test_notes_self);
	RUN(test_mapped_files);
	return test_summary();
}
