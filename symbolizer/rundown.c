// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rundown.c - the payloads of the rundown-style method and module events
 * (docs/nettrace-format.md section 11) and the set of code ranges a trace's
 * stacks touched, emitted as those events at the end of a trace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rundown.h"
#include "strpool.h"
#include "grow.h"
#include "hash.h"
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

int sym_method_display_name(const char *ns, const char *name, const char *sig,
			    char *buf, size_t len)
{
	const char *args = sig ? strchr(sig, '(') : NULL;

	return snprintf(buf, len, "%s%s%s%s", ns && ns[0] ? ns : "", ns && ns[0] ? "." : "",
			name ? name : "", args ? args : "");
}

/* ------------------------------------------------------------- rundown */

#define PSEUDO_MODULE_ID	0xebc0000000000000ULL
#define PSEUDO_METHOD_ID	0xebc1000000000000ULL

struct rd_method {
	uint32_t pid;
	uint32_t flags;
	uint64_t start, size, module_id, method_id;
	const char *name;
	enum sym_kind kind;
	uint64_t hash;
};

struct rd_module {
	uint32_t pid;
	uint64_t module_id;
	const char *path;	/* key: module path/name */
};

struct sym_rundown {
	struct rd_method *m;
	size_t n, cap;
	uint32_t *slots;	/* open addressing: index + 1, 0 empty */
	size_t n_slots;
	struct rd_module *mods;
	size_t n_mods, cap_mods;
	struct strpool *pool;
};

struct sym_rundown *sym_rundown__new(void)
{
	struct sym_rundown *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->pool = strpool__new();
	if (!r->pool) {
		free(r);
		return NULL;
	}
	return r;
}

void sym_rundown__free(struct sym_rundown *r)
{
	if (!r)
		return;
	free(r->m);
	free(r->slots);
	free(r->mods);
	strpool__free(r->pool);
	free(r);
}

size_t sym_rundown__count(const struct sym_rundown *r)
{
	return r->n;
}

static int sym_rundown__grow(struct sym_rundown *r)
{
	size_t n = r->n_slots ? r->n_slots * 2 : 1024, i;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (i = 0; i < r->n; i++) {
		size_t k = r->m[i].hash & (n - 1);

		while (s[k])
			k = (k + 1) & (n - 1);
		s[k] = (uint32_t)i + 1;
	}
	free(r->slots);
	r->slots = s;
	r->n_slots = n;
	return 0;
}

static uint64_t sym_rundown__module(struct sym_rundown *r, uint32_t pid, const char *path)
{
	struct rd_module *md;
	size_t i;

	for (i = 0; i < r->n_mods; i++)
		if (r->mods[i].pid == pid && !strcmp(r->mods[i].path, path))
			return r->mods[i].module_id;
	if (GROW(r->mods, r->cap_mods, r->n_mods + 1))
		return 0;
	md = &r->mods[r->n_mods];
	md->pid = pid;
	md->path = strpool__add(r->pool, path, strlen(path));
	if (!md->path)
		return 0;
	md->module_id = PSEUDO_MODULE_ID + r->n_mods + 1;
	r->n_mods++;
	return md->module_id;
}

/*
 * Split a CoreCLR perf-map name "RET [Assembly] Type::Method(ARGS)[Tier]"
 * into namespace (Type), name (Method) and signature "RET (ARGS)[Tier]",
 * the shape PerfView displays as Type.Method(ARGS)[Tier]; asm gets the
 * assembly.  Anything else stays whole in name.  Returns 1 when split.
 */
static int split_clr_name(const char *full, char *ns, char *name, char *sig, char *asm_name,
			  size_t cap)
{
	const char *lb = strstr(full, " ["), *rb, *cc, *lp;

	ns[0] = sig[0] = '\0';
	if (asm_name)
		asm_name[0] = '\0';
	snprintf(name, cap, "%s", full);
	if (!lb || !(rb = strstr(lb, "] ")))
		return 0;
	cc = strstr(rb + 2, "::");
	lp = cc ? strchr(cc, '(') : NULL;
	if (!cc || !lp)
		return 0;
	snprintf(ns, cap, "%.*s", (int)(cc - (rb + 2)) & 1023, rb + 2);
	snprintf(name, cap, "%.*s", (int)(lp - (cc + 2)) & 1023, cc + 2);
	snprintf(sig, cap, "%.*s %.1000s", (int)(lb - full) & 1023, full, lp);
	if (asm_name)
		snprintf(asm_name, cap, "%.*s", (int)(rb - (lb + 2)) & 1023, lb + 2);
	return 1;
}

