# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# usdt/bench.mk: side-by-side tracer benchmarks.
#
# Programs for scripts/bench-tracers.sh (run by `make bench` through
# scripts/bench.sh), kept out of $(OUTPUT)/bench_* so that bench.sh does
# not run them as benchmarks of their own:
#
#   $(BENCH_DIR)/bench_probes        the traced program: generated probe
#                                    (DotNETRuntime:GCDynamicEvent), own
#                                    5-byte-nop and 1-byte-nop sites
#   $(BENCH_DIR)/bench_probes_lttng  the same plus an LTTng-UST tracepoint
#                                    (separate: liblttng-ust starts threads
#                                    and waits for a session daemon)
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

$(OUTPUT)/obj/usdt/bench_probes.o $(OUTPUT)/obj/usdt/bench_lttng_tp.o: | $(GEN_PROVIDER_H)

$(BENCH_DIR)/bench_probes: $(OUTPUT)/obj/usdt/bench_probes.o $(PROVIDER_OBJS) | $(BENCH_DIR)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) -lpthread $(COMMON_LIB) -o $@

$(OUTPUT)/obj/usdt/bench_probes_lttng.o: usdt/bench_probes.c | $(GEN_PROVIDER_H)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -DBENCH_LTTNG -MMD -MP -c $< -o $@

$(BENCH_DIR)/bench_probes_lttng: $(OUTPUT)/obj/usdt/bench_probes_lttng.o \
				 $(OUTPUT)/obj/usdt/bench_lttng_tp.o $(PROVIDER_OBJS) | $(BENCH_DIR)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) -llttng-ust -ldl -lpthread $(COMMON_LIB) -o $@

$(OUTPUT)/obj/collector/bench_floor.o: $(OUTPUT)/bench_floor.skel.h

$(BENCH_DIR)/bench_floor: $(OUTPUT)/obj/collector/bench_floor.o | $(BENCH_DIR)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) -lbpf -lelf -lz $(COMMON_LIB) -o $@

# the full real manifest, generated and compiled like tests/usdt_gen.bats does
$(BENCH_ALL_FILES) &: $(USDT_GEN) $(BENCH_ALL_MAN) | $(BENCH_ALL_GEN)
	$(call msg,GEN,$(BENCH_ALL_GEN)/clretw_*)
	$(Q)$(USDT_GEN) $(BENCH_ALL_MAN) -o $(BENCH_ALL_GEN) --emit-caller >/dev/null

$(BENCH_DIR)/attach_target: usdt/bench_attach_target.c $(BENCH_ALL_FILES) | $(BENCH_DIR)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -I$(BENCH_ALL_GEN) -c $(BENCH_ALL_GEN)/clretw_provider.c \
		-o $(BENCH_ALL_GEN)/provider.o
	$(Q)$(CC) $(ALL_CFLAGS) -I$(BENCH_ALL_GEN) -Dmain=caller_main \
		-c $(BENCH_ALL_GEN)/clretw_caller.c -o $(BENCH_ALL_GEN)/caller.o
	$(Q)$(CC) $(ALL_CFLAGS) usdt/bench_attach_target.c $(BENCH_ALL_GEN)/provider.o \
		$(BENCH_ALL_GEN)/caller.o $(ALL_LDFLAGS) $(COMMON_LIB) -o $@

BENCH_TARGETS += $(BENCH_DIR)/bench_probes $(BENCH_DIR)/bench_probes_lttng \
		 $(BENCH_DIR)/bench_floor $(BENCH_DIR)/attach_target
