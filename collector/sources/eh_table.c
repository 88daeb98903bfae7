// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * eh_table.c - a file's .eh_frame as rows the BPF walker can follow.
 *
 * libdw executes the CFI: for an address, dwarf_cfi_addrframe gives the
 * frame state there and dwarf_frame_info the range [start, end) that state
 * holds for, so the code of every executable segment is walked range by
 * range, each range asked for three rules:
 *   - the CFA (dwarf_frame_cfa): a register plus an offset, which libdw
 *     hands back as one DW_OP_bregx (or DW_OP_bregN); rsp and rbp are what
 *     the walker knows.  The only expression taken is the PLT's: rsp + k,
 *     plus 8 more once the pc's offset in its 16-byte entry reaches the
 *     push of the entry's second half (GNU ld and lld write it alike);
 *   - the return address (register 16): saved at CFA - 8, or undefined
 *     (the outermost frame);
 *   - rbp (register 6): unchanged (same value, or undefined: the walker
 *     keeps the register it has), or saved at CFA + off.
 * Anything else (a register saved in another, a val_expression, a CFA in
 * another register) makes the row EH_CFA_NONE: the walker takes the
 * frame-pointer step there.  Addresses no FDE covers are found one byte at
 * a time until the next FDE (libdw's lookup goes through .eh_frame_hdr's
 * sorted table; gaps are a function's alignment padding) and become one
 * EH_CFA_NONE row each.
 *
 * Code that .eh_frame does not cover is looked up in .debug_frame when the
 * file has one (code built with -fno-asynchronous-unwind-tables and -g,
 * or a file whose debug sections were kept): the same rules, from the
 * other section, into the same table.
 *
 * Neighbouring ranges with the same rules for these three registers are
 * one row: the rules for rbx or r12 that split them in the file do not
 * matter to the walker.
 */
#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdw.h>
#include "eh_table.h"
#include "grow.h"

#define REG_RBP	6
#define REG_RSP	7
#define REG_RA	16

struct builder {
	struct eh_table *t;
	size_t cap;
	const bool *stop;
};

#define STOP_EVERY	4096	/* ranges walked between two looks at *stop */

static bool same_rule(const struct eh_row *a, const struct eh_row *b)
{
	return a->cfa_rule == b->cfa_rule && a->cfa_off == b->cfa_off &&
	       a->rbp_rule == b->rbp_rule && a->rbp_off == b->rbp_off &&
	       a->plt_lim == b->plt_lim;
}

static int push(struct builder *b, const struct eh_row *r)
{
	struct eh_table *t = b->t;

	if (t->n && t->rows[t->n - 1].pc == r->pc) {	/* an empty range before */
		t->none_rows -= t->rows[t->n - 1].cfa_rule == EH_CFA_NONE;
		t->n--;
	}
	if (t->n && same_rule(&t->rows[t->n - 1], r))
		return 0;
	if (GROW(t->rows, b->cap, t->n + 1))
		return -ENOMEM;
	t->rows[t->n++] = *r;
	if (r->cfa_rule == EH_CFA_NONE)
		t->none_rows++;
	return 0;
}

/* The register of a register-plus-offset op, or -1. */
static int breg_of(const Dwarf_Op *op, int64_t *off)
{
	if (op->atom == DW_OP_bregx) {
		*off = (int64_t)op->number2;
		return (int)op->number;
	}
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*off = (int64_t)op->number;
		return op->atom - DW_OP_breg0;
	}
	return -1;
}

/* The PLT's CFA expression: rsp + k + ((rip & 15) >= lim) << 3. */
static bool plt_cfa(const Dwarf_Op *ops, size_t n, struct eh_row *r)
{
	int64_t k, zero;

	if (n != 9 || breg_of(&ops[0], &k) != REG_RSP || breg_of(&ops[1], &zero) != REG_RA ||
	    zero || ops[2].atom != DW_OP_lit15 || ops[3].atom != DW_OP_and ||
	    ops[4].atom < DW_OP_lit0 || ops[4].atom > DW_OP_lit15 || ops[5].atom != DW_OP_ge ||
	    ops[6].atom != DW_OP_lit3 || ops[7].atom != DW_OP_shl || ops[8].atom != DW_OP_plus)
		return false;
	r->cfa_rule = EH_CFA_PLT;
	r->cfa_off = (int32_t)k;
	r->plt_lim = ops[4].atom - DW_OP_lit0;
	return true;
}

static bool cfa_rule(Dwarf_Frame *f, struct eh_row *r)
{
	Dwarf_Op *ops;
	size_t n;
	int64_t off;
	int reg;

	if (dwarf_frame_cfa(f, &ops, &n) || !n)
		return false;
	if (n != 1)
		return plt_cfa(ops, n, r);
	reg = breg_of(&ops[0], &off);
	if ((reg != REG_RSP && reg != REG_RBP) || off < INT32_MIN || off > INT32_MAX)
		return false;
	r->cfa_rule = reg == REG_RSP ? EH_CFA_SP : EH_CFA_BP;
	r->cfa_off = (int32_t)off;
	return true;
}

/*
 * Where a register is saved: 0 unchanged (same value, undefined) with
 * *undef telling which, 1 at CFA + *off, -1 any other rule.
 */
