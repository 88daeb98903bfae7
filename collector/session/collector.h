/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collector.h - the state of one tracing session, shared by its parts: the
 * options (cli.c), the main loop (session.c), the stop sequence and the end
 * of the file (stop.c), the run's losses (losses.c), the output file
 * (output.c), --all (host.c) and the session's side of the pipeline
 * (wiring.c).  The sources, the pipeline and
 * the fleet outputs do not include it: the session hands each its own
 * state (struct clr_source, struct pipeline, struct fleet) and options.
 */
#ifndef EBPF_COLLECT_COLLECTOR_H
#define EBPF_COLLECT_COLLECTOR_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <bpf/libbpf.h>
#include "collector_event.h"
#include "ep_targets.h"
#include "selection.h"
#include "usdt_generic.h"
#include "clr_events.h"
#include "tpshim.h"
#include "pipeline.h"
#include "host.h"
#include "fleet.h"

#ifndef LOG_PREFIX
#define LOG_PREFIX "ebpf-collect: "
#endif
#include "log.h"

#define MAX_PIDS		256	/* -p, and the processes --all traces */
_Static_assert(MAX_PIDS <= CE_MAX_TARGETS, "every traced pid fits the BPF targets maps");
_Static_assert(MAX_PIDS <= EP_TARGETS_MAX, "an EventPipe session per -p slot");
#define MAX_TRIGGERS		8	/* --dump-on, --stop-on, --filter each */
/* --dump-on without --flight-recorder: the window a dump reaches back */
#define DEFAULT_FLIGHT_NS	(30 * 1000000000ULL)
#define DEFAULT_BUFFER_MB	32
/* the ring buffer of a trace whose targets are all stock .NET (EventPipe):
 * nothing writes into it, and its pages count in the collector's RSS */
#define EP_ONLY_BUFFER_MB	1
#define REORDER_WINDOW_NS	(30 * 1000000ULL)
/* The runtime sends EventPipe events in blocks, up to ~100 ms after they
 * happened (its flush period): the reorder buffer holds records longer
 * while a session runs, so both sides still merge in time order. */
/* batched events come in runs: a quiet thread's every 20 ms (the provider's
 * flusher), plus the time to hand them over */
#define BATCH_REORDER_WINDOW_NS	(100 * 1000000ULL)
#define EP_REORDER_WINDOW_NS	(1500 * 1000000ULL)
#define TICK_NS			(500 * 1000000ULL)
#define RESCAN_NS		(1000 * 1000000ULL)
/* Whole blocks reach the file as they fill (~100 KiB); at low event rates
 * that could take minutes, so flush at least this often: a collector killed
 * with SIGKILL then loses at most the last second of events. */
#define FLUSH_NS		(1000ULL * 1000 * 1000)

struct env {
	pid_t pids[MAX_PIDS];
	int nr_pids;
	const char *output;
	const char *providers[SEL_MAX_REQ];
	int nr_providers;
	const char *profiles[16];
	int nr_profiles;
	const char *libs[16];
	int nr_libs;
	uint64_t duration_ns;
	unsigned long buffer_mb;
	bool buffer_set;			/* -b given */
	int verbose;
	bool list;
	const char *list_path;
	bool kstack;
	bool no_ustack;
	bool stack_helper;
	bool tpshim;		/* --tracepoint-shim: -- dotnet started ready for the shim */
	int batched;			/* enum batch_mode (batch.h) */
	bool quiet;
	bool no_symbols;
	bool count_only;		/* --bench-count-only */
	char **cmd;
	const char *usdt[32];	/* --usdt */
	int nr_usdt;
	bool usdt_children;
	unsigned int kernel_groups;	/* --kernel: KE_GROUP_* */
	unsigned int sample_hz;		/* --cpu-sampling; 0 = off */
	bool call_graph_dwarf;		/* --call-graph dwarf */
	bool call_graph_eh;		/* --call-graph eh */
	bool call_graph_set;		/* --call-graph given (else eh with targets) */
	unsigned int sample_events;	/* --sample-events: KE_SAMPLES_*; 0 = default */
	unsigned int stack_size;	/* --stack-size; 0 = KE_USTACK_COPY_DEFAULT */
	bool kernel_set, sampling_set;	/* given explicitly: profiles do not change them */
	bool all_processes;		/* --all-processes */
	const char *manifest;		/* --manifest: the runtime's own event table */
	char *ep_extra[SEL_MAX_REQ];	/* --providers entries only EventPipe knows */
	int nr_ep_extra;
	uint64_t rotate_ns, rotate_bytes;	/* --rotate; 0 = not by that */
	unsigned int keep;			/* --keep; 0 = every file */
	unsigned int keep_dumps;		/* --keep-dumps; 0 = every dump */
	uint64_t fr_ns, fr_bytes;		/* --flight-recorder window */
	bool flight;				/* flight-recorder mode */
	const char *dump_on[MAX_TRIGGERS], *stop_on[MAX_TRIGGERS], *filter[MAX_TRIGGERS];
	int nr_dump_on, nr_stop_on, nr_filter;
	bool all;				/* --all: every process with what we trace */
	pid_t pid_filter[MAX_PIDS];		/* --pid-filter */
	int nr_pid_filter;
	const char *comm[16];			/* --comm */
	int nr_comm;
	const char *dotnet_port;		/* --dotnet-port PATH */
	const char *cgroup[16];			/* --cgroup */
	int nr_cgroup;
	const char *container[16];		/* --container */
	int nr_container;
	uint32_t format;			/* --format: 5, 6; 0 = 6 with --all, else 5 */
	const char *split_dir;			/* --split-by-process */
	const char *metrics_addr;		/* --metrics */
	const char *clickhouse;			/* --clickhouse URL */
	const char *host_label;			/* --host (default: the hostname) */
	struct attrib_opts attrib;		/* --service, --service-from */
	bool metrics_pid;			/* --metrics-pid */
	uint64_t export_ns;			/* --export-interval */
	const char *spool_dir;			/* --spool */
	uint64_t spool_max;			/* --spool-max */
};

