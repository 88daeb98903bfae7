/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * nettrace.h - streaming writer and tolerant reader for .nettrace files
 * (NetTrace V5 semantics in the version-4 FastSerialization container,
 * as `dotnet-trace collect` writes them; with nt_trace_info.format = 6 the
 * writer writes NetTrace V6 instead, whose threads are (process, thread)
 * pairs, so one file holds events of many processes).  Format reference:
 * docs/nettrace-format.md.
 *
 * Writer: bounded memory.  Events go into an EventBlock buffer (and their
 * stacks into a StackBlock buffer, each distinct stack once per
 * sequence-point region); when a block fills (~100 KiB) the pending
 * metadata, stack and event blocks are written in that order, so a writer
 * killed mid-trace leaves a file readable up to its last whole block.
 *
 * Reader: V4/V5 container (trace object version 4), compressed and
 * uncompressed event headers, and the V6 block format (thread indexes are
 * mapped back to OS thread ids); stops cleanly on truncation or corruption
 * and reports the byte offset and the reason.
 *
 * Split: a trace into one V5 file per process (nt_split_by_process).
 *
 * The library knows no event of its own: every event in a file, the
 * markers and summaries a caller wants for its losses too, is described by
 * the caller (nt_writer__define, nt_writer__set_lost_marker,
 * struct nt_last_event, struct nt_event_lookup).  nettrace_bytes.h has the
 * format's encodings for callers that read or build bytes themselves.
 */
#ifndef EBPF_COLLECT_NETTRACE_H
#define EBPF_COLLECT_NETTRACE_H

#include <errno.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>


/* Metadata type codes (V4/V5) */
enum nt_type {
	NT_TYPE_OBJECT = 1,
	NT_TYPE_BOOLEAN = 3,	/* 4 bytes */
	NT_TYPE_CHAR = 4,
	NT_TYPE_SBYTE = 5,
	NT_TYPE_BYTE = 6,
	NT_TYPE_INT16 = 7,
	NT_TYPE_UINT16 = 8,
	NT_TYPE_INT32 = 9,
	NT_TYPE_UINT32 = 10,
	NT_TYPE_INT64 = 11,
	NT_TYPE_UINT64 = 12,
	NT_TYPE_SINGLE = 13,
	NT_TYPE_DOUBLE = 14,
	NT_TYPE_DECIMAL = 15,
	NT_TYPE_DATETIME = 16,
	NT_TYPE_GUID = 17,
	NT_TYPE_STRING = 18,	/* UTF-16LE, NUL-terminated */
	NT_TYPE_ARRAY = 19,	/* uint16 count, then elements (V2Params) */
	/* V6 only (read, never written): */
	NT_TYPE_VARINT = 20,	/* zig-zag LEB128 */
	NT_TYPE_VARUINT = 21,	/* LEB128 */
	NT_TYPE_UTF8_CODE_UNIT = 23,
	NT_TYPE_BOOLEAN8 = 26,
};

struct nt_field_desc {
	const char *name;
	uint32_t type;				/* enum nt_type */
	uint32_t elem_type;			/* NT_TYPE_ARRAY: element type */
	const struct nt_field_desc *members;	/* NT_TYPE_OBJECT (or array of objects) */
	uint32_t n_members;
};

/* One event's metadata, as written into a MetadataBlock. */
struct nt_event_desc {
	const char *provider;		/* full provider name */
	uint32_t event_id;
	const char *name;		/* "" for native runtime events */
	uint64_t keywords;
	uint32_t version;
	uint32_t level;
	uint8_t opcode;			/* written as a V5 opcode tag when non-zero */
	const struct nt_field_desc *fields;
	uint32_t n_fields;
};

struct nt_trace_info {
	struct timespec sync_utc;	/* wall clock (CLOCK_REALTIME) at sync_ts */
	uint64_t sync_ts;		/* same clock as the events (CLOCK_MONOTONIC ns) */
	uint64_t freq;			/* ticks per second; 1e9 for ns */
	uint32_t pointer_size;		/* 8 */
	uint32_t pid;
	uint32_t ncpu;
	uint32_t sampling_interval_ns;	/* ExpectedCPUSamplingRate */
	uint32_t format;		/* 0 or 5: NetTrace V5; 6: V6 (many processes) */
};

