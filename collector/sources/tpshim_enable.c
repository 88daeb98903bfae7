// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tpshim_enable.c - a stock CoreCLR's tracepoints raised through the kernel
 * (tpshim_enable.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_file.h"
#include "grow.h"
#include "tpshim_enable.h"
#include "tracepoint_abi.h"
#include "tracer_pause.h"

/* A pointer of .eh_frame in encoding enc (DW_EH_PE_*) at d[*pos]; the
 * section is at vaddr sec.  0, or -1 for an encoding this reader skips. */
static int read_ptr(const uint8_t *d, size_t len, size_t *pos, uint8_t enc, uint64_t sec,
		    uint64_t *out)
{
	size_t p = *pos, n;
	uint64_t v = 0;

	switch (enc & 0x0f) {
	case 0x00: case 0x04: case 0x0c: n = 8; break;	/* absptr, udata8, sdata8 */
	case 0x03: case 0x0b: n = 4; break;		/* udata4, sdata4 */
	case 0x02: case 0x0a: n = 2; break;		/* udata2, sdata2 */
	default: return -1;
	}
	if (p + n > len)
		return -1;
	memcpy(&v, d + p, n);
	if ((enc & 0x08) && n < 8 && (v >> (n * 8 - 1)))	/* signed: extend */
		v |= ~0ull << (n * 8);
	switch (enc & 0x70) {
	case 0x00: break;
	case 0x10: v += sec + p; break;			/* pcrel */
	default: return -1;
	}
	*pos = p + n;
	*out = v;
	return 0;
}

static uint64_t uleb(const uint8_t *d, size_t len, size_t *pos)
{
	uint64_t v = 0;
	int shift = 0;

	while (*pos < len) {
		uint8_t b = d[(*pos)++];

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	return v;
}

/* The FDE pointer encoding of the CIE at d[c] (augmentation "zR...";
 * absptr without one); -1 for a CIE this reader cannot follow. */
static int cie_encoding(const uint8_t *d, size_t len, size_t c, uint64_t sec)
{
	size_t pos = c + 8, alen;
	const char *aug;
	uint8_t version;
	uint64_t skip;

	if (c + 9 > len)
		return -1;
	version = d[pos++];
	aug = (const char *)d + pos;
	alen = strnlen(aug, len - pos);
	pos += alen + 1;
	if (pos > len || strstr(aug, "eh"))
		return -1;
	uleb(d, len, &pos);		/* code alignment */
	uleb(d, len, &pos);		/* data alignment (sleb: only skipped) */
	if (version == 1)
		pos++;
	else
		uleb(d, len, &pos);	/* return address register */
	if (aug[0] != 'z')
		return 0;
	uleb(d, len, &pos);		/* augmentation length */
	for (const char *a = aug + 1; *a && pos < len; a++) {
		switch (*a) {
		case 'R':
			return d[pos];
		case 'P': {
			uint8_t penc = d[pos++];

			if (read_ptr(d, len, &pos, penc & 0x7f, sec, &skip))
				return -1;
			break;
		}
		case 'L':
			pos++;
			break;
		case 'S': case 'B': case 'G':
			break;
		default:
			return -1;
		}
	}
	return 0;
}

struct range {
	uint64_t start, end;
};

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Every FDE's [start, end) of .eh_frame (data d of len bytes at vaddr sec). */
static int fde_ranges(const uint8_t *d, size_t len, uint64_t sec, struct range **out, size_t *n)
{
	size_t pos = 0, cap = 0;

	*out = NULL;
	*n = 0;
	while (pos + 8 <= len) {
		uint32_t l32, id;
		size_t body, next;
		uint64_t start, range;
		int enc;

		memcpy(&l32, d + pos, 4);
		if (!l32)
			break;			/* the terminator */
		if (l32 == 0xffffffff)
			return -ENOEXEC;	/* 64-bit DWARF: not in .eh_frame of x86-64 */
		body = pos + 4;
		next = body + l32;
		if (next > len)
			break;
		memcpy(&id, d + body, 4);
		if (id) {			/* an FDE: id is the distance back to its CIE */
			size_t p = body + 4;

			enc = id <= body ? cie_encoding(d, len, body - id, sec) : -1;
			if (enc >= 0 && !read_ptr(d, next, &p, enc, sec, &start) &&
			    !read_ptr(d, next, &p, enc & 0x0f, sec, &range) && range) {
				if (GROW(*out, cap, *n + 1))
					return -ENOMEM;
				(*out)[(*n)++] = (struct range){ start, start + range };
			}
		}
		pos = next;
	}
	return 0;
}

/* The length of the nop at p (0x90, or 0f 1f /0 after 0x66 and 0x2e
 * prefixes), 0 if none; *cs set when it has a CS (0x2e) prefix */
static size_t nop_len(const uint8_t *p, size_t avail, int *cs)
{
	size_t k = 0, n;
	uint8_t modrm, mod, rm;

	*cs = 0;
	while (k < avail && k < 6 && (p[k] == 0x66 || p[k] == 0x2e))
		*cs |= p[k++] == 0x2e;
	if (k < avail && p[k] == 0x90)
		return k + 1;
	if (k + 3 > avail || p[k] != 0x0f || p[k + 1] != 0x1f)
		return 0;
	modrm = p[k + 2];
	mod = modrm >> 6;
	rm = modrm & 7;
	if (((modrm >> 3) & 7) || mod == 3)
		return 0;
	n = k + 3 + (rm == 4);
	n += mod == 1 ? 1 : mod == 2 ? 4 : (mod == 0 && rm == 5) ? 4 : 0;
	return n <= avail ? n : 0;
}

/* The offset in a gap of gap bytes at p of its first nop the kernel takes
 * as a uprobe site, -1 if the gap starts with no multi-byte nop.  x86's
 * uprobe decoder refuses an instruction with a segment prefix
 * (perf_event_open fails with ENOTSUPP, 524, measured on 6.18), and
 * compilers pad with "66 2e 0f 1f 84 ..." (nopw %cs:...), so such a nop is
 * stepped over to the next nop of the same padding. */
static int64_t gap_site(const uint8_t *p, size_t gap)
{
	size_t at = 0, n;
	int cs;

	n = nop_len(p, gap, &cs);
	if (n < 2)
		return -1;
	while (n && cs) {
		at += n;
		n = nop_len(p + at, gap - at, &cs);
	}
	return n ? (int64_t)at : -1;
}

/* The file offset of vaddr in an executable PT_LOAD, or -1 */
static int64_t exec_off(Elf *elf, uint64_t vaddr, uint64_t len)
{
	size_t n, i;

	if (elf_getphdrnum(elf, &n))
		return -1;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X) &&
		    vaddr >= ph.p_vaddr && vaddr + len <= ph.p_vaddr + ph.p_filesz)
			return (int64_t)(vaddr - ph.p_vaddr + ph.p_offset);
	}
	return -1;
}

