// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * daemon.c - `ebpf-collect daemon`: the collector, always on, for a node.
 *
 *   ebpf-collect daemon [--config FILE] [-o DIR] [COLLECT-OPTIONS...]
 *
 * The config file holds one `option = value` per line, the long options of
 * `ebpf-collect --help` (a flag alone or `flag = yes`; `#` comments;
 * repeatable options repeated).  Config options come first, the command
 * line's after them (so the command line wins where argp keeps the last
 * value), then the always-on defaults for what neither set:
 *
 *   --all --format v6 --flight-recorder 60s --rotate 10m --keep 144
 *   --host $(hostname) -o DIR/trace-START.nettrace   (DIR: /var/lib/ebpf-collect)
 *
 * `KEY = off` is as if KEY were not given, its default included.  With
 * both defaults the window is written as consecutive 10-minute files.
 *
 * The daemon is a small supervisor: the trace runs in a child (collect_main)
 * and the parent only waits for signals.  SIGTERM/SIGINT stop the child the
 * way they stop `ebpf-collect` (files completed) and the daemon exits 0;
 * SIGUSR1 is passed on (flight-recorder dump); SIGHUP re-reads the config
 * and, when it is valid, stops the running trace cleanly and starts a new
 * one with it (a bad config is logged and the running trace kept).  A child
 * that ends on its own ends the daemon with its exit code, so systemd sees
 * missing privileges (4) or a bad option (64).  A separate process rather
 * than a re-exec: the parent keeps the original arguments and the journal's
 * PID, and the child's libbpf state never has to be torn down in place.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#define LOG_PREFIX "ebpf-collect daemon: "
#include "commands.h"
#include "collector.h"	/* parse_cmdline, log.h */

#define DEFAULT_DIR	"/var/lib/ebpf-collect"

enum arg_kind { ARG_NONE, ARG_REQUIRED, ARG_OPTIONAL };

/* The collector's long options (collector/cli.c); tests/fleet_daemon.bats
 * checks that every one `ebpf-collect --help` lists is here. */
static const struct known_opt {
	const char *name;
	enum arg_kind arg;
} known[] = {
	{ "pid", ARG_REQUIRED }, { "output", ARG_REQUIRED }, { "providers", ARG_REQUIRED },
	{ "profile", ARG_REQUIRED }, { "duration", ARG_REQUIRED },
	{ "buffer-size", ARG_REQUIRED }, { "lib", ARG_REQUIRED }, { "kernel-stack", ARG_NONE },
	{ "no-user-stack", ARG_NONE }, { "stack-helper", ARG_NONE }, { "batched", ARG_NONE },
	{ "no-batched", ARG_NONE }, { "usdt", ARG_REQUIRED },
	{ "usdt-children", ARG_NONE }, { "kernel", ARG_REQUIRED },
	{ "cpu-sampling", ARG_OPTIONAL }, { "all-processes", ARG_NONE },
	{ "manifest", ARG_REQUIRED }, { "all", ARG_NONE }, { "comm", ARG_REQUIRED },
	{ "pid-filter", ARG_REQUIRED }, { "format", ARG_REQUIRED },
	{ "split-by-process", ARG_REQUIRED }, { "metrics", ARG_REQUIRED },
	{ "clickhouse", ARG_REQUIRED }, { "host", ARG_REQUIRED }, { "service", ARG_REQUIRED },
	{ "export-interval", ARG_REQUIRED }, { "spool", ARG_REQUIRED },
	{ "spool-max", ARG_REQUIRED }, { "rotate", ARG_REQUIRED }, { "keep", ARG_REQUIRED },
	{ "keep-dumps", ARG_REQUIRED }, { "flight-recorder", ARG_REQUIRED }, { "dump-on", ARG_REQUIRED },
	{ "stop-on", ARG_REQUIRED }, { "filter", ARG_REQUIRED }, { "list", ARG_NONE },
	{ "no-symbols", ARG_NONE }, { "quiet", ARG_NONE }, { "verbose", ARG_NONE },
	{ "config", ARG_REQUIRED },
};

/* The options that have a default, in the order they are appended. */
enum { D_ALL, D_FORMAT, D_FLIGHT, D_ROTATE, D_KEEP, D_HOST, D_COUNT };
static const char *const default_key[D_COUNT] = {
	"all", "format", "flight-recorder", "rotate", "keep", "host",
};
static const char *const default_val[D_COUNT] = { NULL, "v6", "60s", "10m", "144", NULL };

struct strv {
	char **v;
	int n, cap;
};

/* What the config and the command line say, turned into collect_main's argv. */
struct plan {
	struct strv argv;
	char *dir;		/* -o: files and dumps go under it */
	unsigned long keep;	/* --keep, for the files of earlier runs; 0: all */
	bool set[D_COUNT];	/* given by the config or the command line */
	bool off[D_COUNT];	/* KEY = off */
};

