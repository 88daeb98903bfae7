// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_usdt_table_load.c - ect_table__load() (usdt/event_table_load.c):
 * the table built at run time from a manifest equals, field by field, the
 * one usdt-gen compiles from the same manifest; the real ClrEtwAll.man
 * loads whole; bad input fails with one line naming file and line.
 *
 * Run from the repository root (tests/run does); SHARED names ../shared.
 */
#include <stdlib.h>
#include <unistd.h>

#include "event_table.h"
#include "test.h"

extern const struct ect_table clretw_event_table;

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_fields(const struct ect_field *a, const struct ect_field *b, int n,
			const char *where)
{
	char what[256];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "%s field %d (%s)", where, i, b[i].name);
		if (!ASSERT_TRUE(same_str(a[i].name, b[i].name) && a[i].intype == b[i].intype &&
				 a[i].count_kind == b[i].count_kind && a[i].count == b[i].count &&
				 same_str(a[i].count_name, b[i].count_name) &&
				 same_str(a[i].map, b[i].map) &&
				 a[i].n_members == b[i].n_members, what))
			return false;
		if (b[i].n_members && !same_fields(a[i].members, b[i].members, b[i].n_members, what))
			return false;
	}
	return true;
}

static void test_equals_generated(void)
{
	const struct ect_table *g = &clretw_event_table, *t = NULL;
	char err[512] = "";
	uint32_t i;
	int p;

	if (!ASSERT_OK(ect_table__load("usdt/clr-events.man", &t, err, sizeof(err)), err))
		return;
	ASSERT_STREQ(t->manifest, "usdt/clr-events.man", "names its manifest");
	if (!ASSERT_EQ(t->n_providers, g->n_providers, "providers") ||
	    !ASSERT_EQ(t->n_events, g->n_events, "events"))
		goto out;
	for (p = 0; p < g->n_providers; p++) {
		const struct ect_provider *a = &t->providers[p], *b = &g->providers[p];
		int k;

		ASSERT_STREQ(a->name, b->name, "provider name");
		ASSERT_STREQ(a->usdt_name, b->usdt_name, "usdt name");
		ASSERT_STREQ(a->guid, b->guid, "guid");
		ASSERT_MEMEQ(a->guid_bytes, b->guid_bytes, 16, "guid bytes");
		ASSERT_STREQ(a->symbol, b->symbol, "provider symbol");
		if (!ASSERT_EQ(a->n_keywords, b->n_keywords, "keywords"))
			continue;
		for (k = 0; k < b->n_keywords; k++)
			ASSERT_TRUE(same_str(a->keywords[k].name, b->keywords[k].name) &&
				    a->keywords[k].mask == b->keywords[k].mask, b->keywords[k].name);
	}
	for (i = 0; i < g->n_events; i++) {
		const struct ect_event *a = &t->events[i], *b = &g->events[i];

		if (!ASSERT_TRUE(same_str(a->symbol, b->symbol) &&
				 a->provider - t->providers == b->provider - g->providers &&
				 a->id == b->id && a->version == b->version &&
				 a->level == b->level && a->opcode == b->opcode &&
				 a->task == b->task && a->keywords == b->keywords &&
				 same_str(a->task_name, b->task_name) &&
				 same_str(a->opcode_name, b->opcode_name) &&
				 same_str(a->template_name, b->template_name) &&
				 a->n_fields == b->n_fields, b->symbol))
			continue;
		same_fields(a->fields, b->fields, b->n_fields, b->symbol);
	}
out:
	ect_table__free(t);
}

static void test_real_manifest(void)
{
	const char *shared = getenv("SHARED");
	const struct ect_table *t = NULL;
	const struct ect_event *e;
	char path[4096], err[512] = "";
	/* GCStart_V2: Count, Depth, Reason, Type, ClrInstanceID, ClientSequenceNumber */
	static const unsigned char gc[4 * 4 + 2 + 8] = { 7, 0, 0, 0, 2 };
	uint64_t v = 0;

	snprintf(path, sizeof(path), "%s/manifests/ClrEtwAll.man", shared ? shared : "../shared");
	if (!ASSERT_OK(ect_table__load(path, &t, err, sizeof(err)), err))
		return;
	ASSERT_EQ(t->n_providers, 4, "4 providers");
	ASSERT_EQ(t->n_events, 430, "430 events");
	e = ect_find_symbol(t, "DotNETRuntimePrivate", "GCDecision");
	ASSERT_OK_PTR(e, "a Private event the built-in table lacks");
	ASSERT_FALSE(ect_find_symbol(&clretw_event_table, "DotNETRuntimePrivate", "GCDecision"),
		     "not in the built-in table");
	e = ect_find_id(t, "Microsoft-Windows-DotNETRuntime", 1, 2);
	if (ASSERT_OK_PTR(e, "GCStart_V2 by id") &&
	    ASSERT_EQ(ect_payload_size(e, gc, sizeof(gc)), sizeof(gc), "payload size")) {
		ASSERT_OK(ect_payload_get_u64(e, gc, sizeof(gc), "Count", &v), "Count");
		ASSERT_EQ(v, 7, "Count value");
		ASSERT_OK(ect_payload_get_u64(e, gc, sizeof(gc), "Depth", &v), "Depth");
		ASSERT_EQ(v, 2, "Depth value");
	}
	ect_table__free(t);
}

static void test_bad_input(void)
{
	const struct ect_table *t = NULL;
	char err[512] = "", path[] = "/tmp/test_usdt_table_load-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	if (!ASSERT_TRUE(fd >= 0, "mkstemp"))
		return;
	f = fdopen(fd, "w");
	fputs("<instrumentationManifest>\n<events>\n<provider name=\"x\"\n", f);
	fclose(f);
	ASSERT_EQ(ect_table__load(path, &t, err, sizeof(err)), -EINVAL, "malformed XML");
	ASSERT_TRUE(!strncmp(err, path, strlen(path)) && strstr(err, ": malformed XML: "), err);
	ASSERT_TRUE(t == NULL, "no table");
	unlink(path);
	ASSERT_EQ(ect_table__load("/nonexistent.man", &t, err, sizeof(err)), -ENOENT, "missing");
	ASSERT_STREQ(err, "/nonexistent.man: cannot open: No such file or directory", "message");
	ect_table__free(NULL);	/* does nothing */
}

int main(void)
{
	RUN(test_equals_generated);
	RUN(test_real_manifest);
	RUN(test_bad_input);
	return test_summary();
}
