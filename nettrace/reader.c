// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * reader.c - tolerant .nettrace reader: the V4 FastSerialization
 * container with V5 metadata tags (what every runtime writes), uncompressed
 * NetPerf-era event headers, and the V6 block format
 * (docs/nettrace-format.md sections 2-8 and 12).  (long-file: one
 * concept, walking a trace's objects, for a mapped file and a stream alike;
 * the V6 blocks and the metadata have files of their own.)
 *
 * Design
 * ------
 * A regular file is mapped read-only (or a caller's buffer is used) and walked
 * one FastSerialization object at a time; the pages behind the read position
 * are dropped as it goes, so memory does not grow with the file.  Anything
 * else (a pipe, /dev/zero, a device) is read as a stream, piece by piece,
 * with the bounds of stream mode (nettrace_internal.h): the magic is checked
 * as soon as 8 bytes are in, and a block claiming more than a stream block
 * may hold stops the reader at once.  A block is only used when it is whole:
 * its BlockSize bytes and the closing EndObject byte must be present.  An
 * EventBlock is decoded completely into a per-block event array (and every
 * check of docs/nettrace-format.md section 8 list applied: known metadata id,
 * stack id defined in the current sequence-point region, events ending
 * exactly at the block end) before the first of its events is handed out, so
 * the caller gets every event of every whole, valid block and then a clean
 * stop with an offset and a reason - never a partial block, never a crash.
 *
 * Stacks are kept as (file offset, size) per id and forgotten at every
 * SPBlock, as TraceEvent does; lost events are counted from gaps in each
 * capture thread's sequence numbers and from SPBlocks listing a higher number
 * than was seen.  Events are delivered in file order (not re-sorted).
 *
 * Event descriptions are the caller's: when it passes an nt_event_lookup,
 * each metadata record is looked up by provider name, event id and version
 * and the answer is kept in the record for the caller's decoders.
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
			       struct rd_event *ev, const char **why)
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
 */
static int decode_blob(const uint8_t **pp, const uint8_t *end, const uint8_t *base,
		       int mode, struct rd_event *ev, const char **why)
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

typedef int (*blob_fn)(struct nt_reader *r, const struct rd_event *ev, size_t blob);

/* Decode every blob of an Event or Metadata block and give each to fn;
 * *first and *mode say where the blobs start and how they are encoded. */
static inline int walk_blobs(struct nt_reader *r, size_t start, size_t len, const char *what,
		      blob_fn fn, size_t *first, int *mode)
{
	const uint8_t *p, *end = r->data + start + len;
	struct rd_event ev;
	const char *why;

	if (block_header(r, start, len, first, mode))
		return -1;
	memset(&ev, 0, sizeof(ev));
	for (p = r->data + *first; p < end;) {
		size_t blob = p - r->data;

		if (decode_blob(&p, end, r->data, *mode, &ev, &why))
			return rd_fail(r, blob, "%s: %s", what, why);
		if (fn(r, &ev, blob))
			return -1;
	}
	return 0;
}

static int metadata_blob(struct nt_reader *r, const struct rd_event *ev, size_t blob)
{
	return rd_parse_metadata(r, r->data + ev->payload_off, ev->payload_size, blob);
}

static int read_metadata_block(struct nt_reader *r, size_t start, size_t len)
{
	size_t first = 0;
	int mode = 0;

	return walk_blobs(r, start, len, "MetadataBlock", metadata_blob, &first, &mode);
}

