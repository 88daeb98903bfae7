// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_symbolize.c - symbolizer/symbolize.c: which method and module events
 * go into the trace, and where.  A range reused after an unload is written
 * (MethodDCEndVerbose) just before the first event that references the new
 * code, on that event's capture thread; extents grow to the raw return
 * addresses; kernel frames from a kallsyms file; native frames from our own
 * ELF symbols; JIT frames from a perf map, one module per assembly it
 * names.  Runs unprivileged (addresses named by method events need
 * not be mapped; kallsyms is a file we write).
 */
#include <limits.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>
#include "clock.h"
#include "nettrace.h"
#include "symbolize.h"
#include "symbolizer.h"
#include "rundown.h"
#include "test.h"

#define MAX_EV 64

struct rec {
	char provider[64];
	uint32_t id;
	uint64_t ts, tid, capture;
	struct sym_method_rec m;
	struct sym_module_rec mod;
	char strs[2048];
};

static char path[64];
static struct rec recs[MAX_EV];
static int n_recs;
static int n_mappings, n_mapmeta;	/* Universal.System events, not in recs */
static uint32_t test_meta;

static struct nt_writer *open_trace(void)
{
	struct nt_trace_info info = { .freq = 1000000000ULL, .pointer_size = 8, .ncpu = 1,
				      .pid = (uint32_t)getpid() };
	static const struct nt_event_desc desc = { "Test", 1, "Frame", 0, 0, 4, 0, NULL, 0 };
	struct nt_writer *w;
	int fd;

	snprintf(path, sizeof(path), "/tmp/test_symbolize.XXXXXX");
	fd = mkstemp(path);
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	w = nt_writer__open(path, &info);
	if (w && nt_writer__define(w, &desc, &test_meta)) {
		nt_writer__abort(w);
		return NULL;
	}
	return w;
}

/* What the collector does for one record with a stack. */
static int frame_event(struct symbolize *sz, struct nt_writer *w, uint64_t tid, uint64_t ts,
		       const uint64_t *stack, uint32_t depth)
{
	struct nt_event ev = { .metadata_id = test_meta, .timestamp = ts, .thread_id = tid,
			       .capture_thread_id = tid, .stack = stack, .stack_depth = depth };
	int err = symbolize__stack(sz, getpid(), tid, ts, stack, depth);

	return err ? err : nt_writer__write_event(w, &ev);
}

static int method_event(struct symbolize *sz, uint32_t id, uint64_t ts, uint64_t start,
			uint32_t size, const char *ns, const char *name, const char *sig,
			uint64_t method_id)
{
	struct sym_method_rec m = { .method_id = method_id, .module_id = 0x5000, .start = start,
				    .size = size, .token = 0x06000001, .flags = 0x188, .ns = ns,
				    .name = name, .sig = sig, .has_rejit = 1 };
	uint8_t buf[1024];
	long len = sym_encode_method(buf, sizeof(buf), &m);

	if (len < 0)
		return (int)len;
	return symbolize__clr_event(sz, CLR_PROVIDER, id, getpid(), 1, ts, buf, (size_t)len,
				    NULL, 0);
}

static int read_back(void)
{
	struct nt_reader *r = nt_reader__open(path, NULL);
	struct nt_read_event ev;
	int rc;

	n_recs = n_mappings = n_mapmeta = 0;
	if (!r)
		return -errno;
	while ((rc = nt_reader__next(r, &ev)) == 1 && n_recs < MAX_EV) {
		struct rec *x;

		if (!strcmp(ev.meta->provider, "Universal.System")) {
			n_mappings += ev.meta->event_id == 3;
			n_mapmeta += ev.meta->event_id == 5;
			continue;
		}
		x = &recs[n_recs++];

		memset(x, 0, sizeof(*x));
		snprintf(x->provider, sizeof(x->provider), "%s", ev.meta->provider);
		x->id = ev.meta->event_id;
		x->ts = ev.timestamp;
		x->tid = ev.thread_id;
		x->capture = ev.capture_thread_id;
		if (!strcmp(x->provider, CLR_RUNDOWN_PROVIDER) && x->id == CLR_EV_METHOD_UNLOAD_VERBOSE)
			sym_decode_method(ev.payload, ev.payload_size, &x->m, x->strs,
					  sizeof(x->strs));
		if (!strcmp(x->provider, CLR_RUNDOWN_PROVIDER) && x->id == CLR_EV_MODULE_DCEND)
			sym_decode_module(ev.payload, ev.payload_size, 0, &x->mod, x->strs,
					  sizeof(x->strs));
	}
	nt_reader__close(r);
	unlink(path);
	return rc < 0 ? -EINVAL : 0;
}

