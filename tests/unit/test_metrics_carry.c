// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of the daemon's side of --metrics: the counters carried over
 * a reload (counters, histograms and summaries' sums and counts; gauges
 * not; a series an ended trace had and the running one lacks, in its own
 * family's group) and the text handed over the shared mapping, including
 * what a writer that died mid-write leaves.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "metrics_agg.h"
#include "metrics_carry.h"
#include "metrics_shm.h"

static const char first[] =
	"# HELP c_total C.\n# TYPE c_total counter\n"
	"c_total{pid=\"1\"} 5\nc_total{pid=\"2\"} 7\n"
	"# HELP g A gauge.\n# TYPE g gauge\ng 3\n"
	"# HELP h H.\n# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 3\n"
	"h_sum 0.25\nh_count 3\n"
	"# HELP s S.\n# TYPE s summary\ns{quantile=\"0.5\"} 9\ns_sum 1.5\ns_count 2\n";

static const char second[] =
	"# HELP c_total C.\n# TYPE c_total counter\nc_total{pid=\"1\"} 1\n"
	"# HELP g A gauge.\n# TYPE g gauge\ng 1\n";

static char *render(struct mcarry *c, const char *text, pid_t writer)
{
	struct mbuf b = { 0 };

	mcarry__render(c, text, writer, &b);
	return b.failed ? NULL : b.p;
}

static void test_carry(void)
{
	struct mcarry *c = mcarry__new();
	char *out;

	out = render(c, first, 100);
	ASSERT_STREQ(out, first, "one trace: its text as it is");
	free(out);
	out = render(c, second, 100);
	ASSERT_STREQ(out, second, "the same trace again: nothing carried");
	free(out);
	out = render(c, first, 100);
	free(out);
	/* trace 100 ended at `first`; trace 200 says `second` */
	out = render(c, second, 200);
	ASSERT_STREQ(out,
		     "# HELP c_total C.\n# TYPE c_total counter\nc_total{pid=\"1\"} 6\n"
		     "c_total{pid=\"2\"} 7\n"
		     "# HELP g A gauge.\n# TYPE g gauge\ng 1\n"
		     "# HELP h H.\n# TYPE h histogram\nh_bucket{le=\"1\"} 2\n"
		     "h_bucket{le=\"+Inf\"} 3\nh_sum 0.25\nh_count 3\n"
		     "# HELP s S.\n# TYPE s summary\ns_sum 1.5\ns_count 2\n",
		     "counters summed, kept in their family, gauges and quantiles the running trace's");
	free(out);
	/* and a third trace: both ended ones count */
	out = render(c, second, 300);
	ASSERT_TRUE(out && strstr(out, "c_total{pid=\"1\"} 7\n"), "two reloads");
	free(out);
	mcarry__free(c);
}

static void test_shm(void)
{
	struct metrics_shm *s = metrics_shm__new();
	char *text = NULL;
	size_t len = 0;
	pid_t w = 0;

	if (!ASSERT_TRUE(s != NULL, "mapping"))
		return;
	ASSERT_EQ(metrics_shm__read(s, &text, &len, &w), 0, "nothing yet");
	ASSERT_OK(metrics_shm__publish(s, "a 1\n", 4), "publish");
	ASSERT_EQ(metrics_shm__read(s, &text, &len, &w), 1, "read");
	ASSERT_STREQ(text, "a 1\n", "text");
	ASSERT_EQ(len, 4, "length");
	ASSERT_EQ(w, getpid(), "writer");
	free(text);
	text = NULL;
	/* a writer that died mid-write leaves seq odd: not read */
	(*(uint64_t *)s)++;
	ASSERT_EQ(metrics_shm__read(s, &text, &len, &w), 0, "a torn text is not read");
	ASSERT_OK(metrics_shm__publish(s, "b 2\n", 4), "the next writer");
	ASSERT_EQ(metrics_shm__read(s, &text, &len, &w), 1, "read after it");
	ASSERT_STREQ(text, "b 2\n", "its text");
	free(text);
	metrics_shm__set_export_ok_ns(s, 5);
	metrics_shm__set_export_ok_ns(s, 3);
	ASSERT_EQ(metrics_shm__export_ok_ns(s), 5, "the last success never goes back");
	metrics_shm__free(s);
}

int main(void)
{
	RUN(test_carry);
	RUN(test_shm);
	return test_summary();
}
