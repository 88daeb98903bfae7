// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * flight.c - the flight recorder's window (flight.h): a FIFO of records in
 * fixed-size chunks.  Each record is stored as [u32 length][u32 pad][u64
 * timestamp][bytes, padded to 8]; a record never spans two chunks.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "flight.h"

#define ENTRY_HDR	16

struct chunk {
	struct chunk *next;
	size_t head;		/* first byte still kept */
	size_t tail;		/* end of the last record */
	uint8_t data[];
};

struct flight {
	uint64_t window_ns, max_bytes;
	struct chunk *first, *last;
	struct chunk *spare;	/* one emptied chunk, kept for reuse */
	uint64_t records, bytes, newest_ts, evicted_early;
	uint64_t chunks;
};

static size_t entry_size(size_t len)
{
	return ENTRY_HDR + ((len + 7) & ~(size_t)7);
}

struct flight *flight__new(uint64_t window_ns, uint64_t max_bytes)
{
	struct flight *f = calloc(1, sizeof(*f));

	if (!f) {
		errno = ENOMEM;
		return NULL;
	}
	f->window_ns = window_ns;
	f->max_bytes = max_bytes;
	return f;
}

void flight__free(struct flight *f)
{
	struct chunk *c, *n;

	if (!f)
		return;
	for (c = f->first; c; c = n) {
		n = c->next;
		free(c);
	}
	free(f->spare);
	free(f);
}

/* The oldest record's timestamp and size, or false when none is kept. */
static bool oldest(const struct flight *f, uint64_t *ts, size_t *esz)
{
	const struct chunk *c = f->first;
	uint32_t len;

	if (!c || c->head == c->tail)
		return false;
	memcpy(&len, c->data + c->head, 4);
	memcpy(ts, c->data + c->head + 8, 8);
	*esz = entry_size(len);
	return true;
}

static void drop_oldest(struct flight *f, size_t esz)
{
	struct chunk *c = f->first;

	c->head += esz;
	f->records--;
	f->bytes -= esz;
	if (c->head < c->tail || c == f->last)
		return;
	f->first = c->next;
	if (f->spare) {
		free(c);
		f->chunks--;
	} else {
		f->spare = c;
	}
}

/* Drop what fell out of the window, and what the size bound cannot keep. */
static void trim(struct flight *f, size_t incoming)
{
	uint64_t ts;
	size_t esz;

	while (oldest(f, &ts, &esz)) {
		bool old = f->window_ns && ts + f->window_ns < f->newest_ts;
		bool full = f->max_bytes && f->bytes + incoming > f->max_bytes;

		if (!old && !full)
			break;
		if (!old)
			f->evicted_early++;
		drop_oldest(f, esz);
	}
}

static struct chunk *new_chunk(struct flight *f)
{
	struct chunk *c = f->spare;

	if (c)
		f->spare = NULL;
	else if ((c = malloc(sizeof(*c) + FLIGHT_CHUNK)) != NULL)
		f->chunks++;
	if (!c)
		return NULL;
	c->next = NULL;
	c->head = c->tail = 0;
	if (f->last)
		f->last->next = c;
	else
		f->first = c;
	f->last = c;
	return c;
}

int flight__push(struct flight *f, uint64_t ts, const void *rec, size_t len)
{
	size_t esz = entry_size(len);
	uint32_t l32 = (uint32_t)len;
	struct chunk *c;

	if (esz > FLIGHT_CHUNK)
		return -E2BIG;
	if (ts > f->newest_ts)
		f->newest_ts = ts;
	trim(f, esz);
	c = f->last;
	if (c && c->head == c->tail)
		c->head = c->tail = 0;	/* emptied (it is also the first): start over */
	if (!c || c->tail + esz > FLIGHT_CHUNK) {
		c = new_chunk(f);
		if (!c)
			return -ENOMEM;
	}
	memcpy(c->data + c->tail, &l32, 4);
	memset(c->data + c->tail + 4, 0, 4);
	memcpy(c->data + c->tail + 8, &ts, 8);
	memcpy(c->data + c->tail + ENTRY_HDR, rec, len);
	c->tail += esz;
	f->records++;
	f->bytes += esz;
	return 0;
}

int flight__replay(const struct flight *f, uint64_t from, uint64_t to, flight_fn fn, void *ctx)
{
	const struct chunk *c;

	for (c = f->first; c; c = c->next) {
		size_t off = c->head;

		while (off < c->tail) {
			uint32_t len;
			uint64_t ts;
			int err;

			memcpy(&len, c->data + off, 4);
			memcpy(&ts, c->data + off + 8, 8);
			if (ts > to)
				return 0;
			if (ts >= from && (err = fn(ctx, c->data + off + ENTRY_HDR, len)))
				return err;
			off += entry_size(len);
		}
	}
	return 0;
}

void flight__stats(const struct flight *f, struct flight_stats *st)
{
	size_t esz;

	memset(st, 0, sizeof(*st));
	st->records = f->records;
	st->bytes = f->bytes;
	st->evicted_early = f->evicted_early;
	st->chunks = f->chunks;
	if (oldest(f, &st->oldest_ts, &esz))
		st->newest_ts = f->newest_ts;
}
