// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * writer_v6.c - NetTrace V6 output (docs/nettrace-format.md section 12):
 * the 20-byte stream header, blocks framed by one uint32 (size | kind << 24)
 * without padding, and what V6 changed for the writer:
 *
 *  - threads are indexes.  V6 is the format that can hold many processes:
 *    each (pid, thread id) pair gets its own index, defined by a Thread
 *    block row (OSProcessId, OSThreadId) that is written before the first
 *    EventBlock using it (TraceEvent throws on an unknown index).  Indexes
 *    are never reused or removed, so sequence numbers stay per capture
 *    thread for the whole trace and TraceEvent keeps counting gaps.
 *  - activity ids live in LabelList rows, referenced by id from the event
 *    header; like stacks they are valid until the next sequence point, so
 *    the table is forgotten there and ids restart at 1.
 *  - metadata rows are UTF-8 with the keywords, level, version and opcode
 *    as optional items; arrays sit in the field list itself.
 *
 * The rest (block sizes, flush order, sequence points, the end marker that
 * every write leaves on disk) is writer.c's, shared with V5.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nettrace.h"
#include "nettrace_internal.h"
#include "grow.h"

enum {
	V6_END = 0, V6_TRACE, V6_EVENT, V6_METADATA, V6_SP, V6_STACK, V6_THREAD,
	V6_REMOVE_THREAD, V6_LABEL_LIST,
};

#define V6_MAX_BLOCK	0xffffffu	/* 24-bit block size */
#define V6_MAX_ROW	0xffffu		/* uint16 row and field sizes */

/* ------------------------------------------------------------ framing */

/* Append one block (header + content) to w->out. */
static int put_block(struct nt_writer *w, uint8_t kind, const void *hdr, size_t hdr_len,
		     const void *body, size_t body_len)
{
	if (hdr_len + body_len > V6_MAX_BLOCK)
		return -E2BIG;
	if (nt_buf__reserve(&w->out, 4 + hdr_len + body_len))
		return -ENOMEM;
	nt_put_u32(&w->out, (uint32_t)(hdr_len + body_len) | (uint32_t)kind << 24);
	nt_put_bytes(&w->out, hdr, hdr_len);
	nt_put_bytes(&w->out, body, body_len);
	return 0;
}

/* V6 string: varuint32 byte count + UTF-8, no NUL */
static int put_str(struct nt_buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n > UINT32_MAX)
		return -E2BIG;
	if (nt_buf__reserve(b, 5 + n))
		return -ENOMEM;
	nt_put_varint(b, n);
	nt_put_bytes(b, s, n);
	return 0;
}

static int put_key_value(struct nt_buf *b, const char *key, uint64_t value)
{
	char v[24];
	int err;

	snprintf(v, sizeof(v), "%llu", (unsigned long long)value);
	if ((err = put_str(b, key)))
		return err;
	return put_str(b, v);
}

/* Stream header and Trace block into w->out (writer.c commits them). */
int wr_v6_open(struct nt_writer *w)
{
	static const char magic[] = "Nettrace";
	struct nt_buf t = { 0 };
	int err;

	w->v6 = calloc(1, sizeof(*w->v6));
	if (!w->v6 || nt_buf__reserve(&w->out, 20) || nt_buf__reserve(&t, 40))
		return -ENOMEM;
	nt_put_bytes(&w->out, magic, 8);
	nt_put_u32(&w->out, 0);		/* reserved: tells V6 from the FastSerialization header */
	nt_put_u32(&w->out, 6);
	nt_put_u32(&w->out, 0);
	wr_put_systemtime(&t, &w->info.sync_utc);
	nt_put_u64(&t, w->info.sync_ts);
	nt_put_u64(&t, w->info.freq);
	nt_put_u32(&t, w->info.pointer_size);
	nt_put_u32(&t, 3);
	err = put_key_value(&t, "ProcessId", w->info.pid);
	if (!err)
		err = put_key_value(&t, "HardwareThreadCount", w->info.ncpu);
	if (!err)
		err = put_key_value(&t, "ExpectedCPUSamplingRate", w->info.sampling_interval_ns);
	if (!err)
		err = put_block(w, V6_TRACE, NULL, 0, t.data, t.len);
	nt_buf__free(&t);
	return err;
}

void wr_v6_free(struct nt_writer *w)
{
	struct nt_v6 *v = w->v6;

	if (!v)
		return;
	nt_map__free(&v->index_of);
	nt_map__free(&v->capture_pid);
	nt_map__free(&v->label_of);
	nt_buf__free(&v->thread_rows);
	nt_buf__free(&v->label_rows);
	free(v->threads);
	free(v->labels);
	free(v);
	w->v6 = NULL;
}