struct nt_event {
	uint32_t metadata_id;
	uint64_t timestamp;
	uint64_t thread_id;
	uint64_t capture_thread_id;	/* sequence numbers are per capture thread */
	uint32_t processor;
	const uint8_t *activity_id;	/* 16 bytes, or NULL for zero */
	const uint8_t *related_activity_id;
	const void *payload;
	uint32_t payload_size;
	const uint64_t *stack;		/* leaf first; NULL/0 = no stack */
	uint32_t stack_depth;
	uint32_t pid;			/* V6: OS process of thread_id, 0 = info->pid */
};

/* ------------------------------------------------------------------ writer */

struct nt_writer;

/* The mode every trace file is created with (less the umask): a trace holds
 * command lines, executable paths and syscall arguments, its owner's only. */
#define NT_FILE_MODE 0600

/* Create the file (O_EXCL: an existing file is never overwritten, EEXIST;
 * mode NT_FILE_MODE) and write the stream header and Trace object.  path NULL: no file yet (see
 * nt_writer__next_file).  NULL + errno on failure. */
struct nt_writer *nt_writer__open(const char *path, const struct nt_trace_info *info);

/* Define an event; *metadata_id receives the id to use in nt_event.  Ids are
 * allocated 1, 2, 3 ... and never reused.  Returns 0 or -errno. */
int nt_writer__define(struct nt_writer *w, const struct nt_event_desc *desc,
		      uint32_t *metadata_id);

/* Append one event.  Sequence numbers are assigned per capture thread
 * (1, 2, 3, ...).  Events should come in timestamp order; one that goes
 * backwards starts a new block and is not flagged sorted.  Returns 0 or -errno. */
int nt_writer__write_event(struct nt_writer *w, const struct nt_event *ev);

/* Record that n events of this capture thread were lost: its sequence
 * number jumps by n, so readers see the gap (TraceEvent's EventsLost).  On
 * a thread with no event yet, the caller's lost marker
 * (nt_writer__set_lost_marker) is written first, at the newest timestamp:
 * TraceEvent counts no gap before a thread's first event.  Without a
 * marker such a loss is only the jump (our reader counts it, TraceEvent
 * does not). */
int nt_writer__note_lost(struct nt_writer *w, uint64_t capture_thread_id, uint32_t n);
/* The same for the capture thread of process pid (0 = info->pid); V6 keeps
 * one sequence per (pid, thread).  nt_writer__note_lost takes, in V6, the
 * process of that thread's last event (Linux thread ids are unique across
 * processes while they run). */
int nt_writer__note_lost_pid(struct nt_writer *w, uint32_t pid, uint64_t capture_thread_id,
			     uint32_t n);

/* The caller's event that opens a capture thread which loses events before
 * its first one (nt_writer__note_lost): one UInt32 field, which receives the
 * count, written on that thread and process, on no CPU (processor
 * 0xffffffff).  It is defined in the trace on first use, like any event;
 * desc (and what it points to) must stay valid while the writer lives.
 * NULL: no marker.  Returns 0, or -EINVAL when desc has not exactly one
 * UInt32 field. */
int nt_writer__set_lost_marker(struct nt_writer *w, const struct nt_event_desc *desc);

/* Write out all pending blocks followed by a sequence-point block.  (After
 * every write, not only a flush, the file ends with the end-of-stream byte,
 * which the next write overwrites: the file on disk is always a complete
 * trace, and survives kill -9.) */
int nt_writer__flush(struct nt_writer *w);

/* Bytes written to the file so far. */
uint64_t nt_writer__bytes(const struct nt_writer *w);
uint64_t nt_writer__events(const struct nt_writer *w);

/*
 * An event of the caller's that the writer writes last into a file it ends
 * (nt_writer__close, nt_writer__finish, nt_writer__next_file), e.g. a
 * summary of the file: after every other event, at max(last_ts, the newest
 * event's timestamp), on capture thread and thread 0 of the trace's
 * process, on no CPU.  desc is defined in the trace on its first use;
 * later calls with the same desc reuse its id (in every file).
 */
struct nt_last_event {
	const struct nt_event_desc *desc;
	const void *payload;
	uint32_t payload_size;
};

