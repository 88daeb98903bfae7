// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * recorder.c - records after the reorder buffer (recorder.h).
 *
 * Plain tracing writes every record at once.  --rotate ends the file when
 * it is old or big enough and goes on in the next one (nt_writer__next_file:
 * the same metadata ids, a complete trace per file).  The flight recorder
 * keeps its window of records (flight.c), the runtime's method events also
 * go to the symbolizer at once, so that a frame in a dump is named even when
 * its method was compiled long before; a dump replays the window's records
 * through the same emit path into a new file, names its frames and closes it.
 * Alone it writes nothing until a dump, in this process.
 *
 * With --rotate (the node daemon's always-on mode) the rotated series is
 * written as records come, exactly as plain --rotate writes it, and the
 * window holds only --flight-recorder's time, for the incident dumps
 * (SIGUSR1, --dump-on).  Memory is then bounded by the window, not by the
 * rotation period, and no rotation replays minutes of records at once.
 * There is one writer and one symbolize state, and both are in the middle
 * of the rotated file when an incident comes: a second writer would need a
 * second symbolize state over the same symbolizer's tables (which ranges a
 * file still has to name is per file, the lookups are not), a split of
 * symbolize.c that touches every source.  Instead the incident forks: the
 * child has a copy-on-write snapshot of the window, the writer and the
 * symbolize state, lets go of its copy of the rotated file without writing
 * to it (nt_writer__drop_file), writes the dump and _exits; the parent
 * goes on writing the rotated file and reaps the child at its ticks (the
 * dump then counts, --keep-dumps prunes).  The child is the forking thread
 * alone: it uses the writer, the symbolizer, malloc (fork-safe in glibc)
 * and its own log sink on write(2) (another thread may hold stderr's lock),
 * never BPF, sockets or the exporters.
 */
#define LOG_PREFIX "ebpf-collect: "
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/types.h>
#include "clock.h"
#include <bpf/libbpf.h>
#include "exit_codes.h"
#include "log.h"
#include "collector_event.h"
#include "event_table.h"
#include "flight.h"
#include "nettrace.h"
#include "pipeline.h"
#include "recorder.h"
#include "symbolize.h"
#include "utf16.h"

/* Without a size bound the window is bounded by this many bytes anyway. */
#define FLIGHT_DEFAULT_MAX	(1ULL << 30)
/* Records are kept this much longer than the window: a SIGUSR1 dump is
 * written once the reorder buffer has passed the signal's time, by when up
 * to one poll period (100 ms) of newer records are in the window too. */
#define FLIGHT_SLACK_NS		(1000ULL * 1000 * 1000)
/* A --dump-on trigger that matches again within the window of its last dump
 * (at least this long) writes no file of its own: one burst of matching
 * events makes one file, and files do not overlap. */
#define TRIGGER_HOLD_NS		(1000ULL * 1000 * 1000)

volatile sig_atomic_t dump_requested;
static uint64_t usr1_ts;	/* when the SIGUSR1 was seen: the dump's end */

static int parse_list(struct trigger *out, int *nr, const char *const *specs, int n,
		      const char *opt, const struct pipeline *p)
{
	const struct recorder_opts *o = &p->rec.o;
	char err[320];
	uint32_t idx[2];
	int i, k, m;

	for (i = 0; i < n; i++) {
		if (trigger__parse(&out[i], specs[i], p->table, err, sizeof(err))) {
			pr_warn("%s %s\n", opt, err);
			return EXIT_USAGE;
		}
		*nr = i + 1;
		if (!strcmp(opt, "--filter") && (!out[i].field || out[i].gc_pause)) {
			pr_warn("--filter %s: expected EVENT:FIELD OP VALUE\n", specs[i]);
			return EXIT_USAGE;
		}
		m = trigger__indexes(&out[i], idx);
		for (k = 0; k < m; k++)
			if (!o->selected(o->selected_ctx, &p->table->events[idx[k]])) {
				pr_warn("%s %s: %s is not among the selected events (add its "
					"keyword with --providers): it would never fire\n", opt,
					specs[i], p->table->events[idx[k]].symbol);
				return EXIT_USAGE;
			}
	}
	return EXIT_OK;
}

int recorder__init(struct pipeline *p, const struct recorder_opts *o)
{
	struct recorder *r = &p->rec;
	int ret;

	r->o = *o;
	ret = parse_list(r->dump_on, &r->nr_dump_on, o->dump_on, o->nr_dump_on, "--dump-on", p);
	if (!ret)
		ret = parse_list(r->stop_on, &r->nr_stop_on, o->stop_on, o->nr_stop_on,
				 "--stop-on", p);
	if (!ret)
		ret = parse_list(r->filter, &r->nr_filter, o->filter, o->nr_filter, "--filter", p);
	if (ret)
		return ret;
	r->series = o->flight || o->rotate_ns || o->rotate_bytes;
	r->writes = !o->flight || o->rotate_ns || o->rotate_bytes;
	if (r->series && series__init(&r->files, o->output, o->keep, NULL))
		goto nomem;
	if (o->flight && series__init(&r->incidents, o->output, o->keep_dumps, "dump-"))
		goto nomem;
	if (o->flight) {
		/* the window serves the dumps only, whatever --rotate says */
		r->fr = flight__new(o->fr_ns ? o->fr_ns + FLIGHT_SLACK_NS : 0,
				    o->fr_bytes ? o->fr_bytes : FLIGHT_DEFAULT_MAX);
		if (!r->fr)
			goto nomem;
	}
	return EXIT_OK;
nomem:
	pr_warn("out of memory\n");
	return EXIT_FAIL;
}

static void reap_dumps(struct recorder *r, bool wait);

void recorder__free(struct recorder *r)
{
	int i;

	reap_dumps(r, true);
	for (i = 0; i < r->nr_dump_on; i++)
		trigger__free(&r->dump_on[i]);
	for (i = 0; i < r->nr_stop_on; i++)
		trigger__free(&r->stop_on[i]);
	for (i = 0; i < r->nr_filter; i++)
		trigger__free(&r->filter[i]);
	if (r->fr)
		series__free(&r->incidents);
	flight__free(r->fr);
	r->fr = NULL;
	if (r->series)
		series__free(&r->files);
}

const char *recorder__first_path(struct recorder *r)
{
	int err;

	if (!r->writes)
		return NULL;
	if (!r->series) {
		snprintf(r->path, sizeof(r->path), "%s", r->o.output);
		return r->path;
	}
	err = series__next_path(&r->files, r->path, sizeof(r->path));
	if (err) {
		pr_warn("cannot create output %s: %s\n", r->o.output, strerror(-err));
		return NULL;
	}
	return r->path;
}

/* ------------------------------------------------------------ records */

/* A runtime event's table index and payload, or false for anything else. */
static bool clr_fields(const struct pipeline *p, const void *rec, size_t len, uint32_t *idx,
		       const uint8_t **payload, uint32_t *plen)
{
	const struct ce_clr_event *e = rec;

	if (e->hdr.type != CE_REC_CLR_EVENT || len < sizeof(*e) ||
	    len != sizeof(*e) + (e->ustack_depth + e->kstack_depth) * 8ULL + e->payload_len ||
	    CE_COOKIE_INDEX(e->cookie) >= p->table->n_events ||
	    (e->flags & CE_F_PAYLOAD_TRUNCATED))
		return false;
	*idx = CE_COOKIE_INDEX(e->cookie);
	*payload = (const uint8_t *)(e + 1) + (e->ustack_depth + e->kstack_depth) * 8ULL;
	*plen = e->payload_len;
	return true;
}

/* The runtime's end-of-trace rundown: it names the frames of what came before. */
static bool is_rundown(const struct pipeline *p, const void *rec, size_t len)
{
	const uint8_t *payload;
	uint32_t idx, plen;

	return clr_fields(p, rec, len, &idx, &payload, &plen) &&
	       !strcmp(p->table->events[idx].provider->name, "Microsoft-Windows-DotNETRuntimeRundown");
}

static bool any_match(struct trigger *t, int n, uint32_t idx, const struct ce_header *h,
		      const uint8_t *p, uint32_t plen, const char **which)
{
	bool hit = false;
	int i;

	/* every predicate sees every event: GCPause keeps per-process state */
	for (i = 0; i < n; i++)
		if (trigger__match(&t[i], idx, h->pid, h->timestamp, p, plen) && !hit) {
			hit = true;
			*which = t[i].spec;
		}
	return hit;
}

static bool filtered_out(struct recorder *r, uint32_t idx, const struct ce_header *h,
			 const uint8_t *p, uint32_t plen)
{
	int i;

	for (i = 0; i < r->nr_filter; i++)
		if (r->filter[i].idx == idx &&
		    !trigger__match(&r->filter[i], idx, h->pid, h->timestamp, p, plen))
			return true;
	return false;
}

static int dump(struct pipeline *p, uint64_t from, uint64_t to, const char *why, bool incident);

static uint64_t trigger_hold(const struct recorder *r)
{
	return r->o.fr_ns > TRIGGER_HOLD_NS ? r->o.fr_ns : TRIGGER_HOLD_NS;
}

/* Filters, learning and triggers of one runtime event; *dump_now for --dump-on. */
static int clr_checks(struct pipeline *p, const void *rec, size_t len, bool *keep,
		      bool *dump_now, const char **why)
{
	struct recorder *r = &p->rec;
	const struct ce_header *h = rec;
	const struct ect_event *ev;
	const uint8_t *pl;
	const char *which = NULL;
	uint32_t idx, plen;
	int err;

	if (!clr_fields(p, rec, len, &idx, &pl, &plen))
		return 0;
	if (r->nr_filter && filtered_out(r, idx, h, pl, plen)) {
		r->filtered++;
		*keep = false;
		return 0;
	}
	ev = &p->table->events[idx];
	if (r->fr && p->sym) {
		err = symbolize__learn(p->sym, ev->provider->name, ev->id, h->pid, h->timestamp,
				       pl, plen);
		if (err)
			return err;
	}
	if (r->nr_stop_on && !r->stop_ts &&
	    any_match(r->stop_on, r->nr_stop_on, idx, h, pl, plen, &which)) {
		r->stop_ts = h->timestamp;
		*r->o.stop = 1;
		pr_info("--stop-on %s: pid %u tid %u; stopping\n", which, h->pid, h->tid);
	}
	if (r->nr_dump_on && any_match(r->dump_on, r->nr_dump_on, idx, h, pl, plen, &which)) {
		if (r->last_trigger_dump && h->timestamp < r->last_trigger_dump + trigger_hold(r)) {
			r->triggers_held++;
		} else {
			*dump_now = true;
			*why = which;
		}
	}
	return 0;
}

bool recorder__past_stop(const struct pipeline *p, const void *rec, size_t len)
{
	const struct ce_header *h = rec;

	return p->rec.stop_ts && h->timestamp > p->rec.stop_ts && !is_rundown(p, rec, len);
}

/* A record into the file, or counted while a rotation found no room for
 * the next one (start_next). */
static int write_now(struct pipeline *p, const void *rec, size_t len)
{
	if (p->rec.no_file) {
		p->rec.unwritten++;
		p->rec.unwritten_total++;
		return 0;
	}
	return pipeline__emit(p, rec, len);
}

int recorder__route(struct pipeline *p, const void *rec, size_t len)
{
	struct recorder *r = &p->rec;
	const struct ce_header *h = rec;
	bool keep = true, dump_now = false;
	const char *why = NULL;
	int err;

	err = clr_checks(p, rec, len, &keep, &dump_now, &why);
	if (err || !keep)
		return err;
	if (!r->fr)
		return write_now(p, rec, len);
	err = flight__push(r->fr, h->timestamp, rec, len);
	if (err) {
		pr_warn("flight recorder: %s\n", strerror(-err));
		return err;
	}
	r->seen++;
	if (h->timestamp > r->last_pushed)
		r->last_pushed = h->timestamp;
	if (r->writes && (err = write_now(p, rec, len)))
		return err;
	if (!dump_now)
		return 0;
	r->last_trigger_dump = h->timestamp;
	return dump(p, h->timestamp > r->o.fr_ns ? h->timestamp - r->o.fr_ns : 0, h->timestamp,
		    why, true);
}

int recorder__note_lost(struct pipeline *p, uint32_t n)
{
	struct recorder *r = &p->rec;
	struct loss_note ln = {
		.hdr = { .timestamp = r->last_pushed, .type = CE_REC_LOSS_NOTE,
			 .size = sizeof(ln) },
		.n = n,
	};

	int err;

	if (r->fr && ((err = flight__push(r->fr, ln.hdr.timestamp, &ln, sizeof(ln))) ||
		      !r->writes))
		return err;
	return nt_writer__note_lost(p->w, LOSS_CAPTURE_THREAD, n);
}

/* ------------------------------------------------------------ --filter in BPF */

/* The BPF form of a predicate whose field sits at a fixed offset; false when
 * it has none (user space evaluates it then, as it does every predicate). */
static bool kernel_form(const struct trigger *tr, struct ce_filter *f)
{
	static const uint8_t fop[] = {
		[TRIG_EQ] = CE_FOP_EQ, [TRIG_NE] = CE_FOP_NE, [TRIG_LT] = CE_FOP_LT,
		[TRIG_LE] = CE_FOP_LE, [TRIG_GT] = CE_FOP_GT, [TRIG_GE] = CE_FOP_GE,
	};
	size_t n = ect_intype_size(tr->intype);

	memset(f, 0, sizeof(*f));
	if (!tr->fixed || tr->offset > UINT16_MAX || tr->op == TRIG_ANY)
		return false;
	f->op = fop[tr->op];
	f->offset = (uint16_t)tr->offset;
	if (tr->intype == ECT_UNICODE) {
		if (2 * strlen(tr->str) + 2 > CE_FILTER_STR_MAX)
			return false;
		f->kind = CE_FK_STRING;
		f->str_len = (uint16_t)utf8_to_utf16le(tr->str, strlen(tr->str), f->str);
		return f->str_len <= CE_FILTER_STR_MAX;
	}
	if (tr->is_string || tr->intype == ECT_DOUBLE || !n || n > 8)
		return false;
	f->size = (uint8_t)n;
	f->kind = tr->intype == ECT_INT32 || tr->intype == ECT_INT64 ? CE_FK_SIGNED :
		  CE_FK_UNSIGNED;
	f->value = f->kind == CE_FK_SIGNED ? (uint64_t)tr->s : tr->u;
	return true;
}

int recorder__kernel_filters(struct recorder *r, struct bpf_map *map, bool loaded)
{
	struct ce_filter f;
	uint32_t done[8];
	int i, k, n = 0, err;

	for (i = 0; i < r->nr_filter; i++) {
		const struct trigger *tr = &r->filter[i];

		for (k = 0; k < n && done[k] != tr->idx; k++)
			;
		if (k < n || !kernel_form(tr, &f)) {
			if (loaded)
				pr_info("--filter %s: in user space (%s)\n", tr->spec, k < n ?
					"a second filter on the event" : "the field has no fixed offset");
			continue;
		}
		done[n++] = tr->idx;
		if (!loaded)
			continue;
		err = bpf_map__update_elem(map, &tr->idx, sizeof(tr->idx), &f, sizeof(f), 0);
		if (err) {
			pr_warn("--filter %s: cannot load it into the kernel: %s\n", tr->spec,
				strerror(-err));
			return err;
		}
		pr_info("--filter %s: in the kernel (offset %u)\n", tr->spec, f.offset);
	}
	return n;
}

bool recorder__has_filter(const struct recorder *r, uint32_t idx)
{
	int i;

	for (i = 0; i < r->nr_filter; i++)
		if (r->filter[i].idx == idx)
			return true;
	return false;
}

/* ------------------------------------------------------------ files */

/* --split-by-process: one V5 file per process of the file just completed. */
static void split_file(const struct recorder *r, const char *path)
{
	char err[512];
	int n;

	if (!r->o.split_dir)
		return;
	n = nt_split_by_process(path, r->o.split_dir, &own_split_opts, err, sizeof(err));
	if (n < 0)
		pr_warn("--split-by-process: %s\n", err);
	else
		pr_info("--split-by-process: %s: %d files in %s\n", path, n, r->o.split_dir);
}

void recorder__file_done(struct recorder *r, const char *path)
{
	split_file(r, path);
	if (r->series)
		series__done(&r->files, path);
}

void print_salvage(const char *path, int err, const struct nt_salvage *salv)
{
	pr_warn("%s: %s: kept the first %llu bytes, %llu events, %s; %llu events did not "
		"fit%s\n", path, strerror(-err), (unsigned long long)salv->bytes,
		(unsigned long long)salv->events,
		salv->finalized ? "as a complete trace" : "cut at a block boundary",
		(unsigned long long)salv->lost, salv->finalized ? " and are counted lost in it" : "");
}

static int replay_one(void *ctx, const void *rec, size_t len)
{
	struct pipeline *p = ctx;
	struct recorder *r = &p->rec;
	uint64_t ts = ((const struct ce_header *)rec)->timestamp;

	if (!r->file_first)
		r->file_first = ts;
	r->again = ts <= r->again_to;	/* the summary counts it once */
	if (ts > r->counted_to)
		r->counted_to = ts;
	return pipeline__emit(p, rec, len);
}

/* A dump that could not be written: the file it began goes (it would be a
 * part of a window; one not created is not ours to remove). */
static void dump_failed(const char *path, int err, bool created)
{
	if (!created)
		pr_warn("flight recorder: cannot create %s: %s; no dump\n", path, strerror(-err));
	else if (unlink(path) && errno != ENOENT)
		pr_warn("flight recorder: cannot write %s: %s; cannot remove it either: %s\n",
			path, strerror(-err), strerror(errno));
	else
		pr_warn("flight recorder: cannot write %s: %s; no dump, the file removed\n",
			path, strerror(-err));
}

/* The window's records with from <= ts <= to into path, a new file of the
 * writer (which is between files).  0, or -errno with the file removed and
 * the one line printed. */
static int write_dump(struct pipeline *p, const char *path, uint64_t from, uint64_t to,
		      const char *why)
{
	struct recorder *r = &p->rec;
	struct loss_summary loss = { 0 };
	struct loss_summary_event sev;
	uint64_t last = to < r->last_pushed ? to : r->last_pushed;
	int err, err2;

	err = nt_writer__next_file(p->w, path, NULL, 0, NULL);
	if (err) {
		dump_failed(path, err, false);
		return err;
	}
	if (p->sym)
		symbolize__new_file(p->sym);
	r->file_records = r->file_lost = r->file_first = 0;
	r->again_to = r->counted_to;
	err = flight__replay(r->fr, from, to, replay_one, p);
	r->again = false;
	if (!err && p->sym)
		err = symbolize__finish(p->sym, last + 1);
	loss.events_written = r->file_records;
	loss.other_drops = r->file_lost;
	/* no salvage: a dump is whole or not at all */
	err2 = nt_writer__next_file(p->w, NULL, err ? NULL : loss_summary__event(&sev, &loss, p->w),
				    last, NULL);
	if (err || err2) {
		dump_failed(path, err ? err : err2, true);
		return err ? err : err2;
	}
	pr_info("flight recorder (%s): wrote %s: %llu events, %llu lost, the %.3f s up to "
		"%llu; complete %.0f ms after it\n", why, path,
		(unsigned long long)r->file_records, (unsigned long long)r->file_lost,
		r->file_first && r->file_first < to ? (to - r->file_first) / 1e9 : 0.0,
		(unsigned long long)to, (mono_ns() - to) / 1e6);
	return 0;
}

/* ------------------------------------------------------------ forked dumps */

static int child_shows[LOG_DEBUG2 + 1];

/* The dump process's log sink: one write(2) per message, never stdio. */
static int child_print(enum log_level level, const char *fmt, va_list ap)
{
	char buf[1024];
	int n;

	if (level > LOG_DEBUG2 || !child_shows[level])
		return 0;
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < 0)
		return n;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	return (int)write(STDERR_FILENO, buf, n);
}

