// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <string.h>

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

static const void *find_in_table(void *ctx, const char *provider, uint16_t id, uint8_t version)
{
	return ect_find_id(ctx, provider, id, version);
}

void manifest_lookup_init(struct nt_event_lookup *l, const struct ect_table *t)
{
	l->find = t ? find_in_table : NULL;
	l->ctx = (void *)t;
}
