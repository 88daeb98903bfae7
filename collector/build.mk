# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# collector: build fragment included by the top-level Makefile.
#
# $(OUTPUT)/ebpf-collect links the collector, the BPF skeleton (embedded in
# ebpf-collect.o), the generated event table + decoder ($(EVENT_TABLE_OBJS),
# usdt/build.mk) and the nettrace writer/reader + dump ($(NETTRACE_LIB),
# symbolizer/build.mk).  Until those fragments export them, the binary is
# not part of `make` (the objects still build with `make collector-objs`).

COLLECTOR_SRCS := collector/main.c collector/ebpf-collect.c collector/usdt_notes.c \
		  collector/selection.c collector/reorder.c
COLLECTOR_SRCS += collector/symbolize.c		# frame names in the trace (issue 6)
COLLECTOR_SRCS += collector/mmap_events.c	# mappings of short-lived processes
COLLECTOR_SRCS += collector/tracer_pause.c	# the provider's pause word at the end of a trace
COLLECTOR_SRCS += collector/dotnet_ipc.c collector/eventpipe.c collector/ep_targets.c	# stock .NET: EventPipe
COLLECTOR_OBJS := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(COLLECTOR_SRCS))
COLLECTOR_LIBS := -lbpf -lelf -lz -lpthread

# the skeleton must exist before the object that includes it is compiled
$(OUTPUT)/obj/collector/ebpf-collect.o: $(OUTPUT)/clr_events.skel.h

.PHONY: collector-objs
collector-objs: $(COLLECTOR_OBJS)

ifneq ($(and $(EVENT_TABLE_OBJS),$(NETTRACE_LIB)),)
ALL_TARGETS += $(OUTPUT)/ebpf-collect

$(OUTPUT)/ebpf-collect: $(COLLECTOR_OBJS) $(EVENT_TABLE_OBJS) $(EVENT_TABLE_LOAD_OBJS) \
		       $(SYMBOLIZER_LIB) $(NETTRACE_LIB) | $(OUTPUT)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		$(COLLECTOR_LIBS) $(SYMBOLIZER_LDLIBS) -lexpat -o $@
endif

# USDT test target for tests/collector.bats: sys/sdt.h probes with the
# runtime's provider/probe names and argument convention.
# libusdt_testlib.so: a library with a probe that testprog -L dlopen()s.
ALL_TARGETS += $(OUTPUT)/tests/usdt_testprog $(OUTPUT)/tests/libusdt_testlib.so
$(OUTPUT)/tests/usdt_testprog: $(OUTPUT)/obj/collector/testprog.o | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $^ -lpthread -ldl -o $@

$(OUTPUT)/tests/libusdt_testlib.so: collector/testlib.c | $(OUTPUT)/tests
	$(call msg,LIB,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -shared $(ALL_LDFLAGS) $< -o $@

# `make bench`: scripts/bench.sh runs every $(OUTPUT)/bench_*
BENCH_TARGETS += $(OUTPUT)/bench_collector
$(OUTPUT)/bench_collector: collector/bench_collector.sh $(OUTPUT)/tests/usdt_testprog | $(OUTPUT)
	$(call msg,INSTALL,$@)
	$(Q)install -m 755 $< $@

# unit tests (tests/unit/test_collector.c)
UNIT_TESTS += $(OUTPUT)/tests/test_collector
$(OUTPUT)/tests/test_collector: $(OUTPUT)/obj/tests/unit/test_collector.o \
		$(OUTPUT)/obj/collector/usdt_notes.o $(OUTPUT)/obj/collector/selection.o \
		$(OUTPUT)/obj/collector/reorder.o $(EVENT_TABLE_OBJS) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) -lelf -o $@

# unit test of collector/symbolize.c (issue 6): tests/unit/test_symbolize.c
UNIT_TESTS += $(OUTPUT)/tests/test_symbolize
$(OUTPUT)/tests/test_symbolize: $(OUTPUT)/obj/tests/unit/test_symbolize.o \
		$(OUTPUT)/obj/collector/symbolize.o $(SYMBOLIZER_LIB) $(NETTRACE_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		$(SYMBOLIZER_LDLIBS) -o $@

# unit test of the diagnostics IPC and the EventPipe session (fake runtime)
UNIT_TESTS += $(OUTPUT)/tests/test_dotnet_ipc
$(OUTPUT)/tests/test_dotnet_ipc: $(OUTPUT)/obj/tests/unit/test_dotnet_ipc.o \
		$(OUTPUT)/obj/collector/dotnet_ipc.o $(OUTPUT)/obj/collector/eventpipe.o \
		$(OUTPUT)/obj/collector/reorder.o $(OUTPUT)/obj/collector/symbolize.o \
		$(SYMBOLIZER_LIB) $(NETTRACE_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		$(SYMBOLIZER_LDLIBS) -lpthread -o $@

# `make bench`: the EventPipe path next to the USDT path (tests/bench_eventpipe.sh)
BENCH_TARGETS += $(OUTPUT)/bench_eventpipe
$(OUTPUT)/bench_eventpipe: tests/bench_eventpipe.sh $(OUTPUT)/tests/usdt_testprog | $(OUTPUT)
	$(call msg,INSTALL,$@)
	$(Q)install -m 755 $< $@