/* In the forked process: the dump, and nothing of the rotated file. */
static int dump_child(struct pipeline *p, const char *path, uint64_t from, uint64_t to,
		      const char *why)
{
	int lv;

	for (lv = LOG_WARN; lv <= LOG_DEBUG2; lv++)
		child_shows[lv] = log_enabled(lv);
	log_set_print(child_print);
	nt_writer__drop_file(p->w);
	p->rec.writes = false;	/* a write error names the dump, not the rotated file */
	return write_dump(p, path, from, to, why) ? 1 : 0;
}

/* Forked dump i ended (waitpid said got, st): counted, a written one goes
 * into the dumps' series (--keep-dumps), and off the list. */
static void dump_ended(struct recorder *r, int i, pid_t got, int st)
{
	if (got > 0 && WIFEXITED(st) && !WEXITSTATUS(st)) {
		series__done(&r->incidents, r->dumping[i].path);
		r->dumps++;
	} else {
		r->dumps_failed++;	/* the process said why, unless killed */
		if (got < 0)
			pr_warn("flight recorder: cannot wait for the process writing %s: %s; "
				"counted as failed\n", r->dumping[i].path, strerror(errno));
		else if (WIFSIGNALED(st)) {
			unlink(r->dumping[i].path);
			pr_warn("flight recorder: the process writing %s ended by signal %d; "
				"no dump, the file removed\n", r->dumping[i].path, WTERMSIG(st));
		}
	}
	free(r->dumping[i].path);
	r->dumping[i] = r->dumping[--r->nr_dumping];
}

