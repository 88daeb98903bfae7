// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * event_decode.c - lookups in, and payload decoding with, an event table.
 *
 * A payload is the manifest layout: fields packed in <data> order with no
 * alignment, little-endian; UTF-16LE and ANSI strings end with their NUL;
 * a counted field repeats `count` times, the count being either fixed or the
 * value of an earlier sibling; a Binary is `length` bytes; a struct repeats
 * its members `count` times (members may themselves be counted by earlier
 * members of the same element, as in BulkType).
 *
 * One walker serves the three readers (size, JSON, single field): it keeps
 * the values of the integer fields seen so far at the current level, which
 * is all count resolution needs, and never reads past `len`.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "event_table.h"
#include "utf16.h"

#define MAX_LEVEL_FIELDS 256

const char *ect_intype_name(enum ect_intype t)
{
	static const char *const names[] = {
		[ECT_UINT8] = "win:UInt8",	[ECT_UINT16] = "win:UInt16",
		[ECT_UINT32] = "win:UInt32",	[ECT_UINT64] = "win:UInt64",
		[ECT_INT32] = "win:Int32",	[ECT_INT64] = "win:Int64",
		[ECT_DOUBLE] = "win:Double",	[ECT_BOOLEAN] = "win:Boolean",
		[ECT_POINTER] = "win:Pointer",	[ECT_GUID] = "win:GUID",
		[ECT_UNICODE] = "win:UnicodeString", [ECT_ANSI] = "win:AnsiString",
		[ECT_BINARY] = "win:Binary",	[ECT_STRUCT] = "struct",
	};

	if ((unsigned int)t >= sizeof(names) / sizeof(names[0]) || !names[t])
		return "unknown";
	return names[t];
}

/* --- lookups --- */

static int provider_matches(const struct ect_provider *p, const char *name)
{
	const char *g = name;
	size_t n;

	if (!strcasecmp(p->name, name) || !strcmp(p->usdt_name, name))
		return 1;
	if (*g == '{')
		g++;
	n = strlen(g);
	if (n && g[n - 1] == '}')
		n--;
	return n == strlen(p->guid) && !strncasecmp(p->guid, g, n);
}

const struct ect_provider *ect_find_provider(const struct ect_table *t, const char *name)
{
	uint16_t i;

	if (!t || !name)
		return NULL;
	for (i = 0; i < t->n_providers; i++)
		if (provider_matches(&t->providers[i], name))
			return &t->providers[i];
	return NULL;
}

const struct ect_event *ect_find_symbol(const struct ect_table *t, const char *provider,
					const char *symbol)
{
	uint32_t i;

	if (!t || !symbol)
		return NULL;
	for (i = 0; i < t->n_events; i++) {
		const struct ect_event *e = &t->events[i];

		if (strcmp(e->symbol, symbol))
			continue;
		if (!provider || provider_matches(e->provider, provider))
			return e;
	}
	return NULL;
}

const struct ect_event *ect_find_id(const struct ect_table *t, const char *provider, uint16_t id,
				    uint8_t version)
{
	uint32_t i;

	if (!t || !provider)
		return NULL;
	for (i = 0; i < t->n_events; i++) {
		const struct ect_event *e = &t->events[i];

		if (e->id == id && e->version == version && provider_matches(e->provider, provider))
			return e;
	}
	return NULL;
}

/* --- the walker --- */

struct walk {
	const uint8_t *p;
	size_t len;
	size_t off;
	FILE *out;		/* NULL: measure only */
};

static uint64_t load_le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = n; i > 0; i--)
		v = v << 8 | p[i - 1];
	return v;
}

static void json_utf8_char(FILE *out, uint32_t c)
{
	if (c == '"' || c == '\\')
		fprintf(out, "\\%c", (int)c);
	else if (c < 0x20)
		fprintf(out, "\\u%04x", c);
	else if (c < 0x80)
		fputc((int)c, out);
	else if (c < 0x800)
		fprintf(out, "%c%c", 0xc0 | (c >> 6), 0x80 | (c & 0x3f));
	else if (c < 0x10000)
		fprintf(out, "%c%c%c", 0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f),
			0x80 | (c & 0x3f));
	else
		fprintf(out, "%c%c%c%c", 0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f),
			0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
}

/* UTF-16LE code units [p, p+2n) as a JSON string (lone surrogates -> U+FFFD) */
static void json_utf16(FILE *out, const uint8_t *p, size_t n)
{
	size_t i = 0;

	fputc('"', out);
	while (i < 2 * n)
		json_utf8_char(out, utf16le_decode(p, 2 * n, &i));
	fputc('"', out);
}

