/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * eh_table.h - one ELF file's call frame information (.eh_frame,
 * .debug_frame) turned
 * into the sorted rows the BPF walker of --call-graph eh follows
 * (bpf/eh_unwind.h says what a row means).  See eh_table.c.
 */
#ifndef EBPF_COLLECT_EH_TABLE_H
#define EBPF_COLLECT_EH_TABLE_H

#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "eh_unwind.h"

struct eh_table {
	struct eh_row *rows;	/* sorted by pc; malloc'd */
	uint32_t n;
	uint32_t none_rows;	/* EH_CFA_NONE rows for a rule the walker cannot follow */
	uint32_t gap_rows;	/* ... of which where no FDE covers the code */
};

/*
 * Build t from elf's .eh_frame (and .debug_frame where .eh_frame has no
 * FDE) over its executable PT_LOAD segments.  0, -ENOENT when the file has
 * neither, -E2BIG when its code lies above
 * 4 GiB, -ENOMEM, -ECANCELED when *stop (NULL: never) became true, which
 * is read every few thousand rows (the largest files take seconds); t
 * holds nothing to free on an error.
 */
int eh_table__build(Elf *elf, struct eh_table *t, const bool *stop);
void eh_table__free(struct eh_table *t);	/* NULL-safe */

/* The row in effect at file virtual address pc, or NULL (before the first). */
const struct eh_row *eh_table__find(const struct eh_table *t, uint64_t pc);

#endif
