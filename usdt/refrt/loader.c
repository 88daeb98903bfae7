// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * loader.c - app domain, assemblies, modules, the start-up JIT, tiering,
 * collectible plug-in assemblies and rundown.
 *
 * Start-up (main thread, before any worker runs): the default app domain,
 * System.Private.CoreLib and RefApp are loaded and every method of the
 * managed program is compiled QuickJitted, in a fixed order.  CoreCLR
 * compiles lazily on first call; doing it eagerly on one thread is what
 * makes the JIT sequence independent of thread scheduling.
 *
 * Tiering: when worker 0 completes its 30th operation (CoreCLR's call
 * count threshold) the hot methods are recompiled at tier 1 and their
 * slots switched; the tier-0 code stays where it is, as in CoreCLR.
 *
 * jit-churn: worker 0 loads a collectible assembly RefApp.Plugin.N with 2-6
 * handler methods of seeded sizes, runs them (PluginHost.Invoke calls the
 * entry handler through a register, handlers call each other with call
 * rel32), and unloads the oldest plug-in once more than PLUGINS_LIVE are
 * loaded: MethodUnloadVerbose for each code version, ModuleUnload,
 * AssemblyUnload, and the code heap blocks are freed -- and reused, at the
 * same addresses, by the next plug-in's methods.
 *
 * Rundown: a watcher thread polls the semaphore of DCStartInit_V1 (the event
 * that opens a rundown: a tracer that wants one enables it) every 10 ms.
 * When it becomes set, the watcher waits until the set of enabled probes has
 * been stable for RUNDOWN_SETTLE_MS (a tracer attaches its probes one by
 * one), then emits DCStartInit, RuntimeInformationDCStart,
 * MethodDCStartVerbose (+ MethodDCStartILToNativeMap) for every live code
 * version, ModuleDCStart + DomainModuleDCStart, AssemblyDCStart,
 * AppDomainDCStart and DCStartComplete -- under rt->jit_lock, so the set is
 * consistent.  It re-arms when DCStartInit_V1 is cleared again.  The first
 * check runs synchronously before the workers start.  At exit,
 * loader__rundown(false) emits the DCEnd equivalents (each only if enabled).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "events.h"
#include "refrt.h"

static struct refrt *rt;	/* the runtime, from this part's init */

#define PLUGINS_LIVE 2
#define RUNDOWN_POLL_MS 10
#define RUNDOWN_SETTLE_MS 300
#define MAX_RUNDOWNS 64

static int cap_assemblies;
static char appdomain_anchor;
static char app_dir[PATH_MAX];

static struct rt_prng churn_rng;
static uint32_t plugin_seq;
static struct rt_assembly *live_plugins[PLUGINS_LIVE + 1];
static int n_live_plugins;

static struct {
	bool start;
	uint64_t ns;
	int methods, assemblies;
} rundowns[MAX_RUNDOWNS];
static int n_rundowns;
static pthread_t watcher;
static bool watcher_running;

static void fnv_guid(uint8_t out[16], const char *s)
{
	uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;

	for (; *s; s++) {
		h1 = (h1 ^ (uint8_t)*s) * 0x100000001b3ull;
		h2 = (h2 ^ (uint8_t)*s) * 0x1000193ull + 7;
	}
	memcpy(out, &h1, 8);
	memcpy(out + 8, &h2, 8);
	out[7] = (out[7] & 0x0f) | 0x40;	/* version 4 layout */
}

