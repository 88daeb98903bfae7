// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * usdt_notes.c - parse .note.stapsdt with libelf; list a process's mapped
 * ELF files from /proc/PID/maps.
 *
 * Note layout (SystemTap SDT v3, type 3, owner "stapsdt"): three
 * address-sized words (probe pc, .stapsdt.base link-time address,
 * semaphore address), then provider, name and argument strings, each
 * NUL-terminated.  If the file was prelinked, the actual address of
 * .stapsdt.base differs from the recorded one and pc/semaphore move by the
 * difference (the same adjustment libbpf and bpftrace make).
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "elf_file.h"
#include "grow.h"
#include "usdt_notes.h"
#include "proc_maps.h"

#define LOG_PREFIX "ebpf-collect: "
#include "log.h"

#define SDT_NOTE_TYPE	3
#define SDT_NOTE_OWNER	"stapsdt"

static int notes_push(struct usdt_note_list *l, const struct usdt_note *n, size_t *cap)
{
	if (GROW(l->v, *cap, l->n + 1))
		return -ENOMEM;
	l->v[l->n++] = *n;
	return 0;
}

static int parse_note(const uint8_t *desc, size_t sz, int is64, int64_t base_adj,
		      struct usdt_note *out)
{
	size_t w = is64 ? 8 : 4, off = 3 * w;
	uint64_t a[3] = {0};
	const char *s[3];
	int i;

	if (sz < off + 3)
		return -EINVAL;
	for (i = 0; i < 3; i++) {
		if (is64) {
			memcpy(&a[i], desc + i * w, 8);
		} else {
			uint32_t v;

			memcpy(&v, desc + i * w, 4);
			a[i] = v;
		}
	}
	for (i = 0; i < 3; i++) {
		const char *end;

		if (off >= sz)
			return -EINVAL;
		s[i] = (const char *)desc + off;
		end = memchr(s[i], 0, sz - off);
		if (!end)
			return -EINVAL;
		off += end - s[i] + 1;
	}
	out->pc = a[0] + base_adj;
	out->semaphore = a[2] ? a[2] + base_adj : 0;
	out->provider = strdup(s[0]);
	out->name = strdup(s[1]);
	out->args = strdup(s[2]);
	if (!out->provider || !out->name || !out->args) {
		free(out->provider);
		free(out->name);
		free(out->args);
		return -ENOMEM;
	}
	return 0;
}

/* Actual minus recorded address of .stapsdt.base (0 when not prelinked). */
static int64_t stapsdt_base_adj(Elf *elf, size_t shstrndx, uint64_t recorded)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		const char *nm;

		if (!gelf_getshdr(scn, &sh))
			continue;
		nm = elf_strptr(elf, shstrndx, sh.sh_name);
		if (nm && !strcmp(nm, ".stapsdt.base"))
			return recorded ? (int64_t)(sh.sh_addr - recorded) : 0;
	}
	return 0;
}

static int load_notes(Elf *elf, struct usdt_note_list *out)
{
	size_t shstrndx, cap = 0;
	Elf_Scn *scn = NULL;
	int is64 = gelf_getclass(elf) == ELFCLASS64, err = 0;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -ENOEXEC;
	while ((scn = elf_nextscn(elf, scn)) && !err) {
		size_t off = 0, name_off, desc_off;
		const char *nm;
		Elf_Data *data;
		GElf_Nhdr nh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		nm = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!nm || strcmp(nm, ".note.stapsdt"))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
			const uint8_t *base = data->d_buf;
			struct usdt_note n = {0};
			uint64_t recorded = 0;
			size_t w = is64 ? 8 : 4;

			if (nh.n_type != SDT_NOTE_TYPE || nh.n_namesz != sizeof(SDT_NOTE_OWNER) ||
			    memcmp(base + name_off, SDT_NOTE_OWNER, sizeof(SDT_NOTE_OWNER)))
				continue;
			if (nh.n_descsz >= 2 * w)
				memcpy(&recorded, base + desc_off + w, w);
			if (parse_note(base + desc_off, nh.n_descsz, is64,
				       stapsdt_base_adj(elf, shstrndx, recorded), &n))
				continue;	/* malformed note: skip it */
			err = notes_push(out, &n, &cap);
			if (err) {
				free(n.provider);
				free(n.name);
				free(n.args);
			}
		}
	}
	return err;
}

