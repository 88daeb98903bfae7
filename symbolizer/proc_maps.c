// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * proc_maps.c - snapshots of /proc/PID/maps and /proc/PID/status.
 *
 * A snapshot is merged into what we already know: a fresh mapping replaces
 * every old one it overlaps, and old mappings that are gone from the file
 * (dlclose, process exit) stay, so code that ran earlier in the trace is
 * still attributed to its file.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <gelf.h>
#include "elf_file.h"
#include "grow.h"
#include "hash.h"
#include "proc_maps.h"

/* One number of a maps line, in base 16 or 10, ended by `end` (0: a space
 * or the end of the line).  By hand: sscanf was the host-wide collector's
 * largest cost when many processes start. */
static char *maps_field(char *s, unsigned long long *v, unsigned int base, char end)
{
	unsigned long long x = 0;
	char *p = s;

	for (;; p++) {
		unsigned int d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned int)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned int)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (unsigned int)(*p - 'A' + 10);
		else
			break;
		x = x * base + d;
	}
	if (p == s || (end ? *p != end : (*p != ' ' && *p != '\n' && *p)))
		return NULL;
	*v = x;
	return *p ? p + 1 : p;
}

static int proc_map__parse(char *line, struct proc_map *m)
{
	static const char deleted[] = " (deleted)";
	const size_t dlen = sizeof(deleted) - 1;
	unsigned long long start, end, off, ino, maj, min;
	char perms[4];
	char *p = line, *path;
	size_t len;

	if (!(p = maps_field(p, &start, 16, '-')) || !(p = maps_field(p, &end, 16, ' ')))
		return -EINVAL;
	for (len = 0; len < sizeof(perms) && *p && *p != ' '; len++)
		perms[len] = *p++;
	if (len < 3 || *p++ != ' ')
		return -EINVAL;
	if (!(p = maps_field(p, &off, 16, ' ')) || !(p = maps_field(p, &maj, 16, ':')) ||
	    !(p = maps_field(p, &min, 16, ' ')) || !(p = maps_field(p, &ino, 10, 0)))
		return -EINVAL;
	while (*p == ' ')
		p++;
	path = p;
	len = strlen(path);
	while (len && (path[len - 1] == '\n' || path[len - 1] == ' '))
		path[--len] = '\0';
	memset(m, 0, sizeof(*m));
	if (path[0] == '/' && len > dlen && !strcmp(path + len - dlen, deleted)) {
		path[len - dlen] = '\0';	/* the name it had; map_files reaches it */
		m->deleted = 1;
	}
	m->start = start;
	m->end = end;
	m->offset = off;
	m->dev_major = maj;
	m->dev_minor = min;
	m->ino = ino;
	m->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		  (perms[2] == 'x' ? PROT_EXEC : 0);
	m->dso = -1;
	m->path = strdup(path);
	return m->path ? 0 : -ENOMEM;
}

static int proc_maps__reserve(struct proc_maps *pm, size_t n)
{
	void *p;

	if (n <= pm->cap)
		return 0;
	p = realloc(pm->maps, n * sizeof(*pm->maps));
	if (!p)
		return -ENOMEM;
	pm->maps = p;
	pm->cap = n;
	return 0;
}

