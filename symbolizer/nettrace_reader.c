// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nettrace_reader.c - tolerant .nettrace reader: the V4 FastSerialization
 * container with V5 metadata tags (what every runtime writes), uncompressed
 * NetPerf-era event headers, and the V6 block format
 * (../shared/docs/nettrace-format.md sections 2-8 and 12).
 *
 * Design
 * ------
 * The file is mapped read-only (or a caller's buffer is used) and walked one
 * FastSerialization object at a time.  A block is only used when it is whole:
 * its BlockSize bytes and the closing EndObject byte must be present.  An
 * EventBlock is decoded completely into a per-block event array (and every
 * check of the format guide's section 8 list applied: known metadata id,
 * stack id defined in the current sequence-point region, events ending
 * exactly at the block end) before the first of its events is handed out, so
 * the caller gets every event of every whole, valid block and then a clean
 * stop with an offset and a reason - never a partial block, never a crash.
 *
 * Stacks are kept as (file offset, size) per id and forgotten at every
 * SPBlock, as TraceEvent does; lost events are counted from gaps in each
 * capture thread's sequence numbers and from SPBlocks listing a higher number
 * than was seen.  Events are delivered in file order (not re-sorted).
 *
 * The manifest-event table is optional: when the caller passes one (and
 * usdt/event_decode.c is linked), metadata records are matched to manifest
 * events by provider name, event id and version.  ect_find_id is declared
 * weak so this library links without the event table.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nettrace.h"
#include "nettrace_internal.h"
#include "event_table.h"

extern const struct ect_event *ect_find_id(const struct ect_table *t, const char *provider,
					   uint16_t id, uint8_t version) __attribute__((weak));

/* ------------------------------------------------------------ UTF-16 */

static uint32_t utf8_next(const unsigned char **ps)
{
	const unsigned char *s = *ps;
	uint32_t c = s[0], min;
	int n, i;

	if (c < 0x80) {
		*ps = s + 1;
		return c;
	}
	if ((c & 0xe0) == 0xc0) {
		n = 1, c &= 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		n = 2, c &= 0x0f, min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		n = 3, c &= 0x07, min = 0x10000;
	} else {
		*ps = s + 1;
		return 0xfffd;
	}
	for (i = 1; i <= n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*ps = s + i;
			return 0xfffd;
		}
		c = c << 6 | (s[i] & 0x3f);
	}
	*ps = s + n + 1;
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0xfffd;
	return c;
}

int nt_buf__utf16(struct nt_buf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str);

	/* at most one UTF-16 unit (2 bytes) per UTF-8 byte, plus the NUL */
	if (nt_buf__reserve(b, 2 * n + 2))
		return -ENOMEM;
	while (*s) {
		uint32_t c = utf8_next(&s);

		if (c >= 0x10000) {
			c -= 0x10000;
			nt_put_u16(b, 0xd800 | (c >> 10));
			nt_put_u16(b, 0xdc00 | (c & 0x3ff));
		} else {
			nt_put_u16(b, c);
		}
	}
	nt_put_u16(b, 0);
	return 0;
}

long nt_utf16_len(const uint8_t *p, const uint8_t *end)
{
	const uint8_t *q;

	for (q = p; q + 1 < end; q += 2)
		if (!q[0] && !q[1])
			return q - p;
	return -1;
}

/* Next code point of UTF-16LE data; *i advances. */
static uint32_t utf16_next(const uint8_t *p, size_t n, size_t *i)
{
	uint32_t c = nt_get_u16(p + *i), d;

	*i += 2;
	if (c >= 0xd800 && c <= 0xdbff && *i + 1 < n) {
		d = nt_get_u16(p + *i);
		if (d >= 0xdc00 && d <= 0xdfff) {
			*i += 2;
			return 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
		}
	}
	if (c >= 0xd800 && c <= 0xdfff)
		return 0xfffd;
	return c;
}

static size_t utf8_put(char *o, uint32_t c)
{
	if (c < 0x80) {
		o[0] = c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = 0xc0 | c >> 6;
		o[1] = 0x80 | (c & 0x3f);
		return 2;
	}
	if (c < 0x10000) {
		o[0] = 0xe0 | c >> 12;
		o[1] = 0x80 | ((c >> 6) & 0x3f);
		o[2] = 0x80 | (c & 0x3f);
		return 3;
	}
	o[0] = 0xf0 | c >> 18;
	o[1] = 0x80 | ((c >> 12) & 0x3f);
	o[2] = 0x80 | ((c >> 6) & 0x3f);
	o[3] = 0x80 | (c & 0x3f);
	return 4;
}

char *nt_utf16_to_utf8(const uint8_t *p, size_t n)
{
	char *s = malloc(n / 2 * 3 + 1), *o = s;
	size_t i = 0;

	if (!s)
		return NULL;
	while (i + 1 < n)
		o += utf8_put(o, utf16_next(p, n, &i));
	*o = 0;
	return s;
}

static void json_cp(FILE *f, uint32_t c)
{
	char u[4];

	switch (c) {
	case '"': fputs("\\\"", f); return;
	case '\\': fputs("\\\\", f); return;
	case '\n': fputs("\\n", f); return;
	case '\r': fputs("\\r", f); return;
	case '\t': fputs("\\t", f); return;
	}
	if (c < 0x20 || c == 0x7f) {
		fprintf(f, "\\u%04x", c);
		return;
	}
	fwrite(u, 1, utf8_put(u, c), f);
}

void nt_json_utf16(FILE *f, const uint8_t *p, size_t n)
{
	size_t i = 0;

	fputc('"', f);
	while (i + 1 < n)
		json_cp(f, utf16_next(p, n, &i));
	fputc('"', f);
}

void nt_json_str(FILE *f, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	fputc('"', f);
	while (*u)
		json_cp(f, utf8_next(&u));
	fputc('"', f);
}

/* ------------------------------------------------------------ reader state */

struct rd_event {
	uint32_t metadata_id;
	uint32_t sequence;
	uint64_t capture_thread_id;
	uint32_t processor;
	uint64_t thread_id;
	uint32_t stack_id;
	uint64_t timestamp;
	uint8_t activity_id[16];
	uint8_t related_activity_id[16];
	uint32_t payload_size;
	uint32_t label_list;	/* V6 */
	int sorted;
	size_t payload_off;
	size_t blob_off;
};

struct rd_stack {
	size_t off;
	uint32_t bytes;
};

enum { RD_OBJECTS, RD_DONE, RD_ERROR };

struct nt_reader {
	const uint8_t *data;
	size_t size;
	void *map;		/* mmap'ed file, or NULL */
	uint8_t *copy;		/* read() fallback; the stream's bytes in stream mode */
	size_t copy_cap;
	size_t pos;
	int state;
	int streaming;		/* more bytes may come (nt_reader__feed) */
	int header_done;	/* stream mode: the trace header has been parsed */
	uint64_t base;		/* stream offset of data[0] (bytes compacted away) */
	struct nt_trace_info info;
	const struct ect_table *table;

	struct nt_metadata **metas;	/* by index; map id -> index */
	size_t n_metas, cap_metas;
	struct nt_map meta_ids;

	struct rd_stack *stacks;	/* current SP region; map id -> index */
	size_t n_stacks, cap_stacks;
	struct nt_map stack_ids;

	struct nt_map threads;		/* capture thread -> last sequence seen */
	uint64_t lost;

	int v6;				/* NetTrace V6 block container */
	struct nt_map v6_threads;	/* V6 thread index -> OS thread id + 1 */

	/* the current (validated) EventBlock, decoded again event by event */
	const uint8_t *blk_p, *blk_end;
	struct rd_event blk_prev;
	int blk_mode;
	uint64_t *stack_buf;
	size_t stack_cap;

	char err[256];
	uint64_t err_off;
};

static int rd_fail(struct nt_reader *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rd_fail(struct nt_reader *r, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	off += r->base;
	n = snprintf(r->err, sizeof(r->err), "offset %" PRIu64 ": ", off);
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof(r->err) - n, fmt, ap);
	va_end(ap);
	r->err_off = off;
	r->state = RD_ERROR;
	return -1;
}

/* ------------------------------------------------------------ metadata */

static void fields_free(struct nt_field_desc *f, uint32_t n)
{
	if (!f)
		return;
	for (uint32_t i = 0; i < n; i++) {
		free((char *)f[i].name);
		fields_free((struct nt_field_desc *)f[i].members, f[i].n_members);
	}
	free(f);
}