/* The forked dumps that ended; with wait, every one (waiting for them). */
static void reap_dumps(struct recorder *r, bool wait)
{
	int i = 0, st = 0;
	pid_t got;

	while (i < r->nr_dumping) {
		got = waitpid(r->dumping[i].pid, &st, wait ? 0 : WNOHANG);
		if (got < 0 && errno == EINTR)
			continue;
		if (got == 0)
			i++;
		else
			dump_ended(r, i, got, st);
	}
}

/* An incident dump beside the rotated file: forked (see the top). */
static int fork_dump(struct pipeline *p, const char *path, uint64_t from, uint64_t to,
		     const char *why)
{
	struct recorder *r = &p->rec;
	int st = 0;
	char *copy;
	pid_t pid;

	reap_dumps(r, false);
	if (r->nr_dumping == RECORDER_MAX_DUMPING) {	/* the oldest first */
		while ((pid = waitpid(r->dumping[0].pid, &st, 0)) < 0 && errno == EINTR)
			;
		dump_ended(r, 0, pid, st);
	}
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	fflush(stderr);
	pid = fork();
	if (pid == 0)
		_exit(dump_child(p, path, from, to, why));
	if (pid < 0) {
		int err = -errno;

		free(copy);
		r->dumps_failed++;
		pr_warn("flight recorder: cannot start writing %s: %s; no dump\n", path,
			strerror(-err));
		return err == -ENOMEM ? err : 0;
	}
	r->dumping[r->nr_dumping].pid = pid;
	r->dumping[r->nr_dumping++].path = copy;
	return 0;
}

