# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# symbolizer: naming addresses (perf maps, ELF, kallsyms, process mappings)
# and the rundown events that carry the names into a trace.
#
#   $(SYMBOLIZER_LIB)      libsymbolizer.a
#   SYMBOLIZER_LDLIBS      what a binary linking it needs (plus $(NETTRACE_LIB)
#                          for sym_rundown__write and $(COMMON_LIB))

SYMBOLIZER_LIB    := $(OUTPUT)/libsymbolizer.a
SYMBOLIZER_LDLIBS := -lelf -lz
SYMBOLIZER_SRCS   := strpool.c range_table.c perf_map.c elf_syms.c kallsyms.c proc_maps.c symbolizer.c rundown.c rundown_write.c symbolize.c
SYMBOLIZER_OBJS   := $(addprefix $(OUTPUT)/obj/symbolizer/,$(SYMBOLIZER_SRCS:.c=.o))

$(SYMBOLIZER_LIB): $(SYMBOLIZER_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

ALL_TARGETS += $(SYMBOLIZER_LIB)
