// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * x86emit.c - encodings for refrt's JIT (see x86emit.h).
 *
 * Every instruction is 64-bit (REX.W) unless noted.  ModRM memory operands
 * always use mod=10 (disp32) or mod=01 (disp8) with a base register; a base
 * of RSP/R12 gets the mandatory SIB byte, so any base works.
 */
#include <errno.h>
#include <string.h>

#include "x86emit.h"

void xe_init(struct xe *e)
{
	memset(e, 0, sizeof(*e));
}

static void xe_byte(struct xe *e, uint8_t b)
{
	if (e->len >= XE_MAX_CODE) {
		e->overflow = 1;
		return;
	}
	e->buf[e->len++] = b;
}

static void xe_u32(struct xe *e, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		xe_byte(e, (uint8_t)(v >> (8 * i)));
}

static void xe_u64(struct xe *e, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		xe_byte(e, (uint8_t)(v >> (8 * i)));
}

static void rex(struct xe *e, int w, int reg, int rm)
{
	uint8_t b = 0x40 | (w ? 8 : 0) | ((reg & 8) ? 4 : 0) | ((rm & 8) ? 1 : 0);

	if (b != 0x40)
		xe_byte(e, b);
}

static void modrm_reg(struct xe *e, int reg, int rm)
{
	xe_byte(e, (uint8_t)(0xc0 | ((reg & 7) << 3) | (rm & 7)));
}

static void modrm_mem(struct xe *e, int reg, int base, int32_t disp)
{
	int mod = (disp >= -128 && disp <= 127) ? 1 : 2;

	xe_byte(e, (uint8_t)((mod << 6) | ((reg & 7) << 3) | (base & 7)));
	if ((base & 7) == RSP)
		xe_byte(e, 0x24);	/* SIB: base only */
	if (mod == 1)
		xe_byte(e, (uint8_t)(int8_t)disp);
	else
		xe_u32(e, (uint32_t)disp);
}

int xe_label(struct xe *e)
{
	if (e->n_labels >= XE_MAX_LABELS) {
		e->overflow = 1;
		return 0;
	}
	e->label_pos[e->n_labels] = -1;
	return e->n_labels++;
}

void xe_bind(struct xe *e, int label)
{
	e->label_pos[label] = (int32_t)e->len;
}

void xe_bind_at(struct xe *e, int label, uint32_t pos)
{
	e->label_pos[label] = (int32_t)pos;
}

static void fixup(struct xe *e, int label)
{
	if (e->n_fixups >= XE_MAX_FIXUPS) {
		e->overflow = 1;
		return;
	}
	e->fixups[e->n_fixups].at = e->len;
	e->fixups[e->n_fixups].label = label;
	e->n_fixups++;
	xe_u32(e, 0);
}

int xe_finish(struct xe *e)
{
	if (e->overflow)
		return -E2BIG;
	for (int i = 0; i < e->n_fixups; i++) {
		int32_t pos = e->label_pos[e->fixups[i].label];
		uint32_t at = e->fixups[i].at;
		int32_t rel;

		if (pos < 0)
			return -EINVAL;
		rel = pos - (int32_t)(at + 4);
		memcpy(e->buf + at, &rel, 4);
	}
	return 0;
}

void xe_link(const struct xe *e, uint8_t *dst)
{
	memcpy(dst, e->buf, e->len);
	for (int i = 0; i < e->n_relocs; i++) {
		uint32_t at = e->relocs[i].at;
		int64_t rel = (int64_t)e->relocs[i].target - (int64_t)(uintptr_t)(dst + at + 4);
		int32_t r32 = (int32_t)rel;

		memcpy(dst + at, &r32, 4);
	}
}

void xe_align(struct xe *e, uint32_t a)
{
	while (e->len % a) {
		uint32_t n = a - e->len % a;

		if (n >= 5) {	/* nopl 0x0(%rax,%rax,1) */
			static const uint8_t nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

			for (int i = 0; i < 5; i++)
				xe_byte(e, nop5[i]);
		} else if (n >= 2) {
			xe_byte(e, 0x66);
			xe_byte(e, 0x90);
		} else {
			xe_byte(e, 0x90);
		}
	}
}

void xe_push(struct xe *e, enum xreg r)
{
	rex(e, 0, 0, r);
	xe_byte(e, (uint8_t)(0x50 + (r & 7)));
}

void xe_pop(struct xe *e, enum xreg r)
{
	rex(e, 0, 0, r);
	xe_byte(e, (uint8_t)(0x58 + (r & 7)));
}

void xe_mov(struct xe *e, enum xreg dst, enum xreg src)
{
	rex(e, 1, src, dst);
	xe_byte(e, 0x89);
	modrm_reg(e, src, dst);
}

void xe_mov_imm(struct xe *e, enum xreg dst, uint64_t imm)
{
	if ((int64_t)imm >= INT32_MIN && (int64_t)imm <= INT32_MAX) {
		rex(e, 1, 0, dst);	/* mov r/m64, simm32 */
		xe_byte(e, 0xc7);
		modrm_reg(e, 0, dst);
		xe_u32(e, (uint32_t)imm);
		return;
	}
	rex(e, 1, 0, dst);		/* movabs */
	xe_byte(e, (uint8_t)(0xb8 + (dst & 7)));
	xe_u64(e, imm);
}

