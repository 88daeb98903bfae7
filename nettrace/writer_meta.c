// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * writer_meta.c - the events a writer defines: the V5 metadata payload
 * (provider, id, name, keywords, version, level, V1 fields and the
 * opcode/V2Params tags; docs/nettrace-format.md section 5) or the V6
 * metadata row (UTF-8, the keywords, level, version and opcode as optional
 * items, arrays in the field list itself; section 12.2), appended to the
 * pending Metadata block and kept for the files after this one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nettrace_internal.h"

/* ------------------------------------------------------------ V5 payloads */

static int fields_have_array(const struct nt_field_desc *f, uint32_t n, int depth)
{
	for (uint32_t i = 0; i < n; i++) {
		if (f[i].type == NT_TYPE_ARRAY)
			return 1;
		if (f[i].type == NT_TYPE_OBJECT && depth < NT_MAX_FIELD_DEPTH &&
		    fields_have_array(f[i].members, f[i].n_members, depth + 1))
			return 1;
	}
	return 0;
}

static int valid_type(uint32_t t)
{
	return t == NT_TYPE_OBJECT || (t >= NT_TYPE_BOOLEAN && t <= NT_TYPE_ARRAY);
}

/* V1 descriptor: int32 TypeCode, [int32 count + members if Object], name */
static int put_fields_v1(struct nt_buf *b, const struct nt_field_desc *f, uint32_t n,
			 int depth)
{
	int err;

	if (depth > NT_MAX_FIELD_DEPTH || (n && !f))
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++) {
		if (!valid_type(f[i].type) || f[i].type == NT_TYPE_ARRAY)
			return -EINVAL;
		if ((err = nt_buf__u32(b, f[i].type)))
			return err;
		if (f[i].type == NT_TYPE_OBJECT) {
			if ((err = nt_buf__u32(b, f[i].n_members)))
				return err;
			err = put_fields_v1(b, f[i].members, f[i].n_members, depth + 1);
			if (err)
				return err;
		}
		if ((err = nt_buf__utf16(b, f[i].name ? f[i].name : "")))
			return err;
	}
	return 0;
}

static int put_fields_v2(struct nt_buf *b, const struct nt_field_desc *f, uint32_t n,
			 int depth);

/* V2 type: TypeCode, then ElementType (recursively) for arrays or the
 * member list for objects. */
static int put_type_v2(struct nt_buf *b, const struct nt_field_desc *f, uint32_t type,
		       int depth)
{
	int err;

	if (!valid_type(type) || depth > NT_MAX_FIELD_DEPTH)
		return -EINVAL;
	if ((err = nt_buf__u32(b, type)))
		return err;
	if (type == NT_TYPE_ARRAY) {
		if (f->elem_type == NT_TYPE_ARRAY)
			return -EINVAL;
		return put_type_v2(b, f, f->elem_type, depth + 1);
	}
	if (type == NT_TYPE_OBJECT) {
		if ((err = nt_buf__u32(b, f->n_members)))
			return err;
		return put_fields_v2(b, f->members, f->n_members, depth + 1);
	}
	return 0;
}

/* V2 descriptor: int32 Size (including itself), name, type */
static int put_fields_v2(struct nt_buf *b, const struct nt_field_desc *f, uint32_t n,
			 int depth)
{
	int err;

	if (depth > NT_MAX_FIELD_DEPTH || (n && !f))
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++) {
		size_t start = b->len;

		if ((err = nt_buf__u32(b, 0)))
			return err;
		if ((err = nt_buf__utf16(b, f[i].name ? f[i].name : "")))
			return err;
		if ((err = put_type_v2(b, &f[i], f[i].type, depth)))
			return err;
		uint32_t size = b->len - start;

		for (int k = 0; k < 4; k++)
			b->data[start + k] = (size >> (8 * k)) & 0xff;
	}
	return 0;
}

static int put_tag(struct nt_buf *b, uint8_t kind, const void *p, size_t n)
{
	if (nt_buf__reserve(b, 5 + n))
		return -ENOMEM;
	nt_put_u32(b, n);
	nt_put_u8(b, kind);
	nt_put_bytes(b, p, n);
	return 0;
}

