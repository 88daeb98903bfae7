// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tracepoint_shim_batch.c - the tracepoint shim's batched mode: a call of
 * a batched tracepoint written into the calling thread's buffer instead of
 * reaching the uprobe site (usdt/tracepoint_abi.h, usdt/README.md "The
 * tracepoint shim").
 *
 * The buffers, their hand-over and the stack walk are the generated
 * providers' own, usdt/batch_runtime.c.in, compiled here under the shim's
 * names; this file adds what a tracepoint call needs: its arguments as
 * the probe function saved them, and the strings or the buffer its spec
 * says they point at, copied as bpf/tpshim.bpf.c copies them from outside,
 * so that the collector rebuilds the same payload from either path.
 *
 * The path: the probe function (tracepoint_shim.c) finds the semaphore
 * raised and the index's mask byte set, saves the argument registers in
 * a frame of its own and calls ebpf_collect_tpshim_batch_call(); the walk
 * from clretw__batch_reserve leaves out that function's frame and the
 * probe's, so the stack starts at the tracepoint's call site, as the
 * uprobe's does.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "provider_abi.h"
#include "tracepoint_abi.h"

#define CLRETW__BATCH_N			TPSHIM_CAPACITY
#define CLRETW__BATCH_CTL		ebpf_collect_tpshim_batch_ctl
#define CLRETW__BATCH_SEMA		ebpf_collect_tpshim_batch_semaphore
#define CLRETW__BATCH_PROBE(d, l, t, s, c)	ebpf_collect_tpshim_batch_site(d, l, t, s, c)
#define CLRETW__BATCH_SKIP_FRAMES	2

/* a tracepoint call carries no activity ids */
static const unsigned char clretw__act_set;
static const unsigned char clretw__act[16], clretw__rel[16];

/* the hand-over's site is a call of its own: nothing to keep out of the
 * red zone after it */
static inline void clretw__nonleaf(void)
{
}

/* the run hand-over: a 5-byte nop, a tracer's uprobe site, and the return */
void ebpf_collect_tpshim_batch_site(const void *data, uint32_t len, uint32_t tid,
				    uint32_t first_seq, uint32_t count);
__asm__(
	"	.text\n"
	"	.p2align 4\n"
	"	.globl ebpf_collect_tpshim_batch_site\n"
	"	.type ebpf_collect_tpshim_batch_site, @function\n"
	"ebpf_collect_tpshim_batch_site:\n"
	"	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n"	/* nopl 0x0(%rax,%rax,1) */
	"	ret\n"
	"	.size ebpf_collect_tpshim_batch_site, .-ebpf_collect_tpshim_batch_site\n");

#include "batch_runtime.c.in"

_Static_assert(sizeof(struct prov_batch_ctl) == 32, "the probe tests the mask at ctl + 32");

/* per index, written by a tracer before it sets the mask byte */
struct tpshim_spec ebpf_collect_tpshim_batch_specs[TPSHIM_CAPACITY];

/* What the call's spec copies: strings up to their NUL (cut to
 * TPSHIM_STR_MAX, a NULL one copies nothing), or the buffer for its
 * length.  The bytes needed; c->copied and c->flags set. */
static size_t measure(const struct tpshim_spec *sp, struct tpshim_call *c)
{
	size_t n = 0;

	if (sp->buf_arg == 1 && sp->len_arg == 0) {
		/* the length is a `const unsigned int`: never more than its 32
		 * bits, whatever the register's upper half holds, since this
		 * copy runs in the process, not through a faultless BPF read */
		uint64_t want = (uint32_t)c->args[0];

		if (want > TPSHIM_DATA_MAX) {
			want = TPSHIM_DATA_MAX;
			c->flags |= TPSHIM_CALL_CUT;
		}
		if (want && !c->args[1]) {
			c->flags |= TPSHIM_CALL_FAULT;
			want = 0;
		}
		c->copied[1] = (uint16_t)want;
		return want;
	}
	for (int k = 0; k < TPSHIM_MAX_ARGS; k++) {
		const char *s = (const char *)(uintptr_t)c->args[k];

		if (!(sp->str_mask & (1u << k)) || !s)
			continue;
		c->copied[k] = (uint16_t)(strnlen(s, TPSHIM_STR_MAX - 1) + 1);
		n += c->copied[k];
	}
	return n;
}

static void copy_data(const struct tpshim_spec *sp, const struct tpshim_call *c,
		      unsigned char *out)
{
	if (sp->buf_arg == 1 && sp->len_arg == 0) {
		memcpy(out, (const void *)(uintptr_t)c->args[1], c->copied[1]);
		return;
	}
	for (int k = 0; k < TPSHIM_MAX_ARGS; k++) {
		if (!c->copied[k])
			continue;
		memcpy(out, (const void *)(uintptr_t)c->args[k], c->copied[k] - 1u);
		out[c->copied[k] - 1u] = 0;
		out += c->copied[k];
	}
}

/*
 * Called by the probe functions for a batched index: regs the saved
 * rdi (the index), rsi, rdx, rcx, r8, r9; stack the caller's stack
 * arguments; fp xmm0..xmm3, or NULL.  0: the call is in the buffer; 1: it
 * is not (its index has no spec, or there is no room), and the probe goes
 * on to its uprobe site, this thread's earlier records handed over first.
 */
__attribute__((used)) int ebpf_collect_tpshim_batch_call(const uint64_t *regs,
							  const uint64_t *stack, const uint64_t *fp)
{
	uint32_t idx = (uint32_t)regs[0];
	const struct tpshim_spec *sp = &ebpf_collect_tpshim_batch_specs[idx];
	struct tpshim_call c = { .data_len = 0 };
	unsigned char *p;
	size_t len;

	if (!sp->written)
		goto per_event;
	for (int k = 0; k < TPSHIM_MAX_ARGS && k < sp->nargs; k++)
		c.args[k] = k < TPSHIM_REG_ARGS ? regs[1 + k] : stack[k - TPSHIM_REG_ARGS];
	if (fp && sp->nfp)
		memcpy(c.fp, fp, sizeof(c.fp));
	len = measure(sp, &c);
	c.data_len = (uint16_t)len;
	p = clretw__batch_reserve(idx, sizeof(c) + len);
	if (!p)
		goto per_event;
	memcpy(p, &c, sizeof(c));
	copy_data(sp, &c, p + sizeof(c));
	clretw__batch_commit();
	return 0;
per_event:
	clretw__batch_sync();
	return 1;
}