/* ------------------------------------------------------------ blocks */

static int put_event_block(struct nt_writer *w, uint8_t kind, struct nt_block *blk)
{
	uint8_t hdr[NT_BLOCK_HEADER_SIZE];
	int err;

	wr_block_header(hdr, blk);
	err = put_block(w, kind, hdr, sizeof(hdr), blk->buf.data, blk->buf.len);
	if (!err)
		wr_block_reset(blk);
	return err;
}

/* A block of rows after a FirstId/Count header (Stack, LabelList). */
static int put_counted_block(struct nt_writer *w, uint8_t kind, uint32_t first,
			     uint32_t count, struct nt_buf *rows)
{
	uint8_t hdr[8];
	struct nt_buf h = { .data = hdr, .cap = sizeof(hdr) };
	int err;

	nt_put_u32(&h, first);
	nt_put_u32(&h, count);
	err = put_block(w, kind, hdr, sizeof(hdr), rows->data, rows->len);
	if (!err)
		rows->len = 0;
	return err;
}

/*
 * Pending blocks into w->out in the order their rows are referenced:
 * Thread -> Metadata -> Stack -> LabelList -> Event.
 */
int wr_v6_blocks(struct nt_writer *w)
{
	struct nt_v6 *v = w->v6;
	int err = 0;

	if (v->thread_rows.len) {
		err = put_block(w, V6_THREAD, NULL, 0, v->thread_rows.data, v->thread_rows.len);
		if (!err) {
			v->thread_rows.len = 0;
			v->threads_in_out = v->n_threads;
		}
	}
	if (!err && w->meta.count) {
		static const uint8_t hdr[2];	/* uint16 HeaderSize 0: no header fields */

		err = put_block(w, V6_METADATA, hdr, sizeof(hdr), w->meta.buf.data,
				w->meta.buf.len);
		if (!err)
			wr_block_reset(&w->meta);
	}
	if (!err && w->stacks_count) {
		err = put_counted_block(w, V6_STACK, w->stacks_first_id, w->stacks_count,
					&w->stacks);
		if (!err)
			w->stacks_count = 0;
	}
	if (!err && v->labels_count) {
		err = put_counted_block(w, V6_LABEL_LIST, v->labels_first, v->labels_count,
					&v->label_rows);
		if (!err)
			v->labels_count = 0;
	}
	if (!err && w->ev.count)
		err = put_event_block(w, V6_EVENT, &w->ev);
	return err;
}

/* SequencePoint block into w->out: timestamp, flags 0 (threads and metadata
 * stay), then each active capture thread's index and last sequence number. */
int wr_v6_sequence_point(struct nt_writer *w, uint64_t ts)
{
	struct nt_buf body = { 0 };
	uint32_t n_listed = 0;
	int err;

	err = nt_buf__reserve(&body, 16 + w->threads.used * 15);
	if (err)
		return err;
	nt_put_u64(&body, ts);
	nt_put_u32(&body, 0);
	nt_put_u32(&body, 0);	/* thread count, below */
	for (size_t i = 0; i < w->threads.cap; i++) {
		struct nt_map_ent *t = &w->threads.ents[i];

		if (!t->used || !(t->val & NT_THR_ACTIVE))
			continue;
		nt_put_varint(&body, t->key);
		nt_put_varint(&body, (uint32_t)t->val);
		n_listed++;
	}
	memcpy(body.data + 12, &n_listed, 4);	/* little-endian hosts only, as everywhere */
	err = put_block(w, V6_SP, NULL, 0, body.data, body.len);
	nt_buf__free(&body);
	return err;
}

/* After a sequence point: label lists are forgotten, ids restart at 1. */
void wr_v6_new_region(struct nt_writer *w)
{
	struct nt_v6 *v = w->v6;

	nt_map__clear(&v->label_of);
	v->n_labels = 0;
	v->label_rows.len = 0;
	v->labels_count = 0;
}

/* ------------------------------------------------------------ threads */

static int add_thread_row(struct nt_v6 *v, uint64_t index, uint32_t pid, uint64_t tid);

/*
 * Salvage cut the file back to its last whole write: what was pending is
 * gone, and so are the Thread rows of the write that failed.  The
 * sequence point that ends the file lists those threads too, so their
 * rows are queued again (TraceEvent throws on an unknown index).
 */
int wr_v6_drop_pending(struct nt_writer *w)
{
	struct nt_v6 *v = w->v6;
	int err;

	v->thread_rows.len = 0;
	wr_v6_new_region(w);
	for (uint32_t i = v->threads_on_disk; i < v->n_threads; i++) {
		err = add_thread_row(v, i + 1, v->threads[i].pid, v->threads[i].tid);
		if (err)
			return err;
	}
	v->threads_in_out = v->threads_on_disk;
	return 0;
}