static bool is_method(const struct rec *x)
{
	return !strcmp(x->provider, CLR_RUNDOWN_PROVIDER) && x->id == CLR_EV_METHOD_UNLOAD_VERBOSE;
}

static bool is_frame(const struct rec *x, uint64_t ts)
{
	return !strcmp(x->provider, "Test") && x->ts == ts;
}

/* unload, then the same addresses reused: the old range is written just
 * before the first event that references the new code */
static void test_reused_range(void)
{
	struct symbolize_opts o = { .no_perf_map = 1, .no_kernel = 1 };
	uint64_t s1[] = { 0x10010, 0x10051 }, s2[] = { 0x10020 };
	struct symbolize *sz = NULL;
	struct nt_writer *w = open_trace();
	struct symbolize_stats st;
	uint8_t buf[512];
	struct sym_module_rec mod = { .module_id = 0x5000, .assembly_id = 0x4000,
				      .il_path = "/app/App.dll", .native_path = "" };
	long len = sym_encode_module(buf, sizeof(buf), &mod);

	if (!ASSERT_OK_PTR(w, "writer") || !ASSERT_GE(len, 1, "module payload"))
		goto out;
	sz = symbolize__new(w, &o);
	if (!ASSERT_OK_PTR(sz, "new"))
		goto out;
	ASSERT_OK(symbolize__clr_event(sz, CLR_PROVIDER, CLR_EV_MODULE_LOAD, getpid(), 1, 50, buf,
				       (size_t)len, NULL, 0), "module load");
	ASSERT_OK(method_event(sz, 143, 100, 0x10000, 0x100, "NsA", "A", "void (int32)", 0xa),
		  "load A");
	ASSERT_OK(frame_event(sz, w, 7, 200, s1, 2), "E1");
	ASSERT_OK(method_event(sz, 144, 300, 0x10000, 0x100, "NsA", "A", "void (int32)", 0xa),
		  "unload A");
	ASSERT_OK(method_event(sz, 143, 400, 0x10000, 0x80, "NsB", "B", "int64 ()", 0xb),
		  "load B");
	ASSERT_OK(frame_event(sz, w, 8, 500, s2, 1), "E2");
	ASSERT_OK(symbolize__finish(sz, 1000), "finish");
	symbolize__stats(sz, &st);
	ASSERT_OK(nt_writer__close(w, NULL, 1000), "close");
	w = NULL;
	ASSERT_EQ(st.frames, 3, "frames");
	ASSERT_EQ(st.unresolved, 0, "unresolved");
	ASSERT_EQ(st.methods_written, 2, "methods");
	ASSERT_EQ(st.early_writes, 1, "early");
	if (!ASSERT_OK(read_back(), "read") || !ASSERT_EQ(n_recs, 5, "events"))
		goto out;
	ASSERT_TRUE(is_frame(&recs[0], 200), "E1 first");
	ASSERT_TRUE(is_method(&recs[1]), "A's DCEnd second");
	ASSERT_EQ(recs[1].ts, 500, "at E2's time");
	ASSERT_EQ(recs[1].capture, 8, "on E2's capture thread");
	ASSERT_EQ(recs[1].tid, SYMBOLIZE_TID, "thread id");
	ASSERT_EQ(recs[1].m.start, 0x10000, "A start");
	ASSERT_EQ(recs[1].m.size, 0x100, "A size");
	ASSERT_STREQ(recs[1].m.ns, "NsA", "A ns");
	ASSERT_STREQ(recs[1].m.name, "A", "A name");
	ASSERT_STREQ(recs[1].m.sig, "void (int32)", "A sig");
	ASSERT_EQ(recs[1].m.method_id, 0xa, "A MethodID");
	ASSERT_EQ(recs[1].m.module_id, 0x5000, "A ModuleID");
	ASSERT_EQ(recs[1].m.flags, 0x188, "A flags");
	ASSERT_TRUE(is_frame(&recs[2], 500), "E2 after");
	ASSERT_TRUE(is_method(&recs[3]), "B's DCEnd at the end");
	ASSERT_EQ(recs[3].ts, 1000, "end time");
	ASSERT_EQ(recs[3].capture, SYMBOLIZE_TID, "end capture thread");
	ASSERT_STREQ(recs[3].m.name, "B", "B name");
	ASSERT_EQ(recs[3].m.size, 0x80, "B size");
	ASSERT_EQ(recs[4].mod.module_id, 0x5000, "module id");
	ASSERT_EQ(recs[4].mod.assembly_id, 0x4000, "assembly id");
	ASSERT_STREQ(recs[4].mod.il_path, "/app/App.dll", "module path");
out:
	symbolize__free(sz);
	nt_writer__abort(w);
}

