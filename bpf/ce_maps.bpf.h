/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ce_maps.bpf.h - the maps and knobs every collector program has
 * (clr_events, kernel_events, usdt_generic), defined once: the ring buffer
 * all their records go to, its wakeup thresholds, and the set of traced
 * processes.  Include it after collector_event.h (CE_MAX_TARGETS, which
 * user space sizes its pid tables against) and before ce_common.bpf.h,
 * which uses `rb` and the thresholds.
 */
#ifndef EBPF_COLLECT_CE_MAPS_BPF_H
#define EBPF_COLLECT_CE_MAPS_BPF_H

/* Set by the collector between __open() and __load(): wake the consumer
 * when the unconsumed data crosses the first, again at the second (0: the
 * consumer's poll timeout alone). */
const volatile __u64 targ_wakeup_bytes = 0;
const volatile __u64 targ_backstop_bytes = 0;

/* One ring for every program: the collector sizes clr_events' before load
 * (bpf_map__set_max_entries) and gives the others that map
 * (bpf_map__reuse_fd), so this size is only a placeholder. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} rb SEC(".maps");

/*
 * The traced processes, by tgid.  A HASH that user space fills (and
 * kernel_events with the children its targets fork); an object that adds
 * descendants by itself on every event (usdt_generic) defines
 * CE_TARGETS_TYPE as BPF_MAP_TYPE_LRU_HASH first, so a full set forgets
 * the oldest instead of refusing the newest.
 */
#ifndef CE_TARGETS_TYPE
#define CE_TARGETS_TYPE	BPF_MAP_TYPE_HASH
#endif

struct {
	__uint(type, CE_TARGETS_TYPE);
	__uint(max_entries, CE_MAX_TARGETS);
	__type(key, __u32);			/* tgid */
	__type(value, __u8);
} targets SEC(".maps");

#endif /* EBPF_COLLECT_CE_MAPS_BPF_H */
