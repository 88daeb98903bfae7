// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tracer_pause.c - find a usdt-gen provider's pause word and change it in
 * a running process.
 *
 * The word lives in the provider's .probes section, which is file-backed
 * data: its ELF symbol value gives a file offset through the PT_LOAD that
 * holds it, and the mapping of that offset in /proc/PID/maps gives its
 * address (the kernel places a semaphore the same way).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>
#include "tracer_pause.h"

#define PAUSE_SUFFIX	"_tracer_pause"

static bool is_object_sym(const GElf_Sym *s, const char *name, const char *suffix)
{
	size_t n = name ? strlen(name) : 0, k = strlen(suffix);

	return n > k && !strcmp(name + n - k, suffix) && s->st_size &&
	       s->st_shndx != SHN_UNDEF && GELF_ST_TYPE(s->st_info) == STT_OBJECT &&
	       GELF_ST_BIND(s->st_info) == STB_GLOBAL;
}

/* The symbol's value (ELF virtual address) and size, 0 if none. */
static uint64_t find_sym(Elf *elf, const char *suffix, uint64_t *size)
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
			    is_object_sym(&s, elf_strptr(elf, sh.sh_link, s.st_name), suffix)) {
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

int provider_object__find(const char *path, const char *suffix, uint64_t *off, uint64_t *size)
{
	Elf *elf;
	uint64_t vaddr;
	int fd, err;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		err = -ENOEXEC;
	else if (!(vaddr = find_sym(elf, suffix, size)))
		err = -ENOENT;
	else
		err = vaddr_to_off(elf, vaddr, *size, off);
	elf_end(elf);
	close(fd);
	return err;
}

int tracer_pause__file_offset(const char *path, uint64_t *off)
{
	uint64_t size = 0;
	int err = provider_object__find(path, PAUSE_SUFFIX, off, &size);

	return !err && size != 4 ? -ENOENT : err;
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

int tracer_pause__add(pid_t pid, uint64_t addr, int delta)
{
	unsigned int v;
	struct iovec local = { &v, sizeof(v) };
	struct iovec remote = { (void *)(uintptr_t)addr, sizeof(v) };

	ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);

	if (n != sizeof(v))
		return n < 0 ? -errno : -EFAULT;
	v = delta < 0 && v < (unsigned int)-delta ? 0 : v + delta;
	n = process_vm_writev(pid, &local, 1, &remote, 1, 0);
	if (n != sizeof(v))
		return n < 0 ? -errno : -EFAULT;
	return 0;
}
