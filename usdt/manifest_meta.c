// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "event_table.h"
#include "manifest_meta.h"

int manifest_define_event(struct nt_writer *w, const struct ect_event *ev,
			  uint32_t *metadata_id)
{
	struct nt_event_desc d;

	if (!ev || !ev->provider || !ev->provider->name)
		return -EINVAL;
	memset(&d, 0, sizeof(d));
	d.provider = ev->provider->name;
	d.event_id = ev->id;
	d.name = "";
	d.keywords = ev->keywords;
	d.version = ev->version;
	d.level = ev->level;
	d.opcode = ev->opcode;
	return nt_writer__define(w, &d, metadata_id);
}

/*
 * An event of the caller's table, else of the names table (every CLR
 * event); a version newer than the names table knows is named, and as far
 * as it goes decoded, as the newest it knows: a newer version of a CLR
 * event keeps its name and appends fields.
 */
static const void *find_in_table(void *ctx, const char *provider, uint16_t id, uint8_t version)
{
	const struct ect_event *e = ctx ? ect_find_id(ctx, provider, id, version) : NULL;
	int v;

	if (!e)
		e = ect_find_id(&clr_names_event_table, provider, id, version);
	for (v = (int)version - 1; !e && v >= 0; v--)
		e = ect_find_id(&clr_names_event_table, provider, id, (uint8_t)v);
	return e;
}

void manifest_lookup_init(struct nt_event_lookup *l, const struct ect_table *t)
{
	l->find = find_in_table;
	l->ctx = (void *)t;
}

void manifest_event_name(const struct nt_metadata *m, int style, char *buf, size_t len)
{
	const struct ect_event *e = m->manifest;

	if (m->name && m->name[0])
		snprintf(buf, len, "%s", m->name);
	else if (e && style == MANIFEST_NAME_TRACEEVENT && e->name)
		snprintf(buf, len, "%s", e->name);
	else if (e && e->symbol)
		snprintf(buf, len, "%s", e->symbol);
	else if (m->event_id == 0 && m->provider &&
		 !strcasecmp(m->provider, "Microsoft-DotNETCore-SampleProfiler"))
		snprintf(buf, len, "%s", style == MANIFEST_NAME_TRACEEVENT ? "Thread/Sample" :
								      "ThreadSample");
	else
		snprintf(buf, len, "EventID(%u)", m->event_id);
}