int rd_read_stack_block(struct nt_reader *r, size_t start, size_t len)
{
	const uint8_t *p = r->data + start, *end = p + len;
	uint32_t first_id, count, psize = r->info.pointer_size;
	struct nt_map_ent *e;

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
		if (nt_map__find(&r->stack_ids, id))
			return rd_fail(r, off,
				       "stack id %u defined twice in one sequence-point region", id);
		if (GROW(r->stacks, r->cap_stacks, r->n_stacks + 1))
			return rd_fail(r, off, "out of memory");
		if (nt_map__get(&r->stack_ids, id, &e))
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

/* Count sequence gaps of one capture thread up to seq. */
/* Returns the events lost before seq (0: none). */
uint32_t rd_note_sequence(struct nt_reader *r, uint64_t thread, uint32_t seq, int from_sp)
{
	struct nt_map_ent *e = r->buf_thread;
	uint32_t last, gap;

	/* consecutive events mostly come from one capture thread: keep its
	 * entry (valid until the next insertion, which goes through here) */
	if (!e || e->key != thread) {
		if (nt_map__get(&r->threads, thread, &e))
			return 0;
		r->buf_thread = e;
	}
	last = (uint32_t)e->val;
	gap = seq - last - (from_sp ? 0 : 1);
	/* a "gap" of more than 2^31 is a reordering, not a loss */
	if (seq != last && gap < 0x80000000u) {
		struct nt_map_ent *l;

		r->lost += gap;
		e->val = seq;
		if (gap && !nt_map__get(&r->thread_lost, thread, &l))
			l->val += gap;
		return gap;
	}
	return 0;
}

static int read_sp_block(struct nt_reader *r, size_t start, size_t len)
{
	const uint8_t *p = r->data + start;
	uint32_t count;

	if (len < 12)
		return rd_fail(r, start, "SPBlock of %zu bytes is shorter than its header", len);
	count = nt_get_u32(p + 8);
	if (count > (len - 12) / 12 || len != 12 + (size_t)count * 12)
		return rd_fail(r, start, "SPBlock of %zu bytes cannot hold %u threads", len, count);
	for (uint32_t i = 0; i < count; i++)
		rd_note_sequence(r, nt_get_u64(p + 12 + 12 * i), nt_get_u32(p + 20 + 12 * i), 1);
	nt_map__clear(&r->stack_ids);
	r->n_stacks = 0;
	r->buf_stack_id = 0;
	return 0;
}

/*
 * Validate a whole EventBlock (every header decodes, references defined
 * metadata and stacks, the last event ends exactly at the block end) without
 * storing anything; nt_reader__next then decodes it again one event at a
 * time, so memory does not depend on the block size.
 */
/* An event's references: metadata, stack and (V6) threads are defined. */
static int check_event_blob(struct nt_reader *r, const struct rd_event *ev, size_t blob)
{
	if (rd_meta_index(r, ev->metadata_id) < 0)
		return rd_fail(r, blob, "event uses undefined metadata id %u", ev->metadata_id);
	if (ev->stack_id && rd_stack_index(r, ev->stack_id) < 0)
		return rd_fail(r, blob, "event uses stack id %u, not defined since the "
			       "last sequence point", ev->stack_id);
	if (r->v6 && (!nt_map__find(&r->v6_threads, ev->thread_id) ||
		      !nt_map__find(&r->v6_threads, ev->capture_thread_id)))
		return rd_fail(r, blob, "event uses thread index %" PRIu64 "/%" PRIu64
			       " not defined by a Thread block", ev->thread_id,
			       ev->capture_thread_id);
	return 0;
}

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

/* ------------------------------------------------------------ objects */

static const char magic[8] = { 'N', 'e', 't', 't', 'r', 'a', 'c', 'e' };
static const char fs_sig[] = "!FastSerialization.1";

/*
 * Object header: 05 05 01 int32 version int32 minVersion int32 len name 06.
 * Fills name (NUL-terminated, <= 38 chars) and version.
 */
static int read_object_header(struct nt_reader *r, size_t *pos, char *name, uint32_t *version)
{
	const uint8_t *p = r->data + *pos;
	size_t avail = r->size - *pos, nlen;
	uint32_t minv;

	if (avail < 16)
		return rd_fail(r, *pos, "file ends inside an object header (%zu bytes left)", avail);
	if (p[0] != NT_TAG_BEGIN_PRIVATE || p[1] != NT_TAG_BEGIN_PRIVATE || p[2] != NT_TAG_NULL)
		return rd_fail(r, *pos, "expected object start 05 05 01, found %02x %02x %02x",
			       p[0], p[1], p[2]);
	*version = nt_get_u32(p + 3);
	minv = nt_get_u32(p + 7);
	nlen = nt_get_u32(p + 11);
	if (nlen > 38)
		return rd_fail(r, *pos, "object type name length %zu is too long", nlen);
	if (avail < 15 + nlen + 1)
		return rd_fail(r, *pos, "file ends inside an object header (%zu bytes left)", avail);
	memcpy(name, p + 15, nlen);
	name[nlen] = 0;
	if (p[15 + nlen] != NT_TAG_END)
		return rd_fail(r, *pos + 15 + nlen, "object type \"%s\" not closed by 06", name);
	if (minv > *version)
		return rd_fail(r, *pos, "object \"%s\" version %u < minimum reader version %u",
			       name, *version, minv);
	*pos += 16 + nlen;
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

static int read_trace_header(struct nt_reader *r)
{
	const uint8_t *p;
	char name[40];
	uint32_t version;
	size_t pos = 32;

	if (r->size < 8 || memcmp(r->data, magic, 8))
		return rd_fail(r, 0, "not a NetTrace file (no \"Nettrace\" magic)");
	if (r->size >= 12 && nt_get_u32(r->data + 8) == 0)
		return rd_read_v6_header(r);
	if (r->size < 32)
		return rd_fail(r, 8, "file ends inside the stream header");
	if (nt_get_u32(r->data + 8) != 20 || memcmp(r->data + 12, fs_sig, 20))
		return rd_fail(r, 8, "bad FastSerialization header");
	if (read_object_header(r, &pos, name, &version))
		return -1;
	if (strcmp(name, "Trace"))
		return rd_fail(r, 32, "first object is \"%s\", not Trace", name);
	if (version != 4)
		return rd_fail(r, 32, "Trace object version %u (only 4 is defined)", version);
	if (r->size - pos < 49)
		return rd_fail(r, pos, "file ends inside the Trace object");
	p = r->data + pos;
	if (p[48] != NT_TAG_END)
		return rd_fail(r, pos + 48, "Trace object not closed by 06");
	r->info.sync_utc = rd_systemtime(p);
	r->info.sync_ts = nt_get_u64(p + 16);
	r->info.freq = nt_get_u64(p + 24);
	r->info.pointer_size = nt_get_u32(p + 32);
	r->info.pid = nt_get_u32(p + 36);
	r->info.ncpu = nt_get_u32(p + 40);
	r->info.sampling_interval_ns = nt_get_u32(p + 44);
	if (r->info.pointer_size != 4 && r->info.pointer_size != 8)
		return rd_fail(r, pos + 32, "pointer size %u (expected 4 or 8)",
			       r->info.pointer_size);
	r->pos = pos + 49;
	return 0;
}

/* Read and check the next object; an EventBlock becomes the current block. */
static int read_object(struct nt_reader *r)
{
	size_t start = r->pos, pos = r->pos, content, len;
	char name[40];
	uint32_t version;
	int err;

	if (pos >= r->size)
		return rd_fail(r, pos, "file ends without the end-of-stream marker");
	if (r->data[pos] == NT_TAG_NULL) {
		if (pos + 1 != r->size)
			return rd_fail(r, pos + 1, "%zu bytes after the end-of-stream marker",
				       r->size - pos - 1);
		r->pos = r->size;
		r->state = RD_DONE;
		return 0;
	}
	if (read_object_header(r, &pos, name, &version))
		return -1;
	if (strcmp(name, "EventBlock") && strcmp(name, "MetadataBlock") &&
	    strcmp(name, "StackBlock") && strcmp(name, "SPBlock"))
		return rd_fail(r, start, "unknown object type \"%s\"", name);
	if (version > 2)
		return rd_fail(r, start, "%s version %u (at most 2 is defined)", name, version);
	if (r->size - pos < 4)
		return rd_fail(r, start, "file ends inside the %s size (file size %zu)", name,
			       r->size);
	len = nt_get_u32(r->data + pos);
	if (r->stream_src && len > NT_STREAM_MAX_BLOCK)
		return rd_fail(r, start, "%s claims %zu bytes, more than the %u MiB a block "
			       "may hold in a stream", name, len, NT_STREAM_MAX_BLOCK >> 20);
	content = pos + 4;
	content += (4 - content % 4) % 4;
	if (content > r->size || len > r->size - content || r->size - content - len < 1)
		return rd_fail(r, start, "%s claims %zu bytes of content, the file has %zu "
			       "(file ends at %zu)", name, len,
			       content > r->size ? (size_t)0 : r->size - content,
			       (size_t)(r->size + r->base));
	for (size_t i = pos + 4; i < content; i++)
		if (r->data[i])
			return rd_fail(r, i, "non-zero padding byte in %s", name);
	if (r->data[content + len] != NT_TAG_END)
		return rd_fail(r, content + len, "%s not closed by 06 (found %02x)", name,
			       r->data[content + len]);
	if (!strcmp(name, "EventBlock"))
		err = rd_read_event_block(r, content, len);
	else if (!strcmp(name, "MetadataBlock"))
		err = read_metadata_block(r, content, len);
	else if (!strcmp(name, "StackBlock"))
		err = rd_read_stack_block(r, content, len);
	else
		err = read_sp_block(r, content, len);
	if (err)
		return -1;
	r->pos = content + len + 1;
	return 0;
}

/* ------------------------------------------------------------ public API */

static struct nt_reader *reader_new(const struct nt_event_lookup *lookup)
{
	struct nt_reader *r = calloc(1, sizeof(*r));

	if (!r) {
		errno = ENOMEM;
		return NULL;
	}
	r->in_fd = -1;
	if (lookup)
		r->lookup = *lookup;
	return r;
}

struct nt_reader *nt_reader__open_mem(const void *buf, size_t len,
				      const struct nt_event_lookup *lookup)
{
	struct nt_reader *r = reader_new(lookup);

	if (!r)
		return NULL;
	r->data = buf;
	r->size = len;
	if (!buf && len)
		r->size = 0;
	read_trace_header(r);
	return r;
}

static int stream_have_header(const struct nt_reader *r);
static int stream_pull(struct nt_reader *r);

struct nt_reader *nt_reader__open(const char *path, const struct nt_event_lookup *lookup)
{
	struct nt_reader *r;
	struct stat st;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	r = reader_new(lookup);
	if (!r) {
		err = ENOMEM;
		goto err_close;
	}
	if (fstat(fd, &st)) {
		err = errno;
		goto err_free;
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		r->map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (r->map == MAP_FAILED) {
			r->map = NULL;
		} else {
			r->data = r->map;
			r->size = st.st_size;
			madvise(r->map, r->size, MADV_SEQUENTIAL);
		}
	}
	if (r->map) {
		close(fd);
		read_trace_header(r);
		return r;
	}
	/* pipes, devices, empty or unmappable files: a stream, read on demand
	 * (the header now: a wrong magic is refused after 8 bytes) */
	r->streaming = r->stream_src = 1;
	r->in_fd = fd;
	while (r->streaming && r->state != RD_ERROR && !stream_have_header(r)) {
		err = stream_pull(r);
		if (err > 0)
			goto err_free;	/* unreadable (EISDIR, EIO): no reader */
	}
	if (r->streaming && r->state != RD_ERROR)
		read_trace_header(r);
	r->header_done = 1;
	return r;

err_free:
	free(r->copy);
	free(r);
err_close:
	close(fd);
	errno = err;
	return NULL;
}

const struct nt_trace_info *nt_reader__info(const struct nt_reader *r)
{
	return &r->info;
}

/* ------------------------------------------------------------ stream mode */

/*
 * Stream mode: bytes arrive in pieces (an EventPipe session's socket).  The
 * parser itself is unchanged; it only runs once the whole next object or
 * block is in memory, so a block is never parsed half.  Bytes no longer
 * referenced (before the current position and the current sequence-point
 * region's stacks) are dropped in multiples of 4, which keeps the V4
 * container's padding (aligned to stream offsets) right.
 */
struct nt_reader *nt_reader__open_stream(const struct nt_event_lookup *lookup)
{
	struct nt_reader *r = reader_new(lookup);

	if (r)
		r->streaming = r->stream_src = 1;
	return r;
}

/* Is the whole trace header in memory?  Bytes that cannot begin one say
 * yes: the parser then reports them, without waiting for more. */
static int stream_have_header(const struct nt_reader *r)
{
	size_t n = r->size < 8 ? r->size : 8;

	if (memcmp(r->data, magic, n))
		return 1;
	if (r->size >= 12 && nt_get_u32(r->data + 8) != 0 && nt_get_u32(r->data + 8) != 20)
		return 1;
	if (r->size >= 12 && nt_get_u32(r->data + 8) == 20 &&
	    memcmp(r->data + 12, fs_sig, r->size < 32 ? r->size - 12 : 20))
		return 1;
	if (r->size < 24)
		return 0;
	if (nt_get_u32(r->data + 8) == 0)	/* V6: header + Trace block */
		return r->size >= 24 + (size_t)(nt_get_u32(r->data + 20) & 0xffffff);
	/* V4 container: 32-byte header, object header (16 + name), 49 bytes */
	return r->size >= 32 + 16 + 38 + 49 ||
	       (r->size >= 48 && r->size >= 32 + 16 + (size_t)nt_get_u32(r->data + 43) + 49);
}

/* Is the whole next object (V4) or block (V6) in memory?  Unparseable
 * sizes say yes: the parser then reports the problem. */
static int stream_have_block(const struct nt_reader *r)
{
	size_t avail = r->size - r->pos, nlen, len, content;
	const uint8_t *p = r->data + r->pos;

	if (r->v6)
		return avail >= 4 && avail - 4 >= (nt_get_u32(p) & 0xffffff);
	if (avail < 1)
		return 0;
	if (p[0] == NT_TAG_NULL)
		return 1;
	if (avail < 16)
		return 0;
	nlen = nt_get_u32(p + 11);
	if (nlen > 38)
		return 1;
	if (avail < 16 + nlen + 4)
		return 0;
	len = nt_get_u32(p + 16 + nlen);
	if (len > NT_STREAM_MAX_BLOCK)
		return 1;	/* refused by the parser, not waited for */
	content = r->pos + 16 + nlen + 4;
	content += (4 - (content + r->base) % 4) % 4;
	return content <= r->size && r->size - content > len;
}

/* Does the next V4 object or V6 block claim more than NT_STREAM_MAX_BLOCK
 * bytes?  Then the stream is stopped here rather than buffered until it
 * comes. */
static int stream_block_over(struct nt_reader *r)
{
	size_t avail = r->size - r->pos, nlen;
	const uint8_t *p = r->data + r->pos;
	char name[40];
	uint32_t len;

	if (r->v6 && avail >= 4 && (nt_get_u32(p) & 0xffffff) > NT_STREAM_MAX_BLOCK) {
		rd_fail(r, r->pos, "block of kind %u claims %u bytes, more than the %u MiB a block "
			"may hold in a stream", p[3], nt_get_u32(p) & 0xffffff,
			NT_STREAM_MAX_BLOCK >> 20);
		return 1;
	}
	if (r->v6 || avail < 16 || p[0] == NT_TAG_NULL)
		return 0;
	nlen = nt_get_u32(p + 11);
	if (nlen > 38 || avail < 16 + nlen + 4)
		return 0;
	len = nt_get_u32(p + 16 + nlen);
	if (len <= NT_STREAM_MAX_BLOCK)
		return 0;
	for (size_t i = 0; i < nlen; i++)	/* the name into the message, printable */
		name[i] = p[15 + i] > ' ' && p[15 + i] < 0x7f ? p[15 + i] : '?';
	name[nlen] = 0;
	rd_fail(r, r->pos, "%s claims %u bytes, more than the %u MiB a block may hold in a "
		"stream", name, len, NT_STREAM_MAX_BLOCK >> 20);
	return 1;
}

/* The first byte still referred to (the read position or an older stack of
 * the sequence-point region), rounded down to a multiple of 4. */
static size_t stream_keep(const struct nt_reader *r)
{
	size_t keep = r->pos;

	for (size_t i = 0; i < r->n_stacks; i++)
		if (r->stacks[i].off < keep)
			keep = r->stacks[i].off;
	return keep & ~(size_t)3;
}

/* Drop the bytes nothing refers to any more. */
static void stream_compact(struct nt_reader *r)
{
	size_t cut;

	if (r->blk_p)
		return;		/* an EventBlock is being delivered */
	cut = stream_keep(r);
	if (cut < 65536 || cut < r->size / 2)
		return;
	memmove(r->copy, r->copy + cut, r->size - cut);
	r->size -= cut;
	r->pos -= cut;
	for (size_t i = 0; i < r->n_stacks; i++)
		r->stacks[i].off -= cut;
	r->base += cut;
}

/* Room for len more bytes at the end of the stream buffer; 0 or -ENOMEM. */
static int stream_reserve(struct nt_reader *r, size_t len)
{
	if (r->header_done)
		stream_compact(r);
	if (len > r->copy_cap - r->size) {
		size_t blk = r->blk_p ? r->blk_p - r->copy : 0;
		size_t blk_end = r->blk_p ? r->blk_end - r->copy : 0;

		if (GROW(r->copy, r->copy_cap, r->size + len))
			return -ENOMEM;
		if (r->blk_p) {		/* the block being delivered moved too */
			r->blk_p = r->copy + blk;
			r->blk_end = r->copy + blk_end;
		}
	}
	return 0;
}

int nt_reader__feed(struct nt_reader *r, const void *buf, size_t len)
{
	if (!r->streaming)
		return -EINVAL;
	if (stream_reserve(r, len))
		return -ENOMEM;
	memcpy(r->copy + r->size, buf, len);
	r->size += len;
	r->data = r->copy;
	return 0;
}

void nt_reader__feed_end(struct nt_reader *r)
{
	if (r->streaming && !r->header_done) {
		r->header_done = 1;
		r->streaming = 0;
		read_trace_header(r);
	}
	r->streaming = 0;
}

size_t nt_reader__buffered(const struct nt_reader *r)
{
	return r->streaming || r->copy ? r->size : 0;
}

void nt_reader__defined(const struct nt_reader *r, size_t *metadata, size_t *fields,
			size_t *stacks)
{
	*metadata = r->n_metas;
	*fields = r->n_meta_fields;
	*stacks = r->n_stacks;
}

/*
 * The next piece of in_fd into the stream buffer; at its end, feed_end.
 * Returns 0 (read, or stopped with a reason: see r->state) or a positive
 * errno when read() fails.  Refuses to keep more than NT_STREAM_MAX_KEPT
 * bytes.
 */
static int stream_pull(struct nt_reader *r)
{
	ssize_t n;
	int err;

	if (stream_reserve(r, NT_STREAM_READ)) {
		rd_fail(r, r->size, "out of memory");
		return 0;
	}
	if (r->size - stream_keep(r) > NT_STREAM_MAX_KEPT) {
		rd_fail(r, stream_keep(r), "more than %u MiB of the stream would have to be "
			"kept in memory (one sequence-point region's stacks)",
			NT_STREAM_MAX_KEPT >> 20);
		return 0;
	}
	do
		n = read(r->in_fd, r->copy + r->size, NT_STREAM_READ);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		err = errno;
		rd_fail(r, r->size, "%s", strerror(err));
		return err;
	}
	r->data = r->copy;
	if (!n)
		nt_reader__feed_end(r);
	r->size += (size_t)n;
	return 0;
}

int nt_reader__header_read(const struct nt_reader *r)
{
	return !r->streaming || r->header_done;
}

/* The stack of a validated event into r->stack_buf (the last event's is
 * still there). */
static void fill_stack(struct nt_reader *r, uint32_t stack_id, struct nt_read_event *ev)
{
	const struct rd_stack *s = &r->stacks[rd_stack_index(r, stack_id)];
	uint32_t psize = r->info.pointer_size, n = s->bytes / psize;

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

/* Every field of ev, assigned one by one (no clearing pass first). */
static void fill_event(struct nt_reader *r, const struct rd_event *e, struct nt_read_event *ev)
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
	ev->lost_before = rd_note_sequence(r, e->capture_thread_id, e->sequence, 0);
	ev->pid = r->info.pid;
	if (r->v6)
		rd_v6_fill_event(r, e, ev);
}

/* Drop the mapped pages behind the read position (they are read again, from
 * the file, should a stack there be used): the resident size stays bounded. */
static void map_drop_behind(struct nt_reader *r)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), end = r->pos & ~(page - 1);

	if (end > r->map_dropped &&
	    !madvise((uint8_t *)r->map + r->map_dropped, end - r->map_dropped, MADV_DONTNEED))
		r->map_dropped = end;
}

