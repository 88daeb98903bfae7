# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# symbolizer: build fragment included by the top-level Makefile.
#
# libnettrace.a: the .nettrace writer, reader and `dump` subcommand
# (NETTRACE_LIB, linked into ebpf-collect by collector/build.mk).
# nettrace-dump: the same dump as a stand-alone binary.  Both link the
# manifest event table (EVENT_TABLE_OBJS from usdt/build.mk) when it exists;
# without it dump prints manifest payloads as hex.

NETTRACE_SRCS := symbolizer/nettrace_writer.c symbolizer/nettrace_reader.c symbolizer/dump.c
NETTRACE_OBJS := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(NETTRACE_SRCS))
NETTRACE_LIB  := $(OUTPUT)/libnettrace.a

$(NETTRACE_LIB): $(NETTRACE_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(OUTPUT)/nettrace-dump: $(OUTPUT)/obj/symbolizer/nettrace_dump_main.o $(NETTRACE_LIB) \
			 $(EVENT_TABLE_OBJS)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(ALL_LDFLAGS) -o $@

ALL_TARGETS += $(NETTRACE_LIB) $(OUTPUT)/nettrace-dump

# unit tests
NETTRACE_TESTS := $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(wildcard tests/unit/test_nettrace*.c))

$(NETTRACE_TESTS): $(OUTPUT)/tests/%: $(OUTPUT)/obj/tests/unit/%.o $(NETTRACE_LIB) \
		   $(EVENT_TABLE_OBJS) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(ALL_LDFLAGS) -o $@

UNIT_TESTS += $(NETTRACE_TESTS)

# bench
$(OUTPUT)/bench_nettrace: $(OUTPUT)/obj/symbolizer/bench_nettrace.o $(NETTRACE_LIB)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(ALL_LDFLAGS) -o $@

# also built by `make`: tests/nettrace.bats checks the files it writes (-k)
BENCH_TARGETS += $(OUTPUT)/bench_nettrace
ALL_TARGETS += $(OUTPUT)/bench_nettrace

# fuzz: bounded libFuzzer run on the reader (not part of `make test`).
#   make fuzz FUZZ_TIME=300
FUZZ_TIME   ?= 60
FUZZ_DIR    := $(OUTPUT)/fuzz
FUZZ_BIN    := $(FUZZ_DIR)/fuzz_nettrace_reader
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	       -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -Iusdt -Isymbolizer

$(FUZZ_BIN): tests/fuzz/fuzz_nettrace_reader.c symbolizer/nettrace_reader.c \
	     symbolizer/nettrace.h symbolizer/nettrace_internal.h
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(FUZZ_DIR)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) tests/fuzz/fuzz_nettrace_reader.c \
		symbolizer/nettrace_reader.c -o $@

.PHONY: fuzz
fuzz: $(FUZZ_BIN)
	$(Q)mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds
	$(Q)for f in $$(find $(SHARED)/testdata/nettrace -name '*.nettrace'); do \
		b=$$(basename "$$f"); head -c 65536 "$$f" > $(FUZZ_DIR)/seeds/$$b; \
		case $$b in *truncated*) continue;; esac; \
		python3 tests/nettrace_to_v6.py "$$f" $(FUZZ_DIR)/v6.tmp && \
		head -c 65536 $(FUZZ_DIR)/v6.tmp > $(FUZZ_DIR)/seeds/v6-$$b; done; \
		rm -f $(FUZZ_DIR)/v6.tmp
	$(call msg,FUZZ,$(FUZZ_BIN),$(FUZZ_TIME)s)
	$(Q)cd $(FUZZ_DIR) && ./fuzz_nettrace_reader -max_total_time=$(FUZZ_TIME) \
		-max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		corpus seeds

# traces that depend on TraceEvent's EventCache rules, for tests/nettrace.bats
$(OUTPUT)/tests/nettrace_scenarios: $(OUTPUT)/obj/tests/nettrace_scenarios.o $(NETTRACE_LIB) \
				    | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(ALL_LDFLAGS) -o $@

ALL_TARGETS += $(OUTPUT)/tests/nettrace_scenarios
