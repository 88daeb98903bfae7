/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * usdt_notes.h - find USDT probes: SystemTap .note.stapsdt notes of an ELF
 * file, and the ELF files a process has mapped.
 *
 * Used only to list probes and to decide what to attach; attaching (and
 * argument specs) is libbpf's job (bpf_program__attach_usdt).
 */
#ifndef EBPF_COLLECT_USDT_NOTES_H
#define EBPF_COLLECT_USDT_NOTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct usdt_note {
	char *provider;
	char *name;
	char *args;		/* argument spec string, as written by sys/sdt.h */
	uint64_t pc;		/* ELF virtual address of the probe site */
	uint64_t semaphore;	/* ELF virtual address of the semaphore, 0 if none */
};

struct usdt_note_list {
	struct usdt_note *v;
	size_t n;
};

/* Read the stapsdt notes of an ELF file (prelink-adjusted with .stapsdt.base).
 * A file without notes gives n = 0 and returns 0.  Returns 0 or -errno
 * (-ENOEXEC: not an ELF file). */
int usdt_notes__load(const char *path, struct usdt_note_list *out);
void usdt_notes__free(struct usdt_note_list *l);	/* NULL-safe */
/* Does a note before l->v[i] name the same provider:probe?  (A probe
 * inlined at several sites has a note per site; libbpf attaches them all
 * at once.) */
bool usdt_notes__seen_before(const struct usdt_note_list *l, size_t i);

/* One distinct file-backed executable mapping of a process. */
struct mapped_file {
	char *path;		/* as the process sees it ("/usr/lib/.../libcoreclr.so") */
	char *open_path;	/* how we reach it: proc_map__open_path(); NULL
				 * when nothing reaches it (see mapped_file__reach) */
	dev_t dev;
	ino_t ino;
	int deleted;
};

struct mapped_file_list {
	struct mapped_file *v;
	size_t n;
};

/* Distinct ELF-candidate files with an executable mapping in /proc/PID/maps.
 * Returns 0, -ESRCH (no such process, or it has exited) or -errno. */
int proc_mapped_files(pid_t pid, struct mapped_file_list *out);
void mapped_file_list__free(struct mapped_file_list *l);	/* NULL-safe */
/* f->open_path, or NULL after a warning naming pid, the file and why. */
const char *mapped_file__reach(pid_t pid, const struct mapped_file *f);

/*
 * Attach to every file pid maps: fn gets each distinct executable file and
 * returns the probes it attached there (>= 0), or -errno, which ends the
 * walk.  Returns the sum, or the first -errno.  Used by the runtime
 * provider's attach (clr_events.c) and by --usdt (usdt_generic.c).
 */
typedef int (*mapped_file_fn)(void *ctx, pid_t pid, const struct mapped_file *f);
int attach_mapped_files(pid_t pid, mapped_file_fn fn, void *ctx);

#endif
