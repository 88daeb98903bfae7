// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * range_table.c - the time-aware range table that perf maps and the
 * runtime's method events fill.
 *
 * The plainest structure that follows the rules of range_table.h: entries
 * stay where they were added (their index is their arrival order, seq), and
 * one sorted array of slots (start, prefix maximum of the ends, entry index)
 * orders them by (start, seq), so the versions at one address sit together.
 * A lookup binary-searches the last start <= addr and walks back while the
 * prefix maximum still reaches addr.  Adds are appended and enter the sorted
 * array at the next lookup or unload: the new ones are sorted and merged
 * from the back, so one add costs the move of the slots after it (a
 * memmove), a perf map read of thousands one sort.  An unload searches the
 * versions at its start and drops those the horizon has passed.
 *
 * Why this and nothing cleverer: bench_symbolizer measured the last
 * cleverer index (a scanned unsorted tail merged at ~sqrt(n)/4, spare
 * arrays, a separate array of starts) at 1.99x this structure on lookups in
 * a fresh perf map but 0.82x on JIT churn, the collector's case; a structure
 * must beat this one 2x on both to be worth its lines (README, "Offline
 * stages").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "range_table.h"
#include "strpool.h"

struct range_slot {
	uint64_t start;
	uint64_t pmax;		/* the largest end of this slot and every one before */
	uint32_t idx;		/* the entry */
};

struct range_table {
	struct range_entry *e;	/* by arrival: e[i].seq == i */
	size_t n, cap;
	struct range_slot *s;	/* entries [0, n_sorted) by (start, seq) */
	size_t n_slots, slot_cap;
	size_t n_sorted;
	uint64_t horizon;	/* no lookup before this time */
	uint64_t lo, hi;	/* every entry ever added lies in [lo, hi): an
				 * address outside (a native frame beside a JIT
				 * heap) misses without a search */
	struct strpool *names;
};

struct range_table *range_table__new(void)
{
	struct range_table *rt = calloc(1, sizeof(*rt));

	if (!rt)
		return NULL;
	rt->names = strpool__new();
	if (!rt->names) {
		free(rt);
		errno = ENOMEM;
		return NULL;
	}
	return rt;
}

void range_table__free(struct range_table *rt)
{
	if (!rt)
		return;
	free(rt->e);
	free(rt->s);
	strpool__free(rt->names);
	free(rt);
}

long range_table__add(struct range_table *rt, uint64_t start, uint64_t size,
		      const char *name, size_t name_len, uint64_t load_ts)
{
	struct range_entry *e;

	if (!size || start + size < start)
		return -EINVAL;
	if (rt->n == rt->cap) {
		size_t cap = rt->cap ? rt->cap * 2 : 256;
		struct range_entry *p = aligned_alloc(64, cap * sizeof(*rt->e));

		if (!p)
			return -ENOMEM;
		if (rt->n)
			memcpy(p, rt->e, rt->n * sizeof(*rt->e));
		free(rt->e);
		rt->e = p;
		rt->cap = cap;
	}
	e = &rt->e[rt->n];
	memset(e, 0, sizeof(*e));
	e->name = strpool__add(rt->names, name, name_len);
	if (!e->name)
		return -ENOMEM;
	e->start = start;
	e->end = start + size;
	e->load_ts = load_ts;
	e->seq = (uint32_t)rt->n;
	if (!rt->n || start < rt->lo)
		rt->lo = start;
	if (e->end > rt->hi)
		rt->hi = e->end;
	return (long)rt->n++;
}

struct range_entry *range_table__entry(struct range_table *rt, size_t idx)
{
	return idx < rt->n ? &rt->e[idx] : NULL;
}

size_t range_table__count(const struct range_table *rt)
{
	return rt ? rt->n : 0;
}

void range_table__set_horizon(struct range_table *rt, uint64_t ts)
{
	if (ts > rt->horizon)
		rt->horizon = ts;
}

static inline int slot_less(const struct range_slot *a, const struct range_slot *b)
{
	return a->start != b->start ? a->start < b->start : a->idx < b->idx;
}

static int slot_cmp(const void *a, const void *b)
{
	return slot_less(a, b) ? -1 : slot_less(b, a);
}

/* The prefix maxima from slot from on.  The slots from settled on kept
 * their place among themselves and their old maxima: once a new maximum
 * equals a settled slot's old one, every later one is unchanged too (each
 * is that value or a later end), so the walk stops there; an add into the
 * middle of a JIT heap costs the slots up to the next longer range, not
 * the rest of the table. */
static void range_table__pmax(struct range_table *rt, size_t from, size_t settled)
{
	uint64_t m = from ? rt->s[from - 1].pmax : 0;

	for (size_t i = from; i < rt->n_slots; i++) {
		uint64_t end = rt->e[rt->s[i].idx].end;

		m = end > m ? end : m;
		if (i >= settled && rt->s[i].pmax == m)
			break;
		rt->s[i].pmax = m;
	}
}

/* The number of slots starting at or before addr. */
static inline size_t range_table__upper(const struct range_table *rt, uint64_t addr)
{
	size_t lo = 0, n = rt->n_slots;

	/* branch free: a mispredicted comparison would throw away the loads
	 * of the steps after it */
	while (n > 1) {
		size_t half = n / 2;

		lo = rt->s[lo + half - 1].start <= addr ? lo + half : lo;
		n -= half;
	}
	return lo + (n && rt->s[lo].start <= addr);
}

/* The entries added since the last call into the sorted slots.  One (a
 * method event between lookups, the common case) goes after every slot at
 * or below its start, being the latest, the slots above moved up whole;
 * more (a perf map read) are sorted among themselves and merged from the
 * back.  The slots before the first new one never move. */
static int range_table__sort_new(struct range_table *rt)
{
	size_t t = rt->n - rt->n_sorted, a, b, k, settled = 0;
	struct range_slot *add;

	if (!t)
		return 0;
	if (GROW(rt->s, rt->slot_cap, rt->n_slots + t))
		return -ENOMEM;
	if (t == 1) {
		const struct range_entry *c = &rt->e[rt->n_sorted];

		k = range_table__upper(rt, c->start);
		memmove(&rt->s[k + 1], &rt->s[k], (rt->n_slots - k) * sizeof(*rt->s));
		rt->s[k] = (struct range_slot){ .start = c->start, .idx = c->seq };
		rt->n_slots++;
		rt->n_sorted = rt->n;
		range_table__pmax(rt, k, k + 1);
		return 0;
	}
	add = malloc(t * sizeof(*add));
	if (!add)
		return -ENOMEM;
	for (k = 0; k < t; k++) {
		const struct range_entry *c = &rt->e[rt->n_sorted + k];

		add[k] = (struct range_slot){ .start = c->start, .idx = c->seq };
	}
	qsort(add, t, sizeof(*add), slot_cmp);
	a = rt->n_slots;
	b = t;
	k = a + b;
	while (b) {
		if (a && slot_less(&add[b - 1], &rt->s[a - 1])) {
			rt->s[--k] = rt->s[--a];
		} else {
			rt->s[--k] = add[--b];
			if (!settled)	/* the last new slot: old ones after it */
				settled = k + 1;
		}
	}
	free(add);
	rt->n_slots += t;
	rt->n_sorted = rt->n;
	range_table__pmax(rt, k, settled);
	return 0;
}

static inline int range_entry__expired(const struct range_table *rt, const struct range_entry *c)
{
	return rt->horizon && c->unload_ts && c->unload_ts <= rt->horizon;
}

/*
 * Of two entries live at the same time and address: the later load wins;
 * with equal load times (both unknown: rundown, unload-only, or perf-map
 * lines first seen in one read) the one unloaded first wins -- it must have
 * been there before the other (never unloaded counts as last) -- and then
 * the later-added.
 */
static inline int entry_live_better(const struct range_entry *c, const struct range_entry *best)
{
	uint64_t cu, bu;

	if (!best)
		return 1;
	if (c->load_ts != best->load_ts)
		return c->load_ts > best->load_ts;
	cu = c->unload_ts ? c->unload_ts : UINT64_MAX;
	bu = best->unload_ts ? best->unload_ts : UINT64_MAX;
	if (cu != bu)
		return cu < bu;
	return c->seq > best->seq;
}

struct range_pick {
	const struct range_entry *live, *early, *any;
	uint64_t ts;
};

static inline void range_pick__consider(struct range_pick *p, const struct range_entry *c)
{
	uint64_t ts = p->ts;

	if (!p->any || c->seq > p->any->seq)
		p->any = c;
	if (ts == SYM_TS_NONE || (c->unload_ts && c->unload_ts <= ts))
		return;
	if (c->load_ts <= ts) {
		if (entry_live_better(c, p->live))
			p->live = c;
	} else if (!p->early || c->seq < p->early->seq) {
		p->early = c;
	}
}

const struct range_entry *range_table__find(struct range_table *rt, uint64_t addr,
					    uint64_t ts)
{
	return range_table__find_mode(rt, addr, ts, 0);
}

const struct range_entry *range_table__find_mode(struct range_table *rt, uint64_t addr,
						 uint64_t ts, int live_only)
{
	struct range_pick p = { .ts = ts };

	if (addr - rt->lo >= rt->hi - rt->lo || range_table__sort_new(rt))
		return NULL;
	for (size_t i = range_table__upper(rt, addr); i-- && rt->s[i].pmax > addr;) {
		const struct range_entry *c = &rt->e[rt->s[i].idx];

		if (c->end > addr && !range_entry__expired(rt, c))
			range_pick__consider(&p, c);
	}
	if (ts == SYM_TS_NONE)
		return p.any;
	if (p.live || live_only)
		return p.live;
	return p.early ? p.early : p.any;
}

long range_table__unload(struct range_table *rt, uint64_t start, uint64_t ts)
{
	struct range_pick p = { .ts = ts ? ts : 1 };
	const struct range_entry *c;
	size_t hi, lo, i, k;

	if (range_table__sort_new(rt))
		return -ENOMEM;
	hi = range_table__upper(rt, start);
	for (lo = hi; lo && rt->s[lo - 1].start == start; lo--) {
		c = &rt->e[rt->s[lo - 1].idx];
		if (!c->unload_ts)
			range_pick__consider(&p, c);
	}
	c = p.live ? p.live : p.early;
	if (!c)
		return -ENOENT;
	rt->e[c->seq].unload_ts = ts ? ts : 1;
	/* versions at this start that no lookup can ask for any more */
	for (i = k = lo; i < hi; i++)
		if (!range_entry__expired(rt, &rt->e[rt->s[i].idx]))
			rt->s[k++] = rt->s[i];
	if (k < hi) {
		memmove(&rt->s[k], &rt->s[hi], (rt->n_slots - hi) * sizeof(*rt->s));
		rt->n_slots -= hi - k;
		range_table__pmax(rt, lo, lo);
	}
	return c->seq;
}
