// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * export_send.c - the --clickhouse sender thread (export_send.h).
 *
 * Order is kept across an outage: while the spool holds anything, a new
 * batch goes behind it, never past it, and the spool is replayed oldest
 * first before anything new is sent.  A batch that fails (no connection,
 * or an HTTP error) is spooled and retried; only a batch the spool cannot
 * hold (or with no --spool) is dropped, and then counted.  One warning
 * line marks the start of an outage and one line its end, however many
 * batches it cost.  While the spool is not empty the server is tried again
 * every second.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define LOG_PREFIX "ebpf-collect: "
#include "log.h"
#include "export_send.h"
#include "thread.h"

#define RETRY_NS	(1000ULL * 1000 * 1000)

struct ch_sender {
	struct ch_url url;
	struct ch_spool *spool;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ch_batch *head, *tail;	/* pushed, not yet taken */
	int stopping;
	int down;			/* in an outage (warned once) */
	int schema_ok;
	struct ch_export_stats st;	/* under lock */
};

/* the columns that say who a row's process is, added after the others */
static const char *const who_columns[] = { "comm", "exe", "cgroup", "container", "pod", NULL };

static const char *const schema_sql[] = {
	"CREATE DATABASE IF NOT EXISTS %1$s",
	"CREATE TABLE IF NOT EXISTS %1$s.stacks_local (ts DateTime, host String, service String, "
	"pid UInt32, stack String, samples UInt64, batch UInt64, comm String, exe String, "
	"cgroup String, container String, pod String) ENGINE = MergeTree() "
	"PARTITION BY toYYYYMMDD(ts) ORDER BY (service, host, ts)",
	"CREATE TABLE IF NOT EXISTS %1$s.events_local (ts DateTime, host String, service String, "
	"pid UInt32, provider String, event String, count UInt64, durations UInt64, "
	"duration_ns UInt64, batch UInt64, comm String, exe String, cgroup String, "
	"container String, pod String) ENGINE = MergeTree() "
	"PARTITION BY toYYYYMMDD(ts) ORDER BY (service, host, ts)",
	NULL,
};

static const char *const cluster_sql[] = {
	"CREATE TABLE IF NOT EXISTS %1$s.stacks AS %1$s.stacks_local "
	"ENGINE = Distributed(%2$s, %1$s, stacks_local, rand())",
	"CREATE TABLE IF NOT EXISTS %1$s.events AS %1$s.events_local "
	"ENGINE = Distributed(%2$s, %1$s, events_local, rand())",
	NULL,
};

/* One request; 0, -errno (no answer) or -EPROTO (HTTP error); why in err. */
static int post(struct ch_url *u, const char *sql, const char *body, size_t len,
		char *err, size_t errlen)
{
	char line[256], *resp = NULL;
	int status;

	status = ch_http__post(u, sql, body, len, &resp);
	if (status < 0)
		snprintf(err, errlen, "ClickHouse %s: %s", u->text, u->error);
	else if (status != 200)
		snprintf(err, errlen, "ClickHouse %s: HTTP %d: %s", u->text, status,
			 ch_http__first_line(resp, line, sizeof(line)));
	free(resp);
	return status < 0 ? status : status == 200 ? 0 : -EPROTO;
}

static int run_sql(struct ch_url *u, const char *fmt, char *err, size_t errlen)
{
	char sql[1024];

	snprintf(sql, sizeof(sql), fmt, u->database, u->cluster);
	return post(u, sql, NULL, 0, err, errlen);
}

/* A table an older collector made gets the who_columns: ALTER TABLE ...
 * ADD COLUMN IF NOT EXISTS, appended as the rows have them.  A server
 * older than that clause (before 19.1; Debian's 18.16) refuses it: then
 * each column system.columns does not list is added plainly.  0 or -errno
 * with the reason in err. */
