/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * elf_file.h - a file opened for reading with libelf, checked to be an ELF
 * object (the prologue every reader of ELF files here starts with).
 *
 * The errors are negative errno values, so that a caller's message is one
 * strerror() line: open(2)'s own (-ENOENT, -EACCES, ...), -ENOEXEC when
 * the file is not an ELF object, -EINVAL when libelf cannot be used.
 */
#ifndef EC_COMMON_ELF_FILE_H
#define EC_COMMON_ELF_FILE_H

#include <libelf.h>

struct elf_file {
	Elf *elf;
	int fd;		/* ours to close; -1 when the caller's fd was used */
};

/* Open path read-only as an ELF object.  0, or a negative errno as above
 * (ef then holds nothing to close). */
int elf_file__open(struct elf_file *ef, const char *path);

/* The same over fd, which stays the caller's: elf_file__close() leaves it
 * open.  0, -ENOEXEC or -EINVAL. */
int elf_file__open_fd(struct elf_file *ef, int fd);

/* End the Elf handle and close the file we opened (NULL-safe, idempotent). */
void elf_file__close(struct elf_file *ef);

#endif /* EC_COMMON_ELF_FILE_H */
