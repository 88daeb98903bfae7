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
#define TPSHIM_MAGIC		"ebpf-collect:tp5"	/* 16 bytes, no NUL; tp1 had no probe_site,
						 * tp2 no probe_site_fp, tp3 sites at a ret,
						 * tp4 no batched mode */
#define TPSHIM_MAGIC_LEN	16
#define TPSHIM_CAPACITY		8192	/* tracepoints; more are counted in dropped */
/* the shim's probe function, whose 5-byte nop (probe_site: after the
 * batched mode's test) is the uprobe site of every tracepoint without a
 * double */
#define TPSHIM_PROBE_SYM	"ebpf_collect_tpshim_probe"
#define TPSHIM_PROBE_SITE_SYM	"ebpf_collect_tpshim_probe_site"	/* its nop */
/* the probe of the tracepoints whose signature has a double: it stores
 * xmm0..xmm3 in order from TPSHIM_FP_BELOW bytes below the stack pointer
 * (xmm0 at rsp - 64, xmm3 at rsp - 40: under what the kernel's uprobe
 * trampoline pushes) and reaches its site, a 5-byte nop, then returns */
#define TPSHIM_PROBE_FP_SYM	"ebpf_collect_tpshim_probe_fp"
#define TPSHIM_FP_BELOW		64

/*
 * Batched mode (usdt/README.md "The tracepoint shim", batched): the shim
 * carries the per-thread buffers of usdt/batch_runtime.c.in under the
 * names <TPSHIM_BATCH_PREFIX>_batch_ctl and _batch_semaphore, whose mask
 * holds a byte per tracepoint index (usdt/provider_abi.h).  Both probe
 * functions test the semaphore, then the index's mask byte; a batched
 * call is written into the calling thread's buffer as a struct
 * prov_batch_rec whose payload is a struct tpshim_call and the bytes its
 * spec (batch_specs[index], written by the tracer before the mask byte)
 * says the arguments point at; runs go to the tracer through the batch
 * site, called as (data, len, tid, first_seq, count), 32-bit after data.
 */
#define TPSHIM_BATCH_PREFIX	"ebpf_collect_tpshim"
#define TPSHIM_MAX_ARGS		9	/* integer arguments after data */
#define TPSHIM_REG_ARGS		5	/* of them in registers */
#define TPSHIM_FP_ARGS		4	/* doubles */
#define TPSHIM_STR_MAX		1024	/* bytes of one string, its NUL included */
#define TPSHIM_DATA_MAX		8192	/* bytes of a serialized payload (__data__) */
#define TPSHIM_NO_ARG		0xff
#define TPSHIM_CALL_CUT		0x1	/* the buffer was cut to TPSHIM_DATA_MAX */
#define TPSHIM_CALL_FAULT	0x2	/* the buffer's pointer was NULL */

/* what to copy of a tracepoint's call (the BPF side's struct tps_spec) */
struct tpshim_spec {
	uint16_t str_mask;	/* bit k: integer argument k is a NUL-terminated string */
	uint8_t buf_arg;	/* the argument that points at a buffer, or TPSHIM_NO_ARG */
	uint8_t len_arg;	/* the argument that is its length */
	uint8_t nargs;		/* integer arguments */
	uint8_t nfp;		/* doubles */
	uint8_t written;	/* 1: this spec is set (a call without one takes its probe) */
	uint8_t pad;
};

/* a batched call: then data_len bytes, argument k's copied[k] of them in
 * argument order (as bpf/tpshim_event.h's struct tps_event from args on) */
struct tpshim_call {
	uint64_t args[TPSHIM_MAX_ARGS];	/* the integer arguments, in order */
	uint64_t fp[TPSHIM_FP_ARGS];	/* the doubles' bits */
	uint16_t data_len;
	uint16_t flags;			/* TPSHIM_CALL_* */
	uint16_t copied[TPSHIM_MAX_ARGS + 1];	/* strings: NUL included */
};

_Static_assert(sizeof(struct tpshim_spec) == 8, "tpshim_spec layout");
_Static_assert(sizeof(struct tpshim_call) == 128 &&
	       __builtin_offsetof(struct tpshim_call, data_len) == 104, "tpshim_call layout");

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
	/* the address of TPSHIM_PROBE_SITE_SYM, the nop of TPSHIM_PROBE_SYM:
	 * every listed tracepoint's probes point at an array of its own
	 * whose one entry is {TPSHIM_PROBE_SYM (or TPSHIM_PROBE_FP_SYM),
	 * data = the tracepoint's index in entries}, so a uprobe there knows
	 * which event fired from its first argument; its state stays 0 until
	 * a tracer raises it */
	uint64_t probe_site;
	uint64_t probe_arrays;	/* those arrays: entry i's is at
				 * probe_arrays + i * 2 * sizeof(struct tpabi_probe) */
	uint64_t probe_site_fp;	/* the nop of TPSHIM_PROBE_FP_SYM, whose
				 * tracepoints' arrays hold that function */
	/* batched mode's addresses: the control block and its mask
	 * (struct prov_batch_ctl, then TPSHIM_CAPACITY bytes), its semaphore
	 * (an unsigned short; a uprobe on batch_site with it as reference
	 * counter raises it), the run hand-over's 5-byte nop, and
	 * TPSHIM_CAPACITY struct tpshim_spec */
	uint64_t batch_ctl;
	uint64_t batch_sema;
	uint64_t batch_site;
	uint64_t batch_specs;
	/* the functions the probes arrays hold: TPSHIM_PROBE_SYM,
	 * TPSHIM_PROBE_FP_SYM */
	uint64_t probe_func;
	uint64_t probe_func_fp;
};

#endif /* USDT_TRACEPOINT_ABI_H */
