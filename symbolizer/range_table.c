// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * range_table.c - the time-aware range table that perf maps and the
 * runtime's method events fill.
 *
 * Entries are appended in arrival order (seq) and never move; a sorted
 * index (by start, then seq) is rebuilt lazily when enough entries were
 * added since the last one (the new tail is sorted and merged, so a batch
 * of perf-map lines costs one sort; until then the tail is scanned).
 * Ranges may overlap (re-JIT, unload and reuse): the index keeps them in
 * a few flat sorted layers of non-overlapping ranges and the rest in an
 * interval tree, with buckets over the address range in front of all.  A
 * lookup at an address no other range overlaps -- nearly all of them in a
 * real perf map -- is a bucket, one 16-byte record and the entry; one in a
 * range reused a few times, that once per layer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "range_table.h"
#include "strpool.h"

/*
 * Index.  At each reindex the entries, sorted by start, are split into
 * flat layers and a tree.  Layer 0 is a maximal run of non-overlapping
 * entries taken greedily in start order (all of a normal perf map); layer 1
 * the same taken from what is left (a range reused once after an unload),
 * and so on for RT_LAYERS layers; each is searched by binary search over a
 * dense array.  What overlaps still more (a slot reused over and over) goes
 * into a centered interval tree, so a lookup costs O(log n + k) for the k
 * entries that cover the address -- the versions among which the time
 * decides -- however many versions other addresses have.
 */
struct itree_node {
	uint64_t center;
	uint32_t off, cnt;	/* into by_start / by_end */
	int32_t left, right;
};

/* A flat-layer entry: what a lookup needs to decide coverage, in one
 * 16-byte record, so the search touches one array and then the entry.
 * len is the size, or FLAT_LEN_BIG when the entry's own end must be read. */
struct flat_ent {
	uint64_t start;
	uint32_t len;
	uint32_t idx;
};

#define FLAT_LEN_BIG	UINT32_MAX
#define FLAT_SENTINELS	1	/* start UINT64_MAX after the last entry */
#define RT_LAYERS	4	/* flat layers before the tree */

struct flat_layer {
	struct flat_ent *ents;	/* by start, then the sentinel */
	size_t n;
	uint32_t *bkt_first;	/* per bucket: the entries starting before it */
	uint64_t *bkt_in;	/* layers >= 1: bit per bucket an entry reaches into */
};

struct range_table {
	struct range_entry *e;
	size_t n, cap;
	size_t n_sorted;		/* entries [0, n_sorted) went through a reindex */
	uint32_t *idx;			/* the indexed ones by (start, seq) */
	size_t n_idx;
	uint64_t horizon;		/* no lookup before this time: drop what ended */
	size_t unloads;			/* unload marks since the last reindex */
	uint64_t *unl;			/* unload times of the indexed entries, sorted */
	size_t n_unl;
	struct flat_layer layer[RT_LAYERS];
	int n_layers;			/* layers with entries (layer 0 always) */
	size_t lim;			/* tail size that triggers a reindex */
	size_t n_expired;		/* range_table__expired_count at this horizon */
	struct itree_node *nodes;	/* the rest */
	size_t n_nodes;
	uint32_t *by_start, *by_end;	/* per node: by start asc / by end desc */
	size_t n_node_ents;
	int32_t root;
	/* buckets of 1 << bkt_shift bytes from bkt_lo: bit j of bkt_tree is
	 * set when a tree entry reaches into bucket j (else the tree is not
	 * walked), of bkt_more when anything but layer 0 does */
	uint64_t bkt_lo, bkt_hi;
	unsigned int bkt_shift;
	size_t n_bkt;
	uint64_t *bkt_tree, *bkt_more;
	struct strpool *names;
};

struct range_table *range_table__new(void)
{
	struct range_table *rt = calloc(1, sizeof(*rt));

	if (!rt)
		return NULL;
	rt->root = -1;
	rt->lim = 64;
	rt->names = strpool__new();
	if (!rt->names) {
		free(rt);
		errno = ENOMEM;
		return NULL;
	}
	return rt;
}

static void range_table__free_index(struct range_table *rt)
{
	for (int l = 0; l < RT_LAYERS; l++) {
		free(rt->layer[l].ents);
		free(rt->layer[l].bkt_first);
		free(rt->layer[l].bkt_in);
	}
	memset(rt->layer, 0, sizeof(rt->layer));
	rt->n_layers = 0;
	free(rt->nodes);
	free(rt->by_start);
	free(rt->by_end);
	free(rt->bkt_tree);
	free(rt->bkt_more);
	rt->bkt_tree = rt->bkt_more = NULL;
	rt->n_bkt = 0;
	rt->bkt_lo = rt->bkt_hi = 0;
	rt->by_start = rt->by_end = NULL;
	rt->nodes = NULL;
	rt->n_nodes = rt->n_node_ents = 0;
	rt->root = -1;
}

