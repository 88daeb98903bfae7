# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# symbolizer: naming addresses (perf maps, ELF, kallsyms, process mappings)
# and naming a trace's frames in it (symbolize.c: the rundown-style method
# and module events, rundown.c their payloads, method_name.c a method's one
# display name, unwind.c user stacks copied by a CPU sample unwound by CFI
# through libdw; symbol_store.c debug files by build id from symbol stores,
# debuginfod and the cache).
#
#   $(SYMBOLIZER_LIB)      libsymbolizer.a
#   SYMBOLIZER_LDLIBS      what a binary linking it needs (plus $(NETTRACE_LIB)
#                          for symbolize.c's writing and $(COMMON_LIB))

SYMBOLIZER_LIB    := $(OUTPUT)/libsymbolizer.a
SYMBOLIZER_LDLIBS := -ldw -lelf -lz -llzma -ldebuginfod -lcurl
SYMBOLIZER_SRCS   := strpool.c range_table.c perf_map.c elf_syms.c kallsyms.c proc_maps.c symbolizer.c unwind.c rundown.c method_name.c symbolize.c symbol_store.c
SYMBOLIZER_OBJS   := $(addprefix $(OUTPUT)/obj/symbolizer/,$(SYMBOLIZER_SRCS:.c=.o))

$(SYMBOLIZER_LIB): $(SYMBOLIZER_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

ALL_TARGETS += $(SYMBOLIZER_LIB)
