// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * reader_meta.c - metadata records: a V5 metadata payload (the fixed part -
 * provider, event id, name, keywords, version, level - and the field
 * descriptions, V1 fields or the V2Params tag; docs/nettrace-format.md
 * section 5) or a V6 metadata row (UTF-8, optional properties, arrays in
 * the field list; section 12.2), registered under its id for the events
 * that use it, with the caller's description when its lookup knows one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nettrace_internal.h"

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

void rd_metadata_free(struct nt_metadata *m)
{
	if (!m)
		return;
	free(m->provider);
	free(m->name);
	fields_free(m->fields, m->n_fields);
	free(m);
}

/* ------------------------------------------------------------ the records */

/* meta_dense[id] = index + 1 for a small id (the table grows to cover it). */
static int meta_dense_set(struct nt_reader *r, uint32_t id, size_t index)
{
	if (id >= NT_META_DENSE)
		return 0;
	if (id >= r->n_meta_dense) {
		uint32_t n = r->n_meta_dense ? r->n_meta_dense : 64;
		uint32_t *d;

		while (n <= id)
			n *= 2;
		d = realloc(r->meta_dense, n * sizeof(*d));
		if (!d)
			return -ENOMEM;
		memset(d + r->n_meta_dense, 0, (n - r->n_meta_dense) * sizeof(*d));
		r->meta_dense = d;
		r->n_meta_dense = n;
	}
	r->meta_dense[id] = (uint32_t)index + 1;
	return 0;
}

static size_t count_fields(const struct nt_field_desc *f, uint32_t n)
{
	size_t total = n;

	for (uint32_t i = 0; f && i < n; i++)
		total += count_fields(f[i].members, f[i].n_members);
	return total;
}

/* Register a parsed metadata record (takes ownership of m). */
static int add_metadata(struct nt_reader *r, struct nt_metadata *m, uint64_t off, size_t bytes)
{
	struct u64_map_ent *e;
	uint32_t id = m->id;

	r->meta_bytes += bytes;
	if (r->meta_bytes > NT_MAX_METADATA_BYTES) {
		rd_metadata_free(m);
		return rd_fail(r, off, "metadata records take more than %u MiB (refused)",
			       NT_MAX_METADATA_BYTES >> 20);
	}

	if (!id) {
		rd_metadata_free(m);
		return rd_fail(r, off, "metadata record defines id 0");
	}
	if (u64_map__find(&r->meta_ids, id)) {
		rd_metadata_free(m);
		return rd_fail(r, off, "metadata id %u defined twice", id);
	}
	if (r->lookup.find && m->provider[0])
		m->manifest = r->lookup.find(r->lookup.ctx, m->provider, (uint16_t)m->event_id,
					     (uint8_t)m->version);
	if (r->n_metas == r->cap_metas) {
		size_t ncap = r->cap_metas ? r->cap_metas * 2 : 64;
		struct nt_metadata **nm = realloc(r->metas, ncap * sizeof(*nm));

		if (!nm) {
			rd_metadata_free(m);
			return rd_fail(r, off, "out of memory");
		}
		r->metas = nm;
		r->cap_metas = ncap;
	}
	if (u64_map__get(&r->meta_ids, id, &e) || meta_dense_set(r, id, r->n_metas)) {
		rd_metadata_free(m);
		return rd_fail(r, off, "out of memory");
	}
	e->val = r->n_metas;
	r->metas[r->n_metas++] = m;
	r->n_meta_fields += count_fields(m->fields, m->n_fields);
	return 0;
}

/* ------------------------------------------------------------ V5 payloads */

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

/* The array for n field descriptions at this nesting depth in *out (NULL
 * for none); -1 when nested too deep or out of memory. */
static int fields_alloc(uint32_t n, int depth, struct nt_field_desc **out)
{
	*out = NULL;
	if (depth > NT_MAX_FIELD_DEPTH)
		return -1;
	if (n && !(*out = calloc(n, sizeof(**out))))
		return -1;
	return 0;
}

/* V1: int32 type, [int32 count + fields if Object], name */
static int parse_fields_v1(struct cur *c, uint32_t n, struct nt_field_desc **out, int depth)
{
	struct nt_field_desc *f;
	uint32_t i;

	if (fields_alloc(n, depth, out))
		return -1;
	if (!n)
		return 0;
	f = *out;
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
		if (cur_str16(c, &name))
			goto fail;
		f[i].name = name;
	}
	*out = f;
	return 0;
fail:
	fields_free(f, n);
	*out = NULL;
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

	if (fields_alloc(n, depth, out))
		return -1;
	if (!n)
		return 0;
	f = *out;
	for (i = 0; i < n; i++) {
		const uint8_t *start = c->p;
		uint32_t size;
		char *name = NULL;

		if (cur_u32(c, &size) || size < 4 || size > (size_t)(c->end - start))
			goto fail;
		if (cur_str16(c, &name))
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
	*out = NULL;
	return -1;
}

/*
 * Metadata payload (docs/nettrace-format.md section 5).  The fixed part must parse (else the
 * file is corrupt); a field list or tag that does not parse leaves the event
 * without fields, as TraceEvent does.
 */

int rd_parse_metadata(struct nt_reader *r, const uint8_t *p, uint32_t len, uint64_t off)
{
	struct cur c = { p, p + len, 0 };
	struct nt_metadata *m;
	uint32_t id, n;

	m = calloc(1, sizeof(*m));
	if (!m)
		return rd_fail(r, off, "out of memory");
	if (cur_u32(&c, &id) || cur_str16(&c, &m->provider) || cur_u32(&c, &m->event_id) ||
	    cur_str16(&c, &m->name) || c.end - c.p < 16) {
		rd_metadata_free(m);
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
	return add_metadata(r, m, off, len);
}

/* ------------------------------------------------------------ V6 rows */

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
	if (cur_u16(c, &n) || n > (c->end - c->p) / 2 || fields_alloc(n, depth, out))
		return -1;
	if (!n)
		return 0;
	f = *out;
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
	*out = NULL;
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
			if (cur_skip_str6(c))
				return;
			break;
		case 6:		/* KeyValue */
			if (cur_skip_str6(c) || cur_skip_str6(c))
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

/* A V6 Metadata block: a header (skipped), then rows of uint16 size, id,
 * provider, event id, name, field list and optional properties. */
int rd_read_v6_metadata(struct nt_reader *r, size_t start, size_t len)
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
			rd_metadata_free(m);
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
		if (add_metadata(r, m, off, 2 + (size_t)rsize))
			return -1;
	}
	return 0;
}
