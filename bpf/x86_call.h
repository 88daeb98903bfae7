/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * x86_call.h - whether an x86-64 instruction that ends at a given address
 * is a call, decided from the 7 bytes before it: the one test a stack scan
 * uses to take a stack word for a return address, compiled by the BPF
 * walker (eh_walk.bpf.h, --call-graph eh) and by the user-space unwinder
 * (symbolizer/unwind.c, --call-graph dwarf).  No includes and no library:
 * both sides read the bytes their own way and hand them here.
 *
 * A call ends where it returns to: E8 rel32 (5 bytes), or FF /2 through a
 * register or a memory operand -- ModRM, an optional SIB, an 8- or 32-bit
 * displacement, RIP-relative with mod 0 and r/m 5 (2 to 7 bytes; a REX
 * prefix before it changes nothing of the length).
 */
#ifndef EBPF_COLLECT_X86_CALL_H
#define EBPF_COLLECT_X86_CALL_H

/* b[7 - k] is the byte at ret - k, for k 1..7 (b[7] is not read).  1 when
 * a call instruction of k bytes ends at ret, for some k; else 0.  The
 * indexes are masked so that the BPF verifier sees them in bounds. */
static inline __attribute__((always_inline)) int x86_call_ends_here(const unsigned char b[8])
{
	int k;

	if (b[2] == 0xe8)
		return 1;
	for (k = 2; k <= 7; k++) {
		unsigned char modrm = b[(8 - k) & 7], mod = modrm >> 6, rm = modrm & 7;
		int len = 2;

		if (b[(7 - k) & 7] != 0xff || ((modrm >> 3) & 7) != 2)
			continue;
		if (mod != 3 && rm == 4) {	/* a SIB byte follows the ModRM */
			if (k < 3)
				continue;
			len++;
			if (mod == 0 && (b[(9 - k) & 7] & 7) == 5)	/* base: disp32 */
				len += 4;
		}
		if (mod == 1)
			len += 1;
		else if (mod == 2 || (mod == 0 && rm == 5))
			len += 4;
		if (len == k)
			return 1;
	}
	return 0;
}

#endif