/* Collectible code for a long time (a plug-in host under the daemon): each
 * round loads a module and a method at one of a few reused addresses, a
 * stack touches it, both unload; the file rotates every 100 rounds.  What
 * is held stays what the horizon keeps, and the last file still names its
 * frame with the method's exact names and its module. */
static void test_churn_bounded(void)
{
	struct symbolize_opts o = { .no_perf_map = 1, .no_kernel = 1 };
	struct symbolize *sz = NULL;
	struct nt_writer *w = open_trace();
	struct symbolize_stats st;
	char ns[32], file[80];
	uint64_t most_r = 0, most_m = 0, most_mods = 0, ts = 1000;
	int i, err = 0, files = 0, found = 0;
	char base[sizeof(path)];

	if (!ASSERT_OK_PTR(w, "writer"))
		return;
	memcpy(base, path, sizeof(base));
	sz = symbolize__new(w, &o);
	if (!ASSERT_OK_PTR(sz, "new"))
		goto out;
	for (i = 0; i < 3000 && !err; i++, ts += 100) {
		uint64_t start = 0x20000 + (uint64_t)(i % 7) * 0x1000, stack[] = { start + 0x10 };
		struct sym_module_rec mod = { .module_id = 0x700000 + (uint64_t)i * 0x100,
					      .assembly_id = 0x800000, .il_path = file,
					      .native_path = "" };
		uint8_t buf[512];
		long len;

		snprintf(file, sizeof(file), "/app/plugins/Plugin%d.dll", i);
		snprintf(ns, sizeof(ns), "Plugins.Plugin%d", i);
		len = sym_encode_module(buf, sizeof(buf), &mod);
		err = len < 0 ? (int)len :
		      symbolize__clr_event(sz, CLR_PROVIDER, CLR_EV_MODULE_LOAD, getpid(), 1, ts,
					   buf, (size_t)len, NULL, 0);
		if (!err) {
			struct sym_method_rec m = { .method_id = 0x900000 + (uint64_t)i,
						    .module_id = mod.module_id, .start = start,
						    .size = 0x200, .token = 0x06000001,
						    .flags = 0x188, .ns = ns, .name = "Run",
						    .sig = "void ()", .has_rejit = 1 };
			uint8_t mb[1024];
			long ml = sym_encode_method(mb, sizeof(mb), &m);

			err = ml < 0 ? (int)ml :
			      symbolize__clr_event(sz, CLR_PROVIDER, CLR_EV_METHOD_LOAD_VERBOSE,
						   getpid(), 1, ts + 1, mb, (size_t)ml, NULL, 0);
			if (!err)
				err = frame_event(sz, w, 7, ts + 2, stack, 1);
			if (!err && i < 2999)	/* the last one stays loaded */
				err = symbolize__clr_event(sz, CLR_PROVIDER,
							   CLR_EV_METHOD_UNLOAD_VERBOSE, getpid(),
							   1, ts + 50, mb, (size_t)ml, NULL, 0);
		}
		if (!err && i < 2999)
			err = symbolize__clr_event(sz, CLR_PROVIDER, CLR_EV_MODULE_UNLOAD, getpid(),
						   1, ts + 51, buf, (size_t)len, NULL, 0);
		/* the collector's watermark: 500 behind (a window of 5 rounds) */
		symbolize__tick(sz, 0, ts > 500 ? ts - 500 : 0);
		if (!err && i % 100 == 98) {	/* the last file: the last round alone */
			char next[sizeof(path)];

			err = symbolize__finish(sz, ts + 60);
			snprintf(next, sizeof(next), "%.40s.%d", base, ++files % 1000);
			if (!err)
				err = nt_writer__next_file(w, next, NULL, ts + 60, NULL);
			unlink(path);	/* only the last file is read */
			memcpy(path, next, sizeof(path));
			symbolize__new_file(sz);
		}
		symbolize__stats(sz, &st);
		most_r = st.ranges_held > most_r ? st.ranges_held : most_r;
		most_m = st.methods_held > most_m ? st.methods_held : most_m;
		most_mods = st.modules_held > most_mods ? st.modules_held : most_mods;
	}
	ASSERT_OK(err, "3,000 rounds");
	ASSERT_EQ(files, 30, "files");
	fprintf(stdout, "#   held at most: %llu ranges, %llu methods, %llu modules\n",
		(unsigned long long)most_r, (unsigned long long)most_m,
		(unsigned long long)most_mods);
	/* a file's rounds (100) and the window's, not 3,000 */
	ASSERT_TRUE(most_r <= 110, "ranges held");
	ASSERT_TRUE(most_mods <= 110, "modules held");
	ASSERT_TRUE(most_m <= 1100, "methods held (swept every 1,024 adds)");
	ASSERT_OK(symbolize__finish(sz, ts), "finish");
	ASSERT_OK(nt_writer__close(w, NULL, ts), "close");
	w = NULL;
	if (!ASSERT_OK(read_back(), "read the last file"))
		goto out;
	for (i = 0; i < n_recs; i++) {
		if (is_method(&recs[i]) && !strcmp(recs[i].m.ns, "Plugins.Plugin2999")) {
			found++;
			ASSERT_STREQ(recs[i].m.name, "Run", "name");
			ASSERT_EQ(recs[i].m.method_id, 0x900000 + 2999, "MethodID");
			ASSERT_EQ(recs[i].m.module_id, 0x700000 + 2999 * 0x100, "ModuleID");
		}
		if (recs[i].id == CLR_EV_MODULE_DCEND && recs[i].mod.module_id == 0x700000 + 2999 * 0x100) {
			found++;
			ASSERT_STREQ(recs[i].mod.il_path, "/app/plugins/Plugin2999.dll", "module path");
		}
	}
	ASSERT_EQ(found, 2, "the last method and its module named in the last file");
out:
	symbolize__free(sz);
	nt_writer__abort(w);
}