/* More dead instructions of elf: in a gap between the code the FDEs cover
 * that starts with a multi-byte nop (alignment padding), a nop the kernel
 * takes, wholly inside the gap */
static int find_sites(Elf *elf, const uint8_t *file, size_t fsize, const uint8_t *eh, size_t ehlen,
		      uint64_t eh_addr, struct tpshim_lib *lib, size_t *cap)
{
	struct range *r;
	size_t n;
	uint64_t end = 0;
	int err = fde_ranges(eh, ehlen, eh_addr, &r, &n);

	if (err)
		return err;
	qsort(r, n, sizeof(*r), cmp_range);
	for (size_t i = 0; i < n; i++) {
		if (i && end < r[i].start) {
			int64_t off = exec_off(elf, end, r[i].start - end);

			int64_t at = off >= 0 && (size_t)off + (r[i].start - end) <= fsize ?
				     gap_site(file + off, r[i].start - end) : -1;

			if (at >= 0) {
				if (GROW(lib->sites, *cap, lib->nsites + 1)) {
					free(r);
					return -ENOMEM;
				}
				lib->sites[lib->nsites++] = off + at;
			}
		}
		if (r[i].end > end)
			end = r[i].end;
	}
	free(r);
	return 0;
}

/* Is the file bound at load (DT_BIND_NOW, DF_BIND_NOW or DF_1_NOW)? */
static int bind_now(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		GElf_Dyn dyn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize && gelf_getdyn(d, i, &dyn); i++)
			if (dyn.d_tag == DT_BIND_NOW ||
			    (dyn.d_tag == DT_FLAGS && (dyn.d_un.d_val & DF_BIND_NOW)) ||
			    (dyn.d_tag == DT_FLAGS_1 && (dyn.d_un.d_val & DF_1_NOW)))
				return 1;
	}
	return 0;
}

/* The lazy-binding halves of a .plt at file offset off (size bytes): every
 * 16-byte stub after the first is "jmp *GOT; push $n; jmp PLT0", and the
 * push and the jmp after it run only to bind the symbol at its first call,
 * which a file bound at load never does. */
