# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# common: the helpers every folder may use (logging sink, UTF-16, hashing,
# a hash set of array indexes).
# They include only libc.  COMMON_LIB is linked into every program.

COMMON_SRCS := common/log.c common/utf16.c common/index_set.c
COMMON_OBJS := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(COMMON_SRCS))
COMMON_LIB  := $(OUTPUT)/libcommon.a

$(COMMON_LIB): $(COMMON_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(COMMON_LIB)
