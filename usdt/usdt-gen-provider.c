// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * usdt-gen-provider.c - emit the runtime side of a USDT provider.
 *
 * For every event the header gets EventXplatEnabled<Symbol>() (a static
 * inline "semaphore set and <prefix>_tracer_pause 0") and FireEtXplat<Symbol>() as a GNU
 * extern inline "if semaphore is 0 return, else call <prefix>__fire_<Symbol>"
 * (inlined by optimizing callers, never emitted from the header); the
 * source gets the semaphore, the out-of-line FireEtXplat definition (the
 * same check: "load, compare, tail-call") and <prefix>__fire_<Symbol>(), a
 * cold function that serializes the payload and holds the event's one USDT
 * probe.
 *
 * Serialization is shared per template: clretw__len_<P>_<T>() computes the
 * exact payload size first (saturating array sizes, so a hostile count can
 * only make the event oversized, never overflow), then, when it fits in
 * 64 KiB, clretw__put_<P>_<T>() writes it into a stack buffer (or a
 * malloc'ed one above CLRETW__STACK_BUF bytes).
 *
 * Argument conventions follow CoreCLR's genEventing.py: <data> fields in
 * order, a counted field becomes a pointer to its elements, and each
 * <struct> array appends `int <S>_ElementSize, const void* <S>` after the
 * data fields.  See usdt/README.md.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider_abi.h"
#include "usdt-gen.h"

#define STACK_BUF 1024

void gen_banner(const struct gen_ctx *g, FILE *f, const char *what)
{
	fprintf(f, "/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */\n"
		"/* generated from %s by usdt-gen v%d, do not edit */\n"
		"/* %s */\n\n", g->manifest_base, USDT_GEN_VERSION, what);
}

static void upper(const char *s, char *out, size_t n)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < n; i++)
		out[i] = (char)toupper((unsigned char)s[i]);
	out[i] = 0;
}

static int is_array(const struct man_field *f)
{
	if (f->intype == ECT_BINARY || f->intype == ECT_STRUCT)
		return 0;
	return f->count_kind == ECT_COUNT_FIELD ||
	       (f->count_kind == ECT_COUNT_FIXED && f->count > 1);
}

/* C type of one element, for prototypes ("const" added by the caller) */
static const char *elem_ctype(int t)
{
	switch (t) {
	case ECT_UINT8: return "unsigned char";
	case ECT_UINT16: return "unsigned short";
	case ECT_UINT32: return "unsigned int";
	case ECT_UINT64: return "unsigned long long";
	case ECT_INT32: return "signed int";
	case ECT_INT64: return "long long";
	case ECT_DOUBLE: return "double";
	case ECT_BOOLEAN: return "BOOL";
	case ECT_POINTER: return "void*";
	case ECT_GUID: return "GUID";
	default: return NULL;
	}
}

/* Prototype type of a top-level <data> field (CoreCLR spelling). */
static int param_type(struct gen_ctx *g, const struct man_field *f, char *buf, size_t n)
{
	const char *e = elem_ctype(f->intype);

	if (f->intype == ECT_UNICODE && !is_array(f))
		snprintf(buf, n, "PCWSTR");
	else if (f->intype == ECT_ANSI && !is_array(f))
		snprintf(buf, n, "LPCSTR");
	else if (f->intype == ECT_BINARY)
		snprintf(buf, n, "const BYTE*");
	else if (!e)
		goto unsupported;
	else if (f->intype == ECT_GUID)
		snprintf(buf, n, "const GUID*");	/* one GUID or an array of them */
	else if (is_array(f))
		snprintf(buf, n, "const %s*", e);
	else
		snprintf(buf, n, "const %s", e);
	return 0;
unsupported:
	snprintf(g->err, sizeof(g->err), "%s:%d: field %s: arrays of %s are not supported",
		 g->m->path, f->line, f->name, ect_intype_name(f->intype));
	return -EINVAL;
}

/* Member type in a typed struct element (<Template>_<Struct>). */
static int member_type(struct gen_ctx *g, const struct man_field *f, char *buf, size_t n)
{
	const char *e = elem_ctype(f->intype);

	if (f->intype == ECT_UNICODE && !is_array(f))
		snprintf(buf, n, "const char16_t *");
	else if (f->intype == ECT_ANSI && !is_array(f))
		snprintf(buf, n, "const char *");
	else if (f->intype == ECT_BINARY)
		snprintf(buf, n, "const BYTE *");
	else if (!e)
		goto unsupported;
	else if (f->intype == ECT_POINTER)
		snprintf(buf, n, is_array(f) ? "const void *const *" : "const void *");
	else if (is_array(f))
		snprintf(buf, n, "const %s *", e);
	else
		snprintf(buf, n, "%s ", e);
	return 0;
unsupported:
	snprintf(g->err, sizeof(g->err), "%s:%d: field %s: arrays of %s are not supported",
		 g->m->path, f->line, f->name, ect_intype_name(f->intype));
	return -EINVAL;
}

static long scalar_size(int t)
{
	struct man_field f = { .intype = t };

	return man_field__elem_size(&f);
}

