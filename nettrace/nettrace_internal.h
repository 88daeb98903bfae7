/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * nettrace_internal.h - the nettrace library's private header, included by
 * its own files only (callers have nettrace.h and nettrace_bytes.h;
 * tests/house_check.py holds everyone else to that): the format's
 * constants, the event header both sides compress, read cursors, and the
 * reader's and writer's state with the functions their files share.  Each
 * function is declared under the file that defines it, whose section says
 * which files it calls ("Calls:"): always files lower in the layering, so
 * the files never call each other in a loop (tests/house.bats checks it on
 * the objects).
 */
#ifndef EBPF_COLLECT_NETTRACE_INTERNAL_H
#define EBPF_COLLECT_NETTRACE_INTERNAL_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "hash.h"
#include "u64_map.h"
#include "nettrace.h"
#include "nettrace_bytes.h"

#define NT_MAGIC		"Nettrace"		/* both formats start with it */
#define NT_FS_SIG		"!FastSerialization.1"	/* V5: after the magic's length 20 */

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

/* V6 block kinds (docs/nettrace-format.md section 12) */
enum {
	V6_END = 0, V6_TRACE, V6_EVENT, V6_METADATA, V6_SP, V6_STACK, V6_THREAD,
	V6_REMOVE_THREAD, V6_LABEL_LIST,
};

#define V6_MAX_BLOCK	0xffffffu	/* 24-bit block size */
#define V6_MAX_ROW	0xffffu		/* uint16 row and field sizes */

/*
 * One event's header as the compressed format carries it
 * (docs/nettrace-format.md section 4.2): a field is sent only when it
 * differs from the previous event's in the same block, so the writer and
 * the reader both keep the previous header and update it field by field.
 * The last fields are one side's own.
 */
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
	int sorted;		/* reader: the IsSorted flag */
	int ids_set;		/* V5 writer: an activity id above is not zero */
	size_t payload_off;	/* reader: where the payload is, in r->data */
	size_t blob_off;	/* reader: where the event's blob starts */
};

/* ------------------------------------------------------------ cursors */

/* A read cursor over a payload or block; budget bounds payload decoding. */
struct cur {
	const uint8_t *p, *end;
	long budget;		/* payload decoding: values left to visit */
};

static inline int cur_u16(struct cur *c, uint16_t *v)
{
	if (c->end - c->p < 2)
		return -1;
	*v = nt_get_u16(c->p);
	c->p += 2;
	return 0;
}

static inline int cur_u32(struct cur *c, uint32_t *v)
{
	if (c->end - c->p < 4)
		return -1;
	*v = nt_get_u32(c->p);
	c->p += 4;
	return 0;
}

static inline int cur_varint(struct cur *c, int max, uint64_t *v)
{
	size_t n = nt_get_varint(c->p, c->end, max, v);

	if (!n)
		return -1;
	c->p += n;
	return 0;
}

/* ------------------------------------------------------------ strings.c
 * The format's strings.  Calls: nothing of the library. */

/* A NUL-terminated UTF-16LE string at the cursor, as malloc'ed UTF-8. */
int cur_str16(struct cur *c, char **out);
/* V6 string (varuint32 byte count + UTF-8, no NUL): append one, read one
 * (malloc'ed, NUL added), skip one. */
int nt_buf__str6(struct nt_buf *b, const char *s);
int cur_str6(struct cur *c, char **out);
int cur_skip_str6(struct cur *c);

