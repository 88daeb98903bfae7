// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * selection.c - --providers / --profile parsing and event matching.
 *
 * Profile keyword masks come from the <keyword> elements of ClrEtwAll.man
 * (Microsoft-Windows-DotNETRuntime):
 *   GC 0x1, GCHandle 0x2, Loader 0x8, Jit 0x10, NGen 0x20, Security 0x400,
 *   AppDomainResourceManagement 0x800, JitTracing 0x1000, Interop 0x2000,
 *   Contention 0x4000, Exception 0x8000, Threading 0x10000,
 *   JittedMethodILToNativeMap 0x20000, OverrideAndSuppressNGenEvents 0x40000,
 *   Type 0x80000, GCHeapSurvivalAndMovement 0x400000,
 *   GCHeapAndTypeNames 0x1000000, GCSampledObjectAllocationLow 0x2000000,
 *   Stack 0x40000000, ThreadTransfer 0x80000000, CodeSymbols 0x400000000,
 *   Compilation 0x1000000000.
 * DotNETRuntimeRundown: Loader 0x8, Jit 0x10, NGen 0x20, StartRundown 0x40,
 *   EndRundown 0x100, Threading 0x10000, ILToNativeMap 0x20000.
 * "default" is what dotnet-trace 10 records when given no provider: its
 * dotnet-common profile (DotNETRuntime 0x100003801D at Informational: GC,
 * AssemblyLoader, Loader, Jit, Exception, Threading,
 * JittedMethodILToNativeMap, Compilation) and its
 * dotnet-sampled-thread-time profile (the runtime's SampleProfiler, an
 * EventPipe-only provider), plus the rundown events that name methods and
 * modules.  "always-on", the daemon's default, is dotnet-common and
 * Contention (0x4000: the fleet outputs count lock contention), without the
 * SampleProfiler, which samples every thread of a process 1,000 times a
 * second.  "legacy-default" is the keyword set older dotnet-trace used
 * (TraceEvent's ClrTraceEventParser.Keywords.Default = 0x14C14FCCBD: the
 * above and NGen, EndEnumeration, Security, AppDomainResourceManagement,
 * Contention, OverrideAndSuppressNGenEvents, Type,
 * GCHeapSurvivalAndMovement, GCHeapAndTypeNames, Stack, ThreadTransfer,
 * CodeSymbols), without samples.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "event_table.h"
#include "selection.h"

#define RUNDOWN_NAMES	"DotNETRuntimeRundown:0x30178:5"
#define SAMPLE_PROFILER	"Microsoft-DotNETCore-SampleProfiler:0xF00000000000:4"

struct profile {
	const char *name;
	const char *spec;
	const char *eventpipe;	/* providers only EventPipe has, or NULL */
	const char *doc;
};

static const struct profile profiles[] = {
	{ "default", "DotNETRuntime:0x100003801D:4," RUNDOWN_NAMES, SAMPLE_PROFILER,
	  "dotnet-trace 10's default (its dotnet-common and\n"
	  "dotnet-sampled-thread-time profiles): GC, AssemblyLoader,\n"
	  "Loader, Jit, Exception, Threading, ILToNativeMap,\n"
	  "Compilation at Informational, plus method/module rundown;\n"
	  "over EventPipe also the runtime's SampleProfiler\n"
	  "(--cpu-sampling replaces it with BPF samples)" },
	{ "legacy-default", "DotNETRuntime:0x14C14FCCBD:4," RUNDOWN_NAMES, NULL,
	  "older dotnet-trace's runtime keywords (TraceEvent\n"
	  "Keywords.Default: the above and NGen, Security, Contention,\n"
	  "Type, GCHeapSurvivalAndMovement, GCHeapAndTypeNames, Stack,\n"
	  "ThreadTransfer, CodeSymbols...) at Informational, plus\n"
	  "rundown; no samples" },
	{ "always-on", "DotNETRuntime:0x100003C01D:4," RUNDOWN_NAMES, NULL,
	  "the node daemon's default: dotnet-trace 10's runtime\n"
	  "keywords and Contention at Informational (what --metrics\n"
	  "and --clickhouse count), plus rundown; no SampleProfiler\n"
	  "(the daemon samples with --cpu-sampling)" },
	{ "gc-collect", "DotNETRuntime:0x1:4,DotNETRuntimePrivate:0x1:4", NULL,
	  "GC collections only (GC keyword, Informational)" },
	{ "gc-verbose", "DotNETRuntime:0x3080003:5,DotNETRuntimePrivate:0x1:5", NULL,
	  "GC, GCHandle, Type, GCHeapAndTypeNames,\n"
	  "GCSampledObjectAllocationLow at Verbose (allocation ticks,\n"
	  "type names)" },
	{ "jit", "DotNETRuntime:0x1000021018:5," RUNDOWN_NAMES, NULL,
	  "Loader, Jit, JitTracing, ILToNativeMap, Compilation at\n"
	  "Verbose, plus rundown" },
	{ "exceptions", "DotNETRuntime:0x8008:5," RUNDOWN_NAMES, NULL,
	  "Exception and Loader at Verbose, plus rundown" },
	{ "contention", "DotNETRuntime:0x14008:5," RUNDOWN_NAMES, NULL,
	  "Contention, Threading and Loader at Verbose, plus rundown" },
};

static int parse_level(const char *s, uint8_t *out)
{
	static const char *const names[] = { "logalways", "critical", "error", "warning",
					     "informational", "verbose" };
	unsigned int i;
	char *end;
	long v;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcasecmp(s, names[i])) {
			*out = i;
			return 0;
		}
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > 5)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_keywords(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!*s) {
		*out = ~0ULL;
		return 0;
	}
	if (!strncasecmp(s, "0x", 2))
		s += 2;
	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 16);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

