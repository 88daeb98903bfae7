// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_usdt_manifest.c - the project's manifest against the real one.
 *
 * Both files are read with the project's parser (usdt/manifest.c).  Every
 * event of usdt/clr-events.man must equal the event with the same provider,
 * id and version in ../shared/manifests/ClrEtwAll.man field by field:
 * symbol, keywords, level, opcode, task, and the template's fields (names,
 * in-types, order, counts and lengths, struct members).  The real manifest
 * must also give the README's counts, and ours must cover the events the
 * reference runtime and the symbolizer need.
 *
 * Run from the repository root (tests/run does); SHARED names ../shared.
 */
#include <stdlib.h>

#include "manifest.h"
#include "test.h"

static struct manifest *ours, *real;
static char real_path[4096];

static int fields_equal(const struct man_field *a, int na, const struct man_field *b, int nb,
			const char *where)
{
	char what[512];
	int i, ok = 1;

	snprintf(what, sizeof(what), "%s: number of fields", where);
	if (!ASSERT_EQ(na, nb, what))
		return 0;
	for (i = 0; i < na; i++) {
		snprintf(what, sizeof(what), "%s field %d", where, i);
		ok &= ASSERT_STREQ(a[i].name, b[i].name, what);
		snprintf(what, sizeof(what), "%s.%s in-type", where, a[i].name);
		ok &= ASSERT_EQ(a[i].intype, b[i].intype, what);
		snprintf(what, sizeof(what), "%s.%s count kind", where, a[i].name);
		ok &= ASSERT_EQ(a[i].count_kind, b[i].count_kind, what);
		snprintf(what, sizeof(what), "%s.%s count", where, a[i].name);
		ok &= ASSERT_EQ(a[i].count, b[i].count, what);
		snprintf(what, sizeof(what), "%s.%s count/length attribute", where, a[i].name);
		ok &= ASSERT_TRUE(!a[i].count_attr == !b[i].count_attr &&
				  (!a[i].count_attr || !strcmp(a[i].count_attr, b[i].count_attr)) &&
				  a[i].is_length == b[i].is_length, what);
		if (a[i].intype == ECT_STRUCT) {
			snprintf(what, sizeof(what), "%s.%s", where, a[i].name);
			ok &= fields_equal(a[i].members, a[i].n_members, b[i].members,
					   b[i].n_members, what);
		}
	}
	return ok;
}

static void test_load_both(void)
{
	char err[1024];
	const char *shared = getenv("SHARED");

	snprintf(real_path, sizeof(real_path), "%s/manifests/ClrEtwAll.man",
		 shared ? shared : "../shared");
	ASSERT_OK(manifest__load("usdt/clr-events.man", &ours, err, sizeof(err)), err);
	ASSERT_OK(manifest__load(real_path, &real, err, sizeof(err)), err);
}

static void test_real_counts(void)
{
	static const struct {
		const char *name;
		int events, templates;
	} exp[] = {
		{ "Microsoft-Windows-DotNETRuntime", 197, 127 },
		{ "Microsoft-Windows-DotNETRuntimeRundown", 46, 22 },
		{ "Microsoft-Windows-DotNETRuntimeStress", 3, 3 },
		{ "Microsoft-Windows-DotNETRuntimePrivate", 184, 57 },
	};
	size_t i;

	if (!real)
		TEST_SKIP("real manifest not loaded");
	ASSERT_EQ(real->n_providers, 4, "providers");
	for (i = 0; i < sizeof(exp) / sizeof(exp[0]); i++) {
		const struct man_provider *p = manifest__find_provider(real, exp[i].name);

		if (!ASSERT_OK_PTR(p, exp[i].name))
			continue;
		ASSERT_EQ(p->n_events, exp[i].events, exp[i].name);
		ASSERT_EQ(p->n_templates, exp[i].templates, exp[i].name);
	}
}

