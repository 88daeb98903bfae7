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
	if (!err)
		w->good_events = w->n_events;	/* no event is pending any more */
	return err;
}

/* Pending blocks, then an SPBlock at timestamp ts; forgets the stack table. */
static int write_sequence_point(struct nt_writer *w, uint64_t ts)
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
	/* new region: stacks are forgotten, ids restart at 1 */
	if (w->stab_cap)
		memset(w->stab, 0, w->stab_cap * sizeof(*w->stab));
	w->stab_used = 0;
	w->arena_len = 0;
	w->next_stack_id = 1;
	w->stacks_first_id = 1;
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
	w->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
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

/* ------------------------------------------------------------ stacks */

/*
 * The dedup table's hash of a stack: four lanes of one multiply and one
 * shift per address, so the loop is not one chain of dependent multiplies
 * (a full hash64 per frame was most of the writer's time); hash64 mixes
 * the lanes at the end.  Equal hashes are confirmed by stack_equal.
 */
#define LANE(h, x, k, r) ((h) = ((h) ^ (x)) * (k), (h) ^= (h) >> (r))

static uint64_t stack_hash(const uint64_t *ips, uint32_t n, uint32_t psize)
{
	uint64_t a = 0x9e3779b97f4a7c15ULL ^ n, b = 0xc2b2ae3d27d4eb4fULL;
	uint64_t c = 0x165667b19e3779f9ULL, d = 0x27d4eb2f165667c5ULL;
	uint64_t mask = psize == 4 ? 0xffffffffULL : ~0ULL;
	uint32_t i;

	for (i = 0; i + 3 < n; i += 4) {
		LANE(a, ips[i] & mask, 0xff51afd7ed558ccdULL, 32);
		LANE(b, ips[i + 1] & mask, 0xc4ceb9fe1a85ec53ULL, 29);
		LANE(c, ips[i + 2] & mask, 0x9e3779b97f4a7c15ULL, 31);
		LANE(d, ips[i + 3] & mask, 0xd6e8feb86659fd93ULL, 30);
	}
	for (; i < n; i++)
		LANE(a, ips[i] & mask, 0xff51afd7ed558ccdULL, 32);
	return hash64(a ^ (b << 17 | b >> 47) ^ (c << 31 | c >> 33) ^ (d << 47 | d >> 17));
}
#undef LANE

static int stack_equal(const struct nt_writer *w, const struct nt_stack_ent *e,
		       const uint64_t *ips, uint32_t n)
{
	const uint64_t *a = w->stack_arena + e->off;

	if (e->depth != n)
		return 0;
	if (w->info.pointer_size == 8)
		return !memcmp(a, ips, (size_t)n * 8);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t x = ips[i];

		if (w->info.pointer_size == 4)
			x = (uint32_t)x;
		if (a[i] != x)
			return 0;
	}
	return 1;
}

