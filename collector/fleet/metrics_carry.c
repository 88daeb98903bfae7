// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * metrics_carry.c - counters carried over the daemon's reloads
 * (metrics_carry.h).  The carried series are kept in an array found by a
 * hash set of their "name{labels}"; each family keeps its HELP and TYPE
 * lines for the series the running trace no longer has.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "hash.h"
#include "index_set.h"
#include "metrics_agg.h"
#include "metrics_carry.h"

struct fam {
	char *name;
	char *head;		/* its # HELP and # TYPE lines */
	bool in_text;		/* the running trace has it */
};

struct series {
	char *key;		/* name{labels} */
	int fam;
	double v;		/* what the ended traces reached */
	bool seen;		/* in the running trace's text */
};

struct mcarry {
	struct fam *fams;
	size_t nfams, capfams;
	struct index_set fam_set;
	struct series *ser;
	size_t nser, capser;
	struct index_set ser_set;
	char *last;		/* the running trace's last text */
	pid_t writer;
};

struct mcarry *mcarry__new(void)
{
	return calloc(1, sizeof(struct mcarry));
}

void mcarry__free(struct mcarry *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nfams; i++) {
		free(c->fams[i].name);
		free(c->fams[i].head);
	}
	for (i = 0; i < c->nser; i++)
		free(c->ser[i].key);
	index_set__clear(&c->fam_set);
	index_set__clear(&c->ser_set);
	free(c->fams);
	free(c->ser);
	free(c->last);
	free(c);
}

static int fam_eq(const void *ctx, const void *key, int i)
{
	const struct mcarry *c = ctx;

	return !strcmp(c->fams[i].name, key);
}

static int ser_eq(const void *ctx, const void *key, int i)
{
	const struct mcarry *c = ctx;

	return !strcmp(c->ser[i].key, key);
}

static int find_fam(const struct mcarry *c, const char *name)
{
	return index_set__find(&c->fam_set, hash_str(name), name, fam_eq, c);
}

static int find_ser(const struct mcarry *c, const char *key)
{
	return index_set__find(&c->ser_set, hash_str(key), key, ser_eq, c);
}

/* Does a sample of this TYPE only grow while its process lives? */
static bool carried_type(const char *type, const char *sample_name)
{
	size_t n = strlen(sample_name);

	if (!strcmp(type, "counter") || !strcmp(type, "histogram"))
		return true;
	return !strcmp(type, "summary") &&
	       ((n > 4 && !strcmp(sample_name + n - 4, "_sum")) ||
		(n > 6 && !strcmp(sample_name + n - 6, "_count")));
}

/* One line of an exposition, parsed in place of a copy. */
struct line {
	enum { L_HELP, L_TYPE, L_SAMPLE, L_OTHER } kind;
	char name[256];		/* HELP/TYPE: the family; sample: its name */
	char type[16];
	char key[1024];		/* sample: name{labels} */
	double v;
};

static void parse_line(const char *s, size_t n, struct line *l)
{
	const char *sp;

	l->kind = L_OTHER;
	if (n >= sizeof(l->key))
		return;
	if (sscanf(s, "# HELP %255s", l->name) == 1) {
		l->kind = L_HELP;
		return;
	}
	if (sscanf(s, "# TYPE %255s %15s", l->name, l->type) == 2) {
		l->kind = L_TYPE;
		return;
	}
	if (*s == '#' || !n)
		return;
	for (sp = s + n; sp > s && sp[-1] != ' '; sp--)
		;
	if (sp == s)
		return;
	memcpy(l->key, s, (size_t)(sp - 1 - s));
	l->key[sp - 1 - s] = 0;
	l->v = strtod(sp, NULL);
	snprintf(l->name, sizeof(l->name), "%.*s", (int)strcspn(l->key, "{"), l->key);
	l->kind = L_SAMPLE;
}

