// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * manifest.c - read an ETW instrumentation manifest with expat.
 *
 * The parser is a small state machine over start/end element callbacks.
 * Element names arrive namespace-qualified ("URI|local"); only the local
 * part matters.  Subtrees that carry nothing for the wire format
 * (<UserData>, <localization>, <channels>, <maps>) are skipped wholesale.
 *
 * Resolution happens as soon as everything a reference can name is known:
 * count=/length= when a template (or struct) closes, since they must name an
 * earlier sibling; event references when the provider closes.  The first
 * error wins: it is formatted as "FILE:LINE: problem", the parser is stopped
 * and manifest__load() returns -EINVAL.
 *
 * One deliberate special case: ClrStackWalk's `Stack count="2"` is a
 * placeholder in every CLR manifest (the runtime writes FrameCount frames),
 * so a fixed count on a field named Stack whose template has an earlier
 * FrameCount field is resolved to FrameCount.  count_attr keeps the "2".
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <expat.h>

#include "manifest.h"
#include "hash.h"
#include "index_set.h"

struct parse_ctx {
	XML_Parser parser;
	struct manifest *m;
	char *err;
	size_t err_len;
	int failed;		/* 0, or the -errno to return */
	int skip_depth;		/* > 0 inside an ignored subtree */
	struct man_provider *prov;
	struct man_task *task;
	struct man_template *tmpl;
	struct man_field *strct;	/* open <struct> inside tmpl */
	struct index_set templates;	/* prov's templates by tid */
};

static const struct {
	const char *name;
	int type;
} intypes[] = {
	{ "win:UInt8", ECT_UINT8 },	{ "win:UInt16", ECT_UINT16 },
	{ "win:UInt32", ECT_UINT32 },	{ "win:UInt64", ECT_UINT64 },
	{ "win:Int32", ECT_INT32 },	{ "win:Int64", ECT_INT64 },
	{ "win:Double", ECT_DOUBLE },	{ "win:Boolean", ECT_BOOLEAN },
	{ "win:Pointer", ECT_POINTER },	{ "win:GUID", ECT_GUID },
	{ "win:UnicodeString", ECT_UNICODE }, { "win:AnsiString", ECT_ANSI },
	{ "win:Binary", ECT_BINARY },
};

/* with the words TraceEvent names them by: "win:DC_Start" is DCStart */
static const struct man_opcode std_opcodes[] = {
	{ "win:Info", 0, NULL },		{ "win:Start", 1, "Start" },
	{ "win:Stop", 2, "Stop" },		{ "win:DC_Start", 3, "DCStart" },
	{ "win:DC_Stop", 4, "DCStop" },		{ "win:Extension", 5, "Extension" },
	{ "win:Reply", 6, "Reply" },		{ "win:Resume", 7, "Resume" },
	{ "win:Suspend", 8, "Suspend" },	{ "win:Send", 9, "Send" },
	{ "win:Receive", 240, "Receive" },
};

static const char *const level_names[] = {
	"win:LogAlways", "win:Critical", "win:Error", "win:Warning",
	"win:Informational", "win:Verbose",
};

/* "win:UInt32" -> ECT_UINT32, 0 if unknown */
static int man_intype_from_name(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(intypes) / sizeof(intypes[0]); i++)
		if (!strcmp(s, intypes[i].name))
			return intypes[i].type;
	return 0;
}