static uint64_t thread_key(uint32_t pid, uint64_t tid)
{
	return hash_mix(hash64(pid), tid);
}

static int add_thread_row(struct nt_v6 *v, uint64_t index, uint32_t pid, uint64_t tid)
{
	size_t start = v->thread_rows.len;

	if (nt_buf__reserve(&v->thread_rows, 2 + 3 * 10 + 2))
		return -ENOMEM;
	nt_put_u16(&v->thread_rows, 0);		/* row size, below */
	nt_put_varint(&v->thread_rows, index);
	nt_put_u8(&v->thread_rows, 2);		/* OSProcessId */
	nt_put_varint(&v->thread_rows, pid);
	nt_put_u8(&v->thread_rows, 3);		/* OSThreadId */
	nt_put_varint(&v->thread_rows, tid);
	uint16_t size = v->thread_rows.len - start - 2;

	v->thread_rows.data[start] = size & 0xff;
	v->thread_rows.data[start + 1] = size >> 8;
	return 0;
}

/*
 * The index of thread tid of process pid, defined (a pending Thread row) on
 * first use.  The map is keyed by a hash of the pair; a collision with
 * another pair moves on to the next key.
 */
int wr_v6_thread_index(struct nt_writer *w, uint32_t pid, uint64_t tid, uint64_t *index)
{
	struct nt_v6 *v = w->v6;
	uint64_t key = thread_key(pid, tid);
	struct nt_map_ent *e;
	int err;

	for (;; key++) {
		e = nt_map__find(&v->index_of, key);
		if (!e)
			break;
		if (v->threads[e->val - 1].pid == pid && v->threads[e->val - 1].tid == tid) {
			*index = e->val;
			return 0;
		}
	}
	if (GROW(v->threads, v->cap_threads, (size_t)v->n_threads + 1))
		return -ENOMEM;
	if ((err = add_thread_row(v, v->n_threads + 1, pid, tid)))
		return err;
	if ((err = nt_map__get(&v->index_of, key, &e)))
		return err;
	v->threads[v->n_threads].pid = pid;
	v->threads[v->n_threads].tid = tid;
	e->val = ++v->n_threads;
	*index = e->val;
	return 0;
}

uint32_t wr_v6_capture_pid(struct nt_writer *w, uint64_t capture_thread_id)
{
	struct nt_map_ent *e = nt_map__find(&w->v6->capture_pid, capture_thread_id);

	return e ? (uint32_t)e->val : w->info.pid;
}

/*
 * ev with its thread ids replaced by thread indexes (process 0 = the
 * trace's).  An event too big for one block is refused here, before it
 * could make a block write fail and stop the whole trace.
 */
int wr_v6_map_event(struct nt_writer *w, const struct nt_event *ev, struct nt_event *out)
{
	struct nt_v6 *v = w->v6;
	uint32_t pid = ev->pid ? ev->pid : w->info.pid;
	struct nt_map_ent *e;
	int err;

	if (ev->payload_size > V6_MAX_BLOCK - NT_BLOCK_HEADER_SIZE - NT_MAX_HEADER)
		return -E2BIG;
	*out = *ev;
	/* consecutive events mostly come from one thread: its last lookup (and
	 * capture_pid is still right, as any other event clears last_index) */
	if (v->last_index && pid == v->last_pid && ev->thread_id == v->last_tid &&
	    ev->capture_thread_id == ev->thread_id) {
		out->thread_id = out->capture_thread_id = v->last_index;
		return 0;
	}
	v->last_index = 0;
	err = wr_v6_thread_index(w, pid, ev->thread_id, &out->thread_id);
	if (!err && ev->capture_thread_id == ev->thread_id)
		out->capture_thread_id = out->thread_id;
	else if (!err)
		err = wr_v6_thread_index(w, pid, ev->capture_thread_id, &out->capture_thread_id);
	if (!err)
		err = nt_map__get(&v->capture_pid, ev->capture_thread_id, &e);
	if (err)
		return err;
	e->val = pid;
	if (ev->capture_thread_id == ev->thread_id) {
		v->last_pid = pid;
		v->last_tid = ev->thread_id;
		v->last_index = out->thread_id;
	}
	return 0;
}

/* ------------------------------------------------------------ label lists */

static const uint8_t zero_guid[16];

/* One list: ActivityId (kind 1) and/or RelatedActivityId (kind 2); bit 7
 * marks the last label of the list. */
