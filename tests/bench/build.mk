# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# tests/bench: benchmark programs; `make bench` (scripts/bench.sh) runs every
# $(OUTPUT)/bench_* in BENCH_TARGETS.

# the nettrace writer and reader against memcpy, the runtime's own files and
# TraceEvent (TraceCheck --time, tests/traceevent/build.mk; `make bench`
# builds it with all); also built by `make`: tests/nettrace.bats checks the
# files it writes (-k)
$(OUTPUT)/bench_nettrace: $(OUTPUT)/obj/tests/bench/bench_nettrace.o $(OWN_EVENTS_OBJS) $(NETTRACE_LIB)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(ALL_LDFLAGS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

BENCH_TARGETS += $(OUTPUT)/bench_nettrace
ALL_TARGETS += $(OUTPUT)/bench_nettrace

# the symbolizer's lookups over a 100k-entry perf map
$(OUTPUT)/bench_symbolizer: $(OUTPUT)/obj/tests/bench/bench_symbolizer.o $(SYMBOLIZER_LIB) | $(OUTPUT)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) $^ $(SYMBOLIZER_LDLIBS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

BENCH_TARGETS += $(OUTPUT)/bench_symbolizer

# the untraced cost of FireEtXplat (the generated provider)
$(OUTPUT)/bench_fire: $(OUTPUT)/obj/tests/bench/bench_fire.o $(PROVIDER_OBJS)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

BENCH_TARGETS += $(OUTPUT)/bench_fire
$(OUTPUT)/obj/tests/bench/bench_fire.o: | $(GEN_PROVIDER_H)

# Programs of the side-by-side tracer bench (scripts/bench-tracers.sh), kept
# out of $(OUTPUT)/bench_* so that bench.sh does not run them on their own:
#   $(BENCH_DIR)/bench_probes        the traced program: generated probe
#                                    (DotNETRuntime:GCDynamicEvent), own
#                                    5-byte-nop and 1-byte-nop sites
#   $(BENCH_DIR)/bench_probes_lttng  the same plus an LTTng-UST tracepoint
#   $(BENCH_DIR)/bench_floor         minimal libbpf USDT tracer (the floor)
#   $(BENCH_DIR)/attach_target       idle process with the provider generated
#                                    from the full ClrEtwAll.man (430 probes)
BENCH_DIR     := $(OUTPUT)/bench
BENCH_ALL_MAN := $(SHARED)/manifests/ClrEtwAll.man
BENCH_ALL_GEN := $(BENCH_DIR)/gen-all
BENCH_ALL_FILES := $(BENCH_ALL_GEN)/clretw_provider.h $(BENCH_ALL_GEN)/clretw_provider.c \
		   $(BENCH_ALL_GEN)/clretw_caller.c

$(BENCH_DIR) $(BENCH_ALL_GEN):
	$(Q)mkdir -p $@

$(OUTPUT)/obj/tests/bench/bench_probes.o $(OUTPUT)/obj/tests/bench/bench_lttng_tp.o: | $(GEN_PROVIDER_H)

$(BENCH_DIR)/bench_probes: $(OUTPUT)/obj/tests/bench/bench_probes.o $(PROVIDER_OBJS) | $(BENCH_DIR)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) -lpthread $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

$(OUTPUT)/obj/tests/bench/bench_probes_lttng.o: tests/bench/bench_probes.c | $(GEN_PROVIDER_H)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -DBENCH_LTTNG -MMD -MP -c $< -o $@

$(BENCH_DIR)/bench_probes_lttng: $(OUTPUT)/obj/tests/bench/bench_probes_lttng.o \
				 $(OUTPUT)/obj/tests/bench/bench_lttng_tp.o $(PROVIDER_OBJS) | $(BENCH_DIR)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) -llttng-ust -ldl -lpthread $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

$(OUTPUT)/obj/tests/bench/bench_floor.o: $(OUTPUT)/bench_floor.skel.h

$(BENCH_DIR)/bench_floor: $(OUTPUT)/obj/tests/bench/bench_floor.o | $(BENCH_DIR)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) -lbpf -lelf -lz $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

# the full real manifest, generated and compiled like tests/usdt_gen.bats does
$(BENCH_ALL_FILES) &: $(USDT_GEN) $(BENCH_ALL_MAN) | $(BENCH_ALL_GEN)
	$(call msg,GEN,$(BENCH_ALL_GEN)/clretw_*)
	$(Q)$(USDT_GEN) $(BENCH_ALL_MAN) -o $(BENCH_ALL_GEN) --emit-caller >/dev/null

$(BENCH_DIR)/attach_target: tests/bench/bench_attach_target.c $(BENCH_ALL_FILES) | $(BENCH_DIR)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -I$(BENCH_ALL_GEN) -c $(BENCH_ALL_GEN)/clretw_provider.c \
		-o $(BENCH_ALL_GEN)/provider.o
	$(Q)$(CC) $(ALL_CFLAGS) -I$(BENCH_ALL_GEN) -Dmain=caller_main \
		-c $(BENCH_ALL_GEN)/clretw_caller.c -o $(BENCH_ALL_GEN)/caller.o
	$(Q)$(CC) $(ALL_CFLAGS) tests/bench/bench_attach_target.c $(BENCH_ALL_GEN)/provider.o \
		$(BENCH_ALL_GEN)/caller.o $(ALL_LDFLAGS) $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