void xe_alu(struct xe *e, enum xalu op, enum xreg dst, enum xreg src)
{
	rex(e, 1, src, dst);
	xe_byte(e, (uint8_t)(op * 8 + 1));	/* 01 add, 09 or, 21 and, 29 sub, 31 xor, 39 cmp */
	modrm_reg(e, src, dst);
}

void xe_alu_imm(struct xe *e, enum xalu op, enum xreg dst, int32_t imm)
{
	rex(e, 1, 0, dst);
	if (imm >= -128 && imm <= 127) {
		xe_byte(e, 0x83);
		modrm_reg(e, op, dst);
		xe_byte(e, (uint8_t)(int8_t)imm);
	} else {
		xe_byte(e, 0x81);
		modrm_reg(e, op, dst);
		xe_u32(e, (uint32_t)imm);
	}
}

void xe_imul(struct xe *e, enum xreg dst, enum xreg src)
{
	rex(e, 1, dst, src);
	xe_byte(e, 0x0f);
	xe_byte(e, 0xaf);
	modrm_reg(e, dst, src);
}

void xe_imul_imm(struct xe *e, enum xreg dst, enum xreg src, int32_t imm)
{
	rex(e, 1, dst, src);
	xe_byte(e, 0x69);
	modrm_reg(e, dst, src);
	xe_u32(e, (uint32_t)imm);
}

void xe_shift(struct xe *e, int digit, enum xreg r, uint8_t n)
{
	rex(e, 1, 0, r);
	xe_byte(e, 0xc1);
	modrm_reg(e, digit, r);
	xe_byte(e, n);
}

void xe_inc(struct xe *e, enum xreg r)
{
	rex(e, 1, 0, r);
	xe_byte(e, 0xff);
	modrm_reg(e, 0, r);
}

void xe_test(struct xe *e, enum xreg a, enum xreg b)
{
	rex(e, 1, b, a);
	xe_byte(e, 0x85);
	modrm_reg(e, b, a);
}

void xe_setcc_movzx(struct xe *e, enum xcc cc, enum xreg r)
{
	/* setcc r8 (REX so that sil/dil/r8b.. encode), then movzx r32, r8 */
	xe_byte(e, (uint8_t)(0x40 | ((r & 8) ? 1 : 0)));
	xe_byte(e, 0x0f);
	xe_byte(e, (uint8_t)(0x90 + cc));
	modrm_reg(e, 0, r);
	xe_byte(e, (uint8_t)(0x40 | ((r & 8) ? 5 : 0)));
	xe_byte(e, 0x0f);
	xe_byte(e, 0xb6);
	modrm_reg(e, r, r);
}

void xe_load(struct xe *e, enum xreg dst, enum xreg base, int32_t disp)
{
	rex(e, 1, dst, base);
	xe_byte(e, 0x8b);
	modrm_mem(e, dst, base, disp);
}

void xe_store(struct xe *e, enum xreg base, int32_t disp, enum xreg src)
{
	rex(e, 1, src, base);
	xe_byte(e, 0x89);
	modrm_mem(e, src, base, disp);
}

void xe_lea(struct xe *e, enum xreg dst, enum xreg base, int32_t disp)
{
	rex(e, 1, dst, base);
	xe_byte(e, 0x8d);
	modrm_mem(e, dst, base, disp);
}

void xe_call_reg(struct xe *e, enum xreg r)
{
	rex(e, 0, 0, r);
	xe_byte(e, 0xff);
	modrm_reg(e, 2, r);
}

/* call qword [r] */
static void xe_call_mem(struct xe *e, enum xreg r)
{
	rex(e, 0, 0, r);
	xe_byte(e, 0xff);
	modrm_mem(e, 2, r, 0);
}

void xe_call_abs(struct xe *e, const void *target)
{
	rex(e, 1, 0, RAX);
	xe_byte(e, 0xb8);
	xe_u64(e, (uint64_t)(uintptr_t)target);
	xe_call_reg(e, RAX);
}

void xe_call_slot(struct xe *e, void *volatile *slot)
{
	rex(e, 1, 0, RAX);
	xe_byte(e, 0xb8);
	xe_u64(e, (uint64_t)(uintptr_t)slot);
	xe_call_mem(e, RAX);
}

void xe_call_rel(struct xe *e, const void *target)
{
	xe_byte(e, 0xe8);
	if (e->n_relocs >= XE_MAX_RELOCS) {
		e->overflow = 1;
		return;
	}
	e->relocs[e->n_relocs].at = e->len;
	e->relocs[e->n_relocs].target = (uint64_t)(uintptr_t)target;
	e->n_relocs++;
	xe_u32(e, 0);
}

void xe_jmp(struct xe *e, int label)
{
	xe_byte(e, 0xe9);
	fixup(e, label);
}

void xe_call_label(struct xe *e, int label)
{
	xe_byte(e, 0xe8);
	fixup(e, label);
}

void xe_jcc(struct xe *e, enum xcc cc, int label)
{
	xe_byte(e, 0x0f);
	xe_byte(e, (uint8_t)(0x80 + cc));
	fixup(e, label);
}

void xe_ret(struct xe *e)
{
	xe_byte(e, 0xc3);
}

void xe_leave(struct xe *e)
{
	xe_byte(e, 0xc9);
}

void xe_int3(struct xe *e)
{
	xe_byte(e, 0xcc);
}
