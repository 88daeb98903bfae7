/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * elf_syms.h - the function symbols of an ELF file (.symtab, .dynsym, and a
 * separate debug file found by build id or debuglink).
 */
#ifndef EBPF_COLLECT_ELF_SYMS_H
#define EBPF_COLLECT_ELF_SYMS_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* ---------------------------------------------------------- ELF symbols */

struct elf_sym {
	uint64_t start;		/* ELF virtual address */
	uint64_t size;		/* 0: extends to the next symbol */
	const char *name;
};

struct elf_syms;

/* Load PT_LOAD headers and .symtab (else .dynsym) from fd (not closed).
 * When the file has no .symtab, a separate debug file is looked for by
 * build-id (<root>/usr/lib/debug/.build-id/xx/yyyy.debug) and by
 * .gnu_debuglink (<root>/usr/lib/debug/<dir>/<f>, <dir>/.debug/<f>,
 * <dir>/<f>), first under debug_root (may be NULL) then in our own root.
 * path is the file's path in its process (for the debuglink dirs). */
struct elf_syms *elf_syms__load(int fd, const char *path, const char *debug_root);
void elf_syms__free(struct elf_syms *es);
/* Runtime address in a mapping (start, file offset) → ELF vaddr.  -ENOENT
 * when no PT_LOAD covers the file offset. */
int elf_syms__addr_to_vaddr(const struct elf_syms *es, uint64_t addr, uint64_t map_start,
			    uint64_t map_offset, uint64_t *vaddr);
/* Largest start <= vaddr < start + size (size 0: until the next symbol or
 * the next function of the unwind table); else the unwind table's function
 * holding vaddr, named "file+0xSTART"; NULL when neither knows it. */
const struct elf_sym *elf_syms__find(const struct elf_syms *es, uint64_t vaddr);
/* elf_syms__find, else vaddr alone as "file+0xVADDR" (size 1; valid until
 * the next call): an address of a file mapping always has its module. */
const struct elf_sym *elf_syms__find_module(struct elf_syms *es, uint64_t vaddr);
const char *elf_syms__debug_file(const struct elf_syms *es);	/* or NULL */
const char *elf_syms__build_id(const struct elf_syms *es);	/* hex or "" */
const char *elf_syms__debug_link(const struct elf_syms *es);	/* or NULL */
/* Whether a .symtab (the file's or a debug file's) named its functions;
 * else only .dynsym, MiniDebugInfo and the unwind table did. */
bool elf_syms__full(const struct elf_syms *es);
/* Add the .symtab of a debug file found later (fd, not closed; found: its
 * name).  0, -ENOENT when it has none, or -ENOMEM. */
int elf_syms__add_debug(struct elf_syms *es, int fd, const char *found);
/* The PT_LOAD header holding file offset file_off: its p_vaddr and
 * p_offset.  -ENOENT when none does. */
int elf_syms__segment(const struct elf_syms *es, uint64_t file_off, uint64_t *p_vaddr,
		      uint64_t *p_offset);

#endif
