/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * pipeline.h - what every record passes, and the one interface between it,
 * the sources that hand records in and the consumers they go out to.
 *
 * In.  The BPF programs write records into one ring buffer (ring.c reads
 * it in rounds); a source in user space (EventPipe) pushes its records
 * into the reorder window (p->ro) itself.  Every record starts with struct
 * ce_header (bpf/collector_event.h) and is known by its type.  A source
 * registers a struct pipeline_source_ops for the types it makes:
 *
 *   arrive  a record as it leaves the ring, turned into the records it
 *           stands for before the window (a batched run into its events);
 *           without it the record is held in the window as it is;
 *   emit    one record, in time order, written into the trace;
 *   poll    what must be read beside each round of the ring because the
 *           records leaving the window need it (the mappings the kernel
 *           made, for frame names);
 *   event   one record read as a runtime event of the pipeline's event
 *           table (struct pipeline_event), whichever way it came: a USDT
 *           probe's record and an EventPipe event of the same provider, id
 *           and version are the same event with the same payload layout.
 *
 * Types are looked up apart for arrive and for emit: CE_REC_CLR_BATCH and
 * CE_REC_EVENTPIPE share a number (a run never reaches the window, an
 * EventPipe event never comes through the ring).  A record no source
 * emits is counted malformed.
 *
 * Out.  Records leave the window in time order, first to the registered
 * consumers (struct pipeline_consumer_ops: --metrics and --clickhouse see
 * every record, and every runtime event decoded once by its source's
 * event), then to the recorder (recorder.h: --filter, the triggers,
 * the flight recorder, the files), which writes each through the emit of
 * its type (pipeline__emit).  The pipeline includes no source's or
 * consumer's header: they include this one.
 */
#ifndef EBPF_COLLECT_PIPELINE_H
#define EBPF_COLLECT_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "recorder.h"
#include "u64_map.h"

struct ring_buffer;
struct reorder;
struct nt_writer;
struct loss_summary;
struct symbolize;
struct ect_table;
struct ect_event;
struct ce_header;
struct pipeline;

#define PIPELINE_MAX_SOURCES	8
#define PIPELINE_MAX_CONSUMERS	4
/* Record types a source may take: CE_REC_* below CE_REC_KERNEL_LAST + 1 */
#define PIPELINE_TYPES		64
/* One round of the ring buffer reads at most this much before the reorder
 * buffer gives up what is old enough: producers that outpace the collector
 * would otherwise keep a round going, and every record of it in memory. */
#define RB_ROUND_BYTES		(8U << 20)
/* Losses no thread can be blamed for are a sequence gap of this capture
 * thread (tid 0 is never a user thread). */
#define LOSS_CAPTURE_THREAD	0

/* Where an emitter writes one record, and how it names its frames. */
struct pipeline_sink {
	struct nt_writer *w;
	struct symbolize *sym;		/* frame names; NULL with --no-symbols */
	/* flight recorder: the runtime's method events went to the symbolizer
	 * when they arrived (recorder.c), a stack needs its names only */
	bool learnt;
	/* the record went into an earlier dump: write it again, count it once */
	bool again;
	uint64_t *bad_records;		/* a malformed record: one more here */
};

/*
 * A runtime event as its source reads it, the same for every source: the
 * event table's entry names it (provider, symbol, id, version) and lays out
 * its payload.  An event of a version newer than the table's (.NET 8's
 * ContentionStart_V2 against a manifest with ContentionStart_V1) is read as
 * the newest version the table has of the same provider and id: the
 * runtime's later versions only append fields, so the earlier layout reads
 * its payload's start.
 */
struct pipeline_event {
	const struct ce_header *hdr;	/* pid and tid (the host's), timestamp */
	const struct ect_event *ev;	/* its entry in the pipeline's table */
	uint32_t idx;			/* ... at this index */
	uint8_t version;		/* the version the runtime sent */
	const void *payload;
	uint32_t payload_len;
};

/*
 * A source's part.  emit keeps the one contract of every emitter: 1 when
 * the record became an event of the trace, 0 when it did not (malformed,
 * filtered or a loss note; counted where that was decided), -errno when the
 * file could not be written.  arrive: 0 or -errno.  poll: 0, 1 when the
 * source waits for work of its own that is under way and wants the next
 * poll soon (the main loop then waits PIPELINE_POLL_SOON_MS for records,
 * not its usual 100 ms), or -errno.
 */
#define PIPELINE_POLL_SOON_MS	10

struct pipeline_source_ops {
	uint32_t first_type, last_type;	/* CE_REC_* it arrives or emits as */
	int (*arrive)(void *ctx, struct pipeline *p, const void *rec, size_t len);
	int (*emit)(void *ctx, const struct pipeline_sink *s, const void *rec, size_t len);
	int (*poll)(void *ctx, struct pipeline *p);
	/* 1 and *out when rec is an event of table t, else 0 */
	int (*event)(void *ctx, const struct ect_table *t, const void *rec, size_t len,
		     struct pipeline_event *out);
};

/* A consumer of the ordered records beside the recorder. */
struct pipeline_consumer_ops {
	/* every record as it leaves the window, before --filter */
	void (*record)(void *ctx, const void *rec, size_t len);
	/* every record that is a runtime event, read by its source's event,
	 * right after record */
	void (*event)(void *ctx, const struct pipeline_event *ev);
	/* every poll of the main loop */
	void (*tick)(void *ctx, uint64_t now);
};

