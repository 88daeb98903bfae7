// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * eventpipe.c - an EventPipe session over the diagnostics IPC channel, its
 * stream read incrementally, its events merged into the collector's output
 * (see eventpipe.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/types.h>
#include "clock.h"
#include "grow.h"
#include "collector_event.h"
#include "eventpipe.h"
#include "ep_perfmap.h"

#define LOG_PREFIX "ebpf-collect: "
#include "log.h"
#include "nettrace.h"
#include "pipeline.h"
#include "reorder.h"
#include "selection.h"
#include "event_table.h"
#include "symbolize.h"

#define EP_READ_CHUNK	(256 * 1024)
/* Bytes read from the socket and not yet given to the reader: the session
 * thread waits while the queue holds this much. */
#define EP_QUEUE_MAX	(4 << 20)
/* Bytes the reader may hold (blocks not parsed yet, stacks still
 * referenced): a real runtime writes a sequence point every ~10 MB. */
#define EP_MAX_BUFFERED	(64 << 20)
/* A runtime writes the trace header right after its CollectTracing answer:
 * at stop, a stream without one gets this long, for a session started a
 * moment before, then is dropped. */
#define EP_HEADER_GRACE_MS	250
/* A runtime writes its rundown into the stream (blocking sends) before it
 * answers StopTracing and ends the stream right after, so what comes after
 * the answer is at most what the socket buffers held.  More than this, or
 * a stream still open this long after the answer, is a peer's that ignores
 * the stop, and is cut. */
#define EP_AFTER_ANSWER_BYTES	(4u << 20)
#define EP_AFTER_ANSWER_MS	3000
/* An event stamped this far ahead of the stream's clock (the sync point,
 * carried forward by ours) would sit in the reorder buffer for ever: the
 * stream is refused instead. */
#define EP_MAX_AHEAD_NS		(60 * 1000000000ULL)
/* A runtime defines a few thousand event types, numbered from 1, with tens
 * of fields each, and a region's stacks fit its ~10 MB of buffers: far
 * more is a peer making the reader (and define()'s table by id) grow. */
#define EP_MAX_METADATA		65536
#define EP_MAX_META_ID		(1u << 20)
#define EP_MAX_FIELDS		(256 * 1024)
#define EP_MAX_STACKS		(1024 * 1024)
/* The reader is given the queue this much at a time. */
#define EP_FEED_SLICE		(64 * 1024)

/* A CE_REC_EVENTPIPE record: this, stack_depth u64 frames, the payload. */
struct ep_rec {
	struct ce_header hdr;		/* pid = host pid, tid = host tid */
	const struct nt_metadata *meta;	/* the reader's, valid until eventpipe__free */
	uint64_t capture_tid;
	uint32_t processor;
	uint32_t payload_size;
	uint32_t stack_depth;
	uint32_t lost_before;		/* the runtime's sequence gap found at this event */
	uint8_t activity_id[16];
	uint8_t related_activity_id[16];
};

struct tid_map {
	uint32_t ns, host;
};

struct eventpipe {
	struct dn_socket sock;
	const struct ep_config *cfg;
	uint64_t session;
	int version;		/* CollectTracing version the runtime accepted */
	int fd;
	pthread_t th;		/* session_thread: CollectTracing, then the stream */
	bool th_started;
	bool suspended;		/* waits at start-up for ResumeRuntime */
	volatile bool cancel;	/* the threads give up what they wait for */
	pthread_t stop_th;	/* stop_thread: StopTracing */
	bool stop_started;
	bool stop_cut;		/* the stream was cut at stop (deadline, signal) */
	uint64_t stop_t0;	/* when StopTracing went (mono_ms) */
	uint64_t stop_answered;	/* when it was answered (mono_ms), 0 before */
	uint64_t bytes_at_answer;	/* ep->bytes when stop_poll saw the answer */
	bool answer_seen;
	bool stop_ignored;	/* the stream went on after the answer */

	pthread_mutex_t mu;	/* guards the state and the byte queue below */
	pthread_cond_t room;	/* the queue was emptied */
	enum ep_state state;
	enum ep_fail why;	/* EP_FAILED: why, and the line saying so */
	char msg[PATH_MAX + 512];
	uint8_t *q;
	size_t qlen, qcap;
	bool q_eof;
	int q_err;
	uint64_t bytes;

	bool got_header;	/* the stream began with a valid trace header */
	bool dropped;		/* refused mid-trace (eventpipe__drop) */

	struct nt_reader *rd;
	bool rd_done;		/* end of stream (clean or not) reached */
	bool checked_clock;
	uint64_t freq;
	int64_t clock_ahead;	/* its sync point minus our CLOCK_MONOTONIC then */
	uint8_t *rec;
	size_t rec_cap;
	uint64_t pushed, written;
	uint64_t lost_noted;	/* of the reader's lost count, carried by records */
	uint64_t oversize;	/* payloads over CE_MAX_PAYLOAD, counted lost */
	uint32_t *meta_ids;	/* writer id by the stream's metadata id */
	size_t n_meta_ids;
	/* by the stream's metadata id: what its events are read as in
	 * table_of (eventpipe__event) */
	uint32_t *table_idx;
	size_t n_table_idx;
	const struct ect_table *table_of;
	struct tid_map *tids;	/* thread ids of another pid namespace */
	size_t n_tids, cap_tids;
	bool exited;		/* the process was gone at stop */
	struct ep_perfmap perfmap;	/* the runtime's, at our request */
};

/* ------------------------------------------------------------ session thread */

static void set_state(struct eventpipe *ep, enum ep_state st)
{
	pthread_mutex_lock(&ep->mu);
	ep->state = st;
	pthread_mutex_unlock(&ep->mu);
}

static int collect(struct eventpipe *ep, int version, uint32_t *hr, size_t *got);

/* The line for a CollectTracing that failed with rc. */
static void start_failed(struct eventpipe *ep, int rc, uint32_t hr, size_t got)
{
	const struct dn_socket *s = &ep->sock;
	size_t n = sizeof(ep->msg);
	char hrs[64];

	ep->why = EP_FAIL_RUNTIME;
	if (rc == -EACCES || rc == -EPERM) {
		ep->why = EP_FAIL_ACCESS;
		snprintf(ep->msg, n, "pid %d: cannot connect to %s: %s (the socket belongs to uid "
			 "%u: run as root or as that user)", s->pid, s->path, strerror(-rc),
			 (unsigned)s->uid);
	} else if (rc == -ENOENT || rc == -ECONNREFUSED) {
		ep->why = EP_FAIL_NO_SOCKET;
		snprintf(ep->msg, n, "pid %d: cannot connect to %s: %s", s->pid, s->path,
			 strerror(-rc));
	} else if (rc == -ETIMEDOUT && !got) {
		snprintf(ep->msg, n, "pid %d: the runtime did not answer CollectTracing on %s "
			 "within %d s", s->pid, s->path, DN_EXCHANGE_TIMEOUT_S);
	} else if (rc == -ETIMEDOUT) {
		snprintf(ep->msg, n, "pid %d: the runtime's answer to CollectTracing on %s was not "
			 "complete within %d s (%zu bytes came)", s->pid, s->path,
			 DN_EXCHANGE_TIMEOUT_S, got);
	} else if (rc == -ECANCELED) {
		snprintf(ep->msg, n, "pid %d: stopped before the runtime answered CollectTracing",
			 s->pid);
	} else if (rc == -ECONNRESET) {
		snprintf(ep->msg, n, "pid %d: the runtime closed %s without answering "
			 "CollectTracing", s->pid, s->path);
	} else if (rc == -EBADMSG) {
		snprintf(ep->msg, n, "pid %d: diagnostics socket %s answered CollectTracing with no "
			 "valid IPC reply (%zu bytes, no DOTNET_IPC_V1 server header or no session "
			 "id)", s->pid, s->path, got);
	} else if (rc == -EPROTO && hr) {
		snprintf(ep->msg, n, "pid %d: the runtime rejected CollectTracing: %s", s->pid,
			 dn_hresult_str(hr, hrs, sizeof(hrs)));
	} else {
		snprintf(ep->msg, n, "pid %d: CollectTracing on %s failed: %s", s->pid, s->path,
			 strerror(-rc));
	}
}

/* Append n bytes to the queue, waiting while it holds EP_QUEUE_MAX: memory
 * stays bounded whatever the peer sends.  false: cancelled. */
static bool enqueue(struct eventpipe *ep, const uint8_t *buf, size_t n)
{
	pthread_mutex_lock(&ep->mu);
	while (ep->qlen && ep->qlen + n > EP_QUEUE_MAX && !ep->cancel) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100 * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&ep->room, &ep->mu, &ts);
	}
	if (ep->cancel) {
		pthread_mutex_unlock(&ep->mu);
		return false;
	}
	if (GROW(ep->q, ep->qcap, ep->qlen + n)) {
		pthread_mutex_unlock(&ep->mu);
		return false;
	}
	memcpy(ep->q + ep->qlen, buf, n);
	ep->qlen += n;
	ep->bytes += n;
	pthread_mutex_unlock(&ep->mu);
	return true;
}