static struct rt_assembly *loader__load_assembly(const char *name, const char *path,
						  bool collectible)
{
	struct rt_assembly *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	if (rt->n_assemblies == cap_assemblies) {
		int cap = cap_assemblies ? cap_assemblies * 2 : 16;
		void *p = realloc(rt->assemblies, cap * sizeof(*rt->assemblies));

		if (!p) {
			free(a);
			return NULL;
		}
		rt->assemblies = p;
		cap_assemblies = cap;
	}
	a->id = (uint64_t)(uintptr_t)a;
	a->module_id = (uint64_t)(uintptr_t)&a->module_anchor;
	snprintf(a->name, sizeof(a->name), "%s", name);
	snprintf(a->path, sizeof(a->path), "%s", path);
	if (!strcmp(name, "System.Private.CoreLib"))
		snprintf(a->full_name, sizeof(a->full_name),
			 "%s, Version=8.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e", name);
	else
		snprintf(a->full_name, sizeof(a->full_name),
			 "%s, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null", name);
	fnv_guid(a->mvid, name);
	a->collectible = collectible;
	a->index = rt->n_assemblies;
	a->load_ns = rt_now_ns();
	rt->assemblies[rt->n_assemblies++] = a;
	ev_assembly_load(a, false);
	ev_module_load(a, false);
	perfmap__log_image(a);
	return a;
}

/* caller holds rt->jit_lock */
static void loader__unload_assembly(struct rt_assembly *a)
{
	for (int i = 0; i < rt->n_codes; i++) {
		struct rt_code *c = rt->codes[i];

		if (c->method->assembly == a && !c->unload_ns)
			jit__free_code(c);
	}
	ev_module_load(a, true);
	ev_assembly_load(a, true);
	a->unloaded = true;
	a->unload_ns = rt_now_ns();
}

/* ---- start-up ----------------------------------------------------------- */

static struct rt_method *def(struct rt_assembly *a, const char *ns, const char *name,
			     const char *ret, const char *args, enum rt_body b)
{
	return jit__define(a, ns, name, ret, args, b, 0, true);
}

static int define_program(struct rt_assembly *corelib, struct rt_assembly *app)
{
	struct rt_well_known *w = &rt->wk;

	w->worker_start = def(corelib, "System.Threading.PortableThreadPool+WorkerThread",
			      "WorkerThreadStart", "void", "", B_WORKER_START);
	w->dispatch = def(corelib, "System.Threading.ThreadPoolWorkQueue", "DispatchWorkItem",
			  "void", "int64", B_DISPATCH);
	w->monitor_enter = def(corelib, "System.Threading.Monitor", "Enter", "void",
			       "object", B_MONITOR_ENTER);
	w->monitor_exit = def(corelib, "System.Threading.Monitor", "Exit", "void", "object",
			      B_MONITOR_EXIT);
	w->thread_sleep = def(corelib, "System.Threading.Thread", "Sleep", "void", "int32",
			      B_THREAD_SLEEP);
	w->gc_collect = def(corelib, "System.GC", "Collect", "void", "", B_GC_COLLECT);
	w->run_iteration = def(app, "RefApp.Program", "RunIteration", "int64", "int64",
			       B_RUN_ITERATION);
	w->hot_loop = def(app, "RefApp.Workload", "HotLoop", "int64", "int32", B_HOT_LOOP);
	w->mix = def(app, "RefApp.Workload", "Mix", "int64", "int64", B_MIX);
	w->step = def(app, "RefApp.Workload", "Step", "int64", "int64,int32", B_STEP);
	w->build_list = def(app, "RefApp.Allocations", "BuildList", "int64", "int32",
			    B_BUILD_LIST);
	w->touch = def(app, "RefApp.Allocations", "Touch", "int64", "class RefApp.Node",
		       B_TOUCH);
	w->exc_run = def(app, "RefApp.Exceptions", "Run", "int64", "int64", B_EXC_RUN);
	w->exc_level1 = def(app, "RefApp.Exceptions", "Level1", "int64", "int64", B_EXC_LEVEL1);
	w->exc_level2 = def(app, "RefApp.Exceptions", "Level2", "int64", "int64", B_EXC_LEVEL2);
	w->exc_level3 = def(app, "RefApp.Exceptions", "Level3", "int64", "int64", B_EXC_LEVEL3);
	w->exc_validate = def(app, "RefApp.Exceptions", "Validate", "int64", "int64",
			      B_EXC_VALIDATE);
	w->increment = def(app, "RefApp.Contention", "Increment", "int64", "int64",
			   B_INCREMENT);
	w->plugin_invoke = def(app, "RefApp.PluginHost", "Invoke", "int64",
			       "native int,int64", B_PLUGIN_INVOKE);
	for (struct rt_method **m = &w->worker_start; m <= &w->plugin_invoke; m++)
		if (!*m)
			return -ENOMEM;
	return 0;
}

