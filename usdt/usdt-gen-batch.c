// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * usdt-gen-batch.c - emit the batched mode of a generated provider: the
 * layout a tracer shares with it (usdt/provider_abi.h) and the per-thread
 * buffers and their flush probe (usdt/batch_runtime.c.in), both embedded
 * at build time, the table of event names a tracer maps its enable mask
 * with, and each event's batched branch.
 */
#include <stdio.h>

#include "manifest.h"
#include "provider_abi.h"
#include "usdt-gen.h"

/* the header's own text: the generated provider compiles without this tree */
static const char provider_abi_text[] =
#include "provider_abi.inc"
	;

static const char batch_runtime_text[] =
#include "batch_runtime.inc"
	;

static int count_events(const struct manifest *m)
{
	int i, n = 0;

	for (i = 0; i < m->n_providers; i++)
		n += m->providers[i].n_events;
	return n;
}

void gen_batch_runtime(const struct gen_ctx *g, FILE *f)
{
	fputs(provider_abi_text, f);
	fputc('\n', f);
	fprintf(f, "#define CLRETW__BATCH_N %d\n"
		"#define CLRETW__BATCH_CTL %s" PROV_BATCH_CTL_SUFFIX "\n"
		"#define CLRETW__BATCH_SEMA %s" PROV_BATCH_SEMA_SUFFIX "\n"
		"#define CLRETW__BATCH_PROBE(d, l, t, s, c) STAP_PROBE5(%s, " PROV_BATCH_PROBE
		", d, l, t, s, c)\n\n",
		count_events(g->m) ? count_events(g->m) : 1, g->prefix, g->prefix, g->prefix);
	fputs(batch_runtime_text, f);
	fputc('\n', f);
}

/* "<usdt provider>:<symbol>\0" per event, in batch index order, then "\0" */
void gen_batch_names(const struct gen_ctx *g, FILE *f)
{
	int i, j;

	fprintf(f, "/* batch index -> event, for the tracer's enable mask */\n"
		"const char %s" PROV_BATCH_EVENTS_SUFFIX
		"[] __attribute__((used, visibility(\"default\"))) =\n",
		g->prefix);
	for (i = 0; i < g->m->n_providers; i++) {
		const struct man_provider *p = &g->m->providers[i];

		for (j = 0; j < p->n_events; j++)
			fprintf(f, "\t\"%s:%s\\0\"\n", p->short_name, p->events[j].symbol);
	}
	fprintf(f, "\t\"\";\n\n");
}

/* "if batched and there is room: reserve", then the caller writes the
 * serializer call for p__, then gen_batch_close() */
void gen_batch_open(FILE *f, int idx, const char *len)
{
	fprintf(f, "\tif (CLRETW__BATCHED(%d)) {\n"
		"\t\tunsigned char *p__ = clretw__batch_reserve(%d, %s);\n\n"
		"\t\tif (p__) {\n", idx, idx, len);
}

void gen_batch_close(FILE *f, const char *up, const struct man_provider *p,
		     const struct man_event *e, const char *len)
{
	fprintf(f, "\t\t\t%s__BATCH_DONE(%s, %s, p__, %s);\n"
		"\t\t\treturn ERROR_SUCCESS;\n\t\t}\n\t}\n", up, p->short_name, e->symbol, len);
}