static int add_who_columns(struct ch_url *u, const char *table, char *err,
			   size_t errlen)
{
	char sql[1024], *resp = NULL;
	size_t n = 0;
	int i, ret;

	n += snprintf(sql, sizeof(sql), "ALTER TABLE %s.%s", u->database, table);
	for (i = 0; who_columns[i]; i++)
		n += snprintf(sql + n, sizeof(sql) - n, "%s ADD COLUMN IF NOT EXISTS %s String",
			      i ? "," : "", who_columns[i]);
	if (!post(u, sql, NULL, 0, err, errlen))
		return 0;
	snprintf(sql, sizeof(sql), "SELECT name FROM system.columns WHERE database = '%s' "
		 "AND table = '%s' FORMAT TabSeparated", u->database, table);
	ret = ch_http__post(u, sql, NULL, 0, &resp);
	ret = ret < 0 ? ret : ret == 200 ? 0 : -EPROTO;
	for (i = 0; !ret && who_columns[i]; i++) {
		char line[64];

		snprintf(line, sizeof(line), "\n%s\n", who_columns[i]);
		if (resp && (strstr(resp, line) || !strncmp(resp, line + 1, strlen(line + 1))))
			continue;
		snprintf(sql, sizeof(sql), "ALTER TABLE %s.%s ADD COLUMN %s String", u->database,
			 table, who_columns[i]);
		ret = post(u, sql, NULL, 0, err, errlen);
	}
	free(resp);
	return ret;
}

/* CREATE ... IF NOT EXISTS the database, the tables and, with a cluster,
 * the Distributed tables; the who_columns on older tables.  0 or -errno
 * with the reason in err. */
static int ch_schema__create(struct ch_url *u, char *err, size_t errlen)
{
	static const char *const local[] = { "stacks_local", "events_local" };
	static const char *const dist[] = { "stacks", "events" };
	int i, ret = 0;

	err[0] = '\0';
	for (i = 0; schema_sql[i] && !ret; i++)
		ret = run_sql(u, schema_sql[i], err, errlen);
	for (i = 0; i < 2 && !ret; i++)
		ret = add_who_columns(u, local[i], err, errlen);
	for (i = 0; u->cluster[0] && cluster_sql[i] && !ret; i++)
		ret = run_sql(u, cluster_sql[i], err, errlen);
	for (i = 0; u->cluster[0] && i < 2 && !ret; i++)
		ret = add_who_columns(u, dist[i], err, errlen);
	return ret;
}

/* Outage bookkeeping: one line when it starts, one when it ends. */
static void set_down(struct ch_sender *s, int down, const char *why)
{
	if (down && !s->down) {
		pr_warn("%s; %s\n", why, s->spool ? "spooling batches until it is back"
			: "batches are dropped until it is back (no --spool)");
		pthread_mutex_lock(&s->lock);
		s->st.outages++;
		pthread_mutex_unlock(&s->lock);
	} else if (!down && s->down) {
		pr_info("ClickHouse %s: back; replaying %zu spooled batches\n", s->url.text,
			ch_spool__count(s->spool));
	}
	s->down = down;
}

/* One INSERT (after the tables, when they may be missing); 0 or -errno
 * with the outage noted.  Every failed try counts as a failed insert,
 * whichever request failed: an HTTP error while the server shuts down
 * leaves the tables to be made again first, and those tries fail too. */
static int send_batch(struct ch_sender *s, const struct ch_batch *b)
{
	char sql[256], table[200], err[512];
	int ret = 0;

	if (!s->schema_ok) {
		ret = ch_schema__create(&s->url, err, sizeof(err));
		if (!ret)
			s->schema_ok = 1;
	}
	if (!ret) {
		snprintf(sql, sizeof(sql), "INSERT INTO %s FORMAT TabSeparated",
			 ch_url__table(&s->url, b->table, table, sizeof(table)));
		ret = post(&s->url, sql, b->body, b->len, err, sizeof(err));
	}
	pthread_mutex_lock(&s->lock);
	if (ret) {
		s->st.failed_inserts++;
	} else {
		struct timespec now;

		clock_gettime(CLOCK_REALTIME, &now);
		s->st.last_sent_ns = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
		s->st.sent_batches++;
		s->st.sent_rows += b->rows;
		s->st.sent_samples += b->samples;
	}
	pthread_mutex_unlock(&s->lock);
	set_down(s, ret != 0, err);
	if (ret == -EPROTO)
		s->schema_ok = 0;	/* a dropped table is made again on the next try */
	return ret;
}

static void count_dropped(struct ch_sender *s, const struct ch_batch *b)
{
	pthread_mutex_lock(&s->lock);
	s->st.dropped_batches++;
	s->st.dropped_rows += b->rows;
	s->st.dropped_samples += b->samples;
	pthread_mutex_unlock(&s->lock);
}

/* The spool's counters, for readers on other threads. */
static void sync_spool(struct ch_sender *s)
{
	pthread_mutex_lock(&s->lock);
	s->st.spooled_batches = ch_spool__count(s->spool);
	s->st.spooled_rows = ch_spool__rows(s->spool);
	s->st.spooled_bytes = ch_spool__bytes(s->spool);
	pthread_mutex_unlock(&s->lock);
}

