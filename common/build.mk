# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# common: the helpers every folder may use (logging sink, output files, UTF-16,
# hashing, a hash set of array indexes, a u64 map, /proc/PID/stat fields,
# another process's memory read or written,
# who a process is (comm, exe, cgroup, container, pod) and
# environment variables, the HTTP client, the monotonic clock, array growth,
# JSON string literals, ELF files opened with libelf, threads that take no
# signal).
# They include libc and system libraries only.  COMMON_LIB is linked into
# every program, followed by COMMON_LDLIBS: the system libraries its objects
# call (libelf, for elf_file.c; libcurl, for http_client.c; a program that
# does not use them pulls nothing from them, the archive being static and
# the link --as-needed).

COMMON_SRCS := $(addprefix common/,log.c outfile.c utf16.c index_set.c proc_stat.c proc_env.c proc_info.c proc_mem.c \
	       http_client.c clock.c grow.c json_str.c elf_file.c thread.c)
COMMON_OBJS := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(COMMON_SRCS))
COMMON_LIB  := $(OUTPUT)/libcommon.a
COMMON_LDLIBS := -lelf -lcurl

$(COMMON_LIB): $(COMMON_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(COMMON_LIB)
