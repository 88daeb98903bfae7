/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * recorder.h - where records go once they leave the reorder buffer and the
 * consumers have seen them (pipeline.h): straight into the file, into the
 * flight recorder's window (--flight-recorder, --dump-on), through the
 * --filter predicates, past the --dump-on and --stop-on triggers; and when
 * a file ends and the next begins (--rotate, dumps).  Owns the pipeline's
 * struct recorder state.
 */
#ifndef EBPF_COLLECT_RECORDER_H
#define EBPF_COLLECT_RECORDER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>
#include "collector_event.h"
#include "nettrace.h"
#include "own_events.h"
#include "series.h"
#include "trigger.h"

struct pipeline;
struct flight;
struct ect_event;

/* A loss noted while in flight-recorder mode, kept in the window in time
 * order like any record (collector-internal type, never from BPF). */
#define CE_REC_LOSS_NOTE	200

struct loss_note {
	struct ce_header hdr;
	uint32_t n;
	uint32_t pad;
};

/* Incident dumps written by forked processes at once (--rotate beside the
 * flight recorder); one more waits for the oldest. */
#define RECORDER_MAX_DUMPING	4

/* The options the recorder follows (the session's, from the command line). */
struct recorder_opts {
	const char *output;			/* -o: the file, or the stem of numbered ones */
	const char *const *dump_on, *const *stop_on, *const *filter;
	int nr_dump_on, nr_stop_on, nr_filter;
	bool flight;				/* flight-recorder mode */
	uint64_t fr_ns, fr_bytes;		/* its window */
	uint64_t rotate_ns, rotate_bytes;	/* --rotate; 0 = not by that */
	unsigned int keep;			/* --keep; 0 = every file */
	unsigned int keep_dumps;		/* --keep-dumps; 0 = every dump */
	const char *split_dir;			/* --split-by-process */
	volatile sig_atomic_t *stop;		/* set to 1 when --stop-on matches */
	/* Is the event selected?  A trigger on one that is not never fires. */
	bool (*selected)(void *ctx, const struct ect_event *ev);
	void *selected_ctx;
};

struct recorder {
	struct recorder_opts o;
	bool series;			/* numbered files: --rotate or flight recorder */
	/* records go into the file as they come: no flight recorder, or it
	 * with --rotate (the window then serves the incident dumps only) */
	bool writes;
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
	/* incident dumps being written by forked processes (writes) */
	struct {
		pid_t pid;
		char *path;
	} dumping[RECORDER_MAX_DUMPING];
	int nr_dumping;
	/* a rotation could not start the next file (-errno): records are
	 * counted here, not written, until one can be */
	int no_file;
	uint64_t unwritten;		/* since the last file that was started */
	uint64_t unwritten_total;
	char last_done[4096];		/* the last file the series completed */
	char path[4096];		/* the current file */
};

/* SIGUSR1: write the flight-recorder window. */
extern volatile sig_atomic_t dump_requested;

/* Parse the triggers against the event table (p->table), set up the window
 * and the file names.  EXIT_OK or an exit code (a message printed). */
int recorder__init(struct pipeline *p, const struct recorder_opts *o);
void recorder__free(struct recorder *r);

/* The path of the first file (-o, or its first numbered name): NULL + a
 * message on failure.  In flight-recorder mode without --rotate no file is
 * open until a dump. */
const char *recorder__first_path(struct recorder *r);

/* --filter predicates the BPF program can evaluate (field at a fixed
 * offset): before the load (loaded false) how many there are; after it,
 * into map.  Count, or -errno. */
struct bpf_map;
int recorder__kernel_filters(struct recorder *r, struct bpf_map *map, bool loaded);
/* Has event table index idx a --filter predicate? */
bool recorder__has_filter(const struct recorder *r, uint32_t idx);

/* A record after the --stop-on event, other than the runtime's rundown:
 * it is not part of the trace. */
bool recorder__past_stop(const struct pipeline *p, const void *rec, size_t len);
/* A record in time order, after the consumers: --filter, the triggers,
 * then the file (pipeline__emit) or the flight recorder's window.  0 or
 * -errno. */
int recorder__route(struct pipeline *p, const void *rec, size_t len);

/* Every poll: rotate when due, answer SIGUSR1.  0 or -errno. */
int recorder__tick(struct pipeline *p, uint64_t now, uint64_t watermark);

/* Losses read from the counters: a sequence gap now, or in the window. */
int recorder__note_lost(struct pipeline *p, uint32_t n);

/* The oldest time a record may still be written at (the symbolizer keeps
 * what it needs from there on): the window's start in flight-recorder mode. */
uint64_t recorder__horizon(const struct recorder *r, uint64_t watermark);

/* The end of the trace: the incident dumps still being written are waited
 * for; without --rotate, the flight recorder's exit dump.  0 or -errno. */
int recorder__finish(struct pipeline *p);

/* A file was completed (rotation, the last file): counted for --keep. */
void recorder__file_done(struct recorder *r, const char *path);

/* The one line on a file the full file system cut short (nt_writer__finish
 * kept what fit: *salv). */
void print_salvage(const char *path, int err, const struct nt_salvage *salv);

/* kernel_filter_drops: the BPF counter of events --filter dropped there. */
void recorder__print_summary(const struct recorder *r, uint64_t kernel_filter_drops);

/* A flight-recorder dump failed during the run (the run exits 1). */
bool recorder__failed(const struct recorder *r);

#endif