__attribute__((format(printf, 2, 3)))
static int strv_pushf(struct strv *s, const char *fmt, ...)
{
	va_list ap;
	char *str;
	int n;

	if (s->n + 2 > s->cap) {
		int cap = s->cap ? 2 * s->cap : 32;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	va_start(ap, fmt);
	n = vasprintf(&str, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	s->v[s->n++] = str;
	s->v[s->n] = NULL;
	return 0;
}

static void strv_free(struct strv *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static const struct known_opt *find_opt(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].name, name))
			return &known[i];
	return NULL;
}

static bool is_yes(const char *v)
{
	return !*v || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on") ||
	       !strcmp(v, "1");
}

/* Remember that a defaulted option was given; true when it was `off`. */
static bool note_default(struct plan *p, const char *key, const char *val)
{
	int d;

	for (d = 0; d < D_COUNT; d++) {
		if (strcmp(key, default_key[d]))
			continue;
		p->set[d] = true;
		p->off[d] = val && !strcmp(val, "off");
		return p->off[d];
	}
	return false;
}

/* One option, from a config line or the command line: checked, then added.
 * `where` prefixes the message ("FILE:LINE" or "command line"). */
static int add_option(struct plan *p, const char *where, const char *key, const char *val)
{
	const struct known_opt *o = find_opt(key);

	if (!o || !strcmp(key, "config")) {
		pr_warn("%s: unknown option %s\n", where, key);
		return -EINVAL;
	}
	if (o->arg == ARG_REQUIRED && (!val || !*val)) {
		pr_warn("%s: option %s needs a value\n", where, key);
		return -EINVAL;
	}
	if (o->arg == ARG_NONE && val && !is_yes(val) && strcmp(val, "off")) {
		pr_warn("%s: option %s takes no value (or yes, off)\n", where, key);
		return -EINVAL;
	}
	if (note_default(p, key, val) || (val && !strcmp(val, "off")))
		return 0;	/* `off`: as if not given, a default included */
	if (!strcmp(key, "keep"))	/* the collector checks the value */
		p->keep = strtoul(val, NULL, 10);
	if (!strcmp(key, "output")) {	/* the daemon's -o is a directory */
		free(p->dir);
		p->dir = strdup(val);
		return p->dir ? 0 : -ENOMEM;
	}
	if (o->arg == ARG_NONE || !val || !*val)
		return strv_pushf(&p->argv, "--%s", key);
	return strv_pushf(&p->argv, "--%s=%s", key, val);
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = 0;
	return s;
}

/* `#` starts a comment at the start of a line or after a blank: values such
 * as predicates may hold a `#` of their own. */
static void strip_comment(char *line)
{
	char *h;

	for (h = line; (h = strchr(h, '#')); h++) {
		if (h == line || h[-1] == ' ' || h[-1] == '\t') {
			*h = 0;
			return;
		}
	}
}

/* The config file's options, in file order. */
static int read_config(struct plan *p, const char *path)
{
	char line[4096], where[4200];
	unsigned int no = 0;
	FILE *f = fopen(path, "re");
	int err = 0;

	if (!f) {
		pr_warn("%s: cannot read: %s\n", path, strerror(errno));
		return -EINVAL;
	}
	while (!err && fgets(line, sizeof(line), f)) {
		char *key, *val = NULL, *eq;

		no++;
		strip_comment(line);
		key = trim(line);
		if (!*key)
			continue;
		eq = strchr(key, '=');
		if (eq) {
			*eq = 0;
			val = trim(eq + 1);
			key = trim(key);
			if (*val == '"' && strlen(val) >= 2 && val[strlen(val) - 1] == '"') {
				val[strlen(val) - 1] = 0;
				val++;
			}
		}
		snprintf(where, sizeof(where), "%s:%u", path, no);
		err = add_option(p, where, key, val);
	}
	fclose(f);
	return err;
}

/* The daemon's command line: --config FILE, -o DIR and collector options
 * (--key value, --key=value; -v, -q).  Sets *config. */
static int read_args(struct plan *p, int argc, char **argv, const char **config)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		char key[64];
		const struct known_opt *o;
		size_t n;

		if (!strcmp(a, "-o")) {
			if (add_option(p, "command line", "output", i + 1 < argc ? argv[++i] : NULL))
				return -EINVAL;
			continue;
		}
		if (!strcmp(a, "-v") || !strcmp(a, "-q")) {
			a = a[1] == 'v' ? "--verbose" : "--quiet";
		} else if (strncmp(a, "--", 2) || !a[2]) {
			pr_warn("command line: unknown option %s\n", a);
			return -EINVAL;
		}
		n = strcspn(a + 2, "=");
		snprintf(key, sizeof(key), "%.*s", (int)n, a + 2);
		o = find_opt(key);
		if (a[2 + n] == '=')
			val = a + 3 + n;
		else if (o && o->arg == ARG_REQUIRED && i + 1 < argc)
			val = argv[++i];
		if (o && !strcmp(key, "config")) {
			*config = val;
			if (!val) {
				pr_warn("command line: option --config needs a value\n");
				return -EINVAL;
			}
			continue;
		}
		if (add_option(p, "command line", key, val))
			return -EINVAL;
	}
	return 0;
}