/* Finish: the caller's last event (NULL: none) at max(last_ts, newest
 * event), the last blocks, a final sequence point (at the same time) and
 * the end-of-stream byte; fsync; close; free.  Returns 0 or -errno (the
 * file is then removed, never left half).  After any write error every
 * call returns that error. */
int nt_writer__close(struct nt_writer *w, const struct nt_last_event *last,
		     uint64_t last_ts);

/* The write errors that mean "the file system is full". */
static inline int nt_writer__is_space_error(int err)
{
	return err == -ENOSPC || err == -EDQUOT || err == -EFBIG;
}

/* What nt_writer__finish kept of a file whose file system filled up. */
struct nt_salvage {
	int kept;		/* 1: the file was kept (0: removed, or no space error) */
	int finalized;		/* 1: it ends with a sequence point and end-of-stream */
	uint64_t bytes;		/* its size */
	uint64_t events;	/* events in it */
	uint64_t lost;		/* events handed to the writer that are not in it */
};

/* nt_writer__close, but when a write fails because the file system is full
 * (nt_writer__is_space_error) the file is not removed: it is cut back to its
 * last whole block and, if the few bytes fit, ended with a sequence point
 * listing every capture thread's last sequence number (readers, TraceEvent
 * too, count the events that did not fit as lost) and end-of-stream.  The
 * events of threads with none left in the kept part are noted lost on
 * capture thread 0 instead (the lost marker, then the gap): a reader
 * does not count a gap before a thread's first event.
 * *salvaged (may be NULL: plain close) says what was kept; the return value
 * is still the write error. */
int nt_writer__finish(struct nt_writer *w, const struct nt_last_event *last,
		      uint64_t last_ts, struct nt_salvage *salvaged);

/*
 * A series of files from one writer (rotation, flight-recorder dumps): end
 * the current file, if any, as nt_writer__finish does (last event, final
 * sequence point, end of stream, fsync, close; salvaged as there), then, if
 * path is not NULL, create path (O_EXCL) and start it with the stream
 * header, the Trace object and every event defined so far, under the same
 * metadata ids.  Each file is a complete trace on its own: sequence numbers
 * restart at 1, stacks are written again.  With path NULL the writer stays
 * between files: nt_writer__define still works (the definition goes into the
 * next file), writing events returns -EBADF.  nt_writer__open(NULL, info)
 * starts a writer between files.  Returns the first error (ending the old
 * file, or creating the new one).
 */
int nt_writer__next_file(struct nt_writer *w, const char *path,
			 const struct nt_last_event *last, uint64_t last_ts,
			 struct nt_salvage *salvaged);
/* Let go of the open file without writing another byte to it: its
 * descriptor closed, the pending blocks left unwritten (the next
 * nt_writer__next_file drops them), the file left as it is.  For a forked
 * process whose copy of the writer must not touch the file its parent goes
 * on writing (the flight recorder's incident dumps beside --rotate).  The
 * writer is then between files. */
void nt_writer__drop_file(struct nt_writer *w);
/* 1 while a file is open; its path (NULL between files). */
int nt_writer__has_file(const struct nt_writer *w);
const char *nt_writer__path(const struct nt_writer *w);

/* Move the open file to path (rename(2): it replaces what is there, in
 * one step) and write on under that name: a file written under a
 * temporary name takes the name asked for once it is worth keeping.
 * 0 or -errno (the file stays where it was). */
int nt_writer__rename(struct nt_writer *w, const char *path);

/* Abandon: close and unlink the file, free. NULL-safe. */
void nt_writer__abort(struct nt_writer *w);

/* ------------------------------------------------------------------ reader */

struct nt_reader;

struct nt_metadata {
	uint32_t id;
	char *provider;			/* UTF-8 */
	uint32_t event_id;
	char *name;			/* UTF-8, "" for native events */
	uint64_t keywords;
	uint32_t version;
	uint32_t level;
	uint8_t opcode;
	struct nt_field_desc *fields;	/* from V1 fields or the V2Params tag */
	uint32_t n_fields;
	const void *manifest;		/* the caller's description (nt_event_lookup), or NULL */
};

