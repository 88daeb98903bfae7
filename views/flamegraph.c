// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * a flame-graph SVG from the trace model.
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

/* ----------------------------------------------------------- flame graph */

struct fnode {
	uint32_t frame;
	uint64_t count;
	uint32_t first_child, next_sibling;	/* indices + 1 */
};

struct ftree {
	struct fnode *n;
	size_t len, cap;
};

static int ftree__child(struct ftree *t, uint32_t parent, uint32_t frame, uint32_t *out)
{
	uint32_t c;

	for (c = t->n[parent].first_child; c; c = t->n[c - 1].next_sibling)
		if (t->n[c - 1].frame == frame) {
			*out = c - 1;
			return 0;
		}
	if (GROW(t->n, t->cap, t->len + 1))
		return -ENOMEM;
	t->n[t->len].frame = frame;
	t->n[t->len].count = 0;
	t->n[t->len].first_child = 0;
	t->n[t->len].next_sibling = t->n[parent].first_child;
	t->n[parent].first_child = (uint32_t)t->len + 1;
	*out = (uint32_t)t->len++;
	return 0;
}

/* siblings in name order, for a stable picture */
static const struct view *fs_view;
static const struct ftree *fs_tree;

static int fnode_cmp(const void *a, const void *b)
{
	const struct fnode *x = &fs_tree->n[*(const uint32_t *)a];
	const struct fnode *y = &fs_tree->n[*(const uint32_t *)b];

	return strcmp(fs_view->frames[x->frame].name, fs_view->frames[y->frame].name);
}

static void fnode_sort(const struct view *v, const struct ftree *t, uint32_t *ids, size_t n)
{
	fs_view = v;
	fs_tree = t;
	qsort(ids, n, sizeof(*ids), fnode_cmp);
}

#define FG_WIDTH	1200
#define FG_PAD		10
#define FG_FRAME_H	16
#define FG_FONT		12
#define FG_CHAR_W	(FG_FONT * 0.59)
#define FG_MIN_W	0.1

static void xml_str(const char *s, size_t max, FILE *out)
{
	size_t n = 0;

	for (; *s && n < max; s++, n++) {
		unsigned char c = (unsigned char)*s;

		if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if (c < 0x20)
			fputc(' ', out);
		else
			fputc(c, out);
	}
}

/* Colours by kind, FlameGraph's java palette: JIT green, native red,
 * kernel orange, unknown grey; the name's hash varies the shade. */
static void fg_colour(const struct vframe *f, char *buf, size_t len)
{
	unsigned v1 = (unsigned)(f->hash % 64), v2 = (unsigned)((f->hash >> 8) % 64);

	switch (f->kind) {
	case SYM_KIND_JIT:
		snprintf(buf, len, "rgb(%u,%u,%u)", 50 + v1, 170 + v2 / 2, 50 + v1 / 2);
		break;
	case SYM_KIND_KERNEL:
		snprintf(buf, len, "rgb(%u,%u,%u)", 220 + v1 / 3, 130 + v2, 20 + v1 / 4);
		break;
	case SYM_KIND_NATIVE:
		snprintf(buf, len, "rgb(%u,%u,%u)", 200 + v1 / 2, 60 + v2, 50 + v1 / 2);
		break;
	default:
		snprintf(buf, len, "rgb(%u,%u,%u)", 160 + v1 / 2, 160 + v1 / 2, 160 + v1 / 2);
		break;
	}
}

