// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * daemon.c - `ebpf-collect daemon`: the collector, always on, for a node.
 *
 *   ebpf-collect daemon [--config FILE] [-o DIR] [COLLECT-OPTIONS...]
 *
 * The config file and the always-on defaults: collector/daemon_config.c.
 *
 * The daemon is a small supervisor: the trace runs in a child (collect_main)
 * and the parent only waits for signals.  SIGTERM/SIGINT stop the child the
 * way they stop `ebpf-collect` (files completed) and the daemon exits 0;
 * SIGUSR1 is passed on (flight-recorder dump); SIGHUP re-reads the config.
 *
 * A new config is checked whole before it touches the running trace: the
 * file and its option names here, then every check the collector makes
 * before it attaches (collect_check: values, their combination, event
 * table, selection, privileges, kernel, pids), the same code, in a child
 * of its own (argp ends the process at a bad value).  Only then is the
 * running trace stopped and a new one started; a config that fails is
 * logged in one line, FILE:LINE and the cause, and the trace goes on with
 * the previous one.  At the start the same checks end the daemon with the
 * collector's exit code (64 for a bad option), as does a child that ends
 * on its own, so systemd sees missing privileges (4) or a bad option (64).
 * A separate process rather than a re-exec: the parent keeps the original
 * arguments and the journal's PID, and the child's libbpf state never has
 * to be torn down in place.
 *
 * --metrics belongs to the daemon, not to the trace: the daemon binds the
 * port and serves it (metrics_http.c) for as long as the config names the
 * same address, so a reload never takes the endpoint down.  The trace
 * renders its text as it would and hands it over through a mapping the
 * daemon made before the fork (metrics_shm.c); every 0.5 s the daemon
 * serves it with the counters of the traces that ended added
 * (metrics_carry.c: they never go back across a reload) and its own
 * process and build (metrics_self.c), the trace's CPU and memory
 * included.  The alternative, counters kept in the shared mapping and
 * incremented by the trace, would tie the mapping's layout to every
 * family and label the trace has; the text is the one interface both
 * already share.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#define LOG_PREFIX "ebpf-collect daemon: "
#include "clock.h"
#include "commands.h"
#include "log.h"
#include "daemon_config.h"
#include "grow.h"
#include "metrics_agg.h"
#include "metrics_carry.h"
#include "metrics_http.h"
#include "metrics_self.h"
#include "metrics_shm.h"

/* collect_check gets this long; it reads nothing but /proc and its files */
#define CHECK_TIMEOUT_MS	10000
/* what is kept of its messages: the cause is the last line */
#define CHECK_OUTPUT_MAX	8192
/* how often the endpoint's text is made again, as the trace does */
#define METRICS_TICK_MS		500

/* The daemon's --metrics: its server, the trace's text, the counters of
 * traces that ended. */
static struct {
	struct mhttp *http;
	char *addr;		/* what http listens on */
	struct metrics_shm *shm;
	struct mcarry *carry;
	char *text;		/* the trace's last whole text */
	pid_t writer;
} mx;

static int make_dir(const char *dir)
{
	char path[4096], *s;

	snprintf(path, sizeof(path), "%s", dir);
	for (s = path + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(path, 0750) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(path, 0750) && errno != EEXIST)
		return -errno;
	/* the collector's file numbering needs to see into it */
	return access(path, W_OK | X_OK) ? -errno : 0;
}

struct run_file {
	char stamp[32];		/* trace-STAMP.N.nettrace: runs sort by start */
	unsigned long no;
	char name[256];
};

static int run_file_cmp(const void *a, const void *b)
{
	const struct run_file *x = a, *y = b;
	int c = strcmp(x->stamp, y->stamp);

	return c ? c : (x->no > y->no) - (x->no < y->no);
}

/* The collector prunes only the files of its own run (--keep): without
 * this, every restart or reload would leave up to KEEP more for good.  The
 * earlier runs together keep their newest KEEP, so DIR holds at most twice
 * KEEP files of the daemon. */
static void prune_earlier_runs(const struct plan *p)
{
	struct run_file *v = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *e;
	DIR *d = p->keep ? opendir(p->dir) : NULL;

	while (d && (e = readdir(d))) {
		struct run_file f;
		int end = 0;

		if (sscanf(e->d_name, "trace-%31[0-9TZ].%lu.nettrace%n", f.stamp, &f.no, &end) != 2 ||
		    e->d_name[end] || !end || strlen(e->d_name) >= sizeof(f.name))
			continue;
		strcpy(f.name, e->d_name);
		if (GROW(v, cap, n + 1))
			break;
		v[n++] = f;
	}
	if (d)
		closedir(d);
	if (n > p->keep)
		qsort(v, n, sizeof(*v), run_file_cmp);
	for (i = 0; n > p->keep && i < n - p->keep; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", p->dir, v[i].name);
		if (unlink(path))
			pr_warn("--keep: cannot remove %s: %s\n", path, strerror(errno));
	}
	free(v);
}

