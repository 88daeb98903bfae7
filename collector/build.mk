# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# collector: build fragment included by the top-level Makefile.
#
# $(OUTPUT)/ebpf-collect links the collector and its subcommands, the BPF
# skeleton (embedded in ebpf-collect.o), the generated event table + decoder
# ($(EVENT_TABLE_OBJS), usdt/build.mk), the symbolizer and the nettrace
# library.  $(OUTPUT)/nettrace-dump is `ebpf-collect dump` alone.

COLLECTOR_SRCS := collector/main.c collector/ebpf-collect.c collector/cli.c collector/clr_events.c \
		  collector/stop.c collector/usdt_notes.c \
		  collector/selection.c collector/reorder.c
COLLECTOR_SRCS += collector/symbolize.c		# frame names in the trace
COLLECTOR_SRCS += collector/mmap_events.c	# mappings of short-lived processes
COLLECTOR_SRCS += collector/tracer_pause.c	# the provider's pause word at the end of a trace
COLLECTOR_SRCS += collector/dotnet_ipc.c collector/eventpipe.c collector/ep_targets.c	# stock .NET: EventPipe
COLLECTOR_SRCS += collector/manifest_meta.c	# the manifest's events in the nettrace library's terms
# the subcommands over a trace: dump, report, convert, symbolize
VIEWS_SRCS     := $(addprefix collector/views/,dump.c view.c report.c convert.c folded.c \
		  speedscope.c flamegraph.c symbolize_cmd.c)
VIEWS_OBJS     := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(VIEWS_SRCS))
COLLECTOR_SRCS += $(VIEWS_SRCS)
COLLECTOR_OBJS := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(COLLECTOR_SRCS))
COLLECTOR_LIBS := -lbpf -lelf -lz -lpthread

# the skeleton must exist before the object that includes it is compiled
$(addprefix $(OUTPUT)/obj/collector/,ebpf-collect.o cli.o clr_events.o stop.o): \
	$(OUTPUT)/clr_events.skel.h

.PHONY: collector-objs
collector-objs: $(COLLECTOR_OBJS)

ifneq ($(and $(EVENT_TABLE_OBJS),$(NETTRACE_LIB)),)
ALL_TARGETS += $(OUTPUT)/ebpf-collect

$(OUTPUT)/ebpf-collect: $(COLLECTOR_OBJS) $(EVENT_TABLE_OBJS) $(EVENT_TABLE_LOAD_OBJS) \
		       $(SYMBOLIZER_LIB) $(NETTRACE_LIB) | $(OUTPUT)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		$(COLLECTOR_LIBS) $(SYMBOLIZER_LDLIBS) -lexpat $(COMMON_LIB) -o $@
endif

ALL_TARGETS += $(OUTPUT)/nettrace-dump
$(OUTPUT)/nettrace-dump: $(OUTPUT)/obj/collector/views/nettrace_dump_main.o \
			 $(OUTPUT)/obj/collector/views/dump.o $(OUTPUT)/obj/collector/manifest_meta.o \
			 $(EVENT_TABLE_OBJS) $(EVENT_TABLE_LOAD_OBJS) $(NETTRACE_LIB)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(ALL_LDFLAGS) -lexpat $(COMMON_LIB) -o $@

# USDT test target for tests/collector.bats: sys/sdt.h probes with the
# runtime's provider/probe names and argument convention.
# libusdt_testlib.so: a library with a probe that testprog -L dlopen()s.
ALL_TARGETS += $(OUTPUT)/tests/usdt_testprog $(OUTPUT)/tests/libusdt_testlib.so
$(OUTPUT)/tests/usdt_testprog: $(OUTPUT)/obj/collector/testprog.o | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $^ -lpthread -ldl $(COMMON_LIB) -o $@

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
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) -lelf $(COMMON_LIB) -o $@

# unit test of collector/symbolize.c: tests/unit/test_symbolize.c
UNIT_TESTS += $(OUTPUT)/tests/test_symbolize
$(OUTPUT)/tests/test_symbolize: $(OUTPUT)/obj/tests/unit/test_symbolize.o \
		$(OUTPUT)/obj/collector/symbolize.o $(SYMBOLIZER_LIB) $(NETTRACE_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		$(SYMBOLIZER_LDLIBS) $(COMMON_LIB) -o $@

# unit test of the diagnostics IPC and the EventPipe session (fake runtime)
UNIT_TESTS += $(OUTPUT)/tests/test_dotnet_ipc
$(OUTPUT)/tests/test_dotnet_ipc: $(OUTPUT)/obj/tests/unit/test_dotnet_ipc.o \
		$(OUTPUT)/obj/collector/dotnet_ipc.o $(OUTPUT)/obj/collector/eventpipe.o \
		$(OUTPUT)/obj/collector/reorder.o $(OUTPUT)/obj/collector/symbolize.o \
		$(SYMBOLIZER_LIB) $(NETTRACE_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		$(SYMBOLIZER_LDLIBS) -lpthread $(COMMON_LIB) -o $@

# `make bench`: the EventPipe path next to the USDT path (tests/bench_eventpipe.sh)
BENCH_TARGETS += $(OUTPUT)/bench_eventpipe
$(OUTPUT)/bench_eventpipe: tests/bench_eventpipe.sh $(OUTPUT)/tests/usdt_testprog | $(OUTPUT)
	$(call msg,INSTALL,$@)
	$(Q)install -m 755 $< $@
