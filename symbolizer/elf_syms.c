// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * elf_syms.c - function symbols of one ELF file, loaded once, searched by
 * binary search (trace_helpers' structure, done through libelf).
 *
 * Runtime address → ELF virtual address: the mapping says which file
 * offset the address is at (addr - map start + map offset); the PT_LOAD
 * header covering that offset says which virtual address the offset was
 * linked at.  This holds for PIE, shared objects and fixed executables
 * alike and needs no guess about "the" load bias.
 *
 * Symbols: .symtab when present (all functions), else .dynsym; when the
 * file was stripped we first look for its separate debug file (build-id,
 * then .gnu_debuglink, then the symbol stores and cache of symbol_store.c),
 * whose .symtab has the same link-time addresses; failing those, the
 * MiniDebugInfo some distributions embed (.gnu_debugdata: an xz-compressed
 * ELF whose .symtab holds the functions .dynsym lacks), with .dynsym.  A
 * debug file the network gives at the end of a trace is added later
 * (elf_syms__add_debug).
 * Only STT_FUNC / STT_GNU_IFUNC symbols count.  Several names at one
 * address: the global one wins over weak over local.  Names go into one
 * string pool; the array holds 24 bytes per symbol.
 *
 * Functions without a symbol (a stripped file's static functions, all of
 * a file stripped to its .dynsym) still have their extent in the unwind
 * tables every x86-64 object carries: .eh_frame_hdr lists each FDE's
 * initial location, sorted, and the FDE gives the length.  Such an address
 * is named "file+0xSTART", the function's start as an ELF virtual
 * address, so that every sample in one function is one frame (and one
 * range in the trace), as perf names unsymbolized code.  An address in no
 * FDE either is "file+0xADDR" alone, so it keeps at least its module.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elf_file.h"
#include "elf_syms.h"
#include "grow.h"
#include "strpool.h"
#include "symbol_store.h"

#define LOG_PREFIX "symbolizer: "
#include "log.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

struct elf_load {
	uint64_t vaddr, offset, memsz;
};

struct elf_sym_tmp {
	struct elf_sym s;
	uint8_t bind;
};

struct elf_syms {
	struct elf_load *loads;
	size_t n_loads;
	struct elf_sym *fdes;		/* from .eh_frame: name set on first use */
	size_t n_fdes;
	struct elf_sym lone;		/* an address in no FDE: the last one asked */
	char lone_name[256];
	char *base;			/* the file's basename, for those names */
	struct elf_sym *syms;
	struct elf_sym_tmp *tmp;	/* while loading: with binding, for dedup */
	size_t n, cap;
	struct strpool *names;
	char *debug_file;
	char *debug_link;		/* the .gnu_debuglink name, or NULL */
	bool full;			/* a .symtab: every function has its name */
	char build_id[41 * 2];
};

static int elf_syms__push(struct elf_syms *es, uint64_t start, uint64_t size,
			  const char *name, uint8_t bind)
{
	if (GROW(es->tmp, es->cap, es->n + 1))
		return -ENOMEM;
	es->tmp[es->n].s.start = start;
	es->tmp[es->n].s.size = size;
	es->tmp[es->n].s.name = strpool__add(es->names, name, strlen(name));
	if (!es->tmp[es->n].s.name)
		return -ENOMEM;
	es->tmp[es->n].bind = bind;
	es->n++;
	return 0;
}

/* Read the symbols of one symbol-table section. */
static int elf_syms__read_table(struct elf_syms *es, Elf *elf, Elf_Scn *scn,
				const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, cnt;
	int err;

	if (!data || !sh->sh_entsize)
		return -EINVAL;
	cnt = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < cnt; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
		    !sym.st_value)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !name[0])
			continue;
		err = elf_syms__push(es, sym.st_value, sym.st_size, name,
				     (uint8_t)GELF_ST_BIND(sym.st_info));
		if (err)
			return err;
	}
	return 0;
}

/* The table of the wanted type (SHT_SYMTAB or SHT_DYNSYM); -ENOENT if none. */
static int elf_syms__read_type(struct elf_syms *es, Elf *elf, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type)
			continue;
		if (type == SHT_SYMTAB && sh.sh_size <= sh.sh_entsize)
			continue;	/* empty stub left by strip */
		return elf_syms__read_table(es, elf, scn, &sh);
	}
	return -ENOENT;
}