/* writer helper and value expression for one scalar element */
static void put_scalar(FILE *f, int t, const char *val, int guid_is_ptr)
{
	switch (t) {
	case ECT_UINT8:
		fprintf(f, "p__ = clretw__u8(p__, (uint8_t)(%s));\n", val);
		break;
	case ECT_UINT16:
		fprintf(f, "p__ = clretw__u16(p__, (uint16_t)(%s));\n", val);
		break;
	case ECT_UINT32: case ECT_INT32: case ECT_BOOLEAN:
		fprintf(f, "p__ = clretw__u32(p__, (uint32_t)(%s));\n", val);
		break;
	case ECT_UINT64: case ECT_INT64:
		fprintf(f, "p__ = clretw__u64(p__, (uint64_t)(%s));\n", val);
		break;
	case ECT_POINTER:
		fprintf(f, "p__ = clretw__u64(p__, (uint64_t)(uintptr_t)(%s));\n", val);
		break;
	case ECT_DOUBLE:
		fprintf(f, "p__ = clretw__f64(p__, %s);\n", val);
		break;
	case ECT_GUID:
		fprintf(f, "p__ = clretw__guid(p__, %s%s);\n", guid_is_ptr ? "" : "&", val);
		break;
	}
}

static void count_expr(const struct man_field *f, const struct man_field *sib, const char *acc,
		       char *buf, size_t n)
{
	if (f->count_kind == ECT_COUNT_FIELD)
		snprintf(buf, n, "%s%s", acc, sib[f->count].name);
	else
		snprintf(buf, n, "%u", f->count_kind == ECT_COUNT_FIXED ? f->count : 1);
}

/*
 * Statements adding the size of field f (accessor acc: "" for parameters,
 * "e->" for typed struct members) to n__.
 */
static void emit_len(FILE *out, const struct man_field *f, const struct man_field *sib,
		     const char *acc)
{
	char cnt[256];

	count_expr(f, sib, acc, cnt, sizeof(cnt));
	fputs("\tn__ += ", out);
	if (f->intype == ECT_STRUCT) {
		long e = man_field__elem_size(f);

		if (e >= 0)
			fprintf(out, "clretw__arr((uint64_t)(%s), %ld);\n", cnt, e);
		else
			fprintf(out, "(size_t)%s%s_ElementSize;\n", acc, f->name);
	} else if (f->intype == ECT_BINARY) {
		fprintf(out, "clretw__arr((uint64_t)(%s), 1);\n", cnt);
	} else if (is_array(f)) {
		fprintf(out, "clretw__arr((uint64_t)(%s), %ld);\n", cnt, scalar_size(f->intype));
	} else if (f->intype == ECT_UNICODE) {
		fprintf(out, "clretw__wlen(%s%s);\n", acc, f->name);
	} else if (f->intype == ECT_ANSI) {
		fprintf(out, "clretw__alen(%s%s);\n", acc, f->name);
	} else {
		fprintf(out, "%ld;\n", scalar_size(f->intype));
	}
}

static void emit_put(FILE *out, const struct man_field *f, const struct man_field *sib,
		     const char *acc)
{
	char cnt[256], val[300];
	int typed = acc[0] != 0;

	count_expr(f, sib, acc, cnt, sizeof(cnt));
	if (f->intype == ECT_STRUCT) {
		long e = man_field__elem_size(f);

		if (e >= 0)
			fprintf(out, "\tp__ = clretw__bytes(p__, %s%s, (size_t)(%s) * %ld);\n",
				acc, f->name, cnt, e);
		else
			fprintf(out, "\tp__ = clretw__bytes(p__, %s%s, (size_t)%s%s_ElementSize);\n",
				acc, f->name, acc, f->name);
	} else if (f->intype == ECT_BINARY) {
		fprintf(out, "\tp__ = clretw__bytes(p__, %s%s, (size_t)(%s));\n", acc, f->name, cnt);
	} else if (is_array(f)) {
		fprintf(out, "\tfor (i__ = 0; i__ < (uint64_t)(%s); i__++)\n\t\t", cnt);
		if (f->intype == ECT_GUID) {
			snprintf(val, sizeof(val), "%s%s ? &%s%s[i__] : NULL", acc, f->name, acc,
				 f->name);
			put_scalar(out, f->intype, val, 1);
		} else {
			snprintf(val, sizeof(val), "%s%s ? %s%s[i__] : 0", acc, f->name, acc, f->name);
			put_scalar(out, f->intype, val, 0);
		}
	} else if (f->intype == ECT_UNICODE) {
		fprintf(out, "\tp__ = clretw__wstr(p__, %s%s);\n", acc, f->name);
	} else if (f->intype == ECT_ANSI) {
		fprintf(out, "\tp__ = clretw__astr(p__, %s%s);\n", acc, f->name);
	} else {
		snprintf(val, sizeof(val), "%s%s", acc, f->name);
		fputc('\t', out);
		put_scalar(out, f->intype, val, !typed);
	}
}

static int has_array(const struct man_field *f, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (is_array(&f[i]))
			return 1;
	return 0;
}

/*
 * Parameter list of a template: <data> fields in order, then for each
 * <struct> "int <S>_ElementSize, const void* <S>" (CoreCLR order).
 * mode 0: prototype ("\n\tconst unsigned int Count,..."), 1: call arguments.
 */
