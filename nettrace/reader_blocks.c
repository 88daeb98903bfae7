// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * reader_blocks.c - what the reader's two containers (reader_v5.c,
 * reader_v6.c) share once a block is framed: event headers, compressed or
 * not (docs/nettrace-format.md section 4); EventBlocks, checked whole and
 * then delivered one event at a time; StackBlocks, kept as (offset, size)
 * per id until the next sequence point, as TraceEvent keeps them; sequence
 * numbers and the events lost by their gaps; and the reader's error, with
 * the offset where it stopped.
 *
 * An EventBlock is decoded completely (and every check of
 * docs/nettrace-format.md section 8 applied: known metadata id, stack id
 * defined in the current sequence-point region, V6 threads defined, events
 * ending exactly at the block end) before the first of its events is handed
 * out, so the caller gets every event of every whole, valid block and then
 * a clean stop with an offset and a reason - never a partial block, never a
 * crash.  It is then decoded again event by event, so memory does not
 * depend on the block size.  Lost events are counted from gaps in each
 * capture thread's sequence numbers and from sequence points listing a
 * higher number than was seen.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nettrace_internal.h"
#include "grow.h"

int rd_fail(struct nt_reader *r, uint64_t off, const char *fmt, ...)
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

/* ------------------------------------------------------------ event blobs */

/* decode_blob modes */
enum { BLOB_UNCOMPRESSED, BLOB_V5, BLOB_V6 };

/* A NetPerf-era fixed header (docs/nettrace-format.md section 4.3). */
static int decode_uncompressed(const uint8_t **pp, const uint8_t *end, const uint8_t *base,
			       struct nt_hdr *ev, const char **why)
{
	const uint8_t *p = *pp;
	uint32_t id;

	if (end - p < 4 + 4 + 4 + 8 + 8 + 4 + 4 + 8 + 32 + 4) {
		*why = "uncompressed event header truncated";
		return -1;
	}
	id = nt_get_u32(p + 4);
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

/*
 * Decode one blob header at *pp (compressed: docs/nettrace-format.md
 * section 4.2 - in V6 flag 0x10 is a label-list id and 0x20 is unused -
 * else 4.3) into ev, which holds the previous blob's header: the fields
 * the flags leave out keep their values.  Decoded in place, with no copy of
 * the header per event (the reader's hottest loop); on an error ev is left
 * half updated and the block is not read further.  Returns 0 or -1 with a static reason in *why.
 * Always inline: its callers pass BLOB_V5 as a constant for the blocks
 * every V5 file is made of, and the mode's branches then fold away.
 */
static inline __attribute__((always_inline)) int
decode_blob(const uint8_t **pp, const uint8_t *end, const uint8_t *base, int mode,
	    struct nt_hdr *ev, const char **why)
{
	const uint8_t *p = *pp;
	uint64_t v;
	size_t n;

#define VARINT(max, dst) do {						\
		n = nt_get_varint(p, end, (max), &v);			\
		if (!n) { *why = "bad or truncated varint in event header"; return -1; } \
		p += n; (dst) = v;					\
	} while (0)

	if (mode == BLOB_UNCOMPRESSED)
		return decode_uncompressed(pp, end, base, ev, why);

	uint8_t flags = *p++;

