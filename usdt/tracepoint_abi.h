/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tracepoint_abi.h - the tracepoint shim's facts, for both sides: what a
 * stock CoreCLR expects of LTTng-UST 2.12 (usdt/README.md, "The tracepoint
 * shim"), and the table the shim keeps of what it was handed, which a
 * tracer reads from outside the process (usdt/tracepoint_read.c).
 *
 * LTTng-UST 2.12's ABI, as facts: a program with tracepoints calls, from a
 * constructor, dlopen(TPABI_LIB_NAME) and then the library's
 * tracepoint_register_lib(array of pointers to struct tpabi_tracepoint,
 * count); tracepoint_unregister_lib(the same array) when it unloads.  Each
 * call site tests its tracepoint's state and, when it is nonzero, reads
 * probes (through tp_rcu_dereference_sym_bp, between tp_rcu_read_lock_bp
 * and tp_rcu_read_unlock_bp) and calls every func of the NULL-terminated
 * array as func(data, args...).
 */
#ifndef USDT_TRACEPOINT_ABI_H
#define USDT_TRACEPOINT_ABI_H

#include <stdint.h>

/* the name the runtime dlopen()s (LTTng-UST 2.12 and older; 2.13 is .so.1) */
#define TPABI_LIB_NAME		"liblttng-ust-tracepoint.so.0"
/* LTTng-UST 2.12's main library: a program with LTTng probe providers
 * (CoreCLR's libcoreclrtraceptprovider.so) links it */
#define TPABI_UST_LIB_NAME	"liblttng-ust.so.0"

/* struct lttng_ust_tracepoint_probe */
struct tpabi_probe {
	void (*func)(void);
	void *data;
};

/* struct lttng_ust_tracepoint of LTTng-UST 2.12 (x86-64: 56 bytes) */
struct tpabi_tracepoint {
	const char *name;		/* "provider:event" */
	int state;			/* nonzero: the call sites call the probes */
	struct tpabi_probe *probes;	/* NULL-terminated by func */
	int *provider_ref;
	const char *signature;		/* the C argument list as a string */
	char padding[16];
};

_Static_assert(sizeof(struct tpabi_tracepoint) == 56, "LTTng-UST 2.12 layout");
_Static_assert(__builtin_offsetof(struct tpabi_tracepoint, state) == 8, "state");
_Static_assert(__builtin_offsetof(struct tpabi_tracepoint, probes) == 16, "probes");
_Static_assert(__builtin_offsetof(struct tpabi_tracepoint, signature) == 32, "signature");

/*
 * The shim's table, in its writable data, found by a tracer as the
 * TPSHIM_MAGIC bytes in the shim's writable mapping: a reader needs no
 * symbol table and the address is the process's own.
 */
#define TPSHIM_MAGIC		"ebpf-collect:tp4"	/* 16 bytes, no NUL; tp1 had no probe_site,
						 * tp2 no probe_site_fp, tp3 sites at a ret */
#define TPSHIM_MAGIC_LEN	16
#define TPSHIM_CAPACITY		8192	/* tracepoints; more are counted in dropped */
/* the shim's probe function, whose first instruction, a 5-byte nop, is
 * the uprobe site of every tracepoint without a double */
#define TPSHIM_PROBE_SYM	"ebpf_collect_tpshim_probe"
/* the probe of the tracepoints whose signature has a double: it stores
 * xmm0..xmm3 in order from TPSHIM_FP_BELOW bytes below the stack pointer
 * (xmm0 at rsp - 64, xmm3 at rsp - 40: under what the kernel's uprobe
 * trampoline pushes) and reaches its site, a 5-byte nop, then returns */
#define TPSHIM_PROBE_FP_SYM	"ebpf_collect_tpshim_probe_fp"
#define TPSHIM_FP_BELOW		64

/* probe_hits and probe_last are the demonstration probe's (probe[0]):
 * a tracer that points a tracepoint's probes at probe and raises its
 * state sees every call counted and the first argument of the last one */
struct tpshim_table {
	char magic[TPSHIM_MAGIC_LEN];
	uint32_t count;		/* entries filled */
	uint32_t dropped;	/* tracepoints not listed: beyond TPSHIM_CAPACITY,
				 * or of a library past the shim's 64th */
	uint32_t libs;		/* tracepoint_register_lib() calls taken */
	uint32_t refused;	/* 1: a real LTTng-UST stands, the shim does nothing */
	uint64_t entries;	/* address of TPSHIM_CAPACITY uint64_t: each a
				 * struct tpabi_tracepoint's address, 0 once
				 * its library unregistered */
	uint64_t probe_hits;
	uint64_t probe_last;
	struct tpabi_probe probe[2];
	/* the address of TPSHIM_PROBE_SYM: every listed tracepoint's probes
	 * point at an array of its own whose one entry is {that function,
	 * data = the tracepoint's index in entries}, so a uprobe there knows
	 * which event fired from its first argument; its state stays 0 until
	 * a tracer raises it */
	uint64_t probe_site;
	uint64_t probe_arrays;	/* those arrays: entry i's is at
				 * probe_arrays + i * 2 * sizeof(struct tpabi_probe) */
	uint64_t probe_site_fp;	/* the nop of TPSHIM_PROBE_FP_SYM, whose
				 * tracepoints' arrays hold that function */
};

#endif /* USDT_TRACEPOINT_ABI_H */