static int bind_rank(uint8_t b)
{
	return b == STB_GLOBAL ? 3 : b == STB_WEAK ? 2 : 1;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct elf_sym_tmp *x = a, *y = b;

	if (x->s.start != y->s.start)
		return x->s.start < y->s.start ? -1 : 1;
	if (bind_rank(x->bind) != bind_rank(y->bind))
		return bind_rank(y->bind) - bind_rank(x->bind);
	if ((x->s.size != 0) != (y->s.size != 0))
		return x->s.size ? -1 : 1;
	return strcmp(x->s.name, y->s.name);
}

/* Sort; keep the best-ranked name per address. */
static int elf_syms__finish(struct elf_syms *es)
{
	size_t i, k = 0;

	if (es->n)
		qsort(es->tmp, es->n, sizeof(*es->tmp), sym_cmp);
	es->syms = malloc((es->n ? es->n : 1) * sizeof(*es->syms));
	if (!es->syms)
		return -ENOMEM;
	for (i = 0; i < es->n; i++) {
		if (k && es->syms[k - 1].start == es->tmp[i].s.start)
			continue;
		es->syms[k++] = es->tmp[i].s;
	}
	es->n = k;
	free(es->tmp);
	es->tmp = NULL;
	return 0;
}

static int elf_syms__read_loads(struct elf_syms *es, Elf *elf)
{
	size_t i, n;

	if (elf_getphdrnum(elf, &n))
		return -EINVAL;
	es->loads = calloc(n ? n : 1, sizeof(*es->loads));
	if (!es->loads)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		es->loads[es->n_loads].vaddr = ph.p_vaddr;
		es->loads[es->n_loads].offset = ph.p_offset;
		es->loads[es->n_loads].memsz = ph.p_memsz;
		es->n_loads++;
	}
	return 0;
}

static Elf_Scn *elf_find_section(Elf *elf, const char *want, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

/*
 * x86-64 PLT stubs as NAME@plt, as perf names them: no symbol table covers
 * them, and a sample or a return address in a stub would otherwise take the
 * name of the section's first function.  Stub i of .rela.plt is the i-th
 * 16-byte entry of .plt.sec when the file has one (IBT), else of .plt after
 * its 16-byte header.  Other machines: nothing.
 */
#define PLT_ENTRY	16
static int elf_syms__read_plt(struct elf_syms *es, Elf *elf)
{
	GElf_Shdr rsh, psh, dsh;
	GElf_Ehdr eh;
	Elf_Scn *rela, *plt, *dyn;
	Elf_Data *rdata, *ddata;
	uint64_t first;
	char name[256];
	size_t i, cnt;
	int err;

	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64)
		return 0;
	rela = elf_find_section(elf, ".rela.plt", &rsh);
	plt = elf_find_section(elf, ".plt.sec", &psh);
	first = psh.sh_addr;
	if (!plt) {
		plt = elf_find_section(elf, ".plt", &psh);
		first = psh.sh_addr + PLT_ENTRY;
	}
	if (!rela || !plt || rsh.sh_type != SHT_RELA || !rsh.sh_entsize ||
	    !(dyn = elf_getscn(elf, rsh.sh_link)) || !gelf_getshdr(dyn, &dsh) ||
	    !(rdata = elf_getdata(rela, NULL)) || !(ddata = elf_getdata(dyn, NULL)))
		return 0;
	cnt = rsh.sh_size / rsh.sh_entsize;
	for (i = 0; i < cnt; i++) {
		uint64_t at = first + i * PLT_ENTRY;
		const char *sym_name;
		GElf_Rela r;
		GElf_Sym sym;

		if (at + PLT_ENTRY > psh.sh_addr + psh.sh_size)
			break;
		if (!gelf_getrela(rdata, (int)i, &r) ||
		    GELF_R_TYPE(r.r_info) != R_X86_64_JUMP_SLOT ||
		    !gelf_getsym(ddata, (int)GELF_R_SYM(r.r_info), &sym))
			continue;
		sym_name = elf_strptr(elf, dsh.sh_link, sym.st_name);
		if (!sym_name || !*sym_name)
			continue;
		snprintf(name, sizeof(name), "%s@plt", sym_name);
		err = elf_syms__push(es, at, PLT_ENTRY, name, STB_LOCAL);
		if (err)
			return err;
	}
	return 0;
}

