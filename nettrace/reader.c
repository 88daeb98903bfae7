// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * reader.c - the tolerant .nettrace reader over its input: the V4
 * FastSerialization container with V5 metadata tags (what every runtime
 * writes), uncompressed NetPerf-era event headers, and the V6 block format
 * (docs/nettrace-format.md sections 2-8 and 12).  Its parts: the two
 * containers (reader_v5.c, reader_v6.c), the blocks they share and the
 * events delivered from them (reader_blocks.c), metadata records
 * (reader_meta.c).
 *
 * A regular file is mapped read-only (or a caller's buffer is used) and walked
 * one object or block at a time; the pages behind the read position are
 * dropped as it goes, so memory does not grow with the file.  Anything
 * else (a pipe, /dev/zero, a device) is read as a stream, piece by piece,
 * with the bounds of stream mode (nettrace_internal.h): the magic is checked
 * as soon as 8 bytes are in, and a block claiming more than a stream block
 * may hold stops the reader at once.  Events are delivered in file order
 * (not re-sorted).
 *
 * Event descriptions are the caller's: when it passes an nt_event_lookup,
 * each metadata record is looked up by provider name, event id and version
 * and the answer is kept in the record for the caller's decoders.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nettrace_internal.h"
#include "grow.h"

/* ------------------------------------------------------------ public API */

/* The trace header: the magic, then a V6 header or a V4 container's. */
static int read_trace_header(struct nt_reader *r)
{
	if (r->size < 8 || memcmp(r->data, NT_MAGIC, 8))
		return rd_fail(r, 0, "not a NetTrace file (no \"Nettrace\" magic)");
	if (r->size >= 12 && nt_get_u32(r->data + 8) == 0)
		return rd_read_v6_header(r);
	return rd_read_v5_header(r);
}


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

	if (!n)
		return 0;	/* nothing fed yet: data may still be NULL */
	if (memcmp(r->data, NT_MAGIC, n))
		return 1;
	if (r->size >= 12 && nt_get_u32(r->data + 8) != 0 && nt_get_u32(r->data + 8) != 20)
		return 1;
	if (r->size >= 12 && nt_get_u32(r->data + 8) == 20 &&
	    memcmp(r->data + 12, NT_FS_SIG, r->size < 32 ? r->size - 12 : 20))
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

/* Is the next object the end-of-stream marker (V4) or block (V6), whole?
 * Then what follows it is counted into r->trailing and dropped, and the
 * reader waits for the stream's end: bytes after the end of a file are an
 * error, and a stream must say the same whether or not its pieces were cut
 * right after the marker. */
static int stream_at_end(struct nt_reader *r)
{
	size_t avail = r->size - r->pos, end;
	const uint8_t *p = r->data + r->pos;

	if (r->v6) {
		if (avail < 4 || nt_get_u32(p) >> 24 != V6_END ||
		    avail - 4 < (nt_get_u32(p) & 0xffffff))
			return 0;
		end = r->pos + 4 + (nt_get_u32(p) & 0xffffff);
	} else {
		if (avail < 1 || p[0] != NT_TAG_NULL)
			return 0;
		end = r->pos + 1;
	}
	r->trailing += r->size - end;
	r->size = end;
	return 1;
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
		if (rd_next_in_block(r, ev))
			return 1;
		if (r->state == RD_ERROR)
			return -1;
		if (r->state == RD_DONE)
			return 0;
		if (r->streaming && stream_block_over(r))
			return -1;
		if (r->streaming && (stream_at_end(r) || !stream_have_block(r)))
			return NT_READ_AGAIN;
		if (r->map && r->pos - r->map_dropped >= NT_MAP_DROP_BYTES)
			map_drop_behind(r);
		if (r->v6 ? rd_read_block_v6(r) : rd_read_object(r))
			return -1;
	}
}

/* The next block (pulling a pipe's bytes as needed), its first event.  Not
 * inlined: nt_reader__next's per-event path stays a test and a call. */
static __attribute__((noinline)) int next_block(struct nt_reader *r, struct nt_read_event *ev)
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

int nt_reader__next(struct nt_reader *r, struct nt_read_event *ev)
{
	/* most calls: the next event of the block being delivered, with no
	 * more than a test before it */
	if (r->blk_p && rd_next_in_block(r, ev))
		return 1;
	return next_block(r, ev);
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
	struct u64_map_ent *e;

	if (r->v6 ? rd_v6_thread_index(r, pid, capture_thread_id, &key)
		  : pid && pid != r->info.pid)
		return 0;
	e = u64_map__find(&r->thread_lost, key);
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
	u64_map__free(&r->meta_ids);
	free(r->meta_dense);
	free(r->stacks);
	u64_map__free(&r->stack_ids);
	u64_map__free(&r->threads);
	u64_map__free(&r->v6_threads);
	u64_map__free(&r->thread_lost);
	u64_map__free(&r->v6_pids);
	u64_map__free(&r->v6_labels);
	free(r->label_ids);
	free(r->stack_buf);
	free(r);
}
