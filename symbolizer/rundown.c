// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rundown.c - the payloads of the rundown-style method and module events
 * (docs/nettrace-format.md section 11): encoded by symbolize.c, which
 * decides which ones a trace carries, and decoded by it and the views.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rundown.h"
#include "utf16.h"

/* ------------------------------------------------- payloads (docs/nettrace-format.md section 11) */

struct wbuf {
	uint8_t *p;
	size_t cap, len;
};

static void wb_put(struct wbuf *b, const void *v, size_t n)
{
	if (b->len + n <= b->cap)
		memcpy(b->p + b->len, v, n);
	b->len += n;
}

static void wb_u16(struct wbuf *b, uint16_t v)
{
	uint8_t x[2] = { (uint8_t)v, (uint8_t)(v >> 8) };

	wb_put(b, x, 2);
}

static void wb_u32(struct wbuf *b, uint32_t v)
{
	wb_u16(b, (uint16_t)v);
	wb_u16(b, (uint16_t)(v >> 16));
}

static void wb_u64(struct wbuf *b, uint64_t v)
{
	wb_u32(b, (uint32_t)v);
	wb_u32(b, (uint32_t)(v >> 32));
}

/* A string as UTF-16LE + NUL; past the end of the buffer only counted. */
static void wb_str(struct wbuf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	uint8_t *tmp;

	if (b->len + 2 * n + 2 <= b->cap) {
		b->len += utf8_to_utf16le(s ? s : "", n, b->p + b->len);
		return;
	}
	tmp = malloc(2 * n + 2);
	if (!tmp) {
		b->len += 2 * n + 2;	/* too long for the buffer either way */
		return;
	}
	wb_put(b, tmp, utf8_to_utf16le(s, n, tmp));
	free(tmp);
}

long sym_encode_method(void *buf, size_t cap, const struct sym_method_rec *m)
{
	struct wbuf b = { buf, cap, 0 };

	wb_u64(&b, m->method_id);
	wb_u64(&b, m->module_id);
	wb_u64(&b, m->start);
	wb_u32(&b, m->size);
	wb_u32(&b, m->token);
	wb_u32(&b, m->flags);
	wb_str(&b, m->ns);
	wb_str(&b, m->name);
	wb_str(&b, m->sig);
	wb_u16(&b, m->clr_instance);
	if (m->has_rejit)
		wb_u64(&b, m->rejit_id);
	return (long)b.len;
}

long sym_encode_module(void *buf, size_t cap, const struct sym_module_rec *m)
{
	static const uint8_t zero_guid[16];
	struct wbuf b = { buf, cap, 0 };

	wb_u64(&b, m->module_id);
	wb_u64(&b, m->assembly_id);
	wb_u32(&b, m->flags);
	wb_u32(&b, 0);		/* Reserved1 */
	wb_str(&b, m->il_path);
	wb_str(&b, m->native_path);
	wb_u16(&b, m->clr_instance);
	wb_put(&b, zero_guid, 16);	/* ManagedPdbSignature */
	wb_u32(&b, 0);
	wb_str(&b, "");
	wb_put(&b, zero_guid, 16);	/* NativePdbSignature */
	wb_u32(&b, 0);
	wb_str(&b, "");
	return (long)b.len;
}

struct rbuf {
	const uint8_t *p;
	size_t len, off;
	char *str;
	size_t strcap, stroff;
	int err;
};

static uint64_t rb_uint(struct rbuf *b, size_t n)
{
	uint64_t v = 0;
	size_t i;

	if (b->off + n > b->len) {
		b->err = -EINVAL;
		return 0;
	}
	for (i = 0; i < n; i++)
		v |= (uint64_t)b->p[b->off + i] << (8 * i);
	b->off += n;
	return v;
}

static const char *rb_str(struct rbuf *b)
{
	char *dst = b->str + b->stroff;
	long used;

	if (b->err || b->stroff >= b->strcap) {
		b->err = -EINVAL;
		return "";
	}
	used = utf16le_to_utf8(b->p + b->off, b->len - b->off, dst, b->strcap - b->stroff);
	if (used < 0) {
		b->err = -EINVAL;
		return "";
	}
	b->off += (size_t)used;
	b->stroff += strlen(dst) + 1;
	return dst;
}

int sym_decode_method(const void *p, size_t len, struct sym_method_rec *m,
		      char *strbuf, size_t strcap)
{
	struct rbuf b = { p, len, 0, strbuf, strcap, 0, 0 };

	memset(m, 0, sizeof(*m));
	m->method_id = rb_uint(&b, 8);
	m->module_id = rb_uint(&b, 8);
	m->start = rb_uint(&b, 8);
	m->size = (uint32_t)rb_uint(&b, 4);
	m->token = (uint32_t)rb_uint(&b, 4);
	m->flags = (uint32_t)rb_uint(&b, 4);
	m->ns = rb_str(&b);
	m->name = rb_str(&b);
	m->sig = rb_str(&b);
	if (b.err)
		return b.err;
	if (b.off + 2 <= len)
		m->clr_instance = (uint16_t)rb_uint(&b, 2);
	if (b.off + 8 <= len) {
		m->has_rejit = 1;
		m->rejit_id = rb_uint(&b, 8);
	}
	return 0;
}