/* The option an error names: the first "--NAME" in the cause that one
 * argument of p from the config or the command line gives (a default's
 * has no line to name); 0 when none does. */
static int arg_named_in(const struct plan *p, const char *cause)
{
	const char *m;
	int i, found = 0;

	for (m = strstr(cause, "--"); m && !found; m = strstr(m + 2, "--")) {
		size_t n = strspn(m + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");

		for (i = 1; n && i < p->argv.n; i++) {
			const char *a = p->argv.v[i];

			if (!p->from.v[i][0] || strncmp(a, m, n + 2) ||
			    (a[n + 2] && a[n + 2] != '='))
				continue;
			if (found) {	/* given twice: no one line to name */
				found = 0;
				break;
			}
			found = i;
		}
	}
	return found;
}

/* The cause in what collect_check printed: its last line but argp's "Try
 * `ebpf-collect --help'", without the "ebpf-collect: " in front, printable. */
static void last_cause(char *out, char *cause, size_t size)
{
	char *line = NULL, *s, *nl;

	for (s = out; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		if (*s && strncmp(s, "Try `", 5))
			line = s;
		if (!nl)
			break;
	}
	if (!line)
		line = "";
	if (!strncmp(line, "ebpf-collect: ", 14))
		line += 14;
	for (s = line; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
	snprintf(cause, size, "%s", line);
}

/* What collect_check prints, until it ends or the deadline; kept up to
 * CHECK_OUTPUT_MAX - 1 bytes.  False when it did not end in time. */
static bool read_check(int fd, char *out)
{
	uint64_t deadline = mono_ms() + CHECK_TIMEOUT_MS;
	size_t got = 0;
	char sink[4096];

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int left = mono_ms_left(deadline);
		ssize_t n;

		if (left <= 0)
			return false;
		if (poll(&pfd, 1, left) < 0 && errno != EINTR)
			return false;
		if (!pfd.revents)
			continue;
		if (got < CHECK_OUTPUT_MAX - 1)
			n = read(fd, out + got, CHECK_OUTPUT_MAX - 1 - got);
		else
			n = read(fd, sink, sizeof(sink));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (got < CHECK_OUTPUT_MAX - 1)
			got += n;
		out[got] = 0;
	}
	out[got] = 0;
	return true;
}

static int *check_arg_at;	/* shared with the parent: cli_arg_index at exit */

static void report_arg_index(void)
{
	*check_arg_at = cli_arg_index;
}

/* collect_check on p's argv, in a child: argp ends the process at a bad
 * value and the collector's options are global state.  0 when it passes;
 * else the code the trace would exit with and p->err = "WHERE: CAUSE"
 * (WHERE for a bad option only: its config line, the command line, or the
 * config file when the options clash). */
static int check_plan(struct plan *p)
{
	char *out = malloc(CHECK_OUTPUT_MAX), cause[900];
	int fds[2] = { -1, -1 }, status, code, i = 0;
	int *at = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);
	bool done;
	pid_t pid;

	if (!out || at == MAP_FAILED || pipe2(fds, O_CLOEXEC)) {
		snprintf(p->err, sizeof(p->err), "cannot check the config: %s", strerror(errno));
		code = EXIT_FAIL;
		goto out;
	}
	*at = 0;
	fflush(NULL);
	pid = fork();
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		check_arg_at = at;
		atexit(report_arg_index);
		exit(collect_check(p->argv.n, p->argv.v));
	}
	close(fds[1]);
	if (pid < 0) {
		snprintf(p->err, sizeof(p->err), "cannot check the config: %s", strerror(errno));
		code = EXIT_FAIL;
		goto out;
	}
	done = read_check(fds[0], out);
	if (!done)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	code = !done ? EXIT_FAIL : WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAIL;
	if (!done) {
		snprintf(p->err, sizeof(p->err), "the collector's checks of the config did not "
			 "end within %d s", CHECK_TIMEOUT_MS / 1000);
	} else if (code) {
		last_cause(out, cause, sizeof(cause));
		if (!cause[0])
			snprintf(cause, sizeof(cause), "the collector's checks failed (exit %d)",
				 code);
		if (code == EXIT_USAGE)
			i = *at > 0 && *at < p->from.n ? *at : arg_named_in(p, cause);
		if (code != EXIT_USAGE)
			snprintf(p->err, sizeof(p->err), "%s", cause);
		else if (i && p->from.v[i][0])
			snprintf(p->err, sizeof(p->err), "%s: %s", p->from.v[i], cause);
		else
			snprintf(p->err, sizeof(p->err), "%s: %s",
				 p->config ? p->config : "command line", cause);
	}
