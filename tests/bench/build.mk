# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# tests/bench: benchmark programs; `make bench` (scripts/bench.sh) runs every
# $(OUTPUT)/bench_* in BENCH_TARGETS.

# the nettrace writer and reader; also built by `make`: tests/nettrace.bats
# checks the files it writes (-k)
$(OUTPUT)/bench_nettrace: $(OUTPUT)/obj/tests/bench/bench_nettrace.o $(NETTRACE_LIB)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(ALL_LDFLAGS) $(COMMON_LIB) -o $@

BENCH_TARGETS += $(OUTPUT)/bench_nettrace
ALL_TARGETS += $(OUTPUT)/bench_nettrace

# the symbolizer's lookups over a 100k-entry perf map
$(OUTPUT)/bench_symbolizer: $(OUTPUT)/obj/tests/bench/bench_symbolizer.o $(SYMBOLIZER_LIB) | $(OUTPUT)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) $^ $(SYMBOLIZER_LDLIBS) $(COMMON_LIB) -o $@

BENCH_TARGETS += $(OUTPUT)/bench_symbolizer
