/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * lttng_env.h - which of a stock .NET runtime's events it calls its LTTng
 * tracepoints for, as its environment at start-up decides
 * (usdt/README.md "The tracepoint shim").
 *
 * The runtime reads two variables once, at start-up, each spelled with
 * the DOTNET_ prefix or, failing that, COMPlus_: EnableEventLog (a hex
 * number; nonzero turns its LTTng side on, without it its keyword-checked
 * call sites never call a tracepoint) and LTTngConfig,
 * "Provider:KEYWORDS:LEVEL" entries separated by commas: keywords in hex
 * (empty: all), level a decimal number (empty: 5, Verbose; 0: any), a
 * provider's last entry wins, the entry "*" with all keywords and level 5
 * turns every provider fully on; unset or empty, every provider is fully
 * on.  A provider the config names no entry for is off.  An event of
 * level L and keywords K is called when its provider is on, L is at most
 * the provider's level (or that is 0), and K is 0 or shares a bit with
 * the provider's keywords.  Tracing cannot change any of it afterwards.
 */
#ifndef EBPF_COLLECT_LTTNG_ENV_H
#define EBPF_COLLECT_LTTNG_ENV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define LTTNG_ENV_PROVIDERS	16

struct lttng_env {
	bool event_log;		/* EnableEventLog nonzero */
	bool all;		/* every provider fully on (unset, empty, or "*") */
	char config[1024];	/* LTTngConfig as set ("" when not) */
	struct {
		char name[96];
		uint64_t keywords;
		uint32_t level;
	} prov[LTTNG_ENV_PROVIDERS];
	unsigned nr_prov;
};

/* Fill e from pid's environment at its exec.  0; -ENOENT (no such
 * process), -EACCES, or another -errno of reading /proc/PID/environ. */
int lttng_env__read(pid_t pid, struct lttng_env *e);

/* e's providers from an LTTngConfig value (NULL: unset), as the runtime
 * parses it.  event_log is left as it is. */
void lttng_env__parse(struct lttng_env *e, const char *config);

/* Does the runtime call the tracepoint of an event of this provider, level
 * and keywords? */
bool lttng_env__calls(const struct lttng_env *e, const char *provider, uint8_t level,
		      uint64_t keywords);

#endif
