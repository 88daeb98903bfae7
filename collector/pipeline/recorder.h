/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * recorder.h - where records go once they leave the reorder buffer: straight
 * into the file, into the flight recorder's window (--flight-recorder,
 * --dump-on), through the --filter predicates, past the --dump-on and
 * --stop-on triggers; and when a file ends and the next begins (--rotate,
 * dumps).  Owns the collector's struct recorder state.
 */
#ifndef EBPF_COLLECT_RECORDER_H
#define EBPF_COLLECT_RECORDER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "nettrace.h"
#include "own_events.h"
#include "series.h"
#include "trigger.h"

struct collector;
struct flight;

/* A loss noted while in flight-recorder mode, kept in the window in time
 * order like any record (collector-internal type, never from BPF). */
#define CE_REC_LOSS_NOTE	200

struct recorder {
	bool series;			/* numbered files: --rotate or flight recorder */
	struct series files;		/* rotated files, the exit dump */
	struct series incidents;	/* SIGUSR1, --dump-on: STEM.dump-N (flight recorder) */
	struct flight *fr;		/* NULL unless --flight-recorder / --dump-on */
	struct trigger dump_on[8], stop_on[8], filter[8];
	int nr_dump_on, nr_stop_on, nr_filter;
	uint64_t last_trigger_dump;	/* ts of the last --dump-on dump */
	uint64_t triggers_held;		/* matches within a second of that dump */
	uint64_t stop_ts;		/* --stop-on matched here (0: not) */
	uint64_t last_pushed;		/* newest timestamp in the window */
	uint64_t file_start;		/* CLOCK_MONOTONIC when this file began */
	uint64_t file_records;		/* events in this file */
	uint64_t file_lost;		/* losses replayed into this dump */
	uint64_t file_first;		/* timestamp of this dump's first record (0: none) */
	bool again;			/* the record being replayed went into an earlier dump */
	uint64_t counted_to;		/* newest record written into a dump so far */
	uint64_t again_to;		/* counted_to when this dump began */
	struct loss_summary base;	/* totals when this file began (--rotate) */
	uint64_t filtered;		/* events --filter dropped in user space */
	uint64_t seen;			/* records into the window */
	uint64_t dumps;
	uint64_t dumps_failed;		/* not written (the file removed): exit status 1 */
	uint64_t rot_end;		/* flight recorder + --rotate: last file's end */
	char path[4096];		/* the current file */
};

/* SIGUSR1: write the flight-recorder window. */
extern volatile sig_atomic_t dump_requested;

/* Parse the triggers against the event table, set up the window and the
 * file names.  EXIT_OK or an exit code (a message printed). */
int recorder__init(struct collector *c);
void recorder__free(struct collector *c);

/* The path of the first file (-o, or its first numbered name): NULL + a
 * message on failure.  In flight-recorder mode no file is open until a dump. */
const char *recorder__first_path(struct collector *c);
bool recorder__writes_live(const struct collector *c);

/* --filter predicates the BPF program can evaluate (field at a fixed
 * offset): before the load (loaded false) how many there are; after it,
 * into map.  Count, or -errno. */
struct bpf_map;
int recorder__kernel_filters(struct collector *c, struct bpf_map *map, bool loaded);

/* --metrics, --clickhouse: started before the probes, stopped (the last
 * export sent or spooled) after the end of the trace.  EXIT_OK or EXIT_FAIL
 * (said why). */
int recorder__start_observers(struct collector *c);
void recorder__stop_observers(struct collector *c);

/* The reorder buffer's callback in place of emit_record. */
int route_record(void *ctx, const void *rec, size_t len);

/* Every poll: rotate when due, answer SIGUSR1.  0 or -errno. */
int recorder__tick(struct collector *c, uint64_t now, uint64_t watermark);

/* Losses read from the counters: a sequence gap now, or in the window. */
int recorder__note_lost(struct collector *c, uint32_t n);

/* emit_record's case for CE_REC_LOSS_NOTE.  0 or -errno. */
int recorder__emit_loss(struct collector *c, const void *rec, size_t len);

/* The oldest time a record may still be written at (the symbolizer keeps
 * what it needs from there on): the window's start in flight-recorder mode. */
uint64_t recorder__horizon(const struct collector *c, uint64_t watermark);

/* The end of the trace: the exit dump (flight recorder).  0 or -errno. */
int recorder__finish(struct collector *c);

/* A file was completed (rotation, the last file): counted for --keep. */
void recorder__file_done(struct collector *c, const char *path);

void recorder__print_summary(const struct collector *c);

/* A flight-recorder dump failed during the run (the run exits 1). */
bool recorder__failed(const struct collector *c);

#endif