static void elf_syms__read_build_id(struct elf_syms *es, Elf *elf)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_find_section(elf, ".note.gnu.build-id", &sh);
	Elf_Data *data;
	GElf_Nhdr nh;
	size_t off = 0, name_off, desc_off, i;

	if (!scn || !(data = elf_getdata(scn, NULL)))
		return;
	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const uint8_t *d = (const uint8_t *)data->d_buf + desc_off;

		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp((const char *)data->d_buf + name_off, "GNU", 4))
			continue;
		for (i = 0; i < nh.n_descsz && i < 40; i++)
			sprintf(es->build_id + 2 * i, "%02x", d[i]);
		return;
	}
}

/* ------------------------------------------------ unwind-table extents */

/* DWARF pointer encodings (DW_EH_PE_*) of .eh_frame and .eh_frame_hdr */
#define PE_OMIT		0xff
#define PE_FORMAT	0x0f
#define PE_APP		0x70
#define PE_PCREL	0x10
#define PE_DATAREL	0x30

struct eh_cursor {
	const uint8_t *p;
	size_t len, off;
	uint64_t base;		/* vaddr of p[0] */
	uint64_t datarel;	/* vaddr DW_EH_PE_datarel is relative to */
	int err;
};

static uint64_t eh_uint(struct eh_cursor *c, size_t n)
{
	uint64_t v = 0;
	size_t i;

	if (c->off + n > c->len) {
		c->err = 1;
		return 0;
	}
	for (i = 0; i < n; i++)
		v |= (uint64_t)c->p[c->off + i] << (8 * i);
	c->off += n;
	return v;
}