static int map_cmp(const void *a, const void *b)
{
	const struct proc_map *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Keep the old mappings that no new one overlaps, then sort. */
static int proc_maps__merge(struct proc_maps *pm, struct proc_map *fresh, size_t n)
{
	size_t i, j, keep = 0;
	int err;

	for (i = 0; i < pm->n; i++) {
		struct proc_map *o = &pm->maps[i];
		int overlap = 0;

		for (j = 0; j < n && !overlap; j++)
			overlap = fresh[j].start < o->end && o->start < fresh[j].end;
		if (overlap) {
			/* same file at the same place: carry the opened DSO over */
			for (j = 0; j < n; j++)
				if (fresh[j].start == o->start && fresh[j].ino == o->ino &&
				    fresh[j].offset == o->offset && !strcmp(fresh[j].path, o->path) &&
				    fresh[j].dso < 0)
					fresh[j].dso = o->dso;
			free(o->path);
		} else {
			pm->maps[keep++] = *o;
		}
	}
	pm->n = keep;
	err = proc_maps__reserve(pm, keep + n);
	if (err)
		return err;
	memcpy(pm->maps + keep, fresh, n * sizeof(*fresh));
	pm->n = keep + n;
	qsort(pm->maps, pm->n, sizeof(*pm->maps), map_cmp);
	return 0;
}

int proc_maps__snapshot(struct proc_maps *pm, pid_t pid, int exec_only)
{
	struct proc_map *fresh = NULL;
	size_t n = 0, cap = 0, i;
	char path[64], *line = NULL;
	size_t lcap = 0;
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (getline(&line, &lcap, f) > 0) {
		struct proc_map m;

		if (proc_map__parse(line, &m))
			continue;
		if (exec_only && !(m.prot & PROT_EXEC)) {
			free(m.path);
			continue;
		}
		if (GROW(fresh, cap, n + 1)) {
			free(m.path);
			err = -ENOMEM;
			goto cleanup;
		}
		fresh[n++] = m;
	}
	if (!n) {
		/* a process that has exited reads as empty: keep what we had */
		err = 0;
		goto cleanup;
	}
	err = proc_maps__merge(pm, fresh, n);
	if (!err) {
		free(fresh);
		fresh = NULL;
		err = (int)n;
		n = 0;
	}
cleanup:
	for (i = 0; i < n; i++)
		free(fresh[i].path);
	free(fresh);
	free(line);
	fclose(f);
	return err;
}

/* The part of o outside [start, end) on one side (left: below start), as a
 * mapping of its own (path copied, DSO kept); false when there is none or
 * out of memory (*err). */
static bool map_piece(const struct proc_map *o, uint64_t start, uint64_t end, bool left,
		      struct proc_map *out, int *err)
{
	if (left ? o->start >= start : o->end <= end)
		return false;
	*out = *o;
	if (left) {
		out->end = start;
	} else {
		out->start = end;
		out->offset += end - o->start;
	}
	out->path = strdup(o->path);
	if (!out->path)
		*err = -ENOMEM;
	return out->path != NULL;
}

int proc_maps__add(struct proc_maps *pm, const struct proc_map *m)
{
	struct proc_map fresh[3];
	const struct proc_map *o;
	size_t n = 1, i;
	int err = 0;

	fresh[0] = *m;
	fresh[0].dso = -1;
	fresh[0].path = strdup(m->path ? m->path : "");
	if (!fresh[0].path)
		return -ENOMEM;
	/* The kernel reports the range it changed (an mprotect reports the
	 * part it split off): the rest of a mapping it overlaps is still
	 * mapped.  Mappings never overlap, so at most two are cut. */
	o = proc_maps__find(pm, m->start);
	if (o && map_piece(o, m->start, m->end, true, &fresh[n], &err))
		n++;
	o = m->end ? proc_maps__find(pm, m->end - 1) : NULL;
	if (!err && o && map_piece(o, m->start, m->end, false, &fresh[n], &err))
		n++;
	if (!err)
		err = proc_maps__merge(pm, fresh, n);
	if (err)
		for (i = 0; i < n; i++)
			free(fresh[i].path);
	return err;
}

const struct proc_map *proc_maps__find(const struct proc_maps *pm, uint64_t addr)
{
	size_t lo = 0, hi = pm->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < pm->maps[mid].start)
			hi = mid;
		else if (addr >= pm->maps[mid].end)
			lo = mid + 1;
		else
			return &pm->maps[mid];
	}
	return NULL;
}

void proc_maps__clear(struct proc_maps *pm)
{
	size_t i;

	for (i = 0; i < pm->n; i++)
		free(pm->maps[i].path);
	free(pm->maps);
	memset(pm, 0, sizeof(*pm));
}

int proc_map__is_anon(const struct proc_map *m)
{
	const char *p = m->path;

	return !p[0] || !strncmp(p, "//anon", 6) || !strncmp(p, "[anon", 5) ||
	       !strncmp(p, "/memfd:", 7) || p[0] == '[' || !m->ino;
}

static int is_mapped_file(const char *path, const struct proc_map *m)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && st.st_ino == m->ino &&
	       st.st_dev == makedev(m->dev_major, m->dev_minor);
}

