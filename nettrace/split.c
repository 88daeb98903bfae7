// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * split.c - a trace split by process into NetTrace V5 files
 * (nt_split_by_process), for readers that know V5 only.  Two passes over
 * the input: the first finds the processes that get a file (an event of
 * their own beyond the caller's host-wide ones), the second copies each
 * event into its process's file (events of no process into every file)
 * with its stack, activity ids and the sequence gap before it, defining
 * each event in a file the first time it goes there.  Built on the
 * library's public reader and writer only.  A process's own events earn
 * it a file, the caller's weak ones (samples of every process on a host)
 * only when the caller's description of the process says it was
 * selected; the file is named by that description too.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nettrace.h"
#include "grow.h"
#include "outfile.h"
#include "u64_map.h"

#define MAX_META	65536	/* metadata ids of the input a file maps */
#define NAME_MAX_BYTES	64	/* of a process's name in its file's name */

/* what the first pass learns of a process */
struct proc {
	uint32_t pid;
	bool own, weak;		/* has events of its own, weak ones */
	bool described, selected;
	char name[NAME_MAX_BYTES];
};

struct part {
	uint32_t pid;
	struct nt_writer *w;
	char *path;		/* its name; written as outfile_tmp_name(path) */
	uint32_t *meta;		/* input metadata id -> this file's, 0 = not yet */
	uint64_t events;
};

struct splitter {
	const char *dir;
	struct nt_split_opts opts;
	struct proc *procs;
	size_t n_procs, cap_procs;
	struct u64_map by_pid;	/* pid -> index + 1 in procs */
	char stem[PATH_MAX];
	struct nt_trace_info info;
	struct part *parts;
	size_t n, cap;
};

static bool all_zero(const uint8_t *p)
{
	for (int i = 0; i < 16; i++)
		if (p[i])
			return false;
	return true;
}

static struct proc *proc_of(const struct splitter *s, uint32_t pid)
{
	const struct u64_map_ent *e = u64_map__find(&s->by_pid, pid);

	return e ? &s->procs[e->val - 1] : NULL;
}

/* DIR/STEM.PID[.NAME].nettrace, NAME the process's name, sanitized */
static void file_name(const struct splitter *s, uint32_t pid, char *path, size_t len)
{
	const struct proc *p = proc_of(s, pid);
	char name[NAME_MAX_BYTES + 1] = "";
	size_t i;

	for (i = 0; p && p->name[i] && i + 1 < NAME_MAX_BYTES; i++) {
		char c = p->name[i];

		name[i + 1] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			      (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ? c : '_';
		name[0] = '.';
		name[i + 2] = '\0';
	}
	snprintf(path, len, "%s/%s.%u%s.nettrace", s->dir, s->stem, pid, name);
}

static struct part *part_for(struct splitter *s, uint32_t pid, char *err, size_t errlen)
{
	struct nt_trace_info info = s->info;
	char path[PATH_MAX * 2], tmp[PATH_MAX * 2 + 32];
	struct part *p;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->parts[i].pid == pid)
			return &s->parts[i];
	if (GROW(s->parts, s->cap, s->n + 1))
		goto nomem;
	p = &s->parts[s->n];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->meta = calloc(MAX_META, sizeof(*p->meta));
	if (!p->meta)
		goto nomem;
	info.pid = pid;
	info.format = 5;
	file_name(s, pid, path, sizeof(path));
	p->path = strdup(path);
	if (!p->path) {
		free(p->meta);
		goto nomem;
	}
	/* under a temporary name until every file is whole: then renamed
	 * over the files of an earlier split of the same trace */
	outfile_tmp_name(path, tmp, sizeof(tmp));
	p->w = nt_writer__open(tmp, &info);
	if (p->w && nt_writer__set_lost_marker(p->w, s->opts.lost_marker)) {
		nt_writer__abort(p->w);
		p->w = NULL;
		errno = EINVAL;
	}
	if (!p->w) {
		snprintf(err, errlen, "writing %s: %s", path, strerror(errno));
		free(p->meta);
		free(p->path);
		return NULL;
	}
	s->n++;
	return p;
nomem:
	snprintf(err, errlen, "out of memory");
	return NULL;
}

static int define(struct part *p, const struct nt_metadata *m, uint32_t *id)
{
	struct nt_event_desc d = {
		.provider = m->provider, .event_id = m->event_id, .name = m->name,
		.keywords = m->keywords, .version = m->version, .level = m->level,
		.opcode = m->opcode, .fields = m->fields, .n_fields = m->n_fields,
	};

	if (m->id >= MAX_META)
		return -E2BIG;
	if (!p->meta[m->id] && nt_writer__define(p->w, &d, &p->meta[m->id]))
		return -EIO;
	*id = p->meta[m->id];
	return 0;
}

static int copy_event(const struct splitter *s, struct part *p, const struct nt_read_event *ev)
{
	struct nt_event ne = {
		.timestamp = ev->timestamp, .thread_id = ev->thread_id,
		.capture_thread_id = ev->capture_thread_id, .processor = ev->processor,
		.activity_id = all_zero(ev->activity_id) ? NULL : ev->activity_id,
		.related_activity_id = all_zero(ev->related_activity_id) ? NULL :
				       ev->related_activity_id,
		.payload = ev->payload, .payload_size = ev->payload_size,
		.stack = ev->stack_depth ? ev->stack : NULL, .stack_depth = ev->stack_depth,
	};
	int err = define(p, ev->meta, &ne.metadata_id);

	const uint8_t *payload;
	uint32_t len;

	if (s->opts.rewrite) {
		int rc = s->opts.rewrite(ev, &payload, &len, s->opts.rewrite_arg);

		if (rc < 0)
			return rc;
		if (rc) {
			ne.payload = payload;
			ne.payload_size = len;
		}
	}
	if (!err && ev->lost_before)
		err = nt_writer__note_lost(p->w, ev->capture_thread_id, ev->lost_before);
	if (!err)
		err = nt_writer__write_event(p->w, &ne);
	p->events += !err;
	return err;
}

static bool kept(const struct splitter *s, uint32_t pid)
{
	const struct proc *p = proc_of(s, pid);

	return p && (p->own || (p->weak && (!p->described || p->selected)));
}

/* The input for the first pass: a trace whose header reads, in a regular
 * file (a pipe could not be read twice). */
static struct nt_reader *open_input(const char *in, char *err, size_t errlen)
{
	struct nt_reader *r = nt_reader__open(in, NULL);
	const char *why;
	struct stat st;

	if (!r) {
		snprintf(err, errlen, "%s: %s", in, strerror(errno));
		return NULL;
	}
	why = nt_reader__error(r);	/* after open: only the header's */
	if (!why && (stat(in, &st) || !S_ISREG(st.st_mode)))
		why = "not a regular file (a trace is read twice; save it to a file first)";
	if (why) {
		snprintf(err, errlen, "%s: %s", in, why);
		nt_reader__close(r);
		return NULL;
	}
	return r;
}

/* First pass: the processes that get a file. */
static int find_processes(struct splitter *s, const char *in, char *err, size_t errlen)
{
	struct nt_reader *r = open_input(in, err, errlen);
	struct nt_read_event ev;
	int got;

	if (!r)
		return -1;
	while ((got = nt_reader__next(r, &ev)) == 1) {
		struct u64_map_ent *e;
		struct proc *p;
		int sel = 0;

		if (!ev.pid || (s->opts.host_wide && s->opts.host_wide(ev.meta)))
			continue;
		if (u64_map__get(&s->by_pid, ev.pid, &e))
			goto nomem;
		if (!e->val) {
			if (GROW(s->procs, s->cap_procs, s->n_procs + 1))
				goto nomem;
			p = &s->procs[s->n_procs++];
			memset(p, 0, sizeof(*p));
			p->pid = ev.pid;
			e->val = s->n_procs;
		}
		p = &s->procs[e->val - 1];
		if (s->opts.process_info &&
		    s->opts.process_info(&ev, p->name, sizeof(p->name), &sel)) {
			p->described = true;
			p->selected = sel;
		} else if (s->opts.weak && s->opts.weak(&ev)) {
			p->weak = true;
		} else {
			p->own = true;
		}
	}
	if (got < 0)
		snprintf(err, errlen, "%s: %s", in, nt_reader__error(r));
	nt_reader__close(r);
	return got == 0 ? 0 : -1;
nomem:
	snprintf(err, errlen, "out of memory");
	nt_reader__close(r);
	return -1;
}

/* One event into its process's file; pid 0 into every file. */
static int route(struct splitter *s, const struct nt_read_event *ev, char *err, size_t errlen)
{
	struct part *p;
	size_t i;
	int rc;

	if (!ev->pid) {
		for (i = 0; i < s->n; i++)
			if ((rc = copy_event(s, p = &s->parts[i], ev)))
				goto fail;
		return 0;
	}
	if (!kept(s, ev->pid))
		return 0;	/* only host-wide events */
	p = part_for(s, ev->pid, err, errlen);
	if (!p)
		return -1;
	rc = copy_event(s, p, ev);
	if (!rc)
		return 0;
fail:
	snprintf(err, errlen, "writing %s: %s", p->path, strerror(-rc));
	return -1;
}

static void set_stem(struct splitter *s, const char *in)
{
	const char *base = strrchr(in, '/');
	char *dot;

	snprintf(s->stem, sizeof(s->stem), "%s", base ? base + 1 : in);
	dot = strrchr(s->stem, '.');
	if (dot && dot != s->stem)
		*dot = '\0';
}

/* Every file closed and renamed to its name, or, on a failure, every
 * temporary file removed: the names are left as they were (but for the files
 * renamed before a rename that failed). */
static int finish(struct splitter *s, int rc, char *err, size_t errlen)
{
	char tmp[PATH_MAX * 2 + 32];
	size_t i, closed = 0;

	for (i = 0; i < s->n; i++) {
		struct part *p = &s->parts[i];
		int e = rc ? (nt_writer__abort(p->w), 0) : nt_writer__close(p->w, NULL, 0);

		closed += !rc && !e;
		if (e && !rc) {
			snprintf(err, errlen, "writing %s: %s", p->path, strerror(-e));
			rc = -1;
		}
	}
	for (i = 0; i < s->n; i++) {
		struct part *p = &s->parts[i];

		outfile_tmp_name(p->path, tmp, sizeof(tmp));
		if (rc && i < closed)
			unlink(tmp);
		else if (!rc && rename(tmp, p->path)) {
			snprintf(err, errlen, "%s: %s", p->path, strerror(errno));
			rc = -1;
			closed = s->n;	/* the rest are removed */
			unlink(tmp);
		}
		free(p->meta);
		free(p->path);
	}
	free(s->parts);
	free(s->procs);
	u64_map__free(&s->by_pid);
	return rc ? -1 : (int)s->n;
}

int nt_split_by_process(const char *in, const char *dir, const struct nt_split_opts *opts,
			char *err, size_t errlen)
{
	struct splitter s = { .dir = dir };
	struct nt_reader *r;
	struct nt_read_event ev;
	int rc = 0, got;

	if (opts)
		s.opts = *opts;
	err[0] = '\0';
	r = find_processes(&s, in, err, errlen) ? NULL : nt_reader__open(in, NULL);
	if (!r && !err[0])
		snprintf(err, errlen, "%s: %s", in, strerror(errno));
	if (r && mkdir(dir, 0700) && errno != EEXIST) {	/* its files are the owner's only */
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		nt_reader__close(r);
		r = NULL;
	}
	if (!r) {
		free(s.procs);
		u64_map__free(&s.by_pid);
		return -1;
	}
	set_stem(&s, in);
	while (!rc && (got = nt_reader__next(r, &ev)) == 1) {
		if (!s.n)
			s.info = *nt_reader__info(r);
		rc = route(&s, &ev, err, errlen);
	}
	if (!rc && got < 0) {
		snprintf(err, errlen, "%s: %s", in, nt_reader__error(r));
		rc = -1;
	}
	nt_reader__close(r);
	return finish(&s, rc, err, errlen);
}
