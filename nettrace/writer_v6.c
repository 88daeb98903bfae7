// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * writer_v6.c - the tables NetTrace V6 adds to the writer
 * (docs/nettrace-format.md section 12.5):
 *
 *  - threads are indexes.  V6 is the format that can hold many processes:
 *    each (pid, thread id) pair gets its own index, defined by a Thread
 *    block row (OSProcessId, OSThreadId) that is written before the first
 *    EventBlock using it (TraceEvent throws on an unknown index).  Indexes
 *    are never reused or removed, so sequence numbers stay per capture
 *    thread for the whole trace and TraceEvent keeps counting gaps.
 *  - activity ids live in LabelList rows, referenced by id from the event
 *    header; like stacks they are valid until the next sequence point, so
 *    the table is forgotten there and ids restart at 1.
 *
 * The rows wait here until writer_blocks.c writes them out with the other
 * pending blocks; metadata rows are writer_meta.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nettrace.h"
#include "nettrace_internal.h"

/* A new file's tables (the indexes and label lists are per file). */
int wr_v6_new(struct nt_writer *w)
{
	w->v6 = calloc(1, sizeof(*w->v6));
	return w->v6 ? 0 : -ENOMEM;
}

void wr_v6_free(struct nt_writer *w)
{
	struct nt_v6 *v = w->v6;

	if (!v)
		return;
	u64_map__free(&v->index_of);
	u64_map__free(&v->capture_pid);
	u64_map__free(&v->label_of);
	nt_buf__free(&v->thread_rows);
	nt_buf__free(&v->label_rows);
	free(v->threads);
	free(v->labels);
	free(v);
	w->v6 = NULL;
}

/* ------------------------------------------------------------ regions */

/* After a sequence point: label lists are forgotten, ids restart at 1. */
void wr_v6_new_region(struct nt_writer *w)
{
	struct nt_v6 *v = w->v6;

	u64_map__clear(&v->label_of);
	v->n_labels = 0;
	v->label_rows.len = 0;
	v->labels_count = 0;
}

/* ------------------------------------------------------------ threads */

static int add_thread_row(struct nt_v6 *v, uint64_t index, uint32_t pid, uint64_t tid);

/*
 * Salvage cut the file back to its last whole write: what was pending is
 * gone, and so are the Thread rows of the write that failed.  The
 * sequence point that ends the file lists those threads too, so their
 * rows are queued again (TraceEvent throws on an unknown index).
 */
int wr_v6_drop_pending(struct nt_writer *w)
{
	struct nt_v6 *v = w->v6;
	int err;

	v->thread_rows.len = 0;
	wr_v6_new_region(w);
	for (uint32_t i = v->threads_on_disk; i < v->n_threads; i++) {
		err = add_thread_row(v, i + 1, v->threads[i].pid, v->threads[i].tid);
		if (err)
			return err;
	}
	v->threads_in_out = v->threads_on_disk;
	return 0;
}

static uint64_t thread_key(uint32_t pid, uint64_t tid)
{
	return hash_mix(hash64(pid), tid);
}

static int add_thread_row(struct nt_v6 *v, uint64_t index, uint32_t pid, uint64_t tid)
{
	size_t start = v->thread_rows.len;

	if (nt_buf__reserve(&v->thread_rows, 2 + 3 * 10 + 2))
		return -ENOMEM;
	nt_put_u16(&v->thread_rows, 0);		/* row size, below */
	nt_put_varint(&v->thread_rows, index);
	nt_put_u8(&v->thread_rows, 2);		/* OSProcessId */
	nt_put_varint(&v->thread_rows, pid);
	nt_put_u8(&v->thread_rows, 3);		/* OSThreadId */
	nt_put_varint(&v->thread_rows, tid);
	uint16_t size = v->thread_rows.len - start - 2;

	v->thread_rows.data[start] = size & 0xff;
	v->thread_rows.data[start + 1] = size >> 8;
	return 0;
}

/*
 * The index of thread tid of process pid, defined (a pending Thread row) on
 * first use.  The map is keyed by a hash of the pair; a collision with
 * another pair moves on to the next key.
 */
