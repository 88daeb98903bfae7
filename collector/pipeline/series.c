// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * series.c - names and retention of a run's files (series.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "grow.h"
#include "series.h"

#ifndef LOG_PREFIX
#define LOG_PREFIX "ebpf-collect: "
#endif
#include "log.h"

int series__init(struct series *s, const char *output, unsigned int keep, const char *tag)
{
	const char *slash = strrchr(output, '/');
	const char *dot = strrchr(output, '.');

	memset(s, 0, sizeof(*s));
	if (!dot || (slash && dot < slash) || dot == output || (slash && dot == slash + 1))
		dot = output + strlen(output);
	s->stem = strndup(output, dot - output);
	s->ext = strdup(*dot ? dot : ".nettrace");
	s->next_no = 1;
	s->keep = keep;
	s->tag = tag ? tag : "";
	if (!s->stem || !s->ext) {
		series__free(s);
		return -ENOMEM;
	}
	return 0;
}

void series__free(struct series *s)
{
	size_t i;

	for (i = 0; i < s->n_paths; i++)
		free(s->paths[i]);
	free(s->paths);
	free(s->stem);
	free(s->ext);
	memset(s, 0, sizeof(*s));
}

int series__next_path(struct series *s, char *buf, size_t len)
{
	for (;; s->next_no++) {
		int n = snprintf(buf, len, "%s.%s%u%s", s->stem, s->tag, s->next_no, s->ext);

		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		if (!access(buf, F_OK))
			continue;	/* taken: the next number */
		if (errno != ENOENT)
			return -errno;	/* an unreachable directory, say */
		s->next_no++;
		return 0;
	}
}

void series__done(struct series *s, const char *path)
{
	char *copy = strdup(path);

	s->written++;
	if (copy && !GROW(s->paths, s->cap_paths, s->n_paths + 1))
		s->paths[s->n_paths++] = copy;
	else
		free(copy);
	while (s->keep && s->n_paths > s->keep) {
		if (unlink(s->paths[0]) && errno != ENOENT)
			pr_warn("--keep: cannot remove %s: %s\n", s->paths[0], strerror(errno));
		else
			s->removed++;
		free(s->paths[0]);
		memmove(s->paths, s->paths + 1, --s->n_paths * sizeof(*s->paths));
	}
}

int series__parse_limit(const char *s, uint64_t *val)
{
	static const struct { const char *unit; double mult; int kind; } units[] = {
		{ "ms", 1e6, 't' }, { "s", 1e9, 't' }, { "m", 60e9, 't' }, { "h", 3600e9, 't' },
		{ "B", 1, 'b' }, { "KB", 1024.0, 'b' }, { "MB", 1048576.0, 'b' },
		{ "GB", 1073741824.0, 'b' }, { "K", 1024.0, 'b' }, { "M", 1048576.0, 'b' },
		{ "G", 1073741824.0, 'b' },
	};
	char *end;
	double v = strtod(s, &end);
	size_t i;

	if (end == s || v <= 0)
		return 0;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit) ||
		    (units[i].kind == 'b' && !strcasecmp(end, units[i].unit))) {
			if (!(v * units[i].mult < 18446744073709551616.0))
				return 0;	/* past 64 bits, inf or nan */
			*val = (uint64_t)(v * units[i].mult);
			return *val ? units[i].kind : 0;
		}
	return 0;
}
