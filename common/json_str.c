// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * json_str.c - JSON string literals, escaped byte by byte.
 */
#include "json_str.h"

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}
