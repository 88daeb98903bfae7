// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * writer.c - streaming .nettrace writer (NetTrace V5 semantics in the
 * version-4 FastSerialization container; docs/nettrace-format.md).  What
 * follows holds for V6 output too; writer_v6.c frames its blocks and maps
 * threads to indexes, the rest is shared.
 *
 * Design
 * ------
 * Three block buffers are kept in memory: a MetadataBlock (definitions), a
 * StackBlock (each distinct stack of the current sequence-point region once)
 * and an EventBlock (compressed event headers + payloads).  When any of them
 * would grow past NT_BLOCK_CAP, all pending blocks are written in the order
 * Metadata -> Stack -> Event with a single write(2), so everything an event
 * references is on disk before the event, and a writer killed at any moment
 * leaves a file that readers can use up to its last whole block.
 *
 * Once NT_SP_INTERVAL bytes have gone to disk since the last sequence point,
 * or the distinct-stack table holds NT_MAX_STACKS entries / NT_MAX_STACK_BYTES
 * of addresses, an SPBlock is written that lists every capture thread's last
 * sequence number; the stack table is then forgotten and stack ids restart at
 * 1 (readers drop their stack caches at every sequence point).  Memory is thus
 * bounded by the block caps, the stack bound and the number of capture threads,
 * never by the length of the trace.
 *
 * Compressed headers follow the runtime's writer: each field is compared with
 * the previous event of the same block (state zeroed per block) and only sent
 * when it differs; the sequence number is per capture thread and sent as
 * "delta minus one" whenever it is not simply previous + 1.  Timestamps are
 * unsigned deltas, so an event older than its predecessor starts a new block;
 * IsSorted is set when an event is not older than any event written before.
 *
 * What TraceEvent's EventCache makes of that (perfview EventCache.cs):
 *  - a block's "current capture thread" is its first event's, and changes
 *    only at IsSorted events; an unsorted event is charged to it, whatever
 *    its own capture thread.  So an unsorted event of another thread opens a
 *    new block, where it is the first.
 *  - a sequence gap counts as lost only after the thread's first event (an
 *    unknown thread starts at whatever number it shows).  So losses noted
 *    on a thread that has no event yet first write an EventsLost marker
 *    event on it (provider ebpf-collect, id 2, UInt32 Count).
 *  - older readers keep at most 5000 threads and count a sequence point's
 *    number for a thread they dropped as lost.  So a sequence point lists
 *    only the threads that wrote or lost events since the previous one.
 *
 * Every write goes through write(2) with full error checking; the first error
 * sticks (all later calls return it) and close() then removes the file --
 * except when the file system is full (ENOSPC, EDQUOT, EFBIG) and the caller
 * asked to keep what fits (nt_writer__finish): the file is then cut back to
 * its last whole block and ended with a sequence point that lists every
 * capture thread's last sequence number, so readers count what did not fit
 * as lost events (salvage()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nettrace.h"
#include "nettrace_internal.h"


static void writer_free(struct nt_writer *w);

/* ------------------------------------------------------------ raw output */

/* The end-of-stream marker: the byte 01 (V5), an empty block of kind 0 (V6) */
static const uint8_t end_marker[4];
static const uint8_t end_marker_v5[1] = { NT_TAG_NULL };

static const uint8_t *end_bytes(const struct nt_writer *w, size_t *len)
{
	*len = w->v6 ? sizeof(end_marker) : sizeof(end_marker_v5);
	return w->v6 ? end_marker : end_marker_v5;
}

static int out_write(struct nt_writer *w, const uint8_t *p, size_t n)
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
static int out_commit(struct nt_writer *w)
{
	size_t end_len, len = w->out.len;
	const uint8_t *end = end_bytes(w, &end_len);
	uint64_t start = w->offset;
	int err;

	err = nt_buf__bytes(&w->out, end, end_len);
	if (!err)
		err = out_write(w, w->out.data, w->out.len);
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

/* Object framing: 05 05 01 version minVersion nameLen name 06 */
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
 * Append a whole block object to w->out.  The bytes before the content are
 * BlockSize and zero padding up to a 4-byte aligned absolute file offset;
 * hdr (hdr_len bytes) and body make up the content.
 */
static int out_block(struct nt_writer *w, const char *name, const void *hdr, size_t hdr_len,
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

static int out_event_block(struct nt_writer *w, const char *name, struct nt_block *blk)
{
	uint8_t hdr[NT_BLOCK_HEADER_SIZE];
	int err;

	wr_block_header(hdr, blk);
	err = out_block(w, name, hdr, sizeof(hdr), blk->buf.data, blk->buf.len);
	if (!err)
		wr_block_reset(blk);
	return err;
}

/* The 20-byte header of an Event or Metadata block, V5 and V6 alike:
 * header size, header compression on, the block's time range. */
void wr_block_header(uint8_t hdr[NT_BLOCK_HEADER_SIZE], const struct nt_block *blk)
{
	struct nt_buf h = { .data = hdr, .cap = NT_BLOCK_HEADER_SIZE };

	nt_put_u16(&h, NT_BLOCK_HEADER_SIZE);
	nt_put_u16(&h, 1);		/* header compression */
	nt_put_u64(&h, blk->min_ts);
	nt_put_u64(&h, blk->max_ts);
}

void wr_block_reset(struct nt_block *blk)
{
	blk->buf.len = 0;
	blk->count = 0;
	memset(&blk->prev, 0, sizeof(blk->prev));
	blk->min_ts = UINT64_MAX;
	blk->max_ts = 0;
}

/* Write every pending block: Metadata -> Stack -> Event. */
int wr_flush_blocks(struct nt_writer *w)
{
	int err = 0;

	if (w->err)
		return w->err;
	if (w->v6)
		err = wr_v6_blocks(w);
	else if (w->meta.count)
		err = out_event_block(w, "MetadataBlock", &w->meta);
	if (!err && !w->v6 && w->stacks_count) {
		uint8_t hdr[8];
		struct nt_buf h = { .data = hdr, .cap = sizeof(hdr) };

		nt_put_u32(&h, w->stacks_first_id);
		nt_put_u32(&h, w->stacks_count);
		err = out_block(w, "StackBlock", hdr, sizeof(hdr), w->stacks.data, w->stacks.len);
		if (!err) {
			w->stacks.len = 0;
			w->stacks_count = 0;
		}
	}
	if (!err && !w->v6 && w->ev.count)
		err = out_event_block(w, "EventBlock", &w->ev);
	if (err) {
		w->err = err;
		return err;
	}
	err = w->out.len ? out_commit(w) : 0;
	if (!err) {
		w->good_events = w->n_events;	/* no event is pending any more */
		wr_mark_on_disk(w);
	}
	return err;
}

/* A new region or a new file: the stacks written so far are forgotten and
 * stack ids restart at 1. */
void wr_forget_stacks(struct nt_writer *w)
{
	if (w->stab_cap)
		memset(w->stab, 0, w->stab_cap * sizeof(*w->stab));
	w->stab_used = 0;
	w->arena_len = 0;
	memset(w->hot, 0, sizeof(w->hot));
	w->next_stack_id = 1;
	w->stacks_first_id = 1;
}

/* Pending blocks, then an SPBlock at timestamp ts; forgets the stack table. */
int wr_write_sequence_point(struct nt_writer *w, uint64_t ts)
{
	struct nt_buf body = { 0 };
	uint32_t n_listed = 0;
	size_t i;
	int err;

	err = wr_flush_blocks(w);
	if (err)
		return err;
	if (w->v6) {
		err = wr_v6_sequence_point(w, ts);
		goto written;
	}
	err = nt_buf__reserve(&body, 12 + w->threads.used * 12);
	if (err)
		goto cleanup;
	nt_put_u64(&body, ts);
	nt_put_u32(&body, 0);	/* thread count, below */
	for (i = 0; i < w->threads.cap; i++) {
		struct nt_map_ent *t = &w->threads.ents[i];

		if (!t->used || !(t->val & NT_THR_ACTIVE))
			continue;
		nt_put_u64(&body, t->key);
		nt_put_u32(&body, (uint32_t)t->val);
		n_listed++;
	}
	memcpy(body.data + 8, &n_listed, 4);	/* little-endian hosts only, as everywhere */
	err = out_block(w, "SPBlock", NULL, 0, body.data, body.len);
written:
	if (err)
		goto cleanup;
	err = out_commit(w);
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

/* ------------------------------------------------------------ open */

void wr_put_systemtime(struct nt_buf *b, const struct timespec *t)
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

static void put_trace_object(struct nt_buf *b, const struct nt_trace_info *info)
{
	put_object_start(b, "Trace", 4);
	wr_put_systemtime(b, &info->sync_utc);
	nt_put_u64(b, info->sync_ts);
	nt_put_u64(b, info->freq);
	nt_put_u32(b, info->pointer_size);
	nt_put_u32(b, info->pid);
	nt_put_u32(b, info->ncpu);
	nt_put_u32(b, info->sampling_interval_ns);
	nt_put_u8(b, NT_TAG_END);
}

int wr_begin_file(struct nt_writer *w, const char *path)
{
	static const char magic[] = "Nettrace";
	static const char fs[] = "!FastSerialization.1";
	char *copy = strdup(path);
	int err;

	if (!copy)
		return -ENOMEM;
	wr_reset_file_state(w);
	free(w->path);
	w->path = copy;
	w->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, NT_FILE_MODE);
	if (w->fd < 0)
		return -errno;
	err = nt_buf__reserve(&w->out, 256);
	if (err)
		goto err_unlink;
	if (w->info.format == 6) {	/* thread indexes and label lists per file */
		wr_v6_free(w);
		err = wr_v6_open(w);
		if (err)
			goto err_unlink;
	} else {
		nt_put_bytes(&w->out, magic, 8);
		nt_put_u32(&w->out, 20);
		nt_put_bytes(&w->out, fs, 20);
		put_trace_object(&w->out, &w->info);
	}
	err = out_commit(w);
	if (err)
		goto err_unlink;
	w->last_sp_offset = w->offset;
	err = wr_replay_metadata(w);
	if (err)
		goto err_unlink;
	return 0;

err_unlink:
	close(w->fd);
	unlink(path);
	w->fd = -1;
	w->err = 0;
	return err;
}

struct nt_writer *nt_writer__open(const char *path, const struct nt_trace_info *info)
{
	struct nt_writer *w;
	int err = 0;

	if ((path && !*path) || !info) {
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		errno = ENOMEM;
		return NULL;
	}
	w->fd = -1;
	w->info = *info;
	if (!w->info.pointer_size)
		w->info.pointer_size = 8;
	if ((w->info.pointer_size != 4 && w->info.pointer_size != 8) ||
	    (w->info.format && w->info.format != 5 && w->info.format != 6))
		err = -EINVAL;
	if (!w->info.freq)
		w->info.freq = 1000000000ULL;
	w->next_meta_id = 1;
	wr_reset_file_state(w);
	if (!err && w->info.format == 6 && !path)
		err = wr_v6_open(w);	/* V6 metadata rows before the first file */
	if (!err && path)
		err = wr_begin_file(w, path);
	if (err) {
		writer_free(w);
		errno = -err;
		return NULL;
	}
	return w;
}

/* ------------------------------------------------------------ events */

static const uint8_t zero_guid[16];

/* The header fields V5 and V6 share (docs/nettrace-format.md section 4.2),
 * each sent when it differs from the previous event's: metadata id,
 * sequence/capture thread/processor, thread, stack, timestamp delta.  Sets
 * *flags to the flags they need; prev takes h's values. */
static inline uint8_t *emit_header_ids(uint8_t *p, uint8_t *flags, struct nt_hdr *prev,
				       const struct nt_hdr *h)
{
	uint8_t f = 0;

	if (h->metadata_id != prev->metadata_id) {
		f |= NT_F_METADATA_ID;
		p = nt_emit_varint(p, h->metadata_id);
	}
	if (prev->sequence + (h->metadata_id ? 1 : 0) != h->sequence ||
	    prev->capture_thread_id != h->capture_thread_id || prev->processor != h->processor) {
		f |= NT_F_CAPTURE;
		p = nt_emit_varint(p, (uint32_t)(h->sequence - prev->sequence - 1));
		p = nt_emit_varint(p, h->capture_thread_id);
		p = nt_emit_varint(p, h->processor);
	}
	if (h->thread_id != prev->thread_id) {
		f |= NT_F_THREAD_ID;
		p = nt_emit_varint(p, h->thread_id);
	}
	if (h->stack_id != prev->stack_id) {
		f |= NT_F_STACK_ID;
		p = nt_emit_varint(p, h->stack_id);
	}
	p = nt_emit_varint(p, h->timestamp - prev->timestamp);
	prev->metadata_id = h->metadata_id;
	prev->sequence = h->sequence;
	prev->capture_thread_id = h->capture_thread_id;
	prev->processor = h->processor;
	prev->thread_id = h->thread_id;
	prev->stack_id = h->stack_id;
	prev->timestamp = h->timestamp;
	*flags = f;
	return p;
}

/* V5: an activity id (NULL = zero) when it differs from the previous one. */
static inline uint8_t *emit_guid(uint8_t *p, uint8_t *flags, uint8_t flag, uint8_t prev[16],
				 const uint8_t *id)
{
	if (!id)
		id = zero_guid;
	if (memcmp(id, prev, 16)) {
		*flags |= flag;
		memcpy(p, id, 16);
		memcpy(prev, id, 16);
		p += 16;
	}
	return p;
}

/* memcpy, with the small sizes most payloads have done inline as two
 * overlapping moves rather than a library call. */
static inline void copy_payload(uint8_t *dst, const uint8_t *src, uint32_t n)
{
	uint64_t a, b;
	uint32_t c, d;

	if (n > 16) {
		memcpy(dst, src, n);
	} else if (n >= 8) {
		memcpy(&a, src, 8);
		memcpy(&b, src + n - 8, 8);
		memcpy(dst, &a, 8);
		memcpy(dst + n - 8, &b, 8);
	} else if (n >= 4) {
		memcpy(&c, src, 4);
		memcpy(&d, src + n - 4, 4);
		memcpy(dst, &c, 4);
		memcpy(dst + n - 4, &d, 4);
	} else if (n) {
		dst[0] = src[0];
		dst[n / 2] = src[n / 2];
		dst[n - 1] = src[n - 1];
	}
}

/* Append the event's compressed header and payload to the EventBlock (room
 * reserved), through one write pointer.  V6 sends the label list id under
 * flag 0x10 in place of the two activity ids, and thread indexes. */
static void append_event(struct nt_writer *w, const struct nt_event *ev,
			 struct nt_map_ent *thr, uint32_t stack_id, uint32_t label, int sorted)
{
	struct nt_hdr *prev = &w->ev.prev;
	uint8_t *flag_at = w->ev.buf.data + w->ev.buf.len, *p;
	uint8_t flags;
	struct nt_hdr h;

	h.metadata_id = ev->metadata_id;
	h.sequence = (uint32_t)thr->val + 1;
	h.capture_thread_id = ev->capture_thread_id;
	h.processor = ev->processor;
	h.thread_id = ev->thread_id;
	h.stack_id = stack_id;
	h.timestamp = ev->timestamp;
	w->n_active += !(thr->val & NT_THR_ACTIVE);
	thr->val = (thr->val & (NT_THR_ON_DISK | NT_THR_QUEUED)) | NT_THR_ACTIVE | h.sequence;
	p = emit_header_ids(flag_at + 1, &flags, prev, &h);
	if (w->v6) {
		if (label != prev->label_list) {
			flags |= NT_F_ACTIVITY_ID;
			p = nt_emit_varint(p, label);
			prev->label_list = label;
		}
	} else if (ev->activity_id || ev->related_activity_id || prev->ids_set) {
		/* (events with no activity ids after others alike send none) */
		p = emit_guid(p, &flags, NT_F_ACTIVITY_ID, prev->activity_id, ev->activity_id);
		p = emit_guid(p, &flags, NT_F_RELATED_ID, prev->related_activity_id,
			      ev->related_activity_id);
		prev->ids_set = !!memcmp(prev->activity_id, zero_guid, 16) ||
				!!memcmp(prev->related_activity_id, zero_guid, 16);
	}
	if (sorted)
		flags |= NT_F_SORTED;
	if (ev->payload_size != prev->payload_size) {
		flags |= NT_F_PAYLOAD_SIZE;
		p = nt_emit_varint(p, ev->payload_size);
		prev->payload_size = ev->payload_size;
	}
	*flag_at = flags;
	copy_payload(p, ev->payload, ev->payload_size);
	w->ev.buf.len = (size_t)(p - w->ev.buf.data) + ev->payload_size;

	w->ev.count++;
	if (ev->timestamp < w->ev.min_ts)
		w->ev.min_ts = ev->timestamp;
	if (ev->timestamp > w->ev.max_ts)
		w->ev.max_ts = ev->timestamp;
	if (sorted)	/* not older than any event before: the newest */
		w->max_ts = ev->timestamp;
	w->any_event = 1;
	w->n_events++;
}

typedef uint64_t nt_v2 __attribute__((vector_size(16)));

/* The differing bits of a[0..8) and b[0..8), folded into one vector. */
static inline nt_v2 diff64(const uint8_t *a, const uint8_t *b)
{
	nt_v2 x0, x1, x2, x3, y0, y1, y2, y3;

	memcpy(&x0, a, 16);
	memcpy(&x1, a + 16, 16);
	memcpy(&x2, a + 32, 16);
	memcpy(&x3, a + 48, 16);
	memcpy(&y0, b, 16);
	memcpy(&y1, b + 16, 16);
	memcpy(&y2, b + 32, 16);
	memcpy(&y3, b + 48, 16);
	return ((x0 ^ y0) | (x1 ^ y1)) | ((x2 ^ y2) | (x3 ^ y3));
}

/*
 * a[0..n) == b[0..n).  A library memcmp of a length that changes from call
 * to call mispredicts on its length classes; for 8 to 24 frames three
 * 64-byte compares at fixed places instead (the first, the last 64 bytes
 * and halfway between), for 25 to 32 four (d a third of the rest): for
 * these lengths they overlap and cover every byte, with no branch on n
 * within a class.
 */
static inline int frames_equal(const uint64_t *a, const uint64_t *b, uint32_t n)
{
	const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;
	size_t len = (size_t)n * 8, d;
	nt_v2 v;

	if (n < 8 || n > 32)
		return !memcmp(a, b, len);
	if (n <= 24) {		/* three windows reach 192 bytes */
		d = (len - 64) / 2;
		v = diff64(x, y) | diff64(x + d, y + d) | diff64(x + len - 64, y + len - 64);
	} else {
		d = (len - 64) / 3;
		v = diff64(x, y) | diff64(x + d, y + d) | diff64(x + 2 * d, y + 2 * d) |
		    diff64(x + len - 64, y + len - 64);
	}
	return !(v[0] | v[1]);
}

/* A stack's id: a repeat of a recent stack is confirmed here, inline;
 * anything else goes to the stack table (writer_stacks.c). */
static inline int stack_id_of(struct nt_writer *w, const uint64_t *ips, uint32_t n, uint32_t *id)
{
	const struct nt_stack_hot *c = wr_stack_hot(w, ips, n);

	if (w->info.pointer_size == 8 && c->id && c->depth == n && c->first == ips[0] &&
	    c->last == ips[n - 1] && frames_equal(w->stack_arena + c->off, ips, n)) {
		*id = c->id;
		return 0;
	}
	return wr_stack_id_for(w, ips, n, id);
}

int nt_writer__write_event(struct nt_writer *w, const struct nt_event *ev)
{
	struct nt_map_ent *thr;
	struct nt_event mapped;
	uint32_t stack_id = 0, label = 0;
	int sorted, err;

	if (!w || !ev)
		return -EINVAL;
	if (w->err)
		return w->err;
	if (w->fd < 0)
		return -EBADF;	/* between files (nt_writer__next_file) */
	if (!ev->metadata_id || ev->metadata_id >= w->next_meta_id ||
	    (ev->payload_size && !ev->payload) || (ev->stack_depth && !ev->stack) ||
	    ev->stack_depth > (1u << 20))
		return -EINVAL;
	/* V6: thread ids become thread indexes of (pid, tid) from here on */
	if (w->v6) {
		err = wr_v6_map_event(w, ev, &mapped);
		if (err)
			return err;
		ev = &mapped;
	}

	/* block boundaries and sequence points come before the stack lookup,
	 * which must resolve in the region the event is written to */
	if (w->ev.count && w->ev.buf.len + NT_MAX_HEADER + ev->payload_size > NT_BLOCK_CAP) {
		err = wr_flush_blocks(w);
		if (err)
			return err;
	}
	/* the thread lookup only when the active-thread bound is reached (rare) */
	if (w->offset - w->last_sp_offset >= NT_SP_INTERVAL ||
	    (w->v6 && w->v6->n_labels >= NT_V6_MAX_LABELS) ||
	    (w->n_active >= NT_SP_MAX_THREADS &&
	     (!(thr = nt_map__find(&w->threads, ev->capture_thread_id)) ||
	      !(thr->val & NT_THR_ACTIVE)))) {
		err = wr_write_sequence_point(w, w->max_ts);
		if (err)
			return err;
	}
	if (ev->stack_depth) {
		err = stack_id_of(w, ev->stack, ev->stack_depth, &stack_id);
		if (err)
			return err;
	}
	if (w->v6 && (ev->activity_id || ev->related_activity_id)) {
		err = wr_v6_label_id(w, ev->activity_id, ev->related_activity_id, &label);
		if (err)
			return err;
	}
	sorted = !w->any_event || ev->timestamp >= w->max_ts;
	/* unsigned timestamp deltas: an older event opens a new block; so does
	 * an unsorted one of a capture thread TraceEvent would not charge it to */
	if (w->ev.count && (ev->timestamp < w->ev.prev.timestamp ||
			    (!sorted && ev->capture_thread_id != w->ev_thread))) {
		err = wr_flush_blocks(w);
		if (err)
			return err;
	}
	err = nt_buf__reserve(&w->ev.buf, NT_MAX_HEADER + ev->payload_size);
	if (err)
		return err;
	thr = w->thr_last;
	if (!thr || thr->key != ev->capture_thread_id) {
		err = nt_map__get(&w->threads, ev->capture_thread_id, &thr);
		if (err)
			return err;
		w->thr_last = thr;
	}
	err = wr_queue_first(w, thr);
	if (err)
		return err;
	if (sorted || !w->ev.count)
		w->ev_thread = ev->capture_thread_id;
	append_event(w, ev, thr, stack_id, label, sorted);
	return 0;
}

/* One of the writer's own events (provider "ebpf-collect"), defined on first use
 * into *meta_id, on no CPU. */
static int write_own_event(struct nt_writer *w, const struct nt_event_desc *desc,
			   uint32_t *meta_id, const void *payload, uint32_t size, uint64_t ts,
			   uint32_t pid, uint64_t tid)
{
	int err;

	if (!*meta_id && (err = nt_writer__define(w, desc, meta_id)))
		return err;
	return nt_writer__write_event(w, &(struct nt_event){
		.metadata_id = *meta_id, .timestamp = ts, .thread_id = tid,
		.capture_thread_id = tid, .processor = NT_NO_PROCESSOR, .payload = payload,
		.payload_size = size, .pid = pid });
}

/* The first event of a capture thread that loses events before it wrote any:
 * TraceEvent only counts a gap after an event it has seen on the thread. */
static int write_lost_marker(struct nt_writer *w, uint32_t pid, uint64_t capture_thread_id,
			     uint32_t n)
{
	static const struct nt_field_desc fields[] = {
		{ .name = "Count", .type = NT_TYPE_UINT32 },
	};
	static const struct nt_event_desc desc = {
		.provider = "ebpf-collect",
		.event_id = 2,
		.name = "EventsLost",
		.level = 3,
		.fields = fields,
		.n_fields = 1,
	};
	uint8_t payload[4];

	memcpy(payload, &n, 4);
	return write_own_event(w, &desc, &w->lost_meta_id, payload, sizeof(payload),
			       w->any_event ? w->max_ts : w->info.sync_ts, pid, capture_thread_id);
}

int nt_writer__note_lost_pid(struct nt_writer *w, uint32_t pid, uint64_t capture_thread_id,
			     uint32_t n)
{
	struct nt_map_ent *thr;
	uint64_t key = capture_thread_id;	/* V6: the thread's index */
	int err;

	if (!w)
		return -EINVAL;
	if (w->err)
		return w->err;
	if (w->fd < 0)
		return -EBADF;
	if (!n)
		return 0;
	if (w->v6 && (err = wr_v6_thread_index(w, pid ? pid : w->info.pid, capture_thread_id,
					       &key)))
		return err;
	w->thr_last = NULL;	/* the insertion may move the table */
	err = nt_map__get(&w->threads, key, &thr);
	if (err)
		return err;
	if (!(uint32_t)thr->val) {
		err = write_lost_marker(w, pid, capture_thread_id, n);
		if (err)
			return err;
		err = nt_map__get(&w->threads, key, &thr);	/* may have moved */
		if (err)
			return err;
	}
	w->n_active += !(thr->val & NT_THR_ACTIVE);
	thr->val = (thr->val & (NT_THR_ON_DISK | NT_THR_QUEUED)) | NT_THR_ACTIVE |
		   (uint32_t)(thr->val + n);
	return 0;
}

int nt_writer__note_lost(struct nt_writer *w, uint64_t capture_thread_id, uint32_t n)
{
	uint32_t pid = w && w->v6 ? wr_v6_capture_pid(w, capture_thread_id) : 0;

	return nt_writer__note_lost_pid(w, pid, capture_thread_id, n);
}

int nt_writer__flush(struct nt_writer *w)
{
	if (!w)
		return -EINVAL;
	if (w->err)
		return w->err;
	if (w->fd < 0)
		return -EBADF;
	return wr_write_sequence_point(w, w->max_ts);
}

uint64_t nt_writer__bytes(const struct nt_writer *w)
{
	return w ? w->offset : 0;
}

uint64_t nt_writer__events(const struct nt_writer *w)
{
	return w ? w->n_events : 0;
}

/* ------------------------------------------------------------ close */

static int write_loss_summary(struct nt_writer *w, const struct nt_loss_summary *loss,
			      uint64_t ts)
{
	static const struct nt_field_desc fields[] = {
		{ .name = "EventsWritten", .type = NT_TYPE_UINT64 },
		{ .name = "RingbufDrops", .type = NT_TYPE_UINT64 },
		{ .name = "TruncatedPayloads", .type = NT_TYPE_UINT64 },
		{ .name = "TruncatedStacks", .type = NT_TYPE_UINT64 },
		{ .name = "UnreadableMaps", .type = NT_TYPE_UINT64 },
		{ .name = "OtherDrops", .type = NT_TYPE_UINT64 },
	};
	static const struct nt_event_desc desc = {
		.provider = "ebpf-collect",
		.event_id = 1,
		.name = "LossSummary",
		.level = 4,
		.fields = fields,
		.n_fields = 6,
	};
	uint8_t payload[48];
	struct nt_buf p = { .data = payload, .cap = sizeof(payload) };

	nt_put_u64(&p, loss->events_written ? loss->events_written : w->n_events);
	nt_put_u64(&p, loss->ringbuf_drops);
	nt_put_u64(&p, loss->truncated_payloads);
	nt_put_u64(&p, loss->truncated_stacks);
	nt_put_u64(&p, loss->unreadable_maps);
	nt_put_u64(&p, loss->other_drops);
	return write_own_event(w, &desc, &w->loss_meta_id, payload, sizeof(payload), ts, 0, 0);
}

static void writer_free(struct nt_writer *w)
{
	nt_buf__free(&w->meta.buf);
	nt_buf__free(&w->ev.buf);
	nt_buf__free(&w->stacks);
	nt_buf__free(&w->out);
	nt_buf__free(&w->meta_hist);
	nt_map__free(&w->threads);
	free(w->first_pending);
	wr_v6_free(w);
	free(w->stab);
	free(w->stack_arena);
	free(w->path);
	free(w);
}

/*
 * The file system is full: cut the file back to its last whole write, drop
 * what is pending, and end the stream with an SPBlock (every capture
 * thread's last sequence number: readers count the events that are not in
 * the file as lost; those of threads with no event left in the file on
 * thread 0, wr_move_unseen_losses) and the end-of-stream byte.  If those bytes
 * do not fit either, cut back again: the file then ends at a block
 * boundary, readable up to there, and readers report it as truncated.
 * Returns 0 (the file is kept, *out says how) or -errno (it could not even
 * be cut).
 */
static int salvage(struct nt_writer *w, uint64_t ts, struct nt_salvage *out)
{
	size_t end_len;
	const uint8_t *end = end_bytes(w, &end_len);
	uint64_t cut = w->good_offset, handed = w->n_events;
	int err = 0;

	out->events = w->good_events;
	out->lost = w->n_events - w->good_events;
	if (ftruncate(w->fd, cut) || lseek(w->fd, cut, SEEK_SET) < 0)
		return -errno;
	w->offset = cut;
	w->err = 0;
	w->out.len = 0;
	wr_block_reset(&w->meta);	/* the marker of wr_move_unseen_losses may follow */
	wr_block_reset(&w->ev);
	w->stacks.len = w->stacks_count = 0;
	err = w->v6 ? wr_v6_drop_pending(w) : 0;
	if (!err)
		err = wr_move_unseen_losses(w);
	if (!err)
		err = wr_write_sequence_point(w, ts);
	if (!err)
		err = out_write(w, end, end_len);
	if (!err && fsync(w->fd))
		err = -errno;
	out->finalized = !err;
	if (err && (ftruncate(w->fd, cut) || fsync(w->fd)))
		return -errno;
	out->bytes = err ? cut : w->offset;
	if (!err)
		out->events += w->n_events - handed;	/* the marker, if any */
	return 0;
}

int wr_end_file(struct nt_writer *w, const struct nt_loss_summary *loss, uint64_t last_ts,
		struct nt_salvage *salvaged)
{
	size_t end_len;
	const uint8_t *end;
	int err;

	if (salvaged)
		memset(salvaged, 0, sizeof(*salvaged));
	end = end_bytes(w, &end_len);
	err = w->err;
	if (w->any_event && last_ts < w->max_ts)
		last_ts = w->max_ts;
	if (!err && loss)
		err = write_loss_summary(w, loss, last_ts);
	if (!err)
		err = wr_write_sequence_point(w, last_ts);
	if (!err)
		err = out_write(w, end, end_len);
	if (!err && fsync(w->fd))
		err = -errno;
	if (err && salvaged && nt_writer__is_space_error(err) && !salvage(w, last_ts, salvaged))
		salvaged->kept = 1;
	if (close(w->fd) && !err)
		err = -errno;
	w->fd = -1;
	if (err && !(salvaged && salvaged->kept))
		unlink(w->path);
	return err;
}

int nt_writer__finish(struct nt_writer *w, const struct nt_loss_summary *loss,
		      uint64_t last_ts, struct nt_salvage *salvaged)
{
	int err = 0;

	if (!w)
		return -EINVAL;
	if (salvaged)
		memset(salvaged, 0, sizeof(*salvaged));
	if (w->fd >= 0)
		err = wr_end_file(w, loss, last_ts, salvaged);
	writer_free(w);
	return err;
}

int nt_writer__close(struct nt_writer *w, const struct nt_loss_summary *loss,
		     uint64_t last_ts)
{
	return nt_writer__finish(w, loss, last_ts, NULL);
}

void nt_writer__abort(struct nt_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0) {
		close(w->fd);
		unlink(w->path);
	}
	writer_free(w);
}