/* A process that exits (a V6 trace of many): once the horizon passed the
 * time it was found gone, the next file forgets it, its method records,
 * ranges and modules; a live one stays. */
static void test_gone_forgotten(void)
{
	struct symbolize_opts o = { .no_perf_map = 1, .no_kernel = 1, .per_process = 1 };
	struct sym_method_rec m = { .method_id = 0x77, .module_id = 0x5000, .start = 0x30000,
				    .size = 0x100, .token = 0x06000001, .flags = 0x188,
				    .ns = "Ns", .name = "Gone", .sig = "void ()", .has_rejit = 1 };
	struct sym_module_rec mod = { .module_id = 0x5000, .assembly_id = 0x4000,
				      .il_path = "/app/Gone.dll", .native_path = "" };
	struct nt_writer *w = open_trace();
	struct symbolize *sz = NULL;
	struct symbolize_stats st;
	uint64_t stack[] = { 0x30010 }, now;
	uint8_t mb[512], db[512];
	long ml = sym_encode_method(mb, sizeof(mb), &m), dl = sym_encode_module(db, sizeof(db), &mod);
	char next[sizeof(path)];
	pid_t child = fork();
	char exe[PATH_MAX] = "", link[64];

	if (child == 0) {	/* a process of its own (exec'd), as the host's are */
		execlp("sleep", "sleep", "1000", (char *)NULL);
		_exit(127);
	}
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)child);
	while (child > 0 && !strstr(exe, "sleep")) {
		ssize_t n = readlink(link, exe, sizeof(exe) - 1);

		exe[n > 0 ? n : 0] = '\0';
		if (n < 0 && errno == ENOENT)
			break;
	}
	if (!ASSERT_GE(child, 1, "fork") || !ASSERT_OK_PTR(w, "writer") ||
	    !ASSERT_GE(ml, 1, "method") || !ASSERT_GE(dl, 1, "module"))
		goto out;
	sz = symbolize__new(w, &o);
	if (!ASSERT_OK_PTR(sz, "new"))
		goto out;
	ASSERT_OK(symbolize__add_pid(sz, child), "add the child");
	ASSERT_OK(symbolize__clr_event(sz, CLR_PROVIDER, CLR_EV_MODULE_LOAD, child, 1, 100, db,
				       (size_t)dl, NULL, 0), "its module");
	ASSERT_OK(symbolize__clr_event(sz, CLR_PROVIDER, CLR_EV_METHOD_LOAD_VERBOSE, child, 1,
				       110, mb, (size_t)ml, NULL, 0), "its method");
	ASSERT_OK(symbolize__stack(sz, child, child, 120, stack, 1), "its frame");
	ASSERT_OK(symbolize__finish(sz, 130), "finish");
	symbolize__stats(sz, &st);
	ASSERT_EQ(st.ranges_held, 1, "its range");
	ASSERT_EQ(st.methods_held, 1, "its method");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	child = 0;
	/* a target is looked at on every tick; the watermark then passes */
	now = mono_ns();
	symbolize__tick(sz, now + 1000000000ULL, 130);
	symbolize__tick(sz, now + 2000000000ULL, mono_ns() + 1);
	snprintf(next, sizeof(next), "%.40s.next", path);
	ASSERT_OK(nt_writer__next_file(w, next, NULL, 130, NULL), "next file");
	unlink(path);
	memcpy(path, next, sizeof(path));
	symbolize__new_file(sz);
	symbolize__stats(sz, &st);
	ASSERT_EQ(st.processes_held, 0, "the process forgotten");
	ASSERT_EQ(st.ranges_held, 0, "its range");
	ASSERT_EQ(st.methods_held, 0, "its method");
	ASSERT_EQ(st.modules_held, 0, "its module");
	ASSERT_EQ(symbolize__stack(sz, getpid(), 1, mono_ns() + 2, stack, 1), 0,
		  "another process goes on");
	symbolize__stats(sz, &st);
	ASSERT_EQ(st.processes_held, 1, "that one");
