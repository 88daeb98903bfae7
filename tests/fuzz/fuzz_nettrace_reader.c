// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer harness for the nettrace reader (`make fuzz`): read every event of
 * the input, touch every delivered byte (payload, stack, metadata strings) and
 * decode self-describing payloads to JSON, so ASan/UBSan see any out-of-bounds
 * access.  The reader must end (clean or with an error) on every input.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nettrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	return (int)(sum & 0) + (int)(n & 0);
}
