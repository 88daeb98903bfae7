// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * reorder.c - timestamp reorder buffer for nearly-sorted input.
 *
 * Ring-buffer records are already in timestamp order except for a few that
 * a preempted producer committed late, so a binary heap (an earlier
 * version: half the collector's CPU time went to its pointer-chasing
 * sifts) is the wrong shape.  Entries {ts, seq, record} sit in a circular
 * array kept sorted by insertion from the tail: appending is O(1), a late
 * record moves back past the few newer ones.  Popping takes from the head.
 *
 * Record bytes are copied into 1 MiB chunks, allocated sequentially; a
 * chunk is recycled when its last record has been popped (records leave in
 * almost the order they came), so steady state does no malloc and touches
 * no fresh pages.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "reorder.h"

#define CHUNK_BYTES	(1U << 20)
/* kept for reuse: a 100 ms window at 8 M events/s spans ~120 chunks, all
 * popped at once after a poll; freeing them would fault them in again */
#define MAX_FREE_CHUNKS	128

struct chunk {
	struct chunk *next;	/* free list */
	size_t size, used, live;
	uint64_t data[];	/* 8-byte aligned records */
};

struct entry {
	uint64_t ts;
	uint64_t seq;
	struct chunk *ch;
	const void *rec;
	size_t len;
};

struct reorder {
	struct entry *q;	/* circular, sorted by (ts, seq) from head */
	size_t cap, head, n, bytes;
	struct chunk *cur, *free;
	int nr_free;
	uint64_t seq, last_emitted, late;
	bool in_run, run_sorted;
	size_t run_start;		/* entries before it were sorted when the run began */
	uint64_t run_last;
};

static struct entry *at(const struct reorder *r, size_t i)
{
	return &r->q[(r->head + i) & (r->cap - 1)];
}

static int before(const struct entry *a, const struct entry *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

struct reorder *reorder__new(void)
{
	return calloc(1, sizeof(struct reorder));
}

static void chunk_release(struct reorder *r, struct chunk *ch)
{
	if (ch == r->cur)
		return;
	if (r->nr_free < MAX_FREE_CHUNKS && ch->size == CHUNK_BYTES) {
		ch->next = r->free;
		r->free = ch;
		r->nr_free++;
	} else {
		free(ch);
	}
}

void reorder__free(struct reorder *r)
{
	struct chunk *ch, *next;
	size_t i;

	if (!r)
		return;
	/* every chunk with live records is referenced by some entry */
	for (i = 0; i < r->n; i++) {
		ch = at(r, i)->ch;
		if (ch != r->cur && --ch->live == 0)
			free(ch);
	}
	free(r->cur);
	for (ch = r->free; ch; ch = next) {
		next = ch->next;
		free(ch);
	}
	free(r->q);
	free(r);
}

static void *alloc_rec(struct reorder *r, size_t len, struct chunk **out)
{
	size_t need = (len + 7) & ~(size_t)7;
	struct chunk *ch = r->cur;
	void *p;

	if (!ch || ch->size - ch->used < need) {
		if (ch && ch->live == 0 && ch->size >= need) {
			ch->used = 0;	/* empty already: reuse in place */
		} else {
			if (ch)
				r->cur = NULL;	/* retired: freed when its last record pops */
			if (need <= CHUNK_BYTES && r->free) {
				ch = r->free;
				r->free = ch->next;
				r->nr_free--;
			} else {
				size_t size = need > CHUNK_BYTES ? need : CHUNK_BYTES;

				ch = malloc(sizeof(*ch) + size);
				if (!ch)
					return NULL;
				ch->size = size;
			}
			ch->used = 0;
			ch->live = 0;
			r->cur = ch;
		}
	}
	p = (uint8_t *)ch->data + ch->used;
	ch->used += need;
	ch->live++;
	*out = ch;
	return p;
}

static int grow(struct reorder *r)
{
	size_t cap = r->cap ? r->cap * 2 : 4096, i;
	struct entry *q = malloc(cap * sizeof(*q));

	if (!q)
		return -ENOMEM;
	for (i = 0; i < r->n; i++)
		q[i] = *at(r, i);
	free(r->q);
	r->q = q;
	r->cap = cap;
	r->head = 0;
	return 0;
}

void *reorder__alloc(struct reorder *r, uint64_t ts, size_t len)
{
	struct entry e = { .ts = ts, .seq = r->seq++, .len = len };
	size_t i;

	if (r->n == r->cap && grow(r))
		return NULL;
	e.rec = alloc_rec(r, len, &e.ch);
	if (!e.rec)
		return NULL;
	if (ts < r->last_emitted)
		r->late++;
	r->bytes += len;
	i = r->n++;
	if (r->in_run) {	/* merged at reorder__run_end */
		r->run_sorted &= ts >= r->run_last;
		r->run_last = ts;
		*at(r, i) = e;
		return (void *)e.rec;
	}
	/* insertion from the tail: usually no move at all */
	while (i > 0 && before(&e, at(r, i - 1))) {
		*at(r, i) = *at(r, i - 1);
		i--;
	}
	*at(r, i) = e;
	return (void *)e.rec;
}

int reorder__push(struct reorder *r, uint64_t ts, const void *rec, size_t len)
{
	void *copy = reorder__alloc(r, ts, len);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, rec, len);
	return 0;
}

