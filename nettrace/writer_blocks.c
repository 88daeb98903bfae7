// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * writer_blocks.c - the bytes of a file the writer writes: the stream
 * header and Trace object of the version-4 FastSerialization container
 * (NetTrace V5) or the V6 header and Trace block; blocks in either
 * framing; the pending blocks written out (a flush) and sequence points;
 * and what is on disk (docs/nettrace-format.md sections 2-7 and 12).
 *
 * Three block buffers are kept in memory: a MetadataBlock (definitions), a
 * StackBlock (each distinct stack of the current sequence-point region once)
 * and an EventBlock (compressed event headers + payloads); V6 adds the
 * pending Thread and LabelList rows.  A flush writes all pending blocks in
 * the order their rows are referenced (V5: Metadata -> Stack -> Event; V6:
 * Thread -> Metadata -> Stack -> LabelList -> Event) with a single
 * write(2), so everything an event references is on disk before the event,
 * and a writer killed at any moment leaves a file that readers can use up
 * to its last whole block.
 *
 * An SPBlock lists every capture thread that wrote or lost events since the
 * previous one with its last sequence number; after it the stack table (and
 * V6's label lists) are forgotten and ids restart at 1, as readers drop
 * their caches at every sequence point.  Older readers keep at most 5000
 * threads and count a sequence point's number for a thread they dropped as
 * lost: so only the active threads are listed.
 *
 * Every write goes through write(2) with full error checking; the first
 * error sticks in w->err (all later calls return it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nettrace_internal.h"

/* ------------------------------------------------------------ raw output */

/* The end-of-stream marker: the byte 01 (V5), an empty block of kind 0 (V6) */
static const uint8_t end_marker[4];
static const uint8_t end_marker_v5[1] = { NT_TAG_NULL };

const uint8_t *wr_end_bytes(const struct nt_writer *w, size_t *len)
{
	*len = w->v6 ? sizeof(end_marker) : sizeof(end_marker_v5);
	return w->v6 ? end_marker : end_marker_v5;
}

int wr_out_write(struct nt_writer *w, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t r = write(w->fd, p, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EIO;
		p += r;
		n -= r;
		w->offset += r;
	}
	return 0;
}

/*
 * Write and empty w->out; errors stick.  Every write of whole blocks ends
 * with the end-of-stream marker, in the same write(2), and the file position
 * is then moved back over it, so the next write overwrites it: between
 * writes the file on disk is always a complete trace (no window between a
 * block write and a marker write).  A collector killed with SIGKILL (or a
 * power cut once the page cache reached the disk) leaves a file every reader
 * takes to its end, short of what was still in memory (at most one flush
 * interval) -- unless the kill lands inside a write, which the kernel may
 * then cut short: readers stop at that last, partial block.  The marker is
 * best effort: if only the blocks fit, the write still counts, and the next
 * one fails and reports why.
 */
int wr_out_commit(struct nt_writer *w)
{
	size_t end_len, len = w->out.len;
	const uint8_t *end = wr_end_bytes(w, &end_len);
	uint64_t start = w->offset;
	int err;

	err = nt_buf__bytes(&w->out, end, end_len);
	if (!err)
		err = wr_out_write(w, w->out.data, w->out.len);
	if (err && w->offset - start >= len)
		err = 0;	/* the blocks are whole; the marker is best effort */
	w->out.len = 0;
	if (!err) {
		w->offset = start + len;
		if (lseek(w->fd, (off_t)w->offset, SEEK_SET) < 0)
			err = -errno;
	}
	if (err && !w->err)
		w->err = err;
	if (err)
		return err;
	w->good_offset = w->offset;
	if (w->v6)
		w->v6->threads_on_disk = w->v6->threads_in_out;
	return 0;
}

/* ------------------------------------------------------------ framing */

/* V5 object framing: 05 05 01 version minVersion nameLen name 06 */
static void put_object_start(struct nt_buf *b, const char *name, uint32_t version)
{
	size_t n = strlen(name);

	nt_put_u8(b, NT_TAG_BEGIN_PRIVATE);
	nt_put_u8(b, NT_TAG_BEGIN_PRIVATE);
	nt_put_u8(b, NT_TAG_NULL);
	nt_put_u32(b, version);
	nt_put_u32(b, version);
	nt_put_u32(b, n);
	nt_put_bytes(b, name, n);
	nt_put_u8(b, NT_TAG_END);
}

/*
 * Append a whole V5 block object to w->out.  The bytes before the content
 * are BlockSize and zero padding up to a 4-byte aligned absolute file
 * offset; hdr (hdr_len bytes) and body make up the content.
 */
static int v5_block(struct nt_writer *w, const char *name, const void *hdr, size_t hdr_len,
		    const void *body, size_t body_len)
{
	size_t need = 3 + 12 + strlen(name) + 1 + 4 + 3 + hdr_len + body_len + 1;
	uint64_t pos;

	if (hdr_len + body_len > UINT32_MAX)
		return -E2BIG;
	if (nt_buf__reserve(&w->out, need))
		return -ENOMEM;
	put_object_start(&w->out, name, 2);
	nt_put_u32(&w->out, hdr_len + body_len);
	pos = w->offset + w->out.len;
	while (pos % 4) {
		nt_put_u8(&w->out, 0);
		pos++;
	}
	nt_put_bytes(&w->out, hdr, hdr_len);
	nt_put_bytes(&w->out, body, body_len);
	nt_put_u8(&w->out, NT_TAG_END);
	return 0;
}

/* Append one V6 block (uint32 size | kind << 24, then the content, no
 * padding) to w->out. */
static int v6_block(struct nt_writer *w, uint8_t kind, const void *hdr, size_t hdr_len,
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

void wr_block_reset(struct nt_block *blk)
{
	blk->buf.len = 0;
	blk->count = 0;
	memset(&blk->prev, 0, sizeof(blk->prev));
	blk->min_ts = UINT64_MAX;
	blk->max_ts = 0;
}

/* An Event or Metadata block (V5) or an Event block (V6), with the 20-byte
 * header both formats give it: header size, header compression on, the
 * block's time range.  The block is emptied once it is in w->out. */
static int event_block(struct nt_writer *w, const char *name, uint8_t kind, struct nt_block *blk)
{
	uint8_t hdr[NT_BLOCK_HEADER_SIZE];
	struct nt_buf h = { .data = hdr, .cap = NT_BLOCK_HEADER_SIZE };
	int err;

	nt_put_u16(&h, NT_BLOCK_HEADER_SIZE);
	nt_put_u16(&h, 1);		/* header compression */
	nt_put_u64(&h, blk->min_ts);
	nt_put_u64(&h, blk->max_ts);
	if (w->v6)
		err = v6_block(w, kind, hdr, sizeof(hdr), blk->buf.data, blk->buf.len);
	else
		err = v5_block(w, name, hdr, sizeof(hdr), blk->buf.data, blk->buf.len);
	if (!err)
		wr_block_reset(blk);
	return err;
}

/* A block of rows after a FirstId/Count header (Stack; V6 LabelList); the
 * rows are emptied once they are in w->out. */
static int counted_block(struct nt_writer *w, const char *name, uint8_t kind, uint32_t first,
			 uint32_t count, struct nt_buf *rows)
{
	uint8_t hdr[8];
	struct nt_buf h = { .data = hdr, .cap = sizeof(hdr) };
	int err;

	nt_put_u32(&h, first);
	nt_put_u32(&h, count);
	if (w->v6)
		err = v6_block(w, kind, hdr, sizeof(hdr), rows->data, rows->len);
	else
		err = v5_block(w, name, hdr, sizeof(hdr), rows->data, rows->len);
	if (!err)
		rows->len = 0;
	return err;
}

/* ------------------------------------------------------------ headers */

/* SYSTEMTIME (8 uint16, day of week included) of a wall-clock time */
static void put_systemtime(struct nt_buf *b, const struct timespec *t)
{
	struct tm tm;
	time_t secs = t->tv_sec;

	memset(&tm, 0, sizeof(tm));
	gmtime_r(&secs, &tm);
	nt_put_u16(b, tm.tm_year + 1900);
	nt_put_u16(b, tm.tm_mon + 1);
	nt_put_u16(b, tm.tm_wday);
	nt_put_u16(b, tm.tm_mday);
	nt_put_u16(b, tm.tm_hour);
	nt_put_u16(b, tm.tm_min);
	nt_put_u16(b, tm.tm_sec);
	nt_put_u16(b, t->tv_nsec / 1000000);
}

static int put_key_value(struct nt_buf *b, const char *key, uint64_t value)
{
	char v[24];
	int err;

	snprintf(v, sizeof(v), "%llu", (unsigned long long)value);
	if ((err = nt_buf__str6(b, key)))
		return err;
	return nt_buf__str6(b, v);
}

/* "Nettrace", uint32 0 (tells V6 from the FastSerialization header), major
 * 6, minor 0, then the Trace block: SYSTEMTIME, sync ticks, frequency,
 * pointer size and three key/value pairs. */
static int put_v6_header(struct nt_writer *w)
{
	static const char magic[] = "Nettrace";
	struct nt_buf t = { 0 };
	int err;

	if (nt_buf__reserve(&w->out, 20) || nt_buf__reserve(&t, 40))
		return -ENOMEM;
	nt_put_bytes(&w->out, magic, 8);
	nt_put_u32(&w->out, 0);
	nt_put_u32(&w->out, 6);
	nt_put_u32(&w->out, 0);
	put_systemtime(&t, &w->info.sync_utc);
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
		err = v6_block(w, V6_TRACE, NULL, 0, t.data, t.len);
	nt_buf__free(&t);
	return err;
}

int wr_put_stream_header(struct nt_writer *w)
{
	static const char magic[] = "Nettrace";
	static const char fs[] = "!FastSerialization.1";
	const struct nt_trace_info *info = &w->info;
	struct nt_buf *b = &w->out;

	if (w->v6)
		return put_v6_header(w);
	if (nt_buf__reserve(b, 256))
		return -ENOMEM;
	nt_put_bytes(b, magic, 8);
	nt_put_u32(b, 20);
	nt_put_bytes(b, fs, 20);
	put_object_start(b, "Trace", 4);
	put_systemtime(b, &info->sync_utc);
	nt_put_u64(b, info->sync_ts);
	nt_put_u64(b, info->freq);
	nt_put_u32(b, info->pointer_size);
	nt_put_u32(b, info->pid);
	nt_put_u32(b, info->ncpu);
	nt_put_u32(b, info->sampling_interval_ns);
	nt_put_u8(b, NT_TAG_END);
	return 0;
}

/* ------------------------------------------------------------ on disk */

/* thr's first event of the file is about to be appended: remember it until
 * the blocks are written.  0 or -ENOMEM. */
int wr_queue_first(struct nt_writer *w, struct u64_map_ent *thr)
{
	if (thr->val & (NT_THR_ON_DISK | NT_THR_QUEUED))
		return 0;
	if (w->n_first_pending == w->cap_first_pending) {
		size_t cap = w->cap_first_pending ? 2 * w->cap_first_pending : 64;
		uint64_t *p = realloc(w->first_pending, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		w->first_pending = p;
		w->cap_first_pending = cap;
	}
	w->first_pending[w->n_first_pending++] = thr->key;
	thr->val |= NT_THR_QUEUED;
	return 0;
}

/* The threads whose first event was pending are in the file now. */
static void mark_on_disk(struct nt_writer *w)
{
	size_t i;

	for (i = 0; i < w->n_first_pending; i++) {
		struct u64_map_ent *t = u64_map__find(&w->threads, w->first_pending[i]);

		if (t)
			t->val = (t->val & ~NT_THR_QUEUED) | NT_THR_ON_DISK;
	}
	w->n_first_pending = 0;
}

/* ------------------------------------------------------------ flush */

/* V6's pending blocks into w->out, Thread -> Metadata -> Stack -> LabelList
 * -> Event: in the order their rows are referenced. */
static int v6_blocks(struct nt_writer *w)
{
	struct nt_v6 *v = w->v6;
	int err = 0;

	if (v->thread_rows.len) {
		err = v6_block(w, V6_THREAD, NULL, 0, v->thread_rows.data, v->thread_rows.len);
		if (!err) {
			v->thread_rows.len = 0;
			v->threads_in_out = v->n_threads;
		}
	}
	if (!err && w->meta.count) {
		static const uint8_t hdr[2];	/* uint16 HeaderSize 0: no header fields */

		err = v6_block(w, V6_METADATA, hdr, sizeof(hdr), w->meta.buf.data,
			       w->meta.buf.len);
		if (!err)
			wr_block_reset(&w->meta);
	}
	if (!err && w->stacks_count) {
		err = counted_block(w, NULL, V6_STACK, w->stacks_first_id, w->stacks_count,
				    &w->stacks);
		if (!err)
			w->stacks_count = 0;
	}
	if (!err && v->labels_count) {
		err = counted_block(w, NULL, V6_LABEL_LIST, v->labels_first, v->labels_count,
				    &v->label_rows);
		if (!err)
			v->labels_count = 0;
	}
	if (!err && w->ev.count)
		err = event_block(w, NULL, V6_EVENT, &w->ev);
	return err;
}

/* V5's pending blocks into w->out: Metadata -> Stack -> Event. */
static int v5_blocks(struct nt_writer *w)
{
	int err = 0;

	if (w->meta.count)
		err = event_block(w, "MetadataBlock", 0, &w->meta);
	if (!err && w->stacks_count) {
		err = counted_block(w, "StackBlock", 0, w->stacks_first_id, w->stacks_count,
				    &w->stacks);
		if (!err)
			w->stacks_count = 0;
	}
	if (!err && w->ev.count)
		err = event_block(w, "EventBlock", 0, &w->ev);
	return err;
}

int wr_flush_blocks(struct nt_writer *w)
{
	int err;

	if (w->err)
		return w->err;
	err = w->v6 ? v6_blocks(w) : v5_blocks(w);
	if (err) {
		w->err = err;
		return err;
	}
	err = w->out.len ? wr_out_commit(w) : 0;
	if (!err) {
		w->good_events = w->n_events;	/* no event is pending any more */
		mark_on_disk(w);
	}
	return err;
}

/* ------------------------------------------------------------ sequence points */

/* V5 SPBlock body: timestamp, thread count, then (uint64 capture thread,
 * uint32 sequence) per active thread.  V6 SequencePoint: timestamp, flags 0
 * (threads and metadata stay), thread count, then (varuint index, varuint
 * sequence) per active thread. */
static int sequence_point_body(struct nt_writer *w, uint64_t ts, struct nt_buf *body)
{
	size_t count_at = w->v6 ? 12 : 8;
	uint32_t n_listed = 0;
	int err;

	err = nt_buf__reserve(body, w->v6 ? 16 + w->threads.used * 15 : 12 + w->threads.used * 12);
	if (err)
		return err;
	nt_put_u64(body, ts);
	if (w->v6)
		nt_put_u32(body, 0);
	nt_put_u32(body, 0);	/* thread count, below */
	for (size_t i = 0; i < w->threads.cap; i++) {
		struct u64_map_ent *t = &w->threads.ents[i];

		if (!t->used || !(t->val & NT_THR_ACTIVE))
			continue;
		if (w->v6) {
			nt_put_varint(body, t->key);
			nt_put_varint(body, (uint32_t)t->val);
		} else {
			nt_put_u64(body, t->key);
			nt_put_u32(body, (uint32_t)t->val);
		}
		n_listed++;
	}
	memcpy(body->data + count_at, &n_listed, 4);	/* little-endian hosts only, as everywhere */
	return 0;
}

int wr_write_sequence_point(struct nt_writer *w, uint64_t ts)
{
	struct nt_buf body = { 0 };
	size_t i;
	int err;

	err = wr_flush_blocks(w);
	if (err)
		return err;
	err = sequence_point_body(w, ts, &body);
	if (!err && w->v6)
		err = v6_block(w, V6_SP, NULL, 0, body.data, body.len);
	else if (!err)
		err = v5_block(w, "SPBlock", NULL, 0, body.data, body.len);
	if (!err)
		err = wr_out_commit(w);
	if (err)
		goto cleanup;
	w->last_sp_offset = w->offset;
	for (i = 0; i < w->threads.cap; i++)
		w->threads.ents[i].val &= ~NT_THR_ACTIVE;
	w->n_active = 0;
	wr_forget_stacks(w);	/* new region */
	if (w->v6)
		wr_v6_new_region(w);
cleanup:
	if (err && !w->err)
		w->err = err;
	nt_buf__free(&body);
	return err;
}