int sym_rundown__add(struct sym_rundown *r, uint32_t pid, const struct sym_info *si)
{
	struct rd_method *m;
	const char *mod;
	uint64_t h;
	size_t k;

	if (!si->name)
		return 0;
	h = hash_mix(hash_mix(hash_mix(pid, si->start), si->size), hash_str(si->name));
	if (r->n * 2 >= r->n_slots && sym_rundown__grow(r))
		return -ENOMEM;
	for (k = h & (r->n_slots - 1); r->slots[k]; k = (k + 1) & (r->n_slots - 1)) {
		m = &r->m[r->slots[k] - 1];
		if (m->hash == h && m->pid == pid && m->start == si->start &&
		    m->size == si->size && !strcmp(m->name, si->name))
			return 0;
	}
	if (GROW(r->m, r->cap, r->n + 1))
		return -ENOMEM;
	m = &r->m[r->n];
	memset(m, 0, sizeof(*m));
	m->pid = pid;
	m->start = si->start;
	m->size = si->size ? si->size : 1;
	m->kind = si->kind;
	m->hash = h;
	m->name = strpool__add(r->pool, si->name, strlen(si->name));
	if (!m->name)
		return -ENOMEM;
	m->method_id = PSEUDO_METHOD_ID + r->n + 1;
	m->flags = si->kind == SYM_KIND_JIT ? (si->flags ? si->flags : RANGE_F_JITTED) : 0;
	if (si->kind == SYM_KIND_JIT && si->module_id) {
		m->module_id = si->module_id;
	} else {
		char ns[1024], nm[1024], sig[1024], asm_name[1024];

		mod = si->module ? si->module :
		      si->kind == SYM_KIND_KERNEL ? "[kernel.kallsyms]" : "[JIT]";
		/* perf-map JIT code: one module per assembly named in the line */
		if (si->kind == SYM_KIND_JIT &&
		    split_clr_name(si->name, ns, nm, sig, asm_name, sizeof(ns)) && asm_name[0])
			mod = asm_name;
		m->module_id = sym_rundown__module(r, pid, mod);
		if (!m->module_id)
			return -ENOMEM;
	}
	r->slots[k] = (uint32_t)r->n + 1;
	r->n++;
	return 1;
}

int sym_rundown__emit(struct sym_rundown *r, sym_rundown_cb cb, void *ctx)
{
	char ns[1024], name[1024], sig[1024];
	uint8_t buf[8192];
	size_t i;
	long len;
	int err;

	for (i = 0; i < r->n; i++) {
		const struct rd_method *m = &r->m[i];
		struct sym_method_rec rec = {
			.method_id = m->method_id, .module_id = m->module_id, .start = m->start,
			.size = (uint32_t)(m->size > UINT32_MAX ? UINT32_MAX : m->size),
			.flags = m->flags, .ns = ns, .name = name, .sig = sig,
		};

		if (m->kind == SYM_KIND_JIT) {
			split_clr_name(m->name, ns, name, sig, NULL, sizeof(ns));
		} else {
			ns[0] = sig[0] = '\0';
			snprintf(name, sizeof(name), "%s", m->name);
		}
		len = sym_encode_method(buf, sizeof(buf), &rec);
		if (len < 0 || (size_t)len > sizeof(buf))
			continue;
		err = cb(ctx, m->pid, CLR_EV_METHOD_UNLOAD_VERBOSE, buf, (size_t)len);
		if (err < 0)
			return err;
	}
	for (i = 0; i < r->n_mods; i++) {
		const struct rd_module *md = &r->mods[i];
		/* native path empty: see symbolize__finish in symbolizer/symbolize.c */
		struct sym_module_rec rec = {
			.module_id = md->module_id, .assembly_id = md->module_id,
			.il_path = md->path, .native_path = "",
		};

		len = sym_encode_module(buf, sizeof(buf), &rec);
		if (len < 0 || (size_t)len > sizeof(buf))
			continue;
		err = cb(ctx, md->pid, CLR_EV_MODULE_DCEND, buf, (size_t)len);
		if (err < 0)
			return err;
	}
	return 0;
}