static int add_one(struct selection *s, const struct ect_table *t, char *item, int quiet,
		   char *err, size_t errsz)
{
	char *kw = strchr(item, ':'), *lvl = NULL;
	struct provider_req r = { .keywords = ~0ULL, .level = 5 };

	if (kw) {
		*kw++ = 0;
		lvl = strchr(kw, ':');
		if (lvl)
			*lvl++ = 0;
	}
	r.prov = ect_find_provider(t, item);
	if (!r.prov) {
		if (quiet)
			return 0;
		snprintf(err, errsz, "unknown provider '%s' (this build knows %s%s%s)", item,
			 t->n_providers > 0 ? t->providers[0].name : "none",
			 t->n_providers > 1 ? ", " : "",
			 t->n_providers > 1 ? t->providers[1].name : "");
		return -EINVAL;
	}
	if (kw && parse_keywords(kw, &r.keywords)) {
		snprintf(err, errsz, "bad keywords '%s' for %s (hex, e.g. 0x8001)", kw, item);
		return -EINVAL;
	}
	if (lvl && parse_level(lvl, &r.level)) {
		snprintf(err, errsz, "bad level '%s' for %s (0-5 or LogAlways..Verbose)", lvl,
			 item);
		return -EINVAL;
	}
	if (s->n >= SEL_MAX_REQ) {
		snprintf(err, errsz, "too many provider entries (max %d)", SEL_MAX_REQ);
		return -EINVAL;
	}
	s->req[s->n++] = r;
	return 0;
}

static int add_list(struct selection *s, const struct ect_table *t, const char *spec,
		    int quiet, char *err, size_t errsz)
{
	char *copy = strdup(spec), *save = NULL, *item;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (item = strtok_r(copy, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save))
		ret = add_one(s, t, item, quiet, err, errsz);
	free(copy);
	return ret;
}

int selection__add_spec(struct selection *s, const struct ect_table *t, const char *spec,
			char *err, size_t errsz)
{
	if (!*spec) {
		snprintf(err, errsz, "empty provider list");
		return -EINVAL;
	}
	return add_list(s, t, spec, 0, err, errsz);
}

int selection__add_profile(struct selection *s, const struct ect_table *t, const char *name)
{
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		if (strcmp(profiles[i].name, name))
			continue;
		if (profiles[i].eventpipe && !s->eventpipe)
			s->eventpipe = profiles[i].eventpipe;
		return add_list(s, t, profiles[i].spec, 1, err, sizeof(err));
	}
	return -ENOENT;
}

int selection__matches(const struct selection *s, const struct ect_event *ev)
{
	int i;

	for (i = 0; i < s->n; i++) {
		const struct provider_req *r = &s->req[i];

		if (r->prov != ev->provider)
			continue;
		if (ev->level != 0 && ev->level > r->level)
			continue;
		if (ev->keywords != 0 && !(ev->keywords & r->keywords))
			continue;
		return 1;
	}
	return 0;
}

int selection__lttng_config(const struct selection *s, char *buf, size_t n)
{
	static const char runtime[] = "Microsoft-Windows-DotNETRuntime";
	size_t off = 0;
	int i, j;

	if (!n)
		return -ENOSPC;
	buf[0] = 0;
	for (i = 0; i < s->n; i++) {
		const struct ect_provider *p = s->req[i].prov;
		uint64_t kw = 0;
		uint8_t level = 0;
		int len;

		if (strncasecmp(p->name, runtime, sizeof(runtime) - 1))
			continue;
		for (j = 0; j < i && s->req[j].prov != p; j++)
			;
		if (j < i)
			continue;	/* merged into its first request's entry */
		for (j = i; j < s->n; j++) {
			if (s->req[j].prov != p)
				continue;
			kw |= s->req[j].keywords;
			if (s->req[j].level > level)
				level = s->req[j].level;
		}
		len = snprintf(buf + off, n - off, "%s%s:%llX:%u", off ? "," : "", p->name,
			       (unsigned long long)kw, level);
		if (len < 0 || (size_t)len >= n - off) {
			buf[0] = 0;
			return -ENOSPC;
		}
		off += len;
	}
	return off ? 0 : -ENOENT;
}

const char *selection__profiles_help(void)
{
	static char buf[8192];
	size_t i, off = 0;

	if (buf[0])
		return buf;
	for (i = 0; i < sizeof(profiles) / sizeof(profiles[0]) && off < sizeof(buf); i++) {
		const char *d = profiles[i].doc;

		off += snprintf(buf + off, sizeof(buf) - off, "  %-14s ", profiles[i].name);
		while (*d && off < sizeof(buf)) {	/* indent continuation lines */
			size_t n = strcspn(d, "\n");

			off += snprintf(buf + off, sizeof(buf) - off, "%.*s\n", (int)n, d);
			d += n + (d[n] == '\n');
			if (*d)
				off += snprintf(buf + off, sizeof(buf) - off, "%17s", "");
		}
		if (off < sizeof(buf))
			off += snprintf(buf + off, sizeof(buf) - off, "%17s%s\n", "",
					profiles[i].spec);
		if (profiles[i].eventpipe && off < sizeof(buf))
			off += snprintf(buf + off, sizeof(buf) - off, "%17s+ %s\n", "",
					profiles[i].eventpipe);
	}
	return buf;
}
