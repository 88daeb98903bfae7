// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * elf_file.c - open a file or a descriptor as an ELF object with libelf.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "elf_file.h"

int elf_file__open_fd(struct elf_file *ef, int fd)
{
	ef->elf = NULL;
	ef->fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	ef->elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!ef->elf || elf_kind(ef->elf) != ELF_K_ELF) {
		elf_file__close(ef);
		return -ENOEXEC;
	}
	return 0;
}

int elf_file__open(struct elf_file *ef, const char *path)
{
	int fd, err;

	ef->elf = NULL;
	ef->fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = elf_file__open_fd(ef, fd);
	if (err) {
		close(fd);
		return err;
	}
	ef->fd = fd;
	return 0;
}

void elf_file__close(struct elf_file *ef)
{
	if (!ef)
		return;
	if (ef->elf)
		elf_end(ef->elf);
	if (ef->fd >= 0)
		close(ef->fd);
	ef->elf = NULL;
	ef->fd = -1;
}