static int add_label_row(struct nt_v6 *v, const uint8_t *ids)
{
	int has_rel = !!memcmp(ids + 16, zero_guid, 16);

	if (nt_buf__reserve(&v->label_rows, 34))
		return -ENOMEM;
	if (memcmp(ids, zero_guid, 16)) {
		nt_put_u8(&v->label_rows, 1 | (has_rel ? 0 : 0x80));
		nt_put_bytes(&v->label_rows, ids, 16);
	}
	if (has_rel) {
		nt_put_u8(&v->label_rows, 2 | 0x80);
		nt_put_bytes(&v->label_rows, ids + 16, 16);
	}
	return 0;
}

/*
 * The label list id of this pair of activity ids in the current SP region
 * (0: both zero), adding a pending LabelList row when new.  The caller
 * writes a sequence point first when NT_V6_MAX_LABELS are in use.
 */
int wr_v6_label_id(struct nt_writer *w, const uint8_t *activity, const uint8_t *related,
		   uint32_t *id)
{
	struct nt_v6 *v = w->v6;
	uint8_t ids[32];
	struct nt_map_ent *e;
	uint64_t key;
	int err;

	memcpy(ids, activity ? activity : zero_guid, 16);
	memcpy(ids + 16, related ? related : zero_guid, 16);
	*id = 0;
	if (!memcmp(ids, zero_guid, 16) && !memcmp(ids + 16, zero_guid, 16))
		return 0;
	for (key = hash_bytes(ids, 32, 0);; key++) {
		e = nt_map__find(&v->label_of, key);
		if (!e)
			break;
		if (!memcmp(v->labels[e->val - 1], ids, 32)) {
			*id = e->val;
			return 0;
		}
	}
	if (v->labels_count && v->label_rows.len + 34 > NT_BLOCK_CAP &&
	    (err = wr_flush_blocks(w)))
		return err;
	if (GROW(v->labels, v->cap_labels, (size_t)v->n_labels + 1))
		return -ENOMEM;
	if ((err = add_label_row(v, ids)) || (err = nt_map__get(&v->label_of, key, &e)))
		return err;
	memcpy(v->labels[v->n_labels], ids, 32);
	e->val = ++v->n_labels;
	if (!v->labels_count++)
		v->labels_first = e->val;
	*id = e->val;
	return 0;
}

/* ------------------------------------------------------------ metadata */

static int valid_type_v6(uint32_t t)
{
	return t == NT_TYPE_OBJECT || (t >= NT_TYPE_BOOLEAN && t <= NT_TYPE_VARUINT) ||
	       t == NT_TYPE_UTF8_CODE_UNIT || t == NT_TYPE_BOOLEAN8;
}

static int put_fields(struct nt_buf *b, const struct nt_field_desc *f, uint32_t n, int depth);

/* Type := uint8 code, then the element Type of an array or the member
 * list of an object. */
static int put_type(struct nt_buf *b, const struct nt_field_desc *f, uint32_t type, int depth)
{
	if (!valid_type_v6(type) || depth > NT_MAX_FIELD_DEPTH || nt_buf__reserve(b, 1))
		return -EINVAL;
	nt_put_u8(b, type);
	if (type == NT_TYPE_ARRAY) {
		if (f->elem_type == NT_TYPE_ARRAY)
			return -EINVAL;
		return put_type(b, f, f->elem_type, depth + 1);
	}
	if (type == NT_TYPE_OBJECT)
		return put_fields(b, f->members, f->n_members, depth + 1);
	return 0;
}

static void patch_u16(struct nt_buf *b, size_t at, size_t v)
{
	b->data[at] = v & 0xff;
	b->data[at + 1] = (v >> 8) & 0xff;
}

/* uint16 count, then per field: uint16 size (excluding itself), name, Type */
static int put_fields(struct nt_buf *b, const struct nt_field_desc *f, uint32_t n, int depth)
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
		if ((err = put_str(b, f[i].name)) || (err = put_type(b, &f[i], f[i].type, depth)))
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
int wr_v6_metadata_row(struct nt_buf *b, uint32_t id, const struct nt_event_desc *d)
{
	size_t start = b->len;
	int err;

	if (nt_buf__reserve(b, 2 + 5))
		return -ENOMEM;
	nt_put_u16(b, 0);		/* row size, below */
	nt_put_varint(b, id);
	if ((err = put_str(b, d->provider)) || nt_buf__reserve(b, 5))
		return err ? err : -ENOMEM;
	nt_put_varint(b, d->event_id);
	if ((err = put_str(b, d->name)) ||
	    (err = put_fields(b, d->fields, d->n_fields, 0)) || (err = put_optional(b, d)))
		return err;
	if (b->len - start - 2 > V6_MAX_ROW)
		return -E2BIG;
	patch_u16(b, start, b->len - start - 2);
	return 0;
}
