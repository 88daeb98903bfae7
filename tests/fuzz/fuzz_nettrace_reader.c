// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer harness for the nettrace reader (`make fuzz`): read every event of
 * the input, touch every delivered byte (payload, stack, metadata strings) and
 * decode self-describing payloads to JSON, so ASan/UBSan see any out-of-bounds
 * access.  The reader must end (clean or with an error) on every input.  The
 * same input is then fed to a stream reader in pieces (a pipe, a live
 * EventPipe session), which must deliver the same events and end the same way.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nettrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input fed in pieces of 1 + data[0] % 61 bytes; events delivered,
 * *rc_out the final nt_reader__next result. */
static uint64_t read_as_stream(const uint8_t *data, size_t size, int *rc_out)
{
	size_t piece = size ? 1 + data[0] % 61 : 1, off = 0;
	struct nt_read_event ev;
	struct nt_reader *r = nt_reader__open_stream(NULL);
	uint64_t n = 0;
	int rc;

	if (!r)
		return 0;
	for (;;) {
		while ((rc = nt_reader__next(r, &ev)) == 1)
			n++;
		if (rc != NT_READ_AGAIN)
			break;
		if (off == size) {
			nt_reader__feed_end(r);
			continue;
		}
		if (piece > size - off)
			piece = size - off;
		if (nt_reader__feed(r, data + off, piece))
			break;
		off += piece;
	}
	*rc_out = rc;
	nt_reader__close(r);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct nt_read_event ev;
	struct nt_reader *r;
	uint64_t sum = 0, n = 0;
	int rc;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	r = nt_reader__open_mem(data, size, NULL);
	if (!r)
		return 0;
	while ((rc = nt_reader__next(r, &ev)) == 1) {
		for (uint32_t i = 0; i < ev.payload_size; i++)
			sum += ev.payload[i];
		for (uint32_t i = 0; i < ev.stack_depth; i++)
			sum += ev.stack[i];
		sum += strlen(ev.meta->provider) + strlen(ev.meta->name);
		if (devnull)
			nt_payload_to_json(ev.meta, ev.payload, ev.payload_size, devnull);
		n++;
	}
	if (rc < 0 && !nt_reader__error(r))
		__builtin_trap();	/* an error always has a reason */
	if (rc == 0 && nt_reader__error(r))
		__builtin_trap();
	nt_reader__close(r);
	{
		int src;
		uint64_t sn = read_as_stream(data, size, &src);

		if (sn != n || (src < 0) != (rc < 0) || (src == 0) != (rc == 0))
			__builtin_trap();	/* a stream reads what the file reads */
	}
	return (int)(sum & 0) + (int)(n & 0);
}
