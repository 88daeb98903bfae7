# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# tests/unit: build fragment included by the top-level Makefile.

# the nettrace library (test_nettrace*.c)
NETTRACE_TESTS := $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(wildcard tests/unit/test_nettrace*.c))

$(NETTRACE_TESTS): $(OUTPUT)/tests/%: $(OUTPUT)/obj/tests/unit/%.o $(NETTRACE_LIB) \
		   $(EVENT_META_OBJS) $(EVENT_TABLE_OBJS) $(OWN_EVENTS_OBJS) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(ALL_LDFLAGS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

UNIT_TESTS += $(NETTRACE_TESTS)

# the symbolizer library, and the views over it
$(OUTPUT)/tests/test_symbolizer: $(OUTPUT)/obj/tests/unit/test_symbolizer.o $(SYMBOLIZER_LIB) \
				 $(NETTRACE_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -rdynamic $^ $(SYMBOLIZER_LDLIBS) -ldl $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

$(OUTPUT)/tests/test_views: $(OUTPUT)/obj/tests/unit/test_views.o \
			    $(filter-out %/dump.o,$(VIEWS_OBJS)) $(EVENT_META_OBJS) \
			    $(OUTPUT)/obj/usdt/event_decode.o $(SYMBOLIZER_LIB) $(NETTRACE_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) $^ $(VIEWS_LDLIBS) $(SYMBOLIZER_LDLIBS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

$(OUTPUT)/tests/test_unwind: $(OUTPUT)/obj/tests/unit/test_unwind.o $(SYMBOLIZER_LIB) \
			     $(NETTRACE_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) $^ $(SYMBOLIZER_LDLIBS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

UNIT_TESTS += $(OUTPUT)/tests/test_symbolizer $(OUTPUT)/tests/test_views $(OUTPUT)/tests/test_unwind

# --call-graph eh's tables against readelf's reading of the same CFI
$(OUTPUT)/tests/test_eh_table: $(OUTPUT)/obj/tests/unit/test_eh_table.o \
			       $(OUTPUT)/obj/collector/sources/eh_table.o | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) $^ -ldw -lelf $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

UNIT_TESTS += $(OUTPUT)/tests/test_eh_table

# tests/unit/test.h's ASSERT_STREQ formats into a 512-byte buffer; gcc's
# truncation warning fires for any char[] argument larger than that.
$(OUTPUT)/obj/tests/unit/test_symbolizer.o $(OUTPUT)/obj/tests/unit/test_views.o: \
	ALL_CFLAGS += -Wno-format-truncation
# test_views reads convert --format pprof back with the generated unpacker
$(OUTPUT)/obj/tests/unit/test_views.o: $(GEN)/profile.pb-c.h

# the generated provider, the manifest parser and the event table
# the generated provider with a capture hook (test_usdt_serialize, usdt_demo_hook)
$(OUTPUT)/obj/gen/clretw_provider_hook.o: $(GEN)/clretw_provider.c $(GEN_PROVIDER_H)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -DCLRETW_TEST_HOOK=test_capture -c $< -o $@

USDT_TEST_OBJS := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(wildcard tests/unit/test_usdt_*.c) \
		  tests/bench/bench_fire.c tests/progs/probe_demo.c)
$(USDT_TEST_OBJS): | $(GEN_PROVIDER_H)

$(OUTPUT)/tests/test_usdt_serialize: $(OUTPUT)/obj/tests/unit/test_usdt_serialize.o \
				     $(OUTPUT)/obj/gen/clretw_provider_hook.o | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

# every event fired by the generated caller decodes to its own length
$(OUTPUT)/obj/gen/clretw_provider_rt.o: $(GEN)/clretw_provider.c $(GEN_PROVIDER_H)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -DCLRETW_TEST_HOOK=roundtrip_hook -c $< -o $@

$(OUTPUT)/obj/gen/clretw_caller_rt.o: $(GEN)/clretw_caller.c $(GEN_PROVIDER_H)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -Dmain=caller_main -c $< -o $@

$(OUTPUT)/tests/test_usdt_roundtrip: $(OUTPUT)/obj/tests/unit/test_usdt_roundtrip.o \
				     $(OUTPUT)/obj/gen/clretw_caller_rt.o \
				     $(OUTPUT)/obj/gen/clretw_provider_rt.o \
				     $(EVENT_TABLE_OBJS) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

$(OUTPUT)/tests/test_usdt_decode: $(OUTPUT)/obj/tests/unit/test_usdt_decode.o \
				  $(EVENT_TABLE_OBJS) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

$(OUTPUT)/tests/test_usdt_manifest: $(OUTPUT)/obj/tests/unit/test_usdt_manifest.o \
				    $(OUTPUT)/obj/usdt/manifest.o \
				    $(OUTPUT)/obj/usdt/event_decode.o | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) -lexpat $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

UNIT_TESTS += $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(wildcard tests/unit/test_usdt_*.c))