/* Build the metadata payload (docs/nettrace-format.md section 5). */
static int build_metadata(struct nt_buf *b, uint32_t id, const struct nt_event_desc *d)
{
	struct nt_buf v2 = { 0 };
	int err;
	int use_v2 = fields_have_array(d->fields, d->n_fields, 0);

	if ((err = nt_buf__u32(b, id)) || (err = nt_buf__utf16(b, d->provider)) ||
	    (err = nt_buf__u32(b, d->event_id)) || (err = nt_buf__utf16(b, d->name ? d->name : "")))
		return err;
	if (nt_buf__reserve(b, 20))
		return -ENOMEM;
	nt_put_u64(b, d->keywords);
	nt_put_u32(b, d->version);
	nt_put_u32(b, d->level);
	nt_put_u32(b, use_v2 ? 0 : d->n_fields);
	if (!use_v2 && (err = put_fields_v1(b, d->fields, d->n_fields, 0)))
		return err;
	if (d->opcode && (err = put_tag(b, NT_META_TAG_OPCODE, &d->opcode, 1)))
		return err;
	if (use_v2) {
		err = nt_buf__u32(&v2, d->n_fields);
		if (!err)
			err = put_fields_v2(&v2, d->fields, d->n_fields, 0);
		if (!err)
			err = put_tag(b, NT_META_TAG_V2PARAMS, v2.data, v2.len);
		nt_buf__free(&v2);
	}
	return err;
}

/* ------------------------------------------------------------ V6 rows */

static int valid_type_v6(uint32_t t)
{
	return t == NT_TYPE_OBJECT || (t >= NT_TYPE_BOOLEAN && t <= NT_TYPE_VARUINT) ||
	       t == NT_TYPE_UTF8_CODE_UNIT || t == NT_TYPE_BOOLEAN8;
}

static int put_fields_v6(struct nt_buf *b, const struct nt_field_desc *f, uint32_t n,
			 int depth);

/* Type := uint8 code, then the element Type of an array or the member
 * list of an object. */
static int put_type_v6(struct nt_buf *b, const struct nt_field_desc *f, uint32_t type,
		       int depth)
{
	if (!valid_type_v6(type) || depth > NT_MAX_FIELD_DEPTH || nt_buf__reserve(b, 1))
		return -EINVAL;
	nt_put_u8(b, type);
	if (type == NT_TYPE_ARRAY) {
		if (f->elem_type == NT_TYPE_ARRAY)
			return -EINVAL;
		return put_type_v6(b, f, f->elem_type, depth + 1);
	}
	if (type == NT_TYPE_OBJECT)
		return put_fields_v6(b, f->members, f->n_members, depth + 1);
	return 0;
}

static void patch_u16(struct nt_buf *b, size_t at, size_t v)
{
	b->data[at] = v & 0xff;
	b->data[at + 1] = (v >> 8) & 0xff;
}

/* uint16 count, then per field: uint16 size (excluding itself), name, Type */
static int put_fields_v6(struct nt_buf *b, const struct nt_field_desc *f, uint32_t n,
			 int depth)
{
	int err;

	if (depth > NT_MAX_FIELD_DEPTH || (n && !f) || n > V6_MAX_ROW)
		return -EINVAL;
	if (nt_buf__reserve(b, 2))
		return -ENOMEM;
	nt_put_u16(b, n);
	for (uint32_t i = 0; i < n; i++) {
		size_t start = b->len;

		if (nt_buf__reserve(b, 2))
			return -ENOMEM;
		nt_put_u16(b, 0);
		if ((err = nt_buf__str6(b, f[i].name)) ||
		    (err = put_type_v6(b, &f[i], f[i].type, depth)))
			return err;
		if (b->len - start - 2 > V6_MAX_ROW)
			return -E2BIG;
		patch_u16(b, start, b->len - start - 2);
	}
	return 0;
}

/* OptionalMetadata: the properties V5 always carried, when not 0 (their
 * default).  The version goes in even for native events: TraceEvent picks
 * its built-in layout by provider, id and version. */
static int put_optional(struct nt_buf *b, const struct nt_event_desc *d)
{
	size_t start = b->len;

	if (d->version > 0xff || d->level > 0xff)
		return -EINVAL;
	if (nt_buf__reserve(b, 2 + 9 + 2 + 2 + 2))
		return -ENOMEM;
	nt_put_u16(b, 0);
	if (d->opcode) {
		nt_put_u8(b, 1);
		nt_put_u8(b, d->opcode);
	}
	if (d->keywords) {
		nt_put_u8(b, 3);
		nt_put_u64(b, d->keywords);
	}
	if (d->level) {
		nt_put_u8(b, 8);
		nt_put_u8(b, d->level);
	}
	if (d->version) {
		nt_put_u8(b, 9);
		nt_put_u8(b, d->version);
	}
	patch_u16(b, start, b->len - start - 2);
	return 0;
}

