// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Strings of the nettrace format: every string in a file is UTF-16LE with a
 * NUL unit; the conversion itself is common/utf16.c's.
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

char *nt_utf16_to_utf8(const uint8_t *p, size_t n)
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
