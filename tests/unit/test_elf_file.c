// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_elf_file.c - common/elf_file: this program opens as an ELF object by
 * path and by descriptor; a missing file is -ENOENT and a text file
 * -ENOEXEC, without a descriptor left open; a caller's descriptor stays
 * the caller's.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "test.h"
#include "elf_file.h"

/* The lowest free descriptor: the same before and after a call that must
 * not leak one. */
static int next_fd(void)
{
	int fd = dup(0);

	if (fd >= 0)
		close(fd);
	return fd;
}

static void test_path(void)
{
	struct elf_file ef;

	if (!ASSERT_OK(elf_file__open(&ef, "/proc/self/exe"), "open this program"))
		return;
	ASSERT_OK_PTR(ef.elf, "Elf handle");
	ASSERT_EQ(elf_kind(ef.elf), ELF_K_ELF, "an ELF object");
	ASSERT_GE(ef.fd, 0, "our descriptor");
	elf_file__close(&ef);
	ASSERT_TRUE(!ef.elf && ef.fd == -1, "closed");
	elf_file__close(&ef);	/* twice: nothing */
	elf_file__close(NULL);
}

static void test_errors(void)
{
	struct elf_file ef;
	int fd = next_fd();

	ASSERT_EQ(elf_file__open(&ef, "/nonexistent"), -ENOENT, "missing file");
	ASSERT_TRUE(!ef.elf && ef.fd == -1, "nothing held");
	ASSERT_EQ(elf_file__open(&ef, "/proc/self/status"), -ENOEXEC, "not ELF");
	ASSERT_TRUE(!ef.elf && ef.fd == -1, "nothing held");
	ASSERT_EQ(next_fd(), fd, "no descriptor left open");
	elf_file__close(&ef);
}

/* By descriptor: the caller's fd is read and stays open after close. */
static void test_fd(void)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	int txt = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	struct elf_file ef;

	if (!ASSERT_GE(fd, 0, "open exe") || !ASSERT_GE(txt, 0, "open status"))
		goto out;
	if (ASSERT_OK(elf_file__open_fd(&ef, fd), "open by fd")) {
		ASSERT_EQ(ef.fd, -1, "the fd is not ours");
		elf_file__close(&ef);
		ASSERT_GE(fcntl(fd, F_GETFD), 0, "still open after close");
	}
	ASSERT_EQ(elf_file__open_fd(&ef, txt), -ENOEXEC, "not ELF by fd");
	ASSERT_GE(fcntl(txt, F_GETFD), 0, "still open after the error");
out:
	if (fd >= 0)
		close(fd);
	if (txt >= 0)
		close(txt);
}

int main(void)
{
	RUN(test_path);
	RUN(test_errors);
	RUN(test_fd);
	return test_summary();
}
