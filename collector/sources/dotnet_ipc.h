/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * dotnet_ipc.h - the .NET runtime's diagnostics IPC channel (every runtime
 * since .NET 5): finding a process's socket, and the commands the collector
 * uses (ProcessInfo, CollectTracing2/3, StopTracing, ResumeRuntime,
 * EnablePerfMap, DisablePerfMap).
 *
 * Wire format (little endian): a 20-byte header - magic "DOTNET_IPC_V1"
 * plus NUL, uint16 total size (header included), uint8 command set, uint8
 * command id, uint16 reserved - then the payload.  Responses use command
 * set 0xFF: id 0x00 OK (payload per command), 0xFF error (uint32 HRESULT).
 * Strings are uint32 length in UTF-16 code units (terminating NUL
 * included, 0 = null) followed by UTF-16LE.
 *
 * The socket is <TMPDIR>/dotnet-diagnostic-<pid>-<disambiguator>-socket,
 * with the pid and TMPDIR as the process itself sees them (its innermost
 * pid namespace, its mount namespace): it is reached from the host through
 * /proc/PID/root, which works for containers too.
 */
#ifndef EBPF_COLLECT_DOTNET_IPC_H
#define EBPF_COLLECT_DOTNET_IPC_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "clock.h"

#define DN_IPC_HEADER_SIZE	20

enum {
	DN_SET_EVENTPIPE = 0x02,
	DN_SET_PROCESS = 0x04,
	DN_SET_SERVER = 0xFF,
};

enum {
	DN_EP_STOP_TRACING = 0x01,
	DN_EP_COLLECT_TRACING2 = 0x03,
	DN_EP_COLLECT_TRACING3 = 0x04,	/* + requestStackwalk (.NET 7+) */
};

enum {
	DN_PROC_INFO = 0x00,
	DN_PROC_RESUME_RUNTIME = 0x01,
	DN_PROC_INFO2 = 0x04,		/* + entry assembly, runtime version (.NET 6+) */
	DN_PROC_ENABLE_PERFMAP = 0x05,	/* .NET 8+ */
	DN_PROC_DISABLE_PERFMAP = 0x06,
};

enum { DN_RESP_OK = 0x00, DN_RESP_ERROR = 0xFF };

/* HRESULTs the runtime answers with */
#define DN_E_UNKNOWN_COMMAND	0x80131385u
#define DN_E_NOTSUPPORTED	0x80131515u

/* EnablePerfMap's type: 3 = perf map only (no jitdump) */
#define DN_PERFMAP_TYPE_PERFMAP	3

struct dn_socket {
	pid_t pid;			/* host pid */
	pid_t nspid;			/* the pid the runtime knows itself by */
	char path[PATH_MAX];		/* through /proc/PID/root */
	uid_t uid;			/* the socket's owner */
};

/* Find pid's diagnostics socket.  0; -ESRCH (no such process); -ENOENT (no
 * socket: not .NET, or DOTNET_EnableDiagnostics=0); other -errno. */
int dn_find_socket(pid_t pid, struct dn_socket *s);

/* The innermost pid (last NSpid field of /proc/PID/status); 0 if unknown. */
pid_t dn_nspid(pid_t pid);

/* Build a request header into buf (DN_IPC_HEADER_SIZE bytes). */
void dn_put_header(uint8_t *buf, uint16_t total, uint8_t set, uint8_t id);

/* Parse a response header: 0 with *total, *set, *id filled; -EPROTO. */
int dn_parse_header(const uint8_t *buf, uint16_t *total, uint8_t *set, uint8_t *id);

/* The whole of one exchange (connect, request, reply) must end within
 * this: a peer that never answers, or answers a byte at a time, is given up
 * on (any local user can create a socket named like a runtime's). */
#define DN_EXCHANGE_TIMEOUT_S	5
#define DN_EXCHANGE_TIMEOUT_MS	(DN_EXCHANGE_TIMEOUT_S * 1000)

/* How long an exchange may take, and what ends it early. */
struct dn_wait {
	uint64_t deadline_ms;		/* CLOCK_MONOTONIC ms (mono_ms) */
	const volatile bool *cancel;	/* set: give up (-ECANCELED); may be NULL */
};

/*
 * One request/response on a fresh connection, within w (NULL: the next
 * DN_EXCHANGE_TIMEOUT_MS).  On DN_RESP_OK the payload (malloc'd, *len
 * bytes) goes to *payload (may be NULL: discarded) and 0 is returned; an
 * error response returns -EPROTO with the HRESULT in *hresult; a reply
 * that is not one (no IPC magic, not the server's command set) -EBADMSG;
 * no whole reply by the deadline -ETIMEDOUT (*got, when not NULL, says how
 * many bytes of it came); other failures -errno.  keep_fd != NULL keeps the
 * connection open (for the session's stream) instead of closing it.
 */
struct dn_reply_info {
	size_t got;			/* reply bytes received */
};
int dn_command_wait(const char *path, uint8_t set, uint8_t id, const void *payload,
		    size_t payload_len, uint8_t **resp, size_t *resp_len, uint32_t *hresult,
		    int *keep_fd, const struct dn_wait *w, struct dn_reply_info *got);

struct dn_process_info {
	uint64_t pid;
	char cmdline[1024];
	char os[64];
	char arch[64];
	char entry_assembly[256];	/* ProcessInfo2 */
	char runtime_version[64];	/* ProcessInfo2, "" with ProcessInfo */
};

/* Parse a ProcessInfo (v2 = 0) or ProcessInfo2 (v2 = 1) payload: 0 or -EPROTO. */
int dn_parse_process_info(const uint8_t *p, size_t len, int v2, struct dn_process_info *pi);

/* ProcessInfo2, falling back to ProcessInfo on an older runtime. */
int dn_process_info(const char *path, struct dn_process_info *pi, uint32_t *hresult);

struct dn_provider {
	const char *name;
	uint64_t keywords;
	uint32_t level;
};

/* CollectTracing2 (version 2) or 3 payload (format NetTrace); bytes
 * written, or -E2BIG when cap is too small. */
long dn_build_collect(uint8_t *buf, size_t cap, int version, uint32_t buffer_mb, int rundown,
		      const struct dn_provider *provs, int n);


/* "HRESULT 0x80131385 (unknown command)" */
const char *dn_hresult_str(uint32_t hr, char *buf, size_t n);

#endif