/*
 * Start the session (CollectTracing3, or 2 when the runtime rejects 3),
 * then read its stream into the queue until it ends or ep->cancel.  Every
 * exchange has a deadline, every wait looks at ep->cancel within 100 ms:
 * one peer, however slow or hostile, holds up nobody else.
 */
static void *session_thread(void *arg)
{
	struct eventpipe *ep = arg;
	uint8_t *buf = NULL;
	uint32_t hr = 0;
	size_t got = 0;
	int rc, err = 0;

	rc = collect(ep, 3, &hr, &got);
	if (rc == -EPROTO && hr)	/* an older runtime: the .NET 5/6 command */
		rc = collect(ep, 2, &hr, &got);
	if (rc) {
		start_failed(ep, rc, hr, got);
		set_state(ep, EP_FAILED);
		return NULL;
	}
	if (!ep->cfg->shim_perfmap)
		ep_perfmap__enable(&ep->perfmap, &ep->sock, !ep->suspended, &ep->cancel);
	set_state(ep, EP_RUNNING);
	buf = malloc(EP_READ_CHUNK);
	err = buf ? 0 : ENOMEM;
	while (!err && !ep->cancel) {
		struct pollfd pfd = { .fd = ep->fd, .events = POLLIN };
		int pr = poll(&pfd, 1, 100);
		ssize_t n;

		if (pr < 0 && errno != EINTR)
			err = errno;
		if (pr <= 0)
			continue;
		n = read(ep->fd, buf, EP_READ_CHUNK);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : 0;
			break;
		}
		if (!enqueue(ep, buf, n))
			break;
	}
	pthread_mutex_lock(&ep->mu);
	ep->q_eof = true;
	ep->q_err = err;
	pthread_mutex_unlock(&ep->mu);
	free(buf);
	return NULL;
}

