// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * unwind.c - user stacks unwound offline from a sample's copied registers
 * and stack (unwind.h), the reference path of perf's --call-graph dwarf.
 *
 * Per process one Dwfl holds a module for every ELF file the process maps
 * executable, opened the one way a mapped file is opened
 * (proc_map__open_path) and placed at its load bias; libdwfl keeps each
 * module's parsed CFI, so a sample costs the unwinding alone.  The Dwfl is
 * built again when the process's mappings change (a fingerprint of them
 * differs), and at most UW_PROCS processes keep one (the least recently
 * unwound loses it: each holds its files open).
 *
 * Walk: libdwfl steps from frame to frame by .eh_frame (.debug_frame when
 * the file has it) while the pc is in a module; memory reads are served
 * from the copied stack only.  A return address CFI gives that is in no
 * executable mapping at all (a runtime's assembly stub whose CFI does not
 * describe it) is not a frame: the walk goes on by the frame-pointer chain
 * from the last frame CFI reached, which such stubs keep.  A pc in no module (JIT code: a perf map or
 * anonymous executable memory has no CFI) is continued by the frame-pointer
 * chain, which JIT code keeps: the return address at bp + 8, the caller's
 * bp at bp; as soon as a return address lands in a module again, libdwfl
 * takes over from there with the registers the chain gives (ip, sp = bp +
 * 16, bp).  That restart looks the CFI up at the return address itself
 * rather than the call before it, which differs only when the call is the
 * last instruction of a function.  The JIT and ReadyToRun code keep an rbp
 * frame only where a method needs one: the return addresses of frameless
 * methods' callers lie between a frame's sp and the next bp of the chain,
 * and a scan of those words finds them (scan_frameless).  Whether a word
 * follows a call is read from the live process's code; the answers are
 * kept per process (UW_CALLS of them, by return address) while the
 * symbolizer's code generation and the mappings stay the same, since the
 * same return addresses come back in sample after sample (call_before).
 *
 * Registers: only ip, sp and bp are known at the start (struct
 * ke_ustack_copy); CFI of ordinary code needs no other to find the caller,
 * and callee-saved registers a frame restores come from the stack.
 * The stack ends where the copy ends (perf's truncation): a frame whose
 * CFA lies beyond it is the last.
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include "clock.h"
#include "elf_file.h"
#include "hash.h"
#include "proc_maps.h"
#include "x86_call.h"
#include "proc_mem.h"
#include "symbolizer.h"
#include "unwind.h"

#define LOG_PREFIX "unwind: "
#include "log.h"

#define UW_PROCS	64
#define UW_CALLS	512	/* cached after_call answers per process (8 KiB) */
#define UW_REG_BP	6	/* DWARF register numbers of x86-64 */
#define UW_REG_SP	7
#define UW_REG_RA	16	/* the return address column: the pc */

/* One answer of after_call: ret 0 is an empty slot (no candidate is
 * below 4096); gen_ok is the code generation it was read at, shifted left
 * once, with the answer in bit 0. */
struct uw_call {
	uint64_t ret;
	uint64_t gen_ok;
};

struct uw_proc {
	pid_t pid;
	Dwfl *dwfl;		/* NULL: no module (then the chain alone) */
	uint64_t fingerprint;
	uint64_t used;		/* unwinder's clock of the last use */
	struct uw_call *calls;	/* UW_CALLS slots by return address, NULL until
				 * the first scan; dropped with the Dwfl */
};

/* the stack being unwound, the callbacks' argument */
struct uw_sample {
	struct unwind_regs start;	/* registers libdwfl starts from */
	const uint8_t *stack;
	uint64_t lo, hi;		/* copied range [sp, sp + size) */
	uint64_t *out;
	uint32_t n, max;
	bool skip_first;		/* the start ip is already in out */
	bool handoff;			/* stopped at a pc in no module */
	uint64_t fp_sp, fp_bp;		/* registers there */
	uint64_t prev_sp, prev_bp;	/* of the last frame CFI reached */
	bool prev_ok;
	const struct proc_maps *pm;
	Dwfl *dwfl;
	struct unwinder *u;
	struct uw_proc *proc;
	uint64_t code_gen;		/* symbolizer__code_gen of the process */
	pid_t pid;
};

struct unwinder {
	struct uw_proc procs[UW_PROCS];
	uint64_t clock;
	struct unwind_stats st;
	struct uw_sample cur;
};

struct unwinder *unwinder__new(void)
{
	struct unwinder *u = calloc(1, sizeof(*u));

	if (!u)
		errno = ENOMEM;
	return u;
}

static void uw_proc__clear(struct uw_proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	free(p->calls);
	memset(p, 0, sizeof(*p));
}

void unwinder__free(struct unwinder *u)
{
	int i;

	if (!u)
		return;
	for (i = 0; i < UW_PROCS; i++)
		uw_proc__clear(&u->procs[i]);
	free(u);
}

void unwinder__stats(const struct unwinder *u, struct unwind_stats *st)
{
	*st = u->st;
}

/* ---------------------------------------------------------- modules */

/* No separate debug files here: .eh_frame is in the mapped file, and a
 * search (debuginfod above all) has no place on the consumer's path. */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	(void)mod; (void)userdata; (void)modname; (void)base; (void)file_name;
	(void)debuglink_file; (void)debuglink_crc; (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* A Dwfl with every ELF file pid maps executable, or NULL when none opens. */
static Dwfl *build_dwfl(pid_t pid, const struct proc_maps *pm)
{
	Dwfl *dwfl = dwfl_begin(&dwfl_callbacks);
	char path[4096];
	size_t i, j, n = 0;

	if (!dwfl)
		return NULL;
	dwfl_report_begin(dwfl);
	for (i = 0; i < pm->n; i++) {
		const struct proc_map *m = &pm->maps[i];
		uint64_t bias;
		bool seen = false;

		if (proc_map__is_anon(m) || !(m->prot & 4 /* PROT_EXEC */))
			continue;
		/* one module per file: its first executable mapping places it */
		for (j = 0; j < i && !seen; j++)
			seen = pm->maps[j].ino == m->ino && pm->maps[j].dev_major == m->dev_major &&
			       pm->maps[j].dev_minor == m->dev_minor &&
			       !strcmp(pm->maps[j].path, m->path);
		if (seen || proc_map__open_path(pid, m, path, sizeof(path)) ||
		    proc_map__load_bias(path, m, &bias))
			continue;
		if (dwfl_report_elf(dwfl, sym_basename(m->path), path, -1, bias, true))
			n++;
		else
			pr_debug("pid %d: %s not reported: %s\n", (int)pid, m->path,
				 dwfl_errmsg(-1));
	}
	dwfl_report_end(dwfl, NULL, NULL);
	if (!n) {
		dwfl_end(dwfl);
		return NULL;
	}
	return dwfl;
}

/* ------------------------------------------------------- libdwfl state */

static pid_t next_thread(Dwfl *dwfl, void *dwfl_arg, void **thread_argp)
{
	(void)dwfl; (void)dwfl_arg; (void)thread_argp;
	return 0;	/* libdwfl asks only for the thread of the sample */
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *dwfl_arg, void **thread_argp)
{
	(void)dwfl; (void)tid;
	*thread_argp = dwfl_arg;
	return true;
}

static bool copy_read(const struct uw_sample *s, uint64_t addr, uint64_t *val)
{
	if (addr < s->lo || addr > s->hi || s->hi - addr < 8)
		return false;
	memcpy(val, s->stack + (addr - s->lo), 8);
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *dwfl_arg)
{
	struct unwinder *u = dwfl_arg;
	uint64_t v;

	(void)dwfl;
	if (!copy_read(&u->cur, addr, &v))
		return false;
	*result = v;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	struct unwinder *u = thread_arg;
	Dwarf_Word regs[2] = { u->cur.start.bp, u->cur.start.sp }, ip = u->cur.start.ip;

	/* the pc is also register 16: the CFA expression of a PLT entry reads it */
	if (!dwfl_thread_state_registers(thread, UW_REG_BP, 2, regs) ||
	    !dwfl_thread_state_registers(thread, UW_REG_RA, 1, &ip))
		return false;
	dwfl_thread_state_register_pc(thread, u->cur.start.ip);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static struct uw_proc *proc_for(struct unwinder *u, pid_t pid, const struct proc_maps *pm)
{
	struct uw_proc *p = NULL, *lru = &u->procs[0];
	uint64_t fp = proc_maps__fingerprint(pm);
	int i;

	for (i = 0; i < UW_PROCS; i++) {
		if (u->procs[i].pid == pid) {
			p = &u->procs[i];
			break;
		}
		if (u->procs[i].used < lru->used)
			lru = &u->procs[i];
	}
	if (p && p->fingerprint != fp)
		uw_proc__clear(p);
	else if (p)
		goto out;
	if (!p) {
		p = lru;
		uw_proc__clear(p);
	}
	p->pid = pid;
	p->fingerprint = fp;
	u->st.rebuilds++;
	p->dwfl = pm && pm->n ? build_dwfl(pid, pm) : NULL;
	if (p->dwfl && !dwfl_attach_state(p->dwfl, NULL, pid, &thread_callbacks, u)) {
		pr_debug("pid %d: no unwinding state: %s\n", (int)pid, dwfl_errmsg(-1));
		dwfl_end(p->dwfl);
		p->dwfl = NULL;
	}
out:
	p->used = ++u->clock;
	return p;
}

/* ------------------------------------------------------------- walking */

static bool in_module(Dwfl *dwfl, uint64_t pc)
{
	return dwfl && dwfl_addrmodule(dwfl, pc) != NULL;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct uw_sample *s = arg;
	Dwarf_Addr pc;
	Dwarf_Word sp, bp;
	bool act, have = false;

	if (!dwfl_frame_pc(state, &pc, &act))
		return DWARF_CB_ABORT;
	if (!s->skip_first && s->n && !proc_maps__find(s->pm, act ? pc : pc - 1)) {
		/* CFI gave a return address that is no code (a runtime stub's
		 * CFI that does not describe it): the callee's frame pointer
		 * chain, which such code keeps, goes on from the callee */
		if (!s->prev_ok)
			return DWARF_CB_ABORT;
		s->handoff = true;
		s->fp_sp = s->prev_sp;
		s->fp_bp = s->prev_bp;
		return DWARF_CB_ABORT;
	}
	if (s->skip_first) {
		s->skip_first = false;
	} else {
		if (s->n >= s->max)
			return DWARF_CB_ABORT;
		s->out[s->n++] = pc;
		s->u->st.cfi_frames++;
	}
	have = !dwfl_frame_reg(state, UW_REG_SP, &sp) && !dwfl_frame_reg(state, UW_REG_BP, &bp);
	s->prev_ok = have;
	if (have) {
		s->prev_sp = sp;
		s->prev_bp = bp;
	}
	if (!in_module(s->dwfl, act ? pc : pc - 1)) {
		/* JIT code, or the end: the chain decides */
		if (!have)
			return DWARF_CB_ABORT;
		s->handoff = true;
		s->fp_sp = sp;
		s->fp_bp = bp;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/*
 * Managed code without a frame of its own: the JIT and ReadyToRun's
 * compiler (crossgen) give a method an rbp frame only when it needs one
 * (a small method calling another, a leaf, a method before its prologue
 * pushed rbp or after its epilogue popped it), and the unwind info that
 * describes such frames is the runtime's, in its memory or the PE image.
 * A frameless method's caller keeps its return address on the stack
 * between the callee's stack pointer and the next frame the chain knows;
 * the chain skips it.  Every word of [lo, hi) that is an address in
 * executable memory outside every ELF module (JIT code, a ReadyToRun
 * image's code) is taken as such a return address, innermost first.
 */
/*
 * Whether the instruction that ends at ret in pid's code is a call
 * (bpf/x86_call.h; the code is read from the live process: the copy has
 * none): 1 or 0, -1 when the code cannot be read (the process is gone).
 */
static int after_call(pid_t pid, uint64_t ret)
{
	unsigned char b[8];

	if (ret < 7)
		return 0;
	if (proc_mem_rw(pid, ret - 7, b, 7, false))
		return -1;
	return x86_call_ends_here(b);
}

/*
 * after_call's answer for ret, from the process's cache while the code it
 * was read from is known to be the same: the symbolizer's code generation
 * (symbolizer__code_gen) is the one it was read at -- no method loaded or
 * unloaded since, which is how memory freed by an unload and handed to new
 * code shows, no perf-map line read, no mapping reported -- and the
 * mappings are (proc_for drops the cache with the Dwfl when their
 * fingerprint changes: an exec, a mapping replaced).  Each read is a
 * process_vm_readv of a few microseconds, for every candidate of every
 * stack.  A process already gone keeps the answers read while it lived,
 * whatever came since (its exit's method unloads move the generation, and
 * samples taken before the exit are often unwound after it: the last
 * seconds of a `-- CMD` trace).  One slot per hash of ret: a new address
 * evicts the one it lands on.
 */
static bool call_before(struct uw_sample *s, uint64_t ret)
{
	struct uw_proc *p = s->proc;
	uint64_t gen = s->code_gen & (UINT64_MAX >> 1);
	struct uw_call *c;
	int ok;

	if (!p->calls)
		p->calls = calloc(UW_CALLS, sizeof(*p->calls));
	c = p->calls ? &p->calls[hash64(ret) & (UW_CALLS - 1)] : NULL;
	if (c && c->ret == ret && c->gen_ok >> 1 == gen) {
		s->u->st.code_cached++;
		return c->gen_ok & 1;
	}
	s->u->st.code_reads++;
	ok = after_call(s->pid, ret);
	if (ok < 0)	/* unreadable: what was read while it could be */
		return c && c->ret == ret && (c->gen_ok & 1);
	if (c) {	/* no memory for the slots: every answer read */
		c->ret = ret;
		c->gen_ok = gen << 1 | (uint64_t)ok;
	}
	return ok;
}

static void scan_frameless(struct uw_sample *s, uint64_t lo, uint64_t hi)
{
	const struct proc_map *m;
	uint64_t a, w;

	for (a = lo; a + 8 <= hi && s->n < s->max; a += 8) {
		if (!copy_read(s, a, &w) || w < 4096 ||
		    !(m = proc_maps__find(s->pm, w - 1)) || !(m->prot & 4 /* PROT_EXEC */) ||
		    in_module(s->dwfl, w - 1))
			continue;
		/* equal to the frame's own pc: a P/Invoke stub's record of
		 * its call into native code (the runtime's InlinedCallFrame) */
		if ((s->n && w == s->out[s->n - 1]) || !call_before(s, w))
			continue;
		s->out[s->n++] = w;
		s->u->st.fp_frames++;
	}
}

uint32_t unwinder__unwind(struct unwinder *u, pid_t pid, const struct proc_maps *pm,
			  uint64_t code_gen, const struct unwind_regs *r, const void *stack, size_t size,
			  uint64_t *out, uint32_t max)
{
	uint64_t t0 = mono_ns(), ret, next;
	struct uw_sample *s = &u->cur;
	struct uw_proc *p;
	bool first = true;

	if (!r->ip || !max)
		return 0;
	p = proc_for(u, pid, pm);
	memset(s, 0, sizeof(*s));
	s->start = *r;
	s->stack = stack;
	s->lo = r->sp;
	s->hi = r->sp + size;
	s->out = out;
	s->max = max;
	s->dwfl = p->dwfl;
	s->pm = pm;
	s->u = u;
	s->proc = p;
	s->code_gen = code_gen;
	s->pid = pid;
	for (;;) {
		if (in_module(p->dwfl, first ? s->start.ip : s->start.ip - 1)) {
			s->handoff = false;
			s->skip_first = !first;
			/* errors end the stack: the unwinding got as far as it got */
			dwfl_getthread_frames(p->dwfl, pid, frame_cb, s);
			if (!s->handoff)
				break;
		} else {
			if (first) {
				out[s->n++] = s->start.ip;
				u->st.fp_frames++;
			}
			s->fp_sp = s->start.sp;
			s->fp_bp = s->start.bp;
		}
		first = false;
		/* the frame-pointer chain until a return address is in a module */
		for (;;) {
			if (s->n >= max || s->fp_bp < s->fp_sp || (s->fp_bp & 7) ||
			    !copy_read(s, s->fp_bp + 8, &ret) || !copy_read(s, s->fp_bp, &next) ||
			    !ret)
				goto done;
			scan_frameless(s, s->fp_sp, s->fp_bp);
			if (s->n >= max)
				goto done;
			out[s->n++] = ret;
			u->st.fp_frames++;
			s->start.ip = ret;
			s->start.sp = s->fp_bp + 16;
			s->start.bp = next;
			if (in_module(p->dwfl, ret - 1))
				break;
			s->fp_sp = s->start.sp;
			s->fp_bp = next;
		}
	}
done:
	u->st.stacks++;
	u->st.frames += s->n;
	u->st.ns += mono_ns() - t0;
	return s->n;
}
