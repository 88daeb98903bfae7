// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_metrics_agg.c - collector/fleet/metrics_agg: the runtime series'
 * labels (comm, container, pod, service; pid only when asked; never host),
 * two processes with the same labels summed into one series, and the bound
 * on exception types (50 named per series, the rest type="other").
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/types.h>
#include "test.h"
#include "collector_event.h"
#include "event_table.h"
#include "pipeline.h"
#include "metrics_agg.h"

extern const struct ect_table clretw_event_table;

/* One event of symbol for pid with payload p[0..n), as a source hands it
 * to the consumers. */
static void fire(struct magg *a, pid_t pid, const char *symbol, const void *p, size_t n)
{
	const struct ect_event *ev = ect_find_symbol(&clretw_event_table, "DotNETRuntime", symbol);
	struct ce_header hdr = { .type = CE_REC_CLR_EVENT, .pid = pid, .tid = pid,
				 .timestamp = 1000 };
	struct pipeline_event pe = { .hdr = &hdr, .ev = ev, .payload = p, .payload_len = n };

	if (!ASSERT_OK_PTR(ev, symbol))
		return;
	pe.idx = (uint32_t)(ev - clretw_event_table.events);
	pe.version = ev->version;
	magg__event(a, &clretw_event_table, &pe);
}

static void gc(struct magg *a, pid_t pid)
{
	uint8_t p[26] = { 0 };	/* Count, Depth 0, Reason, Type, ClrInstanceID, ClientSequenceNumber */

	fire(a, pid, "GCStart_V2", p, sizeof(p));
}

/* ExceptionThrown_V1: ExceptionType, ExceptionMessage (UTF-16), EIPCodeThrow,
 * ExceptionHRESULT, ExceptionFlags, ClrInstanceID */
static void exception(struct magg *a, pid_t pid, const char *type)
{
	uint8_t p[512] = { 0 };
	size_t n = 0, i;

	for (i = 0; type[i]; i++, n += 2)
		p[n] = (uint8_t)type[i];
	n += 2 + 2 + 2 + 8 + 4 + 2 + 2;	/* its NUL, "" and the fixed fields */
	fire(a, pid, "ExceptionThrown_V1", p, n);
}

static char *render(struct magg *a)
{
	struct mbuf b = { 0 };

	magg__render(a, &b);
	return b.failed ? NULL : b.p;
}

static unsigned long long value_of(const char *text, const char *series)
{
	const char *p = strstr(text, series);

	return p ? strtoull(p + strlen(series), NULL, 10) : ~0ULL;
}

/* comm: the kernel keeps 15 bytes of the program's name, "test_metrics_ag" */
static void test_labels_and_bound(void)
{
	struct magg_opts o = { .attrib = { .service = "svc" } };
	struct magg *a = magg__new(&o);
	char line[256], *text;
	pid_t child;
	int i, named = 0;

	if (!ASSERT_OK_PTR(a, "new"))
		return;
	child = fork();	/* the same comm, cgroup and service: the same series */
	if (child == 0) {
		pause();
		_exit(0);
	}
	gc(a, getpid());
	gc(a, getpid());
	gc(a, child);
	for (i = 0; i < 60; i++) {
		snprintf(line, sizeof(line), "T%02d", i);
		exception(a, getpid(), line);
	}
	exception(a, child, "T00");
	exception(a, child, "T59");
	text = render(a);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	if (!ASSERT_OK_PTR(text, "render"))
		goto out;
	ASSERT_EQ(value_of(text, "ebpf_collect_gc_total{comm=\"test_metrics_ag\",container=\"\","
			   "pod=\"\",service=\"svc\",gen=\"0\"} "), 3ULL, "two processes, one series");
	ASSERT_TRUE(!strstr(text, "pid=") && !strstr(text, "host="), "no pid, no host label");
	for (i = 0; i < 60; i++) {
		snprintf(line, sizeof(line), "type=\"T%02d\"} ", i);
		named += strstr(text, line) != NULL;
	}
	ASSERT_EQ(named, 50, "50 types named");
	ASSERT_EQ(value_of(text, "type=\"T00\"} "), 2ULL, "a named type counts on");
	ASSERT_EQ(value_of(text, "type=\"other\"} "), 11ULL, "the rest are other");
out:
	free(text);
	magg__free(a);
}

static void test_pid_label(void)
{
	struct magg_opts o = { .pid_label = 1 };
	struct magg *a = magg__new(&o);
	char want[128], *text;

	if (!ASSERT_OK_PTR(a, "new"))
		return;
	gc(a, getpid());
	text = render(a);
	snprintf(want, sizeof(want), "ebpf_collect_gc_total{pid=\"%d\",comm=\"test_metrics_ag\","
		 "container=\"\",pod=\"\",gen=\"0\"} ", (int)getpid());
	ASSERT_EQ(text ? value_of(text, want) : 0, 1ULL, "pid first, no service");
	free(text);
	magg__free(a);
}

int main(void)
{
	RUN(test_labels_and_bound);
	RUN(test_pid_label);
	return test_summary();
}
