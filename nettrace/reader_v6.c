// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * reader_v6.c - the NetTrace V6 block container (.NET 10;
 * docs/nettrace-format.md section 12): its header and Trace block, then
 * blocks of uint32 (size | kind << 24) + content without padding.  Threads
 * are indexes defined by Thread rows (OS process and thread ids), removed
 * by RemoveThread blocks or a sequence point's flag; activity ids come in
 * LabelList rows.  Event, Stack and Metadata blocks are read as the V5
 * ones are (reader_blocks.c, reader_meta.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nettrace_internal.h"
#include "grow.h"

static int read_v6_trace(struct nt_reader *r, size_t start, size_t len)
{
	const uint8_t *p = r->data + start;
	struct cur c = { p + 40, p + len, 0 };
	uint32_t count;

	/* SYSTEMTIME 16, ticks 8, frequency 8, pointer size 4, key/value count 4 */
	if (len < 40)
		return rd_fail(r, start, "V6 Trace block of %zu bytes is too short", len);
	r->info.sync_utc = rd_systemtime(p);
	r->info.sync_ts = nt_get_u64(p + 16);
	r->info.freq = nt_get_u64(p + 24);
	r->info.pointer_size = nt_get_u32(p + 32);
	count = nt_get_u32(p + 36);
	if (r->info.pointer_size != 4 && r->info.pointer_size != 8)
		return rd_fail(r, start + 32, "pointer size %u (expected 4 or 8)",
			       r->info.pointer_size);
	for (uint32_t i = 0; i < count; i++) {
		char *k = NULL, *v = NULL;

		if (cur_str6(&c, &k) || cur_str6(&c, &v)) {
			free(k);
			return rd_fail(r, start, "V6 Trace block: key/value %u truncated", i);
		}
		if (!strcmp(k, "ProcessId"))
			r->info.pid = strtoul(v, NULL, 10);
		else if (!strcmp(k, "HardwareThreadCount"))
			r->info.ncpu = strtoul(v, NULL, 10);
		else if (!strcmp(k, "ExpectedCPUSamplingRate"))
			r->info.sampling_interval_ns = strtoul(v, NULL, 10);
		free(k);
		free(v);
	}
	return 0;
}

static int read_v6_thread(struct nt_reader *r, size_t start, size_t len)
{
	struct cur c = { r->data + start, r->data + start + len, 0 };

	while (c.p < c.end) {
		size_t off = c.p - r->data;
		struct u64_map_ent *e;
		uint64_t index, pid = 0, tid = 0;
		uint16_t rsize;
		struct cur row;

		if (cur_u16(&c, &rsize) || rsize > c.end - c.p)
			return rd_fail(r, off, "thread row runs past the block end");
		row.p = c.p;
		row.end = c.p + rsize;
		row.budget = 0;
		c.p += rsize;
		if (cur_varint(&row, 10, &index))
			return rd_fail(r, off, "thread row without an index");
		while (row.p < row.end) {
			uint8_t kind = *row.p++;
			int bad;

			switch (kind) {
			case 1: bad = cur_skip_str6(&row); break;
			case 2: bad = cur_varint(&row, 10, &pid); pid++; break;
			case 3: bad = cur_varint(&row, 10, &tid); break;
			case 4: bad = cur_skip_str6(&row) || cur_skip_str6(&row); break;
			default:
				return rd_fail(r, off, "unknown thread info kind %u", kind);
			}
			if (bad)
				return rd_fail(r, off, "thread row item %u truncated", kind);
		}
		if (u64_map__find(&r->v6_threads, index))
			return rd_fail(r, off, "thread index %" PRIu64 " defined twice", index);
		if (u64_map__get(&r->v6_threads, index, &e))
			return rd_fail(r, off, "out of memory");
		e->val = tid + 1;
		if (pid && u64_map__get(&r->v6_pids, index, &e))
			return rd_fail(r, off, "out of memory");
		if (pid)
			e->val = pid;
	}
	return 0;
}

/* Forget a thread index (RemoveThread, or SP flag 1 for all). */
static void v6_forget_thread(struct u64_map *m, uint64_t index)
{
	struct u64_map copy = { 0 };
	struct u64_map_ent *e;

	/* open addressing without tombstones: rebuild without the entry */
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->ents[i].used || m->ents[i].key == index)
			continue;
		if (u64_map__get(&copy, m->ents[i].key, &e))
			break;
		e->val = m->ents[i].val;
	}
	u64_map__free(m);
	*m = copy;
}

