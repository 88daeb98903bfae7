// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * writer_meta.c - metadata of the events a writer defines: the V5 metadata
 * payload (provider, id, name, keywords, version, level, V1 fields and the
 * opcode/V2Params tags) appended to the MetadataBlock, or the V6 metadata
 * row (writer_v6.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nettrace.h"
#include "nettrace_internal.h"

/* ------------------------------------------------------------ metadata */

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

/* Current "time" for metadata block headers: the newest event, or sync. */
static uint64_t now_ts(const struct nt_writer *w)
{
	return w->any_event && w->max_ts > w->info.sync_ts ? w->max_ts : w->info.sync_ts;
}

int wr_meta_append(struct nt_writer *w, const void *payload, size_t len)
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
		err = wr_v6_metadata_row(&payload, w->next_meta_id, desc);
	else
		err = build_metadata(&payload, w->next_meta_id, desc);
	if (!err)
		err = remember(w, &payload);
	if (!err && w->fd >= 0)
		err = wr_meta_append(w, payload.data, payload.len);
	if (!err)
		*metadata_id = w->next_meta_id++;
	nt_buf__free(&payload);
	return err;
}
