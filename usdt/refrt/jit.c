// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * jit.c - refrt's JIT: method templates compiled to x86-64 at run time.
 *
 * A "method" (struct rt_method, CoreCLR's MethodDesc) has a body template
 * (enum rt_body) instead of IL; jit__compile() turns it into machine code
 * for a tier, places it in the code heap and publishes it in the method's
 * call slot.  Every method has the standard frame:
 *
 *	push rbp; mov rbp, rsp; [push rbx; push r12; push r13; push r14]
 *	...
 *	[lea rsp, [rbp-32]; pop r14; pop r13; pop r12; pop rbx]; leave; ret
 *
 * so a frame-pointer walk (BPF's bpf_get_stack, perf, rt_helper_throw)
 * crosses JIT code.  Managed-to-managed calls go through the callee's slot
 * (movabs rax, &slot; call [rax]) -- CoreCLR's precode indirection -- so
 * a tier-1 version installed later is picked up by every caller.  Calls to
 * native helpers are movabs rax, helper; call rax.  Plug-in handlers call
 * each other with call rel32 (same code heap).
 *
 * Tier 0 ("QuickJitted") code spills arguments to the stack and calls every
 * callee; tier 1 ("OptimizedTier1") keeps values in registers and inlines
 * the Mix and Step leaves into HotLoop, so tier-1 stacks lose those frames,
 * as with a real optimizing JIT.  Exception clauses are funclets placed after the
 * method's epilogue, inside its code range (rt_code.catch_off etc.).
 *
 * Each method version records an IL-to-native map: PROLOG (-2) at 0, one
 * entry per template "statement" and EPILOG (-3), as CoreCLR reports.
 * The method table (rt->codes) keeps every version ever compiled, including
 * unloaded ones, for the JSON summary; it only grows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "grow.h"
#include "refrt.h"
#include "x86emit.h"

static struct refrt *rt;	/* the runtime, from this part's init */
/* the helpers JIT\'d code calls (main.c) */
static const struct rt_helpers *H;

#define IL_PROLOG 0xfffffffeu
#define IL_EPILOG 0xfffffffdu

static size_t cap_codes;

static struct rt_method **methods;
static int n_methods;
static size_t cap_methods;
/* live code versions, for jit__find_code (a frame walk per exception) */
static struct rt_code **live;
static int n_live;
static size_t cap_live;

struct jctx {
	struct xe e;
	struct rt_method *m;
	struct rt_code *c;
	enum rt_tier tier;
	uint32_t il;
};

struct rt_method *jit__define(struct rt_assembly *a, const char *ns, const char *name,
			      const char *ret, const char *args, enum rt_body body,
			      uint32_t param, bool tiered)
{
	struct rt_method *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	if (GROW(methods, cap_methods, (size_t)n_methods + 1)) {
		free(m);
		return NULL;
	}
	methods[n_methods++] = m;
	m->id = (uint64_t)(uintptr_t)m;
	m->assembly = a;
	snprintf(m->ns, sizeof(m->ns), "%s", ns);
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->ret, sizeof(m->ret), "%s", ret);
	snprintf(m->args, sizeof(m->args), "%s", args);
	snprintf(m->sig, sizeof(m->sig), "%s (%s)", ret, args);
	m->body = body;
	m->param = param;
	m->tiered = tiered;
	m->token = 0x06000001 + a->n_methods++;	/* MethodDef table of its module */
	m->il_size = 12 + 7 * (uint32_t)body + (param % 200);
	return m;
}

/* ---- emission helpers ------------------------------------------------ */

static void stmt(struct jctx *j)	/* a new IL "statement" starts here */
{
	struct rt_code *c = j->c;

	if (c->n_map >= 31)
		return;
	c->il_off[c->n_map] = j->il;
	c->native_off[c->n_map] = j->e.len;
	c->n_map++;
	j->il += 5 + (j->il % 3);
}

static void prolog(struct jctx *j, bool saves, int32_t locals)
{
	struct xe *e = &j->e;

	j->c->il_off[0] = IL_PROLOG;
	j->c->native_off[0] = 0;
	j->c->n_map = 1;
	xe_push(e, RBP);
	xe_mov(e, RBP, RSP);
	if (saves) {
		xe_push(e, RBX);
		xe_push(e, R12);
		xe_push(e, R13);
		xe_push(e, R14);
	}
	if (locals)
		xe_alu_imm(e, ALU_SUB, RSP, locals);
}

static void epilog(struct jctx *j, bool saves)
{
	struct xe *e = &j->e;
	struct rt_code *c = j->c;

	if (c->n_map < 32) {
		c->il_off[c->n_map] = IL_EPILOG;
		c->native_off[c->n_map] = e->len;
		c->n_map++;
	}
	if (saves) {
		xe_lea(e, RSP, RBP, -32);
		xe_pop(e, R14);
		xe_pop(e, R13);
		xe_pop(e, R12);
		xe_pop(e, RBX);
	}
	xe_leave(e);
	xe_ret(e);
}

/* a funclet: its own small frame inside the parent's code range */
static uint32_t funclet_begin(struct jctx *j)
{
	xe_align(&j->e, 16);
	uint32_t off = j->e.len;

	xe_push(&j->e, RBP);
	xe_mov(&j->e, RBP, RSP);
	return off;
}

static void funclet_end(struct jctx *j)
{
	xe_leave(&j->e);
	xe_ret(&j->e);
}

static void call_method(struct jctx *j, struct rt_method *callee)
{
	xe_call_slot(&j->e, &callee->slot);
}

static uint64_t mix_k1(void)
{
	return (0x9e3779b97f4a7c15ull ^ (rt->env.seed << 1)) | 1;
}

/* rax = mix(rdi); clobbers rcx, rdx */
static void emit_mix_ops(struct jctx *j)
{
	struct xe *e = &j->e;

	xe_mov(e, RAX, RDI);
	xe_mov_imm(e, RCX, mix_k1());
	xe_imul(e, RAX, RCX);
	xe_mov(e, RDX, RAX);
	xe_shift(e, 5, RDX, 29);
	xe_alu(e, ALU_XOR, RAX, RDX);
	xe_alu_imm(e, ALU_ADD, RAX, (int32_t)(0x1234567 ^ (rt->env.seed & 0xffff)));
}

/* ---- templates -------------------------------------------------------- */

static void body_mix(struct jctx *j)
{
	struct xe *e = &j->e;

	if (j->tier == TIER_QUICK) {
		prolog(j, false, 16);
		xe_store(e, RBP, -8, RDI);
		stmt(j);
		xe_load(e, RDI, RBP, -8);
		emit_mix_ops(j);
		xe_store(e, RBP, -16, RAX);
		stmt(j);
		xe_load(e, RAX, RBP, -16);
	} else {
		prolog(j, false, 0);
		stmt(j);
		emit_mix_ops(j);
	}
	epilog(j, false);
}

/* rax = step(rdi, rsi); clobbers rcx, rdx */
static void emit_step_ops(struct jctx *j)
{
	struct xe *e = &j->e;

	xe_mov(e, RAX, RDI);
	xe_imul_imm(e, RCX, RSI, 3);
	xe_alu(e, ALU_XOR, RAX, RCX);
	stmt(j);
	xe_mov(e, RDX, RAX);
	xe_shift(e, 5, RDX, 7);
	xe_alu(e, ALU_ADD, RAX, RDX);
	xe_shift(e, 0, RAX, 13);
}

static void body_step(struct jctx *j)
{
	struct xe *e = &j->e;

	prolog(j, false, j->tier == TIER_QUICK ? 16 : 0);
	if (j->tier == TIER_QUICK) {
		xe_store(e, RBP, -8, RDI);
		xe_store(e, RBP, -16, RSI);
		xe_load(e, RDI, RBP, -8);
		xe_load(e, RSI, RBP, -16);
	}
	stmt(j);
	emit_step_ops(j);
	epilog(j, false);
}

/* int64 HotLoop(int32 n): acc = seed; for (i < n) { acc = Mix(acc ^ i); acc += Step(acc, i); } */
static void body_hot_loop(struct jctx *j)
{
	struct xe *e = &j->e;
	int top = xe_label(e), done = xe_label(e);

	prolog(j, true, 0);
	stmt(j);
	xe_mov(e, R12, RDI);
	xe_alu(e, ALU_XOR, R13, R13);
	xe_mov_imm(e, RBX, rt->env.seed * 0x100000001b3ull + 1);
	xe_align(e, 16);
	xe_bind(e, top);
	stmt(j);
	xe_alu(e, ALU_CMP, R13, R12);
	xe_jcc(e, CC_GE, done);
	xe_mov(e, RDI, RBX);
	xe_alu(e, ALU_XOR, RDI, R13);
	if (j->tier == TIER_QUICK)
		call_method(j, rt->wk.mix);
	else
		emit_mix_ops(j);	/* inlined */
	xe_mov(e, RBX, RAX);
	stmt(j);
	xe_mov(e, RDI, RBX);
	xe_mov(e, RSI, R13);
	if (j->tier == TIER_QUICK)
		call_method(j, rt->wk.step);
	else
		emit_step_ops(j);	/* inlined */
	xe_alu(e, ALU_ADD, RBX, RAX);
	xe_inc(e, R13);
	xe_jmp(e, top);
	xe_bind(e, done);
	stmt(j);
	xe_mov(e, RAX, RBX);
	epilog(j, true);
}

/* int64 BuildList(int32 n): n objects from the GC heap, each touched */
static void body_build_list(struct jctx *j)
{
	struct xe *e = &j->e;
	int top = xe_label(e), done = xe_label(e);

	prolog(j, true, 0);
	stmt(j);
	xe_mov(e, R12, RDI);
	xe_alu(e, ALU_XOR, R13, R13);
	xe_alu(e, ALU_XOR, RBX, RBX);
	xe_bind(e, top);
	stmt(j);
	xe_alu(e, ALU_CMP, R13, R12);
	xe_jcc(e, CC_GE, done);
	xe_mov(e, RDI, R13);
	xe_call_abs(e, H->new_obj);
	xe_mov(e, R14, RAX);
	stmt(j);
	xe_store(e, R14, 8, R13);
	xe_mov(e, RDI, R14);
	call_method(j, rt->wk.touch);
	xe_alu(e, ALU_ADD, RBX, RAX);
	xe_inc(e, R13);
	xe_jmp(e, top);
	xe_bind(e, done);
	xe_mov(e, RAX, RBX);
	epilog(j, true);
}

static void body_touch(struct jctx *j)
{
	struct xe *e = &j->e;

	prolog(j, false, 0);
	stmt(j);
	xe_load(e, RAX, RDI, 8);
	xe_load(e, RCX, RDI, 0);
	xe_alu(e, ALU_XOR, RAX, RCX);
	epilog(j, false);
}

/* if ((rbx & mask) == val) { body } */
static int when_begin(struct jctx *j, int32_t mask, int32_t val)
{
	struct xe *e = &j->e;
	int skip = xe_label(e);

	xe_mov(e, RAX, RBX);
	xe_alu_imm(e, ALU_AND, RAX, mask);
	xe_alu_imm(e, ALU_CMP, RAX, val);
	xe_jcc(e, CC_NE, skip);
	return skip;
}

static void call_with_imm(struct jctx *j, struct rt_method *m, int64_t arg)
{
	xe_mov_imm(&j->e, RDI, (uint64_t)arg);
	call_method(j, m);
	xe_alu(&j->e, ALU_ADD, R12, RAX);
}

static void call_with_iter(struct jctx *j, struct rt_method *m)
{
	xe_mov(&j->e, RDI, RBX);
	call_method(j, m);
	xe_alu(&j->e, ALU_ADD, R12, RAX);
}

static void call_helper_iter(struct jctx *j, void *helper)
{
	xe_mov(&j->e, RDI, RBX);
	xe_call_abs(&j->e, helper);
	xe_alu(&j->e, ALU_ADD, R12, RAX);
}

/* int64 RunIteration(int64 iter): one operation of the scenario */
static void body_run_iteration(struct jctx *j)
{
	struct xe *e = &j->e;
	uint32_t w = rt->env.work;
	int skip;

	prolog(j, true, 0);
	stmt(j);
	xe_mov(e, RBX, RDI);
	xe_alu(e, ALU_XOR, R12, R12);
	stmt(j);
	switch (rt->env.scenario) {
	case SC_CPU:
		call_with_imm(j, rt->wk.hot_loop, w);
		break;
	case SC_ALLOC:
		call_with_imm(j, rt->wk.build_list, 64);
		break;
	case SC_EXCEPTIONS:
		call_with_iter(j, rt->wk.exc_run);
		stmt(j);
		call_with_imm(j, rt->wk.hot_loop, w / 16);
		break;
	case SC_CONTENTION:
		call_with_iter(j, rt->wk.increment);
		break;
	case SC_JIT_CHURN:
		call_helper_iter(j, H->churn);
		stmt(j);
		call_with_imm(j, rt->wk.hot_loop, w / 8);
		break;
	case SC_MIXED:
		call_with_imm(j, rt->wk.hot_loop, w / 4);
		stmt(j);
		call_with_imm(j, rt->wk.build_list, 16);
		stmt(j);
		skip = when_begin(j, 3, 1);
		call_with_iter(j, rt->wk.exc_run);
		xe_bind(e, skip);
		stmt(j);
		skip = when_begin(j, 3, 3);
		call_with_iter(j, rt->wk.increment);
		xe_bind(e, skip);
		stmt(j);
		skip = when_begin(j, 7, 5);
		call_helper_iter(j, H->churn);
		xe_bind(e, skip);
		stmt(j);
		skip = when_begin(j, 63, 62);
		call_method(j, rt->wk.gc_collect);
		xe_bind(e, skip);
		break;
	}
	stmt(j);
	xe_mov(e, RDI, RBX);
	xe_mov(e, RSI, R12);
	xe_call_abs(e, H->work_item_done);
	epilog(j, true);
}

/* void WorkerThreadStart(): while ((w = dequeue()) >= 0) DispatchWorkItem(w); */
static void body_worker_start(struct jctx *j)
{
	struct xe *e = &j->e;
	int top = xe_label(e), done = xe_label(e);

	prolog(j, true, 0);
	xe_bind(e, top);
	stmt(j);
	xe_call_abs(e, H->tp_dequeue);
	xe_test(e, RAX, RAX);
	xe_jcc(e, CC_L, done);
	stmt(j);
	xe_mov(e, RDI, RAX);
	call_method(j, rt->wk.dispatch);
	xe_jmp(e, top);
	xe_bind(e, done);
	xe_alu(e, ALU_XOR, RAX, RAX);
	epilog(j, true);
}

static void body_forward(struct jctx *j, struct rt_method *callee)
{
	prolog(j, false, 0);
	stmt(j);
	call_method(j, callee);
	epilog(j, false);
}

static void body_helper_call(struct jctx *j, void *helper)
{
	prolog(j, false, 0);
	stmt(j);
	xe_call_abs(&j->e, helper);
	epilog(j, false);
}

/* try { slot(arg) } + clause funclets */
static void body_try(struct jctx *j, struct rt_method *callee, int clause)
{
	struct xe *e = &j->e;

	prolog(j, false, 0);
	stmt(j);
	xe_mov(e, RSI, RDI);
	xe_mov_imm(e, RDI, (uint64_t)(uintptr_t)&callee->slot);
	xe_mov_imm(e, RDX, (uint64_t)clause);
	xe_call_abs(e, H->try_call);
	epilog(j, false);
	if (clause == CLAUSE_LEVEL1_FILTERED) {
		/* filter: catch (ArgumentException e) when (e.ParamName != null) */
		j->c->filter_off = funclet_begin(j);
		xe_load(e, RAX, RDI, 16);
		xe_alu_imm(e, ALU_CMP, RAX, EXC_ARGUMENT);
		xe_setcc_movzx(e, CC_E, RAX);
		funclet_end(j);
	}
	/* catch funclet: returns 100 * clause + exception kind */
	j->c->catch_off = funclet_begin(j);
	xe_load(e, RAX, RDI, 16);
	xe_alu_imm(e, ALU_ADD, RAX, 100 * clause);
	funclet_end(j);
}

static void body_level2(struct jctx *j)
{
	struct xe *e = &j->e;
	int fin = xe_label(e);

	prolog(j, true, 0);
	stmt(j);
	xe_mov(e, RBX, RDI);
	call_method(j, rt->wk.exc_level3);
	stmt(j);
	xe_mov(e, R12, RAX);
	xe_mov(e, RDI, RBX);	/* finally on the normal path: call the funclet */
	xe_call_label(e, fin);
	xe_mov(e, RAX, R12);
	epilog(j, true);
	j->c->finally_off = funclet_begin(j);
	xe_bind_at(e, fin, j->c->finally_off);
	xe_mov(e, RAX, RDI);
	xe_shift(e, 0, RAX, 3);
	funclet_end(j);
}

static void body_validate(struct jctx *j)
{
	prolog(j, false, 0);
	stmt(j);
	xe_call_abs(&j->e, H->throw_exc);
	xe_int3(&j->e);		/* throw does not return */
	epilog(j, false);
}

/* Increment(iter): lock (L) { HotLoop(work/8); Thread.Sleep(hold) } */
static void body_increment(struct jctx *j)
{
	struct xe *e = &j->e;

	prolog(j, true, 0);
	stmt(j);
	xe_mov(e, RBX, RDI);
	xe_alu(e, ALU_XOR, R12, R12);
	call_with_iter(j, rt->wk.monitor_enter);
	stmt(j);
	call_with_imm(j, rt->wk.hot_loop, rt->env.work / 8);
	stmt(j);
	call_with_imm(j, rt->wk.thread_sleep, rt->env.hold_us);
	stmt(j);
	call_with_iter(j, rt->wk.monitor_exit);
	xe_mov(e, RAX, R12);
	epilog(j, true);
}

/* int64 Invoke(fnptr, arg): call via register into plug-in code */
static void body_plugin_invoke(struct jctx *j)
{
	struct xe *e = &j->e;

	prolog(j, false, 0);
	stmt(j);
	xe_mov(e, RAX, RDI);
	xe_mov(e, RDI, RSI);
	xe_call_reg(e, RAX);
	epilog(j, false);
}

/* plug-in handler: `param` arithmetic ops, Mix(), then the next handler */
#define PLUGIN_BUFFER_SIZE 102400
static void body_plugin_handler(struct jctx *j)
{
	struct xe *e = &j->e;
	struct rt_method *m = j->m;
	struct rt_prng r = { rt->env.seed ^ m->token ^ ((uint64_t)m->assembly->index << 32) };

	prolog(j, true, 0);
	stmt(j);
	xe_mov(e, RBX, RDI);
	for (uint32_t i = 0; i < m->param; i++) {
		int32_t k = (int32_t)rt_prng_range(&r, 1, 0x7fffff);

		if (i % 8 == 0)
			stmt(j);
		switch (rt_prng_next(&r) % 4) {
		case 0: xe_alu_imm(e, ALU_ADD, RBX, k); break;
		case 1: xe_alu_imm(e, ALU_XOR, RBX, k); break;
		case 2: xe_imul_imm(e, RBX, RBX, k | 1); break;
		default: xe_shift(e, 0, RBX, (uint8_t)(k % 63 + 1)); break;
		}
	}
	stmt(j);
	xe_mov(e, RDI, RBX);
	call_method(j, rt->wk.mix);
	xe_mov(e, RBX, RAX);
	stmt(j);
	if (m->next_handler && m->next_handler->current) {
		xe_mov(e, RDI, RBX);
		xe_call_rel(e, m->next_handler->current->start);
		xe_alu(e, ALU_ADD, RBX, RAX);
	} else {
		/* the last handler allocates its result buffer on the LOH: an
		 * allocation tick (and now and then a GC) inside plug-in code */
		xe_mov_imm(e, RDI, PLUGIN_BUFFER_SIZE);
		xe_call_abs(e, H->new_large);
		xe_load(e, RAX, RAX, 0);
		xe_alu(e, ALU_XOR, RBX, RAX);
	}
	xe_mov(e, RAX, RBX);
	epilog(j, true);
}

static void emit_body(struct jctx *j)
{
	switch (j->m->body) {
	case B_WORKER_START: body_worker_start(j); break;
	case B_DISPATCH: body_forward(j, rt->wk.run_iteration); break;
	case B_MONITOR_ENTER: body_helper_call(j, H->monitor_enter); break;
	case B_MONITOR_EXIT: body_helper_call(j, H->monitor_exit); break;
	case B_THREAD_SLEEP: body_helper_call(j, H->sleep); break;
	case B_GC_COLLECT: body_helper_call(j, H->gc_collect); break;
	case B_RUN_ITERATION: body_run_iteration(j); break;
	case B_HOT_LOOP: body_hot_loop(j); break;
	case B_MIX: body_mix(j); break;
	case B_STEP: body_step(j); break;
	case B_BUILD_LIST: body_build_list(j); break;
	case B_TOUCH: body_touch(j); break;
	case B_EXC_RUN: body_try(j, rt->wk.exc_level1, CLAUSE_RUN_CATCH_ALL); break;
	case B_EXC_LEVEL1: body_try(j, rt->wk.exc_level2, CLAUSE_LEVEL1_FILTERED); break;
	case B_EXC_LEVEL2: body_level2(j); break;
	case B_EXC_LEVEL3: body_forward(j, rt->wk.exc_validate); break;
	case B_EXC_VALIDATE: body_validate(j); break;
	case B_INCREMENT: body_increment(j); break;
	case B_PLUGIN_INVOKE: body_plugin_invoke(j); break;
	case B_PLUGIN_HANDLER: body_plugin_handler(j); break;
	}
}

static const char *tier_name(enum rt_tier t)
{
	switch (t) {
	case TIER_QUICK: return "QuickJitted";
	case TIER_1: return "OptimizedTier1";
	case TIER_OPT: return "Optimized";
	}
	return "Unknown";
}

static int table_add(struct rt_code *c)
{
	if (GROW(rt->codes, cap_codes, (size_t)rt->n_codes + 1) ||
	    GROW(live, cap_live, (size_t)n_live + 1))
		return -ENOMEM;
	c->index = rt->n_codes;
	rt->codes[rt->n_codes++] = c;
	live[n_live++] = c;
	return 0;
}

struct rt_code *jit__compile(struct rt_method *m, enum rt_tier tier)
{
	struct jctx *j = calloc(1, sizeof(*j));
	struct rt_code *c = calloc(1, sizeof(*c));
	int err = -ENOMEM;

	if (!j || !c)
		goto fail;
	ev_method_jitting_started(m);
	xe_init(&j->e);
	j->m = m;
	j->c = c;
	j->tier = tier;
	j->il = 0;
	c->method = m;
	c->tier = tier;
	c->rejit_of = m->current ? m->current->index : -1;
	emit_body(j);
	err = xe_finish(&j->e);
	if (err)
		goto fail;
	c->start = codeheap__alloc(j->e.len);
	if (!c->start) {
		err = -errno;
		goto fail;
	}
	xe_link(&j->e, c->start);
	__builtin___clear_cache((char *)c->start, (char *)c->start + j->e.len);
	c->size = j->e.len;
	c->flags = METHOD_FLAG_JITTED | ((uint32_t)tier << METHOD_TIER_SHIFT);
	snprintf(c->perfmap_name, sizeof(c->perfmap_name), "%s [%s] %s::%s(%s)%s%s%s",
		 m->ret, m->assembly->name, m->ns, m->name, m->args,
		 rt->env.perfmap_tiers ? "[" : "", rt->env.perfmap_tiers ? tier_name(tier) : "",
		 rt->env.perfmap_tiers ? "]" : "");
	c->load_ns = mono_ns();
	err = table_add(c);
	if (err) {
		codeheap__free(c->start);
		goto fail;
	}
	perfmap__log_code(c);
	ev_method_load(c, false);
	ev_method_il_map(c);
	m->current = c;
	__atomic_store_n(&m->slot, (void *)c->start, __ATOMIC_RELEASE);
	free(j);
	return c;
fail:
	pr_warn("jit: cannot compile %s::%s: %s\n", m->ns, m->name, strerror(-err));
	free(j);
	free(c);
	errno = -err;
	return NULL;
}

void jit__free_code(struct rt_code *c)
{
	ev_method_load(c, true);
	c->unload_ns = mono_ns();
	for (int i = 0; i < n_live; i++)
		if (live[i] == c) {
			live[i] = live[--n_live];
			break;
		}
	codeheap__free(c->start);
	if (c->method->current == c) {
		c->method->current = NULL;
		__atomic_store_n(&c->method->slot, NULL, __ATOMIC_RELEASE);
	}
}

struct rt_code *jit__find_code(uintptr_t ip)
{
	struct rt_code *found = NULL;

	pthread_mutex_lock(&rt->jit_lock);
	for (int i = 0; i < n_live; i++) {
		struct rt_code *c = live[i];

		if (ip >= (uintptr_t)c->start && ip < (uintptr_t)c->start + c->size) {
			found = c;
			break;
		}
	}
	pthread_mutex_unlock(&rt->jit_lock);
	return found;
}

void jit__init(struct refrt *r, const struct rt_helpers *h)
{
	rt = r;
	H = h;
}
