// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rundown_write.c - the rundown-style method and module events of a
 * sym_rundown written into a nettrace writer: the names a trace carries.
 */
#include "nettrace.h"
#include "rundown.h"

struct rundown_write {
	struct nt_writer *w;
	uint32_t method_id, module_id;
	uint64_t tid, ts;
};

static int rundown_write_cb(void *ctx, uint32_t pid, int event_id, const void *payload,
			    size_t size)
{
	struct rundown_write *rw = ctx;
	struct nt_event ev = {
		.metadata_id = event_id == CLR_EV_MODULE_DCEND ? rw->module_id : rw->method_id,
		.timestamp = rw->ts, .thread_id = rw->tid, .capture_thread_id = rw->tid,
		.payload = payload, .payload_size = (uint32_t)size,
	};

	(void)pid;	/* one process per V5 trace */
	return nt_writer__write_event(rw->w, &ev);
}

int sym_rundown__write(struct sym_rundown *r, struct nt_writer *w, uint64_t thread_id,
		       uint64_t ts)
{
	static const struct nt_event_desc method = {
		CLR_RUNDOWN_PROVIDER, CLR_EV_METHOD_UNLOAD_VERBOSE, "", 0x30, 1, 4, 40, NULL, 0,
	};
	static const struct nt_event_desc module = {
		CLR_RUNDOWN_PROVIDER, CLR_EV_MODULE_DCEND, "", 0x20000008, 2, 4, 36, NULL, 0,
	};
	struct rundown_write rw = { .w = w, .tid = thread_id, .ts = ts };
	int err;

	err = nt_writer__define(w, &method, &rw.method_id);
	if (!err)
		err = nt_writer__define(w, &module, &rw.module_id);
	if (!err)
		err = sym_rundown__emit(r, rundown_write_cb, &rw);
	return err;
}
