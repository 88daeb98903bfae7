// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * strings.c - the strings of the nettrace format: UTF-16LE with a NUL unit
 * (V5 metadata, payloads) and a varuint32 byte count followed by UTF-8 (V6
 * rows and the V6 Trace block).  The UTF-8/UTF-16 conversion itself is
 * common/utf16.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nettrace_internal.h"
#include "utf16.h"

int nt_buf__utf16(struct nt_buf *b, const char *str)
{
	size_t n = strlen(str);

	/* at most one UTF-16 unit (2 bytes) per UTF-8 byte, plus the NUL */
	if (nt_buf__reserve(b, 2 * n + 2))
		return -ENOMEM;
	b->len += utf8_to_utf16le(str, n, b->data + b->len);
	return 0;
}

/* Convert n bytes of UTF-16LE to a malloc'ed UTF-8 string (lone surrogates
 * become U+FFFD); NULL on ENOMEM. */
static char *nt_utf16_to_utf8(const uint8_t *p, size_t n)
{
	char *s = malloc(n / 2 * 3 + 1), *o = s;
	size_t i = 0;

	if (!s)
		return NULL;
	while (i + 1 < n)
		o += utf8_encode(o, utf16le_decode(p, n, &i));
	*o = 0;
	return s;
}

int cur_str16(struct cur *c, char **out)
{
	long n = utf16le_len(c->p, c->end);

	if (n < 0)
		return -1;
	*out = nt_utf16_to_utf8(c->p, n);
	if (!*out)
		return -1;
	c->p += n + 2;
	return 0;
}

int nt_buf__str6(struct nt_buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n > UINT32_MAX)
		return -E2BIG;
	if (nt_buf__reserve(b, 5 + n))
		return -ENOMEM;
	nt_put_varint(b, n);
	nt_put_bytes(b, s, n);
	return 0;
}

int cur_str6(struct cur *c, char **out)
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

int cur_skip_str6(struct cur *c)
{
	char *s = NULL;
	int err = cur_str6(c, &s);

	free(s);
	return err;
}
