// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lttng_env.c - a stock .NET runtime's LTTng configuration read from its
 * environment (collector/sources/lttng_env.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "proc_env.h"
#include "lttng_env.h"

#define ALL_KEYWORDS	(~0ULL)
#define LEVEL_VERBOSE	5

/* the runtime's CLRConfig lookup: DOTNET_NAME, else COMPlus_NAME */
static int clr_config(pid_t pid, const char *name, char *val, size_t len)
{
	char var[64];
	int err;

	snprintf(var, sizeof(var), "DOTNET_%s", name);
	err = proc_env_get(pid, var, val, len);
	if (err != -ENOENT)
		return err;
	snprintf(var, sizeof(var), "COMPlus_%s", name);
	return proc_env_get(pid, var, val, len);
}

/* a component of an entry as a NUL-terminated number text ("" when empty
 * or too long to be one) */
static const char *num_text(const char *f, size_t len, char *buf, size_t n)
{
	if (len >= n)
		len = 0;
	memcpy(buf, f, len);
	buf[len] = 0;
	return buf;
}

/* one entry, [s, end): Provider[:KEYWORDS[:LEVEL[:...]]] */
static void parse_entry(struct lttng_env *e, const char *s, const char *end)
{
	const char *f[3], *q = s;
	size_t len[3], name_len, nf = 0;
	uint64_t keywords = ALL_KEYWORDS;
	uint32_t level = LEVEL_VERBOSE;
	char num[32];
	unsigned i;

	while (nf < 3) {	/* the first three ':'-separated components */
		const char *c = memchr(q, ':', end - q);

		f[nf] = q;
		len[nf++] = (c ? c : end) - q;
		if (!c)
			break;
		q = c + 1;
	}
	name_len = len[0];
	if (!name_len || name_len >= sizeof(e->prov[0].name))
		return;	/* no provider: the runtime drops the entry */
	if (nf > 1 && *num_text(f[1], len[1], num, sizeof(num)))
		keywords = strtoull(num, NULL, 16);
	if (nf > 2 && *num_text(f[2], len[2], num, sizeof(num)))
		level = (uint32_t)atoi(num);
	if (name_len == 1 && *s == '*') {
		/* only all keywords at Verbose turn everything on; any other
		 * "*" entry names no provider and is dropped */
		if (keywords == ALL_KEYWORDS && level == LEVEL_VERBOSE) {
			e->all = true;
			e->nr_prov = 0;
		}
		return;
	}
	for (i = 0; i < e->nr_prov; i++)
		if (strlen(e->prov[i].name) == name_len &&
		    !strncasecmp(e->prov[i].name, s, name_len))
			break;
	if (i == e->nr_prov) {
		if (e->nr_prov == LTTNG_ENV_PROVIDERS)
			return;
		e->nr_prov++;
	}
	memcpy(e->prov[i].name, s, name_len);
	e->prov[i].name[name_len] = 0;
	e->prov[i].keywords = keywords;
	e->prov[i].level = level;
}

void lttng_env__parse(struct lttng_env *e, const char *config)
{
	const char *s = config;

	e->nr_prov = 0;
	e->all = !config || !*config;
	snprintf(e->config, sizeof(e->config), "%s", config ? config : "");
	while (s && *s) {
		const char *comma = strchr(s, ',');
		const char *end = comma ? comma : s + strlen(s);

		parse_entry(e, s, end);
		s = comma ? comma + 1 : NULL;
	}
}

int lttng_env__read(pid_t pid, struct lttng_env *e)
{
	char val[sizeof(e->config)];
	int err;

	memset(e, 0, sizeof(*e));
	err = clr_config(pid, "EnableEventLog", val, sizeof(val));
	if (err && err != -ENOENT)
		return err;
	e->event_log = !err && strtoul(val, NULL, 16) != 0;
	err = clr_config(pid, "LTTngConfig", val, sizeof(val));
	if (err && err != -ENOENT)
		return err;
	lttng_env__parse(e, err ? NULL : val);
	return 0;
}

bool lttng_env__calls(const struct lttng_env *e, const char *provider, uint8_t level,
		      uint64_t keywords)
{
	unsigned i;

	if (!e->event_log)
		return false;
	for (i = 0; i < e->nr_prov; i++) {	/* an entry after "*" overrides it */
		if (strcasecmp(e->prov[i].name, provider))
			continue;
		if (level > e->prov[i].level && e->prov[i].level)
			return false;
		return !keywords || (keywords & e->prov[i].keywords);
	}
	return e->all;
}
