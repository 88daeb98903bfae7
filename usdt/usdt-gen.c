// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * usdt-gen - compile an ETW instrumentation manifest into a USDT provider.
 *
 *   usdt-gen MANIFEST -o OUTDIR [--name PREFIX] [--emit-caller]
 *   usdt-gen --table FILE [--name PREFIX] MANIFEST...
 *
 * Writes, for PREFIX (default "clretw"):
 *   PREFIX_provider.h  runtime API: EventXplatEnabled<Symbol>() (static
 *                      inline semaphore test), FireEtXplat<Symbol>(...)
 *                      prototypes with CoreCLR's argument names, order and
 *                      types, typed structs + packers for <struct> arrays
 *   PREFIX_provider.c  semaphores, serializers and one USDT probe per event
 *   PREFIX_events.c    `const struct ect_table PREFIX_event_table` (event_table.h)
 *   PREFIX_caller.c    (--emit-caller) a main() calling every FireEtXplat once
 *
 * or, with --table, only FILE: the names table `PREFIX_event_table` of every
 * event of the manifests, in their order (the views name and decode events
 * of manifests whose providers the collector does not fire with it).
 *
 * The manifest is parsed and checked completely before anything is written;
 * files are written under temporary names and renamed at the end, so a
 * failed run leaves the output directory as it was.  Output is a pure
 * function of the manifest's content and basename.  See usdt/README.md for
 * the probe contract (arguments, naming, semaphores, 5-byte nop sites).
 *
 * The C emitters live in usdt-gen-provider.c / usdt-gen-events.c; this file is the
 * driver: options, counts, atomic output.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "manifest.h"
#include "usdt-gen.h"

#define LOG_PREFIX "usdt-gen: "
#include "log.h"

#define MAX_OUT 4

struct out_file {
	char tmp[PATH_MAX];
	char final[PATH_MAX];
	FILE *f;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: usdt-gen MANIFEST -o OUTDIR [--name PREFIX] [--emit-caller]\n"
		"       usdt-gen --table FILE [--name PREFIX] MANIFEST...\n"
		"\n"
		"Compile an ETW event manifest into a USDT provider (PREFIX_provider.h/.c)\n"
		"and an event table (PREFIX_events.c).  PREFIX defaults to clretw.\n"
		"--table: write only FILE, the names and layouts of every event of the\n"
		"manifests (const struct ect_table PREFIX_event_table).\n"
		"Exit status: 0 success, 1 bad input or I/O error, 64 usage.\n");
}

