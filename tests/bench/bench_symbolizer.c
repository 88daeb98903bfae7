// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bench_symbolizer - the range table (symbolizer/range_table.c) against a
 * reference copy of the plainest structure that follows the same naming
 * rules, on the two loads the collector puts on it, and symbolizer__resolve
 * on the first.
 *
 * The range table had to beat that plain structure 2x on both loads to keep
 * a cleverer index; it did not (1.99x on fresh-map lookups, 0.82x on churn),
 * so it is now the plain structure itself, with the differences the product
 * needs: names copied into a pool, entries that keep their index (the
 * sorted array holds slots pointing at them), adds sorted in at the next
 * lookup.  The ratios below are therefore about 1x by design: they show
 * that what the product adds costs nothing that matters, and would show a
 * regression.
 *
 * The reference: entries sorted by (start, seq), so the versions at
 * one address sit together, a prefix maximum of their ends, and a lookup
 * that binary-searches the last start <= addr and walks back while the
 * prefix maximum still reaches addr, choosing among what covers addr by the
 * rules of range_table.h.  An add is an insertion (memmove), an unload a
 * search among the versions at its start, and versions unloaded before the
 * horizon are removed when their address is unloaded again.
 *
 * (a) A fresh 100,000-line perf map (the last 10 % reuse ranges of earlier
 *     methods, appended later, as after an unload): build time, then random
 *     addresses inside the methods without and with times.
 * (b) JIT churn (refrt --scenario mixed): 20,000 methods stay loaded while
 *     30,000 more come and go through 64 reused slots; each step unloads a
 *     slot, loads its next method, moves the horizon (the collector's
 *     watermark, a little behind) and resolves 20 addresses at the current
 *     time, three of four in the stable methods.
 * Each workload runs RUNS times, range table and plain interleaved; the
 * median, min and max are printed with the ratio of the medians.  Every
 * answer of every run is checked against the expected method (a wrong one
 * fails the bench).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include "symbolizer.h"

#define N_ENTRIES	100000
#define N_REUSED	(N_ENTRIES / 10)
#define N_FIRST		(N_ENTRIES - N_REUSED)
#define SLOT		256
#define N_LOOKUPS	1000000
#define RUNS		7

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* ------------------------------------------------- the plain structure */

struct plain_ent {
	uint64_t start, end, load_ts, unload_ts;
	uint32_t seq;
	int method;
};

struct plain {
	struct plain_ent *e;	/* by (start, seq) */
	uint64_t *pmax;		/* pmax[i]: the largest end of e[0..i] */
	size_t n, cap;
	uint32_t seq;
	uint64_t horizon;
};

