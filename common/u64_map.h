/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * u64_map.h - a u64 -> u64 map, open addressing with linear probing,
 * doubled at half load.  The nettrace library keys its thread, id and
 * label tables with it, dump its counts per event and per process.
 * Header only: lookups sit in the reader's and writer's per-event paths.
 *
 * Entries are never removed one by one (no tombstones): a table is
 * cleared or rebuilt whole.  An entry pointer stays valid until the next
 * insertion, which may move the table.
 */
#ifndef EC_COMMON_U64_MAP_H
#define EC_COMMON_U64_MAP_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"

struct u64_map_ent {
	uint64_t key;
	uint64_t val;
	uint8_t used;
};

struct u64_map {
	struct u64_map_ent *ents;
	size_t cap;		/* power of two, or 0 */
	size_t used;
};

static inline struct u64_map_ent *u64_map__find(const struct u64_map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = hash64(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (!m->ents[i].used)
			return NULL;
		if (m->ents[i].key == key)
			return &m->ents[i];
	}
}

/* Insert or find; *out points to the entry (new entries have val 0).
 * 0 or -ENOMEM. */
static inline int u64_map__get(struct u64_map *m, uint64_t key, struct u64_map_ent **out)
{
	struct u64_map_ent *e;
	size_t i;

	e = u64_map__find(m, key);
	if (e) {
		*out = e;
		return 0;
	}
	if ((m->used + 1) * 2 > m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 16;
		struct u64_map_ent *n = calloc(ncap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		for (i = 0; i < m->cap; i++) {
			size_t j;

			if (!m->ents[i].used)
				continue;
			for (j = hash64(m->ents[i].key) & (ncap - 1); n[j].used;
			     j = (j + 1) & (ncap - 1))
				;
			n[j] = m->ents[i];
		}
		free(m->ents);
		m->ents = n;
		m->cap = ncap;
	}
	for (i = hash64(key) & (m->cap - 1); m->ents[i].used; i = (i + 1) & (m->cap - 1))
		;
	m->ents[i].used = 1;
	m->ents[i].key = key;
	m->ents[i].val = 0;
	m->used++;
	*out = &m->ents[i];
	return 0;
}

/* Every entry gone; the table keeps its size. */
static inline void u64_map__clear(struct u64_map *m)
{
	if (m->cap)
		memset(m->ents, 0, m->cap * sizeof(*m->ents));
	m->used = 0;
}

static inline void u64_map__free(struct u64_map *m)
{
	free(m->ents);
	m->ents = NULL;
	m->cap = m->used = 0;
}

#endif /* EC_COMMON_U64_MAP_H */