static int read_v6_sp(struct nt_reader *r, size_t start, size_t len, int remove)
{
	struct cur c = { r->data + start, r->data + start + len, 0 };
	uint32_t flags = 0, count = UINT32_MAX;

	if (!remove) {
		if (len < 16)
			return rd_fail(r, start, "SequencePoint block too short");
		flags = nt_get_u32(c.p + 8);
		count = nt_get_u32(c.p + 12);
		c.p += 16;
	}
	for (uint32_t i = 0; i < count && c.p < c.end; i++) {
		uint64_t index, seq;

		if (cur_varint(&c, 10, &index) || cur_varint(&c, 5, &seq))
			return rd_fail(r, start, "%s entry %u truncated",
				       remove ? "RemoveThread" : "SequencePoint", i);
		rd_note_sequence(r, index, seq, 1);
		if (remove) {
			v6_forget_thread(&r->v6_threads, index);
			v6_forget_thread(&r->v6_pids, index);
			v6_forget_thread(&r->threads, index);
			r->buf_thread = NULL;	/* entries may have moved */
		}
	}
	if (c.p != c.end)
		return rd_fail(r, c.p - r->data, "bytes after the last entry");
	if (!remove) {
		rd_forget_stacks(r);
		u64_map__clear(&r->v6_labels);
		r->n_label_ids = 0;
		if (flags & 1) {
			u64_map__clear(&r->v6_threads);
			u64_map__clear(&r->v6_pids);
			u64_map__clear(&r->threads);
			r->buf_thread = NULL;
		}
		if (flags & 2) {
			u64_map__clear(&r->meta_ids);	/* records stay allocated */
			if (r->n_meta_dense)
				memset(r->meta_dense, 0, r->n_meta_dense * sizeof(*r->meta_dense));
			r->buf_meta_id = 0;
		}
	}
	return 0;
}

/* Label lengths by kind (1..10); 0: strings, handled apart */
static const uint8_t label_len[11] = { 0, 16, 16, 16, 8, 0, 0, 1, 8, 1, 1 };

/* One label list: the activity ids are kept, other labels skipped. */
static int parse_label_list(struct cur *c, uint8_t *ids)
{
	uint8_t kind;

	memset(ids, 0, 32);
	do {
		uint64_t v;

		if (c->p >= c->end)
			return -1;
		kind = *c->p++;
		uint8_t k = kind & 0x7f;

		if (k == 0 || k > 10)
			return -1;
		if (k == 5 || k == 6) {
			if (cur_skip_str6(c) || (k == 5 ? cur_skip_str6(c) : cur_varint(c, 10, &v)))
				return -1;
			continue;
		}
		if (c->end - c->p < label_len[k])
			return -1;
		if (k == 1 || k == 2)
			memcpy(ids + (k - 1) * 16, c->p, 16);
		c->p += label_len[k];
	} while (!(kind & 0x80));
	return 0;
}

static int read_v6_labels(struct nt_reader *r, size_t start, size_t len)
{
	struct cur c = { r->data + start, r->data + start + len, 0 };
	uint32_t first, count;

	if (len < 8)
		return rd_fail(r, start, "LabelList block too short");
	first = nt_get_u32(c.p);
	count = nt_get_u32(c.p + 4);
	c.p += 8;
	for (uint32_t i = 0; i < count; i++) {
		struct u64_map_ent *e;

		if (GROW(r->label_ids, r->cap_label_ids, r->n_label_ids + 1))
			return rd_fail(r, start, "out of memory");
		if (parse_label_list(&c, r->label_ids[r->n_label_ids]))
			return rd_fail(r, c.p - r->data, "label list %u truncated or unknown",
				       first + i);
		if (u64_map__get(&r->v6_labels, (uint64_t)first + i, &e))
			return rd_fail(r, start, "out of memory");
		e->val = r->n_label_ids++;
	}
	return 0;
}

