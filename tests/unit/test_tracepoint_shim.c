// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_tracepoint_shim.c - the tracepoint shim (usdt/tracepoint_shim.c)
 * loaded into this process as a runtime loads it, handed tracepoints as a
 * runtime hands them, and its table read back through /proc/self by
 * usdt/tracepoint_read.c: NULL entries skipped, each library's run
 * cleared when it unregisters and no other, the table full counted in
 * dropped, the demonstration probe called as a call site calls it, and
 * a batched call taken into the thread's buffer.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "provider_abi.h"
#include "test.h"
#include "tracepoint_read.h"

typedef int (*register_fn)(struct tpabi_tracepoint *const *, int);
typedef int (*unregister_fn)(struct tpabi_tracepoint *const *);

static void *shim;
static register_fn reg;
static int refused;	/* a real LTTng-UST 2.12 on this machine: the shim stands down */
#define NEED_SHIM() do { if (refused) TEST_SKIP("a real LTTng-UST 2.12 is installed, the shim stands down"); } while (0)
static unregister_fn unreg;

static struct tpabi_tracepoint tp_a1 = { .name = "Prov:A1", .signature = "const unsigned int, Count" },
	tp_a2 = { .name = "Prov:A2", .signature = "const char*, Message" },
	tp_a3 = { .name = "Prov:A3", .state = 1 },
	tp_b1 = { .name = "Other:B1", .signature = "const uint64_t, Id" },
	tp_b2 = { .name = "Other:B2", .signature = "" };
static struct tpabi_tracepoint *const lib_a[] = { &tp_a1, NULL, &tp_a2, &tp_a3 };
static struct tpabi_tracepoint *const lib_b[] = { &tp_b1, &tp_b2 };

static int find(struct tpshim_view *v)
{
	return tpshim__find(getpid(), v);
}

static void test_register(void)
{
	struct tpshim_view v;
	struct tpshim_tp tp;

	NEED_SHIM();

	ASSERT_OK(reg(lib_a, 4), "register lib a");
	ASSERT_OK(reg(lib_b, 2), "register lib b");
	if (!ASSERT_OK(find(&v), "table found in /proc/self"))
		return;
	ASSERT_EQ(v.table.count, 5, "NULL entries skipped");
	ASSERT_EQ(v.table.libs, 2, "libraries");
	ASSERT_EQ(v.table.refused, 0, "not refused");
	ASSERT_EQ(v.table.dropped, 0, "nothing dropped");
	ASSERT_OK(tpshim__tracepoint(&v, 0, &tp), "entry 0");
	ASSERT_STREQ(tp.name, "Prov:A1", "name 0");
	ASSERT_STREQ(tp.signature, "const unsigned int, Count", "signature 0");
	ASSERT_EQ(tp.addr, (uint64_t)(uintptr_t)&tp_a1, "address 0");
	ASSERT_OK(tpshim__tracepoint(&v, 2, &tp), "entry 2");
	ASSERT_STREQ(tp.name, "Prov:A3", "name 2");
	ASSERT_STREQ(tp.signature, "", "no signature: empty");
	ASSERT_EQ(tp.state, 1, "state read");
	ASSERT_OK(tpshim__tracepoint(&v, 4, &tp), "entry 4");
	ASSERT_STREQ(tp.name, "Other:B2", "name 4");
	ASSERT_EQ(tpshim__tracepoint(&v, 5, &tp), -ENOENT, "past the count");
	/* every listed tracepoint's probes: its own array, {the shim's probe,
	 * data = its index}, then the NULL that ends it */
	ASSERT_NEQ(v.table.probe_site, 0, "probe site");
	ASSERT_EQ(v.table.probe_site, (uint64_t)(uintptr_t)dlsym(shim, TPSHIM_PROBE_SITE_SYM),
		  "the exported probe's site");
	for (uint32_t i = 0; i < 5; i++) {
		ASSERT_OK(tpshim__tracepoint(&v, i, &tp), "entry");
		ASSERT_EQ(tp.probes, v.table.probe_arrays + i * 2 * sizeof(struct tpabi_probe),
			  "its own array");
		ASSERT_EQ(tp.probe_func, (uint64_t)(uintptr_t)dlsym(shim, TPSHIM_PROBE_SYM),
			  "the probe");
		ASSERT_EQ(tp.probe_func, v.table.probe_func, "the table's probe");
		ASSERT_EQ(tp.probe_data, i, "data: the index");
		ASSERT_EQ(((struct tpabi_probe *)(uintptr_t)tp.probes)[1].func, NULL, "one entry");
	}
	/* a call site calls it as func(data, args...): it only returns */
	((void (*)(void *, int, const char *))(uintptr_t)tp.probe_func)((void *)4, 1, "x");
}

/* the call site's sequence: state, then every probe as func(data, args) */
static void test_demo_probe(void)
{
	void *(*deref)(void *) = (void *(*)(void *))dlsym(shim, "tp_rcu_dereference_sym_bp");
	struct tpshim_table *t = dlsym(shim, "ebpf_collect_tpshim");
	struct tpshim_view v;
	struct tpabi_probe *p;

	NEED_SHIM();
	if (!ASSERT_OK_PTR(t, "table symbol") || !ASSERT_OK_PTR(deref, "dereference"))
		return;
	tp_b1.probes = t->probe;
	tp_b1.state = 1;
	for (int call = 1; call <= 3; call++) {
		if (!tp_b1.state)
			continue;
		for (p = deref(tp_b1.probes); p && p->func; p++)
			((void (*)(void *, uint64_t, const char *))p->func)(p->data, 40 + call, "x");
	}
	if (!ASSERT_OK(find(&v), "table"))
		return;
	ASSERT_EQ(v.table.probe_hits, 3, "hits");
	ASSERT_EQ(v.table.probe_last, 43, "first argument of the last call");
}

