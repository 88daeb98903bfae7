// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tracepoint_read.c - the tracepoint shim's table read from outside the
 * process (usdt/tracepoint_read.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc_mem.h"
#include "tracepoint_read.h"

/* a NUL-terminated string at addr, cut to size - 1 bytes; reads page by
 * page so that a string ending before an unmapped page is read whole */
static int read_str(pid_t pid, uint64_t addr, char *out, size_t size)
{
	size_t got = 0;

	while (got + 1 < size) {
		size_t page_left = 4096 - ((addr + got) & 4095);
		size_t want = size - 1 - got < page_left ? size - 1 - got : page_left;
		int err = proc_mem_rw(pid, addr + got, out + got, want, false);

		if (err)
			return err;
		if (memchr(out + got, 0, want))
			return 0;
		got += want;
	}
	out[size - 1] = 0;
	return 0;
}

/* the table in one writable mapping of the shim [start, end) */
static int scan_mapping(struct tpshim_view *v, uint64_t start, uint64_t end)
{
	size_t len = end - start;
	char *buf, *hit;
	int err;

	if (len > (64u << 20))
		return -ENOENT;
	buf = malloc(len);
	if (!buf)
		return -ENOMEM;
	err = proc_mem_rw(v->pid, start, buf, len, false);
	hit = err ? NULL : memmem(buf, len, TPSHIM_MAGIC, TPSHIM_MAGIC_LEN);
	if (hit && (size_t)(hit - buf) % 8 == 0 && len - (hit - buf) >= sizeof(v->table)) {
		v->table_addr = start + (hit - buf);
		memcpy(&v->table, hit, sizeof(v->table));
	} else if (!err) {
		err = -ENOENT;
	}
	free(buf);
	return err;
}

int tpshim__find(pid_t pid, struct tpshim_view *v)
{
	char path[64], line[4096];
	int err = -ENOENT;
	FILE *f;

	memset(v, 0, sizeof(*v));
	v->pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (err == -ENOENT && fgets(line, sizeof(line), f)) {
		uint64_t start, end;
		char perms[8], *file, *base;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s", &start, &end, perms) != 3 ||
		    perms[0] != 'r' || perms[1] != 'w')
			continue;
		file = strchr(line, '/');
		if (!file)
			continue;
		file[strcspn(file, "\n")] = 0;
		base = strrchr(file, '/') + 1;
		if (strcmp(base, TPABI_LIB_NAME))
			continue;
		err = scan_mapping(v, start, end);
	}
	fclose(f);
	return err;
}

int tpshim__tracepoint(const struct tpshim_view *v, uint32_t i, struct tpshim_tp *tp)
{
	struct tpabi_tracepoint raw;
	uint64_t addr;
	int err;

	memset(tp, 0, sizeof(*tp));
	if (i >= v->table.count || i >= TPSHIM_CAPACITY)
		return -ENOENT;
	err = proc_mem_rw(v->pid, v->table.entries + (uint64_t)i * sizeof(addr), &addr, sizeof(addr), false);
	if (err)
		return err;
	if (!addr)
		return -ENOENT;
	err = proc_mem_rw(v->pid, addr, &raw, sizeof(raw), false);
	if (err)
		return err;
	tp->addr = addr;
	tp->state = raw.state;
	tp->probes = (uint64_t)(uintptr_t)raw.probes;
	if (tp->probes) {
		struct tpabi_probe p;

		err = proc_mem_rw(v->pid, tp->probes, &p, sizeof(p), false);
		if (err)
			return err;
		tp->probe_func = (uint64_t)(uintptr_t)p.func;
		tp->probe_data = (uint64_t)(uintptr_t)p.data;
	}
	err = read_str(v->pid, (uint64_t)(uintptr_t)raw.name, tp->name, sizeof(tp->name));
	if (!err && raw.signature)
		err = read_str(v->pid, (uint64_t)(uintptr_t)raw.signature, tp->signature,
			       sizeof(tp->signature));
	return err;
}