int proc_map__open_path(pid_t pid, const struct proc_map *m, char *buf, size_t len)
{
	int n;

	if (m->path[0] == '/') {
		n = snprintf(buf, len, "/proc/%d/root%s", (int)pid, m->path);
		if (n > 0 && (size_t)n < len && is_mapped_file(buf, m))
			return 0;
	}
	n = snprintf(buf, len, "/proc/%d/map_files/%llx-%llx", (int)pid,
		     (unsigned long long)m->start, (unsigned long long)m->end);
	if (n > 0 && (size_t)n < len && is_mapped_file(buf, m))
		return 0;
	if (m->path[0] == '/' && is_mapped_file(m->path, m)) {
		n = snprintf(buf, len, "%s", m->path);
		if (n > 0 && (size_t)n < len)
			return 0;
	}
	return -ENOENT;
}

/* ------------------------------------------------------ /proc/PID/status */

static int proc__status_line(pid_t pid, const char *key, char *out, size_t outlen)
{
	char path[64], *line = NULL;
	size_t lcap = 0, klen = strlen(key);
	FILE *f;
	int err = -ENOENT;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (getline(&line, &lcap, f) > 0) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			snprintf(out, outlen, "%s", line + klen + 1);
			err = 0;
			break;
		}
	}
	free(line);
	fclose(f);
	return err;
}

int proc__nspid(pid_t pid, pid_t *nspid)
{
	char buf[256], *tok, *save = NULL, *last = NULL;
	int err = proc__status_line(pid, "NSpid", buf, sizeof(buf));

	if (err) {
		*nspid = pid;	/* kernels before 4.1 have no NSpid: not namespaced */
		return err == -ENOENT ? 0 : err;
	}
	for (tok = strtok_r(buf, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save))
		last = tok;
	*nspid = last ? (pid_t)strtol(last, NULL, 10) : pid;
	if (*nspid <= 0)
		*nspid = pid;
	return 0;
}

int proc__tgid(pid_t pid, pid_t *tgid)
{
	char buf[64];
	int err = proc__status_line(pid, "Tgid", buf, sizeof(buf));

	if (err)
		return -ESRCH;
	*tgid = (pid_t)strtol(buf, NULL, 10);
	return *tgid > 0 ? 0 : -ESRCH;
}

int proc__exited(pid_t pid)
{
	char buf[64], *s = buf;
	int err = proc__status_line(pid, "State", buf, sizeof(buf));

	if (err)
		return err == -ESRCH;	/* unreadable (hidepid) is not gone */
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != 'Z' && *s != 'X')
		return 0;
	/* a zombie leader whose other threads still run is a live process */
	if (!proc__status_line(pid, "Threads", buf, sizeof(buf)) && strtol(buf, NULL, 10) > 1)
		return 0;
	return 1;
}

/* Real and effective uid (distinct ones). */
int proc__uids(pid_t pid, uid_t *uids, int max)
{
	char buf[256];
	unsigned int r, e, s, fs;
	int err = proc__status_line(pid, "Uid", buf, sizeof(buf)), n = 0;

	if (err)
		return err;
	if (sscanf(buf, "%u %u %u %u", &r, &e, &s, &fs) < 2)
		return -EINVAL;
	if (max > 0)
		uids[n++] = r;
	if (max > 1 && e != r)
		uids[n++] = e;
	return n;
}

uint64_t proc_maps__fingerprint(const struct proc_maps *pm)
{
	uint64_t h = HASH_FNV_SEED;
	size_t i;

	for (i = 0; pm && i < pm->n; i++) {
		const struct proc_map *m = &pm->maps[i];

		h = hash_mix(h, m->start);
		h = hash_mix(h, m->end);
		h = hash_mix(h, m->offset);
		h = hash_mix(h, m->ino);
	}
	return h;
}

int proc_map__elf_bias(Elf *elf, const struct proc_map *m, uint64_t *bias)
{
	size_t i, n;

	if (elf_getphdrnum(elf, &n))
		return -ENOEXEC;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		/* the executable segment: with lld's layout the read-only
		 * one before it shares its first page of the file */
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		if (m->offset < (ph.p_offset & ~0xfffULL) || m->offset >= ph.p_offset + ph.p_filesz)
			continue;
		*bias = m->start - (ph.p_vaddr + m->offset - ph.p_offset);
		return 0;
	}
	return -ENOEXEC;
}

int proc_map__load_bias(const char *path, const struct proc_map *m, uint64_t *bias)
{
	struct elf_file ef;
	int err = elf_file__open(&ef, path);

	if (err)
		return err;
	err = proc_map__elf_bias(ef.elf, m, bias);
	elf_file__close(&ef);
	return err;
}