static void metadata_free(struct nt_metadata *m)
{
	if (!m)
		return;
	free(m->provider);
	free(m->name);
	fields_free(m->fields, m->n_fields);
	free(m);
}

struct cur {
	const uint8_t *p, *end;
	long budget;		/* payload decoding: values left to visit */
};

static int cur_u32(struct cur *c, uint32_t *v)
{
	if (c->end - c->p < 4)
		return -1;
	*v = nt_get_u32(c->p);
	c->p += 4;
	return 0;
}

/* UTF-16 NUL-terminated string -> malloc'ed UTF-8 */
static int cur_str(struct cur *c, char **out)
{
	long n = nt_utf16_len(c->p, c->end);

	if (n < 0)
		return -1;
	*out = nt_utf16_to_utf8(c->p, n);
	if (!*out)
		return -1;
	c->p += n + 2;
	return 0;
}

static int known_type(uint32_t t)
{
	return t == NT_TYPE_OBJECT || (t >= NT_TYPE_BOOLEAN && t <= NT_TYPE_ARRAY);
}

static int parse_fields_v1(struct cur *c, uint32_t n, struct nt_field_desc **out, int depth);
static int parse_fields_v2(struct cur *c, uint32_t n, struct nt_field_desc **out, int depth);

static int parse_count(struct cur *c, uint32_t *n)
{
	/* each descriptor takes at least 4 bytes: bound the allocation */
	if (cur_u32(c, n) || *n > (size_t)(c->end - c->p) / 4)
		return -1;
	return 0;
}

/* V1: int32 type, [int32 count + fields if Object], name */
static int parse_fields_v1(struct cur *c, uint32_t n, struct nt_field_desc **out, int depth)
{
	struct nt_field_desc *f;
	uint32_t i;

	*out = NULL;
	if (depth > NT_MAX_FIELD_DEPTH)
		return -1;
	if (!n)
		return 0;
	f = calloc(n, sizeof(*f));
	if (!f)
		return -1;
	for (i = 0; i < n; i++) {
		struct nt_field_desc *m = NULL;
		char *name = NULL;

		if (cur_u32(c, &f[i].type) || !known_type(f[i].type) || f[i].type == NT_TYPE_ARRAY)
			goto fail;
		if (f[i].type == NT_TYPE_OBJECT) {
			if (parse_count(c, &f[i].n_members) ||
			    parse_fields_v1(c, f[i].n_members, &m, depth + 1))
				goto fail;
			f[i].members = m;
		}
		if (cur_str(c, &name))
			goto fail;
		f[i].name = name;
	}
	*out = f;
	return 0;
fail:
	fields_free(f, n);
	return -1;
}

/* V2 type: code, then element type (arrays) or member list (objects) */
static int parse_type_v2(struct cur *c, struct nt_field_desc *f, int is_elem, int depth)
{
	struct nt_field_desc *m = NULL;
	uint32_t t;

	if (depth > NT_MAX_FIELD_DEPTH || cur_u32(c, &t) || !known_type(t))
		return -1;
	if (is_elem)
		f->elem_type = t;
	else
		f->type = t;
	if (t == NT_TYPE_ARRAY) {
		if (is_elem)
			return -1;	/* arrays of arrays are not representable */
		return parse_type_v2(c, f, 1, depth + 1);
	}
	if (t == NT_TYPE_OBJECT) {
		if (parse_count(c, &f->n_members) ||
		    parse_fields_v2(c, f->n_members, &m, depth + 1))
			return -1;
		f->members = m;
	}
	return 0;
}

/* V2: int32 size (including itself), name, type; then skip to start + size */
static int parse_fields_v2(struct cur *c, uint32_t n, struct nt_field_desc **out, int depth)
{
	struct nt_field_desc *f;
	uint32_t i;

	*out = NULL;
	if (depth > NT_MAX_FIELD_DEPTH)
		return -1;
	if (!n)
		return 0;
	f = calloc(n, sizeof(*f));
	if (!f)
		return -1;
	for (i = 0; i < n; i++) {
		const uint8_t *start = c->p;
		uint32_t size;
		char *name = NULL;

		if (cur_u32(c, &size) || size < 4 || size > (size_t)(c->end - start))
			goto fail;
		if (cur_str(c, &name))
			goto fail;
		f[i].name = name;
		if (parse_type_v2(c, &f[i], 0, depth))
			goto fail;
		if (c->p > start + size)
			goto fail;
		c->p = start + size;
	}
	*out = f;
	return 0;
fail:
	fields_free(f, n);
	return -1;
}

/*
 * Metadata payload (guide section 5).  The fixed part must parse (else the
 * file is corrupt); a field list or tag that does not parse leaves the event
 * without fields, as TraceEvent does.
 */
static int add_metadata(struct nt_reader *r, struct nt_metadata *m, uint64_t off);

static int parse_metadata(struct nt_reader *r, const uint8_t *p, uint32_t len, uint64_t off)
{
	struct cur c = { p, p + len, 0 };
	struct nt_metadata *m;
	uint32_t id, n;

	m = calloc(1, sizeof(*m));
	if (!m)
		return rd_fail(r, off, "out of memory");
	if (cur_u32(&c, &id) || cur_str(&c, &m->provider) || cur_u32(&c, &m->event_id) ||
	    cur_str(&c, &m->name) || c.end - c.p < 16) {
		metadata_free(m);
		return rd_fail(r, off, "metadata record too short (%u bytes)", len);
	}
	m->id = id;
	m->keywords = nt_get_u64(c.p);
	m->version = nt_get_u32(c.p + 8);
	m->level = nt_get_u32(c.p + 12);
	c.p += 16;
	if (c.end - c.p >= 4) {
		struct cur save;

		cur_u32(&c, &n);
		save = c;
		if (n > (size_t)(c.end - c.p) / 4 || parse_fields_v1(&c, n, &m->fields, 0)) {
			c = save;
			c.p = c.end;	/* unparseable: no fields, no tags */
		} else {
			m->n_fields = n;
		}
	}
	while (c.end - c.p >= 5) {
		uint32_t tlen = nt_get_u32(c.p);
		uint8_t kind = c.p[4];
		struct cur t = { 0 };

		c.p += 5;
		if (tlen > (size_t)(c.end - c.p))
			break;
		t.p = c.p;
		t.end = c.p + tlen;
		c.p += tlen;
		if (kind == NT_META_TAG_OPCODE && tlen >= 1) {
			m->opcode = t.p[0];
		} else if (kind == NT_META_TAG_V2PARAMS) {
			struct nt_field_desc *f = NULL;

			if (parse_count(&t, &n) || parse_fields_v2(&t, n, &f, 0))
				continue;
			fields_free(m->fields, m->n_fields);
			m->fields = f;
			m->n_fields = n;
		}
	}
	return add_metadata(r, m, off);
}

/* Register a parsed metadata record (takes ownership of m). */
static int add_metadata(struct nt_reader *r, struct nt_metadata *m, uint64_t off)
{
	struct nt_map_ent *e;
	uint32_t id = m->id;

	if (!id) {
		metadata_free(m);
		return rd_fail(r, off, "metadata record defines id 0");
	}
	if (nt_map__find(&r->meta_ids, id)) {
		metadata_free(m);
		return rd_fail(r, off, "metadata id %u defined twice", id);
	}
	if (r->table && ect_find_id && m->provider[0])
		m->manifest = ect_find_id(r->table, m->provider, m->event_id, m->version);
	if (r->n_metas == r->cap_metas) {
		size_t ncap = r->cap_metas ? r->cap_metas * 2 : 64;
		struct nt_metadata **nm = realloc(r->metas, ncap * sizeof(*nm));

		if (!nm) {
			metadata_free(m);
			return rd_fail(r, off, "out of memory");
		}
		r->metas = nm;
		r->cap_metas = ncap;
	}
	if (nt_map__get(&r->meta_ids, id, &e)) {
		metadata_free(m);
		return rd_fail(r, off, "out of memory");
	}
	e->val = r->n_metas;
	r->metas[r->n_metas++] = m;
	return 0;
}

/* ------------------------------------------------------------ event blobs */

/* decode_blob modes */
enum { BLOB_UNCOMPRESSED, BLOB_V5, BLOB_V6 };

