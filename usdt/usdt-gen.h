/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * usdt-gen.h - the C emitters of usdt-gen (usdt-gen-provider.c,
 * usdt-gen-events.c).  Each writes one file to f and returns 0, or -EINVAL
 * with g->err set when the manifest uses something the generator cannot
 * express.
 */
#ifndef EBPF_COLLECT_USDT_GEN_H
#define EBPF_COLLECT_USDT_GEN_H

#include <stdio.h>

#include "manifest.h"

#define USDT_GEN_VERSION 1

struct gen_ctx {
	const struct manifest *m;
	const char *prefix;		/* "clretw" */
	const char *manifest_base;	/* basename of the manifest, for banners */
	char err[1024];		/* "FILE:LINE: problem" when an emitter fails */
};

int gen_provider_h(struct gen_ctx *g, FILE *f);
int gen_provider_c(struct gen_ctx *g, FILE *f);
int gen_caller_c(struct gen_ctx *g, FILE *f);
int gen_events_c(struct gen_ctx *g, FILE *f);
/* usdt-gen --table: the names table of every event of ms[0..n_ms) */
int gen_names_c(struct gen_ctx *g, FILE *f, struct manifest *const *ms, int n_ms);

/* batched mode (usdt-gen-batch.c): the runtime part, the name table, and
 * an event's branch: open, the caller's serializer call into p__, close */
void gen_batch_runtime(const struct gen_ctx *g, FILE *f);
void gen_batch_names(const struct gen_ctx *g, FILE *f);
void gen_batch_open(FILE *f, int idx, const char *len);
void gen_batch_close(FILE *f, const char *up, const struct man_provider *p,
		     const struct man_event *e, const char *len);

/* "generated from X by usdt-gen vN, do not edit" */
void gen_banner(const struct gen_ctx *g, FILE *f, const char *what);

#endif /* EBPF_COLLECT_USDT_GEN_H */
