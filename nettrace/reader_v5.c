// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * reader_v5.c - the version-4 FastSerialization container, as every runtime
 * before .NET 10 writes it (NetTrace V5 and its NetPerf-era forms;
 * docs/nettrace-format.md sections 2-7): the Trace object, then objects
 * (EventBlock, MetadataBlock, StackBlock, SPBlock), each with its size and
 * padded to a 4-byte aligned offset, and the end-of-stream byte.  A block
 * is only used when it is whole: its BlockSize bytes and the closing
 * EndObject byte must be present.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nettrace_internal.h"

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

/* The FastSerialization header and the Trace object (version 4): the
 * trace's clock, pointer size, process and CPUs. */
int rd_read_v5_header(struct nt_reader *r)
{
	const uint8_t *p;
	char name[40];
	uint32_t version;
	size_t pos = 32;

	if (r->size < 32)
		return rd_fail(r, 8, "file ends inside the stream header");
	if (nt_get_u32(r->data + 8) != 20 || memcmp(r->data + 12, NT_FS_SIG, 20))
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

static int metadata_blob(struct nt_reader *r, const struct nt_hdr *ev, size_t blob)
{
	return rd_parse_metadata(r, r->data + ev->payload_off, ev->payload_size, blob);
}

static int read_metadata_block(struct nt_reader *r, size_t start, size_t len)
{
	size_t first = 0;
	int mode = 0;

	return rd_walk_blobs(r, start, len, "MetadataBlock", metadata_blob, &first, &mode);
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
	rd_forget_stacks(r);
	return 0;
}

/* Read and check the next object; an EventBlock becomes the current block. */
int rd_read_object(struct nt_reader *r)
{
	size_t start = r->pos, pos = r->pos, content, len;
	char name[40];
	uint32_t version;
	int err;

	if (pos >= r->size)
		return rd_fail(r, pos, "file ends without the end-of-stream marker");
	if (r->data[pos] == NT_TAG_NULL) {
		if (pos + 1 != r->size || r->trailing)
			return rd_fail(r, pos + 1, "%zu bytes after the end-of-stream marker",
				       r->size - pos - 1 + r->trailing);
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