/*
 * Decode one blob header at *pp (compressed: guide 4.2 - in V6 flag 0x10 is
 * a label-list id and 0x20 is unused - else 4.3) into ev, using and updating
 * prev.  Returns 0 or -1 with a static reason in *why.
 */
static int decode_blob(const uint8_t **pp, const uint8_t *end, const uint8_t *base,
		       int mode, struct rd_event *ev, struct rd_event *prev,
		       const char **why)
{
	const uint8_t *p = *pp;
	uint64_t v;
	size_t n;

#define VARINT(max, dst) do {						\
		n = nt_get_varint(p, end, (max), &v);			\
		if (!n) { *why = "bad or truncated varint in event header"; return -1; } \
		p += n; (dst) = v;					\
	} while (0)

	if (mode == BLOB_UNCOMPRESSED) {
		if (end - p < 4 + 4 + 4 + 8 + 8 + 4 + 4 + 8 + 32 + 4) {
			*why = "uncompressed event header truncated";
			return -1;
		}
		uint32_t id = nt_get_u32(p + 4);

		memset(ev, 0, sizeof(*ev));
		ev->metadata_id = id & 0x7fffffff;
		ev->sorted = !(id & 0x80000000u);
		ev->sequence = nt_get_u32(p + 8);
		ev->thread_id = nt_get_u64(p + 12);
		ev->capture_thread_id = nt_get_u64(p + 20);
		ev->processor = nt_get_u32(p + 28);
		ev->stack_id = nt_get_u32(p + 32);
		ev->timestamp = nt_get_u64(p + 36);
		memcpy(ev->activity_id, p + 44, 16);
		memcpy(ev->related_activity_id, p + 60, 16);
		ev->payload_size = nt_get_u32(p + 76);
		p += 80;
		if (ev->payload_size > (size_t)(end - p)) {
			*why = "event payload runs past the end of its block";
			return -1;
		}
		ev->payload_off = p - base;
		p += ev->payload_size;
		/* blobs are 4-byte aligned (block content starts aligned) */
		while ((p - base) % 4 && p < end)
			p++;
		*pp = p;
		return 0;
	}

	uint8_t flags = *p++;

	*ev = *prev;
	if (flags & NT_F_METADATA_ID)
		VARINT(5, ev->metadata_id);
	if (flags & NT_F_CAPTURE) {
		uint32_t d;

		VARINT(5, d);
		ev->sequence = prev->sequence + d + 1;
		VARINT(10, ev->capture_thread_id);
		VARINT(5, ev->processor);
	} else if (ev->metadata_id) {
		ev->sequence = prev->sequence + 1;
	}
	if (flags & NT_F_THREAD_ID)
		VARINT(10, ev->thread_id);
	if (flags & NT_F_STACK_ID)
		VARINT(5, ev->stack_id);
	VARINT(10, v);
	ev->timestamp = prev->timestamp + v;
	if (mode == BLOB_V6) {
		if (flags & NT_F_ACTIVITY_ID)
			VARINT(5, ev->label_list);
	} else if (flags & NT_F_ACTIVITY_ID) {
		if (end - p < 16)
			goto short_hdr;
		memcpy(ev->activity_id, p, 16);
		p += 16;
	}
	if (mode != BLOB_V6 && (flags & NT_F_RELATED_ID)) {
		if (end - p < 16)
			goto short_hdr;
		memcpy(ev->related_activity_id, p, 16);
		p += 16;
	}
	ev->sorted = !!(flags & NT_F_SORTED);
	if (flags & NT_F_PAYLOAD_SIZE)
		VARINT(5, ev->payload_size);
	if (ev->payload_size > (size_t)(end - p)) {
		*why = "event payload runs past the end of its block";
		return -1;
	}
	ev->payload_off = p - base;
	p += ev->payload_size;
	*prev = *ev;
	*pp = p;
	return 0;
short_hdr:
	*why = "event header truncated";
	return -1;
#undef VARINT
}

/* Common block header of Event/Metadata blocks; sets *first and *mode. */
static int block_header(struct nt_reader *r, size_t start, size_t len, size_t *first,
			int *mode)
{
	uint16_t hsize, flags;

	if (len < NT_BLOCK_HEADER_SIZE)
		return rd_fail(r, start, "block of %zu bytes is shorter than its header", len);
	hsize = nt_get_u16(r->data + start);
	flags = nt_get_u16(r->data + start + 2);
	if (hsize < NT_BLOCK_HEADER_SIZE || hsize > len)
		return rd_fail(r, start, "bad block header size %u", hsize);
	*first = start + hsize;
	*mode = !(flags & 1) ? BLOB_UNCOMPRESSED : r->v6 ? BLOB_V6 : BLOB_V5;
	if (r->v6 && *mode == BLOB_UNCOMPRESSED)
		return rd_fail(r, start, "V6 EventBlock without header compression");
	return 0;
}

static int read_metadata_block(struct nt_reader *r, size_t start, size_t len)
{
	const uint8_t *p, *end = r->data + start + len;
	struct rd_event prev, ev;
	const char *why;
	size_t first;
	int mode;

	if (block_header(r, start, len, &first, &mode))
		return -1;
	memset(&prev, 0, sizeof(prev));
	for (p = r->data + first; p < end;) {
		size_t blob = p - r->data;

		if (decode_blob(&p, end, r->data, mode, &ev, &prev, &why))
			return rd_fail(r, blob, "MetadataBlock: %s", why);
		if (parse_metadata(r, r->data + ev.payload_off, ev.payload_size, blob))
			return -1;
	}
	return 0;
}

static int read_stack_block(struct nt_reader *r, size_t start, size_t len)
{
	const uint8_t *p = r->data + start, *end = p + len;
	uint32_t first_id, count, psize = r->info.pointer_size;
	struct nt_map_ent *e;

	if (len < 8)
		return rd_fail(r, start, "StackBlock of %zu bytes is shorter than its header", len);
	first_id = nt_get_u32(p);
	count = nt_get_u32(p + 4);
	p += 8;
	if (count > len / 4)
		return rd_fail(r, start, "StackBlock claims %u stacks in %zu bytes", count, len);
	for (uint32_t i = 0; i < count; i++) {
		uint32_t bytes, id = first_id + i;
		size_t off = p - r->data;

		if (end - p < 4)
			return rd_fail(r, off, "StackBlock ends inside stack %u", id);
		bytes = nt_get_u32(p);
		p += 4;
		if (bytes > (size_t)(end - p))
			return rd_fail(r, off, "stack %u (%u bytes) runs past the block end",
				       id, bytes);
		if (bytes % psize)
			return rd_fail(r, off, "stack %u size %u is not a multiple of %u",
				       id, bytes, psize);
		if (!id || (i && id == 0))
			return rd_fail(r, off, "stack id 0 defined");
		if (nt_map__find(&r->stack_ids, id))
			return rd_fail(r, off,
				       "stack id %u defined twice in one sequence-point region", id);
		if (r->n_stacks == r->cap_stacks) {
			size_t ncap = r->cap_stacks ? r->cap_stacks * 2 : 256;
			struct rd_stack *ns = realloc(r->stacks, ncap * sizeof(*ns));

			if (!ns)
				return rd_fail(r, off, "out of memory");
			r->stacks = ns;
			r->cap_stacks = ncap;
		}
		if (nt_map__get(&r->stack_ids, id, &e))
			return rd_fail(r, off, "out of memory");
		e->val = r->n_stacks;
		r->stacks[r->n_stacks].off = p - r->data;
		r->stacks[r->n_stacks].bytes = bytes;
		r->n_stacks++;
		p += bytes;
	}
	if (p != end)
		return rd_fail(r, p - r->data, "StackBlock has %zu bytes after its last stack",
				(size_t)(end - p));
	return 0;
}

/* Count sequence gaps of one capture thread up to seq. */
static void note_sequence(struct nt_reader *r, uint64_t thread, uint32_t seq, int from_sp)
{
	struct nt_map_ent *e;
	uint32_t last, gap;

	if (nt_map__get(&r->threads, thread, &e))
		return;
	last = (uint32_t)e->val;
	gap = seq - last - (from_sp ? 0 : 1);
	/* a "gap" of more than 2^31 is a reordering, not a loss */
	if (seq != last && gap < 0x80000000u) {
		r->lost += gap;
		e->val = seq;
	}
}