static int reader_next(struct nt_reader *r, struct nt_read_event *ev)
{
	if (r->streaming && !r->header_done) {
		if (!stream_have_header(r))
			return NT_READ_AGAIN;
		r->header_done = 1;
		read_trace_header(r);
	}
	for (;;) {
		if (r->blk_p && r->blk_p < r->blk_end) {
			const char *why;
			size_t blob = r->blk_p - r->data;

			/* cannot fail: the block was validated by read_event_block */
			decode_blob(&r->blk_p, r->blk_end, r->data, r->blk_mode, &r->blk_prev,
				    &why);
			r->blk_prev.blob_off = blob;
			fill_event(r, &r->blk_prev, ev);
			return 1;
		}
		r->blk_p = r->blk_end = NULL;
		if (r->state == RD_ERROR)
			return -1;
		if (r->state == RD_DONE)
			return 0;
		if (r->streaming && stream_block_over(r))
			return -1;
		if (r->streaming && !stream_have_block(r))
			return NT_READ_AGAIN;
		if (r->map && r->pos - r->map_dropped >= NT_MAP_DROP_BYTES)
			map_drop_behind(r);
		if (r->v6 ? rd_read_block_v6(r) : read_object(r))
			return -1;
	}
}

int nt_reader__next(struct nt_reader *r, struct nt_read_event *ev)
{
	int rc;

	for (;;) {
		rc = reader_next(r, ev);
		if (rc != NT_READ_AGAIN || r->in_fd < 0)
			return rc;
		if (stream_pull(r) > 0)
			return -1;
	}
}

