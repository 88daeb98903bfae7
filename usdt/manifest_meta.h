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

/* Every event of the CLR manifests, for reading traces: names (TraceEvent's,
 * in .name) and layouts (usdt/clr_event_names.c, `make event-names`). */
extern const struct ect_table clr_names_event_table;

/* A reader lookup that answers with t's events (const struct ect_event *),
 * then with clr_names_event_table's; t may be NULL.  The project's own
 * manifest needs no t: its events are the CLR manifest's, field by field
 * (tests/unit/test_usdt_manifest.c). */
void manifest_lookup_init(struct nt_event_lookup *l, const struct ect_table *t);

/*
 * An event's name: the trace's own when its metadata names it, else the
 * matched table event's (MANIFEST_NAME_SYMBOL: the manifest symbol,
 * "GCStart_V2"; MANIFEST_NAME_TRACEEVENT: TraceEvent's name, "GC/Start"),
 * else "EventID(N)", as TraceEvent says of an event nothing describes.
 * The sample profiler's one event is "ThreadSample" ("Thread/Sample").
 */
enum { MANIFEST_NAME_SYMBOL, MANIFEST_NAME_TRACEEVENT };
void manifest_event_name(const struct nt_metadata *m, int style, char *buf, size_t len);

#endif