static uint64_t eh_leb(struct eh_cursor *c, int is_signed)
{
	uint64_t v = 0;
	unsigned int shift = 0;
	uint8_t b;

	do {
		if (c->off >= c->len) {
			c->err = 1;
			return 0;
		}
		b = c->p[c->off++];
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (is_signed && shift < 64 && (b & 0x40))
		v |= ~0ULL << shift;
	return v;
}

/* A value encoded as enc says; with_app 0: the format alone (FDE lengths) */
static uint64_t eh_ptr(struct eh_cursor *c, uint8_t enc, int with_app)
{
	uint64_t at = c->base + c->off, v;

	switch (enc & PE_FORMAT) {
	case 0x00: v = eh_uint(c, 8); break;
	case 0x01: v = eh_leb(c, 0); break;
	case 0x02: v = eh_uint(c, 2); break;
	case 0x03: v = eh_uint(c, 4); break;
	case 0x04: v = eh_uint(c, 8); break;
	case 0x09: v = eh_leb(c, 1); break;
	case 0x0a: v = (uint64_t)(int64_t)(int16_t)eh_uint(c, 2); break;
	case 0x0b: v = (uint64_t)(int64_t)(int32_t)eh_uint(c, 4); break;
	case 0x0c: v = eh_uint(c, 8); break;
	default: c->err = 1; return 0;
	}
	if (!with_app)
		return v;
	switch (enc & PE_APP) {
	case 0: return v;
	case PE_PCREL: return v + at;
	case PE_DATAREL: return v + c->datarel;
	default: c->err = 1; return 0;	/* text/func-relative: not in .eh_frame */
	}
}

/* The FDE pointer encoding of the CIE at offset off of .eh_frame ('R' of
 * its augmentation; absolute 8 bytes without one); -1 when unreadable. */
static int eh_cie_enc(const struct eh_cursor *frame, uint64_t off)
{
	struct eh_cursor c = *frame;
	const char *aug;
	uint8_t version;
	uint64_t len;
	size_t end, i;

	c.off = (size_t)off;
	len = eh_uint(&c, 4);
	if (len == 0xffffffffULL)
		return -1;	/* 64-bit DWARF: not made by x86-64 toolchains */
	end = c.off + (size_t)len;
	if (c.err || end > c.len || eh_uint(&c, 4) != 0)
		return -1;
	version = (uint8_t)eh_uint(&c, 1);
	if (c.err || c.off >= end)
		return -1;	/* a CIE too short for its augmentation string */
	aug = (const char *)c.p + c.off;
	if (!memchr(aug, 0, end - c.off))
		return -1;
	c.off += strlen(aug) + 1;
	if (version >= 4)
		c.off += 2;	/* address and segment sizes */
	eh_leb(&c, 0);		/* code alignment */
	eh_leb(&c, 1);		/* data alignment */
	if (version == 1)
		eh_uint(&c, 1);	/* return address register */
	else
		eh_leb(&c, 0);
	if (aug[0] != 'z')
		return 0;
	eh_leb(&c, 0);		/* augmentation data length */
	for (i = 1; aug[i] && !c.err; i++) {
		uint8_t e;

		switch (aug[i]) {
		case 'R':
			return (int)eh_uint(&c, 1);
		case 'L':
			eh_uint(&c, 1);
			break;
		case 'P':
			e = (uint8_t)eh_uint(&c, 1);
			eh_ptr(&c, e & 0x7f, 0);
			break;
		case 'S': case 'B': case 'G':
			break;
		default:
			return -1;	/* unknown: its data cannot be skipped */
		}
	}
	return c.err ? -1 : 0;
}

/* The extent of the FDE at vaddr fde_at: 0 and its [start, start + size),
 * or -1. */
static int eh_fde_extent(const struct eh_cursor *frame, uint64_t fde_at, uint64_t *start,
			 uint64_t *size)
{
	struct eh_cursor c = *frame;
	uint64_t len, cie_ptr, id_at;
	int enc;

	if (fde_at < frame->base || fde_at - frame->base >= frame->len)
		return -1;
	c.off = (size_t)(fde_at - frame->base);
	len = eh_uint(&c, 4);
	if (len == 0xffffffffULL || c.err)
		return -1;
	id_at = c.off;
	cie_ptr = eh_uint(&c, 4);
	if (c.err || !cie_ptr || cie_ptr > id_at)
		return -1;
	enc = eh_cie_enc(frame, id_at - cie_ptr);
	if (enc < 0 || enc == PE_OMIT)
		return -1;
	*start = eh_ptr(&c, (uint8_t)enc, 1);
	*size = eh_ptr(&c, (uint8_t)enc, 0);
	return c.err || !*size ? -1 : 0;
}

static int fde_cmp(const void *a, const void *b)
{
	const struct elf_sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Every FDE's extent, through the sorted table of .eh_frame_hdr. */
static int elf_syms__read_fdes(struct elf_syms *es, Elf *elf)
{
	GElf_Shdr hsh, fsh;
	Elf_Scn *hscn = elf_find_section(elf, ".eh_frame_hdr", &hsh);
	Elf_Scn *fscn = elf_find_section(elf, ".eh_frame", &fsh);
	Elf_Data *hd, *fd;
	struct eh_cursor h, f;
	uint8_t ptr_enc, cnt_enc, tab_enc;
	uint64_t count, i, n = 0;

	if (!hscn || !fscn || hsh.sh_type == SHT_NOBITS || fsh.sh_type == SHT_NOBITS ||
	    !(hd = elf_getdata(hscn, NULL)) || !(fd = elf_getdata(fscn, NULL)) || !hd->d_buf ||
	    !fd->d_buf)
		return 0;	/* no unwind table: nothing to add */
	h = (struct eh_cursor){ hd->d_buf, hd->d_size, 0, hsh.sh_addr, hsh.sh_addr, 0 };
	f = (struct eh_cursor){ fd->d_buf, fd->d_size, 0, fsh.sh_addr, hsh.sh_addr, 0 };
	if (eh_uint(&h, 1) != 1)
		return 0;
	ptr_enc = (uint8_t)eh_uint(&h, 1);
	cnt_enc = (uint8_t)eh_uint(&h, 1);
	tab_enc = (uint8_t)eh_uint(&h, 1);
	if (h.err || ptr_enc == PE_OMIT || cnt_enc == PE_OMIT || tab_enc == PE_OMIT)
		return 0;
	eh_ptr(&h, ptr_enc, 1);
	count = eh_ptr(&h, cnt_enc, 1);
	if (h.err || count > h.len)	/* each entry takes bytes of the table */
		return 0;
	es->fdes = calloc(count ? count : 1, sizeof(*es->fdes));
	if (!es->fdes)
		return -ENOMEM;
	for (i = 0; i < count && !h.err; i++) {
		uint64_t loc = eh_ptr(&h, tab_enc, 1), at = eh_ptr(&h, tab_enc, 1);
		uint64_t start, size;

		if (h.err || eh_fde_extent(&f, at, &start, &size))
			continue;
		es->fdes[n].start = start;
		es->fdes[n].size = size;
		n++;
		(void)loc;	/* the FDE's own initial location is the one used */
	}
	qsort(es->fdes, n, sizeof(*es->fdes), fde_cmp);
	es->n_fdes = n;
	return 0;
}

/* The FDE whose extent holds vaddr, named on first use; NULL if none. */
static const struct elf_sym *elf_syms__find_fde(const struct elf_syms *es, uint64_t vaddr)
{
	size_t lo = 0, hi = es->n_fdes;
	struct elf_sym *s;
	char name[512];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (es->fdes[mid].start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || vaddr >= es->fdes[lo - 1].start + es->fdes[lo - 1].size)
		return NULL;
	s = &es->fdes[lo - 1];
	if (!s->name) {
		snprintf(name, sizeof(name), "%s+0x%llx", es->base, (unsigned long long)s->start);
		s->name = strpool__add(es->names, name, strlen(name));
	}
	return s->name ? s : NULL;
}

/* dst = a b c d (NULLs skipped); -ENAMETOOLONG when it does not fit */
static int path_cat(char *dst, size_t cap, const char *a, const char *b, const char *c,
		    const char *d)
{
	const char *parts[4] = { a, b, c, d };
	size_t len = 0, l;
	int i;

	for (i = 0; i < 4; i++) {
		if (!parts[i])
			continue;
		l = strlen(parts[i]);
		if (len + l + 1 > cap)
			return -ENAMETOOLONG;
		memcpy(dst + len, parts[i], l);
		len += l;
	}
	dst[len] = '\0';
	return 0;
}

static int try_open(const char *root, const char *path)
{
	char full[4096];

	if (path_cat(full, sizeof(full), root, path, NULL, NULL))
		return -1;
	return open(full, O_RDONLY | O_CLOEXEC);
}

/* Debug file by build-id, then by debuglink; returns an fd or -1. */
static int elf_syms__find_debug(struct elf_syms *es, Elf *elf, const char *path,
				const char *debug_root, char *found, size_t found_len)
{
	const char *roots[2] = { debug_root, NULL };
	char cand[4][4096], dir[2048];
	int r, c, n = 0, fd;
	GElf_Shdr sh;
	Elf_Scn *scn;

	if (es->build_id[0] && strlen(es->build_id) > 2)
		snprintf(cand[n++], sizeof(cand[0]), "/usr/lib/debug/.build-id/%.2s/%s.debug",
			 es->build_id, es->build_id + 2);
	scn = elf_find_section(elf, ".gnu_debuglink", &sh);
	if (scn && path && path[0] == '/') {
		Elf_Data *data = elf_getdata(scn, NULL);
		const char *slash = strrchr(path, '/');

		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path) & 2047, path);
		if (data && data->d_size > 1 && memchr(data->d_buf, '\0', data->d_size)) {
			const char *link = data->d_buf;

			if (!es->debug_link)
				es->debug_link = strdup(link);

			if (!path_cat(cand[n], sizeof(cand[0]), "/usr/lib/debug", dir, "/", link))
				n++;
			if (!path_cat(cand[n], sizeof(cand[0]), dir, "/.debug/", link, NULL))
				n++;
			if (!path_cat(cand[n], sizeof(cand[0]), dir, "/", link, NULL))
				n++;
		}
	}
	for (r = 0; r < 2; r++) {
		if (r == 0 && !debug_root)
			continue;
		for (c = 0; c < n; c++) {
			if (!strcmp(cand[c], path) && !roots[r])
				continue;	/* the file itself */
			fd = try_open(roots[r], cand[c]);
			if (fd >= 0) {
				path_cat(found, found_len, roots[r], cand[c], NULL, NULL);
				return fd;
			}
		}
	}
	return -1;
}