static void fail_at(struct parse_ctx *c, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail_at(struct parse_ctx *c, int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (c->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->err_len, "%s:%d: %s", c->m->path, line, msg);
	c->failed = -EINVAL;
	XML_StopParser(c->parser, XML_FALSE);
}

static void fail_nomem(struct parse_ctx *c)
{
	if (c->failed)
		return;
	snprintf(c->err, c->err_len, "%s: out of memory", c->m->path);
	c->failed = -ENOMEM;
	XML_StopParser(c->parser, XML_FALSE);
}

static int cur_line(struct parse_ctx *c)
{
	return (int)XML_GetCurrentLineNumber(c->parser);
}

/* Grow *arr (of n elements of size sz) by one zeroed element; NULL on ENOMEM. */
static void *push(void *arr_p, int *n, size_t sz)
{
	void **arr = arr_p;
	char *p = realloc(*arr, (size_t)(*n + 1) * sz);

	if (!p)
		return NULL;
	*arr = p;
	memset(p + (size_t)*n * sz, 0, sz);
	return p + (size_t)(*n)++ * sz;
}

static const char *attr(const XML_Char **atts, const char *name)
{
	for (; atts[0]; atts += 2)
		if (!strcmp(atts[0], name))
			return atts[1];
	return NULL;
}

static char *dup_attr(struct parse_ctx *c, const XML_Char **atts, const char *name)
{
	const char *v = attr(atts, name);
	char *d;

	if (!v)
		return NULL;
	d = strdup(v);
	if (!d)
		fail_nomem(c);
	return d;
}

/* Strict unsigned parse (decimal or 0x hex) with an upper bound. */
static int parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || *end || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int need_uint(struct parse_ctx *c, const XML_Char **atts, const char *name,
		     uint64_t max, int required, uint64_t *out)
{
	const char *v = attr(atts, name);

	*out = 0;
	if (!v) {
		if (required)
			fail_at(c, cur_line(c), "missing %s= attribute", name);
		return required ? -EINVAL : 0;
	}
	if (parse_uint(v, max, out)) {
		fail_at(c, cur_line(c), "bad %s=\"%s\" (expected a number up to %llu)", name, v,
			(unsigned long long)max);
		return -EINVAL;
	}
	return 0;
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = tolower(ch);
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/* "{e13c0d23-ccbc-4e12-931b-d9cc2eee27e4}" -> lower-case text + .NET byte layout */
static int parse_guid(const char *s, char **text, uint8_t bytes[16])
{
	static const int group_len[] = { 8, 4, 4, 4, 12 };
	char buf[37];
	uint8_t raw[16];
	int g, i, n = 0, nb = 0;

	if (*s == '{')
		s++;
	for (g = 0; g < 5; g++) {
		for (i = 0; i < group_len[g]; i++, s++) {
			if (hexval(*s) < 0)
				return -EINVAL;
			buf[n++] = (char)tolower((unsigned char)*s);
			if (i & 1) {
				raw[nb] = (uint8_t)(hexval(s[-1]) << 4 | hexval(*s));
				nb++;
			}
		}
		if (g < 4) {
			if (*s != '-')
				return -EINVAL;
			buf[n++] = *s++;
		}
	}
	if (*s == '}')
		s++;
	if (*s)
		return -EINVAL;
	buf[n] = 0;
	/* Data1, Data2, Data3 are little-endian in the byte form; Data4 as is */
	bytes[0] = raw[3]; bytes[1] = raw[2]; bytes[2] = raw[1]; bytes[3] = raw[0];
	bytes[4] = raw[5]; bytes[5] = raw[4];
	bytes[6] = raw[7]; bytes[7] = raw[6];
	memcpy(bytes + 8, raw + 8, 8);
	*text = strdup(buf);
	return *text ? 0 : -ENOMEM;
}

static int is_c_ident(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static const char *local_name(const char *name)
{
	const char *bar = strrchr(name, '|');

	return bar ? bar + 1 : name;
}

/* --- element handlers --- */

/* <localization>'s <string>: the texts that message= attributes name */
static void start_string(struct parse_ctx *c, const XML_Char **atts)
{
	struct man_string *s;

	s = push(&c->m->strings, &c->m->n_strings, sizeof(*s));
	if (!s)
		return fail_nomem(c);
	s->id = dup_attr(c, atts, "id");
	s->value = dup_attr(c, atts, "value");
	if (!s->id || !s->value)
		fail_at(c, cur_line(c), "<string> needs id= and value=");
}

static void start_provider(struct parse_ctx *c, const XML_Char **atts)
{
	struct man_provider *p;
	const char *guid, *short_name;

	p = push(&c->m->providers, &c->m->n_providers, sizeof(*p));
	if (!p)
		return fail_nomem(c);
	c->prov = p;
	p->line = cur_line(c);
	p->name = dup_attr(c, atts, "name");
	p->symbol = dup_attr(c, atts, "symbol");
	guid = attr(atts, "guid");
	if (!p->name || !guid)
		return fail_at(c, p->line, "<provider> needs name= and guid=");
	if (parse_guid(guid, &p->guid, p->guid_bytes))
		return fail_at(c, p->line, "bad provider guid \"%s\"", guid);
	short_name = p->name;
	if (!strncmp(short_name, "Microsoft-Windows-", 18))
		short_name += 18;
	p->short_name = strdup(short_name);
	if (!p->short_name)
		return fail_nomem(c);
	if (!is_c_ident(p->short_name))
		fail_at(c, p->line, "provider name \"%s\" does not give a USDT provider name "
			"(\"%s\" is not a C identifier)", p->name, p->short_name);
}

static void start_keyword(struct parse_ctx *c, const XML_Char **atts)
{
	struct man_keyword *k;

	k = push(&c->prov->keywords, &c->prov->n_keywords, sizeof(*k));
	if (!k)
		return fail_nomem(c);
	k->name = dup_attr(c, atts, "name");
	if (!k->name)
		return fail_at(c, cur_line(c), "<keyword> without name=");
	need_uint(c, atts, "mask", UINT64_MAX, 1, &k->mask);
}

static void start_task(struct parse_ctx *c, const XML_Char **atts)
{
	struct man_task *t;
	uint64_t v;

	t = push(&c->prov->tasks, &c->prov->n_tasks, sizeof(*t));
	if (!t)
		return fail_nomem(c);
	c->task = t;
	t->name = dup_attr(c, atts, "name");
	t->message = dup_attr(c, atts, "message");
	if (!t->name)
		return fail_at(c, cur_line(c), "<task> without name=");
	if (!need_uint(c, atts, "value", 0xffff, 1, &v))
		t->value = (unsigned int)v;
}

static void start_opcode(struct parse_ctx *c, const XML_Char **atts)
{
	struct man_opcode *o;
	uint64_t v;

	if (c->task)
		o = push(&c->task->opcodes, &c->task->n_opcodes, sizeof(*o));
	else
		o = push(&c->prov->opcodes, &c->prov->n_opcodes, sizeof(*o));
	if (!o)
		return fail_nomem(c);
	o->name = dup_attr(c, atts, "name");
	o->message = dup_attr(c, atts, "message");
	if (!o->name)
		return fail_at(c, cur_line(c), "<opcode> without name=");
	if (!need_uint(c, atts, "value", 0xff, 1, &v))
		o->value = (unsigned int)v;
}

/* index_set_eq_fn: is template i of provider ctx the one named key? */
static int template_is(const void *ctx, const void *key, int i)
{
	return !strcmp(((const struct man_provider *)ctx)->templates[i].tid, key);
}

static void start_template(struct parse_ctx *c, const XML_Char **atts)
{
	struct man_template *t;
	int i;

	t = push(&c->prov->templates, &c->prov->n_templates, sizeof(*t));
	if (!t)
		return fail_nomem(c);
	c->tmpl = t;
	t->line = cur_line(c);
	t->tid = dup_attr(c, atts, "tid");
	if (!t->tid)
		return fail_at(c, t->line, "<template> without tid=");
	if (!is_c_ident(t->tid))
		return fail_at(c, t->line, "template tid \"%s\" is not a C identifier", t->tid);
	i = index_set__find(&c->templates, hash_str(t->tid), t->tid, template_is, c->prov);
	if (i >= 0)
		return fail_at(c, t->line, "duplicate template \"%s\" in provider %s "
			       "(first at line %d)", t->tid, c->prov->name,
			       c->prov->templates[i].line);
	if (index_set__add(&c->templates, hash_str(t->tid), c->prov->n_templates - 1))
		return fail_nomem(c);
}

static struct man_field *new_field(struct parse_ctx *c, const XML_Char **atts)
{
	struct man_field *f;

	if (c->strct)
		f = push(&c->strct->members, &c->strct->n_members, sizeof(*f));
	else
		f = push(&c->tmpl->fields, &c->tmpl->n_fields, sizeof(*f));
	if (!f) {
		fail_nomem(c);
		return NULL;
	}
	f->line = cur_line(c);
	f->name = dup_attr(c, atts, "name");
	if (!f->name) {
		fail_at(c, f->line, "field without name= in template %s", c->tmpl->tid);
		return NULL;
	}
	if (!is_c_ident(f->name)) {
		fail_at(c, f->line, "field name \"%s\" is not a C identifier", f->name);
		return NULL;
	}
	f->count_attr = dup_attr(c, atts, "count");
	return f;
}

static void start_data(struct parse_ctx *c, const XML_Char **atts)
{
	struct man_field *f = new_field(c, atts);
	const char *in;

	if (!f)
		return;
	in = attr(atts, "inType");
	if (!in)
		return fail_at(c, f->line, "field %s has no inType", f->name);
	f->intype = man_intype_from_name(in);
	if (!f->intype)
		return fail_at(c, f->line, "unknown inType \"%s\" of field %s", in, f->name);
	f->outtype = dup_attr(c, atts, "outType");
	f->map = dup_attr(c, atts, "map");
	if (attr(atts, "length")) {
		if (f->count_attr)
			return fail_at(c, f->line, "field %s has both count= and length=", f->name);
		f->count_attr = dup_attr(c, atts, "length");
		f->is_length = 1;
		if (f->intype != ECT_BINARY)
			return fail_at(c, f->line, "length= on field %s, which is not win:Binary",
				       f->name);
	} else if (f->intype == ECT_BINARY) {
		return fail_at(c, f->line, "win:Binary field %s has no length=", f->name);
	}
}

static void start_struct(struct parse_ctx *c, const XML_Char **atts)
{
	struct man_field *f;

	if (c->strct)
		return fail_at(c, cur_line(c), "nested <struct> is not supported");
	f = new_field(c, atts);
	if (!f)
		return;
	f->intype = ECT_STRUCT;
	if (!f->count_attr)
		return fail_at(c, f->line, "<struct> %s has no count=", f->name);
	c->strct = f;
}

static void start_event(struct parse_ctx *c, const XML_Char **atts)
{
	struct man_event *e;
	uint64_t v;

	e = push(&c->prov->events, &c->prov->n_events, sizeof(*e));
	if (!e)
		return fail_nomem(c);
	e->line = cur_line(c);
	e->symbol = dup_attr(c, atts, "symbol");
	if (!e->symbol)
		return fail_at(c, e->line, "<event> without symbol=");
	if (!is_c_ident(e->symbol))
		return fail_at(c, e->line, "event symbol \"%s\" is not a C identifier", e->symbol);
	if (need_uint(c, atts, "value", 0xffff, 1, &v))
		return;
	e->id = (unsigned int)v;
	if (need_uint(c, atts, "version", 0xff, 0, &v))
		return;
	e->version = (unsigned int)v;
	e->template_name = dup_attr(c, atts, "template");
	e->task_name = dup_attr(c, atts, "task");
	e->opcode_name = dup_attr(c, atts, "opcode");
	e->keywords_attr = dup_attr(c, atts, "keywords");
	{
		const char *lv = attr(atts, "level");
		size_t i;

		e->level = 4;	/* ETW default: win:Informational */
		if (!lv)
			return;
		for (i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++)
			if (!strcmp(lv, level_names[i]))
				break;
		if (i < sizeof(level_names) / sizeof(level_names[0]))
			e->level = (unsigned int)i;
		else if (!parse_uint(lv, 255, &v))
			e->level = (unsigned int)v;
		else
			fail_at(c, e->line, "unknown level \"%s\" of event %s", lv, e->symbol);
	}
}

/* --- resolution --- */

static int is_integer_type(int t)
{
	return t == ECT_UINT8 || t == ECT_UINT16 || t == ECT_UINT32 || t == ECT_UINT64 ||
	       t == ECT_INT32 || t == ECT_INT64;
}

/* Resolve count=/length= of fields[0..n) against earlier siblings. */
static void resolve_counts(struct parse_ctx *c, struct man_field *fields, int n)
{
	int i, j;

	for (i = 0; i < n && !c->failed; i++) {
		struct man_field *f = &fields[i];
		uint64_t v;

		if (!f->count_attr)
			continue;
		if (!parse_uint(f->count_attr, 0xffff, &v)) {
			f->count_kind = ECT_COUNT_FIXED;
			f->count = (unsigned int)v;
			if (v == 0)
				return fail_at(c, f->line, "count=\"0\" on field %s", f->name);
			if (v > 1 && !strcmp(f->name, "Stack")) {
				for (j = 0; j < i; j++)
					if (!strcmp(fields[j].name, "FrameCount") &&
					    is_integer_type(fields[j].intype)) {
						f->count_kind = ECT_COUNT_FIELD;
						f->count = (unsigned int)j;
					}
			}
			continue;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(fields[j].name, f->count_attr))
				break;
		if (j == i)
			return fail_at(c, f->line, "%s=\"%s\" of field %s does not name an earlier "
				       "field", f->is_length ? "length" : "count", f->count_attr,
				       f->name);
		if (!is_integer_type(fields[j].intype))
			return fail_at(c, f->line, "%s=\"%s\" of field %s names a field of type %s, "
				       "not an integer", f->is_length ? "length" : "count",
				       f->count_attr, f->name, ect_intype_name(fields[j].intype));
		if (fields[j].count_kind == ECT_COUNT_FIELD ||
		    (fields[j].count_kind == ECT_COUNT_FIXED && fields[j].count > 1))
			return fail_at(c, f->line, "%s=\"%s\" of field %s names an array, not a "
				       "single integer", f->is_length ? "length" : "count",
				       f->count_attr, f->name);
		f->count_kind = ECT_COUNT_FIELD;
		f->count = (unsigned int)j;
	}
}

static const struct man_opcode *find_opcode(const struct man_opcode *ops, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(ops[i].name, name))
			return &ops[i];
	return NULL;
}

static void resolve_event(struct parse_ctx *c, struct man_provider *p, struct man_event *e)
{
	const struct man_task *task = NULL;
	int i;

	if (e->template_name) {
		i = index_set__find(&c->templates, hash_str(e->template_name), e->template_name,
				    template_is, p);
		if (i >= 0) {
			p->templates[i].n_events++;
			e->tmpl = &p->templates[i];
		}
		if (!e->tmpl)
			return fail_at(c, e->line, "event %s: template \"%s\" is not defined in "
				       "provider %s", e->symbol, e->template_name, p->name);
	}
	if (e->task_name) {
		for (i = 0; i < p->n_tasks; i++)
			if (!strcmp(p->tasks[i].name, e->task_name))
				task = &p->tasks[i];
		if (!task)
			return fail_at(c, e->line, "event %s: task \"%s\" is not defined in "
				       "provider %s", e->symbol, e->task_name, p->name);
		e->task = task->value;
		e->task_ref = task;
	}
	if (e->opcode_name) {
		const struct man_opcode *o;

		o = find_opcode(std_opcodes, sizeof(std_opcodes) / sizeof(std_opcodes[0]),
				e->opcode_name);
		if (!o && task)
			o = find_opcode(task->opcodes, task->n_opcodes, e->opcode_name);
		for (i = 0; !o && i < p->n_tasks; i++)
			o = find_opcode(p->tasks[i].opcodes, p->tasks[i].n_opcodes, e->opcode_name);
		if (!o)
			o = find_opcode(p->opcodes, p->n_opcodes, e->opcode_name);
		if (!o)
			return fail_at(c, e->line, "event %s: opcode \"%s\" is not defined",
				       e->symbol, e->opcode_name);
		e->opcode = o->value;
		e->opcode_ref = o;
	}
	if (e->keywords_attr) {
		char *dup = strdup(e->keywords_attr), *tok, *save = NULL;

		if (!dup)
			return fail_nomem(c);
		for (tok = strtok_r(dup, " \t\r\n", &save); tok;
		     tok = strtok_r(NULL, " \t\r\n", &save)) {
			for (i = 0; i < p->n_keywords; i++)
				if (!strcmp(p->keywords[i].name, tok))
					break;
			if (i == p->n_keywords) {
				fail_at(c, e->line, "event %s: keyword \"%s\" is not defined in "
					"provider %s", e->symbol, tok, p->name);
				break;
			}
			e->keywords |= p->keywords[i].mask;
		}
		free(dup);
	}
}

static uint64_t event_id_hash(const struct man_event *e)
{
	return hash64((uint64_t)e->id << 32 | e->version);
}

/* index_set_eq_fn: has event i of provider ctx the id and version of key? */
static int same_id_version(const void *ctx, const void *key, int i)
{
	const struct man_event *a = &((const struct man_provider *)ctx)->events[i], *b = key;

	return a->id == b->id && a->version == b->version;
}

static void end_provider(struct parse_ctx *c)
{
	struct man_provider *p = c->prov;
	struct index_set ids = { 0 };
	int i, j;

	for (i = 0; i < p->n_events && !c->failed; i++) {
		struct man_event *e = &p->events[i];

		j = index_set__find(&ids, event_id_hash(e), e, same_id_version, p);
		if (j >= 0) {
			fail_at(c, e->line, "duplicate event id %u version %u in provider %s "
				"(%s at line %d, %s here)", e->id, e->version, p->name,
				p->events[j].symbol, p->events[j].line, e->symbol);
			break;
		}
		if (index_set__add(&ids, event_id_hash(e), i)) {
			fail_nomem(c);
			break;
		}
		resolve_event(c, p, e);
	}
	index_set__clear(&ids);
	index_set__clear(&c->templates);
}

/* The text of a message= attribute: "$(string.ID)" looked up in the
 * manifest's strings; NULL when there is none or it names no string (the
 * caller then names by the task's or opcode's name). */
static const char *message_text(const struct manifest *m, const char *msg)
{
	size_t n;
	int i;

	if (!msg || strncmp(msg, "$(string.", 9))
		return msg;
	n = strlen(msg + 9);
	if (!n || msg[9 + n - 1] != ')')
		return NULL;
	for (i = 0; i < m->n_strings; i++)
		if (strlen(m->strings[i].id) == n - 1 && !strncmp(m->strings[i].id, msg + 9, n - 1))
			return m->strings[i].value;
	return NULL;
}

/*
 * Where TraceEvent's CLR parsers (ClrTraceEventParser and its rundown and
 * private siblings) name an event otherwise than its manifest texts: they
 * are the names PerfView and dotnet-trace users know, so they win.
 */
static const struct { const char *symbol, *name; } traceevent_names[] = {
	{ "GCMarkWithType", "GC/MarkWithType" },
	{ "GCDynamicEvent", "GC/DynamicTraceEvent" },
	{ "MethodDetails", "Method/MethodDetails" },
	{ "DCEndCompleteV2", "Method/DCStopCompleteV2" },
	{ "R2RGetEntryPoint", "Method/R2RGetEntryPoint" },
	{ "R2RGetEntryPointStart", "Method/R2RGetEntryPointStart" },
	{ "MethodJitInliningFailedAnsi", "Method/InliningFailedAnsi" },
	{ "TieredCompilationBackgroundJitStart", "TieredCompilation/BackgroundJitStart" },
	{ "TieredCompilationBackgroundJitStop", "TieredCompilation/BackgroundJitStop" },
	{ "JitInstrumentationDataVerbose", "JitInstrumentationDataVerbose/InstrumentationData" },
	{ "CCWRefCountChangeAnsi", "GC/CCWRefCountChangeAnsi" },
	{ "PrvDestroyGCHandle", "GC/DestroyGCHandle" },
	{ "MethodDCStartILToNativeMap", "Method/ILToNativeMapDCStart" },
	{ "MethodDCEndILToNativeMap", "Method/ILToNativeMapDCStop" },
	{ "TieredCompilationSettingsDCStart", "TieredCompilationRundown/SettingsDCStart" },
	{ "ExecutionCheckpoint", "ExecutionCheckpoint/ExecutionCheckpoint" },
};

/* "GC" and "GCBulkNode" make "GC/BulkNode", "FailFast" twice makes "FailFast":
 * TraceEvent drops the task's name where the opcode's text repeats it. */
static char *join_name(const char *task, const char *op)
{
	size_t tl = strlen(task), n;
	char *s;

	if (op && !strncmp(op, task, tl))
		op = op[tl] ? op + tl : NULL;
	n = tl + (op ? strlen(op) + 1 : 0) + 1;
	s = malloc(n);
	if (s)
		snprintf(s, n, "%s%s%s", task, op ? "/" : "", op ? op : "");
	return s;
}

/* Each event's name (manifest__load() says how), once the strings are known:
 * the <localization> section follows the providers. */
static void name_events(struct parse_ctx *c)
{
	int pi, ei;

	for (pi = 0; pi < c->m->n_providers; pi++) {
		struct man_provider *p = &c->m->providers[pi];

		for (ei = 0; ei < p->n_events; ei++) {
			struct man_event *e = &p->events[ei];
			const char *task, *op = NULL;
			size_t i;

			for (i = 0; i < sizeof(traceevent_names) / sizeof(traceevent_names[0]); i++)
				if (!strcmp(traceevent_names[i].symbol, e->symbol))
					break;
			if (i < sizeof(traceevent_names) / sizeof(traceevent_names[0])) {
				e->name = strdup(traceevent_names[i].name);
			} else if (!e->task_ref) {
				e->name = strdup(e->symbol);
			} else {
				task = message_text(c->m, e->task_ref->message);
				if (!task)
					task = e->task_ref->name;
				if (e->opcode_ref && e->opcode_ref->value != 0) {
					op = message_text(c->m, e->opcode_ref->message);
					if (!op)
						op = e->opcode_ref->name;
				}
				e->name = join_name(task, op);
			}
			if (!e->name)
				return fail_nomem(c);
		}
	}
}

/* index_set_eq_fn: is event i of the list ctx named key? */
static int symbol_is(const void *ctx, const void *key, int i)
{
	return !strcmp(((const struct man_event *const *)ctx)[i]->symbol, key);
}

/* Event symbols become C names (FireEtXplat<Symbol>), so they must be unique
 * across providers, and so must provider names. */
static void check_symbols(struct parse_ctx *c)
{
	struct manifest *m = c->m;
	const struct man_event **all;
	struct index_set seen = { 0 };
	int pi, ei, pj, n = 0, total = 0, j;

	for (pi = 0; pi < m->n_providers; pi++)
		total += m->providers[pi].n_events;
	all = malloc((size_t)(total ? total : 1) * sizeof(*all));
	if (!all)
		return fail_nomem(c);
	for (pi = 0; pi < m->n_providers && !c->failed; pi++) {
		struct man_provider *p = &m->providers[pi];

		for (ei = 0; ei < p->n_events && !c->failed; ei++) {
			const struct man_event *e = &p->events[ei];
			uint64_t h = hash_str(e->symbol);

			j = index_set__find(&seen, h, e->symbol, symbol_is, all);
			if (j >= 0)
				fail_at(c, e->line, "duplicate event symbol %s (first at line %d)",
					e->symbol, all[j]->line);
			else if (index_set__add(&seen, h, n))
				fail_nomem(c);
			else
				all[n++] = e;
		}
		for (pj = 0; pj < pi && !c->failed; pj++)
			if (!strcmp(m->providers[pj].short_name, p->short_name))
				fail_at(c, p->line, "duplicate provider %s", p->short_name);
	}
	index_set__clear(&seen);
	free(all);
}

static void XMLCALL on_start(void *data, const XML_Char *name, const XML_Char **atts)
{
	struct parse_ctx *c = data;
	const char *n = local_name(name);

	if (c->failed)
		return;
	if (c->skip_depth) {
		c->skip_depth++;
		return;
	}
	if (!strcmp(n, "UserData") || !strcmp(n, "channels") || !strcmp(n, "maps")) {
		c->skip_depth = 1;
	} else if (!strcmp(n, "string") && !c->prov) {
		start_string(c, atts);
	} else if (!strcmp(n, "provider")) {
		if (c->prov)
			return fail_at(c, cur_line(c), "<provider> inside <provider>");
		start_provider(c, atts);
	} else if (!c->prov) {
		return;	/* instrumentationManifest, instrumentation, events */
	} else if (!strcmp(n, "keyword")) {
		start_keyword(c, atts);
	} else if (!strcmp(n, "task")) {
		start_task(c, atts);
	} else if (!strcmp(n, "opcode")) {
		start_opcode(c, atts);
	} else if (!strcmp(n, "template")) {
		start_template(c, atts);
	} else if (!strcmp(n, "data") || !strcmp(n, "struct")) {
		if (!c->tmpl)
			return fail_at(c, cur_line(c), "<%s> outside <template>", n);
		if (n[0] == 'd')
			start_data(c, atts);
		else
			start_struct(c, atts);
	} else if (!strcmp(n, "event")) {
		start_event(c, atts);
	}
}

static void XMLCALL on_end(void *data, const XML_Char *name)
{
	struct parse_ctx *c = data;
	const char *n = local_name(name);

	if (c->failed)
		return;
	if (c->skip_depth) {
		c->skip_depth--;
		return;
	}
	if (!strcmp(n, "provider") && c->prov) {
		end_provider(c);
		c->prov = NULL;
	} else if (!strcmp(n, "task")) {
		c->task = NULL;
	} else if (!strcmp(n, "struct") && c->strct) {
		resolve_counts(c, c->strct->members, c->strct->n_members);
		if (!c->failed && !c->strct->n_members)
			fail_at(c, c->strct->line, "<struct> %s has no members", c->strct->name);
		c->strct = NULL;
	} else if (!strcmp(n, "template") && c->tmpl) {
		resolve_counts(c, c->tmpl->fields, c->tmpl->n_fields);
		c->tmpl = NULL;
	}
}

static int parse_file(struct parse_ctx *c, FILE *f)
{
	char buf[65536];
	size_t n;
	int done;

	do {
		n = fread(buf, 1, sizeof(buf), f);
		if (ferror(f)) {
			snprintf(c->err, c->err_len, "%s: read error: %s", c->m->path,
				 strerror(errno));
			return -EIO;
		}
		done = n < sizeof(buf);
		if (XML_Parse(c->parser, buf, (int)n, done) == XML_STATUS_ERROR) {
			if (c->failed)
				return c->failed;
			snprintf(c->err, c->err_len, "%s:%lu: malformed XML: %s", c->m->path,
				 (unsigned long)XML_GetCurrentLineNumber(c->parser),
				 XML_ErrorString(XML_GetErrorCode(c->parser)));
			return -EINVAL;
		}
	} while (!done);
	if (c->failed)
		return c->failed;
	check_symbols(c);
	if (!c->failed)
		name_events(c);
	if (!c->failed && !c->m->n_providers) {
		snprintf(c->err, c->err_len, "%s:1: no <provider> in the manifest", c->m->path);
		return -EINVAL;
	}
	return c->failed;
}

int manifest__load(const char *path, struct manifest **out, char *err, size_t err_len)
{
	struct parse_ctx c = { .err = err, .err_len = err_len };
	FILE *f = NULL;
	int ret;

	*out = NULL;
	c.m = calloc(1, sizeof(*c.m));
	if (!c.m || !(c.m->path = strdup(path))) {
		snprintf(err, err_len, "%s: out of memory", path);
		ret = -ENOMEM;
		goto cleanup;
	}
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		snprintf(err, err_len, "%s: cannot open: %s", path, strerror(errno));
		goto cleanup;
	}
	c.parser = XML_ParserCreateNS(NULL, '|');
	if (!c.parser) {
		snprintf(err, err_len, "%s: out of memory", path);
		ret = -ENOMEM;
		goto cleanup;
	}
	XML_SetUserData(c.parser, &c);
	XML_SetElementHandler(c.parser, on_start, on_end);
	ret = parse_file(&c, f);
cleanup:
	index_set__clear(&c.templates);	/* a provider left open by an error */
	if (c.parser)
		XML_ParserFree(c.parser);
	if (f)
		fclose(f);
	if (ret) {
		manifest__free(c.m);
		return ret;
	}
	*out = c.m;
	return 0;
}

static void free_fields(struct man_field *f, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(f[i].name);
		free(f[i].outtype);
		free(f[i].map);
		free(f[i].count_attr);
		free_fields(f[i].members, f[i].n_members);
	}
	free(f);
}

