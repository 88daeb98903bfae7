/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * proc_maps.h - a process's executable mappings (/proc/PID/maps) and the
 * /proc/PID/status facts the symbolizer needs (namespaced pid, uids).
 */
#ifndef EBPF_COLLECT_PROC_MAPS_H
#define EBPF_COLLECT_PROC_MAPS_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <libelf.h>

/* ----------------------------------------------------- process mappings */

struct proc_map {
	uint64_t start, end, offset;
	uint64_t ino;
	uint32_t dev_major, dev_minor;
	uint32_t prot;		/* PROT_READ|PROT_WRITE|PROT_EXEC */
	uint32_t deleted;	/* the file was unlinked: maps said "PATH (deleted)" */
	char *path;		/* "" for anonymous; without " (deleted)" */
	int dso;		/* index into the symbolizer's DSO cache, -1 none */
};

struct proc_maps {
	struct proc_map *maps;	/* sorted by start, non-overlapping */
	size_t n, cap;
};

/* Read /proc/PID/maps (exec mappings only when exec_only) and merge into pm:
 * new mappings replace overlapping old ones; old ones that vanished stay
 * (a library dlclose'd or a process gone is still symbolized).
 * Returns the number of mappings read or -errno. */
int proc_maps__snapshot(struct proc_maps *pm, pid_t pid, int exec_only);
/* Merge one mapping (copied, path included), as the kernel reports a
 * change: it replaces the parts of the old mappings it overlaps, and what
 * lies outside it stays.  0 or -ENOMEM. */
int proc_maps__add(struct proc_maps *pm, const struct proc_map *m);
const struct proc_map *proc_maps__find(const struct proc_maps *pm, uint64_t addr);
void proc_maps__clear(struct proc_maps *pm);
/* "", "//anon", "[anon:...]", "/memfd:..." and "[heap]"-style names have no
 * ELF file behind them. */
int proc_map__is_anon(const struct proc_map *m);

/**
 * proc_map__open_path() - a path that opens the file behind mapping m of pid
 * @pid: the process that maps it
 * @m: one of its file-backed mappings (from proc_maps__snapshot)
 * @buf: the path, on success
 * @len: size of buf
 *
 * The path in /proc/PID/maps is the one the process sees: in a chroot or a
 * container it names another file, or none, in our root.  Candidates, the
 * first whose device and inode are the mapping's wins:
 *   1. /proc/PID/root<path>: the process's own root;
 *   2. /proc/PID/map_files/<start>-<end>: the mapped file itself (deleted,
 *      replaced since, or a root we cannot walk; root only);
 *   3. <path> in our root: the process may be gone (a mapping seen in an
 *      mmap event), and the same file is still there.
 * Every opener of a mapped file (symbolizer DSOs, USDT notes and attach,
 * the tracer pause word) goes through this.
 *
 * Return: 0, or -ENOENT when no candidate is the mapped file.
 */
int proc_map__open_path(pid_t pid, const struct proc_map *m, char *buf, size_t len);

/* A hash of pm's mappings (start, end, offset, inode): it changes when
 * a mapping is added or replaced. */
uint64_t proc_maps__fingerprint(const struct proc_maps *pm);

/*
 * The load bias of the ELF file elf (or at path) mapped executable by m:
 * the executable PT_LOAD holding file offset m->offset was linked at
 * p_vaddr + (m->offset - p_offset) and sits at m->start, so runtime
 * address = file virtual address + bias.  0, -ENOEXEC when no PT_LOAD
 * holds it, or open's error.
 */
int proc_map__elf_bias(Elf *elf, const struct proc_map *m, uint64_t *bias);
int proc_map__load_bias(const char *path, const struct proc_map *m, uint64_t *bias);

int proc__nspid(pid_t pid, pid_t *nspid);
/* The process (thread group) id of a pid or thread id: 0 or -ESRCH. */
int proc__tgid(pid_t pid, pid_t *tgid);
/* 1 when pid has exited: no /proc/PID, or a zombie its parent has not
 * reaped (State Z or X, which kill(pid, 0) still reaches, and no other
 * thread left); else 0. */
int proc__exited(pid_t pid);
int proc__uids(pid_t pid, uid_t *uids, int max);

#endif