/* What the session does for the pipeline. */
struct pipeline_hooks {
	void *ctx;
	/* the first event went into a file still under its temporary name
	 * (w_tmp): it takes its name.  0 or -errno. */
	int (*publish)(void *ctx);
	/* every loss counter of the run so far, as the LossSummary event has
	 * them (a rotated file gets its share) */
	void (*losses)(void *ctx, struct loss_summary *loss);
	/* --all: an Exec event as it leaves the ring, before the window */
	void (*exec)(void *ctx, pid_t pid);
	/* A V6 trace: whether pid was selected (a target, or chosen by
	 * --comm/--cgroup/--container), for its ProcessInfo event
	 * (own_events.h); NULL: no ProcessInfo events (V5: one process). */
	bool (*selected)(void *ctx, pid_t pid);
};

struct pipeline_source {
	const struct pipeline_source_ops *ops;
	void *ctx;
};

struct pipeline_consumer {
	const struct pipeline_consumer_ops *ops;
	void *ctx;
};

struct pipeline {
	/* in: the ring, read in rounds (ring.c), and the window */
	struct ring_buffer *rb;
	size_t rb_round_bytes;		/* read in this round of the ring */
	bool rb_behind;			/* the round ended at RB_ROUND_BYTES */
	uint64_t rb_rounds_cut;		/* rounds that did */
	uint64_t rb_newest_ts;		/* newest record time read from the ring */
	/* --bench-count-only: records read are counted and dropped, nothing
	 * is taken apart, ordered or written: the ring's drain alone */
	bool count_only;
	uint64_t counted_records, counted_events;
	int fatal;			/* -errno from a callback */
	struct reorder *ro;
	struct pipeline_source src[PIPELINE_MAX_SOURCES];
	int nr_src;
	/* by record type, 1 + the index in src of the source that takes it
	 * as it arrives and as it is written (0: none), so that a record
	 * finds its source in one load */
	uint8_t arrive_src[PIPELINE_TYPES], emit_src[PIPELINE_TYPES];
	/* out */
	struct pipeline_consumer cons[PIPELINE_MAX_CONSUMERS];
	int nr_cons;
	struct recorder rec;		/* files, flight recorder, triggers */
	struct nt_writer *w;
	bool w_tmp;			/* w is still under its temporary name */
	struct symbolize *sym;		/* frame names; NULL with --no-symbols */
	const struct ect_table *table;	/* the runtime's events (triggers, consumers) */
	uint64_t records, bad_records, first_ts, last_ts;
	struct pipeline_hooks hooks;
	struct u64_map described;	/* pids with a ProcessInfo in this file */
	uint32_t info_meta;		/* ProcessInfo's metadata id; 0: not defined */
};

/* Register a source or a consumer (before the first record).  0, or, with
 * one line naming it (name: "--kernel", "--metrics") and the cause,
 * -ENOSPC past PIPELINE_MAX_SOURCES or PIPELINE_MAX_CONSUMERS, -EINVAL for
 * a source of types beyond PIPELINE_TYPES; nothing is registered then.  A
 * caller fails the session's start: what is not registered loses its
 * records.  The first source registered for a type takes it. */
int pipeline__add_source(struct pipeline *p, const struct pipeline_source_ops *ops, void *ctx,
			 const char *name);
int pipeline__add_consumer(struct pipeline *p, const struct pipeline_consumer_ops *ops,
			   void *ctx, const char *name);
/* The consumer with this ctx sees no more records (before it is freed). */
void pipeline__remove_consumer(struct pipeline *p, void *ctx);

/* ring.c: the BPF ring buffer (map_fd) as the pipeline's input.  0 or -errno. */
int pipeline__open_ring(struct pipeline *p, int map_fd);
/* One round of the ring: wait up to timeout_ms, read until it is empty or
 * RB_ROUND_BYTES were read (p->rb_behind).  0 or -errno. */
int ring_round(struct pipeline *p, int timeout_ms);
/* What the window may give up at now: records older than window before
 * now, or before the newest record read while the ring holds more. */
uint64_t ring_pop_cutoff(const struct pipeline *p, uint64_t now, uint64_t window);

/* The sources' poll beside a round of the ring.  0, 1 when one of them
 * wants the next poll soon, or -errno. */
int pipeline__poll_sources(struct pipeline *p);
/* Every record older than cutoff out of the window, to the consumers and
 * the recorder.  0 or -errno. */
int pipeline__pop(struct pipeline *p, uint64_t cutoff);
/* A round of the ring and of the sources' poll, then what is older than
 * window out of the window (UINT64_MAX: nothing).  0 or -errno. */
int pipeline__step(struct pipeline *p, int timeout_ms, uint64_t window);
/* Every poll: the consumers' tick, then the recorder's (--rotate, SIGUSR1).
 * 0 or -errno. */
int pipeline__tick(struct pipeline *p, uint64_t now, uint64_t watermark);

/* dispatch.c: the source registered for records of type as they arrive
 * from the ring (arriving) or as they are written; NULL: none. */
const struct pipeline_source *pipeline__source(const struct pipeline *p, uint32_t type,
					       bool arriving);
/* rec as a runtime event of the pipeline's table, through the event of
 * the source that emits its type: 1 and *out, or 0. */
int pipeline__event(const struct pipeline *p, const void *rec, size_t len,
		    struct pipeline_event *out);
/* Write one record through the emit of its type, and count it (the
 * recorder's last step, and a dump's replay).  0 or -errno. */
int pipeline__emit(struct pipeline *p, const void *rec, size_t len);

#endif
