// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * reader_v6.c - the NetTrace V6 block container (.NET 10): its header,
 * metadata, thread, sequence-point and event blocks, decoded into the same
 * reader state as V5 (docs/nettrace-format.md, "NetTrace V6").
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

/* ------------------------------------------------------------ V6 */

/*
 * NetTrace V6 (docs/nettrace-format.md section 12): "Nettrace", uint32 0, uint32 major 6,
 * uint32 minor, then blocks of uint32 (size | kind << 24) + content, no
 * padding.  Threads are indexes defined by Thread blocks; metadata rows are
 * UTF-8 with optional properties; flag 0x10 of an event header is a label
 * list id (labels are accepted and ignored).
 */
enum {
	V6_END = 0, V6_TRACE, V6_EVENT, V6_METADATA, V6_SP, V6_STACK, V6_THREAD,
	V6_REMOVE_THREAD, V6_LABEL_LIST,
};

static int cur_varint(struct cur *c, int max, uint64_t *v)
{
	size_t n = nt_get_varint(c->p, c->end, max, v);

	if (!n)
		return -1;
	c->p += n;
	return 0;
}

/* V6 string: varuint32 byte count + UTF-8 -> malloc'ed C string */
static int cur_str6(struct cur *c, char **out)
{
	uint64_t n;

	if (cur_varint(c, 5, &n) || n > (size_t)(c->end - c->p))
		return -1;
	*out = strndup((const char *)c->p, n);
	if (!*out)
		return -1;
	c->p += n;
	return 0;
}

static int skip_str6(struct cur *c)
{
	char *s = NULL;
	int err = cur_str6(c, &s);

	free(s);
	return err;
}

static int cur_u16(struct cur *c, uint16_t *v)
{
	if (c->end - c->p < 2)
		return -1;
	*v = nt_get_u16(c->p);
	c->p += 2;
	return 0;
}

static int known_type_v6(uint32_t t)
{
	return t == NT_TYPE_OBJECT || (t >= NT_TYPE_BOOLEAN && t <= NT_TYPE_BOOLEAN8 &&
				       t != 22 && t != 24 && t != 25);
}

static int parse_fields_v6(struct cur *c, struct nt_field_desc **out, uint32_t *n_out,
			   int depth);

/* Type := code [element Type] [member list for objects]; FixedLengthArray,
 * RelLoc and DataLoc are not decoded (the event then has no fields). */
static int parse_type_v6(struct cur *c, struct nt_field_desc *f, int is_elem, int depth)
{
	uint32_t t;

	if (depth > NT_MAX_FIELD_DEPTH || c->p >= c->end)
		return -1;
	t = *c->p++;
	if (!known_type_v6(t))
		return -1;
	if (is_elem)
		f->elem_type = t;
	else
		f->type = t;
	if (t == NT_TYPE_ARRAY)
		return is_elem ? -1 : parse_type_v6(c, f, 1, depth + 1);
	if (t == NT_TYPE_OBJECT) {
		struct nt_field_desc *m = NULL;

		if (parse_fields_v6(c, &m, &f->n_members, depth + 1))
			return -1;
		f->members = m;
	}
	return 0;
}

/* uint16 count, then per field: uint16 size (excl. itself), name, Type */
static int parse_fields_v6(struct cur *c, struct nt_field_desc **out, uint32_t *n_out,
			   int depth)
{
	struct nt_field_desc *f;
	uint16_t n, i;

	*out = NULL;
	*n_out = 0;
	if (cur_u16(c, &n) || n > (c->end - c->p) / 2 || rd_fields_alloc(n, depth, out))
		return -1;
	if (!n)
		return 0;
	f = *out;
	for (i = 0; i < n; i++) {
		uint16_t size;
		struct cur fc;
		char *name = NULL;

		if (cur_u16(c, &size) || size > c->end - c->p)
			goto fail;
		fc.p = c->p;
		fc.end = c->p + size;
		fc.budget = 0;
		c->p += size;
		if (cur_str6(&fc, &name))
			goto fail;
		f[i].name = name;
		if (parse_type_v6(&fc, &f[i], 0, depth))
			goto fail;
	}
	*out = f;
	*n_out = n;
	return 0;
fail:
	rd_fields_free(f, n);
	*out = NULL;
	return -1;
}