/* Symbols from a separate debug file's .symtab, if it has one. */
static int elf_syms__load_debug(struct elf_syms *es, Elf *elf, const char *path,
				const char *debug_root)
{
	char found[4096];
	int fd = elf_syms__find_debug(es, elf, path, debug_root, found, sizeof(found));
	struct elf_file df;
	int err;

	if (fd < 0)
		return -ENOENT;
	/* a debug file that is no ELF object is as good as none: the file's
	 * own .dynsym names what it can */
	if (elf_file__open_fd(&df, fd)) {
		pr_debug("%s: %s is no ELF object; not used\n", path, found);
		close(fd);
		return -ENOENT;
	}
	err = elf_syms__read_type(es, df.elf, SHT_SYMTAB);
	if (!err) {
		es->debug_file = strdup(found);
		pr_debug("%s: symbols from %s\n", path, found);
	}
	elf_file__close(&df);
	close(fd);
	return err;
}

/* The functions of .gnu_debugdata (MiniDebugInfo), if the file has it. */
static int elf_syms__read_minidebug(struct elf_syms *es, Elf *elf)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_find_section(elf, ".gnu_debugdata", &sh);
	Elf_Data *data;
	uint64_t memlimit = 256 << 20;
	size_t in_pos = 0, out_pos = 0, cap;
	uint8_t *out;
	Elf *mini;
	int err = -ENOENT;

	if (!scn || sh.sh_type == SHT_NOBITS || !(data = elf_getdata(scn, NULL)) || !data->d_buf)
		return -ENOENT;
	cap = data->d_size * 8 + 65536;
	for (;;) {
		lzma_ret r;

		out = malloc(cap);
		if (!out)
			return -ENOMEM;
		in_pos = out_pos = 0;
		r = lzma_stream_buffer_decode(&memlimit, 0, NULL, data->d_buf, &in_pos, data->d_size,
					      out, &out_pos, cap);
		if (r == LZMA_OK)
			break;
		free(out);
		if (r != LZMA_BUF_ERROR || cap > (16u << 20))
			return -ENOENT;	/* damaged, or too large to be symbols */
		cap *= 4;
	}
	mini = elf_memory((char *)out, out_pos);
	if (mini) {
		err = elf_syms__read_type(es, mini, SHT_SYMTAB);
		elf_end(mini);
	}
	free(out);
	return err;
}

