# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# common: the helpers every folder may use (logging sink, output files, UTF-16,
# hashing, a hash set of array indexes, /proc/PID/stat fields).
# They include only libc.  COMMON_LIB is linked into every program.

COMMON_SRCS := common/log.c common/outfile.c common/utf16.c common/index_set.c common/proc_stat.c common/http_client.c
COMMON_OBJS := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(COMMON_SRCS))
COMMON_LIB  := $(OUTPUT)/libcommon.a

$(COMMON_LIB): $(COMMON_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(COMMON_LIB)