int loader__init(struct refrt *r)
{
	struct rt_assembly *corelib, *app;
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n;
	int err;

	rt = r;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	snprintf(app_dir, sizeof(app_dir), "%s", n > 0 ? exe : "/app/refrt");
	*(strrchr(app_dir, '/') ? strrchr(app_dir, '/') : app_dir) = 0;
	churn_rng.s = rt->env.seed * 0x2545f4914f6cdd1dull + 0x5851f42d4c957f2dull;

	rt->appdomain_id = (uint64_t)(uintptr_t)&appdomain_anchor;
	ev_appdomain_load();
	pthread_mutex_lock(&rt->jit_lock);
	corelib = loader__load_assembly("System.Private.CoreLib",
		"/usr/share/dotnet/shared/Microsoft.NETCore.App/8.0.0/System.Private.CoreLib.dll",
		false);
	snprintf(path, sizeof(path), "%s/RefApp.dll", app_dir);
	app = loader__load_assembly("RefApp", path, false);
	err = corelib && app ? define_program(corelib, app) : -ENOMEM;
	for (struct rt_method **m = &rt->wk.worker_start; !err && m <= &rt->wk.plugin_invoke; m++)
		if (!jit__compile(*m, TIER_QUICK))
			err = -errno;
	pthread_mutex_unlock(&rt->jit_lock);
	return err;
}

/* ---- tiering ------------------------------------------------------------ */

void loader__tier_up(void)
{
	struct rt_method *hot[] = {
		rt->wk.mix, rt->wk.step, rt->wk.hot_loop, rt->wk.build_list, rt->wk.touch,
		rt->wk.run_iteration, rt->wk.dispatch,
	};

	pthread_mutex_lock(&rt->jit_lock);
	for (size_t i = 0; i < sizeof(hot) / sizeof(hot[0]); i++)
		if (hot[i]->tiered)
			jit__compile(hot[i], TIER_1);
	pthread_mutex_unlock(&rt->jit_lock);
}

/* ---- collectible plug-ins ---------------------------------------------- */

static struct rt_assembly *load_plugin(void)
{
	char name[64], path[PATH_MAX + 128], ns[96], mname[32];
	uint32_t n = ++plugin_seq, k = rt_prng_range(&churn_rng, 2, 6);
	struct rt_method *next = NULL, *ms[6];
	struct rt_assembly *a;

	snprintf(name, sizeof(name), "RefApp.Plugin.%u", n);
	snprintf(path, sizeof(path), "%s/plugins/%s.dll", app_dir, name);
	a = loader__load_assembly(name, path, true);
	if (!a)
		return NULL;
	snprintf(ns, sizeof(ns), "RefApp.Plugins.Plugin%u.Handlers", n);
	for (uint32_t i = 0; i < k; i++) {
		snprintf(mname, sizeof(mname), "Handler%u", i);
		ms[i] = jit__define(a, ns, mname, "int64", "int64", B_PLUGIN_HANDLER,
				    rt_prng_range(&churn_rng, 4, 160), false);
		if (!ms[i])
			return a;
	}
	for (int i = (int)k - 1; i >= 0; i--) {	/* callees first: call rel32 */
		ms[i]->next_handler = next;
		jit__compile(ms[i], TIER_OPT);
		next = ms[i];
	}
	return a;
}

