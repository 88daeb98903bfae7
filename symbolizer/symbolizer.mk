# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# symbolizer/: symbol sources and views. Build fragment.
#
#   $(SYMBOLIZER_LIB)      libsymbolizer.a: perf maps, ELF, kallsyms, process
#                          mappings, the symbolizer, report/convert/symbolize views
#   SYMBOLIZER_LDLIBS      what a binary linking it needs (plus $(NETTRACE_LIB)
#                          for the views)
#   $(OUTPUT)/tests/symtool   small CLI for tests and debugging:
#                          symtool PID ADDR... | symtool --perf-map FILE ADDR...
#   $(OUTPUT)/bench_symbolizer

SYMBOLIZER_LIB    := $(OUTPUT)/libsymbolizer.a
SYMBOLIZER_LDLIBS := -lelf -lz
SYMBOLIZER_SRCS   := perf_map.c elf_syms.c kallsyms.c proc_maps.c symbolizer.c views.c
SYMBOLIZER_OBJS   := $(addprefix $(OUTPUT)/obj/symbolizer/,$(SYMBOLIZER_SRCS:.c=.o))

$(SYMBOLIZER_LIB): $(SYMBOLIZER_OBJS)
	$(call msg,AR,$@)
	$(Q)$(AR) rcs $@ $^

# The views read traces through the nettrace library (issue 4).
SYM_NT_LIB = $(or $(NETTRACE_LIB),$(OUTPUT)/libnettrace.a)

# symtool links the generated event table when usdt/ provides it (event
# names in report / --event); views.c only references it weakly.
$(OUTPUT)/tests/symtool: $(OUTPUT)/obj/symbolizer/symtool.o $(SYMBOLIZER_LIB) $(SYM_NT_LIB) \
			 $(EVENT_TABLE_OBJS) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) $(filter %.o,$^) $(SYMBOLIZER_LIB) $(SYM_NT_LIB) \
		$(SYMBOLIZER_LDLIBS) -o $@

$(OUTPUT)/tests/test_symbolizer: $(OUTPUT)/obj/tests/unit/test_symbolizer.o $(SYMBOLIZER_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -rdynamic $^ $(SYMBOLIZER_LDLIBS) -ldl -o $@

$(OUTPUT)/tests/test_views: $(OUTPUT)/obj/tests/unit/test_views.o $(SYMBOLIZER_LIB) $(SYM_NT_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) $^ $(SYMBOLIZER_LDLIBS) -o $@

$(OUTPUT)/bench_symbolizer: $(OUTPUT)/obj/symbolizer/bench_symbolizer.o $(SYMBOLIZER_LIB) | $(OUTPUT)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) $^ $(SYMBOLIZER_LDLIBS) -o $@

ALL_TARGETS   += $(SYMBOLIZER_LIB) $(OUTPUT)/tests/symtool
UNIT_TESTS    += $(OUTPUT)/tests/test_symbolizer $(OUTPUT)/tests/test_views
BENCH_TARGETS += $(OUTPUT)/bench_symbolizer

# tests/unit/test.h's ASSERT_STREQ formats into a 512-byte buffer; gcc's
# truncation warning fires for any char[] argument larger than that.
$(OUTPUT)/obj/tests/unit/test_symbolizer.o $(OUTPUT)/obj/tests/unit/test_views.o: \
	ALL_CFLAGS += -Wno-format-truncation