/* Optional metadata items; an unknown kind ends the list (TraceEvent throws). */
static void parse_optional_v6(struct cur *c, struct nt_metadata *m)
{
	while (c->p < c->end) {
		uint8_t kind = *c->p++;

		switch (kind) {
		case 1:		/* OpCode */
		case 8:		/* Level */
		case 9:		/* Version */
			if (c->p >= c->end)
				return;
			if (kind == 1)
				m->opcode = *c->p;
			else if (kind == 8)
				m->level = *c->p;
			else
				m->version = *c->p;
			c->p++;
			break;
		case 3:		/* Keywords */
			if (c->end - c->p < 8)
				return;
			m->keywords = nt_get_u64(c->p);
			c->p += 8;
			break;
		case 4:		/* MessageTemplate */
		case 5:		/* Description */
			if (skip_str6(c))
				return;
			break;
		case 6:		/* KeyValue */
			if (skip_str6(c) || skip_str6(c))
				return;
			break;
		case 7:		/* ProviderGuid */
			if (c->end - c->p < 16)
				return;
			c->p += 16;
			break;
		default:
			return;
		}
	}
}

static int read_v6_metadata(struct nt_reader *r, size_t start, size_t len)
{
	struct cur c = { r->data + start, r->data + start + len, 0 };
	uint16_t hsize;

	if (cur_u16(&c, &hsize) || hsize > c.end - c.p)
		return rd_fail(r, start, "bad V6 metadata block header");
	c.p += hsize;
	while (c.p < c.end) {
		size_t off = c.p - r->data;
		struct cur row, f;
		struct nt_metadata *m;
		uint16_t rsize, osize;
		uint64_t id, eid;

		if (cur_u16(&c, &rsize) || rsize > c.end - c.p)
			return rd_fail(r, off, "metadata row runs past the block end");
		row.p = c.p;
		row.end = c.p + rsize;
		row.budget = 0;
		c.p += rsize;
		m = calloc(1, sizeof(*m));
		if (!m)
			return rd_fail(r, off, "out of memory");
		if (cur_varint(&row, 5, &id) || cur_str6(&row, &m->provider) ||
		    cur_varint(&row, 5, &eid) || cur_str6(&row, &m->name)) {
			rd_metadata_free(m);
			return rd_fail(r, off, "metadata row too short");
		}
		m->id = id;
		m->event_id = eid;
		f = row;
		if (parse_fields_v6(&row, &m->fields, &m->n_fields, 0)) {
			/* undecodable field list: no fields, and skip it */
			uint16_t n = 0, k;

			row = f;
			m->fields = NULL;
			m->n_fields = 0;
			if (cur_u16(&row, &n))
				row.p = row.end;
			for (k = 0; k < n && row.p < row.end; k++) {
				uint16_t fs;

				if (cur_u16(&row, &fs) || fs > row.end - row.p)
					row.p = row.end;
				else
					row.p += fs;
			}
		}
		if (!cur_u16(&row, &osize) && osize <= row.end - row.p) {
			struct cur o = { row.p, row.p + osize, 0 };

			parse_optional_v6(&o, m);
		}
		if (rd_add_metadata(r, m, off, 2 + (size_t)rsize))
			return -1;
	}
	return 0;
}

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
		struct nt_map_ent *e;
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
			case 1: bad = skip_str6(&row); break;
			case 2: bad = cur_varint(&row, 10, &pid); pid++; break;
			case 3: bad = cur_varint(&row, 10, &tid); break;
			case 4: bad = skip_str6(&row) || skip_str6(&row); break;
			default:
				return rd_fail(r, off, "unknown thread info kind %u", kind);
			}
			if (bad)
				return rd_fail(r, off, "thread row item %u truncated", kind);
		}
		if (nt_map__find(&r->v6_threads, index))
			return rd_fail(r, off, "thread index %" PRIu64 " defined twice", index);
		if (nt_map__get(&r->v6_threads, index, &e))
			return rd_fail(r, off, "out of memory");
		e->val = tid + 1;
		if (pid && nt_map__get(&r->v6_pids, index, &e))
			return rd_fail(r, off, "out of memory");
		if (pid)
			e->val = pid;
	}
	return 0;
}