void reorder__run_begin(struct reorder *r)
{
	r->in_run = true;
	r->run_sorted = true;
	r->run_start = r->n;
	r->run_last = 0;
}

/* Sort the run by insertion (it was not in order: never seen from one
 * thread's clock, kept for safety). */
static void insert_each(struct reorder *r, size_t from)
{
	size_t k;

	for (k = from; k < r->n; k++) {
		struct entry e = *at(r, k);
		size_t i = k;

		while (i > 0 && before(&e, at(r, i - 1))) {
			*at(r, i) = *at(r, i - 1);
			i--;
		}
		*at(r, i) = e;
	}
}

/* First index in [0, end) whose entry sorts after e. */
static size_t upper_bound(const struct reorder *r, size_t end, const struct entry *e)
{
	size_t lo = 0, hi = end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (before(e, at(r, mid)))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static int entry_cmp(const void *a, const void *b)
{
	return before(a, b) ? -1 : before(b, a);
}

/* The run is copied out, sorted unless it came in order (a batched run, one
 * thread's clock), and merged from the back with what was there: an
 * EventPipe block holds its threads' events one thread after another, so
 * its runs are out of order and older than the ring's newest records. */
void reorder__run_end(struct reorder *r)
{
	size_t m = r->n - r->run_start, p, i, j, k;
	struct entry *run;

	r->in_run = false;
	if (!m)
		return;
	if (r->run_sorted) {
		p = upper_bound(r, r->run_start, at(r, r->run_start));
		if (p == r->run_start)
			return;	/* the run comes after everything: in place already */
	}
	run = malloc(m * sizeof(*run));
	if (!run) {
		insert_each(r, r->run_start);
		return;
	}
	for (j = 0; j < m; j++)
		run[j] = *at(r, r->run_start + j);
	if (!r->run_sorted)
		qsort(run, m, sizeof(*run), entry_cmp);
	p = upper_bound(r, r->run_start, &run[0]);
	/* merge from the back: [p, run_start) and the run into [p, n) */
	i = r->run_start;
	j = m;
	k = r->n;
	while (j > 0) {
		if (i > p && before(&run[j - 1], at(r, i - 1)))
			*at(r, --k) = *at(r, --i);
		else
			*at(r, --k) = run[--j];
	}
	free(run);
}

int reorder__pop_before(struct reorder *r, uint64_t cutoff, reorder_fn fn, void *ctx)
{
	int ret = 0;

	while (r->n && r->q[r->head].ts < cutoff && !ret) {
		struct entry e = r->q[r->head];

		r->head = (r->head + 1) & (r->cap - 1);
		r->n--;
		r->bytes -= e.len;
		if (e.ts > r->last_emitted)
			r->last_emitted = e.ts;
		ret = fn(ctx, e.rec, e.len);
		if (--e.ch->live == 0)
			chunk_release(r, e.ch);
	}
	return ret;
}

size_t reorder__count(const struct reorder *r)
{
	return r->n;
}

size_t reorder__bytes(const struct reorder *r)
{
	return r->bytes;
}

uint64_t reorder__late(const struct reorder *r)
{
	return r->late;
}
