# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# nettrace: the nettrace format library (writer, reader, split, strings, JSON).
# NETTRACE_LIB (libnettrace.a) depends on common/ and libc only, and its
# files call each other in no loop; tests/house.bats checks both on its
# objects.

# the reader alone (tests/fuzz builds it under libFuzzer)
NETTRACE_READER_SRCS := $(addprefix nettrace/,reader.c reader_v5.c reader_v6.c reader_blocks.c \
			reader_meta.c strings.c json.c)
NETTRACE_SRCS := $(NETTRACE_READER_SRCS) \
		 $(addprefix nettrace/,writer.c writer_blocks.c writer_events.c writer_meta.c \
		 writer_stacks.c writer_v6.c writer_salvage.c split.c)
NETTRACE_OBJS := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(NETTRACE_SRCS))
NETTRACE_LIB  := $(OUTPUT)/libnettrace.a

$(NETTRACE_LIB): $(NETTRACE_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(NETTRACE_LIB)
