// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * writer_events.c - events and losses into the pending EventBlock: the
 * compressed header, the payload, the event's stack and (V6) thread
 * indexes and label list, and the sequence number of its capture thread;
 * losses as jumps of that number, with the caller's marker event first on
 * a thread that has none yet (docs/nettrace-format.md section 4).
 *
 * Compressed headers follow the runtime's writer: each field is compared with
 * the previous event of the same block (state zeroed per block) and only sent
 * when it differs; the sequence number is per capture thread and sent as
 * "delta minus one" whenever it is not simply previous + 1.  Timestamps are
 * unsigned deltas, so an event older than its predecessor starts a new block;
 * IsSorted is set when an event is not older than any event written before.
 *
 * What TraceEvent's EventCache makes of that (perfview EventCache.cs):
 *  - a block's "current capture thread" is its first event's, and changes
 *    only at IsSorted events; an unsorted event is charged to it, whatever
 *    its own capture thread.  So an unsorted event of another thread opens a
 *    new block, where it is the first.
 *  - a sequence gap counts as lost only after the thread's first event (an
 *    unknown thread starts at whatever number it shows).  So losses noted
 *    on a thread that has no event yet first write the caller's lost marker
 *    event on it (nt_writer__set_lost_marker).
 *
 * Block boundaries and sequence points that an event needs (a full block, a
 * full stack or label table, NT_SP_INTERVAL bytes since the last one) are
 * written here, before the event, through writer_blocks.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nettrace_internal.h"

static const uint8_t zero_guid[16];

/* The header fields V5 and V6 share (docs/nettrace-format.md section 4.2),
 * each sent when it differs from the previous event's: metadata id,
 * sequence/capture thread/processor, thread, stack, timestamp delta.  Sets
 * *flags to the flags they need; prev takes h's values. */
static inline uint8_t *emit_header_ids(uint8_t *p, uint8_t *flags, struct nt_hdr *prev,
				       const struct nt_hdr *h)
{
	uint8_t f = 0;

	if (h->metadata_id != prev->metadata_id) {
		f |= NT_F_METADATA_ID;
		p = nt_emit_varint(p, h->metadata_id);
	}
	if (prev->sequence + (h->metadata_id ? 1 : 0) != h->sequence ||
	    prev->capture_thread_id != h->capture_thread_id || prev->processor != h->processor) {
		f |= NT_F_CAPTURE;
		p = nt_emit_varint(p, (uint32_t)(h->sequence - prev->sequence - 1));
		p = nt_emit_varint(p, h->capture_thread_id);
		p = nt_emit_varint(p, h->processor);
	}
	if (h->thread_id != prev->thread_id) {
		f |= NT_F_THREAD_ID;
		p = nt_emit_varint(p, h->thread_id);
	}
	if (h->stack_id != prev->stack_id) {
		f |= NT_F_STACK_ID;
		p = nt_emit_varint(p, h->stack_id);
	}
	p = nt_emit_varint(p, h->timestamp - prev->timestamp);
	prev->metadata_id = h->metadata_id;
	prev->sequence = h->sequence;
	prev->capture_thread_id = h->capture_thread_id;
	prev->processor = h->processor;
	prev->thread_id = h->thread_id;
	prev->stack_id = h->stack_id;
	prev->timestamp = h->timestamp;
	*flags = f;
	return p;
}

/* V5: an activity id (NULL = zero) when it differs from the previous one. */
static inline uint8_t *emit_guid(uint8_t *p, uint8_t *flags, uint8_t flag, uint8_t prev[16],
				 const uint8_t *id)
{
	if (!id)
		id = zero_guid;
	if (memcmp(id, prev, 16)) {
		*flags |= flag;
		memcpy(p, id, 16);
		memcpy(prev, id, 16);
		p += 16;
	}
	return p;
}

/* memcpy, with the small sizes most payloads have done inline as two
 * overlapping moves rather than a library call. */
static inline void copy_payload(uint8_t *dst, const uint8_t *src, uint32_t n)
{
	uint64_t a, b;
	uint32_t c, d;

	if (n > 16) {
		memcpy(dst, src, n);
	} else if (n >= 8) {
		memcpy(&a, src, 8);
		memcpy(&b, src + n - 8, 8);
		memcpy(dst, &a, 8);
		memcpy(dst + n - 8, &b, 8);
	} else if (n >= 4) {
		memcpy(&c, src, 4);
		memcpy(&d, src + n - 4, 4);
		memcpy(dst, &c, 4);
		memcpy(dst + n - 4, &d, 4);
	} else if (n) {
		dst[0] = src[0];
		dst[n / 2] = src[n / 2];
		dst[n - 1] = src[n - 1];
	}
}