out:
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	symbolize__free(sz);
	nt_writer__abort(w);
	unlink(path);
}

/* kallsyms frames; a return address at a function's end grows its extent
 * into the next function, which is written first */
static void test_kernel_extents(void)
{
	static const char ks[] = "ffffffff81000000 T k_one\nffffffff81000100 T k_two\n"
				 "ffffffff81000200 T k_three\n";
	uint64_t s1[] = { 0xffffffff81000010, 0xffffffff81000180 };
	uint64_t s2[] = { 0xffffffff81000005, 0xffffffff81000100 };
	char kpath[64] = "/tmp/test_symbolize_ks.XXXXXX";
	struct symbolize_opts o = { .no_perf_map = 1, .kallsyms_path = kpath };
	struct symbolize *sz = NULL;
	struct nt_writer *w = open_trace();
	int fd = mkstemp(kpath);

	if (!ASSERT_OK_PTR(w, "writer") || !ASSERT_GE(fd, 0, "kallsyms file"))
		goto out;
	if (!ASSERT_EQ(write(fd, ks, sizeof(ks) - 1), (ssize_t)sizeof(ks) - 1, "write"))
		goto out;
	sz = symbolize__new(w, &o);
	if (!ASSERT_OK_PTR(sz, "new"))
		goto out;
	ASSERT_OK(frame_event(sz, w, 7, 100, s1, 2), "E1");
	ASSERT_OK(frame_event(sz, w, 7, 200, s2, 2), "E2");
	ASSERT_OK(symbolize__finish(sz, 300), "finish");
	ASSERT_OK(nt_writer__close(w, NULL, 300), "close");
	w = NULL;
	if (!ASSERT_OK(read_back(), "read") || !ASSERT_EQ(n_recs, 5, "events"))
		goto out;
	ASSERT_TRUE(is_frame(&recs[0], 100), "E1");
	ASSERT_TRUE(is_method(&recs[1]), "k_two written before E2");
	ASSERT_STREQ(recs[1].m.name, "k_two", "k_two");
	ASSERT_EQ(recs[1].m.start, 0xffffffff81000100, "k_two start");
	ASSERT_EQ(recs[1].m.size, 0x81, "k_two extent covers the raw address");
	ASSERT_EQ(recs[1].ts, 200, "at E2's time");
	ASSERT_TRUE(is_frame(&recs[2], 200), "E2");
	ASSERT_STREQ(recs[3].m.name, "k_one", "k_one");
	ASSERT_EQ(recs[3].m.size, 0x101, "k_one grown to E2's return address");
	ASSERT_EQ(recs[3].m.flags, 0, "not jitted");
	ASSERT_STREQ(recs[3].m.ns, "", "no namespace");
	ASSERT_STREQ(recs[4].mod.il_path, "[kernel.kallsyms]", "kernel module");
	ASSERT_EQ(recs[4].mod.module_id, recs[3].m.module_id, "module of k_one");
out:
	symbolize__free(sz);
	nt_writer__abort(w);
	if (fd >= 0) {
		close(fd);
		unlink(kpath);
	}
}

