# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# nettrace: the nettrace format library (writer, reader, strings).
# NETTRACE_LIB (libnettrace.a) depends on common/ and libc only;
# tests/house.bats checks that on its objects.

NETTRACE_SRCS := $(addprefix nettrace/,writer.c writer_stacks.c writer_meta.c writer_files.c writer_salvage.c writer_v6.c reader.c reader_meta.c reader_v6.c strings.c json.c)
NETTRACE_OBJS := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(NETTRACE_SRCS))
NETTRACE_LIB  := $(OUTPUT)/libnettrace.a

$(NETTRACE_LIB): $(NETTRACE_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(NETTRACE_LIB)
