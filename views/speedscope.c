// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * speedscope JSON (sampled profiles, one per thread) from the trace model.
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
#include "json_str.h"

/* ----------------------------------------------------------- speedscope */

double view_ticks_to_ns(const struct view *v, uint64_t ticks)
{
	uint64_t f = v->info.freq ? v->info.freq : 1000000000ULL;

	return (double)ticks * 1e9 / (double)f;
}

int view__write_speedscope(struct view *v, const char *file, FILE *out)
{
	uint64_t interval = v->info.sampling_interval_ns ? v->info.sampling_interval_ns : 1000000;
	int cpu = v->cpu_samples && !v->event_filter;
	size_t i, j;
	uint32_t d;

	fprintf(out, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n");
	fprintf(out, "\"exporter\":\"ebpf-collect\",\"name\":");
	json_str(out, sym_basename(file));
	fprintf(out, ",\"activeProfileIndex\":0,\n\"shared\":{\"frames\":[\n");
	for (i = 0; i < v->n_frames; i++) {
		fprintf(out, "%s{\"name\":", i ? ",\n" : "");
		json_str(out, v->frames[i].name);
		if (v->frames[i].file) {
			fprintf(out, ",\"file\":");
			json_str(out, v->frames[i].file);
		}
		fputc('}', out);
	}
	fprintf(out, "]},\n\"profiles\":[\n");
	for (i = 0; i < v->n_threads; i++) {
		const struct vthread *t = &v->threads[i];
		double start = view_ticks_to_ns(v, t->ts[0] - v->first_ts);
		double end = view_ticks_to_ns(v, t->ts[t->n - 1] - v->first_ts);

		fprintf(out, "%s{\"type\":\"sampled\",\"name\":\"Thread %" PRIu64 " (%s)\",",
			i ? ",\n" : "", t->tid, cpu ? "CPU samples" : v->select_desc);
		if (cpu)
			fprintf(out, "\"unit\":\"nanoseconds\",\"startValue\":%.0f,\"endValue\":%.0f,",
				start, end + (double)interval);
		else
			fprintf(out, "\"unit\":\"none\",\"startValue\":0,\"endValue\":%zu,", t->n);
		fprintf(out, "\n\"samples\":[");
		for (j = 0; j < t->n; j++) {
			const struct vstack *st = &v->stacks[t->stacks[j]];

			fprintf(out, "%s[", j ? "," : "");
			for (d = 0; d < st->depth; d++)
				fprintf(out, "%s%u", d ? "," : "", v->frames_pool[st->off + d]);
			fputc(']', out);
		}
		fprintf(out, "],\n\"weights\":[");
		for (j = 0; j < t->n; j++)
			fprintf(out, "%s%" PRIu64, j ? "," : "", cpu ? interval : (uint64_t)1);
		fprintf(out, "]}");
	}
	fprintf(out, "]}\n");
	return ferror(out) ? -EIO : 0;
}