/* A debug file's .symtab: 0, or -ENOENT when it has none (or is no ELF). */
static int elf_syms__read_debug_fd(struct elf_syms *es, int fd, const char *found)
{
	struct elf_file df;
	int err;

	if (elf_file__open_fd(&df, fd))
		return -ENOENT;
	err = elf_syms__read_type(es, df.elf, SHT_SYMTAB);
	if (!err) {
		free(es->debug_file);
		es->debug_file = strdup(found);
	}
	elf_file__close(&df);
	return err;
}

int elf_syms__add_debug(struct elf_syms *es, int fd, const char *found)
{
	size_t i, n = es->n;
	int err;

	/* start again from the symbols we have (they keep the best name at
	 * each address; the debug file's are as good) */
	es->tmp = calloc(n ? n : 1, sizeof(*es->tmp));
	if (!es->tmp)
		return -ENOMEM;
	es->cap = n ? n : 1;
	for (i = 0; i < n; i++) {
		es->tmp[i].s = es->syms[i];
		es->tmp[i].bind = STB_GLOBAL;
	}
	err = elf_syms__read_debug_fd(es, fd, found);
	if (err && err != -ENOENT)
		return err;
	free(es->syms);
	es->syms = NULL;
	err = elf_syms__finish(es) ? -ENOMEM : err;
	es->full = !err;
	return err;
}

bool elf_syms__full(const struct elf_syms *es)
{
	return es->full;
}

struct elf_syms *elf_syms__load(int fd, const char *path, const char *debug_root)
{
	struct elf_syms *es = calloc(1, sizeof(*es));
	struct elf_file ef = { NULL, -1 };
	Elf *elf;
	int err;