# bench_probes is also the traced program of tests/batch.bats
ALL_TARGETS += $(BENCH_DIR)/bench_probes
BENCH_TARGETS += $(BENCH_DIR)/bench_probes $(BENCH_DIR)/bench_probes_lttng \
		 $(BENCH_DIR)/bench_floor $(BENCH_DIR)/attach_target

# bench: the batched in-process path vs the per-event probe and LTTng-UST
BENCH_TARGETS += $(OUTPUT)/bench_batched
$(OUTPUT)/bench_batched: tests/bench/bench_batched.sh $(BENCH_DIR)/bench_probes \
			 $(BENCH_DIR)/bench_probes_lttng | $(OUTPUT)
	$(call msg,INSTALL,$@)
	$(Q)install -m 755 $< $@

# bench: CPU overhead of sampling (99 Hz, 999 Hz) on refrt's cpu scenario
BENCH_TARGETS += $(OUTPUT)/bench_sampling
$(OUTPUT)/bench_sampling: tests/bench/bench_sampling.sh $(OUTPUT)/tests/kevtest | $(OUTPUT)
	$(call msg,INSTALL,$@)
	$(Q)install -m 755 $< $@

# bench: a CPU sample's user stack by frame pointers, by copy and libdw
# (--call-graph dwarf) and by perf's dwarf mode, at 99 and 999 Hz
BENCH_TARGETS += $(OUTPUT)/bench_unwind
$(OUTPUT)/bench_unwind: tests/bench/bench_unwind.sh $(OUTPUT)/tests/unwind_native | $(OUTPUT)
	$(call msg,INSTALL,$@)
	$(Q)install -m 755 $< $@


# `make bench`: scripts/bench.sh runs every $(OUTPUT)/bench_*
BENCH_TARGETS += $(OUTPUT)/bench_collector
$(OUTPUT)/bench_collector: tests/bench/bench_collector.sh $(OUTPUT)/tests/usdt_testprog | $(OUTPUT)
	$(call msg,INSTALL,$@)
	$(Q)install -m 755 $< $@


# `make bench`: the EventPipe path next to the USDT path (tests/bench/bench_eventpipe.sh)
BENCH_TARGETS += $(OUTPUT)/bench_eventpipe
$(OUTPUT)/bench_eventpipe: tests/bench/bench_eventpipe.sh $(OUTPUT)/tests/usdt_testprog | $(OUTPUT)
	$(call msg,INSTALL,$@)
	$(Q)install -m 755 $< $@

# the floor's BPF program: bpf/build.mk's chain, from this folder
$(OUTPUT)/bpf/bench_floor.bpf.o: tests/bench/bench_floor.bpf.c $(VMLINUX_DIR)/vmlinux.h | $(OUTPUT)/bpf
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $(@:.o=.tmp.o)
	$(Q)$(BPFTOOL) gen object $@ $(@:.o=.tmp.o)
	$(Q)rm -f $(@:.o=.tmp.o)

# bench_lttng_tp.h includes itself by a relative name (LTTng-UST's
# tracepoint header convention)
$(OUTPUT)/obj/tests/bench/%.o: ALL_CFLAGS += -Itests/bench

# the collector's own CPU, start-up and steady state apart
BENCH_TARGETS += $(OUTPUT)/bench_collector_cpu
$(OUTPUT)/bench_collector_cpu: tests/bench/bench_collector_cpu.sh | $(OUTPUT)
	$(call msg,INSTALL,$@)
	$(Q)install -m 755 $< $@

# `make bench`: flight recorder memory, trigger latency, --all when idle,
# --filter's ring-buffer bytes (tests/bench/bench_always_on.sh)
BENCH_TARGETS += $(OUTPUT)/bench_always_on
$(OUTPUT)/bench_always_on: tests/bench/bench_always_on.sh $(OUTPUT)/tests/usdt_testprog | $(OUTPUT)
	$(call msg,INSTALL,$@)
	$(Q)install -m 755 $< $@

# `make bench`: the node agent's cost beside perf record -F 99 -a -g
# (tests/bench/bench_agent.sh; sources tests/ch_server.bash from the tree)
BENCH_TARGETS += $(OUTPUT)/bench_agent
$(OUTPUT)/bench_agent: tests/bench/bench_agent.sh | $(OUTPUT)
	$(call msg,INSTALL,$@)
	$(Q)install -m 755 $< $@

# `make bench`: tracing stock .NET (ASP.NET Core under loopback load), ours
# beside dotnet-trace (tests/bench/bench_dotnet_cost.sh)
BENCH_TARGETS += $(OUTPUT)/bench_dotnet_cost
$(OUTPUT)/bench_dotnet_cost: tests/bench/bench_dotnet_cost.sh $(OUTPUT)/tests/httpload | $(OUTPUT)
	$(call msg,INSTALL,$@)
	$(Q)install -m 755 $< $@

# `make bench`: a stock .NET app's cost per runtime event through the
# tracepoint shim beside EventPipe (ours, dotnet-trace's), and the cost of
# being started ready for the shim (tests/bench/bench_tpshim.sh)
BENCH_TARGETS += $(OUTPUT)/bench_tpshim
$(OUTPUT)/bench_tpshim: tests/bench/bench_tpshim.sh $(TPSHIM_LIB) | $(OUTPUT)
	$(call msg,INSTALL,$@)
	$(Q)install -m 755 $< $@
