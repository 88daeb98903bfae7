// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * usdt-gen-events.c - emit the collector-side event table.
 *
 * One `const struct ect_table <prefix>_event_table` (usdt/event_table.h):
 * providers with their keywords, then per template its field list (struct
 * members as separate arrays), then the events in manifest order.  All
 * names are C string literals; nothing is computed at run time.
 *
 * The names table (usdt-gen --table) is the same table cut to what reading
 * a trace needs, from one or more manifests: per event its provider, id,
 * version, opcode, task, symbol, TraceEvent's name and field layout.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "usdt-gen.h"

static const char *intype_enum(int t)
{
	switch (t) {
	case ECT_UINT8: return "ECT_UINT8";
	case ECT_UINT16: return "ECT_UINT16";
	case ECT_UINT32: return "ECT_UINT32";
	case ECT_UINT64: return "ECT_UINT64";
	case ECT_INT32: return "ECT_INT32";
	case ECT_INT64: return "ECT_INT64";
	case ECT_DOUBLE: return "ECT_DOUBLE";
	case ECT_BOOLEAN: return "ECT_BOOLEAN";
	case ECT_POINTER: return "ECT_POINTER";
	case ECT_GUID: return "ECT_GUID";
	case ECT_UNICODE: return "ECT_UNICODE";
	case ECT_ANSI: return "ECT_ANSI";
	case ECT_BINARY: return "ECT_BINARY";
	case ECT_STRUCT: return "ECT_STRUCT";
	default: return "0";
	}
}

static const char *count_enum(int k)
{
	return k == ECT_COUNT_FIXED ? "ECT_COUNT_FIXED" :
	       k == ECT_COUNT_FIELD ? "ECT_COUNT_FIELD" : "ECT_COUNT_NONE";
}

