// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * trigger.c - event predicates (trigger.h): parsed once against the event
 * table, evaluated on every runtime event as it leaves the reorder buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "trigger.h"
#include "utf16.h"

static const struct { const char *s; enum trig_op op; } ops[] = {
	{ "==", TRIG_EQ }, { "!=", TRIG_NE }, { "<=", TRIG_LE }, { ">=", TRIG_GE },
	{ "<", TRIG_LT }, { ">", TRIG_GT },
};

/* The first operator in s: its position and length, or NULL. */
static const char *find_op(const char *s, enum trig_op *op, size_t *oplen)
{
	const char *p;
	size_t i;

	for (p = s; *p; p++)
		for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			if (!strncmp(p, ops[i].s, strlen(ops[i].s))) {
				*op = ops[i].op;
				*oplen = strlen(ops[i].s);
				return p;
			}
	return NULL;
}

/* "50ms", "1s", "200us", "1000000ns", "2.5s" -> ns; 0 on error. */
static uint64_t parse_duration(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v < 0)
		return 0;
	if (!strcmp(end, "ns"))
		return (uint64_t)v;
	if (!strcmp(end, "us"))
		return (uint64_t)(v * 1e3);
	if (!strcmp(end, "ms"))
		return (uint64_t)(v * 1e6);
	if (!strcmp(end, "s"))
		return (uint64_t)(v * 1e9);
	return 0;
}

static int find_event(const struct ect_table *t, const char *name, uint32_t *idx)
{
	char prov[128];
	const char *slash = strchr(name, '/');
	const struct ect_event *e;

	if (slash && (size_t)(slash - name) < sizeof(prov)) {
		memcpy(prov, name, slash - name);
		prov[slash - name] = '\0';
		e = ect_find_symbol(t, prov, slash + 1);
	} else {
		e = ect_find_symbol(t, NULL, name);
	}
	if (!e)
		return -ENOENT;
	*idx = (uint32_t)(e - t->events);
	return 0;
}

static void set_event(struct trigger *tr, const struct ect_table *t)
{
	tr->event = &t->events[tr->idx];
}

static int parse_gc_pause(struct trigger *tr, const struct ect_table *t, const char *rest,
			  enum trig_op op, char *err, size_t errlen)
{
	tr->gc_pause = true;
	tr->op = op;
	tr->u = parse_duration(rest);
	if (!tr->u || (op != TRIG_GT && op != TRIG_GE)) {
		snprintf(err, errlen, "%s: GCPause takes > or >= and a duration (50ms, 1s)",
			 tr->spec);
		return 1;
	}
	if (find_event(t, "GCSuspendEEBegin_V1", &tr->begin_idx) ||
	    find_event(t, "GCRestartEEEnd_V1", &tr->idx)) {
		snprintf(err, errlen, "%s: the event table has no GCSuspendEEBegin_V1/"
			 "GCRestartEEEnd_V1", tr->spec);
		return 1;
	}
	set_event(tr, t);
	return 0;
}

static int parse_value(struct trigger *tr, const struct ect_field *f, const char *v,
		       char *err, size_t errlen)
{
	char *end;

	tr->intype = f->intype;
	if (f->intype == ECT_UNICODE || f->intype == ECT_ANSI) {
		tr->is_string = true;
		if (tr->op != TRIG_EQ && tr->op != TRIG_NE) {
			snprintf(err, errlen, "%s: a string field takes == or !=", tr->spec);
			return 1;
		}
		snprintf(tr->str, sizeof(tr->str), "%s", v);
		return 0;
	}
	if (f->intype == ECT_STRUCT || f->intype == ECT_GUID || f->intype == ECT_BINARY ||
	    f->count_kind != ECT_COUNT_NONE) {
		snprintf(err, errlen, "%s: field %s cannot be compared", tr->spec, f->name);
		return 1;
	}
	errno = 0;
	if (f->intype == ECT_DOUBLE)
		tr->d = strtod(v, &end);
	else if (f->intype == ECT_INT32 || f->intype == ECT_INT64)
		tr->s = strtoll(v, &end, 0);
	else
		tr->u = strtoull(v, &end, 0);
	if (!*v || *end || errno) {
		snprintf(err, errlen, "%s: '%s' is not a number", tr->spec, v);
		return 1;
	}
	return 0;
}

static int parse_field(struct trigger *tr, const struct ect_table *t, const char *pred,
		       char *err, size_t errlen)
{
	const struct ect_event *e = &t->events[tr->idx];
	struct ect_field_loc loc;
	enum trig_op op;
	size_t oplen;
	const char *at = find_op(pred, &op, &oplen);
	char *name;
	int rc;

	if (!at || at == pred) {
		snprintf(err, errlen, "%s: expected FIELD OP VALUE after ':' (OP: == != < <= > >=)",
			 tr->spec);
		return 1;
	}
	name = strndup(pred, at - pred);
	if (!name)
		return 1;
	rc = ect_payload_field(e, NULL, 0, name, &loc);
	if (rc) {
		snprintf(err, errlen, "%s: %s has no field %s", tr->spec, e->symbol, name);
		free(name);
		return 1;
	}
	tr->field = name;
	tr->op = op;
	tr->fixed = loc.fixed_offset;
	tr->offset = (uint32_t)loc.offset;
	return parse_value(tr, loc.field, at + oplen, err, errlen);
}