# common/ alone: index_set, grow, elf_file, proc_info
COMMON_TESTS := $(addprefix $(OUTPUT)/tests/,test_index_set test_grow test_elf_file \
					  test_proc_info)
UNIT_TESTS += $(COMMON_TESTS)
$(COMMON_TESTS): $(OUTPUT)/tests/%: $(OUTPUT)/obj/tests/unit/%.o $(COMMON_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(ALL_LDFLAGS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

# ect_table__load() against the generated table and the real manifest
$(OUTPUT)/tests/test_usdt_table_load: $(OUTPUT)/obj/tests/unit/test_usdt_table_load.o \
				      $(EVENT_TABLE_OBJS) $(EVENT_TABLE_LOAD_OBJS) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) -lexpat $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

# kernel events: group / rate parsing, syscall table, record layouts
UNIT_TESTS += $(OUTPUT)/tests/test_kernel_events
$(OUTPUT)/tests/test_kernel_events: $(OUTPUT)/obj/tests/unit/test_kernel_events.o \
		$(KERNEL_EVENTS_OBJS) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) $(EVENT_TABLE_OBJS) \
		| $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		$(KERNEL_EVENTS_LIBS) $(SYMBOLIZER_LDLIBS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@


# --usdt: spec parser, built-in table, UTF-8 -> UTF-16
UNIT_TESTS += $(OUTPUT)/tests/test_usdt_generic
$(OUTPUT)/tests/test_usdt_generic: $(OUTPUT)/obj/tests/unit/test_usdt_generic.o $(UG_OBJS) \
		$(NETTRACE_LIB) $(EVENT_TABLE_OBJS) $(SYMBOLIZER_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(SYMBOLIZER_LIB) -lbpf -lelf -lz $(COMMON_LIB) $(COMMON_LDLIBS) -o $@


# unit tests (tests/unit/test_collector.c)
UNIT_TESTS += $(OUTPUT)/tests/test_collector
$(OUTPUT)/tests/test_collector: $(OUTPUT)/obj/tests/unit/test_collector.o \
		$(OUTPUT)/obj/collector/sources/usdt_notes.o $(OUTPUT)/obj/collector/sources/selection.o \
		$(OUTPUT)/obj/collector/pipeline/reorder.o $(EVENT_TABLE_OBJS) $(SYMBOLIZER_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) -lelf $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

# unit test of symbolizer/symbolize.c: tests/unit/test_symbolize.c
UNIT_TESTS += $(OUTPUT)/tests/test_symbolize
$(OUTPUT)/tests/test_symbolize: $(OUTPUT)/obj/tests/unit/test_symbolize.o \
		$(OUTPUT)/obj/symbolizer/symbolize.o $(SYMBOLIZER_LIB) $(NETTRACE_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		$(SYMBOLIZER_LDLIBS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

# unit test of the diagnostics IPC and the EventPipe session (fake runtime)
UNIT_TESTS += $(OUTPUT)/tests/test_dotnet_ipc
$(OUTPUT)/tests/test_dotnet_ipc: $(OUTPUT)/obj/tests/unit/test_dotnet_ipc.o \
		$(OUTPUT)/obj/collector/sources/dotnet_ipc.o $(OUTPUT)/obj/collector/sources/eventpipe.o \
		$(OUTPUT)/obj/collector/sources/ep_perfmap.o \
		$(OUTPUT)/obj/collector/pipeline/reorder.o $(OUTPUT)/obj/symbolizer/symbolize.o \
		$(EVENT_TABLE_OBJS) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		$(SYMBOLIZER_LDLIBS) -lpthread $(COMMON_LIB) $(COMMON_LDLIBS) -o $@


# unit test of the --clickhouse URL, spool and HTTP client: tests/unit/test_export.c
UNIT_TESTS += $(OUTPUT)/tests/test_export
$(OUTPUT)/tests/test_export: $(OUTPUT)/obj/tests/unit/test_export.o \
		$(OUTPUT)/obj/common/http_client.o $(OUTPUT)/obj/collector/fleet/export_spool.o | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) -lpthread $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

# unit test of the daemon's --metrics: counters carried over reloads, the
# shared mapping: tests/unit/test_metrics_carry.c
UNIT_TESTS += $(OUTPUT)/tests/test_metrics_carry
$(OUTPUT)/tests/test_metrics_carry: $(OUTPUT)/obj/tests/unit/test_metrics_carry.o \
		$(OUTPUT)/obj/collector/fleet/metrics_carry.o $(OUTPUT)/obj/collector/fleet/metrics_shm.o \
		$(OUTPUT)/obj/collector/fleet/metrics_agg.o $(OUTPUT)/obj/collector/fleet/attrib.o \
		$(EVENT_TABLE_OBJS) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(COMMON_LIB) $(COMMON_LDLIBS) -lm -o $@

# unit test of registering with the pipeline: tests/unit/test_pipeline.c
PIPELINE_OBJS := $(filter $(OUTPUT)/obj/collector/pipeline/%,$(COLLECTOR_OBJS))
UNIT_TESTS += $(OUTPUT)/tests/test_pipeline
$(OUTPUT)/tests/test_pipeline: $(OUTPUT)/obj/tests/unit/test_pipeline.o $(PIPELINE_OBJS) \
		$(EVENT_TABLE_OBJS) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		-lbpf -lelf -lz $(SYMBOLIZER_LDLIBS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@
# what both batched paths share: tests/unit/test_batch_run.c
UNIT_TESTS += $(OUTPUT)/tests/test_batch_run
$(OUTPUT)/tests/test_batch_run: $(OUTPUT)/obj/tests/unit/test_batch_run.o \
		$(OUTPUT)/obj/collector/sources/batch_run.o $(PIPELINE_OBJS) $(EVENT_TABLE_OBJS) \
		$(SYMBOLIZER_LIB) $(NETTRACE_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		-lbpf -lelf -lz $(SYMBOLIZER_LDLIBS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@
# unit test of splitting the collector's traces: tests/unit/test_own_events.c
UNIT_TESTS += $(OUTPUT)/tests/test_own_events
$(OUTPUT)/tests/test_own_events: $(OUTPUT)/obj/tests/unit/test_own_events.o \
		$(OUTPUT)/obj/collector/pipeline/own_events.o $(NETTRACE_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(COMMON_LIB) \
		$(COMMON_LDLIBS) -o $@
# unit test of the runtime series' labels and bounds: tests/unit/test_metrics_agg.c
UNIT_TESTS += $(OUTPUT)/tests/test_metrics_agg
$(OUTPUT)/tests/test_metrics_agg: $(OUTPUT)/obj/tests/unit/test_metrics_agg.o \
		$(OUTPUT)/obj/collector/fleet/metrics_agg.o $(OUTPUT)/obj/collector/fleet/attrib.o \
		$(EVENT_TABLE_OBJS) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

# unit test of who a pid is and its service: tests/unit/test_attrib.c
UNIT_TESTS += $(OUTPUT)/tests/test_attrib
$(OUTPUT)/tests/test_attrib: $(OUTPUT)/obj/tests/unit/test_attrib.o \
		$(OUTPUT)/obj/collector/fleet/attrib.o | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

# the tracepoint shim loaded into the test, its table read through /proc/self
UNIT_TESTS += $(OUTPUT)/tests/test_tracepoint_shim
$(OUTPUT)/obj/tests/unit/test_tracepoint_shim.o: ALL_CFLAGS += -DTPSHIM_LIB='"$(abspath $(TPSHIM_LIB))"'
$(OUTPUT)/tests/test_tracepoint_shim: $(OUTPUT)/obj/tests/unit/test_tracepoint_shim.o \
				      $(TPSHIM_READ_OBJS) $(TPSHIM_LIB) $(COMMON_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(ALL_LDFLAGS) -ldl $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

# a tracepoint's signature read and its manifest payload rebuilt
UNIT_TESTS += $(OUTPUT)/tests/test_tracepoint_sig
$(OUTPUT)/tests/test_tracepoint_sig: $(OUTPUT)/obj/tests/unit/test_tracepoint_sig.o \
				     $(OUTPUT)/obj/usdt/tracepoint_sig.o $(OUTPUT)/obj/gen/clretw_events.o \
				     $(OUTPUT)/obj/usdt/event_decode.o | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

# a stock runtime's LTTng configuration, as it reads its environment
UNIT_TESTS += $(OUTPUT)/tests/test_lttng_env
$(OUTPUT)/tests/test_lttng_env: $(OUTPUT)/obj/tests/unit/test_lttng_env.o \
				$(OUTPUT)/obj/collector/sources/lttng_env.o $(COMMON_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(ALL_LDFLAGS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@