	if (!es)
		return NULL;
	es->names = strpool__new();
	if (!es->names) {
		err = -ENOMEM;
		goto cleanup;
	}
	err = elf_file__open_fd(&ef, fd);
	if (err)
		goto cleanup;
	elf = ef.elf;
	err = elf_syms__read_loads(es, elf);
	if (err)
		goto cleanup;
	elf_syms__read_build_id(es, elf);
	es->base = strdup(path && strrchr(path, '/') ? strrchr(path, '/') + 1 : path ? path : "?");
	err = es->base ? elf_syms__read_fdes(es, elf) : -ENOMEM;
	if (err)
		goto cleanup;
	err = elf_syms__read_type(es, elf, SHT_SYMTAB);
	if (err == -ENOENT)
		err = elf_syms__load_debug(es, elf, path, debug_root);
	if (err == -ENOENT && es->build_id[0]) {
		char found[4096];
		int dfd = symbol_store__find_local(es->build_id, found, sizeof(found));

		if (dfd >= 0) {
			err = elf_syms__read_debug_fd(es, dfd, found);
			close(dfd);
			if (!err)
				pr_debug("%s: symbols from %s\n", path, found);
		}
	}
	es->full = !err;
	if (err == -ENOENT) {
		int mini = elf_syms__read_minidebug(es, elf);

		if (mini && mini != -ENOENT) {
			err = mini;
			goto cleanup;
		}
		err = elf_syms__read_type(es, elf, SHT_DYNSYM);
		if (!mini && err == -ENOENT)
			err = 0;
	}
	if (err == -ENOENT)
		err = 0;	/* no symbols at all: every address stays [unknown] */
	if (!err)
		err = elf_syms__read_plt(es, elf);
	if (err)
		goto cleanup;
	err = elf_syms__finish(es);
	if (err)
		goto cleanup;
	elf_file__close(&ef);
	return es;
cleanup:
	elf_file__close(&ef);
	elf_syms__free(es);
	errno = -err;
	return NULL;
}

void elf_syms__free(struct elf_syms *es)
{
	if (!es)
		return;
	free(es->loads);
	free(es->fdes);
	free(es->base);
	free(es->syms);
	free(es->tmp);
	free(es->debug_file);
	free(es->debug_link);
	strpool__free(es->names);
	free(es);
}

int elf_syms__addr_to_vaddr(const struct elf_syms *es, uint64_t addr, uint64_t map_start,
			    uint64_t map_offset, uint64_t *vaddr)
{
	uint64_t off = addr - map_start + map_offset;
	size_t i;

	for (i = 0; i < es->n_loads; i++) {
		const struct elf_load *l = &es->loads[i];

		if (off >= l->offset && off < l->offset + l->memsz) {
			*vaddr = off - l->offset + l->vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

static const struct elf_sym *elf_syms__find_sym(const struct elf_syms *es, uint64_t vaddr)
{
	size_t lo = 0, hi = es->n;
	const struct elf_sym *s;

	/* first symbol with start > vaddr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (es->syms[mid].start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &es->syms[lo - 1];
	if (s->size)
		return vaddr < s->start + s->size ? s : NULL;
	/* size 0: until the next symbol (not past the end of the table) */
	return lo < es->n ? s : NULL;
}

const struct elf_sym *elf_syms__find(const struct elf_syms *es, uint64_t vaddr)
{
	const struct elf_sym *s = elf_syms__find_sym(es, vaddr);
	const struct elf_sym *f;

	if (s && s->size)
		return s;
	/* a symbol of size 0 reaches only as far as the next function the
	 * unwind table knows: a stripped file's .dynsym leaves gaps */
	f = elf_syms__find_fde(es, vaddr);
	if (s && (!f || f->start <= s->start))
		return s;
	return f;
}

const struct elf_sym *elf_syms__find_module(struct elf_syms *es, uint64_t vaddr)
{
	const struct elf_sym *s = elf_syms__find(es, vaddr);

	if (s)
		return s;
	snprintf(es->lone_name, sizeof(es->lone_name), "%s+0x%llx", es->base,
		 (unsigned long long)vaddr);
	es->lone = (struct elf_sym){ vaddr, 1, es->lone_name };
	return &es->lone;
}

const char *elf_syms__debug_file(const struct elf_syms *es)
{
	return es->debug_file;
}

const char *elf_syms__build_id(const struct elf_syms *es)
{
	return es->build_id;
}

const char *elf_syms__debug_link(const struct elf_syms *es)
{
	return es->debug_link;
}

int elf_syms__segment(const struct elf_syms *es, uint64_t file_off, uint64_t *p_vaddr,
		      uint64_t *p_offset)
{
	size_t i;

	for (i = 0; i < es->n_loads; i++) {
		const struct elf_load *l = &es->loads[i];

		if (file_off >= l->offset && file_off < l->offset + l->memsz) {
			*p_vaddr = l->vaddr;
			*p_offset = l->offset;
			return 0;
		}
	}
	return -ENOENT;
}
