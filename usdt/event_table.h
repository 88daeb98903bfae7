/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * event_table.h - the collector-side description of manifest events.
 *
 * usdt-gen writes one `const struct ect_table` (in <outdir>/clretw_events.c)
 * per manifest it compiles.  The collector uses it to map a USDT probe
 * (provider short name + probe name = event symbol) back to the full ETW
 * identity (provider name and GUID, event id, version, keywords, level,
 * opcode, task) and to decode payloads for `ebpf-collect dump`.
 *
 * The layout of a payload is exactly the manifest's: fields packed in
 * <data> order, little-endian, no alignment.  See event_decode.c.
 */
#ifndef EBPF_COLLECT_EVENT_TABLE_H
#define EBPF_COLLECT_EVENT_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ETW in-types (the manifest's win:* names) */
enum ect_intype {
	ECT_UINT8 = 1,
	ECT_UINT16,
	ECT_UINT32,
	ECT_UINT64,
	ECT_INT32,
	ECT_INT64,
	ECT_DOUBLE,
	ECT_BOOLEAN,	/* 4 bytes */
	ECT_POINTER,	/* pointer-sized: 8 bytes on the 64-bit targets we build */
	ECT_GUID,	/* 16 bytes */
	ECT_UNICODE,	/* UTF-16LE, NUL-terminated */
	ECT_ANSI,	/* 8-bit, NUL-terminated */
	ECT_BINARY,	/* `length` bytes */
	ECT_STRUCT,	/* <struct>: members repeated `count` times */
};

/* How many times a field repeats (count=) or how long a Binary is (length=) */
enum ect_count_kind {
	ECT_COUNT_NONE = 0,	/* scalar */
	ECT_COUNT_FIXED,	/* count="N" */
	ECT_COUNT_FIELD,	/* count/length names an earlier field of the same level */
};

struct ect_field {
	const char *name;
	uint8_t intype;			/* enum ect_intype */
	uint8_t count_kind;		/* enum ect_count_kind */
	uint16_t count;			/* ECT_COUNT_FIXED: N; ECT_COUNT_FIELD: index of the
					 * count field among its siblings */
	const char *count_name;		/* the count=/length= attribute as written, or NULL */
	const char *map;		/* map= name, or NULL (display only) */
	const struct ect_field *members;	/* ECT_STRUCT only */
	uint16_t n_members;
};

struct ect_keyword {
	const char *name;
	uint64_t mask;
};

struct ect_provider {
	const char *name;		/* "Microsoft-Windows-DotNETRuntime" */
	const char *usdt_name;		/* "DotNETRuntime" */
	const char *guid;		/* "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", lower case */
	uint8_t guid_bytes[16];		/* .NET Guid.ToByteArray() layout */
	const char *symbol;		/* provider symbol= from the manifest */
	const struct ect_keyword *keywords;
	uint16_t n_keywords;
};

struct ect_event {
	const struct ect_provider *provider;
	const char *symbol;		/* "GCStart_V2": also the USDT probe name */
	const char *name;		/* "GC/Start": TraceEvent's name (usdt/manifest.h) */
	const char *template_name;	/* NULL when the event has no template */
	uint16_t id;
	uint8_t version;
	uint8_t level;			/* 0 LogAlways .. 5 Verbose */
	uint8_t opcode;
	uint16_t task;
	uint64_t keywords;
	const char *task_name;
	const char *opcode_name;
	const struct ect_field *fields;
	uint16_t n_fields;
};

struct ect_table {
	const char *manifest;		/* the file it was generated from */
	const struct ect_provider *providers;
	uint16_t n_providers;
	const struct ect_event *events;
	uint32_t n_events;
};

/* --- lookup (event_decode.c) --- */

/* Event by full or USDT provider name and symbol; NULL if none. */
const struct ect_event *ect_find_symbol(const struct ect_table *t,
					const char *provider, const char *symbol);
/* Event by full provider name (case-insensitive), id and version; NULL if none. */
const struct ect_event *ect_find_id(const struct ect_table *t,
				    const char *provider, uint16_t id, uint8_t version);
/* Provider by full name, USDT name or GUID string (case-insensitive). */
const struct ect_provider *ect_find_provider(const struct ect_table *t, const char *name);

/* --- a table loaded at run time (event_table_load.c; links manifest.c, expat) --- */

/*
 * Parse the manifest at path and build its event table in memory, the same
 * table usdt-gen would compile for it (events in manifest order).  Returns
 * 0 and sets *out, or -EINVAL/-ENOENT/-EIO/-ENOMEM with one line in err
 * ("FILE:LINE: problem").  Free with ect_table__free().
 */
int ect_table__load(const char *path, const struct ect_table **out, char *err, size_t err_len);
/* Free a table from ect_table__load(); NULL does nothing.  Never pass a
 * generated (static) table. */
void ect_table__free(const struct ect_table *t);

/* --- payload decoding (event_decode.c) --- */

/*
 * Print the payload as a JSON object {"Field":value,...} to out.
 * Integers and pointers print as JSON numbers (the table keeps no outType),
 * strings as JSON strings (UTF-16 converted to UTF-8), GUIDs in registry
 * format, Binary as hex strings, arrays and structs as JSON arrays.
 * Returns 0, or -EINVAL when the payload is shorter than the layout needs
 * (what could be decoded is printed, then "...": "truncated"), or -E2BIG
 * when bytes remain after the last field (printed as "_extra": N).
 */
int ect_payload_to_json(const struct ect_event *ev, const void *payload, size_t len,
			FILE *out);

/*
 * Size in bytes of a payload laid out for ev, walking counts and strings.
 * Returns the size, or -EINVAL if the payload is shorter than its layout.
 */
long ect_payload_size(const struct ect_event *ev, const void *payload, size_t len);

/*
 * Read one top-level scalar field by name into *out (integers, booleans and
 * pointers zero-extended).  Returns 0, -ENOENT, or -EINVAL.
 */
int ect_payload_get_u64(const struct ect_event *ev, const void *payload, size_t len,
			const char *field, uint64_t *out);

/* Where a top-level field sits in a payload.  fixed_offset: every field
 * before it has a fixed size, so it is at the same offset in every event. */
struct ect_field_loc {
	const struct ect_field *field;
	const uint8_t *p;	/* its bytes (NULL when no payload was given) */
	size_t n;
	size_t offset;
	int fixed_offset;
};

/* Find field in payload (payload NULL: only the description and whether its
 * offset is fixed).  0, -ENOENT (no such field), -EINVAL (payload does not
 * match the layout). */
int ect_payload_field(const struct ect_event *ev, const void *payload, size_t len,
		      const char *field, struct ect_field_loc *loc);

const char *ect_intype_name(enum ect_intype t);	/* "win:UInt32" */

/* Bytes of one fixed-size in-type in the payload, or 0 for strings,
 * Binary and structs (whose size depends on the data or the members). */
static inline size_t ect_intype_size(int t)
{
	switch (t) {
	case ECT_UINT8:
		return 1;
	case ECT_UINT16:
		return 2;
	case ECT_UINT32: case ECT_INT32: case ECT_BOOLEAN:
		return 4;
	case ECT_UINT64: case ECT_INT64: case ECT_DOUBLE: case ECT_POINTER:
		return 8;
	case ECT_GUID:
		return 16;
	default:
		return 0;
	}
}

#endif /* EBPF_COLLECT_EVENT_TABLE_H */