/* ================================================================ reader */

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
	/* stream mode: bytes that came after the end-of-stream marker or block,
	 * counted and not kept, told at the stream's end as a file's are */
	size_t trailing;
	size_t map_dropped;	/* mapped bytes before this were dropped (MADV_DONTNEED) */
	struct nt_trace_info info;
	struct nt_event_lookup lookup;	/* the caller's, or find == NULL */

	struct nt_metadata **metas;	/* by index; map id -> index */
	size_t n_metas, cap_metas;
	size_t n_meta_fields;		/* field descriptions in them, nested ones too */
	uint64_t meta_bytes;		/* encoded size of the records so far */
	struct u64_map meta_ids;
	/* the same for ids below n_meta_dense, as index + 1 (0: undefined):
	 * no hashing per event for the usual small ids */
	uint32_t *meta_dense;
	uint32_t n_meta_dense;

	struct rd_stack *stacks;	/* current SP region; map id -> index */
	size_t n_stacks, cap_stacks;
	struct u64_map stack_ids;
	/* stacks_dense: the region's stacks so far are ids stack_first_id,
	 * stack_first_id + 1, ... in order (as writers number them), so an id's
	 * index is a subtraction */
	uint32_t stack_first_id;
	int stacks_dense;

	struct u64_map threads;		/* capture thread -> last sequence seen */
	struct u64_map thread_lost;	/* capture thread -> events lost on it */
	uint64_t lost;

	int v6;				/* NetTrace V6 block container */
	struct u64_map v6_threads;	/* V6 thread index -> OS thread id + 1 */
	struct u64_map v6_pids;		/* V6 thread index -> OS process id + 1 */
	struct u64_map v6_labels;	/* label list id -> index in label_ids */
	uint8_t (*label_ids)[32];	/* activity, related activity (this SP region) */
	size_t n_label_ids, cap_label_ids;

	/* the current (validated) EventBlock, decoded again event by event */
	const uint8_t *blk_p, *blk_end;
	struct nt_hdr blk_prev;
	int blk_mode;
	uint64_t *stack_buf;
	size_t stack_cap;
	uint32_t buf_stack_id;		/* the stack in stack_buf (ids reset at SPBlocks) */
	uint32_t buf_stack_depth;
	uint32_t buf_meta_id;		/* the last event's metadata (0: none) */
	const struct nt_metadata *buf_meta;
	struct u64_map_ent *buf_thread;	/* the last capture thread's entry in threads */

	char err[256];
	uint64_t err_off;
};

#define NT_META_DENSE	65536	/* metadata ids below this also go in meta_dense */

/* Index of metadata id in r->metas, or -1 when it is not defined. */
static inline long rd_meta_index(const struct nt_reader *r, uint32_t id)
{
	const struct u64_map_ent *e;

	if (id < r->n_meta_dense)
		return (long)r->meta_dense[id] - 1;
	e = u64_map__find(&r->meta_ids, id);
	return e ? (long)e->val : -1;
}

/* Index of stack id in r->stacks (this SP region), or -1. */
static inline long rd_stack_index(const struct nt_reader *r, uint32_t id)
{
	const struct u64_map_ent *e;

	if (r->stacks_dense)
		return id - r->stack_first_id < r->n_stacks ? (long)(id - r->stack_first_id) : -1;
	e = u64_map__find(&r->stack_ids, id);
	return e ? (long)e->val : -1;
}

/* ------------------------------------------------------------ reader_blocks.c
 * What both containers share once a block is framed.  Calls: nothing of
 * the library. */

/* Stop the reader: r->err = "offset N: ..." (N counted in the whole
 * stream), state RD_ERROR.  Returns -1. */
