/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * manifest.h - in-memory model of an ETW instrumentation manifest.
 *
 * manifest__load() reads a manifest (the schema of CoreCLR's ClrEtwAll.man)
 * with expat, keeps what a payload layout and the trace metadata need
 * (providers, keywords, tasks, opcodes, templates, events) and resolves every
 * reference: event -> template/task/opcode/keywords, count=/length= -> an
 * earlier field.  The first problem found is reported as one line
 * "FILE:LINE: problem".  usdt-gen and the manifest comparison test share it.
 */
#ifndef EBPF_COLLECT_MANIFEST_H
#define EBPF_COLLECT_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "event_table.h"	/* enum ect_intype, enum ect_count_kind */

struct man_field {
	char *name;
	int intype;		/* enum ect_intype */
	char *outtype;		/* outType= or NULL (display only) */
	char *map;		/* map= or NULL (display only) */
	char *count_attr;	/* count=/length= as written, or NULL */
	int is_length;		/* count_attr came from length= */
	int count_kind;		/* enum ect_count_kind */
	unsigned int count;	/* FIXED: N; FIELD: index of the count sibling */
	int line;
	struct man_field *members;	/* ECT_STRUCT */
	int n_members;
};

struct man_template {
	char *tid;
	int line;
	struct man_field *fields;
	int n_fields;
	int n_events;		/* events of the provider that use it */
};

struct man_keyword {
	char *name;
	uint64_t mask;
};

struct man_opcode {
	char *name;
	unsigned int value;
	char *message;		/* message= as written ("$(string.X)"), or NULL */
};

struct man_task {
	char *name;
	char *message;		/* message= as written, or NULL */
	unsigned int value;
	struct man_opcode *opcodes;
	int n_opcodes;
};

struct man_event {
	char *symbol;
	unsigned int id;
	unsigned int version;
	unsigned int level;
	unsigned int opcode;
	unsigned int task;
	uint64_t keywords;
	char *template_name;	/* as written, or NULL */
	char *task_name;	/* or NULL */
	char *opcode_name;	/* as written ("win:Start", "GCHeapStats") or NULL */
	char *keywords_attr;	/* as written, or NULL */
	const struct man_template *tmpl;	/* resolved; NULL = no payload */
	const struct man_task *task_ref;	/* resolved; NULL = no task */
	const struct man_opcode *opcode_ref;	/* resolved; NULL = no opcode */
	char *name;		/* "GC/Start": see manifest__load() */
	int line;
};

struct man_provider {
	char *name;		/* Microsoft-Windows-DotNETRuntime */
	char *short_name;	/* DotNETRuntime: the USDT provider name */
	char *guid;		/* lower case, no braces */
	uint8_t guid_bytes[16];	/* .NET Guid.ToByteArray() layout */
	char *symbol;
	int line;
	struct man_keyword *keywords;
	int n_keywords;
	struct man_task *tasks;
	int n_tasks;
	struct man_opcode *opcodes;	/* provider-level <opcodes> */
	int n_opcodes;
	struct man_template *templates;
	int n_templates;
	struct man_event *events;
	int n_events;
};

/* <string id= value=> of the manifest's <localization> */
struct man_string {
	char *id;
	char *value;
};

struct manifest {
	char *path;
	struct man_provider *providers;
	int n_providers;
	struct man_string *strings;
	int n_strings;
};

/*
 * Parse and resolve a manifest.  Every event gets the name TraceEvent gives
 * it: its task's message text, then "/" and its opcode's message text
 * unless the opcode is win:Info or absent, without the task's text where
 * the opcode's repeats it ("GC/Start", "GC/BulkNode", "Method/DCStopVerbose");
 * the symbol when the event has no task; the few names TraceEvent's CLR
 * parsers choose otherwise as they do (manifest.c: traceevent_names).  On success returns 0 and sets *out.  On
 * failure returns -EINVAL (bad input; err holds "FILE:LINE: problem"),
 * -ENOENT/-EIO (cannot read; err says so) or -ENOMEM.
 */
int manifest__load(const char *path, struct manifest **out, char *err, size_t err_len);
void manifest__free(struct manifest *m);

/* Lookups used by the comparison test; NULL if absent. */
const struct man_provider *manifest__find_provider(const struct manifest *m, const char *name);
const struct man_event *man_provider__find_event(const struct man_provider *p,
						 unsigned int id, unsigned int version);

/* Packed size of one element (a struct: all members) when fixed, or -1. */
long man_field__elem_size(const struct man_field *f);
/* Packed size of the whole field (all count elements) when fixed, or -1. */
long man_field__fixed_size(const struct man_field *f);
/* Packed size of a whole template when fixed, or -1. */
long man_template__fixed_size(const struct man_template *t);

#endif /* EBPF_COLLECT_MANIFEST_H */