static void free_provider(struct man_provider *p)
{
	int i, j;

	free(p->name);
	free(p->short_name);
	free(p->guid);
	free(p->symbol);
	for (i = 0; i < p->n_keywords; i++)
		free(p->keywords[i].name);
	free(p->keywords);
	for (i = 0; i < p->n_tasks; i++) {
		free(p->tasks[i].name);
		free(p->tasks[i].message);
		for (j = 0; j < p->tasks[i].n_opcodes; j++) {
			free(p->tasks[i].opcodes[j].name);
			free(p->tasks[i].opcodes[j].message);
		}
		free(p->tasks[i].opcodes);
	}
	free(p->tasks);
	for (i = 0; i < p->n_opcodes; i++) {
		free(p->opcodes[i].name);
		free(p->opcodes[i].message);
	}
	free(p->opcodes);
	for (i = 0; i < p->n_templates; i++) {
		free(p->templates[i].tid);
		free_fields(p->templates[i].fields, p->templates[i].n_fields);
	}
	free(p->templates);
	for (i = 0; i < p->n_events; i++) {
		struct man_event *e = &p->events[i];

		free(e->symbol);
		free(e->template_name);
		free(e->task_name);
		free(e->opcode_name);
		free(e->keywords_attr);
		free(e->name);
	}
	free(p->events);
}

