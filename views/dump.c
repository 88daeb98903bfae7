// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * dump.c - `ebpf-collect dump FILE [--json]`: print every event of a
 * .nettrace file and a summary.
 *
 * Payloads are decoded, in this order of preference, with the manifest event
 * table (the built-in one, or --manifest's), with the file's own
 * self-describing metadata, with the built-in layouts TraceEvent also
 * hard-codes (SampleProfiler ThreadSample: int32 Type; Universal.Events
 * cpu and cswitch: LEB128 Value), or printed as hex.
 */
#include <argp.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views.h"

#define LOG_PREFIX "ebpf-collect dump: "
#include "log.h"
#include "outfile.h"
#include "event_table.h"
#include "nettrace.h"
#include "nettrace_bytes.h"
#include "rundown.h"
#include "u64_map.h"
#include "manifest_meta.h"


#define SAMPLE_PROFILER "Microsoft-DotNETCore-SampleProfiler"

static const char dump_doc[] =
"Print the events of a .nettrace file (NetTrace V4/V5 as the .NET runtime\n"
"writes it, or V6), then a summary.\n"
"\n"
"USAGE: ebpf-collect dump FILE [--json] [--manifest MANIFEST] [--names STYLE] [-o OUT]\n"
"\n"
"Text output: one line per event\n"
"  TIMESTAMP PROVIDER/EVENT id=ID v=VER pid=PID tid=TID [stack=IP,..] FIELDS\n"
"then a summary (events, lost events, events with stacks, events per\n"
"provider/event, and the error with its offset if the file is cut or corrupt).\n"
"\n"
"Runtime events are named and decoded with the built-in names table of every\n"
"CLR event (the CLR manifest's, the project's among them, and the newer ones\n"
".NET 10 writes; a version newer than the table's is named as its newest);\n"
"--manifest decodes them with another ETW manifest's first, such as one a\n"
"runtime was built from.  An event is named by the trace's own\n"
"metadata when it names it, else by its manifest symbol (GCStart_V2), or with\n"
"--names traceevent as TraceEvent names it (GC/Start); EventID(N) only when\n"
"nothing describes it.\n"
"\n"
"--json: JSON Lines.  One object per event:\n"
"  {\"type\":\"event\", \"provider\", \"event\", \"id\", \"version\", \"timestamp\"\n"
"   (clock ticks), \"pid\" (the event's process), \"tid\", \"capture_tid\", \"seq\",\n"
"   \"cpu\", \"stack\" (leaf-first \"0x...\" strings, [] if none), \"fields\" (decoded\n"
"   payload object) or \"payload_hex\", and when non-zero \"activity_id\",\n"
"   \"related_activity_id\"}\n"
"then one summary object:\n"
"  {\"type\":\"summary\", \"file\", \"events\", \"lost\", \"with_stack\",\n"
"   \"by_event\" ({\"PROVIDER/EVENT\": count}), \"complete\" (true when the\n"
"   end-of-stream marker was reached), \"error\" (string or null),\n"
"   \"error_offset\" (number or null), \"pid\", \"pointer_size\", \"freq\",\n"
"   \"sync_ts\"}\n"
"\n"
"-o OUT: the output into the file OUT (mode 0600), which appears only once it\n"
"is whole (it is written as OUT.PID.tmp and renamed); standard output without.\n"
"\n"
"Exit status: 0 the whole file was read; 1 it is truncated or corrupt (every\n"
"event before the damage is still printed, and a one-line error naming the\n"
"file, offset and cause goes to stderr), cannot be opened, or the output cannot\n"
"be written (\"writing OUT: No space left on device\"; no OUT is left);\n"
"64 usage error.\n"
"\n"
"EXAMPLES:\n"
"  ebpf-collect dump trace.nettrace\n"
"  ebpf-collect dump trace.nettrace --json | python3 -m json.tool --json-lines\n";

#define OPT_JSON 1000
#define OPT_MANIFEST 1001
#define OPT_NAMES 1002

static const struct argp_option dump_opts[] = {
	{ "json", OPT_JSON, NULL, 0, "JSON Lines output", 0 },
	{ "output", 'o', "OUT", 0, "Write to OUT instead of standard output", 0 },
	{ "manifest", OPT_MANIFEST, "MANIFEST", 0,
	  "Decode runtime events with this ETW manifest's event table", 0 },
	{ "names", OPT_NAMES, "STYLE", 0,
	  "Name events by their manifest symbol (symbol, the default: GCStart_V2) or as "
	  "TraceEvent does (traceevent: GC/Start)", 0 },
	{ 0 },
};

struct dump_env {
	const char *file;
	const char *manifest;
	const char *output;
	int json;
	int names;		/* MANIFEST_NAME_SYMBOL or MANIFEST_NAME_TRACEEVENT */
};

static error_t dump_parse(int key, char *arg, struct argp_state *state)
{
	struct dump_env *env = state->input;

	switch (key) {
	case OPT_JSON:
		env->json = 1;
		break;
	case OPT_MANIFEST:
		env->manifest = arg;
		break;
	case OPT_NAMES:
		if (!strcmp(arg, "symbol"))
			env->names = MANIFEST_NAME_SYMBOL;
		else if (!strcmp(arg, "traceevent"))
			env->names = MANIFEST_NAME_TRACEEVENT;
		else
			argp_error(state, "--names %s: not symbol or traceevent", arg);
		break;
	case 'o':
		env->output = arg;
		break;
	case ARGP_KEY_ARG:
		if (env->file)
			argp_error(state, "only one FILE");
		env->file = arg;
		break;
	case ARGP_KEY_END:
		if (!env->file)
			argp_error(state, "FILE is required");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* The manifest event the reader matched (manifest_lookup_init), or NULL. */
static const struct ect_event *ev_manifest(const struct nt_metadata *m)
{
	return m->manifest;
}

/* A Universal.Events payload: one LEB128 Value, the whole payload */
static int universal_value(const struct nt_read_event *ev, uint64_t *v)
{
	const uint8_t *end = ev->payload + ev->payload_size;

	return !strcmp(ev->meta->provider, UNIVERSAL_EVENTS_PROVIDER) && ev->payload_size &&
	       nt_get_varint(ev->payload, end, 10, v) == ev->payload_size;
}

static void print_fields(FILE *out, const struct nt_read_event *ev, int json)
{
	const struct nt_metadata *m = ev->meta;
	uint64_t v;

	if (ev_manifest(m)) {
		fputs(json ? ",\"fields\":" : " ", out);
		ect_payload_to_json(ev_manifest(m), ev->payload, ev->payload_size, out);
	} else if (m->n_fields) {
		fputs(json ? ",\"fields\":" : " ", out);
		nt_payload_to_json(m, ev->payload, ev->payload_size, out);
	} else if (m->event_id == 0 && !strcmp(m->provider, SAMPLE_PROFILER) &&
		   ev->payload_size == 4) {
		fprintf(out, "%s{\"Type\":%d}", json ? ",\"fields\":" : " ",
			(int32_t)nt_get_u32(ev->payload));
	} else if (universal_value(ev, &v)) {
		fprintf(out, "%s{\"Value\":%" PRIu64 "}", json ? ",\"fields\":" : " ", v);
	} else if (!ev->payload_size) {
		fputs(json ? ",\"fields\":{}" : " {}", out);
	} else {
		fputs(json ? ",\"payload_hex\":\"" : " payload=", out);
		for (uint32_t i = 0; i < ev->payload_size; i++)
			fprintf(out, "%02x", ev->payload[i]);
		if (json)
			fputc('"', out);
	}
}

static int guid_nonzero(const uint8_t *g)
{
	for (int i = 0; i < 16; i++)
		if (g[i])
			return 1;
	return 0;
}

static void print_guid(FILE *out, const uint8_t *p)
{
	fprintf(out, "\"%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x\"", nt_get_u32(p),
		nt_get_u16(p + 4), nt_get_u16(p + 6), p[8], p[9], p[10], p[11], p[12], p[13],
		p[14], p[15]);
}

static void print_event(FILE *out, const struct nt_read_event *ev, uint32_t pid, int json,
			int names)
{
	const struct nt_metadata *m = ev->meta;
	char name[256];
	uint32_t i;

	manifest_event_name(m, names, name, sizeof(name));
	if (!json) {
		fprintf(out, "%" PRIu64 " %s/%s id=%u v=%u pid=%u tid=%" PRIu64, ev->timestamp,
			m->provider, name, m->event_id, m->version, pid, ev->thread_id);
		if (ev->stack_depth) {
			fputs(" stack=", out);
			for (i = 0; i < ev->stack_depth; i++)
				fprintf(out, "%s0x%" PRIx64, i ? "," : "", ev->stack[i]);
		}
		print_fields(out, ev, 0);
		fputc('\n', out);
		return;
	}
	fputs("{\"type\":\"event\",\"provider\":", out);
	nt_json_str(out, m->provider);
	fputs(",\"event\":", out);
	nt_json_str(out, name);
	fprintf(out, ",\"id\":%u,\"version\":%u,\"timestamp\":%" PRIu64 ",\"pid\":%u,\"tid\":%"
		PRIu64 ",\"capture_tid\":%" PRIu64 ",\"seq\":%u,\"cpu\":%u,\"stack\":[",
		m->event_id, m->version, ev->timestamp, pid, ev->thread_id,
		ev->capture_thread_id, ev->sequence, ev->processor);
	for (i = 0; i < ev->stack_depth; i++)
		fprintf(out, "%s\"0x%" PRIx64 "\"", i ? "," : "", ev->stack[i]);
	fputc(']', out);
	if (guid_nonzero(ev->activity_id)) {
		fputs(",\"activity_id\":", out);
		print_guid(out, ev->activity_id);
	}
	if (guid_nonzero(ev->related_activity_id)) {
		fputs(",\"related_activity_id\":", out);
		print_guid(out, ev->related_activity_id);
	}
	print_fields(out, ev, 1);
	fputs("}\n", out);
}

struct count {
	char *name;
	uint64_t n;
};

static int count_cmp(const void *a, const void *b)
{
	return strcmp(((const struct count *)a)->name, ((const struct count *)b)->name);
}

/*
 * Per-(provider/event) counts from the per-metadata-id counts; entries with
 * the same display name are merged.  Returns the number of entries or -ENOMEM.
 */
static long collect_counts(const struct u64_map *per_meta, int names, struct count **out)
{
	struct count *c;
	size_t n = 0, i, j;
	char name[256];

	c = calloc(per_meta->used + 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < per_meta->cap; i++) {
		const struct u64_map_ent *e = &per_meta->ents[i];
		const struct nt_metadata *m;

		if (!e->used)
			continue;
		m = (const struct nt_metadata *)(uintptr_t)e->key;
		manifest_event_name(m, names, name, sizeof(name));
		if (asprintf(&c[n].name, "%s/%s", m->provider, name) < 0) {
			c[n].name = NULL;
			goto enomem;
		}
		c[n++].n = e->val;
	}
	qsort(c, n, sizeof(*c), count_cmp);
	for (i = 0, j = 0; i < n; i++) {
		if (j && !strcmp(c[j - 1].name, c[i].name)) {
			c[j - 1].n += c[i].n;
			free(c[i].name);
		} else {
			c[j++] = c[i];
		}
	}
	*out = c;
	return j;
enomem:
	for (i = 0; i < n; i++)
		free(c[i].name);
	free(c);
	return -ENOMEM;
}

static int cmp_key(const void *a, const void *b)
{
	const struct u64_map_ent *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* Events per process (V6 holds many; V5 one), by pid. */
static void print_processes(FILE *out, const struct u64_map *per_pid, int json)
{
	struct u64_map_ent *v = calloc(per_pid->used ? per_pid->used : 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; v && i < per_pid->cap; i++)
		if (per_pid->ents[i].used)
			v[n++] = per_pid->ents[i];
	if (v)
		qsort(v, n, sizeof(*v), cmp_key);
	if (json)
		fputs(",\"by_process\":{", out);
	else if (n > 1)
		fprintf(out, "events per process:\n");
	for (i = 0; i < n; i++) {
		if (json)
			fprintf(out, "%s\"%" PRIu64 "\":%" PRIu64, i ? "," : "", v[i].key, v[i].val);
		else if (n > 1)
			fprintf(out, "%10" PRIu64 "  pid %" PRIu64 "\n", v[i].val, v[i].key);
	}
	if (json)
		fputc('}', out);
	free(v);
}

static void print_summary(FILE *out, struct nt_reader *r, const char *file, int json,
			  uint64_t events, uint64_t with_stack, struct count *c, long nc,
			  const struct u64_map *per_pid)
{
	const struct nt_trace_info *info = nt_reader__info(r);
	const char *err = nt_reader__error(r);
	long i;

	if (json) {
		fputs("{\"type\":\"summary\",\"file\":", out);
		nt_json_str(out, file);
		fprintf(out, ",\"events\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"with_stack\":%" PRIu64
			",\"by_event\":{", events, nt_reader__lost(r), with_stack);
		for (i = 0; i < nc; i++) {
			if (i)
				fputc(',', out);
			nt_json_str(out, c[i].name);
			fprintf(out, ":%" PRIu64, c[i].n);
		}
		fputc('}', out);
		print_processes(out, per_pid, 1);
		fprintf(out, ",\"complete\":%s,\"error\":", err ? "false" : "true");
		if (err) {
			nt_json_str(out, err);
			fprintf(out, ",\"error_offset\":%" PRIu64, nt_reader__error_offset(r));
		} else {
			fputs("null,\"error_offset\":null", out);
		}
		fprintf(out, ",\"pid\":%u,\"pointer_size\":%u,\"freq\":%" PRIu64 ",\"sync_ts\":%"
			PRIu64 "}\n", info->pid, info->pointer_size, info->freq, info->sync_ts);
		return;
	}
	fprintf(out, "--- summary: %s\n", file);
	fprintf(out, "events:             %" PRIu64 "\n", events);
	fprintf(out, "lost events:        %" PRIu64 "\n", nt_reader__lost(r));
	fprintf(out, "events with stacks: %" PRIu64 "\n", with_stack);
	fprintf(out, "trace:              pid %u, pointer size %u, %" PRIu64 " ticks/s\n",
		info->pid, info->pointer_size, info->freq);
	if (err)
		fprintf(out, "truncated/corrupt:  %s\n", err);
	else
		fprintf(out, "complete:           yes\n");
	fprintf(out, "events per provider/event:\n");
	for (i = 0; i < nc; i++)
		fprintf(out, "%10" PRIu64 "  %s\n", c[i].n, c[i].name);
	print_processes(out, per_pid, 0);
}

int dump_main(int argc, char **argv)
{
	const struct argp argp = { dump_opts, dump_parse, "FILE", dump_doc, NULL, NULL, NULL };
	struct dump_env env = { 0 };
	const struct ect_table *table = NULL;
	struct nt_event_lookup lookup;
	struct u64_map per_meta = { 0 }, per_pid = { 0 };
	struct nt_read_event ev;
	struct nt_reader *r;
	struct count *counts = NULL;
	uint64_t events = 0, with_stack = 0;
	struct outfile out;
	long nc = 0;
	int ret = EXIT_OK, rc, err;

	if (argp_parse(&argp, argc, argv, 0, NULL, &env))
		return EXIT_USAGE;
	if (env.manifest) {
		char err[512];

		if (ect_table__load(env.manifest, &table, err, sizeof(err))) {
			pr_warn("--manifest %s\n", err);
			return EXIT_USAGE;
		}
	}
	manifest_lookup_init(&lookup, table);
	r = nt_reader__open(env.file, &lookup);
	if (!r) {
		pr_warn("%s: %s\n", env.file, strerror(errno));
		if (env.manifest)
			ect_table__free(table);
		return EXIT_FAIL;
	}
	err = outfile__open(&out, env.output);
	if (err) {
		pr_warn("cannot create output %s: %s\n", env.output, strerror(-err));
		nt_reader__close(r);
		if (env.manifest)
			ect_table__free(table);
		return EXIT_FAIL;
	}
	while ((rc = nt_reader__next(r, &ev)) == 1) {
		struct u64_map_ent *e;

		events++;
		if (ev.stack_depth)
			with_stack++;
		if (!u64_map__get(&per_meta, (uintptr_t)ev.meta, &e))
			e->val++;
		if (!u64_map__get(&per_pid, ev.pid, &e))
			e->val++;
		print_event(out.f, &ev, ev.pid, env.json, env.names);	/* V6: many processes */
	}
	nc = collect_counts(&per_meta, env.names, &counts);
	if (nc < 0) {
		pr_warn("%s: out of memory\n", env.file);
		ret = EXIT_FAIL;
		goto cleanup;
	}
	print_summary(out.f, r, env.file, env.json, events, with_stack, counts, nc, &per_pid);
	if (rc < 0) {
		fflush(out.f);	/* the events before the damage, then why */
		pr_warn("%s: %s\n", env.file, nt_reader__error(r));
		ret = EXIT_FAIL;
	}
cleanup:
	/* the dump of a damaged file is kept; one cut short by memory is not */
	err = outfile__finish(&out, nc < 0 ? -ENOMEM : 0);
	if (err && nc >= 0) {
		pr_warn("writing %s: %s\n", outfile_name(env.output), strerror(-err));
		ret = EXIT_FAIL;
	}
	for (long i = 0; i < nc; i++)
		free(counts[i].name);
	free(counts);
	u64_map__free(&per_meta);
	u64_map__free(&per_pid);
	nt_reader__close(r);
	if (env.manifest)
		ect_table__free(table);
	return ret;
}
