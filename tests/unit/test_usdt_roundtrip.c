// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_usdt_roundtrip.c - every event the generated provider fires decodes
 * with the generated event table to exactly its own length.
 *
 * Linked with three generated files of one manifest:
 *   clretw_caller.c    built with -Dmain=caller_main: raises every
 *                      semaphore and calls every FireEtXplat once (counts 1,
 *                      empty strings, one zero struct element)
 *   clretw_provider.c  built with -DCLRETW_TEST_HOOK=roundtrip_hook
 *   clretw_events.c    the table, plus usdt/event_decode.c
 * so it checks the serializer against the table and the decoder for every
 * event: the project manifest here (make test), and the full ClrEtwAll.man
 * from tests/usdt_gen.bats, which compiles this file against it.
 */
#include <stdlib.h>

#include "clretw_provider.h"
#include "event_table.h"
#include "test.h"

extern const struct ect_table clretw_event_table;
int caller_main(int argc, char **argv);

static unsigned int n_fired, n_bad;
static unsigned char *seen;

void roundtrip_hook(const char *provider, const char *symbol, const void *payload,
		    unsigned int len, const GUID *activity, const GUID *related);

void roundtrip_hook(const char *provider, const char *symbol, const void *payload,
		    unsigned int len, const GUID *activity, const GUID *related)
{
	const struct ect_event *ev = ect_find_symbol(&clretw_event_table, provider, symbol);
	FILE *null = fopen("/dev/null", "w");
	long size;
	int err = -1;

	(void)activity;
	(void)related;
	n_fired++;
	if (!ev) {
		printf("#   %s:%s: not in the event table\n", provider, symbol);
		n_bad++;
		goto out;
	}
	seen[ev - clretw_event_table.events]++;
	size = ect_payload_size(ev, payload, len);
	if (null)
		err = ect_payload_to_json(ev, payload, len, null);
	if (size != (long)len || err) {
		printf("#   %s:%s: fired %u bytes, table size %ld, json %d\n", provider, symbol,
		       len, size, err);
		n_bad++;
	}
out:
	if (null)
		fclose(null);
}

static void test_every_event_roundtrips(void)
{
	char *argv[] = { "caller", "all", NULL };
	uint32_t i, missing = 0;

	seen = calloc(clretw_event_table.n_events, 1);
	if (!ASSERT_OK_PTR(seen, "calloc"))
		return;
	ASSERT_EQ(caller_main(2, argv), 0, "every FireEtXplat returned ERROR_SUCCESS");
	ASSERT_EQ(n_fired, clretw_event_table.n_events, "one event per table entry fired");
	ASSERT_EQ(n_bad, 0, "events whose payload does not match the table");
	for (i = 0; i < clretw_event_table.n_events; i++)
		missing += seen[i] != 1;
	ASSERT_EQ(missing, 0, "table entries not fired exactly once");
	printf("# %u events of %s fired and decoded\n", n_fired, clretw_event_table.manifest);
	free(seen);
}

int main(void)
{
	RUN(test_every_event_roundtrips);
	return test_summary();
}