static int read_sp_block(struct nt_reader *r, size_t start, size_t len)
{
	const uint8_t *p = r->data + start;
	uint32_t count;

	if (len < 12)
		return rd_fail(r, start, "SPBlock of %zu bytes is shorter than its header", len);
	count = nt_get_u32(p + 8);
	if (count > (len - 12) / 12 || len != 12 + (size_t)count * 12)
		return rd_fail(r, start, "SPBlock of %zu bytes cannot hold %u threads", len, count);
	for (uint32_t i = 0; i < count; i++)
		note_sequence(r, nt_get_u64(p + 12 + 12 * i), nt_get_u32(p + 20 + 12 * i), 1);
	nt_map__clear(&r->stack_ids);
	r->n_stacks = 0;
	return 0;
}

/*
 * Validate a whole EventBlock (every header decodes, references defined
 * metadata and stacks, the last event ends exactly at the block end) without
 * storing anything; nt_reader__next then decodes it again one event at a
 * time, so memory does not depend on the block size.
 */
static int read_event_block(struct nt_reader *r, size_t start, size_t len)
{
	const uint8_t *p, *end = r->data + start + len;
	struct rd_event prev, ev;
	const char *why;
	size_t first;
	int mode;

	if (block_header(r, start, len, &first, &mode))
		return -1;
	memset(&prev, 0, sizeof(prev));
	for (p = r->data + first; p < end;) {
		size_t blob = p - r->data;

		if (decode_blob(&p, end, r->data, mode, &ev, &prev, &why))
			return rd_fail(r, blob, "EventBlock: %s", why);
		if (!nt_map__find(&r->meta_ids, ev.metadata_id))
			return rd_fail(r, blob, "event uses undefined metadata id %u",
				       ev.metadata_id);
		if (ev.stack_id && !nt_map__find(&r->stack_ids, ev.stack_id))
			return rd_fail(r, blob, "event uses stack id %u, not defined since the "
				       "last sequence point", ev.stack_id);
		if (r->v6 && (!nt_map__find(&r->v6_threads, ev.thread_id) ||
			      !nt_map__find(&r->v6_threads, ev.capture_thread_id)))
			return rd_fail(r, blob, "event uses thread index %" PRIu64 "/%" PRIu64
				       " not defined by a Thread block", ev.thread_id,
				       ev.capture_thread_id);
	}
	r->blk_p = r->data + first;
	r->blk_end = end;
	r->blk_mode = mode;
	memset(&r->blk_prev, 0, sizeof(r->blk_prev));
	return 0;
}

/* ------------------------------------------------------------ objects */

static const char magic[8] = { 'N', 'e', 't', 't', 'r', 'a', 'c', 'e' };
static const char fs_sig[] = "!FastSerialization.1";

/*
 * Object header: 05 05 01 int32 version int32 minVersion int32 len name 06.
 * Fills name (NUL-terminated, <= 38 chars) and version.
 */
static int read_object_header(struct nt_reader *r, size_t *pos, char *name, uint32_t *version)
{
	const uint8_t *p = r->data + *pos;
	size_t avail = r->size - *pos, nlen;
	uint32_t minv;

	if (avail < 16)
		return rd_fail(r, *pos, "file ends inside an object header (%zu bytes left)", avail);
	if (p[0] != NT_TAG_BEGIN_PRIVATE || p[1] != NT_TAG_BEGIN_PRIVATE || p[2] != NT_TAG_NULL)
		return rd_fail(r, *pos, "expected object start 05 05 01, found %02x %02x %02x",
			       p[0], p[1], p[2]);
	*version = nt_get_u32(p + 3);
	minv = nt_get_u32(p + 7);
	nlen = nt_get_u32(p + 11);
	if (nlen > 38)
		return rd_fail(r, *pos, "object type name length %zu is too long", nlen);
	if (avail < 15 + nlen + 1)
		return rd_fail(r, *pos, "file ends inside an object header (%zu bytes left)", avail);
	memcpy(name, p + 15, nlen);
	name[nlen] = 0;
	if (p[15 + nlen] != NT_TAG_END)
		return rd_fail(r, *pos + 15 + nlen, "object type \"%s\" not closed by 06", name);
	if (minv > *version)
		return rd_fail(r, *pos, "object \"%s\" version %u < minimum reader version %u",
			       name, *version, minv);
	*pos += 16 + nlen;
	return 0;
}

static int read_v6_header(struct nt_reader *r);
static int read_block_v6(struct nt_reader *r);

static int read_trace_header(struct nt_reader *r)
{
	const uint8_t *p;
	char name[40];
	uint32_t version;
	size_t pos = 32;

	if (r->size < 8 || memcmp(r->data, magic, 8))
		return rd_fail(r, 0, "not a NetTrace file (no \"Nettrace\" magic)");
	if (r->size >= 12 && nt_get_u32(r->data + 8) == 0)
		return read_v6_header(r);
	if (r->size < 32)
		return rd_fail(r, 8, "file ends inside the stream header");
	if (nt_get_u32(r->data + 8) != 20 || memcmp(r->data + 12, fs_sig, 20))
		return rd_fail(r, 8, "bad FastSerialization header");
	if (read_object_header(r, &pos, name, &version))
		return -1;
	if (strcmp(name, "Trace"))
		return rd_fail(r, 32, "first object is \"%s\", not Trace", name);
	if (version != 4)
		return rd_fail(r, 32, "Trace object version %u (only 4 is defined)", version);
	if (r->size - pos < 49)
		return rd_fail(r, pos, "file ends inside the Trace object");
	p = r->data + pos;
	if (p[48] != NT_TAG_END)
		return rd_fail(r, pos + 48, "Trace object not closed by 06");
	{
		struct tm tm = { 0 };

		tm.tm_year = nt_get_u16(p) - 1900;
		tm.tm_mon = nt_get_u16(p + 2) - 1;
		tm.tm_mday = nt_get_u16(p + 6);
		tm.tm_hour = nt_get_u16(p + 8);
		tm.tm_min = nt_get_u16(p + 10);
		tm.tm_sec = nt_get_u16(p + 12);
		r->info.sync_utc.tv_sec = timegm(&tm);
		r->info.sync_utc.tv_nsec = (long)(nt_get_u16(p + 14) % 1000) * 1000000;
	}
	r->info.sync_ts = nt_get_u64(p + 16);
	r->info.freq = nt_get_u64(p + 24);
	r->info.pointer_size = nt_get_u32(p + 32);
	r->info.pid = nt_get_u32(p + 36);
	r->info.ncpu = nt_get_u32(p + 40);
	r->info.sampling_interval_ns = nt_get_u32(p + 44);
	if (r->info.pointer_size != 4 && r->info.pointer_size != 8)
		return rd_fail(r, pos + 32, "pointer size %u (expected 4 or 8)",
			       r->info.pointer_size);
	r->pos = pos + 49;
	return 0;
}

/* Read and check the next object; an EventBlock becomes the current block. */
static int read_object(struct nt_reader *r)
{
	size_t start = r->pos, pos = r->pos, content, len;
	char name[40];
	uint32_t version;
	int err;

	if (pos >= r->size)
		return rd_fail(r, pos, "file ends without the end-of-stream marker");
	if (r->data[pos] == NT_TAG_NULL) {
		if (pos + 1 != r->size)
			return rd_fail(r, pos + 1, "%zu bytes after the end-of-stream marker",
				       r->size - pos - 1);
		r->pos = r->size;
		r->state = RD_DONE;
		return 0;
	}
	if (read_object_header(r, &pos, name, &version))
		return -1;
	if (strcmp(name, "EventBlock") && strcmp(name, "MetadataBlock") &&
	    strcmp(name, "StackBlock") && strcmp(name, "SPBlock"))
		return rd_fail(r, start, "unknown object type \"%s\"", name);
	if (version > 2)
		return rd_fail(r, start, "%s version %u (at most 2 is defined)", name, version);
	if (r->size - pos < 4)
		return rd_fail(r, start, "file ends inside the %s size (file size %zu)", name,
			       r->size);
	len = nt_get_u32(r->data + pos);
	content = pos + 4;
	content += (4 - content % 4) % 4;
	if (content > r->size || len > r->size - content || r->size - content - len < 1)
		return rd_fail(r, start, "%s claims %zu bytes of content, the file has %zu "
			       "(file ends at %zu)", name, len,
			       content > r->size ? (size_t)0 : r->size - content, r->size);
	for (size_t i = pos + 4; i < content; i++)
		if (r->data[i])
			return rd_fail(r, i, "non-zero padding byte in %s", name);
	if (r->data[content + len] != NT_TAG_END)
		return rd_fail(r, content + len, "%s not closed by 06 (found %02x)", name,
			       r->data[content + len]);
	if (!strcmp(name, "EventBlock"))
		err = read_event_block(r, content, len);
	else if (!strcmp(name, "MetadataBlock"))
		err = read_metadata_block(r, content, len);
	else if (!strcmp(name, "StackBlock"))
		err = read_stack_block(r, content, len);
	else
		err = read_sp_block(r, content, len);
	if (err)
		return -1;
	r->pos = content + len + 1;
	return 0;
}

