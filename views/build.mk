# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# views: the subcommands over a trace (dump, report, convert and its formats,
# split, symbolize) and over the fleet's ClickHouse tables (fleet).  They
# link the libraries only (nettrace, symbolizer, the usdt event table, common),
# never the collector.
#
#   VIEWS_OBJS                  every view, linked into ebpf-collect
#   $(OUTPUT)/nettrace-dump     `ebpf-collect dump` alone

VIEWS_SRCS := $(addprefix views/,dump.c view.c report.c convert.c folded.c \
	      speedscope.c flamegraph.c pprof.c chromium.c symbolize_cmd.c symbolize_trace.c split.c fleet.c)
VIEWS_OBJS := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(VIEWS_SRCS))

# convert --format pprof: the profile message (views/profile.proto) as C by
# protoc-c, linked with libprotobuf-c; the gzip around it is zlib's
VIEWS_PROTO_C := $(GEN)/profile.pb-c.c
VIEWS_PROTO_OBJS := $(OUTPUT)/obj/gen/profile.pb-c.o
VIEWS_LDLIBS := -lprotobuf-c -lz
$(GEN)/profile.pb-c.c $(GEN)/profile.pb-c.h &: views/profile.proto | $(GEN)
	$(call msg,PROTOC,$@)
	$(Q)protoc-c --c_out=$(GEN) --proto_path=views $<
$(OUTPUT)/obj/views/pprof.o: $(GEN)/profile.pb-c.h
VIEWS_OBJS += $(VIEWS_PROTO_OBJS)

ALL_TARGETS += $(OUTPUT)/nettrace-dump
$(OUTPUT)/nettrace-dump: $(OUTPUT)/obj/views/nettrace_dump_main.o \
			 $(OUTPUT)/obj/views/dump.o $(EVENT_META_OBJS) \
			 $(EVENT_TABLE_OBJS) $(EVENT_TABLE_LOAD_OBJS) $(NETTRACE_LIB) $(COMMON_LIB)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(ALL_LDFLAGS) -lexpat $(COMMON_LIB) $(COMMON_LDLIBS) -o $@
