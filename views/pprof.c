// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pprof: the trace as a gzip'd profile.proto (views/profile.proto), the
 * format go tool pprof, Parca, Pyroscope and Grafana read.
 *
 * Sample types: with CPU samples selected (the default when the trace has
 * any), samples/count and, when the trace gives its sampling interval,
 * cpu/nanoseconds (the interval per sample; also the period); the runtime
 * events with stacks that profilers show beside CPU time are further types
 * of the same samples, present when the trace holds any: GCAllocationTick
 * as alloc_samples/count and alloc_space/bytes (its AllocationAmount, the
 * bytes allocated since the last tick), ExceptionThrown as
 * exceptions/count.  samples/count is the default type, so that pprof's
 * top is report's.  With --event NAME, or no CPU samples, the selected
 * events are the one type NAME/count (events/count).
 *
 * Functions are report's frames (Module!Method, one per name and kind);
 * a location is an address of one process named by one function (a
 * caller's is its return address less one, the address named), in the
 * mapping of its method's module: a mapping per process and module, its
 * range the methods of the module the stacks touched, its file the
 * module's path, its build id the one the trace's mapping events give the
 * file (none for JIT code and kernel modules).
 * Samples with the same locations and labels are one sample; labels: pid,
 * tid and comm (the thread's name, else the process's, when the trace's
 * kernel process events give it).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "views.h"
#include "hash.h"
#include "range_table.h"
#include "view.h"
#include "profile.pb-c.h"

typedef Perftools__Profiles__Profile PProfile;
typedef Perftools__Profiles__ValueType PValueType;
typedef Perftools__Profiles__Sample PSample;
typedef Perftools__Profiles__Label PLabel;
typedef Perftools__Profiles__Mapping PMapping;
typedef Perftools__Profiles__Location PLocation;
typedef Perftools__Profiles__Line PLine;
typedef Perftools__Profiles__Function PFunction;

/* the value columns a sample may have; only those some sample uses are written */
enum { COL_COUNT, COL_CPU_NS, COL_ALLOC_N, COL_ALLOC_BYTES, COL_EXC, N_COLS };

#define CLR_EV_ALLOC_TICK	10
#define CLR_EV_EXCEPTION	80

struct ploc {
	uint64_t addr;
	uint32_t pid, frame, mapping;	/* mapping: index + 1, 0 = none */
	uint32_t next;			/* index + 1 of the next with the same key */
};

struct pmap {
	uint64_t module_id, start, limit;
	uint32_t pid;
	const char *file;
};

struct psample {
	uint32_t off, depth;		/* location indexes in loc_pool */
	uint32_t pid, tid;
	int64_t val[N_COLS];
	uint32_t next;
};

struct pprof {
	struct view *v;
	struct ploc *locs;
	size_t n_locs, cap_locs;
	struct u64_map loc_index;	/* key of (pid, addr) -> first index + 1 */
	struct pmap *maps;
	size_t n_maps, cap_maps;
	struct psample *samples;
	size_t n_samples, cap_samples;
	struct u64_map sample_index;	/* hash of locations and labels -> first index + 1 */
	uint32_t *loc_pool;
	size_t n_pool, cap_pool;
	int used[N_COLS];
	/* the string table, interned */
	char **strs;
	size_t n_strs, cap_strs;
	struct u64_map str_index;	/* hash -> first index + 1; chained in str_next */
	uint32_t *str_next;
	size_t cap_str_next;
	int oom;			/* a string could not be kept */
};

/* The index of s in the string table; 0 ("") with pp->oom set when out of memory. */
static int64_t pprof__str(struct pprof *pp, const char *s)
{
	uint64_t h = hash_bytes(s, strlen(s), HASH_FNV_SEED);
	struct u64_map_ent *e;
	uint32_t i;

	if (u64_map__get(&pp->str_index, h, &e))
		goto oom;
	for (i = (uint32_t)e->val; i; i = pp->str_next[i - 1])
		if (!strcmp(pp->strs[i - 1], s))
			return i - 1;
	if (GROW(pp->strs, pp->cap_strs, pp->n_strs + 1) ||
	    GROW(pp->str_next, pp->cap_str_next, pp->n_strs + 1))
		goto oom;
	pp->strs[pp->n_strs] = strdup(s);
	if (!pp->strs[pp->n_strs])
		goto oom;
	pp->str_next[pp->n_strs] = (uint32_t)e->val;
	e->val = ++pp->n_strs;
	return (int64_t)pp->n_strs - 1;
oom:
	pp->oom = 1;
	return 0;
}

/* The mapping of a method range's module in process pid: index + 1, 0 = none. */
static int pprof__mapping(struct pprof *pp, uint32_t pid, const struct range_entry *r,
			  uint32_t *out)
{
	const struct vmodule *mod = r ? view__module(pp->v, r->module_id) : NULL;
	size_t i;

	*out = 0;
	if (!mod)
		return 0;
	for (i = 0; i < pp->n_maps; i++) {
		struct pmap *m = &pp->maps[i];

		if (m->pid == pid && m->module_id == r->module_id) {
			if (r->start < m->start)
				m->start = r->start;
			if (r->end > m->limit)
				m->limit = r->end;
			*out = (uint32_t)i + 1;
			return 0;
		}
	}
	if (GROW(pp->maps, pp->cap_maps, pp->n_maps + 1))
		return -ENOMEM;
	pp->maps[pp->n_maps] = (struct pmap){ .module_id = r->module_id, .start = r->start,
					      .limit = r->end, .pid = pid, .file = mod->path };
	*out = (uint32_t)++pp->n_maps;
	return 0;
}

/* The location of frame i of ev's stack: its index, or -ENOMEM. */
static long pprof__location(struct pprof *pp, const struct nt_read_event *ev, uint32_t i)
{
	uint64_t addr = sym_frame_address(ev->stack, i);
	const struct range_entry *r;
	uint32_t frame = view__resolve(pp->v, addr, ev->timestamp, &r), j, map;
	struct u64_map_ent *e;

	if (frame == UINT32_MAX ||
	    u64_map__get(&pp->loc_index, addr ^ hash64((uint64_t)ev->pid + 1), &e))
		return -ENOMEM;
	for (j = (uint32_t)e->val; j; j = pp->locs[j - 1].next)
		if (pp->locs[j - 1].addr == addr && pp->locs[j - 1].pid == ev->pid &&
		    pp->locs[j - 1].frame == frame)
			return j - 1;
	if (pprof__mapping(pp, ev->pid, r, &map) || GROW(pp->locs, pp->cap_locs, pp->n_locs + 1))
		return -ENOMEM;
	pp->locs[pp->n_locs] = (struct ploc){ .addr = addr, .pid = ev->pid, .frame = frame,
					      .mapping = map, .next = (uint32_t)e->val };
	e->val = ++pp->n_locs;
	return (long)pp->n_locs - 1;
}

/* Which columns ev adds to (vals); 0 when it is not part of the profile. */
static int pprof__values(struct pprof *pp, const struct nt_read_event *ev, int64_t *vals)
{
	struct view *v = pp->v;
	int cpu = v->cpu_samples && !v->event_filter;

	memset(vals, 0, N_COLS * sizeof(*vals));
	if (!cpu) {
		if (!view__selected(v, ev))
			return 0;
		vals[COL_COUNT] = 1;
	} else if (view__is_sample(v, ev->meta)) {
		/* one without a stack still counts, as in report's total */
		vals[COL_COUNT] = 1;
		vals[COL_CPU_NS] = v->info.sampling_interval_ns;
	} else if (!ev->stack_depth) {
		return 0;
	} else if (view_is_clr(ev->meta, CLR_EV_ALLOC_TICK)) {
		/* AllocationAmount (u32) first; v2 and later: AllocationAmount64 at 10 */
		uint64_t bytes = view_payload_u32(ev, 0);

		if (ev->meta->version >= 2 && ev->payload_size >= 18)
			bytes = view_payload_u32(ev, 10) | (uint64_t)view_payload_u32(ev, 14) << 32;
		vals[COL_ALLOC_N] = 1;
		vals[COL_ALLOC_BYTES] = (int64_t)bytes;
	} else if (view_is_clr(ev->meta, CLR_EV_EXCEPTION)) {
		vals[COL_EXC] = 1;
	} else {
		return 0;
	}
	return 1;
}

static int pprof__event(struct pprof *pp, const struct nt_read_event *ev)
{
	uint32_t loc[1024], depth = 0, i, k;
	int64_t vals[N_COLS];
	struct u64_map_ent *e;
	uint64_t h;
	long l;

	if (!pprof__values(pp, ev, vals))
		return 0;
	for (i = 0; i < ev->stack_depth && depth < 1024; i++) {
		if (!ev->stack[i])
			continue;
		l = pprof__location(pp, ev, i);
		if (l < 0)
			return (int)l;
		loc[depth++] = (uint32_t)l;
	}
	for (k = 0; k < N_COLS; k++)
		pp->used[k] |= vals[k] != 0;
	if (!pp->v->selected++)
		pp->v->first_ts = ev->timestamp;
	pp->v->last_ts = ev->timestamp;
	h = hash_bytes(loc, depth * sizeof(*loc), HASH_FNV_SEED) ^
	    hash64((uint64_t)ev->pid << 32 | (uint32_t)ev->thread_id);
	if (u64_map__get(&pp->sample_index, h, &e))
		return -ENOMEM;
	for (i = (uint32_t)e->val; i; i = pp->samples[i - 1].next) {
		struct psample *s = &pp->samples[i - 1];

		if (s->depth == depth && s->pid == ev->pid && s->tid == (uint32_t)ev->thread_id &&
		    !memcmp(pp->loc_pool + s->off, loc, depth * sizeof(*loc))) {
			for (k = 0; k < N_COLS; k++)
				s->val[k] += vals[k];
			return 0;
		}
	}
	if (GROW(pp->samples, pp->cap_samples, pp->n_samples + 1) ||
	    GROW(pp->loc_pool, pp->cap_pool, pp->n_pool + depth))
		return -ENOMEM;
	memcpy(pp->loc_pool + pp->n_pool, loc, depth * sizeof(*loc));
	pp->samples[pp->n_samples] = (struct psample){ .off = (uint32_t)pp->n_pool, .depth = depth,
						       .pid = ev->pid,
						       .tid = (uint32_t)ev->thread_id,
						       .next = (uint32_t)e->val };
	memcpy(pp->samples[pp->n_samples].val, vals, sizeof(vals));
	pp->n_pool += depth;
	e->val = ++pp->n_samples;
	return 0;
}

static int pprof__read(struct pprof *pp, const char *path)
{
	struct nt_reader *r = view__open(pp->v, path);
	struct nt_read_event ev;
	int rc, err = 0;

	if (!r)
		return -errno;
	while (!err && (rc = nt_reader__next(r, &ev)) == 1)
		err = pprof__event(pp, &ev);
	nt_reader__close(r);
	return err;
}

/* gzip the packed profile to out. */
static int gzip_write(const uint8_t *buf, size_t len, FILE *out)
{
	uint8_t chunk[65536];
	z_stream z = { 0 };
	int zr;

	/* 15 + 16: a gzip wrapper around the deflate stream, as pprof reads it */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	z.next_in = (uint8_t *)buf;
	z.avail_in = (uInt)len;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		zr = deflate(&z, Z_FINISH);
		if (zr == Z_STREAM_ERROR)
			break;
		fwrite(chunk, 1, sizeof(chunk) - z.avail_out, out);
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
	if (zr != Z_STREAM_END)
		return -EIO;
	return ferror(out) ? -EIO : 0;
}

/* The profile message of what was read, packed and written. */
static int pprof__write(struct pprof *pp, FILE *out)
{
	static const char *const col_names[N_COLS][2] = {
		{ "samples", "count" }, { "cpu", "nanoseconds" }, { "alloc_samples", "count" },
		{ "alloc_space", "bytes" }, { "exceptions", "count" },
	};
	struct view *v = pp->v;
	PProfile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	PValueType types[N_COLS], period = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
	PValueType *type_ptrs[N_COLS];
	PSample *samples = NULL, **sample_ptrs = NULL;
	PLabel *labels = NULL, **label_ptrs = NULL;
	PMapping *maps = NULL, **map_ptrs = NULL;
	PLocation *locs = NULL, **loc_ptrs = NULL;
	PLine *lines = NULL, **line_ptrs = NULL;
	PFunction *funcs = NULL, **func_ptrs = NULL;
	uint64_t *loc_ids = NULL;
	int64_t *vals = NULL;
	int cols[N_COLS], n_cols = 0, cpu = v->cpu_samples && !v->event_filter;
	int64_t k_pid, k_tid, k_comm, s;
	uint8_t *buf = NULL;
	size_t i, j, len, nl;
	int err = -ENOMEM;

	pprof__str(pp, "");	/* entry 0 */
	if (cpu)
		pp->used[COL_COUNT] = 1;	/* even with no samples: the profile's type */
	if (!cpu || !v->info.sampling_interval_ns)
		pp->used[COL_CPU_NS] = 0;
	for (i = 0; i < N_COLS; i++) {
		char name[300];

		if (!pp->used[i] && !(i == COL_COUNT))
			continue;
		perftools__profiles__value_type__init(&types[n_cols]);
		if (i == COL_COUNT && !cpu) {
			snprintf(name, sizeof(name), "%s", v->event_filter ? v->event_filter : "events");
			types[n_cols].type = pprof__str(pp, name);
		} else {
			types[n_cols].type = pprof__str(pp, col_names[i][0]);
		}
		types[n_cols].unit = pprof__str(pp, col_names[i][1]);
		type_ptrs[n_cols] = &types[n_cols];
		cols[n_cols++] = (int)i;
	}
	prof.n_sample_type = (size_t)n_cols;
	prof.sample_type = type_ptrs;
	prof.default_sample_type = types[0].type;
	if (cpu && v->info.sampling_interval_ns) {
		period.type = pprof__str(pp, "cpu");
		period.unit = pprof__str(pp, "nanoseconds");
		prof.period_type = &period;
		prof.period = v->info.sampling_interval_ns;
	}
	k_pid = pprof__str(pp, "pid");
	k_tid = pprof__str(pp, "tid");
	k_comm = pprof__str(pp, "comm");

	/* functions: one per frame of the view, id = frame + 1 */
	funcs = calloc(v->n_frames + 1, sizeof(*funcs));
	func_ptrs = calloc(v->n_frames + 1, sizeof(*func_ptrs));
	if (!funcs || !func_ptrs)
		goto out;
	for (i = 0; i < v->n_frames; i++) {
		perftools__profiles__function__init(&funcs[i]);
		funcs[i].id = i + 1;
		funcs[i].name = funcs[i].system_name = pprof__str(pp, v->frames[i].name);
		funcs[i].filename = pprof__str(pp, v->frames[i].file ? v->frames[i].file : "");
		func_ptrs[i] = &funcs[i];
	}
	prof.n_function = v->n_frames;
	prof.function = func_ptrs;

	maps = calloc(pp->n_maps + 1, sizeof(*maps));
	map_ptrs = calloc(pp->n_maps + 1, sizeof(*map_ptrs));
	if (!maps || !map_ptrs)
		goto out;
	for (i = 0; i < pp->n_maps; i++) {
		perftools__profiles__mapping__init(&maps[i]);
		maps[i].id = i + 1;
		maps[i].memory_start = pp->maps[i].start;
		maps[i].memory_limit = pp->maps[i].limit;
		maps[i].filename = pprof__str(pp, pp->maps[i].file);
		if (view__build_id(v, pp->maps[i].file))
			maps[i].build_id = pprof__str(pp, view__build_id(v, pp->maps[i].file));
		maps[i].has_functions = 1;
		map_ptrs[i] = &maps[i];
	}
	prof.n_mapping = pp->n_maps;
	prof.mapping = map_ptrs;

	locs = calloc(pp->n_locs + 1, sizeof(*locs));
	loc_ptrs = calloc(pp->n_locs + 1, sizeof(*loc_ptrs));
	lines = calloc(pp->n_locs + 1, sizeof(*lines));
	line_ptrs = calloc(pp->n_locs + 1, sizeof(*line_ptrs));
	if (!locs || !loc_ptrs || !lines || !line_ptrs)
		goto out;
	for (i = 0; i < pp->n_locs; i++) {
		perftools__profiles__location__init(&locs[i]);
		perftools__profiles__line__init(&lines[i]);
		lines[i].function_id = pp->locs[i].frame + 1;
		line_ptrs[i] = &lines[i];
		locs[i].id = i + 1;
		locs[i].mapping_id = pp->locs[i].mapping;
		locs[i].address = pp->locs[i].addr;
		locs[i].n_line = 1;
		locs[i].line = &line_ptrs[i];
		loc_ptrs[i] = &locs[i];
	}
	prof.n_location = pp->n_locs;
	prof.location = loc_ptrs;

	nl = 0;
	for (i = 0; i < pp->n_samples; i++)
		nl += view__comm(v, pp->samples[i].pid, pp->samples[i].tid) ? 3 : 2;
	samples = calloc(pp->n_samples + 1, sizeof(*samples));
	sample_ptrs = calloc(pp->n_samples + 1, sizeof(*sample_ptrs));
	labels = calloc(nl + 1, sizeof(*labels));
	label_ptrs = calloc(nl + 1, sizeof(*label_ptrs));
	loc_ids = calloc(pp->n_pool + 1, sizeof(*loc_ids));
	vals = calloc(pp->n_samples * (size_t)n_cols + 1, sizeof(*vals));
	if (!samples || !sample_ptrs || !labels || !label_ptrs || !loc_ids || !vals)
		goto out;
	for (i = 0; i < pp->n_pool; i++)
		loc_ids[i] = (uint64_t)pp->loc_pool[i] + 1;
	for (i = 0, nl = 0; i < pp->n_samples; i++) {
		const struct psample *ps = &pp->samples[i];
		const char *comm = view__comm(v, ps->pid, ps->tid);
		PSample *sm = &samples[i];

		perftools__profiles__sample__init(sm);
		sm->n_location_id = ps->depth;
		sm->location_id = loc_ids + ps->off;
		sm->n_value = (size_t)n_cols;
		sm->value = vals + i * (size_t)n_cols;
		for (j = 0; j < (size_t)n_cols; j++)
			sm->value[j] = ps->val[cols[j]];
		sm->label = label_ptrs + nl;
		for (j = 0; j < (comm ? 3u : 2u); j++) {
			perftools__profiles__label__init(&labels[nl]);
			labels[nl].key = j == 0 ? k_pid : j == 1 ? k_tid : k_comm;
			if (j == 2)
				labels[nl].str = pprof__str(pp, comm);
			else
				labels[nl].num = j == 0 ? ps->pid : ps->tid;
			label_ptrs[nl] = &labels[nl];
			nl++;
		}
		sm->n_label = comm ? 3 : 2;
		sample_ptrs[i] = sm;
	}
	prof.n_sample = pp->n_samples;
	prof.sample = sample_ptrs;

	/* the time of the first sample, UTC, from the trace's sync point */
	if (v->selected) {
		s = (int64_t)v->info.sync_utc.tv_sec * 1000000000 + v->info.sync_utc.tv_nsec;
		prof.time_nanos = s + (int64_t)view_ticks_to_ns(v, v->first_ts) -
				  (int64_t)view_ticks_to_ns(v, v->info.sync_ts);
		prof.duration_nanos = (int64_t)view_ticks_to_ns(v, v->last_ts - v->first_ts);
		if (cpu)
			prof.duration_nanos += v->info.sampling_interval_ns;
	}
	if (pp->oom)
		goto out;
	prof.n_string_table = pp->n_strs;
	prof.string_table = pp->strs;

	len = perftools__profiles__profile__get_packed_size(&prof);
	buf = malloc(len ? len : 1);
	if (!buf)
		goto out;
	perftools__profiles__profile__pack(&prof, buf);
	err = gzip_write(buf, len, out);
out:
	free(buf);
	free(vals);
	free(loc_ids);
	free(label_ptrs);
	free(labels);
	free(sample_ptrs);
	free(samples);
	free(line_ptrs);
	free(lines);
	free(loc_ptrs);
	free(locs);
	free(map_ptrs);
	free(maps);
	free(func_ptrs);
	free(funcs);
	return err;
}

int view__write_pprof(struct view *v, const char *path, FILE *out)
{
	struct pprof pp = { .v = v };
	size_t i;
	int err;

	err = pprof__read(&pp, path);
	if (!err)
		err = pprof__write(&pp, out);
	for (i = 0; i < pp.n_strs; i++)
		free(pp.strs[i]);
	free(pp.strs);
	free(pp.str_next);
	u64_map__free(&pp.str_index);
	u64_map__free(&pp.loc_index);
	u64_map__free(&pp.sample_index);
	free(pp.locs);
	free(pp.maps);
	free(pp.samples);
	free(pp.loc_pool);
	return err;
}