/* ------------------------------------------------------------ V6 */

/*
 * NetTrace V6 (guide section 12): "Nettrace", uint32 0, uint32 major 6,
 * uint32 minor, then blocks of uint32 (size | kind << 24) + content, no
 * padding.  Threads are indexes defined by Thread blocks; metadata rows are
 * UTF-8 with optional properties; flag 0x10 of an event header is a label
 * list id (labels are accepted and ignored).
 */
enum {
	V6_END = 0, V6_TRACE, V6_EVENT, V6_METADATA, V6_SP, V6_STACK, V6_THREAD,
	V6_REMOVE_THREAD, V6_LABEL_LIST,
};

static int cur_varint(struct cur *c, int max, uint64_t *v)
{
	size_t n = nt_get_varint(c->p, c->end, max, v);

	if (!n)
		return -1;
	c->p += n;
	return 0;
}

/* V6 string: varuint32 byte count + UTF-8 -> malloc'ed C string */
static int cur_str6(struct cur *c, char **out)
{
	uint64_t n;

	if (cur_varint(c, 5, &n) || n > (size_t)(c->end - c->p))
		return -1;
	*out = strndup((const char *)c->p, n);
	if (!*out)
		return -1;
	c->p += n;
	return 0;
}

static int skip_str6(struct cur *c)
{
	char *s = NULL;
	int err = cur_str6(c, &s);

	free(s);
	return err;
}

static int cur_u16(struct cur *c, uint16_t *v)
{
	if (c->end - c->p < 2)
		return -1;
	*v = nt_get_u16(c->p);
	c->p += 2;
	return 0;
}

static int known_type_v6(uint32_t t)
{
	return t == NT_TYPE_OBJECT || (t >= NT_TYPE_BOOLEAN && t <= NT_TYPE_BOOLEAN8 &&
				       t != 22 && t != 24 && t != 25);
}

static int parse_fields_v6(struct cur *c, struct nt_field_desc **out, uint32_t *n_out,
			   int depth);

/* Type := code [element Type] [member list for objects]; FixedLengthArray,
 * RelLoc and DataLoc are not decoded (the event then has no fields). */
static int parse_type_v6(struct cur *c, struct nt_field_desc *f, int is_elem, int depth)
{
	uint32_t t;

	if (depth > NT_MAX_FIELD_DEPTH || c->p >= c->end)
		return -1;
	t = *c->p++;
	if (!known_type_v6(t))
		return -1;
	if (is_elem)
		f->elem_type = t;
	else
		f->type = t;
	if (t == NT_TYPE_ARRAY)
		return is_elem ? -1 : parse_type_v6(c, f, 1, depth + 1);
	if (t == NT_TYPE_OBJECT) {
		struct nt_field_desc *m = NULL;

		if (parse_fields_v6(c, &m, &f->n_members, depth + 1))
			return -1;
		f->members = m;
	}
	return 0;
}

/* uint16 count, then per field: uint16 size (excl. itself), name, Type */
static int parse_fields_v6(struct cur *c, struct nt_field_desc **out, uint32_t *n_out,
			   int depth)
{
	struct nt_field_desc *f;
	uint16_t n, i;

	*out = NULL;
	*n_out = 0;
	if (depth > NT_MAX_FIELD_DEPTH || cur_u16(c, &n) || n > (c->end - c->p) / 2)
		return -1;
	if (!n)
		return 0;
	f = calloc(n, sizeof(*f));
	if (!f)
		return -1;
	for (i = 0; i < n; i++) {
		uint16_t size;
		struct cur fc;
		char *name = NULL;

		if (cur_u16(c, &size) || size > c->end - c->p)
			goto fail;
		fc.p = c->p;
		fc.end = c->p + size;
		fc.budget = 0;
		c->p += size;
		if (cur_str6(&fc, &name))
			goto fail;
		f[i].name = name;
		if (parse_type_v6(&fc, &f[i], 0, depth))
			goto fail;
	}
	*out = f;
	*n_out = n;
	return 0;
fail:
	fields_free(f, n);
	return -1;
}

/* Optional metadata items; an unknown kind ends the list (TraceEvent throws). */
static void parse_optional_v6(struct cur *c, struct nt_metadata *m)
{
	while (c->p < c->end) {
		uint8_t kind = *c->p++;

		switch (kind) {
		case 1:		/* OpCode */
		case 8:		/* Level */
		case 9:		/* Version */
			if (c->p >= c->end)
				return;
			if (kind == 1)
				m->opcode = *c->p;
			else if (kind == 8)
				m->level = *c->p;
			else
				m->version = *c->p;
			c->p++;
			break;
		case 3:		/* Keywords */
			if (c->end - c->p < 8)
				return;
			m->keywords = nt_get_u64(c->p);
			c->p += 8;
			break;
		case 4:		/* MessageTemplate */
		case 5:		/* Description */
			if (skip_str6(c))
				return;
			break;
		case 6:		/* KeyValue */
			if (skip_str6(c) || skip_str6(c))
				return;
			break;
		case 7:		/* ProviderGuid */
			if (c->end - c->p < 16)
				return;
			c->p += 16;
			break;
		default:
			return;
		}
	}
}

static int read_v6_metadata(struct nt_reader *r, size_t start, size_t len)
{
	struct cur c = { r->data + start, r->data + start + len, 0 };
	uint16_t hsize;

	if (cur_u16(&c, &hsize) || hsize > c.end - c.p)
		return rd_fail(r, start, "bad V6 metadata block header");
	c.p += hsize;
	while (c.p < c.end) {
		size_t off = c.p - r->data;
		struct cur row, f;
		struct nt_metadata *m;
		uint16_t rsize, osize;
		uint64_t id, eid;

		if (cur_u16(&c, &rsize) || rsize > c.end - c.p)
			return rd_fail(r, off, "metadata row runs past the block end");
		row.p = c.p;
		row.end = c.p + rsize;
		row.budget = 0;
		c.p += rsize;
		m = calloc(1, sizeof(*m));
		if (!m)
			return rd_fail(r, off, "out of memory");
		if (cur_varint(&row, 5, &id) || cur_str6(&row, &m->provider) ||
		    cur_varint(&row, 5, &eid) || cur_str6(&row, &m->name)) {
			metadata_free(m);
			return rd_fail(r, off, "metadata row too short");
		}
		m->id = id;
		m->event_id = eid;
		f = row;
		if (parse_fields_v6(&row, &m->fields, &m->n_fields, 0)) {
			/* undecodable field list: no fields, and skip it */
			uint16_t n = 0, k;

			row = f;
			m->fields = NULL;
			m->n_fields = 0;
			if (cur_u16(&row, &n))
				row.p = row.end;
			for (k = 0; k < n && row.p < row.end; k++) {
				uint16_t fs;

				if (cur_u16(&row, &fs) || fs > row.end - row.p)
					row.p = row.end;
				else
					row.p += fs;
			}
		}
		if (!cur_u16(&row, &osize) && osize <= row.end - row.p) {
			struct cur o = { row.p, row.p + osize, 0 };

			parse_optional_v6(&o, m);
		}
		if (add_metadata(r, m, off))
			return -1;
	}
	return 0;
}