/* ------------------------------------------------------------ config */

static int add_provider(struct ep_config *cfg, const char *name, size_t len, uint64_t kw,
			uint32_t level)
{
	for (int i = 0; i < cfg->n; i++) {
		if (strlen(cfg->provs[i].name) != len || strncmp(cfg->provs[i].name, name, len))
			continue;
		cfg->provs[i].keywords |= kw;
		if (level > cfg->provs[i].level)
			cfg->provs[i].level = level;
		return 0;
	}
	if (cfg->n == EP_MAX_PROVIDERS || len >= sizeof(cfg->names[0]))
		return -E2BIG;
	snprintf(cfg->names[cfg->n], sizeof(cfg->names[0]), "%.*s", (int)len, name);
	cfg->provs[cfg->n] = (struct dn_provider){ cfg->names[cfg->n], kw, level };
	cfg->n++;
	return 0;
}

#define SAMPLE_PROFILER	"Microsoft-DotNETCore-SampleProfiler"

/* "Provider[:KEYWORDS[:LEVEL]]" of a provider the event table lacks. */
static int add_spec(struct ep_config *cfg, const char *spec, bool cpu_sampling)
{
	const char *kw = strchr(spec, ':'), *lvl = kw ? strchr(kw + 1, ':') : NULL;
	uint64_t k = kw && kw[1] && kw[1] != ':' ? strtoull(kw + 1, NULL, 16) : ~0ULL;
	uint32_t l = lvl && lvl[1] ? strtoul(lvl + 1, NULL, 10) : 5;
	size_t len = kw ? (size_t)(kw - spec) : strlen(spec);

	/* BPF samples the CPU: the runtime's sampler would count twice */
	if (cpu_sampling && len == strlen(SAMPLE_PROFILER) && !strncmp(spec, SAMPLE_PROFILER, len))
		return 0;
	return add_provider(cfg, spec, len, k, l);
}

int eventpipe__config(struct ep_config *cfg, const struct selection *sel, char *const *extra,
		      int n_extra, bool cpu_sampling, uint32_t buffer_mb)
{
	int err = 0;

	cfg->n = 0;
	/* Always, as dotnet-trace does: the rundown's method and module events
	 * are all that names the frames of methods compiled before the session
	 * and of ReadyToRun code (no perf map or MethodLoad covers them), in
	 * TraceLog as in our reader.  Without it, stacks of a selection such as
	 * DotNETRuntime:0x0:4 were mostly unnamed. */
	cfg->rundown = 1;
	cfg->buffer_mb = buffer_mb;
	for (int i = 0; i < sel->n && !err; i++) {
		const char *name = sel->req[i].prov->name;

		/* the runtime runs its rundown provider itself, at stop */
		if (strstr(name, "Rundown"))
			continue;
		err = add_provider(cfg, name, strlen(name), sel->req[i].keywords,
				   sel->req[i].level);
	}
	for (int i = 0; i < n_extra && !err; i++)
		err = add_spec(cfg, extra[i], cpu_sampling);
	/* a profile's EventPipe-only provider (merged with a --providers one) */
	if (!err && sel->eventpipe)
		err = add_spec(cfg, sel->eventpipe, cpu_sampling);
	return err;
}

/* ------------------------------------------------------------ perf map */

bool eventpipe__exited(const struct eventpipe *ep)
{
	return ep->exited;
}

bool eventpipe__perfmap(const struct eventpipe *ep)
{
	return ep->perfmap.on;
}

/* ------------------------------------------------------------ start */

/* CollectTracing: on success ep->fd is the session's stream. */
static int collect(struct eventpipe *ep, int version, uint32_t *hr, size_t *got)
{
	struct dn_wait w = { mono_ms() + DN_EXCHANGE_TIMEOUT_MS, &ep->cancel };
	struct dn_reply_info info;
	uint8_t buf[65536], *resp = NULL;
	size_t rlen = 0;
	long len;
	int err;

	len = dn_build_collect(buf, sizeof(buf), version, ep->cfg->buffer_mb, ep->cfg->rundown,
			       ep->cfg->provs, ep->cfg->n);
	if (len < 0)
		return len;
	err = dn_command_wait(ep->sock.path, DN_SET_EVENTPIPE, buf[17], buf + DN_IPC_HEADER_SIZE,
			      len - DN_IPC_HEADER_SIZE, &resp, &rlen, hr, &ep->fd, &w, &info);
	*got = info.got;
	if (err)
		return err;
	if (rlen < 8) {
		free(resp);
		close(ep->fd);
		ep->fd = -1;
		return -EBADMSG;
	}
	memcpy(&ep->session, resp, 8);	/* little endian host */
	free(resp);
	ep->version = version;
	return 0;
}

