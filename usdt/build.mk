# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# usdt/: the provider compiler and what it generates.
#
#   $(OUTPUT)/usdt-gen            the manifest compiler (expat)
#   $(GEN)/clretw_provider.h/.c   runtime side of $(MANIFEST): FireEtXplat*, probes
#   $(GEN)/clretw_events.c        collector side: clretw_event_table
#
# Exported for the other fragments:
#   USDT_GEN          path of usdt-gen
#   GEN_PROVIDER_H    $(GEN)/clretw_provider.h; objects that include it need
#                     "| $(GEN_PROVIDER_H)" (order-only; -MMD does the rest)
#   PROVIDER_OBJS     object of clretw_provider.c (semaphores + probes)
#   EVENT_TABLE_OBJS  clretw_events.o + event_decode.o (ect_* lookups/decoder)
#   EVENT_TABLE_LOAD_OBJS  ect_table__load() + the manifest parser (link -lexpat)
#   EVENT_META_OBJS   manifest_meta.o: the event tables in the nettrace library's
#                     terms, with usdt/clr_event_names.c, the names table
#
# usdt/clr_event_names.c is generated but committed (the CLR manifest lives
# outside the project, in $(SHARED)): `make event-names` writes it again from
# usdt/clr-events-newer.man and $(SHARED)/manifests/ClrEtwAll.man, and
# tests/usdt_gen.bats checks that the committed file is what it writes.

USDT_GEN        := $(OUTPUT)/usdt-gen
USDT_GEN_SRCS   := usdt/usdt-gen.c usdt/usdt-gen-provider.c usdt/usdt-gen-batch.c \
		   usdt/usdt-gen-events.c \
		   usdt/manifest.c usdt/event_decode.c
USDT_GEN_OBJS   := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(USDT_GEN_SRCS))
GEN_PROVIDER_H  := $(GEN)/clretw_provider.h
GEN_FILES       := $(GEN)/clretw_provider.h $(GEN)/clretw_provider.c $(GEN)/clretw_events.c \
		   $(GEN)/clretw_caller.c
PROVIDER_OBJS   := $(OUTPUT)/obj/gen/clretw_provider.o
EVENT_TABLE_OBJS := $(OUTPUT)/obj/gen/clretw_events.o $(OUTPUT)/obj/usdt/event_decode.o
# ect_table__load(): a manifest's table built at run time (--manifest); -lexpat
EVENT_TABLE_LOAD_OBJS := $(OUTPUT)/obj/usdt/event_table_load.o $(OUTPUT)/obj/usdt/manifest.o
# the event table in the nettrace library's terms (metadata for writer and views)
EVENT_META_OBJS := $(OUTPUT)/obj/usdt/manifest_meta.o $(OUTPUT)/obj/usdt/clr_event_names.o
CLR_NAMES_MANIFESTS := usdt/clr-events-newer.man $(SHARED)/manifests/ClrEtwAll.man

.PHONY: event-names
event-names: $(USDT_GEN)
	$(call msg,GEN,usdt/clr_event_names.c)
	$(Q)$(USDT_GEN) --table usdt/clr_event_names.c --name clr_names $(CLR_NAMES_MANIFESTS)

$(USDT_GEN): $(USDT_GEN_OBJS)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) -lexpat $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

# one usdt-gen run writes all the files (grouped target, GNU make >= 4.3);
# clretw_caller.c (calls every FireEtXplat) is only used by test_usdt_roundtrip
$(GEN_FILES) &: $(USDT_GEN) $(MANIFEST) | $(GEN)
	$(call msg,GEN,$(GEN)/clretw_*)
	$(Q)$(USDT_GEN) $(MANIFEST) -o $(GEN) --emit-caller >/dev/null

$(OUTPUT)/obj/gen/%.o: $(GEN)/%.c $(GEN_PROVIDER_H)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

ALL_TARGETS += $(USDT_GEN) $(GEN_FILES) $(PROVIDER_OBJS) $(EVENT_TABLE_OBJS)

# usdt/provider_abi.h and usdt/batch_runtime.c.in go into every generated
# provider: usdt-gen carries their text as string literals made here
USDT_BATCH_INC  := $(OUTPUT)/obj/usdt/provider_abi.inc $(OUTPUT)/obj/usdt/batch_runtime.inc
$(OUTPUT)/obj/usdt/provider_abi.inc: usdt/provider_abi.h
$(OUTPUT)/obj/usdt/batch_runtime.inc: usdt/batch_runtime.c.in
$(USDT_BATCH_INC):
	$(Q)mkdir -p $(dir $@)
	$(Q)sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(OUTPUT)/obj/usdt/usdt-gen-batch.o: $(USDT_BATCH_INC)
$(OUTPUT)/obj/usdt/usdt-gen-batch.o: ALL_CFLAGS += -I$(OUTPUT)/obj/usdt

# The tracepoint shim (usdt/README.md, "The tracepoint shim"): a library a
# stock CoreCLR dlopen()s by LTTng-UST 2.12's name, built straight from its
# sources (it exports the LTTng names, its table and its probe functions,
# and links nothing of ours but usdt/batch_runtime.c.in's text: it runs
# inside the traced process).  Its directory goes on the target's
# LD_LIBRARY_PATH.
TPSHIM_DIR      := $(OUTPUT)/tpshim
TPSHIM_LIB      := $(TPSHIM_DIR)/liblttng-ust-tracepoint.so.0
# its table read from outside the process (tracepoint_read.h), and its
# tracepoints' signatures read and their payloads rebuilt (tracepoint_sig.h)
TPSHIM_READ_OBJS := $(OUTPUT)/obj/usdt/tracepoint_read.o $(OUTPUT)/obj/usdt/tracepoint_sig.o \
		    $(OUTPUT)/obj/usdt/event_decode.o

# (tracepoint_shim_batch.c: its batched mode, the generated providers'
# usdt/batch_runtime.c.in compiled under the shim's names)
TPSHIM_SRCS     := usdt/tracepoint_shim.c usdt/tracepoint_shim_batch.c
$(TPSHIM_LIB): $(TPSHIM_SRCS) usdt/tracepoint_abi.h usdt/provider_abi.h usdt/batch_runtime.c.in
	$(call msg,LIB,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -shared -fvisibility=hidden \
		-Wl,-soname,liblttng-ust-tracepoint.so.0 $(ALL_LDFLAGS) $(TPSHIM_SRCS) -lpthread -o $@

ALL_TARGETS += $(TPSHIM_LIB) $(TPSHIM_READ_OBJS)
