/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * clr_events.h - the runtime's own provider as a source: its probes found
 * in every file a target maps and attached (bpf/clr_events.bpf.c, cookie =
 * event table index), the pause word of each provider file, the batched
 * path (batch.h), and its records written as trace events (its part of
 * the pipeline, pipeline.h).  The session owns a struct clr_source and
 * fills in what it is given; the rest is the source's own state.
 */
#ifndef EBPF_COLLECT_CLR_EVENTS_H
#define EBPF_COLLECT_CLR_EVENTS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ect_table;
struct selection;
struct recorder;
struct clr_events;
struct bpf_link;
struct batch;
struct pipeline_source_ops;

struct clr_opts {
	const char *manifest;	/* --manifest; NULL: the built-in table */
	const char *output;	/* -o, named when an event cannot be defined in it */
	int batched;		/* --batched, --no-batched: enum batch_mode (batch.h) */
	bool kstack;		/* --kernel-stack: the probe's stacks only, nothing batched */
	bool no_ustack;		/* --no-user-stack */
	volatile sig_atomic_t *stop;	/* raised by SIGINT/SIGTERM: stop waiting */
};

struct attached_file {
	pid_t pid;
	dev_t dev;
	ino_t ino;
};

/* A traced file that defines a provider's pause word (tracer_pause.h). */
struct pause_site {
	pid_t pid;
	dev_t dev;
	ino_t ino;
	uint64_t off;		/* file offset of the word */
	uint64_t site_off;	/* file offset of the pause site; 0: none (older provider) */
	uint64_t addr;		/* the word's address in pid; 0 until mapped */
	int file_fd;		/* the provider's file (O_PATH), for holding the word */
	int hold_fd;		/* the uprobe holding the word up, -1 when not held */
	unsigned int word_at_stop;	/* its value when the stop began, before ours */
	bool seen;		/* an event of pid's runtime provider arrived */
	uint64_t cpu_ticks;	/* pid's CPU time (utime + stime) when attached */
	uint64_t attach_ns;	/* and the clock then */
};

struct clr_source {
	/* given by the session */
	struct clr_opts o;
	const struct ect_table *table;
	const struct selection *sel;	/* the events to attach */
	const struct recorder *rec;	/* its --filter predicates: such events are not batched */
	struct clr_events *skel;	/* the BPF object, loaded */
	uint32_t *meta_ids;		/* per table index, 0 = not defined yet */
	uint64_t *ev_counts;		/* per table index */
	/* the source's own */
	struct bpf_link **links;
	size_t nr_links, cap_links;
	struct attached_file *files;
	size_t nr_files, cap_files;
	char *searched;			/* files searched, for the no-probes error */
	size_t searched_len;
	int ours_found;			/* probes of our providers seen */
	int attach_failed;		/* selected probes libbpf could not attach */
	uint64_t oversize;		/* payloads over CE_MAX_PAYLOAD, counted lost */
	struct pause_site *pauses;	/* where to pause the runtime before detaching */
	size_t nr_pauses, cap_pauses;
	pid_t last_event_pid;		/* of the last runtime event written */
	struct batch *batch;		/* batched in-process events (batch.c) */
};

/* Attach to the files of pid not attached yet (initial: name them in the
 * no-probes error).  Returns probes attached or -errno. */
int clr_source__attach_pid(struct clr_source *cl, pid_t pid, bool initial);
/* Attach a file given by path (the -- CMD executable, --lib), mapped yet or
 * not: the kernel installs the uprobes when the file gets mapped.  Returns
 * probes attached or -errno. */
int clr_source__attach_path(struct clr_source *cl, pid_t pid, const char *path);

/* The pipeline's source of CE_REC_CLR_EVENT (pipeline.h), ctx the struct
 * clr_source. */
extern const struct pipeline_source_ops clr_source_ops;

#endif
