# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# views: the subcommands over a trace (dump, report, convert and its formats,
# split, symbolize) and over the fleet's ClickHouse tables (fleet).  They
# link the libraries only (nettrace, symbolizer, the usdt event table, common),
# never the collector.
#
#   VIEWS_OBJS                  every view, linked into ebpf-collect
#   $(OUTPUT)/nettrace-dump     `ebpf-collect dump` alone

VIEWS_SRCS := $(addprefix views/,dump.c view.c report.c convert.c folded.c \
	      speedscope.c flamegraph.c symbolize_cmd.c split.c fleet.c)
VIEWS_OBJS := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(VIEWS_SRCS))

ALL_TARGETS += $(OUTPUT)/nettrace-dump
$(OUTPUT)/nettrace-dump: $(OUTPUT)/obj/views/nettrace_dump_main.o \
			 $(OUTPUT)/obj/views/dump.o $(EVENT_META_OBJS) \
			 $(EVENT_TABLE_OBJS) $(EVENT_TABLE_LOAD_OBJS) $(NETTRACE_LIB) $(COMMON_LIB)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(ALL_LDFLAGS) -lexpat $(COMMON_LIB) $(COMMON_LDLIBS) -o $@