void manifest__free(struct manifest *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < m->n_providers; i++)
		free_provider(&m->providers[i]);
	free(m->providers);
	for (i = 0; i < m->n_strings; i++) {
		free(m->strings[i].id);
		free(m->strings[i].value);
	}
	free(m->strings);
	free(m->path);
	free(m);
}

const struct man_provider *manifest__find_provider(const struct manifest *m, const char *name)
{
	int i;

	for (i = 0; i < m->n_providers; i++)
		if (!strcasecmp(m->providers[i].name, name) ||
		    !strcmp(m->providers[i].short_name, name))
			return &m->providers[i];
	return NULL;
}

const struct man_event *man_provider__find_event(const struct man_provider *p,
						 unsigned int id, unsigned int version)
{
	int i;

	for (i = 0; i < p->n_events; i++)
		if (p->events[i].id == id && p->events[i].version == version)
			return &p->events[i];
	return NULL;
}

long man_field__elem_size(const struct man_field *f)
{
	long elem, sum = 0;
	int i;

	if (f->intype != ECT_STRUCT)
		return ect_intype_size(f->intype) ? (long)ect_intype_size(f->intype) : -1;
	for (i = 0; i < f->n_members; i++) {
		elem = man_field__fixed_size(&f->members[i]);
		if (elem < 0)
			return -1;
		sum += elem;
	}
	return sum;
}

long man_field__fixed_size(const struct man_field *f)
{
	long elem = man_field__elem_size(f);

	if (elem < 0 || f->count_kind == ECT_COUNT_FIELD)
		return -1;
	if (f->count_kind == ECT_COUNT_FIXED)
		return elem * f->count;
	return elem;
}

long man_template__fixed_size(const struct man_template *t)
{
	long sum = 0, s;
	int i;

	for (i = 0; i < t->n_fields; i++) {
		s = man_field__fixed_size(&t->fields[i]);
		if (s < 0)
			return -1;
		sum += s;
	}
	return sum;
}
