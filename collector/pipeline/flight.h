/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * flight.h - the flight recorder's window: the records that left the reorder
 * buffer (so in timestamp order) during the last N seconds, kept in bounded
 * memory until a dump replays them into a file.
 *
 * Records are stored whole, as the ring buffer delivered them, in chunks of
 * FLIGHT_CHUNK bytes; the oldest records go as they fall out of the window
 * (older than the newest timestamp minus the window) or when the bytes
 * would pass the size bound.  Memory is the window's bytes plus at most two
 * chunks, and chunks are reused, so a steady event rate keeps a steady size.
 */
#ifndef EBPF_COLLECT_FLIGHT_H
#define EBPF_COLLECT_FLIGHT_H

#include <stddef.h>
#include <stdint.h>

#define FLIGHT_CHUNK	(1u << 20)

struct flight;

/* window_ns: how far back a dump reaches (0: size only); max_bytes: bound on
 * the records kept (0: none).  NULL + errno. */
struct flight *flight__new(uint64_t window_ns, uint64_t max_bytes);
void flight__free(struct flight *f);

/* Keep one record (ts = its timestamp, never older than the previous one's).
 * 0 or -ENOMEM. */
int flight__push(struct flight *f, uint64_t ts, const void *rec, size_t len);

typedef int (*flight_fn)(void *ctx, const void *rec, size_t len);

/* Call fn for every record kept with from <= ts <= to, oldest first; stops
 * at fn's first non-zero return and returns it. */
int flight__replay(const struct flight *f, uint64_t from, uint64_t to, flight_fn fn, void *ctx);

struct flight_stats {
	uint64_t records, bytes;	/* kept now */
	uint64_t oldest_ts, newest_ts;	/* of the records kept (0: none) */
	uint64_t evicted_early;		/* records the size bound dropped inside the window */
	uint64_t chunks;		/* allocated, in use or spare */
};
void flight__stats(const struct flight *f, struct flight_stats *st);

#endif