/* One Metadata block row (docs/nettrace-format.md section 12.2). */
static int v6_metadata_row(struct nt_buf *b, uint32_t id, const struct nt_event_desc *d)
{
	size_t start = b->len;
	int err;

	if (nt_buf__reserve(b, 2 + 5))
		return -ENOMEM;
	nt_put_u16(b, 0);		/* row size, below */
	nt_put_varint(b, id);
	if ((err = nt_buf__str6(b, d->provider)) || nt_buf__reserve(b, 5))
		return err ? err : -ENOMEM;
	nt_put_varint(b, d->event_id);
	if ((err = nt_buf__str6(b, d->name)) ||
	    (err = put_fields_v6(b, d->fields, d->n_fields, 0)) || (err = put_optional(b, d)))
		return err;
	if (b->len - start - 2 > V6_MAX_ROW)
		return -E2BIG;
	patch_u16(b, start, b->len - start - 2);
	return 0;
}

/* ------------------------------------------------------------ the block */

/* Current "time" for metadata block headers: the newest event, or sync. */
static uint64_t now_ts(const struct nt_writer *w)
{
	return w->any_event && w->max_ts > w->info.sync_ts ? w->max_ts : w->info.sync_ts;
}

/* Append one record (payload starting with its id) to the pending
 * Metadata block, writing the pending blocks first when it is full. */
static int meta_append(struct nt_writer *w, const void *payload, size_t len)
{
	struct nt_block *blk = &w->meta;
	uint64_t ts;
	int err;

	if (blk->count && blk->buf.len + len + 16 > NT_BLOCK_CAP) {
		err = wr_flush_blocks(w);
		if (err)
			return err;
	}
	err = nt_buf__reserve(&blk->buf, len + 16);
	if (err)
		return err;
	if (w->v6) {	/* V6 metadata rows have no event header */
		nt_put_bytes(&blk->buf, payload, len);
		blk->count++;
		return 0;
	}
	/* header: id/seq/thread/stack/ts all 0, sorted, payload size */
	nt_put_u8(&blk->buf, NT_F_SORTED |
		  (blk->prev.payload_size != len ? NT_F_PAYLOAD_SIZE : 0));
	nt_put_varint(&blk->buf, 0);
	if (blk->prev.payload_size != len)
		nt_put_varint(&blk->buf, len);
	nt_put_bytes(&blk->buf, payload, len);
	blk->prev.payload_size = len;
	blk->count++;
	ts = now_ts(w);
	if (ts < blk->min_ts)
		blk->min_ts = ts;
	if (ts > blk->max_ts)
		blk->max_ts = ts;
	return 0;
}

/* Keep the record for the files after this one. */
static int remember(struct nt_writer *w, const struct nt_buf *payload)
{
	uint32_t n = (uint32_t)payload->len;
	int err = nt_buf__reserve(&w->meta_hist, 4 + payload->len);

	if (err)
		return err;
	nt_put_u32(&w->meta_hist, n);
	nt_put_bytes(&w->meta_hist, payload->data, payload->len);
	return 0;
}

int nt_writer__define(struct nt_writer *w, const struct nt_event_desc *desc,
		      uint32_t *metadata_id)
{
	struct nt_buf payload = { 0 };
	int err;

	if (!w || !desc || !desc->provider || !metadata_id)
		return -EINVAL;
	if (w->err)
		return w->err;
	if (w->next_meta_id == INT32_MAX)
		return -ENOSPC;
	if (w->v6)
		err = v6_metadata_row(&payload, w->next_meta_id, desc);
	else
		err = build_metadata(&payload, w->next_meta_id, desc);
	if (!err)
		err = remember(w, &payload);
	if (!err && w->fd >= 0)
		err = meta_append(w, payload.data, payload.len);
	if (!err)
		*metadata_id = w->next_meta_id++;
	nt_buf__free(&payload);
	return err;
}

/* Every metadata record defined so far, into the new file's first block. */
int wr_replay_metadata(struct nt_writer *w)
{
	size_t off = 0;
	uint32_t n;
	int err = 0;

	while (!err && off + 4 <= w->meta_hist.len) {
		memcpy(&n, w->meta_hist.data + off, 4);
		err = meta_append(w, w->meta_hist.data + off + 4, n);
		off += 4 + n;
	}
	return err;
}