int wr_v6_thread_index(struct nt_writer *w, uint32_t pid, uint64_t tid, uint64_t *index)
{
	struct nt_v6 *v = w->v6;
	uint64_t key = thread_key(pid, tid);
	struct u64_map_ent *e;
	int err;

	for (;; key++) {
		e = u64_map__find(&v->index_of, key);
		if (!e)
			break;
		if (v->threads[e->val - 1].pid == pid && v->threads[e->val - 1].tid == tid) {
			*index = e->val;
			return 0;
		}
	}
	if (v->n_threads == v->cap_threads) {
		uint32_t ncap = v->cap_threads ? v->cap_threads * 2 : 64;
		struct nt_v6_thread *n = realloc(v->threads, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		v->threads = n;
		v->cap_threads = ncap;
	}
	if ((err = add_thread_row(v, v->n_threads + 1, pid, tid)))
		return err;
	if ((err = u64_map__get(&v->index_of, key, &e)))
		return err;
	v->threads[v->n_threads].pid = pid;
	v->threads[v->n_threads].tid = tid;
	e->val = ++v->n_threads;
	*index = e->val;
	return 0;
}

uint32_t wr_v6_capture_pid(struct nt_writer *w, uint64_t capture_thread_id)
{
	struct u64_map_ent *e = u64_map__find(&w->v6->capture_pid, capture_thread_id);

	return e ? (uint32_t)e->val : w->info.pid;
}

/*
 * ev with its thread ids replaced by thread indexes (process 0 = the
 * trace's).  An event too big for one block is refused here, before it
 * could make a block write fail and stop the whole trace.
 */
int wr_v6_map_event(struct nt_writer *w, const struct nt_event *ev, struct nt_event *out)
{
	struct nt_v6 *v = w->v6;
	uint32_t pid = ev->pid ? ev->pid : w->info.pid;
	struct u64_map_ent *e;
	int err;

	if (ev->payload_size > V6_MAX_BLOCK - NT_BLOCK_HEADER_SIZE - NT_MAX_HEADER)
		return -E2BIG;
	*out = *ev;
	/* consecutive events mostly come from one thread: its last lookup (and
	 * capture_pid is still right, as any other event clears last_index) */
	if (v->last_index && pid == v->last_pid && ev->thread_id == v->last_tid &&
	    ev->capture_thread_id == ev->thread_id) {
		out->thread_id = out->capture_thread_id = v->last_index;
		return 0;
	}
	v->last_index = 0;
	err = wr_v6_thread_index(w, pid, ev->thread_id, &out->thread_id);
	if (!err && ev->capture_thread_id == ev->thread_id)
		out->capture_thread_id = out->thread_id;
	else if (!err)
		err = wr_v6_thread_index(w, pid, ev->capture_thread_id, &out->capture_thread_id);
	if (!err)
		err = u64_map__get(&v->capture_pid, ev->capture_thread_id, &e);
	if (err)
		return err;
	e->val = pid;
	if (ev->capture_thread_id == ev->thread_id) {
		v->last_pid = pid;
		v->last_tid = ev->thread_id;
		v->last_index = out->thread_id;
	}
	return 0;
}

/* ------------------------------------------------------------ label lists */

static const uint8_t zero_guid[16];

/* One list: ActivityId (kind 1) and/or RelatedActivityId (kind 2); bit 7
 * marks the last label of the list. */
static int add_label_row(struct nt_v6 *v, const uint8_t *ids)
{
	int has_rel = !!memcmp(ids + 16, zero_guid, 16);

	if (nt_buf__reserve(&v->label_rows, 34))
		return -ENOMEM;
	if (memcmp(ids, zero_guid, 16)) {
		nt_put_u8(&v->label_rows, 1 | (has_rel ? 0 : 0x80));
		nt_put_bytes(&v->label_rows, ids, 16);
	}
	if (has_rel) {
		nt_put_u8(&v->label_rows, 2 | 0x80);
		nt_put_bytes(&v->label_rows, ids + 16, 16);
	}
	return 0;
}

/* The two ids of a label list (NULL = zero) as one 32-byte key. */
static void label_ids(uint8_t ids[32], const uint8_t *activity, const uint8_t *related)
{
	memcpy(ids, activity ? activity : zero_guid, 16);
	memcpy(ids + 16, related ? related : zero_guid, 16);
}

/*
 * The label list id of this pair of activity ids in the current SP region:
 * 1 with *id (0 for two zero ids), or 0 when the region has none yet, with
 * the map key wr_v6_label_add takes.  The caller writes a sequence point
 * first when NT_V6_MAX_LABELS are in use, the pending blocks when the
 * LabelList block is full (wr_v6_label_full).
 */
int wr_v6_label_find(struct nt_writer *w, const uint8_t *activity, const uint8_t *related,
		     uint32_t *id, uint64_t *key_out)
{
	struct nt_v6 *v = w->v6;
	struct u64_map_ent *e;
	uint8_t ids[32];
	uint64_t key;

	label_ids(ids, activity, related);
	*id = 0;
	if (!memcmp(ids, zero_guid, 16) && !memcmp(ids + 16, zero_guid, 16))
		return 1;
	for (key = hash_bytes(ids, 32, 0);; key++) {
		e = u64_map__find(&v->label_of, key);
		if (!e)
			break;
		if (!memcmp(v->labels[e->val - 1], ids, 32)) {
			*id = e->val;
			return 1;
		}
	}
	*key_out = key;
	return 0;
}

int wr_v6_label_full(const struct nt_writer *w)
{
	const struct nt_v6 *v = w->v6;

	return v->labels_count && v->label_rows.len + 34 > NT_BLOCK_CAP;
}

/* A pending LabelList row for a pair wr_v6_label_find did not find. */
int wr_v6_label_add(struct nt_writer *w, const uint8_t *activity, const uint8_t *related,
		    uint64_t key, uint32_t *id)
{
	struct nt_v6 *v = w->v6;
	struct u64_map_ent *e;
	uint8_t ids[32];
	int err;

	label_ids(ids, activity, related);
	if (v->n_labels == v->cap_labels) {
		uint32_t ncap = v->cap_labels ? v->cap_labels * 2 : 64;
		uint8_t (*n)[32] = realloc(v->labels, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		v->labels = n;
		v->cap_labels = ncap;
	}
	if ((err = add_label_row(v, ids)) || (err = u64_map__get(&v->label_of, key, &e)))
		return err;
	memcpy(v->labels[v->n_labels], ids, 32);
	e->val = ++v->n_labels;
	if (!v->labels_count++)
		v->labels_first = e->val;
	*id = e->val;
	return 0;
}