/* Spool b, or drop and count it. */
static void spool_or_drop(struct ch_sender *s, const struct ch_batch *b)
{
	int err = s->spool ? ch_spool__put(s->spool, b) : -ENOSPC;

	if (err && err != -ENOSPC)
		pr_warn("--spool %s: cannot write a batch: %s; dropped\n",
			ch_spool__dir(s->spool), strerror(-err));
	if (err)
		count_dropped(s, b);
	sync_spool(s);
}

/* Replay the spool, oldest first, until it is empty or a send fails. */
static void drain_spool(struct ch_sender *s)
{
	struct ch_batch b;
	int r;

	while ((r = ch_spool__peek(s->spool, &b)) > 0) {
		int err = send_batch(s, &b);

		free(b.body);
		if (err)
			return;
		ch_spool__pop(s->spool);
		sync_spool(s);
	}
	if (r < 0) {	/* an unreadable batch file: counted (its name has the counts) */
		pr_warn("--spool %s: cannot read the oldest batch: %s; dropped\n",
			ch_spool__dir(s->spool), strerror(-r));
		count_dropped(s, &b);
		ch_spool__pop(s->spool);
		sync_spool(s);
	}
}

/* A new batch: behind the spool if it holds anything or the server is away
 * (the spool's replay is what tries the server again, so a hung server
 * costs one timeout a second, not one per batch). */
static void handle(struct ch_sender *s, struct ch_batch *b)
{
	if (ch_spool__count(s->spool) || (s->down && s->spool) || send_batch(s, b))
		spool_or_drop(s, b);
	free(b->body);
	free(b);
}

static struct ch_batch *take_all(struct ch_sender *s, int *stopping)
{
	struct ch_batch *list;
	struct timespec until;

	pthread_mutex_lock(&s->lock);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += RETRY_NS / 1000000000ULL;
	while (!s->head && !s->stopping &&
	       pthread_cond_timedwait(&s->cond, &s->lock, &until) != ETIMEDOUT)
		;
	list = s->head;
	s->head = s->tail = NULL;
	*stopping = s->stopping;
	pthread_mutex_unlock(&s->lock);
	return list;
}

static void *sender_main(void *arg)
{
	struct ch_sender *s = arg;
	int stopping = 0;

	while (!stopping) {
		struct ch_batch *b = take_all(s, &stopping), *next;

		if (ch_spool__count(s->spool))
			drain_spool(s);
		for (; b; b = next) {
			next = b->next;
			handle(s, b);
		}
		/* kept alive for a burst (the tables of one interval, a replay),
		 * never held idle: a server shutting down waits for the
		 * connections it has, and would serve a held one for a while */
		ch_url__close(&s->url);
	}
	if (ch_spool__count(s->spool))
		drain_spool(s);
	return NULL;
}

struct ch_sender *ch_sender__start(const char *url, const char *spool_dir, uint64_t spool_max,
				   char *err, size_t errlen)
{
	struct ch_sender *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(err, errlen, "--clickhouse %s: %s", url, strerror(ENOMEM));
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	if (ch_url__parse(url, &s->url, err, errlen))
		goto fail;
	if (spool_dir && !(s->spool = ch_spool__open(spool_dir, spool_max, err, errlen)))
		goto fail;
	if (!ch_schema__create(&s->url, err, errlen))
		s->schema_ok = 1;
	else
		set_down(s, 1, err);	/* not fatal: the node keeps tracing and spools */
	sync_spool(s);
	if (thread_start_nosig(&s->thread, sender_main, s)) {
		snprintf(err, errlen, "--clickhouse %s: cannot start the sender thread", url);
		goto fail;
	}
	return s;
fail:
	ch_url__close(&s->url);
	ch_spool__close(s->spool);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
	return NULL;
}

void ch_sender__push(struct ch_sender *s, struct ch_batch *b)
{
	pthread_mutex_lock(&s->lock);
	b->next = NULL;
	if (s->tail)
		s->tail->next = b;
	else
		s->head = b;
	s->tail = b;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

void ch_sender__stats(struct ch_sender *s, struct ch_export_stats *st)
{
	pthread_mutex_lock(&s->lock);
	*st = s->st;
	pthread_mutex_unlock(&s->lock);
}

void ch_sender__stop(struct ch_sender *s, struct ch_export_stats *final)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stopping = 1;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	*final = s->st;
	ch_url__close(&s->url);
	ch_spool__close(s->spool);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
}
