# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# bpf: build fragment included by the top-level Makefile.
#
# libbpf-tools chain (style item 13):
#   bpf/%.bpf.c -> $(OUTPUT)/bpf/%.bpf.o -> $(OUTPUT)/%.skel.h -> objects
#                  (clang -target bpf,      (bpftool gen skeleton)
#                   then bpftool gen object)
# Every bpf/*.bpf.c gets a skeleton named after it (struct <name>, <name>__open).
# Exports: BPF_OBJS, BPF_SKELS (objects that include a skeleton depend on it).
#
# vmlinux.h: the committed, pinned bpf/vmlinux/$(ARCH)/vmlinux.h (regenerate
# with scripts/gen-vmlinux-h.sh); `make VMLINUX_H=host` dumps the running
# kernel's BTF into $(OUTPUT)/vmlinux/ instead.

BPF_SRCS  := $(wildcard bpf/*.bpf.c)
BPF_OBJS  := $(patsubst bpf/%.bpf.c,$(OUTPUT)/bpf/%.bpf.o,$(BPF_SRCS))
BPF_SKELS := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.skel.h,$(BPF_SRCS))

ifeq ($(VMLINUX_H),host)
VMLINUX_DIR := $(OUTPUT)/vmlinux
$(VMLINUX_DIR)/vmlinux.h: /sys/kernel/btf/vmlinux
	$(call msg,GEN,$@)
	$(Q)BPFTOOL=$(BPFTOOL) scripts/gen-vmlinux-h.sh $< $@ 2>/dev/null
else
VMLINUX_DIR := bpf/vmlinux/$(ARCH)
endif

# clang's own system include dirs, after ours (-idirafter), so
# <asm/types.h> etc. resolve for the bpf target (libbpf-tools' recipe)
CLANG_BPF_SYS_INCLUDES ?= $(shell $(CLANG) -v -E - </dev/null 2>&1 \
	| sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')

BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) -Wall -Werror \
	-I$(VMLINUX_DIR) -Ibpf $(CLANG_BPF_SYS_INCLUDES)

$(OUTPUT)/bpf:
	$(Q)mkdir -p $@

$(OUTPUT)/bpf/%.bpf.o: bpf/%.bpf.c bpf/collector_event.h bpf/ce_maps.bpf.h bpf/ce_common.bpf.h $(VMLINUX_DIR)/vmlinux.h | $(OUTPUT)/bpf
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $(@:.o=.tmp.o)
	$(Q)$(BPFTOOL) gen object $@ $(@:.o=.tmp.o)
	$(Q)rm -f $(@:.o=.tmp.o)

$(OUTPUT)/%.skel.h: $(OUTPUT)/bpf/%.bpf.o | $(OUTPUT)
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $* > $@

.PHONY: bpf
bpf: $(BPF_SKELS)

# Skeletons whose default name would collide with the collector's own API
# (kernel_events__*, usdt_generic__*) get an explicit name; these rules
# override the pattern rule above.
$(OUTPUT)/kernel_events.skel.h: $(OUTPUT)/bpf/kernel_events.bpf.o | $(OUTPUT)
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name kernel_events_bpf > $@

$(OUTPUT)/bpf/kernel_events.bpf.o: bpf/kernel_event.h bpf/eh_unwind.h bpf/eh_walk.bpf.h bpf/x86_call.h

$(OUTPUT)/usdt_generic.skel.h: $(OUTPUT)/bpf/usdt_generic.bpf.o | $(OUTPUT)
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name usdt_generic_bpf > $@

$(OUTPUT)/bpf/usdt_generic.bpf.o: bpf/usdt_generic_event.h

# tpshim__find and tpshim__tracepoint are usdt/tracepoint_read.h's
$(OUTPUT)/tpshim.skel.h: $(OUTPUT)/bpf/tpshim.bpf.o | $(OUTPUT)
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name tpshim_bpf > $@

$(OUTPUT)/bpf/tpshim.bpf.o: bpf/tpshim_event.h