/* a C string literal, or NULL; manifest attribute values are plain ASCII */
static void str_or_null(FILE *f, const char *s)
{
	if (!s) {
		fputs("NULL", f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			fprintf(f, "\\%03o", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void emit_field_array(FILE *f, const char *name, const struct man_field *fl, int n,
			     const char *members_prefix, int compact)
{
	int i;

	fprintf(f, "static const struct ect_field %s[] = {\n", name);
	for (i = 0; i < n; i++) {
		fprintf(f, "\t{ .name = ");
		str_or_null(f, fl[i].name);
		fprintf(f, ", .intype = %s, .count_kind = %s, .count = %u,\n\t  .count_name = ",
			intype_enum(fl[i].intype), count_enum(fl[i].count_kind), fl[i].count);
		str_or_null(f, fl[i].count_attr);
		if (!compact) {
			fprintf(f, ", .map = ");
			str_or_null(f, fl[i].map);
		}
		if (fl[i].intype == ECT_STRUCT)
			fprintf(f, ",\n\t  .members = %s_%s, .n_members = %d", members_prefix,
				fl[i].name, fl[i].n_members);
		fprintf(f, " },\n");
	}
	fprintf(f, "};\n\n");
}

static void emit_provider_fields(FILE *f, const struct man_provider *p, int pi, int compact)
{
	char name[1024], mprefix[256];
	int i, j;

	for (i = 0; i < p->n_templates; i++) {
		const struct man_template *t = &p->templates[i];

		if (!t->n_fields || !t->n_events)
			continue;
		snprintf(mprefix, sizeof(mprefix), "m%d_%s", pi, t->tid);
		for (j = 0; j < t->n_fields; j++) {
			const struct man_field *s = &t->fields[j];

			if (s->intype != ECT_STRUCT)
				continue;
			snprintf(name, sizeof(name), "%s_%s", mprefix, s->name);
			emit_field_array(f, name, s->members, s->n_members, "", compact);
		}
		snprintf(name, sizeof(name), "f%d_%s", pi, t->tid);
		emit_field_array(f, name, t->fields, t->n_fields, mprefix, compact);
	}
}

static const char *opcode_display(const char *name)
{
	if (name && !strncmp(name, "win:", 4))
		return name + 4;
	return name;
}

int gen_events_c(struct gen_ctx *g, FILE *f)
{
	const struct manifest *m = g->m;
	int i, j, k, n_events = 0;

	gen_banner(g, f, "collector-side event table (usdt/event_table.h)");
	fprintf(f, "#include <stddef.h>\n\n#include \"event_table.h\"\n\n");
	for (i = 0; i < m->n_providers; i++) {
		const struct man_provider *p = &m->providers[i];

		fprintf(f, "static const struct ect_keyword kw%d[] = {\n", i);
		for (j = 0; j < p->n_keywords; j++) {
			fprintf(f, "\t{ ");
			str_or_null(f, p->keywords[j].name);
			fprintf(f, ", 0x%llxULL },\n", (unsigned long long)p->keywords[j].mask);
		}
		if (!p->n_keywords)
			fprintf(f, "\t{ NULL, 0 },\n");
		fprintf(f, "};\n\n");
	}
	fprintf(f, "static const struct ect_provider providers[] = {\n");
	for (i = 0; i < m->n_providers; i++) {
		const struct man_provider *p = &m->providers[i];

		fprintf(f, "\t{\n\t\t.name = ");
		str_or_null(f, p->name);
		fprintf(f, ",\n\t\t.usdt_name = ");
		str_or_null(f, p->short_name);
		fprintf(f, ",\n\t\t.guid = ");
		str_or_null(f, p->guid);
		fprintf(f, ",\n\t\t.guid_bytes = {");
		for (k = 0; k < 16; k++)
			fprintf(f, "%s0x%02x", k ? ", " : " ", p->guid_bytes[k]);
		fprintf(f, " },\n\t\t.symbol = ");
		str_or_null(f, p->symbol);
		fprintf(f, ",\n\t\t.keywords = kw%d,\n\t\t.n_keywords = %d,\n\t},\n", i,
			p->n_keywords);
	}
	fprintf(f, "};\n\n");
	for (i = 0; i < m->n_providers; i++)
		emit_provider_fields(f, &m->providers[i], i, 0);

	fprintf(f, "static const struct ect_event events[] = {\n");
	for (i = 0; i < m->n_providers; i++) {
		const struct man_provider *p = &m->providers[i];

		for (j = 0; j < p->n_events; j++) {
			const struct man_event *e = &p->events[j];

			fprintf(f, "\t{ .provider = &providers[%d], .symbol = ", i);
			str_or_null(f, e->symbol);
			fprintf(f, ", .name = ");
			str_or_null(f, e->name);
			fprintf(f, ", .template_name = ");
			str_or_null(f, e->tmpl ? e->tmpl->tid : NULL);
			fprintf(f, ",\n\t  .id = %u, .version = %u, .level = %u, .opcode = %u, "
				".task = %u, .keywords = 0x%llxULL,\n\t  .task_name = ", e->id,
				e->version, e->level, e->opcode, e->task,
				(unsigned long long)e->keywords);
			str_or_null(f, e->task_name);
			fprintf(f, ", .opcode_name = ");
			str_or_null(f, opcode_display(e->opcode_name));
			if (e->tmpl && e->tmpl->n_fields)
				fprintf(f, ",\n\t  .fields = f%d_%s, .n_fields = %d", i, e->tmpl->tid,
					e->tmpl->n_fields);
			fprintf(f, " },\n");
			n_events++;
		}
	}
	fprintf(f, "};\n\n");
	fprintf(f, "const struct ect_table %s_event_table = {\n\t.manifest = ", g->prefix);
	str_or_null(f, g->manifest_base);
	fprintf(f, ",\n\t.providers = providers,\n\t.n_providers = %d,\n"
		"\t.events = events,\n\t.n_events = %d,\n};\n", m->n_providers, n_events);
	return 0;
}

int gen_names_c(struct gen_ctx *g, FILE *f, struct manifest *const *ms, int n_ms)
{
	int i, j, k, mi, pi, n_events = 0;

	gen_banner(g, f, "event names and layouts for reading traces (usdt/event_table.h)");
	fprintf(f, "#include <stddef.h>\n\n#include \"event_table.h\"\n\n");
	fprintf(f, "static const struct ect_provider providers[] = {\n");
	for (mi = 0; mi < n_ms; mi++)
		for (i = 0; i < ms[mi]->n_providers; i++) {
			const struct man_provider *p = &ms[mi]->providers[i];

			fprintf(f, "\t{ .name = ");
			str_or_null(f, p->name);
			fprintf(f, ", .usdt_name = ");
			str_or_null(f, p->short_name);
			fprintf(f, ",\n\t  .guid = ");
			str_or_null(f, p->guid);
			fprintf(f, ",\n\t  .guid_bytes = {");
			for (k = 0; k < 16; k++)
				fprintf(f, "%s0x%02x", k ? ", " : " ", p->guid_bytes[k]);
			fprintf(f, " } },\n");
		}
	fprintf(f, "};\n\n");
	for (mi = 0, pi = 0; mi < n_ms; mi++)
		for (i = 0; i < ms[mi]->n_providers; i++, pi++)
			emit_provider_fields(f, &ms[mi]->providers[i], pi, 1);
	fprintf(f, "static const struct ect_event events[] = {\n");
	for (mi = 0, pi = 0; mi < n_ms; mi++)
		for (i = 0; i < ms[mi]->n_providers; i++, pi++) {
			const struct man_provider *p = &ms[mi]->providers[i];

			for (j = 0; j < p->n_events; j++) {
				const struct man_event *e = &p->events[j];

				fprintf(f, "\t{ .provider = &providers[%d], .symbol = ", pi);
				str_or_null(f, e->symbol);
				fprintf(f, ", .name = ");
				str_or_null(f, e->name);
				fprintf(f, ",\n\t  .id = %u, .version = %u, .opcode = %u, .task = %u",
					e->id, e->version, e->opcode, e->task);
				if (e->tmpl && e->tmpl->n_fields)
					fprintf(f, ", .fields = f%d_%s, .n_fields = %d", pi,
						e->tmpl->tid, e->tmpl->n_fields);
				fprintf(f, " },\n");
				n_events++;
			}
		}
	fprintf(f, "};\n\n");
	fprintf(f, "const struct ect_table %s_event_table = {\n\t.manifest = ", g->prefix);
	str_or_null(f, g->manifest_base);
	fprintf(f, ",\n\t.providers = providers,\n\t.n_providers = %d,\n"
		"\t.events = events,\n\t.n_events = %d,\n};\n", pi, n_events);
	return 0;
}
