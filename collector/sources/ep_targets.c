// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ep_targets.c - the collector's EventPipe sessions (see ep_targets.h).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "clock.h"
#include "exit_codes.h"
#include "ep_targets.h"
#include "pipeline.h"
#include "event_table.h"
#include "selection.h"

/* -- dotnet: a runtime connects to the port early in start-up */
#define EP_CHILD_SOCKET_NS	(10 * 1000000000ULL)

#define LOG_PREFIX "ebpf-collect: "
#include "log.h"

int ep_targets__split_providers(const struct ect_table *t, const char *spec, char **keep,
				char **extra, int *n_extra, int max)
{
	char *copy = strdup(spec), *save = NULL, *item;
	size_t off = 0;

	*keep = calloc(1, strlen(spec) + 1);
	if (!copy || !*keep) {
		free(copy);
		free(*keep);
		return -ENOMEM;
	}
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		size_t n = strcspn(item, ":");
		char name[256];

		snprintf(name, sizeof(name), "%.*s", (int)n, item);
		if (!ect_find_provider(t, name) && n && *n_extra < max) {
			extra[(*n_extra)++] = strdup(item);
			continue;
		}
		off += sprintf(*keep + off, "%s%s", off ? "," : "", item);
	}
	free(copy);
	return 0;
}

bool ep_targets__all_dotnet(const pid_t *pids, int n)
{
	struct dn_socket s;

	for (int i = 0; i < n; i++)
		if (dn_find_socket(pids[i], &s))
			return false;
	return true;
}

int ep_targets__config(struct ep_targets *t, const struct selection *sel, char *const *extra,
		       int n_extra, bool cpu_sampling, bool quiet)
{
	/* beside the shim: the EventPipe-only providers of a profile, of
	 * --providers, and the rundown, which names what the shim's stacks
	 * touched; the shim leaves the rundown's tracepoints down (tpshim.h) */
	struct selection none = { .eventpipe = sel->eventpipe };

	t->quiet = quiet;
	if (eventpipe__config(&t->cfg, sel, extra, n_extra, cpu_sampling, 256) ||
	    eventpipe__config(&t->cfg_shim, &none, extra, n_extra, cpu_sampling, 256)) {
		pr_warn("too many providers for one EventPipe session (max %d)\n", EP_MAX_PROVIDERS);
		return EXIT_USAGE;
	}
	t->cfg_shim.shim_perfmap = true;
	return EXIT_OK;
}

const char *ep_targets__beside_names(const struct ep_targets *t, char *buf, size_t n)
{
	size_t off = 0;

	buf[0] = 0;
	for (int i = 0; i < t->cfg_shim.n && off < n; i++)
		off += snprintf(buf + off, n - off, "%s%s", i ? ", " : "",
				t->cfg_shim.provs[i].name);
	return buf;
}

/* The exit code of a session that failed to start. */
static int fail_code(enum ep_fail why)
{
	return why == EP_FAIL_ACCESS ? EXIT_NO_PRIV : why == EP_FAIL_NO_SOCKET ? EXIT_NO_PROBES :
	       EXIT_FAIL;
}

/* A session in pid, slot i, under way.  An exit code. */
static int start(struct ep_targets *t, int i, pid_t pid, bool child)
{
	struct dn_socket s;
	char err[512];
	int rc;

	rc = dn_find_socket(pid, &s);
	if (rc == -ESRCH) {
		pr_warn("no such process: %d\n", pid);
		return EXIT_NO_PROCESS;
	}
	if (rc == -ENOENT && child) {
		pr_warn("pid %d: no .NET diagnostics socket (dotnet-diagnostic-%d-*-socket in its "
		     "TMPDIR): started with DOTNET_EnableDiagnostics=0?\n", pid, dn_nspid(pid));
		return EXIT_NO_PROBES;
	}
	if (rc == -ENOENT)	/* the caller's no-probes line said so */
		return EXIT_NO_PROBES;
	if (rc) {
		pr_warn("pid %d: cannot look for its .NET diagnostics socket: %s\n", pid,
		     strerror(-rc));
		return rc == -EACCES ? EXIT_NO_PRIV : EXIT_FAIL;
	}
	t->ep[i] = eventpipe__start(&s, t->beside_shim[i] ? &t->cfg_shim : &t->cfg,
				    child || ep_port__waiting(&t->port, pid), err, sizeof(err));
	if (!t->ep[i]) {
		pr_warn("%s\n", err);
		return EXIT_FAIL;
	}
	t->running[i] = false;
	return EXIT_OK;
}

