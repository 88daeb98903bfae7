// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fleet.c - `ebpf-collect fleet --clickhouse URL [--host H] [--service S]
 * [--comm C] [--container ID] [--pod UID] [--since T] [--until T]
 * -o FILE.svg`: the CPU stacks every node sent (export.c) that match,
 * summed across hosts by ClickHouse, drawn by our flame-graph writer; the
 * processes (comm, container, pod) and the methods with the most samples
 * (self: leaf frames) printed to stdout.
 *
 * ClickHouse does the summing (GROUP BY stack), so the answer is one row
 * per distinct stack however many hosts and intervals sent it.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views.h"
#include "http_client.h"
#define LOG_PREFIX "ebpf-collect: fleet: "
#include "log.h"
#include "outfile.h"
#include "view.h"

struct fleet_opts {
	const char *url, *since, *until, *out, *folded;
	const char *host, *service, *comm, *container, *pod;	/* NULL: any */
	int top;
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: ebpf-collect fleet --clickhouse URL [--host H] [--service S] "
		"[--comm C] [--container ID] [--pod UID] [--since T] [--until T] -o FILE.svg "
		"[--folded FILE] [--top N]\n"
		"  --since T, --until T: a duration back from now (30s, 10m, 2h, 1d) or a time "
		"('2026-11-25 10:00:00')\n"
		"  --container ID: the container's id or its start\n");
}

/* "10m" -> seconds; -1 when T is no duration (then it is a time). */
static long long since_seconds(const char *t)
{
	char *end;
	long long n = strtoll(t, &end, 10);

	if (end == t || n < 0)
		return -1;
	if (!strcmp(end, "s") || !*end)
		return n;
	if (!strcmp(end, "m"))
		return n * 60;
	if (!strcmp(end, "h"))
		return n * 3600;
	if (!strcmp(end, "d"))
		return n * 86400;
	return -1;
}

/* A SQL string literal: quotes and backslashes escaped. */
static void put_literal(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static void put_equal(FILE *f, const char *column, const char *value)
{
	if (!value)
		return;
	fprintf(f, " AND %s = ", column);
	put_literal(f, value);
}

/* " AND ts OP T", T a duration back from now or a time */
static void put_time(FILE *f, const char *op, const char *t)
{
	if (!t)
		return;
	if (since_seconds(t) >= 0) {
		fprintf(f, " AND ts %s now() - %lld", op, since_seconds(t));
		return;
	}
	fprintf(f, " AND ts %s toDateTime(", op);
	put_literal(f, t);
	fputc(')', f);
}

/* The stacks (by_process 0: "stack\tcount" rows) or the processes
 * ("comm\tcontainer\tpod\tcount", the most samples first) that match. */
static char *build_query(const struct ch_url *u, const struct fleet_opts *o, int by_process)
{
	char table[200], *sql = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&sql, &len);

	if (!f)
		return NULL;
	fprintf(f, "SELECT %s, sum(samples) AS n FROM %s WHERE 1",
		by_process ? "comm, container, pod" : "stack",
		ch_url__table(u, "stacks", table, sizeof(table)));
	put_equal(f, "host", o->host);
	put_equal(f, "service", o->service);
	put_equal(f, "comm", o->comm);
	put_equal(f, "pod", o->pod);
	if (o->container) {
		fputs(" AND startsWith(container, ", f);
		put_literal(f, o->container);
		fputc(')', f);
	}
	put_time(f, ">=", o->since);
	put_time(f, "<", o->until);
	if (by_process)
		fprintf(f, " GROUP BY comm, container, pod ORDER BY n DESC, comm, container, pod "
			"LIMIT %d FORMAT TabSeparated", o->top);
	else
		fputs(" GROUP BY stack ORDER BY stack FORMAT TabSeparated", f);
	fclose(f);
	return sql;
}

/* Undo TabSeparated's escapes in place. */
static void tsv_unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

/* The answer's "stack\tcount" lines into the view (and --folded). */
static int load_rows(struct view *v, char *resp, FILE *folded)
{
	char *line, *save = NULL;

	for (line = strtok_r(resp, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *tab = strrchr(line, '\t');
		uint64_t n;

		if (!tab || view_parse_u64(tab + 1, &n)) {
			pr_warn("unexpected row from ClickHouse: %.200s\n", line);
			return -EPROTO;
		}
		*tab = 0;
		tsv_unescape(line);
		if (folded)
			fprintf(folded, "%s %" PRIu64 "\n", line, n);
		if (view__add_folded(v, line, n))
			return -ENOMEM;
	}
	return 0;
}

static int self_cmp(const void *a, const void *b)
{
	const struct vframe *x = *(const struct vframe *const *)a;
	const struct vframe *y = *(const struct vframe *const *)b;

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Self samples by leaf frame, the top n, to out. */
static int print_top(struct view *v, int n, FILE *out)
{
	struct vframe **by = calloc(v->n_frames ? v->n_frames : 1, sizeof(*by));
	uint64_t total = 0;
	size_t i;

	if (!by)
		return -ENOMEM;
	for (i = 0; i < v->n_stacks; i++) {
		const struct vstack *st = &v->stacks[i];

		total += st->count;
		if (st->depth)
			v->frames[v->frames_pool[st->off + st->depth - 1]].self += st->count;
	}
	for (i = 0; i < v->n_frames; i++)
		by[i] = &v->frames[i];
	qsort(by, v->n_frames, sizeof(*by), self_cmp);
	fprintf(out, "%10s %6s  %s\n", "SELF", "%", "METHOD");
	for (i = 0; i < v->n_frames && (int)i < n && by[i]->self; i++)
		fprintf(out, "%10" PRIu64 " %6.2f  %.60s\n", by[i]->self,
		       total ? 100.0 * (double)by[i]->self / (double)total : 0.0, by[i]->name);
	fprintf(out, "%10" PRIu64 " %6.2f  (all samples, %zu stacks)\n", total, total ? 100.0 : 0.0,
	       v->n_stacks);
	free(by);
	return 0;
}

static int parse_args(int argc, char **argv, struct fleet_opts *o)
{
	static const struct option lo[] = {
		{ "clickhouse", required_argument, NULL, 'c' },
		{ "service", required_argument, NULL, 's' },
		{ "host", required_argument, NULL, 'H' },
		{ "comm", required_argument, NULL, 'C' },
		{ "container", required_argument, NULL, 'K' },
		{ "pod", required_argument, NULL, 'P' },
		{ "since", required_argument, NULL, 't' },
		{ "until", required_argument, NULL, 'u' },
		{ "output", required_argument, NULL, 'o' },
		{ "folded", required_argument, NULL, 'f' },
		{ "top", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int ch;

	o->top = 20;
	while ((ch = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		switch (ch) {
		case 'c': o->url = optarg; break;
		case 's': o->service = optarg; break;
		case 'H': o->host = optarg; break;
		case 'C': o->comm = optarg; break;
		case 'K': o->container = optarg; break;
		case 'P': o->pod = optarg; break;
		case 't': o->since = optarg; break;
		case 'u': o->until = optarg; break;
		case 'o': o->out = optarg; break;
		case 'f': o->folded = optarg; break;
		case 'n': o->top = atoi(optarg); break;
		case 'h': usage(stdout); exit(EXIT_OK);
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (!o->url || !o->out || optind != argc || o->top <= 0) {
		usage(stderr);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* One query's answer into *resp (malloc'd); EXIT_* with one line on failure. */
static int query(const struct fleet_opts *o, struct ch_url *u, int by_process,
		 char **resp)
{
	char line[256], *sql = build_query(u, o, by_process);
	int status;

	if (!sql)
		return EXIT_FAIL;
	status = ch_http__post(u, sql, NULL, 0, resp);
	free(sql);
	if (status < 0)
		pr_warn("ClickHouse %s: %s\n", o->url, u->error);
	else if (status != 200)
		pr_warn("ClickHouse %s: HTTP %d: %s\n", o->url, status,
			ch_http__first_line(*resp, line, sizeof(line)));
	return status == 200 ? EXIT_OK : EXIT_FAIL;
}

/* The answer's "comm\tcontainer\tpod\tcount" rows as a table. */
static int print_processes(char *resp, FILE *out)
{
	char *line, *save = NULL;

	fprintf(out, "%10s  %-16s %-12s %-36s\n", "SAMPLES", "COMM", "CONTAINER", "POD");
	for (line = strtok_r(resp, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *col[4], *p = line;
		uint64_t n;
		int i;

		for (i = 0; i < 4; i++) {
			col[i] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
			else if (i < 3)
				break;
		}
		if (i < 4 || view_parse_u64(col[3], &n)) {
			pr_warn("unexpected row from ClickHouse: %.200s\n", line);
			return -EPROTO;
		}
		for (i = 0; i < 3; i++)
			tsv_unescape(col[i]);
		fprintf(out, "%10" PRIu64 "  %-16s %-12.12s %-36s\n", n, col[0][0] ? col[0] : "-",
			col[1][0] ? col[1] : "-", col[2][0] ? col[2] : "-");
	}
	fputc('\n', out);
	return 0;
}

/* The summed stacks from ClickHouse into v; EXIT_* with one line on failure. */
static int fetch(const struct fleet_opts *o, struct ch_url *u, struct view *v)
{
	struct outfile folded = { 0 };
	char *resp = NULL;
	int e, ret;

	ret = query(o, u, 0, &resp);
	if (ret == EXIT_OK && o->folded && (e = outfile__open(&folded, o->folded))) {
		pr_warn("cannot create output %s: %s\n", o->folded, strerror(-e));
		ret = EXIT_FAIL;
	} else if (ret == EXIT_OK && load_rows(v, resp, folded.f)) {
		ret = EXIT_FAIL;
	}
	if (folded.f && (e = outfile__finish(&folded, ret == EXIT_OK ? 0 : -EPROTO)) &&
	    ret == EXIT_OK) {
		pr_warn("writing %s: %s\n", o->folded, strerror(-e));
		ret = EXIT_FAIL;
	}
	free(resp);
	return ret;
}

int fleet_main(int argc, char **argv)
{
	struct fleet_opts o = { 0 };
	char desc[512], err_msg[512], *procs = NULL;
	struct outfile out, top;
	struct ch_url u;
	struct view v;
	int ret, err;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret;
	if (ch_url__parse(o.url, &u, err_msg, sizeof(err_msg))) {
		pr_warn("%s\n", err_msg);
		return EXIT_USAGE;
	}
	if (view__init(&v)) {
		pr_warn("%s\n", strerror(ENOMEM));
		ch_url__close(&u);
		return EXIT_FAIL;
	}
	snprintf(desc, sizeof(desc), "fleet CPU samples%s%s%s%s", o.service ? ", service " : "",
		 o.service ? o.service : "", o.since ? ", since " : "", o.since ? o.since : "");
	v.select_desc = desc;
	ret = fetch(&o, &u, &v);
	if (ret == EXIT_OK)
		ret = query(&o, &u, 1, &procs);
	if (ret == EXIT_OK && (err = outfile__open(&out, o.out))) {
		pr_warn("cannot create output %s: %s\n", o.out, strerror(-err));
		ret = EXIT_FAIL;
	} else if (ret == EXIT_OK) {
		err = outfile__finish(&out, view__write_svg(&v, o.out, out.f));
		if (err) {
			pr_warn("writing %s: %s\n", o.out, strerror(-err));
			ret = EXIT_FAIL;
		}
	}
	if (ret == EXIT_OK && !outfile__open(&top, NULL)) {
		err = print_processes(procs, top.f);
		err = outfile__finish(&top, err ? err : print_top(&v, o.top, top.f));
		if (err) {
			pr_warn("writing %s: %s\n", outfile_name(NULL), strerror(-err));
			ret = EXIT_FAIL;
		}
	}
	free(procs);
	view__free(&v);
	ch_url__close(&u);
	return ret;
}
