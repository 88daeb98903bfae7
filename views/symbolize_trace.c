// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * symbolize_trace.c - `ebpf-collect symbolize TRACE DIR [--symbols LIST]`:
 * an existing trace's native frames named again, offline, once their debug
 * files can be had.
 *
 * A frame the collector could not name is the method "FILE+0xSTART" of its
 * pseudo-module (symbolizer/elf_syms.c), and the trace's Universal.System
 * events say which file mapping FILE was and its build id
 * (docs/nettrace-format.md section 11).  A first pass reads those; each
 * build id's debug file is looked for as the collector does (the cache,
 * --symbols directories, then the network: --symbols URLs and
 * DEBUGINFOD_URLS, symbolizer/symbol_store.h); the second pass is the
 * nettrace library's split, with every method event whose name the debug
 * file's .symtab knows at START rewritten (one V5 file per process, as
 * `split` writes them).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clock.h"
#include "elf_syms.h"
#include "nettrace.h"
#include "rundown.h"
#include "symbol_store.h"
#include "views.h"
#include "view.h"
#define LOG_PREFIX "symbolize: "
#include "log.h"

#define MAX_FILES	4096

struct st_file {
	char *base;		/* the file's basename, as "FILE+0x" names it */
	char *build_id;
	struct elf_syms *syms;	/* its debug file's; NULL: none found */
	int tried;
};

struct st_state {
	struct st_file files[MAX_FILES];
	int n;
	char *meta_ids[MAX_FILES];	/* ProcessMappingMetadata id -> build id */
	uint64_t renamed, frames_kept;
	uint64_t deadline;
	uint8_t enc[16384];
};

static int is_universal(const struct nt_read_event *ev, uint32_t id)
{
	return ev->meta->event_id == id && view_streq_ci(ev->meta->provider,
							 UNIVERSAL_SYSTEM_PROVIDER);
}

/* First pass: the build id of every mapped file's basename. */
static void st_note(struct st_state *s, const struct nt_read_event *ev)
{
	char strs[8192], id[128];
	struct sym_mapping_meta_rec mm;
	struct sym_mapping_rec m;
	const char *base;
	int i;

	if (is_universal(ev, UNIVERSAL_EV_MAPPING_META)) {
		if (!sym_decode_mapping_meta(ev->payload, ev->payload_size, &mm, strs, sizeof(strs)) &&
		    mm.id < MAX_FILES && !s->meta_ids[mm.id] &&
		    sym_mapping_build_id(mm.symbol_json, id, sizeof(id))[0])
			s->meta_ids[mm.id] = strdup(id);
		return;
	}
	if (!is_universal(ev, UNIVERSAL_EV_MAPPING) ||
	    sym_decode_mapping(ev->payload, ev->payload_size, &m, strs, sizeof(strs)) ||
	    m.meta_id >= MAX_FILES || !s->meta_ids[m.meta_id] || s->n >= MAX_FILES)
		return;
	base = strrchr(m.path, '/') ? strrchr(m.path, '/') + 1 : m.path;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->files[i].base, base) &&
		    !strcmp(s->files[i].build_id, s->meta_ids[m.meta_id]))
			return;
	s->files[s->n].base = strdup(base);
	s->files[s->n].build_id = strdup(s->meta_ids[m.meta_id]);
	s->n++;
}

/* The debug file's symbols of files[i], found on first use. */
static struct elf_syms *st_syms(struct st_state *s, int i)
{
	struct st_file *f = &s->files[i];
	char found[4096];
	int fd;

	if (f->tried)
		return f->syms;
	f->tried = 1;
	fd = symbol_store__find_local(f->build_id, found, sizeof(found));
	if (fd < 0)
		fd = symbol_store__fetch(f->build_id, s->deadline, found, sizeof(found));
	if (fd < 0) {
		pr_info("%s (build id %s): no debug file found\n", f->base, f->build_id);
		return NULL;
	}
	f->syms = elf_syms__load(fd, found, NULL);
	close(fd);
	if (f->syms)
		pr_info("%s: symbols from %s\n", f->base, found);
	return f->syms;
}

/* Second pass: a method event named "FILE+0xSTART" gets the debug file's name. */
static int st_rewrite(const struct nt_read_event *ev, const uint8_t **payload, uint32_t *len,
		      void *arg)
{
	struct st_state *s = arg;
	struct sym_method_rec m;
	const struct elf_sym *sym;
	char strs[8192], base[1024];
	unsigned long long start;
	const char *plus;
	long n;
	int i;

	if (ev->meta->event_id != CLR_EV_METHOD_UNLOAD_VERBOSE ||
	    !view_streq_ci(ev->meta->provider, CLR_RUNDOWN_PROVIDER) ||
	    sym_decode_method(ev->payload, ev->payload_size, &m, strs, sizeof(strs)) ||
	    m.ns[0] || !(plus = strstr(m.name, "+0x")) || (size_t)(plus - m.name) >= sizeof(base) ||
	    sscanf(plus + 3, "%llx", &start) != 1)
		return 0;
	snprintf(base, sizeof(base), "%.*s", (int)(plus - m.name), m.name);
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->files[i].base, base))
			break;
	if (i == s->n || !st_syms(s, i) || !(sym = elf_syms__find(s->files[i].syms, start)) ||
	    sym->start != start || strstr(sym->name, "+0x")) {
		s->frames_kept++;
		return 0;
	}
	m.name = sym->name;
	n = sym_encode_method(s->enc, sizeof(s->enc), &m);
	if (n < 0 || n > (long)sizeof(s->enc))
		return 0;
	s->renamed++;
	*payload = s->enc;
	*len = (uint32_t)n;
	return 1;
}

int symbolize_trace_main(const char *trace, const char *dir, const char *symbols,
			 const struct nt_split_opts *opts)
{
	static struct st_state s;	/* 128 KiB of tables: not on the stack */
	struct nt_split_opts o = opts ? *opts : (struct nt_split_opts){ 0 };
	struct nt_read_event ev;
	struct nt_reader *r;
	char err[512];
	int n, rc;

	if (symbol_store__configure(symbols, err, sizeof(err))) {
		pr_warn("%s\n", err);
		return EXIT_USAGE;
	}
	r = nt_reader__open(trace, NULL);
	if (!r || nt_reader__error(r)) {
		pr_warn("%s: %s\n", trace, r ? nt_reader__error(r) : strerror(errno));
		nt_reader__close(r);
		return EXIT_FAIL;
	}
	while ((rc = nt_reader__next(r, &ev)) == 1)
		st_note(&s, &ev);
	nt_reader__close(r);
	s.deadline = mono_ms() + SYMBOL_STORE_TOTAL_MS;
	o.rewrite = st_rewrite;
	o.rewrite_arg = &s;
	n = nt_split_by_process(trace, dir, &o, err, sizeof(err));
	if (n < 0) {
		pr_warn("%s\n", err);
		return EXIT_FAIL;
	}
	printf("%d files in %s; %" PRIu64 " native ranges named, %" PRIu64 " left as FILE+0xSTART\n",
	       n, dir, s.renamed, s.frames_kept);
	return fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}
