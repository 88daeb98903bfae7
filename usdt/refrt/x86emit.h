/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * x86emit.h - a tiny x86-64 assembler for refrt's JIT.
 *
 * Code is assembled into a private buffer with position-independent
 * references: labels (jumps inside the method) are resolved by
 * xe_bind(); absolute targets reached with `call rel32` (other JIT code,
 * which lives in the same +-2 GiB code heap) are recorded as relocations
 * and patched by xe_link() once the final address is known.  Native
 * helpers are called through `movabs rax, imm64; call rax`, so they need
 * no relocation.  Only the encodings the JIT templates use are provided.
 */
#ifndef REFRT_X86EMIT_H
#define REFRT_X86EMIT_H

#include <stdint.h>

enum xreg {
	RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI,
	R8, R9, R10, R11, R12, R13, R14, R15,
};

enum xcc {	/* condition codes for jcc/setcc */
	CC_E = 0x4, CC_NE = 0x5, CC_L = 0xc, CC_GE = 0xd, CC_LE = 0xe, CC_G = 0xf,
	CC_B = 0x2, CC_AE = 0x3,
};

enum xalu {	/* /digit of the 0x81 group, and opcodes of the r/m,r form */
	ALU_ADD = 0, ALU_OR = 1, ALU_AND = 4, ALU_SUB = 5, ALU_XOR = 6, ALU_CMP = 7,
};

#define XE_MAX_CODE 8192
#define XE_MAX_LABELS 32
#define XE_MAX_FIXUPS 64
#define XE_MAX_RELOCS 32

struct xe {
	uint8_t buf[XE_MAX_CODE];
	uint32_t len;
	int overflow;			/* set when anything did not fit */
	int32_t label_pos[XE_MAX_LABELS];
	int n_labels;
	struct { uint32_t at; int label; } fixups[XE_MAX_FIXUPS];
	int n_fixups;
	struct { uint32_t at; uint64_t target; } relocs[XE_MAX_RELOCS];
	int n_relocs;
};

void xe_init(struct xe *e);
int xe_label(struct xe *e);			/* new unbound label */
void xe_bind(struct xe *e, int label);		/* bind at current position */
int xe_finish(struct xe *e);			/* resolve labels; 0 or -EINVAL */
void xe_link(const struct xe *e, uint8_t *dst);	/* copy to dst, apply relocs */

void xe_align(struct xe *e, uint32_t a);	/* multi-byte nops */

void xe_push(struct xe *e, enum xreg r);
void xe_pop(struct xe *e, enum xreg r);
void xe_mov(struct xe *e, enum xreg dst, enum xreg src);
void xe_mov_imm(struct xe *e, enum xreg dst, uint64_t imm);	/* shortest form */
void xe_alu(struct xe *e, enum xalu op, enum xreg dst, enum xreg src);
void xe_alu_imm(struct xe *e, enum xalu op, enum xreg dst, int32_t imm);
void xe_imul(struct xe *e, enum xreg dst, enum xreg src);
void xe_imul_imm(struct xe *e, enum xreg dst, enum xreg src, int32_t imm);
void xe_shift(struct xe *e, int digit, enum xreg r, uint8_t n);	/* 0 rol 4 shl 5 shr 7 sar */
void xe_inc(struct xe *e, enum xreg r);
void xe_test(struct xe *e, enum xreg a, enum xreg b);
void xe_setcc_movzx(struct xe *e, enum xcc cc, enum xreg r);	/* r = cc ? 1 : 0 */
void xe_load(struct xe *e, enum xreg dst, enum xreg base, int32_t disp);
void xe_store(struct xe *e, enum xreg base, int32_t disp, enum xreg src);
void xe_lea(struct xe *e, enum xreg dst, enum xreg base, int32_t disp);
void xe_call_reg(struct xe *e, enum xreg r);
void xe_call_abs(struct xe *e, const void *target);	/* movabs rax; call rax */
void xe_call_slot(struct xe *e, void *volatile *slot);	/* movabs rax, slot; call [rax] */
void xe_call_rel(struct xe *e, const void *target);	/* call rel32 (relocated) */
void xe_jmp(struct xe *e, int label);
void xe_call_label(struct xe *e, int label);
void xe_bind_at(struct xe *e, int label, uint32_t pos);
void xe_jcc(struct xe *e, enum xcc cc, int label);
void xe_ret(struct xe *e);
void xe_leave(struct xe *e);
void xe_int3(struct xe *e);

#endif /* REFRT_X86EMIT_H */