static void test_ours_equals_real(void)
{
	char where[256];
	int pi, ei, checked = 0;

	if (!ours || !real)
		TEST_SKIP("manifests not loaded");
	for (pi = 0; pi < ours->n_providers; pi++) {
		const struct man_provider *p = &ours->providers[pi];
		const struct man_provider *rp = manifest__find_provider(real, p->name);

		if (!ASSERT_OK_PTR(rp, p->name))
			continue;
		ASSERT_STREQ(p->guid, rp->guid, "provider guid");
		ASSERT_STREQ(p->short_name, rp->short_name, "usdt provider name");
		for (ei = 0; ei < p->n_events; ei++) {
			const struct man_event *e = &p->events[ei];
			const struct man_event *re = man_provider__find_event(rp, e->id, e->version);

			snprintf(where, sizeof(where), "%s %s (id %u v%u)", p->short_name, e->symbol,
				 e->id, e->version);
			if (!ASSERT_OK_PTR(re, where))
				continue;
			ASSERT_STREQ(e->symbol, re->symbol, where);
			ASSERT_EQ(e->keywords, re->keywords, where);
			ASSERT_EQ(e->level, re->level, where);
			ASSERT_EQ(e->opcode, re->opcode, where);
			ASSERT_EQ(e->task, re->task, where);
			ASSERT_TRUE(!e->tmpl == !re->tmpl, where);
			if (e->tmpl && re->tmpl) {
				ASSERT_STREQ(e->tmpl->tid, re->tmpl->tid, where);
				fields_equal(e->tmpl->fields, e->tmpl->n_fields, re->tmpl->fields,
					     re->tmpl->n_fields, where);
			}
			checked++;
		}
	}
	ASSERT_GE(checked, 60, "events compared");
	printf("# compared %d events of usdt/clr-events.man with %s\n", checked, real_path);
}

static void test_ours_covers_needs(void)
{
	static const char *const need[] = {
		"RuntimeInformationStart", "GCTriggered", "GCStart_V2", "GCEnd_V1",
		"GCHeapStats_V2", "GCAllocationTick_V3", "GCSuspendEEBegin_V1",
		"GCSuspendEEEnd_V1", "GCRestartEEBegin_V1", "GCRestartEEEnd_V1",
		"GCGlobalHeapHistory_V3", "MethodJittingStarted_V1", "MethodLoadVerbose_V2",
		"MethodUnloadVerbose_V2", "MethodILToNativeMap", "ModuleLoad_V2", "ModuleUnload_V2",
		"AssemblyLoad_V1", "AssemblyUnload_V1", "DomainModuleLoad_V1",
		"MethodDCStartVerbose_V1", "MethodDCEndVerbose_V1", "MethodDCStartILToNativeMap",
		"MethodDCEndILToNativeMap", "ModuleDCStart_V2", "ModuleDCEnd_V2",
		"AssemblyDCStart_V1", "AssemblyDCEnd_V1", "DomainModuleDCStart_V1",
		"DomainModuleDCEnd_V1", "AppDomainDCStart_V1", "AppDomainDCEnd_V1",
		"DCStartInit_V1", "DCStartComplete_V1", "DCEndInit_V1", "DCEndComplete_V1",
		"RuntimeInformationDCStart", "ExceptionThrown_V1", "ExceptionCatchStart",
		"ExceptionCatchStop", "ExceptionFinallyStart", "ExceptionFinallyStop",
		"ExceptionFilterStart", "ExceptionFilterStop", "ContentionStart_V1",
		"ContentionStop_V1", "ThreadPoolWorkerThreadStart", "ThreadPoolWorkerThreadStop",
		"ThreadPoolWorkerThreadAdjustmentAdjustment", "ThreadCreated", "BulkType",
		"GCDynamicEvent",
	};
	size_t i;
	int pi, ei, found;

	if (!ours)
		TEST_SKIP("manifest not loaded");
	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		found = 0;
		for (pi = 0; pi < ours->n_providers; pi++)
			for (ei = 0; ei < ours->providers[pi].n_events; ei++)
				found |= !strcmp(ours->providers[pi].events[ei].symbol, need[i]);
		ASSERT_TRUE(found, need[i]);
	}
}

int main(void)
{
	RUN(test_load_both);
	RUN(test_real_counts);
	RUN(test_ours_equals_real);
	RUN(test_ours_covers_needs);
	manifest__free(ours);
	manifest__free(real);
	return test_summary();
}
