# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# usdt/refrt/: the reference runtime. Build fragment.
#
#   $(OUTPUT)/refrt    a program that looks like a CoreCLR process to a tracer:
#                      JIT'd x86-64 code with frame pointers, perf maps, and
#                      the CLR events fired through the generated provider
#                      (only usdt/refrt/events.c includes $(GEN_PROVIDER_H)).
# See usdt/refrt/README.md.

REFRT         := $(OUTPUT)/refrt
REFRT_SRCS    := $(wildcard usdt/refrt/*.c)
REFRT_OBJS    := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(REFRT_SRCS))

# every refrt object may include the generated header through events.h users
$(REFRT_OBJS): | $(GEN_PROVIDER_H)

$(REFRT): $(REFRT_OBJS) $(PROVIDER_OBJS)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(ALL_LDFLAGS) -lpthread -lm $(COMMON_LIB) $(COMMON_LDLIBS) -o $@

ALL_TARGETS += $(REFRT)
