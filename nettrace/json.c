// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * JSON output of the nettrace library: strings (UTF-16LE and UTF-8) and
 * payloads decoded by the file's own field descriptions
 * (nt_payload_to_json), for dump and tests.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nettrace.h"
#include "nettrace_internal.h"
#include "utf16.h"

static void json_cp(FILE *f, uint32_t c)
{
	char u[4];

	switch (c) {
	case '"': fputs("\\\"", f); return;
	case '\\': fputs("\\\\", f); return;
	case '\n': fputs("\\n", f); return;
	case '\r': fputs("\\r", f); return;
	case '\t': fputs("\\t", f); return;
	}
	if (c < 0x20 || c == 0x7f) {
		fprintf(f, "\\u%04x", c);
		return;
	}
	fwrite(u, 1, utf8_encode(u, c), f);
}

/* n bytes of UTF-16LE as a JSON string (nt_json_str's rules) */
static void nt_json_utf16(FILE *f, const uint8_t *p, size_t n)
{
	size_t i = 0;

	fputc('"', f);
	while (i + 1 < n)
		json_cp(f, utf16le_decode(p, n, &i));
	fputc('"', f);
}

void nt_json_str(FILE *f, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	fputc('"', f);
	while (*u)
		json_cp(f, utf8_decode(&u, NULL));
	fputc('"', f);
}

/* ------------------------------------------------------------ payload JSON */

static int type_size(uint32_t t)
{
	switch (t) {
	case NT_TYPE_SBYTE: case NT_TYPE_BYTE: case NT_TYPE_UTF8_CODE_UNIT: case NT_TYPE_BOOLEAN8:
		return 1;
	case NT_TYPE_CHAR: case NT_TYPE_INT16: case NT_TYPE_UINT16: return 2;
	case NT_TYPE_BOOLEAN: case NT_TYPE_INT32: case NT_TYPE_UINT32: case NT_TYPE_SINGLE:
		return 4;
	case NT_TYPE_INT64: case NT_TYPE_UINT64: case NT_TYPE_DOUBLE: case NT_TYPE_DATETIME:
		return 8;
	case NT_TYPE_DECIMAL: case NT_TYPE_GUID: return 16;
	}
	return 0;
}

static void json_double(FILE *f, double d)
{
	if (isnan(d))
		fputs("\"NaN\"", f);
	else if (isinf(d))
		fputs(d > 0 ? "\"Infinity\"" : "\"-Infinity\"", f);
	else
		fprintf(f, "%.17g", d);
}

/* A fixed-size value of type t at p (sz bytes, already bounds-checked). */
static void json_fixed(FILE *f, uint32_t t, const uint8_t *p, int sz)
{
	switch (t) {
	case NT_TYPE_BOOLEAN: fputs(nt_get_u32(p) ? "true" : "false", f); break;
	case NT_TYPE_BOOLEAN8: fputs(p[0] ? "true" : "false", f); break;
	case NT_TYPE_UTF8_CODE_UNIT:	/* one byte of UTF-8; non-ASCII bytes alone: U+FFFD */
		fputc('"', f);
		json_cp(f, p[0] < 0x80 ? p[0] : 0xfffd);
		fputc('"', f);
		break;
	case NT_TYPE_CHAR: nt_json_utf16(f, p, 2); break;
	case NT_TYPE_SBYTE: fprintf(f, "%d", (int8_t)p[0]); break;
	case NT_TYPE_BYTE: fprintf(f, "%u", p[0]); break;
	case NT_TYPE_INT16: fprintf(f, "%d", (int16_t)nt_get_u16(p)); break;
	case NT_TYPE_UINT16: fprintf(f, "%u", nt_get_u16(p)); break;
	case NT_TYPE_INT32: fprintf(f, "%d", (int32_t)nt_get_u32(p)); break;
	case NT_TYPE_UINT32: fprintf(f, "%u", nt_get_u32(p)); break;
	case NT_TYPE_INT64: case NT_TYPE_DATETIME:
		fprintf(f, "%" PRId64, (int64_t)nt_get_u64(p));
		break;
	case NT_TYPE_UINT64: fprintf(f, "%" PRIu64, nt_get_u64(p)); break;
	case NT_TYPE_SINGLE: {
		uint32_t u = nt_get_u32(p);
		float x;

		memcpy(&x, &u, 4);
		json_double(f, x);
		break;
	}
	case NT_TYPE_DOUBLE: {
		uint64_t u = nt_get_u64(p);
		double x;

		memcpy(&x, &u, 8);
		json_double(f, x);
		break;
	}
	case NT_TYPE_GUID:
		fprintf(f, "\"%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x\"",
			nt_get_u32(p), nt_get_u16(p + 4), nt_get_u16(p + 6), p[8], p[9], p[10],
			p[11], p[12], p[13], p[14], p[15]);
		break;
	default:	/* Decimal: raw hex */
		fputc('"', f);
		for (int i = 0; i < sz; i++)
			fprintf(f, "%02x", p[i]);
		fputc('"', f);
	}
}

