# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# tests/progs: programs the bats suites run.

# symtool: the symbolizer and the views without the collector:
#   symtool PID ADDR... | symtool --perf-map FILE ADDR... | symtool report|convert ...
SYMTOOL_OBJS := $(OUTPUT)/obj/tests/progs/symtool.o $(filter-out %/dump.o,$(VIEWS_OBJS)) \
		$(OUTPUT)/obj/collector/manifest_meta.o
$(OUTPUT)/tests/symtool: $(SYMTOOL_OBJS) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) $(EVENT_TABLE_OBJS) \
			 | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(NETTRACE_LIB) \
		$(SYMBOLIZER_LDLIBS) $(COMMON_LIB) -o $@

ALL_TARGETS += $(OUTPUT)/tests/symtool

# traces that depend on TraceEvent's EventCache rules, for tests/nettrace.bats
$(OUTPUT)/tests/nettrace_scenarios: $(OUTPUT)/obj/tests/progs/nettrace_scenarios.o $(NETTRACE_LIB) \
				    | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(ALL_LDFLAGS) $(COMMON_LIB) -o $@

ALL_TARGETS += $(OUTPUT)/tests/nettrace_scenarios
