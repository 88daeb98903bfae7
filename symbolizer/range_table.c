// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * range_table.c - the time-aware range table that perf maps and the
 * runtime's method events fill.
 *
 * The plainest structure that follows the rules of range_table.h: entries
 * stay where they were added (seq numbers them in arrival order), and one
 * sorted array of slots (start, prefix maximum of the ends, entry index)
 * orders them by (start, seq), so the versions at one address sit together.
 * A lookup binary-searches the last start <= addr and walks back while the
 * prefix maximum still reaches addr.  Adds are appended and enter the sorted
 * array at the next lookup or unload: the new ones are sorted and merged
 * from the back, so one add costs the move of the slots after it (a
 * memmove), a perf map read of thousands one sort.  An unload searches the
 * versions at its start and drops those the horizon has passed.
 *
 * Memory is what is alive, not what ever was: an entry the horizon has
 * passed (unloaded before any time a lookup may still ask for) is freed,
 * its name with it, and its place in the entry array taken by a later add.
 * The versions at a reused start go at that start's next unload; the rest
 * in a sweep of the slots once as many entries were added since the last
 * sweep as half the slots (or SWEEP_MIN), so a host whose runtimes load
 * and unload code for days (collectible assemblies, a daemon's flight
 * window) holds the code of the window, and a sweep costs O(1) per add.
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

#define SWEEP_MIN	1024	/* adds between two sweeps at least */

struct range_slot {
	uint64_t start;
	uint64_t pmax;		/* the largest end of this slot and every one before */
	uint32_t idx;		/* the entry */
};

struct range_table {
	struct range_entry *e;	/* [0, n): live (name set) or free */
	size_t n, cap;
	uint32_t *free;		/* free entries, taken by the next adds */
	size_t n_free, cap_free;
	uint32_t *pend;		/* added since the last sort, in arrival order */
	size_t n_pend, cap_pend;
	struct range_slot *s;	/* the sorted entries by (start, seq) */
	size_t n_slots, slot_cap;
	size_t n_live;
	size_t adds_since_sweep;
	uint64_t next_seq;
	uint64_t horizon;	/* no lookup before this time */
	uint64_t lo, hi;	/* every live entry lies in [lo, hi): an address
				 * outside (a native frame beside a JIT heap)
				 * misses without a search */
};

struct range_table *range_table__new(void)
{
	return calloc(1, sizeof(struct range_table));
}

void range_table__free(struct range_table *rt)
{
	if (!rt)
		return;
	for (size_t i = 0; i < rt->n; i++)
		free((char *)rt->e[i].name);
	free(rt->e);
	free(rt->free);
	free(rt->pend);
	free(rt->s);
	free(rt);
}

/* Entry i is no answer any more: its name freed, its place for a later add
 * (room for it was made when it was added). */
static void range_table__release(struct range_table *rt, uint32_t i)
{
	free((char *)rt->e[i].name);
	memset(&rt->e[i], 0, sizeof(rt->e[i]));
	rt->free[rt->n_free++] = i;
	rt->n_live--;
}

long range_table__add(struct range_table *rt, uint64_t start, uint64_t size,
		      const char *name, size_t name_len, uint64_t load_ts)
{
	struct range_entry *e;
	char *copy;
	size_t i;

	if (!size || start + size < start)
		return -EINVAL;
	/* room to free every entry, and to hold it until the next sort */
	if (GROW(rt->free, rt->cap_free, rt->n_live + 1) ||
	    GROW(rt->pend, rt->cap_pend, rt->n_pend + 1))
		return -ENOMEM;
	copy = malloc(name_len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, name, name_len);
	copy[name_len] = '\0';
	if (!rt->n_free && rt->n == rt->cap) {
		size_t cap = rt->cap ? rt->cap * 2 : 256;
		struct range_entry *p = aligned_alloc(64, cap * sizeof(*rt->e));

		if (!p) {
			free(copy);
			return -ENOMEM;
		}
		if (rt->n)
			memcpy(p, rt->e, rt->n * sizeof(*rt->e));
		free(rt->e);
		rt->e = p;
		rt->cap = cap;
	}
	i = rt->n_free ? rt->free[--rt->n_free] : rt->n++;
	e = &rt->e[i];
	memset(e, 0, sizeof(*e));
	e->name = copy;
	e->start = start;
	e->end = start + size;
	e->load_ts = load_ts;
	e->seq = rt->next_seq++;
	if (!rt->n_live || start < rt->lo)
		rt->lo = start;
	if (!rt->n_live || e->end > rt->hi)
		rt->hi = e->end;
	rt->n_live++;
	rt->pend[rt->n_pend++] = (uint32_t)i;
	rt->adds_since_sweep++;
	return (long)i;
}

