// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * range_table.c - the time-aware range table that perf maps and the
 * runtime's method events fill.
 *
 * Entries are appended in arrival order (seq) and never move.  The index is
 * the plainest one that follows the rules of range_table.h: the entries
 * sorted by (start, seq), so the versions at one address sit together, with
 * their starts in a dense array for the binary search and a prefix maximum
 * of their ends; a lookup finds the last start <= addr and walks back while
 * the prefix maximum still reaches addr.  Entries added since the last
 * merge are a short unsorted tail, scanned; when it grows past about
 * sqrt(n) / 4 it is sorted and merged in one pass, and entries unloaded before
 * the horizon leave the index then.  An unload is a binary search among
 * the versions at its start: it never rebuilds anything.  The cost to
 * watch: a range that spans many others makes every lookup under it walk
 * back to it.
 *
 * This replaced a structure of flat layers, an interval tree and buckets:
 * bench_symbolizer measured it 5-10x faster than this one on random lookups
 * in a fresh perf map but 0.4x on JIT churn (unloads re-indexed the whole
 * table), the collector's case (see docs/perf-map-format.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "range_table.h"
#include "strpool.h"

struct range_table {
	struct range_entry *e;
	size_t n, cap;
	size_t n_sorted;		/* entries [0, n_sorted) went through a merge */
	uint32_t *idx;			/* the indexed ones by (start, seq) */
	uint64_t *starts;		/* starts[i] = e[idx[i]].start */
	uint64_t *pmax;			/* pmax[i]: the largest end of idx[0..i]
					 * (in the starts allocation) */
	size_t n_idx;
	/* the arrays of the merge before, reused by the next: a fresh
	 * allocation of this size is fresh pages to fault in, every merge */
	uint32_t *spare_idx;
	uint64_t *spare_starts;		/* and its pmax */
	size_t spare_cap;
	size_t idx_cap;			/* what idx and starts were allocated for */
	size_t lim;			/* tail size that triggers a merge */
	uint64_t horizon;		/* no lookup before this time: drop what ended */
	uint64_t lo, hi;		/* every entry ever added lies in [lo, hi): an
					 * address outside (a native frame beside a
					 * JIT heap) misses without a search */
	struct strpool *names;
};

struct range_table *range_table__new(void)
{
	struct range_table *rt = calloc(1, sizeof(*rt));

