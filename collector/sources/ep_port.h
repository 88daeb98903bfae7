/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ep_port.h - the collector's own diagnostic port (--dotnet-port PATH): a
 * runtime started with DOTNET_DiagnosticPorts=PATH,suspend connects to it
 * before its first managed method, announces itself and waits there until
 * ResumeRuntime comes on that connection, so that its session can start
 * first (what dotnet-trace --diagnostic-port does).
 *
 * What a runtime sends on each connection (little endian): "ADVR_V1" and a
 * NUL, its 16-byte instance cookie, its uint64 pid (as it knows it), a
 * uint16 reserved.  The pid the collector uses is the kernel's
 * (SO_PEERCRED), so a runtime in a container is known by its host pid.
 * After a command, the runtime connects again and waits for the next one:
 * such later connections are held, unused, until the process ends.
 */
#ifndef EBPF_COLLECT_EP_PORT_H
#define EBPF_COLLECT_EP_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define EP_PORT_ADVERTISE_SIZE	34
#define EP_PORT_MAX_CONNS	1024	/* more are closed at once */

enum ep_port_state {
	EP_PORT_READING,	/* its announcement is still coming */
	EP_PORT_WAITING,	/* announced, suspended: waits for ep_port__resume */
	EP_PORT_RESUMED,	/* ResumeRuntime sent: its answer is read, then closed */
	EP_PORT_IDLE,		/* a later connection: held until the process ends */
};

struct ep_port_conn {
	int fd;
	pid_t pid;		/* host pid (SO_PEERCRED) */
	enum ep_port_state state;
	uint64_t deadline_ms;	/* READING, RESUMED: given up then */
	uint8_t buf[EP_PORT_ADVERTISE_SIZE];
	size_t got;
	bool reported;		/* WAITING: returned by ep_port__next */
};

struct ep_port {			/* all zero: no port */
	int fd;			/* listening */
	char path[108];		/* sun_path; "" when there is no port */
	struct ep_port_conn *c;
	size_t n, cap;
	pid_t *done;		/* resumed once: later connections are idle */
	size_t n_done, cap_done;
};

/* Listen on path (a stale socket there, that nobody answers on, is
 * replaced; anything else there is an error), mode 0666 so that every
 * user's runtime can connect.  0, or -errno with a reason in err. */
int ep_port__listen(struct ep_port *p, const char *path, char *err, size_t errsz);

/* Accept, read announcements, answers and hang-ups, without blocking.
 * The next runtime that announced itself and waits for a resume (> 0), or
 * 0 when there is none now.  Call until 0. */
pid_t ep_port__next(struct ep_port *p);

/* Does pid wait on the port for its resume? */
bool ep_port__waiting(const struct ep_port *p, pid_t pid);

/* ResumeRuntime to every waiting runtime whose session is not starting
 * (starting(ctx, pid) false: it runs, failed, or there is none).  A
 * connection that cannot take the command is closed (the runtime then
 * connects again). */
void ep_port__resume_ready(struct ep_port *p, bool (*starting)(void *ctx, pid_t pid),
			   void *ctx);

/* Resume every runtime still waiting, close every connection and the
 * port; the socket file is removed.  p is all zero again. */
void ep_port__close(struct ep_port *p);

#endif