void range_table__free(struct range_table *rt)
{
	if (!rt)
		return;
	range_table__free_index(rt);
	free(rt->e);
	free(rt->idx);
	free(rt->unl);
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

static int end_desc_cmp(const void *a, const void *b)
{
	const struct range_entry *x = &sort_base[*(const uint32_t *)a];
	const struct range_entry *y = &sort_base[*(const uint32_t *)b];

	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static inline int idx_less(const struct range_entry *e, uint32_t a, uint32_t b)
{
	if (e[a].start != e[b].start)
		return e[a].start < e[b].start;
	return e[a].seq < e[b].seq;
}

/* Build the tree over ents[0..n) (sorted by start); returns the node or -1,
 * -2 on ENOMEM.  tmp has room for n entries. */
static int32_t itree_build(struct range_table *rt, const uint32_t *ents, size_t n, uint32_t *tmp)
{
	const struct range_entry *e = rt->e;
	size_t i, nl = 0, nm = 0, nr = 0;
	uint64_t center;
	int32_t me, l, r;
	uint32_t *left, *right;

	if (!n)
		return -1;
	center = e[ents[n / 2]].start;
	/* mid entries go to by_start directly (they stay in start order) */
	left = tmp;
	right = malloc(n * sizeof(*right));
	if (!right)
		return -2;
	for (i = 0; i < n; i++) {
		const struct range_entry *c = &e[ents[i]];

		if (c->end <= center)
			left[nl++] = ents[i];
		else if (c->start > center)
			right[nr++] = ents[i];
		else
			rt->by_start[rt->n_node_ents + nm++] = ents[i];
	}
	me = (int32_t)rt->n_nodes++;
	rt->nodes[me].center = center;
	rt->nodes[me].off = (uint32_t)rt->n_node_ents;
	rt->nodes[me].cnt = (uint32_t)nm;
	memcpy(rt->by_end + rt->n_node_ents, rt->by_start + rt->n_node_ents, nm * sizeof(uint32_t));
	sort_base = e;
	qsort(rt->by_end + rt->n_node_ents, nm, sizeof(uint32_t), end_desc_cmp);
	rt->n_node_ents += nm;
	/* left[] lives in tmp: copy it out before tmp is reused below */
	{
		uint32_t *lcopy = malloc((nl ? nl : 1) * sizeof(*lcopy));

		if (!lcopy) {
			free(right);
			return -2;
		}
		memcpy(lcopy, left, nl * sizeof(*lcopy));
		l = itree_build(rt, lcopy, nl, tmp);
		free(lcopy);
	}
	r = l == -2 ? -2 : itree_build(rt, right, nr, tmp);
	free(right);
	if (l == -2 || r == -2)
		return -2;
	rt->nodes[me].left = l;
	rt->nodes[me].right = r;
	return me;
}

/*
 * A lookup's first steps without a search over the whole table: the address
 * range of the index is cut into about as many buckets as there are
 * entries; a bucket narrows the flat layer's binary search to the entries
 * that start in it, and says whether the tree needs a walk at all (most
 * addresses lie where no range was ever reused).  A random address then
 * costs a few cache lines instead of two searches of ~17 steps each.
 */
static void bits_set(uint64_t *bits, const struct range_entry *c, uint64_t lo, unsigned int shift)
{
	for (size_t j = (c->start - lo) >> shift; j <= (c->end - 1 - lo) >> shift; j++)
		bits[j / 64] |= 1ULL << (j % 64);
}

static void bits_or(uint64_t *to, const uint64_t *from, size_t n_bits)
{
	for (size_t j = 0; j < (n_bits + 63) / 64; j++)
		to[j] |= from[j];
}

/* A layer's first-entry index per bucket, and (layers >= 1) its bits. */
static int layer_buckets(struct range_table *rt, struct flat_layer *l, int deeper)
{
	size_t nb = rt->n_bkt, j, f = 0;

	l->bkt_first = malloc((nb + 1) * sizeof(*l->bkt_first));
	l->bkt_in = deeper ? calloc((nb + 63) / 64, sizeof(*l->bkt_in)) : NULL;
	if (!l->bkt_first || (deeper && !l->bkt_in))
		return -ENOMEM;
	for (j = 0; j <= nb; j++) {
		uint64_t b = rt->bkt_lo + ((uint64_t)j << rt->bkt_shift);

		while (f < l->n && l->ents[f].start < b)
			f++;
		l->bkt_first[j] = (uint32_t)f;
	}
	for (f = 0; deeper && f < l->n; f++)
		bits_set(l->bkt_in, &rt->e[l->ents[f].idx], rt->bkt_lo, rt->bkt_shift);
	if (deeper)
		bits_or(rt->bkt_more, l->bkt_in, nb);
	return 0;
}

static int range_table__buckets(struct range_table *rt, const uint32_t *rest, size_t n_rest)
{
	uint64_t lo = UINT64_MAX, hi = 0, span;
	size_t nb = 1024, i;
	unsigned int shift = 0;

	for (i = 0; i < rt->n_idx; i++) {
		const struct range_entry *c = &rt->e[rt->idx[i]];

		lo = c->start < lo ? c->start : lo;
		hi = c->end > hi ? c->end : hi;
	}
	if (lo >= hi)
		return 0;	/* empty: no buckets, nothing to find */
	while (nb < rt->n_idx && nb < (1u << 22))
		nb *= 2;
	span = hi - lo;
	while (shift < 63 && (span >> shift) >= nb)
		shift++;
	rt->n_bkt = (size_t)(span >> shift) + 1;
	rt->bkt_lo = lo;
	rt->bkt_hi = hi;
	rt->bkt_shift = shift;
	rt->bkt_tree = calloc((rt->n_bkt + 63) / 64, sizeof(*rt->bkt_tree));
	rt->bkt_more = calloc((rt->n_bkt + 63) / 64, sizeof(*rt->bkt_more));
	if (!rt->bkt_tree || !rt->bkt_more)
		return -ENOMEM;
	for (int l = 0; l < rt->n_layers; l++)
		if (layer_buckets(rt, &rt->layer[l], l > 0))
			return -ENOMEM;
	for (i = 0; i < n_rest; i++)
		bits_set(rt->bkt_tree, &rt->e[rest[i]], lo, shift);
	bits_or(rt->bkt_more, rt->bkt_tree, rt->n_bkt);
	return 0;
}

/* Take from ents[0..n) (by start) a maximal run of non-overlapping entries
 * into layer l; the others go to rest[0..*n_rest). */
static int layer_build(struct range_table *rt, struct flat_layer *l, const uint32_t *ents,
		       size_t n, uint32_t *rest, size_t *n_rest)
{
	uint64_t last_end = 0;

	l->ents = malloc((n + FLAT_SENTINELS) * sizeof(*l->ents));
	if (!l->ents)
		return -ENOMEM;
	*n_rest = 0;
	for (size_t i = 0; i < n; i++) {
		const struct range_entry *c = &rt->e[ents[i]];

		if (c->start >= last_end) {
			uint64_t len = c->end - c->start;
			struct flat_ent *f = &l->ents[l->n++];

			f->start = c->start;
			f->len = len < FLAT_LEN_BIG ? (uint32_t)len : FLAT_LEN_BIG;
			f->idx = ents[i];
			last_end = c->end;
		} else {
			rest[(*n_rest)++] = ents[i];
		}
	}
	l->ents[l->n] = (struct flat_ent){ .start = UINT64_MAX };
	return 0;
}

/* Split the sorted entries into the flat layers and the tree. */
static int range_table__build(struct range_table *rt)
{
	size_t n = rt->n_idx, n_rest = 0, n_cur = n;
	uint32_t *rest = NULL, *cur = NULL, *tmp = NULL;
	int err = -ENOMEM;

	range_table__free_index(rt);
	rest = malloc((n ? n : 1) * sizeof(*rest));
	cur = malloc((n ? n : 1) * sizeof(*cur));
	if (!rest || !cur)
		goto cleanup;
	memcpy(cur, rt->idx, n * sizeof(*cur));
	/* layer 0 always (lookups start there); another while the last one
	 * took at least as many entries as are left: when versions pile up on
	 * a few addresses instead, layers would each take one per address and
	 * the tree serves better */
	for (int l = 0; l < RT_LAYERS && (!l || (n_cur && rt->layer[l - 1].n >= n_cur)); l++) {
		uint32_t *t;

		if (layer_build(rt, &rt->layer[l], cur, n_cur, rest, &n_rest))
			goto cleanup;
		rt->n_layers = l + 1;
		t = cur;
		cur = rest;
		rest = t;
		n_cur = n_rest;
	}
	err = 0;
	if (!n_cur)
		goto cleanup;
	err = -ENOMEM;
	rt->nodes = malloc(n_cur * sizeof(*rt->nodes));
	rt->by_start = malloc(n_cur * sizeof(*rt->by_start));
	rt->by_end = malloc(n_cur * sizeof(*rt->by_end));
	tmp = malloc(n_cur * sizeof(*tmp));
	if (!rt->nodes || !rt->by_start || !rt->by_end || !tmp)
		goto cleanup;
	rt->root = itree_build(rt, cur, n_cur, tmp);
	err = rt->root == -2 ? -ENOMEM : 0;
cleanup:
	if (!err)
		err = range_table__buckets(rt, cur, n_cur);
	free(rest);
	free(cur);
	free(tmp);
	if (err)
		range_table__free_index(rt);
	return err;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Indexed entries unloaded at or before the horizon (still in the index). */
static size_t range_table__expired_count(const struct range_table *rt)
{
	size_t lo = 0, hi = rt->n_unl;

	if (!rt->horizon)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rt->unl[mid] <= rt->horizon)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static inline int range_entry__expired(const struct range_table *rt, const struct range_entry *c)
{
	return rt->horizon && c->unload_ts && c->unload_ts <= rt->horizon;
}

void range_table__set_horizon(struct range_table *rt, uint64_t ts)
{
	if (ts > rt->horizon) {
		rt->horizon = ts;
		rt->n_expired = range_table__expired_count(rt);
	}
}

/* What prepare() compares with, kept up to date as the index changes. */
static void range_table__limits(struct range_table *rt)
{
	size_t lim = 64;

	while (lim * lim < 4 * rt->n_idx)
		lim *= 2;
	rt->lim = lim;
	rt->n_expired = range_table__expired_count(rt);
}

/* Sort the unindexed tail, merge it into idx, rebuild the index. */
static int range_table__reindex(struct range_table *rt)
{
	size_t old = 0, add = 0, i, a, b, k;
	uint32_t *tail, *merged;
	int err;

	tail = malloc((rt->n - rt->n_sorted + 1) * sizeof(*tail));
	merged = malloc((rt->n_idx + rt->n - rt->n_sorted + 1) * sizeof(*merged));
	if (!tail || !merged) {
		free(tail);
		free(merged);
		return -ENOMEM;
	}
	/* entries that ended before the horizon leave the index for good */
	for (i = 0; i < rt->n_idx; i++)
		if (!range_entry__expired(rt, &rt->e[rt->idx[i]]))
			rt->idx[old++] = rt->idx[i];
	for (i = rt->n_sorted; i < rt->n; i++)
		if (!range_entry__expired(rt, &rt->e[i]))
			tail[add++] = (uint32_t)i;
	sort_base = rt->e;
	qsort(tail, add, sizeof(*tail), idx_cmp);
	for (a = 0, b = 0, k = 0; a < old || b < add; k++) {
		if (b == add || (a < old && idx_less(rt->e, rt->idx[a], tail[b])))
			merged[k] = rt->idx[a++];
		else
			merged[k] = tail[b++];
	}
	free(tail);
	free(rt->idx);
	rt->idx = merged;
	rt->n_idx = k;
	rt->n_sorted = rt->n;
	rt->unloads = 0;
	/* when the horizon passes enough of these, the index shrinks */
	free(rt->unl);
	rt->n_unl = 0;
	rt->unl = malloc((k ? k : 1) * sizeof(*rt->unl));
	if (rt->unl) {
		for (i = 0; i < k; i++)
			if (rt->e[merged[i]].unload_ts)
				rt->unl[rt->n_unl++] = rt->e[merged[i]].unload_ts;
		qsort(rt->unl, rt->n_unl, sizeof(*rt->unl), u64_cmp);
	}
	err = range_table__build(rt);
	if (err) {
		/* everything is scanned as tail until a rebuild works */
		rt->n_sorted = 0;
		rt->n_idx = 0;
	}
	range_table__limits(rt);
	return err;
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

const struct range_entry *range_table__find(struct range_table *rt, uint64_t addr,
					    uint64_t ts)
{
	return range_table__find_mode(rt, addr, ts, 0);
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

/* Entries added since the last reindex are scanned linearly until there are
 * more than max(64, 2 sqrt(n)) (rt->lim): method events arrive one at a time
 * between lookups, and a rebuild costs O(n log n). */
static int range_table__prepare(struct range_table *rt)
{
	if (rt->n - rt->n_sorted > rt->lim || (rt->horizon && rt->unloads + rt->n_expired > rt->lim))
		return range_table__reindex(rt);
	return 0;
}

/* 1 + the bucket of addr, or 0 when no indexed range reaches addr. */
static inline size_t range_table__bucket(const struct range_table *rt, uint64_t addr)
{
	if (addr < rt->bkt_lo || addr >= rt->bkt_hi)
		return 0;
	return ((addr - rt->bkt_lo) >> rt->bkt_shift) + 1;
}

static inline int bit_at(const uint64_t *bits, size_t j)
{
	return (bits[j / 64] >> (j % 64)) & 1;
}

/* The entry of layer l covering addr (in bucket b), or NULL. */
static inline const struct range_entry *layer_find(const struct range_table *rt,
						   const struct flat_layer *l, size_t b,
						   uint64_t addr)
{
	/* the entries before the bucket start before addr; the ones after
	 * it, after addr */
	size_t lo = l->bkt_first[b], n = l->bkt_first[b + 1] - lo;
	const struct flat_ent *f;

	/* lo becomes the number of entries with start <= addr; branch free,
	 * so a mispredicted comparison does not throw away the loads of the
	 * lookups after this one.  Every entry from the bucket's end on
	 * starts after addr (the sentinel past the last too). */
	for (; n > 1; n -= n / 2)
		lo = l->ents[lo + n / 2].start <= addr ? lo + n / 2 : lo;
	lo += l->ents[lo].start <= addr;
	if (!lo)
		return NULL;
	f = &l->ents[lo - 1];
	if (addr - f->start < f->len ||
	    (f->len == FLAT_LEN_BIG && addr < rt->e[f->idx].end))
		return &rt->e[f->idx];
	return NULL;
}

static void itree_stab(const struct range_table *rt, uint64_t addr, struct range_pick *p)
{
	const struct range_entry *c;
	int32_t node = rt->root;
	uint32_t j;

	while (node >= 0) {
		const struct itree_node *nd = &rt->nodes[node];

		if (addr < nd->center) {
			for (j = 0; j < nd->cnt; j++) {
				c = &rt->e[rt->by_start[nd->off + j]];
				if (c->start > addr)
					break;
				range_pick__consider(p, c, addr);
			}
			node = nd->left;
		} else {
			for (j = 0; j < nd->cnt; j++) {
				c = &rt->e[rt->by_end[nd->off + j]];
				if (c->end <= addr)
					break;
				range_pick__consider(p, c, addr);
			}
			node = nd->right;
		}
	}
}

/* Every indexed or tail entry covering addr goes through consider(). */
static void range_table__stab(const struct range_table *rt, uint64_t addr, struct range_pick *p)
{
	size_t b = range_table__bucket(rt, addr), k;
	const struct range_entry *c;

	if (b--) {
		for (int l = 0; l < rt->n_layers; l++)
			if ((!l || bit_at(rt->layer[l].bkt_in, b)) &&
			    (c = layer_find(rt, &rt->layer[l], b, addr)))
				range_pick__consider(p, c, addr);
		if (bit_at(rt->bkt_tree, b))
			itree_stab(rt, addr, p);
	}
	for (k = rt->n_sorted; k < rt->n; k++)
		if (rt->e[k].start <= addr && addr < rt->e[k].end &&
		    !range_entry__expired(rt, &rt->e[k]))
			range_pick__consider(p, &rt->e[k], addr);
}

const struct range_entry *range_table__find_mode(struct range_table *rt, uint64_t addr,
						 uint64_t ts, int live_only)
{
	struct range_pick p = { .ts = ts };

	if (!rt->n || range_table__prepare(rt))
		return NULL;
	if (rt->n_sorted == rt->n) {
		size_t b = range_table__bucket(rt, addr);
		const struct range_entry *c;

		if (!b--)
			return NULL;	/* nothing indexed reaches addr, no tail */
		/* one candidate (most lookups): the general rules below give
		 * it whatever the time, unless only a live one will do */
		if (!bit_at(rt->bkt_more, b)) {
			c = layer_find(rt, &rt->layer[0], b, addr);
			if (!c || !live_only || ts == SYM_TS_NONE)
				return c;
			return (!c->unload_ts || c->unload_ts > ts) && c->load_ts <= ts ? c : NULL;
		}
	}
	range_table__stab(rt, addr, &p);
	if (ts == SYM_TS_NONE)
		return p.any;
	if (p.live || live_only)
		return p.live;
	return p.early ? p.early : p.any;
}

long range_table__unload(struct range_table *rt, uint64_t start, uint64_t ts)
{
	struct range_pick p = { .ts = ts ? ts : 1, .unload_start = 1 };
	const struct range_entry *c;

	if (range_table__prepare(rt))
		return -ENOMEM;
	range_table__stab(rt, start, &p);
	c = p.live ? p.live : p.early;
	if (!c)
		return -ENOENT;
	rt->e[c->seq].unload_ts = ts ? ts : 1;
	rt->unloads++;
	return c->seq;
}