	if (!rt)
		return NULL;
	rt->lim = 16;
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
	free(rt->idx);
	free(rt->starts);	/* pmax too */
	free(rt->spare_idx);
	free(rt->spare_starts);
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

static const struct range_entry *sort_base;

static int idx_cmp(const void *a, const void *b)
{
	const struct range_entry *x = &sort_base[*(const uint32_t *)a];
	const struct range_entry *y = &sort_base[*(const uint32_t *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static inline int idx_less(const struct range_entry *e, uint32_t a, uint32_t b)
{
	if (e[a].start != e[b].start)
		return e[a].start < e[b].start;
	return e[a].seq < e[b].seq;
}

static inline int range_entry__expired(const struct range_table *rt, const struct range_entry *c)
{
	return rt->horizon && c->unload_ts && c->unload_ts <= rt->horizon;
}

void range_table__set_horizon(struct range_table *rt, uint64_t ts)
{
	if (ts > rt->horizon)
		rt->horizon = ts;
}

/* Sort the tail and merge it into the index, leaving out what expired.
 * O(n + t log t) for a tail of t; runs once per ~sqrt(n) / 4 adds. */
static int range_table__merge(struct range_table *rt)
{
	size_t old = 0, add = 0, i, a, b, k, need = rt->n_idx + rt->n - rt->n_sorted + 1, cap;
	uint32_t *tail = malloc((rt->n - rt->n_sorted + 1) * sizeof(*tail));
	uint32_t *merged;
	uint64_t *starts, *pmax, m = 0;

	if (!tail)
		return -ENOMEM;
	if (rt->spare_cap < need) {
		/* room to grow: the next merges fit without a new allocation */
		cap = need + need / 2;
		free(rt->spare_idx);
		free(rt->spare_starts);
		rt->spare_idx = malloc(cap * sizeof(*rt->spare_idx));
		rt->spare_starts = malloc(2 * cap * sizeof(*rt->spare_starts));
		rt->spare_cap = rt->spare_idx && rt->spare_starts ? cap : 0;
		if (!rt->spare_cap) {
			free(tail);
			return -ENOMEM;
		}
	}
	cap = rt->spare_cap;
	merged = rt->spare_idx;
	starts = rt->spare_starts;
	pmax = starts + cap;
	for (i = 0; i < rt->n_idx; i++)
		if (!range_entry__expired(rt, &rt->e[rt->idx[i]]))
			rt->idx[old++] = rt->idx[i];
	for (i = rt->n_sorted; i < rt->n; i++)
		if (!range_entry__expired(rt, &rt->e[i]))
			tail[add++] = (uint32_t)i;
	sort_base = rt->e;
	qsort(tail, add, sizeof(*tail), idx_cmp);
	for (a = 0, b = 0, k = 0; a < old || b < add; k++) {
		const struct range_entry *c;

		if (b == add || (a < old && idx_less(rt->e, rt->idx[a], tail[b])))
			merged[k] = rt->idx[a++];
		else
			merged[k] = tail[b++];
		c = &rt->e[merged[k]];
		starts[k] = c->start;
		pmax[k] = m = c->end > m ? c->end : m;
	}
	free(tail);
	rt->spare_idx = rt->idx;	/* the old index is the next merge's room */
	rt->spare_starts = rt->starts;
	rt->spare_cap = rt->idx_cap;
	rt->idx = merged;
	rt->starts = starts;
	rt->pmax = pmax;
	rt->idx_cap = cap;
	rt->n_idx = k;
	rt->n_sorted = rt->n;
	for (rt->lim = 16; 16 * rt->lim * rt->lim < rt->n_idx; rt->lim *= 2)
		;
	return 0;
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
	int unload_start;	/* range_table__unload: only entries starting at addr */
};

static inline void range_pick__consider(struct range_pick *p, const struct range_entry *c,
				 uint64_t addr)
{
	uint64_t ts = p->ts;

	if (p->unload_start) {
		if (c->start != addr || c->unload_ts)
			return;
	}
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

/* Entries added since the last merge are scanned linearly until there are
 * more than max(16, ~sqrt(n) / 4) (rt->lim): method events arrive one at a
 * time between lookups, a merge costs O(n), and lookups outnumber adds. */
static inline int range_table__prepare(struct range_table *rt)
{
	return rt->n - rt->n_sorted > rt->lim ? range_table__merge(rt) : 0;
}

/* The number of indexed entries starting at or before addr. */
static inline size_t range_table__upper(const struct range_table *rt, uint64_t addr)
{
	size_t lo = 0, n = rt->n_idx;

	/* branch free: a mispredicted comparison would throw away the loads
	 * of the steps after it */
	while (n > 1) {
		size_t half = n / 2;

		lo = rt->starts[lo + half - 1] <= addr ? lo + half : lo;
		n -= half;
	}
	return lo + (n && rt->starts[lo] <= addr);
}

/* Every unexpired entry covering addr goes through consider(). */
static void range_table__stab(const struct range_table *rt, uint64_t addr, struct range_pick *p)
{
	const struct range_entry *c;
	size_t i, k;

	for (i = range_table__upper(rt, addr); i-- && rt->pmax[i] > addr;) {
		c = &rt->e[rt->idx[i]];
		if (c->end > addr && !range_entry__expired(rt, c))
			range_pick__consider(p, c, addr);
	}
	for (k = rt->n_sorted; k < rt->n; k++)
		if (rt->e[k].start <= addr && addr < rt->e[k].end &&
		    !range_entry__expired(rt, &rt->e[k]))
			range_pick__consider(p, &rt->e[k], addr);
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

	if (addr - rt->lo >= rt->hi - rt->lo || range_table__prepare(rt))
		return NULL;
	range_table__stab(rt, addr, &p);
	if (ts == SYM_TS_NONE)
		return p.any;
	if (p.live || live_only)
		return p.live;
	return p.early ? p.early : p.any;
}

/* O(log n) for the search plus the versions at start and the tail; a merge
 * only when adds made the tail long, as in a lookup. */
long range_table__unload(struct range_table *rt, uint64_t start, uint64_t ts)
{
	struct range_pick p = { .ts = ts ? ts : 1, .unload_start = 1 };
	const struct range_entry *c;
	size_t i, k;

	/* a table nobody looks up (a perf map while method events answer)
	 * would otherwise keep every add in the tail this scans */
	if (range_table__prepare(rt))
		return -ENOMEM;
	for (i = range_table__upper(rt, start); i-- && rt->starts[i] == start;)
		range_pick__consider(&p, &rt->e[rt->idx[i]], start);
	for (k = rt->n_sorted; k < rt->n; k++)
		if (rt->e[k].start == start)
			range_pick__consider(&p, &rt->e[k], start);
	c = p.live ? p.live : p.early;
	if (!c)
		return -ENOENT;
	rt->e[c->seq].unload_ts = ts ? ts : 1;
	return c->seq;
}
