# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# tests/fuzz: the nettrace reader under libFuzzer.

# fuzz: bounded libFuzzer run on the reader (not part of `make test`).
#   make fuzz FUZZ_TIME=300
FUZZ_TIME   ?= 60
FUZZ_DIR    := $(OUTPUT)/fuzz
FUZZ_BIN    := $(FUZZ_DIR)/fuzz_nettrace_reader
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	       -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -Icommon -Inettrace

$(FUZZ_BIN): tests/fuzz/fuzz_nettrace_reader.c $(NETTRACE_READER_SRCS) $(COMMON_SRCS) \
	     $(wildcard nettrace/*.h common/*.h)
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(FUZZ_DIR)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) tests/fuzz/fuzz_nettrace_reader.c \
		$(NETTRACE_READER_SRCS) $(COMMON_SRCS) -o $@

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