static void fg_emit(const struct view *v, const struct ftree *t, uint32_t node, int depth,
		    double x, double scale, int height, uint64_t total, FILE *out)
{
	const struct fnode *nd = &t->n[node];
	double w = (double)nd->count * scale;
	const struct vframe *f = &v->frames[nd->frame];
	double y = height - FG_PAD * 3 - (depth + 1) * FG_FRAME_H;
	char colour[32];
	size_t chars;
	uint32_t c;
	double cx;

	if (w < FG_MIN_W)
		return;
	fg_colour(f, colour, sizeof(colour));
	fprintf(out, "<g><title>");
	xml_str(f->name, 4096, out);
	fprintf(out, " (%" PRIu64 " samples, %.2f%%)</title>", nd->count,
		100.0 * (double)nd->count / (double)total);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" rx=\"2\" ry=\"2\"/>",
		x, y, w, FG_FRAME_H - 1, colour);
	chars = (size_t)((w - 6) / FG_CHAR_W);
	if (chars >= 3) {
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + FG_FRAME_H - 5);
		if (strlen(f->name) <= chars) {
			xml_str(f->name, chars, out);
		} else {
			xml_str(f->name, chars - 2, out);
			fputs("..", out);
		}
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
	/* children left to right in name order for a stable picture */
	cx = x;
	{
		uint32_t *kids;
		size_t nk = 0, i;

		for (c = nd->first_child; c; c = t->n[c - 1].next_sibling)
			nk++;
		kids = malloc((nk ? nk : 1) * sizeof(*kids));
		if (!kids)
			return;
		nk = 0;
		for (c = nd->first_child; c; c = t->n[c - 1].next_sibling)
			kids[nk++] = c - 1;
		fnode_sort(v, t, kids, nk);
		for (i = 0; i < nk; i++) {
			fg_emit(v, t, kids[i], depth + 1, cx, scale, height, total, out);
			cx += (double)t->n[kids[i]].count * scale;
		}
		free(kids);
	}
}

static int ftree__depth(const struct ftree *t, uint32_t node)
{
	int best = 0, d;
	uint32_t c;

	for (c = t->n[node].first_child; c; c = t->n[c - 1].next_sibling) {
		d = ftree__depth(t, c - 1);
		if (d > best)
			best = d;
	}
	return best + 1;
}

int view__write_svg(struct view *v, const char *file, FILE *out)
{
	struct ftree t = { 0 };
	uint64_t total = 0;
	size_t i;
	uint32_t d, cur;
	int height, err = 0;
	double scale;

	if (GROW(t.n, t.cap, 1))
		return -ENOMEM;
	t.len = 1;
	memset(&t.n[0], 0, sizeof(t.n[0]));
	t.n[0].frame = UINT32_MAX;
	for (i = 0; i < v->n_stacks && !err; i++) {
		const struct vstack *st = &v->stacks[i];

		if (!st->count)
			continue;
		total += st->count;
		t.n[0].count += st->count;
		for (cur = 0, d = 0; d < st->depth && !err; d++) {
			err = ftree__child(&t, cur, v->frames_pool[st->off + d], &cur);
			if (!err)
				t.n[cur].count += st->count;
		}
	}
	if (err) {
		free(t.n);
		return err;
	}
	height = (ftree__depth(&t, 0) - 1) * FG_FRAME_H + FG_PAD * 8;
	scale = total ? (double)(FG_WIDTH - 2 * FG_PAD) / (double)total : 0;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n"
		"<style>text { font-family: Verdana, sans-serif; font-size: %dpx; fill: #000; } g:hover rect { stroke: #000; stroke-width: 0.5; }</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f8\"/>\n"
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" style=\"font-size:17px\">Flame Graph: ",
		FG_WIDTH, height, FG_WIDTH, height, FG_FONT, FG_WIDTH, height, FG_WIDTH / 2,
		FG_PAD * 2);
	xml_str(sym_basename(file), 256, out);
	fprintf(out, "</text>\n<text x=\"%d\" y=\"%d\">", FG_PAD, FG_PAD * 4);
	xml_str(v->select_desc, 256, out);
	fprintf(out, ", %" PRIu64 " samples; green JIT, red native, orange kernel, grey unknown</text>\n",
		total);
	for (cur = t.n[0].first_child, d = 0; cur; cur = t.n[cur - 1].next_sibling)
		d++;
	{
		/* roots, in name order */
		uint32_t *roots = calloc(d ? d : 1, sizeof(*roots));
		size_t nr = 0, a;
		double x = FG_PAD;

		if (!roots) {
			free(t.n);
			return -ENOMEM;
		}
		for (cur = t.n[0].first_child; cur; cur = t.n[cur - 1].next_sibling)
			roots[nr++] = cur - 1;
		fnode_sort(v, &t, roots, nr);
		for (a = 0; a < nr; a++) {
			fg_emit(v, &t, roots[a], 0, x, scale, height, total, out);
			x += (double)t.n[roots[a]].count * scale;
		}
		free(roots);
	}
	fprintf(out, "</svg>\n");
	free(t.n);
	return ferror(out) ? -EIO : 0;
}