/* Each start of the trace gets its own name, the UTC time it started: the
 * collector numbers a run's files (.1, .2, ...) and prunes only its own,
 * so runs before a reload or a restart must not share the numbers. */
static int output_name(struct plan *p)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime_r(&now, &tm));
	return strv_pushf(&p->argv, "--output=%s/trace-%s.nettrace", p->dir, stamp);
}

/* The always-on defaults for what was not given. */
static int add_defaults(struct plan *p)
{
	bool want[D_COUNT];
	char host[256] = "";
	int d, err = 0;

	for (d = 0; d < D_COUNT; d++)
		want[d] = !p->set[d];
	if (want[D_HOST] && gethostname(host, sizeof(host) - 1))
		want[D_HOST] = false;
	for (d = 0; !err && d < D_COUNT; d++) {
		if (!want[d])
			continue;
		if (d == D_HOST)
			err = strv_pushf(&p->argv, "--host=%s", host);
		else if (default_val[d])
			err = strv_pushf(&p->argv, "--%s=%s", default_key[d], default_val[d]);
		else
			err = strv_pushf(&p->argv, "--%s", default_key[d]);
	}
	return err ?: output_name(p);
}

static void plan_free(struct plan *p)
{
	strv_free(&p->argv);
	free(p->dir);
	memset(p, 0, sizeof(*p));
}

/* The whole argv of collect_main from the config and the command line. */
static int make_plan(struct plan *p, int argc, char **argv)
{
	const char *config = NULL;
	int err;

	memset(p, 0, sizeof(*p));
	err = strv_pushf(&p->argv, "ebpf-collect");
	if (!err) {
		/* the command line is read twice: for --config first, then to
		 * come after the config's options */
		struct plan scratch = {};

		err = read_args(&scratch, argc, argv, &config);
		plan_free(&scratch);
	}
	if (!err && config)
		err = read_config(p, config);
	if (!err)
		err = read_args(p, argc, argv, &config);
	if (!err && !p->dir)
		p->dir = strdup(DEFAULT_DIR);
	if (!p->set[D_KEEP])
		p->keep = strtoul(default_val[D_KEEP], NULL, 10);
	if (!err)
		err = p->dir ? add_defaults(p) : -ENOMEM;
	if (err)
		plan_free(p);
	return err;
}

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
	struct run_file *v = NULL, *nv;
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
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
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

/* The trace, in a child that stops when the daemon dies. */
static pid_t start_trace(struct plan *p, const sigset_t *mask)
{
	pid_t pid;
	int i;

	if (log_enabled(LOG_INFO)) {
		char line[8192];
		size_t off = 0;

		for (i = 1; i < p->argv.n && off < sizeof(line); i++)
			off += snprintf(line + off, sizeof(line) - off, " %s", p->argv.v[i]);
		pr_info("starting: ebpf-collect%s\n", line);
	}
	prune_earlier_runs(p);
	fflush(stderr);
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

/* Waits for signals until the trace ends or the daemon is told to stop;
 * SIGHUP swaps *p for the re-read config.  The exit code. */
static int supervise(struct plan *p, int argc, char **argv, const sigset_t *mask)
{
	pid_t pid = start_trace(p, mask);

	for (;;) {
		struct plan fresh;
		int sig, status;

		if (pid < 0) {
			pr_warn("cannot start the trace: %s\n", strerror(errno));
			return EXIT_FAIL;
		}
		sig = sigwaitinfo(mask, NULL);
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
		if (sig != SIGHUP)
			continue;
		if (make_plan(&fresh, argc, argv)) {
			pr_warn("SIGHUP: the config has errors (above): the trace goes on unchanged\n");
			continue;
		}
		pr_info("SIGHUP: reloading the config\n");
		stop_trace(pid);
		plan_free(p);
		*p = fresh;
		status = make_dir(p->dir);
		if (status) {
			pr_warn("cannot write into %s: %s\n", p->dir, strerror(-status));
			return EXIT_OUTPUT;
		}
		pid = start_trace(p, mask);
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
		       "--all --format v6 --flight-recorder 60s --rotate 10m --keep 144,\n"
		       "--host $(hostname); files DIR/trace-START.N.nettrace (DIR: " DEFAULT_DIR ").\n"
		       "SIGHUP reloads FILE, SIGTERM stops, SIGUSR1 dumps the window.\n");
		return EXIT_OK;
	}
	if (make_plan(&p, argc, argv))
		return EXIT_USAGE;
	err = make_dir(p.dir);
	if (err) {
		pr_warn("cannot write into %s: %s\n", p.dir, strerror(-err));
		plan_free(&p);
		return EXIT_OUTPUT;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	err = supervise(&p, argc, argv, &mask);
	plan_free(&p);
	return err;
}