static int json_fields(FILE *f, const struct nt_field_desc *fd, uint32_t n, struct cur *c,
		       int depth);

/* One value of type t (fd gives members/element type); f may be NULL (size walk). */
static int json_value(FILE *f, const struct nt_field_desc *fd, uint32_t t, struct cur *c,
		      int depth)
{
	const uint8_t *p = c->p;
	int sz = type_size(t);

	/* arrays of empty objects consume no bytes: bound the work instead */
	if (depth > NT_MAX_FIELD_DEPTH + 2 || --c->budget < 0)
		return -1;
	if (t == NT_TYPE_OBJECT) {
		if (f)
			fputc('{', f);
		if (json_fields(f, fd->members, fd->n_members, c, depth + 1))
			return -1;
		if (f)
			fputc('}', f);
		return 0;
	}
	if (t == NT_TYPE_STRING) {
		long n = utf16le_len(p, c->end);

		if (n < 0)
			return -1;
		if (f)
			nt_json_utf16(f, p, n);
		c->p += n + 2;
		return 0;
	}
	if (t == NT_TYPE_VARINT || t == NT_TYPE_VARUINT) {
		uint64_t v;
		size_t n = nt_get_varint(p, c->end, 10, &v);

		if (!n)
			return -1;
		c->p += n;
		if (f && t == NT_TYPE_VARUINT)
			fprintf(f, "%" PRIu64, v);
		else if (f)
			fprintf(f, "%" PRId64, (int64_t)(v >> 1) ^ -(int64_t)(v & 1));
		return 0;
	}
	if (t == NT_TYPE_ARRAY) {
		uint16_t count;

		if (c->end - p < 2 || fd->elem_type == NT_TYPE_ARRAY)
			return -1;
		count = nt_get_u16(p);
		c->p += 2;
		if (f)
			fputc('[', f);
		for (uint32_t i = 0; i < count; i++) {
			if (f && i)
				fputc(',', f);
			if (json_value(f, fd, fd->elem_type, c, depth + 1))
				return -1;
		}
		if (f)
			fputc(']', f);
		return 0;
	}
	if (!sz || c->end - p < sz)
		return -1;
	c->p += sz;
	if (f)
		json_fixed(f, t, p, sz);
	return 0;
}

static int json_fields(FILE *f, const struct nt_field_desc *fd, uint32_t n, struct cur *c,
		       int depth)
{
	for (uint32_t i = 0; i < n; i++) {
		if (f) {
			if (i)
				fputc(',', f);
			nt_json_str(f, fd[i].name ? fd[i].name : "");
			fputc(':', f);
		}
		if (json_value(f, &fd[i], fd[i].type, c, depth))
			return -1;
	}
	return 0;
}

int nt_payload_string(const struct nt_metadata *m, const void *payload, size_t len,
		      const char *field, char *out, size_t outlen)
{
	struct cur c = { payload, (const uint8_t *)payload + len, 100000 + 4 * (long)len };

	for (uint32_t i = 0; i < m->n_fields; i++) {
		const struct nt_field_desc *fd = &m->fields[i];

		if (fd->name && !strcmp(fd->name, field))
			return fd->type != NT_TYPE_STRING ? -EINVAL :
			       utf16le_to_utf8(c.p, (size_t)(c.end - c.p), out, outlen) < 0 ?
			       -EINVAL : 0;
		if (json_value(NULL, fd, fd->type, &c, 0))
			return -EINVAL;
	}
	return -ENOENT;
}

int nt_payload_to_json(const struct nt_metadata *m, const void *payload, size_t len,
		       void *file)
{
	FILE *f = file;
	struct cur c = { payload, (const uint8_t *)payload + len, 100000 + 4 * (long)len };

	/* walk first, so a short payload never produces half a JSON object */
	if (json_fields(NULL, m->fields, m->n_fields, &c, 0)) {
		const uint8_t *p = payload;

		fputs("{\"_error\":\"payload does not match metadata\",\"_hex\":\"", f);
		for (size_t i = 0; i < len; i++)
			fprintf(f, "%02x", p[i]);
		fputs("\"}", f);
		return -EINVAL;
	}
	c.p = payload;
	c.budget = 100000 + 4 * (long)len;
	fputc('{', f);
	json_fields(f, m->fields, m->n_fields, &c, 0);
	if (c.p != c.end)
		fprintf(f, "%s\"_extra\":%zu", m->n_fields ? "," : "", (size_t)(c.end - c.p));
	fputc('}', f);
	return c.p != c.end ? -E2BIG : 0;
}
