// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * summary.c - the JSON summary refrt prints at exit (format: README.md).
 *
 * Tests compare traces against it: the exact number of each event fired,
 * the method table (every code version ever compiled, with its address
 * range and load/unload times on CLOCK_MONOTONIC, the clock BPF uses), the
 * assemblies, GC, allocation, contention and exception totals.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "events.h"
#include "refrt.h"

static struct refrt *rt;	/* the runtime, from this part's init */

static const char *tier_str(enum rt_tier t)
{
	return t == TIER_1 ? "OptimizedTier1" : t == TIER_OPT ? "Optimized" : "QuickJitted";
}

static void write_methods(FILE *f)
{
	fprintf(f, "  \"methods\": [");
	for (int i = 0; i < rt->n_codes; i++) {
		const struct rt_code *c = rt->codes[i];
		const struct rt_method *m = c->method;
		char name[200];

		snprintf(name, sizeof(name), "%s::%s", m->ns, m->name);
		fprintf(f, "%s\n    {\"index\": %d, \"name\": ", i ? "," : "", c->index);
		json_str(f, name);
		fprintf(f, ", \"namespace\": ");
		json_str(f, m->ns);
		fprintf(f, ", \"method\": ");
		json_str(f, m->name);
		fprintf(f, ", \"signature\": ");
		json_str(f, m->sig);
		fprintf(f, ", \"assembly\": ");
		json_str(f, m->assembly->name);
		fprintf(f, ", \"perfmap_name\": ");
		json_str(f, c->perfmap_name);
		fprintf(f, ", \"method_id\": \"0x%llx\", \"module_id\": \"0x%llx\", \"token\": %u, "
			"\"start\": \"0x%lx\", \"size\": %u, \"flags\": %u, \"tier\": \"%s\", "
			"\"load_ns\": %llu, \"unload_ns\": ",
			(unsigned long long)m->id, (unsigned long long)m->assembly->module_id,
			m->token, (unsigned long)c->start, c->size, c->flags, tier_str(c->tier),
			(unsigned long long)c->load_ns);
		if (c->unload_ns)
			fprintf(f, "%llu", (unsigned long long)c->unload_ns);
		else
			fprintf(f, "null");
		fprintf(f, ", \"rejit_of\": ");
		if (c->rejit_of >= 0)
			fprintf(f, "%d", c->rejit_of);
		else
			fprintf(f, "null");
		fprintf(f, ", \"il_map_entries\": %u}", c->n_map);
	}
	fprintf(f, "\n  ]\n");
}

static void write_assemblies(FILE *f)
{
	fprintf(f, "  \"assemblies\": [");
	for (int i = 0; i < rt->n_assemblies; i++) {
		const struct rt_assembly *a = rt->assemblies[i];

		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, a->name);
		fprintf(f, ", \"path\": ");
		json_str(f, a->path);
		fprintf(f, ", \"assembly_id\": \"0x%llx\", \"module_id\": \"0x%llx\", "
			"\"collectible\": %s, \"load_ns\": %llu, \"unload_ns\": ",
			(unsigned long long)a->id, (unsigned long long)a->module_id,
			a->collectible ? "true" : "false", (unsigned long long)a->load_ns);
		if (a->unloaded)
			fprintf(f, "%llu}", (unsigned long long)a->unload_ns);
		else
			fprintf(f, "null}");
	}
	fprintf(f, "\n  ],\n");
}

static void write_threads(FILE *f)
{
	uint64_t total = 0;

	fprintf(f, "  \"workers\": [");
	for (int i = 0; i < rt->env.threads; i++) {
		const struct rt_thread *t = &rt->workers[i];

		total += t->iterations_done;
		fprintf(f, "%s\n    {\"index\": %d, \"tid\": %d, \"iterations\": %llu, "
			"\"alloc_bytes\": %llu, \"exceptions\": %llu, \"contention_count\": %llu, "
			"\"contention_ns\": %llu, \"sleep_ns\": %llu, \"checksum\": \"0x%llx\"}",
			i ? "," : "", t->index, (int)t->tid, (unsigned long long)t->iterations_done,
			(unsigned long long)t->alloc_bytes, (unsigned long long)t->exceptions,
			(unsigned long long)t->contention_count,
			(unsigned long long)t->contention_ns, (unsigned long long)t->sleep_ns,
			(unsigned long long)t->checksum);
	}
	fprintf(f, "\n  ],\n  \"operations\": %llu,\n", (unsigned long long)total);
}

int summary__write(struct refrt *r, const char *path, uint64_t start_ns, uint64_t end_ns)
{
	FILE *f = stdout;
	uint64_t reserved, committed, used;
	int err = 0;

	rt = r;
	if (path && strcmp(path, "-")) {
		f = fopen(path, "w");
		if (!f) {
			err = -errno;
			pr_warn("cannot write summary %s: %s\n", path, strerror(errno));
			return err;
		}
	}
	fprintf(f, "{\n  \"pid\": %d,\n  \"scenario\": \"%s\",\n  \"threads\": %d,\n",
		getpid(), rt_scenario_name(rt->env.scenario), rt->env.threads);
	fprintf(f, "  \"seed\": %llu,\n  \"iterations\": ", (unsigned long long)rt->env.seed);
	if (rt->env.iterations)
		fprintf(f, "%llu,\n", (unsigned long long)rt->env.iterations);
	else
		fprintf(f, "null,\n");
	fprintf(f, "  \"duration_ns\": %llu,\n  \"rate\": %g,\n  \"work\": %u,\n",
		(unsigned long long)(end_ns - start_ns), rt->env.rate, rt->env.work);
	fprintf(f, "  \"start_ns\": %llu,\n  \"end_ns\": %llu,\n  \"interrupted\": %s,\n",
		(unsigned long long)start_ns, (unsigned long long)end_ns,
		rt->stopping == 2 ? "true" : "false");
	write_threads(f);
	perfmap__summary(f);
	ev_summary(f);
	gc__summary(f);
	helpers__summary(f);
	codeheap__stats(&reserved, &committed, &used);
	fprintf(f, "  \"code_heap\": {\"reserved\": %llu, \"committed\": %llu, \"used\": %llu},\n",
		(unsigned long long)reserved, (unsigned long long)committed,
		(unsigned long long)used);
	loader__summary_rundowns(f);
	write_assemblies(f);
	write_methods(f);
	fprintf(f, "}\n");
	if (fflush(f))
		err = -errno;
	if (f != stdout)
		fclose(f);
	return err;
}