out:
	if (fds[0] >= 0)
		close(fds[0]);
	if (at != MAP_FAILED)
		munmap(at, sizeof(int));
	free(out);
	return code;
}

static void log_start(const struct plan *p)
{
	char line[8192];
	size_t off = 0;
	int i;

	if (!log_enabled(LOG_INFO))
		return;
	for (i = 1; i < p->argv.n && off < sizeof(line); i++)
		off += snprintf(line + off, sizeof(line) - off, " %s", p->argv.v[i]);
	pr_info("starting: ebpf-collect%s\n", line);
}

/* The config and the command line as the collector's argv, checked whole:
 * 0, or the exit code with the message in p->err (p freed). */
static int load_plan(struct plan *p, int argc, char **argv, bool starting)
{
	int err;

	if (make_plan(p, argc, argv))
		return EXIT_USAGE;
	err = make_dir(p->dir);
	if (err) {
		snprintf(p->err, sizeof(p->err), "cannot write into %s: %s", p->dir,
			 strerror(-err));
		plan_free(p);
		return EXIT_OUTPUT;
	}
	if (starting)	/* before the checks' messages, as the trace's own */
		log_start(p);
	err = check_plan(p);
	if (err)
		plan_free(p);
	return err;
}

/* The address --metrics names in p (the last one given), or NULL. */
static const char *metrics_addr(const struct plan *p)
{
	const char *addr = NULL;
	int i;

	for (i = 1; i < p->argv.n; i++) {
		const char *a = p->argv.v[i];

		if (!strncmp(a, "--metrics=", 10))
			addr = a + 10;
		else if (!strcmp(a, "--metrics") && i + 1 < p->argv.n)
			addr = p->argv.v[++i];
	}
	return addr;
}

/* The endpoint's text again: the trace's, the carried counters, the
 * daemon's process and build. */
static void metrics_tick(pid_t trace)
{
	struct mbuf b = { 0 };
	char *text = NULL;
	size_t len;
	pid_t writer;

	if (!mx.http)
		return;
	if (metrics_shm__read(mx.shm, &text, &len, &writer) == 1) {
		free(mx.text);
		mx.text = text;
		mx.writer = writer;
	}
	mcarry__render(mx.carry, mx.text ? mx.text : "", mx.writer, &b);
	metrics_self__render(&b, trace);
	if (b.failed)
		free(b.p);	/* out of memory: the previous text stays */
	else
		mhttp__publish(mx.http, b.p, b.len);
}

/* Serve what p's --metrics names: the running server stays when the
 * address is the same.  0, or -1 with the one-line reason logged. */
static int metrics_serve(const struct plan *p, pid_t trace)
{
	const char *addr = metrics_addr(p);
	char err[512];

	if (mx.http && (!addr || strcmp(addr, mx.addr))) {
		mhttp__stop(mx.http);
		mx.http = NULL;
		free(mx.addr);
		mx.addr = NULL;
	}
	metrics_shm_inherited = addr ? mx.shm : NULL;
	if (!addr || mx.http)
		return 0;
	if (!mx.shm && !(mx.shm = metrics_shm__new())) {
		pr_warn("--metrics %s: cannot map the trace's metrics: %s\n", addr, strerror(errno));
		return -1;
	}
	/* even if the bind fails below: the trace must not try it itself */
	metrics_shm_inherited = mx.shm;
	if (!mx.carry && !(mx.carry = mcarry__new())) {
		pr_warn("--metrics %s: %s\n", addr, strerror(ENOMEM));
		return -1;
	}
	mx.addr = strdup(addr);
	mx.http = mx.addr ? mhttp__start(addr, err, sizeof(err)) : NULL;
	if (!mx.http) {
		pr_warn("%s\n", mx.addr ? err : strerror(ENOMEM));
		free(mx.addr);
		mx.addr = NULL;
		return -1;
	}
	metrics_tick(trace);	/* a scrape before the trace's first text gets the daemon's */
	return 0;
}