/* Slot i's session has answered or failed: say so.  EXIT_OK or the exit
 * code of its failure (the session is gone then). */
static int settle(struct ep_targets *t, int i)
{
	enum ep_fail why;
	const char *msg;

	switch (eventpipe__state(t->ep[i], &why, &msg)) {
	case EP_STARTING:
		return EXIT_OK;
	case EP_FAILED:
		pr_warn("%s\n", msg);
		eventpipe__free(t->ep[i]);
		t->ep[i] = NULL;
		return fail_code(why);
	case EP_RUNNING:
		break;
	}
	if (!t->running[i] && t->beside_shim[i]) {
		char names[512];

		t->running[i] = true;
		pr_info("pid %d: EventPipe session beside the tracepoint shim over %s "
			"(CollectTracing%d): %s\n", eventpipe__pid(t->ep[i]),
			eventpipe__path(t->ep[i]), eventpipe__version(t->ep[i]),
			ep_targets__beside_names(t, names, sizeof(names)));
	} else if (!t->running[i]) {
		t->running[i] = true;
		pr_info("pid %d: no USDT provider: EventPipe session over %s (CollectTracing%d%s)\n",
			eventpipe__pid(t->ep[i]), eventpipe__path(t->ep[i]),
			eventpipe__version(t->ep[i]),
			eventpipe__perfmap(t->ep[i]) ? ", perf map enabled" : "");
	}
	return EXIT_OK;
}

static bool signalled(const struct ep_targets *t, sig_atomic_t since)
{
	return t->stop && *t->stop > since;
}

/* Wait until slot i's session (every started one: i < 0) has answered or
 * failed, or a signal came (those still waiting are cancelled: they fail). */
static void wait_started(struct ep_targets *t, int only)
{
	for (;;) {
		bool waiting = false;

		for (int i = 0; i < EP_TARGETS_MAX; i++)
			if (t->ep[i] && (only < 0 || i == only) &&
			    eventpipe__state(t->ep[i], NULL, NULL) == EP_STARTING)
				waiting = true;
		if (!waiting)
			return;
		if (signalled(t, 0))
			for (int i = 0; i < EP_TARGETS_MAX; i++)
				if (t->ep[i] && (only < 0 || i == only))
					eventpipe__cancel(t->ep[i]);
		usleep(10000);
	}
}

int ep_targets__attach(struct ep_targets *t, const pid_t *pids, const bool *cand, int n)
{
	int i, rc, fail = EXIT_NO_PROBES, started = 0, err = EXIT_OK;

	for (i = 0; i < n && i < EP_TARGETS_MAX; i++) {
		if (!cand[i])
			continue;
		rc = start(t, i, pids[i], false);
		if (rc && rc != EXIT_NO_PROBES) {
			err = rc;
			break;
		}
		fail = rc;
	}
	wait_started(t, -1);	/* all of them together */
	for (i = 0; i < n && i < EP_TARGETS_MAX; i++) {
		if (!t->ep[i])
			continue;
		rc = settle(t, i);
		if (rc && rc != EXIT_NO_PROBES && !err)
			err = rc;
		if (rc)
			fail = rc;
		started += !rc;
	}
	if (err)
		return err;
	return started ? EXIT_OK : fail;
}

int ep_targets__attach_one(struct ep_targets *t, int slot, pid_t pid)
{
	if (slot < 0 || slot >= EP_TARGETS_MAX || t->ep[slot])
		return EXIT_NO_PROBES;
	return start(t, slot, pid, false);
}

void ep_targets__wait_child(struct ep_targets *t, pid_t child)
{
	t->child = child;
	t->wait_child = true;
	t->child_deadline = mono_ns() + EP_CHILD_SOCKET_NS;
}

/* The child's runtime connects to the collector's port and waits there
 * (DOTNET_DiagnosticPorts=PORT,suspend) until its session runs: then
 * ep_targets__poll resumes it (ep_port__resume_ready).  0 or -errno. */
static int child_tick(struct ep_targets *t, bool (*has_usdt)(void *ctx, pid_t pid), void *ctx)
{
	bool found = false;
	pid_t pid;
	int rc;

	while ((pid = ep_port__next(&t->port)) > 0)	/* others are resumed at once */
		found |= pid == t->child;
	if (!found) {
		if (mono_ns() < t->child_deadline)
			return 0;
		pr_warn("pid %d: its .NET runtime did not connect to the diagnostic port %s in "
			"%llu s: started with DOTNET_EnableDiagnostics=0?\n", t->child, t->port.path,
			EP_CHILD_SOCKET_NS / 1000000000ULL);
		t->fail = EXIT_NO_PROBES;
		return -ENOENT;
	}
	t->wait_child = false;
	rc = !has_usdt(ctx, t->child) || t->beside_shim[0] ? start(t, 0, t->child, true) : EXIT_OK;
	if (rc == EXIT_OK)
		return 0;
	t->fail = rc;
	return -EPROTO;
}

