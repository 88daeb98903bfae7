// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_proc_info.c - common/proc_info: the cgroup path of a hybrid and a
 * cgroup2-only host, and the container id and pod UID of the path shapes
 * Docker, containerd, CRI-O, Podman and the kubelet make (systemd and
 * cgroupfs drivers), and our own process read from /proc.
 */
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "proc_info.h"

#define ID "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define UID "1a2b3c4d-0000-4111-8222-0123456789ab"
#define UID_ "1a2b3c4d_0000_4111_8222_0123456789ab"

static void test_pick(void)
{
	char out[PROC_PATH_LEN];

	proc_cgroup_pick("0::/system.slice/docker-" ID ".scope\n", out, sizeof(out));
	ASSERT_STREQ(out, "/system.slice/docker-" ID ".scope", "cgroup2 only");
	proc_cgroup_pick("9:name=systemd:/user.slice/session-3.scope\n4:memory:/x\n0::/\n",
			 out, sizeof(out));
	ASSERT_STREQ(out, "/user.slice/session-3.scope", "hybrid, root in cgroup2: systemd's");
	proc_cgroup_pick("9:name=systemd:/a.scope\n1:cpu:/\n0::/kubepods.slice/b\n", out,
			 sizeof(out));
	ASSERT_STREQ(out, "/kubepods.slice/b", "hybrid, a cgroup2 membership wins");
	proc_cgroup_pick("3:cpu,cpuacct:/x\n1:name=systemd:/docker/" ID "\n", out, sizeof(out));
	ASSERT_STREQ(out, "/docker/" ID, "v1 only");
	proc_cgroup_pick("9:name=systemd:/\n0::/\n", out, sizeof(out));
	ASSERT_STREQ(out, "/", "root everywhere");
	proc_cgroup_pick("", out, sizeof(out));
	ASSERT_STREQ(out, "/", "nothing");
}

static void ids(const char *path, const char *want_c, const char *want_p)
{
	char c[PROC_CONTAINER_LEN], p[PROC_POD_LEN];

	proc_cgroup_ids(path, c, p);
	ASSERT_STREQ(c, want_c, path);
	ASSERT_STREQ(p, want_p, path);
}

static void test_ids(void)
{
	ids("/system.slice/docker-" ID ".scope", ID, "");
	ids("/docker/" ID, ID, "");
	ids("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
	    ".slice/cri-containerd-" ID ".scope", ID, UID);
	ids("/kubepods.slice/kubepods-pod" UID_ ".slice/crio-" ID ".scope", ID, UID);
	ids("/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice",
	    "", UID);
	ids("/kubepods/burstable/pod" UID "/" ID, ID, UID);
	ids("/machine.slice/libpod-" ID ".scope/container", ID, "");
	ids("/machine.slice/libpod-conmon-" ID ".scope", "", "");
	ids("/system.slice/crio-conmon-" ID ".scope", "", "");
	ids("/user.slice/user-1000.slice/session-3.scope", "", "");
	ids("/system.slice/docker-" ID ".scopex", "", "");
	ids("/docker/" "0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef", "", "");
	ids("/kubepods.slice/kubepods-podnot-a-uid.slice", "", "");
	ids("/", "", "");
}

static void test_self(void)
{
	struct proc_info pi;
	char exe[PROC_PATH_LEN];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (!ASSERT_OK(proc_info_read(getpid(), &pi), "read ourselves"))
		return;
	exe[n > 0 ? n : 0] = '\0';
	ASSERT_STREQ(pi.comm, "test_proc_info", "comm");
	ASSERT_STREQ(pi.exe, exe, "exe");
	ASSERT_TRUE(pi.cgroup[0] == '/', "a cgroup path");
	ASSERT_EQ(proc_info_read(0x7ffffff0, &pi), -ENOENT, "no such process");
}

int main(void)
{
	RUN(test_pick);
	RUN(test_ids);
	RUN(test_self);
	return test_summary();
}