static int read_v6_trace(struct nt_reader *r, size_t start, size_t len)
{
	const uint8_t *p = r->data + start;
	struct cur c = { p + 40, p + len, 0 };
	struct tm tm = { 0 };
	uint32_t count;

	/* SYSTEMTIME 16, ticks 8, frequency 8, pointer size 4, key/value count 4 */
	if (len < 40)
		return rd_fail(r, start, "V6 Trace block of %zu bytes is too short", len);
	tm.tm_year = nt_get_u16(p) - 1900;
	tm.tm_mon = nt_get_u16(p + 2) - 1;
	tm.tm_mday = nt_get_u16(p + 6);
	tm.tm_hour = nt_get_u16(p + 8);
	tm.tm_min = nt_get_u16(p + 10);
	tm.tm_sec = nt_get_u16(p + 12);
	r->info.sync_utc.tv_sec = timegm(&tm);
	r->info.sync_utc.tv_nsec = (long)(nt_get_u16(p + 14) % 1000) * 1000000;
	r->info.sync_ts = nt_get_u64(p + 16);
	r->info.freq = nt_get_u64(p + 24);
	r->info.pointer_size = nt_get_u32(p + 32);
	count = nt_get_u32(p + 36);
	if (r->info.pointer_size != 4 && r->info.pointer_size != 8)
		return rd_fail(r, start + 32, "pointer size %u (expected 4 or 8)",
			       r->info.pointer_size);
	for (uint32_t i = 0; i < count; i++) {
		char *k = NULL, *v = NULL;

		if (cur_str6(&c, &k) || cur_str6(&c, &v)) {
			free(k);
			return rd_fail(r, start, "V6 Trace block: key/value %u truncated", i);
		}
		if (!strcmp(k, "ProcessId"))
			r->info.pid = strtoul(v, NULL, 10);
		else if (!strcmp(k, "HardwareThreadCount"))
			r->info.ncpu = strtoul(v, NULL, 10);
		else if (!strcmp(k, "ExpectedCPUSamplingRate"))
			r->info.sampling_interval_ns = strtoul(v, NULL, 10);
		free(k);
		free(v);
	}
	return 0;
}

static int read_v6_thread(struct nt_reader *r, size_t start, size_t len)
{
	struct cur c = { r->data + start, r->data + start + len, 0 };

	while (c.p < c.end) {
		size_t off = c.p - r->data;
		struct nt_map_ent *e;
		uint64_t index, v, tid = 0;
		uint16_t rsize;
		struct cur row;

		if (cur_u16(&c, &rsize) || rsize > c.end - c.p)
			return rd_fail(r, off, "thread row runs past the block end");
		row.p = c.p;
		row.end = c.p + rsize;
		row.budget = 0;
		c.p += rsize;
		if (cur_varint(&row, 10, &index))
			return rd_fail(r, off, "thread row without an index");
		while (row.p < row.end) {
			uint8_t kind = *row.p++;
			int bad;

			switch (kind) {
			case 1: bad = skip_str6(&row); break;
			case 2: bad = cur_varint(&row, 10, &v); break;
			case 3: bad = cur_varint(&row, 10, &tid); break;
			case 4: bad = skip_str6(&row) || skip_str6(&row); break;
			default:
				return rd_fail(r, off, "unknown thread info kind %u", kind);
			}
			if (bad)
				return rd_fail(r, off, "thread row item %u truncated", kind);
		}
		if (nt_map__find(&r->v6_threads, index))
			return rd_fail(r, off, "thread index %" PRIu64 " defined twice", index);
		if (nt_map__get(&r->v6_threads, index, &e))
			return rd_fail(r, off, "out of memory");
		e->val = tid + 1;
	}
	return 0;
}

/* Forget a thread index (RemoveThread, or SP flag 1 for all). */
static void v6_forget_thread(struct nt_map *m, uint64_t index)
{
	struct nt_map copy = { 0 };
	struct nt_map_ent *e;

	/* open addressing without tombstones: rebuild without the entry */
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->ents[i].used || m->ents[i].key == index)
			continue;
		if (nt_map__get(&copy, m->ents[i].key, &e))
			break;
		e->val = m->ents[i].val;
	}
	nt_map__free(m);
	*m = copy;
}

static int read_v6_sp(struct nt_reader *r, size_t start, size_t len, int remove)
{
	struct cur c = { r->data + start, r->data + start + len, 0 };
	uint32_t flags = 0, count = UINT32_MAX;

	if (!remove) {
		if (len < 16)
			return rd_fail(r, start, "SequencePoint block too short");
		flags = nt_get_u32(c.p + 8);
		count = nt_get_u32(c.p + 12);
		c.p += 16;
	}
	for (uint32_t i = 0; i < count && c.p < c.end; i++) {
		uint64_t index, seq;

		if (cur_varint(&c, 10, &index) || cur_varint(&c, 5, &seq))
			return rd_fail(r, start, "%s entry %u truncated",
				       remove ? "RemoveThread" : "SequencePoint", i);
		note_sequence(r, index, seq, 1);
		if (remove) {
			v6_forget_thread(&r->v6_threads, index);
			v6_forget_thread(&r->threads, index);
		}
	}
	if (c.p != c.end)
		return rd_fail(r, c.p - r->data, "bytes after the last entry");
	if (!remove) {
		nt_map__clear(&r->stack_ids);
		r->n_stacks = 0;
		if (flags & 1) {
			nt_map__clear(&r->v6_threads);
			nt_map__clear(&r->threads);
		}
		if (flags & 2)
			nt_map__clear(&r->meta_ids);	/* records stay allocated */
	}
	return 0;
}

static int read_block_v6(struct nt_reader *r)
{
	size_t start = r->pos, content, len;
	uint32_t hdr, kind;
	int err = 0;

	if (r->size - start < 4) {
		if (start == r->size)
			return rd_fail(r, start, "file ends without the end-of-stream block");
		return rd_fail(r, start, "file ends inside a block header");
	}
	hdr = nt_get_u32(r->data + start);
	len = hdr & 0xffffff;
	kind = hdr >> 24;
	content = start + 4;
	if (len > r->size - content)
		return rd_fail(r, start, "block kind %u claims %zu bytes, the file has %zu "
			       "(file ends at %zu)", kind, len, r->size - content, r->size);
	switch (kind) {
	case V6_END:
		if (content + len != r->size)
			return rd_fail(r, content + len, "%zu bytes after the end-of-stream block",
				       r->size - content - len);
		r->state = RD_DONE;
		break;
	case V6_TRACE:
		return rd_fail(r, start, "second Trace block");
	case V6_EVENT:
		err = read_event_block(r, content, len);
		break;
	case V6_METADATA:
		err = read_v6_metadata(r, content, len);
		break;
	case V6_SP:
		err = read_v6_sp(r, content, len, 0);
		break;
	case V6_STACK:
		err = read_stack_block(r, content, len);
		break;
	case V6_THREAD:
		err = read_v6_thread(r, content, len);
		break;
	case V6_REMOVE_THREAD:
		err = read_v6_sp(r, content, len, 1);
		break;
	default:	/* LabelList and unknown kinds: skipped */
		break;
	}
	if (err)
		return -1;
	r->pos = content + len;
	return 0;
}

static int read_v6_header(struct nt_reader *r)
{
	uint32_t major, len, kind;

	if (r->size < 20)
		return rd_fail(r, 8, "file ends inside the V6 stream header");
	major = nt_get_u32(r->data + 12);
	if (major != 6)
		return rd_fail(r, 12, "NetTrace major version %u (6 expected)", major);
	r->v6 = 1;
	if (r->size < 24)
		return rd_fail(r, 20, "file ends before the Trace block");
	len = nt_get_u32(r->data + 20) & 0xffffff;
	kind = nt_get_u32(r->data + 20) >> 24;
	if (kind != V6_TRACE)
		return rd_fail(r, 20, "first block is kind %u, not Trace", kind);
	if (len > r->size - 24)
		return rd_fail(r, 20, "Trace block claims %u bytes, the file has %zu", len,
			       r->size - 24);
	if (read_v6_trace(r, 24, len))
		return -1;
	r->pos = 24 + len;
	return 0;
}

/* ------------------------------------------------------------ public API */

static struct nt_reader *reader_new(const void *table)
{
	struct nt_reader *r = calloc(1, sizeof(*r));

	if (!r) {
		errno = ENOMEM;
		return NULL;
	}
	r->table = table;
	return r;
}

struct nt_reader *nt_reader__open_mem(const void *buf, size_t len, const void *table)
{
	struct nt_reader *r = reader_new(table);

	if (!r)
		return NULL;
	r->data = buf;
	r->size = len;
	if (!buf && len)
		r->size = 0;
	read_trace_header(r);
	return r;
}