/* batched: the semaphore raised (as the kernel raises it for a tracer's
 * uprobe on the batch site) and index 3's mask byte set; a call without a
 * spec goes on to the site, with one it is written into this thread's
 * buffer, which starts the flusher thread */
static void test_batched_call(void)
{
	void (*probe)(void *, uint64_t) = (void (*)(void *, uint64_t))dlsym(shim, TPSHIM_PROBE_SYM);
	struct prov_batch_ctl h;
	struct tpshim_view v;
	unsigned short *sema;
	uint8_t *mask;
	struct tpshim_spec *specs;

	NEED_SHIM();
	if (!ASSERT_OK(find(&v), "table") || !ASSERT_OK_PTR(probe, "probe"))
		return;
	ASSERT_NEQ(v.table.batch_site, 0, "batch site");
	sema = (unsigned short *)(uintptr_t)v.table.batch_sema;
	mask = (uint8_t *)(uintptr_t)v.table.batch_ctl + sizeof(h);
	specs = (struct tpshim_spec *)(uintptr_t)v.table.batch_specs;
	memcpy(&h, (void *)(uintptr_t)v.table.batch_ctl, sizeof(h));
	ASSERT_EQ(h.magic, PROV_BATCH_MAGIC, "control block");
	ASSERT_EQ(h.n_events, TPSHIM_CAPACITY, "a mask byte per index");
	ASSERT_EQ(*sema, 0, "semaphore down");
	*sema = 1;
	mask[3] = PROV_BATCH_ON | PROV_BATCH_STACK;
	probe((void *)3, 7);	/* no spec: its probe site */
	memcpy(&h, (void *)(uintptr_t)v.table.batch_ctl, sizeof(h));
	ASSERT_EQ(h.flusher, 0, "no spec, nothing batched");
	specs[3] = (struct tpshim_spec){ .buf_arg = TPSHIM_NO_ARG, .len_arg = TPSHIM_NO_ARG,
					 .nargs = 1, .written = 1 };
	probe((void *)3, 8);
	/* the flusher thread says so at its start */
	for (int i = 0; i < 5000 && !h.flusher; i++) {
		usleep(1000);
		memcpy(&h, (void *)(uintptr_t)v.table.batch_ctl, sizeof(h));
	}
	ASSERT_EQ(h.flusher, (uint32_t)getpid(), "batched: the flusher started");
	mask[3] = 0;
	*sema = 0;
}

static void test_unregister(void)
{
	struct tpshim_view v;
	struct tpshim_tp tp;

	NEED_SHIM();

	ASSERT_OK(unreg(lib_a), "unregister lib a");
	if (!ASSERT_OK(find(&v), "table"))
		return;
	ASSERT_EQ(v.table.count, 5, "the count stays");
	for (uint32_t i = 0; i < 3; i++)
		ASSERT_EQ(tpshim__tracepoint(&v, i, &tp), -ENOENT, "lib a's entry cleared");
	ASSERT_OK(tpshim__tracepoint(&v, 3, &tp), "lib b's first entry kept");
	ASSERT_STREQ(tp.name, "Other:B1", "lib b's name");
	ASSERT_OK(tpshim__tracepoint(&v, 4, &tp), "lib b's second entry kept");
}

static void test_full(void)
{
	size_t n = TPSHIM_CAPACITY;	/* 5 are taken: 5 over */
	struct tpabi_tracepoint **many = malloc(n * sizeof(*many));
	struct tpshim_view v;

	if (refused) {
		free(many);
		TEST_SKIP("a real LTTng-UST 2.12 is installed, the shim stands down");
	}
	if (!ASSERT_OK_PTR(many, "alloc"))
		return;
	for (size_t i = 0; i < n; i++)
		many[i] = &tp_b2;
	ASSERT_OK(reg(many, (int)n), "register");
	if (ASSERT_OK(find(&v), "table")) {
		ASSERT_EQ(v.table.count, TPSHIM_CAPACITY, "full");
		ASSERT_EQ(v.table.dropped, 5, "the rest counted");
	}
	free(many);
}

static void test_no_shim(void)
{
	struct tpshim_view v;

	ASSERT_EQ(tpshim__find(getppid(), &v), -ENOENT, "the parent has no shim");
	ASSERT_EQ(tpshim__find(-5, &v), -ESRCH, "no such process");
}

int main(void)
{
	struct tpshim_table *table;

	/* the loader's search: nothing but this test's own choice, so that
	 * the shim stands in */
	unsetenv("LD_LIBRARY_PATH");
	shim = dlopen(TPSHIM_LIB, RTLD_NOW | RTLD_GLOBAL);
	if (!shim) {
		fprintf(stderr, "cannot load %s: %s\n", TPSHIM_LIB, dlerror());
		return 1;
	}
	reg = (register_fn)dlsym(shim, "tracepoint_register_lib");
	unreg = (unregister_fn)dlsym(shim, "tracepoint_unregister_lib");
	table = dlsym(shim, "ebpf_collect_tpshim");
	if (!reg || !unreg || !table) {
		fprintf(stderr, "%s: an entry point or the table is not exported\n", TPSHIM_LIB);
		return 1;
	}
	refused = table->refused;
	RUN(test_register);
	RUN(test_demo_probe);
	RUN(test_batched_call);
	RUN(test_unregister);
	RUN(test_full);
	RUN(test_no_shim);
	return test_summary();
}
