// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * daemon_config.c - the config file and the command line of `ebpf-collect
 * daemon`, turned into the collector's argv.
 *
 * The config file holds one `option = value` per line, the long options of
 * `ebpf-collect --help` (a flag alone or `flag = yes`; `#` comments;
 * repeatable options repeated): the rows of collector/options.c, the
 * table the collector's argp options are made from.  Config options come
 * first, the command line's after them (so the command line wins where
 * argp keeps the last value), then the always-on defaults for what neither
 * set:
 *
 *   --all --format v6 --flight-recorder 60s --rotate 10m --keep 144
 *   --buffer-size 16 --host $(hostname) --profile always-on (unless --providers is given)
 *   -o DIR/trace-START.nettrace   (DIR: /var/lib/ebpf-collect)
 *
 * `KEY = off` is as if KEY were not given, its default included.
 *
 * The daemon reads the file with the privileges of a tracer (root, or
 * CAP_DAC_READ_SEARCH): it takes only a regular text file of at most 1 MiB
 * that root or the daemon's user owns, that not every user may write and
 * that the daemon's user could read without its capabilities, behind a
 * symbolic link of one of those two owners.  What it reports about a line
 * names FILE:LINE and the cause; it repeats a line's content only where
 * the line has the shape of an option (NAME = VALUE, NAME a long option's
 * letters): never a line of a file that is not a config (/etc/shadow).
 * Only the option names are checked here; the values are the collector's
 * own checks' (collect_check, which the daemon runs before it starts).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#define LOG_PREFIX "ebpf-collect daemon: "
#include "daemon_config.h"
#include "grow.h"
#include "log.h"
#include "options.h"

#define CONFIG_MAX_BYTES	(1 << 20)
#define CONFIG_MAX_LINE		4096

/* The options that have a default, in the order they are appended. */
enum { D_ALL, D_FORMAT, D_FLIGHT, D_ROTATE, D_KEEP, D_BUFFER, D_HOST, D_PROFILE, D_COUNT };
static const char *const default_key[D_COUNT] = {
	"all", "format", "flight-recorder", "rotate", "keep", "buffer-size", "host", "profile",
};
/* buffer-size: 16 MiB holds over 10 s of a busy node's records (about
 * 1 MB/s at 4,000 records/s with stacks); a BPF ring is mapped twice, so
 * the collector's 32 MiB default alone would be 64 MB of the agent's RSS */
static const char *const default_val[D_COUNT] = { NULL, "v6", "60s", "10m", "144", "16", NULL,
						  "always-on" };

/* A plan being made: which defaulted options were given, and how. */
struct reader {
	struct plan *p;
	bool set[D_COUNT];	/* given by the config or the command line */
	bool off[D_COUNT];	/* KEY = off */
};