struct nt_read_event {
	const struct nt_metadata *meta;
	uint32_t sequence;
	uint64_t thread_id;
	uint64_t capture_thread_id;
	uint32_t processor;
	uint32_t stack_id;
	uint64_t timestamp;
	uint8_t activity_id[16];
	uint8_t related_activity_id[16];
	int sorted;
	const uint8_t *payload;
	uint32_t payload_size;
	const uint64_t *stack;		/* leaf first, zero-extended to 64 bits */
	uint32_t stack_depth;
	uint64_t file_offset;		/* of the event blob */
	uint32_t pid;			/* OS process of thread_id (V5: the trace's) */
	uint32_t lost_before;		/* sequence gap just before it on its capture thread */
};

/*
 * The caller's descriptions of events the file's metadata names (e.g. the
 * manifest's event table): find() gets provider name, event id and version
 * and returns a pointer the reader stores, unread, in nt_metadata.manifest
 * (NULL: not known).  The library itself knows no event layouts.
 */
struct nt_event_lookup {
	const void *(*find)(void *ctx, const char *provider, uint16_t id, uint8_t version);
	void *ctx;
};

/* Open a file; `lookup` may be NULL.  NULL + errno only when the file cannot
 * be opened or read; format errors (even in the header) are reported by
 * nt_reader__next returning -1, and right after open nt_reader__error says
 * whether the header was refused (e.g. no magic).  A regular file is mapped
 * (pages behind the read position dropped as it goes); anything else (a
 * pipe, a device) is read on demand, as a stream: the header (magic first)
 * now, the rest by nt_reader__next, with stream mode's bounds (a block of at
 * most 16 MiB, at most 64 MiB kept). */
struct nt_reader *nt_reader__open(const char *path, const struct nt_event_lookup *lookup);
/* The same over a caller's buffer (kept valid until close); for fuzzing and
 * tests.  Format errors are reported by nt_reader__next, not here. */
struct nt_reader *nt_reader__open_mem(const void *buf, size_t len,
				      const struct nt_event_lookup *lookup);
const struct nt_trace_info *nt_reader__info(const struct nt_reader *r);

/* Stream mode: an empty reader that nt_reader__feed fills piece by piece
 * (a live EventPipe session).  nt_reader__next returns NT_READ_AGAIN while
 * the next block is incomplete; after nt_reader__feed_end (the stream's
 * end) a missing tail is truncation, as for a file.  The end-of-stream
 * marker or block ends the trace only at nt_reader__feed_end: bytes fed
 * after it stop the reader with the same line as a file's bytes after its
 * end, however the pieces were cut.  Memory is bounded by
 * the blocks still referenced, not by the stream's length; a block claiming
 * more than 16 MiB stops the reader (-1) instead of being waited for. */
#define NT_READ_AGAIN 2
/* A stream is checked as its bytes arrive: the first bytes that cannot
 * start a trace header (the "Nettrace" magic, the FastSerialization
 * header) stop it at once, and so does an object or block claiming more
 * than NT_STREAM_MAX_BLOCK bytes (V6's own limit: a 24-bit size) instead
 * of being waited for.  Writers use ~100 KiB blocks. */
#define NT_STREAM_MAX_BLOCK	(16u << 20)
struct nt_reader *nt_reader__open_stream(const struct nt_event_lookup *lookup);
int nt_reader__feed(struct nt_reader *r, const void *buf, size_t len);	/* 0 or -ENOMEM */
void nt_reader__feed_end(struct nt_reader *r);
/* Stream mode: the bytes held in memory (blocks not yet parsed or still
 * referenced by the current sequence-point region's stacks). */
size_t nt_reader__buffered(const struct nt_reader *r);
/* What the reader holds besides the bytes: metadata records (events
 * types), their field descriptions (nested ones too), and the stacks of the
 * current sequence-point region.  A stream's consumer bounds these. */
void nt_reader__defined(const struct nt_reader *r, size_t *metadata, size_t *fields,
			size_t *stacks);
/* 1 once nt_reader__info is valid (always, except in stream mode). */
int nt_reader__header_read(const struct nt_reader *r);

/* Next event: 1 = *ev filled, 0 = clean end of stream, -1 = stopped on
 * truncation or corruption (see nt_reader__error), NT_READ_AGAIN (stream
 * mode) = feed more bytes.  Pointers in *ev stay valid until the next call
 * (and until the next nt_reader__feed). */