static int is_ident(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

static int out_open(struct out_file *o, const char *dir, const char *prefix, const char *suffix)
{
	snprintf(o->final, sizeof(o->final), "%s/%s%s", dir, prefix, suffix);
	snprintf(o->tmp, sizeof(o->tmp), "%s/.%s%s.tmp.%d", dir, prefix, suffix, (int)getpid());
	o->f = fopen(o->tmp, "w");
	if (!o->f) {
		int err = -errno;

		pr_warn("%s: cannot create: %s\n", o->tmp, strerror(errno));
		o->tmp[0] = 0;
		return err;
	}
	return 0;
}

static void count_fields(const struct man_field *f, int n, int *total)
{
	int i;

	for (i = 0; i < n; i++) {
		if (f[i].intype == ECT_STRUCT)
			count_fields(f[i].members, f[i].n_members, total);
		else
			(*total)++;
	}
}

static int has_intype(const struct man_field *f, int n, int type)
{
	int i;

	for (i = 0; i < n; i++)
		if (f[i].intype == type || has_intype(f[i].members, f[i].n_members, type))
			return 1;
	return 0;
}

static int has_counted(const struct man_field *f, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if ((f[i].intype != ECT_STRUCT && f[i].count_kind == ECT_COUNT_FIELD) ||
		    has_counted(f[i].members, f[i].n_members))
			return 1;
	return 0;
}

/* the template shapes that decide how hard a manifest is for a USDT generator */
static void print_shapes(const struct manifest *m)
{
	int i, j, big = 0, wide = 0, str = 0, strct = 0, counted = 0;

	for (i = 0; i < m->n_providers; i++) {
		for (j = 0; j < m->providers[i].n_templates; j++) {
			const struct man_template *t = &m->providers[i].templates[j];
			int n = 0;

			count_fields(t->fields, t->n_fields, &n);
			big += n > 12;
			wide = n > wide ? n : wide;
			str += has_intype(t->fields, t->n_fields, ECT_UNICODE);
			strct += has_intype(t->fields, t->n_fields, ECT_STRUCT);
			counted += has_counted(t->fields, t->n_fields);
		}
	}
	printf("templates: %d with more than 12 fields (most: %d), %d with UnicodeString, "
	       "%d with structs, %d with count/length-sized fields\n", big, wide, str, strct,
	       counted);
}

static void print_counts(const struct manifest *m, const char *outdir)
{
	int i, j, ev = 0, tp = 0, fl = 0;

	for (i = 0; i < m->n_providers; i++) {
		const struct man_provider *p = &m->providers[i];
		int fields = 0;

		for (j = 0; j < p->n_templates; j++)
			count_fields(p->templates[j].fields, p->templates[j].n_fields, &fields);
		printf("%s (usdt provider %s): %d events, %d templates, %d fields\n",
		       p->name, p->short_name, p->n_events, p->n_templates, fields);
		ev += p->n_events;
		tp += p->n_templates;
		fl += fields;
	}
	printf("total: %d providers, %d events, %d templates, %d fields -> %s\n",
	       m->n_providers, ev, tp, fl, outdir);
	print_shapes(m);
}

/* Close every output; then move them into place, all or none. */
static int commit_outputs(struct out_file *outs, int n_out)
{
	int i;

	for (i = 0; i < n_out; i++) {
		int bad = ferror(outs[i].f);

		bad |= fclose(outs[i].f);
		outs[i].f = NULL;
		if (bad) {
			pr_warn("%s: write error\n", outs[i].tmp);
			return -1;
		}
	}
	for (i = 0; i < n_out; i++) {
		if (rename(outs[i].tmp, outs[i].final)) {
			pr_warn("%s: cannot rename: %s\n", outs[i].final, strerror(errno));
			return -1;
		}
		outs[i].tmp[0] = 0;
	}
	return 0;
}

/* Write the provider, its event table and (optionally) the caller. */
static int generate(struct gen_ctx *g, const char *manifest, const char *outdir,
		    int emit_caller)
{
	struct out_file outs[MAX_OUT] = {};
	int n_out = 0, i, ret = -1;

	if (out_open(&outs[n_out++], outdir, g->prefix, "_provider.h") ||
	    out_open(&outs[n_out++], outdir, g->prefix, "_provider.c") ||
	    out_open(&outs[n_out++], outdir, g->prefix, "_events.c") ||
	    (emit_caller && out_open(&outs[n_out++], outdir, g->prefix, "_caller.c")))
		goto cleanup;
	if (gen_provider_h(g, outs[0].f) || gen_provider_c(g, outs[1].f) ||
	    gen_events_c(g, outs[2].f) || (emit_caller && gen_caller_c(g, outs[3].f))) {
		if (g->err[0])
			pr_warn("%s\n", g->err);
		else
			pr_warn("%s: cannot generate\n", manifest);
		goto cleanup;
	}
	ret = commit_outputs(outs, n_out);
cleanup:
	for (i = 0; i < n_out; i++) {
		if (outs[i].f)
			fclose(outs[i].f);
		if (outs[i].tmp[0])
			unlink(outs[i].tmp);
	}
	return ret;
}

/* --table FILE: the names table of every manifest named, into FILE whole or not at all */
static int write_table(const char *file, const char *prefix, char **paths, int n)
{
	struct manifest **ms = calloc((size_t)n, sizeof(*ms));
	char err[1024], dir[PATH_MAX], base[PATH_MAX], bases[PATH_MAX] = "";
	struct out_file out = {};
	struct gen_ctx g = {};
	int i, ret = 1;

	if (!ms) {
		pr_warn("out of memory\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (manifest__load(paths[i], &ms[i], err, sizeof(err))) {
			pr_warn("%s\n", err);
			goto cleanup;
		}
		snprintf(base, sizeof(base), "%s", paths[i]);
		snprintf(bases + strlen(bases), sizeof(bases) - strlen(bases), "%s%s",
			 i ? " + " : "", basename(base));
	}
	snprintf(dir, sizeof(dir), "%s", file);
	snprintf(base, sizeof(base), "%s", file);
	if (out_open(&out, dirname(dir), "", basename(base)))
		goto cleanup;
	g.m = ms[0];
	g.prefix = prefix;
	g.manifest_base = bases;
	if (gen_names_c(&g, out.f, ms, n) || commit_outputs(&out, 1))
		goto cleanup;
	ret = 0;
cleanup:
	if (out.f)
		fclose(out.f);
	if (out.tmp[0])
		unlink(out.tmp);
	for (i = 0; i < n; i++)
		manifest__free(ms[i]);
	free(ms);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "name", required_argument, NULL, 'n' },
		{ "emit-caller", no_argument, NULL, 'c' },
		{ "table", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *outdir = NULL, *prefix = "clretw", *table = NULL;
	struct gen_ctx g = {};
	struct manifest *m = NULL;
	char err[1024], base_buf[PATH_MAX];
	int emit_caller = 0, ret = 1, opt;

	while ((opt = getopt_long(argc, argv, "o:n:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			outdir = optarg;
			break;
		case 'n':
			prefix = optarg;
			break;
		case 'c':
			emit_caller = 1;
			break;
		case 't':
			table = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 64;
		}
	}
	if (table ? optind == argc || outdir || emit_caller : optind != argc - 1 || !outdir) {
		usage(stderr);
		return 64;
	}
	if (!is_ident(prefix)) {
		pr_warn("--name %s: not a C identifier\n", prefix);
		return 64;
	}
	if (table)
		return write_table(table, prefix, argv + optind, argc - optind);
	if (manifest__load(argv[optind], &m, err, sizeof(err))) {
		pr_warn("%s\n", err);
		return 1;
	}
	if (mkdir(outdir, 0777) && errno != EEXIST) {
		pr_warn("%s: cannot create directory: %s\n", outdir, strerror(errno));
		goto cleanup;
	}
	snprintf(base_buf, sizeof(base_buf), "%s", argv[optind]);
	g.m = m;
	g.prefix = prefix;
	g.manifest_base = basename(base_buf);
	if (generate(&g, argv[optind], outdir, emit_caller))
		goto cleanup;
	print_counts(m, outdir);
	ret = 0;
cleanup:
	manifest__free(m);
	return ret;
}