static int emit_params(struct gen_ctx *g, FILE *out, const struct man_template *t, int mode)
{
	const char *sep = "";
	char type[128];
	int i, pass;

	if (!t || !t->n_fields) {
		fputs(mode ? "" : "void", out);
		return 0;
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < t->n_fields; i++) {
			const struct man_field *f = &t->fields[i];

			if ((f->intype == ECT_STRUCT) != pass)
				continue;
			if (mode) {
				if (pass)
					fprintf(out, "%s%s_ElementSize, %s", sep, f->name, f->name);
				else
					fprintf(out, "%s%s", sep, f->name);
			} else if (pass) {
				fprintf(out, "%s\n\tint %s_ElementSize,\n\tconst void* %s", sep,
					f->name, f->name);
			} else {
				if (param_type(g, f, type, sizeof(type)))
					return -EINVAL;
				fprintf(out, "%s\n\t%s %s", sep, type, f->name);
			}
			sep = ",";
			if (mode)
				sep = ", ";
		}
	}
	return 0;
}

/* --- header --- */

static void emit_h_prologue(const struct gen_ctx *g, FILE *f, const char *up)
{
	gen_banner(g, f, "USDT provider: runtime API (see usdt/README.md)");
	fprintf(f, "#ifndef %s_PROVIDER_H\n#define %s_PROVIDER_H\n\n", up, up);
	fprintf(f, "#include <stddef.h>\n#include <uchar.h>\n\n"
		"#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
	fprintf(f, "/* Windows/PAL types of CoreCLR's xplat event API; define %s_NO_WIN_TYPES\n"
		" * when the runtime already has them (same sizes required). */\n"
		"#ifndef %s_NO_WIN_TYPES\n"
		"typedef int BOOL;\t\t\t/* win:Boolean is 4 bytes */\n"
		"typedef unsigned char BYTE;\n"
		"typedef unsigned int ULONG;\n"
		"typedef const char16_t *PCWSTR;\t/* UTF-16, NUL-terminated */\n"
		"typedef const char *LPCSTR;\n"
		"#endif\n"
		"#ifndef GUID_DEFINED\n#define GUID_DEFINED\n"
		"typedef struct _GUID {\n\tunsigned int Data1;\n\tunsigned short Data2;\n"
		"\tunsigned short Data3;\n\tunsigned char Data4[8];\n} GUID;\n#endif\n\n", up, up);
	fprintf(f, "#ifndef ERROR_SUCCESS\n#define ERROR_SUCCESS 0\n#endif\n"
		"#ifndef ERROR_WRITE_FAULT\n#define ERROR_WRITE_FAULT 29\n#endif\n"
		"#ifndef ERROR_INVALID_PARAMETER\n#define ERROR_INVALID_PARAMETER 87\n#endif\n\n");
	fprintf(f, "/* Largest payload a probe carries (EventPipe's limit); larger events are\n"
		" * dropped, counted in %s_dropped_oversize, and Fire returns ERROR_WRITE_FAULT. */\n"
		"#define %s_MAX_PAYLOAD 65535\n"
		"extern unsigned long long %s_dropped_oversize;\n"
		"/* events dropped because a large payload buffer could not be allocated */\n"
		"extern unsigned long long %s_dropped_nomem;\n\n", g->prefix, up, g->prefix,
		g->prefix);
	fprintf(f, "/* Activity ids of the calling thread, passed with every event it fires\n"
		" * (probe arguments 2 and 3).  NULL clears. */\n"
		"void EventXplatSetActivityId(const GUID *activity, const GUID *related);\n\n");
	fprintf(f, "/* Raised (a count, so tracers compose) by a tracer while its uprobes go\n"
		" * in or out: the kernel sets a probe's semaphore before its breakpoint and\n"
		" * removes its handler before the semaphore, and an event fired in between\n"
		" * would look traced to the runtime and reach nobody.  A tracer finds the\n"
		" * word by its ELF symbol.  Nonzero: no event fires. */\n"
		"extern volatile unsigned int %s" PROV_PAUSE_SUFFIX ";\n\n", g->prefix);
	fprintf(f, "/* The untraced path reads the semaphore only; the pause word is read\n"
		" * only when a tracer is attached. */\n"
		"#define %s__SEMA(s) (__builtin_expect(*(volatile const unsigned short *)&(s) "
		"!= 0, 0) \\\n\t&& __builtin_expect(%s" PROV_PAUSE_SUFFIX " == 0, 1))\n\n", up,
		g->prefix);
	fprintf(f, "/*\n * FireEtXplat<Symbol>() is defined twice: here for inlining only (GNU\n"
		" * extern inline: never emitted from this header), and out of line in\n"
		" * %s_provider.c, the symbol every unoptimized or indirect call uses.\n"
		" * Inlined, a call with nothing attached costs one load and a branch;\n"
		" * the arguments go to %s__fire_<Symbol>() only when traced.\n"
		" */\n#define %s__INLINE extern __inline__ __attribute__((gnu_inline))\n\n",
		g->prefix, g->prefix, up);
}

static int emit_h_structs(struct gen_ctx *g, FILE *f, const struct man_provider *p)
{
	char type[128];
	int i, j, k;

	for (i = 0; i < p->n_templates; i++) {
		const struct man_template *t = &p->templates[i];

		for (j = 0; j < t->n_fields; j++) {
			const struct man_field *s = &t->fields[j];

			if (s->intype != ECT_STRUCT)
				continue;
			fprintf(f, "/* one element of %s.%s, typed; %s_pack_%s_%s() packs an array\n"
				" * of them into the manifest layout for FireEtXplat's %s argument */\n",
				t->tid, s->name, g->prefix, t->tid, s->name, s->name);
			fprintf(f, "typedef struct %s_%s {\n", t->tid, s->name);
			for (k = 0; k < s->n_members; k++) {
				if (member_type(g, &s->members[k], type, sizeof(type)))
					return -EINVAL;
				fprintf(f, "\t%s%s%s;\n", type,
					type[strlen(type) - 1] == ' ' || type[strlen(type) - 1] == '*'
					? "" : " ", s->members[k].name);
			}
			fprintf(f, "} %s_%s;\n\n", t->tid, s->name);
			if (man_field__elem_size(s) >= 0)
				fprintf(f, "/* packed size of one element: the %s_ElementSize argument */\n"
					"#define %s_%s_ELEMENT_SIZE %ld\n", s->name, t->tid,
					s->name, man_field__elem_size(s));
			fprintf(f, "/* Packs count elements into buf (when the result <= cap) and returns\n"
				" * the packed size in bytes%s. */\n"
				"size_t %s_pack_%s_%s(void *buf, size_t cap, const %s_%s *elems, "
				"unsigned count);\n\n",
				man_field__elem_size(s) >= 0 ? "" : ": pass it as the ElementSize",
				g->prefix, t->tid, s->name, t->tid, s->name);
		}
	}
	return 0;
}

int gen_provider_h(struct gen_ctx *g, FILE *f)
{
	char up[64];
	int i, j;

	upper(g->prefix, up, sizeof(up));
	emit_h_prologue(g, f, up);
	for (i = 0; i < g->m->n_providers; i++)
		if (emit_h_structs(g, f, &g->m->providers[i]))
			return -EINVAL;
	for (i = 0; i < g->m->n_providers; i++) {
		const struct man_provider *p = &g->m->providers[i];

		fprintf(f, "/* ---- %s {%s}: USDT provider %s ---- */\n\n", p->name, p->guid,
			p->short_name);
		for (j = 0; j < p->n_events; j++) {
			const struct man_event *e = &p->events[j];

			fprintf(f, "/* %s: id %u version %u, %s */\n", e->symbol, e->id, e->version,
				e->tmpl ? e->tmpl->tid : "no payload");
			fprintf(f, "extern unsigned short %s_%s_semaphore "
				"__attribute__((visibility(\"hidden\")));\n", p->short_name, e->symbol);
			fprintf(f, "static inline BOOL EventXplatEnabled%s(void)\n{\n"
				"\treturn %s__SEMA(%s_%s_semaphore);\n}\n", e->symbol, up,
				p->short_name, e->symbol);
			fprintf(f, "ULONG %s__fire_%s(", g->prefix, e->symbol);
			if (emit_params(g, f, e->tmpl, 0))
				return -EINVAL;
			fprintf(f, ") __attribute__((cold, visibility(\"hidden\")));\n");
			fprintf(f, "%s__INLINE ULONG FireEtXplat%s(", up, e->symbol);
			emit_params(g, f, e->tmpl, 0);
			fprintf(f, ")\n{\n\tif (!%s__SEMA(%s_%s_semaphore))\n"
				"\t\treturn ERROR_SUCCESS;\n\treturn %s__fire_%s(", up,
				p->short_name, e->symbol, g->prefix, e->symbol);
			emit_params(g, f, e->tmpl, 1);
			fprintf(f, ");\n}\n\n");
		}
	}
	fprintf(f, "#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s_PROVIDER_H */\n", up);
	return 0;
}

/* --- source --- */

/* The generated file's little-endian writers (one per manifest in-type). */
static void emit_c_serializers(FILE *f, const char *up)
{
	fprintf(f,
		"static inline __attribute__((unused)) unsigned char *clretw__u8(unsigned char *p, uint8_t v)\n"
		"{\n\tp[0] = v;\n\treturn p + 1;\n}\n\n"
		"static inline __attribute__((unused)) unsigned char *clretw__u16(unsigned char *p, uint16_t v)\n"
		"{\n\tmemcpy(p, &v, 2);\n\treturn p + 2;\n}\n\n"
		"static inline __attribute__((unused)) unsigned char *clretw__u32(unsigned char *p, uint32_t v)\n"
		"{\n\tmemcpy(p, &v, 4);\n\treturn p + 4;\n}\n\n"
		"static inline __attribute__((unused)) unsigned char *clretw__u64(unsigned char *p, uint64_t v)\n"
		"{\n\tmemcpy(p, &v, 8);\n\treturn p + 8;\n}\n\n"
		"static inline __attribute__((unused)) unsigned char *clretw__f64(unsigned char *p, double v)\n"
		"{\n\tmemcpy(p, &v, 8);\n\treturn p + 8;\n}\n\n"
		"/* GUID in .NET byte order (Data1..3 little-endian); NULL writes zeros */\n"
		"static inline __attribute__((unused)) unsigned char *clretw__guid(unsigned char *p, const GUID *g)\n{\n"
		"\tif (!g) {\n\t\tmemset(p, 0, 16);\n\t\treturn p + 16;\n\t}\n"
		"\tp = clretw__u32(p, g->Data1);\n\tp = clretw__u16(p, g->Data2);\n"
		"\tp = clretw__u16(p, g->Data3);\n\tmemcpy(p, g->Data4, 8);\n\treturn p + 8;\n}\n\n"
		"/* UTF-16LE with its NUL; NULL is the empty string */\n"
		"static inline __attribute__((unused)) size_t clretw__wlen(const char16_t *s)\n{\n\tsize_t n = 0;\n\n"
		"\tif (s)\n\t\twhile (s[n])\n\t\t\tn++;\n\treturn 2 * (n + 1);\n}\n\n"
		"static inline __attribute__((unused)) unsigned char *clretw__wstr(unsigned char *p, const char16_t *s)\n{\n"
		"\tsize_t n = clretw__wlen(s) - 2;\n\n\tif (n)\n\t\tmemcpy(p, s, n);\n"
		"\tp[n] = 0;\n\tp[n + 1] = 0;\n\treturn p + n + 2;\n}\n\n"
		"static inline __attribute__((unused)) size_t clretw__alen(const char *s)\n{\n"
		"\treturn s ? strlen(s) + 1 : 1;\n}\n\n"
		"static inline __attribute__((unused)) unsigned char *clretw__astr(unsigned char *p, const char *s)\n{\n"
		"\tsize_t n = clretw__alen(s) - 1;\n\n\tif (n)\n\t\tmemcpy(p, s, n);\n"
		"\tp[n] = 0;\n\treturn p + n + 1;\n}\n\n"
		"/* n bytes from src; a NULL src writes zeros */\n"
		"static inline __attribute__((unused)) unsigned char *clretw__bytes(unsigned char *p, const void *src, size_t n)\n{\n"
		"\tif (n && src)\n\t\tmemcpy(p, src, n);\n\telse if (n)\n\t\tmemset(p, 0, n);\n"
		"\treturn p + n;\n}\n\n"
		"/* n elements of e bytes, saturated just above the payload limit */\n"
		"static inline __attribute__((unused)) size_t clretw__arr(uint64_t n, size_t e)\n{\n"
		"\treturn n > %s_MAX_PAYLOAD ? (size_t)%s_MAX_PAYLOAD + 1 : (size_t)n * e;\n}\n\n"
		"static ULONG clretw__drop(unsigned long long *counter)\n{\n"
		"\t__atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);\n"
		"\treturn ERROR_WRITE_FAULT;\n}\n\n", up, up);
}

static void emit_c_prologue(const struct gen_ctx *g, FILE *f, const char *up)
{
	gen_banner(g, f, "USDT provider: semaphores, serializers, probes");
	fprintf(f, "/*\n"
		" * Every event has one USDT probe, provider = short provider name, name =\n"
		" * event symbol, guarded by its semaphore, at a 5-byte nop site.  Probe\n"
		" * arguments: arg0 payload pointer (manifest layout), arg1 payload length\n"
		" * (u32), arg2 activity id (16 bytes) or 0, arg3 related activity id or 0.\n"
		" *\n"
		" * Build with -D%s_TEST_HOOK=fn to have every fired event also passed to\n"
		" * void fn(const char *provider, const char *symbol, const void *payload,\n"
		" *         unsigned int len, const GUID *activity, const GUID *related);\n"
		" */\n", up);
	fprintf(f, "/* sched_getcpu() of the batched mode */\n"
		"#ifndef _GNU_SOURCE\n#define _GNU_SOURCE\n#endif\n"
		"#include <stdint.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
		"#include \"%s_provider.h\"\n\n"
		"#define _SDT_HAS_SEMAPHORES 1\n#include <sys/sdt.h>\n"
		"/* architecture decision 12: 5-byte nop probe sites (0f 1f 44 00 00) */\n"
		"#undef _SDT_NOP\n#define _SDT_NOP .nops 5\n\n", g->prefix);
	fprintf(f, "/* In .probes beside the semaphores: file-backed, so a tracer finds it at\n"
		" * its ELF symbol's file offset in the mapping, as the kernel finds a\n"
		" * semaphore. */\n"
		"volatile unsigned int %s" PROV_PAUSE_SUFFIX " __attribute__((section(\".probes\"), "
		"used, visibility(\"default\")));\n\n", g->prefix);
	fprintf(f, "/* Never called.  A tracer holds the pause word up by holding a uprobe\n"
		" * on this site with the word as its reference counter (ref_ctr_offset):\n"
		" * the kernel adds 1 to the word when the probe goes in and takes it off\n"
		" * when the probe goes, whether the tracer closed it or died. */\n"
		"__asm__(\".pushsection .text\\n\"\n"
		"\t\".globl %s" PROV_PAUSE_SITE_SUFFIX "\\n\"\n"
		"\t\".type %s" PROV_PAUSE_SITE_SUFFIX ", @function\\n\"\n"
		"\t\"%s" PROV_PAUSE_SITE_SUFFIX ":\\n\"\n"
		"\t\".nops 5\\n\"\n"
		"\t\"ret\\n\"\n"
		"\t\".size %s" PROV_PAUSE_SITE_SUFFIX ", . - %s" PROV_PAUSE_SITE_SUFFIX "\\n\"\n"
		"\t\".popsection\");\n\n", g->prefix, g->prefix, g->prefix, g->prefix, g->prefix);
	fprintf(f, "#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || __SIZEOF_POINTER__ != 8\n"
		"#error \"payloads are written for 64-bit little-endian targets\"\n#endif\n\n");
	fprintf(f, "#define %s__STACK_BUF %d\n\n", up, STACK_BUF);
	fprintf(f, "unsigned long long %s_dropped_oversize;\nunsigned long long %s_dropped_nomem;\n\n",
		g->prefix, g->prefix);
	fprintf(f, "static __thread GUID clretw__act, clretw__rel;\n"
		"static __thread unsigned char clretw__act_set;\n\n"
		"void EventXplatSetActivityId(const GUID *activity, const GUID *related)\n{\n"
		"\tclretw__act_set = 0;\n"
		"\tif (activity) {\n\t\tclretw__act = *activity;\n\t\tclretw__act_set |= 1;\n\t}\n"
		"\tif (related) {\n\t\tclretw__rel = *related;\n\t\tclretw__act_set |= 2;\n\t}\n}\n\n");
	fprintf(f, "#ifdef %s_TEST_HOOK\n"
		"void %s_TEST_HOOK(const char *provider, const char *symbol, const void *payload,\n"
		"\t\tunsigned int len, const GUID *activity, const GUID *related);\n"
		"#define %s__HOOK(p, n, b, l, a, r) %s_TEST_HOOK(#p, #n, b, l, a, r)\n"
		"#else\n#define %s__HOOK(p, n, b, l, a, r) do { } while (0)\n#endif\n\n",
		up, up, up, up, up);
	fprintf(f, "/*\n"
		" * Red zone: the first hit of a 5-byte-nop uprobe turns the nop into a\n"
		" * call to a kernel trampoline (Linux 6.x, x86-64), which pushes onto the\n"
		" * user stack and so overwrites the 128 bytes below %%rsp.  A leaf function\n"
		" * may keep the payload there, so every function holding a probe also\n"
		" * calls clretw__nonleaf(): a non-leaf function keeps nothing below %%rsp.\n"
		" */\n"
		"__attribute__((noinline)) static void clretw__nonleaf(void)\n{\n"
		"\t__asm__ __volatile__(\"\" ::: \"memory\");\n}\n\n");
	fprintf(f, "#define %s__PROBE(prov, name, buf, len) do {\t\t\t\t\t\\\n"
		"\tclretw__batch_sync();\t\t\t\t\t\t\\\n"
		"\tconst GUID *a__ = (clretw__act_set & 1) ? &clretw__act : NULL;\t\t\\\n"
		"\tconst GUID *r__ = (clretw__act_set & 2) ? &clretw__rel : NULL;\t\t\\\n"
		"\t%s__HOOK(prov, name, buf, len, a__, r__);\t\t\t\t\\\n"
		"\tSTAP_PROBE4(prov, name, (const void *)(buf), (unsigned int)(len), a__, r__); \\\n"
		"\tclretw__nonleaf();\t\t\t\t\t\t\t\\\n"
		"} while (0)\n\n", up, up);
	fprintf(f, "#define %s__BATCH_DONE(prov, name, p, len) do {\t\t\t\t\\\n"
		"\t%s__HOOK(prov, name, p, len, (clretw__act_set & 1) ? &clretw__act : NULL, \\\n"
		"\t\t    (clretw__act_set & 2) ? &clretw__rel : NULL);\t\t\\\n"
		"\tclretw__batch_commit();\t\t\t\t\t\t\\\n"
		"} while (0)\n\n", up, up);
	emit_c_serializers(f, up);
	gen_batch_runtime(g, f);
}

/* len/put functions of one template; static inline, so unused ones cost nothing */
static int emit_c_template(struct gen_ctx *g, FILE *f, const struct man_provider *p,
			   const struct man_template *t)
{
	int i;

	fprintf(f, "/* template %s */\nstatic inline __attribute__((unused)) size_t clretw__len_%s_%s(", t->tid,
		p->short_name, t->tid);
	if (emit_params(g, f, t, 0))
		return -EINVAL;
	fprintf(f, ")\n{\n\tsize_t n__ = 0;\n\n");
	for (i = 0; i < t->n_fields; i++) {
		if (t->fields[i].intype == ECT_STRUCT)
			fprintf(f, "\t(void)%s_ElementSize;\n", t->fields[i].name);
		fprintf(f, "\t(void)%s;\n", t->fields[i].name);
	}
	for (i = 0; i < t->n_fields; i++)
		emit_len(f, &t->fields[i], t->fields, "");
	fprintf(f, "\treturn n__;\n}\n\n");

	fprintf(f, "static inline __attribute__((unused)) void clretw__put_%s_%s(unsigned char *p__, ", p->short_name,
		t->tid);
	if (emit_params(g, f, t, 0))
		return -EINVAL;
	fprintf(f, ")\n{\n");
	if (has_array(t->fields, t->n_fields))
		fprintf(f, "\tuint64_t i__;\n\n");
	for (i = 0; i < t->n_fields; i++)
		if (t->fields[i].intype == ECT_STRUCT)
			fprintf(f, "\t(void)%s_ElementSize;\n", t->fields[i].name);
	for (i = 0; i < t->n_fields; i++)
		emit_put(f, &t->fields[i], t->fields, "");
	fprintf(f, "\t(void)p__;\n}\n\n");
	return 0;
}

/* typed struct element packers: <prefix>_pack_<Template>_<Struct>() */
static void emit_c_packer(const struct gen_ctx *g, FILE *f, const struct man_template *t,
			  const struct man_field *s)
{
	int i;

	fprintf(f, "static size_t clretw__elen_%s_%s(const %s_%s *e)\n{\n\tsize_t n__ = 0;\n\n",
		t->tid, s->name, t->tid, s->name);
	for (i = 0; i < s->n_members; i++)
		emit_len(f, &s->members[i], s->members, "e->");
	fprintf(f, "\t(void)e;\n\treturn n__;\n}\n\n");
	fprintf(f, "static unsigned char *clretw__eput_%s_%s(unsigned char *p__, const %s_%s *e)\n{\n",
		t->tid, s->name, t->tid, s->name);
	if (has_array(s->members, s->n_members))
		fprintf(f, "\tuint64_t i__;\n\n");
	for (i = 0; i < s->n_members; i++)
		emit_put(f, &s->members[i], s->members, "e->");
	fprintf(f, "\treturn p__;\n}\n\n");
	fprintf(f, "size_t %s_pack_%s_%s(void *buf, size_t cap, const %s_%s *elems, unsigned count)\n"
		"{\n\tunsigned char *p = buf;\n\tsize_t need = 0;\n\tunsigned i;\n\n"
		"\tfor (i = 0; i < count; i++)\n\t\tneed += clretw__elen_%s_%s(&elems[i]);\n"
		"\tif (!buf || need > cap)\n\t\treturn need;\n"
		"\tfor (i = 0; i < count; i++)\n\t\tp = clretw__eput_%s_%s(p, &elems[i]);\n"
		"\treturn need;\n}\n\n", g->prefix, t->tid, s->name, t->tid, s->name, t->tid,
		s->name, t->tid, s->name);
}

static int emit_c_event(struct gen_ctx *g, FILE *f, const char *up, const struct man_provider *p,
			const struct man_event *e, int idx)
{
	const struct man_template *t = e->tmpl;
	long fixed = t ? man_template__fixed_size(t) : 0;
	int i;

	fprintf(f, "unsigned short %s_%s_semaphore __attribute__((section(\".probes\"), "
		"visibility(\"hidden\")));\n\n", p->short_name, e->symbol);
	fprintf(f, "__attribute__((noinline, cold))\nULONG %s__fire_%s(", g->prefix, e->symbol);
	if (emit_params(g, f, t, 0))
		return -EINVAL;
	fprintf(f, ")\n{\n");
	if (!t || !t->n_fields) {
		gen_batch_open(f, idx, "0");
		gen_batch_close(f, up, p, e, "0");
		fprintf(f, "\t%s__PROBE(%s, %s, NULL, 0);\n\treturn ERROR_SUCCESS;\n}\n\n", up,
			p->short_name, e->symbol);
	} else if (fixed >= 0) {
		char flen[32];

		snprintf(flen, sizeof(flen), "%ld", fixed);
		fprintf(f, "\tunsigned char buf__[%ld];\n\n", fixed);
		gen_batch_open(f, idx, flen);
		fprintf(f, "\t\t\tclretw__put_%s_%s(p__, ", p->short_name, t->tid);
		emit_params(g, f, t, 1);
		fprintf(f, ");\n");
		gen_batch_close(f, up, p, e, flen);
		fprintf(f, "\tclretw__put_%s_%s(buf__, ", p->short_name, t->tid);
		emit_params(g, f, t, 1);
		fprintf(f, ");\n\t%s__PROBE(%s, %s, buf__, sizeof(buf__));\n"
			"\treturn ERROR_SUCCESS;\n}\n\n", up, p->short_name, e->symbol);
	} else {
		fprintf(f, "\tunsigned char stack__[%s__STACK_BUF], *buf__ = stack__;\n"
			"\tsize_t len__;\n\n", up);
		for (i = 0; i < t->n_fields; i++) {
			const struct man_field *s = &t->fields[i];
			long el = man_field__elem_size(s);

			if (s->intype != ECT_STRUCT)
				continue;
			if (el >= 0)
				fprintf(f, "\tif (%s_ElementSize != %ld)\n", s->name, el);
			else
				fprintf(f, "\tif (%s_ElementSize < 0)\n", s->name);
			fprintf(f, "\t\treturn ERROR_INVALID_PARAMETER;\n");
		}
		fprintf(f, "\tlen__ = clretw__len_%s_%s(", p->short_name, t->tid);
		emit_params(g, f, t, 1);
		fprintf(f, ");\n\tif (len__ > %s_MAX_PAYLOAD)\n"
			"\t\treturn clretw__drop(&%s_dropped_oversize);\n", up, g->prefix);
		gen_batch_open(f, idx, "len__");
		fprintf(f, "\t\t\tclretw__put_%s_%s(p__, ", p->short_name, t->tid);
		emit_params(g, f, t, 1);
		fprintf(f, ");\n");
		gen_batch_close(f, up, p, e, "len__");
		fprintf(f, "\tif (len__ > sizeof(stack__)) {\n\t\tbuf__ = malloc(len__);\n"
			"\t\tif (!buf__)\n\t\t\treturn clretw__drop(&%s_dropped_nomem);\n\t}\n"
			"\tclretw__put_%s_%s(buf__, ", g->prefix, p->short_name, t->tid);
		emit_params(g, f, t, 1);
		fprintf(f, ");\n\t%s__PROBE(%s, %s, buf__, len__);\n"
			"\tif (buf__ != stack__)\n\t\tfree(buf__);\n"
			"\treturn ERROR_SUCCESS;\n}\n\n", up, p->short_name, e->symbol);
	}
	fprintf(f, "ULONG FireEtXplat%s(", e->symbol);
	emit_params(g, f, t, 0);
	fprintf(f, ")\n{\n\tif (!EventXplatEnabled%s())\n\t\treturn ERROR_SUCCESS;\n"
		"\treturn %s__fire_%s(", e->symbol, g->prefix, e->symbol);
	emit_params(g, f, t, 1);
	fprintf(f, ");\n}\n\n");
	return 0;
}

int gen_provider_c(struct gen_ctx *g, FILE *f)
{
	char up[64];
	int i, j, k, idx = 0;

	upper(g->prefix, up, sizeof(up));
	emit_c_prologue(g, f, up);
	for (i = 0; i < g->m->n_providers; i++) {
		const struct man_provider *p = &g->m->providers[i];

		for (j = 0; j < p->n_templates; j++) {
			const struct man_template *t = &p->templates[j];

			for (k = 0; k < t->n_fields; k++)
				if (t->fields[k].intype == ECT_STRUCT)
					emit_c_packer(g, f, t, &t->fields[k]);
		}
	}
	for (i = 0; i < g->m->n_providers; i++) {
		const struct man_provider *p = &g->m->providers[i];

		fprintf(f, "/* ======== %s: USDT provider %s ======== */\n\n", p->name,
			p->short_name);
		for (j = 0; j < p->n_templates; j++)
			if (p->templates[j].n_fields &&
			    emit_c_template(g, f, p, &p->templates[j]))
				return -EINVAL;
		for (j = 0; j < p->n_events; j++)
			if (emit_c_event(g, f, up, p, &p->events[j], idx++))
				return -EINVAL;
	}
	gen_batch_names(g, f);
	return 0;
}

/* --- caller: a program calling every FireEtXplat once (tests) --- */

/* packed size of one all-zero element: empty strings, zero counts */
static long zero_elem_size(const struct man_field *s)
{
	long sum = 0, n;
	int i;

	for (i = 0; i < s->n_members; i++) {
		const struct man_field *m = &s->members[i];

		n = man_field__fixed_size(m);
		if (n < 0)
			n = m->intype == ECT_UNICODE ? 2 : m->intype == ECT_ANSI ? 1 : 0;
		sum += n;
	}
	return sum;
}

/*
 * Arguments that make every event a valid, small payload: integers 1 (so
 * each count and length is 1), NULL pointers (arrays and blobs are written
 * as zeros, strings as empty), one all-zero struct element.
 */
static void emit_dummy_args(FILE *f, const struct man_template *t)
{
	const char *sep = "";
	int i, pass;

	if (!t)
		return;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < t->n_fields; i++) {
			const struct man_field *fl = &t->fields[i];

			if ((fl->intype == ECT_STRUCT) != pass)
				continue;
			if (pass)
				fprintf(f, "%s%ld, NULL", sep, zero_elem_size(fl));
			else if (is_array(fl) || fl->intype == ECT_UNICODE ||
				 fl->intype == ECT_ANSI || fl->intype == ECT_BINARY ||
				 fl->intype == ECT_GUID || fl->intype == ECT_POINTER)
				fprintf(f, "%sNULL", sep);
			else
				fprintf(f, "%s1", sep);
			sep = ", ";
		}
	}
}