/*
 * Write the window's records with from <= ts <= to into the next file: of
 * the flight recorder's own series (the exit dump), or, an incident
 * (SIGUSR1, --dump-on), of the dumps' series with its own --keep-dumps
 * budget.  Beside a rotated file (writes) an incident is written by a
 * forked process.  -ENOMEM stops the run; any other failure is counted
 * (the run goes on and exits 1).
 */
static int dump(struct pipeline *p, uint64_t from, uint64_t to, const char *why, bool incident)
{
	struct recorder *r = &p->rec;
	struct series *ser = incident ? &r->incidents : &r->files;
	char path[sizeof(r->path)];
	int err;

	err = series__next_path(ser, path, sizeof(path));
	if (err) {
		r->dumps_failed++;
		pr_warn("flight recorder: cannot name a dump of %s: %s; no dump\n", r->o.output,
			strerror(-err));
		return 0;
	}
	if (r->writes)
		return fork_dump(p, path, from, to, why);
	memcpy(r->path, path, sizeof(path));
	err = write_dump(p, path, from, to, why);
	if (err) {
		r->dumps_failed++;
		return err == -ENOMEM ? err : 0;
	}
	series__done(ser, path);
	r->dumps++;
	return 0;
}

/*
 * Start the series' next file.  When it cannot be made (a full disk, no
 * inodes left) the run goes on without one: records are counted, not
 * written, and every rotation tries again; the file that then starts says
 * how many were lost before it, so TraceEvent counts them too.  -ENOMEM
 * stops the run; any other failure leaves it to the stop to report.
 */
