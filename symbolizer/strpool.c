// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * strpool.c - names stored once, in chunks that never move.
 */
#include <stdlib.h>
#include <string.h>
#include "strpool.h"

#define STRPOOL_CHUNK	(64 * 1024)

struct strpool_chunk {
	struct strpool_chunk *next;
	size_t used, cap;
	char data[];
};

struct strpool {
	struct strpool_chunk *head;
};

struct strpool *strpool__new(void)
{
	return calloc(1, sizeof(struct strpool));
}

const char *strpool__add(struct strpool *p, const char *s, size_t len)
{
	struct strpool_chunk *c = p->head;
	char *dst;

	if (!c || c->cap - c->used < len + 1) {
		size_t cap = len + 1 > STRPOOL_CHUNK ? len + 1 : STRPOOL_CHUNK;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->used = 0;
		c->cap = cap;
		c->next = p->head;
		p->head = c;
	}
	dst = c->data + c->used;
	memcpy(dst, s, len);
	dst[len] = '\0';
	c->used += len + 1;
	return dst;
}

void strpool__free(struct strpool *p)
{
	struct strpool_chunk *c, *n;

	if (!p)
		return;
	for (c = p->head; c; c = n) {
		n = c->next;
		free(c);
	}
	free(p);
}
