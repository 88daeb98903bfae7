// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tracer_pause.c - find a usdt-gen provider's pause word and hold it up in
 * a running process.
 *
 * The word lives in the provider's .probes section, which is file-backed
 * data: its ELF symbol value gives a file offset through the PT_LOAD that
 * holds it, and the mapping of that offset in /proc/PID/maps gives its
 * address (the kernel places a semaphore the same way).  The word is
 * raised only through the kernel: a uprobe on the provider's never-called
 * <prefix>_tracer_pause_site with the word as its reference counter, so
 * the count goes down when the probe's file descriptor closes, also when
 * the collector is killed.
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <libelf.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "elf_file.h"
#include "provider_abi.h"
#include "proc_mem.h"
#include "tracer_pause.h"

#define UPROBE_PMU	"/sys/bus/event_source/devices/uprobe/"

static bool is_global_sym(const GElf_Sym *s, const char *name, const char *suffix, int type)
{
	size_t n = name ? strlen(name) : 0, k = strlen(suffix);

	return n > k && !strcmp(name + n - k, suffix) && s->st_size &&
	       s->st_shndx != SHN_UNDEF && GELF_ST_TYPE(s->st_info) == type &&
	       GELF_ST_BIND(s->st_info) == STB_GLOBAL;
}

/* The symbol's value (ELF virtual address) and size, 0 if none. */
static uint64_t find_sym(Elf *elf, const char *suffix, int type, uint64_t *size)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		n = d ? sh.sh_size / sh.sh_entsize : 0;
		for (i = 0; i < n; i++) {
			GElf_Sym s;

			if (gelf_getsym(d, i, &s) &&
			    is_global_sym(&s, elf_strptr(elf, sh.sh_link, s.st_name), suffix, type)) {
				*size = s.st_size;
				return s.st_value;
			}
		}
	}
	return 0;
}

/* Virtual address to file offset through the PT_LOAD that holds it on file. */
static int vaddr_to_off(Elf *elf, uint64_t vaddr, uint64_t size, uint64_t *off)
{
	size_t i, n;

	if (elf_getphdrnum(elf, &n))
		return -ENOEXEC;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr >= ph.p_vaddr && vaddr + size <= ph.p_vaddr + ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

static int find_global(const char *path, const char *suffix, int type, uint64_t *off,
		       uint64_t *size)
{
	struct elf_file ef;
	uint64_t vaddr;
	int err = elf_file__open(&ef, path);

	if (err)
		return err;
	if (!(vaddr = find_sym(ef.elf, suffix, type, size)))
		err = -ENOENT;
	else
		err = vaddr_to_off(ef.elf, vaddr, *size, off);
	elf_file__close(&ef);
	return err;
}

int provider_object__find(const char *path, const char *suffix, uint64_t *off, uint64_t *size)
{
	return find_global(path, suffix, STT_OBJECT, off, size);
}

int tracer_pause__file_offset(const char *path, uint64_t *off)
{
	uint64_t size = 0;
	int err = find_global(path, PROV_PAUSE_SUFFIX, STT_OBJECT, off, &size);

	return !err && size != PROV_PAUSE_WORD_SIZE ? -ENOENT : err;
}

int tracer_pause__site_offset(const char *path, uint64_t *off)
{
	uint64_t size = 0;

	return find_global(path, PROV_PAUSE_SITE_SUFFIX, STT_FUNC, off, &size);
}

int tracer_pause__resolve(pid_t pid, dev_t dev, ino_t ino, uint64_t off, uint64_t *addr)
{
	char path[64], line[4096];
	FILE *f;
	int err = -ENOENT;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (err && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff, inode;
		unsigned int maj, min;

		if (sscanf(line, "%llx-%llx %*s %llx %x:%x %llu", &start, &end, &pgoff, &maj,
			   &min, &inode) != 6)
			continue;
		if (inode != ino || makedev(maj, min) != dev)
			continue;
		if (off >= pgoff && off + 4 <= pgoff + (end - start)) {
			*addr = start + (off - pgoff);
			err = 0;
		}
	}
	fclose(f);
	return err;
}

int tracer_pause__read(pid_t pid, uint64_t addr, unsigned int *v)
{
	return proc_mem_rw(pid, addr, v, sizeof(*v), false);
}

int tracer_pause__clear(pid_t pid, uint64_t addr)
{
	unsigned int zero = 0;

	return proc_mem_rw(pid, addr, &zero, sizeof(zero), true);
}

/* A number from a file of the uprobe PMU's sysfs directory. */
static int pmu_number(const char *name, const char *fmt, int *v)
{
	char path[128];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), UPROBE_PMU "%s", name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fscanf(f, fmt, v);
	fclose(f);
	return n == 1 ? 0 : -EINVAL;
}

int tracer_pause__hold(pid_t pid, int file_fd, uint64_t site_off, uint64_t word_off)
{
	static int type = -1, shift = -1;
	struct perf_event_attr attr = {};
	char path[64];
	int fd, err;

	if (type < 0) {
		err = pmu_number("type", "%d", &type);
		if (!err)
			err = pmu_number("format/ref_ctr_offset", "config:%d", &shift);
		if (err) {
			type = -1;
			return err;
		}
	}
	/* the kernel resolves the path to the file's inode when the probe is
	 * made: the descriptor names the very file traced, even if replaced */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", file_fd);
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = word_off << shift;
	attr.config1 = (uint64_t)(uintptr_t)path;
	attr.config2 = site_off;
	attr.disabled = 1;	/* nothing to count: the probe is there for its counter */
	fd = syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