int rd_fail(struct nt_reader *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A SYSTEMTIME (8 x uint16, UTC), as both Trace headers start with one. */
struct timespec rd_systemtime(const uint8_t *p);
/* Decode every blob of an Event or Metadata block starting at start and
 * give each to fn (-1 from fn stops); *first and *mode: where the blobs
 * start and how they are encoded.  0 or -1 (rd_fail). */
typedef int (*rd_blob_fn)(struct nt_reader *r, const struct nt_hdr *ev, size_t blob);
int rd_walk_blobs(struct nt_reader *r, size_t start, size_t len, const char *what,
		  rd_blob_fn fn, size_t *first, int *mode);
/* Check a whole EventBlock and make it the block nt_reader__next delivers. */
int rd_read_event_block(struct nt_reader *r, size_t start, size_t len);
int rd_read_stack_block(struct nt_reader *r, size_t start, size_t len);
/* A sequence point: the region's stacks are forgotten. */
void rd_forget_stacks(struct nt_reader *r);
/* Count the gap of a capture thread up to seq; returns it (0: none). */
uint32_t rd_note_sequence(struct nt_reader *r, uint64_t thread, uint32_t seq, int from_sp);
/* The next event of the current EventBlock into *ev: 1, or 0 when the block
 * is done (or there is none). */
int rd_next_in_block(struct nt_reader *r, struct nt_read_event *ev);

/* ------------------------------------------------------------ reader_meta.c
 * Metadata records, V5 payloads and V6 rows.  Calls: reader_blocks.c,
 * strings.c. */

void rd_metadata_free(struct nt_metadata *m);
/* One V5 metadata payload (a MetadataBlock's blob). */
int rd_parse_metadata(struct nt_reader *r, const uint8_t *p, uint32_t len, uint64_t off);
/* A V6 Metadata block. */
int rd_read_v6_metadata(struct nt_reader *r, size_t start, size_t len);

/* ------------------------------------------------------------ reader_v5.c
 * The V4 FastSerialization container.  Calls: reader_blocks.c,
 * reader_meta.c. */

/* After the magic: the FastSerialization header and the Trace object;
 * sets r->pos. */
int rd_read_v5_header(struct nt_reader *r);
/* The next object: a block (an EventBlock becomes the current block) or the
 * end-of-stream marker. */
int rd_read_object(struct nt_reader *r);

/* ------------------------------------------------------------ reader_v6.c
 * The V6 block container.  Calls: reader_blocks.c, reader_meta.c,
 * strings.c. */

int rd_read_v6_header(struct nt_reader *r);
int rd_read_block_v6(struct nt_reader *r);
int rd_v6_thread_index(const struct nt_reader *r, uint32_t pid, uint64_t tid, uint64_t *index);

/* reader.c, the reader object and its input: calls every reader file. */

/* ================================================================ writer */

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
#define NT_V6_MAX_LABELS	(1u << 16)	/* label lists per SP region */

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

/* (pid, tid) of one V6 thread index (index - 1) */
struct nt_v6_thread {
	uint64_t tid;
	uint32_t pid;
};

/* What V6 adds to a file's state: thread indexes and label lists. */
struct nt_v6 {
	struct u64_map index_of;	/* hash of (pid, tid) -> thread index */
	struct nt_v6_thread *threads;	/* by index - 1 */
	uint32_t n_threads;
	size_t cap_threads;
	struct nt_buf thread_rows;	/* pending Thread block */
	uint32_t threads_in_out;	/* indexes whose rows are in w->out or on disk */
	uint32_t threads_on_disk;	/* ... on disk */
	struct u64_map capture_pid;	/* capture thread id -> pid of its last event */
	uint32_t last_pid;		/* the last event's thread, when it was its own */
	uint64_t last_tid, last_index;	/* capture thread (index 0: none yet) */

	struct u64_map label_of;	/* hash of the two ids -> label list id */
	uint8_t (*labels)[32];		/* by id - 1: activity, related activity */
	uint32_t n_labels;
	size_t cap_labels;
	struct nt_buf label_rows;	/* pending LabelList block */
	uint32_t labels_first, labels_count;
};

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
	struct u64_map threads;
	/* the last event's entry in threads; NULL whenever threads may have
	 * moved (an insertion elsewhere) or been cleared */
	struct u64_map_ent *thr_last;
	uint32_t n_active;	/* threads with NT_THR_ACTIVE */
	/* threads whose first event in the file is still pending: they become
	 * NT_THR_ON_DISK when the blocks are written (salvage needs to know
	 * which threads a reader of the kept part has seen) */
	uint64_t *first_pending;
	size_t n_first_pending, cap_first_pending;
	uint64_t ev_thread;	/* TraceEvent's current capture thread of w->ev */
	/* the caller's events: the lost marker, and the last event of a file */
	const struct nt_event_desc *lost_desc;
	uint32_t lost_meta_id;	/* 0 = not defined yet */
	const struct nt_event_desc *last_desc;
	uint32_t last_meta_id;
	struct nt_buf out;	/* assembled bytes of one write */
	/* every metadata payload defined, [u32 length][bytes]...: a next file
	 * (nt_writer__next_file) starts with them, so ids stay valid */
	struct nt_buf meta_hist;
	struct nt_v6 *v6;	/* NetTrace V6 output, or NULL for V5 */
};

/* ------------------------------------------------------------ writer_stacks.c
 * The distinct stacks of a sequence-point region.  Calls: nothing of the
 * library. */

/* The recent-stacks cache slot of a stack: by its depth and end frames, one
 * multiply. */
static inline struct nt_stack_hot *wr_stack_hot(struct nt_writer *w, const uint64_t *ips,
					       uint32_t n)
{
	uint64_t k = (ips[0] ^ (ips[n - 1] << 7 | ips[n - 1] >> 57) ^ n) * 0x9e3779b97f4a7c15ULL;

	return &w->hot[k >> (64 - NT_STACK_HOT_BITS)];
}

/* The id of a stack the region already has (1, *id set; the cache slot
 * points to it then), or 0 and its *hash for wr_stack_add. */
int wr_stack_find(struct nt_writer *w, const uint64_t *ips, uint32_t n, uint32_t *id,
		  uint64_t *hash);
/* What adding a stack of n frames needs first: WR_ROOM_SP (the region is
 * full), WR_ROOM_FLUSH (the pending StackBlock is), or 0. */