static void metrics_end(void)
{
	mhttp__stop(mx.http);
	free(mx.addr);
	metrics_shm__free(mx.shm);
	mcarry__free(mx.carry);
	free(mx.text);
	memset(&mx, 0, sizeof(mx));
}

/* The trace, in a child that stops when the daemon dies. */
static pid_t start_trace(struct plan *p, const sigset_t *mask)
{
	pid_t pid;

	prune_earlier_runs(p);
	fflush(NULL);
	pid = fork();
	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	sigprocmask(SIG_UNBLOCK, mask, NULL);
	_exit(collect_main(p->argv.n, p->argv.v));
}

static int exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* SIGTERM to the trace, then its exit code. */
static int stop_trace(pid_t pid)
{
	int status;

	kill(pid, SIGTERM);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return EXIT_FAIL;
	return exit_code(status);
}

/* SIGHUP: the re-read config replaces *p and the trace *pid when it passes
 * every check; else the trace goes on as it was. */
static void reload(struct plan *p, pid_t *pid, int argc, char **argv, const sigset_t *mask)
{
	struct plan fresh;

	if (load_plan(&fresh, argc, argv, false)) {
		pr_warn("SIGHUP: not reloaded: %s; the trace goes on with the previous config\n",
			fresh.err);
		return;
	}
	pr_info("SIGHUP: reloading the config\n");
	stop_trace(*pid);
	metrics_tick(0);	/* the ended trace's last numbers, before a new one writes */
	plan_free(p);
	*p = fresh;
	log_start(p);
	metrics_serve(p, 0);	/* a new address that cannot be bound: logged, the trace goes on */
	*pid = start_trace(p, mask);
}

/* Waits for signals until the trace ends or the daemon is told to stop.
 * The exit code. */
static int supervise(struct plan *p, int argc, char **argv, const sigset_t *mask)
{
	pid_t pid = start_trace(p, mask);

	struct timespec tick = { .tv_nsec = METRICS_TICK_MS * 1000000L };
	uint64_t next = mono_ms() + METRICS_TICK_MS;

	for (;;) {
		int sig, status;

		if (pid < 0) {
			pr_warn("cannot start the trace: %s\n", strerror(errno));
			return EXIT_FAIL;
		}
		sig = mx.http ? sigtimedwait(mask, NULL, &tick) : sigwaitinfo(mask, NULL);
		if (mx.http && mono_ms() >= next) {
			metrics_tick(pid);
			next = mono_ms() + METRICS_TICK_MS;
		}
		if (sig == SIGCHLD) {
			if (waitpid(pid, &status, WNOHANG) != pid)
				continue;
			pr_info("the trace ended (exit %d)\n", exit_code(status));
			return exit_code(status);
		}
		if (sig == SIGUSR1)
			kill(pid, SIGUSR1);
		if (sig == SIGTERM || sig == SIGINT) {
			pr_info("stopping (%s)\n", strsignal(sig));
			status = stop_trace(pid);
			return status == EXIT_OK || status == 128 + SIGTERM ? EXIT_OK : status;
		}
		if (sig == SIGHUP)
			reload(p, &pid, argc, argv, mask);
	}
}

int daemon_main(int argc, char **argv)
{
	struct plan p;
	sigset_t mask;
	int err;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("Usage: ebpf-collect daemon [--config FILE] [-o DIR] [OPTIONS...]\n"
		       "Runs the collector always on: options as in 'ebpf-collect --help', from\n"
		       "FILE (one 'option = value' a line) then the command line; defaults\n"
		       "--all --format v6 --flight-recorder 60s --rotate 10m --keep 144 --buffer-size 16,\n"
		       "--host $(hostname), --profile always-on (unless --providers);\n"
		       "files DIR/trace-START.N.nettrace (DIR: "
		       DAEMON_DEFAULT_DIR ").\n"
		       "SIGHUP reloads FILE (checked first: a bad one is logged and the trace\n"
		       "goes on), SIGTERM stops, SIGUSR1 dumps the window.\n");
		return EXIT_OK;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	err = load_plan(&p, argc, argv, true);
	if (err) {
		pr_warn("%s\n", p.err);
		return err;
	}
	if (metrics_serve(&p, 0)) {
		plan_free(&p);
		return EXIT_FAIL;
	}
	err = supervise(&p, argc, argv, &mask);
	metrics_end();
	plan_free(&p);
	return err;
}