static int saved_at(Dwarf_Frame *f, int regno, int64_t *off, bool *undef)
{
	Dwarf_Op mem[3], *ops;
	size_t n;

	if (dwarf_frame_register(f, regno, mem, &ops, &n))
		return -1;
	*undef = !n && ops;
	if (!n)
		return 0;
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return -1;
	*off = 0;
	if (n == 1)
		return 1;
	if (n == 2 && ops[1].atom == DW_OP_plus_uconst) {
		*off = (int64_t)ops[1].number;
		return 1;
	}
	return -1;
}

/* The walker's row for the frame state f (pc set by the caller). */
static void row_of(Dwarf_Frame *f, struct eh_row *r)
{
	int64_t off = 0;
	bool undef;
	int at;

	if (!cfa_rule(f, r))
		goto none;
	at = saved_at(f, REG_RA, &off, &undef);
	if (at == 0 && undef) {
		r->cfa_rule = EH_CFA_END;
		r->cfa_off = 0;
		r->plt_lim = 0;
		return;
	}
	if (at != 1 || off != -8)
		goto none;
	at = saved_at(f, REG_RBP, &off, &undef);
	if (at < 0 || (at == 1 && (off < INT16_MIN || off > INT16_MAX)))
		goto none;
	r->rbp_rule = at ? EH_RBP_AT : EH_RBP_SAME;
	r->rbp_off = at ? (int16_t)off : 0;
	return;
none:
	r->cfa_rule = EH_CFA_NONE;
	r->cfa_off = 0;
	r->plt_lim = 0;
	r->rbp_rule = EH_RBP_SAME;
	r->rbp_off = 0;
}

/* The frame state at pc from .eh_frame, else .debug_frame; 0 or -1. */
static int frame_at(Dwarf_CFI *eh, Dwarf_CFI *dbg, uint64_t pc, Dwarf_Frame **f)
{
	*f = NULL;
	if (eh && !dwarf_cfi_addrframe(eh, pc, f))
		return 0;
	free(*f);
	*f = NULL;
	if (dbg && !dwarf_cfi_addrframe(dbg, pc, f))
		return 0;
	free(*f);
	*f = NULL;
	return -1;
}

/* Rows for [lo, hi), one executable segment. */
static int walk_segment(struct builder *b, Dwarf_CFI *cfi, Dwarf_CFI *dbg, uint64_t lo,
			uint64_t hi)
{
	uint64_t pc = lo, ranges = 0;
	int err;

	while (pc < hi) {
		struct eh_row r = { .pc = (uint32_t)pc };
		Dwarf_Frame *f = NULL;
		Dwarf_Addr start, end;
		bool sig;

		if (frame_at(cfi, dbg, pc, &f)) {
			r.cfa_rule = EH_CFA_NONE;
			if (!b->t->n || !same_rule(&b->t->rows[b->t->n - 1], &r))
				b->t->gap_rows++;
			err = push(b, &r);
			pc++;
		} else {
			if (dwarf_frame_info(f, &start, &end, &sig) < 0 || end <= pc)
				end = pc + 1;
			row_of(f, &r);
			err = push(b, &r);
			pc = end;
		}
		free(f);
		if (err)
			return err;
		if (b->stop && !(++ranges % STOP_EVERY) &&
		    __atomic_load_n(b->stop, __ATOMIC_RELAXED))
			return -ECANCELED;
	}
	return 0;
}

int eh_table__build(Elf *elf, struct eh_table *t, const bool *stop)
{
	struct builder b = { .t = t, .stop = stop };
	Dwarf_CFI *cfi, *dbg = NULL;
	Dwarf *dw;
	size_t i, nph;
	int err = 0;

	memset(t, 0, sizeof(*t));
	if (elf_getphdrnum(elf, &nph))
		return -ENOEXEC;
	cfi = dwarf_getcfi_elf(elf);
	dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (dw)
		dbg = dwarf_getcfi(dw);	/* NULL without .debug_frame */
	if (!cfi && !dbg) {
		if (dw)
			dwarf_end(dw);
		return -ENOENT;
	}
	for (i = 0; i < nph && !err; i++) {
		struct eh_row end = { .cfa_rule = EH_CFA_NONE };
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) ||
		    !ph.p_memsz)
			continue;
		if (ph.p_vaddr + ph.p_memsz > UINT32_MAX) {
			err = -E2BIG;
			break;
		}
		err = walk_segment(&b, cfi, dbg, ph.p_vaddr, ph.p_vaddr + ph.p_memsz);
		end.pc = (uint32_t)(ph.p_vaddr + ph.p_memsz);
		if (!err)
			err = push(&b, &end);
	}
	if (cfi)
		dwarf_cfi_end(cfi);
	if (dw)
		dwarf_end(dw);	/* and dbg with it */
	if (!err && !t->n)
		err = -ENOENT;
	if (err)
		eh_table__free(t);
	return err;
}

void eh_table__free(struct eh_table *t)
{
	if (!t)
		return;
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

const struct eh_row *eh_table__find(const struct eh_table *t, uint64_t pc)
{
	uint32_t lo = 0, hi = t->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->rows[mid].pc <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &t->rows[lo - 1] : NULL;
}