static int plt_sites(const uint8_t *p, uint64_t off, uint64_t size, struct tpshim_lib *lib,
		     size_t *cap)
{
	for (uint64_t e = 16; e + 16 <= size; e += 16) {
		const uint8_t *s = p + e;

		if (s[0] != 0xff || s[1] != 0x25 || s[6] != 0x68 || s[11] != 0xe9)
			continue;
		if (GROW(lib->sites, *cap, lib->nsites + 2))
			return -ENOMEM;
		lib->sites[lib->nsites++] = off + e + 6;
		lib->sites[lib->nsites++] = off + e + 11;
	}
	return 0;
}

/* The file's __tracepoints section and dead instructions */
static int read_file(struct tpshim_lib *lib)
{
	const uint8_t *file, *eh = NULL;
	uint64_t eh_addr = 0;
	struct elf_file ef;
	Elf_Scn *scn = NULL;
	size_t shstrndx, fsize, ehlen = 0, cap = 0;
	int err = elf_file__open_fd(&ef, lib->fd);

	if (err)
		return err;
	file = (const uint8_t *)elf_rawfile(ef.elf, &fsize);
	if (!file || elf_getshdrstrndx(ef.elf, &shstrndx)) {
		elf_file__close(&ef);
		return -ENOEXEC;
	}
	while ((scn = elf_nextscn(ef.elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    sh.sh_offset + sh.sh_size > fsize)
			continue;
		name = elf_strptr(ef.elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".plt") && bind_now(ef.elf)) {
			err = plt_sites(file + sh.sh_offset, sh.sh_offset, sh.sh_size, lib, &cap);
			if (err)
				break;
		} else if (name && !strcmp(name, ".eh_frame")) {
			eh = file + sh.sh_offset;
			ehlen = sh.sh_size;
			eh_addr = sh.sh_addr;
		} else if (name && !strcmp(name, "__tracepoints")) {
			lib->tps_off = sh.sh_offset;
			lib->tps_size = sh.sh_size;
		}
	}
	if (!err)
		err = !eh || !lib->tps_size ? -ENOENT :
		      find_sites(ef.elf, file, fsize, eh, ehlen, eh_addr, lib, &cap);
	elf_file__close(&ef);
	return err;
}

int tpshim_lib__open(pid_t pid, uint64_t tp_addr, struct tpshim_lib *lib)
{
	char path[96], line[4096];
	int err = -ENOENT;
	FILE *f;

	memset(lib, 0, sizeof(*lib));
	lib->fd = -1;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (fgets(line, sizeof(line), f)) {
		uint64_t start, end, off, ino;
		char perms[8];

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*x:%*x %" SCNu64,
			   &start, &end, perms, &off, &ino) != 5 ||
		    tp_addr < start || tp_addr + sizeof(struct tpabi_tracepoint) > end)
			continue;
		if (perms[1] != 'w' || perms[3] != 'p' || !ino)
			break;		/* the kernel counts only in a private file mapping */
		snprintf(path, sizeof(path), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64,
			 (int)pid, start, end);
		lib->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (lib->fd < 0) {
			err = -errno;
			break;
		}
		lib->map_start = start;
		lib->map_end = end;
		lib->map_off = off;
		err = read_file(lib);
		break;
	}
	fclose(f);
	if (err)
		tpshim_lib__close(lib);
	return err;
}

int tpshim_lib__has(const struct tpshim_lib *lib, uint64_t tp_addr)
{
	return lib->fd >= 0 && tp_addr >= lib->map_start &&
	       tp_addr + sizeof(struct tpabi_tracepoint) <= lib->map_end;
}

int tpshim_lib__hold(pid_t pid, const struct tpshim_lib *lib, uint64_t tp_addr)
{
	uint64_t file_off = tp_addr - lib->map_start + lib->map_off;
	uint64_t k;

	if (!tpshim_lib__has(lib, tp_addr) || file_off < lib->tps_off ||
	    file_off >= lib->tps_off + lib->tps_size)
		return -ENOENT;
	k = (file_off - lib->tps_off) / sizeof(struct tpabi_tracepoint);
	if (k >= lib->nsites)
		return -ERANGE;
	return tracer_pause__hold(pid, lib->fd, lib->sites[k],
				  file_off + __builtin_offsetof(struct tpabi_tracepoint, state));
}

void tpshim_lib__close(struct tpshim_lib *lib)
{
	if (lib->fd >= 0)
		close(lib->fd);
	free(lib->sites);
	lib->sites = NULL;
	lib->nsites = 0;
	lib->fd = -1;
}
