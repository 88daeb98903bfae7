// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kallsyms.c - kernel text symbols from /proc/kallsyms.
 *
 * Lines are "ADDR TYPE NAME [MODULE]".  Text symbols (t, T, w, W) are kept,
 * sorted by address; a symbol extends to the next one.  Without root (or
 * with kptr_restrict) every address reads 0: that is detected and reported
 * once instead of naming every kernel frame after the first symbol.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "kallsyms.h"
#include "strpool.h"

#define LOG_PREFIX "symbolizer: "
#include "log.h"

struct ksym {
	struct elf_sym s;
	const char *module;	/* "[kernel.kallsyms]" or "[mod]" (pooled) */
};

struct ksyms {
	struct ksym *syms;
	size_t n, cap;
	struct strpool *names;
};

static const char KERNEL_MODULE[] = "[kernel.kallsyms]";

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->s.start != y->s.start)
		return x->s.start < y->s.start ? -1 : 1;
	/* prefer names not starting with '_' among aliases, then by name */
	if ((x->s.name[0] == '_') != (y->s.name[0] == '_'))
		return x->s.name[0] == '_' ? 1 : -1;
	return strcmp(x->s.name, y->s.name);
}

static int ksyms__push(struct ksyms *ks, uint64_t addr, const char *name,
		       const char *module, const char **last_mod)
{
	struct ksym *k;

	if (GROW(ks->syms, ks->cap, ks->n + 1))
		return -ENOMEM;
	k = &ks->syms[ks->n];
	k->s.start = addr;
	k->s.size = 0;
	k->s.name = strpool__add(ks->names, name, strlen(name));
	if (!k->s.name)
		return -ENOMEM;
	if (!module) {
		k->module = KERNEL_MODULE;
	} else if (*last_mod && !strcmp(*last_mod, module)) {
		k->module = *last_mod;
	} else {
		k->module = strpool__add(ks->names, module, strlen(module));
		if (!k->module)
			return -ENOMEM;
		*last_mod = k->module;
	}
	ks->n++;
	return 0;
}

struct ksyms *ksyms__load(const char *path)
{
	struct ksyms *ks = calloc(1, sizeof(*ks));
	const char *last_mod = NULL;
	char *line = NULL, name[512], mod[256];
	size_t lcap = 0, i, k;
	int err = 0, nonzero = 0;
	FILE *f = NULL;

	if (!ks)
		return NULL;
	if (!path)
		path = "/proc/kallsyms";
	ks->names = strpool__new();
	f = fopen(path, "re");
	if (!ks->names || !f) {
		err = -errno;
		pr_warn("cannot read %s: %s\n", path, strerror(errno));
		goto cleanup;
	}
	while (getline(&line, &lcap, f) > 0) {
		unsigned long long addr;
		char type;
		int n;

		mod[0] = '\0';
		n = sscanf(line, "%llx %c %511s %255s", &addr, &type, name, mod);
		if (n < 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (addr)
			nonzero = 1;
		err = ksyms__push(ks, addr, name, n == 4 ? mod : NULL, &last_mod);
		if (err)
			goto cleanup;
	}
	if (!nonzero) {
		err = -EPERM;
		pr_warn("%s: all %zu addresses read as 0 (not root, or kernel.kptr_restrict); kernel frames stay unnamed\n",
			 path, ks->n);
		goto cleanup;
	}
	qsort(ks->syms, ks->n, sizeof(*ks->syms), ksym_cmp);
	for (i = 0, k = 0; i < ks->n; i++) {
		if (k && ks->syms[i].s.start == ks->syms[k - 1].s.start)
			continue;	/* an alias: the preferred name sorted first */
		ks->syms[k++] = ks->syms[i];
	}
	ks->n = k;
	fclose(f);
	free(line);
	return ks;
cleanup:
	if (f)
		fclose(f);
	free(line);
	ksyms__free(ks);
	errno = -err;
	return NULL;
}

void ksyms__free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	strpool__free(ks->names);
	free(ks);
}

const struct elf_sym *ksyms__find(const struct ksyms *ks, uint64_t addr, const char **module)
{
	size_t lo = 0, hi = ks->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].s.start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (module)
		*module = ks->syms[lo - 1].module;
	return &ks->syms[lo - 1].s;
}

size_t ksyms__count(const struct ksyms *ks)
{
	return ks ? ks->n : 0;
}
