// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * event_table_load.c - an event table built at run time from a manifest.
 *
 * usdt-gen compiles a manifest's event table into C (usdt-gen-events.c);
 * the collector links the one of the project's own manifest.  A runtime
 * built from another manifest -- CoreCLR's full ClrEtwAll.man, 430 events
 * where ours has 64 -- has probes that table does not know.  `ebpf-collect
 * --manifest FILE` and `dump --manifest FILE` load the runtime's manifest
 * with the same parser usdt-gen uses and get the same table, in memory.
 *
 * The table points into the parsed manifest (names, GUIDs) and owns the
 * arrays it adds: providers, keywords, one field list per template (shared
 * by the events using it, struct members beside it) and the events in
 * manifest order, so event indices match the generated table's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "event_table.h"
#include "grow.h"
#include "manifest.h"

struct loaded_table {
	struct ect_table t;		/* first: ect_table__free casts back */
	struct manifest *m;
	void **allocs;
	size_t n_allocs, cap_allocs;
};

static void *lt_calloc(struct loaded_table *lt, size_t n, size_t size)
{
	void *p;

	if (GROW(lt->allocs, lt->cap_allocs, lt->n_allocs + 1))
		return NULL;
	p = calloc(n ? n : 1, size);
	if (p)
		lt->allocs[lt->n_allocs++] = p;
	return p;
}

static const char *opcode_display(const char *name)
{
	return name && !strncmp(name, "win:", 4) ? name + 4 : name;
}

/* one level of fields (a template's, or a struct's members) */
static struct ect_field *fields_of(struct loaded_table *lt, const struct man_field *mf, int n)
{
	struct ect_field *f = lt_calloc(lt, n, sizeof(*f));
	int i;

	if (!f)
		return NULL;
	for (i = 0; i < n; i++) {
		f[i].name = mf[i].name;
		f[i].intype = mf[i].intype;
		f[i].count_kind = mf[i].count_kind;
		f[i].count = mf[i].count;
		f[i].count_name = mf[i].count_attr;
		f[i].map = mf[i].map;
		if (mf[i].intype == ECT_STRUCT) {
			f[i].members = fields_of(lt, mf[i].members, mf[i].n_members);
			if (!f[i].members)
				return NULL;
			f[i].n_members = mf[i].n_members;
		}
	}
	return f;
}

static int add_provider(struct loaded_table *lt, const struct man_provider *mp,
			struct ect_provider *p, struct ect_event *ev)
{
	struct ect_keyword *kw = lt_calloc(lt, mp->n_keywords, sizeof(*kw));
	const struct ect_field **tf = lt_calloc(lt, mp->n_templates, sizeof(*tf));
	int i;

	if (!kw || !tf)
		return -ENOMEM;
	for (i = 0; i < mp->n_keywords; i++)
		kw[i] = (struct ect_keyword){ mp->keywords[i].name, mp->keywords[i].mask };
	p->name = mp->name;
	p->usdt_name = mp->short_name;
	p->guid = mp->guid;
	memcpy(p->guid_bytes, mp->guid_bytes, sizeof(p->guid_bytes));
	p->symbol = mp->symbol;
	p->keywords = kw;
	p->n_keywords = mp->n_keywords;
	for (i = 0; i < mp->n_events; i++) {
		const struct man_event *me = &mp->events[i];
		const struct man_template *t = me->tmpl;

		ev[i] = (struct ect_event){
			.provider = p, .symbol = me->symbol, .name = me->name, .id = me->id, .version = me->version,
			.level = me->level, .opcode = me->opcode, .task = me->task,
			.keywords = me->keywords, .task_name = me->task_name,
			.opcode_name = opcode_display(me->opcode_name),
			.template_name = t ? t->tid : NULL,
		};
		if (!t || !t->n_fields)
			continue;
		if (!tf[t - mp->templates]) {
			tf[t - mp->templates] = fields_of(lt, t->fields, t->n_fields);
			if (!tf[t - mp->templates])
				return -ENOMEM;
		}
		ev[i].fields = tf[t - mp->templates];
		ev[i].n_fields = t->n_fields;
	}
	return 0;
}

int ect_table__load(const char *path, const struct ect_table **out, char *err, size_t err_len)
{
	struct loaded_table *lt = calloc(1, sizeof(*lt));
	struct ect_provider *provs;
	struct ect_event *events;
	size_t n_events = 0;
	int i, ret;

	if (!lt)
		return -ENOMEM;
	ret = manifest__load(path, &lt->m, err, err_len);
	if (ret) {
		free(lt);
		return ret;
	}
	for (i = 0; i < lt->m->n_providers; i++)
		n_events += lt->m->providers[i].n_events;
	ret = -ENOMEM;
	provs = lt_calloc(lt, lt->m->n_providers, sizeof(*provs));
	events = lt_calloc(lt, n_events, sizeof(*events));
	if (!provs || !events)
		goto fail;
	n_events = 0;
	for (i = 0; i < lt->m->n_providers; i++) {
		ret = add_provider(lt, &lt->m->providers[i], &provs[i], events + n_events);
		if (ret)
			goto fail;
		n_events += lt->m->providers[i].n_events;
	}
	lt->t = (struct ect_table){
		.manifest = lt->m->path, .providers = provs, .n_providers = lt->m->n_providers,
		.events = events, .n_events = n_events,
	};
	*out = &lt->t;
	return 0;
fail:
	snprintf(err, err_len, "%s: out of memory", path);
	ect_table__free(&lt->t);
	return ret;
}

void ect_table__free(const struct ect_table *t)
{
	struct loaded_table *lt = (struct loaded_table *)t;
	size_t i;

	if (!lt)
		return;
	for (i = 0; i < lt->n_allocs; i++)
		free(lt->allocs[i]);
	free(lt->allocs);
	manifest__free(lt->m);
	free(lt);
}