int64_t loader__plugin_churn(uint64_t iter)
{
	typedef int64_t (*invoke_fn)(void *, int64_t);
	struct rt_assembly *a;
	struct rt_method *entry = NULL;
	int64_t r = 0;

	pthread_mutex_lock(&rt->jit_lock);
	a = load_plugin();
	for (int i = 0; a && i < rt->n_codes; i++)
		if (rt->codes[i]->method->assembly == a && !strcmp(rt->codes[i]->method->name,
								  "Handler0"))
			entry = rt->codes[i]->method;
	pthread_mutex_unlock(&rt->jit_lock);
	if (!a)
		return 0;
	if (entry && entry->current) {
		invoke_fn invoke = (invoke_fn)__atomic_load_n(&rt->wk.plugin_invoke->slot,
							      __ATOMIC_ACQUIRE);

		r = invoke(entry->current->start, (int64_t)iter);
	}
	live_plugins[n_live_plugins++] = a;
	if (n_live_plugins > PLUGINS_LIVE) {
		pthread_mutex_lock(&rt->jit_lock);
		loader__unload_assembly(live_plugins[0]);
		pthread_mutex_unlock(&rt->jit_lock);
		memmove(live_plugins, live_plugins + 1, --n_live_plugins * sizeof(live_plugins[0]));
	}
	return r;
}

/* ---- rundown ------------------------------------------------------------ */

void loader__rundown(bool start)
{
	int methods = 0, assemblies = 0;

	pthread_mutex_lock(&rt->jit_lock);
	ev_rundown_bracket(start, false);
	if (start)
		ev_runtime_information(true);
	for (int i = 0; i < rt->n_codes; i++) {
		if (rt->codes[i]->unload_ns)
			continue;
		ev_rundown_method(rt->codes[i], start);
		methods++;
	}
	for (int i = 0; i < rt->n_assemblies; i++) {
		if (rt->assemblies[i]->unloaded)
			continue;
		ev_rundown_module(rt->assemblies[i], start);
		ev_rundown_assembly(rt->assemblies[i], start);
		assemblies++;
	}
	ev_rundown_appdomain(start);
	ev_rundown_bracket(start, true);
	if (n_rundowns < MAX_RUNDOWNS) {
		rundowns[n_rundowns].start = start;
		rundowns[n_rundowns].ns = rt_now_ns();
		rundowns[n_rundowns].methods = methods;
		rundowns[n_rundowns].assemblies = assemblies;
		n_rundowns++;
	}
	pthread_mutex_unlock(&rt->jit_lock);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* wait until the tracer has finished attaching: enabled set stable */
static void settle(void)
{
	int last = -1, stable = 0;

	while (stable < RUNDOWN_SETTLE_MS && !rt->stopping) {
		int n = ev_enabled_probe_count();

		stable = n == last ? stable + RUNDOWN_POLL_MS : 0;
		last = n;
		sleep_ms(RUNDOWN_POLL_MS);
	}
}

static bool armed = true;

static void rundown_check(void)
{
	bool req = ev_rundown_start_requested();

	if (req && armed) {
		settle();
		loader__rundown(true);
		armed = false;
	} else if (!req) {
		armed = true;
	}
}

static void *watch_main(void *arg)
{
	(void)arg;
	while (!rt->stopping) {
		sleep_ms(RUNDOWN_POLL_MS);
		rundown_check();
	}
	return NULL;
}

int loader__rundown_watch_start(void)
{
	int err;

	rundown_check();
	err = pthread_create(&watcher, NULL, watch_main, NULL);
	if (err)
		return -err;
	watcher_running = true;
	return 0;
}

void loader__rundown_watch_stop(void)
{
	if (watcher_running)
		pthread_join(watcher, NULL);
	watcher_running = false;
}

void loader__summary_rundowns(FILE *f)
{
	fprintf(f, "  \"rundowns\": [");
	for (int i = 0; i < n_rundowns; i++)
		fprintf(f, "%s\n    {\"kind\": \"%s\", \"ns\": %llu, \"methods\": %d, \"assemblies\": %d}",
			i ? "," : "", rundowns[i].start ? "start" : "end",
			(unsigned long long)rundowns[i].ns, rundowns[i].methods,
			rundowns[i].assemblies);
	fprintf(f, "%s],\n", n_rundowns ? "\n  " : "");
}