enum { WR_ROOM_OK, WR_ROOM_FLUSH, WR_ROOM_SP };
int wr_stack_room(const struct nt_writer *w, uint32_t n);
/* Add a stack wr_stack_find did not find to the region and the pending
 * StackBlock; *id its new id.  0 or -ENOMEM. */
int wr_stack_add(struct nt_writer *w, const uint64_t *ips, uint32_t n, uint64_t hash,
		 uint32_t *id);
/* A new region or a new file: stacks forgotten, ids from 1 again. */
void wr_forget_stacks(struct nt_writer *w);

/* ------------------------------------------------------------ writer_v6.c
 * V6's tables: thread indexes with their Thread rows, label lists with their
 * LabelList rows.  Calls: nothing of the library. */

int wr_v6_new(struct nt_writer *w);
void wr_v6_free(struct nt_writer *w);
/* After a sequence point: label lists forgotten, ids from 1 again. */
void wr_v6_new_region(struct nt_writer *w);
/* After salvage cut the file: pending rows dropped, the Thread rows of
 * indexes not on disk queued again. */
int wr_v6_drop_pending(struct nt_writer *w);
int wr_v6_thread_index(struct nt_writer *w, uint32_t pid, uint64_t tid, uint64_t *index);
uint32_t wr_v6_capture_pid(struct nt_writer *w, uint64_t capture_thread_id);
int wr_v6_map_event(struct nt_writer *w, const struct nt_event *ev, struct nt_event *out);
/* Label list of two activity ids (NULL = zero): 1 and *id when the region
 * has it (*id 0 for two zero ids), else 0 and *key for wr_v6_label_add. */
int wr_v6_label_find(struct nt_writer *w, const uint8_t *activity, const uint8_t *related,
		     uint32_t *id, uint64_t *key);
/* 1 when the pending LabelList block has no room for another row. */
int wr_v6_label_full(const struct nt_writer *w);
int wr_v6_label_add(struct nt_writer *w, const uint8_t *activity, const uint8_t *related,
		    uint64_t key, uint32_t *id);

/* ------------------------------------------------------------ writer_blocks.c
 * The file's bytes: containers, blocks, flushes, sequence points.  Calls:
 * writer_stacks.c, writer_v6.c, strings.c. */

/* The stream header and Trace object (V5) or Trace block (V6) into w->out. */
int wr_put_stream_header(struct nt_writer *w);
/* Write w->out with the end-of-stream marker behind it; errors stick. */
int wr_out_commit(struct nt_writer *w);
/* Write bytes as they are (the end of a file). */
int wr_out_write(struct nt_writer *w, const uint8_t *p, size_t n);
/* The end-of-stream marker of the writer's format. */
const uint8_t *wr_end_bytes(const struct nt_writer *w, size_t *len);
/* Empty a written Metadata/Event block and its header-compression state. */
void wr_block_reset(struct nt_block *blk);
/* Write the pending blocks; 0 or -errno. */
int wr_flush_blocks(struct nt_writer *w);
/* Pending blocks, then a sequence point at ts; forgets the stack table. */
int wr_write_sequence_point(struct nt_writer *w, uint64_t ts);
/* thr's first event of the file is about to be appended: remember it until
 * the blocks are written (then it is NT_THR_ON_DISK).  0 or -ENOMEM. */
int wr_queue_first(struct nt_writer *w, struct u64_map_ent *thr);

/* ------------------------------------------------------------ writer_meta.c
 * Event definitions.  Calls: writer_blocks.c, strings.c. */

/* Every metadata record defined so far into the meta block (a new file). */
int wr_replay_metadata(struct nt_writer *w);

/* ------------------------------------------------------------ writer_events.c
 * Events and losses.  Calls: writer_blocks.c, writer_stacks.c,
 * writer_v6.c, writer_meta.c. */

/* One of the caller's own events (the lost marker, the last event),
 * defined into *meta_id on first use, on no CPU. */
int wr_write_own_event(struct nt_writer *w, const struct nt_event_desc *desc,
		       uint32_t *meta_id, const void *payload, uint32_t size, uint64_t ts,
		       uint32_t pid, uint64_t tid);

/* ------------------------------------------------------------ writer_salvage.c
 * A file the full file system cut short.  Calls: writer_blocks.c,
 * writer_v6.c, writer_events.c. */

int wr_salvage(struct nt_writer *w, uint64_t ts, struct nt_salvage *out);

/* writer.c, the writer object over its files: calls every writer file. */

#endif /* EBPF_COLLECT_NETTRACE_INTERNAL_H */