struct nt_reader *nt_reader__open(const char *path, const void *table)
{
	struct nt_reader *r;
	struct stat st;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	r = reader_new(table);
	if (!r) {
		err = ENOMEM;
		goto err_close;
	}
	if (fstat(fd, &st)) {
		err = errno;
		goto err_free;
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		r->map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (r->map == MAP_FAILED) {
			r->map = NULL;
		} else {
			r->data = r->map;
			r->size = st.st_size;
		}
	}
	if (!r->map) {
		/* pipes, empty or unmappable files: read everything */
		size_t cap = 0;
		ssize_t n;

		for (;;) {
			if (r->size == cap) {
				uint8_t *nc = realloc(r->copy, cap ? cap * 2 : 65536);

				if (!nc) {
					err = ENOMEM;
					goto err_free;
				}
				r->copy = nc;
				cap = cap ? cap * 2 : 65536;
			}
			n = read(fd, r->copy + r->size, cap - r->size);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				err = errno;
				goto err_free;
			}
			if (!n)
				break;
			r->size += n;
		}
		r->data = r->copy;
	}
	close(fd);
	read_trace_header(r);
	return r;

err_free:
	free(r->copy);
	free(r);
err_close:
	close(fd);
	errno = err;
	return NULL;
}

const struct nt_trace_info *nt_reader__info(const struct nt_reader *r)
{
	return &r->info;
}

/* ------------------------------------------------------------ stream mode */

/*
 * Stream mode: bytes arrive in pieces (an EventPipe session's socket).  The
 * parser itself is unchanged; it only runs once the whole next object or
 * block is in memory, so a block is never parsed half.  Bytes no longer
 * referenced (before the current position and the current sequence-point
 * region's stacks) are dropped in multiples of 4, which keeps the V4
 * container's padding (aligned to stream offsets) right.
 */
struct nt_reader *nt_reader__open_stream(const void *table)
{
	struct nt_reader *r = reader_new(table);

	if (r)
		r->streaming = 1;
	return r;
}

/* Is the whole trace header in memory? */
static int stream_have_header(const struct nt_reader *r)
{
	if (r->size < 24)
		return 0;
	if (nt_get_u32(r->data + 8) == 0)	/* V6: header + Trace block */
		return r->size >= 24 + (size_t)(nt_get_u32(r->data + 20) & 0xffffff);
	/* V4 container: 32-byte header, object header (16 + name), 49 bytes */
	return r->size >= 32 + 16 + 38 + 49 ||
	       (r->size >= 48 && r->size >= 32 + 16 + (size_t)nt_get_u32(r->data + 43) + 49);
}

/* Is the whole next object (V4) or block (V6) in memory?  Unparseable
 * sizes say yes: the parser then reports the problem. */
static int stream_have_block(const struct nt_reader *r)
{
	size_t avail = r->size - r->pos, nlen, len, content;
	const uint8_t *p = r->data + r->pos;

	if (r->v6)
		return avail >= 4 && avail - 4 >= (nt_get_u32(p) & 0xffffff);
	if (avail < 1)
		return 0;
	if (p[0] == NT_TAG_NULL)
		return 1;
	if (avail < 16)
		return 0;
	nlen = nt_get_u32(p + 11);
	if (nlen > 38)
		return 1;
	if (avail < 16 + nlen + 4)
		return 0;
	len = nt_get_u32(p + 16 + nlen);
	content = r->pos + 16 + nlen + 4;
	content += (4 - (content + r->base) % 4) % 4;
	return content <= r->size && r->size - content > len;
}

/* Drop the bytes nothing refers to any more. */
static void stream_compact(struct nt_reader *r)
{
	size_t keep = r->pos, cut;

	if (r->blk_p)
		return;		/* an EventBlock is being delivered */
	for (size_t i = 0; i < r->n_stacks; i++)
		if (r->stacks[i].off < keep)
			keep = r->stacks[i].off;
	cut = keep & ~(size_t)3;
	if (cut < 65536 || cut < r->size / 2)
		return;
	memmove(r->copy, r->copy + cut, r->size - cut);
	r->size -= cut;
	r->pos -= cut;
	for (size_t i = 0; i < r->n_stacks; i++)
		r->stacks[i].off -= cut;
	r->base += cut;
}

int nt_reader__feed(struct nt_reader *r, const void *buf, size_t len)
{
	if (!r->streaming)
		return -EINVAL;
	if (r->header_done)
		stream_compact(r);
	if (len > r->copy_cap - r->size) {
		size_t cap = r->copy_cap ? r->copy_cap : 65536;
		uint8_t *nc;

		while (cap - r->size < len)
			cap *= 2;
		nc = realloc(r->copy, cap);
		if (!nc)
			return -ENOMEM;
		if (r->blk_p) {		/* the block being delivered moved too */
			r->blk_p = nc + (r->blk_p - r->copy);
			r->blk_end = nc + (r->blk_end - r->copy);
		}
		r->copy = nc;
		r->copy_cap = cap;
	}
	memcpy(r->copy + r->size, buf, len);
	r->size += len;
	r->data = r->copy;
	return 0;
}

void nt_reader__feed_end(struct nt_reader *r)
{
	if (r->streaming && !r->header_done) {
		r->header_done = 1;
		r->streaming = 0;
		read_trace_header(r);
	}
	r->streaming = 0;
}

int nt_reader__header_read(const struct nt_reader *r)
{
	return !r->streaming || r->header_done;
}

static void fill_event(struct nt_reader *r, const struct rd_event *e, struct nt_read_event *ev)
{
	struct nt_map_ent *me = nt_map__find(&r->meta_ids, e->metadata_id);

	memset(ev, 0, sizeof(*ev));
	ev->meta = r->metas[me->val];
	ev->sequence = e->sequence;
	ev->thread_id = e->thread_id;
	ev->capture_thread_id = e->capture_thread_id;
	ev->processor = e->processor;
	ev->stack_id = e->stack_id;
	ev->timestamp = e->timestamp;
	memcpy(ev->activity_id, e->activity_id, 16);
	memcpy(ev->related_activity_id, e->related_activity_id, 16);
	ev->sorted = e->sorted;
	ev->payload = r->data + e->payload_off;
	ev->payload_size = e->payload_size;
	ev->file_offset = e->blob_off + r->base;
	if (e->stack_id) {
		const struct rd_stack *s = &r->stacks[nt_map__find(&r->stack_ids, e->stack_id)->val];
		uint32_t psize = r->info.pointer_size, n = s->bytes / psize;

		if (n > r->stack_cap) {
			uint64_t *nb = realloc(r->stack_buf, n * sizeof(*nb));

			if (!nb)
				n = r->stack_cap;	/* deliver what fits */
			else {
				r->stack_buf = nb;
				r->stack_cap = n;
			}
		}
		for (uint32_t i = 0; i < n; i++)
			r->stack_buf[i] = psize == 8 ? nt_get_u64(r->data + s->off + 8 * i) :
						       nt_get_u32(r->data + s->off + 4 * i);
		ev->stack = r->stack_buf;
		ev->stack_depth = n;
	}
	note_sequence(r, e->capture_thread_id, e->sequence, 0);
	if (r->v6) {
		/* thread indexes -> OS thread ids (the index when none was given) */
		struct nt_map_ent *t = nt_map__find(&r->v6_threads, e->thread_id);

		if (t && t->val)
			ev->thread_id = t->val - 1;
		t = nt_map__find(&r->v6_threads, e->capture_thread_id);
		if (t && t->val)
			ev->capture_thread_id = t->val - 1;
	}
}

int nt_reader__next(struct nt_reader *r, struct nt_read_event *ev)
{
	if (r->streaming && !r->header_done) {
		if (!stream_have_header(r))
			return NT_READ_AGAIN;
		r->header_done = 1;
		read_trace_header(r);
	}
	for (;;) {
		if (r->blk_p && r->blk_p < r->blk_end) {
			struct rd_event e;
			const char *why;
			size_t blob = r->blk_p - r->data;

			/* cannot fail: the block was validated by read_event_block */
			decode_blob(&r->blk_p, r->blk_end, r->data, r->blk_mode, &e,
				    &r->blk_prev, &why);
			e.blob_off = blob;
			fill_event(r, &e, ev);
			return 1;
		}
		r->blk_p = r->blk_end = NULL;
		if (r->state == RD_ERROR)
			return -1;
		if (r->state == RD_DONE)
			return 0;
		if (r->streaming && !stream_have_block(r))
			return NT_READ_AGAIN;
		if (r->v6 ? read_block_v6(r) : read_object(r))
			return -1;
	}
}

