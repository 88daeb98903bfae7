// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * usdt_generic.c - any USDT provider into the trace.
 *
 * Each --usdt PROVIDER[:PROBE-GLOB][:ARGSPEC] selects probes by provider and
 * a glob on the probe name.  Probes are found in the stapsdt notes of the
 * files a target has mapped (usdt_notes.c, the same reader as -l) and
 * attached with libbpf (bpf_program__attach_usdt): libbpf decodes the
 * argument specs, the kernel maintains semaphores (uprobe ref_ctr_offset),
 * probes in shared libraries are attached by file offset.  Nothing here
 * parses an argument spec.
 *
 * Every distinct provider:probe gets an index in `probes` (the low half of
 * the attach cookie) and one self-describing event in the trace: provider
 * = the USDT provider name, event name = the probe name, event id = index
 * + 1, one field per argument.  Types and names come from the built-in
 * table (known[] in usdt_generic_spec.c: the probes' documented signatures, checked against
 * the stapsdt notes of Debian 12's python3.11, OpenJDK 17's libjvm.so and
 * PostgreSQL 15), then from the spec's ARGSPEC; anything else is an int64
 * named argN.  Which arguments are strings travels in the cookie's high
 * bits, so the BPF program knows what to copy without a map lookup.
 *
 * Strings in the trace are UTF-16LE (nettrace's only string type): the
 * bytes a probe passes are decoded as UTF-8 (an invalid byte becomes
 * U+FFFD) up to the first NUL.
 *
 * The event is defined on its first record, with as many fields as the
 * record has arguments (bpf_usdt_arg_cnt), so a table entry never claims
 * fields a probe does not pass.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collector_event.h"
#include "usdt_generic_event.h"	/* the record */
#include "usdt_generic.h"
#include "pipeline.h"

#include "grow.h"
#include "utf16.h"

#define LOG_PREFIX "ebpf-collect: "
#include "log.h"
#include "usdt_generic.skel.h"
#include "nettrace.h"
#include "usdt_notes.h"

_Static_assert(sizeof(struct ce_usdt_generic) == 168,
	       "ce_usdt_generic layout (bpf/usdt_generic_event.h)");
_Static_assert(sizeof(struct ug_counters) == 10 * 8, "ug_counters layout (bpf/usdt_generic_event.h)");


/* ------------------------------------------------------------ state */

struct ug_probe {
	char *provider;
	char *name;
	uint8_t type[UG_ARGS];
	char *field[UG_ARGS];		/* resolved names */
	struct nt_field_desc fields[UG_ARGS];
	uint32_t meta_id;		/* 0 = not defined yet */
	uint16_t nfields;
	uint64_t count;
};

struct ug_file {
	pid_t pid;
	dev_t dev;
	ino_t ino;
};

struct usdt_generic {
	struct ug_spec *specs;
	int nr_specs;
	struct ug_probe *probes;
	size_t nr_probes, cap_probes;
	struct ug_file *files;
	size_t nr_files, cap_files;
	struct bpf_link **links;
	size_t nr_links, cap_links;
	struct usdt_generic_bpf *skel;
	int ncpu;
	int verbose;
	int found;
	int follow;			/* UG_FOLLOW_*: attach pid -1 unless NONE */
	uint64_t events, bad_records, last_ts;
	uint8_t payload[UG_ARGS * (2 * UG_MAX_STR + 2)];
};

struct usdt_generic *usdt_generic__new(int verbose)
{
	struct usdt_generic *ug = calloc(1, sizeof(*ug));

	if (!ug)
		return NULL;
	ug->verbose = verbose;
	return ug;
}

int usdt_generic__add_spec(struct usdt_generic *ug, const char *spec, char *err, size_t errlen)
{
	struct ug_spec *v = realloc(ug->specs, (ug->nr_specs + 1) * sizeof(*v));
	int e;

	if (!v)
		return -ENOMEM;
	ug->specs = v;
	e = ug_spec__parse(spec, &v[ug->nr_specs], err, errlen);
	if (e)
		return e;
	ug->nr_specs++;
	return 0;
}

void usdt_generic__set_follow(struct usdt_generic *ug, int follow)
{
	ug->follow = follow;	/* = targ_follow */
}

int usdt_generic__add_target(struct usdt_generic *ug, pid_t pid)
{
	__u32 tgid = pid;
	__u8 one = 1;

	if (ug->follow != UG_FOLLOW_CHILDREN || !ug->skel)
		return 0;
	return bpf_map__update_elem(ug->skel->maps.targets, &tgid, sizeof(tgid), &one,
				    sizeof(one), 0);
}

int usdt_generic__load(struct usdt_generic *ug, int rb_fd, uint64_t wakeup_bytes,
		       uint64_t backstop_bytes)
{
	int err;

	ug->ncpu = libbpf_num_possible_cpus();
	if (ug->ncpu <= 0)
		return ug->ncpu ? ug->ncpu : -EINVAL;
	ug->skel = usdt_generic_bpf__open();
	if (!ug->skel) {
		err = -errno;
		pr_warn("cannot open the generic USDT BPF object: %s\n", strerror(-err));
		return err;
	}
	ug->skel->rodata->targ_wakeup_bytes = wakeup_bytes;
	ug->skel->rodata->targ_backstop_bytes = backstop_bytes;
	ug->skel->rodata->targ_follow = ug->follow;
	if (rb_fd >= 0) {
		err = bpf_map__reuse_fd(ug->skel->maps.rb, rb_fd);
		if (err) {
			pr_warn("cannot share the ring buffer with the generic USDT program: %s\n",
				strerror(-err));
			return err;
		}
	}
	err = usdt_generic_bpf__load(ug->skel);
	if (err)
		pr_warn("cannot load the generic USDT BPF program: %s\n", strerror(-err));
	return err;
}

/* Index of provider:name in probes, added with its resolved types. */
static int probe_index(struct usdt_generic *ug, const struct ug_spec *sp,
		       const char *provider, const char *name)
{
	struct ug_argspec a = {};
	const char *tab = ug_known_args(provider, name);
	struct ug_probe *p;
	char err[160];
	size_t i;
	int k;

	for (i = 0; i < ug->nr_probes; i++)
		if (!strcmp(ug->probes[i].name, name) && !strcmp(ug->probes[i].provider, provider))
			return i;
	if (GROW(ug->probes, ug->cap_probes, ug->nr_probes + 1))
		return -ENOMEM;
	p = &ug->probes[ug->nr_probes];
	memset(p, 0, sizeof(*p));
	if (tab && ug_argspec__parse(tab, &a, err, sizeof(err)))
		pr_warn("built-in argument table for %s:%s: %s\n", provider, name, err);
	for (k = 0; k < UG_ARGS; k++) {
		if (sp->args.set[k]) {
			a.type[k] = sp->args.type[k];
			if (sp->args.name[k]) {
				free(a.name[k]);
				a.name[k] = strdup(sp->args.name[k]);
			}
		}
		p->type[k] = a.type[k];
		if (a.name[k])
			p->field[k] = a.name[k];
		else if (asprintf(&p->field[k], "arg%d", k) < 0)
			p->field[k] = NULL;
		a.name[k] = NULL;
	}
	p->provider = strdup(provider);
	p->name = strdup(name);
	if (!p->provider || !p->name) {
		free(p->provider);
		free(p->name);
		for (k = 0; k < UG_ARGS; k++)
			free(p->field[k]);
		return -ENOMEM;
	}
	for (k = 0; k < UG_ARGS; k++)
		if (!p->field[k])
			return -ENOMEM;	/* leaks the entry's strings: out of memory anyway */
	return ug->nr_probes++;
}

static const struct ug_spec *match_spec(const struct usdt_generic *ug, const struct usdt_note *n)
{
	int i;

	for (i = 0; i < ug->nr_specs; i++)
		if (!strcmp(ug->specs[i].provider, n->provider) &&
		    !fnmatch(ug->specs[i].glob, n->name, 0))
			return &ug->specs[i];
	return NULL;
}

static uint64_t probe_cookie(const struct ug_probe *p, uint32_t idx)
{
	uint32_t smask = 0, lmask = 0;
	int k;

	for (k = 0; k < UG_ARGS; k++) {
		if (p->type[k] == UG_T_STR)
			smask |= 1u << k;
		else if (p->type[k] == UG_T_LSTR)
			lmask |= 1u << k;
	}
	return UG_COOKIE(idx, smask, lmask);
}

/* Attach the matching probes of one file.  Returns the number attached or
 * -ENOMEM; a probe libbpf cannot attach is reported and skipped. */
static int attach_file(struct usdt_generic *ug, pid_t pid, const char *path,
		       const char *open_path)
{
	LIBBPF_OPTS(bpf_usdt_opts, uopts);
	struct usdt_note_list notes;
	int attached = 0, matched = 0, idx, err = 0;
	size_t i;

	if (usdt_notes__load(open_path, &notes))
		return 0;
	for (i = 0; i < notes.n; i++) {
		const struct usdt_note *n = &notes.v[i];
		const struct ug_spec *sp = match_spec(ug, n);
		struct bpf_link *link;

		if (!sp || usdt_notes__seen_before(&notes, i))
			continue;
		matched++;
		idx = probe_index(ug, sp, n->provider, n->name);
		if (idx < 0) {
			err = idx;
			break;
		}
		uopts.usdt_cookie = probe_cookie(&ug->probes[idx], idx);
		link = bpf_program__attach_usdt(ug->skel->progs.usdt_generic,
						ug->follow ? -1 : pid, open_path,
						n->provider, n->name, &uopts);
		if (!link) {
			pr_warn("cannot attach %s:%s in %s (pid %d): %s\n", n->provider, n->name,
				path, pid, strerror(errno));
			continue;
		}
		if (GROW(ug->links, ug->cap_links, ug->nr_links + 1)) {
			bpf_link__destroy(link);
			err = -ENOMEM;
			break;
		}
		ug->links[ug->nr_links++] = link;
		attached++;
	}
	usdt_notes__free(&notes);
	ug->found += matched;
	if (matched)
		pr_info("pid %d: attached %d of %d --usdt probes in %s\n",
			pid, attached, matched, path);
	return err ? err : attached;
}

/* Remember (pid, file); false when it was attached before. */
static int note_file(struct usdt_generic *ug, pid_t pid, dev_t dev, ino_t ino)
{
	size_t i;

	if (ug->follow)
		pid = -1;	/* attached once for every process */
	for (i = 0; i < ug->nr_files; i++)
		if (ug->files[i].pid == pid && ug->files[i].dev == dev && ug->files[i].ino == ino)
			return 0;
	if (GROW(ug->files, ug->cap_files, ug->nr_files + 1))
		return -ENOMEM;
	ug->files[ug->nr_files++] = (struct ug_file){ pid, dev, ino };
	return 1;
}

int usdt_generic__attach_path(struct usdt_generic *ug, pid_t pid, const char *path)
{
	struct stat st;
	int r;

	if (!ug->nr_specs)
		return 0;
	if (stat(path, &st))
		return -errno;
	r = note_file(ug, pid, st.st_dev, st.st_ino);
	if (r <= 0)
		return r;
	return attach_file(ug, pid, path, path);
}

/* One mapped file of a target: attach it unless it was before. */
static int attach_mapped(void *ctx, pid_t pid, const struct mapped_file *f)
{
	struct usdt_generic *ug = ctx;
	int n = note_file(ug, pid, f->dev, f->ino);

	if (n <= 0)
		return n;
	if (!mapped_file__reach(pid, f))
		return 0;
	return attach_file(ug, pid, f->path, f->open_path);
}

int usdt_generic__attach_pid(struct usdt_generic *ug, pid_t pid)
{
	if (!ug->nr_specs)
		return 0;
	return attach_mapped_files(pid, attach_mapped, ug);
}

size_t usdt_generic__nr_links(const struct usdt_generic *ug)
{
	return ug ? ug->nr_links : 0;
}

/* ------------------------------------------------------------ records */

static int define_event(struct usdt_generic *ug, struct nt_writer *w, uint32_t idx,
			uint16_t nargs)
{
	struct ug_probe *p = &ug->probes[idx];
	struct nt_event_desc d = {
		.provider = p->provider,
		.event_id = idx + 1,
		.name = p->name,
		.level = 4,
		.fields = p->fields,
	};
	int k;

	p->nfields = nargs > UG_ARGS ? UG_ARGS : nargs;
	for (k = 0; k < p->nfields; k++) {
		p->fields[k].name = p->field[k];
		switch (p->type[k]) {
		case UG_T_STR:
		case UG_T_LSTR:
			p->fields[k].type = NT_TYPE_STRING;
			break;
		case UG_T_U64:
			p->fields[k].type = NT_TYPE_UINT64;
			break;
		default:
			p->fields[k].type = NT_TYPE_INT64;
		}
	}
	d.n_fields = p->nfields;
	return nt_writer__define(w, &d, &p->meta_id);
}

/* Payload of one record; returns its size, or 0 when the strings do not fit
 * the record (malformed). */
static size_t build_payload(struct usdt_generic *ug, const struct ug_probe *p,
			    const struct ce_usdt_generic *e, size_t len)
{
	const uint8_t *str = (const uint8_t *)(e + 1), *end = (const uint8_t *)e + len;
	uint8_t *out = ug->payload;
	int k;

	for (k = 0; k < p->nfields; k++) {
		bool is_str = p->type[k] == UG_T_STR || p->type[k] == UG_T_LSTR;
		uint64_t v = k < e->nargs ? e->args[k] : 0;
		size_t n = k < e->nargs && is_str ? e->str_len[k] : 0;

		if (n > UG_MAX_STR || str + n > end)
			return 0;
		if (is_str) {
			out += utf8_to_utf16le((const char *)str, n, out);
			str += n;
		} else {
			memcpy(out, &v, 8);
			out += 8;
		}
	}
	return out - ug->payload;
}

int usdt_generic__emit(struct usdt_generic *ug, struct nt_writer *w, const void *data,
		       size_t len)
{
	const struct ce_usdt_generic *e = data;
	struct nt_event ne = {};
	struct ug_probe *p;
	uint32_t idx;
	int err;

	if (len < sizeof(*e) || e->hdr.size != len || e->nargs > UG_MAX_ARGS ||
	    (idx = UG_COOKIE_INDEX(e->cookie)) >= ug->nr_probes) {
		ug->bad_records++;
		return 0;
	}
	p = &ug->probes[idx];
	if (!p->meta_id) {
		err = define_event(ug, w, idx, e->nargs);
		if (err) {
			pr_warn("cannot define %s:%s in the trace: %s\n", p->provider, p->name,
				strerror(-err));
			return err;
		}
	}
	ne.payload_size = build_payload(ug, p, e, len);
	if (!ne.payload_size && p->nfields) {
		ug->bad_records++;
		return 0;
	}
	ne.metadata_id = p->meta_id;
	ne.timestamp = e->hdr.timestamp;
	ne.pid = e->hdr.pid;
	ne.thread_id = e->hdr.tid;
	ne.capture_thread_id = e->hdr.tid;
	ne.processor = e->cpu;
	ne.payload = ug->payload;
	err = nt_writer__write_event(w, &ne);
	if (err)
		return err;
	p->count++;
	ug->events++;
	if (e->hdr.timestamp > ug->last_ts)
		ug->last_ts = e->hdr.timestamp;
	return 1;
}

static int pipeline_emit(void *ctx, const struct pipeline_sink *s, const void *rec, size_t len)
{
	return usdt_generic__emit(ctx, s->w, rec, len);
}

const struct pipeline_source_ops usdt_generic_source_ops = {
	.first_type = CE_REC_USDT_GENERIC,
	.last_type = CE_REC_USDT_GENERIC,
	.emit = pipeline_emit,
};

uint64_t usdt_generic__events(const struct usdt_generic *ug)
{
	return ug ? ug->events : 0;
}

/* ------------------------------------------------------------ counters */

int usdt_generic__read_counters(struct usdt_generic *ug, struct ug_totals *t)
{
	struct ug_counters *per;
	__u32 zero = 0;
	int i, err;

	memset(t, 0, sizeof(*t));
	t->events = ug->events;
	t->bad_records = ug->bad_records;
	if (!ug->skel)
		return 0;
	per = calloc(ug->ncpu, sizeof(*per));
	if (!per)
		return -ENOMEM;
	err = bpf_map__lookup_elem(ug->skel->maps.ug_counters, &zero, sizeof(zero), per,
				   ug->ncpu * sizeof(*per), 0);
	/* struct ug_counters holds __u64 counts only */
	for (i = 0; !err && i < ug->ncpu; i++) {
		const __u64 *src = (const __u64 *)&per[i];
		__u64 *dst = (__u64 *)&t->sum;
		size_t k;

		for (k = 0; k < sizeof(*per) / sizeof(__u64); k++)
			dst[k] += src[k];
	}
	free(per);
	return err;
}

uint64_t usdt_generic__lost(const struct ug_totals *t)
{
	return t->sum.rb_drops + t->sum.nested_drops;
}

void usdt_generic__print_summary(struct usdt_generic *ug, FILE *f)
{
	struct ug_totals t;
	size_t i;

	if (!ug || !ug->nr_specs)
		return;
	usdt_generic__read_counters(ug, &t);
	if (t.events)
		fprintf(f, "%-21s %-44s %10s\n", "PROVIDER (--usdt)", "EVENT", "COUNT");
	for (i = 0; i < ug->nr_probes; i++)
		if (ug->probes[i].count)
			fprintf(f, "%-21s %-44s %10llu\n", ug->probes[i].provider,
				ug->probes[i].name, (unsigned long long)ug->probes[i].count);
	fprintf(f, "ebpf-collect: --usdt: %llu events from %zu probes; dropped %llu (ring buffer "
		"full %llu, preempted %llu); strings truncated %llu, unreadable %llu\n",
		(unsigned long long)t.events, ug->nr_links,
		(unsigned long long)usdt_generic__lost(&t), (unsigned long long)t.sum.rb_drops,
		(unsigned long long)t.sum.nested_drops, (unsigned long long)t.sum.str_truncated,
		(unsigned long long)t.sum.str_faults);
	if (t.bad_records)
		fprintf(f, "ebpf-collect: --usdt: %llu malformed records skipped\n",
			(unsigned long long)t.bad_records);
}

void usdt_generic__detach(struct usdt_generic *ug)
{
	size_t i;

	if (!ug)
		return;
	for (i = 0; i < ug->nr_links; i++)
		bpf_link__destroy(ug->links[i]);
	ug->nr_links = 0;
}

void usdt_generic__free(struct usdt_generic *ug)
{
	size_t i;
	int k;

	if (!ug)
		return;
	usdt_generic__detach(ug);
	usdt_generic_bpf__destroy(ug->skel);
	for (i = 0; i < ug->nr_probes; i++) {
		free(ug->probes[i].provider);
		free(ug->probes[i].name);
		for (k = 0; k < UG_ARGS; k++)
			free(ug->probes[i].field[k]);
	}
	for (i = 0; i < (size_t)ug->nr_specs; i++)
		ug_spec__free(&ug->specs[i]);
	free(ug->specs);
	free(ug->probes);
	free(ug->files);
	free(ug->links);
	free(ug);
}