/* one record referencing overlapping ranges (a return address just past
 * k_a's end, k_b starting there): both are written right after the record,
 * not before it, k_a first since the address k_b's range also covers is
 * k_a's */
static void test_conflict_in_one_record(void)
{
	static const char ks[] = "ffffffff81000000 T k_a\nffffffff81000100 T k_b\n"
				 "ffffffff81000400 T k_c\n";
	uint64_t s1[] = { 0xffffffff81000180, 0xffffffff81000100 };
	uint64_t s2[] = { 0xffffffff81000410 };
	char kpath[64] = "/tmp/test_symbolize_ks.XXXXXX";
	struct symbolize_opts o = { .no_perf_map = 1, .kallsyms_path = kpath };
	struct symbolize *sz = NULL;
	struct nt_writer *w = open_trace();
	int fd = mkstemp(kpath);

	if (!ASSERT_OK_PTR(w, "writer") || !ASSERT_GE(fd, 0, "kallsyms file"))
		goto out;
	if (!ASSERT_EQ(write(fd, ks, sizeof(ks) - 1), (ssize_t)sizeof(ks) - 1, "write"))
		goto out;
	sz = symbolize__new(w, &o);
	if (!ASSERT_OK_PTR(sz, "new"))
		goto out;
	ASSERT_OK(frame_event(sz, w, 7, 100, s1, 2), "E1");
	ASSERT_OK(frame_event(sz, w, 9, 200, s2, 1), "E2");
	ASSERT_OK(symbolize__finish(sz, 300), "finish");
	ASSERT_OK(nt_writer__close(w, NULL, 300), "close");
	w = NULL;
	if (!ASSERT_OK(read_back(), "read") || !ASSERT_EQ(n_recs, 6, "events"))
		goto out;
	ASSERT_TRUE(is_frame(&recs[0], 100), "E1 first");
	/* 0x...100 is k_a's (the call before it): k_a claims it first */
	ASSERT_STREQ(recs[1].m.name, "k_a", "k_a first: it owns an address inside k_b");
	ASSERT_EQ(recs[1].m.size, 0x101, "k_a grown to the return address");
	ASSERT_EQ(recs[1].capture, 9, "on the next record's thread");
	ASSERT_EQ(recs[1].ts, 200, "at the next record's time");
	ASSERT_STREQ(recs[2].m.name, "k_b", "then k_b");
	ASSERT_EQ(recs[2].m.size, 0x81, "k_b extent");
	ASSERT_TRUE(is_frame(&recs[3], 200), "E2");
	ASSERT_STREQ(recs[4].m.name, "k_c", "k_c at the end");
out:
	symbolize__free(sz);
	nt_writer__abort(w);
	if (fd >= 0) {
		close(fd);
		unlink(kpath);
	}
}

__attribute__((noinline)) void test_symbolize_marker(void);
__attribute__((noinline)) void test_symbolize_marker(void)
{
	__asm__ volatile("" ::: "memory");
}

/* our own code: an ELF symbol of our executable, one module for it */
static void test_native(void)
{
	struct symbolize_opts o = { .no_perf_map = 1, .no_kernel = 1 };
	uint64_t s1[] = { (uint64_t)(uintptr_t)&test_symbolize_marker, 0x1 };
	struct symbolize *sz = NULL;
	struct nt_writer *w = open_trace();
	struct symbolize_stats st;
	char exe[256];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (!ASSERT_OK_PTR(w, "writer") || !ASSERT_GE(n, 1, "exe"))
		goto out;
	exe[n] = '\0';
	sz = symbolize__new(w, &o);
	if (!ASSERT_OK_PTR(sz, "new"))
		goto out;
	ASSERT_OK(symbolize__add_pid(sz, getpid()), "add pid");
	ASSERT_OK(frame_event(sz, w, 7, 100, s1, 2), "E1");
	ASSERT_OK(symbolize__finish(sz, 300), "finish");
	symbolize__stats(sz, &st);
	ASSERT_EQ(st.frames_native, 1, "native frames");
	ASSERT_EQ(st.unresolved, 1, "0x1 has no name");
	ASSERT_OK(nt_writer__close(w, NULL, 300), "close");
	w = NULL;
	if (!ASSERT_OK(read_back(), "read") || !ASSERT_EQ(n_recs, 3, "events"))
		goto out;
	ASSERT_STREQ(recs[1].m.name, "test_symbolize_marker", "function name");
	ASSERT_EQ(recs[1].m.start, s1[0], "function start");
	ASSERT_STREQ(recs[2].mod.il_path, exe, "module = the executable");
	ASSERT_EQ(n_mappings, 1, "the executable's mapping");
	ASSERT_EQ(n_mapmeta, 1, "its build id");
out:
	symbolize__free(sz);
	nt_writer__abort(w);
}