static int start_next(struct pipeline *p, const char *old)
{
	struct recorder *r = &p->rec;
	int err;

	/* a retry keeps the name the failed start took */
	err = r->no_file ? 0 : series__next_path(&r->files, r->path, sizeof(r->path));
	if (!err)
		err = nt_writer__next_file(p->w, r->path, NULL, 0, NULL);
	if (err) {
		if (!r->no_file)
			pr_warn("--rotate: cannot start %s: %s; counting events, not writing "
				"them, until a file can be started\n", r->path, strerror(-err));
		r->no_file = err;
		return err == -ENOMEM ? err : 0;
	}
	if (r->no_file) {
		uint64_t n = r->unwritten;

		while (!err && n) {
			uint32_t k = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;

			err = nt_writer__note_lost(p->w, LOSS_CAPTURE_THREAD, k);
			n -= k;
		}
		pr_warn("--rotate: now %s; %llu records after %s were not written\n", r->path,
			(unsigned long long)r->unwritten, old);
		r->no_file = 0;
		r->unwritten = 0;
		if (err)
			return err;
	} else {
		pr_info("--rotate: now %s\n", r->path);
	}
	if (p->sym)
		symbolize__new_file(p->sym);
	return 0;
}

/* Close the file and go on in the next one. */
static int rotate(struct pipeline *p, uint64_t now)
{
	struct recorder *r = &p->rec;
	struct loss_summary tot, loss;
	struct loss_summary_event sev;
	struct nt_salvage salv = { 0 };
	char old[sizeof(r->path)];
	int err;

	memcpy(old, r->path, sizeof(old));
	r->file_start = now;
	if (r->no_file)		/* a file could not be started: try again */
		return start_next(p, r->last_done);
	err = p->sym ? symbolize__finish(p->sym, p->last_ts + 1) : 0;
	p->hooks.losses(p->hooks.ctx, &tot);
	loss = tot;
	loss.ringbuf_drops -= r->base.ringbuf_drops;
	loss.truncated_payloads -= r->base.truncated_payloads;
	loss.truncated_stacks -= r->base.truncated_stacks;
	loss.other_drops -= r->base.other_drops;
	loss.events_written = r->file_records;
	if (!err)
		err = nt_writer__next_file(p->w, NULL, loss_summary__event(&sev, &loss, p->w),
					   p->last_ts, &salv);
	if (err && salv.kept) {	/* the file system filled up ending it */
		print_salvage(old, err, &salv);
		return err;
	}
	if (err) {
		pr_warn("--rotate: cannot finish %s: %s; removed it\n", old, strerror(-err));
		return err;
	}
	recorder__file_done(r, old);
	pr_info("--rotate: %s complete (%llu events)\n", old, (unsigned long long)r->file_records);
	memcpy(r->last_done, old, sizeof(old));
	r->file_records = 0;
	r->base = tot;
	return start_next(p, old);
}