	if (flags & NT_F_METADATA_ID)
		VARINT(5, ev->metadata_id);
	if (flags & NT_F_CAPTURE) {
		uint32_t d;

		VARINT(5, d);
		ev->sequence += d + 1;
		VARINT(10, ev->capture_thread_id);
		VARINT(5, ev->processor);
	} else if (ev->metadata_id) {
		ev->sequence++;
	}
	if (flags & NT_F_THREAD_ID)
		VARINT(10, ev->thread_id);
	if (flags & NT_F_STACK_ID)
		VARINT(5, ev->stack_id);
	VARINT(10, v);
	ev->timestamp += v;
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

/* Decode every blob of an Event or Metadata block and give each to fn;
 * *first and *mode say where the blobs start and how they are encoded. */
static inline __attribute__((always_inline)) int
walk_blobs(struct nt_reader *r, size_t start, size_t len, const char *what, rd_blob_fn fn,
	   size_t *first, int *mode)
{
	const uint8_t *p, *end = r->data + start + len;
	struct nt_hdr ev;
	const char *why;

	if (block_header(r, start, len, first, mode))
		return -1;
	memset(&ev, 0, sizeof(ev));
	for (p = r->data + *first; p < end;) {
		size_t blob = p - r->data;
		int bad = *mode == BLOB_V5 ? decode_blob(&p, end, r->data, BLOB_V5, &ev, &why) :
					     decode_blob(&p, end, r->data, *mode, &ev, &why);

		if (bad)
			return rd_fail(r, blob, "%s: %s", what, why);
		if (fn(r, &ev, blob))
			return -1;
	}
	return 0;
}

/* The same for a V5 MetadataBlock (reader_v5.c); within this file the
 * walk over an EventBlock stays inline, with its check inlined too (always
 * inline: left to itself the compiler made the walk a function and the
 * check an indirect call per event). */
int rd_walk_blobs(struct nt_reader *r, size_t start, size_t len, const char *what,
		  rd_blob_fn fn, size_t *first, int *mode)
{
	return walk_blobs(r, start, len, what, fn, first, mode);
}

int rd_read_stack_block(struct nt_reader *r, size_t start, size_t len)
{
	const uint8_t *p = r->data + start, *end = p + len;
	uint32_t first_id, count, psize = r->info.pointer_size;
	struct u64_map_ent *e;

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
		if (u64_map__find(&r->stack_ids, id))
			return rd_fail(r, off,
				       "stack id %u defined twice in one sequence-point region", id);
		if (GROW(r->stacks, r->cap_stacks, r->n_stacks + 1))
			return rd_fail(r, off, "out of memory");
		if (u64_map__get(&r->stack_ids, id, &e))
			return rd_fail(r, off, "out of memory");
		if (!r->n_stacks) {
			r->stack_first_id = id;
			r->stacks_dense = 1;
		} else if (id != r->stack_first_id + r->n_stacks) {
			r->stacks_dense = 0;
		}
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

/* A sequence point: the stacks of the region are forgotten (ids are
 * defined again after it). */
void rd_forget_stacks(struct nt_reader *r)
{
	u64_map__clear(&r->stack_ids);
	r->n_stacks = 0;
	r->buf_stack_id = 0;
}

/* Count sequence gaps of one capture thread up to seq. */
/* Returns the events lost before seq (0: none). */
uint32_t rd_note_sequence(struct nt_reader *r, uint64_t thread, uint32_t seq, int from_sp)
{
	struct u64_map_ent *e = r->buf_thread;
	uint32_t last, gap;

	/* consecutive events mostly come from one capture thread: keep its
	 * entry (valid until the next insertion, which goes through here) */
	if (!e || e->key != thread) {
		if (u64_map__get(&r->threads, thread, &e))
			return 0;
		r->buf_thread = e;
	}
	last = (uint32_t)e->val;
	gap = seq - last - (from_sp ? 0 : 1);
	/* a "gap" of more than 2^31 is a reordering, not a loss */
	if (seq != last && gap < 0x80000000u) {
		struct u64_map_ent *l;

		r->lost += gap;
		e->val = seq;
		if (gap && !u64_map__get(&r->thread_lost, thread, &l))
			l->val += gap;
		return gap;
	}
	return 0;
}

/* rd_note_sequence for an event, with its common case inline: the last
 * event's capture thread, its next number (no gap). */
static inline uint32_t note_event_sequence(struct nt_reader *r, uint64_t thread, uint32_t seq)
{
	struct u64_map_ent *e = r->buf_thread;

	if (e && e->key == thread && seq == (uint32_t)e->val + 1) {
		e->val = seq;
		return 0;
	}
	return rd_note_sequence(r, thread, seq, 0);
}

/* An event's references: metadata, stack and (V6) threads are defined. */
static int check_event_blob(struct nt_reader *r, const struct nt_hdr *ev, size_t blob)
{
	if (rd_meta_index(r, ev->metadata_id) < 0)
		return rd_fail(r, blob, "event uses undefined metadata id %u", ev->metadata_id);
	if (ev->stack_id && rd_stack_index(r, ev->stack_id) < 0)
		return rd_fail(r, blob, "event uses stack id %u, not defined since the "
			       "last sequence point", ev->stack_id);
	if (r->v6 && (!u64_map__find(&r->v6_threads, ev->thread_id) ||
		      !u64_map__find(&r->v6_threads, ev->capture_thread_id)))
		return rd_fail(r, blob, "event uses thread index %" PRIu64 "/%" PRIu64
			       " not defined by a Thread block", ev->thread_id,
			       ev->capture_thread_id);
	return 0;
}

/*
 * Validate a whole EventBlock (every header decodes, references defined
 * metadata and stacks, the last event ends exactly at the block end) without
 * storing anything; rd_next_in_block then decodes it again one event at a
 * time, so memory does not depend on the block size.
 */
int rd_read_event_block(struct nt_reader *r, size_t start, size_t len)
{
	const uint8_t *end = r->data + start + len;
	size_t first = 0;
	int mode = 0;

	if (walk_blobs(r, start, len, "EventBlock", check_event_blob, &first, &mode))
		return -1;
	r->blk_p = r->data + first;
	r->blk_end = end;
	r->blk_mode = mode;
	memset(&r->blk_prev, 0, sizeof(r->blk_prev));
	return 0;
}

/* A SYSTEMTIME (year, month, day of week, day, hour, minute, second, ms:
 * 8 x uint16, UTC) as a timespec; the V5 Trace object and the V6 Trace block
 * both start with one. */
struct timespec rd_systemtime(const uint8_t *p)
{
	struct tm tm = { 0 };
	struct timespec ts;

	tm.tm_year = nt_get_u16(p) - 1900;
	tm.tm_mon = nt_get_u16(p + 2) - 1;
	tm.tm_mday = nt_get_u16(p + 6);
	tm.tm_hour = nt_get_u16(p + 8);
	tm.tm_min = nt_get_u16(p + 10);
	tm.tm_sec = nt_get_u16(p + 12);
	ts.tv_sec = timegm(&tm);
	ts.tv_nsec = (long)(nt_get_u16(p + 14) % 1000) * 1000000;
	return ts;
}

/* The stack of a validated event: 8-byte addresses that lie 8-byte aligned
 * in memory are handed out where they are (they stay there as long as the
 * payload does); others are copied into r->stack_buf (the last event's is
 * still there). */
static void fill_stack(struct nt_reader *r, uint32_t stack_id, struct nt_read_event *ev)
{
	const struct rd_stack *s = &r->stacks[rd_stack_index(r, stack_id)];
	/* (a shift, not a division per event: the header allows 4 or 8 only) */
	uint32_t psize = r->info.pointer_size, n = s->bytes >> (psize == 8 ? 3 : 2);

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (psize == 8 && !((uintptr_t)(r->data + s->off) % 8)) {
		ev->stack = n ? (const uint64_t *)(const void *)(r->data + s->off) : NULL;
		ev->stack_depth = n;
		return;
	}
#endif
	if (stack_id != r->buf_stack_id) {
		if (n > r->stack_cap) {
			uint64_t *nb = realloc(r->stack_buf, n * sizeof(*nb));

			if (!nb)
				n = r->stack_cap;	/* deliver what fits */
			else {
				r->stack_buf = nb;
				r->stack_cap = n;
			}
		}
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (psize == 8 && n)	/* n 0: stack_buf may still be NULL */
			memcpy(r->stack_buf, r->data + s->off, (size_t)n * 8);
		else
#endif
		for (uint32_t i = 0; i < n; i++)
			r->stack_buf[i] = psize == 8 ? nt_get_u64(r->data + s->off + 8 * i) :
						       nt_get_u32(r->data + s->off + 4 * i);
		r->buf_stack_id = stack_id;
		r->buf_stack_depth = n;
	}
	ev->stack = r->stack_buf;
	ev->stack_depth = r->buf_stack_depth;
}

/* Thread indexes -> OS process and thread ids (the index when the Thread
 * row gave no id), label list -> activity ids. */
static void fill_v6(struct nt_reader *r, const struct nt_hdr *e, struct nt_read_event *ev)
{
	struct u64_map_ent *t = u64_map__find(&r->v6_threads, e->thread_id);

	if (t && t->val)
		ev->thread_id = t->val - 1;
	t = u64_map__find(&r->v6_pids, e->thread_id);
	if (t)
		ev->pid = t->val - 1;
	t = u64_map__find(&r->v6_threads, e->capture_thread_id);
	if (t && t->val)
		ev->capture_thread_id = t->val - 1;
	t = e->label_list ? u64_map__find(&r->v6_labels, e->label_list) : NULL;
	if (t) {
		memcpy(ev->activity_id, r->label_ids[t->val], 16);
		memcpy(ev->related_activity_id, r->label_ids[t->val] + 16, 16);
	}
}

/* Every field of ev, assigned one by one (no clearing pass first). */
static void fill_event(struct nt_reader *r, const struct nt_hdr *e, struct nt_read_event *ev)
{
	if (e->metadata_id != r->buf_meta_id) {	/* the last event's metadata */
		r->buf_meta = r->metas[rd_meta_index(r, e->metadata_id)];
		r->buf_meta_id = e->metadata_id;
	}
	ev->meta = r->buf_meta;
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
	ev->stack = NULL;
	ev->stack_depth = 0;
	if (e->stack_id)
		fill_stack(r, e->stack_id, ev);
	ev->lost_before = note_event_sequence(r, e->capture_thread_id, e->sequence);
	ev->pid = r->info.pid;
	if (r->v6)
		fill_v6(r, e, ev);
}

/* The next event of the validated EventBlock, if it has one left. */
int rd_next_in_block(struct nt_reader *r, struct nt_read_event *ev)
{
	const char *why;
	size_t blob;

	if (!r->blk_p || r->blk_p >= r->blk_end) {
		r->blk_p = r->blk_end = NULL;
		return 0;
	}
	blob = r->blk_p - r->data;
	/* cannot fail: the block was validated by rd_read_event_block */
	if (r->blk_mode == BLOB_V5)
		decode_blob(&r->blk_p, r->blk_end, r->data, BLOB_V5, &r->blk_prev, &why);
	else
		decode_blob(&r->blk_p, r->blk_end, r->data, r->blk_mode, &r->blk_prev, &why);
	r->blk_prev.blob_off = blob;
	fill_event(r, &r->blk_prev, ev);
	return 1;
}
