// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * reader_meta.c - metadata records of a V5 file: the fixed part (provider,
 * event id, name, keywords, version, level) and the field descriptions
 * (V1 fields or the V2Params tag), docs/nettrace-format.md "Metadata".
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
#include "grow.h"
#include "utf16.h"

/* ------------------------------------------------------------ metadata */

void rd_fields_free(struct nt_field_desc *f, uint32_t n)
{
	if (!f)
		return;
	for (uint32_t i = 0; i < n; i++) {
		free((char *)f[i].name);
		rd_fields_free((struct nt_field_desc *)f[i].members, f[i].n_members);
	}
	free(f);
}

void rd_metadata_free(struct nt_metadata *m)
{
	if (!m)
		return;
	free(m->provider);
	free(m->name);
	rd_fields_free(m->fields, m->n_fields);
	free(m);
}

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
	long n = utf16le_len(c->p, c->end);

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

/* The array for n field descriptions at this nesting depth in *out (NULL
 * for none); -1 when nested too deep or out of memory. */
int rd_fields_alloc(uint32_t n, int depth, struct nt_field_desc **out)
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

	if (rd_fields_alloc(n, depth, out))
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
		if (cur_str(c, &name))
			goto fail;
		f[i].name = name;
	}
	*out = f;
	return 0;
fail:
	rd_fields_free(f, n);
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

	if (rd_fields_alloc(n, depth, out))
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
	rd_fields_free(f, n);
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
	if (cur_u32(&c, &id) || cur_str(&c, &m->provider) || cur_u32(&c, &m->event_id) ||
	    cur_str(&c, &m->name) || c.end - c.p < 16) {
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
			rd_fields_free(m->fields, m->n_fields);
			m->fields = f;
			m->n_fields = n;
		}
	}
	return rd_add_metadata(r, m, off, len);
}

/* Register a parsed metadata record (takes ownership of m). */
/* meta_dense[id] = index + 1 for a small id (the table grows to cover it). */
static int meta_dense_set(struct nt_reader *r, uint32_t id, size_t index)
{
	if (id >= NT_META_DENSE)
		return 0;
	if (id >= r->n_meta_dense) {
		size_t n = r->n_meta_dense;

		if (GROW(r->meta_dense, n, (size_t)id + 1))
			return -ENOMEM;
		memset(r->meta_dense + r->n_meta_dense, 0,
		       (n - r->n_meta_dense) * sizeof(*r->meta_dense));
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

int rd_add_metadata(struct nt_reader *r, struct nt_metadata *m, uint64_t off, size_t bytes)
{
	struct nt_map_ent *e;
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
	if (nt_map__find(&r->meta_ids, id)) {
		rd_metadata_free(m);
		return rd_fail(r, off, "metadata id %u defined twice", id);
	}
	if (r->lookup.find && m->provider[0])
		m->manifest = r->lookup.find(r->lookup.ctx, m->provider, (uint16_t)m->event_id,
					     (uint8_t)m->version);
	if (GROW(r->metas, r->cap_metas, r->n_metas + 1)) {
		rd_metadata_free(m);
		return rd_fail(r, off, "out of memory");
	}
	if (nt_map__get(&r->meta_ids, id, &e) || meta_dense_set(r, id, r->n_metas)) {
		rd_metadata_free(m);
		return rd_fail(r, off, "out of memory");
	}
	e->val = r->n_metas;
	r->metas[r->n_metas++] = m;
	r->n_meta_fields += count_fields(m->fields, m->n_fields);
	return 0;
}