__attribute__((noinline)) void test_symbolize_marker2(void);
__attribute__((noinline)) void test_symbolize_marker2(void)
{
	__asm__ volatile("" ::: "memory");
}

/* a perf-map JIT range two records reference is one method event, its line
 * split into namespace, name and signature, its module the assembly the
 * line names; two functions of one executable share that file's module */
static void test_perf_map_and_modules(void)
{
	static const char map[] = "7000 80 void [Jit] Jit.Code::Hot(int32)[OptimizedTier1]\n";
	struct symbolize_opts o = { .no_perf_map = 1, .no_kernel = 1 };
	uint64_t s1[] = { (uint64_t)(uintptr_t)&test_symbolize_marker, 0x7011 };
	uint64_t s2[] = { (uint64_t)(uintptr_t)&test_symbolize_marker2, 0x7021 };
	char mpath[64] = "/tmp/test_symbolize_map.XXXXXX", exe[256];
	struct symbolize *sz = NULL;
	struct nt_writer *w = open_trace();
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const struct rec *hot = NULL, *fn[2] = { NULL, NULL }, *jit_mod = NULL, *exe_mod = NULL;
	int fd = mkstemp(mpath), i, methods = 0;

	if (!ASSERT_OK_PTR(w, "writer") || !ASSERT_GE(fd, 0, "perf map") ||
	    !ASSERT_GE(n, 1, "exe"))
		goto out;
	exe[n] = '\0';
	if (!ASSERT_EQ(write(fd, map, sizeof(map) - 1), (ssize_t)sizeof(map) - 1, "write"))
		goto out;
	sz = symbolize__new(w, &o);
	if (!ASSERT_OK_PTR(sz, "new"))
		goto out;
	ASSERT_OK(symbolizer__set_perf_map(symbolize__symbolizer(sz), getpid(), mpath),
		  "perf map");
	ASSERT_OK(frame_event(sz, w, 7, 100, s1, 2), "E1");
	ASSERT_OK(frame_event(sz, w, 7, 200, s2, 2), "E2");
	ASSERT_OK(symbolize__finish(sz, 300), "finish");
	ASSERT_OK(nt_writer__close(w, NULL, 300), "close");
	w = NULL;
	if (!ASSERT_OK(read_back(), "read") || !ASSERT_GE(n_recs, 2, "events"))
		goto out;
	ASSERT_TRUE(is_frame(&recs[0], 100) && is_frame(&recs[1], 200), "frames first");
	for (i = 2; i < n_recs; i++) {
		if (is_method(&recs[i]) && !strcmp(recs[i].m.name, "Hot"))
			hot = &recs[i];
		else if (is_method(&recs[i]))
			fn[methods++ & 1] = &recs[i];
		if (recs[i].id == CLR_EV_MODULE_DCEND && !strcmp(recs[i].mod.il_path, "Jit"))
			jit_mod = &recs[i];
		else if (recs[i].id == CLR_EV_MODULE_DCEND && !strcmp(recs[i].mod.il_path, exe))
			exe_mod = &recs[i];
	}
	if (!ASSERT_OK_PTR(hot, "Hot named") || !ASSERT_EQ(methods, 2, "both functions") ||
	    !ASSERT_OK_PTR(jit_mod, "the assembly's module") ||
	    !ASSERT_OK_PTR(exe_mod, "the executable's module"))
		goto out;
	ASSERT_STREQ(hot->m.ns, "Jit.Code", "perf-map namespace");
	ASSERT_STREQ(hot->m.sig, "void (int32)[OptimizedTier1]", "perf-map signature");
	ASSERT_TRUE(hot->m.flags & 0x8, "jitted");
	ASSERT_EQ(hot->m.module_id, jit_mod->mod.module_id, "module of Hot");
	ASSERT_TRUE(!strncmp(fn[0]->m.name, "test_symbolize_marker", 21) &&
		    !strncmp(fn[1]->m.name, "test_symbolize_marker", 21) &&
		    strcmp(fn[0]->m.name, fn[1]->m.name), "both functions named");
	ASSERT_EQ(fn[0]->m.module_id, exe_mod->mod.module_id, "module of a function");
	ASSERT_EQ(fn[1]->m.module_id, exe_mod->mod.module_id, "the same for the other");
	ASSERT_EQ(n_recs, 2 + 3 + 2, "3 method and 2 module events: Hot once");
	ASSERT_EQ(n_mappings, 1, "one mapping: both functions are in the executable's");
out:
	symbolize__free(sz);
	nt_writer__abort(w);
	if (fd >= 0) {
		close(fd);
		unlink(mpath);
	}
}