const char *nt_reader__error(const struct nt_reader *r)
{
	return r->state == RD_ERROR ? r->err : NULL;
}

uint64_t nt_reader__error_offset(const struct nt_reader *r)
{
	return r->err_off;
}

uint64_t nt_reader__lost(const struct nt_reader *r)
{
	return r->lost;
}

uint64_t nt_reader__thread_lost(const struct nt_reader *r, uint32_t pid,
				uint64_t capture_thread_id)
{
	uint64_t key = capture_thread_id;	/* V6: the thread's index */
	struct nt_map_ent *e;

	if (r->v6 ? rd_v6_thread_index(r, pid, capture_thread_id, &key)
		  : pid && pid != r->info.pid)
		return 0;
	e = nt_map__find(&r->thread_lost, key);
	return e ? e->val : 0;
}

void nt_reader__close(struct nt_reader *r)
{
	if (!r)
		return;
	if (r->map)
		munmap(r->map, r->size);
	if (r->in_fd >= 0)
		close(r->in_fd);
	free(r->copy);
	for (size_t i = 0; i < r->n_metas; i++)
		rd_metadata_free(r->metas[i]);
	free(r->metas);
	nt_map__free(&r->meta_ids);
	free(r->meta_dense);
	free(r->stacks);
	nt_map__free(&r->stack_ids);
	nt_map__free(&r->threads);
	nt_map__free(&r->v6_threads);
	nt_map__free(&r->thread_lost);
	nt_map__free(&r->v6_pids);
	nt_map__free(&r->v6_labels);
	free(r->label_ids);
	free(r->stack_buf);
	free(r);
}
