/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The bridge between usdt's manifest event table and the nettrace library,
 * which knows no event layouts: defining a manifest event in a trace the
 * way the runtime does, and letting the reader match metadata to manifest
 * events for decoding.
 */
#ifndef EBPF_COLLECT_MANIFEST_META_H
#define EBPF_COLLECT_MANIFEST_META_H

#include <stdint.h>
#include "nettrace.h"

struct ect_event;
struct ect_table;

/* The project's own manifest, compiled in by usdt-gen ($(GEN)/clretw_events.c). */
extern const struct ect_table clretw_event_table;

/* Define ev in w as the runtime does: full provider name, id, version,
 * keywords, level, empty name, no fields (and the opcode tag).  0 or -errno. */
int manifest_define_event(struct nt_writer *w, const struct ect_event *ev,
			  uint32_t *metadata_id);

/* A reader lookup that answers with t's events (const struct ect_event *);
 * t == NULL gives a lookup that knows none. */
void manifest_lookup_init(struct nt_event_lookup *l, const struct ect_table *t);

#endif