int gen_caller_c(struct gen_ctx *g, FILE *f)
{
	int i, j;

	gen_banner(g, f, "calls every FireEtXplat once (usdt-gen --emit-caller)");
	fprintf(f, "/* With an argument, raises every semaphore first so each event is\n"
		" * serialized and fired; exits with the number of failed calls.\n"
		" * Arguments: integers 1, NULL pointers, one all-zero struct element. */\n"
		"#include <stddef.h>\n\n#include \"%s_provider.h\"\n\n"
		"int main(int argc, char **argv)\n{\n\tint failed = 0;\n\n\t(void)argv;\n"
		"\tif (argc > 1) {\n", g->prefix);
	for (i = 0; i < g->m->n_providers; i++)
		for (j = 0; j < g->m->providers[i].n_events; j++)
			fprintf(f, "\t\t%s_%s_semaphore = 1;\n", g->m->providers[i].short_name,
				g->m->providers[i].events[j].symbol);
	fprintf(f, "\t}\n");
	for (i = 0; i < g->m->n_providers; i++) {
		for (j = 0; j < g->m->providers[i].n_events; j++) {
			const struct man_event *e = &g->m->providers[i].events[j];

			fprintf(f, "\tfailed += FireEtXplat%s(", e->symbol);
			emit_dummy_args(f, e->tmpl);
			fprintf(f, ") != ERROR_SUCCESS;\n");
		}
	}
	fprintf(f, "\treturn failed;\n}\n");
	return 0;
}