struct eventpipe *eventpipe__start(const struct dn_socket *s, const struct ep_config *cfg,
				   bool suspended, char *err, size_t errsz)
{
	struct eventpipe *ep = calloc(1, sizeof(*ep));

	if (!ep) {
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	ep->sock = *s;
	ep->cfg = cfg;
	ep->fd = -1;
	ep->suspended = suspended;
	ep_perfmap__init(&ep->perfmap);
	ep->state = EP_STARTING;
	pthread_mutex_init(&ep->mu, NULL);
	pthread_cond_init(&ep->room, NULL);
	ep->rd = nt_reader__open_stream(NULL);
	if (!ep->rd) {
		snprintf(err, errsz, "out of memory");
		goto fail;
	}
	if (pthread_create(&ep->th, NULL, session_thread, ep)) {
		snprintf(err, errsz, "cannot start the EventPipe session thread: %s",
			 strerror(errno));
		goto fail;
	}
	ep->th_started = true;
	return ep;
fail:
	eventpipe__free(ep);
	return NULL;
}

enum ep_state eventpipe__state(struct eventpipe *ep, enum ep_fail *why, const char **msg)
{
	enum ep_state st;

	pthread_mutex_lock(&ep->mu);
	st = ep->state;
	pthread_mutex_unlock(&ep->mu);
	if (why)
		*why = ep->why;
	if (msg)
		*msg = ep->msg;
	return st;
}

/* ------------------------------------------------------------ records */

/* The host's id of a thread the runtime knows by its namespace's id. */
static uint32_t host_tid(struct eventpipe *ep, uint64_t tid)
{
	char fn[64];
	struct dirent *d;
	DIR *dp;

	if (ep->sock.nspid == ep->sock.pid)
		return tid;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < ep->n_tids; i++)
			if (ep->tids[i].ns == tid)
				return ep->tids[i].host;
		if (pass)
			break;
		snprintf(fn, sizeof(fn), "/proc/%d/task", ep->sock.pid);
		dp = opendir(fn);
		ep->n_tids = 0;
		while (dp && (d = readdir(dp))) {
			pid_t h = atoi(d->d_name), ns = h > 0 ? dn_nspid(h) : 0;

			if (!ns)
				continue;
			if (GROW(ep->tids, ep->cap_tids, ep->n_tids + 1))
				break;
			ep->tids[ep->n_tids++] = (struct tid_map){ ns, h };
		}
		if (dp)
			closedir(dp);
	}
	return tid;	/* gone already: keep the runtime's id */
}

static uint64_t to_ns(const struct eventpipe *ep, uint64_t ticks)
{
	if (ep->freq == 1000000000ULL || !ep->freq)
		return ticks;
	return (uint64_t)((unsigned __int128)ticks * 1000000000ULL / ep->freq);
}

static int push_event(struct eventpipe *ep, struct reorder *ro, const struct nt_read_event *ev)
{
	size_t need = sizeof(struct ep_rec) + ev->stack_depth * 8ULL + ev->payload_size;
	struct ep_rec *r;
	uint64_t gap;

	need = (need + 7) & ~(size_t)7;
	if (need > ep->rec_cap) {
		uint8_t *nb = realloc(ep->rec, need);

		if (!nb)
			return -ENOMEM;
		ep->rec = nb;
		ep->rec_cap = need;
	}
	memset(ep->rec, 0, sizeof(*r));
	r = (struct ep_rec *)ep->rec;
	r->hdr.timestamp = to_ns(ep, ev->timestamp);
	r->hdr.type = CE_REC_EVENTPIPE;
	r->hdr.size = need;
	r->hdr.pid = ep->sock.pid;
	r->hdr.tid = host_tid(ep, ev->thread_id);
	r->meta = ev->meta;
	r->capture_tid = ev->capture_thread_id == ev->thread_id ? r->hdr.tid :
			 host_tid(ep, ev->capture_thread_id);
	r->processor = ev->processor;
	r->payload_size = ev->payload_size;
	r->stack_depth = ev->stack_depth;
	/* the reader has just counted this thread's gap, if any: it travels with
	 * the event, so the file shows it on the same thread (TraceEvent's
	 * EventsLost) where the runtime lost it */
	gap = nt_reader__lost(ep->rd) - ep->lost_noted;
	r->lost_before = gap > UINT32_MAX ? UINT32_MAX : (uint32_t)gap;
	ep->lost_noted += r->lost_before;
	memcpy(r->activity_id, ev->activity_id, 16);
	memcpy(r->related_activity_id, ev->related_activity_id, 16);
	memcpy(r + 1, ev->stack, ev->stack_depth * 8ULL);
	memcpy((uint8_t *)(r + 1) + ev->stack_depth * 8ULL, ev->payload, ev->payload_size);
	ep->pushed++;
	return reorder__push(ro, r->hdr.timestamp, r, need);
}

/*
 * The stream header's sync point (QPC ticks at the session's start) and
 * frequency: on Linux QPC is CLOCK_MONOTONIC in ns, the BPF side's clock.
 * Another frequency is scaled; a sync point far from this host's
 * CLOCK_MONOTONIC (a time namespace) is reported, not corrected.
 */