/* The periodic /proc snapshots of a target: one per tick (100 ms) while
 * only they tell its new mappings; one more, then none, once the kernel
 * reports them (symbolize__mappings_reported); every tick again after the
 * reports lost some. */
static uint64_t snapshots_of(struct symbolize *sz)
{
	struct symbolizer_stats st;

	symbolizer__stats(symbolize__symbolizer(sz), &st);
	return st.snapshots;
}

/* sleep(1) started and exec'd (its /proc/PID/exe no longer ours), or -1 */
static pid_t spawn_sleeper(void)
{
	char self[256], exe[256], fn[64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	pid_t pid;
	int i;

	if (n <= 0)
		return -1;
	self[n] = '\0';
	pid = fork();
	if (pid == 0) {
		execlp("sleep", "sleep", "60", (char *)NULL);
		_exit(127);
	}
	snprintf(fn, sizeof(fn), "/proc/%d/exe", (int)pid);
	for (i = 0; pid > 0 && i < 5000; i++) {	/* up to 5 s on a busy machine */
		n = readlink(fn, exe, sizeof(exe) - 1);
		if (n > 0 && (exe[n] = '\0', strcmp(exe, self)))
			return pid;
		usleep(1000);
	}
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	return -1;
}

static void test_mapping_reports(void)
{
	struct symbolize_opts o = { .no_perf_map = 1, .no_kernel = 1 };
	const uint64_t tick = 200000000ULL;	/* past the 100 ms refresh period */
	struct nt_writer *w = open_trace();
	struct symbolize *sz = NULL;
	uint64_t t = tick, n0;
	pid_t child = -1;
	int i;

	/* another program: our own process is the collector's image, which
	 * symbolize takes for a child that has not exec'd yet */
	child = spawn_sleeper();
	if (!ASSERT_OK_PTR(w, "writer") || !ASSERT_GE(child, 1, "sleep"))
		goto out;
	sz = symbolize__new(w, &o);
	if (!ASSERT_OK_PTR(sz, "new") || !ASSERT_OK(symbolize__add_pid(sz, child), "add"))
		goto out;
	n0 = snapshots_of(sz);
	ASSERT_EQ(n0, 1, "the first read at add");
	for (i = 0; i < 3; i++)
		symbolize__tick(sz, t += tick, 0);
	ASSERT_EQ(snapshots_of(sz), n0 + 3, "a snapshot per tick without reports");
	symbolize__mappings_reported(sz, child);
	for (i = 0; i < 10; i++)
		symbolize__tick(sz, t += tick, 0);
	ASSERT_EQ(snapshots_of(sz), n0 + 4, "one more when the reports begin, then none");
	symbolize__mapping_reports_lost(sz);
	for (i = 0; i < 2; i++)
		symbolize__tick(sz, t += tick, 0);
	ASSERT_EQ(snapshots_of(sz), n0 + 6, "a snapshot per tick after a lost report");
	ASSERT_OK(symbolize__finish(sz, t), "finish");
out:
	symbolize__free(sz);
	nt_writer__abort(w);
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
}

int main(void)
{
	RUN(test_reused_range);
	RUN(test_churn_bounded);
	RUN(test_gone_forgotten);
	RUN(test_kernel_extents);
	RUN(test_conflict_in_one_record);
	RUN(test_native);
	RUN(test_perf_map_and_modules);
	RUN(test_mapping_reports);
	return test_summary();
}