/* Forget a thread index (RemoveThread, or SP flag 1 for all). */
static void v6_forget_thread(struct nt_map *m, uint64_t index)
{
	struct nt_map copy = { 0 };
	struct nt_map_ent *e;

	/* open addressing without tombstones: rebuild without the entry */
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->ents[i].used || m->ents[i].key == index)
			continue;
		if (nt_map__get(&copy, m->ents[i].key, &e))
			break;
		e->val = m->ents[i].val;
	}
	nt_map__free(m);
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
		nt_map__clear(&r->stack_ids);
		r->n_stacks = 0;
		r->buf_stack_id = 0;
		nt_map__clear(&r->v6_labels);
		r->n_label_ids = 0;
		if (flags & 1) {
			nt_map__clear(&r->v6_threads);
			nt_map__clear(&r->v6_pids);
			nt_map__clear(&r->threads);
			r->buf_thread = NULL;
		}
		if (flags & 2) {
			nt_map__clear(&r->meta_ids);	/* records stay allocated */
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
			if (skip_str6(c) || (k == 5 ? skip_str6(c) : cur_varint(c, 10, &v)))
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
		struct nt_map_ent *e;

		if (GROW(r->label_ids, r->cap_label_ids, r->n_label_ids + 1))
			return rd_fail(r, start, "out of memory");
		if (parse_label_list(&c, r->label_ids[r->n_label_ids]))
			return rd_fail(r, c.p - r->data, "label list %u truncated or unknown",
				       first + i);
		if (nt_map__get(&r->v6_labels, (uint64_t)first + i, &e))
			return rd_fail(r, start, "out of memory");
		e->val = r->n_label_ids++;
	}
	return 0;
}

/* Thread indexes -> OS process and thread ids (the index when the Thread
 * row gave no id), label list -> activity ids. */
void rd_v6_fill_event(struct nt_reader *r, const struct rd_event *e, struct nt_read_event *ev)
{
	struct nt_map_ent *t = nt_map__find(&r->v6_threads, e->thread_id);

	if (t && t->val)
		ev->thread_id = t->val - 1;
	t = nt_map__find(&r->v6_pids, e->thread_id);
	if (t)
		ev->pid = t->val - 1;
	t = nt_map__find(&r->v6_threads, e->capture_thread_id);
	if (t && t->val)
		ev->capture_thread_id = t->val - 1;
	t = e->label_list ? nt_map__find(&r->v6_labels, e->label_list) : NULL;
	if (t) {
		memcpy(ev->activity_id, r->label_ids[t->val], 16);
		memcpy(ev->related_activity_id, r->label_ids[t->val] + 16, 16);
	}
}

/* The index of OS thread tid of process pid (0: the trace's); -1 if no
 * Thread row (still in use) names it. */
int rd_v6_thread_index(const struct nt_reader *r, uint32_t pid, uint64_t tid, uint64_t *index)
{
	if (!pid)
		pid = r->info.pid;
	for (size_t i = 0; i < r->v6_threads.cap; i++) {
		const struct nt_map_ent *t = &r->v6_threads.ents[i];
		const struct nt_map_ent *p;

		if (!t->used || t->val != tid + 1)
			continue;
		p = nt_map__find(&r->v6_pids, t->key);
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
		if (content + len != r->size)
			return rd_fail(r, content + len, "%zu bytes after the end-of-stream block",
				       r->size - content - len);
		r->state = RD_DONE;
		break;
	case V6_TRACE:
		return rd_fail(r, start, "second Trace block");
	case V6_EVENT:
		err = rd_read_event_block(r, content, len);
		break;
	case V6_METADATA:
		err = read_v6_metadata(r, content, len);
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