/* SIGUSR1's dump is due: the reorder buffer passed the signal's time
 * (*at).  The poll returns at the signal: now is its time. */
static bool usr1_due(uint64_t now, uint64_t watermark, uint64_t *at)
{
	if (dump_requested && !usr1_ts)
		usr1_ts = now;
	if (!usr1_ts || watermark < usr1_ts)
		return false;
	dump_requested = 0;
	*at = usr1_ts;
	usr1_ts = 0;
	return true;
}

int recorder__tick(struct pipeline *p, uint64_t now, uint64_t watermark)
{
	struct recorder *r = &p->rec;
	uint64_t at;
	int err;

	if (!r->file_start)
		r->file_start = now;
	if (r->fr) {
		reap_dumps(r, false);
		if (usr1_due(now, watermark, &at) &&
		    (err = dump(p, at > r->o.fr_ns ? at - r->o.fr_ns : 0, at, "SIGUSR1", true)))
			return err;
	}
	if (!r->writes || !r->series || (!nt_writer__has_file(p->w) && !r->no_file))
		return 0;
	if ((r->o.rotate_bytes && nt_writer__bytes(p->w) >= r->o.rotate_bytes) ||
	    (r->o.rotate_ns && now - r->file_start >= r->o.rotate_ns))
		return rotate(p, now);
	return 0;
}

