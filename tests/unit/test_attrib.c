// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_attrib.c - collector/fleet/attrib: --service-from comm, env:NAME
 * and cgroup on a child process (sleep, with SVC=checkout in its
 * environment), --service as the fallback, the option's parsing, and an
 * exec record naming a program /proc no longer has.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "test.h"
#include "attrib.h"

static pid_t start_sleep(void)
{
	char *argv[] = { "sleep", "30", NULL };
	char *envp[] = { "SVC=checkout", "PATH=/usr/bin:/bin", NULL };
	pid_t pid = fork();
	char link[64], exe[256];
	int i;

	if (pid == 0) {
		execve("/bin/sleep", argv, envp);
		_exit(127);
	}
	/* until it runs sleep, not our copy, and its environment is in place:
	 * /proc/PID/exe names the new program before execve has copied the
	 * environment onto the new stack, when environ reads empty */
	for (i = 0; i < 2000; i++) {
		char env[64];
		ssize_t n;
		FILE *f;

		snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
		n = readlink(link, exe, sizeof(exe) - 1);
		if (n > 0 && (exe[n] = '\0', strstr(exe, "sleep"))) {
			snprintf(link, sizeof(link), "/proc/%d/environ", (int)pid);
			f = fopen(link, "r");
			n = f ? (ssize_t)fread(env, 1, sizeof(env), f) : 0;
			if (f)
				fclose(f);
			if (n > 0)
				break;
		}
		usleep(1000);
	}
	return pid;
}

static const char *service(const struct attrib_opts *o, pid_t pid, char *out, size_t len)
{
	struct attrib *a = attrib__new(o);

	snprintf(out, len, "%s", a ? attrib__get(a, pid)->service : "(no memory)");
	attrib__free(a);
	return out;
}

static void test_service_from(void)
{
	struct attrib_opts o = { .service = "fallback" };
	char buf[ATTRIB_SERVICE_LEN];
	pid_t pid = start_sleep();

	if (!ASSERT_TRUE(pid > 0, "fork"))
		return;
	ASSERT_STREQ(service(&o, pid, buf, sizeof(buf)), "fallback", "--service alone");
	ASSERT_OK(attrib_opts__parse("comm", &o), "comm");
	ASSERT_STREQ(service(&o, pid, buf, sizeof(buf)), "sleep", "--service-from comm");
	ASSERT_OK(attrib_opts__parse("env:SVC", &o), "env:SVC");
	ASSERT_STREQ(service(&o, pid, buf, sizeof(buf)), "checkout", "--service-from env:SVC");
	ASSERT_OK(attrib_opts__parse("env:NOPE", &o), "env:NOPE");
	ASSERT_STREQ(service(&o, pid, buf, sizeof(buf)), "fallback", "unset: the fallback");
	ASSERT_OK(attrib_opts__parse("cgroup", &o), "cgroup");
	service(&o, pid, buf, sizeof(buf));
	ASSERT_TRUE(buf[0] && !strchr(buf, '/') && !strstr(buf, ".scope"),
		    "--service-from cgroup: a leaf without its unit suffix, or the fallback");
	ASSERT_EQ(attrib_opts__parse("cpu", &o), -EINVAL, "cpu");
	ASSERT_EQ(attrib_opts__parse("env:", &o), -EINVAL, "env: alone");
	ASSERT_EQ(attrib_opts__parse("env:A=B", &o), -EINVAL, "env:A=B");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* A pid /proc does not have (the program exited): its exec record names it. */
static void test_exec_of_gone(void)
{
	struct attrib_opts o = { .from = SERVICE_COMM };
	struct attrib *a = attrib__new(&o);
	const struct proc_attr *p;

	if (!ASSERT_OK_PTR(a, "new"))
		return;
	attrib__exec(a, 0x7ffffff0, "shortlived", "/usr/bin/shortlived");
	p = attrib__get(a, 0x7ffffff0);
	ASSERT_STREQ(p->pi.comm, "shortlived", "comm from the exec record");
	ASSERT_STREQ(p->pi.exe, "/usr/bin/shortlived", "exe from the exec record");
	ASSERT_STREQ(p->service, "shortlived", "its service derived from that comm");
	attrib__sweep(a);
	attrib__sweep(a);	/* not got since: forgotten */
	ASSERT_STREQ(attrib__get(a, 0x7ffffff0)->pi.comm, "", "read again: gone");
	attrib__free(a);
}

int main(void)
{
	RUN(test_service_from);
	RUN(test_exec_of_gone);
	return test_summary();
}