static int strv_push(struct strv *s, char *str)
{
	if (!str)
		return -ENOMEM;
	if (GROW(s->v, s->cap, (size_t)s->n + 2)) {
		free(str);
		return -ENOMEM;
	}
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

/* The first error of the plan, "WHERE: CAUSE"; -EINVAL. */
__attribute__((format(printf, 2, 3)))
static int plan_fail(struct plan *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->err[0]) {
		va_start(ap, fmt);
		vsnprintf(p->err, sizeof(p->err), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* One argument of the collector and where it comes from. */
__attribute__((format(printf, 3, 4)))
static int plan_arg(struct plan *p, const char *from, const char *fmt, ...)
{
	va_list ap;
	char *str;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&str, fmt, ap);
	va_end(ap);
	if (n < 0 || strv_push(&p->argv, str) || strv_push(&p->from, strdup(from)))
		return plan_fail(p, "out of memory");
	return 0;
}

static bool is_yes(const char *v)
{
	return !*v || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on") ||
	       !strcmp(v, "1");
}

/* Remember that a defaulted option was given; true when it was `off`. */
static bool note_default(struct reader *r, const char *key, const char *val)
{
	int d;

	/* a selection of providers replaces the default profile as a
	 * profile does (the collector's "default" when neither is given) */
	if (!strcmp(key, "providers"))
		key = default_key[D_PROFILE];
	for (d = 0; d < D_COUNT; d++) {
		if (strcmp(key, default_key[d]))
			continue;
		r->set[d] = true;
		r->off[d] = val && !strcmp(val, "off");
		return r->off[d];
	}
	return false;
}

/* One option, from a config line or the command line: checked, then added.
 * `where` prefixes the message ("FILE:LINE" or "command line"). */
static int add_option(struct reader *r, const char *where, const char *key, const char *val)
{
	const struct collect_opt *o = collect_opts__find(key);
	struct plan *p = r->p;

	if (!o || o->flags & (OPTF_DAEMON | OPTF_HIDDEN))
		return plan_fail(p, "%s: unknown option %s", where, key);
	if (collect_opt__arg(o) == OPT_ARG_REQUIRED && (!val || !*val))
		return plan_fail(p, "%s: option %s needs a value", where, key);
	if (collect_opt__arg(o) == OPT_ARG_NONE && val && !is_yes(val) && strcmp(val, "off"))
		return plan_fail(p, "%s: option %s takes no value (or yes, off)", where, key);
	if (note_default(r, key, val) || (val && !strcmp(val, "off")))
		return 0;	/* `off`: as if not given, a default included */
	if (!strcmp(key, "keep"))	/* collect_check checks the value */
		p->keep = strtoul(val, NULL, 10);
	if (!strcmp(key, "output")) {	/* the daemon's -o is a directory */
		free(p->dir);
		p->dir = strdup(val);
		return p->dir ? 0 : plan_fail(p, "out of memory");
	}
	if (collect_opt__arg(o) == OPT_ARG_NONE || !val || !*val)
		return plan_arg(p, where, "--%s", key);
	return plan_arg(p, where, "--%s=%s", key, val);
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

/* The letters of a long option: what may be repeated in a message. */
static bool option_shaped(const char *key)
{
	size_t n = strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789-");

	return n && n <= 32 && !key[n] && key[0] != '-';
}

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" :
	       S_ISCHR(m) || S_ISBLK(m) ? "a device" : "not a regular file";
}

/* Whose config the daemon takes: root's or its own user's. */
static bool trusted_owner(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* access() checks with the real ids and, but for root, no capabilities;
 * on the open file rather than the path, which may have changed since. */
static bool readable_without_caps(int fd, const char *path)
{
	char self[64];

	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	if (!access(self, R_OK))
		return true;
	return errno == ENOENT && !access(path, R_OK);	/* no /proc */
}

/* The whole config file, if it may be one (see the top of the file):
 * 0 with *buf (NUL-terminated, *len bytes), or the error in p->err. */
static int load_config(struct plan *p, const char *path, char **buf, size_t *len)
{
	struct stat st, lst;
	ssize_t n;
	size_t got = 0;
	char *b;
	int fd, err = 0;

	if (!lstat(path, &lst) && S_ISLNK(lst.st_mode) && !trusted_owner(lst.st_uid))
		return plan_fail(p, "%s: a symbolic link owned by uid %u, neither root nor the "
				 "daemon's user: refused", path, (unsigned int)lst.st_uid);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return plan_fail(p, "%s: cannot read: %s", path, strerror(errno));
	if (fstat(fd, &st))
		err = plan_fail(p, "%s: cannot read: %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		err = plan_fail(p, "%s: %s, not a config file", path, file_kind(st.st_mode));
	else if (!trusted_owner(st.st_uid))
		err = plan_fail(p, "%s: owned by uid %u, neither root nor the daemon's user: "
				"refused (its writer would choose what the daemon traces)", path,
				(unsigned int)st.st_uid);
	else if (st.st_mode & S_IWOTH)
		err = plan_fail(p, "%s: writable by every user: refused (chmod o-w)", path);
	else if (!readable_without_caps(fd, path))
		err = plan_fail(p, "%s: the daemon's user may not read it (only its "
				"capabilities can): not a config for it", path);
	else if (st.st_size > CONFIG_MAX_BYTES)
		err = plan_fail(p, "%s: %lld bytes: larger than a config file (1 MiB)", path,
				(long long)st.st_size);
	b = err ? NULL : malloc(CONFIG_MAX_BYTES + 2);
	if (!err && !b)
		err = plan_fail(p, "out of memory");
	while (!err && (n = read(fd, b + got, CONFIG_MAX_BYTES + 1 - got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = plan_fail(p, "%s: cannot read: %s", path, strerror(errno));
		else if ((got += n) > CONFIG_MAX_BYTES)
			err = plan_fail(p, "%s: larger than a config file (1 MiB)", path);
	}
	close(fd);
	if (err) {
		free(b);
		return err;
	}
	b[got] = 0;
	*buf = b;
	*len = got;
	return 0;
}

/* A line as text: no NUL, no control character but a tab (and the \r of
 * a \r\n), not too long.  0 or the error. */
static int check_line(struct plan *p, const char *where, const char *s, size_t n)
{
	size_t i;

	if (n > CONFIG_MAX_LINE)
		return plan_fail(p, "%s: longer than %d bytes: not a config line", where,
				 CONFIG_MAX_LINE);
	for (i = 0; i < n; i++) {
		unsigned char ch = s[i];

		if (!ch)
			return plan_fail(p, "%s: a NUL byte: binary data, not a config file",
					 where);
		if ((ch < 0x20 && ch != '\t' && !(ch == '\r' && i == n - 1)) || ch == 0x7f)
			return plan_fail(p, "%s: a control character: binary data, not a config "
					 "file", where);
	}
	return 0;
}

/* One line of the config (without its \n): comment, blank or option. */
static int read_line(struct reader *r, const char *where, char *line)
{
	char *key, *val = NULL, *eq;

	strip_comment(line);
	key = trim(line);
	if (!*key)
		return 0;
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
	/* a line of some other file is not repeated: only a known flag or a
	 * NAME = VALUE line reaches the messages of add_option */
	if (!option_shaped(key) || (!eq && !collect_opts__find(key)))
		return plan_fail(r->p, "%s: not an option line (OPTION or OPTION = VALUE, with "
				 "a long option of 'ebpf-collect --help')", where);
	return add_option(r, where, key, val);
}

/* The config file's options, in file order. */
static int read_config(struct reader *r, const char *path)
{
	char *buf = NULL, *s, *nl, line[CONFIG_MAX_LINE + 1], where[4200];
	unsigned int no = 0;
	size_t len = 0;
	int err;

	err = load_config(r->p, path, &buf, &len);
	for (s = buf; !err && s < buf + len; s = nl + 1) {
		size_t n;

		nl = memchr(s, '\n', buf + len - s);
		if (!nl)
			nl = buf + len;
		n = nl - s;
		snprintf(where, sizeof(where), "%s:%u", path, ++no);
		err = check_line(r->p, where, s, n);
		if (err)
			break;
		memcpy(line, s, n);
		line[n] = 0;
		err = read_line(r, where, line);
	}
	free(buf);
	return err;
}

/* The daemon's command line: --config FILE, -o DIR and collector options
 * (--key value, --key=value; -v, -q).  Sets p->config. */
static int read_args(struct reader *r, int argc, char **argv)
{
	struct plan *p = r->p;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		char key[64];
		const struct collect_opt *o;
		size_t n;

		if (!strcmp(a, "-o")) {
			if (add_option(r, "command line", "output", i + 1 < argc ? argv[++i] : NULL))
				return -EINVAL;
			continue;
		}
		if (!strcmp(a, "-v") || !strcmp(a, "-q")) {
			a = a[1] == 'v' ? "--verbose" : "--quiet";
		} else if (strncmp(a, "--", 2) || !a[2]) {
			return plan_fail(p, "command line: unknown option %s", a);
		}
		n = strcspn(a + 2, "=");
		snprintf(key, sizeof(key), "%.*s", (int)n, a + 2);
		o = collect_opts__find(key);
		if (a[2 + n] == '=')
			val = a + 3 + n;
		else if (o && collect_opt__arg(o) == OPT_ARG_REQUIRED && i + 1 < argc)
			val = argv[++i];
		if (o && o->key == OPT_CONFIG) {
			p->config = val;
			if (!val || !*val)
				return plan_fail(p, "command line: option --config needs a value");
			continue;
		}
		if (add_option(r, "command line", key, val))
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
	return plan_arg(p, "", "--output=%s/trace-%s.nettrace", p->dir, stamp);
}

/* The always-on defaults for what was not given. */
static int add_defaults(struct reader *r)
{
	struct plan *p = r->p;
	bool want[D_COUNT];
	char host[256] = "";
	int d, err = 0;

	for (d = 0; d < D_COUNT; d++)
		want[d] = !r->set[d];
	if (want[D_HOST] && gethostname(host, sizeof(host) - 1))
		want[D_HOST] = false;
	for (d = 0; !err && d < D_COUNT; d++) {
		if (!want[d])
			continue;
		if (d == D_HOST)
			err = plan_arg(p, "", "--host=%s", host);
		else if (default_val[d])
			err = plan_arg(p, "", "--%s=%s", default_key[d], default_val[d]);
		else
			err = plan_arg(p, "", "--%s", default_key[d]);
	}
	return err ?: output_name(p);
}

void plan_free(struct plan *p)
{
	strv_free(&p->argv);
	strv_free(&p->from);
	free(p->dir);
	p->dir = NULL;
}

int make_plan(struct plan *p, int argc, char **argv)
{
	struct reader r = { .p = p };
	int err;

	memset(p, 0, sizeof(*p));
	err = plan_arg(p, "", "ebpf-collect");
	if (!err) {
		/* the command line is read twice: for --config first, then to
		 * come after the config's options */
		struct plan scratch = {};
		struct reader sr = { .p = &scratch };

		err = read_args(&sr, argc, argv);
		p->config = scratch.config;
		if (err)
			memcpy(p->err, scratch.err, sizeof(p->err));
		plan_free(&scratch);
	}
	if (!err && p->config)
		err = read_config(&r, p->config);
	if (!err)
		err = read_args(&r, argc, argv);
	if (!err && !p->dir && !(p->dir = strdup(DAEMON_DEFAULT_DIR)))
		err = plan_fail(p, "out of memory");
	if (!r.set[D_KEEP])
		p->keep = strtoul(default_val[D_KEEP], NULL, 10);
	if (!err)
		err = add_defaults(&r);
	if (err)
		plan_free(p);
	return err;
}