/* Append the event's compressed header and payload to the EventBlock (room
 * reserved), through one write pointer.  V6 sends the label list id under
 * flag 0x10 in place of the two activity ids, and thread indexes. */
static void append_event(struct nt_writer *w, const struct nt_event *ev,
			 struct u64_map_ent *thr, uint32_t stack_id, uint32_t label, int sorted)
{
	struct nt_hdr *prev = &w->ev.prev;
	uint8_t *flag_at = w->ev.buf.data + w->ev.buf.len, *p;
	uint8_t flags;
	struct nt_hdr h;

	h.metadata_id = ev->metadata_id;
	h.sequence = (uint32_t)thr->val + 1;
	h.capture_thread_id = ev->capture_thread_id;
	h.processor = ev->processor;
	h.thread_id = ev->thread_id;
	h.stack_id = stack_id;
	h.timestamp = ev->timestamp;
	w->n_active += !(thr->val & NT_THR_ACTIVE);
	thr->val = (thr->val & (NT_THR_ON_DISK | NT_THR_QUEUED)) | NT_THR_ACTIVE | h.sequence;
	p = emit_header_ids(flag_at + 1, &flags, prev, &h);
	if (w->v6) {
		if (label != prev->label_list) {
			flags |= NT_F_ACTIVITY_ID;
			p = nt_emit_varint(p, label);
			prev->label_list = label;
		}
	} else if (ev->activity_id || ev->related_activity_id || prev->ids_set) {
		/* (events with no activity ids after others alike send none) */
		p = emit_guid(p, &flags, NT_F_ACTIVITY_ID, prev->activity_id, ev->activity_id);
		p = emit_guid(p, &flags, NT_F_RELATED_ID, prev->related_activity_id,
			      ev->related_activity_id);
		prev->ids_set = !!memcmp(prev->activity_id, zero_guid, 16) ||
				!!memcmp(prev->related_activity_id, zero_guid, 16);
	}
	if (sorted)
		flags |= NT_F_SORTED;
	if (ev->payload_size != prev->payload_size) {
		flags |= NT_F_PAYLOAD_SIZE;
		p = nt_emit_varint(p, ev->payload_size);
		prev->payload_size = ev->payload_size;
	}
	*flag_at = flags;
	copy_payload(p, ev->payload, ev->payload_size);
	w->ev.buf.len = (size_t)(p - w->ev.buf.data) + ev->payload_size;

	w->ev.count++;
	if (ev->timestamp < w->ev.min_ts)
		w->ev.min_ts = ev->timestamp;
	if (ev->timestamp > w->ev.max_ts)
		w->ev.max_ts = ev->timestamp;
	if (sorted)	/* not older than any event before: the newest */
		w->max_ts = ev->timestamp;
	w->any_event = 1;
	w->n_events++;
}

typedef uint64_t nt_v2 __attribute__((vector_size(16)));

/* The differing bits of a[0..8) and b[0..8), folded into one vector. */
static inline nt_v2 diff64(const uint8_t *a, const uint8_t *b)
{
	nt_v2 x0, x1, x2, x3, y0, y1, y2, y3;

	memcpy(&x0, a, 16);
	memcpy(&x1, a + 16, 16);
	memcpy(&x2, a + 32, 16);
	memcpy(&x3, a + 48, 16);
	memcpy(&y0, b, 16);
	memcpy(&y1, b + 16, 16);
	memcpy(&y2, b + 32, 16);
	memcpy(&y3, b + 48, 16);
	return ((x0 ^ y0) | (x1 ^ y1)) | ((x2 ^ y2) | (x3 ^ y3));
}

/*
 * a[0..n) == b[0..n).  A library memcmp of a length that changes from call
 * to call mispredicts on its length classes; for 8 to 24 frames three
 * 64-byte compares at fixed places instead (the first, the last 64 bytes
 * and halfway between), for 25 to 32 four (d a third of the rest): for
 * these lengths they overlap and cover every byte, with no branch on n
 * within a class.
 */
