// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * folded stacks ("a;b;c N" lines, flamegraph.pl input) from the trace model.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "views.h"
#include "view.h"

/* -------------------------------------------------------- folded stacks */

static void fputs_folded_name(const struct vframe *f, int suffix, FILE *out)
{
	const char *p;

	for (p = f->name; *p; p++)
		if (*p != ';' && *p != '\n' && *p != '\r')
			fputc(*p, out);
	if (suffix && f->kind == SYM_KIND_JIT)
		fputs("_[j]", out);
	else if (suffix && f->kind == SYM_KIND_KERNEL)
		fputs("_[k]", out);
}

static char **folded_lines;

static int line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int view__write_folded(struct view *v, FILE *out)
{
	size_t i, n = 0;
	int err = 0;

	folded_lines = calloc(v->n_stacks ? v->n_stacks : 1, sizeof(char *));
	if (!folded_lines)
		return -ENOMEM;
	for (i = 0; i < v->n_stacks; i++) {
		const struct vstack *st = &v->stacks[i];
		char *buf = NULL;
		size_t len = 0;
		FILE *m;
		uint32_t d;

		if (!st->count)
			continue;
		m = open_memstream(&buf, &len);
		if (!m) {
			err = -ENOMEM;
			break;
		}
		for (d = 0; d < st->depth; d++) {
			if (d)
				fputc(';', m);
			fputs_folded_name(&v->frames[v->frames_pool[st->off + d]], v->kind_suffix, m);
		}
		if (!st->depth)
			fputs("[no frames]", m);
		fprintf(m, " %" PRIu64, st->count);
		fclose(m);
		folded_lines[n++] = buf;
	}
	qsort(folded_lines, n, sizeof(char *), line_cmp);
	for (i = 0; i < n; i++) {
		if (!err)
			fprintf(out, "%s\n", folded_lines[i]);
		free(folded_lines[i]);
	}
	free(folded_lines);
	folded_lines = NULL;
	return err;
}