int usdt_notes__load(const char *path, struct usdt_note_list *out)
{
	struct elf_file ef;
	int err;

	out->v = NULL;
	out->n = 0;
	err = elf_file__open(&ef, path);
	if (err)
		return err;
	err = load_notes(ef.elf, out);
	if (err)
		usdt_notes__free(out);
	elf_file__close(&ef);
	return err;
}

bool usdt_notes__seen_before(const struct usdt_note_list *l, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (!strcmp(l->v[j].name, l->v[i].name) &&
		    !strcmp(l->v[j].provider, l->v[i].provider))
			return true;
	return false;
}

void usdt_notes__free(struct usdt_note_list *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->v[i].provider);
		free(l->v[i].name);
		free(l->v[i].args);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* Add m's file to l unless it is there (open_path NULL: no path reaches it). */
static int files_push(struct mapped_file_list *l, size_t *cap, pid_t pid,
		      const struct proc_map *m)
{
	dev_t dev = makedev(m->dev_major, m->dev_minor);
	char open_path[4200];
	struct mapped_file *f;
	size_t i;
	int reached;

	for (i = 0; i < l->n; i++)
		if (l->v[i].dev == dev && l->v[i].ino == m->ino)
			return 0;
	reached = !proc_map__open_path(pid, m, open_path, sizeof(open_path));
	if (GROW(l->v, *cap, l->n + 1))
		return -ENOMEM;
	f = &l->v[l->n];
	memset(f, 0, sizeof(*f));
	f->dev = dev;
	f->ino = m->ino;
	f->deleted = m->deleted;
	f->path = strdup(m->path);
	f->open_path = reached ? strdup(open_path) : NULL;
	if (!f->path || (reached && !f->open_path)) {
		free(f->path);
		free(f->open_path);
		return -ENOMEM;
	}
	l->n++;
	return 0;
}

int proc_mapped_files(pid_t pid, struct mapped_file_list *out)
{
	struct proc_maps pm = { 0 };
	size_t cap = 0, i;
	int err;

	out->v = NULL;
	out->n = 0;
	err = proc_maps__snapshot(&pm, pid, 1);
	if (err < 0)
		return err;
	for (i = 0, err = 0; !err && i < pm.n; i++)
		if (pm.maps[i].path[0] == '/' && pm.maps[i].ino)
			err = files_push(out, &cap, pid, &pm.maps[i]);
	proc_maps__clear(&pm);
	if (!err && !out->n && proc__exited(pid))
		err = -ESRCH;
	if (err)
		mapped_file_list__free(out);
	return err;
}

void mapped_file_list__free(struct mapped_file_list *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].open_path);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

const char *mapped_file__reach(pid_t pid, const struct mapped_file *f)
{
	if (!f->open_path)
		pr_warn("pid %d: cannot open %s: neither /proc/%d/root%s nor /proc/%d/map_files "
			"(needs CAP_SYS_ADMIN) is the file it maps (device %u:%u, inode %llu); "
			"not traced\n", pid, f->path, pid, f->path, pid, major(f->dev),
			minor(f->dev), (unsigned long long)f->ino);
	return f->open_path;
}

int attach_mapped_files(pid_t pid, mapped_file_fn fn, void *ctx)
{
	struct mapped_file_list files;
	int total = 0, n, err;
	size_t i;

	err = proc_mapped_files(pid, &files);
	if (err)
		return err;
	for (i = 0; i < files.n; i++) {
		n = fn(ctx, pid, &files.v[i]);
		if (n < 0) {
			err = n;
			break;
		}
		total += n;
	}
	mapped_file_list__free(&files);
	return err ? err : total;
}