static int plain_cmp(const void *a, const void *b)
{
	const struct plain_ent *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void plain__pmax(struct plain *p, size_t from)
{
	uint64_t m = from ? p->pmax[from - 1] : 0;

	for (size_t i = from; i < p->n; i++)
		p->pmax[i] = m = p->e[i].end > m ? p->e[i].end : m;
}

/* The number of entries with start <= addr. */
static size_t plain__upper(const struct plain *p, uint64_t addr)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->e[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int plain__reserve(struct plain *p, size_t n)
{
	if (n <= p->cap)
		return 0;
	p->cap = n * 2;
	p->e = realloc(p->e, p->cap * sizeof(*p->e));
	p->pmax = realloc(p->pmax, p->cap * sizeof(*p->pmax));
	return p->e && p->pmax ? 0 : -ENOMEM;
}

/* Bulk load (a perf map read): append, then one sort. */
static int plain__append(struct plain *p, uint64_t start, uint64_t end, uint64_t load, int method)
{
	if (plain__reserve(p, p->n + 1))
		return -ENOMEM;
	p->e[p->n++] = (struct plain_ent){ start, end, load, 0, p->seq++, method };
	return 0;
}

static void plain__sort(struct plain *p)
{
	qsort(p->e, p->n, sizeof(*p->e), plain_cmp);
	plain__pmax(p, 0);
}

/* One method event: insert in place. */
static int plain__add(struct plain *p, uint64_t start, uint64_t end, uint64_t load, int method)
{
	size_t at;

	if (plain__reserve(p, p->n + 1))
		return -ENOMEM;
	at = plain__upper(p, start);	/* after the versions already at start */
	memmove(&p->e[at + 1], &p->e[at], (p->n - at) * sizeof(*p->e));
	p->e[at] = (struct plain_ent){ start, end, load, 0, p->seq++, method };
	p->n++;
	plain__pmax(p, at);
	return 0;
}

static int live_better(const struct plain_ent *c, const struct plain_ent *b)
{
	uint64_t cu, bu;

	if (!b)
		return 1;
	if (c->load_ts != b->load_ts)
		return c->load_ts > b->load_ts;
	cu = c->unload_ts ? c->unload_ts : UINT64_MAX;
	bu = b->unload_ts ? b->unload_ts : UINT64_MAX;
	if (cu != bu)
		return cu < bu;
	return c->seq > b->seq;
}

static const struct plain_ent *plain__find(const struct plain *p, uint64_t addr, uint64_t ts)
{
	const struct plain_ent *live = NULL, *early = NULL, *any = NULL;

	for (size_t i = plain__upper(p, addr); i-- && p->pmax[i] > addr;) {
		const struct plain_ent *c = &p->e[i];

		if (c->end <= addr)
			continue;
		if (!any || c->seq > any->seq)
			any = c;
		if (ts == SYM_TS_NONE || (c->unload_ts && c->unload_ts <= ts))
			continue;
		if (c->load_ts <= ts) {
			if (live_better(c, live))
				live = c;
		} else if (!early || c->seq < early->seq) {
			early = c;
		}
	}
	if (ts == SYM_TS_NONE)
		return any;
	return live ? live : early ? early : any;
}

/* Mark the version at start live at ts; drop the ones the horizon passed. */
static int plain__unload(struct plain *p, uint64_t start, uint64_t ts)
{
	size_t hi = plain__upper(p, start), lo = hi, i, k;
	struct plain_ent *best = NULL, *early = NULL;

	while (lo && p->e[lo - 1].start == start)
		lo--;
	for (i = lo; i < hi; i++) {
		struct plain_ent *c = &p->e[i];

		if (c->unload_ts)
			continue;
		if (c->load_ts <= ts) {
			if (live_better(c, best))
				best = c;
		} else if (!early || c->seq < early->seq) {
			early = c;
		}
	}
	best = best ? best : early;
	if (!best)
		return -ENOENT;
	best->unload_ts = ts;
	for (i = k = lo; i < hi; i++)
		if (!p->e[i].unload_ts || p->e[i].unload_ts > p->horizon)
			p->e[k++] = p->e[i];
	if (k < hi) {
		memmove(&p->e[k], &p->e[hi], (p->n - hi) * sizeof(*p->e));
		p->n -= hi - k;
		plain__pmax(p, lo);
	}
	return 0;
}

static void plain__free(struct plain *p)
{
	free(p->e);
	free(p->pmax);
	memset(p, 0, sizeof(*p));
}

/* ------------------------------------------------------------ helpers */

static int method_of(const char *name)
{
	const char *m = name ? strstr(name, "::Method") : NULL;

	return m ? atoi(m + 8) : -1;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A row of median, min and max; returns the median. */
static double row(const char *what, double *v, const char *unit, int bad)
{
	qsort(v, RUNS, sizeof(*v), dbl_cmp);
	printf("  %-40s %9.2f %9.2f %9.2f %s%s\n", what, v[RUNS / 2], v[0], v[RUNS - 1], unit,
	       bad ? "  WRONG ANSWERS" : "");
	return v[RUNS / 2];
}

static void ratio(const char *what, double rt, double plain, int higher_better)
{
	printf("  %-40s %9.2fx\n", what, higher_better ? rt / plain : plain / rt);
}

/* ---------------------------------------------- (a) a fresh perf map */

struct probe {
	uint64_t addr, ts;
	int expect;		/* method number expected (timestamped) */
	int newest;		/* ... without a time */
};

static int write_map(const char *path, uint64_t base, int from, int to, int append)
{
	FILE *f = fopen(path, append ? "a" : "w");

	if (!f)
		return -errno;
	for (int i = from; i < to; i++) {
		/* methods >= N_FIRST reuse slot (i - N_FIRST) * 7 */
		uint64_t slot = i < N_FIRST ? (uint64_t)i : (uint64_t)(i - N_FIRST) * 7;

		fprintf(f, "%016llX %x void [Bench] Bench.Type%d::Method%d(int32,string)[OptimizedTier1]\n",
			(unsigned long long)(base + slot * SLOT), 64 + (i % 3) * 64, i / 10, i);
	}
	return fclose(f) ? -errno : 0;
}

static uint64_t method_start(uint64_t base, int i)
{
	return base + (i < N_FIRST ? (uint64_t)i : (uint64_t)(i - N_FIRST) * 7) * SLOT;
}

static char names[N_ENTRIES][64];
static const void *res[N_LOOKUPS];
#define WANT(i)	(with_ts ? pr[i].expect : pr[i].newest)

static int fresh_map(const char *path, uint64_t base, pid_t self)
{
	double v[10][RUNS];
	uint64_t t1, t2, t0;
	struct probe *pr = calloc(N_LOOKUPS, sizeof(*pr));
	int bad[10] = { 0 }, r, i, err = -1;
	struct symbolizer *s = NULL;

	if (!pr || write_map(path, base, 0, N_FIRST, 0))
		goto out;
	for (i = 0; i < N_ENTRIES; i++) {
		snprintf(names[i], sizeof(names[i]), "void [Bench] Bench.Type%d::Method%d(int32,string)",
			 i / 10, i);
	}
	/* the symbolizer reads the first batch at attach, the rest later */
	s = symbolizer__new(NULL);
	if (!s || symbolizer__add_pid(s, self) || !symbolizer__perf_map(s, self))
		goto out;
	{
		struct sym_info si;

		symbolizer__resolve(s, self, base, SYM_TS_NONE, &si);
	}
	t1 = now_ns();
	t2 = t1 + 1000000;
	if (write_map(path, base, N_FIRST, N_ENTRIES, 1) || symbolizer__refresh(s, self, t2))
		goto out;
	for (i = 0; i < N_LOOKUPS; i++) {
		uint64_t slot = next_rand() % N_FIRST;
		int reused = slot % 7 == 0 && slot / 7 < N_REUSED;
		int late = next_rand() & 1;

		pr[i].addr = base + slot * SLOT + next_rand() % 64;
		pr[i].ts = late ? t2 + 10 : t1 + 10;
		pr[i].newest = reused ? (int)(N_FIRST + slot / 7) : (int)slot;
		pr[i].expect = late ? pr[i].newest : (int)slot;
	}
	for (r = 0; r < RUNS; r++) {
		struct range_table *rt = range_table__new();
		struct plain p = { 0 };
		uint64_t t;

		if (!rt)
			goto out;
		/* build: the lines' ranges added, indexed by a first lookup */
		t0 = now_ns();
		for (i = 0; i < N_ENTRIES; i++)
			if (range_table__add(rt, method_start(base, i), 64 + (i % 3) * 64, names[i],
					     strlen(names[i]), i < N_FIRST ? t1 : t2) < 0)
				goto out;
		range_table__find(rt, base, SYM_TS_NONE);
		v[0][r] = (now_ns() - t0) / 1e6;
		t0 = now_ns();
		for (i = 0; i < N_ENTRIES; i++)
			if (plain__append(&p, method_start(base, i),
					  method_start(base, i) + 64 + (i % 3) * 64,
					  i < N_FIRST ? t1 : t2, i))
				goto out;
		plain__sort(&p);
		v[1][r] = (now_ns() - t0) / 1e6;

		/* lookups, without and with times: table, plain, symbolizer */
		for (int with_ts = 0; with_ts < 2; with_ts++) {
			/* answers are kept and checked outside the timed loops */
			t0 = now_ns();
			for (i = 0; i < N_LOOKUPS; i++)
				res[i] = range_table__find(rt, pr[i].addr,
							   with_ts ? pr[i].ts : SYM_TS_NONE);
			t = now_ns() - t0;
			v[2 + with_ts * 3][r] = N_LOOKUPS / (t / 1e3);
			for (i = 0; i < N_LOOKUPS; i++) {
				const struct range_entry *e = res[i];

				if (method_of(e ? e->name : NULL) != WANT(i))
					bad[2 + with_ts * 3]++;
			}
			t0 = now_ns();
			for (i = 0; i < N_LOOKUPS; i++)
				res[i] = plain__find(&p, pr[i].addr, with_ts ? pr[i].ts : SYM_TS_NONE);
			t = now_ns() - t0;
			v[3 + with_ts * 3][r] = N_LOOKUPS / (t / 1e3);
			for (i = 0; i < N_LOOKUPS; i++) {
				const struct plain_ent *e = res[i];

				if (!e || e->method != WANT(i))
					bad[3 + with_ts * 3]++;
			}
			t0 = now_ns();
			for (i = 0; i < N_LOOKUPS; i++) {
				struct sym_info si;

				res[i] = symbolizer__resolve(s, self, pr[i].addr,
							     with_ts ? pr[i].ts : SYM_TS_NONE, &si) ?
					 NULL : si.name;
			}
			t = now_ns() - t0;
			v[4 + with_ts * 3][r] = N_LOOKUPS / (t / 1e3);
			for (i = 0; i < N_LOOKUPS; i++)
				if (method_of(res[i]) != WANT(i))
					bad[4 + with_ts * 3]++;
		}
		range_table__free(rt);
		plain__free(&p);
	}
	printf("(a) fresh perf map, %d lines (%d%% reused ranges), %d runs\n"
	       "  %-40s %9s %9s %9s\n", N_ENTRIES, N_REUSED * 100 / N_ENTRIES, RUNS,
	       "", "median", "min", "max");
	{
		double bt = row("build, range table", v[0], "ms", 0);
		double bp = row("build, plain", v[1], "ms", 0);
		double lt = row("lookup no time, range table", v[2], "M/s", bad[2]);
		double lp = row("lookup no time, plain", v[3], "M/s", bad[3]);
		double tt, tp;

		row("lookup no time, symbolizer__resolve", v[4], "M/s", bad[4]);
		tt = row("lookup at a time, range table", v[5], "M/s", bad[5]);
		tp = row("lookup at a time, plain", v[6], "M/s", bad[6]);
		row("lookup at a time, symbolizer__resolve", v[7], "M/s", bad[7]);
		ratio("range table / plain, build", bt, bp, 0);
		ratio("range table / plain, lookup no time", lt, lp, 1);
		ratio("range table / plain, lookup at a time", tt, tp, 1);
	}
	err = 0;
	for (i = 0; i < 10; i++)
		if (bad[i])
			err = -1;
out:
	symbolizer__free(s);
	free(pr);
	return err;
}

/* ------------------------------------------------------ (b) JIT churn */

#define CHURN_STABLE	20000
#define CHURN_SLOTS	64
#define CHURN_METHODS	30000
#define CHURN_LOOKUPS	20
#define CHURN_LAG	100	/* steps the horizon trails the newest event */

struct churn_op {
	uint64_t addr;
	int slot;		/* -1: a stable method */
};

/* One pass; *upd_ns and *look_ns get the time in updates and lookups. */
static int churn(int plain_side, const struct churn_op *ops, uint64_t *upd_ns, uint64_t *look_ns,
		 int *bad)
{
	const uint64_t stable = 0x7e0000000000ULL, slots = 0x7f0000000000ULL;
	struct range_table *rt = plain_side ? NULL : range_table__new();
	struct plain p = { 0 };
	int live[CHURN_SLOTS], i, j;
	const void *got[CHURN_LOOKUPS];
	uint64_t t0;
	char name[32];

	if (!plain_side && !rt)
		return -ENOMEM;
	*upd_ns = *look_ns = 0;
	t0 = now_ns();
	for (i = 0; i < CHURN_STABLE; i++) {
		uint64_t st = stable + (uint64_t)i * 512;
		int len = snprintf(name, sizeof(name), "::Method%d", i);

		if (plain_side)
			plain__add(&p, st, st + 256 + (i % 3) * 64, 10, i);
		else
			range_table__add(rt, st, 256 + (i % 3) * 64, name, (size_t)len, 10);
	}
	*upd_ns += now_ns() - t0;
	for (i = 0; i < CHURN_METHODS; i++) {
		int slot = i % CHURN_SLOTS, m = CHURN_STABLE + i;
		uint64_t now = (uint64_t)i * 10 + 1000, st = slots + (uint64_t)slot * 4096;
		uint64_t size = 256 + (i % 7) * 128;
		int len = snprintf(name, sizeof(name), "::Method%d", m);

		t0 = now_ns();
		if (i >= CHURN_SLOTS) {
			if (plain_side)
				plain__unload(&p, st, now - 5);
			else
				range_table__unload(rt, st, now - 5);
		}
		if (plain_side)
			plain__add(&p, st, st + size, now, m);
		else
			range_table__add(rt, st, size, name, (size_t)len, now);
		live[slot] = m;
		if (i > CHURN_LAG) {
			if (plain_side)
				p.horizon = now - CHURN_LAG * 10;
			else
				range_table__set_horizon(rt, now - CHURN_LAG * 10);
		}
		*upd_ns += now_ns() - t0;
		t0 = now_ns();
		for (j = 0; j < CHURN_LOOKUPS; j++) {
			const struct churn_op *o = &ops[((size_t)i * CHURN_LOOKUPS + j)];
			uint64_t a = o->slot < 0 ? o->addr : slots + (uint64_t)o->slot * 4096 + o->addr;

			got[j] = plain_side ? (const void *)plain__find(&p, a, now + 1) :
					      (const void *)range_table__find(rt, a, now + 1);
		}
		*look_ns += now_ns() - t0;
		/* checked outside the timed loop */
		for (j = 0; j < CHURN_LOOKUPS; j++) {
			const struct churn_op *o = &ops[((size_t)i * CHURN_LOOKUPS + j)];
			int want = o->slot < 0 ? (int)((o->addr - stable) / 512) :
				   o->slot > i ? -1 : live[o->slot];
			const struct plain_ent *pe = got[j];
			const struct range_entry *re = got[j];
			int m = plain_side ? (pe ? pe->method : -1) : method_of(re ? re->name : NULL);

			if (m != want)
				(*bad)++;
		}
	}
	range_table__free(rt);
	plain__free(&p);
	return 0;
}

static int jit_churn(void)
{
	size_t n_ops = (size_t)CHURN_METHODS * CHURN_LOOKUPS;
	struct churn_op *ops = calloc(n_ops, sizeof(*ops));
	double v[6][RUNS];
	int bad[2] = { 0 }, r;

	if (!ops)
		return -ENOMEM;
	for (size_t k = 0; k < n_ops; k++) {
		if (next_rand() % 4) {
			ops[k].slot = -1;
			ops[k].addr = 0x7e0000000000ULL + (next_rand() % CHURN_STABLE) * 512 +
				      next_rand() % 256;
		} else {
			ops[k].slot = (int)(next_rand() % CHURN_SLOTS);
			ops[k].addr = next_rand() % 256;
		}
	}
	for (r = 0; r < RUNS; r++) {
		for (int side = 0; side < 2; side++) {
			uint64_t upd, look;

			if (churn(side, ops, &upd, &look, &bad[side])) {
				free(ops);
				return -ENOMEM;
			}
			v[side * 3][r] = (CHURN_STABLE + 2.0 * CHURN_METHODS) / (upd / 1e3);
			v[side * 3 + 1][r] = (double)n_ops / (look / 1e3);
			v[side * 3 + 2][r] = (upd + look) / 1e6;
		}
	}
	free(ops);
	printf("\n(b) JIT churn: %d stable methods, %d more through %d reused slots,\n"
	       "    %d lookups at the current time per load, %d runs\n"
	       "  %-40s %9s %9s %9s\n", CHURN_STABLE, CHURN_METHODS, CHURN_SLOTS, CHURN_LOOKUPS,
	       RUNS, "", "median", "min", "max");
	{
		double ut = row("updates, range table", v[0], "M/s", 0);
		double lt = row("lookups, range table", v[1], "M/s", bad[0]);
		double tt = row("total, range table", v[2], "ms", bad[0]);
		double up = row("updates, plain", v[3], "M/s", 0);
		double lp = row("lookups, plain", v[4], "M/s", bad[1]);
		double tp = row("total, plain", v[5], "ms", bad[1]);

		ratio("range table / plain, updates", ut, up, 1);
		ratio("range table / plain, lookups", lt, lp, 1);
		ratio("range table / plain, total", tt, tp, 0);
	}
	return bad[0] || bad[1] ? -1 : 0;
}

int main(void)
{
	size_t region = (size_t)N_ENTRIES * SLOT;
	char path[64];
	void *code;
	int err;

	/* the bench is its own target: an r-x region the perf map names */
	code = mmap(NULL, region, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		    -1, 0);
	if (code == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	printf("bench_symbolizer: range table vs a reference plain sorted search (rates in M/s: millions\n"
	       "of lookups or updates per second; times in ms)\n\n");
	err = fresh_map(path, (uint64_t)(uintptr_t)code, getpid());
	unlink(path);
	munmap(code, region);
	if (!err)
		err = jit_churn();
	if (err)
		fprintf(stderr, "bench_symbolizer: failed (wrong answers or no memory)\n");
	return err ? 1 : 0;
}
