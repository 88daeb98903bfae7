/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kallsyms.h - kernel symbols from /proc/kallsyms.
 */
#ifndef EBPF_COLLECT_KALLSYMS_H
#define EBPF_COLLECT_KALLSYMS_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "elf_syms.h"

/* ------------------------------------------------------------ kallsyms */

struct ksyms;
/* path NULL = /proc/kallsyms.  Text symbols only.  If every address reads
 * as zero (kptr_restrict, not root) returns NULL with errno EPERM and warns. */
struct ksyms *ksyms__load(const char *path);
void ksyms__free(struct ksyms *ks);
/* name, start; *module gets "[kernel.kallsyms]" or "[modname]". */
const struct elf_sym *ksyms__find(const struct ksyms *ks, uint64_t addr, const char **module);
size_t ksyms__count(const struct ksyms *ks);

#endif