static void print_scalar(FILE *out, int t, const uint8_t *p)
{
	uint64_t v = load_le(p, ect_intype_size(t));
	double d;

	switch (t) {
	case ECT_INT32:
		fprintf(out, "%" PRId32, (int32_t)(uint32_t)v);
		break;
	case ECT_INT64:
		fprintf(out, "%" PRId64, (int64_t)v);
		break;
	case ECT_DOUBLE:
		memcpy(&d, &v, sizeof(d));
		if (isfinite(d))
			fprintf(out, "%.17g", d);
		else
			fputs("null", out);
		break;
	case ECT_BOOLEAN:
		fputs(v ? "true" : "false", out);
		break;
	case ECT_POINTER:
		fprintf(out, "\"0x%" PRIx64 "\"", v);
		break;
	case ECT_GUID:
		fprintf(out, "\"{%08" PRIx32 "-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}\"",
			(uint32_t)load_le(p, 4), (unsigned int)load_le(p + 4, 2),
			(unsigned int)load_le(p + 6, 2), p[8], p[9], p[10], p[11], p[12], p[13],
			p[14], p[15]);
		break;
	default:
		fprintf(out, "%" PRIu64, v);
		break;
	}
}

/* One instance of a non-struct field; *val gets integer values. */
static int walk_one(struct walk *w, const struct ect_field *f, uint64_t blen, uint64_t *val)
{
	const uint8_t *p = w->p + w->off;
	size_t left = w->len - w->off, n, i;

	switch (f->intype) {
	case ECT_UNICODE:
		for (n = 0; 2 * n + 1 < left; n++)
			if (!p[2 * n] && !p[2 * n + 1])
				break;
		if (2 * n + 1 >= left)
			return -EINVAL;
		if (w->out)
			json_utf16(w->out, p, n);
		w->off += 2 * n + 2;
		return 0;
	case ECT_ANSI:
		for (n = 0; n < left && p[n]; n++)
			;
		if (n >= left)
			return -EINVAL;
		if (w->out) {
			fputc('"', w->out);
			for (i = 0; i < n; i++)
				json_utf8_char(w->out, p[i]);
			fputc('"', w->out);
		}
		w->off += n + 1;
		return 0;
	case ECT_BINARY:
		if (blen > left)
			return -EINVAL;
		if (w->out) {
			fputc('"', w->out);
			for (i = 0; i < blen; i++)
				fprintf(w->out, "%02x", p[i]);
			fputc('"', w->out);
		}
		w->off += blen;
		return 0;
	default:
		n = ect_intype_size(f->intype);
		if (!n)
			return -EINVAL;
		if (n > left)
			return -EINVAL;
		if (val)
			*val = load_le(p, n);
		if (w->out)
			print_scalar(w->out, f->intype, p);
		w->off += n;
		return 0;
	}
}

static int walk_fields(struct walk *w, const struct ect_field *fields, uint16_t n);

/* count of f given the values of its earlier siblings */
static uint64_t field_count(const struct ect_field *f, const uint64_t *vals)
{
	if (f->count_kind == ECT_COUNT_FIELD)
		return vals[f->count];
	if (f->count_kind == ECT_COUNT_FIXED)
		return f->count;
	return 1;
}

static int walk_field(struct walk *w, const struct ect_field *f, const uint64_t *vals,
		      uint64_t *val)
{
	uint64_t cnt = field_count(f, vals), i;
	int is_array, err = 0;

	*val = 0;
	if (f->intype == ECT_BINARY)
		return walk_one(w, f, f->count_kind == ECT_COUNT_NONE ? 0 : cnt, val);
	is_array = f->intype == ECT_STRUCT || f->count_kind == ECT_COUNT_FIELD ||
		   (f->count_kind == ECT_COUNT_FIXED && f->count > 1);
	if (!is_array)
		return walk_one(w, f, 0, val);
	/* every element takes at least one byte: a larger count cannot fit */
	if (cnt > w->len - w->off && !(f->intype == ECT_STRUCT && !f->n_members))
		return -EINVAL;
	if (w->out)
		fputc('[', w->out);
	for (i = 0; i < cnt && !err; i++) {
		if (w->out && i)
			fputc(',', w->out);
		if (f->intype == ECT_STRUCT) {
			if (w->out)
				fputc('{', w->out);
			err = walk_fields(w, f->members, f->n_members);
			if (w->out)
				fputc('}', w->out);
		} else {
			err = walk_one(w, f, 0, NULL);
		}
	}
	if (w->out)
		fputc(']', w->out);
	return err;
}

