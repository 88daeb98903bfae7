// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tpshim_ctl: the tracepoint shim's table of a running process
 * (usdt/tracepoint_read.h), for tests/tracepoint_shim.bats.
 *
 *   tpshim_ctl list PID          "count N", "dropped D", "refused R", then
 *                                 NAME<TAB>SIGNATURE<TAB>STATE per tracepoint
 *   tpshim_ctl enable PID NAME   points NAME's probes at the shim's
 *                                 demonstration probe, then raises its state
 *   tpshim_ctl disable PID NAME  lowers NAME's state, then gives back its
 *                                 probes the shim's own array
 *   tpshim_ctl raise PID NAME    raises NAME's state only, its probes left
 *                                 NULL: its call sites call nothing, but
 *                                 the runtime sees the event enabled (the GC
 *                                 asks DotNETRuntime:GCStart whether its
 *                                 keyword is on)
 *   tpshim_ctl hits PID          "hits N last A": the demonstration probe's
 *                                 calls and the first argument of the last
 *   tpshim_ctl probes PID        INDEX NAME FUNC DATA per tracepoint: its
 *                                 probes[0], FUNC "site" when it is the
 *                                 shim's probe, "fpsite" its probe for
 *                                 signatures with a double
 *   tpshim_ctl batch PID         "semaphore S active A session N mask M":
 *                                 the batched mode's semaphore, control
 *                                 block, and mask bytes set
 *   tpshim_ctl hold PID NAME...  raises each NAME's state through the kernel
 *                                 (collector/sources/tpshim_enable.h), as
 *                                 the collector does, prints "HELD n" and
 *                                 waits to be killed: the kernel lowers
 *                                 them when it dies
 *
 * Writes go through process_vm_writev(), one word at a time in the order a
 * call site reads them: probes before state when enabling, after when not.
 * Exit 0, 1 on a usage or read error (one line on stderr), 2 when NAME is
 * not in the table.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "proc_mem.h"
#include "provider_abi.h"
#include "tpshim_enable.h"
#include "tracepoint_read.h"

static int write_word(pid_t pid, uint64_t addr, const void *val, size_t len)
{
	return proc_mem_rw(pid, addr, (void *)val, len, true);
}

/* NAME's entry; its index in *idx */
static int find_tp(const struct tpshim_view *v, const char *name, struct tpshim_tp *tp,
		   uint32_t *idx)
{
	for (uint32_t i = 0; i < v->table.count; i++)
		if (!tpshim__tracepoint(v, i, tp) && !strcmp(tp->name, name)) {
			*idx = i;
			return 0;
		}
	return -ENOENT;
}

/* on: 1 enable, 0 disable, 2 raise */
static int set_probe(const struct tpshim_view *v, const char *name, int on)
{
	uint64_t probes;
	struct tpshim_tp tp;
	int state = !!on, err;
	uint32_t i;

	if (find_tp(v, name, &tp, &i)) {
		fprintf(stderr, "tpshim_ctl: %s: no such tracepoint in process %d\n", name, v->pid);
		return 2;
	}
	probes = on == 1 ? v->table_addr + offsetof(struct tpshim_table, probe) :
			   v->table.probe_arrays + i * 2 * sizeof(struct tpabi_probe);
	if (on == 2)
		err = write_word(v->pid, tp.addr + offsetof(struct tpabi_tracepoint, state),
				 &state, sizeof(state));
	else if (on)
		err = write_word(v->pid, tp.addr + offsetof(struct tpabi_tracepoint, probes),
				 &probes, sizeof(probes)) ?:
		      write_word(v->pid, tp.addr + offsetof(struct tpabi_tracepoint, state),
				 &state, sizeof(state));
	else
		err = write_word(v->pid, tp.addr + offsetof(struct tpabi_tracepoint, state),
				 &state, sizeof(state)) ?:
		      write_word(v->pid, tp.addr + offsetof(struct tpabi_tracepoint, probes),
				 &probes, sizeof(probes));
	if (err) {
		fprintf(stderr, "tpshim_ctl: %s in process %d: %s\n", name, v->pid, strerror(-err));
		return 1;
	}
	return 0;
}