extern struct env env;
extern volatile sig_atomic_t exiting;

struct collector {
	const struct ect_table *table;
	struct selection sel;
	struct clr_source clr;		/* the runtime's provider: probes, pause words, batches */
	struct pipeline pipe;		/* ring, reorder window, recorder, the file */
	int ncpu;
	pid_t child;
	int child_status;
	bool child_exited;
	bool pid_alive[MAX_PIDS];
	uint64_t lost_noted;
	struct ce_counters totals;
	struct usdt_generic *ug;	/* --usdt, NULL without */
	struct ug_totals ug_totals;
	struct mmap_events *mm;		/* the targets' mappings as made; NULL without */
	struct kernel_events *ke;	/* NULL without kernel events */
	volatile bool sources_stopped;	/* set by stop_sources() when every probe is off */
	/* the collector's own CPU time (all threads) and the clock when tracing
	 * began and when the stop began: start-up and steady state apart */
	uint64_t cpu_mark[2], wall_mark[2];
	struct ep_targets ept;		/* stock .NET targets: EventPipe sessions */
	bool ep_candidate[MAX_PIDS];	/* no runtime USDT probes found */
	/* stock .NET through the tracepoint shim, preferred to EventPipe */
	struct tpshim_source tps;
	struct host host;		/* --all */
	struct fleet fleet;		/* --metrics, --clickhouse */
};

/* preflight.c: before anything is opened or attached */
int libbpf_print_fn(enum libbpf_print_level level, const char *fmt, va_list args);
int check_privileges(void);
int check_kernel(void);
int check_pids(void);
/* -l; c: the session's selection and sessions' providers, which say what
 * a process offering the tracepoint shim gets beside it */
int list_probes(const struct collector *c);
int pid_runtime_probes(pid_t pid);

/* stop.c: the end of a trace */
int stop_and_drain(struct collector *c);
void pause_runtimes(struct collector *c);
void resume_runtimes(struct collector *c);
void warn_silent_runtimes(struct collector *c);
int finish_file(struct collector *c);
void collector__free(struct collector *c);

/* losses.c: the run's losses */
void note_losses(struct collector *c);	/* new ones since the last call, into the trace */
uint64_t total_lost(const struct ce_counters *t);	/* the CLR provider's, in BPF */
/* Every loss counter of the run so far, as the LossSummary event has them. */
void collect_loss(struct collector *c, struct loss_summary *loss);

/* wiring.c: the session's side of the pipeline; stop: the flag SIGINT and
 * SIGTERM raise (session.c) */
int init_sources(struct collector *c, volatile sig_atomic_t *stop);	/* every session's: EXIT_OK or EXIT_FAIL */
int init_recorder(struct collector *c, volatile sig_atomic_t *stop);	/* EXIT_OK or a code */
int start_fleet(struct collector *c);		/* --metrics, --clickhouse: EXIT_OK or EXIT_FAIL */

/* output.c: the trace file -o names */
int open_output(struct collector *c, pid_t pid);
int publish_output(struct collector *c);	/* the first event: the file takes its name */
int finish_output(struct collector *c, int ret);	/* the end of a run that traced */
void close_output(struct collector *c, int ret);

/* session.c: the main loop; stop.c: the collector's own CPU time */
uint64_t self_cpu_ns(void);		/* getrusage(RUSAGE_SELF): user + system */

#endif
