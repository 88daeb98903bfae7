// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "utf16.h"

static uint32_t get_u16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static int is_surrogate(uint32_t c)
{
	return c >= 0xd800 && c <= 0xdfff;
}

uint32_t utf8_decode(const unsigned char **ps, const unsigned char *end)
{
	const unsigned char *s = *ps;
	uint32_t c = s[0], min;
	int n, i;

	if (c < 0x80) {
		*ps = s + 1;
		return c;
	}
	if ((c & 0xe0) == 0xc0) {
		n = 1, c &= 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		n = 2, c &= 0x0f, min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		n = 3, c &= 0x07, min = 0x10000;
	} else {
		*ps = s + 1;
		return 0xfffd;
	}
	for (i = 1; i <= n; i++) {
		if ((end && s + i >= end) || (s[i] & 0xc0) != 0x80) {
			*ps = s + i;
			return 0xfffd;
		}
		c = c << 6 | (s[i] & 0x3f);
	}
	*ps = s + n + 1;
	if (c < min || c > 0x10ffff || is_surrogate(c))
		return 0xfffd;
	return c;
}

size_t utf8_encode(char o[4], uint32_t c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | c >> 12);
		o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | c >> 18);
	o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

uint32_t utf16le_decode(const uint8_t *p, size_t n, size_t *i)
{
	uint32_t c = get_u16(p + *i), d;

	*i += 2;
	if (c >= 0xd800 && c <= 0xdbff && *i + 1 < n) {
		d = get_u16(p + *i);
		if (d >= 0xdc00 && d <= 0xdfff) {
			*i += 2;
			return 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
		}
	}
	return is_surrogate(c) ? 0xfffd : c;
}

static size_t put_unit(uint8_t *dst, size_t o, uint32_t u)
{
	dst[o] = (uint8_t)u;
	dst[o + 1] = (uint8_t)(u >> 8);
	return o + 2;
}

size_t utf8_to_utf16le(const char *str, size_t n, uint8_t *dst)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + n;
	size_t o = 0;

	while (s < end && *s) {
		uint32_t c = utf8_decode(&s, end);

		if (c >= 0x10000) {
			c -= 0x10000;
			o = put_unit(dst, o, 0xd800 | (c >> 10));
			o = put_unit(dst, o, 0xdc00 | (c & 0x3ff));
		} else {
			o = put_unit(dst, o, c);
		}
	}
	return put_unit(dst, o, 0);
}

long utf16le_to_utf8(const uint8_t *p, size_t n, char *out, size_t outcap)
{
	long len = utf16le_len(p, p + n);
	size_t i = 0, o = 0;

	if (len < 0)
		return -1;
	while (i < (size_t)len) {
		char tmp[4];
		size_t k, w = utf8_encode(tmp, utf16le_decode(p, (size_t)len, &i));

		if (o + w >= outcap)
			break;
		for (k = 0; k < w; k++)
			out[o++] = tmp[k];
	}
	if (outcap)
		out[o] = '\0';
	return len + 2;
}

long utf16le_len(const uint8_t *p, const uint8_t *end)
{
	const uint8_t *q;

	for (q = p; q + 1 < end; q += 2)
		if (!q[0] && !q[1])
			return q - p;
	return -1;
}