static void check_clock(struct eventpipe *ep)
{
	const struct nt_trace_info *info = nt_reader__info(ep->rd);
	uint64_t now, sync;

	ep->checked_clock = true;
	ep->freq = info->freq;
	now = mono_ns();
	sync = to_ns(ep, info->sync_ts);
	ep->clock_ahead = (int64_t)(sync - now);
	if (sync > now + 1000000000ULL || now - sync > 60 * 1000000000ULL)
		pr_warn("pid %d: its EventPipe clock (sync point %llu ns, "
			"%llu ticks/s) is not this host's CLOCK_MONOTONIC (%llu ns): events merged "
			"as timestamped\n", ep->sock.pid, (unsigned long long)sync,
			(unsigned long long)info->freq, (unsigned long long)now);
}

/* Does the reader hold more definitions than a runtime makes?  (ep->msg) */
static bool over_defined(struct eventpipe *ep)
{
	size_t metadata, fields, stacks;

	nt_reader__defined(ep->rd, &metadata, &fields, &stacks);
	if (metadata > EP_MAX_METADATA || fields > EP_MAX_FIELDS)
		snprintf(ep->msg, sizeof(ep->msg), "%zu event types with %zu fields, over %d or "
			 "%d", metadata, fields, EP_MAX_METADATA, EP_MAX_FIELDS);
	else if (stacks > EP_MAX_STACKS)
		snprintf(ep->msg, sizeof(ep->msg), "%zu stacks between sequence points, over %d",
			 stacks, EP_MAX_STACKS);
	else
		return false;
	return true;
}

/* Parse what the reader has and push the complete events.  0, -ERANGE
 * (ep->msg says why), -errno. */
static int parse(struct eventpipe *ep, struct reorder *ro)
{
	struct nt_read_event ev;
	uint64_t limit = 0;
	int rc = NT_READ_AGAIN, err;

	while (!ep->rd_done && (rc = nt_reader__next(ep->rd, &ev)) == 1) {
		if (!ep->checked_clock)
			check_clock(ep);
		if (!limit)
			limit = mono_ns() + ep->clock_ahead + EP_MAX_AHEAD_NS;
		if (to_ns(ep, ev.timestamp) > limit) {	/* would wait in the reorder
							 * buffer for ever */
			snprintf(ep->msg, sizeof(ep->msg), "event at %llu ns, more than %llu s "
				 "ahead of the stream's clock", (unsigned long long)to_ns(ep,
				 ev.timestamp), EP_MAX_AHEAD_NS / 1000000000ULL);
			return -ERANGE;
		}
		if (ev.meta->id > EP_MAX_META_ID) {
			snprintf(ep->msg, sizeof(ep->msg), "metadata id %u, over %u", ev.meta->id,
				 EP_MAX_META_ID);
			return -ERANGE;
		}
		err = push_event(ep, ro, &ev);
		if (err)
			return err;
	}
	if (over_defined(ep))
		return -ERANGE;
	if (!ep->got_header && nt_reader__header_read(ep->rd) && !nt_reader__error(ep->rd))
		ep->got_header = true;
	if (!ep->rd_done && rc != NT_READ_AGAIN)
		ep->rd_done = true;
	return 0;
}

/* Feed the queued bytes to the reader, EP_FEED_SLICE at a time (what one
 * slice's blocks make the reader allocate is checked before the next), and
 * push the complete events. */
static int pump(struct eventpipe *ep, struct reorder *ro, bool *eof)
{
	uint8_t *q;
	size_t qlen, off = 0;
	int err = 0;

	pthread_mutex_lock(&ep->mu);
	q = ep->q;
	qlen = ep->qlen;
	*eof = ep->q_eof;
	ep->q = NULL;
	ep->qlen = ep->qcap = 0;
	pthread_cond_broadcast(&ep->room);
	pthread_mutex_unlock(&ep->mu);
	do {
		size_t n = qlen - off < EP_FEED_SLICE ? qlen - off : EP_FEED_SLICE;

		if (n)
			err = nt_reader__feed(ep->rd, q + off, n);
		off += n;
		if (!err && off == qlen && *eof)
			nt_reader__feed_end(ep->rd);
		if (!err) {
			/* one run: sorted and merged once, not inserted one by one */
			reorder__run_begin(ro);
			err = parse(ep, ro);
			reorder__run_end(ro);
		}
	} while (!err && off < qlen && !ep->rd_done);
	free(q);
	return err;
}

/* The session's thread and connection gone, what it held freed; what it
 * delivered stays (records in the reorder buffer point into the reader). */
static void drop(struct eventpipe *ep)
{
	ep->cancel = true;
	if (ep->th_started) {
		pthread_mutex_lock(&ep->mu);
		pthread_cond_broadcast(&ep->room);
		pthread_mutex_unlock(&ep->mu);
		pthread_join(ep->th, NULL);
		ep->th_started = false;
	}
	if (ep->stop_started) {
		pthread_join(ep->stop_th, NULL);
		ep->stop_started = false;
	}
	if (ep->fd >= 0)
		close(ep->fd);
	ep->fd = -1;
	free(ep->q);
	ep->q = NULL;
	ep->qlen = ep->qcap = 0;
	if (!ep->pushed) {
		nt_reader__close(ep->rd);
		ep->rd = NULL;
	}
	ep->dropped = true;
}