static void print_value(struct mbuf *b, const char *key, double v)
{
	mbuf__printf(b, fabs(v) < 1e15 ? "%s %.15g\n" : "%s %.17g\n", key, v);
}

/* The previous trace ended: its counters join the carried ones. */
static void fold(struct mcarry *c, const char *text)
{
	char help[512] = "", type[16] = "";
	int fam = -1;

	while (*text) {
		size_t n = strcspn(text, "\n");
		struct line l;
		int i;

		parse_line(text, n, &l);
		if (l.kind == L_HELP)
			snprintf(help, sizeof(help), "%.*s\n", (int)n, text);
		if (l.kind == L_TYPE) {
			snprintf(type, sizeof(type), "%s", l.type);
			fam = find_fam(c, l.name);
			if (fam < 0 && !GROW(c->fams, c->capfams, c->nfams + 1)) {
				struct fam *f = &c->fams[c->nfams];

				f->name = strdup(l.name);
				if (asprintf(&f->head, "%s%.*s\n", help, (int)n, text) < 0)
					f->head = NULL;
				if (f->name && f->head &&
				    !index_set__add(&c->fam_set, hash_str(l.name), (int)c->nfams))
					fam = (int)c->nfams++;
				else {
					free(f->name);
					free(f->head);
				}
			}
		}
		if (l.kind == L_SAMPLE && fam >= 0 && carried_type(type, l.name)) {
			i = find_ser(c, l.key);
			if (i >= 0) {
				c->ser[i].v += l.v;
			} else if (!GROW(c->ser, c->capser, c->nser + 1)) {
				struct series *s = &c->ser[c->nser];

				s->key = strdup(l.key);
				s->fam = fam;
				s->v = l.v;
				if (s->key && !index_set__add(&c->ser_set, hash_str(l.key), (int)c->nser))
					c->nser++;
				else
					free(s->key);
			}
		}
		text += n + (text[n] == '\n');
	}
}

/* The carried series of family fam the running trace did not have. */
static void flush_unseen(const struct mcarry *c, int fam, struct mbuf *out)
{
	size_t i;

	for (i = 0; fam >= 0 && i < c->nser; i++)
		if (c->ser[i].fam == fam && !c->ser[i].seen)
			print_value(out, c->ser[i].key, c->ser[i].v);
}

void mcarry__render(struct mcarry *c, const char *text, pid_t writer, struct mbuf *out)
{
	char type[16] = "";
	int fam = -1;
	size_t i;

	if (c->last && writer != c->writer)
		fold(c, c->last);
	free(c->last);
	c->last = strdup(text);
	c->writer = writer;
	for (i = 0; i < c->nser; i++)
		c->ser[i].seen = false;
	for (i = 0; i < c->nfams; i++)
		c->fams[i].in_text = false;
	while (*text) {
		size_t n = strcspn(text, "\n");
		struct line l;

		parse_line(text, n, &l);
		if (l.kind == L_HELP || l.kind == L_TYPE) {
			int f = find_fam(c, l.name);

			if (f != fam) {	/* a family ends: what it had before, at the end of it */
				flush_unseen(c, fam, out);
				fam = f;
			}
			if (fam >= 0)
				c->fams[fam].in_text = true;
			if (l.kind == L_TYPE)
				snprintf(type, sizeof(type), "%s", l.type);
		}
		if (l.kind == L_SAMPLE && carried_type(type, l.name) &&
		    (i = (size_t)find_ser(c, l.key)) != (size_t)-1) {
			c->ser[i].seen = true;
			print_value(out, l.key, l.v + c->ser[i].v);
		} else {
			mbuf__printf(out, "%.*s\n", (int)n, text);
		}
		text += n + (text[n] == '\n');
	}
	flush_unseen(c, fam, out);
	for (i = 0; i < c->nfams; i++) {
		if (c->fams[i].in_text)
			continue;
		mbuf__printf(out, "%s", c->fams[i].head);
		flush_unseen(c, (int)i, out);
	}
}