static inline int frames_equal(const uint64_t *a, const uint64_t *b, uint32_t n)
{
	const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;
	size_t len = (size_t)n * 8, d;
	nt_v2 v;

	if (n < 8 || n > 32)
		return !memcmp(a, b, len);
	if (n <= 24) {		/* three windows reach 192 bytes */
		d = (len - 64) / 2;
		v = diff64(x, y) | diff64(x + d, y + d) | diff64(x + len - 64, y + len - 64);
	} else {
		d = (len - 64) / 3;
		v = diff64(x, y) | diff64(x + d, y + d) | diff64(x + 2 * d, y + 2 * d) |
		    diff64(x + len - 64, y + len - 64);
	}
	return !(v[0] | v[1]);
}

/* A stack's id: a repeat of a recent stack is confirmed here, inline;
 * anything else goes to the stack table (writer_stacks.c), and a new stack
 * that does not fit its region or block gets a sequence point or a flush
 * first. */
static inline int stack_id_of(struct nt_writer *w, const uint64_t *ips, uint32_t n, uint32_t *id)
{
	const struct nt_stack_hot *c = wr_stack_hot(w, ips, n);
	uint64_t hash;
	int err = 0;

	if (w->info.pointer_size == 8 && c->id && c->depth == n && c->first == ips[0] &&
	    c->last == ips[n - 1] && frames_equal(w->stack_arena + c->off, ips, n)) {
		*id = c->id;
		return 0;
	}
	if (wr_stack_find(w, ips, n, id, &hash))
		return 0;
	switch (wr_stack_room(w, n)) {
	case WR_ROOM_SP:
		err = wr_write_sequence_point(w, w->max_ts);
		break;
	case WR_ROOM_FLUSH:
		err = wr_flush_blocks(w);
		break;
	}
	return err ? err : wr_stack_add(w, ips, n, hash, id);
}

/* The V6 label list of the event's activity ids, added (after a flush when
 * the LabelList block is full) if the region has none yet. */
static int label_of(struct nt_writer *w, const struct nt_event *ev, uint32_t *label)
{
	uint64_t key;
	int err;

	if (wr_v6_label_find(w, ev->activity_id, ev->related_activity_id, label, &key))
		return 0;
	if (wr_v6_label_full(w) && (err = wr_flush_blocks(w)))
		return err;
	return wr_v6_label_add(w, ev->activity_id, ev->related_activity_id, key, label);
}

int nt_writer__write_event(struct nt_writer *w, const struct nt_event *ev)
{
	struct u64_map_ent *thr;
	struct nt_event mapped;
	uint32_t stack_id = 0, label = 0;
	int sorted, err;

	if (!w || !ev)
		return -EINVAL;
	if (w->err)
		return w->err;
	if (w->fd < 0)
		return -EBADF;	/* between files (nt_writer__next_file) */
	if (!ev->metadata_id || ev->metadata_id >= w->next_meta_id ||
	    (ev->payload_size && !ev->payload) || (ev->stack_depth && !ev->stack) ||
	    ev->stack_depth > (1u << 20))
		return -EINVAL;
	/* V6: thread ids become thread indexes of (pid, tid) from here on */
	if (w->v6) {
		err = wr_v6_map_event(w, ev, &mapped);
		if (err)
			return err;
		ev = &mapped;
	}

	/* block boundaries and sequence points come before the stack lookup,
	 * which must resolve in the region the event is written to */
	if (w->ev.count && w->ev.buf.len + NT_MAX_HEADER + ev->payload_size > NT_BLOCK_CAP) {
		err = wr_flush_blocks(w);
		if (err)
			return err;
	}
	/* the thread lookup only when the active-thread bound is reached (rare) */
	if (w->offset - w->last_sp_offset >= NT_SP_INTERVAL ||
	    (w->v6 && w->v6->n_labels >= NT_V6_MAX_LABELS) ||
	    (w->n_active >= NT_SP_MAX_THREADS &&
	     (!(thr = u64_map__find(&w->threads, ev->capture_thread_id)) ||
	      !(thr->val & NT_THR_ACTIVE)))) {
		err = wr_write_sequence_point(w, w->max_ts);
		if (err)
			return err;
	}
	if (ev->stack_depth) {
		err = stack_id_of(w, ev->stack, ev->stack_depth, &stack_id);
		if (err)
			return err;
	}
	if (w->v6 && (ev->activity_id || ev->related_activity_id)) {
		err = label_of(w, ev, &label);
		if (err)
			return err;
	}
	sorted = !w->any_event || ev->timestamp >= w->max_ts;
	/* unsigned timestamp deltas: an older event opens a new block; so does
	 * an unsorted one of a capture thread TraceEvent would not charge it to */
	if (w->ev.count && (ev->timestamp < w->ev.prev.timestamp ||
			    (!sorted && ev->capture_thread_id != w->ev_thread))) {
		err = wr_flush_blocks(w);
		if (err)
			return err;
	}
	err = nt_buf__reserve(&w->ev.buf, NT_MAX_HEADER + ev->payload_size);
	if (err)
		return err;
	thr = w->thr_last;
	if (!thr || thr->key != ev->capture_thread_id) {
		err = u64_map__get(&w->threads, ev->capture_thread_id, &thr);
		if (err)
			return err;
		w->thr_last = thr;
	}
	/* (a thread's first event of the file only: the check stays inline) */
	if (!(thr->val & (NT_THR_ON_DISK | NT_THR_QUEUED)) && (err = wr_queue_first(w, thr)))
		return err;
	if (sorted || !w->ev.count)
		w->ev_thread = ev->capture_thread_id;
	append_event(w, ev, thr, stack_id, label, sorted);
	return 0;
}

