// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_pipeline.c - registering with the pipeline (collector/pipeline/):
 * one source past PIPELINE_MAX_SOURCES, one consumer past
 * PIPELINE_MAX_CONSUMERS, or a source of record types beyond the dispatch
 * table is refused with one line naming it and the cause, and nothing of it
 * is registered (the session's start then fails: what is not registered
 * would lose its records).
 */
#include <stdarg.h>
#include "log.h"
#include "pipeline.h"
#include "test.h"

static char logged[512];
static int n_logged;

static int capture(enum log_level level, const char *fmt, va_list ap)
{
	(void)level;
	n_logged++;
	vsnprintf(logged, sizeof(logged), fmt, ap);
	return 0;
}

static int emit_none(void *ctx, const struct pipeline_sink *s, const void *rec, size_t len)
{
	(void)ctx, (void)s, (void)rec, (void)len;
	return 0;
}

static void record_none(void *ctx, const void *rec, size_t len)
{
	(void)ctx, (void)rec, (void)len;
}

static void test_sources(void)
{
	static struct pipeline_source_ops ops[PIPELINE_MAX_SOURCES + 1];
	static struct pipeline p;
	char name[16];

	n_logged = 0;
	for (int i = 0; i <= PIPELINE_MAX_SOURCES; i++)
		ops[i] = (struct pipeline_source_ops){ .first_type = i, .last_type = i,
						       .emit = emit_none };
	for (int i = 0; i < PIPELINE_MAX_SOURCES; i++) {
		snprintf(name, sizeof(name), "source %d", i);
		ASSERT_OK(pipeline__add_source(&p, &ops[i], NULL, name), name);
	}
	ASSERT_EQ(n_logged, 0, "no message while there is room");
	ASSERT_EQ(pipeline__add_source(&p, &ops[PIPELINE_MAX_SOURCES], NULL, "--extra"),
		  -ENOSPC, "one source too many");
	ASSERT_EQ(n_logged, 1, "one line");
	ASSERT_STREQ(logged, "ebpf-collect: cannot register source --extra: the pipeline takes "
		     "at most 8 sources\n", "the line names the source and the cause");
	ASSERT_EQ(p.nr_src, PIPELINE_MAX_SOURCES, "the sources registered before");
	ASSERT_TRUE(pipeline__source(&p, PIPELINE_MAX_SOURCES - 1, false) ==
		    &p.src[PIPELINE_MAX_SOURCES - 1], "the last one that fit takes its type");
	ASSERT_TRUE(!pipeline__source(&p, PIPELINE_MAX_SOURCES, false),
		    "the refused one's type has no source");
}

static void test_source_types(void)
{
	static const struct pipeline_source_ops past = {
		.first_type = PIPELINE_TYPES - 2, .last_type = PIPELINE_TYPES, .emit = emit_none,
	}, reversed = { .first_type = 5, .last_type = 4, .emit = emit_none };
	static struct pipeline p;

	n_logged = 0;
	ASSERT_EQ(pipeline__add_source(&p, &past, NULL, "--wide"), -EINVAL, "types past the table");
	ASSERT_STREQ(logged, "ebpf-collect: cannot register source --wide: record types 62..64 "
		     "are not within the dispatch table's 0..63\n", "the line");
	ASSERT_EQ(pipeline__add_source(&p, &reversed, NULL, "--reversed"), -EINVAL,
		  "first type after the last");
	ASSERT_STREQ(logged, "ebpf-collect: cannot register source --reversed: record types "
		     "5..4 are not within the dispatch table's 0..63\n", "the line");
	ASSERT_EQ(n_logged, 2, "one line each");
	ASSERT_EQ(p.nr_src, 0, "neither registered");
	ASSERT_TRUE(!pipeline__source(&p, PIPELINE_TYPES - 2, false), "nor its types");
}

static void test_consumers(void)
{
	static const struct pipeline_consumer_ops ops = { .record = record_none };
	static struct pipeline p;
	static int ctx[PIPELINE_MAX_CONSUMERS + 1];

	n_logged = 0;
	for (int i = 0; i < PIPELINE_MAX_CONSUMERS; i++)
		ASSERT_OK(pipeline__add_consumer(&p, &ops, &ctx[i], "--metrics"), "room");
	ASSERT_EQ(n_logged, 0, "no message while there is room");
	ASSERT_EQ(pipeline__add_consumer(&p, &ops, &ctx[PIPELINE_MAX_CONSUMERS], "--clickhouse"),
		  -ENOSPC, "one consumer too many");
	ASSERT_EQ(n_logged, 1, "one line");
	ASSERT_STREQ(logged, "ebpf-collect: cannot register consumer --clickhouse: the pipeline "
		     "takes at most 4 consumers\n", "the line names the consumer and the cause");
	ASSERT_EQ(p.nr_cons, PIPELINE_MAX_CONSUMERS, "the consumers registered before");
	for (int i = 0; i < p.nr_cons; i++)
		ASSERT_TRUE(p.cons[i].ctx != &ctx[PIPELINE_MAX_CONSUMERS], "not the refused one");
	/* room again once one is gone (a fleet output stopped) */
	pipeline__remove_consumer(&p, &ctx[0]);
	ASSERT_OK(pipeline__add_consumer(&p, &ops, &ctx[PIPELINE_MAX_CONSUMERS], "--clickhouse"),
		  "room after a removal");
}

int main(void)
{
	log_set_print(capture);
	RUN(test_sources);
	RUN(test_source_types);
	RUN(test_consumers);
	return test_summary();
}
