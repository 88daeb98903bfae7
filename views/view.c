// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * view.c - the trace model under the Linux views of a .nettrace
 * (`report`, `convert`).
 *
 * Names inside a trace come from the trace itself, the way TraceEvent does
 * it (docs/nettrace-format.md section 11): a first pass collects the method events
 * (MethodLoadVerbose / MethodDCStartVerbose = load at the event's time;
 * MethodUnloadVerbose = unload; MethodDCEndVerbose = a range valid for the
 * whole trace) and module events into a time-aware range table; the second
 * pass resolves each event's stack at the event's time and aggregates.
 * Payloads are parsed by their manifest layout here; no generated event
 * table is needed.
 *
 * The Universal.System mapping events give files their ELF build ids
 * (view__build_id: pprof's mappings).
 *
 * Frame names: "Module!Namespace.Name(args)" for methods whose module is
 * known (module basename, ".dll" dropped), else "Namespace.Name(args)";
 * functions of the kernel image by their bare name, kernel-side code of
 * other modules ("[bpf]") with its module, as TraceLog shows them;
 * "[unknown]" when no event covers the address.  Kinds: kernel for
 * addresses >= 0xffff800000000000, JIT when MethodFlags has Jitted, else
 * native.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "event_table.h"
#include "rundown.h"
#include "method_name.h"
#include "strpool.h"
#include "manifest_meta.h"
#include "hash.h"
#include "utf16.h"
#define LOG_PREFIX "ebpf-collect: "
#include "log.h"
#include "view.h"

/* ------------------------------------------------------ the trace model */

void view__free(struct view *v)
{
	size_t i;

	range_table__free(v->methods);
	for (i = 0; i < v->n_mods; i++) {
		free(v->mods[i].name);
		free(v->mods[i].path);
	}
	free(v->mods);
	strpool__free(v->pool);
	free(v->frames);
	free(v->frame_slots);
	free(v->stacks);
	free(v->stack_slots);
	free(v->frames_pool);
	for (i = 0; i < v->n_threads; i++) {
		free(v->threads[i].stacks);
		free(v->threads[i].ts);
	}
	free(v->threads);
	u64_map__free(&v->proc_comm);
	u64_map__free(&v->thread_comm);
	u64_map__free(&v->meta_build_id);
	u64_map__free(&v->path_build_id);
}

int view__init(struct view *v)
{
	memset(v, 0, sizeof(*v));
	v->methods = range_table__new();
	v->pool = strpool__new();
	return v->methods && v->pool ? 0 : -ENOMEM;
}

/* ---------------------------------------------------------- event names */

int view_streq_ci(const char *a, const char *b)
{
	return a && b && !strcasecmp(a, b);
}

/* "GCStart_V2" and "GCStart" both match "GCStart" (and the full name). */
static int name_matches(const char *have, const char *want)
{
	size_t wl = strlen(want);

	if (!have || !have[0])
		return 0;
	if (!strcasecmp(have, want))
		return 1;
	return !strncasecmp(have, want, wl) && have[wl] == '_' && have[wl + 1] == 'V';
}

int view_is_clr(const struct nt_metadata *m, uint32_t id)
{
	return m->event_id == id && view_streq_ci(m->provider, CLR_PROVIDER);
}

static int is_rundown(const struct nt_metadata *m, uint32_t id)
{
	return m->event_id == id && view_streq_ci(m->provider, CLR_RUNDOWN_PROVIDER);
}

static int is_profiler_sample(const struct nt_metadata *m)
{
	return m->event_id == 0 && view_streq_ci(m->provider, SAMPLE_PROFILER);
}

/* TraceEvent knows the universal events by name, not id */
static int is_universal_cpu(const struct nt_metadata *m)
{
	return view_streq_ci(m->provider, UNIVERSAL_EVENTS_PROVIDER) && !strcmp(m->name, "cpu");
}

int view__is_sample(const struct view *v, const struct nt_metadata *m)
{
	return v->universal_samples ? is_universal_cpu(m) : is_profiler_sample(m);
}

/* ------------------------------------------------- pass 1: name tables */

static int view__add_module(struct view *v, const struct sym_module_rec *m)
{
	const char *path = m->il_path && m->il_path[0] ? m->il_path : m->native_path;
	char disp[512];
	size_t i;

	if (!path || !path[0])
		return 0;
	for (i = 0; i < v->n_mods; i++)
		if (v->mods[i].id == m->module_id)
			return 0;
	if (GROW(v->mods, v->cap_mods, v->n_mods + 1))
		return -ENOMEM;
	v->mods[v->n_mods].id = m->module_id;
	v->mods[v->n_mods].name = strdup(sym_module_display(path, disp, sizeof(disp)));
	v->mods[v->n_mods].path = strdup(path);
	v->n_mods++;
	return 0;
}

const struct vmodule *view__module(const struct view *v, uint64_t id)
{
	size_t i;

	for (i = 0; i < v->n_mods; i++)
		if (v->mods[i].id == id)
			return &v->mods[i];
	return NULL;
}

/* A method event: load (ts), DCStart (always valid), unload (ts), DCEnd
 * (names what came before it, as in TraceEvent: valid until ts, so a range
 * the collector wrote once per incarnation of reused code names each
 * incarnation's events). */
static int view__method_event(struct view *v, const struct nt_read_event *ev, int kind)
{
	struct sym_method_rec m;
	char strs[8192], disp[4096];
	struct range_entry *e;
	long idx;

	if (sym_decode_method(ev->payload, ev->payload_size, &m, strs, sizeof(strs)) || !m.size)
		return 0;	/* malformed: ignore, the frames stay [unknown] */
	sym_method_display_name(m.ns, m.name, m.sig, v->tiers, disp, sizeof(disp));
	if (kind == 'u' && range_table__unload(v->methods, m.start, ev->timestamp) >= 0)
		return 0;
	idx = range_table__add(v->methods, m.start, m.size, disp, strlen(disp),
			       kind == 'l' ? ev->timestamp : 0);
	if (idx < 0)
		return (int)idx;
	e = range_table__entry(v->methods, (size_t)idx);
	e->module_id = m.module_id;
	e->flags = m.flags;
	if (kind == 'u' || kind == 'e')
		e->unload_ts = ev->timestamp ? ev->timestamp : 1;
	return 0;
}

static int view__module_event(struct view *v, const struct nt_read_event *ev, int domain)
{
	struct sym_module_rec m;
	char strs[8192];

	if (sym_decode_module(ev->payload, ev->payload_size, domain, &m, strs, sizeof(strs)))
		return 0;
	return view__add_module(v, &m);
}

/* The payload bytes of field `name` of a self-describing event (fields of
 * fixed size and UTF-16 strings only: what the kernel events hold); NULL
 * when the event has no such field or the payload is short. */
static const uint8_t *view_field(const struct nt_read_event *ev, const char *name, size_t *len)
{
	const struct nt_metadata *m = ev->meta;
	size_t off = 0, n;
	uint32_t i;

	for (i = 0; i < m->n_fields; i++) {
		const uint8_t *p = ev->payload + off;
		size_t left = ev->payload_size - off;

		switch (m->fields[i].type) {
		case NT_TYPE_SBYTE: case NT_TYPE_BYTE:
			n = 1;
			break;
		case NT_TYPE_CHAR: case NT_TYPE_INT16: case NT_TYPE_UINT16:
			n = 2;
			break;
		case NT_TYPE_BOOLEAN: case NT_TYPE_INT32: case NT_TYPE_UINT32: case NT_TYPE_SINGLE:
			n = 4;
			break;
		case NT_TYPE_INT64: case NT_TYPE_UINT64: case NT_TYPE_DOUBLE: case NT_TYPE_DATETIME:
			n = 8;
			break;
		case NT_TYPE_GUID: case NT_TYPE_DECIMAL:
			n = 16;
			break;
		case NT_TYPE_STRING:
			for (n = 0; n + 1 < left && (p[n] || p[n + 1]); n += 2)
				;
			n += 2;
			break;
		default:
			return NULL;
		}
		if (n > left)
			return NULL;
		if (!strcmp(m->fields[i].name, name)) {
			*len = n;
			return p;
		}
		off += n;
	}
	return NULL;
}

uint32_t view_payload_u32(const struct nt_read_event *ev, size_t off)
{
	const uint8_t *p = ev->payload;

	if (off + 4 > ev->payload_size)
		return 0;
	return (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 | (uint32_t)p[off + 2] << 16 |
	       (uint32_t)p[off + 3] << 24;
}

static int view_field_u32(const struct nt_read_event *ev, const char *name, uint32_t *out)
{
	size_t len;
	const uint8_t *p = view_field(ev, name, &len);

	if (!p || len != 4)
		return -1;
	*out = view_payload_u32(ev, (size_t)(p - ev->payload));
	return 0;
}

/* The Universal.System mapping events: which file has which build id. */
static int view__mapping_event(struct view *v, const struct nt_read_event *ev)
{
	struct sym_mapping_meta_rec mm;
	struct sym_mapping_rec m;
	struct u64_map_ent *e;
	const struct u64_map_ent *b;
	char strs[8192], id[128];

	if (ev->meta->event_id == UNIVERSAL_EV_MAPPING_META) {
		if (sym_decode_mapping_meta(ev->payload, ev->payload_size, &mm, strs, sizeof(strs)) ||
		    !sym_mapping_build_id(mm.symbol_json, id, sizeof(id))[0])
			return 0;
		if (u64_map__get(&v->meta_build_id, mm.id, &e))
			return -ENOMEM;
		e->val = (uint64_t)(uintptr_t)strpool__add(v->pool, id, strlen(id));
		return e->val ? 0 : -ENOMEM;
	}
	if (ev->meta->event_id != UNIVERSAL_EV_MAPPING ||
	    sym_decode_mapping(ev->payload, ev->payload_size, &m, strs, sizeof(strs)) ||
	    !(b = u64_map__find(&v->meta_build_id, m.meta_id)))
		return 0;
	if (u64_map__get(&v->path_build_id, hash_str(m.path), &e))
		return -ENOMEM;
	e->val = b->val;
	return 0;
}

const char *view__build_id(const struct view *v, const char *path)
{
	const struct u64_map_ent *e = path ? u64_map__find(&v->path_build_id, hash_str(path)) :
				      NULL;

	return e ? (const char *)(uintptr_t)e->val : NULL;
}

/* Name id (pid or tid) in map from the event's string field `field`. */
static int view__note_comm(struct view *v, struct u64_map *map, const struct nt_read_event *ev,
			   const char *id_field, const char *field)
{
	char comm[64];
	struct u64_map_ent *e;
	const uint8_t *p;
	uint32_t id;
	size_t len;

	p = view_field(ev, field, &len);
	if (!p || view_field_u32(ev, id_field, &id) || utf16le_to_utf8(p, len, comm, sizeof(comm)) < 0 ||
	    !comm[0])
		return 0;
	if (u64_map__get(map, id, &e))
		return -ENOMEM;
	e->val = (uint64_t)(uintptr_t)strpool__add(v->pool, comm, strlen(comm));
	return e->val ? 0 : -ENOMEM;
}

/* The names the kernel's process events (collector/sources/kernel_events.c:
 * provider Linux-Kernel-Process, Fork 1, Exec 2) give processes and
 * threads: the newest wins, as a program's name is the one it ran last. */
static int view__process_event(struct view *v, const struct nt_read_event *ev)
{
	const struct nt_metadata *m = ev->meta;
	uint32_t is_thread = 1;
	int err = 0;

	if (!view_streq_ci(m->provider, "Linux-Kernel-Process"))
		return 0;
	if (m->event_id == 1) {
		err = view__note_comm(v, &v->thread_comm, ev, "ChildTid", "ChildComm");
		if (!err && !view_field_u32(ev, "IsThread", &is_thread) && !is_thread)
			err = view__note_comm(v, &v->proc_comm, ev, "ChildPid", "ChildComm");
	} else if (m->event_id == 2) {
		err = view__note_comm(v, &v->thread_comm, ev, "Tid", "Comm");
		if (!err)
			err = view__note_comm(v, &v->proc_comm, ev, "Pid", "Comm");
	}
	return err;
}

const char *view__comm(const struct view *v, uint64_t pid, uint64_t tid)
{
	const struct u64_map_ent *e = tid ? u64_map__find(&v->thread_comm, tid) : NULL;

	if (!e)
		e = u64_map__find(&v->proc_comm, pid);
	return e ? (const char *)(uintptr_t)e->val : NULL;
}

/* Open a trace the views read twice: NULL (errno set, a one-line reason in
 * err) when it cannot be read, its header is refused (not a NetTrace file)
 * or it is not a regular file (a pipe cannot be read again). */
static struct nt_reader *view_open_trace(const char *path, const struct nt_event_lookup *lookup,
				  char *err, size_t errlen)
{
	struct nt_reader *r = nt_reader__open(path, lookup);
	const char *why;
	struct stat st;

	if (!r) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	why = nt_reader__error(r);	/* after open: only the header's */
	if (!why && (stat(path, &st) || !S_ISREG(st.st_mode)))
		why = "not a regular file (a trace is read twice; save it to a file first)";
	if (why) {
		snprintf(err, errlen, "%s: %s", path, why);
		nt_reader__close(r);
		errno = EINVAL;
		return NULL;
	}
	return r;
}

struct nt_reader *view__open(struct view *v, const char *path)
{
	struct nt_event_lookup lookup;
	struct nt_reader *r;
	char err[512];

	manifest_lookup_init(&lookup, NULL);
	r = view_open_trace(path, &lookup, err, sizeof(err));
	if (!r)
		pr_warn("%s\n", err);
	else
		v->info = *nt_reader__info(r);
	return r;
}

int view__pass1(struct view *v, const char *path)
{
	struct nt_reader *r = view__open(v, path);
	struct nt_read_event ev;
	int rc, err = 0, universal = 0;

	if (!r)
		return -errno;
	while ((rc = nt_reader__next(r, &ev)) == 1) {
		const struct nt_metadata *m = ev.meta;

		if (!v->events++ || ev.timestamp < v->start_ts)
			v->start_ts = ev.timestamp;
		if (is_profiler_sample(m))
			v->cpu_samples = 1;
		else if (!universal && is_universal_cpu(m))
			universal = 1;
		if (view_is_clr(m, CLR_EV_METHOD_LOAD_VERBOSE))
			err = view__method_event(v, &ev, 'l');
		else if (view_is_clr(m, CLR_EV_METHOD_UNLOAD_VERBOSE))
			err = view__method_event(v, &ev, 'u');
		else if (is_rundown(m, CLR_EV_METHOD_LOAD_VERBOSE))
			err = view__method_event(v, &ev, 'd');
		else if (is_rundown(m, CLR_EV_METHOD_UNLOAD_VERBOSE))
			err = view__method_event(v, &ev, 'e');
		else if (view_is_clr(m, CLR_EV_MODULE_LOAD) || is_rundown(m, CLR_EV_MODULE_DCSTART) ||
			 is_rundown(m, CLR_EV_MODULE_DCEND))
			err = view__module_event(v, &ev, 0);
		else if (is_rundown(m, CLR_EV_MODULE_LOAD))	/* DomainModuleDCEnd */
			err = view__module_event(v, &ev, 1);
		else if (view_streq_ci(m->provider, UNIVERSAL_SYSTEM_PROVIDER))
			err = view__mapping_event(v, &ev);
		else
			err = view__process_event(v, &ev);
		if (err)
			break;
	}
	if (rc < 0) {
		v->error = 1;
		snprintf(v->errmsg, sizeof(v->errmsg), "%s", nt_reader__error(r));
	}
	v->lost = nt_reader__lost(r);
	if (!v->cpu_samples && universal)
		v->cpu_samples = v->universal_samples = 1;
	nt_reader__close(r);
	return err;
}

/* --------------------------------------------------- frames and stacks */

static uint32_t view__frame(struct view *v, const char *name, const char *file,
			    enum sym_kind kind)
{
	uint64_t h = hash_bytes(name, strlen(name), HASH_FNV_SEED) ^ (uint64_t)kind;
	struct vframe *f;
	size_t k, i;

	if (v->n_frames * 2 >= v->n_frame_slots) {
		size_t n = v->n_frame_slots ? v->n_frame_slots * 2 : 1024;
		uint32_t *s = calloc(n, sizeof(*s));

		if (!s)
			return UINT32_MAX;
		for (i = 0; i < v->n_frames; i++) {
			for (k = v->frames[i].hash & (n - 1); s[k]; k = (k + 1) & (n - 1))
				;
			s[k] = (uint32_t)i + 1;
		}
		free(v->frame_slots);
		v->frame_slots = s;
		v->n_frame_slots = n;
	}
	for (k = h & (v->n_frame_slots - 1); v->frame_slots[k];
	     k = (k + 1) & (v->n_frame_slots - 1)) {
		f = &v->frames[v->frame_slots[k] - 1];
		if (f->hash == h && f->kind == kind && !strcmp(f->name, name))
			return v->frame_slots[k] - 1;
	}
	if (GROW(v->frames, v->cap_frames, v->n_frames + 1))
		return UINT32_MAX;
	f = &v->frames[v->n_frames];
	memset(f, 0, sizeof(*f));
	f->name = strpool__add(v->pool, name, strlen(name));
	f->file = file ? strpool__add(v->pool, file, strlen(file)) : NULL;
	f->kind = kind;
	f->hash = h;
	f->last_stack = UINT32_MAX;
	v->frame_slots[k] = (uint32_t)v->n_frames + 1;
	return (uint32_t)v->n_frames++;
}

static uint32_t view__stack(struct view *v, const uint32_t *fr, uint32_t depth)
{
	uint64_t h = hash_bytes(fr, depth * sizeof(*fr), HASH_FNV_SEED);
	struct vstack *st;
	size_t k, i;

	if (v->n_stacks * 2 >= v->n_stack_slots) {
		size_t n = v->n_stack_slots ? v->n_stack_slots * 2 : 1024;
		uint32_t *s = calloc(n, sizeof(*s));

		if (!s)
			return UINT32_MAX;
		for (i = 0; i < v->n_stacks; i++) {
			for (k = v->stacks[i].hash & (n - 1); s[k]; k = (k + 1) & (n - 1))
				;
			s[k] = (uint32_t)i + 1;
		}
		free(v->stack_slots);
		v->stack_slots = s;
		v->n_stack_slots = n;
	}
	for (k = h & (v->n_stack_slots - 1); v->stack_slots[k];
	     k = (k + 1) & (v->n_stack_slots - 1)) {
		st = &v->stacks[v->stack_slots[k] - 1];
		if (st->hash == h && st->depth == depth &&
		    !memcmp(v->frames_pool + st->off, fr, depth * sizeof(*fr)))
			return v->stack_slots[k] - 1;
	}
	if (GROW(v->stacks, v->cap_stacks, v->n_stacks + 1) ||
	    GROW(v->frames_pool, v->cap_pool, v->n_pool + depth))
		return UINT32_MAX;
	st = &v->stacks[v->n_stacks];
	st->off = (uint32_t)v->n_pool;
	st->depth = depth;
	st->hash = h;
	st->count = 0;
	memcpy(v->frames_pool + v->n_pool, fr, depth * sizeof(*fr));
	v->n_pool += depth;
	v->stack_slots[k] = (uint32_t)v->n_stacks + 1;
	return (uint32_t)v->n_stacks++;
}

uint32_t view__resolve(struct view *v, uint64_t ip, uint64_t ts, const struct range_entry **range)
{
	const struct range_entry *e;
	const struct vmodule *mod;
	enum sym_kind kind;
	char name[4200];

	if (ip >= SYM_KERNEL_START)
		kind = SYM_KIND_KERNEL;
	else
		kind = SYM_KIND_UNKNOWN;
	e = range_table__find(v->methods, ip, ts ? ts : 1);
	if (range)
		*range = e;
	if (!e)
		return view__frame(v, kind == SYM_KIND_KERNEL ? "[kernel.kallsyms]![unknown]" :
				   "[unknown]", NULL, kind);
	mod = view__module(v, e->module_id);
	if (kind != SYM_KIND_KERNEL) {
		if ((e->flags & RANGE_F_JITTED) ||
		    (e->module_id & PSEUDO_ID_MASK) != PSEUDO_MODULE_PREFIX)
			kind = SYM_KIND_JIT;	/* managed code: JIT or precompiled */
		else if (mod && !strcmp(mod->path, "[kernel.kallsyms]"))
			kind = SYM_KIND_KERNEL;
		else
			kind = SYM_KIND_NATIVE;
	}
	/* TraceLog names a frame "module!method": kernel code keeps perf's bare
	 * names, but code of another kernel-side module ([bpf], kernel modules)
	 * says whose it is, as TraceLog does */
	if (mod && (kind != SYM_KIND_KERNEL || strcmp(mod->path, "[kernel.kallsyms]")))
		snprintf(name, sizeof(name), "%s!%s", mod->name, e->name);
	else
		snprintf(name, sizeof(name), "%s", e->name);
	return view__frame(v, name, mod ? mod->path : NULL, kind);
}

static struct vthread *view__thread(struct view *v, uint64_t tid)
{
	size_t i;

	for (i = 0; i < v->n_threads; i++)
		if (v->threads[i].tid == tid)
			return &v->threads[i];
	if (GROW(v->threads, v->cap_threads, v->n_threads + 1))
		return NULL;
	memset(&v->threads[v->n_threads], 0, sizeof(v->threads[0]));
	v->threads[v->n_threads].tid = tid;
	return &v->threads[v->n_threads++];
}

/* A folded stack ("a;b;c", root first, "_[j]"/"_[k]" kind suffixes) whose
 * frames are named already: count more samples on it.  0 or -ENOMEM. */
int view__add_folded(struct view *v, const char *folded, uint64_t count)
{
	uint32_t fr[1024], depth = 0, id;
	char name[4200];
	const char *p = folded;

	while (*p && depth < 1024) {
		size_t n = strcspn(p, ";");
		enum sym_kind kind = SYM_KIND_NATIVE;

		if (n >= sizeof(name))
			n = sizeof(name) - 1;
		memcpy(name, p, n);
		name[n] = 0;
		if (n > 4 && (!strcmp(name + n - 4, "_[j]") || !strcmp(name + n - 4, "_[k]"))) {
			kind = name[n - 2] == 'j' ? SYM_KIND_JIT : SYM_KIND_KERNEL;
			name[n - 4] = 0;
		} else if (!strcmp(name, "[unknown]")) {
			kind = SYM_KIND_UNKNOWN;
		}
		fr[depth] = view__frame(v, name, NULL, kind);
		if (fr[depth++] == UINT32_MAX)
			return -ENOMEM;
		p += strcspn(p, ";");
		p += *p == ';';
	}
	id = view__stack(v, fr, depth);
	if (id == UINT32_MAX)
		return -ENOMEM;
	v->stacks[id].count += count;
	v->selected += count;
	return 0;
}

/* Resolve ev's stack (root first) into a stack id; UINT32_MAX on ENOMEM. */
uint32_t view__event_stack(struct view *v, const struct nt_read_event *ev)
{
	uint32_t fr[1024], depth = 0, i;

	for (i = ev->stack_depth; i-- > 0 && depth < 1024;) {
		if (!ev->stack[i])
			continue;
		fr[depth] = view__resolve(v, sym_frame_address(ev->stack, i), ev->timestamp, NULL);
		if (fr[depth] == UINT32_MAX)
			return UINT32_MAX;
		depth++;
	}
	return view__stack(v, fr, depth);
}

int view__selected(const struct view *v, const struct nt_read_event *ev)
{
	char name[256];

	if (!ev->stack_depth)
		return 0;
	if (v->event_filter) {
		manifest_event_name(ev->meta, MANIFEST_NAME_SYMBOL, name, sizeof(name));
		if (name_matches(name, v->event_filter))
			return 1;
		manifest_event_name(ev->meta, MANIFEST_NAME_TRACEEVENT, name, sizeof(name));
		return name_matches(name, v->event_filter);
	}
	if (v->cpu_samples)
		return view__is_sample(v, ev->meta);
	return 1;
}

int view__add_sample(struct view *v, const struct nt_read_event *ev)
{
	struct vthread *t;
	uint32_t sid = view__event_stack(v, ev);

	if (sid == UINT32_MAX)
		return -ENOMEM;
	v->stacks[sid].count++;
	if (!v->selected++)
		v->first_ts = ev->timestamp;
	v->last_ts = ev->timestamp;
	t = view__thread(v, ev->thread_id);
	if (!t)
		return -ENOMEM;
	if (GROW(t->stacks, t->cap, t->n + 1) || GROW(t->ts, t->cap_ts, t->n + 1))
		return -ENOMEM;
	t->stacks[t->n] = sid;
	t->ts[t->n++] = ev->timestamp;
	return 0;
}

/* Pass 2 for convert: collect the selected events' stacks. */
static int view__collect(struct view *v, const char *path)
{
	struct nt_reader *r = view__open(v, path);
	struct nt_read_event ev;
	int rc, err = 0;

	if (!r)
		return -errno;
	while (!err && (rc = nt_reader__next(r, &ev)) == 1)
		if (view__selected(v, &ev))
			err = view__add_sample(v, &ev);
	nt_reader__close(r);
	return err;
}

int view__load_names(struct view *v, const char *path, const char *event)
{
	int err = view__pass1(v, path);

	if (err)
		return err;
	v->event_filter = event;
	v->select_desc = event ? event : v->universal_samples ? "CPU samples (Universal.Events cpu)" :
			 v->cpu_samples ? "CPU samples (ThreadSample)" :
			 "all events with stacks";
	return 0;
}

int view__load(struct view *v, const char *path, const char *event)
{
	int err = view__load_names(v, path, event);

	return err ? err : view__collect(v, path);
}
