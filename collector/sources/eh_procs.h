/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * eh_procs.h - the unwind tables of --call-graph eh in the BPF maps the
 * sampler walks by (bpf/eh_walk.bpf.h): each mapped file's rows once per
 * build id (built by eh_builder.c's thread), each process's executable
 * mappings pointing at them.  See eh_procs.c.
 *
 * Errors: eh_procs__new returns NULL and sets errno; free accepts NULL.
 */
#ifndef EBPF_COLLECT_EH_PROCS_H
#define EBPF_COLLECT_EH_PROCS_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct bpf_map;
struct proc_maps;
struct eh_procs;

/* The loaded maps of bpf/eh_walk.bpf.h: eh_rows and eh_maps (both
 * BPF_F_MMAPABLE; eh_maps EH_MAX_PROCS * EH_MAX_MAPPINGS entries), eh_procs. */
struct eh_procs *eh_procs__new(struct bpf_map *rows, struct bpf_map *maps,
			       struct bpf_map *procs);
void eh_procs__free(struct eh_procs *ep);

/*
 * Give pid's executable file mappings pm (NULL: read /proc/PID/maps now,
 * unless pid still runs the collector's own program, a child for -- CMD
 * before its exec: eh_procs__poll then loads it after the exec) to the
 * walker, queueing the tables of files not seen before for eh_builder.c's
 * thread (their entries say "being built" until eh_procs__poll takes
 * them).  When pm is the same as at pid's last load, only moves the files
 * pid waits for up the queue (call it for every sample).  0, or -errno of the
 * map update (a file without a table is no error: its frames take the
 * frame-pointer step).
 */
int eh_procs__load(struct eh_procs *ep, pid_t pid, const struct proc_maps *pm);

/* --all: eh_procs__load every process running now but the collector, so
 * that their tables are under way before their first samples (the files
 * of the sampled ones built first).  Reads every process's mappings and
 * opens their files on this thread: call it before the trace starts.
 * 0 or -ENOMEM. */
int eh_procs__load_all(struct eh_procs *ep);

/* Put the tables the builder finished into the maps and the slots of the
 * processes that map their files; load the targets eh_procs__load left
 * because they still ran the collector's program, once they have exec'ed,
 * and read their mappings again at every poll for a second after (their
 * libraries are mapped then).  Never waits for a build.  Call it every poll of the main loop: the
 * sooner, the fewer samples go by frame pointers.  0; 1 while tables are
 * being built or a target has not exec'ed yet or has just (poll again
 * soon); -ENOMEM. */
int eh_procs__poll(struct eh_procs *ep);

/* Before the trace starts: wait for the tables of the targets loaded so far
 * (-p PID) and put them in, so that their first samples are walked by
 * rows.  Blocks for the builds; never call it once samples flow. */
void eh_procs__settle(struct eh_procs *ep);

/* One line: files, rows, build time, the consumer's time, processes. */
void eh_procs__print(const struct eh_procs *ep, FILE *f);

#endif
