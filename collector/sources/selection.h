/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * selection.h - which manifest events to trace: dotnet-trace's
 * --providers syntax and named profiles, matched against the event table.
 *
 * An event is selected when some request for its provider has
 *   (event level == 0 (LogAlways) || event level <= requested level) &&
 *   (event keywords == 0 || (event keywords & requested keywords) != 0).
 * Unselected probes are never attached, so they cost the runtime only the
 * semaphore check (architecture decision 2).
 */
#ifndef EBPF_COLLECT_SELECTION_H
#define EBPF_COLLECT_SELECTION_H

#include <stddef.h>
#include <stdint.h>

struct ect_table;
struct ect_provider;
struct ect_event;

#define SEL_MAX_REQ 64

struct provider_req {
	const struct ect_provider *prov;
	uint64_t keywords;
	uint8_t level;
};

struct selection {
	struct provider_req req[SEL_MAX_REQ];
	int n;
	/* a profile's providers that only EventPipe has (the runtime's
	 * SampleProfiler): asked of .NET sessions, ignored by USDT targets */
	const char *eventpipe;
};

/* "Provider[:KEYWORDS[:LEVEL]],..." (keywords hex, 0x optional, empty or
 * omitted = all; level 0-5 or a name, omitted = 5 Verbose).  Returns 0, or
 * -EINVAL with a message in err. */
int selection__add_spec(struct selection *s, const struct ect_table *t, const char *spec,
			char *err, size_t errsz);

/* A named profile (see selection__profiles_help).  Providers of the profile
 * that the table does not have are skipped.  0 or -ENOENT (unknown name). */
int selection__add_profile(struct selection *s, const struct ect_table *t, const char *name);

int selection__matches(const struct selection *s, const struct ect_event *ev);

/* The selection's requests of the runtime's own providers (those named
 * Microsoft-Windows-DotNETRuntime*) as a .NET runtime's DOTNET_LTTngConfig,
 * "Provider:KEYWORDS:LEVEL,..." (keywords hex without 0x): one entry per
 * provider, its requests' keywords or-ed and their highest level, since the
 * runtime keeps one entry per provider (the last).  0; -ENOENT when no
 * request is for a runtime provider; -ENOSPC when n is too short (buf "") */
int selection__lttng_config(const struct selection *s, char *buf, size_t n);

/* Text for --help: one line per profile with its providers:keywords:level. */
const char *selection__profiles_help(void);

#endif
