/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * trigger.h - event predicates for --dump-on, --stop-on and --filter:
 *
 *   EVENT                      any event of that symbol (GCEnd_V1)
 *   EVENT:FIELD OP VALUE       a top-level field compared with VALUE
 *                              (ExceptionThrown_V1:ExceptionType==System.Foo,
 *                              GCEnd_V1:Depth>=2); OP is == != < <= > >=,
 *                              strings take == and != only
 *   GCPause OP DURATION        a GC pause (GCSuspendEEBegin_V1 to the same
 *                              process's next GCRestartEEEnd_V1) longer or
 *                              shorter than DURATION (50ms, 1s, 200us)
 *
 * EVENT may carry its provider (DotNETRuntime/GCEnd_V1).  A predicate
 * matches on a runtime event of the event table in the trace (the USDT
 * path); the event that completes it is where the trigger fires.
 */
#ifndef EBPF_COLLECT_TRIGGER_H
#define EBPF_COLLECT_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "event_table.h"

enum trig_op { TRIG_ANY, TRIG_EQ, TRIG_NE, TRIG_LT, TRIG_LE, TRIG_GT, TRIG_GE };

struct trigger {
	const char *spec;		/* as given */
	uint32_t idx;			/* table index of EVENT (GCPause: the restart) */
	const struct ect_event *event;	/* its description */
	uint32_t begin_idx;		/* GCPause: the suspend event's index */
	bool gc_pause;
	const char *field;		/* NULL: TRIG_ANY */
	enum trig_op op;
	bool is_string;
	char str[256];			/* string value (UTF-8) */
	uint64_t u;			/* unsigned fields, durations (ns) */
	int64_t s;			/* signed fields */
	double d;			/* win:Double */
	uint8_t intype;			/* the field's ect_intype */
	bool fixed;			/* the field sits at a fixed offset */
	uint32_t offset;		/* ... this one */
	pid_t *pause_pid;		/* GCPause: suspend start per process */
	uint64_t *pause_ts;
	size_t n_pause, cap_pause, cap_pause_ts;
};

/* Parse spec against table t; on error 1 and a one-line reason in err. */
int trigger__parse(struct trigger *tr, const char *spec, const struct ect_table *t,
		   char *err, size_t errlen);
void trigger__free(struct trigger *tr);

/* Does this event (table index idx) satisfy the predicate?  GCPause keeps
 * its per-process state here, so call it for every event in time order. */
bool trigger__match(struct trigger *tr, uint32_t idx, pid_t pid, uint64_t ts,
		    const void *payload, size_t len);

/* Every table index the predicate looks at (1 or 2); for enabling probes. */
int trigger__indexes(const struct trigger *tr, uint32_t idx[2]);

#endif