int eventpipe__poll(struct eventpipe *ep, struct reorder *ro)
{
	const char *why;
	bool eof;
	int err;

	if (ep->dropped || ep->rd_done || ep->state != EP_RUNNING)
		return 0;
	err = pump(ep, ro, &eof);
	if (err && err != -ERANGE)
		return err;
	why = err ? strdupa(ep->msg) : nt_reader__error(ep->rd);
	if (!why && nt_reader__buffered(ep->rd) > EP_MAX_BUFFERED) {
		snprintf(ep->msg, sizeof(ep->msg), "pid %d: the EventPipe stream holds %zu MB not "
			 "yet usable (over %d MB between sequence points): dropped the session",
			 ep->sock.pid, nt_reader__buffered(ep->rd) >> 20, EP_MAX_BUFFERED >> 20);
		drop(ep);
		return ep->pushed ? EP_POLL_CUT : EP_POLL_REFUSED;
	}
	if (!why || (eof && !err))	/* an end of stream is told at stop */
		return 0;
	/* nothing usable came (garbage, a header and then a huge claim): no
	 * stream at all; events kept, then bad bytes: a stream cut */
	if (!ep->pushed)
		snprintf(ep->msg, sizeof(ep->msg), "pid %d: diagnostics socket sent no Nettrace "
			 "stream: %s", ep->sock.pid, why);
	else
		snprintf(ep->msg, sizeof(ep->msg), "pid %d: the EventPipe stream is corrupt after "
			 "%llu bytes (%s); kept the %llu events before, dropped the session",
			 ep->sock.pid, (unsigned long long)ep->bytes, why,
			 (unsigned long long)ep->pushed);
	drop(ep);
	return ep->pushed ? EP_POLL_CUT : EP_POLL_REFUSED;
}

const char *eventpipe__message(const struct eventpipe *ep)
{
	return ep->msg;
}

/* ------------------------------------------------------------ stop */

/* StopTracing (and DisablePerfMap) beside the stream's reading: the
 * runtime writes its rundown into the stream before it answers. */
static void *stop_thread(void *arg)
{
	struct eventpipe *ep = arg;
	struct dn_wait w = { mono_ms() + DN_EXCHANGE_TIMEOUT_MS, &ep->cancel };
	uint8_t payload[8];
	int rc;

	memcpy(payload, &ep->session, 8);
	ep_perfmap__disable(&ep->perfmap, &ep->sock, &ep->cancel);
	rc = dn_command_wait(ep->sock.path, DN_SET_EVENTPIPE, DN_EP_STOP_TRACING, payload, 8,
			     NULL, NULL, NULL, NULL, &w, NULL);
	/* a process that has exited has ended the stream itself */
	ep->exited = rc && kill(ep->sock.pid, 0) && errno == ESRCH;
	if (!rc)
		__atomic_store_n(&ep->stop_answered, mono_ms(), __ATOMIC_RELEASE);
	return NULL;
}

int eventpipe__stop_begin(struct eventpipe *ep)
{
	if (ep->dropped || ep->state != EP_RUNNING)
		return 0;
	ep->stop_t0 = mono_ms();
	if (pthread_create(&ep->stop_th, NULL, stop_thread, ep))
		return -errno;
	ep->stop_started = true;
	return 0;
}

/* pump failed at stop: a stream refused (-ERANGE: ep->msg says why) is
 * dropped and told as cut, its events kept; other errors are returned. */
static int stop_failed(struct eventpipe *ep, int rc, char *err, size_t errsz)
{
	if (rc != -ERANGE)
		return rc;
	snprintf(err, errsz, "pid %d: the EventPipe stream is corrupt after %llu bytes (%s); "
		 "kept the %llu events before, dropped the session", ep->sock.pid,
		 (unsigned long long)ep->bytes, ep->msg, (unsigned long long)ep->pushed);
	drop(ep);
	return 1;
}