/* One of the caller's own events (the lost marker, the last event of a
 * file), defined on first use into *meta_id, on no CPU. */
int wr_write_own_event(struct nt_writer *w, const struct nt_event_desc *desc,
		       uint32_t *meta_id, const void *payload, uint32_t size, uint64_t ts,
		       uint32_t pid, uint64_t tid)
{
	int err;

	if (!*meta_id && (err = nt_writer__define(w, desc, meta_id)))
		return err;
	return nt_writer__write_event(w, &(struct nt_event){
		.metadata_id = *meta_id, .timestamp = ts, .thread_id = tid,
		.capture_thread_id = tid, .processor = NT_NO_PROCESSOR, .payload = payload,
		.payload_size = size, .pid = pid });
}

int nt_writer__set_lost_marker(struct nt_writer *w, const struct nt_event_desc *desc)
{
	if (!w || (desc && (desc->n_fields != 1 || !desc->fields ||
			    desc->fields[0].type != NT_TYPE_UINT32)))
		return -EINVAL;
	if (desc != w->lost_desc)
		w->lost_meta_id = 0;
	w->lost_desc = desc;
	return 0;
}

/* The first event of a capture thread that loses events before it wrote any:
 * TraceEvent only counts a gap after an event it has seen on the thread. */
static int write_lost_marker(struct nt_writer *w, uint32_t pid, uint64_t capture_thread_id,
			     uint32_t n)
{
	uint8_t payload[4];

	memcpy(payload, &n, 4);
	return wr_write_own_event(w, w->lost_desc, &w->lost_meta_id, payload, sizeof(payload),
				  w->any_event ? w->max_ts : w->info.sync_ts, pid,
				  capture_thread_id);
}

int nt_writer__note_lost_pid(struct nt_writer *w, uint32_t pid, uint64_t capture_thread_id,
			     uint32_t n)
{
	struct u64_map_ent *thr;
	uint64_t key = capture_thread_id;	/* V6: the thread's index */
	int err;

	if (!w)
		return -EINVAL;
	if (w->err)
		return w->err;
	if (w->fd < 0)
		return -EBADF;
	if (!n)
		return 0;
	if (w->v6 && (err = wr_v6_thread_index(w, pid ? pid : w->info.pid, capture_thread_id,
					       &key)))
		return err;
	w->thr_last = NULL;	/* the insertion may move the table */
	err = u64_map__get(&w->threads, key, &thr);
	if (err)
		return err;
	if (!(uint32_t)thr->val && w->lost_desc) {
		err = write_lost_marker(w, pid, capture_thread_id, n);
		if (err)
			return err;
		err = u64_map__get(&w->threads, key, &thr);	/* may have moved */
		if (err)
			return err;
	}
	w->n_active += !(thr->val & NT_THR_ACTIVE);
	thr->val = (thr->val & (NT_THR_ON_DISK | NT_THR_QUEUED)) | NT_THR_ACTIVE |
		   (uint32_t)(thr->val + n);
	return 0;
}

int nt_writer__note_lost(struct nt_writer *w, uint64_t capture_thread_id, uint32_t n)
{
	uint32_t pid = w && w->v6 ? wr_v6_capture_pid(w, capture_thread_id) : 0;

	return nt_writer__note_lost_pid(w, pid, capture_thread_id, n);
}
