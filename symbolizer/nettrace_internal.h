/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * nettrace_internal.h - helpers shared by the nettrace writer, reader and
 * dump: a growable byte buffer with little-endian/LEB128 appenders, UTF-8 <->
 * UTF-16LE conversion and a small open-addressing u64 -> u64 map.
 * Not installed; nothing outside symbolizer/ (and its tests) includes it.
 */
#ifndef EBPF_COLLECT_NETTRACE_INTERNAL_H
#define EBPF_COLLECT_NETTRACE_INTERNAL_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

/* FastSerialization tags */
#define NT_TAG_NULL		1
#define NT_TAG_BEGIN_PRIVATE	5
#define NT_TAG_END		6

#define NT_BLOCK_HEADER_SIZE	20	/* EventBlock/MetadataBlock header */

/* compressed event-header flags (format guide section 4.2) */
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

static inline void nt_put_varint(struct nt_buf *b, uint64_t v)
{
	while (v >= 0x80) {
		b->data[b->len++] = (v & 0x7f) | 0x80;
		v >>= 7;
	}
	b->data[b->len++] = v;
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

/*
 * Length in bytes of the NUL-terminated UTF-16LE string at p (not counting the
 * NUL), or -1 if no terminator is found before end.
 */
long nt_utf16_len(const uint8_t *p, const uint8_t *end);

/* Convert n bytes of UTF-16LE to a malloc'ed UTF-8 string (lone surrogates
 * become U+FFFD); NULL on ENOMEM. */
char *nt_utf16_to_utf8(const uint8_t *p, size_t n);

/* Print n bytes of UTF-16LE as a JSON string (with quotes) to f. */
void nt_json_utf16(FILE *f, const uint8_t *p, size_t n);
/* Print a UTF-8 C string as a JSON string (with quotes) to f. */
void nt_json_str(FILE *f, const char *s);

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

static inline uint64_t nt_hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static inline struct nt_map_ent *nt_map__find(const struct nt_map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = nt_hash64(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
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
			for (j = nt_hash64(m->ents[i].key) & (ncap - 1); n[j].used;
			     j = (j + 1) & (ncap - 1))
				;
			n[j] = m->ents[i];
		}
		free(m->ents);
		m->ents = n;
		m->cap = ncap;
	}
	for (i = nt_hash64(key) & (m->cap - 1); m->ents[i].used; i = (i + 1) & (m->cap - 1))
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

#endif /* EBPF_COLLECT_NETTRACE_INTERNAL_H */