uint64_t recorder__horizon(const struct recorder *r, uint64_t watermark)
{
	if (!r->fr)
		return watermark;
	return watermark > r->o.fr_ns ? watermark - r->o.fr_ns : 0;
}

int recorder__finish(struct pipeline *p)
{
	struct recorder *r = &p->rec;
	uint64_t to;

	reap_dumps(r, true);
	if (!r->fr || r->writes || !r->seen)	/* the rotated file ends as plain --rotate's */
		return 0;
	to = r->stop_ts ? r->stop_ts : r->last_pushed;
	return dump(p, to > r->o.fr_ns ? to - r->o.fr_ns : 0, to, "exit", false);
}

void recorder__print_summary(const struct recorder *r, uint64_t kernel_filter_drops)
{
	struct flight_stats st;

	if (r->nr_filter)
		pr_warn("--filter: %llu events dropped in the kernel, %llu in user space\n",
			(unsigned long long)kernel_filter_drops, (unsigned long long)r->filtered);
	if (r->triggers_held)
		pr_warn("--dump-on: %llu matches inside the window of an earlier dump wrote no "
			"file of their own\n", (unsigned long long)r->triggers_held);
	if (!r->fr)
		return;
	flight__stats(r->fr, &st);
	pr_warn("flight recorder: %llu records seen, %llu dumps (%llu failed); window now %llu "
		"records, %.1f MB%s\n", (unsigned long long)r->seen, (unsigned long long)r->dumps,
		(unsigned long long)r->dumps_failed,
		(unsigned long long)st.records, st.bytes / 1048576.0,
		st.evicted_early ? " (the size bound shortened the window)" : "");
}

bool recorder__failed(const struct recorder *r)
{
	return r->dumps_failed > 0;
}