int sym_decode_module(const void *p, size_t len, int domain, struct sym_module_rec *m,
		      char *strbuf, size_t strcap)
{
	struct rbuf b = { p, len, 0, strbuf, strcap, 0, 0 };

	memset(m, 0, sizeof(*m));
	m->module_id = rb_uint(&b, 8);
	m->assembly_id = rb_uint(&b, 8);
	if (domain)
		rb_uint(&b, 8);	/* AppDomainID */
	m->flags = (uint32_t)rb_uint(&b, 4);
	rb_uint(&b, 4);		/* Reserved1 */
	m->il_path = rb_str(&b);
	m->native_path = rb_str(&b);
	if (b.err)
		return b.err;
	if (b.off + 2 <= len)
		m->clr_instance = (uint16_t)rb_uint(&b, 2);
	return 0;
}

/* -------------------------------- Universal.System mappings and build ids */

static void wb_leb(struct wbuf *b, uint64_t v)
{
	do {
		uint8_t c = v & 0x7f;

		v >>= 7;
		if (v)
			c |= 0x80;
		wb_put(b, &c, 1);
	} while (v);
}

/* A string as a uint16 byte count and UTF-8 (at most 65535 bytes) */
static void wb_str8(struct wbuf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n > 65535)
		n = 65535;
	wb_u16(b, (uint16_t)n);
	wb_put(b, s ? s : "", n);
}

long sym_encode_mapping(void *buf, size_t cap, const struct sym_mapping_rec *m)
{
	struct wbuf b = { buf, cap, 0 };

	wb_leb(&b, m->id);
	wb_leb(&b, m->start);
	wb_leb(&b, m->end);
	wb_leb(&b, m->offset);
	wb_str8(&b, m->path);
	wb_leb(&b, m->meta_id);
	return (long)b.len;
}

long sym_encode_mapping_meta(void *buf, size_t cap, const struct sym_mapping_meta_rec *m)
{
	struct wbuf b = { buf, cap, 0 };

	wb_leb(&b, m->id);
	wb_str8(&b, m->symbol_json);
	wb_str8(&b, m->version_json);
	return (long)b.len;
}

static uint64_t rb_leb(struct rbuf *b)
{
	uint64_t v = 0;
	unsigned int shift = 0;
	uint8_t c;

	do {
		if (b->off >= b->len || shift > 63) {
			b->err = -EINVAL;
			return 0;
		}
		c = b->p[b->off++];
		v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	return v;
}

static const char *rb_str8(struct rbuf *b)
{
	char *dst = b->str + b->stroff;
	size_t n = (size_t)rb_uint(b, 2);

	if (b->err || b->off + n > b->len || b->stroff + n + 1 > b->strcap) {
		b->err = -EINVAL;
		return "";
	}
	memcpy(dst, b->p + b->off, n);
	dst[n] = '\0';
	b->off += n;
	b->stroff += n + 1;
	return dst;
}

int sym_decode_mapping(const void *p, size_t len, struct sym_mapping_rec *m, char *strbuf,
		       size_t strcap)
{
	struct rbuf b = { p, len, 0, strbuf, strcap, 0, 0 };

	memset(m, 0, sizeof(*m));
	m->id = rb_leb(&b);
	m->start = rb_leb(&b);
	m->end = rb_leb(&b);
	m->offset = rb_leb(&b);
	m->path = rb_str8(&b);
	m->meta_id = rb_leb(&b);
	return b.err;
}

int sym_decode_mapping_meta(const void *p, size_t len, struct sym_mapping_meta_rec *m,
			    char *strbuf, size_t strcap)
{
	struct rbuf b = { p, len, 0, strbuf, strcap, 0, 0 };

	memset(m, 0, sizeof(*m));
	m->id = rb_leb(&b);
	m->symbol_json = rb_str8(&b);
	m->version_json = b.off < len ? rb_str8(&b) : "";
	return b.err;
}

const char *sym_mapping_build_id(const char *json, char *buf, size_t len)
{
	const char *b = json ? strstr(json, "\"build_id\":\"") : NULL;
	size_t n;

	buf[0] = '\0';
	if (!b)
		return buf;
	b += 12;
	n = strspn(b, "0123456789abcdefABCDEF");
	if (b[n] == '"' && n < len)
		snprintf(buf, len, "%.*s", (int)n, b);
	return buf;
}