int ep_targets__listen_child(struct ep_targets *t, char *path, size_t n)
{
	char err[PATH_MAX + 128];

	snprintf(t->port_dir, sizeof(t->port_dir), "/tmp/ebpf-collect-XXXXXX");
	/* 0755: a command that drops privileges still reaches the socket */
	if (!mkdtemp(t->port_dir) || chmod(t->port_dir, 0755)) {
		pr_warn("cannot create a directory for the diagnostic port: %s\n",
			strerror(errno));
		t->port_dir[0] = 0;
		return EXIT_FAIL;
	}
	snprintf(path, n, "%s/dotnet-port", t->port_dir);
	if (ep_port__listen(&t->port, path, err, sizeof(err))) {
		pr_warn("diagnostic port %s\n", err);
		rmdir(t->port_dir);
		t->port_dir[0] = 0;
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int ep_targets__listen(struct ep_targets *t, const char *path)
{
	char err[PATH_MAX + 128];

	if (ep_port__listen(&t->port, path, err, sizeof(err))) {
		pr_warn("--dotnet-port %s\n", err);
		return EXIT_FAIL;
	}
	pr_info("--dotnet-port: listening on %s (start .NET with "
		"DOTNET_DiagnosticPorts=%s,suspend)\n", path, path);
	return EXIT_OK;
}

/* ep_port__resume_ready: is pid's session still starting? */
static bool session_starting(void *ctx, pid_t pid)
{
	struct ep_targets *t = ctx;

	for (int i = 0; i < EP_TARGETS_MAX; i++)
		if (t->ep[i] && eventpipe__pid(t->ep[i]) == pid)
			return eventpipe__state(t->ep[i], NULL, NULL) == EP_STARTING;
	return false;
}

int ep_targets__poll(struct ep_targets *t, struct reorder *ro,
		     bool (*has_usdt)(void *ctx, pid_t pid), void *ctx)
{
	int i, err;

	if (t->wait_child && kill(t->child, 0) == 0 && (err = child_tick(t, has_usdt, ctx)))
		return err;
	for (i = 0; i < EP_TARGETS_MAX; i++) {
		if (!t->ep[i])
			continue;
		err = settle(t, i);	/* --all: sessions started since */
		if (err && !t->all) {
			t->fail = err;
			return -EPROTO;
		}
		if (!t->ep[i])
			continue;
		err = eventpipe__poll(t->ep[i], ro);
		if (err == EP_POLL_REFUSED || err == EP_POLL_CUT) {
			/* --all: the peer is anybody's; it does not decide the exit */
			pr_warn("%s\n", eventpipe__message(t->ep[i]));
			if (t->all)
				continue;
			if (err == EP_POLL_CUT) {
				t->cut = true;
				continue;
			}
			t->fail = EXIT_FAIL;
			return -EPROTO;
		}
		if (err) {
			pr_warn("pid %d: EventPipe stream: %s\n", eventpipe__pid(t->ep[i]),
			     strerror(-err));
			return err;
		}
	}
	/* -- dotnet: its descendants inherit the port; they are not traced,
	 * so they are resumed at once (under --all, host.c takes each) */
	if (!t->all && !t->wait_child)
		while (ep_port__next(&t->port) > 0)
			;
	ep_port__resume_ready(&t->port, session_starting, t);
	return 0;
}

int ep_targets__count(const struct ep_targets *t)
{
	int n = 0;

	for (int i = 0; i < EP_TARGETS_MAX; i++)
		n += t->ep[i] != NULL;
	return n;
}

bool ep_targets__beside_shim(struct ep_targets *t, int i)
{
	t->beside_shim[i] = t->cfg_shim.n > 0;
	return t->beside_shim[i];
}

int ep_targets__count_beside(const struct ep_targets *t)
{
	int n = 0;

	for (int i = 0; i < EP_TARGETS_MAX; i++)
		n += t->ep[i] && t->beside_shim[i];
	return n;
}

bool ep_targets__active(const struct ep_targets *t)
{
	return ep_targets__count(t) > 0;
}

int ep_targets__stop(struct ep_targets *t, struct reorder *ro)
{
	sig_atomic_t signals = t->stop ? *t->stop : 0;
	uint64_t deadline = mono_ns() + EP_STOP_TIMEOUT_MS * 1000000ULL;
	bool pending[EP_TARGETS_MAX] = {}, cut = false, any, no_stream = false;
	char msg[512];
	int i, rc;

	for (i = 0; i < EP_TARGETS_MAX; i++) {
		if (!t->ep[i])
			continue;
		if (eventpipe__state(t->ep[i], NULL, NULL) == EP_STARTING) {
			eventpipe__cancel(t->ep[i]);	/* never answered: nothing to stop */
			pr_info("pid %d: its runtime had not answered CollectTracing by the stop\n",
				eventpipe__pid(t->ep[i]));
			continue;
		}
		rc = eventpipe__stop_begin(t->ep[i]);
		if (rc) {
			pr_warn("pid %d: cannot start StopTracing: %s\n", eventpipe__pid(t->ep[i]),
				strerror(-rc));
			return rc;
		}
		pending[i] = true;
	}
	do {
		if (!cut && (mono_ns() >= deadline || signalled(t, signals))) {
			cut = true;
			pr_debug("EventPipe: cutting the streams still open\n");
		}
		any = false;
		for (i = 0; i < EP_TARGETS_MAX; i++) {
			if (!pending[i])
				continue;
			rc = eventpipe__stop_poll(t->ep[i], ro, cut, msg, sizeof(msg));
			if (rc == EP_STOP_AGAIN) {
				any = true;
				continue;
			}
			pending[i] = false;
			if (rc < 0) {
				pr_warn("pid %d: EventPipe stream: %s\n", eventpipe__pid(t->ep[i]),
				     strerror(-rc));
				return rc;
			}
			if (rc == EP_STOP_NO_STREAM) {
				pr_warn("%s\n", msg);
				if (!t->all)
					no_stream = true;
			} else if (rc) {
				pr_warn("%s\n", msg);
				t->cut = true;
			} else if (eventpipe__exited(t->ep[i])) {
				pr_info("pid %d exited during the trace; its EventPipe stream ended "
					"with it\n", eventpipe__pid(t->ep[i]));
			}
		}
		if (any)
			usleep(5000);
	} while (any);
	if (no_stream) {	/* -p: a target of the user's gave nothing */
		t->fail = EXIT_FAIL;
		return -EPROTO;
	}
	return 0;
}

/* One CE_REC_EVENTPIPE record: 0, -EINVAL (malformed), -errno. */
static int emit(struct ep_targets *t, struct nt_writer *w, struct symbolize *sym,
		const void *rec, size_t len)
{
	struct eventpipe *ep = eventpipe__find(t->ep, EP_TARGETS_MAX, rec);

	return ep ? eventpipe__emit(ep, w, sym, rec, len) : -EINVAL;
}

static int pipeline_emit(void *ctx, const struct pipeline_sink *s, const void *rec, size_t len)
{
	int err = emit(ctx, s->w, s->sym, rec, len);

	if (err == -EINVAL) {	/* a record of no session, or malformed */
		(*s->bad_records)++;
		return 0;
	}
	return err < 0 ? err : 1;
}

/* One CE_REC_EVENTPIPE record as the consumers read it (pipeline.h: the
 * source's event). */
static int pipeline_event(void *ctx, const struct ect_table *tab, const void *rec, size_t len,
			  struct pipeline_event *out)
{
	struct ep_targets *t = ctx;
	struct eventpipe *ep = eventpipe__find(t->ep, EP_TARGETS_MAX, rec);

	return ep ? eventpipe__event(ep, tab, rec, len, out) : 0;
}

const struct pipeline_source_ops ep_targets_source_ops = {
	.first_type = CE_REC_EVENTPIPE,
	.last_type = CE_REC_EVENTPIPE,
	.emit = pipeline_emit,
	.event = pipeline_event,
};

void ep_targets__print_summary(const struct ep_targets *t, FILE *f)
{
	for (int i = 0; i < EP_TARGETS_MAX; i++)
		eventpipe__print_summary(t->ep[i], f);
}

void ep_targets__free(struct ep_targets *t)
{
	ep_port__close(&t->port);
	if (t->port_dir[0])
		rmdir(t->port_dir);
	t->port_dir[0] = 0;
	for (int i = 0; i < EP_TARGETS_MAX; i++) {
		eventpipe__free(t->ep[i]);
		t->ep[i] = NULL;
	}
}
