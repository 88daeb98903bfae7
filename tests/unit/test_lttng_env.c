// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_lttng_env.c - a stock .NET runtime's LTTng configuration as the
 * runtime reads it (collector/sources/lttng_env.c): which events it calls
 * its tracepoints for; and the variables read from a child's environment.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lttng_env.h"
#include "test.h"

#define RT	"Microsoft-Windows-DotNETRuntime"
#define RUNDOWN	"Microsoft-Windows-DotNETRuntimeRundown"
#define KW_GC	0x1ULL
#define KW_EXC	0x8000ULL

static bool calls(const char *config, const char *prov, uint8_t level, uint64_t kw)
{
	struct lttng_env e = { .event_log = true };

	lttng_env__parse(&e, config);
	return lttng_env__calls(&e, prov, level, kw);
}

static void test_unset_or_empty_is_all(void)
{
	ASSERT_TRUE(calls(NULL, RT, 5, KW_EXC), "unset");
	ASSERT_TRUE(calls("", RUNDOWN, 5, 0x8), "empty");
}

static void test_keywords_and_level(void)
{
	ASSERT_TRUE(calls(RT ":1:4", RT, 4, KW_GC), "GC keyword on");
	ASSERT_FALSE(calls(RT ":1:4", RT, 4, KW_EXC), "the Exception keyword left out");
	ASSERT_TRUE(calls(RT ":1:4", RT, 4, KW_EXC | KW_GC), "one shared bit is enough");
	ASSERT_FALSE(calls(RT ":1:4", RT, 5, KW_GC), "Verbose above Informational");
	ASSERT_TRUE(calls(RT ":1:0", RT, 5, KW_GC), "level 0: any");
	ASSERT_TRUE(calls(RT ":1:4", RT, 4, 0), "an event of no keyword");
	ASSERT_TRUE(calls(RT "::", RT, 5, KW_EXC), "empty keywords and level: all, Verbose");
	ASSERT_TRUE(calls(RT, RT, 5, KW_EXC), "the provider alone");
	ASSERT_TRUE(calls(RT ":0x8000:4", RT, 4, KW_EXC), "hex with 0x");
	ASSERT_TRUE(calls("microsoft-windows-dotnetruntime:8000:4", RT, 4, KW_EXC),
		    "provider names match without case");
}

static void test_providers(void)
{
	const char *two = RT ":8000:4," RUNDOWN ":8:4";

	ASSERT_TRUE(calls(two, RT, 4, KW_EXC), "first entry");
	ASSERT_TRUE(calls(two, RUNDOWN, 4, 0x8), "second entry");
	ASSERT_FALSE(calls(RT ":8000:4", RUNDOWN, 4, 0x8), "a provider not named is off");
	ASSERT_FALSE(calls(RT ":8000:4," RT ":1:4", RT, 4, KW_EXC), "the last entry wins");
	ASSERT_TRUE(calls("*:FFFFFFFFFFFFFFFF:5", RUNDOWN, 5, 0x8), "* all at Verbose");
	ASSERT_FALSE(calls("*:1:4", RT, 4, KW_GC), "* with less names no provider");
	ASSERT_FALSE(calls("*:FFFFFFFFFFFFFFFF:5," RT ":1:4", RT, 4, KW_EXC),
		     "an entry after * overrides it");
	ASSERT_TRUE(calls("*:FFFFFFFFFFFFFFFF:5," RT ":1:4", RUNDOWN, 4, 0x8),
		    "the others stay on");
	ASSERT_TRUE(calls(RT ":1:4,*:FFFFFFFFFFFFFFFF:5", RT, 4, KW_EXC), "* after an entry");
}

static void test_no_event_log_calls_nothing(void)
{
	struct lttng_env e = { .event_log = false };

	lttng_env__parse(&e, NULL);
	ASSERT_FALSE(lttng_env__calls(&e, RT, 4, KW_GC), "EnableEventLog off");
}

/* a child started with env, read back as the collector reads a target */
static void read_child(char *const env[], struct lttng_env *e, int *err)
{
	int go[2], exec_done[2];
	pid_t pid;
	char c;

	*err = -1;
	if (pipe(go) || pipe2(exec_done, O_CLOEXEC))
		return;
	pid = fork();
	if (!pid) {
		char *argv[] = { "sh", "-c", "read x", NULL };

		dup2(go[0], 0);
		close(go[1]);
		close(exec_done[0]);
		execve("/bin/sh", argv, env);
		_exit(127);
	}
	close(go[0]);
	close(exec_done[1]);
	while (read(exec_done[0], &c, 1) > 0)	/* EOF: its exec closed the other end */
		;
	close(exec_done[0]);
	*err = lttng_env__read(pid, e);
	close(go[1]);
	waitpid(pid, NULL, 0);
}

static void test_read_from_environment(void)
{
	char *dotnet[] = { "DOTNET_EnableEventLog=1", "DOTNET_LTTngConfig=" RT ":1:4", NULL };
	char *complus[] = { "COMPlus_EnableEventLog=1", "COMPlus_LTTngConfig=" RT ":8000:4",
			    "DOTNET_LTTngConfig=" RT ":1:4", NULL };
	char *off[] = { "DOTNET_EnableEventLog=0", "COMPlus_EnableEventLog=1", NULL };
	struct lttng_env e;
	int err;

	read_child(dotnet, &e, &err);
	ASSERT_EQ(err, 0, "read");
	ASSERT_TRUE(e.event_log, "DOTNET_EnableEventLog=1");
	ASSERT_STREQ(e.config, RT ":1:4", "DOTNET_LTTngConfig");
	ASSERT_FALSE(lttng_env__calls(&e, RT, 4, KW_EXC), "Exception left out");
	read_child(complus, &e, &err);
	ASSERT_EQ(err, 0, "read");
	ASSERT_STREQ(e.config, RT ":1:4", "DOTNET_ wins over COMPlus_");
	read_child(off, &e, &err);
	ASSERT_EQ(err, 0, "read");
	ASSERT_FALSE(e.event_log, "DOTNET_EnableEventLog=0 wins");
	ASSERT_TRUE(e.all, "no config: all");
}

int main(void)
{
	RUN(test_unset_or_empty_is_all);
	RUN(test_keywords_and_level);
	RUN(test_providers);
	RUN(test_no_event_log_calls_nothing);
	RUN(test_read_from_environment);
	return test_summary();
}