/* The index of OS thread tid of process pid (0: the trace's); -1 if no
 * Thread row (still in use) names it. */
int rd_v6_thread_index(const struct nt_reader *r, uint32_t pid, uint64_t tid, uint64_t *index)
{
	if (!pid)
		pid = r->info.pid;
	for (size_t i = 0; i < r->v6_threads.cap; i++) {
		const struct u64_map_ent *t = &r->v6_threads.ents[i];
		const struct u64_map_ent *p;

		if (!t->used || t->val != tid + 1)
			continue;
		p = u64_map__find(&r->v6_pids, t->key);
		if ((p ? p->val - 1 : r->info.pid) == pid) {
			*index = t->key;
			return 0;
		}
	}
	return -1;
}

int rd_read_block_v6(struct nt_reader *r)
{
	size_t start = r->pos, content, len;
	uint32_t hdr, kind;
	int err = 0;

	if (r->size - start < 4) {
		if (start == r->size)
			return rd_fail(r, start, "file ends without the end-of-stream block");
		return rd_fail(r, start, "file ends inside a block header");
	}
	hdr = nt_get_u32(r->data + start);
	len = hdr & 0xffffff;
	kind = hdr >> 24;
	content = start + 4;
	if (len > r->size - content)
		return rd_fail(r, start, "block kind %u claims %zu bytes, the file has %zu "
			       "(file ends at %zu)", kind, len, r->size - content,
			       (size_t)(r->size + r->base));
	switch (kind) {
	case V6_END:
		if (content + len != r->size || r->trailing)
			return rd_fail(r, content + len, "%zu bytes after the end-of-stream block",
				       r->size - content - len + r->trailing);
		r->state = RD_DONE;
		break;
	case V6_TRACE:
		return rd_fail(r, start, "second Trace block");
	case V6_EVENT:
		err = rd_read_event_block(r, content, len);
		break;
	case V6_METADATA:
		err = rd_read_v6_metadata(r, content, len);
		break;
	case V6_SP:
		err = read_v6_sp(r, content, len, 0);
		break;
	case V6_STACK:
		err = rd_read_stack_block(r, content, len);
		break;
	case V6_THREAD:
		err = read_v6_thread(r, content, len);
		break;
	case V6_REMOVE_THREAD:
		err = read_v6_sp(r, content, len, 1);
		break;
	case V6_LABEL_LIST:
		err = read_v6_labels(r, content, len);
		break;
	default:	/* unknown kinds: skipped */
		break;
	}
	if (err)
		return -1;
	r->pos = content + len;
	return 0;
}

int rd_read_v6_header(struct nt_reader *r)
{
	uint32_t major, len, kind;

	if (r->size < 20)
		return rd_fail(r, 8, "file ends inside the V6 stream header");
	major = nt_get_u32(r->data + 12);
	if (major != 6)
		return rd_fail(r, 12, "NetTrace major version %u (6 expected)", major);
	r->v6 = 1;
	r->info.format = 6;
	if (r->size < 24)
		return rd_fail(r, 20, "file ends before the Trace block");
	len = nt_get_u32(r->data + 20) & 0xffffff;
	kind = nt_get_u32(r->data + 20) >> 24;
	if (kind != V6_TRACE)
		return rd_fail(r, 20, "first block is kind %u, not Trace", kind);
	if (len > r->size - 24)
		return rd_fail(r, 20, "Trace block claims %u bytes, the file has %zu", len,
			       r->size - 24);
	if (read_v6_trace(r, 24, len))
		return -1;
	r->pos = 24 + len;
	return 0;
}