int eventpipe__stop_poll(struct eventpipe *ep, struct reorder *ro, bool cut, char *err,
			 size_t errsz)
{
	uint64_t answered;
	bool eof = false;
	int rc;

	if (ep->dropped || ep->state != EP_RUNNING)
		return 0;
	if (!ep->got_header) {	/* a runtime sends its header at once: a peer */
		pump(ep, ro, &eof);	/* that has not is not waited for */
		if (!ep->got_header && !eof && mono_ms() < ep->stop_t0 + EP_HEADER_GRACE_MS)
			return EP_STOP_AGAIN;
		if (!ep->got_header) {
			snprintf(err, errsz, "pid %d: diagnostics socket sent no Nettrace stream: "
				 "%llu bytes by the stop, no trace header", ep->sock.pid,
				 (unsigned long long)ep->bytes);
			drop(ep);
			return EP_STOP_NO_STREAM;
		}
	}
	answered = __atomic_load_n(&ep->stop_answered, __ATOMIC_ACQUIRE);
	if (answered && !cut) {
		uint64_t bytes;

		pthread_mutex_lock(&ep->mu);
		bytes = ep->bytes;
		pthread_mutex_unlock(&ep->mu);
		if (!ep->answer_seen) {
			ep->answer_seen = true;
			ep->bytes_at_answer = bytes;
		}
		/* answered, rundown written, and the stream goes on */
		if (bytes - ep->bytes_at_answer > EP_AFTER_ANSWER_BYTES ||
		    mono_ms() >= answered + EP_AFTER_ANSWER_MS)
			cut = ep->stop_ignored = true;
	}
	if (cut && !ep->stop_cut) {	/* the session thread ends within 100 ms */
		ep->stop_cut = true;
		ep->cancel = true;
	}
	if (!ep->rd_done) {
		rc = pump(ep, ro, &eof);
		if (rc)
			return stop_failed(ep, rc, err, errsz);
		if (!eof && !ep->rd_done)
			return EP_STOP_AGAIN;
	}
	while (!ep->rd_done) {		/* the bytes of the last read */
		rc = pump(ep, ro, &eof);
		if (rc)
			return stop_failed(ep, rc, err, errsz);
	}
	if (ep->stop_started) {		/* its exchange has a deadline, or is cancelled */
		pthread_join(ep->stop_th, NULL);
		ep->stop_started = false;
	}
	if (nt_reader__error(ep->rd)) {
		snprintf(err, errsz, "pid %d: the EventPipe stream was cut after %llu bytes "
			 "(%s)%s; kept the %llu events before", ep->sock.pid,
			 (unsigned long long)ep->bytes, nt_reader__error(ep->rd),
			 ep->stop_ignored ? ": it went on after StopTracing was answered" :
			 ep->stop_cut ? ": it had not ended when the stop's time was up" : "",
			 (unsigned long long)ep->pushed);
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------ emit */

struct eventpipe *eventpipe__find(struct eventpipe **eps, int n, const void *rec)
{
	const struct ce_header *h = rec;

	for (int i = 0; i < n; i++)
		if (eps[i] && (uint32_t)eps[i]->sock.pid == h->pid)
			return eps[i];
	return NULL;
}

static int define(struct eventpipe *ep, struct nt_writer *w, const struct nt_metadata *m,
		  uint32_t *id)
{
	struct nt_event_desc d = {
		.provider = m->provider, .event_id = m->event_id, .name = m->name,
		.keywords = m->keywords, .version = m->version, .level = m->level,
		.opcode = m->opcode, .fields = m->fields, .n_fields = m->n_fields,
	};

	if (m->id >= ep->n_meta_ids) {
		size_t n = m->id + 64;
		uint32_t *ni = realloc(ep->meta_ids, n * sizeof(*ni));

		if (!ni)
			return -ENOMEM;
		memset(ni + ep->n_meta_ids, 0, (n - ep->n_meta_ids) * sizeof(*ni));
		ep->meta_ids = ni;
		ep->n_meta_ids = n;
	}
	if (!ep->meta_ids[m->id]) {
		int err = nt_writer__define(w, &d, &ep->meta_ids[m->id]);

		if (err)
			return err;
	}
	*id = ep->meta_ids[m->id];
	return 0;
}

int eventpipe__emit(struct eventpipe *ep, struct nt_writer *w, struct symbolize *sym,
		    const void *rec, size_t len)
{
	const struct ep_rec *r = rec;
	const uint64_t *stack = (const uint64_t *)(r + 1);
	struct nt_event ne = {};
	int err;

	if (len < sizeof(*r) || len < sizeof(*r) + r->stack_depth * 8ULL + r->payload_size)
		return -EINVAL;
	if (r->lost_before) {
		err = nt_writer__note_lost_pid(w, r->hdr.pid, r->capture_tid, r->lost_before);
		if (err)
			return err;
	}
	if (r->payload_size > CE_MAX_PAYLOAD) {	/* TraceLog could not convert the file */
		ep->oversize++;
		return nt_writer__note_lost_pid(w, r->hdr.pid, r->capture_tid, 1);
	}
	err = define(ep, w, r->meta, &ne.metadata_id);
	if (err)
		return err;
	ne.timestamp = r->hdr.timestamp;
	ne.pid = r->hdr.pid;
	ne.thread_id = r->hdr.tid;
	ne.capture_thread_id = r->capture_tid;
	ne.processor = r->processor;
	ne.activity_id = r->activity_id;
	ne.related_activity_id = r->related_activity_id;
	ne.payload = stack + r->stack_depth;
	ne.payload_size = r->payload_size;
	ne.stack = r->stack_depth ? stack : NULL;
	ne.stack_depth = r->stack_depth;
	if (sym) {	/* method events name JIT frames; frames get registered */
		err = symbolize__clr_event(sym, r->meta->provider, r->meta->event_id, r->hdr.pid,
					   ne.capture_thread_id, ne.timestamp, ne.payload,
					   ne.payload_size, ne.stack, ne.stack_depth);
		if (err)
			return err;
	}
	err = nt_writer__write_event(w, &ne);
	if (!err)
		ep->written++;
	return err;
}

/* ------------------------------------------------------------ event */

/* table_idx's values besides 1 + an index */
#define EP_IDX_UNKNOWN	0		/* not looked up yet */
#define EP_IDX_NONE	UINT32_MAX	/* the table has no such event */

/* The table's event for a runtime event: its provider, id and version, or
 * the newest earlier version the table has (pipeline.h, struct
 * pipeline_event).  NULL: none (an EventSource's, or unknown). */
static const struct ect_event *table_event(const struct ect_table *t,
					   const struct nt_metadata *m)
{
	const struct ect_event *ev = NULL;
	int v;

	if (m->event_id > UINT16_MAX || m->version > UINT8_MAX ||
	    !ect_find_provider(t, m->provider))
		return NULL;
	for (v = (int)m->version; v >= 0 && !ev; v--)
		ev = ect_find_id(t, m->provider, (uint16_t)m->event_id, (uint8_t)v);
	return ev;
}

/* The index in t of a metadata id's events, looked up once per id. */
static uint32_t table_index(struct eventpipe *ep, const struct ect_table *t,
			    const struct nt_metadata *m)
{
	const struct ect_event *ev;

	if (ep->table_of != t) {	/* the collector's table, for its whole run */
		free(ep->table_idx);
		ep->table_idx = NULL;
		ep->n_table_idx = 0;
		ep->table_of = t;
	}
	if (m->id >= ep->n_table_idx) {
		size_t n = m->id + 64;
		uint32_t *ni = realloc(ep->table_idx, n * sizeof(*ni));

		if (!ni)
			return EP_IDX_NONE;
		memset(ni + ep->n_table_idx, 0, (n - ep->n_table_idx) * sizeof(*ni));
		ep->table_idx = ni;
		ep->n_table_idx = n;
	}
	if (ep->table_idx[m->id] == EP_IDX_UNKNOWN) {
		ev = table_event(t, m);
		ep->table_idx[m->id] = ev ? (uint32_t)(ev - t->events) + 1 : EP_IDX_NONE;
	}
	return ep->table_idx[m->id];
}

int eventpipe__event(struct eventpipe *ep, const struct ect_table *t, const void *rec,
		     size_t len, struct pipeline_event *out)
{
	const struct ep_rec *r = rec;
	uint32_t idx1;

	if (len < sizeof(*r) || len < sizeof(*r) + r->stack_depth * 8ULL + r->payload_size)
		return 0;
	idx1 = table_index(ep, t, r->meta);
	if (idx1 == EP_IDX_NONE)
		return 0;
	out->hdr = &r->hdr;
	out->idx = idx1 - 1;
	out->ev = &t->events[out->idx];
	out->version = (uint8_t)r->meta->version;
	out->payload = (const uint8_t *)(r + 1) + r->stack_depth * 8ULL;
	out->payload_len = r->payload_size;
	return 1;
}

/* ------------------------------------------------------------ misc */

pid_t eventpipe__pid(const struct eventpipe *ep) { return ep->sock.pid; }
const char *eventpipe__path(const struct eventpipe *ep) { return ep->sock.path; }

void eventpipe__cancel(struct eventpipe *ep)
{
	ep->cancel = true;
}
/* the runtime's sequence gaps */
static uint64_t eventpipe__lost(const struct eventpipe *ep)
{
	return ep && ep->rd ? nt_reader__lost(ep->rd) : 0;
}

int eventpipe__version(const struct eventpipe *ep) { return ep->version; }

void eventpipe__print_summary(const struct eventpipe *ep, FILE *f)
{
	if (!ep)
		return;
	fprintf(f, "ebpf-collect: pid %d: EventPipe session (CollectTracing%d): %llu events, "
		"%llu bytes of stream, %llu lost in the runtime, %llu over " CE_STR(CE_MAX_PAYLOAD)
		" payload bytes counted lost\n", ep->sock.pid, ep->version,
		(unsigned long long)ep->written, (unsigned long long)ep->bytes,
		(unsigned long long)eventpipe__lost(ep), (unsigned long long)ep->oversize);
}

void eventpipe__free(struct eventpipe *ep)
{
	if (!ep)
		return;
	drop(ep);
	ep_perfmap__remove(&ep->perfmap, ep->sock.nspid);
	nt_reader__close(ep->rd);
	pthread_mutex_destroy(&ep->mu);
	pthread_cond_destroy(&ep->room);
	free(ep->rec);
	free(ep->meta_ids);
	free(ep->table_idx);
	free(ep->tids);
	free(ep);
}

/* "10.0.12+abcdef" -> "10.0.12" */
static void short_version(char *v)
{
	char *plus = strchr(v, '+');

	if (plus)
		*plus = 0;
}

int eventpipe__describe(pid_t pid, FILE *f)
{
	struct dn_process_info pi;
	struct dn_socket s;
	uint32_t hr = 0;
	char hrs[64];
	int err;

	err = dn_find_socket(pid, &s);
	if (err == -ENOENT || err == -ESRCH)
		return 0;
	if (err) {
		fprintf(f, "pid %d: cannot look for a .NET diagnostics socket in /proc/%d/root: "
			"%s%s\n", pid, pid, strerror(-err), err == -EACCES ?
			" (another user's process: run as root or as that user)" : "");
		return err;
	}
	err = dn_process_info(s.path, &pi, &hr);
	if (err) {
		fprintf(f, "pid %d: .NET diagnostics socket %s: %s\n", pid, s.path,
			err == -EPROTO && hr ? dn_hresult_str(hr, hrs, sizeof(hrs)) :
			err == -EACCES ? "Permission denied (the socket belongs to another user: "
					 "run as root or as that user)" :
			err == -ETIMEDOUT ? "no whole answer to ProcessInfo within "
					    CE_STR(DN_EXCHANGE_TIMEOUT_S) " s" :
			err == -EBADMSG ? "its answer to ProcessInfo is no IPC reply" :
			strerror(-err));
		return err;
	}
	short_version(pi.runtime_version);
	fprintf(f, "pid %d: EventPipe (.NET %s) over %s; %s\n", pid,
		pi.runtime_version[0] ? pi.runtime_version : "5 or older", s.path, pi.cmdline);
	return 1;
}
