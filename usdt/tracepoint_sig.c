// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tracepoint_sig.c - a stock CoreCLR tracepoint's signature and the
 * manifest payload of one call (usdt/tracepoint_sig.h).
 */
#include <errno.h>
#include <string.h>

#include "tracepoint_sig.h"
#include "utf16.h"

static const struct {
	const char *c;
	enum tpsig_kind kind;
} types[] = {
	{ "const unsigned char", TPSIG_U8 },
	{ "const unsigned short", TPSIG_U16 },
	{ "const unsigned int", TPSIG_U32 },
	{ "const signed int", TPSIG_U32 },
	{ "const BOOL", TPSIG_U32 },
	{ "const uint64_t", TPSIG_U64 },
	{ "const unsigned long", TPSIG_U64 },
	{ "const int64_t", TPSIG_U64 },
	{ "const size_t", TPSIG_U64 },
	{ "const char*", TPSIG_STR },
	{ "const char *", TPSIG_STR },
	{ "const double", TPSIG_F64 },
};

/* the next comma-separated item of *p, trimmed, into buf */
static int next_item(const char **p, char *buf, size_t size)
{
	const char *s = *p, *e;
	size_t n;

	while (*s == ' ')
		s++;
	if (!*s)
		return -ENOENT;
	e = strchr(s, ',');
	n = e ? (size_t)(e - s) : strlen(s);
	*p = e ? e + 1 : s + n;
	while (n && s[n - 1] == ' ')
		n--;
	if (n >= size)
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = 0;
	return 0;
}

int tpsig_parse(const char *sig, struct tpsig *out)
{
	char type[64], name[128];
	const char *p = sig;

	memset(out, 0, sizeof(*out));
	while (!next_item(&p, type, sizeof(type))) {
		enum tpsig_kind kind = 0;

		if (next_item(&p, name, sizeof(name)))
			return -EINVAL;
		for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (!strcmp(type, types[i].c))
				kind = types[i].kind;
		if (!kind)
			return -EINVAL;
		if (out->n >= TPSIG_MAX_ARGS || (kind == TPSIG_F64 && out->n_fp >= TPSIG_MAX_FP))
			return -E2BIG;
		if (kind == TPSIG_STR && !strcmp(name, "__data__") && out->n == 1 &&
		    out->kind[0] == TPSIG_U32)
			out->serialized = 1;
		out->slot[out->n] = kind == TPSIG_F64 ? out->n_fp++ : out->n_int++;
		out->kind[out->n++] = kind;
	}
	if (out->serialized && out->n != 2)
		return -EINVAL;
	return 0;
}

/* Does argument kind k carry a top-level field of in-type t? */
static int kind_fits(enum tpsig_kind k, int t)
{
	switch (t) {
	case ECT_UINT8: return k == TPSIG_U8;
	case ECT_UINT16: return k == TPSIG_U16;
	case ECT_UINT32: case ECT_INT32: case ECT_BOOLEAN: return k == TPSIG_U32;
	case ECT_UINT64: case ECT_INT64: case ECT_POINTER: return k == TPSIG_U64;
	case ECT_UNICODE: case ECT_ANSI: return k == TPSIG_STR;
	case ECT_DOUBLE: return k == TPSIG_F64;
	default: return 0;
	}
}

int tpsig_match(struct tpsig *s, const struct ect_event *ev, bool prefix)
{
	s->cut = prefix;
	if (s->serialized)
		return 0;
	if (prefix ? s->n < ev->n_fields : s->n != ev->n_fields)
		return -EINVAL;
	for (uint16_t i = 0; i < ev->n_fields; i++)
		if (ev->fields[i].count_kind != ECT_COUNT_NONE ||
		    !kind_fits(s->kind[i], ev->fields[i].intype))
			return -EINVAL;
	return 0;
}

long tpsig_payload(const struct tpsig *s, const struct ect_event *ev, const uint64_t *args,
		   const uint64_t *fp, const uint8_t *data, size_t data_len,
		   const uint16_t *copied, uint8_t *out, size_t cap)
{
	size_t at = 0, len = 0;

	if (s->serialized) {
		/* (length, __data__): the buffer is the payload; copied[1]
		 * short of length means the program cut it */
		long n = copied[1];

		if (copied[1] != args[0] || copied[1] > data_len)
			return -EINVAL;
		if (s->cut)	/* a newer version's: the table version's layout first */
			n = ect_payload_size(ev, data, copied[1]);
		if (n < 0)
			return -EINVAL;
		if ((size_t)n > cap)
			return -E2BIG;
		memcpy(out, data, n);
		return n;
	}
	for (uint8_t k = 0; k < s->n && k < ev->n_fields; k++) {
		int t = ev->fields[k].intype;
		uint8_t slot = s->slot[k];

		if (s->kind[k] == TPSIG_STR) {
			size_t n = copied[slot];

			if (!n || at + n > data_len || data[at + n - 1])
				return -EINVAL;
			if (t == ECT_UNICODE) {
				if (len + 2 * n + 2 > cap)
					return -E2BIG;
				len += utf8_to_utf16le((const char *)data + at, n - 1, out + len);
			} else {
				if (len + n > cap)
					return -E2BIG;
				memcpy(out + len, data + at, n);
				len += n;
			}
			at += n;
		} else {
			size_t w = ect_intype_size(t);
			uint64_t v = s->kind[k] == TPSIG_F64 ? fp[slot] : args[slot];

			if (len + w > cap)
				return -E2BIG;
			memcpy(out + len, &v, w);	/* little-endian: the low bytes */
			len += w;
		}
	}
	return len;
}