int nt_reader__next(struct nt_reader *r, struct nt_read_event *ev);

/* "offset 4174144: EventBlock claims 2048 bytes, file ends after 0" */
const char *nt_reader__error(const struct nt_reader *r);
uint64_t nt_reader__error_offset(const struct nt_reader *r);
/* Events lost according to sequence-number gaps and sequence points. */
uint64_t nt_reader__lost(const struct nt_reader *r);
/* The same for one capture thread (pid 0 = the trace's; V5 files have only
 * that one), as far as the file has been read. */
uint64_t nt_reader__thread_lost(const struct nt_reader *r, uint32_t pid,
				uint64_t capture_thread_id);
void nt_reader__close(struct nt_reader *r);

/* Decode a payload from the file's own metadata as one JSON object
 * (self-describing events; arrays as JSON arrays, objects as objects, GUIDs
 * as strings).  Returns 0; -EINVAL when the payload does not match the
 * fields (printed as {"_error":...,"_hex":"..."}); -E2BIG when bytes are left
 * after the last field (printed as "_extra":N). */
int nt_payload_to_json(const struct nt_metadata *m, const void *payload, size_t len,
		       void *file /* FILE* */);

/* The String field named field of a payload, by the file's own metadata,
 * as UTF-8 into out (cut to outlen - 1 bytes).  0; -ENOENT: no such field;
 * -EINVAL: not a String, or the payload does not match the fields. */
int nt_payload_string(const struct nt_metadata *m, const void *payload, size_t len,
		      const char *field, char *out, size_t outlen);

/* A NUL-terminated UTF-8 string as nt_payload_to_json prints one: with its
 * quotes, `"` and `\` escaped, \n \r \t as such, other control characters
 * as \u00XX, the rest as UTF-8 (invalid input as U+FFFD). */
void nt_json_str(FILE *f, const char *s);

/* ------------------------------------------------------------------ split */

/*
 * One NetTrace V5 file per process of a trace (V6, or V5 with several
 * pids), for readers that know V5 only (PerfView before .NET 10's
 * TraceEvent): DIR/STEM.PID.nettrace (STEM: the input's name without its
 * extension; mode NT_FILE_MODE, DIR made 0700 if missing), each with its
 * process's events, stacks and sequence gaps.  Events of no process (pid 0)
 * go into every file.  The files appear only once every one is whole (each
 * is written under a temporary name, then renamed over what is there); on a
 * failure none is left half written.  The input is read twice, so it must
 * be a regular file.
 */
struct nt_split_opts {
	/* Events that do not earn their process a file (host-wide events
	 * recorded for every process, e.g. process lifetimes): a process with
	 * only such events gets no file (they are left out), the files of the
	 * others hold theirs.  NULL: every event does. */
	int (*host_wide)(const struct nt_metadata *m);
	/* Events that earn their process a file only when the process is
	 * selected (process_info says so): e.g. CPU samples of every process
	 * on the host, and the names of their frames.  NULL: none. */
	int (*weak)(const struct nt_read_event *ev);
	/* An event that says who its process is: 1 with the process's name
	 * (cut to len - 1 bytes; "" for none) and whether it is selected; 0
	 * for any other event.  NULL: none, every process is selected.  A
	 * named file is DIR/STEM.PID.NAME.nettrace, NAME's bytes other than
	 * letters, digits, '-', '_' and '.' made '_'. */
	int (*process_info)(const struct nt_read_event *ev, char *name, size_t len,
			    int *selected);
	/* The files' lost marker (nt_writer__set_lost_marker), or NULL. */
	const struct nt_event_desc *lost_marker;
	/* A payload to write instead of ev's: 1 with *payload and *len set
	 * (valid until the next call), 0 to copy the event as it is.  NULL:
	 * every event is copied (an offline re-naming rewrites its names). */
	int (*rewrite)(const struct nt_read_event *ev, const uint8_t **payload, uint32_t *len,
		       void *arg);
	void *rewrite_arg;
};

/* Files written, or -1 with a one-line reason in err.  opts may be NULL. */
int nt_split_by_process(const char *in, const char *dir, const struct nt_split_opts *opts,
			char *err, size_t errlen);

#endif /* EBPF_COLLECT_NETTRACE_H */