const char *nt_reader__error(const struct nt_reader *r)
{
	return r->state == RD_ERROR ? r->err : NULL;
}

uint64_t nt_reader__error_offset(const struct nt_reader *r)
{
	return r->err_off;
}

uint64_t nt_reader__lost(const struct nt_reader *r)
{
	return r->lost;
}

void nt_reader__close(struct nt_reader *r)
{
	if (!r)
		return;
	if (r->map)
		munmap(r->map, r->size);
	free(r->copy);
	for (size_t i = 0; i < r->n_metas; i++)
		metadata_free(r->metas[i]);
	free(r->metas);
	nt_map__free(&r->meta_ids);
	free(r->stacks);
	nt_map__free(&r->stack_ids);
	nt_map__free(&r->threads);
	nt_map__free(&r->v6_threads);
	free(r->stack_buf);
	free(r);
}

/* ------------------------------------------------------------ payload JSON */

static int type_size(uint32_t t)
{
	switch (t) {
	case NT_TYPE_SBYTE: case NT_TYPE_BYTE: case NT_TYPE_UTF8_CODE_UNIT: case NT_TYPE_BOOLEAN8:
		return 1;
	case NT_TYPE_CHAR: case NT_TYPE_INT16: case NT_TYPE_UINT16: return 2;
	case NT_TYPE_BOOLEAN: case NT_TYPE_INT32: case NT_TYPE_UINT32: case NT_TYPE_SINGLE:
		return 4;
	case NT_TYPE_INT64: case NT_TYPE_UINT64: case NT_TYPE_DOUBLE: case NT_TYPE_DATETIME:
		return 8;
	case NT_TYPE_DECIMAL: case NT_TYPE_GUID: return 16;
	}
	return 0;
}

static void json_double(FILE *f, double d)
{
	if (isnan(d))
		fputs("\"NaN\"", f);
	else if (isinf(d))
		fputs(d > 0 ? "\"Infinity\"" : "\"-Infinity\"", f);
	else
		fprintf(f, "%.17g", d);
}

static int json_fields(FILE *f, const struct nt_field_desc *fd, uint32_t n, struct cur *c,
		       int depth);

/* One value of type t (fd gives members/element type); f may be NULL (size walk). */
static int json_value(FILE *f, const struct nt_field_desc *fd, uint32_t t, struct cur *c,
		      int depth)
{
	const uint8_t *p = c->p;
	int sz = type_size(t);

	/* arrays of empty objects consume no bytes: bound the work instead */
	if (depth > NT_MAX_FIELD_DEPTH + 2 || --c->budget < 0)
		return -1;
	if (t == NT_TYPE_OBJECT) {
		if (f)
			fputc('{', f);
		if (json_fields(f, fd->members, fd->n_members, c, depth + 1))
			return -1;
		if (f)
			fputc('}', f);
		return 0;
	}
	if (t == NT_TYPE_STRING) {
		long n = nt_utf16_len(p, c->end);

		if (n < 0)
			return -1;
		if (f)
			nt_json_utf16(f, p, n);
		c->p += n + 2;
		return 0;
	}
	if (t == NT_TYPE_VARINT || t == NT_TYPE_VARUINT) {
		uint64_t v;
		size_t n = nt_get_varint(p, c->end, 10, &v);

		if (!n)
			return -1;
		c->p += n;
		if (f && t == NT_TYPE_VARUINT)
			fprintf(f, "%" PRIu64, v);
		else if (f)
			fprintf(f, "%" PRId64, (int64_t)(v >> 1) ^ -(int64_t)(v & 1));
		return 0;
	}
	if (t == NT_TYPE_ARRAY) {
		uint16_t count;

		if (c->end - p < 2 || fd->elem_type == NT_TYPE_ARRAY)
			return -1;
		count = nt_get_u16(p);
		c->p += 2;
		if (f)
			fputc('[', f);
		for (uint32_t i = 0; i < count; i++) {
			if (f && i)
				fputc(',', f);
			if (json_value(f, fd, fd->elem_type, c, depth + 1))
				return -1;
		}
		if (f)
			fputc(']', f);
		return 0;
	}
	if (!sz || c->end - p < sz)
		return -1;
	c->p += sz;
	if (!f)
		return 0;
	switch (t) {
	case NT_TYPE_BOOLEAN: fputs(nt_get_u32(p) ? "true" : "false", f); break;
	case NT_TYPE_BOOLEAN8: fputs(p[0] ? "true" : "false", f); break;
	case NT_TYPE_UTF8_CODE_UNIT:	/* one byte of UTF-8; non-ASCII bytes alone: U+FFFD */
		fputc('"', f);
		json_cp(f, p[0] < 0x80 ? p[0] : 0xfffd);
		fputc('"', f);
		break;
	case NT_TYPE_CHAR: nt_json_utf16(f, p, 2); break;
	case NT_TYPE_SBYTE: fprintf(f, "%d", (int8_t)p[0]); break;
	case NT_TYPE_BYTE: fprintf(f, "%u", p[0]); break;
	case NT_TYPE_INT16: fprintf(f, "%d", (int16_t)nt_get_u16(p)); break;
	case NT_TYPE_UINT16: fprintf(f, "%u", nt_get_u16(p)); break;
	case NT_TYPE_INT32: fprintf(f, "%d", (int32_t)nt_get_u32(p)); break;
	case NT_TYPE_UINT32: fprintf(f, "%u", nt_get_u32(p)); break;
	case NT_TYPE_INT64: case NT_TYPE_DATETIME:
		fprintf(f, "%" PRId64, (int64_t)nt_get_u64(p));
		break;
	case NT_TYPE_UINT64: fprintf(f, "%" PRIu64, nt_get_u64(p)); break;
	case NT_TYPE_SINGLE: {
		uint32_t u = nt_get_u32(p);
		float x;

		memcpy(&x, &u, 4);
		json_double(f, x);
		break;
	}
	case NT_TYPE_DOUBLE: {
		uint64_t u = nt_get_u64(p);
		double x;

		memcpy(&x, &u, 8);
		json_double(f, x);
		break;
	}
	case NT_TYPE_GUID:
		fprintf(f, "\"%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x\"",
			nt_get_u32(p), nt_get_u16(p + 4), nt_get_u16(p + 6), p[8], p[9], p[10],
			p[11], p[12], p[13], p[14], p[15]);
		break;
	default:	/* Decimal: raw hex */
		fputc('"', f);
		for (int i = 0; i < sz; i++)
			fprintf(f, "%02x", p[i]);
		fputc('"', f);
	}
	return 0;
}

static int json_fields(FILE *f, const struct nt_field_desc *fd, uint32_t n, struct cur *c,
		       int depth)
{
	for (uint32_t i = 0; i < n; i++) {
		if (f) {
			if (i)
				fputc(',', f);
			nt_json_str(f, fd[i].name ? fd[i].name : "");
			fputc(':', f);
		}
		if (json_value(f, &fd[i], fd[i].type, c, depth))
			return -1;
	}
	return 0;
}

int nt_payload_to_json(const struct nt_metadata *m, const void *payload, size_t len,
		       void *file)
{
	FILE *f = file;
	struct cur c = { payload, (const uint8_t *)payload + len, 100000 + 4 * (long)len };

	/* walk first, so a short payload never produces half a JSON object */
	if (json_fields(NULL, m->fields, m->n_fields, &c, 0)) {
		const uint8_t *p = payload;

		fputs("{\"_error\":\"payload does not match metadata\",\"_hex\":\"", f);
		for (size_t i = 0; i < len; i++)
			fprintf(f, "%02x", p[i]);
		fputs("\"}", f);
		return -EINVAL;
	}
	c.p = payload;
	c.budget = 100000 + 4 * (long)len;
	fputc('{', f);
	json_fields(f, m->fields, m->n_fields, &c, 0);
	if (c.p != c.end)
		fprintf(f, "%s\"_extra\":%zu", m->n_fields ? "," : "", (size_t)(c.end - c.p));
	fputc('}', f);
	return c.p != c.end ? -E2BIG : 0;
}