int trigger__parse(struct trigger *tr, const char *spec, const struct ect_table *t,
		   char *err, size_t errlen)
{
	const char *colon = strchr(spec, ':');
	char ev[128];
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
	enum trig_op op;
	size_t oplen;

	memset(tr, 0, sizeof(*tr));
	tr->spec = spec;
	if (!strncmp(spec, "GCPause", 7) && find_op(spec + 7, &op, &oplen) == spec + 7)
		return parse_gc_pause(tr, t, spec + 7 + oplen, op, err, errlen);
	if (!n || n >= sizeof(ev)) {
		snprintf(err, errlen, "%s: expected EVENT[:FIELD OP VALUE]", spec);
		return 1;
	}
	memcpy(ev, spec, n);
	ev[n] = '\0';
	if (find_event(t, ev, &tr->idx)) {
		snprintf(err, errlen, "%s: no event %s in the event table", spec, ev);
		return 1;
	}
	set_event(tr, t);
	tr->op = TRIG_ANY;
	return colon ? parse_field(tr, t, colon + 1, err, errlen) : 0;
}

void trigger__free(struct trigger *tr)
{
	free((char *)tr->field);
	free(tr->pause_pid);
	free(tr->pause_ts);
	memset(tr, 0, sizeof(*tr));
}

int trigger__indexes(const struct trigger *tr, uint32_t idx[2])
{
	idx[0] = tr->idx;
	idx[1] = tr->begin_idx;
	return tr->gc_pause ? 2 : 1;
}

static bool compare(enum trig_op op, int c)
{
	switch (op) {
	case TRIG_EQ: return c == 0;
	case TRIG_NE: return c != 0;
	case TRIG_LT: return c < 0;
	case TRIG_LE: return c <= 0;
	case TRIG_GT: return c > 0;
	case TRIG_GE: return c >= 0;
	default: return true;
	}
}

#define CMP(a, b) ((a) < (b) ? -1 : (a) > (b))

static bool match_field(const struct trigger *tr, const struct ect_event *e,
			const void *payload, size_t len)
{
	struct ect_field_loc loc;
	char s[sizeof(tr->str)];
	uint64_t u = 0;

	if (ect_payload_field(e, payload, len, tr->field, &loc))
		return false;
	if (tr->intype == ECT_UNICODE) {
		if (utf16le_to_utf8(loc.p, loc.n, s, sizeof(s)) < 0)
			return false;
		return compare(tr->op, strcmp(s, tr->str));
	}
	if (tr->intype == ECT_ANSI)
		return compare(tr->op, strncmp((const char *)loc.p, tr->str, loc.n));
	if (tr->intype == ECT_DOUBLE) {
		double d;

		memcpy(&d, loc.p, sizeof(d));
		return compare(tr->op, CMP(d, tr->d));
	}
	memcpy(&u, loc.p, loc.n < 8 ? loc.n : 8);
	if (tr->intype == ECT_INT32)
		return compare(tr->op, CMP((int64_t)(int32_t)u, tr->s));
	if (tr->intype == ECT_INT64)
		return compare(tr->op, CMP((int64_t)u, tr->s));
	return compare(tr->op, CMP(u, tr->u));
}

/* GCPause: remember each process's suspend; a restart closes the pause. */
static bool match_pause(struct trigger *tr, uint32_t idx, pid_t pid, uint64_t ts)
{
	size_t i;

	for (i = 0; i < tr->n_pause && tr->pause_pid[i] != pid; i++)
		;
	if (idx == tr->begin_idx) {
		if (i == tr->n_pause) {
			if (GROW(tr->pause_pid, tr->cap_pause, tr->n_pause + 1) ||
			    GROW(tr->pause_ts, tr->cap_pause_ts, tr->n_pause + 1))
				return false;
			tr->pause_pid[tr->n_pause++] = pid;
		}
		tr->pause_ts[i] = ts;
		return false;
	}
	if (i == tr->n_pause || !tr->pause_ts[i] || ts < tr->pause_ts[i])
		return false;
	ts -= tr->pause_ts[i];
	tr->pause_ts[i] = 0;
	return compare(tr->op, CMP(ts, tr->u));
}

bool trigger__match(struct trigger *tr, uint32_t idx, pid_t pid, uint64_t ts,
		    const void *payload, size_t len)
{
	if (tr->gc_pause)
		return (idx == tr->idx || idx == tr->begin_idx) && match_pause(tr, idx, pid, ts);
	if (idx != tr->idx)
		return false;
	(void)pid;
	(void)ts;
	return tr->op == TRIG_ANY || match_field(tr, tr->event, payload, len);
}
