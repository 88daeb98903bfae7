/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * nettrace_bytes.h - the encodings a .nettrace file is made of, for callers
 * that read payload fields themselves or build a trace's bytes by hand
 * (tests of hostile input): little-endian integers, LEB128 varints and
 * UTF-16LE strings (docs/nettrace-format.md section 1), and a growable
 * byte buffer to append them to.  The library writes and reads with the
 * same functions, so what they produce is what a trace holds.
 *
 * Contract: the nt_put_* appenders assume the caller reserved the room
 * (nt_buf__reserve); the nt_buf__* ones reserve it and return 0 or
 * -ENOMEM.  The nt_get_* readers assume the bytes are there;
 * nt_get_varint checks the end itself.
 */
#ifndef EBPF_COLLECT_NETTRACE_BYTES_H
#define EBPF_COLLECT_NETTRACE_BYTES_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"

struct nt_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
};

/* The room is mostly there already (the writer reserves once per event):
 * that case is decided here, inline, and only growing calls grow_array. */
static inline int nt_buf__reserve(struct nt_buf *b, size_t extra)
{
	if (b->len + extra < b->len)
		return -ENOMEM;
	if (b->len + extra <= b->cap)
		return 0;
	return GROW(b->data, b->cap, b->len + extra);
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

/*
 * Append s (UTF-8) as UTF-16LE plus a 16-bit NUL, as V5 metadata holds
 * strings.  Invalid UTF-8 bytes become U+FFFD.  Returns 0 or -ENOMEM.
 */
int nt_buf__utf16(struct nt_buf *b, const char *s);

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

#endif /* EBPF_COLLECT_NETTRACE_BYTES_H */