static int hold(const struct tpshim_view *v, char **names, int n)
{
	struct tpshim_lib lib = { .fd = -1 };
	struct tpshim_tp tp;
	uint32_t i;
	int err;

	for (int k = 0; k < n; k++) {
		if (find_tp(v, names[k], &tp, &i)) {
			fprintf(stderr, "tpshim_ctl: %s: no such tracepoint in process %d\n",
				names[k], v->pid);
			return 2;
		}
		if (!tpshim_lib__has(&lib, tp.addr)) {
			tpshim_lib__close(&lib);
			err = tpshim_lib__open(v->pid, tp.addr, &lib);
			if (err) {
				fprintf(stderr, "tpshim_ctl: the library of %s in process %d: %s\n",
					names[k], v->pid, strerror(-err));
				return 1;
			}
		}
		err = tpshim_lib__hold(v->pid, &lib, tp.addr);
		if (err < 0) {
			fprintf(stderr, "tpshim_ctl: %s in process %d: %s\n", names[k], v->pid,
				strerror(-err));
			return 1;
		}
	}
	printf("HELD %d\n", n);
	fflush(stdout);
	for (;;)
		pause();
}

/* "semaphore S active A session N mask M": the batched mode's semaphore,
 * control block and how many mask bytes are set */
static int batch_state(const struct tpshim_view *v)
{
	static uint8_t mask[TPSHIM_CAPACITY];
	struct prov_batch_ctl h;
	unsigned short sema;
	unsigned int set = 0;

	if (proc_mem_rw(v->pid, v->table.batch_sema, &sema, sizeof(sema), false) ||
	    proc_mem_rw(v->pid, v->table.batch_ctl, &h, sizeof(h), false) ||
	    proc_mem_rw(v->pid, v->table.batch_ctl + sizeof(h), mask, sizeof(mask), false)) {
		fprintf(stderr, "tpshim_ctl: process %d: batched mode not readable\n", v->pid);
		return 1;
	}
	for (size_t i = 0; i < sizeof(mask); i++)
		set += !!mask[i];
	printf("semaphore %u active %u session %u mask %u\n", sema, h.active, h.session, set);
	return 0;
}

int main(int argc, char **argv)
{
	struct tpshim_view v;
	struct tpshim_tp tp;
	int err;

	if (argc < 3 || (strcmp(argv[1], "list") && strcmp(argv[1], "hits") &&
			  strcmp(argv[1], "probes") && strcmp(argv[1], "batch") && argc < 4)) {
		fprintf(stderr, "usage: tpshim_ctl list|hits|probes|batch PID | enable|disable|raise "
			"PID NAME | hold PID NAME...\n");
		return 1;
	}
	err = tpshim__find(atoi(argv[2]), &v);
	if (err) {
		fprintf(stderr, "tpshim_ctl: process %s: %s\n", argv[2],
			err == -ENOENT ? "no tracepoint shim" : strerror(-err));
		return 1;
	}
	if (!strcmp(argv[1], "list")) {
		printf("count %u\ndropped %u\nrefused %u\n", v.table.count, v.table.dropped,
		       v.table.refused);
		for (uint32_t i = 0; i < v.table.count; i++)
			if (!tpshim__tracepoint(&v, i, &tp))
				printf("%s\t%s\t%d\n", tp.name, tp.signature, tp.state);
		return 0;
	}
	if (!strcmp(argv[1], "probes")) {
		for (uint32_t i = 0; i < v.table.count; i++) {
			if (tpshim__tracepoint(&v, i, &tp))
				continue;
			if (tp.probe_func == v.table.probe_func)
				printf("%u %s site %llu\n", i, tp.name,
				       (unsigned long long)tp.probe_data);
			else if (tp.probe_func == v.table.probe_func_fp)
				printf("%u %s fpsite %llu\n", i, tp.name,
				       (unsigned long long)tp.probe_data);
			else
				printf("%u %s %#llx %llu\n", i, tp.name,
				       (unsigned long long)tp.probe_func,
				       (unsigned long long)tp.probe_data);
		}
		return 0;
	}
	if (!strcmp(argv[1], "hits")) {
		printf("hits %llu last %llu\n", (unsigned long long)v.table.probe_hits,
		       (unsigned long long)v.table.probe_last);
		return 0;
	}
	if (!strcmp(argv[1], "batch"))
		return batch_state(&v);
	if (!strcmp(argv[1], "enable"))
		return set_probe(&v, argv[3], 1);
	if (!strcmp(argv[1], "disable"))
		return set_probe(&v, argv[3], 0);
	if (!strcmp(argv[1], "hold"))
		return hold(&v, argv + 3, argc - 3);
	if (!strcmp(argv[1], "raise"))
		return set_probe(&v, argv[3], 2);
	fprintf(stderr, "tpshim_ctl: unknown command %s\n", argv[1]);
	return 1;
}