static int stab_grow(struct nt_writer *w)
{
	uint32_t ncap = w->stab_cap ? w->stab_cap * 2 : 1024;
	struct nt_stack_ent *n = calloc(ncap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (uint32_t i = 0; i < w->stab_cap; i++) {
		uint32_t j;

		if (!w->stab[i].id)
			continue;
		for (j = w->stab[i].hash & (ncap - 1); n[j].id; j = (j + 1) & (ncap - 1))
			;
		n[j] = w->stab[i];
	}
	free(w->stab);
	w->stab = n;
	w->stab_cap = ncap;
	return 0;
}

/*
 * Id of this stack in the current SP region, adding it to the pending
 * StackBlock if new.  May write blocks or a sequence point first.
 */
static int stack_id_for(struct nt_writer *w, const uint64_t *ips, uint32_t n, uint32_t *id)
{
	uint32_t psize = w->info.pointer_size;
	uint64_t h = stack_hash(ips, n, psize);
	size_t bytes = (size_t)n * psize;
	struct nt_stack_ent *e;
	uint32_t i;
	int err;

	if (w->stab_cap) {
		for (i = h & (w->stab_cap - 1); w->stab[i].id; i = (i + 1) & (w->stab_cap - 1)) {
			if (w->stab[i].hash == h && stack_equal(w, &w->stab[i], ips, n)) {
				*id = w->stab[i].id;
				return 0;
			}
		}
	}
	/* new stack: keep the region bounded */
	if (w->stab_used >= NT_MAX_STACKS || (w->arena_len + n) * 8 > NT_MAX_STACK_BYTES) {
		err = write_sequence_point(w, w->max_ts);
		if (err)
			return err;
	}
	if (w->stacks_count && w->stacks.len + 4 + bytes > NT_BLOCK_CAP) {
		err = wr_flush_blocks(w);
		if (err)
			return err;
	}
	if ((w->stab_used + 1) * 2 > w->stab_cap && (err = stab_grow(w)))
		return err;
	if (w->arena_len + n > w->arena_cap) {
		size_t ncap = w->arena_cap ? w->arena_cap : 4096;
		uint64_t *p;

		while (ncap < w->arena_len + n)
			ncap *= 2;
		p = realloc(w->stack_arena, ncap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		w->stack_arena = p;
		w->arena_cap = ncap;
	}
	if (nt_buf__reserve(&w->stacks, 4 + bytes))
		return -ENOMEM;
	if (!w->stacks_count)
		w->stacks_first_id = w->next_stack_id;
	nt_put_u32(&w->stacks, bytes);
	for (i = 0; i < n; i++) {
		uint64_t x = psize == 4 ? (uint32_t)ips[i] : ips[i];

		if (psize == 4)
			nt_put_u32(&w->stacks, x);
		else
			nt_put_u64(&w->stacks, x);
		w->stack_arena[w->arena_len + i] = x;
	}
	w->stacks_count++;
	for (i = h & (w->stab_cap - 1); w->stab[i].id; i = (i + 1) & (w->stab_cap - 1))
		;
	e = &w->stab[i];
	e->hash = h;
	e->off = w->arena_len;
	e->depth = n;
	e->id = w->next_stack_id++;
	w->arena_len += n;
	w->stab_used++;
	*id = e->id;
	return 0;
}

/* ------------------------------------------------------------ events */

static const uint8_t zero_guid[16];

/* The header fields V5 and V6 share, each sent when it differs from the
 * previous event's (docs/nettrace-format.md section 4.2): metadata id,
 * sequence/capture thread/processor, thread, stack, timestamp delta.
 * Returns the flags they set; the flags byte at its place is written last. */
uint8_t wr_put_header_ids(struct nt_buf *b, const struct nt_hdr *prev, const struct nt_hdr *h)
{
	uint8_t flags = 0;

	if (h->metadata_id != prev->metadata_id) {
		flags |= NT_F_METADATA_ID;
		nt_put_varint(b, h->metadata_id);
	}
	if (prev->sequence + (h->metadata_id ? 1 : 0) != h->sequence ||
	    prev->capture_thread_id != h->capture_thread_id || prev->processor != h->processor) {
		flags |= NT_F_CAPTURE;
		nt_put_varint(b, (uint32_t)(h->sequence - prev->sequence - 1));
		nt_put_varint(b, h->capture_thread_id);
		nt_put_varint(b, h->processor);
	}
	if (h->thread_id != prev->thread_id) {
		flags |= NT_F_THREAD_ID;
		nt_put_varint(b, h->thread_id);
	}
	if (h->stack_id != prev->stack_id) {
		flags |= NT_F_STACK_ID;
		nt_put_varint(b, h->stack_id);
	}
	nt_put_varint(b, h->timestamp - prev->timestamp);
	return flags;
}

/* The sorted flag, the payload size when it changed, the flags byte at
 * flag_pos; h becomes the previous header. */
void wr_put_header_end(struct nt_buf *b, size_t flag_pos, uint8_t flags, struct nt_hdr *prev,
		       const struct nt_hdr *h, int sorted)
{
	if (sorted)
		flags |= NT_F_SORTED;
	if (h->payload_size != prev->payload_size) {
		flags |= NT_F_PAYLOAD_SIZE;
		nt_put_varint(b, h->payload_size);
	}
	b->data[flag_pos] = flags;
	*prev = *h;
}

static void encode_header(struct nt_buf *b, struct nt_hdr *prev, const struct nt_hdr *h,
			  int sorted)
{
	size_t flag_pos = b->len;
	uint8_t flags;

	nt_put_u8(b, 0);
	flags = wr_put_header_ids(b, prev, h);
	if (memcmp(h->activity_id, prev->activity_id, 16)) {
		flags |= NT_F_ACTIVITY_ID;
		nt_put_bytes(b, h->activity_id, 16);
	}
	if (memcmp(h->related_activity_id, prev->related_activity_id, 16)) {
		flags |= NT_F_RELATED_ID;
		nt_put_bytes(b, h->related_activity_id, 16);
	}
	wr_put_header_end(b, flag_pos, flags, prev, h, sorted);
}

/* Append the event's header and payload to the EventBlock (room reserved). */
static void append_event(struct nt_writer *w, const struct nt_event *ev,
			 struct nt_map_ent *thr, uint32_t stack_id, uint32_t label, int sorted)
{
	struct nt_hdr h;

	memset(&h, 0, sizeof(h));
	h.metadata_id = ev->metadata_id;
	h.sequence = (uint32_t)thr->val + 1;
	w->n_active += !(thr->val & NT_THR_ACTIVE);
	thr->val = NT_THR_ACTIVE | h.sequence;
	h.capture_thread_id = ev->capture_thread_id;
	h.processor = ev->processor;
	h.thread_id = ev->thread_id;
	h.stack_id = stack_id;
	h.timestamp = ev->timestamp;
	memcpy(h.activity_id, ev->activity_id ? ev->activity_id : zero_guid, 16);
	memcpy(h.related_activity_id,
	       ev->related_activity_id ? ev->related_activity_id : zero_guid, 16);
	h.payload_size = ev->payload_size;
	h.label_list = label;
	if (w->v6)
		wr_v6_encode_header(&w->ev.buf, &w->ev.prev, &h, sorted);
	else
		encode_header(&w->ev.buf, &w->ev.prev, &h, sorted);
	nt_put_bytes(&w->ev.buf, ev->payload, ev->payload_size);

	w->ev.count++;
	if (ev->timestamp < w->ev.min_ts)
		w->ev.min_ts = ev->timestamp;
	if (ev->timestamp > w->ev.max_ts)
		w->ev.max_ts = ev->timestamp;
	if (!w->any_event || ev->timestamp > w->max_ts)
		w->max_ts = ev->timestamp;
	w->any_event = 1;
	w->n_events++;
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
		err = write_sequence_point(w, w->max_ts);
		if (err)
			return err;
	}
	if (ev->stack_depth) {
		err = stack_id_for(w, ev->stack, ev->stack_depth, &stack_id);
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
	err = nt_map__get(&w->threads, ev->capture_thread_id, &thr);
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
	thr->val = NT_THR_ACTIVE | (uint32_t)(thr->val + n);
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
	return write_sequence_point(w, w->max_ts);
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
 * the file as lost) and the end-of-stream byte.  If those bytes do not fit
 * either, cut back again: the file then ends at a block boundary, readable
 * up to there, and readers report it as truncated.  Returns 0 (the file is
 * kept, *out says how) or -errno (it could not even be cut).
 */
static int salvage(struct nt_writer *w, uint64_t ts, struct nt_salvage *out)
{
	size_t end_len;
	const uint8_t *end = end_bytes(w, &end_len);
	uint64_t cut = w->good_offset;
	int err = 0;

	out->events = w->good_events;
	out->lost = w->n_events - w->good_events;
	if (ftruncate(w->fd, cut) || lseek(w->fd, cut, SEEK_SET) < 0)
		return -errno;
	w->offset = cut;
	w->err = 0;
	w->out.len = 0;
	w->meta.buf.len = w->meta.count = 0;
	w->ev.buf.len = w->ev.count = 0;
	w->stacks.len = w->stacks_count = 0;
	err = w->v6 ? wr_v6_drop_pending(w) : 0;
	if (!err)
		err = write_sequence_point(w, ts);
	if (!err)
		err = out_write(w, end, end_len);
	if (!err && fsync(w->fd))
		err = -errno;
	out->finalized = !err;
	if (err && (ftruncate(w->fd, cut) || fsync(w->fd)))
		return -errno;
	out->bytes = err ? cut : w->offset;
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
		err = write_sequence_point(w, last_ts);
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
