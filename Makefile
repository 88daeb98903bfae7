# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# ebpf-collect top-level Makefile (libbpf-tools style).
#
#   make            build everything into .output/
#   make test       C unit tests + bats integration tests; ends "N passed, N failed, N skipped"
#   make bench      benchmarks (not part of make test)
#   make fuzz       bounded libFuzzer run on the nettrace reader
#   make deb        Debian package (debian/, dpkg-buildpackage) into .output/deb
#   make V=1        show full commands
#
# Each directory owns a fragment (usdt/build.mk, bpf/build.mk, ...), included
# below; it appends to ALL_TARGETS, UNIT_TESTS and BENCH_TARGETS.

OUTPUT     ?= $(abspath .output)
GEN        := $(OUTPUT)/gen
CC         ?= cc
CLANG      ?= clang
LLVM_STRIP ?= llvm-strip
BPFTOOL    ?= bpftool
ARCH       := $(shell uname -m | sed 's/x86_64/x86/' | sed 's/aarch64/arm64/')
SHARED     ?= $(abspath ../shared)

# The project's own manifest: the events the reference runtime and the
# symbolizer need, checked field by field against the real ClrEtwAll.man.
MANIFEST   := usdt/clr-events.man

WARN       := -Wall -Wextra -Werror
CFLAGS     ?= -g -O2
ALL_CFLAGS := $(CPPFLAGS) $(CFLAGS) $(WARN) -std=gnu11 -D_GNU_SOURCE -fno-omit-frame-pointer \
              -I$(OUTPUT) -I$(GEN) -Icommon -Iusdt -Isymbolizer -Inettrace -Iviews -Icollector -Icollector/session -Icollector/sources -Icollector/pipeline -Icollector/fleet -Ibpf $(EXTRA_CFLAGS)
ALL_LDFLAGS := $(LDFLAGS) $(EXTRA_LDFLAGS)

ifeq ($(V),1)
	Q =
	msg =
else
	Q = @
	msg = @printf '  %-8s %s%s\n' "$(1)" "$(patsubst $(abspath .)/%,%,$(2))" "$(if $(3), $(3))";
	MAKEFLAGS += --no-print-directory
endif

ALL_TARGETS   :=
UNIT_TESTS    :=
BENCH_TARGETS :=

.PHONY: all
all: real-all

include common/build.mk
include usdt/build.mk
include usdt/refrt/build.mk
include nettrace/build.mk
include symbolizer/build.mk
include bpf/build.mk
include views/build.mk
include collector/build.mk
include tests/unit/build.mk
include tests/bench/build.mk
include tests/progs/build.mk
include tests/fuzz/build.mk
include tests/traceevent/build.mk

.PHONY: real-all
real-all: $(ALL_TARGETS)

$(OUTPUT) $(GEN) $(OUTPUT)/tests $(OUTPUT)/obj:
	$(Q)mkdir -p $@

# common/'s objects first: every other object waits for libcommon.a, so
# every link line can name $(COMMON_LIB).
$(OUTPUT)/obj/common/%.o: common/%.c | $(OUTPUT)/obj
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# Generic object rule for user-space C: .output/obj/<dir>/<name>.o
$(OUTPUT)/obj/%.o: %.c | $(OUTPUT)/obj $(COMMON_LIB)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

-include $(shell find $(OUTPUT)/obj -name '*.d' 2>/dev/null)

.PHONY: test
test: all $(UNIT_TESTS)
	$(Q)OUTPUT=$(OUTPUT) SHARED=$(SHARED) tests/run

.PHONY: unit
unit: all $(UNIT_TESTS)
	$(Q)OUTPUT=$(OUTPUT) SHARED=$(SHARED) tests/run --unit-only

.PHONY: bench
bench: all $(BENCH_TARGETS)
	$(Q)OUTPUT=$(OUTPUT) SHARED=$(SHARED) scripts/bench.sh

.PHONY: clean
clean:
	$(call msg,CLEAN)
	$(Q)rm -rf $(OUTPUT)

.DELETE_ON_ERROR:
.SECONDARY:

# Debian package with Debian's tooling (debian/): .output/deb/ebpf-collect_VERSION_ARCH.deb
.PHONY: deb
deb:
	$(Q)mkdir -p $(OUTPUT)/deb
	$(Q)OUTPUT=$(OUTPUT) dpkg-buildpackage -b -us -uc --buildinfo-option=-u$(OUTPUT)/deb \
		--buildinfo-file=$(OUTPUT)/deb/ebpf-collect.buildinfo \
		--changes-option=-u$(OUTPUT)/deb --changes-file=$(OUTPUT)/deb/ebpf-collect.changes \
		>$(OUTPUT)/deb/build.log 2>&1 || \
		{ tail -20 $(OUTPUT)/deb/build.log; exit 1; }
	$(Q)for f in $(OUTPUT)/deb/*.deb; do printf '  %-8s %s\n' DEB "$$f"; done
