/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * nettrace_internal.h - helpers shared by the nettrace writer, reader and
 * dump: a growable byte buffer with little-endian/LEB128 appenders, the
 * format's UTF-16LE strings (strings.c) and a small open-addressing
 * u64 -> u64 map.  Not installed; only the library, dump and their tests
 * include it.
 */
#ifndef EBPF_COLLECT_NETTRACE_INTERNAL_H
#define EBPF_COLLECT_NETTRACE_INTERNAL_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "hash.h"
#include "nettrace.h"

/* FastSerialization tags */
#define NT_TAG_NULL		1
#define NT_TAG_BEGIN_PRIVATE	5
#define NT_TAG_END		6

#define NT_BLOCK_HEADER_SIZE	20	/* EventBlock/MetadataBlock header */

/* compressed event-header flags (docs/nettrace-format.md section 4.2) */
#define NT_F_METADATA_ID	0x01
#define NT_F_CAPTURE		0x02
#define NT_F_THREAD_ID		0x04
#define NT_F_STACK_ID		0x08
#define NT_F_ACTIVITY_ID	0x10
#define NT_F_RELATED_ID		0x20
#define NT_F_SORTED		0x40
#define NT_F_PAYLOAD_SIZE	0x80

/* metadata tags (V5) */
#define NT_META_TAG_OPCODE	1
#define NT_META_TAG_V2PARAMS	2

#define NT_MAX_FIELD_DEPTH	8	/* nesting of Object/Array descriptors */

/* ------------------------------------------------------------ byte buffer */

struct nt_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
};

static inline int nt_buf__reserve(struct nt_buf *b, size_t extra)
{
	size_t need = b->len + extra, cap;
	uint8_t *p;

	if (need < b->len)
		return -ENOMEM;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
	return 0;
}

