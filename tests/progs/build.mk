# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# tests/progs: programs the bats suites run.

# symtool: the symbolizer and the views without the collector:
#   symtool PID ADDR... | symtool --perf-map FILE ADDR... | symtool report|convert ...
SYMTOOL_OBJS := $(OUTPUT)/obj/tests/progs/symtool.o $(filter-out %/dump.o,$(VIEWS_OBJS)) \
		$(EVENT_META_OBJS)
$(OUTPUT)/tests/symtool: $(SYMTOOL_OBJS) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) $(EVENT_TABLE_OBJS) \
			 | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		$(VIEWS_LDLIBS) $(SYMBOLIZER_LDLIBS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

ALL_TARGETS += $(OUTPUT)/tests/symtool

# traces that depend on TraceEvent's EventCache rules, for tests/nettrace.bats
$(OUTPUT)/tests/nettrace_scenarios: $(OUTPUT)/obj/tests/progs/nettrace_scenarios.o $(OWN_EVENTS_OBJS) \
				    $(NETTRACE_LIB) \
				    | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(ALL_LDFLAGS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

ALL_TARGETS += $(OUTPUT)/tests/nettrace_scenarios

# probe demos for tests/usdt_probe.bats: one linked like a runtime, one
# counting serializations through the provider's test hook
$(OUTPUT)/tests/usdt_demo: $(OUTPUT)/obj/tests/progs/probe_demo.o $(PROVIDER_OBJS) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

$(OUTPUT)/obj/tests/progs/probe_demo.o: | $(GEN_PROVIDER_H)
$(OUTPUT)/obj/tests/progs/probe_demo_hook.o: tests/progs/probe_demo.c $(GEN_PROVIDER_H)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -DDEMO_HOOK -c $< -o $@

$(OUTPUT)/tests/usdt_demo_hook: $(OUTPUT)/obj/tests/progs/probe_demo_hook.o \
				$(OUTPUT)/obj/gen/clretw_provider_hook.o | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

ALL_TARGETS += $(OUTPUT)/tests/usdt_demo $(OUTPUT)/tests/usdt_demo_hook

# kevtest: attach the kernel events for a pid (or a command) and write a
# .nettrace through the same ring buffer / reorder / writer path as the
# collector.  See tests/progs/kernel_events_test.c.
ALL_TARGETS += $(OUTPUT)/tests/kevtest
$(OUTPUT)/tests/kevtest: $(OUTPUT)/obj/tests/progs/kernel_events_test.o $(KERNEL_EVENTS_OBJS) \
		$(OUTPUT)/obj/collector/pipeline/reorder.o $(OUTPUT)/obj/collector/sources/mmap_events.o $(OWN_EVENTS_OBJS) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		$(EVENT_TABLE_OBJS) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		$(KERNEL_EVENTS_LIBS) $(SYMBOLIZER_LDLIBS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@


# USDT test target for tests/collector.bats: sys/sdt.h probes with the
# runtime's provider/probe names and argument convention.
# libusdt_testlib.so: a library with a probe that testprog -L dlopen()s.
ALL_TARGETS += $(OUTPUT)/tests/usdt_testprog $(OUTPUT)/tests/libusdt_testlib.so
$(OUTPUT)/tests/usdt_testprog: $(OUTPUT)/obj/tests/progs/testprog.o | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $^ -lpthread -ldl $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

$(OUTPUT)/tests/libusdt_testlib.so: tests/progs/testlib.c | $(OUTPUT)/tests
	$(call msg,LIB,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -shared $(ALL_LDFLAGS) $< -o $@


# httpload: loopback HTTP/1.1 load (tests/bench/bench_dotnet_cost.sh)
ALL_TARGETS += $(OUTPUT)/tests/httpload
$(OUTPUT)/tests/httpload: $(OUTPUT)/obj/tests/progs/httpload.o | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $^ -o $@

# tpshim_ctl: the tracepoint shim's table of a process, its demonstration
# probe set on one tracepoint from outside, and tracepoints held raised
# through the kernel as the collector holds them (tests/tracepoint_shim.bats)
ALL_TARGETS += $(OUTPUT)/tests/tpshim_ctl
$(OUTPUT)/tests/tpshim_ctl: $(OUTPUT)/obj/tests/progs/tpshim_ctl.o $(TPSHIM_READ_OBJS) \
		$(OUTPUT)/obj/collector/sources/tpshim_enable.o $(OUTPUT)/obj/collector/sources/tracer_pause.o \
		$(COMMON_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

# unwind_native: time in libc and libm under its own functions, built
# without frame pointers (tests/unwind.bats: --call-graph dwarf against perf).
# -fomit-frame-pointer after ALL_CFLAGS' -fno-omit-frame-pointer wins.
ALL_TARGETS += $(OUTPUT)/tests/unwind_native
$(OUTPUT)/tests/unwind_native: tests/progs/unwind_native.c | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -O2 -fomit-frame-pointer $(ALL_LDFLAGS) $< -lm -o $@

# the same program with its own functions' CFI in .debug_frame instead of
# .eh_frame (crt's code keeps .eh_frame): tests/unit/test_eh_table.c reads
# both into one table
ALL_TARGETS += $(OUTPUT)/tests/unwind_native_debug_frame
$(OUTPUT)/tests/unwind_native_debug_frame: tests/progs/unwind_native.c | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -O2 -fomit-frame-pointer -fno-asynchronous-unwind-tables \
		-fno-unwind-tables $(ALL_LDFLAGS) $< -lm -o $@

# striplib_prog and libstriplib.so: a library stripped of every symbol but
# its one export (tests/native_names.bats), its debug file kept aside in
# striplib-debug/ where no debug-file search looks
ALL_TARGETS += $(OUTPUT)/tests/striplib_prog
$(OUTPUT)/tests/libstriplib.so: tests/progs/striplib.c | $(OUTPUT)/tests
	$(call msg,LIB,$@)
	$(Q)mkdir -p $(OUTPUT)/tests/striplib-debug
	$(Q)$(CC) $(ALL_CFLAGS) -O2 -fPIC -shared -Wl,--build-id $(ALL_LDFLAGS) $< -o $@.full
	$(Q)objcopy --only-keep-debug $@.full $(OUTPUT)/tests/striplib-debug/libstriplib.debug
	$(Q)strip --strip-all $@.full -o $@
	$(Q)rm -f $@.full

$(OUTPUT)/tests/striplib_prog: $(OUTPUT)/obj/tests/progs/striplib_main.o $(OUTPUT)/tests/libstriplib.so \
			       | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(OUTPUT)/obj/tests/progs/striplib_main.o \
		-L$(OUTPUT)/tests -lstriplib -Wl,-rpath,'$$ORIGIN' -o $@