/* A level of fields (a template or one struct element), printed as "k":v pairs. */
static int walk_fields(struct walk *w, const struct ect_field *fields, uint16_t n)
{
	uint64_t vals[MAX_LEVEL_FIELDS];
	uint16_t i;
	int err;

	if (n > MAX_LEVEL_FIELDS)
		return -E2BIG;
	for (i = 0; i < n; i++) {
		const struct ect_field *f = &fields[i];

		if (f->count_kind == ECT_COUNT_FIELD && f->count >= i)
			return -EINVAL;	/* a count must name an earlier sibling */
		if (w->out) {
			/* measure first, so a field that does not fit prints nothing */
			struct walk dry = *w;

			dry.out = NULL;
			err = walk_field(&dry, f, vals, &vals[i]);
			if (err)
				return err;
			fprintf(w->out, "%s\"%s\":", i ? "," : "", f->name);
		}
		err = walk_field(w, f, vals, &vals[i]);
		if (err)
			return err;
	}
	return 0;
}

long ect_payload_size(const struct ect_event *ev, const void *payload, size_t len)
{
	struct walk w = { .p = payload, .len = payload ? len : 0 };
	int err;

	if (!ev)
		return -EINVAL;
	err = walk_fields(&w, ev->fields, ev->n_fields);
	return err ? err : (long)w.off;
}

int ect_payload_to_json(const struct ect_event *ev, const void *payload, size_t len, FILE *out)
{
	struct walk w = { .p = payload, .len = payload ? len : 0, .out = out };
	int err;

	if (!ev || !out)
		return -EINVAL;
	fputc('{', out);
	err = walk_fields(&w, ev->fields, ev->n_fields);
	if (err) {
		fprintf(out, "%s\"...\":\"truncated\"}", ev->n_fields ? "," : "");
		return -EINVAL;
	}
	if (w.off < w.len) {
		fprintf(out, "%s\"_extra\":%zu}", ev->n_fields ? "," : "", w.len - w.off);
		return -E2BIG;
	}
	fputc('}', out);
	return 0;
}

int ect_payload_get_u64(const struct ect_event *ev, const void *payload, size_t len,
			const char *field, uint64_t *out)
{
	struct walk w = { .p = payload, .len = payload ? len : 0 };
	uint64_t vals[MAX_LEVEL_FIELDS];
	uint16_t i;

	if (!ev || !field || !out)
		return -EINVAL;
	for (i = 0; i < ev->n_fields && i < MAX_LEVEL_FIELDS; i++) {
		const struct ect_field *f = &ev->fields[i];

		if (f->count_kind == ECT_COUNT_FIELD && f->count >= i)
			return -EINVAL;
		if (!strcmp(f->name, field)) {
			if (f->intype == ECT_STRUCT || f->intype == ECT_DOUBLE ||
			    f->intype == ECT_GUID || f->intype == ECT_UNICODE ||
			    f->intype == ECT_ANSI || f->intype == ECT_BINARY ||
			    (f->count_kind == ECT_COUNT_FIXED && f->count > 1) ||
			    f->count_kind == ECT_COUNT_FIELD)
				return -EINVAL;
			if (walk_one(&w, f, 0, out))
				return -EINVAL;
			return 0;
		}
		if (walk_field(&w, f, vals, &vals[i]))
			return -EINVAL;
	}
	return -ENOENT;
}

int ect_payload_field(const struct ect_event *ev, const void *payload, size_t len,
		      const char *field, struct ect_field_loc *loc)
{
	struct walk w = { .p = payload, .len = payload ? len : 0 };
	uint64_t vals[MAX_LEVEL_FIELDS];
	uint16_t i;
	size_t foff = 0;	/* offset while every field before is fixed-size */
	int fixed = 1;

	if (!ev || !field || !loc)
		return -EINVAL;
	for (i = 0; i < ev->n_fields && i < MAX_LEVEL_FIELDS; i++) {
		const struct ect_field *f = &ev->fields[i];
		size_t start = w.off;

		if (f->count_kind == ECT_COUNT_FIELD && f->count >= i)
			return -EINVAL;
		if (!strcmp(f->name, field) && !payload) {
			*loc = (struct ect_field_loc){ .field = f, .offset = foff,
						       .fixed_offset = fixed };
			return 0;	/* description only */
		}
		if (payload && walk_field(&w, f, vals, &vals[i]))
			return -EINVAL;
		if (!strcmp(f->name, field)) {
			*loc = (struct ect_field_loc){ .field = f, .p = (const uint8_t *)payload + start,
						       .n = w.off - start, .offset = start,
						       .fixed_offset = fixed };
			return 0;
		}
		if (f->intype == ECT_STRUCT || f->count_kind != ECT_COUNT_NONE ||
		    !ect_intype_size(f->intype))
			fixed = 0;
		foff += ect_intype_size(f->intype);
	}
	return -ENOENT;
}