static inline void nt_buf__free(struct nt_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

/* The put helpers assume the caller reserved enough room. */
static inline void nt_put_u8(struct nt_buf *b, uint8_t v)
{
	b->data[b->len++] = v;
}

static inline void nt_put_u16(struct nt_buf *b, uint16_t v)
{
	b->data[b->len++] = v & 0xff;
	b->data[b->len++] = v >> 8;
}

static inline void nt_put_u32(struct nt_buf *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b->data[b->len++] = (v >> (8 * i)) & 0xff;
}

static inline void nt_put_u64(struct nt_buf *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b->data[b->len++] = (v >> (8 * i)) & 0xff;
}

static inline void nt_put_bytes(struct nt_buf *b, const void *p, size_t n)
{
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

/* LEB128 at p (room reserved); returns the byte after it.  Through a local
 * pointer: a store through b->data may alias b->len, which would then be
 * reloaded and stored again for every byte. */
static inline uint8_t *nt_emit_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static inline void nt_put_varint(struct nt_buf *b, uint64_t v)
{
	b->len = (size_t)(nt_emit_varint(b->data + b->len, v) - b->data);
}

/* Checked variants (reserve first); return 0 or -ENOMEM. */
static inline int nt_buf__u32(struct nt_buf *b, uint32_t v)
{
	if (nt_buf__reserve(b, 4))
		return -ENOMEM;
	nt_put_u32(b, v);
	return 0;
}

static inline int nt_buf__bytes(struct nt_buf *b, const void *p, size_t n)
{
	if (nt_buf__reserve(b, n))
		return -ENOMEM;
	nt_put_bytes(b, p, n);
	return 0;
}

static inline uint16_t nt_get_u16(const uint8_t *p)
{
	return p[0] | (uint16_t)p[1] << 8;
}

static inline uint32_t nt_get_u32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t nt_get_u64(const uint8_t *p)
{
	return nt_get_u32(p) | (uint64_t)nt_get_u32(p + 4) << 32;
}

/*
 * LEB128 decode of at most max_bytes (5 for 32-bit, 10 for 64-bit values);
 * returns bytes consumed, 0 if the input ends or the encoding is too long.
 */
static inline size_t nt_get_varint(const uint8_t *p, const uint8_t *end, int max_bytes,
				   uint64_t *out)
{
	uint64_t v = 0;
	int i;

	/* most header fields fit in one or two bytes */
	if (end - p >= 2 && p[0] < 0x80) {
		*out = p[0];
		return 1;
	}
	if (end - p >= 2 && p[1] < 0x80) {
		*out = (p[0] & 0x7f) | (uint64_t)p[1] << 7;
		return 2;
	}

	for (i = 0; i < max_bytes && p + i < end; i++) {
		uint8_t c = p[i];

		if (i < 10)
			v |= (uint64_t)(c & 0x7f) << (7 * i);
		if (!(c & 0x80)) {
			*out = v;
			return i + 1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ UTF-16 */

/*
 * Append s (UTF-8) as UTF-16LE plus a 16-bit NUL.  Invalid UTF-8 bytes become
 * U+FFFD.  Returns 0 or -ENOMEM.
 */
int nt_buf__utf16(struct nt_buf *b, const char *s);

/* Convert n bytes of UTF-16LE to a malloc'ed UTF-8 string (lone surrogates
 * become U+FFFD); NULL on ENOMEM. */
char *nt_utf16_to_utf8(const uint8_t *p, size_t n);

/* Print n bytes of UTF-16LE as a JSON string (with quotes) to f. */
void nt_json_utf16(FILE *f, const uint8_t *p, size_t n);
/* Print a UTF-8 C string as a JSON string (with quotes) to f. */
void nt_json_str(FILE *f, const char *s);

/* A read cursor over a payload or block; budget bounds payload decoding. */
struct cur {
	const uint8_t *p, *end;
	long budget;		/* payload decoding: values left to visit */
};

/* ------------------------------------------------------------ u64 map */

struct nt_map_ent {
	uint64_t key;
	uint64_t val;
	uint8_t used;
};

struct nt_map {
	struct nt_map_ent *ents;
	size_t cap;		/* power of two, or 0 */
	size_t used;
};

static inline struct nt_map_ent *nt_map__find(const struct nt_map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = hash64(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (!m->ents[i].used)
			return NULL;
		if (m->ents[i].key == key)
			return &m->ents[i];
	}
}

/* Insert or find; *out points to the entry (new entries have val 0). */
static inline int nt_map__get(struct nt_map *m, uint64_t key, struct nt_map_ent **out)
{
	struct nt_map_ent *e;
	size_t i;

	e = nt_map__find(m, key);
	if (e) {
		*out = e;
		return 0;
	}
	if ((m->used + 1) * 2 > m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 16;
		struct nt_map_ent *n = calloc(ncap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		for (i = 0; i < m->cap; i++) {
			size_t j;

			if (!m->ents[i].used)
				continue;
			for (j = hash64(m->ents[i].key) & (ncap - 1); n[j].used;
			     j = (j + 1) & (ncap - 1))
				;
			n[j] = m->ents[i];
		}
		free(m->ents);
		m->ents = n;
		m->cap = ncap;
	}
	for (i = hash64(key) & (m->cap - 1); m->ents[i].used; i = (i + 1) & (m->cap - 1))
		;
	m->ents[i].used = 1;
	m->ents[i].key = key;
	m->ents[i].val = 0;
	m->used++;
	*out = &m->ents[i];
	return 0;
}

static inline void nt_map__clear(struct nt_map *m)
{
	if (m->cap)
		memset(m->ents, 0, m->cap * sizeof(*m->ents));
	m->used = 0;
}

static inline void nt_map__free(struct nt_map *m)
{
	free(m->ents);
	m->ents = NULL;
	m->cap = m->used = 0;
}

/* ------------------------------------------------------------ reader state
 * Shared by reader.c (V4/V5 objects and blocks, the API) and reader_v6.c. */

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

/*
 * Bounds for input read as a stream (a pipe, a device, a live EventPipe
 * session): it cannot be mapped, so what is parsed must be in memory.  A
 * block may claim at most NT_STREAM_MAX_BLOCK bytes (V6's own limit; writers
 * use ~100 KiB), and at most NT_STREAM_MAX_KEPT bytes are kept (the current
 * sequence-point region's stacks and the next block); beyond either the
 * reader stops with an error instead of reading until memory runs out.
 * Mapped files are dropped from memory behind the read position every
 * NT_MAP_DROP_BYTES.
 */
#define NT_STREAM_MAX_KEPT	(64u << 20)
#define NT_STREAM_READ		(256u << 10)	/* bytes per read() of an input fd */
#define NT_MAP_DROP_BYTES	(32u << 20)
/* Metadata records are kept decoded for the whole trace (several times their
 * encoded size): more than this many encoded bytes of them is refused.  Real
 * traces hold a few hundred KiB. */
#define NT_MAX_METADATA_BYTES	(8u << 20)

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
	int stream_src;		/* a stream (fed, or read from in_fd): NT_STREAM_* bounds */
	int in_fd;		/* a pipe or device read on demand by nt_reader__next, or -1 */
	size_t map_dropped;	/* mapped bytes before this were dropped (MADV_DONTNEED) */
	struct nt_trace_info info;
	struct nt_event_lookup lookup;	/* the caller's, or find == NULL */

	struct nt_metadata **metas;	/* by index; map id -> index */
	size_t n_metas, cap_metas;
	size_t n_meta_fields;		/* field descriptions in them, nested ones too */
	uint64_t meta_bytes;		/* encoded size of the records so far */
	struct nt_map meta_ids;
	/* the same for ids below n_meta_dense, as index + 1 (0: undefined):
	 * no hashing per event for the usual small ids */
	uint32_t *meta_dense;
	uint32_t n_meta_dense;

	struct rd_stack *stacks;	/* current SP region; map id -> index */
	size_t n_stacks, cap_stacks;
	struct nt_map stack_ids;
	/* stacks_dense: the region's stacks so far are ids stack_first_id,
	 * stack_first_id + 1, ... in order (as writers number them), so an id's
	 * index is a subtraction */
	uint32_t stack_first_id;
	int stacks_dense;

	struct nt_map threads;		/* capture thread -> last sequence seen */
	struct nt_map thread_lost;	/* capture thread -> events lost on it */
	uint64_t lost;

	int v6;				/* NetTrace V6 block container */
	struct nt_map v6_threads;	/* V6 thread index -> OS thread id + 1 */
	struct nt_map v6_pids;		/* V6 thread index -> OS process id + 1 */
	struct nt_map v6_labels;	/* label list id -> index in label_ids */
	uint8_t (*label_ids)[32];	/* activity, related activity (this SP region) */
	size_t n_label_ids, cap_label_ids;

	/* the current (validated) EventBlock, decoded again event by event */
	const uint8_t *blk_p, *blk_end;
	struct rd_event blk_prev;
	int blk_mode;
	uint64_t *stack_buf;
	size_t stack_cap;
	uint32_t buf_stack_id;		/* the stack in stack_buf (ids reset at SPBlocks) */
	uint32_t buf_stack_depth;
	uint32_t buf_meta_id;		/* the last event's metadata (0: none) */
	const struct nt_metadata *buf_meta;
	struct nt_map_ent *buf_thread;	/* the last capture thread's entry in threads */

	char err[256];
	uint64_t err_off;
};

#define NT_META_DENSE	65536	/* metadata ids below this also go in meta_dense */

/* Index of metadata id in r->metas, or -1 when it is not defined. */
static inline long rd_meta_index(const struct nt_reader *r, uint32_t id)
{
	const struct nt_map_ent *e;

	if (id < r->n_meta_dense)
		return (long)r->meta_dense[id] - 1;
	e = nt_map__find(&r->meta_ids, id);
	return e ? (long)e->val : -1;
}

/* Index of stack id in r->stacks (this SP region), or -1. */
static inline long rd_stack_index(const struct nt_reader *r, uint32_t id)
{
	const struct nt_map_ent *e;

	if (r->stacks_dense)
		return id - r->stack_first_id < r->n_stacks ? (long)(id - r->stack_first_id) : -1;
	e = nt_map__find(&r->stack_ids, id);
	return e ? (long)e->val : -1;
}

int rd_fail(struct nt_reader *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int rd_fields_alloc(uint32_t n, int depth, struct nt_field_desc **out);
void rd_fields_free(struct nt_field_desc *f, uint32_t n);
void rd_metadata_free(struct nt_metadata *m);
int rd_add_metadata(struct nt_reader *r, struct nt_metadata *m, uint64_t off, size_t bytes);
uint32_t rd_note_sequence(struct nt_reader *r, uint64_t thread, uint32_t seq, int from_sp);
int rd_read_stack_block(struct nt_reader *r, size_t start, size_t len);
int rd_read_event_block(struct nt_reader *r, size_t start, size_t len);
struct timespec rd_systemtime(const uint8_t *p);
/* reader_meta.c */
int rd_parse_metadata(struct nt_reader *r, const uint8_t *p, uint32_t len, uint64_t off);
/* reader_v6.c */
int rd_read_v6_header(struct nt_reader *r);
int rd_read_block_v6(struct nt_reader *r);
void rd_v6_fill_event(struct nt_reader *r, const struct rd_event *e, struct nt_read_event *ev);
int rd_v6_thread_index(const struct nt_reader *r, uint32_t pid, uint64_t tid, uint64_t *index);

/* ------------------------------------------------------------ writer state
 * Shared by writer.c and writer_meta.c. */

#define NT_BLOCK_CAP		(100 * 1024)	/* block content, like the runtime */
#define NT_SP_INTERVAL		(8u << 20)	/* bytes between sequence points */
#define NT_MAX_STACKS		(1u << 16)	/* distinct stacks per SP region */
#define NT_MAX_STACK_BYTES	(8u << 20)	/* their addresses, in the dedup arena */
#define NT_MAX_HEADER		96		/* longest compressed event header */
#define NT_THR_ACTIVE		(1ULL << 32)	/* wrote or lost since the last SPBlock */
#define NT_THR_ON_DISK		(1ULL << 33)	/* an event of it is in a whole write */
#define NT_THR_QUEUED		(1ULL << 34)	/* in first_pending */
#define NT_SP_MAX_THREADS	4000		/* active threads per SP region (old readers keep 5000) */
#define NT_NO_PROCESSOR		0xffffffffu	/* events of no CPU (TraceEvent skips -1) */

struct nt_hdr {
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
	uint32_t label_list;	/* V6: replaces the two activity ids */
	int ids_set;		/* V5 writer: an activity id above is not zero */
};

/* A MetadataBlock or EventBlock being filled. */
struct nt_block {
	struct nt_buf buf;	/* blobs, after the 20-byte block header */
	struct nt_hdr prev;	/* header-compression state */
	uint64_t min_ts, max_ts;
	uint32_t count;
};

/* One distinct stack of the current SP region (dedup table entry). */
struct nt_stack_ent {
	uint64_t hash;
	size_t off;		/* into stack_arena, in uint64 units */
	uint32_t depth;
	uint32_t id;		/* 0 = empty slot */
};

/* A slot of the recent-stacks cache: a stack of the current SP region found
 * by its depth and end frames, confirmed by comparing every frame. */
struct nt_stack_hot {
	uint64_t first, last;
	size_t off;		/* into stack_arena */
	uint32_t depth;
	uint32_t id;		/* 0 = empty slot */
};

#define NT_STACK_HOT_BITS	10
#define NT_STACK_HOT		(1u << NT_STACK_HOT_BITS)	/* recent-stacks cache slots */

struct nt_writer {
	int fd;
	int err;		/* sticky first error */
	char *path;
	struct nt_trace_info info;
	uint64_t offset;	/* bytes written to the file */
	uint64_t good_offset;	/* end of the last whole write (a block boundary) */
	uint64_t good_events;	/* events on disk up to good_offset */
	uint64_t last_sp_offset;
	uint64_t n_events;
	uint64_t max_ts;	/* largest event timestamp written so far */
	int any_event;
	uint32_t next_meta_id;
	uint32_t loss_meta_id;

	struct nt_block meta, ev;

	struct nt_buf stacks;	/* pending StackBlock entries (after FirstId/Count) */
	uint32_t stacks_first_id, stacks_count;
	uint32_t next_stack_id;	/* in the current SP region */
	struct nt_stack_ent *stab;
	uint32_t stab_cap, stab_used;
	uint64_t *stack_arena;
	size_t arena_len, arena_cap;
	/* sampled stacks repeat: most are found here without hashing every
	 * frame (emptied with the stack table) */
	struct nt_stack_hot hot[NT_STACK_HOT];

	/* capture thread id -> last sequence number (low 32 bits) | NT_THR_* */
	struct nt_map threads;
	/* the last event's entry in threads; NULL whenever threads may have
	 * moved (an insertion elsewhere) or been cleared */
	struct nt_map_ent *thr_last;
	uint32_t n_active;	/* threads with NT_THR_ACTIVE */
	/* threads whose first event in the file is still pending: they become
	 * NT_THR_ON_DISK when the blocks are written (salvage() needs to know
	 * which threads a reader of the kept part has seen) */
	uint64_t *first_pending;
	size_t n_first_pending, cap_first_pending;
	uint64_t ev_thread;	/* TraceEvent's current capture thread of w->ev */
	uint32_t lost_meta_id;	/* EventsLost marker, 0 = not defined yet */
	struct nt_buf out;	/* assembled bytes of one write */
	/* every metadata payload defined, [u32 length][bytes]...: a next file
	 * (nt_writer__next_file) starts with them, so ids stay valid */
	struct nt_buf meta_hist;
	struct nt_v6 *v6;	/* NetTrace V6 output, or NULL for V5 */
};

/* Write the pending metadata and event blocks; 0 or -errno. */
int wr_flush_blocks(struct nt_writer *w);
/* Pending blocks, then a sequence point at ts; forgets the stack table. */
int wr_write_sequence_point(struct nt_writer *w, uint64_t ts);
/* stacks forgotten, ids from 1 again (a new region or file) */
void wr_forget_stacks(struct nt_writer *w);
/* Id of a stack in the current sequence-point region (writer_stacks.c),
 * added to the pending StackBlock if new; may write blocks or a sequence
 * point first. */
int wr_stack_id_for(struct nt_writer *w, const uint64_t *ips, uint32_t n, uint32_t *id);

/* The recent-stacks cache slot of a stack: by its depth and end frames, one
 * multiply. */
static inline struct nt_stack_hot *wr_stack_hot(struct nt_writer *w, const uint64_t *ips,
					       uint32_t n)
{
	uint64_t k = (ips[0] ^ (ips[n - 1] << 7 | ips[n - 1] >> 57) ^ n) * 0x9e3779b97f4a7c15ULL;

	return &w->hot[k >> (64 - NT_STACK_HOT_BITS)];
}
/* Append one metadata record (payload starting with its id) to w->meta. */
int wr_meta_append(struct nt_writer *w, const void *payload, size_t len);
/* Per-file state back to nothing written (writer_files.c). */
void wr_reset_file_state(struct nt_writer *w);
/* Every metadata record defined so far into the meta block (writer_files.c). */
int wr_replay_metadata(struct nt_writer *w);
/* Create path and write the stream header and Trace object. */
int wr_begin_file(struct nt_writer *w, const char *path);
/* Summary, last blocks, sequence point, end of stream, fsync, close. */
int wr_end_file(struct nt_writer *w, const struct nt_loss_summary *loss, uint64_t last_ts,
		struct nt_salvage *salvaged);
/* The header of an Event/Metadata block (writer.c). */
void wr_block_header(uint8_t hdr[NT_BLOCK_HEADER_SIZE], const struct nt_block *blk);
/* Empty a written Metadata/Event block and its header-compression state. */
void wr_block_reset(struct nt_block *blk);
/* writer_salvage.c: threads with an event on disk (NT_THR_ON_DISK) */
int wr_queue_first(struct nt_writer *w, struct nt_map_ent *thr);
void wr_mark_on_disk(struct nt_writer *w);
int wr_move_unseen_losses(struct nt_writer *w);
/* SYSTEMTIME (8 uint16, day of week included) of a wall-clock time */
void wr_put_systemtime(struct nt_buf *b, const struct timespec *t);

/* ------------------------------------------------------------ V6 writer
 * writer_v6.c: the block container, thread indexes, label lists. */

#define NT_V6_MAX_LABELS	(1u << 16)	/* label lists per SP region */

/* (pid, tid) of one thread index (index - 1) */
struct nt_v6_thread {
	uint64_t tid;
	uint32_t pid;
};

struct nt_v6 {
	struct nt_map index_of;		/* hash of (pid, tid) -> thread index */
	struct nt_v6_thread *threads;	/* by index - 1 */
	uint32_t n_threads;
	size_t cap_threads;
	struct nt_buf thread_rows;	/* pending Thread block */
	uint32_t threads_in_out;	/* indexes whose rows are in w->out or on disk */
	uint32_t threads_on_disk;	/* ... on disk */
	struct nt_map capture_pid;	/* capture thread id -> pid of its last event */
	uint32_t last_pid;		/* the last event's thread, when it was its own */
	uint64_t last_tid, last_index;	/* capture thread (index 0: none yet) */

	struct nt_map label_of;		/* hash of the two ids -> label list id */
	uint8_t (*labels)[32];		/* by id - 1: activity, related activity */
	uint32_t n_labels;
	size_t cap_labels;
	struct nt_buf label_rows;	/* pending LabelList block */
	uint32_t labels_first, labels_count;
};

int wr_v6_open(struct nt_writer *w);
void wr_v6_free(struct nt_writer *w);
int wr_v6_blocks(struct nt_writer *w);
int wr_v6_sequence_point(struct nt_writer *w, uint64_t ts);
void wr_v6_new_region(struct nt_writer *w);
int wr_v6_drop_pending(struct nt_writer *w);
int wr_v6_thread_index(struct nt_writer *w, uint32_t pid, uint64_t tid, uint64_t *index);
uint32_t wr_v6_capture_pid(struct nt_writer *w, uint64_t capture_thread_id);
int wr_v6_map_event(struct nt_writer *w, const struct nt_event *ev, struct nt_event *out);
int wr_v6_label_id(struct nt_writer *w, const uint8_t *activity, const uint8_t *related,
		   uint32_t *id);
int wr_v6_metadata_row(struct nt_buf *b, uint32_t id, const struct nt_event_desc *d);

#endif /* EBPF_COLLECT_NETTRACE_INTERNAL_H */