struct range_entry *range_table__entry(struct range_table *rt, size_t idx)
{
	return idx < rt->n && rt->e[idx].name ? &rt->e[idx] : NULL;
}

size_t range_table__count(const struct range_table *rt)
{
	return rt ? rt->n_live : 0;
}

size_t range_table__extent(const struct range_table *rt)
{
	return rt ? rt->n : 0;
}

/* New slots before their merge: by start, then arrival (pmax holds the
 * arrival rank until then). */
static int new_slot_cmp(const void *a, const void *b)
{
	const struct range_slot *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->pmax < y->pmax ? -1 : x->pmax > y->pmax;
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
	size_t t = rt->n_pend, a, b, k, settled = 0;
	struct range_slot *add;

	if (!t)
		return 0;
	if (GROW(rt->s, rt->slot_cap, rt->n_slots + t))
		return -ENOMEM;
	if (t == 1) {
		const struct range_entry *c = &rt->e[rt->pend[0]];

		k = range_table__upper(rt, c->start);
		memmove(&rt->s[k + 1], &rt->s[k], (rt->n_slots - k) * sizeof(*rt->s));
		rt->s[k] = (struct range_slot){ .start = c->start, .idx = rt->pend[0] };
		rt->n_slots++;
		rt->n_pend = 0;
		range_table__pmax(rt, k, k + 1);
		return 0;
	}
	add = malloc(t * sizeof(*add));
	if (!add)
		return -ENOMEM;
	for (k = 0; k < t; k++)
		add[k] = (struct range_slot){ .start = rt->e[rt->pend[k]].start, .pmax = k,
					      .idx = rt->pend[k] };
	qsort(add, t, sizeof(*add), new_slot_cmp);
	a = rt->n_slots;
	b = t;
	k = a + b;
	/* every new slot came after every old one: at one start, old first */
	while (b) {
		if (a && add[b - 1].start < rt->s[a - 1].start) {
			rt->s[--k] = rt->s[--a];
		} else {
			rt->s[--k] = add[--b];
			if (!settled)	/* the last new slot: old ones after it */
				settled = k + 1;
		}
	}
	free(add);
	rt->n_slots += t;
	rt->n_pend = 0;
	range_table__pmax(rt, k, settled);
	return 0;
}

static inline int range_entry__expired(const struct range_table *rt, const struct range_entry *c)
{
	return rt->horizon && c->unload_ts && c->unload_ts <= rt->horizon;
}

/* Every entry the horizon has passed out of the slots and freed; the
 * prefix maxima and [lo, hi) of what stays. */
static void range_table__sweep(struct range_table *rt)
{
	size_t i, k;

	rt->adds_since_sweep = 0;
	if (range_table__sort_new(rt))
		return;
	for (i = k = 0; i < rt->n_slots; i++) {
		if (range_entry__expired(rt, &rt->e[rt->s[i].idx]))
			range_table__release(rt, rt->s[i].idx);
		else
			rt->s[k++] = rt->s[i];
	}
	if (k == rt->n_slots)
		return;
	rt->n_slots = k;
	range_table__pmax(rt, 0, k);
	rt->lo = k ? rt->s[0].start : 0;
	rt->hi = k ? rt->s[k - 1].pmax : 0;
}

void range_table__set_horizon(struct range_table *rt, uint64_t ts)
{
	if (ts > rt->horizon)
		rt->horizon = ts;
	if (rt->horizon && rt->adds_since_sweep >= SWEEP_MIN &&
	    rt->adds_since_sweep * 2 >= rt->n_slots)
		range_table__sweep(rt);
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
	size_t hi, lo, i, k, idx;

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
	idx = (size_t)(c - rt->e);
	rt->e[idx].unload_ts = ts ? ts : 1;
	/* versions at this start that no lookup can ask for any more */
	for (i = k = lo; i < hi; i++) {
		if (range_entry__expired(rt, &rt->e[rt->s[i].idx]))
			range_table__release(rt, rt->s[i].idx);
		else
			rt->s[k++] = rt->s[i];
	}
	if (k < hi) {
		memmove(&rt->s[k], &rt->s[hi], (rt->n_slots - hi) * sizeof(*rt->s));
		rt->n_slots -= hi - k;
		range_table__pmax(rt, lo, lo);
	}
	return (long)idx;
}
